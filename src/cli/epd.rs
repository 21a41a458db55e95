//! `ferrimax epd FILE`: runs a test suite of positions in EPD form, each with the best
//! move (`bm`) or moves to avoid (`am`) in SAN, and counts the positions solved.
//!
//! An EPD line is a FEN without the move counters, then operations separated by `;`:
//! `r1b...q - - bm Nf6+; id "BK.01";`. A position is solved when the engine's move is
//! one of the `bm` moves and none of the `am` moves.

use super::progress::Progress;
use crate::chess::{Board, Move};
use crate::eval::nnue::Network;
use crate::search::{self, Limits, SearchControl, SearchRequest, TranspositionTable};
use std::sync::Arc;
use std::time::Duration;

/// Table size for each position's search (fresh each time, so results do not depend on
/// the order of the suite).
const HASH_MB: usize = 64;

/// One position of a suite.
#[derive(Debug, Clone)]
pub struct EpdPosition {
    /// The `id` operation, or the line number.
    pub id: String,
    /// The position to search.
    pub board: Board,
    /// Moves that solve it (`bm`); empty when only `am` is given.
    pub best: Vec<Move>,
    /// Moves that fail it (`am`).
    pub avoid: Vec<Move>,
}

impl EpdPosition {
    /// Whether `m` solves the position.
    pub fn is_solved_by(&self, m: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
    }
}

/// Reads one EPD line (line `number` of its file). Blank lines and `#` comments give
/// `Ok(None)`.
pub fn parse_line(line: &str, number: usize) -> Result<Option<EpdPosition>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.splitn(5, ' ').collect();
    let [placement, side, castling, en_passant, rest] = fields[..] else {
        return Err(format!("line {number}: fewer than four FEN fields"));
    };
    let fen = format!("{placement} {side} {castling} {en_passant} 0 1");
    let board = Board::from_fen(&fen).map_err(|e| format!("line {number}: {e}"))?;
    let mut position = EpdPosition {
        id: format!("line {number}"),
        board,
        best: Vec::new(),
        avoid: Vec::new(),
    };
    for operation in rest.split(';').map(str::trim).filter(|op| !op.is_empty()) {
        let (opcode, operands) = operation.split_once(' ').unwrap_or((operation, ""));
        match opcode {
            "bm" | "am" => {
                let mut moves = Vec::new();
                for san in operands.split_whitespace() {
                    let m = position
                        .board
                        .parse_san(san)
                        .map_err(|e| format!("line {number}: {opcode} {san}: {e:?}"))?;
                    moves.push(m);
                }
                if opcode == "bm" {
                    position.best = moves;
                } else {
                    position.avoid = moves;
                }
            }
            "id" => position.id = operands.trim_matches('"').to_string(),
            _ => {}
        }
    }
    if position.best.is_empty() && position.avoid.is_empty() {
        return Err(format!("line {number}: neither bm nor am"));
    }
    Ok(Some(position))
}

/// How long each position is searched.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Budget {
    /// This long per position (`--time`).
    Time(Duration),
    /// To this depth (`--depth`).
    Depth(u32),
    /// This many nodes (`--nodes`).
    Nodes(u64),
}

impl Budget {
    fn limits(self) -> Limits {
        match self {
            Budget::Time(time) => Limits {
                move_time: Some(time),
                ..Limits::default()
            },
            Budget::Depth(depth) => Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            Budget::Nodes(nodes) => Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
        }
    }
}

/// Searches each position within `budget` and prints one line per position, then the
/// total solved; progress goes to stderr. Evaluates with `network` (none: by hand).
/// Returns how many were solved.
pub fn run_suite(
    positions: &[EpdPosition],
    budget: Budget,
    threads: usize,
    network: Option<Arc<Network>>,
) -> usize {
    let mut progress = Progress::new("epd", positions.len());
    let mut solved = 0;
    for (i, position) in positions.iter().enumerate() {
        let request = SearchRequest::new(position.board.clone())
            .limits(budget.limits())
            .threads(threads)
            .network(network.clone());
        let table = TranspositionTable::new(HASH_MB);
        let result = search::search(&request, &table, &SearchControl::new(), &mut |_| {});
        let ok = position.is_solved_by(result.best_move);
        solved += usize::from(ok);
        let san = |m: &Move| position.board.san(*m);
        let wanted = if position.best.is_empty() {
            format!(
                "am {}",
                position.avoid.iter().map(san).collect::<Vec<_>>().join(" ")
            )
        } else {
            format!(
                "bm {}",
                position.best.iter().map(san).collect::<Vec<_>>().join(" ")
            )
        };
        println!(
            "{} {}: played {}, {wanted}",
            if ok { "solved" } else { "failed" },
            position.id,
            san(&result.best_move)
        );
        progress.show(i + 1, &format!("solved {solved}"));
    }
    progress.finish();
    println!("solved {solved} of {}", positions.len());
    solved
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines_are_read_with_their_operations() {
        let line = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; id \"scholar\";";
        let position = parse_line(line, 1).unwrap().unwrap();
        assert_eq!(position.id, "scholar");
        assert_eq!(position.best.len(), 1);
        assert!(position.is_solved_by(position.best[0]));
        let avoid = "4k3/8/8/8/8/8/8/R3K3 w Q - am Ra8+; id \"x\"";
        let position = parse_line(avoid, 2).unwrap().unwrap();
        assert!(!position.is_solved_by(position.avoid[0]));
        assert!(parse_line("  # a comment", 3).unwrap().is_none());
        let cases = [
            ("8/8/8 w", "fewer than four"),
            (
                "4k3/8/8/8/8/8/8/R3K3 w Q - id \"no moves\";",
                "neither bm nor am",
            ),
            ("4k3/8/8/8/8/8/8/R3K3 w Q - bm Qh5;", "bm Qh5"),
        ];
        for (line, error) in cases {
            let got = parse_line(line, 4).unwrap_err();
            assert!(got.contains(error), "{line}: {got}");
        }
    }
}
