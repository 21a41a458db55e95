//! Time controls, positions and game endings, played against the real binary.

mod common;

use common::board_after;
use common::engine::{Engine, PROMPT};
use ferrimax::chess::Board;
use std::time::{Duration, Instant};

/// Sends `setup`, then `trigger`, and returns the engine's move and how long it took.
fn timed_move(setup: &[&str], trigger: &str) -> (String, Duration) {
    let mut e = Engine::ready();
    e.send_all(setup);
    e.sync(1);
    let start = Instant::now();
    e.send(trigger);
    let m = e.expect_move(Duration::from_secs(60));
    (m, start.elapsed())
}

/// Each clock situation: the move must come well inside the time on the clock.
#[test]
fn clock_budgets_never_run_the_clock_out() {
    let cases: &[(&str, &[&str], Duration)] = &[
        (
            "40 moves in 30 s, 30 s left",
            &["new", "level 40 0:30 0", "time 3000", "otim 3000"],
            Duration::from_secs(30),
        ),
        (
            "2 min + 12 s, 2 s left",
            &["new", "level 0 2 12", "time 200", "otim 200"],
            Duration::from_secs(2),
        ),
        (
            "30 s + 0.5 s, 1 s left",
            &["new", "level 0 0:30 0.5", "time 100", "otim 100"],
            Duration::from_secs(1),
        ),
        (
            "10 s + 0.1 s, 0.3 s left",
            &["new", "level 0 0:10 0.1", "time 30", "otim 30"],
            Duration::from_millis(300),
        ),
        (
            "zero on the clock",
            &["new", "level 0 1 0", "time 0", "otim 100"],
            Duration::from_millis(300),
        ),
        (
            "negative clock",
            &["new", "level 0 1 0", "time -20", "otim 100"],
            Duration::from_millis(300),
        ),
    ];
    for (name, setup, clock) in cases {
        let (m, took) = timed_move(setup, "usermove e2e4");
        eprintln!("{name}: {m} after {took:?}");
        assert!(took < *clock, "{name}: {took:?} of {clock:?}");
    }
}

/// `plies` moves of a seeded random game that repeats no position and does not end.
fn quiet_random_game(plies: usize) -> Vec<String> {
    use ferrimax::chess::repetition_count;
    let mut seed: u64 = 12345;
    'retry: loop {
        let mut board = Board::startpos();
        let mut keys = Vec::new();
        let mut moves = Vec::new();
        while moves.len() < plies {
            let legal = board.legal_moves();
            let candidates: Vec<_> = legal
                .iter()
                .copied()
                .filter(|&m| {
                    let mut b = board.clone();
                    b.make_move(m);
                    let mut k = keys.clone();
                    k.push(board.key());
                    b.ending(&k).is_none() && repetition_count(&k, b.key(), b.halfmove_clock()) == 1
                })
                .collect();
            if candidates.is_empty() {
                seed += 1;
                continue 'retry;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = candidates[(seed >> 33) as usize % candidates.len()];
            keys.push(board.key());
            board.make_move(m);
            moves.push(m.to_string());
        }
        return moves;
    }
}

#[test]
fn last_move_before_the_time_control_keeps_a_reserve() {
    // 40 moves per session; 39 moves of each side are played in force mode, so the
    // engine's next move (White's 40th) is the last one before the control, with 1 s left.
    let mut setup: Vec<String> = vec!["new".into(), "level 40 0:10 0".into(), "force".into()];
    setup.extend(
        quiet_random_game(78)
            .into_iter()
            .map(|m| format!("usermove {m}")),
    );
    setup.extend(["time 100".to_string(), "otim 100".to_string()]);
    let setup: Vec<&str> = setup.iter().map(String::as_str).collect();
    let (_, took) = timed_move(&setup, "go");
    eprintln!("40th move with 1 s left: {took:?}");
    assert!(took < Duration::from_millis(1000), "{took:?}");
}

#[test]
fn st_is_a_hard_cap_even_when_tiny() {
    for (st, cap) in [("0.05", 400), ("0.5", 900), ("1", 1500)] {
        let (_, took) = timed_move(&["new", &format!("st {st}")], "usermove e2e4");
        eprintln!("st {st}: {took:?}");
        assert!(took < Duration::from_millis(cap), "st {st}: {took:?}");
    }
}

