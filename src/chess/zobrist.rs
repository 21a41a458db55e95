//! Zobrist hash keys: one random 64-bit number per (piece, square), castling-rights set,
//! en-passant file and side to move. A position's key is the XOR of the numbers of its
//! features, so a move updates it with a few XORs.
//!
//! The numbers come from `rand`'s `StdRng` with a fixed seed: every run (and every machine)
//! computes the same keys, so hash-table behaviour and the `bench` signature are
//! reproducible. They are generated once and never change afterwards.

use super::types::{CastleFiles, CastlingRights, Piece, Square};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::sync::OnceLock;

/// Seed of the key generator. Changing it changes every hash key and the bench signature.
const ZOBRIST_SEED: u64 = 0x4665_7272_696d_6178; // "Ferrimax"

/// Number of distinct `Piece` byte values (colour bit + type bits).
const PIECE_CODES: usize = 16;

pub struct Keys {
    piece_square: [[u64; 64]; PIECE_CODES],
    castling: [u64; 16],
    en_passant_file: [u64; 8],
    black_to_move: u64,
    /// Per right (bit position) and rook file: added for a right held with a rook off its
    /// standard file (Chess960), so that positions that differ only in which rook castles
    /// differ in key, while standard positions keep the keys they always had.
    castle_rook_file: [[u64; 8]; 4],
}

impl Keys {
    fn generate() -> Keys {
        let mut rng = StdRng::seed_from_u64(ZOBRIST_SEED);
        let mut keys = Keys {
            piece_square: [[0; 64]; PIECE_CODES],
            castling: [0; 16],
            en_passant_file: [0; 8],
            black_to_move: rng.next_u64(),
            castle_rook_file: [[0; 8]; 4],
        };
        for row in keys.piece_square.iter_mut() {
            for k in row.iter_mut() {
                *k = rng.next_u64();
            }
        }
        // Each right gets its own number; a set of rights is the XOR of its members, so
        // losing one right is a single XOR whatever else is held.
        let singles: [u64; 4] = std::array::from_fn(|_| rng.next_u64());
        for (bits, k) in keys.castling.iter_mut().enumerate() {
            *k = (0..4)
                .filter(|i| bits & (1 << i) != 0)
                .fold(0, |acc, i| acc ^ singles[i]);
        }
        for k in keys.en_passant_file.iter_mut() {
            *k = rng.next_u64();
        }
        // Drawn last, so every earlier key is the same as before Chess960 existed.
        for row in keys.castle_rook_file.iter_mut() {
            for k in row.iter_mut() {
                *k = rng.next_u64();
            }
        }
        keys
    }

    #[inline]
    pub fn piece(&self, piece: Piece, sq: Square) -> u64 {
        self.piece_square[piece.index()][sq.index64()]
    }

    /// The key of `rights` held with the rooks of `files`.
    #[inline]
    pub fn castling(&self, rights: CastlingRights, files: CastleFiles) -> u64 {
        let mut key = self.castling[rights.bits() as usize];
        if rights.bits() != 0 && files != CastleFiles::STANDARD {
            for (index, color, kingside) in CastlingRights::EACH {
                let file = files.rook_file_of(index);
                let held = rights.has(CastlingRights::flag(color, kingside));
                if held && file != CastleFiles::STANDARD.rook_file_of(index) {
                    key ^= self.castle_rook_file[index][usize::from(file)];
                }
            }
        }
        key
    }

    #[inline]
    pub fn en_passant(&self, sq: Square) -> u64 {
        self.en_passant_file[sq.file() as usize]
    }

    #[inline]
    pub fn side(&self) -> u64 {
        self.black_to_move
    }
}

/// The process-wide key set (built on first use).
#[inline]
pub fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(Keys::generate)
}
