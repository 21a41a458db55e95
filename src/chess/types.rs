//! Colours, pieces, squares and castling rights: the vocabulary of the rules core.
//!
//! Squares use the 0x88 layout (micro-Max's representation): index = rank * 16 + file,
//! a1 = 0x00, h8 = 0x77. The unused "right half" of each 16-wide rank makes the
//! off-board test a single mask (`index & 0x88 != 0`) and lets a difference of two
//! squares identify the direction between them uniquely.

use std::fmt;

/// Mask whose bits are set exactly on the off-board half of a 0x88 index.
pub const OFF_BOARD: u8 = 0x88;

/// The two sides.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    /// Moves first; index 0.
    White = 0,
    /// Index 1.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: for indexing per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Square step of this side's pawns (towards the opponent).
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Color::White => 16,
            Color::Black => -16,
        }
    }

    /// Rank (0-based) on which this side's pawns start.
    #[inline]
    pub const fn pawn_rank(self) -> u8 {
        match self {
            Color::White => 1,
            Color::Black => 6,
        }
    }

    /// Rank (0-based) on which this side's pawns promote.
    #[inline]
    pub const fn promotion_rank(self) -> u8 {
        match self {
            Color::White => 7,
            Color::Black => 0,
        }
    }

    /// Rank (0-based) of this side's king and rooks at the start.
    #[inline]
    pub const fn back_rank(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }
}

/// Kinds of piece. The discriminants are what a `Piece` stores in its low bits.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum PieceType {
    /// Pawn.
    Pawn = 1,
    /// Knight.
    Knight = 2,
    /// Bishop.
    Bishop = 3,
    /// Rook.
    Rook = 4,
    /// Queen.
    Queen = 5,
    /// King.
    King = 6,
}

impl PieceType {
    /// All types, pawn first.
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// Types a pawn may promote to, strongest first (the order moves are generated in).
    pub const PROMOTIONS: [PieceType; 4] = [
        PieceType::Queen,
        PieceType::Knight,
        PieceType::Rook,
        PieceType::Bishop,
    ];

    /// Inverse of `kind as u8`: `None` for 0 (empty) and the unused values 7 and up.
    #[inline]
    pub const fn from_u8(v: u8) -> Option<PieceType> {
        match v {
            1 => Some(PieceType::Pawn),
            2 => Some(PieceType::Knight),
            3 => Some(PieceType::Bishop),
            4 => Some(PieceType::Rook),
            5 => Some(PieceType::Queen),
            6 => Some(PieceType::King),
            _ => None,
        }
    }

    /// Upper-case letter as used in FEN (for White) and SAN.
    pub const fn letter(self) -> char {
        match self {
            PieceType::Pawn => 'P',
            PieceType::Knight => 'N',
            PieceType::Bishop => 'B',
            PieceType::Rook => 'R',
            PieceType::Queen => 'Q',
            PieceType::King => 'K',
        }
    }

    /// Reads a piece letter in either case.
    pub fn from_letter(c: char) -> Option<PieceType> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceType::Pawn),
            'N' => Some(PieceType::Knight),
            'B' => Some(PieceType::Bishop),
            'R' => Some(PieceType::Rook),
            'Q' => Some(PieceType::Queen),
            'K' => Some(PieceType::King),
            _ => None,
        }
    }

    /// Slides along ranks and files.
    #[inline]
    pub const fn slides_straight(self) -> bool {
        matches!(self, PieceType::Rook | PieceType::Queen)
    }

    /// Slides along diagonals.
    #[inline]
    pub const fn slides_diagonally(self) -> bool {
        matches!(self, PieceType::Bishop | PieceType::Queen)
    }

    /// Slides along the line of the unit `step` (false for no step).
    #[inline]
    pub const fn slides_along(self, step: i8) -> bool {
        if is_straight(step) {
            self.slides_straight()
        } else {
            step != 0 && self.slides_diagonally()
        }
    }
}

