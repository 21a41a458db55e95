//! The full-width search: negamax alpha-beta with principal-variation windows, in
//! micro-Max's line. One move loop serves the root and every interior node (`ROOT` as a
//! const generic), so the principal-variation search of a move and its re-searches are
//! written once; the root differs only in where its moves come from and what it does
//! with a new best move. `docs/ARCHITECTURE.md` lists what a node tries before its moves.

use super::history::QuietContext;
use super::ordering::{UnscoredMoves, capture_may_lose};
use super::params::*;
use super::result::Report;
use super::score::{
    DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, TB_WIN, answers, bound_of, plies, score_from_table,
};
use super::searcher::Searcher;
use super::see::see_at_least;
use super::tt::{Bound, Entry, PackedMove, Probe};
use crate::chess::{Board, Move, MoveList};
use crate::tablebase::Wdl;

/// The move loop's node kinds.
const ROOT: bool = true;
const INTERIOR: bool = false;

/// What the move loop of a node is told about particular moves.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct MoveHints {
    /// Searched first: the table's move, or the one self-deepening's shallow search found.
    pub(super) hash_move: PackedMove,
    /// Not searched at all: the singular test asks how the node fares without it. Such a
    /// search leaves the table and the principal variation as they were.
    pub(super) excluded: PackedMove,
    /// The first move is searched one ply deeper: it proved singular.
    pub(super) extend_first: bool,
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
pub(super) enum Singular {
    /// Search the node as usual.
    No,
    /// Search the hash move one ply deeper.
    Extend,
    /// Even without the hash move some move beats beta: the node fails high with this.
    Cut(i32),
}

/// What self-deepening's shallow search left a node with.
enum Deepened {
    /// The node is done with this score (a deepened move still cut, or the search stopped).
    Cut(i32),
    /// Search the node's moves, this one first.
    HashMove(PackedMove),
}

