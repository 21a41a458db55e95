//! Start-up, errors, ping/pong and stale moves, played against the real binary.

mod common;

use common::board_after;
use common::engine::{Engine, PROMPT};
use ferrimax::chess::Board;
use std::time::{Duration, Instant};

#[test]
fn startup_announces_features_between_done_0_and_done_1() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let first = e.next_line(PROMPT).expect("a reply to protover");
    assert_eq!(first, "feature done=0");
    let before = e.expect_line("feature done=1");
    let features = before.join(" ");
    for needed in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "san=0",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "reuse=1",
        "analyze=1",
        "playother=1",
        "time=1",
        "draw=1",
        "memory=1",
        "exclude=1",
        "nps=1",
        "debug=1",
        "ics=1",
        "name=1",
        "variants=\"normal\"",
    ] {
        assert!(features.contains(needed), "missing {needed}: {features}");
    }
    assert!(features.contains("myname=\"Ferrimax "), "{features}");
    assert!(
        features.contains("option=\"Hash -spin 64 1 65536\""),
        "{features}"
    );
    // The search uses one thread: no smp feature and no Threads option. Ponder and
    // MultiPV are names python-chess manages itself.
    for absent in ["smp=", "Threads", "Ponder", "MultiPV"] {
        assert!(!features.contains(absent), "{absent}: {features}");
    }
    assert!(
        before.iter().all(|l| l.starts_with("feature ")),
        "{before:?}"
    );
}

#[test]
fn startup_is_fast_even_with_a_one_gigabyte_hash() {
    let mut e = Engine::start();
    e.send("xboard\nprotover 2");
    let (at, _) = loop {
        let (at, line) = e.next_timed(PROMPT).expect("features");
        if line == "feature done=1" {
            break (at, line);
        }
    };
    let startup = at - e.started;
    e.send("memory 1024");
    e.send("option Hash=1024");
    let sent = Instant::now();
    e.sync(1);
    let resize = sent.elapsed();
    eprintln!(
        "done=1 after {startup:?} from process start; memory/Hash 1024 + ping took {resize:?}"
    );
    // The design number is 20-50 ms; the test allows for a loaded CI machine.
    assert!(startup < Duration::from_millis(1000), "{startup:?}");
    assert!(resize < Duration::from_millis(1000), "{resize:?}");
}

/// Black, a rook down, can return to a position of the game: a draw it takes at once, but
/// only if the table still holds the game positions after the resize.
const REPETITION_FEN: &str = "4k3/8/8/8/8/8/4P3/R3K3 b - - 0 1";
const SHUFFLE: [&str; 4] = ["e8d8", "e1d1", "d8e8", "d1e1"];

#[test]
fn a_hash_larger_than_the_machine_is_reduced_and_the_game_goes_on() {
    // (name, the request, the user is told of a reduction)
    let cases = [
        ("memory beyond any machine", "memory 99999999", true),
        ("memory beyond u64", "memory 99999999999999999999999", true),
        ("the largest Hash option", "option Hash=65536", false),
    ];
    for (name, request, surely_reduced) in cases {
        let mut e = Engine::ready();
        e.send_all(&["new", "force", &format!("setboard {REPETITION_FEN}")]);
        for m in SHUFFLE {
            e.send(&format!("usermove {m}"));
        }
        e.send(request);
        let lines = e.sync(1);
        let told: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("tellusererror Hash reduced to "))
            .collect();
        assert!(told.len() <= 1, "{name}: {lines:?}");
        if surely_reduced {
            assert_eq!(told.len(), 1, "{name}: {lines:?}");
            assert!(
                told[0].ends_with(" MB cannot be allocated"),
                "{name}: {lines:?}"
            );
        }
        assert!(
            lines.iter().all(|l| !l.starts_with("Error")),
            "{name}: {lines:?}"
        );
        e.send_all(&["sd 6", "go"]);
        let m = e.expect_move(Duration::from_secs(20));
        assert_eq!(
            m,
            "e8d8",
            "{name}: the repetition is still known\n{}",
            e.dump()
        );
        e.sync(2);
    }
}

#[test]
fn unknown_bad_and_illegal_input_get_their_replies_and_change_nothing() {
    let mut e = Engine::ready();
    e.send_all(&["new", "force"]);
    e.send("frobnicate now");
    e.expect_line("Error (unknown command): frobnicate now");
    e.send("level x y z");
    e.expect_line("Error (bad argument): level x y z");
    e.send("usermove e2e5");
    e.expect_line("Illegal move: e2e5");
    e.send("e7e5");
    e.expect_line("Illegal move: e7e5");
    e.send("uci");
    e.expect_line("Error (unknown command): uci");
    e.send("variant crazyhouse");
    e.expect_line("Error (unsupported variant): crazyhouse");
    // The position is still the start: e2e4 is legal and accepted silently.
    e.send("usermove e2e4");
    let lines = e.sync(1);
    assert!(lines.is_empty(), "{lines:?}");
    e.send("usermove e2e4");
    e.expect_line("Illegal move: e2e4");
}

