//! The catalogue of bad input: each line gets its exact reply (or none), and the game is
//! exactly as before it (the position, and a `ping` still answered).

use crate::common::game::Driver;

/// A position where White may castle long but not short (f1 is attacked), with a pawn
/// about to promote and no en passant possible.
const TRAPS: &str = "r3k3/1P6/8/3pP3/8/8/5r2/R3K2R w KQq - 0 1";

#[test]
fn bad_input_gets_its_reply_and_changes_nothing() {
    let long_line = "x".repeat(100_000);
    let binary = "\u{1}\u{2}\u{7f}\u{0}garbage\u{1b}[31m";
    let cases: Vec<(&str, String, Vec<String>)> = vec![
        ("empty line", String::new(), vec![]),
        ("blanks", "   \t ".into(), vec![]),
        (
            "a 100 KB line",
            long_line.clone(),
            vec![format!("Error (unknown command): {long_line}")],
        ),
        (
            "control characters, echoed as ?",
            binary.into(),
            vec!["Error (unknown command): ????garbage?[31m".into()],
        ),
        (
            "a move for the wrong side",
            "usermove e8d8".into(),
            vec!["Illegal move: e8d8".into()],
        ),
        (
            "castling through check",
            "usermove e1g1".into(),
            vec!["Illegal move: e1g1".into()],
        ),
        (
            "en passant not allowed",
            "usermove e5d6".into(),
            vec!["Illegal move: e5d6".into()],
        ),
        (
            "promotion to a king",
            "usermove b7b8k".into(),
            vec!["Illegal move: b7b8k".into()],
        ),
        (
            "promotion to a pawn",
            "usermove b7b8p".into(),
            vec!["Illegal move: b7b8p".into()],
        ),
        (
            "nonsense move",
            "usermove z9z9".into(),
            vec!["Illegal move: z9z9".into()],
        ),
        (
            "nine files",
            "setboard rnbqkbnrr/8/8/8/8/8/8/4K3 w - - 0 1".into(),
            vec!["tellusererror Illegal position".into()],
        ),
        (
            "three kings",
            "setboard kkk5/8/8/8/8/8/8/4K3 w - - 0 1".into(),
            vec!["tellusererror Illegal position".into()],
        ),
        (
            "no FEN",
            "setboard".into(),
            vec!["Error (bad argument): setboard".into()],
        ),
        (
            "negative depth",
            "sd -1".into(),
            vec!["Error (bad argument): sd -1".into()],
        ),
        (
            "negative memory",
            "memory -5".into(),
            vec!["Error (bad argument): memory -5".into()],
        ),
        (
            "negative cores",
            "cores -1".into(),
            vec!["Error (bad argument): cores -1".into()],
        ),
        (
            "negative moves per session",
            "level -1 1 0".into(),
            vec!["Error (bad argument): level -1 1 0".into()],
        ),
        (
            "negative st",
            "st -1".into(),
            vec!["Error (bad argument): st -1".into()],
        ),
        (
            "negative nps",
            "nps -1".into(),
            vec!["Error (bad argument): nps -1".into()],
        ),
        (
            "a word for a number",
            "time soon".into(),
            vec!["Error (bad argument): time soon".into()],
        ),
        (
            "unknown option",
            "option Bogus=1".into(),
            vec!["Error (bad argument): option Bogus=1".into()],
        ),
        (
            "a word for a spin",
            "option Hash=lots".into(),
            vec!["Error (bad argument): option Hash=lots".into()],
        ),
        (
            "unsupported variant",
            "variant crazyhouse".into(),
            vec!["Error (unsupported variant): crazyhouse".into()],
        ),
        (
            "undo at the start",
            "undo".into(),
            vec!["Error (command not legal now): undo".into()],
        ),
        (
            "exclude an illegal move",
            "exclude e2e5".into(),
            vec!["Illegal move: e2e5".into()],
        ),
        ("huge time", "time 99999999999999999999999".into(), vec![]),
        (
            "huge memory",
            "memory 99999999999999999999999".into(),
            vec!["?".into()],
        ),
        ("huge cores", "cores 99999999999999999999".into(), vec![]),
        ("huge nps", "nps 18446744073709551616".into(), vec![]),
        (
            "a line ending in CR",
            "ping 7\r".into(),
            vec!["pong 7".into()],
        ),
    ];
    for (name, line, expected) in cases {
        let mut d = Driver::new();
        d.send_all(&["new", "force", &format!("setboard {TRAPS}")]);
        let before = d.board().to_fen();
        let reply = d.send(&line);
        if expected == ["?"] {
            // The machine decides whether the reduction is reported.
            assert!(reply.len() <= 1, "{name}: {reply:?}");
        } else {
            assert_eq!(reply, expected, "{name}");
        }
        assert_eq!(d.board().to_fen(), before, "{name}: the position changed");
        assert_eq!(d.send("ping 1"), ["pong 1"], "{name}");
        assert_eq!(d.game().inconsistency(), None, "{name}");
    }
}
