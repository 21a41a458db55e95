//! What one search is asked to do: the position, its limits, the root moves allowed and
//! the behaviour switches, gathered so that every caller (the game, `bench`, tests)
//! states them the same way.

use super::limits::Limits;
use super::negamax::SearchOptions;
use crate::chess::{Board, Move};

/// One search's task. Built with [`SearchRequest::new`] and the chained setters; the
/// defaults search without any limit, over every legal move.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// The root position. The search treats it as a position of the game (a return to it
    /// is a repetition) even when the caller has not entered it in the table.
    pub board: Board,
    /// When to stop; by default only when told to.
    pub limits: Limits,
    /// The root moves considered, if not all (CECP `exclude`/`include`).
    pub root_moves: Option<Vec<Move>>,
    /// Behaviour switches: self-deepening, evaluation noise, contempt.
    pub options: SearchOptions,
    /// Threads searching at once (at least one).
    pub threads: usize,
}

impl SearchRequest {
    /// A search of `board` with no limit, over all legal moves, with default options.
    pub fn new(board: Board) -> SearchRequest {
        SearchRequest {
            board,
            limits: Limits::default(),
            root_moves: None,
            options: SearchOptions::default(),
            threads: 1,
        }
    }

    /// Searches with `threads` threads sharing the table (Lazy SMP).
    pub fn threads(mut self, threads: usize) -> SearchRequest {
        self.threads = threads.max(1);
        self
    }

    /// Bounds the search by `limits`.
    pub fn limits(mut self, limits: Limits) -> SearchRequest {
        self.limits = limits;
        self
    }

    /// Stops after the iteration of `depth` plies.
    pub fn depth(mut self, depth: u32) -> SearchRequest {
        self.limits.depth = Some(depth);
        self
    }

    /// Considers only `moves` at the root.
    pub fn root_moves(mut self, moves: Vec<Move>) -> SearchRequest {
        self.root_moves = Some(moves);
        self
    }

    /// Uses `options` instead of the defaults.
    pub fn options(mut self, options: SearchOptions) -> SearchRequest {
        self.options = options;
        self
    }
}