/// Nodes of the last thinking line before the move.
fn nodes_searched(setup: &[&str]) -> u64 {
    let mut e = Engine::ready();
    e.send_all(setup);
    e.send("usermove e2e4");
    let (_, before) = e.wait_for(Duration::from_secs(60), |l| l.starts_with("move "));
    let last = before
        .iter()
        .rev()
        .find(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .expect("thinking output");
    last.split_whitespace().nth(3).unwrap().parse().unwrap()
}

#[test]
fn node_clock_encodings_limit_nodes() {
    // python-chess: nps 1 + st N means N nodes; cutechess: st 1 + nps N.
    let python = nodes_searched(&["new", "post", "nps 1", "st 30000"]);
    let cutechess = nodes_searched(&["new", "post", "st 1", "nps 20000"]);
    assert!(python <= 30_000 + 1024, "{python}");
    assert!(cutechess <= 20_000 + 1024, "{cutechess}");
}

#[test]
fn sd_limits_depth_and_new_clears_it() {
    let mut e = Engine::ready();
    e.send_all(&["new", "post", "sd 3", "st 1", "usermove e2e4"]);
    let (_, lines) = e.wait_for(Duration::from_secs(20), |l| l.starts_with("move "));
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert_eq!(depths.iter().max(), Some(&3), "{lines:?}");
    // After `new`, sd is gone but st (the time control) stays.
    e.send_all(&["new", "usermove e2e4"]);
    let (_, lines) = e.wait_for(Duration::from_secs(30), |l| l.starts_with("move "));
    let deepest = lines
        .iter()
        .filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok())
        .max()
        .unwrap();
    assert!(deepest > 3, "{lines:?}");
}

#[test]
fn thinking_lines_have_the_cecp_columns_and_mate_scores() {
    let mut e = Engine::ready();
    e.send_all(&[
        "new",
        "post",
        "sd 4",
        "setboard r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
        "go",
    ]);
    let (_, lines) = e.wait_for(PROMPT, |l| l.starts_with("move "));
    for line in &lines {
        let (numbers, pv) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("no TAB in {line:?}"));
        let fields: Vec<&str> = numbers.split(' ').collect();
        assert_eq!(fields.len(), 7, "{line:?}");
        assert!(fields.iter().all(|f| f.parse::<i64>().is_ok()), "{line:?}");
        assert!(!pv.is_empty());
    }
    let last = lines.last().unwrap();
    assert_eq!(
        last.split(' ').nth(1),
        Some("100002"),
        "mate in 2 expected: {last}"
    );
}

#[test]
fn setboard_and_an_illegal_fen() {
    let mut e = Engine::ready();
    e.send_all(&["new", "force", "setboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1"]);
    e.send("usermove d2d4");
    e.expect_line("Illegal move: d2d4");
    e.send_all(&["setboard not a fen", "setboard 8/8/8/8/8/8/8/8 w - - 0 1"]);
    e.expect_line("tellusererror Illegal position");
    e.expect_line("tellusererror Illegal position");
    // The old position stands, castling right included.
    e.send("usermove e1g1");
    let lines = e.sync(1);
    assert!(lines.is_empty(), "{lines:?}");
}

#[test]
fn edit_mode_assumes_castling_from_home_squares() {
    let mut e = Engine::ready();
    e.send_all(&[
        "new", "force", "edit", "#", "Ke1", "Ra1", "Rh1", "Pa2", "c", "Ke8", "Pa7", ".",
    ]);
    e.send("usermove e1g1");
    e.send("usermove e8d8");
    e.send("usermove a1d1");
    let lines = e.sync(1);
    assert!(lines.is_empty(), "castling refused: {lines:?}");
    // An impossible edit (a pawn on the first rank) keeps the previous position, where
    // Black must leave the check of Rd1.
    e.send_all(&["edit", "#", "Ke1", "c", "Pa1", "Ke8", "."]);
    e.expect_line("tellusererror Illegal position");
    e.send("usermove d8e8");
    let lines = e.sync(2);
    assert!(lines.is_empty(), "{lines:?}");
}

