//! The running search: starting one for our move, for pondering or for analysis; stopping
//! and forgetting it; turning a ponder search into thinking on a ponder hit; and what
//! happens when it reports or ends.
//!
//! Every search has an id, and its reports and result are used only while it is still the
//! current one: a search that was aborted can never print its move.

use super::options::Broadcast;
use super::report::{self, SearchSummary};
use super::{Event, Game, Mode, Protocol};
use crate::cecp::{GameResult, Message};
use crate::chess::{Color, Ending, Move};
use crate::eval;
use crate::search::{
    self, Budget, Limits, Report, SEARCH_STACK_BYTES, SearchControl, SearchRequest, SearchResult,
    Strength, TablebaseUse,
};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A hint that nothing else supplies comes from a search this deep, on a table of this
/// many MB of its own: microseconds, so the event loop never waits for it.
const HINT_DEPTH: u32 = 3;
const HINT_TABLE_MB: usize = 1;

/// How long the thinking lines of a ponder search wait after our move (see [`PonderOutput`]).
const PONDER_OUTPUT_HOLD: Duration = Duration::from_millis(500);

/// Why a search runs, which decides what becomes of its result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// Thinking on our own move: its result is played.
    Think,
    /// Pondering on the opponent's time, expecting `predicted`.
    Ponder { predicted: Move },
    /// Analyze mode: results are only shown.
    Analyze,
    /// UCI's `go`: its result is `bestmove`, printed when it ends, unless the GUI holds
    /// it (`held`: `go infinite` and `go ponder`, until `stop` or `ponderhit`).
    Go {
        /// `bestmove` waits for the GUI's word even when the search has ended.
        held: bool,
    },
}

/// The search thread and what the game needs to know about it.
pub struct RunningSearch {
    id: u64,
    pub kind: SearchKind,
    pub control: Arc<SearchControl>,
    handle: Option<JoinHandle<SearchResult>>,
    /// The position entered speculatively into the table for a ponder search (removed
    /// again if the prediction fails).
    speculative_key: Option<u64>,
    /// A ponder search that ended by itself before the opponent moved.
    finished: Option<SearchResult>,
    /// A thinking line of this search was shown from the current position (for a ponder
    /// search: since the hit).
    line_shown: bool,
    /// What becomes of its lines while it is a ponder search.
    ponder_output: PonderOutput,
    /// Which of the lines of a multi-PV iteration was reported last (1: the best).
    line_rank: usize,
}

/// What becomes of the thinking lines of a ponder search. Its lines start with the reply
/// it expects, so they read from the position after our move, and each kind of client
/// reads them at a different moment:
/// - XBoard sends nothing after our move and shows the ponder thinking as it comes;
/// - python-chess (and lichess-bot through it) sends `ping` as soon as it reads our move
///   and takes every thinking line before the `pong` as the account of that move;
/// - cutechess sends `ping` once the opponent has moved, then `time`, `otim` and the
///   move, and takes every thinking line after that `ping` as thinking on our next move.
///
/// So the lines wait a moment after our move, for python-chess's `ping`; a `ping` while
/// pondering silences the ponder search for good (the account is closed, or the position
/// the GUI reads against is about to change), and what was held is dropped, never sent in
/// a burst after the `pong`; a line is never sent while a line of input waits to be
/// handled (it may be that `ping` or the opponent's move); and the opponent's move ends
/// them too: on a miss the search is forgotten, on a hit it goes on as thinking on our
/// move and prints its lines from the new position (its root), without the reply.
pub enum PonderOutput {
    /// Kept back until `until`, just after our move.
    Held {
        /// When the GUI has had time to send its `ping`.
        until: Instant,
        /// The lines so far, sent at `until` unless silenced first.
        lines: Vec<Message>,
    },
    /// Sent as they come (the GUI said nothing for a while after our move: XBoard).
    Shown,
    /// Not sent: a `ping` came while pondering.
    Silenced,
}

