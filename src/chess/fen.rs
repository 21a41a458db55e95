//! FEN: reading (with nom) into a validated `Board`, and writing.
//!
//! GUIs send FENs with and without the two move counters, so 4, 5 or 6 fields are
//! accepted. Everything that could not arise in a game, or that would break the engine's
//! invariants (one king per side, castling rook and king at home, a real e.p. square),
//! is rejected with an error saying what is wrong, so a GUI user sees why.

use super::board::{Board, MAX_PIECES};
use super::types::{CastleFiles, CastlingRights, Color, Piece, PieceType, Square};
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
    /// A castling field that is neither `-` nor letters from `KQkq` and the files, as
    /// found.
    Castling(String),
    /// A castling right the placement contradicts (no king on its first rank, no rook on
    /// the file or side named, the king not between its rooks).
    CastlingContradicted(char),
    /// Castling rights of Chess960 (king or rook off the e-, a- and h-files) where the
    /// variant is standard chess.
    NotStandardCastling,
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
                    "castling right '{c}' without its king and rook on the first rank"
                )
            }
            FenError::NotStandardCastling => {
                write!(f, "castling from squares of Chess960, not standard chess")
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
    /// The files of the castling rooks and kings the rights belong to.
    pub castle_files: CastleFiles,
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
            castle_files: CastleFiles::STANDARD,
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

    /// Castling rights for every king and rook standing where castling needs them (XBoard's
    /// edit mode carries no castling field, so engines assume this): in standard chess the
    /// king on e and the rooks on a and h; in Chess960 (`chess960`) the king anywhere on its
    /// first rank and the outermost rook on each side of it, as X-FEN's `KQkq` means.
    pub fn castling_from_placement(&mut self, chess960: bool) {
        self.castling = CastlingRights::NONE;
        self.castle_files = CastleFiles::STANDARD;
        for color in [Color::White, Color::Black] {
            for kingside in [true, false] {
                let found = if chess960 {
                    self.outermost_rook(color, kingside)
                } else {
                    self.standard_castling_pieces(color, kingside)
                };
                if let Some((king_file, rook_file)) = found {
                    self.grant(color, kingside, king_file, rook_file);
                }
            }
        }
    }

    fn grant(&mut self, color: Color, kingside: bool, king_file: u8, rook_file: u8) {
        self.castling.insert(CastlingRights::flag(color, kingside));
        self.castle_files.set_king_file(color, king_file);
        self.castle_files.set_rook_file(color, kingside, rook_file);
    }

    /// The king and rook files of standard castling, when both stand there.
    fn standard_castling_pieces(&self, color: Color, kingside: bool) -> Option<(u8, u8)> {
        let king_file = CastleFiles::STANDARD.king_file(color);
        let rook_file = CastleFiles::STANDARD.rook_file(color, kingside);
        let king = self.get(Square::new(king_file, color.back_rank()));
        (king == Some(Piece::new(color, PieceType::King)) && self.rook_on(color, rook_file))
            .then_some((king_file, rook_file))
    }

    /// The file of `color`'s king on its first rank, if it stands there.
    fn home_king_file(&self, color: Color) -> Option<u8> {
        let king = Some(Piece::new(color, PieceType::King));
        (0..8).find(|&file| self.get(Square::new(file, color.back_rank())) == king)
    }

    fn rook_on(&self, color: Color, file: u8) -> bool {
        self.get(Square::new(file, color.back_rank())) == Some(Piece::new(color, PieceType::Rook))
    }

    /// The king's file and the file of the outermost rook on `kingside` of it (or the
    /// queen's side), both on `color`'s first rank.
    fn outermost_rook(&self, color: Color, kingside: bool) -> Option<(u8, u8)> {
        let king_file = self.home_king_file(color)?;
        let mut files: Box<dyn Iterator<Item = u8>> = if kingside {
            Box::new((king_file + 1..8).rev())
        } else {
            Box::new(0..king_file)
        };
        let rook_file = files.find(|&file| self.rook_on(color, file))?;
        Some((king_file, rook_file))
    }

    /// Reads one letter of a castling field: `K`/`Q` (and `k`/`q`) for the outermost rook
    /// on that side of the king (X-FEN), or a rook's file `A`-`H` (`a`-`h`, Shredder-FEN and
    /// X-FEN's inner rooks).
    fn read_castling_letter(&mut self, letter: char) -> Result<(), FenError> {
        let contradicted = || FenError::CastlingContradicted(letter);
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let (king_file, rook_file, kingside) = match letter.to_ascii_lowercase() {
            'k' | 'q' => {
                let kingside = letter.eq_ignore_ascii_case(&'k');
                let (king, rook) = self
                    .outermost_rook(color, kingside)
                    .ok_or_else(contradicted)?;
                (king, rook, kingside)
            }
            file @ 'a'..='h' => {
                let rook_file = file as u8 - b'a';
                let king_file = self.home_king_file(color).ok_or_else(contradicted)?;
                if !self.rook_on(color, rook_file) || rook_file == king_file {
                    return Err(contradicted());
                }
                (king_file, rook_file, rook_file > king_file)
            }
            _ => return Err(FenError::Castling(letter.to_string())),
        };
        let flag = CastlingRights::flag(color, kingside);
        if self.castling.has(flag) && self.castle_files.rook_file(color, kingside) != rook_file {
            return Err(contradicted()); // two rooks named for one side
        }
        self.grant(color, kingside, king_file, rook_file);
        Ok(())
    }

    /// Whether every right held has its king and rook in place: the king on its first
    /// rank at the right's king file, the rook on the right's file on the side the right
    /// names. Returns the letter of the first right that has not.
    fn contradicted_right(&self) -> Option<char> {
        CastlingRights::EACH
            .iter()
            .find_map(|&(_, color, kingside)| {
                if !self.castling.has(CastlingRights::flag(color, kingside)) {
                    return None;
                }
                let king_file = self.castle_files.king_file(color);
                let rook_file = self.castle_files.rook_file(color, kingside);
                let king_home = self.get(Square::new(king_file, color.back_rank()))
                    == Some(Piece::new(color, PieceType::King));
                let rook_side = if kingside {
                    rook_file > king_file
                } else {
                    rook_file < king_file
                };
                let in_place = king_home && self.rook_on(color, rook_file) && rook_side;
                let letter = if kingside { 'K' } else { 'Q' };
                let letter = if color == Color::White {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                };
                (!in_place).then_some(letter)
            })
    }

    /// Checks the setup and builds the board.
    pub fn into_board(self) -> Result<Board, FenError> {
        self.check_material()?;
        if let Some(letter) = self.contradicted_right() {
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
        board.set_castle_files(self.castle_files);
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

/// The letters of a castling field (`-` for none): `KQkq` and the files.
fn castling_field(input: &str) -> IResult<&str, Vec<char>> {
    let dash = map(char('-'), |_| Vec::new());
    let letters = nom::multi::many1(one_of("KQkqABCDEFGHabcdefgh"));
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
        let letters = castling_field(fields[2])
            .map(|(_, c)| c)
            .map_err(|_| FenError::Castling(fields[2].to_string()))?;
        for letter in letters {
            setup.read_castling_letter(letter)?;
        }
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
    /// Reads and validates a FEN of standard chess (castling only from the e-file king and
    /// the a- and h-file rooks).
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let board = Board::from_chess960_fen(fen)?;
        if !board.castle_files().is_standard_for(board.castling()) {
            return Err(FenError::NotStandardCastling);
        }
        Ok(board)
    }

    /// Reads and validates a FEN of Chess960 (or standard chess, one of its positions):
    /// X-FEN (`KQkq` for the outermost rooks, file letters for others) or Shredder-FEN
    /// (file letters).
    pub fn from_chess960_fen(fen: &str) -> Result<Board, FenError> {
        Setup::from_fen(fen)?.into_board()
    }

    /// Reads a FEN of standard chess, or else of Chess960: for tools (perft) that take
    /// either.
    pub fn from_any_fen(fen: &str) -> Result<Board, FenError> {
        Board::from_fen(fen).or_else(|_| Board::from_chess960_fen(fen))
    }

    /// Writes the position as a six-field FEN, castling as X-FEN writes it (`KQkq`, a
    /// file letter only for a castling rook that is not the outermost on its side: the
    /// same as plain FEN in standard chess). The e.p. square appears only when an e.p.
    /// capture is legal (as in X-FEN and python-chess's default).
    pub fn to_fen(&self) -> String {
        self.fen_with(CastlingNotation::XFen)
    }

    /// The same with castling in Shredder-FEN (the rooks' files, `HAha`).
    pub fn to_shredder_fen(&self) -> String {
        self.fen_with(CastlingNotation::Shredder)
    }

    /// The castling field in `notation`.
    fn castling_field(&self, notation: CastlingNotation) -> String {
        let mut field = String::new();
        let setup = self.to_setup();
        for (_, color, kingside) in CastlingRights::EACH {
            if !self.castling.has(CastlingRights::flag(color, kingside)) {
                continue;
            }
            let file = self.castle_files.rook_file(color, kingside);
            let outermost = setup.outermost_rook(color, kingside).map(|(_, f)| f) == Some(file);
            let letter = match notation {
                CastlingNotation::XFen if outermost => {
                    if kingside {
                        'K'
                    } else {
                        'Q'
                    }
                }
                _ => char::from(b'A' + file),
            };
            field.push(if color == Color::White {
                letter
            } else {
                letter.to_ascii_lowercase()
            });
        }
        if field.is_empty() {
            field.push('-');
        }
        field
    }

    fn fen_with(&self, notation: CastlingNotation) -> String {
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
            self.castling_field(notation),
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
            castle_files: self.castle_files(),
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

/// How a FEN writes castling rights.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CastlingNotation {
    /// `KQkq`, with a rook's file only where the castling rook is not the outermost.
    XFen,
    /// The rooks' files (`HAha`).
    Shredder,
}
