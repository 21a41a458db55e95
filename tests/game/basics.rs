//! The handshake, refused input, ping/pong, stale moves and who moves when.

use crate::SILENT;
use crate::common::game::{Driver, is_move};
use crate::positions::*;
use ferrimax::chess::Board;
use ferrimax::game::ENGINE_NAME;

/// The whole handshake, line for line. `MultiPV` is XBoard's name for the lines of an
/// analysis (python-chess manages that name itself and leaves it alone); `Ponder`, which
/// python-chess manages too, is not an option (`hard` and `easy` say it).
#[test]
fn protover_announces_every_feature_between_done_0_and_done_1() {
    let mut d = Driver::new();
    assert_eq!(d.send("xboard"), SILENT);
    let features = format!(
        "feature myname=\"{ENGINE_NAME}\" variants=\"normal,fischerandom\" ping=1 setboard=1 playother=1 \
         san=0 usermove=1 time=1 draw=1 sigint=0 reuse=1 analyze=1 colors=0 ics=1 \
         name=1 pause=0 nps=1 debug=1 memory=1 smp=1 exclude=1 egt=\"syzygy\""
    );
    assert_eq!(
        d.send("protover 2"),
        [
            "feature done=0",
            &features,
            "feature option=\"Hash -spin 64 1 65536\" option=\"Threads -spin 1 1 256\" \
             option=\"Book -file \" \
             option=\"BookDepth -spin 20 0 200\" option=\"BookVariety -spin 50 0 100\" \
             option=\"Resign -spin 0 0 10000\" option=\"ResignMoves -spin 3 1 100\" \
             option=\"Contempt -spin 10 -200 200\" option=\"DrawMargin -spin 25 0 1000\" \
             option=\"Kibitz -combo *off /// whisper /// kibitz\" \
             option=\"ThinkingExtras -check 1\" option=\"MultiPV -spin 1 1 64\" \
             option=\"LimitStrength -check 0\" option=\"Elo -spin 2000 1000 2800\" \
             option=\"Eval -combo *nnue /// classical\" option=\"EvalFile -file \" \
             option=\"MoveOverhead -spin 50 0 5000\" option=\"ClearHash -button\" \
             option=\"SyzygyProbeDepth -spin 1 1 100\" option=\"Syzygy50MoveRule -check 1\"",
            "feature done=1",
        ]
    );
}

/// Each refused line gets its exact reply, and the game is as before: 1.e4 is still
/// legal, and accepted silently.
#[test]
fn refused_lines_get_their_exact_reply_and_change_nothing() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "unknown command",
            "frobnicate now",
            "Error (unknown command): frobnicate now",
        ),
        (
            "malformed level",
            "level x y z",
            "Error (bad argument): level x y z",
        ),
        ("illegal move", "usermove e2e5", "Illegal move: e2e5"),
        ("bare move of the wrong side", "e7e5", "Illegal move: e7e5"),
        ("uci", "uci", "Error (unknown command): uci"),
        (
            "another variant",
            "variant crazyhouse",
            "Error (unsupported variant): crazyhouse",
        ),
        (
            "unknown option",
            "option Bogus=3",
            "Error (bad argument): option Bogus=3",
        ),
        (
            "undo at the start",
            "undo",
            "Error (command not legal now): undo",
        ),
        (
            "remove at the start",
            "remove",
            "Error (command not legal now): remove",
        ),
        (
            "setboard with junk",
            "setboard not a fen",
            "tellusererror Illegal position",
        ),
        (
            "setboard without kings",
            "setboard 8/8/8/8/8/8/8/8 w - - 0 1",
            "tellusererror Illegal position",
        ),
        (
            "exclude an illegal move",
            "exclude e2e5",
            "Illegal move: e2e5",
        ),
    ];
    for (name, line, reply) in cases {
        let mut d = Driver::new();
        d.send_all(&["new", "force"]);
        assert_eq!(d.send(line), [*reply], "{name}");
        assert_eq!(d.board().to_fen(), START, "{name}");
        assert_eq!(d.send("usermove e2e4"), SILENT, "{name}");
        assert_eq!(d.send("usermove e2e4"), ["Illegal move: e2e4"], "{name}");
    }
}

/// Refused lines while the engine thinks are answered at once and do not stop the search;
/// a new hash size waits for the next search instead of stopping this one.
#[test]
fn refused_lines_while_thinking_do_not_cost_the_move() {
    let mut d = Driver::new();
    d.send_all(&["new", SHALLOW]);
    assert_eq!(d.send_now("usermove e2e4"), SILENT);
    assert!(d.game().is_thinking());
    let refused = [
        ("setboard junk", "tellusererror Illegal position"),
        ("remove", "Error (command not legal now): remove"),
        ("usermove d2d4", "Illegal move: d2d4"),
    ];
    for (line, reply) in refused {
        assert_eq!(d.send_now(line), [reply], "{line}");
    }
    assert_eq!(d.send_now("memory 32"), SILENT);
    assert!(d.game().is_thinking(), "{}", d.transcript());
    assert_eq!(d.settle(), [REPLY_TO_E4]);
}

