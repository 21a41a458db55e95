//! The game-state manager: the one place that knows the protocol, the rules and the
//! search. It applies every command in the order it arrived; `docs/ARCHITECTURE.md`
//! draws the path of one line of input through it.
//!
//! Its rooms: this file holds the [`Game`], its event loop and the command dispatch;
//! `history` the game's positions and their mirror in the hash table; `position` the
//! commands that change the position; `searching` the running search and the engine's
//! move; `policy` contempt, draws and resignation; `openings` the book; `edit` edit
//! mode; `options` the option table; `features` the handshake; `report` the text made
//! from search reports; `terminal` `d` and `help`; `clock` the time control; `io`
//! stdin, stdout and signals.
//!
//! Three promises shape the code:
//! - **No stale move.** Every search has an id; a result is used only if its search is
//!   still the current one, and every command that changes the position or the mode first
//!   stops the search and forgets it.
//! - **Pong means done.** `ping` is answered once everything before it is done: at once
//!   when idle, pondering or analysing, after the move when thinking on our own move.
//! - **Only the truth.** Moves are checked against the legal moves; results are claimed
//!   only when the board proves them.

mod clock;
mod edit;
mod features;
mod history;
mod io;
mod openings;
mod options;
mod policy;
mod position;
mod report;
mod searching;
mod terminal;
mod uci;

pub use io::{Input, Out, install_signal_handlers};
pub use options::MAX_HASH_MB;

use crate::cecp::{self, Command, ErrorKind, Message, ParseError};
use crate::chess::{Board, CastlingNotation, Color, Move};
use crate::eval;
use crate::search::{Info, Report, SearchMemory, SearchOptions, SearchResult, TranspositionTable};
use clock::{TimeControl, TimeMode};
use edit::EditSession;
use history::GameHistory;
use options::Settings;
use policy::Opponent;
use searching::{RunningSearch, SearchKind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Instant;

/// Name and version announced to the GUI.
pub const ENGINE_NAME: &str = concat!("Ferrimax ", env!("CARGO_PKG_VERSION"));

/// Everything the main thread reacts to, in arrival order.
pub enum Event {
    /// A line from the GUI, or the end of its input.
    Input(Input),
    /// Thinking output of search `id`.
    Report {
        /// Which search sent it: reports of a search since forgotten are dropped.
        id: u64,
        /// What the search found so far.
        report: Report,
    },
    /// Search `id` ended.
    Done {
        /// Which search ended: only the current search's result is used.
        id: u64,
        /// Its best move and score.
        result: SearchResult,
    },
}

impl From<Input> for Event {
    fn from(input: Input) -> Event {
        Event::Input(input)
    }
}

/// Runs the protocol on stdin/stdout until `quit`, end of input or SIGTERM.
pub fn run() -> i32 {
    let out = Out::stdout();
    install_signal_handlers(&out);
    // The pawn-race table and KPK bitbase take ~50 ms to build: do it beside the
    // handshake, not before it (a search that starts earlier waits for them).
    std::thread::spawn(eval::init);
    let (events, inbox) = channel();
    let mut game = Game::new(out, events.clone());
    io::spawn_reader(events, game.unread_input_counter());
    game.run(&inbox);
    0
}

/// Whether the event loop goes on after an event.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Wait for the next event.
    Continue,
    /// `quit` or end of input: leave the loop.
    Quit,
}

/// The rules the GUI asked for (`variant`): standard chess, or Chess960 (Fischer random
/// chess), which differs only in where the castling pieces start, how castling is written
/// (`O-O`, as XBoard and python-chess write it in that variant) and which FENs are read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    /// `variant normal`, and every game after `new`.
    Normal,
    /// `variant fischerandom`.
    Chess960,
}

/// The protocol the GUI speaks, chosen by its first command: `uci` for UCI; `xboard`,
/// `protover` or anything else for CECP (which is also what a person at a terminal gets).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// The XBoard/WinBoard protocol, version 2.
    Cecp,
    /// The Universal Chess Interface.
    Uci,
}