#[test]
fn undo_and_remove_take_moves_back() {
    let mut e = Engine::ready();
    e.send_all(&[
        "new",
        "force",
        "usermove e2e4",
        "usermove e7e5",
        "undo",
        "usermove e7e5",
    ]);
    e.send_all(&[
        "usermove g1f3",
        "usermove b8c6",
        "remove",
        "usermove g1f3",
        "usermove b8c6",
    ]);
    let lines = e.sync(1);
    assert!(lines.is_empty(), "{lines:?}");
    e.send_all(&["new", "undo"]);
    e.expect_line("Error (command not legal now): undo");
}

#[test]
fn new_makes_the_engine_black_and_keeps_the_time_control() {
    let mut e = Engine::ready();
    e.send_all(&["new", "st 0.2", "new", "usermove d2d4"]);
    let m = e.expect_move(Duration::from_secs(3));
    let board = board_after(&["d2d4"]);
    assert!(board.parse_move(&m).is_ok(), "{m}");
}

#[test]
fn result_stops_everything() {
    let mut e = Engine::ready();
    e.send_all(&["new", "st 5", "usermove e2e4"]);
    std::thread::sleep(Duration::from_millis(100));
    e.send("result 1-0 {White wins on time}");
    e.sync(1);
    e.assert_none(Duration::from_millis(800), |l| l.starts_with("move "));
    // After the result no move is made, even if asked.
    e.send("usermove d2d4");
    e.expect_line("Illegal move: d2d4");
    // Legal moves are still applied (calling them illegal would be a false claim), and
    // the engine does not answer them.
    e.send_all(&["usermove e7e5", "usermove g1f3"]);
    let lines = e.assert_none(Duration::from_millis(800), |l| {
        l.starts_with("move ") || l.starts_with("Illegal")
    });
    assert!(lines.is_empty(), "{lines:?}");
    e.send("usermove b8c6");
    let lines = e.sync(1);
    assert!(lines.is_empty(), "{lines:?}");
}

#[test]
fn edit_mode_still_answers_ping_and_quit() {
    let mut e = Engine::ready();
    e.send_all(&["new", "force", "edit", "#", "Ke1", "ping 3"]);
    e.expect_line("pong 3");
    e.send_all(&["c", "Ke8", "quit"]);
    let (elapsed, _) = e
        .wait_exit(Duration::from_secs(2))
        .expect("quit in edit mode ends the engine");
    assert!(elapsed < Duration::from_secs(1), "{elapsed:?}");
}

/// The engine claims results the board proves, with the comments GUIs expect.
#[test]
fn claims_game_endings_with_the_right_result() {
    let cases: &[(&str, &[&str], &str)] = &[
        (
            "engine mates",
            &[
                "new",
                "st 1",
                "setboard k7/8/1K6/8/8/8/8/7R w - - 0 1",
                "go",
            ],
            "1-0 {White mates}",
        ),
        (
            "engine is mated",
            &[
                "new",
                "st 1",
                "setboard k7/8/1K6/8/8/8/8/7R w - - 0 1",
                "usermove h1h8",
            ],
            "1-0 {White mates}",
        ),
        (
            "engine is stalemated",
            &[
                "new",
                "st 1",
                "setboard k7/8/1K6/8/8/8/8/2Q5 w - - 0 1",
                "usermove c1c7",
            ],
            "1/2-1/2 {Stalemate}",
        ),
        (
            "insufficient material after a capture",
            &[
                "new",
                "st 1",
                "setboard k7/8/8/8/8/8/1n6/KN6 w - - 0 1",
                "usermove a1b2",
            ],
            "1/2-1/2 {Insufficient material}",
        ),
        (
            "50-move rule",
            &[
                "new",
                "st 1",
                "setboard k7/8/8/8/8/8/8/KR6 w - - 99 80",
                "go",
            ],
            "1/2-1/2 {Draw by 50-move rule}",
        ),
    ];
    for (name, commands, claim) in cases {
        let mut e = Engine::ready();
        e.send_all(commands);
        let (_, before) = e.wait_for(Duration::from_secs(10), |l| {
            l.starts_with("1-0") || l.starts_with("0-1") || l.starts_with("1/2")
        });
        let line = e
            .transcript
            .last()
            .unwrap()
            .trim_start_matches("< ")
            .to_string();
        assert_eq!(line, *claim, "{name}:\n{}", e.dump());
        assert!(
            before.iter().filter(|l| l.starts_with("move ")).count() <= 1,
            "{name}"
        );
    }
}