/// A seeded stream of printable garbage, some of it behind real command names, never
/// makes the game manager panic or stop answering.
#[test]
fn garbage_never_breaks_the_game_manager() {
    const LINES: usize = 400;
    const MAX_LEN: u64 = 40;
    const PRINTABLE_FIRST: u8 = 32;
    const PRINTABLE_COUNT: u8 = 95;
    let prefixes = [
        "",
        "level ",
        "usermove ",
        "setboard ",
        "time ",
        "st ",
        "ping ",
        "option ",
        "result ",
        "sd ",
    ];
    let mut d = Driver::new();
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for i in 0..LINES {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = (state % MAX_LEN) as usize;
        let garbage: String = (0..len)
            .map(|k| {
                ((state >> (k % 56)).to_le_bytes()[0] % PRINTABLE_COUNT + PRINTABLE_FIRST) as char
            })
            .collect();
        d.send(&format!("{}{garbage}", prefixes[i % prefixes.len()]));
    }
    assert_eq!(d.send("ping 99"), ["pong 99"]);
}

#[test]
fn pings_are_echoed_exactly() {
    let mut d = Driver::new();
    for token in ["7", "9223372036854775807", "-3", "0"] {
        assert_eq!(d.send(&format!("ping {token}")), [format!("pong {token}")]);
    }
}

/// Pong means done: while the engine thinks on its move, the pong follows the move; if
/// the move will not come, it goes out when the search is aborted.
#[test]
fn pong_waits_for_the_move_when_thinking() {
    let mut d = Driver::new();
    d.send_all(&["new", SHALLOW]);
    assert_eq!(d.send_now("go"), SILENT);
    assert_eq!(d.send_now("ping 3"), SILENT);
    assert_eq!(d.send_now("ping 4"), SILENT);
    assert_eq!(d.settle(), [WHITE_OPENS, "pong 3", "pong 4"]);

    let mut d = Driver::new();
    d.send_all(&["new", ENDLESS]);
    assert_eq!(d.send_now("go"), SILENT);
    assert_eq!(d.send_now("ping 5"), SILENT);
    assert_eq!(d.send_now("force"), ["pong 5"]);
    assert_eq!(d.drain(), SILENT);
}

/// No stale move: every command that changes the position or the mode first stops the
/// search and forgets it.
#[test]
fn no_stale_move_after_commands_that_abort_a_search() {
    let aborts: &[(&str, &[&str])] = &[
        ("force", &["force"]),
        ("new", &["new"]),
        ("result", &["result 1-0 {White resigns}"]),
        (
            "setboard",
            &["setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"],
        ),
        ("undo", &["undo"]),
        ("remove", &["remove"]),
        ("edit", &["edit", "."]),
    ];
    for (name, commands) in aborts {
        let mut d = Driver::new();
        d.send_all(&[
            "new",
            "force",
            "usermove e2e4",
            "usermove e7e5",
            "usermove g1f3",
            ENDLESS,
        ]);
        // The engine (Black) thinks after 1.e4 e5 2.Nf3, so undo and remove are both
        // legal; a White move meanwhile is refused.
        assert_eq!(d.send_now("go"), SILENT, "{name}");
        assert_eq!(
            d.send_now("usermove d2d4"),
            ["Illegal move: d2d4"],
            "{name}"
        );
        for line in *commands {
            assert_eq!(d.send_now(line), SILENT, "{name}: {line}");
        }
        assert!(!d.game().is_thinking(), "{name}");
        assert_eq!(d.drain(), SILENT, "{name}");
        assert_eq!(d.send("ping 9"), ["pong 9"], "{name}");
    }
}

/// In force mode moves are only applied; `go` makes the engine play the side to move.
#[test]
fn force_mode_only_applies_moves_then_go_plays_the_side_to_move() {
    let mut d = Driver::new();
    let silent = d.send_all(&[
        "new",
        "force",
        SHALLOW,
        "usermove e2e4",
        "usermove e7e5",
        "usermove g1f3",
    ]);
    assert_eq!(silent, SILENT);
    assert_eq!(d.send("go"), [REPLY_TO_NF3]);
}

