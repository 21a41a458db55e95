//! Analyze mode, exclusions, pondering and the smaller commands (hint, bk, memory,
//! options, debug comments).

use crate::SILENT;
use crate::common::board_after;
use crate::common::game::{Driver, ThinkingLine, is_move, is_thinking_line};
use crate::positions::*;
use ferrimax::chess::Board;
use std::time::Duration;

/// The first line of a search that started over.
const FIRST_DEPTH: u32 = 1;
/// Deep enough that the search has a reply to expect (a PV of two moves or more) when
/// `?` stops it.
const PONDER_READY_DEPTH: u32 = 3;

fn depth_of(line: &str) -> u32 {
    ThinkingLine::parse(line).depth
}

/// The next thinking line, which must be the first of a search that started over.
fn wait_restart(d: &mut Driver) -> String {
    let line = d.wait_thinking();
    assert_eq!(depth_of(&line), FIRST_DEPTH, "not a new search: {line}");
    line
}

/// Analysis runs until told otherwise, answers `.` with `stat01` and `ping` at once, and
/// never prints a move. `stat01` goes only to a GUI that accepted `analyze` at the
/// handshake (XBoard does); python-chess, which sends `.` as it stops an analysis and
/// warns of any answer, gets none.
#[test]
fn analyze_searches_until_told_and_answers_dot_and_ping() {
    const STAT01_NUMBERS: usize = 5;
    let mut quiet = Driver::new();
    quiet.send_all(&["xboard", "protover 2", "accepted memory", "new", "force"]);
    quiet.send_all(&["post", "analyze"]);
    quiet.wait_thinking();
    assert_eq!(quiet.send_now("."), SILENT, "no stat01 for python-chess");
    let mut d = Driver::new();
    d.send_all(&["accepted analyze", "new", "force", "post"]);
    assert_eq!(d.send("analyze"), SILENT);
    let (_, before) = d.wait_for(is_thinking_line);
    assert_eq!(before, SILENT);
    let stat = d.send_now(".");
    assert_eq!(stat.len(), 1, "{stat:?}");
    let fields: Vec<&str> = stat[0].split_whitespace().collect();
    assert_eq!(fields[0], "stat01:", "{stat:?}");
    let numbers = &fields[1..=STAT01_NUMBERS];
    assert!(numbers.iter().all(|f| f.parse::<u64>().is_ok()), "{stat:?}");
    if let Some(current) = fields.get(STAT01_NUMBERS + 1) {
        assert!(Board::startpos().parse_san(current).is_ok(), "{stat:?}");
    }
    assert_eq!(d.send_now("ping 5"), ["pong 5"]);
    // Still analysing: more thinking lines come, and never a move.
    let (_, before) = d.wait_for(is_thinking_line);
    assert!(before.iter().all(|l| !is_move(l)), "{before:?}");
    assert_eq!(d.send_now("exit"), SILENT);
    assert_eq!(d.drain(), SILENT, "thinking lines after exit");
    assert_eq!(d.send("."), SILENT, "stat01 outside analysis");
}

/// Analysis starts over when the position or the allowed root moves change.
#[test]
fn analyze_restarts_on_moves_and_honours_exclusions() {
    const LINES_CHECKED: usize = 5;
    let mut d = Driver::new();
    d.send_all(&["new", "force", "post", "analyze"]);
    d.wait_thinking();
    // After 1.e4 the analysis is about Black's replies.
    assert_eq!(d.send_now("usermove e2e4"), SILENT);
    let line = wait_restart(&mut d);
    let after_e4 = board_after(&["e2e4"]);
    let first = ThinkingLine::parse(&line).first_move().to_string();
    assert!(after_e4.parse_san(&first).is_ok(), "{line}");
    // Only d7d5 is allowed at the root.
    assert_eq!(d.send_now("exclude all"), SILENT);
    assert_eq!(d.send_now("include d7d5"), SILENT);
    wait_restart(&mut d);
    for _ in 0..LINES_CHECKED {
        let line = d.wait_thinking();
        assert_eq!(ThinkingLine::parse(&line).first_move(), "d5", "{line}");
    }
    // undo goes back to the start position, and the exclusions lapse.
    assert_eq!(d.send_now("undo"), SILENT);
    let line = wait_restart(&mut d);
    let first = ThinkingLine::parse(&line).first_move().to_string();
    assert!(Board::startpos().parse_san(&first).is_ok(), "{line}");
    // A new table size starts the analysis over too.
    assert_eq!(d.send_now("option Hash=16"), SILENT);
    wait_restart(&mut d);
    assert_eq!(d.send_now("exit"), SILENT);
    assert_eq!(d.drain(), SILENT);
}

