//! `ferrimax bench`: the bench positions (`chess::positions::BENCH`) searched to a fixed
//! depth. The total node count is the signature of the search (any change to search or
//! evaluation changes it, a pure speed-up does not); the speed is the engine's nodes per
//! second. The tests pin the signature with the same runner.

use crate::chess::{Board, positions::BENCH};
use crate::eval::nnue::Network;
use crate::search::{SearchControl, SearchOptions, SearchRequest, TranspositionTable, search};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 9;
/// Hash size for the bench when none is given (fresh for every position). The signature
/// is measured with it: a larger table changes what the search remembers, so the nodes.
pub const HASH_MB: usize = 16;

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
    run_threads(depth, options, 1, HASH_MB, None, per_position)
}

/// [`run`] with `threads` threads per search (the time it takes is then the parallel time
/// to depth, and the node count varies from run to run) and a table of `hash_mb` for each
/// position, evaluating with `network` when one is given. Many threads fill the bench's
/// 16 MB table within a second; a time-to-depth measurement at 8 or 16 threads wants one
/// the size a game would give them.
///
/// # Panics
/// When a table of `hash_mb` cannot be allocated (the command line checks that first).
pub fn run_threads(
    depth: u32,
    options: SearchOptions,
    threads: usize,
    hash_mb: usize,
    network: Option<Arc<Network>>,
    mut per_position: impl FnMut(usize, &str, u64),
) -> BenchResult {
    let mut total = 0;
    let start = Instant::now();
    for (i, fen) in BENCH.iter().enumerate() {
        let board = Board::from_fen(fen).expect("bench positions are valid");
        let tt = TranspositionTable::new(hash_mb);
        let request = SearchRequest::new(board)
            .depth(depth)
            .options(options)
            .threads(threads)
            .network(network.clone());
        let result = search(&request, &tt, &SearchControl::new(), &mut |_| {});
        total += result.nodes;
        per_position(i, fen, result.nodes);
    }
    BenchResult {
        nodes: total,
        elapsed: start.elapsed(),
    }
}
