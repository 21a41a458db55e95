//! What a running search shares with the thread that started it: the stop and abort
//! flags, the deadlines (which a ponder hit moves), the node clock's rate, and the
//! progress that `stat01` reads.

use super::time::{Budget, node_clock_elapsed};
use crate::chess::Move;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// No deadline.
const NEVER: u64 = u64::MAX;

/// Shared between a running search and the thread that started it.
pub struct SearchControl {
    start: Instant,
    stop: AtomicBool,
    /// The caller will not use the result: stop even before the first iteration is done.
    abort: AtomicBool,
    /// Deadlines in milliseconds since `start` (`NEVER` = none).
    soft_ms: AtomicU64,
    hard_ms: AtomicU64,
    /// Node rate of the CECP `nps` node clock, 0 for the wall clock.
    nodes_per_second: AtomicU64,
    nodes: AtomicU64,
    depth: AtomicU32,
    root_index: AtomicU32,
    root_total: AtomicU32,
    root_move: AtomicU32,
}

impl SearchControl {
    /// A control whose clock starts now, with no deadline.
    pub fn new() -> SearchControl {
        SearchControl {
            start: Instant::now(),
            stop: AtomicBool::new(false),
            abort: AtomicBool::new(false),
            soft_ms: AtomicU64::new(NEVER),
            hard_ms: AtomicU64::new(NEVER),
            nodes_per_second: AtomicU64::new(0),
            nodes: AtomicU64::new(0),
            depth: AtomicU32::new(0),
            root_index: AtomicU32::new(0),
            root_total: AtomicU32::new(0),
            root_move: AtomicU32::new(0),
        }
    }

    /// Asks the search to stop as soon as it can and return its best move so far. That
    /// move is always a searched one: a search stopped this way (or by its clock) still
    /// finishes its first iteration, which takes microseconds.
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
    }

    /// Stops the search at once, first iteration or not: for a caller that drops the
    /// result (the game moved on), which then may be a move never searched.
    pub fn abort(&self) {
        self.abort.store(true, Relaxed);
        self.stop.store(true, Relaxed);
    }

    /// Whether `stop` (or `abort`) was called.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// Whether `abort` was called.
    pub fn abort_requested(&self) -> bool {
        self.abort.load(Relaxed)
    }

    /// Sets the deadlines to `budget` counted from `from` (time since the search started):
    /// the search sets its own at the start; a ponder hit sets them from the moment of the
    /// hit.
    pub fn set_deadlines(&self, from: Duration, budget: Budget) {
        let ms = |d: Duration| {
            let millis = from.saturating_add(d).as_millis();
            u64::try_from(millis).unwrap_or(NEVER - 1).min(NEVER - 1)
        };
        self.soft_ms.store(ms(budget.soft), Relaxed);
        self.hard_ms.store(ms(budget.hard), Relaxed);
    }

    /// Whether a time limit applies (not in analysis or an untimed ponder search).
    pub fn has_deadline(&self) -> bool {
        self.hard_ms.load(Relaxed) != NEVER
    }

    pub(super) fn set_nodes_per_second(&self, rate: Option<u64>) {
        self.nodes_per_second.store(rate.unwrap_or(0), Relaxed);
    }

    /// Wall time since the search started.
    pub fn elapsed_wall(&self) -> Duration {
        self.start.elapsed()
    }

    /// Time since the start by the clock the search runs on: the wall clock, or the node
    /// clock when a node rate is set.
    pub fn elapsed(&self, nodes: u64) -> Duration {
        match self.nodes_per_second.load(Relaxed) {
            0 => self.start.elapsed(),
            rate => node_clock_elapsed(nodes, rate),
        }
    }

    pub(super) fn past_hard_deadline(&self, nodes: u64) -> bool {
        let hard = self.hard_ms.load(Relaxed);
        hard != NEVER && self.elapsed(nodes).as_millis() >= u128::from(hard)
    }

    /// Whether the soft deadline, stretched or shrunk by `scale`, has passed.
    pub(super) fn past_soft_deadline(&self, nodes: u64, scale: f64) -> bool {
        let soft = self.soft_ms.load(Relaxed);
        #[allow(
            clippy::cast_precision_loss,
            reason = "milliseconds: exact far beyond a game"
        )]
        let scaled = soft as f64 * scale;
        soft != NEVER && self.elapsed(nodes).as_secs_f64() * 1000.0 >= scaled
    }

    pub(super) fn publish_nodes(&self, nodes: u64) {
        self.nodes.store(nodes, Relaxed);
    }

    pub(super) fn publish_depth(&self, depth: i32) {
        self.depth.store(depth.unsigned_abs(), Relaxed);
    }

    pub(super) fn publish_root_move(&self, index: usize, total: usize, m: Move) {
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        self.root_index.store(count(index), Relaxed);
        self.root_total.store(count(total), Relaxed);
        self.root_move.store(m.bits(), Relaxed);
    }

    /// Progress as of the last publication (about every millisecond).
    pub fn progress(&self) -> Progress {
        let index = self.root_index.load(Relaxed);
        let total = self.root_total.load(Relaxed);
        Progress {
            elapsed: self.start.elapsed(),
            nodes: self.nodes.load(Relaxed),
            depth: self.depth.load(Relaxed),
            moves_left: total.saturating_sub(index + 1),
            moves_total: total,
            current_move: Move::from_bits(self.root_move.load(Relaxed)),
        }
    }
}

impl Default for SearchControl {
    fn default() -> Self {
        Self::new()
    }
}

/// Snapshot of a running search (CECP `stat01`).
#[derive(Copy, Clone, Debug)]
pub struct Progress {
    /// Wall time since the search started.
    pub elapsed: Duration,
    /// Nodes of all threads, as last published (about every millisecond).
    pub nodes: u64,
    /// The iteration being searched.
    pub depth: u32,
    /// Root moves still to search in this iteration.
    pub moves_left: u32,
    /// Root moves in all.
    pub moves_total: u32,
    /// The root move being searched (`Move::NONE` before the first).
    pub current_move: Move,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_beyond_any_clock_saturate() {
        let control = SearchControl::new();
        let forever = Budget {
            soft: Duration::MAX,
            hard: Duration::MAX,
        };
        control.set_deadlines(Duration::from_secs(1), forever);
        assert!(control.has_deadline());
        assert!(!control.past_hard_deadline(0));
        assert!(!control.past_soft_deadline(0, 1.0));
    }

    /// The soft deadline scales: shrunk, it has passed; stretched, not yet.
    #[test]
    fn the_soft_deadline_scales() {
        let control = SearchControl::new();
        let budget = Budget {
            soft: Duration::from_millis(100),
            hard: Duration::from_secs(10),
        };
        // The soft deadline is 100 ms after the start; 60 ms have passed.
        control.set_deadlines(Duration::ZERO, budget);
        std::thread::sleep(Duration::from_millis(60));
        assert!(control.past_soft_deadline(0, 0.5));
        assert!(!control.past_soft_deadline(0, 10.0));
    }
}