/// Exclusions bind the engine's own move too; with every move excluded it does not
/// search at all.
#[test]
fn exclusions_bind_the_engines_move() {
    let mut d = Driver::new();
    let exclude = format!("exclude {}", WHITE_OPENS.trim_start_matches("move "));
    d.send_all(&["new", "force", SHALLOW, &exclude]);
    let lines = d.send("go");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(is_move(&lines[0]) && lines[0] != WHITE_OPENS, "{lines:?}");

    let mut d = Driver::new();
    d.send_all(&["new", "force", SHALLOW, "exclude all"]);
    assert_eq!(d.send("go"), SILENT);
    assert!(!d.game().is_thinking());
    // A move by the GUI lifts the exclusions.
    d.send_all(&["force", "usermove e2e4"]);
    assert_eq!(d.send("go"), [REPLY_TO_E4]);
}

/// A game where the engine (Black) answered 1.e4 with pondering on and now ponders, with
/// `?` ending its first search so no clock is involved; returns the reply it expects
/// (from `hint`). `extra` lines come before the game.
fn engine_pondering(extra: &[&str]) -> (Driver, String) {
    let mut d = Driver::new();
    d.send_all(extra);
    d.send_all(&["new", "hard", "post", ENDLESS]);
    assert_eq!(d.send_now("usermove e2e4"), SILENT);
    d.wait_for(|l| is_thinking_line(l) && depth_of(l) >= PONDER_READY_DEPTH);
    d.send_now("?");
    let lines = d.settle();
    assert!(lines.last().is_some_and(|l| is_move(l)), "{lines:?}");
    let hint = d.send("hint");
    let expected = match hint.as_slice() {
        [line] => line.strip_prefix("Hint: ").map(str::to_string),
        _ => None,
    };
    let expected = expected.unwrap_or_else(|| d.fail("no hint"));
    (d, expected)
}

/// While pondering, the engine answers `ping` at once, and its thinking lines (which come
/// a moment after the move) start with the reply it expects, so they read from the
/// position the GUI shows.
#[test]
fn ponders_after_its_move_and_pong_does_not_wait() {
    let (mut d, expected) = engine_pondering(&[]);
    assert!(!d.game().is_thinking());
    let line = d.wait_thinking();
    d.drain(); // the rest of the held lines
    let expected_san = d.board().san(d.board().parse_move(&expected).unwrap());
    assert_eq!(ThinkingLine::parse(&line).first_move(), expected_san);
    assert_eq!(d.send_now("ping 8"), ["pong 8"]);
    assert!(!d.game().is_thinking());
}

/// `hint` never searches on the event loop's thread, nor on the game's table: during an
/// analysis it names the analysis's best move at once; with nothing known (after `new`)
/// it searches a small table of its own.
#[test]
fn hints_come_at_once_without_touching_the_games_table() {
    let mut d = Driver::new();
    d.send_all(&["new", "force", "post", "analyze"]);
    let line = d
        .wait_for(|l| is_thinking_line(l) && depth_of(l) >= PONDER_READY_DEPTH)
        .0;
    let best_san = ThinkingLine::parse(&line).first_move().to_string();
    let best = Board::startpos().parse_san(&best_san).unwrap().to_string();
    let searches = d.game().table_searches();
    assert_eq!(d.send_now("hint"), [format!("Hint: {best}")]);
    assert_eq!(
        d.game().table_searches(),
        searches,
        "the analysis's table was searched"
    );

    let mut d = Driver::new();
    d.send("new");
    let searches = d.game().table_searches();
    let hint = d.send_now("hint");
    let m = hint[0].strip_prefix("Hint: ").expect("a hint");
    assert!(Board::startpos().parse_move(m).is_ok(), "{hint:?}");
    assert_eq!(d.game().table_searches(), searches);
}

/// How long a test lets a ponder search run to see what it prints: more than the
/// moment its lines are held after our move.
const WATCH: Duration = Duration::from_millis(800);

