//! Searching with several threads ("Lazy SMP"): every thread searches the same root with
//! its own killers, history and stacks, and all share the transposition table, so each
//! finds the others' results there and the search as a whole goes deeper in the same
//! time. Helper threads start one ply deeper on odd threads so they do not all walk the
//! same tree in step. The main thread reports, watches the clock and decides when the
//! search ends; the move played is the main thread's, or that of a helper that completed
//! a deeper iteration.

use super::limits::Budget;
use super::negamax::{SearchResult, Searcher, ponder_from_table};
use super::request::SearchRequest;
use super::tt::{Probe, TranspositionTable};
use super::{Info, Report, SearchControl, SearchScore};
use crate::chess::Move;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// Room for a search thread's recursion (its frames are large).
pub const SEARCH_STACK_BYTES: usize = 16 << 20;

/// An iteration a helper finished: its depth, score, best move and principal variation.
#[derive(Clone, Debug)]
pub(super) struct CompletedIteration {
    pub depth: i32,
    pub score: i32,
    pub best_move: Move,
    pub pv: Vec<Move>,
}

/// What the threads of one search share besides the table and the control.
#[derive(Default)]
pub(super) struct SharedSearch {
    /// Set when the main thread is done: the helpers stop.
    helpers_stop: AtomicBool,
    /// Nodes searched by the helpers, as they last published them.
    helper_nodes: AtomicU64,
    /// The deepest iteration a helper completed.
    deepest: Mutex<Option<CompletedIteration>>,
}

impl SharedSearch {
    pub(super) fn helper_nodes(&self) -> u64 {
        self.helper_nodes.load(Relaxed)
    }

    pub(super) fn add_helper_nodes(&self, nodes: u64) {
        self.helper_nodes.fetch_add(nodes, Relaxed);
    }

    pub(super) fn helpers_must_stop(&self) -> bool {
        self.helpers_stop.load(Relaxed)
    }

    /// Keeps `iteration` if it is deeper than any a helper offered before.
    pub(super) fn offer(&self, iteration: CompletedIteration) {
        let mut deepest = self.deepest.lock().unwrap_or_else(|p| p.into_inner());
        if deepest.as_ref().is_none_or(|d| iteration.depth > d.depth) {
            *deepest = Some(iteration);
        }
    }

    fn take_deepest(&self) -> Option<CompletedIteration> {
        self.deepest
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }
}

/// Carries out `request` with `request.threads` threads and returns the best move. `tt`
/// holds the game's own positions (a return to one is a draw); the root is treated as
/// one of them for the length of the search if the caller has not entered it. `control`
/// stops the search and publishes its progress; `report` receives the main thread's
/// thinking output, with the nodes of all threads. No thread outlives the call.
pub fn search(
    request: &SearchRequest,
    tt: &TranspositionTable,
    control: &SearchControl,
    report: &mut dyn FnMut(&Report),
) -> SearchResult {
    let root_key = request.board.key();
    let root_entered = tt.probe(root_key) != Probe::GamePosition;
    if root_entered {
        tt.insert_game_position(root_key);
    }
    if let Some(budget) = Budget::for_limits(&request.limits) {
        control.set_deadlines(Duration::ZERO, budget);
    }
    control.set_nodes_per_second(request.limits.nodes_per_second);
    tt.new_search();
    let shared = SharedSearch::default();
    let mut result = std::thread::scope(|scope| {
        for thread in 1..request.threads.max(1) {
            let shared = &shared;
            let spawned = std::thread::Builder::new()
                .name(format!("search-{thread}"))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    Searcher::new(request, tt, control, shared, thread).run_helper();
                });
            if let Err(e) = spawned {
                log::warn!("search thread {thread} not started: {e}");
                break;
            }
        }
        let result = Searcher::new(request, tt, control, &shared, 0).run_main(report);
        shared.helpers_stop.store(true, Relaxed);
        result
    });
    // Every helper has ended and published its last nodes.
    result.nodes += shared.helper_nodes();
    control.publish_nodes(result.nodes);
    if let Some(deeper) = shared.take_deepest().filter(|d| d.depth > result.depth) {
        adopt(&mut result, deeper, tt, request);
        // The move played is always that of the last line reported.
        report(&Report::Iteration(Info {
            depth: result.depth,
            seldepth: result.seldepth,
            score: SearchScore::from_internal(result.score),
            elapsed: control.elapsed_wall(),
            nodes: result.nodes,
            pv: result.pv.clone(),
        }));
    }
    if root_entered {
        tt.remove_game_position(root_key);
    }
    result
}

/// Makes a helper's deeper iteration the result: its move, score and line, and the reply
/// it expects (from the line, or else from the table).
fn adopt(
    result: &mut SearchResult,
    deeper: CompletedIteration,
    tt: &TranspositionTable,
    request: &SearchRequest,
) {
    result.best_move = deeper.best_move;
    result.score = deeper.score;
    result.depth = deeper.depth;
    result.pv = deeper.pv;
    result.ponder_move = result
        .pv
        .get(1)
        .copied()
        .or_else(|| ponder_from_table(tt, &request.board, result.best_move));
}