/// A piece or an empty square, packed in one byte: bit 3 is the colour (set for Black),
/// bits 0–2 the `PieceType` discriminant, and 0 means empty.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Hash)]
pub struct Piece(u8);

const BLACK_BIT: u8 = 8;
const TYPE_MASK: u8 = 7;

impl Piece {
    /// No piece: what an empty square holds.
    pub const EMPTY: Piece = Piece(0);

    /// Packs a colour and a type.
    #[inline]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece(((color as u8) * BLACK_BIT) | kind as u8)
    }

    /// Whether this is `EMPTY`.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Colour of a non-empty piece (meaningless for `EMPTY`).
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & BLACK_BIT != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// A piece of `color` (false for `EMPTY`, unlike comparing `color()`).
    #[inline]
    pub const fn is_color(self, color: Color) -> bool {
        !self.is_empty() && self.0 & BLACK_BIT == (color as u8) * BLACK_BIT
    }

    /// Type of a non-empty piece.
    #[inline]
    pub const fn kind(self) -> Option<PieceType> {
        PieceType::from_u8(self.0 & TYPE_MASK)
    }

    /// Raw type bits (0 for empty): cheaper than `kind()` in hot loops.
    #[inline]
    pub const fn type_bits(self) -> u8 {
        self.0 & TYPE_MASK
    }

    /// Exactly this colour and type, in one byte comparison.
    #[inline]
    pub const fn is(self, color: Color, kind: PieceType) -> bool {
        self.0 == Piece::new(color, kind).0
    }

    /// 0..16, for per-piece tables such as Zobrist keys.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// FEN letter: upper case for White, lower case for Black.
    pub fn fen_char(self) -> char {
        match self.kind() {
            None => '.',
            Some(k) => match self.color() {
                Color::White => k.letter(),
                Color::Black => k.letter().to_ascii_lowercase(),
            },
        }
    }

    /// Inverse of `fen_char`; `None` for anything but the twelve piece letters.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceType::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

/// A board square in 0x88 numbering (see the module docs).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

