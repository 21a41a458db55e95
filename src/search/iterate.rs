//! Iterative deepening at the root: one iteration per depth, each searched first in a
//! narrow window around the last score (aspiration), widened when it fails; the main
//! thread reports every finished iteration and every new best move, and returns the line
//! it reported last. Helpers iterate silently and offer what they finish.

use super::params::{
    ASPIRATION_DEPTH, ASPIRATION_FULL_WIDTH, ASPIRATION_GROWTH, ASPIRATION_WINDOW,
    MATE_DEPTH_MARGIN, PACING_POLL,
};
use super::pv::BestLine;
use super::result::{Info, Report, SearchResult, SearchScore};
use super::score::{
    DRAW, INFINITY, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY, TB_WIN, mate_is_settled, plies,
};
use super::searcher::Searcher;
use super::shared::CompletedIteration;
use super::strength::Strength;
use super::time::{is_forced, iteration_time_scale};
use crate::tablebase::Wdl;

/// The deepest iteration for a depth limit (`sd`): at least 1, at most `MAX_DEPTH`. A
/// limit beyond `i32` (`sd 2147483648`) is no limit, not a negative one.
fn iteration_limit(depth: u32) -> i32 {
    i32::try_from(depth).map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH))
}

/// Whether `score` is a mate for the side to move in `moves` moves or fewer (`go mate`).
fn mates_within(score: i32, moves: u32) -> bool {
    let plies = i32::try_from(moves.saturating_mul(2)).unwrap_or(i32::MAX);
    score >= MATE_BOUND && MATE - score < plies
}

