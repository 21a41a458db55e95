//! Training data for a learned evaluation: positions of Ferrimax's own self-play games
//! (`selfplay.rs`: fixed nodes a move, a short random opening each), each with the search's
//! score for the side to move and the game's result, in compact fixed-size records.
//!
//! Only positions a static evaluation can be taught from are kept: none in check, none
//! whose best move captures or promotes (the position is about to change), none scored as
//! a mate. A game is written whole, in game order whatever thread played it, so a run is
//! the same file for a seed on any number of threads; a progress file beside the data says
//! how many games and bytes are complete, so a stopped run resumes where it was.
//!
//! The same records, under the same filter, come from other engines' games too: a match
//! runner's PGN (cutechess, fastchess, as OpenBench returns a workload's games) scores
//! each move an engine searched in its comment (`pgn_game_records`).

use super::pgn::{EngineScore, Game, Outcome, engine_score};
use super::selfplay::{self, SelfPlay};
use crate::chess::{Board, Color, Move, Piece, Setup, Square};
use crate::eval::{self, PAWN_VALUE};
use crate::search::MATE_BOUND;
use std::fmt;

/// Bytes of one record.
pub const RECORD_BYTES: usize = 32;
/// Most pieces a record holds (a legal position has at most 32).
const MAX_PIECES: usize = 32;

/// One training position: the pieces and the side to move, the search's score for the
/// side to move (centipawns) and the game's result from White's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Pieces by dense square index (`Square::index64`).
    pub pieces: Vec<(u8, Piece)>,
    /// Side to move.
    pub side: Color,
    /// Half-moves since the last capture or pawn move (at most 255).
    pub halfmove: u8,
    /// The search's score for the side to move, centipawns.
    pub score: i16,
    /// The result for White: 0 lost, 1 drawn, 2 won.
    pub result: u8,
}

/// Why bytes are not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// A piece code that is no piece, or more codes than occupied squares.
    BadPiece(u8),
    /// A side, result or reserved byte out of range.
    BadField(&'static str),
    /// The pieces do not make a legal position.
    Position(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::BadPiece(code) => write!(f, "bad piece code {code}"),
            RecordError::BadField(field) => write!(f, "bad {field}"),
            RecordError::Position(why) => write!(f, "not a position: {why}"),
        }
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// The record of `board` scored `score_cp` for the side to move, in a game that ended
    /// `outcome`.
    pub fn new(board: &Board, score_cp: i16, outcome: Outcome) -> Record {
        let pieces = Square::all()
            .filter_map(|sq| {
                let p = board.piece_at(sq);
                let index = u8::try_from(sq.index64()).expect("64 squares");
                (!p.is_empty()).then_some((index, p))
            })
            .collect();
        Record {
            pieces,
            side: board.side_to_move(),
            halfmove: u8::try_from(board.halfmove_clock()).unwrap_or(u8::MAX),
            score: score_cp,
            result: match outcome {
                Outcome::BlackWins => 0,
                Outcome::Draw => 1,
                Outcome::WhiteWins => 2,
            },
        }
    }

    /// The 32 bytes on disk, little-endian: occupancy by dense square (8), the pieces'
    /// codes four bits each in square order (16), the side to move (1), the half-move
    /// clock (1), the score (2), the result (1), three zero bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut bytes = [0u8; RECORD_BYTES];
        let mut occupancy = 0u64;
        for (i, &(square, piece)) in self.pieces.iter().take(MAX_PIECES).enumerate() {
            occupancy |= 1 << square;
            let code = u8::try_from(piece.index()).expect("piece codes are below 16");
            // Two codes a byte: even ones in the low half.
            bytes[8 + i / 2] |= code << (4 * (i % 2));
        }
        bytes[..8].copy_from_slice(&occupancy.to_le_bytes());
        bytes[24] = u8::from(self.side == Color::Black);
        bytes[25] = self.halfmove;
        bytes[26..28].copy_from_slice(&self.score.to_le_bytes());
        bytes[28] = self.result;
        bytes
    }

    /// Reads a record back (the inverse of `to_bytes`).
    pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> Result<Record, RecordError> {
        let occupancy = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
        let mut pieces = Vec::new();
        let squares = (0..64u8).filter(|&sq| occupancy & (1 << sq) != 0);
        for (i, square) in squares.enumerate() {
            let byte = *bytes
                .get(8 + i / 2)
                .ok_or(RecordError::BadField("occupancy"))?;
            let code = (byte >> (4 * (i % 2))) & 0x0f;
            let piece = piece_of_code(code).ok_or(RecordError::BadPiece(code))?;
            pieces.push((square, piece));
        }
        let side = match bytes[24] {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(RecordError::BadField("side to move")),
        };
        if bytes[28] > 2 {
            return Err(RecordError::BadField("result"));
        }
        if bytes[29..].iter().any(|&b| b != 0) {
            return Err(RecordError::BadField("reserved bytes"));
        }
        Ok(Record {
            pieces,
            side,
            halfmove: bytes[25],
            score: i16::from_le_bytes([bytes[26], bytes[27]]),
            result: bytes[28],
        })
    }

    /// The position (no castling rights, no e.p. square: an evaluation needs neither).
    pub fn board(&self) -> Result<Board, RecordError> {
        let mut setup = Setup {
            side: self.side,
            halfmove: u16::from(self.halfmove),
            ..Setup::default()
        };
        for &(index, piece) in &self.pieces {
            setup.set(Square::from_index64(usize::from(index)), Some(piece));
        }
        setup
            .into_board()
            .map_err(|e| RecordError::Position(e.to_string()))
    }
}

