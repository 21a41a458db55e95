//! FEN: reading (with nom) into a validated `Board`, and writing.
//!
//! GUIs send FENs with and without the two move counters, so 4, 5 or 6 fields are
//! accepted. Everything that could not arise in a game, or that would break the engine's
//! invariants (one king per side, castling rook and king at home, a real e.p. square),
//! is rejected with an error saying what is wrong, so a GUI user sees why.

use super::board::{Board, MAX_PIECES};
use super::types::{CastlingRights, Color, Piece, PieceType, Square};
use nom::{
    IResult, Parser,
    branch::alt,
    character::complete::{char, one_of, satisfy},
    combinator::{all_consuming, map, opt},
    multi::{many0, separated_list1},
};
use std::fmt;

/// The standard starting position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN (or an edited position) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Number of whitespace-separated fields found (4 to 6 are accepted).
    FieldCount(usize),
    /// Number of `/`-separated ranks found in the placement.
    RankCount(usize),
    /// The first character of the placement that is no piece letter, digit or `/`.
    BadPieceChar(char),
    /// Rank (1–8) whose squares do not add up to eight.
    RankLength {
        /// The rank as a chess player counts it, 1 to 8.
        rank: u8,
        /// How many squares its pieces and digits add up to.
        squares: u32,
    },
    /// A side without a king, or with more than one.
    KingCount {
        /// The side at fault.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// More pieces, or more of one kind, than the side's missing pawns could have become.
    TooManyPieces(Color),
    /// A pawn on the first or eighth rank, where none can stand.
    PawnOnBackRank(Square),
    /// A side-to-move field other than `w` or `b`, as found.
    SideToMove(String),
    /// The side that just moved is in check: the position could not have arisen.
    OpponentInCheck,
    /// A castling field that is neither `-` nor letters from `KQkq`, as found.
    Castling(String),
    /// A castling right the placement contradicts (king or rook not at home).
    CastlingContradicted(char),
    /// The en-passant field as found, when it is not `-` or a square.
    EnPassant(String),
    /// The e.p. square is well formed but no double push could have produced it.
    EnPassantImpossible(Square),
    /// A move-counter field as found, when it is not a number that fits.
    Counter(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "expected 4 to 6 fields, found {n}"),
            FenError::RankCount(n) => write!(f, "expected 8 ranks, found {n}"),
            FenError::BadPieceChar(c) => write!(f, "bad piece letter '{c}'"),
            FenError::RankLength { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares, not 8")
            }
            FenError::KingCount { color, count } => {
                write!(f, "{color:?} has {count} kings, not exactly one")
            }
            FenError::TooManyPieces(c) => {
                write!(f, "{c:?} has more pieces than promotions can explain")
            }
            FenError::PawnOnBackRank(sq) => write!(f, "pawn on {sq}, a first or last rank"),
            FenError::SideToMove(s) => write!(f, "side to move '{s}' is not 'w' or 'b'"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::Castling(s) => write!(f, "bad castling field '{s}'"),
            FenError::CastlingContradicted(c) => {
                write!(
                    f,
                    "castling right '{c}' without king and rook on their home squares"
                )
            }
            FenError::EnPassant(s) => write!(f, "bad en-passant field '{s}'"),
            FenError::EnPassantImpossible(sq) => {
                write!(f, "no double push can have made en-passant square {sq}")
            }
            FenError::Counter(s) => write!(f, "bad move counter '{s}'"),
        }
    }
}

impl std::error::Error for FenError {}

/// A position as placed by the user, before validation: what FEN and XBoard's edit mode
/// both produce.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Contents by dense index (`Square::index64`, a1 = 0); use `get` and `set`.
    pub squares: [Option<Piece>; 64],
    /// Side to move.
    pub side: Color,
    /// Rights as given; validation rejects those the placement contradicts.
    pub castling: CastlingRights,
    /// E.p. square as given; validation checks a double push could have made it.
    pub en_passant: Option<Square>,
    /// Half-moves since the last capture or pawn move.
    pub halfmove: u16,
    /// FEN's move number, from 1.
    pub fullmove: u16,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            squares: [None; 64],
            side: Color::White,
            castling: CastlingRights::NONE,
            en_passant: None,
            halfmove: 0,
            fullmove: 1,
        }
    }
}

