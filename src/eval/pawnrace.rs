//! "Can this pawn run?" — a pawn-race table in the spirit of Rémi Coulom's 1999 note.
//!
//! The classic *rule of the square* says whether a lone king catches a passed pawn, but it
//! ignores the other king: the attacking king may stand in the defender's way (so the pawn
//! runs although the defender is "in the square"), may stand on the pawn's path (so the pawn
//! does not run at all), or may protect the pawn or its promotion square.  Coulom's fix was to
//! precompute, for every placement of the two kings and the pawn and for both sides to move,
//! whether the pawn promotes by simply marching on.  The table has the same shape as a KPK
//! bitbase (24 pawn squares after the a–h mirror × 64 × 64 × 2 = 196,608 bits = 24 KB), and a
//! probe costs a few shifts.
//!
//! # The game this table solves
//!
//! Only the attacking pawn, the attacking king and the defending king exist; everything else
//! on the real board is ignored.  The attacker is always called White and pushes towards rank 8
//! (for a Black pawn, mirror the ranks with [`mirror_rank`] and pass "Black to move" as
//! `white_to_move`).
//!
//! * **White only pushes the pawn**, one square, or two from its starting rank; the White king
//!   stays where it is.  That is the point of a race table: the pawn's arrival time is then
//!   known (its distance to rank 8), so an evaluator can compare it with the opponent's race.
//!   If the pawn is blocked (by either king) it does not run.
//! * **Black moves its king or passes.**  Passing stands for a spare move elsewhere on the real
//!   board (Coulom: "no zugzwang"); it is only allowed when the king is not in check by the pawn.
//!   Black may not step next to the White king, onto a square the pawn attacks, or off the board;
//!   it may capture the pawn when the White king does not protect it.
//! * **The pawn runs** when it reaches rank 8 and Black, to move, cannot capture the new queen:
//!   the defending king is not next to the promotion square, or the White king protects that
//!   square.  Stalemate is not considered (Black is assumed to have other moves), so use the KPK
//!   bitbase ([`super::kpk`]) for a real K+P vs K ending.
//!
//! # Illegal positions
//!
//! Positions that cannot arise in a game — two pieces on one square, kings next to each other,
//! Black in check by the pawn with White to move, a pawn on rank 1 or 8 — are answered `false`.
//! A `true` that the evaluator might turn into a queen bonus must mean a real run.
//!
//! # How the table is built
//!
//! Every White move advances the pawn, so positions only depend on positions with the pawn
//! further up the board: no fixpoint is needed.  [`PawnRaceTable::new`] fills the table rank by
//! rank from the 7th down to the 2nd; within a rank it first decides the White-to-move entries
//! (which look at the pawn one or two ranks further on) and then the Black-to-move entries
//! (which look at the White-to-move entries of the same rank).
//!
//! Black's defence is an exact minimax over all its king paths, so the ways a defending king
//! gains time (approaching on a diagonal, stepping into the square on its own move) and the ways
//! the White king costs it time (squares it guards, a protected pawn) all come out right without
//! any geometric rule.
//!
//! This module also owns the 0x88 helpers and the table layout shared with the KPK bitbase,
//! which stores the same positions in the same order.

use std::ops::Range;

/// Step from a square to the one directly above it (towards rank 8) in 0x88 numbering.
pub(crate) const NORTH: i8 = 16;

/// The eight king steps in 0x88 numbering.
pub(crate) const KING_STEPS: [i8; 8] = [-17, -16, -15, -1, 1, 15, 16, 17];

/// Bits of a 0x88 index that are set exactly for off-board indices.
const OFF_BOARD_MASK: u8 = 0x88;

/// 0-based rank (0 = rank 1) of a White pawn that has not moved yet and may step twice.
pub(crate) const PAWN_START_RANK: u8 = 1;

/// 0-based rank of the last square a pawn can stand on before promoting (rank 7).
pub(crate) const LAST_PAWN_RANK: u8 = 6;

/// 0-based rank on which a White pawn promotes (rank 8).
pub(crate) const PROMOTION_RANK: u8 = 7;

/// Pawn files kept in the tables (a–d); a pawn on e–h is mirrored onto them.
const INDEXED_PAWN_FILES: u8 = 4;

