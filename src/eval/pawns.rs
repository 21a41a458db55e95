//! What the pawns alone decide, and a cache of it.
//!
//! Pawns move rarely, so most positions a search evaluates share their pawns with one
//! evaluated a moment before: the files the pawns stand on and the pawn-only terms of
//! the structure (doubled, isolated, backward, central, advanced pawns) are kept in a
//! small table keyed by the pawns' own Zobrist key. What also depends on the other
//! pieces (a pawn blocked by its own piece, a passed pawn's bonus, which weighs the
//! kings' distances and the phase) is evaluated every time.

use super::{Weights, centrality, relative_rank};
use crate::chess::{Board, Color, PieceType, Square};
use crate::memory::try_filled;

/// Per side, per file: number of pawns, and the most advanced (from that side) rank.
#[derive(Clone)]
pub(super) struct PawnFiles {
    pub(super) count: [[u8; 8]; 2],
    /// Highest rank (absolute) of a pawn on the file, or None.
    highest: [[Option<u8>; 8]; 2],
    lowest: [[Option<u8>; 8]; 2],
}

impl PawnFiles {
    pub(super) fn of(board: &Board) -> PawnFiles {
        let mut pf = PawnFiles {
            count: [[0; 8]; 2],
            highest: [[None; 8]; 2],
            lowest: [[None; 8]; 2],
        };
        for color in [Color::White, Color::Black] {
            let c = color.index();
            for &sq in board.pieces_of(color, PieceType::Pawn) {
                let f = sq.file() as usize;
                pf.count[c][f] += 1;
                let r = sq.rank();
                pf.highest[c][f] = Some(pf.highest[c][f].map_or(r, |h| h.max(r)));
                pf.lowest[c][f] = Some(pf.lowest[c][f].map_or(r, |l| l.min(r)));
            }
        }
        pf
    }

    #[allow(
        clippy::cast_sign_loss,
        reason = "the range test before it rules out negatives"
    )]
    pub(super) fn has_pawn(&self, color: Color, file: i32) -> bool {
        (0..8).contains(&file) && self.count[color.index()][file as usize] > 0
    }

    /// Whether no enemy pawn stands ahead of `sq` on its file or a neighbouring one.
    pub(super) fn is_passed(&self, sq: Square, color: Color) -> bool {
        let enemy = color.flip().index();
        let f = i32::from(sq.file());
        (f - 1..=f + 1).filter(|x| (0..8).contains(x)).all(|x| {
            #[allow(clippy::cast_sign_loss, reason = "filtered to 0..8")]
            let x = x as usize;
            match color {
                Color::White => self.highest[enemy][x].is_none_or(|r| r <= sq.rank()),
                Color::Black => self.lowest[enemy][x].is_none_or(|r| r >= sq.rank()),
            }
        })
    }

    /// Whether a pawn of `color` on a neighbouring file stands level with or behind `sq`
    /// (so could one day defend it or the square in front).
    fn has_supporter(&self, sq: Square, color: Color) -> bool {
        let c = color.index();
        let f = i32::from(sq.file());
        [f - 1, f + 1]
            .into_iter()
            .filter(|x| (0..8).contains(x))
            .any(|x| {
                #[allow(clippy::cast_sign_loss, reason = "filtered to 0..8")]
                let x = x as usize;
                match color {
                    Color::White => self.lowest[c][x].is_some_and(|r| r <= sq.rank()),
                    Color::Black => self.highest[c][x].is_some_and(|r| r >= sq.rank()),
                }
            })
    }
}

/// The pawns' files and the score of their pawn-only terms.
#[derive(Clone)]
pub(super) struct PawnShape {
    pub(super) files: PawnFiles,
    /// Pawn-only terms per side (index `Color::index`), each from its own side's view.
    pub(super) score: [i32; 2],
}

impl PawnShape {
    /// Computes the shape of `board`'s pawns with the weights `w`.
    pub(super) fn of(board: &Board, w: &Weights) -> PawnShape {
        let files = PawnFiles::of(board);
        let score = [Color::White, Color::Black].map(|color| shape_score(board, w, &files, color));
        PawnShape { files, score }
    }
}

