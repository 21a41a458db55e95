//! Searching with several threads ("Lazy SMP"): every thread searches the same root with
//! its own killers, history and stacks, and all share the transposition table, so each
//! finds the others' results there and the search as a whole goes deeper in the same
//! time. Helper threads start one ply deeper on odd threads so they do not all walk the
//! same tree in step. The main thread reports, watches the clock and decides when the
//! search ends; the move played is the main thread's, or that of a helper that completed
//! a deeper iteration (reported before it is returned).

use super::control::SearchControl;
use super::request::SearchRequest;
use super::result::{Info, Report, SearchResult, SearchScore};
use super::searcher::Searcher;
use super::shared::{CompletedIteration, SharedSearch};
use super::thread_memory::ThreadMemory;
use super::time::Budget;
use super::tt::{Probe, TranspositionTable};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

/// Room for a search thread's recursion (its frames are large).
pub const SEARCH_STACK_BYTES: usize = 16 << 20;

/// Carries out `request` with `request.threads` threads and returns the best move. `tt`
/// holds the game's own positions (a return to one is a draw); the root is treated as
/// one of them for the length of the search if the caller has not entered it. `control`
/// stops the search and publishes its progress; `report` receives the main thread's
/// thinking output, with the nodes of all threads. The request's memory, if any, lends
/// each thread the tables the game's last search left and keeps what this one learns. No
/// thread outlives the call.
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
    let root_tablebase = request
        .tablebases
        .as_deref()
        .and_then(|tables| tables.root(&request.board, request.options.tablebase.rule50));
    let shared = SharedSearch::new(root_tablebase);
    let threads = request.threads.max(1);
    // The game's tables if it has them and no other search holds them; else empty ones,
    // made by each thread for itself.
    let mut held = request
        .memory
        .as_deref()
        .and_then(|memory| memory.hold(request.network.as_ref()));
    let mut own_slots = Vec::new();
    let slots = match &mut held {
        Some(held) => held.slots(threads),
        None => {
            own_slots.resize_with(threads, || None);
            &mut own_slots[..]
        }
    };
    let (main_slot, helper_slots) = slots.split_first_mut().expect("at least one thread");
    let mut result = std::thread::scope(|scope| {
        for (thread, slot) in (1..).zip(helper_slots.iter_mut()) {
            let shared = &shared;
            let spawned = std::thread::Builder::new()
                .name(format!("search-{thread}"))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut silent = |_: &Report| {};
                    let memory = slot.get_or_insert_with(ThreadMemory::new);
                    Searcher::new(request, tt, control, shared, thread, memory, &mut silent)
                        .run_helper();
                });
            if let Err(e) = spawned {
                log::warn!("search thread {thread} not started: {e}");
                break;
            }
        }
        let memory = main_slot.get_or_insert_with(ThreadMemory::new);
        let result =
            Searcher::new(request, tt, control, &shared, 0, memory, &mut *report).run_main();
        shared.helpers_stop.store(true, Relaxed);
        result
    });
    drop(held);
    // Every helper has ended and published its last nodes.
    result.nodes += shared.helper_nodes();
    control.publish_nodes(result.nodes);
    // A level plays the line it chose, never a helper's.
    let adoptable = request.options.strength.is_none();
    if let Some(deeper) = shared
        .take_deepest()
        .filter(|d| adoptable && d.depth > result.depth)
    {
        adopt(&mut result, deeper, tt, request);
        // The move played is always that of the last line reported.
        report(&Report::Iteration(Info {
            depth: result.depth,
            seldepth: result.seldepth,
            score: SearchScore::from_internal(result.score),
            elapsed: control.elapsed_wall(),
            nodes: result.nodes,
            tbhits: shared.tb_hits(),
            pv: result.pv.clone(),
        }));
    }
    if root_entered {
        tt.remove_game_position(root_key);
    }
    result
}

/// Makes a helper's deeper iteration the result: its move, score and line, and the reply
/// it expects.
fn adopt(
    result: &mut SearchResult,
    deeper: CompletedIteration,
    tt: &TranspositionTable,
    request: &SearchRequest,
) {
    result.best_move = deeper.line.best_move();
    result.ponder_move = deeper.line.expected_reply(&request.board, tt);
    result.score = deeper.line.score;
    result.depth = deeper.depth;
    result.pv = deeper.line.pv;
}
