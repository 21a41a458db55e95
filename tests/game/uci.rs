//! The UCI front end, line by line: the handshake, every command, every option, bad
//! input (answered with `info string`, changing nothing), and the races of `stop`,
//! `ponderhit` and `isready` with a running search. The search, options, book, levels
//! and clocks are CECP's; what is tested here is how UCI reaches them.

use crate::SILENT;
use crate::common::game::Driver;
use crate::common::write_book;
use crate::positions::*;
use ferrimax::chess::Board;
use ferrimax::game::Flow;

/// The engine's answer to `uci`, line by line.
const HANDSHAKE: &[&str] = &[
    "id name Ferrimax 0.1.0",
    "id author the Ferrimax developers",
    "option name Hash type spin default 64 min 1 max 65536",
    "option name Threads type spin default 1 min 1 max 256",
    "option name Book type string default <empty>",
    "option name BookDepth type spin default 20 min 0 max 200",
    "option name BookVariety type spin default 50 min 0 max 100",
    "option name Contempt type spin default 10 min -200 max 200",
    "option name MultiPV type spin default 1 min 1 max 64",
    "option name UCI_LimitStrength type check default false",
    "option name UCI_Elo type spin default 2000 min 1000 max 2800",
    "option name Eval type combo default nnue var nnue var classical",
    "option name EvalFile type string default <empty>",
    "option name Move Overhead type spin default 50 min 0 max 5000",
    "option name Clear Hash type button",
    "option name Ponder type check default false",
    "option name SyzygyPath type string default <empty>",
    "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
    "option name Syzygy50MoveRule type check default true",
    "option name UCI_Chess960 type check default false",
    "uciok",
];

/// A UCI session after the handshake.
fn uci() -> Driver {
    let mut d = Driver::new();
    assert_eq!(d.send("uci"), HANDSHAKE);
    d
}

fn is_bestmove(line: &str) -> bool {
    line.starts_with("bestmove ")
}

fn is_info(line: &str) -> bool {
    line.starts_with("info ") && !line.starts_with("info string")
}

/// Waits for the `bestmove`; returns it and the lines before it.
fn bestmove(d: &mut Driver) -> (String, Vec<String>) {
    d.wait_for(is_bestmove)
}

/// The value of field `name` in an `info` line (`depth`, `nodes`, `multipv` ...).
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == name)?;
    words.next()
}

/// The move of a `bestmove` line, and its ponder move.
fn moves_of(line: &str) -> (String, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let ponder = (words.get(2) == Some(&"ponder")).then(|| words[3].to_string());
    (words[1].to_string(), ponder)
}

#[test]
fn uci_as_the_first_command_starts_uci() {
    let mut d = uci();
    assert_eq!(d.send("isready"), ["readyok"]);
    // A CECP command means nothing in UCI.
    assert_eq!(d.send("xboard"), ["info string unknown command: xboard"]);
    assert_eq!(d.send("quit"), SILENT);
    // After a CECP handshake, `uci` is an unknown command.
    let mut d = Driver::new();
    d.send_all(&["xboard", "protover 2"]);
    assert_eq!(d.send("uci"), ["Error (unknown command): uci"]);
}

#[test]
fn quit_ends_the_session() {
    let mut d = uci();
    assert_eq!(d.send_for_flow("quit"), Flow::Quit);
}

/// A search to a depth: one `info` line per iteration, then `bestmove` with the reply
/// the engine expects; the same move as CECP's search of the same position.
#[test]
fn go_depth_searches_and_answers_bestmove() {
    let mut d = uci();
    assert_eq!(d.send("position startpos moves e2e4"), SILENT);
    d.send("go depth 3");
    let (last, infos) = bestmove(&mut d);
    assert!(infos.iter().all(|l| is_info(l)), "{infos:?}");
    let depths: Vec<&str> = infos.iter().filter_map(|l| field(l, "depth")).collect();
    assert_eq!(depths.last(), Some(&"3"), "{infos:?}");
    for name in [
        "seldepth", "score", "nodes", "nps", "hashfull", "tbhits", "time", "pv",
    ] {
        assert!(field(&infos[0], name).is_some(), "{name} in {}", infos[0]);
    }
    let (best, ponder) = moves_of(&last);
    assert_eq!(format!("move {best}"), REPLY_TO_E4);
    let after = board_after(&["e2e4", &best]);
    assert!(
        after
            .parse_coordinate(&ponder.expect("a ponder move"))
            .is_ok()
    );
}

