//! What one search is asked to do: the position, its limits (depth, nodes, time), the
//! root moves allowed and the behaviour switches, gathered so that every caller (the
//! game, `bench`, tests) states them the same way.

use super::strength::Strength;
use super::thread_memory::SearchMemory;
use crate::chess::{Board, Move};
use crate::eval::nnue::Network;
use crate::tablebase::Tablebases;
use std::sync::Arc;
use std::time::Duration;

/// The clock as the GUI reports it when a search starts.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Clock {
    /// Time left on our clock (may be zero or even negative after a late move).
    pub remaining: Duration,
    /// Added after each of our moves.
    pub increment: Duration,
    /// Moves until the next time control adds time, if the control is conventional.
    pub moves_to_go: Option<u32>,
}

/// Limits of one search. Any combination may be set; the search stops at the first one
/// reached. With none set it runs until stopped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Stop after the iteration of this many plies (CECP `sd`).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (the `nps` node clock, hints, tests).
    pub nodes: Option<u64>,
    /// Fixed time for this move (CECP `st`): a hard cap.
    pub move_time: Option<Duration>,
    /// The game clock, from which a budget for this move is worked out.
    pub clock: Option<Clock>,
    /// Measure time in nodes at this rate instead of on the wall clock (CECP `nps`).
    pub nodes_per_second: Option<u64>,
    /// Return no move before this much time has passed (unless stopped): a limited
    /// strength, done in a moment, still takes a natural share of its clock.
    pub min_time: Option<Duration>,
    /// Stop once a mate in this many moves (or fewer) is found for the side to move
    /// (UCI `go mate`).
    pub mate: Option<u32>,
    /// Time kept back on every move for the pipe and the GUI (`Move Overhead`); the
    /// search's own `MOVE_OVERHEAD` when not given.
    pub overhead: Option<Duration>,
}

/// Behaviour switches, for measuring one scheme against another.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct SearchOptions {
    /// From H.G. Muller's micro-Max 4 pages ("the Future"): a move that fails high during
    /// internal iterative deepening is searched to full depth at once, instead of ending
    /// that shallow iteration.
    pub self_deepening: bool,
    /// CECP `random`: a small evaluation offset per position, drawn from this seed, so
    /// games vary while every evaluation stays a function of the position.
    pub noise_seed: Option<u64>,
    /// How much a draw by repetition, the 50-move rule or stalemate is worth less than
    /// an equal position to the side to move at the root (evaluation units; negative
    /// values make it seek draws).
    pub contempt: i32,
    /// Lines shown per iteration (multi-PV): the best root moves, each searched with its
    /// own full window; 0 and 1 both mean the best line alone.
    pub lines: usize,
    /// Play at this strength instead of full strength (`LimitStrength`, `Elo`).
    pub strength: Option<Strength>,
    /// How the endgame tablebases are used, when the request has them.
    pub tablebase: TablebaseUse,
}

/// How the search uses the endgame tablebases (`SyzygyProbeDepth`, `Syzygy50MoveRule`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TablebaseUse {
    /// Positions with as many pieces as the largest tables are probed only this many
    /// plies from the horizon or more (they are the most numerous, and the slowest to
    /// read); positions with fewer pieces always.
    pub probe_depth: i32,
    /// Count wins that the fifty-move rule spoils as draws (and losses it saves).
    pub rule50: bool,
}

impl Default for TablebaseUse {
    fn default() -> TablebaseUse {
        TablebaseUse {
            probe_depth: 1,
            rule50: true,
        }
    }
}

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
    /// Evaluate with this network instead of the hand-written evaluation.
    pub network: Option<Arc<Network>>,
    /// Endgame tablebases to probe, if any.
    pub tablebases: Option<Arc<Tablebases>>,
    /// The game's searches' tables, handed on from the last search to the next (none:
    /// every thread starts from empty tables).
    pub memory: Option<Arc<SearchMemory>>,
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
            network: None,
            tablebases: None,
            memory: None,
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

    /// Evaluates with `network`.
    pub fn network(mut self, network: Option<Arc<Network>>) -> SearchRequest {
        self.network = network;
        self
    }

    /// Hands `memory`'s tables to this search's threads, and theirs on to the next search.
    pub fn memory(mut self, memory: Option<Arc<SearchMemory>>) -> SearchRequest {
        self.memory = memory;
        self
    }

    /// Uses `options` instead of the defaults.
    pub fn options(mut self, options: SearchOptions) -> SearchRequest {
        self.options = options;
        self
    }
}
