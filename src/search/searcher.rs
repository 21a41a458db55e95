//! One search thread's state, and what every node asks of it: the evaluation (with the
//! `random` offset), the value of a draw (contempt), repetitions on the path and of the
//! game, and whether the search must stop.
//!
//! Every thread of a search has its own board, killers, history, caches and principal
//! variation; the threads share the table, the control and [`SharedSearch`]. The rooms
//! that search with this state add their own `impl` blocks: `iterate` (iterative
//! deepening at the root), `node` (the move loop, root and interior), `quiesce`.

use super::control::SearchControl;
use super::eval_cache::EvalCache;
use super::history::{History, MoveContext, QuietContext};
use super::ordering::UnscoredMoves;
use super::params::{CHECK_INTERVAL, NOISE_RANGE};
use super::pv::{BestLine, PvTable};
use super::request::{Limits, SearchOptions, SearchRequest};
use super::result::Report;
use super::score::{DRAW, INFINITY, MAX_PLY, score_to_table};
use super::shared::SharedSearch;
use super::thread_memory::ThreadMemory;
use super::tt::{Bound, PackedMove, Probe, TranspositionTable};
use crate::chess::{Board, Move, Undo};
use crate::eval::nnue::{Accumulator, Network, PieceChanges};
use crate::eval::{self, PawnTable};
use crate::tablebase::Tablebases;

/// Where the main thread sends its thinking output; helpers send nothing.
pub type Reporter<'a> = &'a mut dyn FnMut(&Report);

/// State of one search thread (see the module docs).
pub struct Searcher<'a> {
    pub(super) board: Board,
    pub(super) tt: &'a TranspositionTable,
    pub(super) control: &'a SearchControl,
    pub(super) shared: &'a SharedSearch,
    pub(super) limits: &'a Limits,
    pub(super) options: SearchOptions,
    pub(super) report: Reporter<'a>,
    /// 0 for the main thread, which reports and decides when the search ends.
    thread: usize,
    pub(super) nodes: u64,
    /// Nodes of a helper thread already added to `shared.helper_nodes`.
    published_nodes: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    /// Whether a stop by the clock, the node limit or `?` may end the search yet: not
    /// before the main thread has finished its first iteration (only an abort may).
    pub(super) may_stop: bool,
    /// What the main thread last reported, and so what the search returns if it ends now.
    pub(super) best: Option<BestLine>,
    /// Keys of the positions on the current path, by ply (for repetitions in the tree).
    pub(super) path: [u64; MAX_PLY + 1],
    /// Ply just after the most recent null move on the path (0 if none): positions before
    /// a null move cannot be repeated by legal play.
    pub(super) null_floor: usize,
    pub(super) killers: [[Move; 2]; MAX_PLY + 1],
    pub(super) history: &'a mut History,
    /// The move made at each ply of the current path (`NONE` for a null move), for
    /// continuation history.
    moved: [MoveContext; MAX_PLY + 1],
    /// Whether the side to move at each ply is in check, where the move loop that made
    /// the move has already looked (`None` elsewhere): the node need not look again.
    pub(super) known_check: [Option<bool>; MAX_PLY + 1],
    /// The static evaluation of each ply on the current path (`-INFINITY` where its side
    /// was in check), for whether a side's position is improving.
    pub(super) static_evals: [i32; MAX_PLY + 1],
    /// Evaluations of positions this thread has seen.
    eval_cache: &'a mut EvalCache,
    /// Pawn shapes this thread has seen, for the evaluation.
    pawn_table: &'a mut PawnTable,
    pub(super) pv: PvTable,
    /// The root moves searched, best first: each iteration's new best moves to the front.
    pub(super) root_moves: Vec<Move>,
    /// The first root move the current pass searches: 0, or with several lines asked for,
    /// the number of better lines already found in this iteration.
    pub(super) root_start: usize,
    /// Lines searched per iteration: the multi-PV asked for, or a level's candidates.
    pub(super) lines: usize,
    /// The network this search evaluates with (none: the hand-written evaluation), and
    /// each ply's accumulators, the root's first.
    network: Option<&'a Network>,
    accumulators: Vec<Accumulator>,
    /// The node limit: the request's, or a level's if lower.
    node_limit: Option<u64>,
    /// The endgame tablebases, if the request has them.
    pub(super) tablebases: Option<&'a Tablebases>,
}

