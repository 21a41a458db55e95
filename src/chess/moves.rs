//! The compact `Move` and the fixed-capacity `MoveList` move generation fills.

use super::types::{PieceType, Square};
use std::fmt;
use std::mem::MaybeUninit;

/// What a move does beyond carrying a piece from one square to another: the rules core
/// needs it to make the move, notation needs it to write one.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum MoveKind {
    /// Any other move, captures and promotions included.
    Normal = 0,
    /// Pawn two squares forward: may create an en-passant square.
    DoublePush = 1,
    /// Pawn capture onto the e.p. square; the captured pawn stands beside it, not on it.
    EnPassant = 2,
    /// King two squares sideways; the rook moves too.
    Castle = 3,
}

/// A move in 32 bits: origin (bits 0–7) and target (bits 8–15) as 0x88 indices,
/// promotion piece type (bits 16–18, 0 for none) and `MoveKind` (bits 20–21).
///
/// The null value (`Move::NONE`, all zero) is never a legal move because origin and
/// target would coincide.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

const TO_SHIFT: u32 = 8;
const PROMO_SHIFT: u32 = 16;
const KIND_SHIFT: u32 = 20;
const SQUARE_MASK: u32 = 0xff;
const PROMO_MASK: u32 = 7;
const KIND_MASK: u32 = 3;

impl Move {
    /// No move: fills empty killer and PV slots, and is written `@@@@`.
    pub const NONE: Move = Move(0);

    /// A move that promotes nothing; for promotions use `promotion`.
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.raw() as u32 | (to.raw() as u32) << TO_SHIFT | (kind as u32) << KIND_SHIFT)
    }

    /// A pawn move (capture or not) to the last rank, becoming `piece`.
    #[inline]
    pub const fn promotion(from: Square, to: Square, piece: PieceType) -> Move {
        Move(from.raw() as u32 | (to.raw() as u32) << TO_SHIFT | (piece as u32) << PROMO_SHIFT)
    }

    /// Whether this is `Move::NONE`.
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Origin square.
    #[inline]
    pub fn from(self) -> Square {
        Square::from_bits_masked((self.0 & SQUARE_MASK) as u8)
    }

    /// Target square (for castling, the king's).
    #[inline]
    pub fn to(self) -> Square {
        Square::from_bits_masked((self.0 >> TO_SHIFT & SQUARE_MASK) as u8)
    }

    /// The piece a promotion makes, `None` for other moves.
    #[inline]
    pub const fn promoted(self) -> Option<PieceType> {
        PieceType::from_u8((self.0 >> PROMO_SHIFT & PROMO_MASK) as u8)
    }

    /// What the move does besides carrying its piece.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> KIND_SHIFT & KIND_MASK {
            1 => MoveKind::DoublePush,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Castle,
            _ => MoveKind::Normal,
        }
    }

    /// Raw bits, for storage in the transposition table.
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Inverse of `bits`. Only values produced by `bits` (or 0) are meaningful; the
    /// caller must still check the move against the legal moves of its position.
    #[inline]
    pub const fn from_bits(bits: u32) -> Move {
        Move(bits)
    }
}

impl fmt::Display for Move {
    /// Coordinate notation as CECP uses it: `e2e4`, `e7e8q`, castling as `e1g1`;
    /// the null move is `@@@@`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return f.write_str("@@@@");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promoted() {
            write!(f, "{}", p.letter().to_ascii_lowercase())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Upper bound on legal moves in any chess position (218 is the known maximum).
pub const MAX_MOVES: usize = 256;

/// A stack-allocated list of at most `MAX_MOVES` items: the moves of a position, or one
/// number per move (the search's ordering scores). Move generation runs at every node, so
/// it must not touch the heap, and the buffer is left uninitialised until written
/// (clearing the 1 KB of a move list cost about a tenth of perft's time). Only entries
/// `0..len` are ever read, and only `push` writes past `len`: this is the one place whose
/// `unsafe` the rest of the program relies on for such lists.
pub struct FixedList<T: Copy> {
    items: [MaybeUninit<T>; MAX_MOVES],
    len: usize,
}

/// The moves of a position, as generated.
pub type MoveList = FixedList<Move>;

impl<T: Copy> FixedList<T> {
    /// An empty list; nothing is initialised until pushed.
    #[inline]
    pub fn new() -> FixedList<T> {
        FixedList {
            items: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends `item`; panics if the list already holds `MAX_MOVES` items.
    #[inline]
    pub fn push(&mut self, item: T) {
        // Indexing panics before an overflow could write out of bounds; no position
        // has more than 218 legal moves.
        self.items[self.len] = MaybeUninit::new(item);
        self.len += 1;
    }

    /// Number of items pushed (and not truncated or cleared).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds nothing.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list for reuse (O(1): nothing is dropped or overwritten).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The items pushed, in order.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        let filled = &self.items[..self.len];
        // SAFETY: entries 0..len were all written by `push` (the only writer), and
        // `MaybeUninit<T>` has the same layout as `T`.
        unsafe { &*(filled as *const [MaybeUninit<T>] as *const [T]) }
    }

    /// The items pushed, for sorting or rescoring in place.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        let filled = &mut self.items[..self.len];
        // SAFETY: as in `as_slice`.
        unsafe { &mut *(filled as *mut [MaybeUninit<T>] as *mut [T]) }
    }

    /// Keeps the first `len` items.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Iterates over the items pushed.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    /// Whether `item` is in the list (linear scan), e.g. to check a move is legal.
    pub fn contains(&self, item: T) -> bool
    where
        T: PartialEq,
    {
        self.as_slice().contains(&item)
    }
}

impl<T: Copy> Clone for FixedList<T> {
    fn clone(&self) -> Self {
        let mut copy = FixedList::new();
        for &item in self.iter() {
            copy.push(item);
        }
        copy
    }
}

impl<T: Copy> Default for FixedList<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a, T: Copy> IntoIterator for &'a FixedList<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_fields_round_trip() {
        let e7 = Square::parse("e7").unwrap();
        let e8 = Square::parse("e8").unwrap();
        let m = Move::promotion(e7, e8, PieceType::Knight);
        assert_eq!(m.from(), e7);
        assert_eq!(m.to(), e8);
        assert_eq!(m.promoted(), Some(PieceType::Knight));
        assert_eq!(m.kind(), MoveKind::Normal);
        assert_eq!(m.to_string(), "e7e8n");
        assert_eq!(Move::from_bits(m.bits()), m);
        let c = Move::new(
            Square::parse("e1").unwrap(),
            Square::parse("g1").unwrap(),
            MoveKind::Castle,
        );
        assert_eq!(c.kind(), MoveKind::Castle);
        assert_eq!(c.to_string(), "e1g1");
        assert_eq!(Move::NONE.to_string(), "@@@@");
    }
}