/// Whose moves the engine makes, and what it does while it waits.
enum Mode {
    /// `force`: the engine plays neither side; moves are only applied.
    Force,
    /// The engine plays this side: it thinks when that side is to move.
    Play(Color),
    /// `analyze`: the engine searches the current position until told otherwise.
    Analyze,
    /// `edit`: lines edit a copy of the position until `.`.
    Edit(Box<EditSession>),
}

impl PartialEq for Mode {
    /// Modes compare by kind and side; two edit sessions are never the same.
    fn eq(&self, other: &Mode) -> bool {
        match (self, other) {
            (Mode::Force, Mode::Force) | (Mode::Analyze, Mode::Analyze) => true,
            (Mode::Play(a), Mode::Play(b)) => a == b,
            _ => false,
        }
    }
}

/// The game-state manager (see the module docs).
pub struct Game {
    out: Out,
    events: Sender<Event>,
    protocol: Protocol,
    /// A first command other than `uci` came: the GUI (or a person at a terminal) speaks
    /// CECP, and `uci` is an unknown command from now on.
    cecp_chosen: bool,
    /// What only a UCI session keeps.
    uci: uci::UciSession,
    history: GameHistory,
    mode: Mode,
    variant: Variant,
    /// How the GUI writes castling in FENs (Shredder-FEN's rook files, or X-FEN), so the
    /// FENs the engine shows read as the GUI's own.
    fen_castling: CastlingNotation,
    /// A result was claimed or announced: the engine makes no more moves of its own until
    /// a new game or position (the GUI's moves are still applied).
    game_over: bool,
    ponder_enabled: bool,
    post: bool,
    random: bool,
    paused: bool,
    time: TimeControl,
    /// Root moves excluded from analysis and play (`exclude`), reset on position change.
    excluded: Vec<Move>,
    debug_accepted: bool,
    /// The GUI rejected a feature that every GUI reading the extra thinking columns
    /// accepts (cutechess rejects `analyze` and `playother`; XBoard accepts them): it
    /// would take the extra columns for PV text.
    plain_thinking_gui: bool,
    /// The GUI accepted `analyze` (XBoard does): it reads `stat01`, the answer to `.`.
    /// python-chess sends `.` when it stops an analysis but takes any answer for
    /// unexpected output and warns, so it gets none.
    stat01_reader: bool,
    search: Option<RunningSearch>,
    next_search_id: u64,
    /// Pongs held back until the move of the current search is out.
    pending_pongs: Vec<String>,
    /// Lines the stdin reader has passed on that are not handled yet: while one waits, no
    /// ponder line goes out (the line may be the `ping` or the move that makes it stale).
    unread_input: Arc<AtomicUsize>,
    /// Our last search score, centipawns, for answering draw offers.
    last_score: Option<i64>,
    /// The reply our last search expected (for `hint`).
    expected_reply: Option<Move>,
    /// Last thinking report of the current search, for kibitzing on a server.
    last_info: Option<Info>,
    settings: Settings,
    /// The `Hash` setting the table was last made for (a change waits while the engine
    /// thinks on its move).
    table_made_for_mb: i64,
    /// The chess server's name after `ics HOST`; `None` when playing locally. It lasts
    /// across games (icsDrone sends it once).
    ics_host: Option<String>,
    /// The opponent of this game (cleared by `new`).
    opponent: Opponent,
    /// A dead-drawn position was offered as a draw in this game already.
    draw_offered: bool,
    /// The opponent offered a draw that our next move answers (`draw`).
    draw_offer_pending: bool,
    /// Own moves in a row whose score was below the resignation threshold.
    hopeless_moves: u32,
    /// The opening book named by the `Book` option, once opened.
    book: Option<crate::book::Book>,
    /// The network the search evaluates with: the embedded one, or the one `EvalFile`
    /// names once read; none for the hand-written evaluation (`option Eval=classical`).
    network: Option<Arc<crate::eval::nnue::Network>>,
    /// The endgame tablebases `SyzygyPath` or `egtpath syzygy` opened, if any.
    tablebases: Option<Arc<crate::tablebase::Tablebases>>,
    search_options: SearchOptions,
    /// What the game's searches hand on to the next one (histories, remembered
    /// evaluations), forgotten with the table's search results.
    search_memory: Arc<SearchMemory>,
}