impl RunningSearch {
    /// Waits for the search thread to end; its result, unless it was taken already.
    pub(super) fn join(&mut self) -> Option<SearchResult> {
        self.handle.take().and_then(|handle| handle.join().ok())
    }

    /// The search's id, which its events carry.
    pub(super) fn id(&self) -> u64 {
        self.id
    }

    /// The result of a search that ended by itself while held (a ponder search, a UCI
    /// `go infinite` or `go ponder`), taken.
    pub(super) fn take_finished(&mut self) -> Option<SearchResult> {
        self.finished.take()
    }
}

impl Game {
    /// Whether the engine is thinking on its own move (its `move` is still to come).
    pub fn is_thinking(&self) -> bool {
        self.search_kind() == Some(SearchKind::Think)
    }

    /// Whether the running search owes the GUI an answer (CECP's `move`, UCI's
    /// `bestmove`), so it may be stopped but never forgotten.
    pub(super) fn answer_pending(&self) -> bool {
        matches!(
            self.search_kind(),
            Some(SearchKind::Think | SearchKind::Go { .. })
        )
    }

    /// The position a ponder search entered into the table ahead of the game.
    pub(super) fn speculative_position(&self) -> Option<u64> {
        self.search.as_ref().and_then(|s| s.speculative_key)
    }

    pub(super) fn search_kind(&self) -> Option<SearchKind> {
        self.search.as_ref().map(|s| s.kind)
    }

    /// It is our move: claim the result if the game is over, else play a book move or
    /// start thinking.
    pub(super) fn engine_turn(&mut self) {
        if self.paused || self.game_over {
            return;
        }
        if self.claim_if_over() {
            return;
        }
        self.offer_draw_if_dead();
        match self.choose_book_move() {
            Some(choice) => self.play_book_move(choice),
            None => self.start_search(SearchKind::Think),
        }
    }

    /// After a change that may make it our move: think if it is.
    pub(super) fn move_if_our_turn(&mut self) {
        if self.mode == Mode::Play(self.history.board().side_to_move()) {
            self.engine_turn();
        }
    }

    /// Claims the result when the current position ends the game by rule (and the engine
    /// is playing). Returns whether it did.
    pub(super) fn claim_if_over(&mut self) -> bool {
        let Some(ending) = self.history.ending() else {
            return false;
        };
        let (result, comment) = match ending {
            Ending::Checkmate {
                winner: Color::White,
            } => (GameResult::WhiteWins, "White mates"),
            Ending::Checkmate {
                winner: Color::Black,
            } => (GameResult::BlackWins, "Black mates"),
            Ending::Stalemate => (GameResult::Draw, "Stalemate"),
            Ending::InsufficientMaterial => (GameResult::Draw, "Insufficient material"),
            Ending::FiftyMoves => (GameResult::Draw, "Draw by 50-move rule"),
            Ending::Repetition => (GameResult::Draw, "Draw by repetition"),
        };
        self.send(Message::Result {
            result,
            comment: Some(comment.to_string()),
        });
        self.game_over = true;
        true
    }

    /// The root moves left by `exclude`, or `None` for all of them.
    fn root_moves(&self) -> Option<Vec<Move>> {
        if self.excluded.is_empty() {
            return None;
        }
        let legal = self.history.board().legal_moves();
        let allowed = legal.iter().copied().filter(|m| !self.excluded.contains(m));
        Some(allowed.collect())
    }

    fn limits_for(&self, kind: SearchKind) -> Limits {
        let limits = match kind {
            SearchKind::Think | SearchKind::Go { .. } => self.think_limits(),
            SearchKind::Ponder { .. } => Limits {
                depth: self.time.depth,
                ..Limits::default()
            },
            SearchKind::Analyze => Limits::default(),
        };
        Limits {
            overhead: Some(self.settings.move_overhead()),
            ..limits
        }
    }

    fn think_limits(&self) -> Limits {
        let session_start = self.time.session_start_ply();
        let made = self.history.moves_of_side_to_move_since(session_start);
        self.paced_for_level(self.time.limits(made))
    }

