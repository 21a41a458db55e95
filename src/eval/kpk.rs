//! KPK bitbase: is King + Pawn against King a win for the pawn's side, with best play?
//!
//! Exact knowledge of this ending is cheap (24 KB, built at start-up in a few dozen
//! milliseconds) and worth having: whether a single pawn wins decides many pawn endings that
//! the search reaches after trades, and heuristics for it (key squares, opposition, the rook-pawn
//! exceptions) are notoriously leaky.
//!
//! # Rules
//!
//! The attacker is White and its pawn moves towards rank 8 (for a Black pawn, mirror the squares
//! with [`super::pawnrace::mirror_rank`] and pass "Black to move" as `white_to_move`).  The
//! position is a **win** when White can force a promotion after which the new piece survives and
//! Black is not stalemated; K+Q vs K and K+R vs K are won from every such position.  Concretely a
//! promotion wins when Black cannot capture the new piece at once and, for a queen or for a rook
//! (under-promotion matters when the queen would stalemate), Black then has a legal move or is
//! checkmated.  Everything else is a **draw**: Black captures the pawn, stalemate, or White can
//! make no progress.  There is no fifty-move rule; it never matters in this ending.
//!
//! # Illegal positions
//!
//! The same placements that [`super::pawnrace`] rejects (pieces sharing a square, touching kings,
//! White to move with Black in check by the pawn, a pawn on rank 1 or 8) are reported as not won.
//!
//! # How the bitbase is built
//!
//! Retrograde analysis by repeated sweeps.  Every position starts *unknown*, except illegal
//! ones.  Each sweep revisits the unknown positions: with White to move a position is won if some
//! move reaches a won position and drawn if every move reaches a drawn one; with Black to move
//! it is drawn if some move reaches a drawn position (or captures the pawn) and won if every move
//! reaches a won one.  Terminal cases (promotion, capture, stalemate) are decided directly.
//! When a sweep changes nothing, the positions still unknown are those where White cannot force
//! anything: they are draws.  The sweeps update in place, so results found early in a sweep help
//! later in the same sweep.

use super::pawnrace::{
    BitTable, KING_STEPS, PROMOTION_RANK, TABLE_ENTRIES, is_legal, king_distance,
    new_queen_survives, pawn_attacks, pawn_pushes, position_at, rank_of, step_from, table_index,
};

/// Rook directions in 0x88 numbering.
const ROOK_DIRECTIONS: [i8; 4] = [-16, -1, 1, 16];

/// Queen directions in 0x88 numbering (the king steps, followed as rays).
const QUEEN_DIRECTIONS: [i8; 8] = KING_STEPS;

/// Pieces worth promoting to: a queen wins unless it stalemates, and then a rook may win.
/// (Bishops and knights cannot win alone.)
const WINNING_PROMOTIONS: [&[i8]; 2] = [&QUEEN_DIRECTIONS, &ROOK_DIRECTIONS];

/// What is known about one position while the bitbase is being built.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    /// Not decided yet.
    Unknown,
    /// White wins.
    Win,
    /// White cannot win.
    Draw,
    /// The position cannot occur; never reached by a legal move.
    Illegal,
}

/// For every K+P vs K placement and side to move: does the pawn's side win?
///
/// Build it once at start-up with [`KpkBitbase::new`] and share it.
#[derive(Clone)]
pub struct KpkBitbase {
    wins: BitTable,
}

impl Default for KpkBitbase {
    fn default() -> Self {
        Self::new()
    }
}

impl KpkBitbase {
    /// Computes the bitbase by retrograde analysis (see the module documentation).
    pub fn new() -> Self {
        let outcomes = Builder::new().solve();
        let mut wins = BitTable::new();
        for (index, outcome) in outcomes.iter().enumerate() {
            if *outcome == Outcome::Win {
                wins.set(index);
            }
        }
        KpkBitbase { wins }
    }

    /// Whether White (king on `white_king`, pawn on `pawn`) beats the lone Black king on
    /// `black_king` with best play, given the side to move.  Squares are 0x88 indices.
    /// Illegal positions give `false`.
    pub fn is_win(&self, pawn: u8, white_king: u8, black_king: u8, white_to_move: bool) -> bool {
        is_legal(pawn, white_king, black_king, white_to_move)
            && self
                .wins
                .get(table_index(pawn, white_king, black_king, white_to_move))
    }

    /// Memory used by the bitbase, in bytes.
    pub fn size_bytes(&self) -> usize {
        self.wins.size_bytes()
    }
}

/// Working state of the retrograde analysis: one [`Outcome`] per table position.
struct Builder {
    outcomes: Vec<Outcome>,
}

impl Builder {
    /// All legal positions unknown, illegal ones marked as such.
    fn new() -> Self {
        let outcomes = (0..TABLE_ENTRIES)
            .map(|index| {
                let (pawn, white_king, black_king, white_to_move) = position_at(index);
                if is_legal(pawn, white_king, black_king, white_to_move) {
                    Outcome::Unknown
                } else {
                    Outcome::Illegal
                }
            })
            .collect();
        Builder { outcomes }
    }

    /// Sweeps until nothing changes, then declares the undecided positions drawn.
    fn solve(mut self) -> Vec<Outcome> {
        while self.sweep() {}
        for outcome in &mut self.outcomes {
            if *outcome == Outcome::Unknown {
                *outcome = Outcome::Draw;
            }
        }
        self.outcomes
    }