fn board_after(moves: &[&str]) -> Board {
    crate::common::board_after(moves)
}

/// A case of `go_limits_are_kept`: its name, the position, the `go` line, and what the
/// move must be.
type GoCase = (&'static str, &'static str, &'static str, fn(&str) -> bool);

/// `go` with a clock, a move time, nodes, a mate to find, and `searchmoves`: each ends
/// with one legal `bestmove` within what it allows.
#[test]
fn go_limits_are_kept() {
    let cases: &[GoCase] = &[
        (
            "clock",
            START,
            "go wtime 1000 btime 1000 winc 10 binc 10",
            |_| true,
        ),
        ("late clock", START, "go wtime -50 btime 1000", |_| true),
        (
            "moves to go",
            START,
            "go wtime 2000 btime 2000 movestogo 3",
            |_| true,
        ),
        ("move time", START, "go movetime 100", |_| true),
        ("nodes", START, "go nodes 3000", |_| true),
        ("mate in two", MATE_IN_TWO, "go mate 2", |m| m == "d5d8"),
        (
            "searchmoves",
            START,
            "go depth 4 searchmoves a2a3 h2h3",
            |m| m == "a2a3" || m == "h2h3",
        ),
    ];
    for (name, fen, go, good) in cases {
        let mut d = uci();
        d.send(&format!("position fen {fen}"));
        d.send(go);
        let (last, infos) = bestmove(&mut d);
        let (best, _) = moves_of(&last);
        let board = Board::from_fen(fen).unwrap();
        assert!(board.parse_coordinate(&best).is_ok(), "{name}: {last}");
        assert!(good(&best), "{name}: {last}");
        if *name == "nodes" {
            let nodes: u64 = field(infos.last().unwrap(), "nodes")
                .unwrap()
                .parse()
                .unwrap();
            assert!(nodes < 3000 + 2000, "{name}: {nodes}");
        }
        if *name == "mate in two" {
            assert_eq!(field(infos.last().unwrap(), "mate"), Some("2"), "{infos:?}");
        }
        assert_eq!(d.drain(), SILENT, "{name}: one bestmove per go");
    }
}

/// `go infinite` searches until `stop`, even past a depth limit it reached; `stop`
/// brings exactly one `bestmove`, and `isready` is answered at once meanwhile.
#[test]
fn go_infinite_waits_for_stop_and_isready_is_answered_during_the_search() {
    let mut d = uci();
    d.send("position startpos");
    d.send("go infinite");
    d.wait_for(|l| is_info(l) && field(l, "depth") == Some("4"));
    d.drain();
    assert_eq!(d.send_now("isready"), ["readyok"]);
    d.send_now("stop");
    let (last, _) = bestmove(&mut d);
    assert!(
        Board::startpos()
            .parse_coordinate(&moves_of(&last).0)
            .is_ok()
    );
    assert_eq!(d.send_now("stop"), SILENT);

    // With a depth limit reached, the answer still waits for `stop`.
    let mut d = uci();
    d.send_all(&["position startpos", "go infinite depth 2"]);
    d.wait_search_end();
    assert_eq!(d.drain().iter().filter(|l| is_bestmove(l)).count(), 0);
    let answer = d.send_now("stop");
    assert_eq!(
        answer.iter().filter(|l| is_bestmove(l)).count(),
        1,
        "{answer:?}"
    );
}

/// `go ponder` with the expected reply played: no `bestmove` until the GUI says; on
/// `ponderhit` the search goes on under its clock and answers; on `stop` it answers at
/// once (the GUI then sends the real position).
#[test]
fn ponder_then_ponderhit_or_stop() {
    for word in ["ponderhit", "stop"] {
        let mut d = uci();
        d.send_all(&[
            "setoption name Ponder value true",
            "position startpos moves e2e4 e7e5",
        ]);
        d.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
        d.wait_for(|l| is_info(l) && field(l, "depth") == Some("3"));
        assert!(d.drain().iter().all(|l| !is_bestmove(l)), "{word}");
        d.send_now(word);
        let (last, _) = bestmove(&mut d);
        let board = board_after(&["e2e4", "e7e5"]);
        assert!(
            board.parse_coordinate(&moves_of(&last).0).is_ok(),
            "{word}: {last}"
        );
        assert_eq!(
            d.drain().iter().filter(|l| is_bestmove(l)).count(),
            0,
            "{word}"
        );
    }
}

/// `stop` and `ponderhit` arriving at once after `go`, or after the search ended by
/// itself, or when nothing runs: always exactly one `bestmove` per `go`.
#[test]
fn stop_and_ponderhit_races() {
    let cases: &[(&str, &[&str])] = &[
        ("stop right after go", &["go infinite", "stop"]),
        ("stop twice", &["go infinite", "stop", "stop"]),
        (
            "ponderhit right after go ponder",
            &["go ponder movetime 50", "ponderhit"],
        ),
        (
            "ponderhit then stop",
            &["go ponder wtime 500 btime 500", "ponderhit", "stop"],
        ),
        ("stop when idle", &["stop", "ponderhit", "go depth 1"]),
        ("go during go", &["go infinite", "go depth 2"]),
        (
            "position during go",
            &["go infinite", "position startpos moves d2d4", "go depth 2"],
        ),
        (
            "ucinewgame during go",
            &["go infinite", "ucinewgame", "go depth 2"],
        ),
    ];
    for (name, lines) in cases {
        let mut d = uci();
        d.send("position startpos");
        let gos = lines.iter().filter(|l| l.starts_with("go")).count();
        let mut out = Vec::new();
        for line in *lines {
            out.extend(d.send_now(line));
        }
        while out.iter().filter(|l| is_bestmove(l)).count() < gos {
            out.push(bestmove(&mut d).0);
        }
        out.extend(d.drain());
        let answers = out.iter().filter(|l| is_bestmove(l)).count();
        assert_eq!(answers, gos, "{name}: {out:?}");
        assert!(d.game().inconsistency().is_none(), "{name}");
    }
}

/// A `position` command sets the whole game; its positions count for repetitions: here
/// Black, a rook down, can repeat the position for the third time and takes the draw.
#[test]
fn positions_replay_the_game_and_count_for_repetitions() {
    let mut d = uci();
    // Without contempt a draw scores 0.
    d.send("setoption name Contempt value 0");
    let fen = "4k3/8/8/8/8/8/4P3/R3K3 b - - 0 1";
    d.send(&format!("position fen {fen} moves e8d8 e1d1 d8e8 d1e1"));
    d.send("go depth 6");
    let (last, infos) = bestmove(&mut d);
    assert_eq!(moves_of(&last).0, "e8d8", "{infos:?}");
    assert_eq!(field(infos.last().unwrap(), "cp"), Some("0"), "{infos:?}");

    // Hundreds of moves (a knight dance of 400 plies, back at the start).
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = cycle.iter().copied().cycle().take(400).collect();
    assert_eq!(
        d.send(&format!("position startpos moves {}", moves.join(" "))),
        SILENT
    );
    assert_eq!(d.board().key(), Board::startpos().key());
    assert!(d.game().inconsistency().is_none());
}

/// A FEN that is no position, or a move list with an illegal move, refuses the whole
/// command with an `info string`, and the position stays as it was.
#[test]
fn bad_positions_are_refused_whole() {
    let mut d = uci();
    d.send("position startpos moves e2e4 e7e5");
    let before = d.board().clone();
    let cases: &[(&str, &str)] = &[
        (
            "position startpos moves e2e4 e7e5 e1e2 e8e7 e2e5",
            "info string position refused: move 5 (e2e5) is illegal; the position stays",
        ),
        (
            "position startpos moves e2e4 zz",
            "info string position refused: move 2 (zz) is not a move; the position stays",
        ),
        (
            "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
            "info string illegal position (",
        ),
        (
            "position fen",
            "info string position fen needs a FEN: position fen",
        ),
        (
            "position",
            "info string position needs startpos or fen FEN: position",
        ),
        (
            "position sideways",
            "info string position needs startpos or fen FEN",
        ),
    ];
    for (line, reply) in cases {
        let out = d.send(line);
        assert_eq!(out.len(), 1, "{line}: {out:?}");
        assert!(out[0].starts_with(reply), "{line}: {out:?}");
        assert_eq!(d.board(), &before, "{line}");
    }
}

/// Options: names in any case and with spaces, values clamped as in CECP, a bad value or
/// an unknown name answered with an `info string`; what each does is seen in a search.
#[test]
fn options_are_set_by_their_uci_names() {
    let mut d = uci();
    let quiet = [
        "setoption name Hash value 8",
        "setoption name hash value 16",
        "setoption name Threads value 2",
        "setoption name Move Overhead value 30",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "setoption name UCI_Chess960 value false",
        "setoption name UCI_LimitStrength value false",
        "setoption name UCI_Elo value 99999",
        "setoption name Contempt value 0",
        "setoption name MultiPV value 1",
        "setoption name Book value",
        "setoption name BookDepth value 10",
        "setoption name BookVariety value 0",
        "setoption name Eval value nnue",
        "setoption name EvalFile value",
    ];
    for line in quiet {
        assert_eq!(d.send(line), SILENT, "{line}");
    }
    let refused = [
        (
            "setoption name Hash value lots",
            "info string option Hash cannot take the value 'lots'",
        ),
        (
            "setoption name Hash",
            "info string option Hash cannot take the value ''",
        ),
        (
            "setoption name Ponder value maybe",
            "info string option Ponder cannot take the value 'maybe'",
        ),
        (
            "setoption name Resign value 500",
            "info string no option named Resign",
        ),
        (
            "setoption name Nonsense value 1",
            "info string no option named Nonsense",
        ),
        (
            "setoption Hash 8",
            "info string setoption needs name NAME: setoption Hash 8",
        ),
    ];
    for (line, reply) in refused {
        assert_eq!(d.send(line), [reply], "{line}");
    }
    assert_eq!(d.send("isready"), ["readyok"]);
}

/// `MultiPV` shows that many lines per iteration, each with its rank; `bestmove` is the
/// first line's move.
#[test]
fn multipv_lines_carry_their_rank() {
    let mut d = uci();
    d.send_all(&["setoption name MultiPV value 3", "position startpos"]);
    d.send("go depth 4");
    let (last, infos) = bestmove(&mut d);
    // The iteration's lines (a new best move within it is a lower bound, shown first).
    let at_depth_4: Vec<&String> = infos
        .iter()
        .filter(|l| field(l, "depth") == Some("4") && !l.contains("lowerbound"))
        .collect();
    let ranks: Vec<&str> = at_depth_4
        .iter()
        .filter_map(|l| field(l, "multipv"))
        .collect();
    assert_eq!(ranks, ["1", "2", "3"], "{infos:?}");
    let first_move = field(at_depth_4[0], "pv").unwrap();
    assert_eq!(moves_of(&last).0, first_move);
}

/// The levels (`UCI_LimitStrength`, `UCI_Elo`) play a legal move of their own, the
/// first of the last `info` line's PV; the further candidates a level compares are not
/// shown (without a `multipv` rank a GUI would take each for the main line), so every
/// `info` line of an iteration is the line it would play.
#[test]
fn levels_play_by_their_uci_names() {
    let mut d = uci();
    d.send_all(&[
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1200",
        "position startpos",
    ]);
    d.send("go movetime 200");
    let (last, _) = bestmove(&mut d);
    assert!(
        Board::startpos()
            .parse_coordinate(&moves_of(&last).0)
            .is_ok(),
        "{last}"
    );
    // Named positions with many captures: a level's few nodes end inside its passes for
    // the further candidates.
    let busy = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "2kr4/p1p1qNpp/3b1n2/1N2p3/2Bn4/5P2/PPPP3P/R1BQK2R b KQ - 0 13",
    ];
    for fen in busy {
        for elo in [1000, 1400, 1800] {
            d.send_all(&[
                &format!("setoption name UCI_Elo value {elo}"),
                &format!("position fen {fen}"),
            ]);
            d.send("go nodes 300");
            let (last, lines) = bestmove(&mut d);
            let infos: Vec<&String> = lines.iter().filter(|l| is_info(l)).collect();
            let case = format!("{fen}, Elo {elo}: {infos:?}");
            let shown = infos.last().unwrap_or_else(|| panic!("{case}"));
            assert_eq!(
                field(shown, "pv"),
                Some(moves_of(&last).0.as_str()),
                "{case}"
            );
            // One exact line a depth (new bests within an iteration are lower bounds),
            // then the level's choice again.
            let exact_depths: Vec<&str> = infos[..infos.len() - 1]
                .iter()
                .filter(|l| !l.contains("lowerbound"))
                .filter_map(|l| field(l, "depth"))
                .collect();
            let distinct: std::collections::BTreeSet<&&str> = exact_depths.iter().collect();
            assert_eq!(distinct.len(), exact_depths.len(), "{case}");
        }
    }
}