impl Square {
    /// Square from 0-based file and rank, both below 8 (checked only in debug builds).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square(rank * 16 + file)
    }

    /// Square from stored bits, forced onto the board (`Move` stores only valid squares;
    /// the mask just guarantees no off-board index can escape).
    #[inline]
    pub const fn from_bits_masked(index: u8) -> Square {
        Square(index & 0x77)
    }

    /// Square `delta` steps away, if that is still on the board. Wrapping arithmetic on
    /// the byte makes steps off either end land in the off-board half or above 0x7f.
    #[inline]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let target = self.0.wrapping_add(delta.cast_unsigned());
        if target & OFF_BOARD == 0 {
            Some(Square(target))
        } else {
            None
        }
    }

    /// The 0x88 index (0..=0x77).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The 0x88 index as a byte, for packing into moves and matching known squares.
    #[inline]
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// Dense 0..64 index (a1 = 0, h8 = 63): folds the 16-wide ranks to 8.
    #[inline]
    pub const fn index64(self) -> usize {
        ((self.0 >> 4) * 8 + (self.0 & 7)) as usize
    }

    /// Inverse of `index64`; `i` must be below 64 (checked only in debug builds).
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "i < 64 gives at most 0x77; unchecked: the hash table decodes every move with it"
    )]
    pub const fn from_index64(i: usize) -> Square {
        debug_assert!(i < 64);
        Square(((i / 8) * 16 + i % 8) as u8)
    }

    /// File, 0 for a to 7 for h.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank, 0 for the first rank to 7 for the eighth.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 4
    }

    /// True for the dark squares (a1 is dark): used for bishop colours.
    #[inline]
    pub const fn is_dark(self) -> bool {
        (self.file() + self.rank()).is_multiple_of(2)
    }

    /// King-move distance: the larger of the file and rank differences.
    #[inline]
    pub const fn distance(self, other: Square) -> u8 {
        let files = self.file().abs_diff(other.file());
        let ranks = self.rank().abs_diff(other.rank());
        if files > ranks { files } else { ranks }
    }

    /// Rook-walk distance: the sum of the file and rank differences (the bishop-and-knight
    /// mate measures the lone king's way to a corner with it).
    #[inline]
    pub const fn manhattan_distance(self, other: Square) -> u8 {
        self.file().abs_diff(other.file()) + self.rank().abs_diff(other.rank())
    }

    /// The same square seen from the other side (rank mirrored).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 0x70)
    }

    /// All 64 squares, a1..h1, a2..h8.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square::from_index64)
    }

    /// Parses `e4`-style coordinates.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        (file < 8 && rank < 8).then(|| Square::new(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// Castling rights as four flag bits.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Hash)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// White may castle short (O-O).
    pub const WHITE_KINGSIDE: u8 = 1;
    /// White may castle long (O-O-O).
    pub const WHITE_QUEENSIDE: u8 = 2;
    /// Black may castle short.
    pub const BLACK_KINGSIDE: u8 = 4;
    /// Black may castle long.
    pub const BLACK_QUEENSIDE: u8 = 8;
    /// No rights (FEN `-`).
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights (FEN `KQkq`).
    pub const ALL: CastlingRights = CastlingRights(15);
    /// Each right with its FEN letter, in the order FEN writes them.
    pub const FEN_LETTERS: [(u8, char); 4] = [
        (Self::WHITE_KINGSIDE, 'K'),
        (Self::WHITE_QUEENSIDE, 'Q'),
        (Self::BLACK_KINGSIDE, 'k'),
        (Self::BLACK_QUEENSIDE, 'q'),
    ];

    /// The four flag bits, e.g. to index per-rights Zobrist keys (0..16).
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Inverse of `bits`; bits above the four flags are dropped.
    #[inline]
    pub const fn from_bits(bits: u8) -> CastlingRights {
        CastlingRights(bits & 15)
    }

    /// Whether any of the rights in `flag` (one of the constants above, or a union) is held.
    #[inline]
    pub const fn has(self, flag: u8) -> bool {
        self.0 & flag != 0
    }

    /// Grants the rights in `flag`.
    #[inline]
    pub fn insert(&mut self, flag: u8) {
        self.0 |= flag;
    }

    /// Flag for castling on `kingside` (or queenside) for `color`.
    #[inline]
    pub const fn flag(color: Color, kingside: bool) -> u8 {
        match (color, kingside) {
            (Color::White, true) => Self::WHITE_KINGSIDE,
            (Color::White, false) => Self::WHITE_QUEENSIDE,
            (Color::Black, true) => Self::BLACK_KINGSIDE,
            (Color::Black, false) => Self::BLACK_QUEENSIDE,
        }
    }

    /// These rights without those in `lost`.
    #[inline]
    pub const fn without(self, lost: u8) -> CastlingRights {
        CastlingRights(self.0 & !lost)
    }

    /// Each right's bit position (0..4), for per-right tables, with its colour and side.
    pub const EACH: [(usize, Color, bool); 4] = [
        (0, Color::White, true),
        (1, Color::White, false),
        (2, Color::Black, true),
        (3, Color::Black, false),
    ];
}

/// Where the pieces of the castling rights stand: each right's rook file (by right, in
/// the order of [`CastlingRights::EACH`]) and each side's king file. Standard chess has
/// the rooks on h and a and the kings on e; Chess960 (Fischer random chess) puts them on
/// any files with the king between its rooks. The rules are the same for both: the king
/// ends on the g- or c-file, the rook beside it on the f- or d-file.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct CastleFiles {
    rook: [u8; 4],
    king: [u8; 2],
}

