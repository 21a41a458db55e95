//! Several threads on one transposition table, and searches with several threads.

mod common;

use ferrimax::chess::{Board, Move};
use ferrimax::search::tt::{Bound, Probe};
use ferrimax::search::{self, SearchControl, SearchRequest, TranspositionTable};
use rand::{RngExt, SeedableRng, rngs::StdRng};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Buckets of a 1 MB table: 64-byte buckets.
const BUCKETS_OF_ONE_MB: u128 = (1 << 20) / 64;

/// The bucket a key falls into in a 1 MB table (the table maps keys onto buckets by
/// multiplying the key by the bucket count and keeping the high half).
fn bucket_of(key: u64) -> u64 {
    ((u128::from(key) * BUCKETS_OF_ONE_MB) >> 64) as u64
}

/// Positions (with their legal moves) crowded into a few buckets, and which of them are
/// game positions.
fn crowded_positions() -> (Vec<(Board, Vec<Move>)>, Vec<u64>) {
    const HOT_BUCKETS: usize = 8;
    const GAME_POSITIONS_PER_BUCKET: usize = 2;
    let mut by_bucket: HashMap<u64, Vec<Board>> = HashMap::new();
    common::random_games(7, 3_000, 80, |board| {
        let list = by_bucket.entry(bucket_of(board.key())).or_default();
        if !list.iter().any(|b| b.key() == board.key()) {
            list.push(board.clone());
        }
    });
    let mut buckets: Vec<Vec<Board>> = by_bucket.into_values().collect();
    buckets.sort_by_key(|list| std::cmp::Reverse(list.len()));
    let mut positions = Vec::new();
    let mut game = Vec::new();
    for list in buckets.into_iter().take(HOT_BUCKETS) {
        assert!(list.len() > 6, "a crowded bucket: {}", list.len());
        for (i, board) in list.into_iter().enumerate() {
            if i < GAME_POSITIONS_PER_BUCKET {
                game.push(board.key());
            }
            let moves = board.legal_moves().iter().copied().collect();
            positions.push((board, moves));
        }
    }
    (positions, game)
}

/// Threads storing and probing positions that share a few buckets with game positions:
/// no probe returns a move that is not legal in its own position (a torn entry reads as
/// a miss), and no store ever overwrites or hides a game position.
#[test]
fn threads_hammering_the_same_buckets_lose_nothing_and_mix_nothing() {
    const THREADS: u64 = 4;
    const OPERATIONS: usize = 200_000;
    let (positions, game) = crowded_positions();
    let tt = TranspositionTable::new(1);
    for &key in &game {
        tt.insert_game_position(key);
    }
    let failure = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for seed in 0..THREADS {
            let (positions, game, tt, failure) = (&positions, &game, &tt, &failure);
            scope.spawn(move || {
                let mut rng = StdRng::seed_from_u64(seed);
                for _ in 0..OPERATIONS {
                    let (board, moves) = &positions[rng.random_range(0..positions.len())];
                    let key = board.key();
                    let is_game = game.contains(&key);
                    if rng.random_bool(0.5) && !moves.is_empty() {
                        let m = moves[rng.random_range(0..moves.len())];
                        let bound =
                            [Bound::Lower, Bound::Upper, Bound::Exact][rng.random_range(0..3)];
                        tt.store(
                            key,
                            m,
                            rng.random_range(-500..500),
                            rng.random_range(0..30),
                            bound,
                        );
                        continue;
                    }
                    let ok = match tt.probe(key) {
                        Probe::GamePosition => is_game,
                        Probe::Miss => !is_game,
                        Probe::Hit(entry) => {
                            !is_game
                                && (entry.best_move.is_none()
                                    || entry.best_move.unpack(board).is_some())
                        }
                    };
                    if !ok {
                        failure.store(true, Relaxed);
                    }
                }
            });
        }
    });
    assert!(!failure.load(Relaxed), "a probe saw a wrong entry");
    for &key in &game {
        assert_eq!(tt.probe(key), Probe::GamePosition);
    }
    let mut held = tt.game_positions();
    held.sort_unstable();
    let mut expected = game.clone();
    expected.sort_unstable();
    assert_eq!(held, expected);
}

/// Two threads: a legal best move, its line from the root, the mate found, all threads'
/// nodes counted, and the game positions (a repetition draw) respected.
#[test]
fn a_two_thread_search_plays_legally_and_counts_every_thread() {
    ferrimax::eval::init();
    let cases = [
        (
            "a middlegame",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            None,
        ),
        (
            "mate in two",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
            Some("a1a8"),
        ),
    ];
    for (name, fen, expected) in cases {
        let board = Board::from_fen(fen).unwrap();
        let single = search::search(
            &SearchRequest::new(board.clone()).depth(8),
            &TranspositionTable::new(16),
            &SearchControl::new(),
            &mut |_| {},
        );
        let tt = TranspositionTable::new(16);
        let mut reported = Vec::new();
        let request = SearchRequest::new(board.clone()).depth(8).threads(2);
        let result = search::search(&request, &tt, &SearchControl::new(), &mut |r| {
            let info = r.info();
            reported.push(info.nodes);
        });
        assert!(board.is_legal(result.best_move), "{name}");
        assert_eq!(result.pv.first(), Some(&result.best_move), "{name}");
        if let Some(m) = expected {
            assert_eq!(result.best_move.to_string(), m, "{name}");
        }
        assert!(
            reported.windows(2).all(|w| w[0] <= w[1]),
            "{name}: node counts only grow: {reported:?}"
        );
        assert!(
            result.nodes >= *reported.last().unwrap() && result.nodes > single.nodes / 2,
            "{name}: {} nodes of two threads, {} of one",
            result.nodes,
            single.nodes
        );
    }
}

/// A stop reaches every thread at once: a search of 4 threads with no limit ends as
/// soon as it is stopped, and all its threads with it.
#[test]
fn stopping_ends_every_thread_at_once() {
    let board = Board::startpos();
    let tt = TranspositionTable::new(16);
    let control = SearchControl::new();
    let request = SearchRequest::new(board.clone()).threads(4);
    let (result, stopped_after) = std::thread::scope(|scope| {
        let searching = scope.spawn(|| search::search(&request, &tt, &control, &mut |_| {}));
        std::thread::sleep(std::time::Duration::from_millis(200));
        let stop = std::time::Instant::now();
        control.stop();
        let result = searching.join().unwrap();
        (result, stop.elapsed())
    });
    assert!(board.is_legal(result.best_move));
    assert!(
        stopped_after < std::time::Duration::from_millis(100),
        "{stopped_after:?}"
    );
}