impl Game {
    /// A game at the start position, the engine playing Black, writing to `out`; search
    /// threads report through `events`, which the caller's loop hands back to [`Game::handle`].
    pub fn new(out: Out, events: Sender<Event>) -> Game {
        let settings = Settings::default();
        let requested = options::hash_bytes_mb(settings.hash_mb);
        let (table, _) = TranspositionTable::largest_fitting(requested)
            .unwrap_or_else(|error| panic!("no memory for even the smallest hash table: {error}"));
        let table = Arc::new(table);
        Game {
            out,
            events,
            protocol: Protocol::Cecp,
            cecp_chosen: false,
            uci: uci::UciSession::default(),
            history: GameHistory::new(Board::startpos(), table),
            mode: Mode::Play(Color::Black),
            variant: Variant::Normal,
            fen_castling: CastlingNotation::XFen,
            game_over: false,
            ponder_enabled: false,
            post: false,
            random: false,
            paused: false,
            time: TimeControl::default(),
            excluded: Vec::new(),
            debug_accepted: false,
            plain_thinking_gui: false,
            stat01_reader: false,
            search: None,
            next_search_id: 1,
            pending_pongs: Vec::new(),
            unread_input: Arc::new(AtomicUsize::new(0)),
            last_score: None,
            expected_reply: None,
            last_info: None,
            table_made_for_mb: settings.hash_mb,
            settings,
            ics_host: None,
            opponent: Opponent::default(),
            draw_offered: false,
            draw_offer_pending: false,
            hopeless_moves: 0,
            book: None,
            network: Some(crate::eval::nnue::embedded()),
            tablebases: None,
            search_options: SearchOptions::default(),
            search_memory: Arc::new(SearchMemory::new()),
        }
    }

    /// Handles events until `quit` or end of input; held ponder lines go out when due
    /// even if nothing else happens.
    pub fn run(&mut self, inbox: &Receiver<Event>) {
        loop {
            let event = match self.held_output_deadline() {
                Some(due) => {
                    match inbox.recv_timeout(due.saturating_duration_since(Instant::now())) {
                        Ok(event) => event,
                        Err(RecvTimeoutError::Timeout) => {
                            self.release_held_ponder_lines();
                            continue;
                        }
                        Err(RecvTimeoutError::Disconnected) => break,
                    }
                }
                None => match inbox.recv() {
                    Ok(event) => event,
                    Err(_) => break,
                },
            };
            if self.handle(event) == Flow::Quit {
                break;
            }
        }
        self.abort_search();
    }

    /// Reacts to one event.
    pub fn handle(&mut self, event: Event) -> Flow {
        match event {
            Event::Input(Input::Eof) => Flow::Quit,
            Event::Input(Input::Line(line)) => {
                // Saturating: lines handed over by a test's driver were never counted.
                let _ = self
                    .unread_input
                    .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
                self.handle_line(&line)
            }
            Event::Report { id, report } => {
                self.on_report(id, report);
                Flow::Continue
            }
            Event::Done { id, result } => {
                self.on_search_done(id, result);
                Flow::Continue
            }
        }
    }

