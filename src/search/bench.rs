//! `ferrimax bench`: a fixed set of positions searched to a fixed depth. The total node
//! count is the signature of the search (any change to search or evaluation changes it, a
//! pure speed-up does not); the speed is the engine's nodes per second.

use super::{SearchControl, SearchOptions, SearchRequest, TranspositionTable, search};
use crate::chess::Board;
use std::time::{Duration, Instant};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 9;
/// Hash size for the bench (fresh for every position).
pub const HASH_MB: usize = 16;

/// Openings, middlegames (Bratko-Kopec), tactical test positions and endgames, including
/// Coulom's four pawn races.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp1nbppp/3p1n2/3pp3/2P1P3/2N1BP2/PP1Q2PP/R3KBNR w KQ - 0 9",
    "r1bqr1k1/ppp2ppp/2n2n2/3pp3/2P5/2BP1NP1/PP2PPBP/R2QK2R w KQ - 0 9",
    "r1bq1rk1/pppnbppp/3p1n2/8/8/2PB1N1P/PP1P1PP1/RNBQ1RK1 w - - 0 9",
    "r1b1k2r/p1qpbppp/2p1p1n1/2p3N1/4P3/3P4/PPP1QPPP/RNB2RK1 w kq - 0 9",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - 0 1",
    "r4k2/pb2bp1r/1p1qp2p/3pNp2/3P1P2/2N3P1/PPP1Q2P/2KRR3 w - - 0 1",
    "3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - - 0 1",
    "r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - - 0 1",
    "8/1p3p2/p7/8/7P/P3k3/2R1b1K1/8 w - - 0 1",
    "8/8/2p5/1pp5/p7/P1PPk2P/2R1b1K1/8 w - - 0 1",
    "2bk4/5p2/2R5/8/p1K1pP1P/8/8/8 w - - 0 1",
    "8/3ppp2/8/1p6/8/k2PPP2/b2R3P/3K4 w - - 0 1",
    "8/5p2/2k3p1/7p/7P/4K1P1/5P2/8 w - - 0 1",
    "6k1/5pp1/8/8/8/8/5PP1/3R2K1 w - - 0 1",
    "8/8/1p1k4/8/2PK4/8/8/8 w - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1",
    "2r3k1/5pp1/8/8/8/8/5PP1/2R3K1 b - - 0 1",
];

/// Totals of a bench run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes of all positions: the search's signature.
    pub nodes: u64,
    /// Wall-clock time of the whole run, table allocations included.
    pub elapsed: Duration,
}

impl BenchResult {
    /// Speed over the whole run.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "float-to-integer `as` saturates, and the quotient is positive"
    )]
    pub fn nodes_per_second(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` with one thread, each with a fresh table,
/// calling `per_position` after each. The node count is the search's signature.
pub fn run(
    depth: u32,
    options: SearchOptions,
    per_position: impl FnMut(usize, &str, u64),
) -> BenchResult {
    run_threads(depth, options, 1, per_position)
}

/// [`run`] with `threads` threads per search: the time it takes is the parallel time to
/// depth (the node count then varies from run to run).
pub fn run_threads(
    depth: u32,
    options: SearchOptions,
    threads: usize,
    mut per_position: impl FnMut(usize, &str, u64),
) -> BenchResult {
    let mut total = 0;
    let start = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let board = Board::from_fen(fen).expect("bench positions are valid");
        let tt = TranspositionTable::new(HASH_MB);
        let request = SearchRequest::new(board)
            .depth(depth)
            .options(options)
            .threads(threads);
        let result = search(&request, &tt, &SearchControl::new(), &mut |_| {});
        total += result.nodes;
        per_position(i, fen, result.nodes);
    }
    BenchResult {
        nodes: total,
        elapsed: start.elapsed(),
    }
}
