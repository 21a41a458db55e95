//! Search limits, positions, taking back, results, claims and draw offers.

use crate::SILENT;
use crate::common::board_after;
use crate::common::game::{Driver, ThinkingLine, is_move, is_thinking_line};
use crate::positions::*;
use ferrimax::game::Flow;

/// The search looks at its node limit every this many nodes, so it may overshoot by as
/// much.
const NODE_CHECK_INTERVAL: u64 = 1024;

/// The thinking lines among `lines`, parsed.
fn thinking(lines: &[String]) -> Vec<ThinkingLine<'_>> {
    lines
        .iter()
        .filter(|l| is_thinking_line(l))
        .map(|l| ThinkingLine::parse(l))
        .collect()
}

/// The node clock: `st` seconds at `nps` nodes per second is a node budget, whichever
/// order the GUI sends them in.
#[test]
fn node_clock_encodings_limit_nodes() {
    let cases: &[(&str, &[&str], u64)] = &[
        ("python-chess: nps 1 + st N", &["nps 1", "st 30000"], 30_000),
        ("cutechess: st 1 + nps N", &["st 1", "nps 20000"], 20_000),
    ];
    for (name, clock, budget) in cases {
        let mut d = Driver::new();
        d.send_all(&["new", "post"]);
        d.send_all(clock);
        let lines = d.send("usermove e2e4");
        let last = thinking(&lines).last().map(|t| t.nodes);
        let nodes = last.unwrap_or_else(|| d.fail(&format!("{name}: no thinking output")));
        assert!(nodes <= budget + NODE_CHECK_INTERVAL, "{name}: {nodes}");
        assert!(
            lines.last().is_some_and(|l| is_move(l)),
            "{name}: {lines:?}"
        );
    }
}

#[test]
fn sd_limits_the_depth() {
    let mut d = Driver::new();
    d.send_all(&["new", "post", SHALLOW]);
    let lines = d.send("usermove e2e4");
    let deepest = thinking(&lines).iter().map(|t| t.depth).max();
    assert_eq!(deepest, Some(3), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some(REPLY_TO_E4));
}

/// `new` clears `sd` and `nps` but keeps `st`: after it, `nps` alone makes `st` a node
/// budget again, and the search goes deeper than the old `sd`.
#[test]
fn new_clears_sd_and_nps_but_keeps_st() {
    const RATE: u64 = 20_000;
    let mut d = Driver::new();
    d.send_all(&["new", "st 1", &format!("nps {RATE}"), SHALLOW, "new"]);
    d.send_all(&[&format!("nps {RATE}"), "post"]);
    let lines = d.send("usermove e2e4");
    let lines = thinking(&lines);
    let deepest = lines.iter().map(|t| t.depth).max().unwrap_or(0);
    assert!(deepest > 3, "sd survived new: depth {deepest}");
    let nodes = lines.last().map_or(0, |t| t.nodes);
    assert!(nodes <= RATE + NODE_CHECK_INTERVAL, "st was lost: {nodes}");
}

/// After `new` the engine plays Black again, whatever it played before.
#[test]
fn new_makes_the_engine_black_again() {
    let mut d = Driver::new();
    assert_eq!(d.send_all(&["new", SHALLOW, "go"]), [WHITE_OPENS]);
    assert_eq!(d.send_all(&["new", SHALLOW]), SILENT);
    assert_eq!(d.send("usermove d2d4"), [REPLY_TO_D4]);
}

/// Thinking lines have CECP's columns (depth score time nodes seldepth nps tbhits, TAB,
/// PV in SAN) and mates are scored 100000 + moves.
#[test]
fn thinking_lines_have_the_cecp_columns_and_mate_scores() {
    const MATE_IN_TWO_SCORE: i64 = 100_002;
    const COLUMNS: usize = 7;
    let mut d = Driver::new();
    d.send_all(&["new", "post", "sd 4", &format!("setboard {MATE_IN_TWO}")]);
    let lines = d.send("go");
    let (last, thinking_lines) = lines.split_last().expect("output");
    assert_eq!(last, "move d5d8");
    for line in thinking_lines {
        let (numbers, pv) = line.split_once('\t').expect("a TAB");
        let fields: Vec<&str> = numbers.split(' ').collect();
        assert_eq!(fields.len(), COLUMNS, "{line:?}");
        assert!(fields.iter().all(|f| f.parse::<i64>().is_ok()), "{line:?}");
        assert!(!pv.is_empty(), "{line:?}");
    }
    let final_line = ThinkingLine::parse(thinking_lines.last().expect("thinking output"));
    assert_eq!(final_line.score, MATE_IN_TWO_SCORE);
    assert_eq!(final_line.pv, MATE_IN_TWO_PV);
}