/// Ranks a pawn can occupy (2nd to 7th).
const PAWN_RANKS: usize = (LAST_PAWN_RANK - PAWN_START_RANK + 1) as usize;

/// Squares a king can occupy.
const KING_SQUARES: usize = 64;

/// Number of positions (and bits) in a K+P vs K table after the file mirror:
/// 24 pawn squares × 64 White-king squares × 64 Black-king squares × 2 sides to move.
pub(crate) const TABLE_ENTRIES: usize =
    INDEXED_PAWN_FILES as usize * PAWN_RANKS * KING_SQUARES * KING_SQUARES * 2;

/// Size in bytes of one such table stored as bits (24 KB).
pub const TABLE_BYTES: usize = TABLE_ENTRIES / 8;

/// Mirrors a square across the middle rank (a1 ↔ a8, e2 ↔ e7).
///
/// The tables are written for a White pawn moving up.  To ask about a Black pawn, mirror all
/// three squares with this function and pass "Black to move" as `white_to_move`.
/// (The rank lives in bits 4–6 of a 0x88 index, so flipping those bits maps rank r to 7 − r.)
pub fn mirror_rank(square: u8) -> u8 {
    square ^ 0x70
}

/// Mirrors a square across the middle file (a1 ↔ h1).
/// (The file lives in bits 0–2 of a 0x88 index, so flipping those bits maps file f to 7 − f.)
pub(crate) fn mirror_file(square: u8) -> u8 {
    square ^ 0x07
}

/// 0-based file of a 0x88 square (0 = file a).
pub(crate) fn file_of(square: u8) -> u8 {
    square & 0x07
}

/// 0-based rank of a 0x88 square (0 = rank 1).
pub(crate) fn rank_of(square: u8) -> u8 {
    square >> 4
}

/// Whether a 0x88 index names a real square.
pub(crate) fn is_on_board(square: u8) -> bool {
    square & OFF_BOARD_MASK == 0
}

/// The square `step` away from `square`, or `None` if that leaves the board.
pub(crate) fn step_from(square: u8, step: i8) -> Option<u8> {
    let target = i16::from(square) + i16::from(step);
    u8::try_from(target)
        .ok()
        .filter(|&target| is_on_board(target))
}

/// Number of king moves between two squares (Chebyshev distance).
pub(crate) fn king_distance(a: u8, b: u8) -> u8 {
    let files = file_of(a).abs_diff(file_of(b));
    let ranks = rank_of(a).abs_diff(rank_of(b));
    files.max(ranks)
}

/// Whether two squares touch (a king on one attacks the other).
pub(crate) fn are_adjacent(a: u8, b: u8) -> bool {
    king_distance(a, b) == 1
}

/// Whether a White pawn on `pawn` attacks `target` (one rank up, one file aside).
pub(crate) fn pawn_attacks(pawn: u8, target: u8) -> bool {
    rank_of(target) == rank_of(pawn) + 1 && file_of(target).abs_diff(file_of(pawn)) == 1
}

/// Indices of all table positions with the pawn on `pawn_rank` (0-based, 1..=6).
/// The pawn is the most significant part of [`table_index`], so they form one range.
pub(crate) fn indices_with_pawn_on_rank(pawn_rank: u8) -> Range<usize> {
    let per_rank = usize::from(INDEXED_PAWN_FILES) * KING_SQUARES * KING_SQUARES * 2;
    let start = usize::from(pawn_rank - PAWN_START_RANK) * per_rank;
    start..start + per_rank
}

/// Whether a K+P vs K position with a White pawn could occur in a game.
///
/// Rejects off-board squares, a pawn on rank 1 or 8, two pieces on one square, touching kings
/// and, with White to move, a Black king in check by the pawn (Black would have just left its
/// king in check).  A Black king in check with Black to move is legal.
pub(crate) fn is_legal(pawn: u8, white_king: u8, black_king: u8, white_to_move: bool) -> bool {
    let on_board = is_on_board(pawn) && is_on_board(white_king) && is_on_board(black_king);
    on_board
        && (PAWN_START_RANK..=LAST_PAWN_RANK).contains(&rank_of(pawn))
        && pawn != white_king
        && pawn != black_king
        && king_distance(white_king, black_king) > 1
        && !(white_to_move && pawn_attacks(pawn, black_king))
}

