//! What a search thread learns that is still true at the next move of the same game:
//! the quiet-move histories, and the evaluations and pawn shapes it has computed.
//!
//! A search that starts from nothing orders its first thousands of nodes blind, and at a
//! tenth of a second a move that is a large part of the search. The game's searches
//! therefore hand these tables on, thread by thread, through a [`SearchMemory`] the game
//! owns beside its hash table and clears with it at a new game. The remembered
//! evaluations stay exact only for the evaluation that computed them, so the memory
//! forgets everything when a search evaluates with another network (or none).
//!
//! A request without a memory (`bench`, `epd`, data generation, tests) starts every
//! thread from empty tables, so its results depend on the request alone.

use super::eval_cache::EvalCache;
use super::history::History;
use crate::eval::PawnTable;
use crate::eval::nnue::Network;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};

/// One thread's tables (see the module docs).
pub struct ThreadMemory {
    pub(super) history: History,
    pub(super) eval_cache: EvalCache,
    pub(super) pawn_table: PawnTable,
}

impl ThreadMemory {
    /// Empty tables: no lessons, nothing remembered.
    pub fn new() -> ThreadMemory {
        ThreadMemory {
            history: History::new(),
            eval_cache: EvalCache::new(),
            pawn_table: PawnTable::new(),
        }
    }
}

impl Default for ThreadMemory {
    fn default() -> ThreadMemory {
        ThreadMemory::new()
    }
}

/// The tables of every thread of a game's searches, handed from one search to the next.
/// Shared behind an `Arc` by the game and the search running for it; only one search
/// uses it at a time (a second one at once gets empty tables of its own).
#[derive(Default)]
pub struct SearchMemory {
    kept: Mutex<Kept>,
    /// Set by [`SearchMemory::clear`]: the next search starts from empty tables. (A flag,
    /// so that clearing never waits for a running search to let go.)
    forget: AtomicBool,
}

/// What the memory holds between two searches.
#[derive(Default)]
struct Kept {
    /// The network the tables were filled with (`None`: the hand-written evaluation).
    /// Held, not just compared by address, so that the address cannot be reused by
    /// another network while the tables remember this one's scores.
    evaluation: Option<Arc<Network>>,
    /// By thread, 0 the main one; a slot is filled by its thread when first searched.
    threads: Vec<Option<ThreadMemory>>,
}

/// A search's hold on a memory: every thread's slot, for as long as the search runs.
pub(super) struct Held<'a> {
    kept: MutexGuard<'a, Kept>,
}

impl Held<'_> {
    /// Slots for `threads` threads (some may be empty: each thread fills its own).
    pub(super) fn slots(&mut self, threads: usize) -> &mut [Option<ThreadMemory>] {
        let slots = &mut self.kept.threads;
        if slots.len() < threads {
            slots.resize_with(threads, || None);
        }
        &mut slots[..threads]
    }
}

impl SearchMemory {
    /// A memory with nothing in it yet.
    pub fn new() -> SearchMemory {
        SearchMemory::default()
    }

    /// Forgets everything (a new game, `Clear Hash`): the next search starts from empty
    /// tables, whatever a search running now learns.
    pub fn clear(&self) {
        self.forget.store(true, Relaxed);
    }

    /// Whether the next search would start from empty tables (for tests).
    pub fn is_empty(&self) -> bool {
        self.forget.load(Relaxed) || self.lock().threads.iter().all(Option::is_none)
    }

    /// The memory for a search that evaluates with `network`, or `None` when another
    /// search holds it. Tables filled by another evaluation are dropped first.
    pub(super) fn hold(&self, network: Option<&Arc<Network>>) -> Option<Held<'_>> {
        let mut kept = match self.kept.try_lock() {
            Ok(kept) => kept,
            // A search that panicked left its tables half updated, which is still a
            // valid (if poorer) set of tables: histories and caches hold no invariant.
            Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => return None,
        };
        let same = match (&kept.evaluation, network) {
            (None, None) => true,
            (Some(kept), Some(now)) => Arc::ptr_eq(kept, now),
            _ => false,
        };
        if self.forget.swap(false, Relaxed) || !same {
            kept.threads.clear();
            kept.evaluation = network.cloned();
        }
        Some(Held { kept })
    }

    fn lock(&self) -> MutexGuard<'_, Kept> {
        self.kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl std::fmt::Debug for SearchMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchMemory").finish_non_exhaustive()
    }
}