/// A refused `setboard` keeps the old position, castling right included.
#[test]
fn setboard_and_illegal_fens() {
    let mut d = Driver::new();
    d.send_all(&["new", "force", &format!("setboard {WHITE_CAN_CASTLE}")]);
    assert_eq!(d.send("usermove d2d4"), ["Illegal move: d2d4"]);
    let refused = d.send_all(&["setboard not a fen", "setboard 8/8/8/8/8/8/8/8 w - - 0 1"]);
    assert_eq!(refused, ["tellusererror Illegal position"; 2]);
    assert_eq!(d.send("usermove e1g1"), SILENT);
    assert_eq!(d.board().to_fen(), WHITE_HAS_CASTLED);
}

/// Edit mode assumes castling rights for kings and rooks on their home squares; an
/// impossible edit keeps the previous position.
#[test]
fn edit_mode_assumes_castling_from_home_squares() {
    let mut d = Driver::new();
    let edit = [
        "new", "force", "edit", "#", "Ke1", "Ra1", "Rh1", "Pa2", "c", "Ke8", "Pa7", ".",
    ];
    assert_eq!(d.send_all(&edit), SILENT);
    assert_eq!(d.board().to_fen(), "4k3/p7/8/8/8/8/P7/R3K2R w KQ - 0 1");
    assert_eq!(
        d.send_all(&["usermove e1g1", "usermove e8d8", "usermove a1d1"]),
        SILENT
    );
    let before = d.board().to_fen();
    // A pawn on the first rank is impossible: Black must still leave the check of Rd1.
    let impossible = ["edit", "#", "Ke1", "c", "Pa1", "Ke8", "."];
    assert_eq!(d.send_all(&impossible), ["tellusererror Illegal position"]);
    assert_eq!(d.board().to_fen(), before);
    assert_eq!(d.send("usermove d8e8"), SILENT);
}

/// Edit mode still answers `ping`, and `quit` (or the end of input) ends the loop.
#[test]
fn edit_mode_still_answers_ping_and_quit() {
    let mut d = Driver::new();
    d.send_all(&["new", "force", "edit", "#", "Ke1"]);
    assert_eq!(d.send("ping 3"), ["pong 3"]);
    assert_eq!(d.send_all(&["c", "Ke8"]), SILENT);
    assert_eq!(d.send_for_flow("quit"), Flow::Quit);

    let mut d = Driver::new();
    d.send_all(&["new", "force", "edit"]);
    assert_eq!(d.eof(), Flow::Quit);
}

#[test]
fn quit_and_end_of_input_end_the_loop_and_nothing_else_does() {
    let cases = [
        ("quit", Some("quit"), Flow::Quit),
        ("end of input", None, Flow::Quit),
        ("exit outside analysis", Some("exit"), Flow::Continue),
        ("a move", Some("usermove e2e4"), Flow::Continue),
    ];
    for (name, line, flow) in cases {
        let mut d = Driver::new();
        d.send("force");
        let got = match line {
            Some(line) => d.send_for_flow(line),
            None => d.eof(),
        };
        assert_eq!(got, flow, "{name}");
    }
}

#[test]
fn undo_and_remove_take_moves_back() {
    let mut d = Driver::new();
    let game = [
        "new",
        "force",
        "usermove e2e4",
        "usermove e7e5",
        "undo",
        "usermove e7e5",
        "usermove g1f3",
        "usermove b8c6",
        "remove",
        "usermove g1f3",
        "usermove b8c6",
    ];
    assert_eq!(d.send_all(&game), SILENT);
    let expected = board_after(&["e2e4", "e7e5", "g1f3", "b8c6"]);
    assert_eq!(d.board().to_fen(), expected.to_fen());
    assert_eq!(
        d.send_all(&["new", "undo"]),
        ["Error (command not legal now): undo"]
    );
}