/// The ponder search's lines are held a moment after our move. A bridge's `ping` right
/// after the move (python-chess) drops them: none comes before its `pong`, none after.
#[test]
fn a_ping_right_after_our_move_drops_the_held_ponder_lines() {
    let mut d = Driver::new();
    d.send_all(&["new", "hard", "post", SHALLOW]);
    let lines = d.send("usermove e2e4");
    assert_eq!(lines.last().map(String::as_str), Some(REPLY_TO_E4));
    // The depth-limited ponder search runs to its end: all of its lines are held.
    assert_eq!(d.wait_search_end(), SILENT);
    assert_eq!(d.send_now("ping 41040"), ["pong 41040"]);
    assert_eq!(d.game().held_output_deadline(), None);
    assert_eq!(d.run_for(WATCH), SILENT);
}

/// A GUI that says nothing after our move but the clocks (XBoard) gets the held lines
/// once the moment has passed, each starting with the reply the engine expects.
#[test]
fn held_ponder_lines_go_out_when_the_gui_sends_no_ping() {
    let mut d = Driver::new();
    d.send_all(&["new", "hard", "post", SHALLOW]);
    d.send("usermove e2e4");
    assert_eq!(d.wait_search_end(), SILENT);
    assert_eq!(d.send_all(&["time 1000", "otim 1000"]), SILENT);
    let hint = d.send("hint");
    let expected = hint[0].strip_prefix("Hint: ").expect("a hint");
    let expected_san = d.board().san(d.board().parse_move(expected).unwrap());
    let lines = d.run_for(WATCH);
    assert!(!lines.is_empty());
    for line in &lines {
        assert!(is_thinking_line(line), "{lines:?}");
        assert_eq!(
            ThinkingLine::parse(line).first_move(),
            expected_san,
            "{lines:?}"
        );
    }
}

/// cutechess's turn: `ping` when the opponent has moved, then the clocks and the move. The
/// ponder search prints nothing after that `ping`; on a hit it goes on from the new
/// position, on a miss a new search starts there: every line after the `ping` reads from
/// the position after the opponent's move.
#[test]
fn after_a_ping_while_pondering_every_line_reads_from_the_next_position() {
    for hit in [true, false] {
        let (mut d, expected) = engine_pondering(&[]);
        d.wait_thinking();
        d.drain();
        let before = d.board().clone();
        let reply = if hit {
            before.parse_move(&expected).unwrap()
        } else {
            let legal = before.legal_moves();
            let mut others = legal.iter().filter(|m| m.to_string() != expected);
            *others.next().unwrap()
        };
        assert_eq!(d.send_now("ping 16"), ["pong 16"], "hit {hit}");
        assert_eq!(d.run_for(WATCH / 2), SILENT, "hit {hit}");
        assert_eq!(d.send_all(&["time 1000", "otim 990"]), SILENT);
        d.send_now(&format!("usermove {reply}"));
        let mut after = before.clone();
        after.make_move(reply);
        for _ in 0..2 {
            let line = d.wait_thinking();
            let first = ThinkingLine::parse(&line).first_move().to_string();
            assert!(after.parse_san(&first).is_ok(), "hit {hit}: {line}");
        }
        d.send_now("?");
        assert!(d.settle().last().is_some_and(|l| is_move(l)), "hit {hit}");
    }
}

/// The predicted reply turns the ponder search into thinking on the engine's own move
/// (here ended by `?`, as it has no depth limit); the hit is a `#` comment only once the
/// GUI accepted `debug`.
#[test]
fn ponder_hit_goes_on_as_thinking_and_debug_comments_need_accepted_debug() {
    let cases: &[(&str, &[&str], bool)] = &[
        ("debug accepted", &["accepted debug"], true),
        ("debug never accepted", &[], false),
        (
            "debug accepted, then rejected",
            &["accepted debug", "rejected debug"],
            false,
        ),
    ];
    for (name, extra, comments) in cases {
        let (mut d, expected) = engine_pondering(extra);
        let mut after_hit = d.board().clone();
        after_hit.make_move(after_hit.parse_move(&expected).unwrap());
        let hit = d.send_now(&format!("usermove {expected}"));
        let comment = format!("# ponder hit on {expected}");
        let want: &[&str] = if *comments { &[&comment] } else { &[] };
        assert_eq!(hit, want, "{name}");
        assert!(d.game().is_thinking(), "{name}");
        assert_eq!(d.send_now("?"), SILENT, "{name}");
        let lines = d.settle();
        let m = lines.last().and_then(|l| l.strip_prefix("move "));
        let m = m.unwrap_or_else(|| d.fail(&format!("{name}: no move")));
        assert!(after_hit.parse_move(m).is_ok(), "{name}: {m}");
    }
}