/// Position of a K+P vs K placement in a table.
///
/// Pawns on files e–h are mirrored onto a–d together with both kings (the game is symmetric
/// under that mirror).  Layout, most significant first: pawn (rank 2–7 × file a–d), White king,
/// Black king, side to move.  The pawn must stand on ranks 2–7 and all squares on the board.
pub(crate) fn table_index(pawn: u8, white_king: u8, black_king: u8, white_to_move: bool) -> usize {
    debug_assert!((PAWN_START_RANK..=LAST_PAWN_RANK).contains(&rank_of(pawn)));
    let (pawn, white_king, black_king) = if file_of(pawn) < INDEXED_PAWN_FILES {
        (pawn, white_king, black_king)
    } else {
        (
            mirror_file(pawn),
            mirror_file(white_king),
            mirror_file(black_king),
        )
    };
    let pawn_slot = usize::from(rank_of(pawn) - PAWN_START_RANK) * usize::from(INDEXED_PAWN_FILES)
        + usize::from(file_of(pawn));
    let placement = (pawn_slot * KING_SQUARES + square_number(white_king)) * KING_SQUARES
        + square_number(black_king);
    placement * 2 + usize::from(white_to_move)
}

/// The position stored at `index`, inverse of [`table_index`]: (pawn, White king, Black king,
/// White to move), with the pawn on files a–d.
pub(crate) fn position_at(index: usize) -> (u8, u8, u8, bool) {
    let white_to_move = index % 2 == 1;
    let placement = index / 2;
    let black_king = square_from_number(placement % KING_SQUARES);
    let white_king = square_from_number(placement / KING_SQUARES % KING_SQUARES);
    let pawn_slot = placement / (KING_SQUARES * KING_SQUARES);
    let files = usize::from(INDEXED_PAWN_FILES);
    let pawn_rank = PAWN_START_RANK + u8::try_from(pawn_slot / files).expect("index in the table");
    let pawn_file = u8::try_from(pawn_slot % files).expect("below INDEXED_PAWN_FILES");
    let pawn = pawn_rank * 16 + pawn_file;
    (pawn, white_king, black_king, white_to_move)
}

/// Compact square number 0..64 (rank * 8 + file) of a 0x88 square.
fn square_number(square: u8) -> usize {
    usize::from(rank_of(square)) * 8 + usize::from(file_of(square))
}

/// The 0x88 square with compact number `number` (rank * 8 + file).
fn square_from_number(number: usize) -> u8 {
    u8::try_from(number / 8 * 16 + number % 8).expect("number below 64")
}

/// A fixed-size set of table positions, one bit each.
#[derive(Clone)]
pub(crate) struct BitTable {
    words: Box<[u64]>,
}

impl BitTable {
    /// Bits per storage word.
    const WORD_BITS: usize = u64::BITS as usize;

    /// A table of [`TABLE_ENTRIES`] bits, all clear.
    pub(crate) fn new() -> Self {
        let words = TABLE_ENTRIES.div_ceil(Self::WORD_BITS);
        BitTable {
            words: vec![0; words].into_boxed_slice(),
        }
    }

    /// Whether the bit for `index` is set.
    pub(crate) fn get(&self, index: usize) -> bool {
        // Bit `index` is bit `index % 64` of word `index / 64`.
        let word = self.words[index / Self::WORD_BITS];
        (word >> (index % Self::WORD_BITS)) & 1 == 1
    }

    /// Sets the bit for `index`.
    pub(crate) fn set(&mut self, index: usize) {
        self.words[index / Self::WORD_BITS] |= 1 << (index % Self::WORD_BITS);
    }

    /// Memory held by the bits, in bytes.
    pub(crate) fn size_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.words)
    }
}

/// For every K+P vs K placement and side to move: does the pawn promote by marching on?
///
/// See the [module documentation](self) for the exact rules.  Build it once at start-up
/// (a few milliseconds in an optimised build) and share it; probing is cheap.
#[derive(Clone)]
pub struct PawnRaceTable {
    runs: BitTable,
}