/// In Chess960 (`UCI_Chess960`) castling is written, and read, as the king taking its
/// own rook.
#[test]
fn chess960_castling_is_king_takes_rook() {
    // White's king on c1 between rooks on b1 and e1 (Shredder-FEN `EB`).
    let fen = "k6r/8/8/8/8/8/8/1RK1R3 w EB - 0 1";
    let cases = [
        ("c1b1", "k6r/8/8/8/8/8/8/2KRR3 b - - 1 1"),
        ("c1e1", "k6r/8/8/8/8/8/8/1R3RK1 b - - 1 1"),
    ];
    for (written, after) in cases {
        let mut d = uci();
        d.send_all(&[
            "setoption name UCI_Chess960 value true",
            &format!("position fen {fen}"),
        ]);
        d.send(&format!("go depth 2 searchmoves {written}"));
        let (last, _) = bestmove(&mut d);
        assert_eq!(moves_of(&last).0, written);
        // The GUI sends it back the same way.
        d.send(&format!("position fen {fen} moves {written}"));
        assert_eq!(d.board().to_shredder_fen(), after);
    }
    // In standard chess castling stays the king's two-square step.
    let mut d = uci();
    d.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    d.send("go depth 2 searchmoves e1g1");
    assert_eq!(moves_of(&bestmove(&mut d).0).0, "e1g1");
}