    /// The counter the stdin reader raises for each line it passes on (see
    /// `unread_input`).
    pub fn unread_input_counter(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.unread_input)
    }

    /// Whether a line of input has been read but not handled yet.
    fn input_waiting(&self) -> bool {
        self.unread_input.load(Ordering::Acquire) > 0
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        self.history.board()
    }

    /// Why the game manager's state is unsound, if it is: for tests and the fuzzer, which
    /// check it after every command (the boards are sound and follow each other by legal
    /// moves; the hash table holds exactly the game's positions).
    pub fn inconsistency(&self) -> Option<String> {
        self.history.inconsistency(self.speculative_position())
    }

    /// How many searches the game's hash table has seen: for tests that check a command
    /// searched nothing on it.
    pub fn table_searches(&self) -> u8 {
        self.history.table().searches()
    }

    fn send(&self, message: Message) {
        self.out.send(&message);
    }

    /// A debug note: a `#` comment once a CECP GUI accepted `debug`, an `info string` in
    /// UCI after `debug on`; always logged.
    fn debug(&self, text: impl Into<String>) {
        let text = text.into();
        log::debug!("{text}");
        match self.protocol {
            Protocol::Cecp if self.debug_accepted => self.send(Message::Debug(text)),
            Protocol::Uci if self.uci.debug => self.send_uci(crate::uci::Message::InfoString(text)),
            _ => {}
        }
    }

    /// Tells the user something went wrong that the GUI should show: `tellusererror` in
    /// CECP, `info string` in UCI.
    fn tell_user_error(&self, text: String) {
        match self.protocol {
            Protocol::Cecp => self.send(Message::TellUserError(text)),
            Protocol::Uci => self.send_uci(crate::uci::Message::InfoString(text)),
        }
    }

    fn error(&self, kind: ErrorKind, command: &str) {
        self.send(Message::Error {
            kind,
            command: command.to_string(),
        });
    }

    fn handle_line(&mut self, line: &str) -> Flow {
        if self.protocol == Protocol::Uci {
            return self.handle_uci_line(line);
        }
        if matches!(self.mode, Mode::Edit(_)) {
            // No edit sub-command looks like these two, and neither may be lost while editing.
            if let Ok(command @ (Command::Quit | Command::Ping(_))) = cecp::parse(line) {
                return self.execute(command);
            }
            self.handle_edit_line(line);
            return Flow::Continue;
        }
        let parsed = cecp::parse(line);
        let chose_uci = matches!(parsed, Ok(Command::Uci)) && !self.cecp_chosen;
        if !chose_uci && parsed != Err(ParseError::Empty) {
            self.cecp_chosen = true;
        }
        match parsed {
            Ok(command) => self.execute(command),
            Err(ParseError::Empty) => Flow::Continue,
            Err(error) => {
                if let Some(reply) = error.reply() {
                    self.send(reply);
                }
                Flow::Continue
            }
        }
    }

    fn execute(&mut self, command: Command) -> Flow {
        match command {
            Command::Xboard => {}
            Command::Protover(_) => {
                self.plain_thinking_gui = false;
                self.stat01_reader = false;
                self.announce_features();
            }
            Command::Accepted(feature) => match feature.as_str() {
                "debug" => self.debug_accepted = true,
                "analyze" => self.stat01_reader = true,
                _ => {}
            },
            Command::Rejected(feature) => {
                match feature.as_str() {
                    "debug" => self.debug_accepted = false,
                    "analyze" | "playother" => self.plain_thinking_gui = true,
                    _ => {}
                }
                log::debug!("GUI rejected feature {feature}");
            }
            Command::Uci if self.cecp_chosen => self.error(ErrorKind::UnknownCommand, "uci"),
            Command::Uci => self.start_uci(),
            Command::New => self.new_game(),
            Command::Variant(name) => self.set_variant(&name),
            Command::Force => {
                self.abort_search();
                self.mode = Mode::Force;
            }
            Command::Go => self.go(),
            Command::PlayOther => {
                self.abort_search();
                self.mode = Mode::Play(self.board().side_to_move().flip());
            }
            Command::White => self.legacy_color(Color::White),
            Command::Black => self.legacy_color(Color::Black),
            Command::Edit => self.begin_edit(),
            Command::SetBoard(fen) => self.set_board(&fen),
            Command::Quit => return Flow::Quit,
            Command::Random => self.random = !self.random,
            Command::Level(level) => self.time.set_level(level, self.history.plies()),
            Command::MoveTime(st) => self.time.mode = TimeMode::MoveTime(st),
            Command::Depth(d) => self.time.depth = (d > 0).then_some(d),
            Command::Nps(rate) => self.time.nodes_per_second = (rate > 0).then_some(rate),
            Command::Time { centis } => self.time.own_centis = Some(centis),
            // The opponent's clock: the time management plans with its own clock only.
            Command::OpponentTime { .. } => {}
            Command::UserMove(text) => self.user_move(&text),
            Command::MoveNow => self.move_now(),
            Command::Ping(token) => self.ping(token),
            Command::Draw => self.answer_draw_offer(),
            Command::Result { result, comment } => {
                log::debug!("game ended: {result} {comment:?}");
                self.abort_search();
                self.game_over = true;
            }
            Command::Undo => self.take_back(1, "undo"),
            Command::Remove => self.take_back(2, "remove"),
            Command::Hard => self.ponder_enabled = true,
            Command::Easy => {
                self.ponder_enabled = false;
                if matches!(self.search_kind(), Some(SearchKind::Ponder { .. })) {
                    self.abort_search();
                }
            }
            Command::Post => self.post = true,
            Command::NoPost => self.post = false,
            Command::Analyze => {
                self.abort_search();
                self.mode = Mode::Analyze;
                self.refresh_analysis();
            }
            Command::Exit => {
                if self.mode == Mode::Analyze {
                    self.abort_search();
                    self.mode = Mode::Force;
                }
            }
            Command::StatusRequest => self.status(),
            Command::Hint => self.hint(),
            Command::Book => self.show_book(),
            Command::ShowBoard => self.show_board(),
            Command::Help => self.show_help(),
            Command::Name(name) => self.opponent.name = Some(name),
            Command::Rating { engine, opponent } => {
                self.opponent.ratings = Some((engine, opponent));
            }
            Command::Ics(host) => self.ics_host = (host != "-").then_some(host),
            Command::Computer => self.opponent.is_computer = true,
            Command::Pause => self.pause(),
            Command::Resume => self.resume(),
            Command::Memory(mb) => self.change_settings(|s| options::set_memory(s, mb)),
            Command::Cores(n) => self.change_settings(|s| options::set_cores(s, n)),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Exclude(set) => self.change_exclusions(set, true),
            Command::Include(set) => self.change_exclusions(set, false),
            Command::EgtPath { kind, path } if kind == "syzygy" => {
                self.change_settings(|s| s.syzygy_path = path);
            }
            Command::EgtPath { .. } | Command::SetScore { .. } => {}
            Command::Lift(_) | Command::Put(_) | Command::Hover(_) => {}
            Command::Partner(_) | Command::Ptell(_) | Command::Holding(_) => {}
        }
        Flow::Continue
    }

    // ------------------------------------------------------------- small commands

    /// `variant NAME`: standard chess or Chess960; any other variant is refused and
    /// changes nothing. The position stays (XBoard sends `new` first, and the start
    /// position is one of Chess960's).
    fn set_variant(&mut self, name: &str) {
        self.variant = match name {
            "normal" => Variant::Normal,
            "fischerandom" => Variant::Chess960,
            _ => return self.error(ErrorKind::UnsupportedVariant, name),
        };
    }

    /// A move as the GUI reads it in this variant (castling as `O-O` in Chess960).
    fn move_text(&self, m: Move) -> String {
        self.board()
            .coordinate(m, self.variant == Variant::Chess960)
    }

    /// The position's FEN, castling written as the GUI writes it.
    fn fen(&self) -> String {
        match self.fen_castling {
            CastlingNotation::XFen => self.board().to_fen(),
            CastlingNotation::Shredder => self.board().to_shredder_fen(),
        }
    }

    fn ping(&mut self, token: String) {
        self.silence_ponder_output();
        if self.is_thinking() {
            self.pending_pongs.push(token);
        } else {
            self.send(Message::Pong(token));
        }
    }

    fn flush_pongs(&mut self) {
        for token in std::mem::take(&mut self.pending_pongs) {
            self.send(Message::Pong(token));
        }
    }

    /// `.`: the progress of a running analysis, for a GUI that reads it.
    fn status(&self) {
        if let Some(s) = &self.search
            && s.kind == SearchKind::Analyze
            && self.stat01_reader
        {
            let stat = report::stat01(self.board(), &s.control.progress());
            self.send(Message::Stat01(stat));
        }
    }

    fn pause(&mut self) {
        if !self.paused {
            self.paused = true;
            self.abort_search();
        }
    }

    fn resume(&mut self) {
        if self.paused {
            self.paused = false;
            self.refresh_analysis();
            self.move_if_our_turn();
        }
    }
}
