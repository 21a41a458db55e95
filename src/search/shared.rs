//! What the threads of one search share besides the table and the control: the helpers'
//! node count, the flag that ends them, and the deepest iteration one of them finished.

use super::pv::BestLine;
use crate::tablebase::RootVerdict;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// An iteration a helper finished: its depth and its line (score and principal
/// variation, starting with the best move).
#[derive(Clone, Debug)]
pub struct CompletedIteration {
    pub depth: i32,
    pub line: BestLine,
}

/// What the threads of one search share besides the table and the control.
#[derive(Default)]
pub struct SharedSearch {
    /// Set when the main thread is done: the helpers stop.
    pub(super) helpers_stop: AtomicBool,
    /// Nodes searched by the helpers, as they last published them.
    helper_nodes: AtomicU64,
    /// The deepest iteration a helper completed.
    deepest: Mutex<Option<CompletedIteration>>,
    /// Positions found in the tablebases by all threads.
    tb_hits: AtomicU64,
    /// What the tablebases say of the root, when they know it.
    pub(super) root_tablebase: Option<RootVerdict>,
}

impl SharedSearch {
    /// What the threads of a search share, the root's tablebase verdict among it.
    pub(super) fn new(root_tablebase: Option<RootVerdict>) -> SharedSearch {
        SharedSearch {
            root_tablebase,
            ..SharedSearch::default()
        }
    }

    pub(super) fn helper_nodes(&self) -> u64 {
        self.helper_nodes.load(Relaxed)
    }

    pub(super) fn add_helper_nodes(&self, nodes: u64) {
        self.helper_nodes.fetch_add(nodes, Relaxed);
    }

    pub(super) fn count_tb_hit(&self) {
        self.tb_hits.fetch_add(1, Relaxed);
    }

    pub(super) fn tb_hits(&self) -> u64 {
        self.tb_hits.load(Relaxed)
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

    pub(super) fn take_deepest(&self) -> Option<CompletedIteration> {
        self.deepest
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }
}