/// `go` without a legal move: the end's score and `bestmove 0000`.
#[test]
fn no_legal_move_answers_0000() {
    let cases = [
        ("mated", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "score mate 0"),
        ("stalemated", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "score cp 0"),
    ];
    for (name, fen, score) in cases {
        let mut d = uci();
        d.send(&format!("position fen {fen}"));
        let out = d.send("go depth 5");
        assert_eq!(out.len(), 2, "{name}: {out:?}");
        assert!(out[0].contains(score), "{name}: {out:?}");
        assert_eq!(out[1], "bestmove 0000", "{name}");
    }
}

/// A book move is played at once, named in an `info string`.
#[test]
fn book_moves_come_at_once() {
    let start = Board::startpos();
    let book = write_book("uci-book", &[(&start, "d2d4", 10)]);
    let mut d = uci();
    d.send(&format!("setoption name Book value {}", book.display()));
    d.send("position startpos");
    assert_eq!(
        d.send("go wtime 1000 btime 1000"),
        ["info string book move d4", "bestmove d2d4"]
    );
    // Not in analysis.
    d.send("go infinite");
    assert!(d.drain().iter().all(|l| !is_bestmove(l)));
    d.send_now("stop");
    bestmove(&mut d);
    let _ = std::fs::remove_file(book);
}