impl Setup {
    /// What stands on `sq`.
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index64()]
    }

    /// Puts `piece` on `sq` (or clears it with `None`), replacing what was there.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.squares[sq.index64()] = piece;
    }

    /// Castling rights for every king and rook standing on its home square (XBoard's
    /// edit mode carries no castling field, so engines assume this).
    pub fn castling_from_placement(&self) -> CastlingRights {
        let mut rights = CastlingRights::NONE;
        for color in [Color::White, Color::Black] {
            for kingside in [true, false] {
                if self.castling_pieces_home(color, kingside) {
                    rights.insert(CastlingRights::flag(color, kingside));
                }
            }
        }
        rights
    }

    fn castling_pieces_home(&self, color: Color, kingside: bool) -> bool {
        let rank = color.back_rank();
        let rook_file = if kingside { 7 } else { 0 };
        self.get(Square::new(4, rank)) == Some(Piece::new(color, PieceType::King))
            && self.get(Square::new(rook_file, rank)) == Some(Piece::new(color, PieceType::Rook))
    }

    /// Checks the setup and builds the board.
    pub fn into_board(self) -> Result<Board, FenError> {
        self.check_material()?;
        let unsupported = self.castling.bits() & !self.castling_from_placement().bits();
        if let Some(&(_, letter)) = CastlingRights::FEN_LETTERS
            .iter()
            .find(|&&(flag, _)| unsupported & flag != 0)
        {
            return Err(FenError::CastlingContradicted(letter));
        }
        if let Some(ep) = self.en_passant {
            self.check_en_passant(ep)?;
        }

        let mut board = Board::empty();
        for sq in Square::all() {
            if let Some(p) = self.get(sq) {
                board.add_piece(sq, p);
            }
        }
        board.side = self.side;
        board.castling = self.castling;
        board.halfmove = self.halfmove;
        board.fullmove = self.fullmove.max(1);
        if board.is_attacked(board.king_square(self.side.flip()), self.side) {
            return Err(FenError::OpponentInCheck);
        }
        // Keep the e.p. square only if a capture there is actually legal (see `Board::ep`).
        board.ep = self
            .en_passant
            .filter(|&ep| board.en_passant_captors(ep).next().is_some());
        board.key = board.compute_key();
        Ok(board)
    }

    fn check_material(&self) -> Result<(), FenError> {
        for color in [Color::White, Color::Black] {
            let mine = || {
                self.squares
                    .iter()
                    .flatten()
                    .filter(move |p| p.is_color(color))
            };
            let kings = mine().filter(|p| p.kind() == Some(PieceType::King)).count();
            let kings = u32::try_from(kings).expect("at most 64 squares");
            if kings != 1 {
                return Err(FenError::KingCount {
                    color,
                    count: kings,
                });
            }
            let of_kind = |k: PieceType| mine().filter(|p| p.kind() == Some(k)).count();
            let pawns = of_kind(PieceType::Pawn);
            // Pieces beyond the initial set can only come from promoted pawns.
            let promoted: usize = [
                (PieceType::Knight, 2),
                (PieceType::Bishop, 2),
                (PieceType::Rook, 2),
                (PieceType::Queen, 1),
            ]
            .iter()
            .map(|&(k, initial)| of_kind(k).saturating_sub(initial))
            .sum();
            if mine().count() > MAX_PIECES || pawns > 8 || pawns + promoted > 8 {
                return Err(FenError::TooManyPieces(color));
            }
        }
        for sq in Square::all() {
            if (sq.rank() == 0 || sq.rank() == 7)
                && self.get(sq).and_then(Piece::kind) == Some(PieceType::Pawn)
            {
                return Err(FenError::PawnOnBackRank(sq));
            }
        }
        Ok(())
    }

    /// The e.p. square must lie behind a pawn of the side that just moved, on the rank a
    /// double push skips, with it and the pawn's origin square empty.
    fn check_en_passant(&self, ep: Square) -> Result<(), FenError> {
        let mover = self.side.flip();
        let impossible = Err(FenError::EnPassantImpossible(ep));
        let skipped_rank = if mover == Color::White { 2 } else { 5 };
        if ep.rank() != skipped_rank || self.get(ep).is_some() {
            return impossible;
        }
        let pawn_sq = ep
            .offset(mover.forward())
            .expect("rank 3/6 has a next rank");
        let origin = ep
            .offset(-mover.forward())
            .expect("rank 3/6 has a previous rank");
        if self.get(pawn_sq) != Some(Piece::new(mover, PieceType::Pawn))
            || self.get(origin).is_some()
        {
            return impossible;
        }
        Ok(())
    }
}

// --------------------------------------------------------------------------- parsing

/// One element of a placement rank: a piece or a run of empty squares.
#[derive(Clone, Copy)]
enum RankItem {
    Piece(Piece),
    Empty(u32),
}

fn rank_item(input: &str) -> IResult<&str, RankItem> {
    alt((
        map(one_of("12345678"), |c| {
            RankItem::Empty(c.to_digit(10).expect("one_of gave a digit"))
        }),
        map(satisfy(|c| Piece::from_fen_char(c).is_some()), |c| {
            RankItem::Piece(Piece::from_fen_char(c).expect("satisfy checked it"))
        }),
    ))
    .parse(input)
}

