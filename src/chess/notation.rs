//! Reading and writing moves: coordinate notation (what CECP sends by default) and SAN
//! (for PVs shown to people, kibitz lines, books and tests).
//!
//! Reading always matches the text against the legal moves of the position, so a move
//! that parses is a move that can be played.

use super::board::Board;
use super::moves::{Move, MoveKind};
use super::types::{CastleFiles, PieceType, Square};
use std::fmt;

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not shaped like a move.
    Syntax,
    /// Well formed, but no legal move matches.
    Illegal,
    /// SAN that matches more than one legal move.
    Ambiguous,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::Syntax => "not a move",
            MoveError::Illegal => "illegal",
            MoveError::Ambiguous => "ambiguous",
        })
    }
}

impl std::error::Error for MoveError {}

impl Board {
    /// Reads a move in coordinate notation (`e2e4`, `e7e8q`; castling as `e1g1`, or as
    /// the king taking its own rook, `e1h1`). A promotion without a piece letter is read
    /// as a queen promotion.
    pub fn parse_coordinate(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(MoveError::Syntax);
        }
        let from = Square::parse(&text[0..2]).ok_or(MoveError::Syntax)?;
        let mut to = Square::parse(&text[2..4]).ok_or(MoveError::Syntax)?;
        let promotion = match text[4..].chars().next() {
            None => None,
            Some(c) => match PieceType::from_letter(c) {
                Some(p) if PieceType::PROMOTIONS.contains(&p) => Some(p),
                _ => return Err(MoveError::Syntax),
            },
        };
        let piece = self.piece_at(from);
        // King takes its own castling rook: how Polyglot books, python-chess's UCI side and
        // some GUIs write castling (in Chess960 the only coordinate form that cannot be
        // a king step).
        let mut takes_own_rook = false;
        if piece.kind() == Some(PieceType::King)
            && self.piece_at(to).is(piece.color(), PieceType::Rook)
        {
            let kingside = to.file() > from.file();
            if self.castle_files().rook_square(piece.color(), kingside) == to {
                to = Square::new(CastleFiles::king_target_file(kingside), from.rank());
                takes_own_rook = true;
            }
        }
        let legal = self.legal_moves();
        let matching = |m: &&Move| {
            m.from() == from
                && m.to() == to
                && match (m.promoted(), promotion) {
                    (None, None) => true,
                    (Some(p), Some(q)) => p == q,
                    (Some(p), None) => p == PieceType::Queen,
                    (None, Some(_)) => false,
                }
        };
        // In Chess960 castling and a plain king step can share both squares (king d8 with
        // its rook on a8 and c8 empty: `O-O-O` and `Kc8` both go d8-c8). King-takes-rook
        // text means castling; the king's own step means the plain move where there is
        // one, and castling only where there is not (standard chess's `e1g1`).
        let castles = |m: &&Move| m.kind() == MoveKind::Castle;
        let found = if takes_own_rook {
            legal.iter().filter(matching).find(castles)
        } else {
            let mut candidates = legal.iter().filter(matching);
            let first = candidates.next();
            match first {
                Some(m) if castles(&m) => candidates.next().or(first),
                _ => first,
            }
        };
        found.copied().ok_or(MoveError::Illegal)
    }

    /// Reads a move in SAN, tolerantly: check and annotation marks are optional and
    /// ignored, castling may be written with zeros, `=` before a promotion piece is
    /// optional.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        let san = text.trim().trim_end_matches(['+', '#', '!', '?']);
        if !san.is_ascii() || san.is_empty() {
            return Err(MoveError::Syntax);
        }
        let legal = self.legal_moves();
        let castle_to = match san {
            "O-O" | "0-0" | "o-o" => Some(6),
            "O-O-O" | "0-0-0" | "o-o-o" => Some(2),
            _ => None,
        };
        if let Some(file) = castle_to {
            return legal
                .iter()
                .copied()
                .find(|m| m.kind() == MoveKind::Castle && m.to().file() == file)
                .ok_or(MoveError::Illegal);
        }

        let pattern = SanPattern::read(san).ok_or(MoveError::Syntax)?;
        let mut matches = legal.iter().copied().filter(|&m| pattern.matches(self, m));
        let first = matches.next().ok_or(MoveError::Illegal)?;
        if matches.next().is_some() {
            return Err(MoveError::Ambiguous);
        }
        Ok(first)
    }

    /// Reads a move in either notation (coordinate first, then SAN).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        match self.parse_coordinate(text) {
            Ok(m) => Ok(m),
            Err(MoveError::Illegal) => {
                // `b1c3`-like text is never valid SAN, so a coordinate-shaped illegal
                // move stays illegal; other shapes get a SAN reading.
                Err(MoveError::Illegal)
            }
            Err(_) => self.parse_san(text),
        }
    }

    /// Writes a move in coordinate notation as CECP sends it: castling as the king's
    /// two-square step (`e1g1`) in standard chess, and as `O-O` / `O-O-O` in Chess960
    /// (`chess960`), where XBoard and python-chess write it so because the king's step
    /// may be a plain king move there, or no step at all.
    pub fn coordinate(&self, m: Move, chess960: bool) -> String {
        match m.kind() {
            MoveKind::Castle if chess960 => self.san_without_check(m),
            _ => m.to_string(),
        }
    }

    /// Writes a move in coordinate notation as UCI sends it: castling as the king's
    /// two-square step in standard chess, and as the king taking its own rook in Chess960
    /// (`chess960`), as the UCI specification's `UCI_Chess960` asks.
    pub fn uci_coordinate(&self, m: Move, chess960: bool) -> String {
        match m.kind() {
            MoveKind::Castle if chess960 => {
                // The king's target file says the wing (in Chess960 the king may even
                // stay where it is, or step the "wrong" way).
                let kingside = m.to().file() == CastleFiles::king_target_file(true);
                let rook = self
                    .castle_files()
                    .rook_square(self.side_to_move(), kingside);
                format!("{}{}", m.from(), rook)
            }
            _ => m.to_string(),
        }
    }

    /// Writes a legal move in SAN, with `+` or `#`.
    pub fn san(&self, m: Move) -> String {
        let mut out = self.san_without_check(m);
        let mut after = self.clone();
        after.make_move(m);
        if after.in_check() {
            out.push(if after.has_legal_move() { '+' } else { '#' });
        }
        out
    }

    fn san_without_check(&self, m: Move) -> String {
        if m.kind() == MoveKind::Castle {
            let kingside = m.to().file() == CastleFiles::king_target_file(true);
            return if kingside { "O-O" } else { "O-O-O" }.to_string();
        }
        let kind = self.piece_at(m.from()).kind().unwrap_or(PieceType::Pawn);
        let capture = self.is_capture(m);
        let mut out = String::with_capacity(8);
        if kind == PieceType::Pawn {
            if capture {
                out.push(file_char(m.from()));
            }
        } else {
            out.push(kind.letter());
            out.push_str(&self.disambiguation(m, kind));
        }
        if capture {
            out.push('x');
        }
        out.push_str(&m.to().to_string());
        if let Some(p) = m.promoted() {
            out.push('=');
            out.push(p.letter());
        }
        out
    }

    /// Shortest origin hint that tells `m` apart from other legal moves of the same
    /// piece type to the same square: file if that suffices, else rank, else both.
    fn disambiguation(&self, m: Move, kind: PieceType) -> String {
        let rivals: Vec<Square> = self
            .legal_moves()
            .iter()
            .filter(|o| {
                o.to() == m.to()
                    && o.from() != m.from()
                    && self.piece_at(o.from()).kind() == Some(kind)
            })
            .map(|o| o.from())
            .collect();
        if rivals.is_empty() {
            String::new()
        } else if rivals.iter().all(|s| s.file() != m.from().file()) {
            file_char(m.from()).to_string()
        } else if rivals.iter().all(|s| s.rank() != m.from().rank()) {
            rank_char(m.from()).to_string()
        } else {
            m.from().to_string()
        }
    }

    /// SAN of a sequence of moves played from this position (for PVs); stops at the
    /// first move that is not legal.
    pub fn san_line(&self, moves: &[Move]) -> String {
        let mut board = self.clone();
        let mut parts = Vec::with_capacity(moves.len());
        for &m in moves {
            if !board.is_legal(m) {
                break;
            }
            parts.push(board.san(m));
            board.make_move(m);
        }
        parts.join(" ")
    }
}