impl CastleFiles {
    /// Standard chess.
    pub const STANDARD: CastleFiles = CastleFiles {
        rook: [7, 0, 7, 0],
        king: [4, 4],
    };

    /// The file where the king ends when castling on `kingside` (g) or not (c).
    pub const fn king_target_file(kingside: bool) -> u8 {
        if kingside { 6 } else { 2 }
    }

    /// The file where the rook ends when castling on `kingside` (f) or not (d).
    pub const fn rook_target_file(kingside: bool) -> u8 {
        if kingside { 5 } else { 3 }
    }

    #[inline]
    const fn right_index(color: Color, kingside: bool) -> usize {
        (color as usize) * 2 + if kingside { 0 } else { 1 }
    }

    /// The rook file of `color`'s right on `kingside` (or the queen's side).
    #[inline]
    pub const fn rook_file(self, color: Color, kingside: bool) -> u8 {
        self.rook[Self::right_index(color, kingside)]
    }

    /// The rook file of the right with bit position `index` (see [`CastlingRights::EACH`]).
    #[inline]
    pub const fn rook_file_of(self, index: usize) -> u8 {
        self.rook[index]
    }

    /// `color`'s king file.
    #[inline]
    pub const fn king_file(self, color: Color) -> u8 {
        self.king[color as usize]
    }

    /// Sets the rook file of `color`'s right on `kingside`.
    pub fn set_rook_file(&mut self, color: Color, kingside: bool, file: u8) {
        self.rook[Self::right_index(color, kingside)] = file;
    }

    /// Sets `color`'s king file.
    pub fn set_king_file(&mut self, color: Color, file: u8) {
        self.king[color as usize] = file;
    }

    /// The rook's home square for `color`'s right on `kingside`.
    #[inline]
    pub fn rook_square(self, color: Color, kingside: bool) -> Square {
        Square::new(self.rook_file(color, kingside), color.back_rank())
    }

    /// The rights lost by a move that touches `sq`, as origin or target: a king or rook
    /// leaving home, or a rook captured at home.
    pub fn rights_lost_at(self, sq: Square) -> u8 {
        let mut lost = 0;
        for (index, color, kingside) in CastlingRights::EACH {
            let flag = CastlingRights::flag(color, kingside);
            let home_rank = sq.rank() == color.back_rank();
            let file = sq.file();
            if home_rank && (file == self.rook[index] || file == self.king_file(color)) {
                lost |= flag;
            }
        }
        lost
    }

    /// Whether the held `rights` castle as in standard chess (kings on e, rooks on a/h).
    pub fn is_standard_for(self, rights: CastlingRights) -> bool {
        CastlingRights::EACH
            .iter()
            .all(|&(index, color, kingside)| {
                !rights.has(CastlingRights::flag(color, kingside))
                    || (self.rook[index] == Self::STANDARD.rook[index]
                        && self.king_file(color) == Self::STANDARD.king_file(color))
            })
    }
}

impl Default for CastleFiles {
    fn default() -> Self {
        CastleFiles::STANDARD
    }
}

impl fmt::Display for CastlingRights {
    /// FEN field: `KQkq` subset, or `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("-");
        }
        for (flag, c) in Self::FEN_LETTERS {
            if self.has(flag) {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// Offset added to a 0x88 square difference (−119..=119) to index per-difference tables.
const DIFF_OFFSET: i32 = 119;

/// For every 0x88 difference `to − from`: the unit step leading from `from` to `to` along
/// a rank, file or diagonal, or 0 when the squares share no line. In 0x88 each difference
/// belongs to at most one line direction, which is what makes this table possible.
const LINE_STEPS: [i8; 239] = {
    let mut table = [0i8; 239];
    let mut i = 0;
    while i < 8 {
        let step = dir::KING[i];
        let mut distance = 1;
        while distance < 8 {
            // Evaluated at compile time: an index out of range would fail the build.
            #[allow(clippy::cast_sign_loss, reason = "the index is within 0..239")]
            let index = (step as i32 * distance + DIFF_OFFSET) as usize;
            table[index] = step;
            distance += 1;
        }
        i += 1;
    }
    table
};

/// Unit step from `from` towards `to` if they share a rank, file or diagonal, else 0.
#[inline]
#[allow(
    clippy::cast_sign_loss,
    reason = "squares are 0..=0x77, so the index is 0..=238; unchecked as attack tests call this"
)]
pub fn line_step(from: Square, to: Square) -> i8 {
    LINE_STEPS[(i32::from(to.raw()) - i32::from(from.raw()) + DIFF_OFFSET) as usize]
}

