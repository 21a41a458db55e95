//! What the search learns about quiet moves while it runs, so the move picker tries the
//! promising ones earlier and the reductions spare them: which moves cut off (history,
//! by side, origin and target) and which answered the moves one and two plies before
//! them well (continuation history, by the earlier move's piece and target and this
//! move's piece and target).
//!
//! Every score moves towards a bound by "gravity": a reward adds its bonus less the
//! share of it the score already has of the bound, so scores stay within
//! `±HISTORY_LIMIT` without the whole table being halved, and a move that stops working
//! loses its score as fast as it gained it.

use super::params::{HISTORY_BONUS_MAX, HISTORY_BONUS_PER_DEPTH_SQUARED, HISTORY_LIMIT};
use crate::chess::{Board, Color, Move, Piece, Square};
use crate::memory::try_filled;

/// A move as continuation history sees it: the piece that moved and where it went.
/// `NONE` (no move: the root's past, or a null move) learns and scores nothing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveContext {
    piece: Piece,
    to: Square,
}

impl MoveContext {
    pub const NONE: MoveContext = MoveContext {
        piece: Piece::EMPTY,
        to: Square::new(0, 0),
    };

    /// The context of `m`, not yet made on `board`.
    #[inline]
    pub fn of(board: &Board, m: Move) -> MoveContext {
        MoveContext {
            piece: board.piece_at(m.from()),
            to: m.to(),
        }
    }

    fn is_none(self) -> bool {
        self.piece.is_empty()
    }

    /// 0..PIECE_SQUARES: one row (or column) of the continuation table per piece and
    /// target square.
    #[inline]
    fn index(self) -> usize {
        self.piece.index() * 64 + self.to.index64()
    }
}

/// The contexts one node's quiet moves are judged in: the side to move and the moves
/// one and two plies before it.
#[derive(Copy, Clone, Debug)]
pub struct QuietContext {
    pub side: Color,
    /// The opponent's last move, and the side to move's own move before it.
    pub previous: [MoveContext; 2],
}

impl QuietContext {
    /// A node with no moves before it that count (the root).
    pub fn root(side: Color) -> QuietContext {
        QuietContext {
            side,
            previous: [MoveContext::NONE; 2],
        }
    }
}

/// `Piece::index` values (16: colour bit and three type bits) times target squares.
const PIECE_SQUARES: usize = 16 * 64;
/// One score per side, origin square and target square.
const BUTTERFLY_ENTRIES: usize = 2 * 64 * 64;
/// One score per earlier move (piece, target) and this move (piece, target): 2 MB.
const CONTINUATION_ENTRIES: usize = PIECE_SQUARES * PIECE_SQUARES;

/// The quiet-move tables of one search thread.
pub struct History {
    /// Empty when the memory was refused: every move then scores 0 and nothing is
    /// learned (both tables, independently).
    butterfly: Box<[i16]>,
    continuation: Box<[i16]>,
}

impl History {
    /// Tables with no lessons yet: every quiet move scores 0.
    pub fn new() -> History {
        History {
            butterfly: try_filled(BUTTERFLY_ENTRIES, 0).unwrap_or_default(),
            continuation: try_filled(CONTINUATION_ENTRIES, 0).unwrap_or_default(),
        }
    }

    #[inline]
    fn butterfly_index(side: Color, m: Move) -> usize {
        (side.index() * 64 + m.from().index64()) * 64 + m.to().index64()
    }

    #[inline]
    fn continuation_index(earlier: MoveContext, now: MoveContext) -> usize {
        earlier.index() * PIECE_SQUARES + now.index()
    }

    /// The score of quiet move `m` (on `board`, not yet made) in `context`: the sum of
    /// its history and both continuation histories, higher when it worked more often.
    #[inline]
    pub fn score(&self, board: &Board, context: &QuietContext, m: Move) -> i32 {
        self.score_of(context, MoveContext::of(board, m), m)
    }