#[test]
fn rejected_lines_while_thinking_do_not_cost_the_move() {
    let mut e = Engine::ready();
    e.send_all(&["new", "st 1", "usermove e2e4"]);
    std::thread::sleep(Duration::from_millis(100));
    e.send("setboard junk");
    e.expect_line("tellusererror Illegal position");
    e.send("remove");
    e.expect_line("Error (command not legal now): remove");
    // A new hash size waits for the next search instead of stopping this one.
    e.send("memory 32");
    let m = e.expect_move(Duration::from_secs(3));
    let board = board_after(&["e2e4"]);
    assert!(board.parse_move(&m).is_ok(), "{m}");
}

#[test]
fn garbage_never_kills_the_engine() {
    let mut e = Engine::ready();
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for i in 0..400 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let len = (state % 40) as usize;
        let line: String = (0..len)
            .map(|k| {
                let c = ((state >> (k % 56)) as u8 % 95) + 32;
                c as char
            })
            .collect();
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
        e.send(&format!(
            "{}{}",
            prefixes[i % prefixes.len()],
            line.replace('\n', " ")
        ));
    }
    e.sync(99);
    assert!(
        e.child.try_wait().unwrap().is_none(),
        "engine died:\n{}",
        e.dump()
    );
}

#[test]
fn pings_are_echoed_exactly() {
    let mut e = Engine::ready();
    e.send("new");
    for token in ["7", "9223372036854775807", "-3", "0"] {
        e.send(&format!("ping {token}"));
        e.expect_line(&format!("pong {token}"));
    }
}

#[test]
fn pong_comes_after_the_move_when_thinking() {
    let mut e = Engine::ready();
    e.send_all(&["new", "st 0.5", "go", "ping 3"]);
    let (line, _) = e.wait_for(PROMPT, |l| l.starts_with("move ") || l == "pong 3");
    assert!(line.starts_with("move "), "pong before move:\n{}", e.dump());
    e.expect_line("pong 3");
}

/// Commands that end a search must drop its move.
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
        let mut e = Engine::ready();
        e.send_all(&[
            "new",
            "force",
            "usermove e2e4",
            "usermove e7e5",
            "usermove g1f3",
            "st 5",
            "go",
            "usermove d2d4",
        ]);
        // The engine (Black) thinks for up to 5 s after 1.e4 e5 2.Nf3, so undo and remove
        // are both legal; "usermove d2d4" arrives while it thinks and is refused, since it
        // is Black to move.
        e.expect_line("Illegal move: d2d4");
        std::thread::sleep(Duration::from_millis(200));
        e.send_all(commands);
        let lines = e.sync(9);
        assert!(
            lines.iter().all(|l| !l.starts_with("move ")),
            "{name}:\n{}",
            e.dump()
        );
        e.assert_none(Duration::from_millis(700), |l| l.starts_with("move "));
    }
}

#[test]
fn force_mode_only_applies_moves_then_go_plays_the_side_to_move() {
    let mut e = Engine::ready();
    e.send_all(&[
        "new",
        "force",
        "usermove e2e4",
        "usermove e7e5",
        "usermove g1f3",
    ]);
    let lines = e.sync(1);
    assert!(lines.is_empty(), "{lines:?}");
    e.send_all(&["st 0.2", "go"]);
    let m = e.expect_move(PROMPT);
    let board = board_after(&["e2e4", "e7e5", "g1f3"]);
    assert!(board.parse_move(&m).is_ok(), "{m} is not a Black move here");
}

#[test]
fn move_now_moves_at_once_with_a_legal_move() {
    let mut e = Engine::ready();
    e.send_all(&["new", "st 60", "go"]);
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    e.send("?");
    let m = e.expect_move(PROMPT);
    assert!(
        asked.elapsed() < Duration::from_millis(1000),
        "{:?}",
        asked.elapsed()
    );
    assert!(Board::startpos().parse_move(&m).is_ok(), "{m}");
}

#[test]
fn go_while_thinking_is_a_no_op() {
    let mut e = Engine::ready();
    e.send_all(&["new", "st 0.5", "go", "go", "go"]);
    e.expect_move(PROMPT);
    e.sync(2);
    e.assert_none(Duration::from_millis(1200), |l| l.starts_with("move "));
}

#[test]
fn playother_waits_for_the_opponent_then_replies() {
    let mut e = Engine::ready();
    e.send_all(&["new", "force", "st 0.2", "playother"]);
    e.assert_none(Duration::from_millis(500), |l| l.starts_with("move "));
    e.send("usermove e2e4");
    let m = e.expect_move(PROMPT);
    let board = board_after(&["e2e4"]);
    assert!(board.parse_move(&m).is_ok(), "{m}");
}

#[test]
fn legacy_black_sets_black_to_move_and_engine_plays_white() {
    let mut e = Engine::ready();
    e.send_all(&["new", "force", "st 0.2", "black"]);
    e.sync(1);
    // Black to move in the start position: a black move is accepted and the engine answers.
    e.send("usermove e7e5");
    let m = e.expect_move(PROMPT);
    assert!(
        m.starts_with(|c: char| c.is_ascii_lowercase())
            && m.chars().nth(1).is_some_and(|r| r <= '2'),
        "white move expected, got {m}"
    );
}