    /// A level is done in a moment: it still takes the time full strength would plan.
    pub(super) fn paced_for_level(&self, mut limits: Limits) -> Limits {
        if self.settings.limit_strength {
            limits.min_time = Budget::for_limits(&limits).map(|budget| budget.soft);
        }
        limits
    }

    /// The strength to play at, when the options limit it.
    fn strength(&self) -> Option<Strength> {
        let elo = u32::try_from(self.settings.elo).unwrap_or(0);
        self.settings
            .limit_strength
            .then(|| Strength::new(elo, rand::random::<u64>()))
    }

    /// Starts a search of the kind asked, with the limits the CECP clock sets for it.
    pub(super) fn start_search(&mut self, kind: SearchKind) {
        let limits = self.limits_for(kind);
        self.launch_search(kind, limits);
    }

    /// Starts a search of the kind asked, within `limits`.
    pub(super) fn launch_search(&mut self, kind: SearchKind, limits: Limits) {
        self.apply_pending_table();
        let mut board = self.history.board().clone();
        let mut root_moves = self.root_moves();
        let mut speculative_key = None;
        if let SearchKind::Ponder { predicted } = kind {
            board.make_move(predicted);
            if !self.history.contains(board.key()) {
                self.history.table().insert_game_position(board.key());
                speculative_key = Some(board.key());
            }
            root_moves = None;
        }
        if root_moves.as_ref().is_some_and(Vec::is_empty) {
            return; // everything excluded: nothing to search
        }
        let mut options = self.search_options;
        options.noise_seed = self.random.then(|| rand::random::<u64>() | 1);
        let lines = usize::try_from(self.settings.multi_pv).unwrap_or(1);
        match kind {
            SearchKind::Analyze => options.lines = lines,
            SearchKind::Think | SearchKind::Ponder { .. } => {
                options.contempt = eval::from_centipawns(self.contempt_cp());
                options.strength = self.strength();
            }
            // UCI shows as many lines as MultiPV asks in every search; a level chooses
            // among lines of its own.
            SearchKind::Go { .. } => {
                options.contempt = eval::from_centipawns(self.contempt_cp());
                options.strength = self.strength();
                if options.strength.is_none() {
                    options.lines = lines;
                }
            }
        }
        options.tablebase = TablebaseUse {
            probe_depth: i32::try_from(self.settings.syzygy_probe_depth).unwrap_or(1),
            rule50: self.settings.syzygy_50_move_rule,
        };
        let request = SearchRequest {
            tablebases: self.tablebases.clone(),
            board,
            limits,
            root_moves,
            options,
            threads: usize::try_from(self.settings.threads).unwrap_or(1),
            network: self.network.clone(),
            memory: Some(Arc::clone(&self.search_memory)),
        };
        let id = self.next_search_id;
        self.next_search_id += 1;
        let control = Arc::new(SearchControl::new());
        self.last_info = None;
        let handle = spawn_search(
            id,
            request,
            Arc::clone(self.history.table()),
            Arc::clone(&control),
            self.events.clone(),
        );
        self.search = Some(RunningSearch {
            id,
            kind,
            control,
            handle: Some(handle),
            speculative_key,
            finished: None,
            line_shown: false,
            ponder_output: PonderOutput::Held {
                until: Instant::now() + PONDER_OUTPUT_HOLD,
                lines: Vec::new(),
            },
            line_rank: 0,
        });
    }

    /// Stops the running search and forgets it: its move will never be printed.
    pub(super) fn abort_search(&mut self) {
        let Some(mut s) = self.search.take() else {
            return;
        };
        s.control.abort();
        s.join();
        if let Some(key) = s.speculative_key {
            self.history.table().remove_game_position(key);
        }
        if s.kind == SearchKind::Think {
            // The move will not come: the held pongs may go.
            self.flush_pongs();
        }
    }

    /// `?`: play the best move found so far.
    pub(super) fn move_now(&self) {
        if let Some(s) = &self.search
            && s.kind == SearchKind::Think
        {
            s.control.stop();
        }
    }