/// The piece a record's four-bit code stands for (`Piece::index` of a real piece).
fn piece_of_code(code: u8) -> Option<Piece> {
    crate::chess::PieceType::ALL.iter().find_map(|&kind| {
        [Color::White, Color::Black]
            .into_iter()
            .map(|color| Piece::new(color, kind))
            .find(|p| usize::from(code) == p.index())
    })
}

/// Whether the engine's view of `board` (best move `best`, score `score` for the side to
/// move) can teach a static evaluation: not in check, a quiet best move, no mate score.
fn teaches(board: &Board, best: Move, score: i32) -> bool {
    !board.in_check() && board.is_quiet(best) && score.abs() < MATE_BOUND
}

/// The score a record keeps for `board` when the engine's view of it (best move `best`,
/// score `score` in internal units for the side to move) can teach a static evaluation
/// (see `teaches`): `centipawns`, saturated to the record's 16 bits. Self-play games and
/// PGN games both keep their positions through it.
fn taught_score(board: &Board, best: Move, score: i32, centipawns: i32) -> Option<i16> {
    teaches(board, best, score).then(|| {
        i16::try_from(centipawns).unwrap_or(if centipawns > 0 { i16::MAX } else { i16::MIN })
    })
}

/// Centipawns in the search's internal units, exactly (`eval::from_centipawns` stops at a
/// queen's worth, which would let a score past the mate bound through `teaches`).
fn internal_units(centipawns: i32) -> i32 {
    let units = i64::from(centipawns) * i64::from(PAWN_VALUE) / 100;
    i32::try_from(units).unwrap_or(if units > 0 { i32::MAX } else { i32::MIN })
}

/// The records of self-play game number `index` (from 0) under `settings`.
pub fn game_records(settings: SelfPlay, index: u64) -> Vec<Record> {
    let mut kept: Vec<(Board, i16)> = Vec::new();
    let game = selfplay::play_game(settings, index, |board, best, score| {
        if let Some(cp) = taught_score(board, best, score, eval::to_centipawns(score)) {
            kept.push((board.clone(), cp));
        }
    });
    kept.iter()
        .map(|(board, cp)| Record::new(board, *cp, game.outcome))
        .collect()
}