fn placement(input: &str) -> IResult<&str, Vec<Vec<RankItem>>> {
    all_consuming(separated_list1(char('/'), many0(rank_item))).parse(input)
}

fn castling_field(input: &str) -> IResult<&str, CastlingRights> {
    let dash = map(char('-'), |_| CastlingRights::NONE);
    let letters = map(nom::multi::many1(one_of("KQkq")), |cs: Vec<char>| {
        let mut r = CastlingRights::NONE;
        for (flag, letter) in CastlingRights::FEN_LETTERS {
            if cs.contains(&letter) {
                r.insert(flag);
            }
        }
        r
    });
    all_consuming(alt((dash, letters))).parse(input)
}

fn en_passant_field(input: &str) -> IResult<&str, Option<Square>> {
    let square = map((one_of("abcdefgh"), one_of("12345678")), |(f, r)| {
        Some(Square::new(f as u8 - b'a', r as u8 - b'1'))
    });
    all_consuming(alt((map(char('-'), |_| None), square))).parse(input)
}

fn counter_field(input: &str) -> IResult<&str, u16> {
    all_consuming(map(
        (opt(char('+')), nom::character::complete::u16),
        |(_, n)| n,
    ))
    .parse(input)
}

/// Reads the piece placement field into `setup`.
fn read_placement(field: &str, setup: &mut Setup) -> Result<(), FenError> {
    let ranks = match placement(field) {
        Ok((_, ranks)) => ranks,
        Err(_) => {
            let bad = field
                .chars()
                .find(|&c| {
                    c != '/' && !('1'..='8').contains(&c) && Piece::from_fen_char(c).is_none()
                })
                .unwrap_or('?');
            return Err(FenError::BadPieceChar(bad));
        }
    };
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    // FEN lists the eighth rank first.
    for (items, rank) in ranks.iter().zip((0..8u8).rev()) {
        let squares: u32 = items
            .iter()
            .map(|item| match item {
                RankItem::Piece(_) => 1,
                RankItem::Empty(n) => *n,
            })
            .sum();
        if squares != 8 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                squares,
            });
        }
        let mut file = 0u8;
        for item in items {
            match *item {
                RankItem::Piece(p) => {
                    setup.set(Square::new(file, rank), Some(p));
                    file += 1;
                }
                RankItem::Empty(n) => file += u8::try_from(n).expect("a digit 1 to 8"),
            }
        }
    }
    Ok(())
}

impl Setup {
    /// Parses a FEN into an unvalidated setup (syntax errors only).
    pub fn from_fen(fen: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut setup = Setup::default();
        read_placement(fields[0], &mut setup)?;
        setup.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::SideToMove(other.to_string())),
        };
        setup.castling = castling_field(fields[2])
            .map(|(_, c)| c)
            .map_err(|_| FenError::Castling(fields[2].to_string()))?;
        setup.en_passant = en_passant_field(fields[3])
            .map(|(_, e)| e)
            .map_err(|_| FenError::EnPassant(fields[3].to_string()))?;
        let counter = |s: &str| {
            counter_field(s)
                .map(|(_, n)| n)
                .map_err(|_| FenError::Counter(s.to_string()))
        };
        if let Some(h) = fields.get(4) {
            setup.halfmove = counter(h)?;
        }
        if let Some(f) = fields.get(5) {
            setup.fullmove = counter(f)?;
        }
        Ok(setup)
    }
}

impl Board {
    /// Reads and validates a FEN.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        Setup::from_fen(fen)?.into_board()
    }

    /// Writes the position as a six-field FEN. The e.p. square appears only when an
    /// e.p. capture is legal (as in X-FEN and python-chess's default).
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let p = self.piece_at(Square::new(file, rank));
                if p.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push(char::from(b'0' + empty));
                    empty = 0;
                }
                out.push(p.fen_char());
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = if self.side_to_move() == Color::White {
            'w'
        } else {
            'b'
        };
        let ep = self.en_passant().map_or("-".to_string(), |s| s.to_string());
        out.push_str(&format!(
            " {side} {} {ep} {} {}",
            self.castling(),
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        out
    }

    /// The position as an editable setup (for edit mode starting from the current board).
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup {
            side: self.side_to_move(),
            castling: self.castling(),
            en_passant: self.en_passant(),
            halfmove: self.halfmove_clock(),
            fullmove: self.fullmove_number(),
            ..Setup::default()
        };
        for sq in Square::all() {
            let p = self.piece_at(sq);
            if !p.is_empty() {
                setup.set(sq, Some(p));
            }
        }
        setup
    }
}
