//! Helpers shared by the integration tests.
#![allow(dead_code)]

use ferrimax::chess::Board;
use rand::{Rng, SeedableRng, rngs::StdRng};

/// Plays `games` random legal games of at most `max_plies` from the start position and
/// calls `visit` on every position reached (before each move, and the final one).
/// Seeded, so every run sees the same games.
pub fn random_games(seed: u64, games: usize, max_plies: usize, mut visit: impl FnMut(&Board)) {
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..games {
        let mut board = Board::startpos();
        for _ in 0..max_plies {
            visit(&board);
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[rng.next_u32() as usize % moves.len()];
            board.make_move(m);
        }
        visit(&board);
    }
}

/// The start position after `moves` (coordinate notation), for checking the engine's reply.
pub fn board_after(moves: &[&str]) -> Board {
    let mut board = Board::startpos();
    for text in moves {
        let m = board
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e:?}"));
        board.make_move(m);
    }
    board
}

pub mod engine;
pub mod game;

/// Writes a Polyglot book of `(position, move, weight)` entries to a temporary file.
pub fn write_book(
    name: &str,
    entries: &[(&ferrimax::chess::Board, &str, u16)],
) -> std::path::PathBuf {
    use ferrimax::book::{encode, polyglot_key};
    let raw: Vec<(u64, u16, u16)> = entries
        .iter()
        .map(|(board, text, weight)| {
            let m = board.parse_move(text).expect("a legal book move");
            (polyglot_key(board), encode(m), *weight)
        })
        .collect();
    write_raw_book(name, raw)
}

/// Writes Polyglot entries `(key, move field, weight)`, sorted, to a temporary file.
pub fn write_raw_book(name: &str, mut raw: Vec<(u64, u16, u16)>) -> std::path::PathBuf {
    raw.sort_unstable();
    let mut bytes = Vec::new();
    for (key, mv, weight) in raw {
        bytes.extend_from_slice(&key.to_be_bytes());
        bytes.extend_from_slice(&mv.to_be_bytes());
        bytes.extend_from_slice(&weight.to_be_bytes());
        bytes.extend_from_slice(&0u32.to_be_bytes());
    }
    let path = std::env::temp_dir().join(format!("ferrimax-{name}-{}.bin", std::process::id()));
    std::fs::write(&path, bytes).expect("write the book");
    path
}