/// Doubled, central, advanced (gradual promotion), isolated and backward pawns of `color`.
fn shape_score(board: &Board, w: &Weights, pawns: &PawnFiles, color: Color) -> i32 {
    let c = color.index();
    let mut score = 0;
    for f in 0..8 {
        let n = i32::from(pawns.count[c][f]);
        if n > 1 {
            score -= w.doubled_pawn * (n - 1);
        }
    }
    for &sq in board.pieces_of(color, PieceType::Pawn) {
        let rank = relative_rank(sq, color);
        score += centrality(sq) * w.centre[0] / 4;
        // Gradual promotion: one step of the bonus on the 6th, two on the 7th.
        score += w.promotion_step * i32::from(rank.saturating_sub(4));
        let f = i32::from(sq.file());
        if !pawns.has_pawn(color, f - 1) && !pawns.has_pawn(color, f + 1) {
            score -= w.isolated_pawn;
        } else if !pawns.has_supporter(sq, color) {
            score -= w.backward_pawn;
        }
    }
    score
}

/// Entries in a [`PawnTable`] (a power of two: the low bits of the key pick the entry).
const PAWN_TABLE_ENTRIES: usize = 1 << 12;

/// Pawn shapes of recently evaluated positions, for the default weights only (the tuner,
/// which changes weights, computes every shape afresh). One per search thread.
pub struct PawnTable {
    /// `PAWN_TABLE_ENTRIES` entries, or a single one when the memory was refused.
    entries: Box<[Option<(u64, PawnShape)>]>,
}

impl PawnTable {
    /// An empty table.
    pub fn new() -> PawnTable {
        let entries = try_filled(PAWN_TABLE_ENTRIES, None).unwrap_or_else(|| Box::new([None]));
        PawnTable { entries }
    }

    /// The shape of `board`'s pawns with the default weights, from the table or computed
    /// and kept.
    pub(super) fn shape(&mut self, board: &Board) -> &PawnShape {
        let key = board.pawn_key();
        // The low bits of the key choose the entry (the table size is a power of two, or
        // one).
        #[allow(
            clippy::cast_possible_truncation,
            reason = "masked to fewer bits than usize"
        )]
        let index = (key as usize) & (self.entries.len() - 1);
        let entry = &mut self.entries[index];
        if entry.as_ref().is_none_or(|(k, _)| *k != key) {
            *entry = Some((key, PawnShape::of(board, &super::weights::DEFAULT)));
        }
        &entry.as_ref().expect("filled above").1
    }
}

impl Default for PawnTable {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate, evaluate_cached};

    /// Plies of the deterministic walk from each start position.
    const WALK_PLIES: usize = 80;

    #[test]
    fn shapes_from_the_table_change_no_score() {
        let mut table = PawnTable::new();
        for fen in crate::chess::positions::BENCH {
            let mut board = Board::from_fen(fen).unwrap();
            for ply in 0..WALK_PLIES {
                // Twice: the first may fill the entry, the second reads it.
                for _ in 0..2 {
                    assert_eq!(
                        evaluate_cached(&board, &mut table),
                        evaluate(&board),
                        "{fen}, ply {ply}: {}",
                        board.to_fen()
                    );
                }
                let moves = board.legal_moves();
                let Some(&m) = moves.as_slice().get((ply * 7 + 3) % moves.len().max(1)) else {
                    break;
                };
                board.make_move(m);
            }
        }
    }

    #[test]
    fn the_pawn_key_sees_pawns_and_nothing_else() {
        let key = |fen: &str| Board::from_fen(fen).unwrap().pawn_key();
        let start = key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(start, key("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 b - - 0 1"));
        assert_ne!(start, key("4k3/pppppppp/8/8/4P3/8/PPPP1PPP/4K3 b - - 0 1"));
        assert_ne!(start, key("4k3/pppppppp/8/8/8/8/PPPPPPP1/4K3 b - - 0 1"));
        assert_ne!(
            key("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"),
            key("4k3/p7/8/8/8/8/8/4K3 w - - 0 1")
        );
    }
}
