//! Move ordering: alpha-beta cuts best when the best move comes first. The order is the
//! hash move, then captures that do not lose material (most valuable victim first, least
//! valuable attacker among equals), queen promotions, the killer moves of this ply, quiet
//! moves by their history score, and last the captures that lose material.

use super::eval::piece_value;
use super::see::see;
use super::tt::PackedMove;
use crate::chess::{Board, Color, MAX_MOVES, Move, MoveList, PieceType};

const HASH_MOVE_SCORE: i32 = 4_000_000;
const GOOD_CAPTURE_SCORE: i32 = 3_000_000;
const KILLER_SCORE: i32 = 2_000_000;
/// History scores are kept below this so quiet moves stay under killers.
pub const HISTORY_MAX: i32 = 1_000_000;
const LOSING_CAPTURE_SCORE: i32 = -2_000_000;
const UNDER_PROMOTION_SCORE: i32 = -3_000_000;

/// Quiet moves that caused cutoffs, by side, origin and target square.
pub struct History {
    table: Box<[[[i32; 64]; 64]; 2]>,
}

impl History {
    pub fn new() -> History {
        History {
            table: Box::new([[[0; 64]; 64]; 2]),
        }
    }

    #[inline]
    pub fn get(&self, side: Color, m: Move) -> i32 {
        self.table[side.index()][m.from().index64()][m.to().index64()]
    }

    /// Rewards a quiet move that caused a cutoff at `depth`; the whole table is halved
    /// when a score grows too large, so old lessons fade.
    pub fn reward(&mut self, side: Color, m: Move, depth: i32) {
        let entry = &mut self.table[side.index()][m.from().index64()][m.to().index64()];
        *entry += depth * depth;
        if *entry >= HISTORY_MAX {
            self.age();
        }
    }

    /// Lowers a quiet move that was tried before another one cut.
    pub fn penalize(&mut self, side: Color, m: Move, depth: i32) {
        let entry = &mut self.table[side.index()][m.from().index64()][m.to().index64()];
        *entry = (*entry - depth * depth).max(-HISTORY_MAX);
    }

    /// Halves every score (also done between searches).
    pub fn age(&mut self) {
        for side in self.table.iter_mut() {
            for row in side.iter_mut() {
                for v in row.iter_mut() {
                    *v /= 2;
                }
            }
        }
    }
}

impl Default for History {
    fn default() -> Self {
        Self::new()
    }
}

/// MVV/LVA key of a capture: victim value dominates, attacker value breaks ties.
#[inline]
pub fn mvv_lva(board: &Board, m: Move) -> i32 {
    let victim = board.captured_kind(m).map_or(0, piece_value);
    let attacker = board.piece_at(m.from()).kind().map_or(0, piece_value);
    let promotion = m
        .promoted()
        .map_or(0, |p| piece_value(p) - piece_value(PieceType::Pawn));
    (victim + promotion) * 16 - attacker / 8
}

/// A move list with an ordering score per move, handed out best first (selection sort:
/// after a cutoff the rest never needs sorting).
pub struct OrderedMoves {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

impl OrderedMoves {
    /// Orders the moves of a full-width node.
    pub fn new(
        board: &Board,
        moves: MoveList,
        hash_move: PackedMove,
        killers: &[Move; 2],
        history: &History,
    ) -> OrderedMoves {
        let mut scores = [0; MAX_MOVES];
        let side = board.side_to_move();
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = if hash_move.matches(m) {
                HASH_MOVE_SCORE
            } else if m.promoted().is_some_and(|p| p != PieceType::Queen) {
                UNDER_PROMOTION_SCORE + mvv_lva(board, m)
            } else if board.is_capture(m) || m.promoted().is_some() {
                if capture_may_lose(board, m) && see(board, m) < 0 {
                    LOSING_CAPTURE_SCORE + mvv_lva(board, m)
                } else {
                    GOOD_CAPTURE_SCORE + mvv_lva(board, m)
                }
            } else if m == killers[0] {
                KILLER_SCORE + 1
            } else if m == killers[1] {
                KILLER_SCORE
            } else {
                history.get(side, m)
            };
        }
        OrderedMoves {
            moves,
            scores,
            next: 0,
        }
    }

    /// Orders captures for quiescence by MVV/LVA alone.
    pub fn captures(board: &Board, moves: MoveList) -> OrderedMoves {
        let mut scores = [0; MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            scores[i] = mvv_lva(board, m);
        }
        OrderedMoves {
            moves,
            scores,
            next: 0,
        }
    }

    /// The best remaining move.
    #[inline]
    pub fn next_move(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        let moves = self.moves.as_mut_slice();
        moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(moves[self.next - 1])
    }
}

/// Only a capture by a piece worth more than its victim can lose material; the others
/// need no exchange evaluation.
#[inline]
pub fn capture_may_lose(board: &Board, m: Move) -> bool {
    let victim = board.captured_kind(m).map_or(0, piece_value);
    let attacker = board.piece_at(m.from()).kind().map_or(0, piece_value);
    attacker > victim
}