/// A ponder search that reached its depth limit before the opponent moved: on the hit its
/// move is played at once, and it is the move its last thinking line expected; that line
/// is shown again from the new position before the move, so the GUI records a depth,
/// score and time for this move too.
#[test]
fn ponder_hit_after_the_ponder_search_ended_plays_its_move_at_once() {
    let mut d = Driver::new();
    d.send_all(&["accepted debug", "new", "hard", "post", SHALLOW]);
    let lines = d.send("usermove e2e4");
    assert_eq!(lines.last().map(String::as_str), Some(REPLY_TO_E4));
    let hint = d.send("hint");
    let expected = hint[0].strip_prefix("Hint: ").expect("a hint").to_string();
    // The ponder search runs to its end; its lines come a moment after our move.
    let mut ponder_lines = d.wait_search_end();
    ponder_lines.extend(d.run_for(WATCH));
    let final_line = ponder_lines.iter().rev().find(|l| is_thinking_line(l));
    let final_line = ThinkingLine::parse(final_line.expect("a thinking line"));
    let mut pv = final_line.pv.split_whitespace().skip(1);
    let answer_san = pv.next().expect("a reply in the ponder line").to_string();
    let mut after_hit = d.board().clone();
    after_hit.make_move(after_hit.parse_move(&expected).unwrap());
    let answer = after_hit.parse_san(&answer_san).unwrap().to_string();
    let lines = d.send_now(&format!("usermove {expected}"));
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(
        lines[0],
        format!("# ponder hit on {expected}, search had finished")
    );
    let shown = ThinkingLine::parse(&lines[1]);
    let rest_of_pv: Vec<&str> = final_line.pv.split_whitespace().skip(1).collect();
    assert_eq!(shown.pv.split_whitespace().collect::<Vec<_>>(), rest_of_pv);
    assert_eq!(
        (shown.depth, shown.score),
        (final_line.depth, final_line.score)
    );
    assert_eq!(lines[2], format!("move {answer}"));
}

/// A reply other than the expected one stops the ponder search; the engine thinks anew
/// and plays a legal move.
#[test]
fn ponder_miss_restarts_and_still_plays_legally() {
    let (mut d, expected) = engine_pondering(&[]);
    let mut board = d.board().clone();
    let other = board
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .find(|m| *m != expected)
        .expect("another move");
    board.make_move(board.parse_move(&other).unwrap());
    d.send(SHALLOW);
    let lines = d.send(&format!("usermove {other}"));
    let m = lines.last().and_then(|l| l.strip_prefix("move "));
    let m = m.unwrap_or_else(|| d.fail("no move after a ponder miss"));
    assert!(
        board.parse_move(m).is_ok(),
        "{m} illegal after a ponder miss"
    );
}

/// `easy`, `force`, `new` and `result` stop pondering: nothing more is printed.
#[test]
fn easy_force_new_and_result_stop_pondering() {
    for stopper in ["easy", "force", "new", "result 1/2-1/2 {agreed}"] {
        let (mut d, _) = engine_pondering(&[]);
        d.wait_thinking();
        d.drain();
        assert_eq!(d.send_now(stopper), SILENT, "{stopper}");
        assert_eq!(d.drain(), SILENT, "{stopper}");
        assert!(!d.game().is_thinking(), "{stopper}");
    }
}