    /// The position, or the set of root moves, changed: an analysis starts over.
    pub(super) fn refresh_analysis(&mut self) {
        if self.mode == Mode::Analyze {
            self.abort_search();
            if !self.paused {
                self.start_search(SearchKind::Analyze);
            }
        }
    }

    /// The opponent played the move we ponder on: the ponder search goes on as thinking
    /// on our move, with the clock's budget counted from now.
    pub(super) fn ponder_hit(&mut self, m: Move) {
        let Some(mut s) = self.search.take() else {
            return;
        };
        s.speculative_key = None; // the position is now really in the game
        self.history.play(m);
        self.excluded.clear();
        s.kind = SearchKind::Think;
        // The lines shown or held so far read from the position before the hit.
        s.line_shown = false;
        s.ponder_output = PonderOutput::Silenced;
        if let Some(result) = s.finished.take() {
            // The ponder search already ended: play its move (after a fresh check).
            s.join();
            self.debug(format!("ponder hit on {m}, search had finished"));
            let id = s.id;
            self.search = Some(s);
            self.on_search_done(id, result);
            return;
        }
        if let Some(budget) = Budget::for_limits(&self.think_limits()) {
            s.control.set_deadlines(s.control.elapsed_wall(), budget);
        }
        self.debug(format!("ponder hit on {m}"));
        self.search = Some(s);
    }

    pub(super) fn on_report(&mut self, id: u64, report: Report) {
        let Some(s) = self.search.as_mut().filter(|s| s.id == id) else {
            return; // from a search already forgotten
        };
        let kind = s.kind;
        s.line_rank = match report {
            Report::OtherLine(_) => s.line_rank + 1,
            Report::Iteration(_) | Report::NewBest(_) => 1,
        };
        let line_rank = s.line_rank;
        let info = report.info().clone();
        if self.protocol == Protocol::Uci {
            self.send_uci_info(&report, line_rank);
        } else if self.post {
            // Ponder lines start with the reply we expect, so they read from the position
            // the GUI shows.
            let mut line = info.clone();
            if let SearchKind::Ponder { predicted } = kind {
                line.pv.insert(0, predicted);
            }
            let thinking = Message::Thinking(report::thinking_line(
                self.history.board(),
                &line,
                self.extras(),
            ));
            if matches!(kind, SearchKind::Ponder { .. }) {
                self.show_ponder_line(thinking);
            } else {
                self.send(thinking);
                if let Some(s) = self.search.as_mut() {
                    s.line_shown = true;
                }
            }
        }
        // Further lines of a multi-PV analysis are shown, never taken for the best.
        if !matches!(report, Report::OtherLine(_)) {
            self.last_info = Some(info);
        }
    }

    /// The search's last line as a thinking line from the current position, for a move
    /// whose search showed none from here (a ponder hit on a search that was done), so
    /// every move comes with its depth, score and time.
    fn show_last_line(&self) {
        if let Some(info) = self.last_info.as_ref().filter(|_| self.post) {
            let thinking = report::thinking_line(self.history.board(), info, self.extras());
            self.send(Message::Thinking(thinking));
        }
    }

    /// Whether thinking lines carry the extra columns: when the option asks for them and
    /// the reader takes them as numbers (not a chess-server bridge, not a GUI such as
    /// cutechess that rejected `analyze` or `playother` at the handshake).
    fn extras(&self) -> bool {
        self.settings.thinking_extras && self.ics_host.is_none() && !self.plain_thinking_gui
    }

    /// A table file that failed a probe (truncated, corrupt) is told to the user once;
    /// the search went on without what it would have said.
    fn report_tablebase_failure(&self) {
        let failure = self.tablebases.as_ref().and_then(|t| t.take_failure());
        if let Some(why) = failure {
            self.tell_user_error(format!("Syzygy: {why}"));
        }
    }

