//! What a search answers: the result of the whole search, and the reports it sends while
//! it runs, with scores as people read them.

use super::score::{MATE, MATE_BOUND, TB_WIN, TB_WIN_BOUND};
use crate::chess::Move;
use crate::eval;
use std::time::Duration;

/// A score as people read it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SearchScore {
    /// In centipawns, from the side to move's point of view.
    Centipawns(i32),
    /// Mate in this many plies: positive if the side to move mates, negative if mated.
    Mate(i32),
    /// The endgame tablebases call it won (positive) or lost (negative), this many plies
    /// from a position they know; not a guess of the evaluation.
    Tablebase(i32),
}

impl SearchScore {
    /// Reads an internal score (evaluation units, mates as `MATE - plies`).
    pub fn from_internal(score: i32) -> SearchScore {
        if score >= MATE_BOUND {
            SearchScore::Mate(MATE - score)
        } else if score <= -MATE_BOUND {
            SearchScore::Mate(-(MATE + score))
        } else if score >= TB_WIN_BOUND {
            SearchScore::Tablebase(TB_WIN - score)
        } else if score <= -TB_WIN_BOUND {
            SearchScore::Tablebase(-(TB_WIN + score))
        } else {
            SearchScore::Centipawns(eval::to_centipawns(score))
        }
    }
}

/// Progress at one point of the search, for thinking output.
#[derive(Clone, Debug)]
pub struct Info {
    /// The iteration's nominal depth in plies.
    pub depth: i32,
    /// The deepest ply any line reached, quiescence included.
    pub seldepth: i32,
    /// The score of the best move, for the side to move at the root.
    pub score: SearchScore,
    /// Wall time since the search started.
    pub elapsed: Duration,
    /// Nodes searched so far by all threads.
    pub nodes: u64,
    /// Positions found in the endgame tablebases so far, by all threads.
    pub tbhits: u64,
    /// The principal variation, its first move the best so far.
    pub pv: Vec<Move>,
}

/// What the search reports while it runs. The search's result is always the line it
/// reported last, so a GUI never reads one move and sees another played.
#[derive(Clone, Debug)]
pub enum Report {
    /// An iteration finished.
    Iteration(Info),
    /// The root found a new best move inside an iteration (or one that beats the window,
    /// whose score is then a lower bound).
    NewBest(Info),
    /// With several lines asked for (multi-PV), the line of the next best root move of a
    /// finished iteration, sent after the iteration's own report, best first. Never the
    /// search's answer.
    OtherLine(Info),
}

impl Report {
    /// The line reported.
    pub fn info(&self) -> &Info {
        match self {
            Report::Iteration(info) | Report::NewBest(info) | Report::OtherLine(info) => info,
        }
    }
}

/// What a search returns.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Best move found; `Move::NONE` only when there is no legal move.
    pub best_move: Move,
    /// The reply the search expects (for pondering and `hint`).
    pub ponder_move: Option<Move>,
    /// The best move's score in internal units, for the side to move.
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: i32,
    /// The deepest ply reached.
    pub seldepth: i32,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Wall time the search took.
    pub elapsed: Duration,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
}