/// `debug on` turns the engine's notes into `info string` lines; `ucinewgame` starts
/// over; `register` is accepted; unknown words before a command are skipped.
#[test]
fn small_commands() {
    let mut d = uci();
    assert_eq!(d.send("register later"), SILENT);
    assert_eq!(d.send("joho isready"), ["readyok"]);
    assert_eq!(d.send("debug on"), SILENT);
    assert_eq!(d.send("debug off"), SILENT);
    d.send("position startpos moves e2e4");
    assert_eq!(d.send("ucinewgame"), SILENT);
    assert_eq!(d.board(), &Board::startpos());
    assert_eq!(d.send("hello"), ["info string unknown command: hello"]);
    assert_eq!(
        d.send("debug loud"),
        ["info string debug takes on or off: debug loud"]
    );
}

/// The nodes of the last `info` line before the `bestmove` of `go depth 7` from `fen`.
fn nodes_to_depth_7(d: &mut Driver, fen: &str) -> u64 {
    d.send(&format!("position fen {fen}"));
    d.send("go depth 7");
    let (_, infos) = bestmove(d);
    let last = infos
        .iter()
        .rev()
        .find(|l| is_info(l) && field(l, "nodes").is_some());
    let nodes = last
        .and_then(|l| field(l, "nodes"))
        .expect("a line with nodes");
    nodes.parse().expect("a node count")
}

/// A game's searches hand their histories on, and `ucinewgame` and `Clear Hash` forget
/// them with the table's results: after either, the same search repeats exactly.
#[test]
fn a_new_game_forgets_what_the_searches_learnt() {
    const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9";
    let mut d = uci();
    let first = nodes_to_depth_7(&mut d, MIDDLEGAME);
    d.send("ucinewgame");
    assert_eq!(nodes_to_depth_7(&mut d, MIDDLEGAME), first);
    d.send("setoption name Clear Hash");
    assert_eq!(nodes_to_depth_7(&mut d, MIDDLEGAME), first);
    // Without either, the table's results and the histories both carry on.
    assert_ne!(nodes_to_depth_7(&mut d, MIDDLEGAME), first);
}