    /// Sends a thinking line of the running ponder search, holds it or drops it, as its
    /// [`PonderOutput`] says.
    fn show_ponder_line(&mut self, message: Message) {
        self.release_held_ponder_lines();
        let input_waiting = self.input_waiting();
        let Some(s) = self.search.as_mut() else {
            return;
        };
        match &mut s.ponder_output {
            PonderOutput::Held { lines, .. } => lines.push(message),
            PonderOutput::Shown if !input_waiting => self.out.send(&message),
            PonderOutput::Shown | PonderOutput::Silenced => {}
        }
    }

    /// When the held ponder lines are due, if some wait.
    pub fn held_output_deadline(&self) -> Option<Instant> {
        match self.search.as_ref().map(|s| &s.ponder_output) {
            Some(PonderOutput::Held { until, .. }) => Some(*until),
            _ => None,
        }
    }

    /// Sends the held ponder lines once they are due: the GUI said nothing after our move.
    /// With a line of input already waiting they are dropped instead (it may be the
    /// `ping` or the move that would make them wrong).
    pub fn release_held_ponder_lines(&mut self) {
        let input_waiting = self.input_waiting();
        let Some(s) = self.search.as_mut() else {
            return;
        };
        let PonderOutput::Held { until, lines } = &mut s.ponder_output else {
            return;
        };
        if Instant::now() < *until {
            return;
        }
        let lines = std::mem::take(lines);
        s.ponder_output = PonderOutput::Shown;
        if !input_waiting {
            for line in &lines {
                self.out.send(line);
            }
        }
    }

    /// A `ping` came: the running ponder search, if any, shows no more lines, and what it
    /// held is dropped (see [`PonderOutput`]).
    pub(super) fn silence_ponder_output(&mut self) {
        if let Some(s) = self.search.as_mut()
            && matches!(s.kind, SearchKind::Ponder { .. })
        {
            s.ponder_output = PonderOutput::Silenced;
        }
    }

    pub(super) fn on_search_done(&mut self, id: u64, result: SearchResult) {
        self.report_tablebase_failure();
        let Some(s) = self.search.as_mut().filter(|s| s.id == id) else {
            return;
        };
        match s.kind {
            SearchKind::Think => {
                let mut s = self.search.take().expect("checked above");
                s.join();
                if !s.line_shown {
                    self.show_last_line();
                }
                self.play_engine_move(result);
            }
            SearchKind::Ponder { .. } | SearchKind::Go { held: true } => {
                // Keep the result for a ponder hit, `ponderhit` or `stop`; nothing to
                // print now.
                s.finished = Some(result);
            }
            SearchKind::Go { held: false } => {
                let mut s = self.search.take().expect("checked above");
                s.join();
                self.send_best_move(&result);
            }
            SearchKind::Analyze => {}
        }
    }

    fn play_engine_move(&mut self, result: SearchResult) {
        let m = result.best_move;
        let board = self.history.board();
        let ours = self.mode == Mode::Play(board.side_to_move());
        if !ours || self.game_over || !board.is_legal(m) {
            // Never print a move that is not ours to make or not legal here.
            self.flush_pongs();
            return;
        }
        let score = report::centipawns(result.score);
        self.last_score = Some(score);
        let draw_accepted = self.answer_pending_draw(score);
        if !draw_accepted && self.should_resign(score) {
            self.send(Message::Resign);
            self.game_over = true;
            self.flush_pongs();
            return;
        }
        let board = self.history.board();
        let summary = self
            .last_info
            .as_ref()
            .map(|info| SearchSummary::new(board, info, result.elapsed, result.nodes).to_line());
        self.finish_own_move(m, summary.as_deref().unwrap_or(""), result.ponder_move);
    }