/// `hint` names a legal reply; `bk` is an empty book (just the terminating empty line);
/// `memory`, `cores` and a known option are silent, and the game goes on after resizing.
#[test]
fn hint_bk_memory_cores_and_options() {
    let mut d = Driver::new();
    d.send_all(&["new", SHALLOW]);
    assert_eq!(d.send("usermove e2e4"), [REPLY_TO_E4]);
    let hint = d.send("hint");
    let reply = hint.first().and_then(|l| l.strip_prefix("Hint: "));
    assert_eq!(hint.len(), 1, "{hint:?}");
    let reply = reply.unwrap_or_else(|| d.fail("no hint"));
    assert!(d.board().parse_move(reply).is_ok(), "{reply}");
    assert_eq!(d.send("bk"), [""]);
    assert_eq!(
        d.send_all(&["memory 8", "cores 2", "option Hash=16"]),
        SILENT
    );
    let lines = d.send("usermove d2d4");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(is_move(&lines[0]), "{lines:?}");
}

/// A hint always comes, also before the engine has searched (then from a short search):
/// a legal move of the side to move.
#[test]
fn hint_comes_even_before_any_search() {
    let mut d = Driver::new();
    let lines = d.send_all(&["new", "hint"]);
    let [hint] = &lines[..] else {
        panic!("one hint expected: {lines:?}")
    };
    let m = hint.strip_prefix("Hint: ").expect("a hint line");
    assert!(Board::startpos().parse_move(m).is_ok(), "{hint}");
}