/// `result` stops the search; afterwards the engine makes no move, even when asked, but
/// legal moves are still applied (calling them illegal would be a false claim).
#[test]
fn result_stops_everything() {
    let mut d = Driver::new();
    d.send_all(&["new", SHALLOW]);
    assert_eq!(d.send_now("usermove e2e4"), SILENT);
    assert_eq!(d.send_now("result 1-0 {White wins on time}"), SILENT);
    assert!(!d.game().is_thinking());
    assert_eq!(d.drain(), SILENT);
    assert_eq!(d.send("usermove d2d4"), ["Illegal move: d2d4"]);
    assert_eq!(
        d.send_all(&["usermove e7e5", "usermove g1f3", "go", "usermove b8c6"]),
        SILENT
    );
    assert_eq!(
        d.board().to_fen(),
        board_after(&["e2e4", "e7e5", "g1f3", "b8c6"]).to_fen()
    );
}

/// The engine claims the results the board proves, with the comments GUIs expect; a
/// draw its own move makes by rule is claimed the protocol's way too: `offer draw` before
/// the move (XBoard grants it when the move makes the draw; bridges pass it as `draw`).
#[test]
fn claims_game_endings_with_the_right_result() {
    let cases: &[(&str, &str, &str, &[&str])] = &[
        (
            "engine mates",
            ROOK_MATES,
            "go",
            &["move h1h8", "1-0 {White mates}"],
        ),
        (
            "engine is mated",
            ROOK_MATES,
            "usermove h1h8",
            &["1-0 {White mates}"],
        ),
        (
            "engine is stalemated",
            QUEEN_CAN_STALEMATE,
            "usermove c1c7",
            &["1/2-1/2 {Stalemate}"],
        ),
        (
            "insufficient material after a capture",
            CAPTURE_LEAVES_A_KNIGHT,
            "usermove a1b2",
            &["1/2-1/2 {Insufficient material}"],
        ),
        (
            "50-move rule",
            FIFTY_MOVES_BUT_ONE,
            "go",
            &["offer draw", "move a1a2", "1/2-1/2 {Draw by 50-move rule}"],
        ),
    ];
    for (name, position, trigger, expected) in cases {
        let mut d = Driver::new();
        d.send_all(&["new", SHALLOW, &format!("setboard {position}")]);
        assert_eq!(d.send(trigger), *expected, "{name}");
        // The game is over: the engine makes no more moves.
        assert_eq!(d.send("go"), SILENT, "{name}");
    }
}

/// Black's Nf6-g8 repeats the start position a third time: the engine (White) claims.
#[test]
fn claims_threefold_repetition_made_by_the_opponent() {
    let mut d = Driver::new();
    d.send_all(&["new", SHALLOW, "force"]);
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        assert_eq!(d.send(&format!("usermove {m}")), SILENT);
    }
    assert_eq!(d.send("playother"), SILENT);
    assert_eq!(d.send("usermove f6g8"), ["1/2-1/2 {Draw by repetition}"]);
}

/// Force mode never claims, and an ordinary game never does either.
#[test]
fn never_claims_in_force_mode_or_falsely() {
    let mut d = Driver::new();
    d.send_all(&["new", "force", &format!("setboard {ROOK_MATES}")]);
    assert_eq!(d.send("usermove h1h8"), SILENT);
    d.send_all(&["new", SHALLOW]);
    assert_eq!(d.send("usermove e2e4"), [REPLY_TO_E4]);
    let lines = d.send("usermove d2d4");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(is_move(&lines[0]), "{lines:?}");
}

