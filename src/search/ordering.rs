//! Move ordering: alpha-beta cuts best when the best move comes first. The order is the
//! hash move, then captures that do not lose material (most valuable victim first, least
//! valuable attacker among equals), queen promotions, the killer moves of this ply, quiet
//! moves by their history score, and last the captures that lose material.

use super::see::see;
use super::tt::PackedMove;
use crate::chess::{Board, Color, MAX_MOVES, Move, MoveList, PieceType};
use crate::eval::piece_value;
use std::mem::MaybeUninit;

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
///
/// Moves are generated straight into it and the score array is left uninitialised until
/// scored: at every node, copying a 1 KB list and clearing a 1 KB array cost about 5% of
/// the search.
pub struct OrderedMoves {
    moves: MoveList,
    scores: [MaybeUninit<i32>; MAX_MOVES],
    next: usize,
}

impl OrderedMoves {
    /// An empty list, to be filled through `list_mut` and then scored.
    #[inline]
    pub fn new() -> OrderedMoves {
        OrderedMoves {
            moves: MoveList::new(),
            scores: [const { MaybeUninit::uninit() }; MAX_MOVES],
            next: 0,
        }
    }

    /// The moves, for the generator to fill (before scoring).
    #[inline]
    pub fn list_mut(&mut self) -> &mut MoveList {
        &mut self.moves
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Scores the moves of a full-width node.
    pub fn score_all(
        &mut self,
        board: &Board,
        hash_move: PackedMove,
        killers: &[Move; 2],
        history: &History,
    ) {
        let side = board.side_to_move();
        for (i, &m) in self.moves.iter().enumerate() {
            let score = if hash_move.matches(m) {
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
            self.scores[i] = MaybeUninit::new(score);
        }
    }

    /// Scores captures for quiescence by MVV/LVA, under-promotions last.
    pub fn score_captures(&mut self, board: &Board) {
        for (i, &m) in self.moves.iter().enumerate() {
            let under = m.promoted().is_some_and(|p| p != PieceType::Queen);
            let score = mvv_lva(board, m) + if under { UNDER_PROMOTION_SCORE } else { 0 };
            self.scores[i] = MaybeUninit::new(score);
        }
    }

    /// The score of entry `i`, which must have been scored.
    #[inline]
    fn score(&self, i: usize) -> i32 {
        debug_assert!(i < self.moves.len());
        // SAFETY: every caller scores all `len` entries (`score_all`/`score_captures`)
        // before asking for moves, and `i < len` here.
        unsafe { self.scores[i].assume_init() }
    }

    /// The best remaining move. The moves must have been scored.
    #[inline]
    pub fn next_move(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        let mut best_score = self.score(best);
        for i in self.next + 1..n {
            let score = self.score(i);
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        let moves = self.moves.as_mut_slice();
        moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(moves[self.next - 1])
    }
}

impl Default for OrderedMoves {
    fn default() -> Self {
        Self::new()
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