/// A hint is the reply the engine's last search expected in the current position; after
/// the position changes, that reply is forgotten and the hint comes from a fresh short
/// search of the new position (before the fix it was `b1c3`, the reply expected after
/// 1.e4 e5, still legal at the start). The game opens 1.e4 here: the reply expected
/// after Black's answer is legal at the start too, and is not the engine's own first move
/// (1.d4: a game opened 1.Nf3 d5 expects 2.d4, which a fresh search also finds).
#[test]
fn no_stale_hint_after_the_position_changes() {
    let cases: &[(&str, &[&str])] = &[
        (
            "setboard",
            &[
                "force",
                "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            ],
        ),
        ("undo to the start", &["force", "undo", "undo"]),
    ];
    for (name, change) in cases {
        let mut d = Driver::new();
        d.send_all(&["new", SHALLOW]);
        let reply = d.send("usermove e2e4");
        assert!(reply.len() == 1 && is_move(&reply[0]), "{name}: {reply:?}");
        let expected = d.send("hint");
        assert_eq!(expected.len(), 1, "{name}: a hint after the search");
        assert_ne!(
            expected[0].replace("Hint: ", "move "),
            WHITE_OPENS,
            "{name}: the test needs a stale hint that differs from a fresh one"
        );
        d.send_all(change);
        // The expected reply is legal again at the start; a fresh search of the start
        // position prefers another move.
        let fresh = d.send("hint");
        assert_eq!(fresh.len(), 1, "{name}");
        assert_ne!(fresh, expected, "{name}: the stale hint");
        let m = fresh[0].strip_prefix("Hint: ").expect("a hint");
        assert!(d.board().parse_move(m).is_ok(), "{name}: {m}");
    }
}

/// Several search threads (`cores` or the `Threads` option, also changed mid-game and
/// mid-analysis): the engine still plays one legal move per turn, ponders, analyses with
/// growing node counts, answers `.`, and stops at once on `?`, `exit` and `force`.
#[test]
fn several_threads_play_ponder_analyse_and_stop() {
    let mut d = Driver::new();
    d.send_all(&["new", "cores 2", "hard", SHALLOW]);
    let lines = d.send("usermove e2e4");
    let moves: Vec<&String> = lines.iter().filter(|l| is_move(l)).collect();
    assert_eq!(moves.len(), 1, "{lines:?}");
    let reply = &moves[0]["move ".len()..];
    assert!(board_after(&["e2e4"]).parse_move(reply).is_ok(), "{reply}");
    // Pondering runs with the same threads; a move that misses the prediction restarts.
    assert_eq!(d.send_now("option Threads=3"), SILENT);
    d.send_all(&[
        "accepted analyze",
        "force",
        "new",
        "force",
        "post",
        "analyze",
    ]);
    let mut nodes = Vec::new();
    for _ in 0..3 {
        let line = d.wait_thinking();
        nodes.push(ThinkingLine::parse(&line).nodes);
    }
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");
    let stat = d.send_now(".");
    assert!(stat[0].starts_with("stat01: "), "{stat:?}");
    // A new thread count restarts the analysis with it.
    assert_eq!(d.send_now("cores 1"), SILENT);
    d.wait_thinking();
    assert_eq!(d.send_now("exit"), SILENT);
    assert_eq!(d.drain(), SILENT);
    d.send_all(&["nopost", "cores 4", ENDLESS]);
    assert_eq!(d.send_now("go"), SILENT);
    d.send_now("?");
    let out = d.settle();
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(is_move(&out[0]));
}

/// `EvalFile`: a network file is read and searched with; a missing, bad or truncated file
/// is reported and the engine keeps the network it had (the embedded one); an empty
/// name is the embedded network again. `Eval=classical` is the hand-written evaluation.
#[test]
fn a_network_file_is_taken_or_refused_with_a_reason() {
    assert_ne!(
        REPLY_TO_E4, CLASSICAL_REPLY_TO_E4,
        "the probe tells them apart"
    );
    let dir = std::env::temp_dir().join(format!("ferrimax-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("net.bin");
    let weights = |n: usize| (0..n).map(|i| i16::try_from(i % 13).unwrap() - 6).collect();
    let net =
        ferrimax::eval::nnue::Network::new(weights(768 * 8), weights(8), weights(16), vec![0])
            .unwrap();
    std::fs::write(&good, net.to_bytes()).unwrap();
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, b"FXNN but not a network").unwrap();
    let truncated = dir.join("truncated.bin");
    let bytes = net.to_bytes();
    std::fs::write(&truncated, &bytes[..bytes.len() - 1]).unwrap();
    let missing = dir.join("missing.bin");
    let set = |file: &std::path::Path| format!("option EvalFile={}", file.display());
    let refusals = [
        (set(&missing), "tellusererror Cannot use network "),
        (set(&bad), "network format version"),
        (set(&truncated), "bytes"),
    ];
    // Each case on a fresh engine, whose reply to 1.e4 tells which evaluation played.
    let first_move = |lines: &[String]| {
        let mut d = Driver::new();
        for line in lines {
            d.send(line);
        }
        d.send_all(&["new", SHALLOW, "e2e4"])
    };
    for (line, reason) in &refusals {
        let mut d = Driver::new();
        let refused = d.send(line);
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert!(refused[0].starts_with("tellusererror Cannot use network "));
        assert!(refused[0].contains(reason), "{refused:?}");
        assert_eq!(
            first_move(std::slice::from_ref(line)),
            [REPLY_TO_E4],
            "{line}: embedded stays"
        );
        // The refused file is forgotten: back from the hand-written evaluation, the
        // engine plays with the network it had, without trying the file again.
        assert_eq!(d.send("option Eval=classical"), SILENT, "{line}");
        assert_eq!(d.send("option Eval=nnue"), SILENT, "{line}");
        assert_eq!(
            d.send_all(&["new", SHALLOW, "e2e4"]),
            [REPLY_TO_E4],
            "{line}"
        );
    }
    let mut d = Driver::new();
    assert_eq!(d.send(&set(&good)), SILENT);
    let lines = d.send_all(&["new", SHALLOW, "go"]);
    assert!(lines.last().is_some_and(|l| is_move(l)), "{lines:?}");
    let option = |text: &str| text.to_string();
    let cases = [
        (vec![set(&good), option("option EvalFile=")], REPLY_TO_E4),
        (vec![option("option Eval=classical")], CLASSICAL_REPLY_TO_E4),
        (
            vec![set(&good), option("option Eval=classical")],
            CLASSICAL_REPLY_TO_E4,
        ),
        (
            vec![option("option Eval=classical"), option("option Eval=nnue")],
            REPLY_TO_E4,
        ),
    ];
    for (lines, expected) in cases {
        assert_eq!(first_move(&lines), [expected], "{lines:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `hint` before anything is searched asks a tiny search, with the game's evaluation:
/// the network's reply to 1.e4, or the hand-written evaluation's.
#[test]
fn a_hint_from_scratch_uses_the_games_evaluation() {
    let cases: [(&[&str], &str); 2] = [
        (&[], REPLY_TO_E4),
        (&["option Eval=classical"], CLASSICAL_REPLY_TO_E4),
    ];
    for (options, reply) in cases {
        let mut d = Driver::new();
        d.send_all(options);
        d.send_all(&["new", "force", "e2e4"]);
        let expected = reply.replace("move ", "Hint: ");
        assert_eq!(d.send("hint"), [expected], "{options:?}");
    }
}