impl Searcher<'_> {
    /// The root searched to `depth` with the window `alpha`..`beta`: every root move in
    /// the order of the last iteration. A move that raises alpha goes to the front of
    /// the list and, after the first iteration, is reported at once. Returns the best
    /// score (meaningless when the search was stopped).
    pub(super) fn search_root(&mut self, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.pv.clear(0);
        let in_check = self.board.in_check();
        self.static_evals[0] = if in_check {
            -INFINITY
        } else {
            self.evaluate(0)
        };
        let hints = MoveHints::default();
        self.search_moves::<ROOT>(depth, alpha, beta, 0, in_check, -INFINITY, hints)
            .0
    }

    /// An interior node at `ply`, to search `depth` plies deep with the window
    /// `alpha`..`beta` (see the module docs for what it tries before its moves).
    pub(super) fn negamax(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        self.pv.clear(ply);
        if self.poll_stop() {
            return DRAW;
        }
        self.nodes += 1;
        let is_pv = beta - alpha > 1;

        if self.is_repetition(ply) || self.returns_to_game_position(ply) {
            return self.draw_score(ply);
        }
        let in_check = self.known_check[ply].unwrap_or_else(|| self.board.in_check());
        debug_assert_eq!(in_check, self.board.in_check(), "a stale check flag");
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
            return self.evaluate(ply);
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
        if let Some(score) = self.probe_tablebases(depth, alpha, beta, ply) {
            return score;
        }

        let static_eval = if in_check {
            -INFINITY
        } else {
            self.evaluate(ply)
        };
        self.static_evals[ply] = static_eval;
        if !is_pv
            && !in_check
            && beta.abs() < MATE_BOUND
            && let Some(score) = self.prune_good_enough(depth, beta, ply, allow_null, static_eval)
        {
            return score;
        }

        // Without a hash move the node is most likely not worth its full depth (no search
        // here has found it useful yet): internal iterative reduction searches it a ply
        // shallower. Micro-Max's self-deepening mode instead first searches shallower to
        // find a move, and deepens that move alone when it cuts.
        let mut depth = depth;
        if hash_move.is_none() && depth >= IID_MIN_DEPTH {
            if !self.options.self_deepening {
                depth -= IIR_PLIES;
            } else {
                match self.deepen_from_shallow(depth, alpha, beta, ply, in_check, static_eval) {
                    Deepened::Cut(score) => return score,
                    Deepened::HashMove(found) => hash_move = found,
                }
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
        self.search_moves::<INTERIOR>(depth, alpha, beta, ply, in_check, static_eval, hints)
            .0
    }

    /// Micro-Max 4's self-deepening ("the Future"): a node without a hash move is first
    /// searched `IID_REDUCTION` plies shallower; a move that cuts there is deepened alone to
    /// full depth, and if it still cuts the node is done without its siblings. Otherwise
    /// the shallow search's best move becomes the hash move.
    fn deepen_from_shallow(
        &mut self,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        static_eval: i32,
    ) -> Deepened {
        let shallow = depth - IID_REDUCTION;
        let hints = MoveHints::default();
        let (score, cut_move) =
            self.search_moves::<INTERIOR>(shallow, alpha, beta, ply, in_check, static_eval, hints);
        if self.stopped {
            return Deepened::Cut(DRAW);
        }
        if score >= beta && !cut_move.is_none() {
            let deepened = self.search_single(cut_move, depth, beta, ply);
            if self.stopped {
                return Deepened::Cut(DRAW);
            }
            if deepened >= beta {
                self.store_result(cut_move, deepened, ply, depth, Bound::Lower);
                return Deepened::Cut(deepened);
            }
        }
        match self.tt.probe(self.board.key()) {
            Probe::Hit(entry) => Deepened::HashMove(entry.best_move),
            _ => Deepened::HashMove(PackedMove::NONE),
        }
    }

    /// Whether the side to move at `ply` is improving: its static eval stands above the
    /// one two plies before (four, when that side was in check then), so a search from
    /// here is more likely to hold beta and less likely to need its late moves. With
    /// nothing to compare it counts as improving; in check, never.
    pub(super) fn improving(&self, ply: usize, static_eval: i32) -> bool {
        if static_eval == -INFINITY {
            return false;
        }
        let earlier = [2, 4]
            .into_iter()
            .filter_map(|back| ply.checked_sub(back))
            .map(|p| self.static_evals[p])
            .find(|&eval| eval != -INFINITY);
        earlier.is_none_or(|eval| static_eval > eval)
    }

    /// Outside the PV and out of check: the score that ends the node before its moves,
    /// when the static eval stands well above beta near the leaves (static-eval cut), or
    /// when passing the move still reaches beta (null move).
    fn prune_good_enough(
        &mut self,
        depth: i32,
        beta: i32,
        ply: usize,
        allow_null: bool,
        static_eval: i32,
    ) -> Option<i32> {
        let margin_plies = depth - i32::from(self.improving(ply, static_eval));
        if depth <= STATIC_CUT_DEPTH && static_eval - STATIC_CUT_MARGIN * margin_plies >= beta {
            return Some(static_eval);
        }
        let may_pass = allow_null
            && depth >= 2
            && static_eval >= beta
            && self.board.non_pawn_pieces(self.board.side_to_move()) > 0;
        if !may_pass {
            return None;
        }
        let reduction = (NULL_MOVE_REDUCTION + depth / NULL_MOVE_DEPTH_DIVISOR).min(depth - 1);
        let undo = self.make_null(ply);
        self.path[ply + 1] = self.board.key();
        let floor = std::mem::replace(&mut self.null_floor, ply + 1);
        let score = -self.negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1, false);
        self.null_floor = floor;
        self.board.unmake_null(&undo);
        if self.stopped {
            return Some(DRAW);
        }
        // A mate found after a pass proves only that the node holds beta.
        (score >= beta).then_some(if score >= MATE_BOUND { beta } else { score })
    }

    /// The singular test of a node at `depth` whose table `entry` supplied the hash move
    /// (see `SINGULAR_MIN_DEPTH`; a move found by self-deepening's shallow search is not
    /// tested): searches every move but the table's, shallower, with a null window below
    /// the table's score.
    pub(super) fn singular(
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
        let (score, _) = self.search_moves::<INTERIOR>(
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
        let undo = self.make(ply, m);
        self.path[ply + 1] = self.board.key();
        let score = -self.negamax(depth - 1, -beta, -beta + 1, ply + 1, true);
        self.board.unmake_move(m, &undo);
        score
    }

    /// The move loop of a node at `ply`: the root's moves in their kept order (`ROOT`),
    /// or the move picker's. Returns the best score and move; an interior node stores
    /// them in the table.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_moves<const ROOT: bool>(
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
        let mut picker = None;
        let context = self.quiet_context(ply);
        if !ROOT {
            self.board.generate_legal(unscored.list_mut());
            if unscored.is_empty() {
                let score = if in_check {
                    -MATE + plies(ply)
                } else {
                    self.draw_score(ply)
                };
                return (score, Move::NONE);
            }
            let killers = &self.killers[ply];
            picker = Some(unscored.score_all(
                &self.board,
                hints.hash_move,
                killers,
                self.history,
                &context,
            ));
        }
        // The root's move loop is handed no static eval (`-INFINITY`); with no plies
        // before it, it counts as improving.
        let improving = ROOT || self.improving(ply, static_eval);
        let late_move_count = if improving {
            &LATE_MOVE_COUNT
        } else {
            &LATE_MOVE_COUNT_NOT_IMPROVING
        };
        let futile = !is_pv
            && !in_check
            && depth <= FUTILITY_DEPTH
            && static_eval + futility_margin(depth) <= alpha;

        let mut best = -INFINITY;
        let mut best_move = Move::NONE;
        let mut searched = 0usize;
        let mut quiets_tried = MoveList::new();
        // The root's moves are read by index: a move that raises alpha moves to the front
        // (of those this pass searches), which leaves the later ones where they were.
        let mut root_index = self.root_start;
        loop {
            let next = match &mut picker {
                Some(moves) => moves.next_move(&self.board),
                None => self.root_moves.get(root_index).copied(),
            };
            let Some(m) = next else { break };
            let index = root_index;
            root_index += 1;
            if hints.excluded.matches(m) {
                continue;
            }
            let quiet = self.board.is_quiet(m);
            let late = !is_pv
                && !in_check
                && table_entry(late_move_count, depth).is_some_and(|&count| searched >= count);
            // A pruned move is never made: whether it checks is read off the board.
            if (futile || late) && quiet && searched > 0 && !self.board.gives_check(m) {
                continue;
            }
            if !ROOT
                && searched > 0
                && best > -MATE_BOUND
                && loses_exchange(&self.board, m, quiet, depth)
            {
                continue;
            }
            if ROOT && self.is_main() {
                self.control
                    .publish_root_move(index, self.root_moves.len(), m);
            }
            let undo = self.make(ply, m);
            let gives_check = self.board.in_check();
            self.known_check[ply + 1] = Some(gives_check);
            self.path[ply + 1] = self.board.key();
            let reduction = if searched > 0
                && may_reduce(depth, searched, quiet, in_check, gives_check)
                && !self.killers[ply].contains(&m)
            {
                let history = self.history.score_of(&context, self.moved(ply), m);
                late_move_reduction(depth, searched, is_pv, improving, history)
            } else {
                0
            };
            let extension = i32::from(searched == 0 && hints.extend_first);
            let window = (alpha, beta);
            let score = self.search_move(depth, window, ply, searched == 0, extension, reduction);
            self.board.unmake_move(m, &undo);
            self.known_check[ply + 1] = None;
            if self.stopped {
                return (DRAW, best_move);
            }
            searched += 1;
            let raised = score > alpha;
            if score > best {
                best = score;
                best_move = m;
            }
            if raised {
                alpha = score;
                self.pv.update(ply, m);
            }
            if ROOT && raised {
                self.root_move_raised_alpha(index, depth, score);
            }
            if score >= beta {
                if !ROOT && quiet {
                    self.record_cutoff(ply, &context, m, depth, quiets_tried.as_slice());
                }
                break;
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        if ROOT {
            return (best, best_move);
        }
        if !hints.excluded.is_none() {
            // A search without the best move proves nothing about the node itself.
            self.pv.clear(ply);
            return (best, best_move);
        }
        let bound = bound_of(best, original_alpha, beta);
        self.store_result(best_move, best, ply, depth, bound);
        (best, best_move)
    }

    /// The principal variation search of one move, already made, at a node of `depth`
    /// with the window `alpha`..`beta`: the first move with the full window (`extension`
    /// plies deeper); a later one with a null window, first `reduction` plies shallower,
    /// then again at full depth and then with the full window while it beats alpha.
    fn search_move(
        &mut self,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
        first: bool,
        extension: i32,
        reduction: i32,
    ) -> i32 {
        let child = ply + 1;
        if first {
            return -self.negamax(depth - 1 + extension, -beta, -alpha, child, true);
        }
        let mut score = -self.negamax(depth - 1 - reduction, -alpha - 1, -alpha, child, true);
        if score > alpha && reduction > 0 && !self.stopped {
            score = -self.negamax(depth - 1, -alpha - 1, -alpha, child, true);
        }
        if score > alpha && score < beta && !self.stopped {
            score = -self.negamax(depth - 1, -beta, -alpha, child, true);
        }
        score
    }

    /// A position just after a capture or pawn move, with few enough pieces, is looked up
    /// in the endgame tablebases: a win scores `TB_WIN` less the plies from the root (a
    /// lower bound: a mate may be better), a loss the opposite (an upper bound), a draw
    /// the draw's value (exact). When that settles the window, the node is done, and the
    /// table keeps the answer as if searched deep. Only after a zeroing move is the
    /// tables' verdict the position's own (the fifty-move counter is then 0); positions
    /// with as many pieces as the largest tables wait for `probe_depth`.
    fn probe_tablebases(&mut self, depth: i32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
        let tables = self.tablebases?;
        if self.board.halfmove_clock() != 0 || !tables.covers(&self.board) {
            return None;
        }
        let settings = self.options.tablebase;
        if self.board.piece_count() == tables.max_pieces() && depth < settings.probe_depth {
            return None;
        }
        let wdl = tables.probe_wdl(&self.board)?;
        self.shared.count_tb_hit();
        let (score, bound) = match wdl.counted(settings.rule50) {
            Wdl::Win => (TB_WIN - plies(ply), Bound::Lower),
            Wdl::Loss => (-TB_WIN + plies(ply), Bound::Upper),
            _ => (self.draw_score(ply), Bound::Exact),
        };
        if !answers(bound, score, alpha, beta) {
            return None;
        }
        let stored_depth = (depth + TABLEBASE_DEPTH_BONUS).min(plies(MAX_PLY) - 1);
        self.store_result(Move::NONE, score, ply, stored_depth, bound);
        Some(score)
    }

    /// Root move `index` raised alpha to `score`: it goes to the front of the root moves
    /// this pass searches (the others keep their order), and a new best of a later
    /// iteration is reported at once, as the answer if the search ends now (the first
    /// iteration always finishes and reports once, at its end; the passes for further
    /// lines report when they are done).
    fn root_move_raised_alpha(&mut self, index: usize, depth: i32, score: i32) {
        let start = self.root_start;
        let m = self.root_moves.remove(index);
        self.root_moves.insert(start, m);
        if index > 0 && start == 0 && depth > 1 && self.is_main() {
            let info = self.info(depth, score);
            self.report_best(info, score, Report::NewBest);
        }
    }

    /// A quiet move cut: it becomes a killer of this ply, and its histories (in the
    /// node's `context`) rise while those of the quiet moves tried before it fall.
    fn record_cutoff(
        &mut self,
        ply: usize,
        context: &QuietContext,
        m: Move,
        depth: i32,
        tried: &[Move],
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != m {
            killers[1] = killers[0];
            killers[0] = m;
        }
        self.history.reward(&self.board, context, m, depth);
        for &other in tried {
            self.history.penalize(&self.board, context, other, depth);
        }
    }
}

/// Whether the `searched`-th move at `depth` may be searched shallower first: a quiet
/// move after the first few, neither an escape from check nor a check itself (those are
/// where tactics hide).
fn may_reduce(depth: i32, searched: usize, quiet: bool, in_check: bool, gives_check: bool) -> bool {
    depth >= LMR_MIN_DEPTH && searched >= LMR_FIRST_MOVES && quiet && !in_check && !gives_check
}

/// Plies by which the `searched`-th quiet move at `depth` is reduced: about
/// `LMR_BASE + ln(depth)·ln(searched) / LMR_DIVISOR`, one less in PV nodes, one more
/// where the side to move is not `improving`, less by its `history` score (see
/// `HISTORY_REDUCTION_DIVISOR`), leaving at least one ply.
fn late_move_reduction(
    depth: i32,
    searched: usize,
    is_pv: bool,
    improving: bool,
    history: i32,
) -> i32 {
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
                let plies = (LMR_BASE + (d as f64).ln() * (n as f64).ln() / LMR_DIVISOR) as u8;
                *r = plies;
            }
        }
        t
    });
    let row = usize::try_from(depth).unwrap_or(0).min(63);
    let by_history =
        (history / HISTORY_REDUCTION_DIVISOR).clamp(-HISTORY_REDUCTION_MAX, HISTORY_REDUCTION_MAX);
    let not_improving = if improving { 0 } else { LMR_NOT_IMPROVING };
    let r = i32::from(table[row][searched.min(63)]) - i32::from(is_pv) + not_improving - by_history;
    r.clamp(0, (depth - 2).max(0))
}