    /// One pass over the undecided positions; returns whether any got decided.
    fn sweep(&mut self) -> bool {
        let mut changed = false;
        // The pawn's rank is the most significant part of the index, so walking the indices
        // downwards visits advanced pawns first; their results then flow down the board within
        // a single sweep.
        for index in (0..TABLE_ENTRIES).rev() {
            if self.outcomes[index] != Outcome::Unknown {
                continue;
            }
            let (pawn, white_king, black_king, white_to_move) = position_at(index);
            let outcome = if white_to_move {
                self.white_to_move(pawn, white_king, black_king)
            } else {
                self.black_to_move(pawn, white_king, black_king)
            };
            if outcome != Outcome::Unknown {
                self.outcomes[index] = outcome;
                changed = true;
            }
        }
        changed
    }

    /// Known outcome of a position reached by a legal move.
    fn lookup(&self, pawn: u8, white_king: u8, black_king: u8, white_to_move: bool) -> Outcome {
        let outcome = self.outcomes[table_index(pawn, white_king, black_king, white_to_move)];
        debug_assert_ne!(
            outcome,
            Outcome::Illegal,
            "a legal move led to an illegal position"
        );
        outcome
    }

    /// White to move: won if any move wins, drawn if all moves draw (or there are none).
    fn white_to_move(&self, pawn: u8, white_king: u8, black_king: u8) -> Outcome {
        let pushes = pawn_pushes(pawn, white_king, black_king).map(|target| {
            if rank_of(target) == PROMOTION_RANK {
                promotion_outcome(target, white_king, black_king)
            } else {
                self.lookup(target, white_king, black_king, false)
            }
        });
        let king_moves = KING_STEPS
            .iter()
            .filter_map(|&step| step_from(white_king, step))
            .filter(|&target| target != pawn && king_distance(target, black_king) > 1)
            .map(|target| self.lookup(pawn, target, black_king, false));

        let mut all_drawn = true;
        for outcome in pushes.chain(king_moves) {
            match outcome {
                Outcome::Win => return Outcome::Win,
                Outcome::Draw => {}
                _ => all_drawn = false,
            }
        }
        if all_drawn {
            Outcome::Draw // Includes White being stalemated.
        } else {
            Outcome::Unknown
        }
    }

    /// Black to move: drawn if any move draws (capturing the pawn does), won if all moves win.
    fn black_to_move(&self, pawn: u8, white_king: u8, black_king: u8) -> Outcome {
        let mut legal_moves = 0;
        let mut all_won = true;
        let targets = KING_STEPS
            .iter()
            .filter_map(|&step| step_from(black_king, step));
        for target in targets {
            if king_distance(target, white_king) <= 1 || pawn_attacks(pawn, target) {
                continue; // Illegal; this also forbids taking a protected pawn.
            }
            legal_moves += 1;
            if target == pawn {
                return Outcome::Draw; // A lone king cannot win.
            }
            match self.lookup(pawn, white_king, target, true) {
                Outcome::Draw => return Outcome::Draw,
                Outcome::Win => {}
                _ => all_won = false,
            }
        }
        if legal_moves == 0 {
            // A pawn and king cannot mate a king on their own, but if they could it would win.
            return if pawn_attacks(pawn, black_king) {
                Outcome::Win
            } else {
                Outcome::Draw // Stalemate.
            };
        }
        if all_won {
            Outcome::Win
        } else {
            Outcome::Unknown
        }
    }
}

/// Outcome of pushing the pawn onto `square` on rank 8, Black to move next.
fn promotion_outcome(square: u8, white_king: u8, black_king: u8) -> Outcome {
    if !new_queen_survives(square, white_king, black_king) {
        return Outcome::Draw;
    }
    let some_piece_wins = WINNING_PROMOTIONS
        .iter()
        .any(|directions| !is_stalemate(square, directions, white_king, black_king));
    if some_piece_wins {
        Outcome::Win
    } else {
        Outcome::Draw
    }
}

/// Whether the Black king, to move, is stalemated by a White slider (moving along
/// `directions` from `piece`) and the White king.  The piece is known to be safe from capture.
fn is_stalemate(piece: u8, directions: &[i8], white_king: u8, black_king: u8) -> bool {
    let attacked = |target: u8| slider_attacks(piece, directions, target, white_king);
    if attacked(black_king) {
        return false; // In check: mate or not, it is no stalemate.
    }
    KING_STEPS
        .iter()
        .filter_map(|&step| step_from(black_king, step))
        .all(|target| target == piece || king_distance(target, white_king) <= 1 || attacked(target))
}

/// Whether a slider on `from` moving along `directions` attacks `target`, with the White king
/// on `blocker` in the way.  The Black king does not block: a square behind it along a ray is
/// attacked too, so it cannot step back along the line of a check.
fn slider_attacks(from: u8, directions: &[i8], target: u8, blocker: u8) -> bool {
    directions.iter().any(|&direction| {
        let mut square = from;
        while let Some(next) = step_from(square, direction) {
            if next == target {
                return true;
            }
            if next == blocker {
                break;
            }
            square = next;
        }
        false
    })
}

#[cfg(test)]
mod tests;
