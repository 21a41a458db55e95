//! Opening books in the Polyglot format, the standard that GUIs, engines and Debian's
//! `polyglot make-book` share (described in Michel Van den Bergh's "PolyGlot opening book
//! format").
//!
//! A book is a file of 16-byte entries sorted by key, each big-endian: the position's key
//! (8 bytes), a move (2), a weight (2) and a learning field (4, unused here). The key is
//! the XOR of numbers from the format's fixed table (`keys::RANDOM64`) for every piece on
//! its square, each castling right, the en-passant file and the side to move. The move
//! packs origin and target squares and a promotion piece; castling is written as the king
//! taking its own rook (`e1h1`).
//!
//! The file is searched where it lies (a binary search by key, a few reads per probe), so
//! a large book costs no memory.

mod keys;

use crate::chess::{Board, CastlingRights, Color, Move, MoveKind, PieceType, Square};
use keys::RANDOM64;
use std::fmt;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Mutex;

/// Bytes of one book entry.
const ENTRY_LEN: usize = 16;
/// `ENTRY_LEN` for file offsets and sizes.
const ENTRY_BYTES: u64 = ENTRY_LEN as u64;
/// Where the castling, en-passant and side-to-move numbers start in the key table.
const CASTLE_BASE: usize = 768;
const EN_PASSANT_BASE: usize = 772;
const WHITE_TO_MOVE: usize = 780;

/// One move of the book for a position, with its weight (how often, or how well, it was
/// played in the games the book was made from).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, one of the legal moves of the position asked about.
    pub mv: Move,
    /// Relative weight; only comparisons with the position's other moves mean anything.
    pub weight: u16,
}

/// Why a book could not be opened.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be opened or its size read.
    Io(io::Error),
    /// The file's size is not a whole number of entries: not a Polyglot book, or cut short.
    NotABook {
        /// The file's size.
        bytes: u64,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "{e}"),
            BookError::NotABook { bytes } => write!(
                f,
                "not a Polyglot book ({bytes} bytes is not a whole number of {ENTRY_BYTES}-byte entries)"
            ),
        }
    }
}

impl std::error::Error for BookError {}

impl From<io::Error> for BookError {
    fn from(e: io::Error) -> BookError {
        BookError::Io(e)
    }
}

/// An open Polyglot book.
pub struct Book {
    file: Mutex<File>,
    entries: u64,
}

/// One raw entry as stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Entry {
    key: u64,
    mv: u16,
    weight: u16,
}

impl Entry {
    fn decode(bytes: &[u8; ENTRY_LEN]) -> Entry {
        let [k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, w0, w1, ..] = *bytes;
        Entry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            mv: u16::from_be_bytes([m0, m1]),
            weight: u16::from_be_bytes([w0, w1]),
        }
    }
}