    /// [`History::score`] of move `m`, whose context `now` is already known (the move
    /// has been made).
    #[inline]
    pub fn score_of(&self, context: &QuietContext, now: MoveContext, m: Move) -> i32 {
        let mut total = read(&self.butterfly, History::butterfly_index(context.side, m));
        for earlier in context.previous {
            if !earlier.is_none() {
                total += read(
                    &self.continuation,
                    History::continuation_index(earlier, now),
                );
            }
        }
        total
    }

    /// A quiet move `m` cut at `depth`: its scores rise.
    pub fn reward(&mut self, board: &Board, context: &QuietContext, m: Move, depth: i32) {
        self.update(board, context, m, bonus(depth));
    }

    /// Quiet move `m` was tried at `depth` before another one cut: its scores fall.
    pub fn penalize(&mut self, board: &Board, context: &QuietContext, m: Move, depth: i32) {
        self.update(board, context, m, -bonus(depth));
    }

    fn update(&mut self, board: &Board, context: &QuietContext, m: Move, change: i32) {
        let now = MoveContext::of(board, m);
        let index = History::butterfly_index(context.side, m);
        pull(&mut self.butterfly, index, change);
        for earlier in context.previous {
            if !earlier.is_none() {
                let index = History::continuation_index(earlier, now);
                pull(&mut self.continuation, index, change);
            }
        }
    }
}

impl Default for History {
    fn default() -> Self {
        Self::new()
    }
}

/// The change a cut (or a failure) at `depth` makes: growing with the square of the
/// depth, as deeper cuts save more work, up to `HISTORY_BONUS_MAX`.
fn bonus(depth: i32) -> i32 {
    HISTORY_BONUS_PER_DEPTH_SQUARED
        .saturating_mul(depth.saturating_mul(depth))
        .min(HISTORY_BONUS_MAX)
}

/// Entry `index` of `table`, 0 when the table has no memory.
#[inline]
fn read(table: &[i16], index: usize) -> i32 {
    table.get(index).copied().map_or(0, i32::from)
}

/// Moves entry `index` by `change` under gravity: the closer it already is to the bound
/// in the direction of the change, the less it moves, so it never passes `HISTORY_LIMIT`.
fn pull(table: &mut [i16], index: usize, change: i32) {
    let Some(entry) = table.get_mut(index) else {
        return;
    };
    let old = i32::from(*entry);
    let new = old + change - old * change.abs() / HISTORY_LIMIT;
    #[allow(clippy::cast_possible_truncation, reason = "clamped into i16")]
    let stored = new.clamp(-HISTORY_LIMIT, HISTORY_LIMIT) as i16;
    *entry = stored;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_scores_within_the_limit() {
        let mut table = [0i16; 1];
        for _ in 0..10_000 {
            pull(&mut table, 0, HISTORY_BONUS_MAX);
        }
        assert!(i32::from(table[0]) <= HISTORY_LIMIT && table[0] > 0);
        let high = table[0];
        pull(&mut table, 0, -HISTORY_BONUS_MAX);
        assert!(table[0] < high, "a failure lowers even a saturated score");
        for _ in 0..10_000 {
            pull(&mut table, 0, -HISTORY_BONUS_MAX);
        }
        assert!(i32::from(table[0]) >= -HISTORY_LIMIT && table[0] < 0);
    }

    #[test]
    fn continuation_history_depends_on_the_move_before() {
        let board = Board::startpos();
        let m = board.parse_move("g1f3").unwrap();
        let after_e5 = QuietContext {
            side: Color::White,
            previous: [
                MoveContext {
                    piece: Piece::new(Color::Black, crate::chess::PieceType::Pawn),
                    to: Square::from_index64(36),
                },
                MoveContext::NONE,
            ],
        };
        let root = QuietContext::root(Color::White);
        let mut history = History::new();
        history.reward(&board, &after_e5, m, 8);
        let with = history.score(&board, &after_e5, m);
        let without = history.score(&board, &root, m);
        assert!(with > without && without > 0, "{with} {without}");
    }
}
