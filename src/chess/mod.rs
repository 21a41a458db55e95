//! The rules of chess: board, moves, legal move generation, FEN, notation, Zobrist keys,
//! game-end rules and perft. Knows nothing of protocol or search.

mod board;
mod fen;
mod make;
mod movegen;
mod moves;
mod notation;
mod perft;
pub mod positions;
mod rules;
mod types;
mod zobrist;

pub use board::Board;
pub use fen::{CastlingNotation, FenError, STARTPOS, Setup};
pub use make::Undo;
pub use moves::{FixedList, MAX_MOVES, Move, MoveKind, MoveList};
pub use notation::MoveError;
pub use perft::{divide, perft};
pub use rules::{Ending, FIFTY_MOVE_PLIES, repetition_count};
pub use types::{
    CastleFiles, CastlingRights, Color, Piece, PieceType, Square, dir, is_straight, line_step,
};