fn file_char(sq: Square) -> char {
    char::from(b'a' + sq.file())
}

fn rank_char(sq: Square) -> char {
    char::from(b'1' + sq.rank())
}

/// The parts of a SAN move other than castling.
struct SanPattern {
    kind: PieceType,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    promotion: Option<PieceType>,
}

impl SanPattern {
    /// Splits `Nbd7`, `exd5`, `e8=Q`, `R1a3`, `Qh4xe1` into their parts. Only the
    /// upper-case letter is a piece (so `b` is always a file).
    fn read(san: &str) -> Option<SanPattern> {
        let mut body = san;
        let mut kind = PieceType::Pawn;
        if let Some(first) = body.chars().next()
            && first.is_ascii_uppercase()
        {
            kind = PieceType::from_letter(first).filter(|&k| k != PieceType::Pawn)?;
            body = &body[1..];
        }
        let mut promotion = None;
        if kind == PieceType::Pawn
            && let Some(last) = body.chars().last()
            && last.is_ascii_alphabetic()
            && !last.is_ascii_digit()
            && body.len() >= 3
        {
            let p = PieceType::from_letter(last).filter(|p| PieceType::PROMOTIONS.contains(p))?;
            promotion = Some(p);
            body = body[..body.len() - 1].trim_end_matches('=');
        }
        if body.len() < 2 {
            return None;
        }
        let to = Square::parse(&body[body.len() - 2..])?;
        let hint = body[..body.len() - 2].trim_end_matches('x');
        let (mut from_file, mut from_rank) = (None, None);
        for c in hint.chars() {
            match c {
                'a'..='h' if from_file.is_none() && from_rank.is_none() => {
                    from_file = Some(c as u8 - b'a')
                }
                '1'..='8' if from_rank.is_none() => from_rank = Some(c as u8 - b'1'),
                _ => return None,
            }
        }
        Some(SanPattern {
            kind,
            from_file,
            from_rank,
            to,
            promotion,
        })
    }

    fn matches(&self, board: &Board, m: Move) -> bool {
        m.to() == self.to
            && board.piece_at(m.from()).kind() == Some(self.kind)
            && m.kind() != MoveKind::Castle
            && self.from_file.is_none_or(|f| m.from().file() == f)
            && self.from_rank.is_none_or(|r| m.from().rank() == r)
            && m.promoted() == self.promotion
    }
}
