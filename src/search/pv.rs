//! The principal variation: the triangular table each thread keeps of the best line
//! below every node of the current path, the line as reported (legal, starting with the
//! best move), and the reply the search expects, which pondering and `hint` use.

use super::score::MAX_PLY;
use super::tt::TranspositionTable;
use crate::chess::{Board, Move};

/// The best line found below each ply of the current path: row `ply` holds the line from
/// that ply on, in columns `ply..len[ply]`.
pub struct PvTable {
    moves: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 1],
}

impl PvTable {
    /// An empty table.
    pub fn new() -> PvTable {
        PvTable {
            moves: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            len: [0; MAX_PLY + 1],
        }
    }

    /// A node at `ply` starts with no line of its own.
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.len[ply] = ply;
    }

    /// `m` is the best move at `ply` so far: its line is `m` and the child's line.
    pub fn update(&mut self, ply: usize, m: Move) {
        self.moves[ply][ply] = m;
        let child_len = self.len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.moves[ply][i] = self.moves[ply + 1][i];
        }
        self.len[ply] = child_len;
    }

    /// The root's line from `root`, as it may be shown: its legal prefix (a line cut by a
    /// stop may end in stale entries), and always starting with `best`.
    pub fn root_line(&self, root: &Board, best: Move) -> Vec<Move> {
        let mut line = Vec::new();
        let mut board = root.clone();
        for &m in &self.moves[0][..self.len[0]] {
            if !board.is_legal(m) {
                break;
            }
            board.make_move(m);
            line.push(m);
        }
        if line.first() != Some(&best) {
            line = vec![best];
        }
        line
    }

    /// Whether a line of its own was found at `ply`.
    #[cfg(test)]
    pub fn is_empty_at(&self, ply: usize) -> bool {
        self.len[ply] == ply
    }
}

/// A line the search reported: its answer if it ended at that moment.
#[derive(Clone, Debug)]
pub struct BestLine {
    /// Internal score of the line's first move.
    pub score: i32,
    /// Starts with the best move.
    pub pv: Vec<Move>,
}

impl BestLine {
    /// The best move (`Move::NONE` for an empty line: no legal move).
    pub fn best_move(&self) -> Move {
        self.pv.first().copied().unwrap_or(Move::NONE)
    }

    /// The reply the line expects: its second move, else what the table holds for the
    /// position after the best move.
    pub fn expected_reply(&self, root: &Board, tt: &TranspositionTable) -> Option<Move> {
        self.pv.get(1).copied().or_else(|| {
            let best = self.best_move();
            if best.is_none() {
                return None;
            }
            let mut board = root.clone();
            board.make_move(best);
            tt.best_move(&board)
        })
    }
}