impl Default for PawnRaceTable {
    fn default() -> Self {
        Self::new()
    }
}

impl PawnRaceTable {
    /// Computes the whole table (see the module documentation for the method).
    pub fn new() -> Self {
        let mut table = PawnRaceTable {
            runs: BitTable::new(),
        };
        for pawn_rank in (PAWN_START_RANK..=LAST_PAWN_RANK).rev() {
            // White-to-move entries of this rank first: the Black-to-move ones read them.
            for white_to_move in [true, false] {
                for index in indices_with_pawn_on_rank(pawn_rank) {
                    let (pawn, white_king, black_king, side) = position_at(index);
                    if side != white_to_move || !is_legal(pawn, white_king, black_king, side) {
                        continue;
                    }
                    let runs = if white_to_move {
                        table.white_push_succeeds(pawn, white_king, black_king)
                    } else {
                        table.black_cannot_stop(pawn, white_king, black_king)
                    };
                    if runs {
                        table.runs.set(index);
                    }
                }
            }
        }
        table
    }

    /// Whether the White pawn on `pawn` promotes without being stopped, with the White king
    /// fixed on `white_king` and the Black king on `black_king` (0x88 squares, see the module
    /// documentation for the rules).  Illegal positions give `false`.
    pub fn can_run(&self, pawn: u8, white_king: u8, black_king: u8, white_to_move: bool) -> bool {
        is_legal(pawn, white_king, black_king, white_to_move)
            && self
                .runs
                .get(table_index(pawn, white_king, black_king, white_to_move))
    }

    /// Memory used by the table, in bytes.
    pub fn size_bytes(&self) -> usize {
        self.runs.size_bytes()
    }

    /// White to move, pawn not yet on rank 8: does some pawn push lead to a run?
    /// Reads only entries with the pawn further up, which are already final.
    fn white_push_succeeds(&self, pawn: u8, white_king: u8, black_king: u8) -> bool {
        pawn_pushes(pawn, white_king, black_king).any(|target| {
            if rank_of(target) == PROMOTION_RANK {
                new_queen_survives(target, white_king, black_king)
            } else {
                self.runs
                    .get(table_index(target, white_king, black_king, false))
            }
        })
    }

    /// Black to move: does every Black reply (king step or pass) still let the pawn run?
    /// Reads only White-to-move entries of the same pawn square, which are already final.
    fn black_cannot_stop(&self, pawn: u8, white_king: u8, black_king: u8) -> bool {
        let in_check = pawn_attacks(pawn, black_king);
        let steps = KING_STEPS
            .iter()
            .filter_map(|&step| step_from(black_king, step));
        let pass = (!in_check).then_some(black_king);
        steps.chain(pass).all(|target| {
            if king_distance(target, white_king) <= 1 || pawn_attacks(pawn, target) {
                return true; // Illegal reply: it does not count.
            }
            // Stepping onto the pawn captures it (it is unprotected: the test above let it by).
            target != pawn && self.runs.get(table_index(pawn, white_king, target, true))
        })
    }
}

/// The squares the pawn can be pushed to: one step if that square is empty, and two from its
/// starting rank if both squares are empty.
pub(crate) fn pawn_pushes(pawn: u8, white_king: u8, black_king: u8) -> impl Iterator<Item = u8> {
    let is_empty = move |square: u8| square != white_king && square != black_king;
    let single = step_from(pawn, NORTH).filter(|&square| is_empty(square));
    let double = single
        .filter(|_| rank_of(pawn) == PAWN_START_RANK)
        .and_then(|square| step_from(square, NORTH))
        .filter(|&square| is_empty(square));
    single.into_iter().chain(double)
}

/// After promotion on `square`, with Black to move: the Black king cannot take the new piece,
/// because it is too far away or the White king protects the square.
pub(crate) fn new_queen_survives(square: u8, white_king: u8, black_king: u8) -> bool {
    !are_adjacent(black_king, square) || are_adjacent(white_king, square)
}

#[cfg(test)]
pub(crate) mod testkit;

#[cfg(test)]
mod tests;