impl Book {
    /// Opens the book at `path`. Its size must be a whole number of entries.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let file = File::open(path)?;
        let bytes = file.metadata()?.len();
        if bytes % ENTRY_BYTES != 0 {
            return Err(BookError::NotABook { bytes });
        }
        Ok(Book {
            file: Mutex::new(file),
            entries: bytes / ENTRY_BYTES,
        })
    }

    /// The book's moves for `board` that are legal there, heaviest first. A read error
    /// or an entry that names no legal move yields fewer moves, never a wrong one.
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        let key = polyglot_key(board);
        let entries = match self.entries_for(key) {
            Ok(entries) => entries,
            Err(e) => {
                log::warn!("book read failed: {e}");
                return Vec::new();
            }
        };
        let legal = board.legal_moves();
        let mut moves: Vec<BookMove> = entries
            .iter()
            .filter_map(|entry| {
                let mv = legal.iter().copied().find(|&m| encode(m) == entry.mv)?;
                Some(BookMove {
                    mv,
                    weight: entry.weight,
                })
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.weight));
        moves.dedup_by_key(|m| m.mv);
        moves
    }

    /// All entries with `key` (the file is sorted by key).
    fn entries_for(&self, key: u64) -> io::Result<Vec<Entry>> {
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        // The first entry whose key is not below `key`.
        let (mut low, mut high) = (0, self.entries);
        while low < high {
            let middle = low + (high - low) / 2;
            if read_entry(&mut file, middle)?.key < key {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        let mut found = Vec::new();
        for index in low..self.entries {
            let entry = read_entry(&mut file, index)?;
            if entry.key != key {
                break;
            }
            found.push(entry);
        }
        Ok(found)
    }
}

fn read_entry(file: &mut File, index: u64) -> io::Result<Entry> {
    let mut bytes = [0; ENTRY_LEN];
    file.seek(SeekFrom::Start(index * ENTRY_BYTES))?;
    file.read_exact(&mut bytes)?;
    Ok(Entry::decode(&bytes))
}

/// The format's index of a piece kind: black pawn 0, white pawn 1, black knight 2, ...
fn piece_index(color: Color, kind: PieceType) -> usize {
    let kind_order = match kind {
        PieceType::Pawn => 0,
        PieceType::Knight => 1,
        PieceType::Bishop => 2,
        PieceType::Rook => 3,
        PieceType::Queen => 4,
        PieceType::King => 5,
    };
    2 * kind_order + usize::from(color == Color::White)
}

/// The Polyglot key of `board`.
///
/// The format counts the en-passant file only when a pawn of the side to move stands
/// beside the pawn that just made a double step. The board keeps an en-passant square
/// only when the capture is legal, so in the rare position where that pawn is pinned
/// the key differs from the book's and the position is simply not found.
pub fn polyglot_key(board: &Board) -> u64 {
    let mut key = 0;
    for color in [Color::White, Color::Black] {
        for kind in PieceType::ALL {
            for &square in board.pieces_of(color, kind) {
                let place = 8 * usize::from(square.rank()) + usize::from(square.file());
                key ^= RANDOM64[64 * piece_index(color, kind) + place];
            }
        }
    }
    let rights = [
        CastlingRights::WHITE_KINGSIDE,
        CastlingRights::WHITE_QUEENSIDE,
        CastlingRights::BLACK_KINGSIDE,
        CastlingRights::BLACK_QUEENSIDE,
    ];
    for (i, right) in rights.into_iter().enumerate() {
        if board.castling().has(right) {
            key ^= RANDOM64[CASTLE_BASE + i];
        }
    }
    if let Some(square) = board.en_passant() {
        key ^= RANDOM64[EN_PASSANT_BASE + usize::from(square.file())];
    }
    if board.side_to_move() == Color::White {
        key ^= RANDOM64[WHITE_TO_MOVE];
    }
    key
}

/// The format's 16-bit form of a legal move: target file and rank in bits
/// 0–5, origin file and rank in bits 6–11, promotion piece (knight 1 … queen 4) in bits
/// 12–14; castling as the king moving onto its own rook.
pub fn encode(m: Move) -> u16 {
    let to = match m.kind() {
        MoveKind::Castle => rook_square_of_castling(m),
        _ => m.to(),
    };
    let promotion = match m.promoted() {
        None | Some(PieceType::Pawn) | Some(PieceType::King) => 0,
        Some(PieceType::Knight) => 1,
        Some(PieceType::Bishop) => 2,
        Some(PieceType::Rook) => 3,
        Some(PieceType::Queen) => 4,
    };
    let square_bits = |s: Square| u16::from(s.rank()) << 3 | u16::from(s.file());
    promotion << 12 | square_bits(m.from()) << 6 | square_bits(to)
}

/// The rook's home square for a castling move (the corner on the king's side of travel).
fn rook_square_of_castling(m: Move) -> Square {
    const A_FILE: u8 = 0;
    const H_FILE: u8 = 7;
    let kingside = m.to().file() > m.from().file();
    let corner = if kingside { H_FILE } else { A_FILE };
    Square::new(corner, m.from().rank())
}

#[cfg(test)]
mod tests;
