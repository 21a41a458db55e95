//! The search: iterative deepening at the root over a negamax alpha-beta with principal
//! variation windows, in micro-Max's line.
//!
//! Inside each node: repetitions (of the game, through the table's game positions, and of
//! the tree) and the 50-move rule score as draws; a node in check is searched one ply
//! deeper (micro-Max 4.7's check extension); the transposition table cuts or supplies the
//! first move; static-eval ("reverse futility") cuts and null move (R = 3, more for deep
//! nodes, 2 just above the leaves; never in check, twice in a row, or with only king and
//! pawns: micro-Max's zugzwang guard) prune what is clearly good enough; internal
//! iterative deepening finds a first move where the table has none, and optionally
//! deepens a cut move found there (the self-deepening of H.G. Muller's micro-Max 4
//! notes); a deep node's hash move that stands well above every alternative (a
//! shallower search without it shows none comes near its table score) is searched one
//! ply deeper, the singular extension of Anantharaman, Campbell and Hsu's Deep Thought,
//! and a node where an alternative already beats beta is cut; late quiet moves are
//! searched shallower and re-searched when they surprise; moves that cannot raise alpha
//! near the leaves are skipped (futility). The leaves are a
//! quiescence search over captures and promotions with stand-pat, skipping captures that
//! lose material. Mate scores count plies from the root, so the engine mates fastest and
//! is mated slowest.

use super::SearchControl;
use super::eval_cache::EvalCache;
use super::limits::Limits;
use super::ordering::{History, UnscoredMoves, capture_may_lose};
use super::request::SearchRequest;
use super::see::see;
use super::threads::{CompletedIteration, SharedSearch};
use super::tt::{Bound, Entry, PackedMove, Probe, TranspositionTable};
use crate::chess::{Board, Move, MoveList, PieceType};
use crate::eval::{self, PAWN_VALUE, PawnTable, piece_value};
use std::time::Duration;

/// Score of a mate delivered at the root; a mate `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Score of a draw for a side that neither seeks nor avoids it (contempt 0).
pub const DRAW: i32 = 0;
/// Plies the search can reach at most (iterations, extensions and quiescence included).
pub const MAX_PLY: usize = 128;
/// Scores beyond this are mates.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "MAX_PLY is 128"
)]
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
const INFINITY: i32 = MATE + 1;
/// Deepest iteration started.
pub const MAX_DEPTH: i32 = 100;
/// A mate in `n` plies is settled once an iteration this much deeper confirmed it.
const MATE_DEPTH_MARGIN: i32 = 2;

/// Nodes between two looks at the clock and the stop flag (about a millisecond).
const CHECK_INTERVAL: u64 = 1024;
/// Null move: searched `NULL_MOVE_REDUCTION + depth / NULL_MOVE_DEPTH_DIVISOR` plies
/// shallower (R = 3 at moderate depths, more deeper down; R = 2 right above the leaves).
const NULL_MOVE_REDUCTION: i32 = 3;
const NULL_MOVE_DEPTH_DIVISOR: i32 = 6;
/// Static-eval cut: at depth ≤ this, a static eval this far above beta (per ply) cuts.
const STATIC_CUT_DEPTH: i32 = 3;
const STATIC_CUT_MARGIN: i32 = PAWN_VALUE * 3 / 2;
/// Futility: quiet moves at depth ≤ 2 that leave eval + margin ≤ alpha are skipped.
const FUTILITY_MARGIN: [i32; 3] = [0, PAWN_VALUE * 2, PAWN_VALUE * 4];
/// Internal iterative deepening: a node this deep without a hash move first searches
/// `IID_REDUCTION` plies shallower.
const IID_MIN_DEPTH: i32 = 4;
const IID_REDUCTION: i32 = 2;
/// Late-move reductions: from this depth, quiet moves after the first few are reduced,
/// by about ln(depth)·ln(move number)/2.25 plies, at the root as everywhere else.
const LMR_MIN_DEPTH: i32 = 3;
const LMR_FIRST_MOVES: usize = 3;
/// Late-move pruning: at depth ≤ 3 outside the PV, quiet moves after this many are
/// skipped (they almost never matter so near the leaves).
const LATE_MOVE_COUNT: [usize; 4] = [0, 5, 8, 13];
/// Delta pruning in quiescence: a capture that cannot bring the score within this of
/// alpha is skipped.
const DELTA_MARGIN: i32 = PAWN_VALUE * 2;
/// The depth a quiescence result is stored with in the table: below every full-width
/// search, so only another quiescence search takes it as an answer.
const QUIESCENCE_DEPTH: i32 = 0;
/// Singular extension: at depth ≥ `SINGULAR_MIN_DEPTH`, a hash move whose table entry is
/// a lower or exact bound searched at least `depth - SINGULAR_TABLE_SLACK` deep is tested:
/// every other move is searched to half depth against the table score less
/// `SINGULAR_MARGIN` per ply. If none reaches it, the hash move alone holds the node and
/// is searched one ply deeper.
const SINGULAR_MIN_DEPTH: i32 = 8;
const SINGULAR_TABLE_SLACK: i32 = 3;
const SINGULAR_MARGIN: i32 = 2;
/// First half-width of the root window from depth `ASPIRATION_DEPTH` on.
const ASPIRATION_WINDOW: i32 = PAWN_VALUE / 3;
const ASPIRATION_DEPTH: i32 = 5;