/// Whether `m`, at a node of `depth`, loses so much in the exchange on its target square
/// that it is not worth searching (see `SEE_PRUNE_DEPTH`).
fn loses_exchange(board: &Board, m: Move, quiet: bool, depth: i32) -> bool {
    if depth > SEE_PRUNE_DEPTH {
        return false;
    }
    if quiet {
        !see_at_least(board, m, -SEE_QUIET_MARGIN * depth)
    } else {
        capture_may_lose(board, m) && !see_at_least(board, m, -SEE_CAPTURE_MARGIN * depth * depth)
    }
}

/// The futility margin of a node at `depth` (see `FUTILITY_DEPTH`): none at depth 0 or
/// below, where no move loop runs.
fn futility_margin(depth: i32) -> i32 {
    if depth <= 0 {
        0
    } else {
        FUTILITY_MARGIN_PER_PLY * (depth + 1)
    }
}

/// The entry of a per-depth table for `depth`, if the table reaches that deep.
#[inline]
pub(super) fn table_entry<T>(table: &[T], depth: i32) -> Option<&T> {
    usize::try_from(depth).ok().and_then(|d| table.get(d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::request::SearchRequest;
    use crate::search::searcher::with_test_searcher;
    use crate::search::tt::TranspositionTable;

    /// Named positions for the singular test.
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    /// Black to move after 1.e4: several replies are about as good. (The start position
    /// itself is no longer a test of that: searched shallower where the table has no
    /// move, the other first moves fall short of the best by more than the margin.)
    const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
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
        with_test_searcher(&request, &tt, |searcher| {
            searcher.path[0] = searcher.board.key();
            let static_eval = searcher.evaluate(0);
            let (_, best) = searcher.search_moves::<INTERIOR>(
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
            test(searcher, entry)
        })
    }

    #[test]
    fn a_search_without_the_hash_move_finds_another_and_leaves_the_table_alone() {
        for fen in [START, QUEEN_TRADE_ON_OFFER] {
            with_searched_root(fen, 5, |searcher, entry| {
                let static_eval = searcher.evaluate(0);
                let hints = MoveHints {
                    excluded: entry.best_move,
                    ..MoveHints::default()
                };
                let (_, other) = searcher.search_moves::<INTERIOR>(
                    4,
                    -INFINITY,
                    INFINITY,
                    0,
                    false,
                    static_eval,
                    hints,
                );
                assert!(searcher.board.is_legal(other), "{fen}: {other}");
                assert!(!entry.best_move.matches(other), "{fen}: {other}");
                assert!(searcher.pv.is_empty_at(0), "{fen}: the line is left empty");
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
            (AFTER_E4, INFINITY, "no"),
            // Another move reaches the singular bound, and that bound is above beta.
            (AFTER_E4, -INFINITY, "cut"),
        ];
        for (fen, beta, expected) in cases {
            with_searched_root(fen, SINGULAR_MIN_DEPTH - 1, |searcher, entry| {
                let static_eval = searcher.evaluate(0);
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
        with_test_searcher(&request, &tt, |searcher| {
            searcher.path[0] = board.key();
            // The mate is ordered last of all.
            let root = QuietContext::root(board.side_to_move());
            searcher.history.penalize(&board, &root, mate, 10);
            let static_eval = searcher.evaluate(0);
            let (score, best) = searcher.search_moves::<INTERIOR>(
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
            // Moves that lose their piece in the exchange are skipped at depth 1, not tried.
            let tried = |m: Move| !loses_exchange(&board, m, board.is_quiet(m), 1);
            let others = moves.iter().filter(|&&m| m != mate && tried(m));
            let spared: Vec<String> = others
                .filter(|&&m| searcher.history.score(&board, &root, m) >= 0)
                .map(|m| m.to_string())
                .collect();
            assert!(
                moves.len() > 64 && spared.is_empty(),
                "not penalized: {spared:?}"
            );
        });
    }

    /// Moves whose exchange loses more (or less) than the margin of a depth.
    #[test]
    fn only_moves_that_lose_enough_in_the_exchange_are_pruned() {
        // (name, position, move, depth, pruned)
        let cases = [
            (
                "knight to a pawn's square",
                "4k3/8/4p3/8/8/2N5/8/4K3 w - - 0 1",
                "c3d5",
                1,
                true,
            ),
            (
                "knight to a safe square",
                "4k3/8/4p3/8/8/2N5/8/4K3 w - - 0 1",
                "c3b5",
                1,
                false,
            ),
            (
                "knight to a pawn's square, too deep",
                "4k3/8/4p3/8/8/2N5/8/4K3 w - - 0 1",
                "c3d5",
                SEE_PRUNE_DEPTH + 1,
                false,
            ),
            (
                "queen takes a defended pawn",
                "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1",
                "d2d5",
                1,
                true,
            ),
            (
                "queen takes a defended pawn, deep",
                "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1",
                "d2d5",
                SEE_PRUNE_DEPTH,
                false,
            ),
            (
                "rook takes a knight a pawn defends",
                "4k3/8/2p5/3n4/8/8/8/3RK3 w - - 0 1",
                "d1d5",
                1,
                true,
            ),
            (
                "rook takes a loose knight",
                "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1",
                "d1d5",
                1,
                false,
            ),
        ];
        for (name, fen, uci, depth, pruned) in cases {
            let board = Board::from_fen(fen).expect("a named position is legal");
            let m = board.parse_move(uci).expect("legal");
            let quiet = board.is_quiet(m);
            assert_eq!(loses_exchange(&board, m, quiet, depth), pruned, "{name}");
        }
    }

    /// A side improves when its static eval beats its own from two plies before, or
    /// from four when it was in check two plies before.
    #[test]
    fn improving_compares_with_the_same_side_two_or_four_plies_before() {
        const IN_CHECK: i32 = -INFINITY;
        // (name, static evals of the plies before, this ply's, improving)
        let cases: [(&str, &[i32], i32, bool); 9] = [
            ("the root: nothing to compare", &[], 10, true),
            ("ply 1: nothing to compare", &[10], 10, true),
            ("better than two plies before", &[10, -5], 20, true),
            ("worse than two plies before", &[10, -5], 5, false),
            ("no better is not improving", &[10, -5], 10, false),
            ("in check now", &[10, -5], IN_CHECK, false),
            (
                "in check two plies before: four back, better",
                &[30, 0, IN_CHECK, 0],
                40,
                true,
            ),
            (
                "in check two plies before: four back, worse",
                &[30, 0, IN_CHECK, 0],
                20,
                false,
            ),
            (
                "in check two and four plies before",
                &[IN_CHECK, 0, IN_CHECK, 0],
                -90,
                true,
            ),
        ];
        let request = SearchRequest::new(Board::from_fen(START).expect("legal"));
        let tt = TranspositionTable::new(1);
        with_test_searcher(&request, &tt, |searcher| {
            for (name, before, now, expected) in cases {
                searcher.static_evals[..before.len()].copy_from_slice(before);
                let ply = before.len();
                assert_eq!(searcher.improving(ply, now), expected, "{name}");
            }
        });
    }

    #[test]
    fn a_side_that_is_not_improving_reduces_late_moves_one_ply_more() {
        let history = 0;
        for (depth, searched) in [(6, 8), (10, 20), (20, 40)] {
            let improving = late_move_reduction(depth, searched, false, true, history);
            let not = late_move_reduction(depth, searched, false, false, history);
            assert_eq!(
                not,
                improving + LMR_NOT_IMPROVING,
                "depth {depth}, move {searched}"
            );
        }
        // Never below one ply of search left.
        assert_eq!(late_move_reduction(3, 60, false, false, history), 1);
    }

    #[test]
    fn a_shallow_node_is_never_tested() {
        with_searched_root(
            QUEEN_TRADE_ON_OFFER,
            SINGULAR_MIN_DEPTH - 1,
            |searcher, entry| {
                let static_eval = searcher.evaluate(0);
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