/// Whether `step` runs along a rank or file (as opposed to a diagonal).
#[inline]
pub const fn is_straight(step: i8) -> bool {
    matches!(step, dir::N | dir::S | dir::E | dir::W)
}

/// Step vectors in 0x88 numbering.
pub mod dir {
    /// Up one rank (towards Black's side).
    pub const N: i8 = 16;
    /// Down one rank (towards White's side).
    pub const S: i8 = -16;
    /// Right one file (towards h).
    pub const E: i8 = 1;
    /// Left one file (towards a).
    pub const W: i8 = -1;
    /// Up and right.
    pub const NE: i8 = 17;
    /// Up and left.
    pub const NW: i8 = 15;
    /// Down and right.
    pub const SE: i8 = -15;
    /// Down and left.
    pub const SW: i8 = -17;

    /// Rook directions.
    pub const STRAIGHT: [i8; 4] = [N, S, E, W];
    /// Bishop directions.
    pub const DIAGONAL: [i8; 4] = [NE, NW, SE, SW];
    /// All eight directions: a king steps, and a queen slides, along these.
    pub const KING: [i8; 8] = [N, S, E, W, NE, NW, SE, SW];
    /// The eight knight jumps.
    pub const KNIGHT: [i8; 8] = [33, 31, 18, 14, -14, -18, -31, -33];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_geometry() {
        let e4 = Square::parse("e4").unwrap();
        assert_eq!(e4.raw(), 0x34);
        assert_eq!(e4.to_string(), "e4");
        assert_eq!(e4.index64(), 28);
        assert_eq!(Square::from_index64(28), e4);
        assert_eq!(Square::new(0, 0).offset(dir::W), None);
        assert_eq!(Square::new(7, 7).offset(dir::N), None);
        assert_eq!(Square::new(0, 0).offset(dir::S), None);
        assert_eq!(Square::new(0, 0).offset(dir::NE).unwrap().to_string(), "b2");
        assert!(Square::parse("i1").is_none());
        assert!(Square::parse("a9").is_none());
        assert!(Square::parse("a").is_none());
        assert!(Square::new(0, 0).is_dark());
        assert!(!Square::new(7, 0).is_dark());
    }

    #[test]
    fn line_steps_follow_lines_only() {
        let sq = |s| Square::parse(s).unwrap();
        assert_eq!(line_step(sq("a1"), sq("h8")), dir::NE);
        assert_eq!(line_step(sq("h8"), sq("a1")), dir::SW);
        assert_eq!(line_step(sq("e4"), sq("e8")), dir::N);
        assert_eq!(line_step(sq("e4"), sq("a4")), dir::W);
        assert_eq!(line_step(sq("b1"), sq("c3")), 0);
        assert_eq!(line_step(sq("a1"), sq("h7")), 0);
    }

    #[test]
    fn pieces_pack_and_unpack() {
        for color in [Color::White, Color::Black] {
            for kind in PieceType::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(p.color(), color);
                assert_eq!(p.kind(), Some(kind));
                assert!(p.is_color(color));
                assert!(!p.is_color(color.flip()));
                assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
            }
        }
        assert!(Piece::EMPTY.is_empty());
        assert!(!Piece::EMPTY.is_color(Color::White));
    }
}