/// Time: the soft deadline (when no new iteration starts) is stretched when the best
/// move has just changed and shrunk when it has stayed the same, by the number of
/// iterations it has stayed (0, 1, 2, 3, 4 or more), from this depth on.
const STABILITY_SCALE: [f64; 5] = [1.6, 1.2, 1.0, 0.85, 0.7];
const STABILITY_FROM_DEPTH: i32 = 4;
/// A score this much below the last iteration's stretches it again by this factor: the
/// position may be worse than it looked.
const SCORE_DROP: i32 = PAWN_VALUE / 3;
const SCORE_DROP_SCALE: f64 = 1.3;

/// A score as people read it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SearchScore {
    /// In centipawns, from the side to move's point of view.
    Centipawns(i32),
    /// Mate in this many plies: positive if the side to move mates, negative if mated.
    Mate(i32),
}

impl SearchScore {
    /// Reads an internal score (evaluation units, mates as `MATE - plies`).
    pub fn from_internal(score: i32) -> SearchScore {
        if score >= MATE_BOUND {
            SearchScore::Mate(MATE - score)
        } else if score <= -MATE_BOUND {
            SearchScore::Mate(-(MATE + score))
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
    /// The principal variation, its first move the best so far.
    pub pv: Vec<Move>,
}

/// What the search reports while it runs.
#[derive(Clone, Debug)]
pub enum Report {
    /// An iteration finished.
    Iteration(Info),
    /// The root found a new best move inside an iteration.
    NewBest(Info),
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
}

/// Largest `random` offset, in evaluation units (a few centipawns).
const NOISE_RANGE: u64 = 9;

/// What the move loop of a node is told about particular moves.
#[derive(Copy, Clone, Debug, Default)]
struct MoveHints {
    /// Searched first: the table's move, or the one internal iterative deepening found.
    hash_move: PackedMove,
    /// Not searched at all: the singular test asks how the node fares without it. Such a
    /// search leaves the table and the principal variation as they were.
    excluded: PackedMove,
    /// The first move is searched one ply deeper: it proved singular.
    extend_first: bool,
}

impl MoveHints {
    fn first(hash_move: PackedMove) -> MoveHints {
        MoveHints {
            hash_move,
            ..MoveHints::default()
        }
    }
}

/// What the singular test decided for a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Singular {
    /// Search the node as usual.
    No,
    /// Search the hash move one ply deeper.
    Extend,
    /// Even without the hash move some move beats beta: the node fails high with this.
    Cut(i32),
}

struct RootMove {
    mv: Move,
    score: i32,
}

/// A line the main thread reported: the search's answer if it ended at that moment.
#[derive(Clone, Debug)]
struct BestLine {
    score: i32,
    /// Starts with the best move.
    pv: Vec<Move>,
}

/// State of one search thread. Every thread of a search has its own board, killers,
/// history and principal variation; they share the table, the control and `shared`.
pub(super) struct Searcher<'a> {
    board: Board,
    tt: &'a TranspositionTable,
    control: &'a SearchControl,
    shared: &'a SharedSearch,
    limits: &'a Limits,
    options: SearchOptions,
    /// 0 for the main thread, which reports and decides when the search ends.
    thread: usize,
    nodes: u64,
    /// Nodes of a helper thread already added to `shared.helper_nodes`.
    published_nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Whether a stop by the clock, the node limit or `?` may end the search yet: not
    /// before the main thread has finished its first iteration (only an abort may).
    may_stop: bool,
    /// What the main thread last reported, and so what the search returns if it ends now.
    best: Option<BestLine>,
    /// Keys of the positions on the current path, by ply (for repetitions in the tree).
    path: [u64; MAX_PLY + 1],
    /// Ply just after the most recent null move on the path (0 if none): positions before
    /// a null move cannot be repeated by legal play.
    null_floor: usize,
    killers: [[Move; 2]; MAX_PLY + 1],
    history: History,
    /// Evaluations of positions this thread has seen.
    eval_cache: EvalCache,
    /// Pawn shapes this thread has seen, for the evaluation.
    pawn_table: PawnTable,
    /// Triangular principal-variation table.
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: Vec<RootMove>,
}

impl<'a> Searcher<'a> {
    /// Thread `thread` of the search `request` (0 is the main thread).
    pub(super) fn new(
        request: &'a SearchRequest,
        tt: &'a TranspositionTable,
        control: &'a SearchControl,
        shared: &'a SharedSearch,
        thread: usize,
    ) -> Searcher<'a> {
        let SearchRequest {
            board,
            limits,
            root_moves,
            options,
            ..
        } = request;
        let legal = board.legal_moves();
        let allowed: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| root_moves.as_ref().is_none_or(|r| r.contains(m)))
            .collect();
        let mut s = Searcher {
            board: board.clone(),
            tt,
            control,
            shared,
            limits,
            options: *options,
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
            history: History::new(),
            eval_cache: EvalCache::new(),
            pawn_table: PawnTable::new(),
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            root_moves: Vec::new(),
        };
        s.order_root_moves(&allowed);
        s
    }

    fn is_main(&self) -> bool {
        self.thread == 0
    }
}

/// The deepest iteration for a depth limit (`sd`): at least 1, at most `MAX_DEPTH`. A
/// limit beyond `i32` (`sd 2147483648`) is no limit, not a negative one.
fn iteration_limit(depth: u32) -> i32 {
    i32::try_from(depth).map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH))
}