/// The records of a game of a match runner's PGN: each position whose move carries the
/// engine's score in centipawns and can teach (the same filter as self-play's), with that
/// score and the game's result. The runners write the score from the mover's side, which
/// is the record's side to move, so it is kept as it is. Book moves (`{book}`), moves
/// without a score and mate scores give no record.
pub fn pgn_game_records(game: &Game) -> Vec<Record> {
    let mut board = game.start.clone();
    let mut records = Vec::new();
    for (&m, comment) in game.moves.iter().zip(&game.comments) {
        if let Some(EngineScore::Centipawns(cp)) = engine_score(comment)
            && let Some(score) = taught_score(&board, m, internal_units(cp), cp)
        {
            records.push(Record::new(&board, score, game.outcome));
        }
        board.make_move(m);
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions with every kind of piece, both sides to move, a long 50-move count.
    const POSITIONS: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 61 90",
    ];

    #[test]
    fn records_read_back_as_written() {
        for (i, fen) in POSITIONS.iter().enumerate() {
            let board = Board::from_fen(fen).unwrap();
            let outcome = [Outcome::WhiteWins, Outcome::Draw, Outcome::BlackWins][i];
            let record = Record::new(&board, -123 + i16::try_from(i).unwrap(), outcome);
            let back = Record::from_bytes(&record.to_bytes()).unwrap();
            assert_eq!(back, record, "{fen}");
            let placed = back.board().unwrap();
            let placement = |b: &Board| b.to_fen().split(' ').take(2).collect::<Vec<_>>().join(" ");
            assert_eq!(placement(&placed), placement(&board), "{fen}");
            assert_eq!(placed.halfmove_clock(), board.halfmove_clock());
        }
        let mut bad = Record::new(&Board::startpos(), 0, Outcome::Draw).to_bytes();
        bad[28] = 7;
        assert_eq!(
            Record::from_bytes(&bad),
            Err(RecordError::BadField("result"))
        );
    }

    /// tests/data/scored.pgn, written by hand as cutechess writes a match's games.
    const SCORED_GAMES: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/scored.pgn"
    ));

    /// The scored games' records: book moves, captures, a move without a score, a score
    /// past the mate bound, moves out of check, mate scores and the unfinished game give
    /// none; the others keep the mover's score as the side to move's, and the result.
    #[test]
    fn pgn_games_give_their_scored_quiet_positions() {
        let games = crate::learn::pgn::read_games(SCORED_GAMES);
        assert_eq!(games.len(), 2, "the unfinished game gives nothing");
        let records: Vec<Vec<Record>> = games.iter().map(pgn_game_records).collect();
        let scores = |records: &[Record]| records.iter().map(|r| r.score).collect::<Vec<_>>();
        let sides = |records: &[Record]| records.iter().map(|r| r.side).collect::<Vec<_>>();
        let (w, b) = (Color::White, Color::Black);
        // Nf3 Nc6 Bb5 a6 O-O d4 Bg4 Bh5 c4 (the captures, ...f6 without a score and h3
        // at +500.00 give none).
        assert_eq!(
            scores(&records[0]),
            [35, -20, 41, -18, 28, 0, -15, -60, 120]
        );
        assert_eq!(sides(&records[0]), [w, b, w, b, w, w, b, b, w]);
        assert!(records[0].iter().all(|r| r.result == 2), "1-0");
        // ...Ra2+ and ...Ra4 (White's moves out of check and the mate scores give none).
        assert_eq!(scores(&records[1]), [510, 530]);
        assert_eq!(sides(&records[1]), [b, b]);
        assert!(records[1].iter().all(|r| r.result == 0), "0-1");
        let placement = |r: &Record| {
            let fen = r.board().expect("a position").to_fen();
            fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
        };
        assert_eq!(
            placement(&records[0][0]),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w",
            "the position the move was played from, after the book's 1. e4 e5"
        );
        assert_eq!(placement(&records[1][1]), "8/3k4/8/8/8/2K5/r7/8 b");
        for record in records.iter().flatten() {
            let bytes = record.to_bytes();
            assert_eq!(Record::from_bytes(&bytes).as_ref(), Ok(record));
        }
    }

    /// A game's records: only positions a static evaluation can learn from, each with the
    /// game's result, the same for the same seed.
    #[test]
    fn a_games_records_keep_only_quiet_unmated_positions() {
        let settings = SelfPlay {
            nodes: 300,
            seed: 5,
            evaluation: crate::eval::Evaluation::Network,
        };
        let records = game_records(settings, 0);
        assert!(!records.is_empty());
        assert!(records.iter().all(|r| r.result == records[0].result));
        for record in &records {
            let board = record.board().unwrap();
            assert!(!board.in_check(), "{}", board.to_fen());
            assert!(i32::from(record.score).abs() < 20_000);
        }
        assert_eq!(game_records(settings, 0), records);
    }
}
