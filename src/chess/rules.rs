//! Game-end rules: mate, stalemate, dead positions, the 50-move rule, repetition.
//!
//! These decide the results the engine claims, so each answers only what the board
//! proves: no heuristics.

use super::board::Board;
use super::types::{Color, PieceType, Square};

/// Half-moves without capture or pawn move after which a draw may be claimed.
pub const FIFTY_MOVE_PLIES: u16 = 100;

/// Why a game is over.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move is mated.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check: a draw.
    Stalemate,
    /// Neither side can mate (see `Board::is_insufficient_material`): a draw.
    InsufficientMaterial,
    /// A hundred half-moves without capture or pawn move: a draw that may be claimed.
    FiftyMoves,
    /// The position occurred for the third time: a draw that may be claimed.
    Repetition,
}

impl Board {
    /// The side to move is in check and has no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// The side to move is not in check but has no legal move.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_move()
    }

    /// Neither side can ever mate: KK, KNK, KBK, and KBKB with bishops on same-coloured
    /// squares. (Other dead positions exist but are not claimed.)
    pub fn is_insufficient_material(&self) -> bool {
        let minors = |c: Color| self.count(c, PieceType::Knight) + self.count(c, PieceType::Bishop);
        let others = |c: Color| {
            self.count(c, PieceType::Pawn)
                + self.count(c, PieceType::Rook)
                + self.count(c, PieceType::Queen)
        };
        if others(Color::White) + others(Color::Black) > 0 {
            return false;
        }
        match (minors(Color::White), minors(Color::Black)) {
            (0, 0) | (1, 0) | (0, 1) => true,
            (1, 1) => {
                let bishop_color = |c: Color| {
                    self.pieces_of(c, PieceType::Bishop)
                        .first()
                        .map(|sq: &Square| sq.is_dark())
                };
                match (bishop_color(Color::White), bishop_color(Color::Black)) {
                    (Some(a), Some(b)) => a == b,
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// The 50-move rule can be claimed (100 half-moves without capture or pawn move).
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove_clock() >= FIFTY_MOVE_PLIES
    }

    /// How the game stands by the rules, given the keys of the positions before this one
    /// (oldest first, since the last `new`/`setboard`). Mate outranks the 50-move rule.
    pub fn ending(&self, earlier_keys: &[u64]) -> Option<Ending> {
        if !self.has_legal_move() {
            return Some(if self.in_check() {
                Ending::Checkmate {
                    winner: self.side_to_move().flip(),
                }
            } else {
                Ending::Stalemate
            });
        }
        if self.is_insufficient_material() {
            return Some(Ending::InsufficientMaterial);
        }
        if self.is_fifty_move_draw() {
            return Some(Ending::FiftyMoves);
        }
        if repetition_count(earlier_keys, self.key(), self.halfmove_clock()) >= 3 {
            return Some(Ending::Repetition);
        }
        None
    }
}

/// How often the position with key `current` has occurred, counting itself, given the
/// keys of the earlier positions of the game (oldest first). Only the last `halfmove`
/// positions can repeat it: a capture or pawn move makes earlier ones unreachable.
pub fn repetition_count(earlier_keys: &[u64], current: u64, halfmove: u16) -> usize {
    let reachable = earlier_keys.len().min(halfmove as usize);
    let recent = &earlier_keys[earlier_keys.len() - reachable..];
    1 + recent
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .filter(|&&k| k == current)
        .count()
}
