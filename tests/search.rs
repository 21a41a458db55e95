//! Search behaviour on named positions (expected results checked with Stockfish 15.1).

use ferrimax::chess::{Board, Move, positions};
use ferrimax::cli::bench;
use ferrimax::search::{
    self, Limits, SearchControl, SearchMemory, SearchOptions, SearchRequest, SearchResult,
    SearchScore, TranspositionTable,
};
use std::time::{Duration, Instant};

/// Searches `board` as the game manager would: fresh table holding any `earlier` game
/// positions (the search treats the root as one itself).
fn search_board(board: &Board, limits: Limits, earlier: &[u64]) -> SearchResult {
    search_board_with(board, limits, earlier, SearchOptions::default())
}

fn search_board_with(
    board: &Board,
    limits: Limits,
    earlier: &[u64],
    options: SearchOptions,
) -> SearchResult {
    let tt = TranspositionTable::new(16);
    for &k in earlier {
        tt.insert_game_position(k);
    }
    let request = SearchRequest::new(board.clone())
        .limits(limits)
        .options(options);
    search::search(&request, &tt, &SearchControl::new(), &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// `sd` values at the edges of the integer types: a limit beyond `i32` is no limit (the
/// search runs until the node cap), not a wrapped negative one that stops at depth 1.
#[test]
fn depth_limits_saturate() {
    const NODE_CAP: u64 = 200_000;
    // (name, sd, least depth reached, greatest)
    let cases = [
        ("sd 0 searches one ply", 0, 1, 1),
        ("sd 1", 1, 1, 1),
        ("sd 3", 3, 3, 3),
        ("sd i32::MAX", i32::MAX as u32, 4, search::MAX_DEPTH),
        ("sd 2147483648", 2_147_483_648, 4, search::MAX_DEPTH),
        ("sd u32::MAX", u32::MAX, 4, search::MAX_DEPTH),
    ];
    for (name, sd, least, greatest) in cases {
        let limits = Limits {
            depth: Some(sd),
            nodes: Some(NODE_CAP),
            ..Limits::default()
        };
        let result = search_board(&Board::startpos(), limits, &[]);
        assert!(
            (least..=greatest).contains(&result.depth),
            "{name}: depth {}",
            result.depth
        );
    }
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

fn search_fen(fen: &str, limits: Limits) -> (Board, SearchResult) {
    let board = Board::from_fen(fen).unwrap();
    let result = search_board(&board, limits, &[]);
    (board, result)
}

#[test]
fn finds_mates_in_one_two_and_three() {
    // (name, FEN, depth, expected first move, mate in plies for the side to move)
    let cases: &[(&str, &str, u32, &str, i32)] = &[
        (
            "back-rank mate in 1",
            "k7/8/1K6/8/8/8/8/7R w - - 0 1",
            2,
            "h1h8",
            1,
        ),
        (
            "smothered mate in 1",
            "6rk/6pp/8/6N1/8/8/8/K7 w - - 0 1",
            2,
            "g5f7",
            1,
        ),
        (
            "under-promotion mate in 1",
            "6br/5Ppk/6pp/8/8/8/8/K7 w - - 0 1",
            2,
            "f7f8n",
            1,
        ),
        (
            "queen sacrifice mate in 2",
            "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
            4,
            "d5d8",
            3,
        ),
        // The queen's sacrifice with check (Qg8+) loses the queen in the exchange: exchange
        // pruning skips it near the leaves, so the mate needs depth 9 and 67,000 nodes
        // where it took depth 3 and under 1,000 nodes before that pruning.
        (
            "smothered mate in 3",
            "5rk1/5Npp/8/8/2Q5/8/8/K7 w - - 0 1",
            9,
            "f7h6",
            5,
        ),
    ];
    // Both deepening schemes (micro-Max 4's self-deepening of cut moves, and plain) must
    // find them.
    let schemes = [
        SearchOptions::default(),
        SearchOptions {
            self_deepening: true,
            ..SearchOptions::default()
        },
    ];
    for options in schemes {
        for (name, fen, d, expected, plies) in cases {
            let board = Board::from_fen(fen).unwrap();
            let result = search_board_with(&board, depth(*d), &[], options);
            assert_eq!(result.best_move.to_string(), *expected, "{name}");
            assert_eq!(
                search::SearchScore::from_internal(result.score),
                SearchScore::Mate(*plies),
                "{name}"
            );
        }
    }
}

#[test]
fn self_deepening_changes_the_tree_and_stays_deterministic() {
    let deepening = SearchOptions {
        self_deepening: true,
        ..SearchOptions::default()
    };
    // Depth 6: below it, internal iterative deepening (where cut moves are deepened) does
    // not run often enough to matter on the bench set.
    let plain = bench::run(6, SearchOptions::default(), |_, _, _| {});
    let first = bench::run(6, deepening, |_, _, _| {});
    let second = bench::run(6, deepening, |_, _, _| {});
    assert_eq!(first.nodes, second.nodes);
    assert_ne!(first.nodes, plain.nodes, "the option had no effect");
}

#[test]
fn mated_side_delays_the_mate() {
    // Black is mated in 2 by Qd8+ (from the queen-sacrifice position after 1.Qd8+ Bxd8 there
    // is 2.Re8#); here Black to move in a lost position reports being mated, as late as possible.
    let (_, result) = search_fen(
        "r1bQ1k1r/ppp1bppp/8/1B6/5q2/2P5/PPP2PPP/R3R1K1 b - - 2 1",
        depth(5),
    );
    assert_eq!(
        SearchScore::from_internal(result.score),
        SearchScore::Mate(-2)
    );
}

#[test]
fn does_not_stalemate_when_winning() {
    // Black's king has no move: every quiet move that keeps the bind stalemates. White must
    // keep Black a move, or mate.
    let fen = "7k/8/6Q1/8/8/8/8/K7 w - - 0 1";
    let (board, result) = search_fen(fen, depth(8));
    let mut after = board.clone();
    after.make_move(result.best_move);
    assert!(!after.is_stalemate(), "{} stalemates", result.best_move);
    assert!(result.score > 500, "still winning: {}", result.score);
}

#[test]
fn side_behind_takes_the_perpetual_check() {
    // White's rooks on the seventh and extra pawns win anything slow; Black's queen checks
    // forever (Qc1+ Kh2 Qf4+ Kh1 Qc1+). Stockfish: 0; every non-check loses 1.5 pawns or more.
    let (board, result) = search_fen("6k1/RR3ppp/8/8/8/7P/P2q1PP1/6K1 b - - 0 1", depth(10));
    let mut after = board.clone();
    after.make_move(result.best_move);
    assert!(after.in_check(), "{} is not a check", result.best_move);
    assert!(
        result.score.abs() <= 10,
        "draw expected, got {}",
        result.score
    );
}

/// Plays `moves` and returns the board and the keys of the positions before the last.
fn play(fen: &str, moves: &[&str]) -> (Board, Vec<u64>) {
    let mut board = Board::from_fen(fen).unwrap();
    let mut keys = Vec::new();
    for m in moves {
        keys.push(board.key());
        board.make_move(board.parse_move(m).unwrap());
    }
    (board, keys)
}

#[test]
fn side_ahead_avoids_repeating_a_game_position() {
    // KR vs K: first find the move the engine likes, then replay a game in which that move
    // would bring back a position of the game. The engine must choose another move.
    let fen = "8/8/8/3k4/8/8/8/R3K3 w - - 0 1";
    let (board, free) = search_fen(fen, depth(7));
    let preferred = free.best_move;
    let mut after = board.clone();
    after.make_move(preferred);
    // The same position with that move already played once before in the game.
    let result = search_board(&board, depth(7), &[after.key()]);
    assert_ne!(
        result.best_move, preferred,
        "repeated a game position while winning"
    );
    assert!(result.score > 300, "still winning: {}", result.score);
}

#[test]
fn side_behind_heads_for_a_game_repetition() {
    // Black is a rook down. Making a move that returns to a position of the game is a
    // draw, and the engine takes it over any move that keeps the game going.
    let fen = "4k3/8/8/8/8/8/4P3/R3K3 b - - 0 1";
    let (board, free) = search_fen(fen, depth(6));
    let moves = board.legal_moves();
    let other: Move = *moves.iter().find(|&&m| m != free.best_move).unwrap();
    let mut after = board.clone();
    after.make_move(other);
    let result = search_board(&board, depth(6), &[after.key()]);
    assert_eq!(result.best_move, other);
    assert_eq!(result.score, 0);
    // And through real moves: the knight-free shuffle Ke8-d8-e8 after White's Ke1-d1-e1.
    let (board, keys) = play(fen, &["e8d8", "e1d1", "d8e8", "d1e1"]);
    let result = search_board(&board, depth(6), &keys);
    assert_eq!(
        result.best_move.to_string(),
        "e8d8",
        "heads for the repetition"
    );
    assert_eq!(result.score, 0);
}

#[test]
fn a_game_repetition_on_the_last_ply_is_seen() {
    // Black is a rook down; whichever move returns to a game position, the engine takes it,
    // also when that move leads straight into quiescence (depth 1).
    let fen = "4k3/8/8/8/8/8/4P3/R3K3 b - - 0 1";
    let board = Board::from_fen(fen).unwrap();
    for search_depth in 1..=3 {
        for &m in board.legal_moves().iter() {
            let mut after = board.clone();
            after.make_move(m);
            let result = search_board(&board, depth(search_depth), &[after.key()]);
            assert_eq!(
                (result.best_move, result.score),
                (m, 0),
                "depth {search_depth}: the repetition by {m} is a draw"
            );
        }
    }
}

#[test]
fn fifty_move_rule_draws_unless_mate_comes_first() {
    let (_, at_99) = search_fen("k7/8/8/8/8/8/8/KR6 w - - 99 80", depth(6));
    assert_eq!(at_99.score, 0, "any rook move ends the game drawn");
    let (_, fresh) = search_fen("k7/8/8/8/8/8/8/KR6 w - - 0 80", depth(6));
    assert!(fresh.score > 300);
    let (_, mate) = search_fen("k7/8/1K6/8/8/8/8/7R w - - 99 80", depth(3));
    assert_eq!(
        mate.best_move.to_string(),
        "h1h8",
        "mate on the 100th half-move still counts"
    );
}

/// Coulom's positions where Crafty 15.17 played a losing capture because it misjudged a
/// pawn race (Rémi Coulom's 1999 post on pawn races).
#[test]
fn pawn_races_from_coulom_are_not_misjudged() {
    let cases: &[(&str, &str)] = &[
        (
            "a check wins a tempo",
            "8/1p3p2/p7/8/7P/P3k3/2R1b1K1/8 w - - 0 1",
        ),
        (
            "hidden passed pawns",
            "8/8/2p5/1pp5/p7/P1PPk2P/2R1b1K1/8 w - - 0 1",
        ),
        (
            "king in the square of two passers",
            "2bk4/5p2/2R5/8/p1K1pP1P/8/8/8 w - - 0 1",
        ),
        (
            "king protects its passer",
            "8/3ppp2/8/1p6/8/k2PPP2/b2R3P/3K4 w - - 0 1",
        ),
    ];
    let losing = ["c2e2", "c6c8", "d2a2"];
    for (name, fen) in cases {
        let (_, result) = search_fen(fen, nodes(1_000_000));
        let played = result.best_move.to_string();
        assert!(
            !losing.contains(&played.as_str()),
            "{name}: played {played}"
        );
    }
}

#[test]
fn stops_quickly_and_always_has_a_move() {
    let board = Board::startpos();
    let tt = TranspositionTable::new(16);
    let control = SearchControl::new();
    control.stop();
    let request = SearchRequest::new(board.clone());
    let result = search::search(&request, &tt, &control, &mut |_| {});
    assert!(
        board.is_legal(result.best_move),
        "stopped before starting, still a legal move"
    );

    let limits = Limits {
        move_time: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    let start = Instant::now();
    let result = search_board(&board, limits, &[]);
    let elapsed = start.elapsed();
    assert!(board.is_legal(result.best_move));
    assert!(
        elapsed < Duration::from_millis(1000),
        "st 0.1 took {elapsed:?}"
    );
}

#[test]
fn node_limit_and_excluded_moves_are_respected() {
    let board = Board::startpos();
    let result = search_board(&board, nodes(20_000), &[]);
    assert!(
        result.nodes >= 20_000 && result.nodes < 22_000,
        "{}",
        result.nodes
    );
    let only: Vec<Move> = ["a2a3", "h2h3"]
        .iter()
        .map(|m| board.parse_move(m).unwrap())
        .collect();
    let tt = TranspositionTable::new(16);
    let request = SearchRequest::new(board.clone())
        .depth(4)
        .root_moves(only.clone());
    let result = search::search(&request, &tt, &SearchControl::new(), &mut |_| {});
    assert!(only.contains(&result.best_move), "{}", result.best_move);
}

#[test]
fn reports_each_iteration_with_a_legal_pv() {
    let board = Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        .unwrap();
    let tt = TranspositionTable::new(16);
    let mut depths = Vec::new();
    let request = SearchRequest::new(board.clone()).depth(6);
    let result = search::search(&request, &tt, &SearchControl::new(), &mut |r| {
        if let search::Report::Iteration(info) = r {
            depths.push(info.depth);
            let mut b = board.clone();
            for &m in &info.pv {
                assert!(b.is_legal(m), "illegal PV move {m}");
                b.make_move(m);
            }
        }
    });
    assert_eq!(depths, (1..=6).collect::<Vec<_>>());
    assert_eq!(result.pv.first(), Some(&result.best_move));
}

/// The node count of `ferrimax bench` (with the embedded network) is the search's
/// signature: every commit that changes the search or the evaluation states it
/// (`Bench: N`) and updates it here.
const BENCH_SIGNATURE: u64 = 952_335;
/// The same with the hand-written evaluation (`ferrimax bench --classical`).
const CLASSICAL_BENCH_SIGNATURE: u64 = 1_256_074;

#[test]
fn bench_signature_is_pinned() {
    let network = Some(ferrimax::eval::nnue::embedded());
    let options = SearchOptions::default();
    let result = bench::run_threads(
        bench::DEFAULT_DEPTH,
        options,
        1,
        bench::HASH_MB,
        network,
        |_, _, _| {},
    );
    assert_eq!(
        result.nodes, BENCH_SIGNATURE,
        "update BENCH_SIGNATURE and say so"
    );
    let classical = bench::run(bench::DEFAULT_DEPTH, options, |_, _, _| {});
    assert_eq!(
        classical.nodes, CLASSICAL_BENCH_SIGNATURE,
        "update CLASSICAL_BENCH_SIGNATURE and say so"
    );
}

#[test]
fn game_positions_survive_a_real_search() {
    let (board, keys) = play(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["g1f3", "g8f6", "f3g1", "f6g8", "e2e4"],
    );
    let tt = TranspositionTable::new(1);
    for &k in &keys {
        tt.insert_game_position(k);
    }
    let request = SearchRequest::new(board.clone()).depth(8);
    search::search(&request, &tt, &SearchControl::new(), &mut |_| {});
    for &k in &keys {
        assert_eq!(tt.probe(k), search::tt::Probe::GamePosition);
    }
}

/// Whatever ends a search — its clock, its node limit or `?` — its result is the line it
/// reported last: the same move, score and line, so a GUI never reads one move in the
/// thinking output and sees another played. Checked over many node limits (which end
/// the search at every kind of moment: inside an aspiration re-search, right after a
/// root move beat the window) on the bench positions.
#[test]
fn the_result_is_the_line_reported_last() {
    const POSITIONS: usize = 12;
    const LIMITS: std::ops::Range<u64> = 1..40;
    const NODES_PER_STEP: u64 = 700;
    for fen in positions::BENCH.iter().take(POSITIONS) {
        let board = Board::from_fen(fen).unwrap();
        for step in LIMITS {
            let tt = TranspositionTable::new(16);
            let request = SearchRequest::new(board.clone()).limits(nodes(step * NODES_PER_STEP));
            let mut last = None;
            let result = search::search(&request, &tt, &SearchControl::new(), &mut |r| {
                let info = r.info();
                last = Some(info.clone());
            });
            let last = last.unwrap_or_else(|| panic!("{fen}: no line reported"));
            assert_eq!(result.pv, last.pv, "{fen}, {step} steps");
            assert_eq!(
                SearchScore::from_internal(result.score),
                last.score,
                "{fen}, {step} steps"
            );
            assert_eq!(result.best_move, last.pv[0], "{fen}, {step} steps");
        }
    }
}

/// At a limited strength too the move played is the line reported last, whenever the
/// level's node budget (or a node limit below it) ends the search: also when it ends in
/// the first iteration's passes for the further candidates, after some of them were
/// reported (the case python-chess caught: the last `info` showed another move).
#[test]
fn a_level_plays_the_line_it_reported_last() {
    const POSITIONS: usize = 12;
    const LEVELS: [u32; 4] = [1000, 1400, 1800, 2200];
    const LIMITS: std::ops::Range<u64> = 1..12;
    const NODES_PER_STEP: u64 = 300;
    for fen in positions::BENCH.iter().take(POSITIONS) {
        let board = Board::from_fen(fen).unwrap();
        for elo in LEVELS {
            for step in LIMITS {
                let tt = TranspositionTable::new(16);
                let options = SearchOptions {
                    strength: Some(search::Strength::new(elo, step)),
                    ..SearchOptions::default()
                };
                let request = SearchRequest::new(board.clone())
                    .limits(nodes(step * NODES_PER_STEP))
                    .options(options);
                let mut last = None;
                let result = search::search(&request, &tt, &SearchControl::new(), &mut |r| {
                    last = Some(r.info().clone());
                });
                let last = last.unwrap_or_else(|| panic!("{fen}: no line reported"));
                let case = format!("{fen}, Elo {elo}, {step} steps");
                assert_eq!(result.best_move, last.pv[0], "{case}");
                assert_eq!(result.pv, last.pv, "{case}");
            }
        }
    }
}

/// A search stopped before it began, or whose clock has run out, still finishes its
/// first iteration: its move is a searched one, with a true score (never the mate score
/// of a move that was not looked at), and it was reported.
#[test]
fn a_stopped_search_still_finishes_its_first_iteration() {
    for fen in positions::BENCH.iter().take(8) {
        let board = Board::from_fen(fen).unwrap();
        let tt = TranspositionTable::new(16);
        let control = SearchControl::new();
        control.stop();
        let mut reported = Vec::new();
        let request = SearchRequest::new(board.clone());
        let result = search::search(&request, &tt, &control, &mut |r| reported.push(r.clone()));
        assert_eq!(result.depth, 1, "{fen}");
        assert!(
            result.score.abs() < search::MATE_BOUND,
            "{fen}: {}",
            result.score
        );
        assert_eq!(reported.len(), 1, "{fen}: {reported:?}");
        assert!(board.is_legal(result.best_move), "{fen}");
    }
}

/// A network with small weights in a fixed pattern: not a strong one, but one the search
/// can evaluate with.
fn patterned_network(hidden: usize) -> ferrimax::eval::nnue::Network {
    let weight = |i: usize, m: usize| {
        let (v, m) = (
            i16::try_from(i * 7919 % m).unwrap(),
            i16::try_from(m).unwrap(),
        );
        v - m / 2
    };
    ferrimax::eval::nnue::Network::new(
        (0..ferrimax::eval::nnue::INPUTS * hidden)
            .map(|i| weight(i, 41))
            .collect(),
        (0..hidden).map(|i| weight(i, 97) + 60).collect(),
        (0..2 * hidden).map(|i| weight(i, 53)).collect(),
        vec![0],
    )
    .unwrap()
}

/// A search evaluating with a network keeps each ply's accumulators equal to fresh ones
/// (checked at every evaluation in this build: moves of every kind, null moves,
/// quiescence) and plays a legal move; on several threads too.
#[test]
fn a_search_evaluates_with_a_network() {
    let network = std::sync::Arc::new(patterned_network(16));
    for fen in positions::BENCH.iter().take(6) {
        let board = Board::from_fen(fen).unwrap();
        for threads in [1, 2] {
            let tt = TranspositionTable::new(8);
            let request = SearchRequest::new(board.clone())
                .depth(6)
                .threads(threads)
                .network(Some(network.clone()));
            let result = search::search(&request, &tt, &SearchControl::new(), &mut |_| {});
            assert!(board.is_legal(result.best_move), "{fen}");
        }
    }
}

/// A search of `fen` to `plies` on a fresh table, evaluating with `network`, handing
/// `memory`'s tables on: its node count.
fn nodes_with_memory(
    fen: &str,
    plies: u32,
    network: Option<std::sync::Arc<ferrimax::eval::nnue::Network>>,
    memory: Option<&std::sync::Arc<SearchMemory>>,
) -> u64 {
    let board = Board::from_fen(fen).expect("a bench position is legal");
    let tt = TranspositionTable::new(16);
    let request = SearchRequest::new(board)
        .depth(plies)
        .network(network)
        .memory(memory.cloned());
    search::search(&request, &tt, &SearchControl::new(), &mut |_| {}).nodes
}

/// What one search learns reaches the next: the same search on an empty table takes
/// another path (its histories order the moves from the first node); an empty memory
/// changes nothing, nor does one cleared, nor one that learnt with another evaluation.
#[test]
fn a_memory_hands_one_search_s_lessons_to_the_next() {
    let embedded = || Some(ferrimax::eval::nnue::embedded());
    for fen in positions::BENCH.iter().take(4) {
        let fresh = nodes_with_memory(fen, 8, embedded(), None);
        let fresh_classical = nodes_with_memory(fen, 8, None, None);
        let memory = std::sync::Arc::new(SearchMemory::new());
        assert!(memory.is_empty());
        assert_eq!(
            nodes_with_memory(fen, 8, embedded(), Some(&memory)),
            fresh,
            "{fen}"
        );
        assert!(!memory.is_empty(), "{fen}: the search left its tables");
        let taught = nodes_with_memory(fen, 8, embedded(), Some(&memory));
        assert_ne!(
            taught, fresh,
            "{fen}: the second search starts from the first's"
        );
        // Another evaluation: the remembered scores would be wrong, so all is forgotten.
        let classical = nodes_with_memory(fen, 8, None, Some(&memory));
        assert_eq!(classical, fresh_classical, "{fen}");
        memory.clear();
        assert!(memory.is_empty());
        assert_eq!(
            nodes_with_memory(fen, 8, None, Some(&memory)),
            fresh_classical
        );
    }
}

/// The threads of a search each keep their own tables, and a memory made for fewer
/// threads grows to as many as the next search has.
#[test]
fn a_memory_serves_any_number_of_threads() {
    let memory = std::sync::Arc::new(SearchMemory::new());
    let board = Board::startpos();
    for threads in [1, 3, 2] {
        let tt = TranspositionTable::new(16);
        let request = SearchRequest::new(board.clone())
            .depth(7)
            .threads(threads)
            .memory(Some(std::sync::Arc::clone(&memory)));
        let result = search::search(&request, &tt, &SearchControl::new(), &mut |_| {});
        assert!(board.is_legal(result.best_move), "{threads} threads");
    }
    assert!(!memory.is_empty());
}