impl Searcher<'_> {
    fn order_root_moves(&mut self, moves: &[Move]) {
        let hash_move = match self.tt.probe(self.board.key()) {
            Probe::Hit(e) => e.best_move,
            _ => PackedMove::NONE,
        };
        let mut unscored = UnscoredMoves::new();
        for &m in moves {
            unscored.list_mut().push(m);
        }
        let mut ordered =
            unscored.score_all(&self.board, hash_move, &[Move::NONE; 2], &self.history);
        while let Some(m) = ordered.next_move(&self.board) {
            self.root_moves.push(RootMove {
                mv: m,
                score: -INFINITY,
            });
        }
    }

    /// The main thread's search: iterative deepening with thinking output until a limit
    /// is reached or the search is stopped. It returns the line it reported last: the
    /// last finished iteration, or a better move the unfinished one found since.
    pub(super) fn run_main(&mut self, report: &mut dyn FnMut(&Report)) -> SearchResult {
        if self.root_moves.is_empty() {
            let score = if self.board.in_check() { -MATE } else { DRAW };
            return self.result_of(None, score, 0);
        }
        self.path[0] = self.board.key();
        let max_depth = self.limits.depth.map_or(MAX_DEPTH, iteration_limit);
        let mut score = 0;
        let mut completed_depth = 0;
        let mut stable_iterations = 0usize;
        for depth in 1..=max_depth {
            self.control.publish_depth(depth);
            let previous = (self.root_moves[0].mv, score);
            score = self.aspiration(depth, score, report);
            if self.stopped {
                // Only the lines already reported count (an unfinished iteration's first
                // move is the previous best, or a new best that was reported).
                break;
            }
            completed_depth = depth;
            self.may_stop = true;
            let info = self.info(depth, score);
            self.report_best(info, score, report, Report::Iteration);
            stable_iterations = if self.root_moves[0].mv == previous.0 {
                stable_iterations + 1
            } else {
                0
            };
            let time_scale = iteration_time_scale(depth, stable_iterations, score, previous.1);
            // With a single legal move and a clock running, there is nothing to choose
            // (asked each iteration: a ponder hit starts the clock mid-search).
            let forced = self.root_moves.len() == 1 && self.control.has_deadline();
            if forced
                || self.must_stop()
                || self.time_for_next_iteration_is_up(time_scale)
                || self.mate_is_settled(score, depth)
            {
                break;
            }
        }
        let best = self.best.take();
        self.result_of(best, score, completed_depth)
    }

    /// Reports `info` (with the internal `score` of its first move) and keeps it as the
    /// search's answer so far.
    fn report_best(
        &mut self,
        info: Info,
        score: i32,
        report: &mut dyn FnMut(&Report),
        kind: fn(Info) -> Report,
    ) {
        self.best = Some(BestLine {
            score,
            pv: info.pv.clone(),
        });
        report(&kind(info));
    }

    /// The search's result from its last reported line (`None` only without a legal
    /// move, or when aborted before the first report: then the first root move, which
    /// the caller drops).
    fn result_of(&self, best: Option<BestLine>, score: i32, completed_depth: i32) -> SearchResult {
        let (score, pv) = match best {
            Some(line) => (line.score, line.pv),
            None => (
                score,
                self.root_moves.first().map(|r| r.mv).into_iter().collect(),
            ),
        };
        let best_move = pv.first().copied().unwrap_or(Move::NONE);
        let ponder_move = pv
            .get(1)
            .copied()
            .or_else(|| ponder_from_table(self.tt, &self.board, best_move));
        SearchResult {
            best_move,
            ponder_move,
            score,
            depth: completed_depth,
            seldepth: plies(self.seldepth),
            // This thread's nodes: the caller adds the helpers' once they have all ended.
            nodes: self.nodes,
            elapsed: self.control.elapsed_wall(),
            pv,
        }
    }

    /// A helper thread's search: the same iterative deepening, silent, starting one ply
    /// deeper on odd threads so that the threads do not all search the same tree; every
    /// completed iteration is offered to the main thread. It ends when the main thread
    /// does.
    pub(super) fn run_helper(&mut self) {
        if self.root_moves.is_empty() {
            return;
        }
        self.path[0] = self.board.key();
        let max_depth = self.limits.depth.map_or(MAX_DEPTH, iteration_limit);
        let first_depth = 1 + i32::from(self.thread % 2 == 1);
        let mut score = 0;
        for depth in first_depth..=max_depth {
            score = self.aspiration(depth, score, &mut |_| {});
            if self.stopped {
                break;
            }
            let best_move = self.root_moves[0].mv;
            let pv = self.principal_variation();
            self.shared.offer(CompletedIteration {
                depth,
                score,
                best_move,
                pv,
            });
            if self.mate_is_settled(score, depth) {
                break;
            }
        }
        self.publish_helper_nodes();
    }

    /// Nodes of all threads of this search: exact for this thread, as last published for
    /// the helpers (so a single thread counts exactly, and `bench` stays deterministic).
    fn total_nodes(&self) -> u64 {
        if self.is_main() {
            self.nodes + self.shared.helper_nodes()
        } else {
            self.nodes
        }
    }

    fn publish_helper_nodes(&mut self) {
        self.shared
            .add_helper_nodes(self.nodes - self.published_nodes);
        self.published_nodes = self.nodes;
    }

    /// Searches the root with a narrow window around the last score, widening on failure.
    fn aspiration(&mut self, depth: i32, last: i32, report: &mut dyn FnMut(&Report)) -> i32 {
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH && last.abs() < MATE_BOUND {
            (last - delta, last + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.root(depth, alpha, beta, report);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 3;
            if delta > QUEEN_WINDOW {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn root(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        report: &mut dyn FnMut(&Report),
    ) -> i32 {
        self.pv_len[0] = 0;
        let mut best = -INFINITY;
        let total = self.root_moves.len();
        let in_check = self.board.in_check();
        for i in 0..total {
            let m = self.root_moves[i].mv;
            if self.is_main() {
                self.control.publish_root_move(i, total, m);
            }
            let quiet = self.board.is_quiet(m);
            let undo = self.board.make_move(m);
            self.path[1] = self.board.key();
            let child_depth = depth - 1;
            let mut score;
            if i == 0 {
                score = -self.negamax(child_depth, -beta, -alpha, 1, true);
            } else {
                // Late quiet root moves are tried shallower first, as inside the tree.
                let reduction = if may_reduce(depth, i, quiet, in_check, self.board.in_check()) {
                    late_move_reduction(depth, i, true)
                } else {
                    0
                };
                score = -self.negamax(child_depth - reduction, -alpha - 1, -alpha, 1, true);
                if score > alpha && reduction > 0 && !self.stopped {
                    score = -self.negamax(child_depth, -alpha - 1, -alpha, 1, true);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(child_depth, -beta, -alpha, 1, true);
                }
            }
            self.board.unmake_move(m, &undo);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
            }
            if score > alpha || i == 0 {
                self.root_moves[i].score = score;
                // Keep the list ordered: the new best goes first, the rest keep their order.
                let mv = self.root_moves.remove(i);
                self.root_moves.insert(0, mv);
                self.update_pv(0, m);
                if score > alpha {
                    alpha = score;
                }
                if i > 0 && depth > 1 && self.is_main() {
                    // A new best move (or one that beats the window: a lower bound) is
                    // reported at once, and is the answer if the search ends now. The
                    // first iteration always finishes, and reports once at its end.
                    let info = self.info(depth, score);
                    self.report_best(info, score, report, Report::NewBest);
                }
                if score >= beta {
                    break;
                }
            } else {
                self.root_moves[i].score = -INFINITY;
            }
        }
        best
    }

    fn negamax(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.poll_stop() {
            return DRAW;
        }
        self.nodes += 1;
        let is_pv = beta - alpha > 1;

        if self.is_repetition(ply) || self.returns_to_game_position(ply) {
            return self.draw_score(ply);
        }
        let in_check = self.board.in_check();
        if self.board.is_fifty_move_draw() {
            return if in_check && !self.board.has_legal_move() {
                -MATE + plies(ply)
            } else {
                self.draw_score(ply)
            };
        }
        // Mate-distance pruning: no line from here can beat a mate already found nearer
        // the root.
        alpha = alpha.max(-MATE + plies(ply));
        beta = beta.min(MATE - plies(ply) - 1);
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        // Check extension (micro-Max 4.7): a node in check is searched one ply deeper.
        let depth = if in_check { depth + 1 } else { depth };
        if depth <= 0 {
            return self.quiesce(alpha, beta, ply);
        }

        let key = self.board.key();
        let mut hash_move = PackedMove::NONE;
        // The entry that supplied the hash move, for the singular test.
        let mut table_entry = None;
        match self.tt.probe(key) {
            // A game position holds no search result; a real return to one was caught above.
            Probe::GamePosition => {}
            Probe::Hit(entry) => {
                hash_move = entry.best_move;
                table_entry = Some(entry);
                if !is_pv && entry.depth >= depth {
                    let score = score_from_table(entry.score, ply);
                    if answers(entry.bound, score, alpha, beta) {
                        return score;
                    }
                }
            }
            Probe::Miss => {}
        }

        let static_eval = if in_check { -INFINITY } else { self.evaluate() };
        if !is_pv && !in_check && beta.abs() < MATE_BOUND {
            if depth <= STATIC_CUT_DEPTH && static_eval - STATIC_CUT_MARGIN * depth >= beta {
                return static_eval;
            }
            if allow_null
                && depth >= 2
                && static_eval >= beta
                && self.board.non_pawn_pieces(self.board.side_to_move()) > 0
            {
                let reduction =
                    (NULL_MOVE_REDUCTION + depth / NULL_MOVE_DEPTH_DIVISOR).min(depth - 1);
                let undo = self.board.make_null();
                self.path[ply + 1] = self.board.key();
                let floor = std::mem::replace(&mut self.null_floor, ply + 1);
                let score = -self.negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1, false);
                self.null_floor = floor;
                self.board.unmake_null(&undo);
                if self.stopped {
                    return DRAW;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Internal iterative deepening: without a hash move, a shallower search first
        // finds one (and fills the table for the full-depth search).
        if hash_move.is_none() && depth >= IID_MIN_DEPTH {
            let shallow = depth - IID_REDUCTION;
            let (score, cut_move) = self.search_moves(
                shallow,
                alpha,
                beta,
                ply,
                in_check,
                static_eval,
                MoveHints::default(),
            );
            if self.stopped {
                return DRAW;
            }
            if self.options.self_deepening && score >= beta && !cut_move.is_none() {
                // micro-Max 4 ("the Future"): deepen the cut move alone to full depth; if
                // it still cuts, the node is done without searching its siblings again.
                let deepened = self.search_single(cut_move, depth, beta, ply);
                if self.stopped {
                    return DRAW;
                }
                if deepened >= beta {
                    self.tt.store(
                        key,
                        cut_move,
                        score_to_table(deepened, ply),
                        depth,
                        Bound::Lower,
                    );
                    return deepened;
                }
            }
            if let Probe::Hit(entry) = self.tt.probe(key) {
                hash_move = entry.best_move;
            }
        }

        let mut hints = MoveHints::first(hash_move);
        let singular = match table_entry {
            Some(entry) => self.singular(entry, depth, beta, ply, in_check, static_eval),
            None => Singular::No,
        };
        match singular {
            Singular::No => {}
            Singular::Extend => hints.extend_first = true,
            Singular::Cut(score) => return score,
        }
        if self.stopped {
            return DRAW;
        }
        let (score, _) = self.search_moves(depth, alpha, beta, ply, in_check, static_eval, hints);
        score
    }

    /// The singular test of a node at `depth` whose table `entry` supplied the hash move
    /// (see `SINGULAR_MIN_DEPTH`; a move found by internal iterative deepening is not
    /// tested): searches every move but the table's, shallower, with a null window below
    /// the table's score.
    fn singular(
        &mut self,
        entry: Entry,
        depth: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        static_eval: i32,
    ) -> Singular {
        if depth < SINGULAR_MIN_DEPTH {
            return Singular::No;
        }
        let table_score = score_from_table(entry.score, ply);
        if entry.best_move.is_none()
            || entry.bound == Bound::Upper
            || entry.depth < depth - SINGULAR_TABLE_SLACK
            || table_score.abs() >= MATE_BOUND
        {
            return Singular::No;
        }
        let singular_beta = table_score - SINGULAR_MARGIN * depth;
        let hints = MoveHints {
            excluded: entry.best_move,
            ..MoveHints::default()
        };
        let (score, _) = self.search_moves(
            depth / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            in_check,
            static_eval,
            hints,
        );
        if self.stopped {
            Singular::No
        } else if score < singular_beta {
            Singular::Extend
        } else if singular_beta >= beta {
            // Multi-cut: the hash move and another both reach beta.
            Singular::Cut(singular_beta)
        } else {
            Singular::No
        }
    }

    /// Searches one move to `depth` with a null window at `beta` (self-deepening).
    fn search_single(&mut self, m: Move, depth: i32, beta: i32, ply: usize) -> i32 {
        let undo = self.board.make_move(m);
        self.path[ply + 1] = self.board.key();
        let score = -self.negamax(depth - 1, -beta, -beta + 1, ply + 1, true);
        self.board.unmake_move(m, &undo);
        score
    }

    /// The move loop of a full-width node. Returns the score and the best move, and
    /// stores the result in the table.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        static_eval: i32,
        hints: MoveHints,
    ) -> (i32, Move) {
        let original_alpha = alpha;
        let is_pv = beta - alpha > 1;
        let mut unscored = UnscoredMoves::new();
        self.board.generate_legal(unscored.list_mut());
        if unscored.is_empty() {
            let score = if in_check {
                -MATE + plies(ply)
            } else {
                self.draw_score(ply)
            };
            return (score, Move::NONE);
        }
        let mut moves = unscored.score_all(
            &self.board,
            hints.hash_move,
            &self.killers[ply],
            &self.history,
        );
        let futile = !is_pv
            && !in_check
            && table_entry(&FUTILITY_MARGIN, depth)
                .is_some_and(|&margin| static_eval + margin <= alpha);

        let mut best = -INFINITY;
        let mut best_move = Move::NONE;
        let mut searched = 0usize;
        let mut quiets_tried = MoveList::new();
        while let Some(m) = moves.next_move(&self.board) {
            if hints.excluded.matches(m) {
                continue;
            }
            let quiet = self.board.is_quiet(m);
            let late = !is_pv
                && !in_check
                && table_entry(&LATE_MOVE_COUNT, depth).is_some_and(|&count| searched >= count);
            // A pruned move is never made: whether it checks is read off the board.
            if (futile || late) && quiet && searched > 0 && !self.board.gives_check(m) {
                continue;
            }
            let undo = self.board.make_move(m);
            let gives_check = self.board.in_check();
            self.path[ply + 1] = self.board.key();
            let mut score;
            if searched == 0 {
                let extension = i32::from(hints.extend_first);
                score = -self.negamax(depth - 1 + extension, -beta, -alpha, ply + 1, true);
            } else {
                let reduction = if may_reduce(depth, searched, quiet, in_check, gives_check)
                    && !self.killers[ply].contains(&m)
                {
                    late_move_reduction(depth, searched, is_pv)
                } else {
                    0
                };
                score = -self.negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, true);
                if score > alpha && reduction > 0 && !self.stopped {
                    score = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(depth - 1, -beta, -alpha, ply + 1, true);
                }
            }
            self.board.unmake_move(m, &undo);
            if self.stopped {
                return (DRAW, best_move);
            }
            searched += 1;
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if quiet {
                            self.record_cutoff(ply, m, depth, quiets_tried.as_slice());
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        if !hints.excluded.is_none() {
            // A search without the best move proves nothing about the node itself.
            self.pv_len[ply] = ply;
            return (best, best_move);
        }
        let bound = bound_of(best, original_alpha, beta);
        self.tt.store(
            self.board.key(),
            best_move,
            score_to_table(best, ply),
            depth,
            bound,
        );
        (best, best_move)
    }

    /// A quiet move cut: it becomes a killer of this ply, and its history rises while the
    /// quiet moves tried before it without success fall.
    fn record_cutoff(&mut self, ply: usize, m: Move, depth: i32, tried: &[Move]) {
        let killers = &mut self.killers[ply];
        if killers[0] != m {
            killers[1] = killers[0];
            killers[0] = m;
        }
        let side = self.board.side_to_move();
        self.history.reward(side, m, depth);
        for &other in tried {
            self.history.penalize(side, other, depth);
        }
    }

    /// Quiescence: only captures and promotions, with the static eval as the score
    /// of standing pat; in check, every evasion (so mates are seen).
    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.poll_stop() {
            return DRAW;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let key = self.board.key();
        // A result of an earlier quiescence search of this position (or of a deeper one)
        // answers this one when its bound allows. A quiescence result is stored only
        // where it displaces no deeper one of the same position.
        let mut may_store = true;
        match self.tt.probe(key) {
            Probe::GamePosition => may_store = false,
            Probe::Hit(entry) => {
                let score = score_from_table(entry.score, ply);
                if entry.depth >= QUIESCENCE_DEPTH && answers(entry.bound, score, alpha, beta) {
                    return score;
                }
                may_store = entry.depth <= QUIESCENCE_DEPTH;
            }
            Probe::Miss => {}
        }
        let original_alpha = alpha;
        let in_check = self.board.in_check();
        let mut unscored = UnscoredMoves::new();
        let stand_pat;
        if in_check {
            self.board.generate_legal(unscored.list_mut());
            if unscored.is_empty() {
                return -MATE + plies(ply);
            }
            stand_pat = -INFINITY;
        } else {
            stand_pat = self.evaluate();
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            self.board.generate_captures(unscored.list_mut());
        }
        let mut moves = unscored.score_captures(&self.board);
        let mut best = stand_pat;
        let mut best_move = Move::NONE;
        while let Some(m) = moves.next_move() {
            if !in_check {
                let gain = self.board.captured_kind(m).map_or(0, piece_value)
                    + m.promoted()
                        .map_or(0, |p| piece_value(p) - piece_value(PieceType::Pawn));
                if stand_pat + gain + DELTA_MARGIN <= alpha {
                    continue;
                }
                if capture_may_lose(&self.board, m) && see(&self.board, m) < 0 {
                    continue;
                }
            }
            let undo = self.board.make_move(m);
            let score = -self.quiesce(-beta, -alpha, ply + 1);
            self.board.unmake_move(m, &undo);
            if self.stopped {
                return DRAW;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if may_store {
            let bound = bound_of(best, original_alpha, beta);
            let score = score_to_table(best, ply);
            self.tt
                .store(key, best_move, score, QUIESCENCE_DEPTH, bound);
        }
        best
    }

    /// The value of a draw at `ply` for the side to move there: the root's side (even
    /// plies) counts it `contempt` below equal, its opponent as much above.
    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            DRAW - self.options.contempt
        } else {
            DRAW + self.options.contempt
        }
    }

    /// The static evaluation, with the `random` offset when one is asked for.
    #[inline]
    fn evaluate(&mut self) -> i32 {
        let pawn_table = &mut self.pawn_table;
        let score = self.eval_cache.evaluate(&self.board, |board| {
            eval::evaluate_cached(board, pawn_table)
        });
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

    /// Whether the position at `ply` repeats one earlier on the path (only positions since
    /// the last capture or pawn move, with the same side to move, can).
    fn is_repetition(&self, ply: usize) -> bool {
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
    fn returns_to_game_position(&self, ply: usize) -> bool {
        self.null_floor == 0
            && self.board.halfmove_clock() as usize >= ply
            && self.tt.probe(self.path[ply]) == Probe::GamePosition
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn principal_variation(&self) -> Vec<Move> {
        let mut pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
        // Keep only the legal prefix (a line cut by a stop may end in stale entries).
        let mut board = self.board.clone();
        let mut legal_len = 0;
        for &m in &pv {
            if !board.is_legal(m) {
                break;
            }
            board.make_move(m);
            legal_len += 1;
        }
        pv.truncate(legal_len);
        if pv.first() != Some(&self.root_moves[0].mv) {
            pv = vec![self.root_moves[0].mv];
        }
        pv
    }

    fn info(&self, depth: i32, score: i32) -> Info {
        Info {
            depth,
            seldepth: plies(self.seldepth),
            score: SearchScore::from_internal(score),
            elapsed: self.control.elapsed_wall(),
            nodes: self.total_nodes(),
            pv: self.principal_variation(),
        }
    }

    /// Every `CHECK_INTERVAL` nodes: stop flag, node limit, hard time limit.
    #[inline]
    fn poll_stop(&mut self) -> bool {
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
    fn must_stop(&self) -> bool {
        let nodes = self.total_nodes();
        self.control.stop_requested()
            || self.limits.nodes.is_some_and(|n| nodes >= n)
            || self.control.past_hard_deadline(nodes)
    }

    /// Whether to start no new iteration: the node limit is reached, or the soft
    /// deadline scaled by `time_scale` (the best move's stability, a falling score).
    fn time_for_next_iteration_is_up(&self, time_scale: f64) -> bool {
        let nodes = self.total_nodes();
        self.limits.nodes.is_some_and(|n| nodes >= n)
            || self.control.past_soft_deadline(nodes, time_scale)
    }

    /// A forced mate found with depth to spare will not change: deeper iterations only
    /// repeat it (in every mode: pondering and analysis would otherwise print the same
    /// mate up to the deepest iteration within milliseconds).
    fn mate_is_settled(&self, score: i32, depth: i32) -> bool {
        score.abs() >= MATE_BOUND && depth >= (MATE - score.abs()) + MATE_DEPTH_MARGIN
    }
}

const QUEEN_WINDOW: i32 = crate::eval::QUEEN_VALUE;

/// The reply the table expects after `best` is played on `board`, if it holds one.
pub(super) fn ponder_from_table(
    tt: &TranspositionTable,
    board: &Board,
    best: Move,
) -> Option<Move> {
    if best.is_none() {
        return None;
    }
    let mut board = board.clone();
    board.make_move(best);
    tt.best_move(&board)
}

/// How much to stretch (above 1) or shrink (below 1) the soft deadline after an
/// iteration at `depth`: by how many iterations the best move has stayed the same, and
/// more when the score fell from `previous_score`.
fn iteration_time_scale(
    depth: i32,
    stable_iterations: usize,
    score: i32,
    previous_score: i32,
) -> f64 {
    if depth < STABILITY_FROM_DEPTH {
        return 1.0;
    }
    let by_stability = STABILITY_SCALE[stable_iterations.min(STABILITY_SCALE.len() - 1)];
    let dropped = score < previous_score - SCORE_DROP;
    by_stability * if dropped { SCORE_DROP_SCALE } else { 1.0 }
}

/// Whether the `searched`-th move at `depth` may be searched shallower first: a quiet
/// move after the first few, neither an escape from check nor a check itself (those are
/// where tactics hide).
fn may_reduce(depth: i32, searched: usize, quiet: bool, in_check: bool, gives_check: bool) -> bool {
    depth >= LMR_MIN_DEPTH && searched >= LMR_FIRST_MOVES && quiet && !in_check && !gives_check
}

/// Plies by which the `searched`-th quiet move at `depth` is reduced: about
/// 0.75 + ln(depth)·ln(searched)/2.25, one less in PV nodes, leaving at least one ply.
fn late_move_reduction(depth: i32, searched: usize, is_pv: bool) -> i32 {
    static TABLE: std::sync::OnceLock<[[u8; 64]; 64]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                #[allow(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "between 0.75 and 8.6: fits a u8"
                )]
                let plies = (0.75 + (d as f64).ln() * (n as f64).ln() / 2.25) as u8;
                *r = plies;
            }
        }
        t
    });
    let row = usize::try_from(depth).unwrap_or(0).min(63);
    let r = i32::from(table[row][searched.min(63)]) - i32::from(is_pv);
    r.clamp(0, (depth - 2).max(0))
}

/// What a search's `best` score proves, searched with the window `alpha`..`beta`: a
/// lower bound when it reached beta, exact inside the window, an upper bound at or below
/// alpha.
fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// Whether a table score with `bound` settles a search with the window `alpha`..`beta`:
/// an exact score always, a lower bound at or above beta, an upper bound at or below alpha.
fn answers(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// Mate scores are stored relative to the node (distance to mate from there), so they
/// stay right when the same position is reached at another ply.
fn score_to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + plies(ply)
    } else if score <= -MATE_BOUND {
        score - plies(ply)
    } else {
        score
    }
}

fn score_from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - plies(ply)
    } else if score <= -MATE_BOUND {
        score + plies(ply)
    } else {
        score
    }
}