impl<'a> Searcher<'a> {
    /// Thread `thread` of the search `request` (0 is the main thread), with the tables of
    /// `memory`, reporting to `report`.
    pub fn new(
        request: &'a SearchRequest,
        tt: &'a TranspositionTable,
        control: &'a SearchControl,
        shared: &'a SharedSearch,
        thread: usize,
        memory: &'a mut ThreadMemory,
        report: Reporter<'a>,
    ) -> Searcher<'a> {
        let ThreadMemory {
            history,
            eval_cache,
            pawn_table,
        } = memory;
        let SearchRequest {
            board,
            limits,
            options,
            ..
        } = request;
        let network = request.network.as_deref();
        // Room for every ply's accumulators; without it, the hand-written evaluation.
        let accumulators = network.and_then(|net| {
            let root = net.accumulate(board);
            let mut stack = Vec::new();
            stack.try_reserve_exact(MAX_PLY + 1).ok()?;
            stack.resize(MAX_PLY + 1, root);
            Some(stack)
        });
        let mut s = Searcher {
            network: network.filter(|_| accumulators.is_some()),
            accumulators: accumulators.unwrap_or_default(),
            board: board.clone(),
            tt,
            control,
            shared,
            limits,
            options: *options,
            report,
            thread,
            nodes: 0,
            published_nodes: 0,
            seldepth: 0,
            stopped: false,
            may_stop: thread != 0,
            best: None,
            path: [0; MAX_PLY + 1],
            null_floor: 0,
            killers: [[Move::NONE; 2]; MAX_PLY + 1],
            history,
            moved: [MoveContext::NONE; MAX_PLY + 1],
            known_check: [None; MAX_PLY + 1],
            static_evals: [-INFINITY; MAX_PLY + 1],
            eval_cache,
            pawn_table,
            pv: PvTable::new(),
            root_moves: Vec::new(),
            root_start: 0,
            lines: options
                .lines
                .max(options.strength.map_or(1, |s| s.candidates())),
            node_limit: match (limits.nodes, options.strength) {
                (Some(n), Some(level)) => Some(n.min(level.nodes())),
                (n, level) => n.or(level.map(|l| l.nodes())),
            },
            tablebases: request.tablebases.as_deref(),
        };
        s.root_moves = s.ordered_root_moves(request.root_moves.as_deref());
        // With the root in the tablebases, only the moves that keep its result are
        // searched (unless the caller's own choice leaves none of them).
        if let Some(verdict) = &shared.root_tablebase {
            let keeps: Vec<Move> = s
                .root_moves
                .iter()
                .copied()
                .filter(|m| verdict.moves.contains(m))
                .collect();
            if !keeps.is_empty() {
                s.root_moves = keeps;
            }
        }
        s
    }

    /// The legal root moves (only those of `allowed`, when given), in the move picker's
    /// order with the table's move first.
    fn ordered_root_moves(&self, allowed: Option<&[Move]>) -> Vec<Move> {
        let hash_move = match self.tt.probe(self.board.key()) {
            Probe::Hit(e) => e.best_move,
            _ => PackedMove::NONE,
        };
        let mut unscored = UnscoredMoves::new();
        for &m in self.board.legal_moves().iter() {
            if allowed.is_none_or(|a| a.contains(&m)) {
                unscored.list_mut().push(m);
            }
        }
        let context = QuietContext::root(self.board.side_to_move());
        let mut ordered = unscored.score_all(
            &self.board,
            hash_move,
            &[Move::NONE; 2],
            self.history,
            &context,
        );
        std::iter::from_fn(|| ordered.next_move(&self.board)).collect()
    }

    pub(super) fn is_main(&self) -> bool {
        self.thread == 0
    }

    /// Whether this thread starts its iterations one ply deeper than the main thread, so
    /// that the threads do not all walk the same tree in step.
    pub(super) fn starts_deeper(&self) -> bool {
        self.thread % 2 == 1
    }

    /// Nodes of all threads of this search: exact for this thread, as last published for
    /// the helpers (so a single thread counts exactly, and `bench` stays deterministic).
    pub(super) fn total_nodes(&self) -> u64 {
        if self.is_main() {
            self.nodes + self.shared.helper_nodes()
        } else {
            self.nodes
        }
    }

    pub(super) fn publish_helper_nodes(&mut self) {
        self.shared
            .add_helper_nodes(self.nodes - self.published_nodes);
        self.published_nodes = self.nodes;
    }

    /// The value of a draw at `ply` for the side to move there: the root's side (even
    /// plies) counts it `contempt` below equal, its opponent as much above.
    #[inline]
    pub(super) fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            DRAW - self.options.contempt
        } else {
            DRAW + self.options.contempt
        }
    }

    /// Makes `m` at `ply`, the next ply's accumulators (with a network) following it.
    #[inline]
    pub(super) fn make(&mut self, ply: usize, m: Move) -> Undo {
        self.moved[ply] = MoveContext::of(&self.board, m);
        let update = self
            .network
            .map(|net| (net, PieceChanges::of(&self.board, m)));
        let undo = self.board.make_move(m);
        // The child's table bucket is fetched while the accumulators are updated.
        self.tt.prefetch(self.board.key());
        if let Some((net, changes)) = update {
            let (done, next) = self.accumulators.split_at_mut(ply + 1);
            net.apply(&done[ply], &changes, &self.board, &mut next[0]);
        }
        undo
    }

    /// Passes the move at `ply` (null move): the pieces, and so the accumulators, stay.
    #[inline]
    pub(super) fn make_null(&mut self, ply: usize) -> Undo {
        self.moved[ply] = MoveContext::NONE;
        let undo = self.board.make_null();
        // As in `make`: the fetch overlaps the accumulators' copy.
        self.tt.prefetch(self.board.key());
        if let Some(net) = self.network {
            let (done, next) = self.accumulators.split_at_mut(ply + 1);
            net.apply(&done[ply], &PieceChanges::NONE, &self.board, &mut next[0]);
        }
        undo
    }

    /// The move last made at `ply`, as continuation history sees it.
    #[inline]
    pub(super) fn moved(&self, ply: usize) -> MoveContext {
        self.moved[ply]
    }

    /// What the quiet moves at `ply` are judged by: the side to move and the two moves
    /// that led here (none before the root).
    #[inline]
    pub(super) fn quiet_context(&self, ply: usize) -> QuietContext {
        let before = |back: usize| {
            ply.checked_sub(back)
                .map_or(MoveContext::NONE, |p| self.moved[p])
        };
        QuietContext {
            side: self.board.side_to_move(),
            previous: [before(1), before(2)],
        }
    }

    /// The static evaluation of the position at `ply`, with the `random` offset when one
    /// is asked for.
    #[inline]
    pub(super) fn evaluate(&mut self, ply: usize) -> i32 {
        let score = match self.network {
            Some(net) => {
                let acc = &self.accumulators[ply];
                debug_assert_eq!(acc, &net.accumulate(&self.board), "ply {ply}");
                self.eval_cache.evaluate(&self.board, |board| {
                    eval::from_network(board, net.evaluate(acc, board))
                })
            }
            None => {
                let pawn_table = &mut self.pawn_table;
                self.eval_cache.evaluate(&self.board, |board| {
                    eval::evaluate_cached(board, pawn_table)
                })
            }
        };
        match self.options.noise_seed {
            None => score,
            Some(seed) => {
                // A multiplicative hash of key and seed, folded to -4..=4.
                let mixed = (self.board.key() ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                #[allow(clippy::cast_possible_truncation, reason = "below NOISE_RANGE")]
                let noise = ((mixed >> 59) % NOISE_RANGE) as i32 - (NOISE_RANGE / 2) as i32;
                score + noise
            }
        }
    }

    /// Stores the current position's result in the shared table: `score` as found at
    /// `ply`, kept in the table's form (mate distances counted from this position, so that
    /// the entry reads right wherever the position comes up again).
    pub(super) fn store_result(
        &self,
        best_move: Move,
        score: i32,
        ply: usize,
        depth: i32,
        bound: Bound,
    ) {
        let stored = score_to_table(score, ply);
        self.tt
            .store(self.board.key(), best_move, stored, depth, bound);
    }

    /// Whether the position at `ply` repeats one earlier on the path (only positions since
    /// the last capture or pawn move, with the same side to move, can).
    pub(super) fn is_repetition(&self, ply: usize) -> bool {
        let key = self.path[ply];
        let reachable = (self.board.halfmove_clock() as usize).min(ply - self.null_floor);
        (2..=reachable)
            .step_by(2)
            .any(|back| self.path[ply - back] == key)
    }

    /// Whether the position at `ply` is one of the game's own positions, which the game
    /// manager keeps in the table: a return to one is a repetition. Checked before the
    /// horizon too, so a repetition on the last ply is seen. Only possible while no capture
    /// or pawn move has been made since the root, and not below a null move, whose path
    /// contains a pretend pass.
    pub(super) fn returns_to_game_position(&self, ply: usize) -> bool {
        self.null_floor == 0
            && self.board.halfmove_clock() as usize >= ply
            && self.tt.probe(self.path[ply]) == Probe::GamePosition
    }

    /// Every `CHECK_INTERVAL` nodes: whether to stop (an abort; once the first iteration
    /// is done, `stop`, the node limit or the hard deadline; for a helper, the main
    /// thread's end).
    #[inline]
    pub(super) fn poll_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.stopped = if self.is_main() {
                self.control.publish_nodes(self.total_nodes());
                self.control.abort_requested() || (self.may_stop && self.must_stop())
            } else {
                self.publish_helper_nodes();
                self.control.stop_requested() || self.shared.helpers_must_stop()
            };
        }
        self.stopped
    }

    /// Whether the main thread must end the search: `stop`, the node limit, the hard
    /// deadline.
    pub(super) fn must_stop(&self) -> bool {
        let nodes = self.total_nodes();
        self.control.stop_requested()
            || self.node_limit.is_some_and(|n| nodes >= n)
            || self.control.past_hard_deadline(nodes)
    }

    /// Whether to start no new iteration: the node limit is reached, or the soft
    /// deadline scaled by `time_scale` (the best move's stability, a falling score).
    pub(super) fn time_for_next_iteration_is_up(&self, time_scale: f64) -> bool {
        let nodes = self.total_nodes();
        self.node_limit.is_some_and(|n| nodes >= n)
            || self.control.past_soft_deadline(nodes, time_scale)
    }
}

/// Runs `test` on a lone, silent main thread of `request` over `tt`, with empty tables:
/// the unit tests of the search's parts start from there.
#[cfg(test)]
pub(super) fn with_test_searcher<R>(
    request: &SearchRequest,
    tt: &TranspositionTable,
    test: impl FnOnce(&mut Searcher<'_>) -> R,
) -> R {
    let control = SearchControl::new();
    let shared = SharedSearch::default();
    let mut memory = ThreadMemory::new();
    let mut silent = |_: &Report| {};
    let mut searcher = Searcher::new(request, tt, &control, &shared, 0, &mut memory, &mut silent);
    test(&mut searcher)
}