    /// Makes our move `m` and tells the GUI: `offer draw` first when the move makes a
    /// draw by repetition or the 50-move rule (the protocol's way to claim it), the move,
    /// then the result if the game is over, or else the search `summary` on a server.
    /// Then the held pongs, and pondering on `ponder_move` when allowed.
    pub(super) fn finish_own_move(&mut self, m: Move, summary: &str, ponder_move: Option<Move>) {
        // A draw offer stands until our move; this one answered it or let it lapse.
        self.draw_offer_pending = false;
        let text = self.move_text(m);
        self.history.play(m);
        self.excluded.clear();
        if matches!(
            self.history.ending(),
            Some(Ending::Repetition | Ending::FiftyMoves)
        ) {
            self.send(Message::OfferDraw);
        }
        self.send(Message::Move(text));
        let over = self.claim_if_over();
        if !over {
            self.publish_summary(summary);
        }
        self.flush_pongs();
        if over {
            return;
        }
        self.expected_reply = ponder_move;
        // A limited strength does not ponder: it would answer at once on a hit.
        if self.ponder_enabled
            && !self.settings.limit_strength
            && self.time.nodes_per_second.is_none()
            && let Some(predicted) = ponder_move
            && self.history.board().is_legal(predicted)
        {
            self.start_search(SearchKind::Ponder { predicted });
        }
    }

    /// Publishes a one-line summary of our move where the `Kibitz` option says (by
    /// default a whisper on a chess server, nothing locally).
    fn publish_summary(&self, summary: &str) {
        if summary.is_empty() {
            return;
        }
        let text = summary.to_string();
        match self.settings.kibitz(self.ics_host.is_some()) {
            Broadcast::Off => {}
            Broadcast::Whisper => self.send(Message::TellOthers(text)),
            Broadcast::Kibitz => self.send(Message::TellAll(text)),
        }
    }

    /// `hint`: a move for the side to move, found without blocking the event loop: the
    /// reply our last search expected, else the best move of the analysis running on
    /// this position, else the move the hash table holds, else that of a tiny search on a
    /// table of its own (the game's table, which a search may be using, is left alone).
    pub(super) fn hint(&self) {
        let board = self.board();
        let legal = |m: &Move| board.is_legal(*m);
        let suggestion = self
            .expected_reply
            .filter(legal)
            .or_else(|| self.analysis_best_move().filter(legal))
            .or_else(|| self.history.table().best_move(board))
            .or_else(|| quick_search(board, self.network.clone()));
        if let Some(m) = suggestion {
            self.send(Message::Hint(self.move_text(m)));
        }
    }

    /// The first move of the running analysis's last line.
    fn analysis_best_move(&self) -> Option<Move> {
        let analysing = self.search_kind() == Some(SearchKind::Analyze);
        let info = self.last_info.as_ref().filter(|_| analysing)?;
        info.pv.first().copied()
    }
}

/// The best move of a search of `board` to `HINT_DEPTH` on a table of its own, with the
/// game's evaluation (`network`), if the table's memory can be had and there is a legal
/// move.
fn quick_search(
    board: &crate::chess::Board,
    network: Option<std::sync::Arc<crate::eval::nnue::Network>>,
) -> Option<Move> {
    let table = search::TranspositionTable::try_new(HINT_TABLE_MB).ok()?;
    let request = SearchRequest::new(board.clone())
        .depth(HINT_DEPTH)
        .network(network);
    let result = search::search(&request, &table, &SearchControl::new(), &mut |_| {});
    (!result.best_move.is_none()).then_some(result.best_move)
}

/// Runs `request` on a thread of its own, sending its reports and result as events; the
/// thread also returns the result, for a caller that must have it at once.
fn spawn_search(
    id: u64,
    request: SearchRequest,
    table: Arc<search::TranspositionTable>,
    control: Arc<SearchControl>,
    events: std::sync::mpsc::Sender<Event>,
) -> JoinHandle<SearchResult> {
    std::thread::Builder::new()
        .name("search".into())
        .stack_size(SEARCH_STACK_BYTES)
        .spawn(move || {
            let mut report = |r: &Report| {
                let report = r.clone();
                let _ = events.send(Event::Report { id, report });
            };
            let result = search::search(&request, &table, &control, &mut report);
            let _ = events.send(Event::Done {
                id,
                result: result.clone(),
            });
            result
        })
        .expect("spawn the search thread")
}