/// A ply count as a score offset. Plies stay below `MAX_PLY`, so the cast is exact.
#[inline]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "plies are at most MAX_PLY (128)"
)]
const fn plies(ply: usize) -> i32 {
    ply as i32
}

/// The entry of a per-depth table for `depth`, if the table reaches that deep.
#[inline]
fn table_entry<T>(table: &[T], depth: i32) -> Option<&T> {
    usize::try_from(depth).ok().and_then(|d| table.get(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Named positions for the singular test.
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    /// The queens face each other on the d-file and White moves: only Qxd5 keeps the
    /// queen (pawns on both sides keep mate out of reach of a short search).
    const QUEEN_TRADE_ON_OFFER: &str = "4k3/ppp5/8/3q4/3Q4/8/PPP5/4K3 w - - 0 1";

    /// Runs `test` on a one-thread searcher of `fen` whose table holds a full-width search
    /// of the root to `depth` plies, with that search's table entry for the root.
    fn with_searched_root<R>(
        fen: &str,
        depth: i32,
        test: impl FnOnce(&mut Searcher, Entry) -> R,
    ) -> R {
        let board = Board::from_fen(fen).expect("a named position is legal");
        let request = SearchRequest::new(board);
        let tt = TranspositionTable::new(16);
        let control = SearchControl::new();
        let shared = SharedSearch::default();
        let mut searcher = Searcher::new(&request, &tt, &control, &shared, 0);
        searcher.path[0] = searcher.board.key();
        let static_eval = searcher.evaluate();
        let (_, best) = searcher.search_moves(
            depth,
            -INFINITY,
            INFINITY,
            0,
            false,
            static_eval,
            MoveHints::default(),
        );
        assert!(!best.is_none());
        let Probe::Hit(entry) = tt.probe(searcher.board.key()) else {
            panic!("the root search stores its result");
        };
        assert!(entry.best_move.matches(best));
        test(&mut searcher, entry)
    }

    #[test]
    fn a_search_without_the_hash_move_finds_another_and_leaves_the_table_alone() {
        for fen in [START, QUEEN_TRADE_ON_OFFER] {
            with_searched_root(fen, 5, |searcher, entry| {
                let static_eval = searcher.evaluate();
                let hints = MoveHints {
                    excluded: entry.best_move,
                    ..MoveHints::default()
                };
                let (_, other) =
                    searcher.search_moves(4, -INFINITY, INFINITY, 0, false, static_eval, hints);
                assert!(searcher.board.is_legal(other), "{fen}: {other}");
                assert!(!entry.best_move.matches(other), "{fen}: {other}");
                assert_eq!(searcher.pv_len[0], 0, "{fen}: the line is left empty");
                let after = searcher.tt.probe(searcher.board.key());
                assert_eq!(after, Probe::Hit(entry), "{fen}");
            });
        }
    }

    #[test]
    fn only_a_move_far_better_than_every_other_is_singular() {
        // (position, beta of the node, whether the test extends, cuts or does nothing)
        let cases = [
            (QUEEN_TRADE_ON_OFFER, INFINITY, "extend"),
            (START, INFINITY, "no"),
            // Another move reaches the singular bound, and that bound is above beta.
            (START, -INFINITY, "cut"),
        ];
        for (fen, beta, expected) in cases {
            with_searched_root(fen, SINGULAR_MIN_DEPTH - 1, |searcher, entry| {
                let static_eval = searcher.evaluate();
                let verdict =
                    searcher.singular(entry, SINGULAR_MIN_DEPTH, beta, 0, false, static_eval);
                let table_score = score_from_table(entry.score, 0);
                let wanted = match expected {
                    "extend" => Singular::Extend,
                    "cut" => Singular::Cut(table_score - SINGULAR_MARGIN * SINGULAR_MIN_DEPTH),
                    _ => Singular::No,
                };
                assert_eq!(verdict, wanted, "{fen}");
            });
        }
    }

    /// 69 quiet moves for White, of which only Rb8 mates.
    const MANY_QUIETS_ONE_MATE: &str = "7k/6pp/2N1B3/8/BR6/4Q3/3N2K1/8 w - - 0 1";

    /// Every quiet move tried before a quiet cut loses history, however many there were.
    #[test]
    fn every_quiet_move_tried_before_a_cut_is_penalized() {
        let board = Board::from_fen(MANY_QUIETS_ONE_MATE).expect("a named position is legal");
        let mate = board.parse_move("b4b8").expect("legal");
        let request = SearchRequest::new(board.clone());
        let tt = TranspositionTable::new(1);
        let control = SearchControl::new();
        let shared = SharedSearch::default();
        let mut searcher = Searcher::new(&request, &tt, &control, &shared, 0);
        searcher.path[0] = board.key();
        // The mate is ordered last of all.
        searcher.history.penalize(board.side_to_move(), mate, 10);
        let static_eval = searcher.evaluate();
        let (score, best) = searcher.search_moves(
            1,
            0,
            MATE_BOUND,
            0,
            false,
            static_eval,
            MoveHints::default(),
        );
        assert_eq!((best, score >= MATE_BOUND), (mate, true));
        let moves = board.legal_moves();
        let others = moves.iter().filter(|&&m| m != mate);
        let spared: Vec<String> = others
            .filter(|&&m| searcher.history.get(board.side_to_move(), m) >= 0)
            .map(|m| m.to_string())
            .collect();
        assert!(
            moves.len() > 64 && spared.is_empty(),
            "not penalized: {spared:?}"
        );
    }

    /// A quiescence search keeps its result in the table, and the same search again is
    /// answered from there; a deeper entry whose bound does not answer it stays.
    #[test]
    fn quiescence_results_are_kept_without_displacing_deeper_ones() {
        let board = Board::from_fen(QUEEN_TRADE_ON_OFFER).expect("a named position is legal");
        let key = board.key();
        let qxd5 = board.parse_move("d4d5").expect("legal");
        let request = SearchRequest::new(board);
        let control = SearchControl::new();
        let shared = SharedSearch::default();

        let tt = TranspositionTable::new(16);
        let mut searcher = Searcher::new(&request, &tt, &control, &shared, 0);
        let score = searcher.quiesce(-INFINITY, INFINITY, 0);
        let Probe::Hit(entry) = tt.probe(key) else {
            panic!("the quiescence result is stored");
        };
        assert_eq!(
            (entry.depth, entry.bound, entry.score),
            (QUIESCENCE_DEPTH, Bound::Exact, score)
        );
        assert!(entry.best_move.matches(qxd5));
        let nodes = searcher.nodes;
        assert_eq!(searcher.quiesce(-INFINITY, INFINITY, 0), score);
        assert_eq!(searcher.nodes, nodes + 1, "answered by the table");

        let tt = TranspositionTable::new(16);
        let deep_depth = 5;
        tt.store(
            key,
            qxd5,
            -crate::eval::QUEEN_VALUE,
            deep_depth,
            Bound::Lower,
        );
        let Probe::Hit(deep) = tt.probe(key) else {
            panic!("stored");
        };
        let mut searcher = Searcher::new(&request, &tt, &control, &shared, 0);
        assert_eq!(searcher.quiesce(-INFINITY, INFINITY, 0), score);
        assert_eq!(tt.probe(key), Probe::Hit(deep), "the deeper entry stays");
    }

    #[test]
    fn a_shallow_node_is_never_tested() {
        with_searched_root(
            QUEEN_TRADE_ON_OFFER,
            SINGULAR_MIN_DEPTH - 1,
            |searcher, entry| {
                let static_eval = searcher.evaluate();
                let nodes = searcher.nodes;
                let verdict = searcher.singular(
                    entry,
                    SINGULAR_MIN_DEPTH - 1,
                    INFINITY,
                    0,
                    false,
                    static_eval,
                );
                assert_eq!(verdict, Singular::No);
                assert_eq!(searcher.nodes, nodes, "no search was made");
            },
        );
    }
}
