//! What the search learns about quiet moves while it runs: which ones caused cutoffs
//! (history), so the move picker tries them earlier.

use super::params::HISTORY_MAX;
use crate::chess::{Color, Move};
use crate::memory::try_filled;

/// Quiet moves that caused cutoffs, by side, origin and target square.
pub struct History {
    /// `HISTORY_ENTRIES` scores, indexed by [`History::index`]; empty when the memory was
    /// refused, and then every move scores 0 and nothing is learned.
    table: Box<[i32]>,
}

/// One score per side, origin square and target square.
const HISTORY_ENTRIES: usize = 2 * 64 * 64;

impl History {
    /// A table with no lessons yet: every quiet move scores 0.
    pub fn new() -> History {
        History {
            table: try_filled(HISTORY_ENTRIES, 0).unwrap_or_default(),
        }
    }

    #[inline]
    fn index(side: Color, m: Move) -> usize {
        (side.index() * 64 + m.from().index64()) * 64 + m.to().index64()
    }

    /// The score of quiet move `m` for `side`: higher means it cut off more often.
    #[inline]
    pub fn get(&self, side: Color, m: Move) -> i32 {
        self.table
            .get(History::index(side, m))
            .copied()
            .unwrap_or(0)
    }

    /// Rewards a quiet move that caused a cutoff at `depth`; the whole table is halved
    /// when a score grows too large, so old lessons fade.
    pub fn reward(&mut self, side: Color, m: Move, depth: i32) {
        let Some(entry) = self.table.get_mut(History::index(side, m)) else {
            return;
        };
        *entry += depth * depth;
        if *entry >= HISTORY_MAX {
            self.age();
        }
    }

    /// Lowers a quiet move that was tried before another one cut.
    pub fn penalize(&mut self, side: Color, m: Move, depth: i32) {
        if let Some(entry) = self.table.get_mut(History::index(side, m)) {
            *entry = (*entry - depth * depth).max(-HISTORY_MAX);
        }
    }

    /// Halves every score, so old lessons weigh less than new ones (each search starts
    /// with a fresh table; within one, this runs when a score reaches `HISTORY_MAX`).
    pub fn age(&mut self) {
        for v in self.table.iter_mut() {
            *v /= 2;
        }
    }
}

impl Default for History {
    fn default() -> Self {
        Self::new()
    }
}