#[test]
fn claims_threefold_repetition_made_by_the_opponent() {
    let mut e = Engine::ready();
    e.send_all(&["new", "st 1", "force"]);
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        e.send(&format!("usermove {m}"));
    }
    // Engine takes White; Black's Nf6-g8 repeats the start position a third time.
    e.send_all(&["playother", "usermove f6g8"]);
    let (line, _) = e.wait_for(PROMPT, |l| l.starts_with("move ") || l.starts_with("1/2"));
    assert_eq!(line, "1/2-1/2 {Draw by repetition}", "{}", e.dump());
}

#[test]
fn never_claims_in_force_mode_or_falsely() {
    let mut e = Engine::ready();
    e.send_all(&[
        "new",
        "force",
        "setboard k7/8/1K6/8/8/8/8/7R w - - 0 1",
        "usermove h1h8",
    ]);
    let lines = e.sync(1);
    assert!(lines.is_empty(), "{lines:?}");
    // An ordinary game of a few moves: no claim at all.
    e.send_all(&["new", "st 0.1", "usermove e2e4"]);
    e.expect_move(PROMPT);
    e.send("usermove d2d4");
    e.expect_move(PROMPT);
    let lines = e.sync(2);
    assert!(
        lines
            .iter()
            .all(|l| !["1-0", "0-1", "1/2"].iter().any(|r| l.starts_with(r))),
        "{lines:?}"
    );
}

#[test]
fn draw_offers_are_accepted_only_when_not_better() {
    // Black (the engine) is a queen down: it accepts.
    let mut e = Engine::ready();
    e.send_all(&[
        "new",
        "st 0.3",
        "setboard 4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1",
        "usermove d1e2",
    ]);
    e.expect_move(PROMPT);
    e.send_all(&["draw", "ping 1"]);
    let lines = e.expect_line("pong 1");
    assert!(lines.contains(&"offer draw".to_string()), "{lines:?}");
    // White (the engine) is a queen up: it stays silent.
    let mut e = Engine::ready();
    e.send_all(&[
        "new",
        "st 0.3",
        "force",
        "setboard 4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 1",
        "playother",
        "usermove e8e7",
    ]);
    e.expect_move(PROMPT);
    e.send_all(&["draw", "ping 1"]);
    let lines = e.expect_line("pong 1");
    assert!(lines.is_empty(), "{lines:?}");
    // A score from an earlier position does not count: the engine played White a queen
    // down, then gets the queen side of a new position and has not searched it yet.
    let mut e = Engine::ready();
    e.send_all(&[
        "new",
        "st 0.3",
        "force",
        "setboard 3qk3/8/8/8/8/8/8/4K3 w - - 0 1",
        "go",
    ]);
    e.expect_move(PROMPT);
    e.send_all(&[
        "force",
        "setboard 3qk3/8/8/8/8/8/8/4K3 w - - 0 1",
        "playother",
        "draw",
        "ping 2",
    ]);
    let lines = e.expect_line("pong 2");
    assert!(lines.is_empty(), "{lines:?}");
}

/// Clock and depth values at the edges of their integer types, which once wrapped:
/// `time 1844674407370955162` made the engine move in 8 ms as if its clock were empty,
/// and `sd 2147483648` searched one ply.
#[test]
fn edge_numbers_give_a_long_clock_and_no_depth_cap() {
    const HUGE_CLOCK: &str = "1844674407370955162";
    let mut e = Engine::ready();
    e.send_all(&[
        "new",
        "level 0 5 0",
        &format!("time {HUGE_CLOCK}"),
        &format!("otim {HUGE_CLOCK}"),
        "go",
    ]);
    e.assert_none(Duration::from_millis(1000), |l| l.starts_with("move "));
    e.send("?");
    e.expect_move(PROMPT);

    e.send_all(&["new", "sd 2147483648", "st 0.5", "post", "go"]);
    let (_, thinking) = e.wait_for(PROMPT, |l| l.starts_with("move "));
    let deepest = thinking
        .iter()
        .filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok())
        .max();
    assert!(deepest.is_some_and(|d| d > 1), "{}", e.dump());
    e.assert_no_error_replies();
}
