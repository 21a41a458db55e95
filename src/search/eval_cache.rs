//! A small cache of static evaluations, one per search thread.
//!
//! The search evaluates the same position many times: after transpositions, in the
//! quiescence search of sibling moves, and again at the next iteration. The evaluation
//! is a pure function of the position and its 50-move counter (the evaluation presses the
//! side ahead to make progress), so a remembered score is exactly the score that would be
//! computed: the cache changes the speed of the search and nothing else.

use crate::chess::Board;
use crate::memory::try_filled;

/// Entries in the cache (a power of two: the low bits of the key pick the entry).
const ENTRIES: usize = 1 << 16;

/// Spreads the 50-move counter over the key's bits (the fractional part of the golden
/// ratio, a common multiplicative-hash constant).
const HALFMOVE_MIX: u64 = 0x9e37_79b9_7f4a_7c15;

#[derive(Copy, Clone, Default)]
struct Entry {
    /// The position's key mixed with its 50-move counter; 0 for an empty entry.
    key: u64,
    /// The evaluation, for the side to move.
    score: i32,
}

/// Remembered evaluations of recently seen positions.
pub struct EvalCache {
    /// `ENTRIES` entries, or none when the memory was refused: then every evaluation is
    /// computed.
    entries: Box<[Entry]>,
}

impl EvalCache {
    /// An empty cache.
    pub fn new() -> EvalCache {
        EvalCache {
            entries: try_filled(ENTRIES, Entry::default()).unwrap_or_default(),
        }
    }

    /// The evaluation of `board`, from the cache or computed by `evaluate` and kept.
    pub fn evaluate(&mut self, board: &Board, evaluate: impl FnOnce(&Board) -> i32) -> i32 {
        let key = board.key() ^ u64::from(board.halfmove_clock()).wrapping_mul(HALFMOVE_MIX);
        // The low bits of the key choose the entry (ENTRIES is a power of two).
        #[allow(
            clippy::cast_possible_truncation,
            reason = "masked to fewer bits than usize"
        )]
        let index = (key as usize) & (ENTRIES - 1);
        let Some(entry) = self.entries.get_mut(index) else {
            return evaluate(board);
        };
        if entry.key == key {
            return entry.score;
        }
        let score = evaluate(board);
        *entry = Entry { key, score };
        score
    }
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cached score is the score computed; the 50-move counter is part of the key.
    #[test]
    fn a_remembered_score_is_the_computed_one() {
        let mut cache = EvalCache::new();
        let board = Board::from_fen("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1").expect("valid");
        let late = Board::from_fen("4k3/8/8/8/8/8/4P3/R3K3 w - - 60 80").expect("valid");
        let mut calls = 0;
        let mut eval = |b: &Board| {
            calls += 1;
            crate::eval::evaluate(b)
        };
        let first = cache.evaluate(&board, &mut eval);
        let again = cache.evaluate(&board, &mut eval);
        let other = cache.evaluate(&late, &mut eval);
        assert_eq!(first, crate::eval::evaluate(&board));
        assert_eq!(again, first);
        assert_eq!(other, crate::eval::evaluate(&late));
        assert_eq!(calls, 2, "the second look-up is answered from the cache");
    }
}