/// `?` ends a search that would otherwise run for 1000 s, with a legal move.
#[test]
fn move_now_plays_the_best_move_so_far() {
    let mut d = Driver::new();
    d.send_all(&["new", "post", ENDLESS]);
    assert_eq!(d.send_now("go"), SILENT);
    d.wait_thinking();
    assert_eq!(
        d.send_now("?"),
        SILENT,
        "the search stops on its own thread"
    );
    let lines = d.settle();
    let m = lines.last().and_then(|l| l.strip_prefix("move "));
    let m = m.unwrap_or_else(|| d.fail("no move after ?"));
    assert!(Board::startpos().parse_move(m).is_ok(), "{m}");
    assert!(lines[..lines.len() - 1].iter().all(|l| !is_move(l)));
}

/// `?` when the engine is not thinking does nothing.
#[test]
fn move_now_when_idle_is_silent() {
    let mut d = Driver::new();
    assert_eq!(d.send_all(&["new", "force", "?"]), SILENT);
    assert!(!d.game().is_thinking());
}

#[test]
fn go_while_thinking_is_a_no_op() {
    let mut d = Driver::new();
    d.send_all(&["new", SHALLOW]);
    for _ in 0..3 {
        assert_eq!(d.send_now("go"), SILENT);
    }
    assert_eq!(d.settle(), [WHITE_OPENS]);
    assert_eq!(d.drain(), SILENT);
}

#[test]
fn playother_waits_for_the_opponent_then_replies() {
    let mut d = Driver::new();
    assert_eq!(d.send_all(&["new", "force", SHALLOW, "playother"]), SILENT);
    assert!(!d.game().is_thinking());
    assert_eq!(d.send("usermove e2e4"), [REPLY_TO_E4]);
}

/// GNU Chess's `black`: Black to move in the start position, the engine plays White.
#[test]
fn legacy_black_sets_black_to_move_and_engine_plays_white() {
    let mut d = Driver::new();
    assert_eq!(d.send_all(&["new", "force", SHALLOW, "black"]), SILENT);
    assert_eq!(d.send("usermove e7e5"), [WHITE_ANSWERS_E5]);
    let mut expected = Board::from_fen(START.replace(" w ", " b ").as_str()).unwrap();
    for m in ["e7e5", WHITE_ANSWERS_E5.trim_start_matches("move ")] {
        expected.make_move(expected.parse_move(m).unwrap());
    }
    assert_eq!(d.board().to_fen(), expected.to_fen());
}

/// `black` that would leave White in check with Black to move is refused.
#[test]
fn legacy_color_refuses_an_impossible_side_to_move() {
    let mut d = Driver::new();
    d.send_all(&["new", "force", &format!("setboard {WHITE_IN_CHECK}")]);
    assert_eq!(d.send("black"), ["Error (command not legal now): black"]);
    assert_eq!(d.board().to_fen(), WHITE_IN_CHECK);
}

/// For a person at a terminal: SAN is understood as well as coordinates (GUIs send
/// coordinates, and their moves read the same), `d` shows the board, its FEN, the side
/// to move and the game's moves, all as `#` lines, and `help` lists the commands.
#[test]
fn people_at_a_terminal_type_san_and_see_the_board() {
    let mut d = Driver::new();
    d.send_all(&["new", "force"]);
    for (typed, fen_after) in [
        ("e4", "b KQkq - 0 1"),
        ("Nf6", "w KQkq - 1 2"),
        ("g1f3", "b KQkq - 2 2"),
    ] {
        assert_eq!(d.send(typed), SILENT, "{typed}");
        assert!(
            d.board().to_fen().ends_with(fen_after),
            "{typed}: {}",
            d.board().to_fen()
        );
    }
    assert_eq!(d.send("Qh5"), ["Illegal move: Qh5"]);
    assert_eq!(
        d.send("d"),
        [
            "#   +-----------------+",
            "# 8 | r n b q k b . r |",
            "# 7 | p p p p p p p p |",
            "# 6 | . . . . . n . . |",
            "# 5 | . . . . . . . . |",
            "# 4 | . . . . P . . . |",
            "# 3 | . . . . . N . . |",
            "# 2 | P P P P . P P P |",
            "# 1 | R N B Q K B . R |",
            "#   +-----------------+",
            "#     a b c d e f g h",
            "# FEN: rnbqkb1r/pppppppp/5n2/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2",
            "# Black to move",
            "# Moves: 1. e4 Nf6 2. Nf3",
        ]
    );
    let help = d.send("help");
    assert!(
        help.len() > 10 && help.iter().all(|l| l.starts_with("# ")),
        "{help:?}"
    );
    assert!(help.iter().any(|l| l.contains("setboard FEN")), "{help:?}");
}