impl Searcher<'_> {
    /// The main thread's search: iterative deepening with thinking output until a limit
    /// is reached or the search is stopped. It returns the line it reported last: the
    /// last finished iteration, or a better move the unfinished one found since.
    pub(super) fn run_main(&mut self) -> SearchResult {
        if self.root_moves.is_empty() {
            let score = if self.board.in_check() { -MATE } else { DRAW };
            return self.result_of(None, score, 0);
        }
        self.path[0] = self.board.key();
        let max_depth = self.limits.depth.map_or(MAX_DEPTH, iteration_limit);
        let mut score = 0;
        let mut completed_depth = 0;
        let mut stable_iterations = 0usize;
        // With several lines asked for, the last score of each further line, and the
        // lines of the last iteration whose every line was searched (or, before there is
        // one, those of the first iteration).
        let mut line_scores = Vec::new();
        let mut finished_lines = Vec::new();
        for depth in 1..=max_depth {
            self.control.publish_depth(depth);
            let previous = (self.root_moves[0], score);
            score = self.aspiration(depth, score);
            if self.stopped {
                // Only the lines already reported count (an unfinished iteration's first
                // move is the previous best, or a new best that was reported).
                break;
            }
            completed_depth = depth;
            self.may_stop = true;
            if self.lines > 1 {
                let lines = self.search_other_lines(depth, score, &mut line_scores);
                self.report_lines(depth, &lines);
                // A level chooses among the lines of the last iteration that searched
                // them all; when even the first stopped in its further passes, among
                // those it did search (all of one depth, and all reported).
                if !self.stopped || finished_lines.is_empty() {
                    finished_lines = lines;
                }
            } else {
                let info = self.info(depth, score);
                self.report_best(info, score, Report::Iteration);
            }
            stable_iterations = if self.root_moves[0] == previous.0 {
                stable_iterations + 1
            } else {
                0
            };
            let time_scale = iteration_time_scale(depth, stable_iterations, score, previous.1);
            if is_forced(self.root_moves.len(), self.control.has_deadline())
                || self.must_stop()
                || self.time_for_next_iteration_is_up(time_scale)
                || mate_is_settled(score, depth, MATE_DEPTH_MARGIN)
                || self
                    .limits
                    .mate
                    .is_some_and(|moves| mates_within(score, moves))
            {
                break;
            }
        }
        if let Some(level) = self.options.strength {
            self.play_at_level(level, &finished_lines, completed_depth);
            self.wait_out_the_time();
        }
        let best = self.best.take();
        self.result_of(best, score, completed_depth)
    }

    /// A level's choice among `lines` (see `strength`), reported again last, as the
    /// iteration's line: the move played is the one shown last, with its own score.
    fn play_at_level(&mut self, level: Strength, lines: &[BestLine], depth: i32) {
        let scores: Vec<i32> = lines.iter().map(|line| line.score).collect();
        let choice = level.choose(&scores, self.board.key());
        if let Some(line) = lines.get(choice) {
            let mut info = self.info(depth, line.score);
            info.pv = line.pv.clone();
            self.report_best(info, line.score, Report::Iteration);
        }
    }

    /// Waits until the request's `min_time` has passed, or the search is stopped.
    fn wait_out_the_time(&self) {
        let Some(min_time) = self.limits.min_time else {
            return;
        };
        while self.control.elapsed_wall() < min_time && !self.control.stop_requested() {
            std::thread::sleep(PACING_POLL);
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
        let first_depth = 1 + i32::from(self.starts_deeper());
        let mut score = 0;
        for depth in first_depth..=max_depth {
            score = self.aspiration(depth, score);
            if self.stopped {
                break;
            }
            let pv = self.pv.root_line(&self.board, self.root_moves[0]);
            let line = BestLine { score, pv };
            self.shared.offer(CompletedIteration { depth, line });
            if mate_is_settled(score, depth, MATE_DEPTH_MARGIN) {
                break;
            }
        }
        self.publish_helper_nodes();
    }

    /// With several lines asked for (multi-PV, or a level's candidates), the lines of this
    /// iteration: the best (searched already, scored `best`), then the next best root
    /// moves, one pass each (each pass leaves out the lines found before it, with an
    /// aspiration window around that line's last score). A pass the search stops in is
    /// left out. Sorted best first: a later pass may outscore an earlier one.
    fn search_other_lines(
        &mut self,
        depth: i32,
        best: i32,
        scores: &mut Vec<i32>,
    ) -> Vec<BestLine> {
        let pv = self.pv.root_line(&self.board, self.root_moves[0]);
        let mut lines = vec![BestLine { score: best, pv }];
        for rank in 1..self.lines.min(self.root_moves.len()) {
            self.root_start = rank;
            let last = scores.get(rank - 1).copied().unwrap_or(best);
            let score = self.aspiration(depth, last);
            self.root_start = 0;
            if self.stopped {
                break;
            }
            if scores.len() < rank {
                scores.push(score);
            } else {
                scores[rank - 1] = score;
            }
            let pv = self.pv.root_line(&self.board, self.root_moves[rank]);
            lines.push(BestLine { score, pv });
        }
        lines.sort_by_key(|line| std::cmp::Reverse(line.score));
        lines
    }

    /// Reports `lines` (best first): the first as the iteration's line, the answer so
    /// far, the others after it.
    fn report_lines(&mut self, depth: i32, lines: &[BestLine]) {
        for (rank, line) in lines.iter().enumerate() {
            let mut info = self.info(depth, line.score);
            info.pv = line.pv.clone();
            if rank == 0 {
                self.report_best(info, line.score, Report::Iteration);
            } else {
                (self.report)(&Report::OtherLine(info));
            }
        }
    }

    /// Searches the root with a narrow window around the last score, widening on failure.
    fn aspiration(&mut self, depth: i32, last: i32) -> i32 {
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH && last.abs() < MATE_BOUND {
            (last - delta, last + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.search_root(depth, alpha, beta);
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
            delta *= ASPIRATION_GROWTH;
            if delta > ASPIRATION_FULL_WIDTH {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The report of the root's current line at `depth`, scored `score` (or, with the
    /// root in the tablebases, by what they say of it, unless the search found a mate).
    pub(super) fn info(&self, depth: i32, score: i32) -> Info {
        Info {
            depth,
            seldepth: plies(self.seldepth),
            score: SearchScore::from_internal(self.shown_score(score)),
            elapsed: self.control.elapsed_wall(),
            nodes: self.total_nodes(),
            tbhits: self.shared.tb_hits(),
            pv: self.pv.root_line(&self.board, self.root_moves[0]),
        }
    }

    /// `score`, or what the tablebases say of the root when they know it: a win or loss
    /// `distance` plies from the next capture or pawn move, or a draw. A mate the search
    /// found is kept: it is exact too, and more telling.
    fn shown_score(&self, score: i32) -> i32 {
        let Some(verdict) = &self.shared.root_tablebase else {
            return score;
        };
        if score.abs() >= MATE_BOUND {
            return score;
        }
        let distance = verdict.distance.clamp(0, plies(MAX_PLY));
        match verdict.wdl {
            Wdl::Win => TB_WIN - distance,
            Wdl::Loss => -TB_WIN + distance,
            _ => DRAW,
        }
    }

    /// Reports `info` (with the internal `score` of its first move) as `kind`, and keeps
    /// it as the search's answer so far.
    pub(super) fn report_best(&mut self, info: Info, score: i32, kind: fn(Info) -> Report) {
        self.best = Some(BestLine {
            score,
            pv: info.pv.clone(),
        });
        (self.report)(&kind(info));
    }

    /// The search's result from its last reported line (`None` only without a legal
    /// move, or when aborted before the first report: then the first root move, which
    /// the caller drops).
    fn result_of(&self, best: Option<BestLine>, score: i32, completed_depth: i32) -> SearchResult {
        let line = best.unwrap_or_else(|| BestLine {
            score,
            pv: self.root_moves.first().copied().into_iter().collect(),
        });
        SearchResult {
            best_move: line.best_move(),
            ponder_move: line.expected_reply(&self.board, self.tt),
            score: self.shown_score(line.score),
            depth: completed_depth,
            seldepth: plies(self.seldepth),
            // This thread's nodes: the caller adds the helpers' once they have all ended.
            nodes: self.nodes,
            elapsed: self.control.elapsed_wall(),
            pv: line.pv,
        }
    }
}