/// A draw offer is accepted when the engine's last score for the current position says
/// it is not better, or the position is dead; a score from an earlier position does not
/// count.
#[test]
fn draw_offers_are_accepted_only_when_not_better() {
    let cases: &[(&str, &[&str], &[&str])] = &[
        (
            "engine (Black) a queen down",
            &["new", SHALLOW, &setboard(WHITE_QUEEN_UP), "usermove d1e2"],
            &["offer draw"],
        ),
        (
            "engine (White) a queen up",
            &[
                "new",
                SHALLOW,
                "force",
                &setboard(WHITE_QUEEN_UP_BLACK_TO_MOVE),
                "playother",
                "usermove e8e7",
            ],
            &[],
        ),
        (
            "a bad score from an earlier position",
            &[
                "new",
                SHALLOW,
                "force",
                &setboard(BLACK_QUEEN_ALONE),
                "go",
                "force",
                &setboard(BLACK_QUEEN_ALONE),
                "playother",
            ],
            &[],
        ),
        (
            "dead position, never searched",
            &["new", "force", &setboard(BARE_KINGS)],
            &["offer draw"],
        ),
    ];
    for (name, setup, reply) in cases {
        let mut d = Driver::new();
        d.send_all(setup);
        assert_eq!(d.send("draw"), *reply, "{name}:\n{}", d.transcript());
    }
}

fn setboard(fen: &str) -> String {
    format!("setboard {fen}")
}

/// With a single legal move and a clock running, one iteration decides: there is nothing
/// to choose, and the time is kept for later. Without a clock (a depth limit only, or
/// analysis) the search goes as deep as it is asked.
#[test]
fn a_single_legal_move_is_played_after_one_iteration_under_a_clock() {
    let cases: &[(&str, &[&str], u32)] = &[
        ("level 40 5 0", &["level 40 5 0"], 1),
        ("st 10", &["st 10"], 1),
        ("sd 4 and a clock", &["level 40 5 0", "sd 4"], 1),
    ];
    for (name, limits, depth) in cases {
        let mut d = Driver::new();
        d.send_all(&["new", "post", "force"]);
        d.send_all(limits);
        d.send(&format!("setboard {FIFTY_MOVES_BUT_ONE}"));
        let lines = d.send("go");
        let deepest = thinking(&lines).iter().map(|t| t.depth).max();
        assert_eq!(deepest, Some(*depth), "{name}: {lines:?}");
        assert!(
            lines.contains(&"move a1a2".to_string()),
            "{name}: {lines:?}"
        );
    }
    // Analysis has no clock: it searches the forced move deeper than one iteration.
    let mut d = Driver::new();
    d.send_all(&[
        "new",
        "post",
        "force",
        &format!("setboard {FIFTY_MOVES_BUT_ONE}"),
    ]);
    d.send("analyze");
    let (line, _) = d.wait_for(|l| is_thinking_line(l) && ThinkingLine::parse(l).depth >= 3);
    assert!(ThinkingLine::parse(&line).depth >= 3);
    d.send_all(&["exit"]);
}

/// With almost no time on the clock, or `?` right after `go`, the engine still plays a
/// move it searched: the last thinking line before the move starts with that move, and
/// its score is a real one (not the mate score of a move never looked at).
#[test]
fn a_move_under_a_tiny_clock_or_move_now_is_a_searched_one() {
    const MATE_SCORES: i64 = 100_000;
    let cases: &[(&str, &[&str], bool)] = &[
        ("1 centisecond left", &["time 1", "otim 1000"], false),
        ("5 centiseconds left", &["time 5", "otim 1000"], false),
        ("? right after go", &["time 100000", "otim 100000"], true),
    ];
    for (name, clock, move_now) in cases {
        let mut d = Driver::new();
        d.send_all(&[
            "xboard",
            "protover 2",
            "post",
            "new",
            "force",
            "usermove e2e4",
        ]);
        d.send_all(clock);
        let board = d.board().clone();
        let mut lines = d.send_now("go");
        if *move_now {
            lines.extend(d.send_now("?"));
        }
        lines.extend(d.settle());
        let played = lines.iter().rev().find_map(|l| l.strip_prefix("move "));
        let played = played.unwrap_or_else(|| d.fail(&format!("{name}: no move")));
        let last = lines.iter().rev().find(|l| is_thinking_line(l));
        let last = last.unwrap_or_else(|| d.fail(&format!("{name}: no thinking line")));
        let last = ThinkingLine::parse(last);
        let san = board.san(board.parse_move(played).expect("a legal move"));
        assert_eq!(last.first_move(), san, "{name}: {lines:?}");
        assert!(last.depth >= 1, "{name}: {lines:?}");
        assert!(last.score.abs() < MATE_SCORES, "{name}: {lines:?}");
    }
}
