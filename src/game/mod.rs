//! The game-state manager: the one place that knows the protocol, the rules and the
//! search. It owns the position and its history, the modes (force, playing a side,
//! analysing, editing), the clocks, and the search thread, and applies every command in
//! the order it arrived (see `../shared/DESIGN.md` for the path of one line of input).
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
mod io;

pub use io::{Out, install_signal_handlers};

use crate::cecp::{
    self, Command, EditCommand, EngineOption, ErrorKind, Feature, GameResult, Message, MoveSet,
    OptionKind, ParseError, Stat01, Thinking, ThinkingExtras,
};
use crate::chess::{Board, Color, Ending, Move, Piece, PieceType, Setup, Square};
use crate::search::{
    self, DEFAULT_HASH_MB, Info, Options, Report, SearchControl, SearchResult, TranspositionTable,
    eval,
};
use clock::{TimeControl, TimeMode};
use io::Input;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

/// Name and version announced to the GUI.
pub const ENGINE_NAME: &str = concat!("Ferrimax ", env!("CARGO_PKG_VERSION"));

/// Largest hash the `Hash` option offers (MB).
const MAX_HASH_MB: i64 = 65_536;
const MAX_THREADS: i64 = 256;
/// Moves of the principal variation whispered on a server (servers cut long lines).
const KIBITZ_PV_MOVES: usize = 10;
/// A draw offer is accepted when our last score (centipawns, our point of view) is at or
/// below this: we are not better than slightly worse.
const DRAW_ACCEPT_CENTIPAWNS: i32 = -25;

/// Everything the main thread reacts to, in arrival order.
pub enum Event {
    Input(Input),
    /// Thinking output of search `id`.
    Report {
        id: u64,
        report: Report,
    },
    /// Search `id` ended.
    Done {
        id: u64,
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
    io::spawn_reader(events.clone());
    let mut game = Game::new(out, events);
    game.run(&inbox);
    0
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum SearchKind {
    /// Thinking on our own move: its result is played.
    Think,
    /// Pondering on the opponent's time, expecting `predicted`.
    Ponder { predicted: Move },
    /// Analyze mode: results are only shown.
    Analyze,
}

struct RunningSearch {
    id: u64,
    kind: SearchKind,
    control: Arc<SearchControl>,
    handle: Option<JoinHandle<()>>,
    /// The position entered speculatively into the table for a ponder search (removed
    /// again if the prediction fails).
    speculative_key: Option<u64>,
    /// A ponder search that ended by itself before the opponent moved.
    finished: Option<SearchResult>,
}

/// Edit mode (XBoard's `edit` when `setboard` is not used).
struct EditState {
    setup: Setup,
    color: Color,
}

/// Opponent and server facts, from `name`, `rating`, `computer` and `ics`.
#[derive(Default)]
struct Company {
    opponent: Option<String>,
    ratings: Option<(i32, i32)>,
    opponent_is_computer: bool,
    ics_host: Option<String>,
}

/// The game-state manager (see the module docs).
pub struct Game {
    out: Out,
    events: Sender<Event>,
    /// Positions of the game since `new`/`setboard`/`edit`: the first is where it started,
    /// the last is the current one.
    boards: Vec<Board>,
    moves: Vec<Move>,
    tt: Arc<TranspositionTable>,
    /// Side the engine plays; `None` in force mode.
    engine_side: Option<Color>,
    analyzing: bool,
    edit: Option<EditState>,
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
    search: Option<RunningSearch>,
    next_search_id: u64,
    /// Pongs held back until the move of the current search is out.
    pending_pongs: Vec<String>,
    /// Our last search score, centipawns, for answering draw offers.
    last_score: Option<i32>,
    /// The reply our last search expected (for `hint` and pondering).
    expected_reply: Option<Move>,
    /// Last thinking line of the current search, for kibitzing on a server.
    last_info: Option<Info>,
    /// A hash size that arrived while the engine was thinking on its move.
    pending_hash_mb: Option<usize>,
    threads: u32,
    company: Company,
    options: Options,
}

impl Game {
    pub fn new(out: Out, events: Sender<Event>) -> Game {
        let start = Board::startpos();
        let (tt, _) = TranspositionTable::largest_fitting(DEFAULT_HASH_MB)
            .unwrap_or_else(|error| panic!("no memory for even the smallest hash table: {error}"));
        let tt = Arc::new(tt);
        tt.insert_game_position(start.key());
        Game {
            out,
            events,
            boards: vec![start],
            moves: Vec::new(),
            tt,
            engine_side: Some(Color::Black),
            analyzing: false,
            edit: None,
            game_over: false,
            ponder_enabled: false,
            post: false,
            random: false,
            paused: false,
            time: TimeControl::default(),
            excluded: Vec::new(),
            debug_accepted: false,
            search: None,
            next_search_id: 1,
            pending_pongs: Vec::new(),
            last_score: None,
            expected_reply: None,
            last_info: None,
            pending_hash_mb: None,
            threads: 1,
            company: Company::default(),
            options: Options::default(),
        }
    }

    /// Handles events until `quit` or end of input.
    pub fn run(&mut self, inbox: &Receiver<Event>) {
        while let Ok(event) = inbox.recv() {
            if self.handle(event) == Flow::Quit {
                break;
            }
        }
        self.abort_search();
    }

    fn board(&self) -> &Board {
        self.boards.last().expect("there is always a position")
    }

    fn send(&self, message: Message) {
        self.out.send(&message);
    }

    /// A `#` comment, shown only when the GUI accepted `debug`; always logged.
    fn debug(&self, text: impl Into<String>) {
        let text = text.into();
        log::debug!("{text}");
        if self.debug_accepted {
            self.send(Message::Debug(text));
        }
    }

    fn handle(&mut self, event: Event) -> Flow {
        match event {
            Event::Input(Input::Eof) => Flow::Quit,
            Event::Input(Input::Line(line)) => self.handle_line(&line),
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

    fn handle_line(&mut self, line: &str) -> Flow {
        if self.edit.is_some() {
            // No edit sub-command looks like these two, and neither may be lost while editing.
            if let Ok(command @ (Command::Quit | Command::Ping(_))) = cecp::parse(line) {
                return self.execute(command);
            }
            self.handle_edit_line(line);
            return Flow::Continue;
        }
        match cecp::parse(line) {
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

    fn error(&self, kind: ErrorKind, command: &str) {
        self.send(Message::Error {
            kind,
            command: command.to_string(),
        });
    }

    // =================================================================== commands

    fn execute(&mut self, command: Command) -> Flow {
        match command {
            Command::Xboard => {}
            Command::Protover(_) => self.announce_features(),
            Command::Accepted(feature) => {
                if feature == "debug" {
                    self.debug_accepted = true;
                }
            }
            Command::Rejected(feature) => {
                if feature == "debug" {
                    self.debug_accepted = false;
                }
                log::debug!("GUI rejected feature {feature}");
            }
            Command::Uci => self.error(ErrorKind::UnknownCommand, "uci"),
            Command::New => self.new_game(),
            Command::Variant(name) => {
                if name != "normal" {
                    self.error(ErrorKind::UnsupportedVariant, &name);
                }
            }
            Command::Force => {
                self.abort_search();
                self.engine_side = None;
            }
            Command::Go => self.go(),
            Command::PlayOther => {
                self.abort_search();
                self.engine_side = Some(self.board().side_to_move().flip());
            }
            Command::White | Command::Black => {
                let to_move = if command == Command::White {
                    Color::White
                } else {
                    Color::Black
                };
                self.legacy_colour(to_move);
            }
            Command::Edit => {
                self.abort_search();
                self.edit = Some(EditState {
                    setup: self.board().to_setup(),
                    color: Color::White,
                });
            }
            Command::SetBoard(fen) => self.set_board(&fen),
            Command::Quit => return Flow::Quit,
            Command::Random => self.random = !self.random,
            Command::Level(level) => {
                let ply = self.moves.len();
                self.time.set_level(level, ply);
            }
            Command::MoveTime(st) => self.time.mode = TimeMode::MoveTime(st),
            Command::Depth(d) => self.time.depth = (d > 0).then_some(d),
            Command::Nps(rate) => self.time.nodes_per_second = (rate > 0).then_some(rate),
            Command::Time { centis } => self.time.own_centis = Some(centis),
            Command::OpponentTime { centis } => self.time.opponent_centis = Some(centis),
            Command::UserMove(text) => self.user_move(&text),
            Command::MoveNow => {
                if let Some(s) = &self.search
                    && s.kind == SearchKind::Think
                {
                    s.control.stop();
                }
            }
            Command::Ping(token) => self.ping(token),
            Command::Draw => self.draw_offered(),
            Command::Result { result, comment } => {
                log::debug!("game ended: {result} {comment:?}");
                self.abort_search();
                self.game_over = true;
            }
            Command::Undo => self.take_back(1),
            Command::Remove => self.take_back(2),
            Command::Hard => self.ponder_enabled = true,
            Command::Easy => {
                self.ponder_enabled = false;
                if matches!(
                    self.search.as_ref().map(|s| s.kind),
                    Some(SearchKind::Ponder { .. })
                ) {
                    self.abort_search();
                }
            }
            Command::Post => self.post = true,
            Command::NoPost => self.post = false,
            Command::Analyze => {
                self.analyzing = true;
                self.restart_analysis();
            }
            Command::Exit => {
                if self.analyzing {
                    self.abort_search();
                    self.analyzing = false;
                    self.engine_side = None;
                }
            }
            Command::StatusRequest => self.status(),
            Command::Hint => self.hint(),
            Command::Book => self.send(Message::BookEnd),
            Command::Name(name) => self.company.opponent = Some(name),
            Command::Rating { engine, opponent } => self.company.ratings = Some((engine, opponent)),
            Command::Ics(host) => self.company.ics_host = (host != "-").then_some(host),
            Command::Computer => self.company.opponent_is_computer = true,
            Command::Pause => self.pause(),
            Command::Resume => self.resume(),
            Command::Memory(mb) => self.resize_hash(usize::try_from(mb).unwrap_or(usize::MAX)),
            Command::Cores(n) => self.threads = n.max(1),
            Command::EgtPath { .. } => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Exclude(set) => self.change_exclusions(set, true),
            Command::Include(set) => self.change_exclusions(set, false),
            Command::SetScore { .. } => {}
            Command::Lift(_) | Command::Put(_) | Command::Hover(_) => {}
            Command::Partner(_) | Command::Ptell(_) | Command::Holding(_) => {}
        }
        Flow::Continue
    }

    fn announce_features(&self) {
        self.send(Message::Feature(vec![Feature::Done(false)]));
        self.send(Message::Feature(vec![
            Feature::MyName(ENGINE_NAME.to_string()),
            Feature::Variants("normal".to_string()),
            Feature::Ping(true),
            Feature::SetBoard(true),
            Feature::PlayOther(true),
            Feature::San(false),
            Feature::UserMove(true),
            Feature::Time(true),
            Feature::Draw(true),
            Feature::SigInt(false),
            Feature::SigTerm(false),
            Feature::Reuse(true),
            Feature::Analyze(true),
            Feature::Colors(false),
            Feature::Ics(true),
            Feature::Name(true),
            Feature::Pause(false),
            Feature::Nps(true),
            Feature::Debug(true),
            Feature::Memory(true),
            Feature::Smp(true),
            Feature::Exclude(true),
        ]));
        self.send(Message::Feature(vec![
            Feature::Option(EngineOption {
                name: "Hash".into(),
                kind: OptionKind::Spin {
                    default: DEFAULT_HASH_MB as i64,
                    min: 1,
                    max: MAX_HASH_MB,
                },
            }),
            Feature::Option(EngineOption {
                name: "Threads".into(),
                kind: OptionKind::Spin {
                    default: 1,
                    min: 1,
                    max: MAX_THREADS,
                },
            }),
        ]));
        self.send(Message::Feature(vec![Feature::Done(true)]));
    }

    fn new_game(&mut self) {
        self.abort_search();
        self.reset_position(Board::startpos());
        self.engine_side = Some(Color::Black);
        self.random = false;
        self.time.new_game();
        self.expected_reply = None;
        if self.analyzing {
            self.restart_analysis();
        }
    }

    /// Replaces the game with one starting at `board` (no earlier positions).
    fn reset_position(&mut self, board: Board) {
        for b in &self.boards {
            self.tt.remove_game_position(b.key());
        }
        self.tt.insert_game_position(board.key());
        self.boards = vec![board];
        self.moves.clear();
        self.excluded.clear();
        self.game_over = false;
        self.last_score = None;
        self.time.restart_sessions();
    }

    fn set_board(&mut self, fen: &str) {
        let board = match Board::from_fen(fen) {
            Ok(board) => board,
            Err(e) => {
                // Refused before anything is touched: a running search goes on.
                log::debug!("setboard refused: {e}");
                self.send(Message::TellUserError("Illegal position".into()));
                return;
            }
        };
        self.abort_search();
        self.reset_position(board);
        if self.analyzing {
            self.restart_analysis();
        }
    }

    /// GNU Chess's `white`/`black`: set the side to move, engine plays the other, clocks
    /// stop. XBoard still uses them for Black-to-move set-ups in edit mode.
    fn legacy_colour(&mut self, to_move: Color) {
        let flipped = if self.board().side_to_move() == to_move {
            None
        } else {
            let mut setup = self.board().to_setup();
            setup.side = to_move;
            setup.en_passant = None;
            match setup.into_board() {
                Ok(board) => Some(board),
                Err(_) => {
                    let name = if to_move == Color::White {
                        "white"
                    } else {
                        "black"
                    };
                    self.error(ErrorKind::NotLegalNow, name);
                    return;
                }
            }
        };
        self.abort_search();
        if let Some(board) = flipped {
            self.reset_position(board);
        }
        self.engine_side = Some(to_move.flip());
    }

    fn handle_edit_line(&mut self, line: &str) {
        let Some(edit) = self.edit.as_mut() else {
            return;
        };
        match cecp::parse_edit(line) {
            Ok(EditCommand::SwitchColour) => edit.color = edit.color.flip(),
            Ok(EditCommand::ClearBoard) => {
                for sq in Square::all() {
                    edit.setup.set(sq, None);
                }
            }
            Ok(EditCommand::Place { piece, square }) => {
                let kind = PieceType::from_letter(piece);
                let sq = Square::parse(&square);
                if let (Some(kind), Some(sq)) = (kind, sq) {
                    edit.setup.set(sq, Some(Piece::new(edit.color, kind)));
                }
            }
            Ok(EditCommand::ClearSquare(square)) => {
                if let Some(sq) = Square::parse(&square) {
                    edit.setup.set(sq, None);
                }
            }
            Ok(EditCommand::Done) => self.finish_edit(),
            Err(ParseError::Empty) => {}
            Err(e) => {
                if let Some(reply) = e.reply() {
                    self.send(reply);
                }
            }
        }
    }

    /// Leaves edit mode: castling rights for kings and rooks on their home squares, no
    /// e.p. square, move counters reset; an impossible position keeps the old one.
    fn finish_edit(&mut self) {
        let Some(edit) = self.edit.take() else { return };
        let mut setup = edit.setup;
        setup.castling = setup.castling_from_placement();
        setup.en_passant = None;
        setup.halfmove = 0;
        setup.fullmove = 1;
        match setup.into_board() {
            Ok(board) => self.reset_position(board),
            Err(e) => {
                log::debug!("edited position refused: {e}");
                self.send(Message::TellUserError("Illegal position".into()));
            }
        }
        if self.analyzing {
            self.restart_analysis();
        }
    }

    fn go(&mut self) {
        let to_move = self.board().side_to_move();
        if let Some(s) = &self.search
            && s.kind == SearchKind::Think
            && self.engine_side == Some(to_move)
        {
            return; // already thinking on this move
        }
        self.abort_search();
        self.analyzing = false;
        self.engine_side = Some(to_move);
        self.engine_turn();
    }

    fn user_move(&mut self, text: &str) {
        // Even after a result, a legal move is applied (the engine just does not answer
        // it): calling it illegal would be a false claim that GUIs punish.
        let Ok(m) = self.board().parse_move(text) else {
            self.send(Message::IllegalMove {
                mv: text.to_string(),
                reason: None,
            });
            return;
        };
        // A predicted reply turns the ponder search into thinking on our own time.
        if let Some(s) = &self.search
            && let SearchKind::Ponder { predicted } = s.kind
            && predicted == m
            && self.engine_side == Some(self.board().side_to_move().flip())
        {
            self.ponder_hit(m);
            return;
        }
        self.abort_search();
        self.play(m);
        if self.analyzing {
            self.restart_analysis();
        } else if self.engine_side == Some(self.board().side_to_move()) {
            self.engine_turn();
        }
    }

    /// Makes `m` on the game board and enters the new position into the table.
    fn play(&mut self, m: Move) {
        let mut board = self.board().clone();
        board.make_move(m);
        self.tt.insert_game_position(board.key());
        self.boards.push(board);
        self.moves.push(m);
        self.excluded.clear();
    }

    fn take_back(&mut self, plies: usize) {
        if self.moves.len() < plies {
            let name = if plies == 1 { "undo" } else { "remove" };
            self.error(ErrorKind::NotLegalNow, name);
            return;
        }
        self.abort_search();
        for _ in 0..plies {
            let board = self.boards.pop().expect("a move to take back");
            self.moves.pop();
            if !self.boards.iter().any(|b| b.key() == board.key()) {
                self.tt.remove_game_position(board.key());
            }
        }
        self.excluded.clear();
        self.game_over = false;
        self.last_score = None;
        if self.analyzing {
            self.restart_analysis();
        }
    }

    fn ping(&mut self, token: String) {
        match &self.search {
            Some(s) if s.kind == SearchKind::Think => self.pending_pongs.push(token),
            _ => self.send(Message::Pong(token)),
        }
    }

    fn flush_pongs(&mut self) {
        for token in std::mem::take(&mut self.pending_pongs) {
            self.send(Message::Pong(token));
        }
    }

    fn draw_offered(&mut self) {
        let dead = self.board().is_insufficient_material();
        let not_better = self
            .last_score
            .is_some_and(|cp| cp <= DRAW_ACCEPT_CENTIPAWNS);
        if dead || not_better {
            self.send(Message::OfferDraw);
        }
    }

    fn hint(&self) {
        if let Some(m) = self.expected_reply
            && self.board().is_legal(m)
        {
            self.send(Message::Hint(m.to_string()));
        }
    }

    fn status(&self) {
        if let Some(s) = &self.search
            && s.kind == SearchKind::Analyze
        {
            let p = s.control.progress();
            let current = (!p.current_move.is_none() && self.board().is_legal(p.current_move))
                .then(|| self.board().san(p.current_move));
            self.send(Message::Stat01(Stat01 {
                centis: p.elapsed.as_millis() as u64 / 10,
                nodes: p.nodes,
                depth: p.depth,
                moves_left: p.moves_left,
                moves_total: p.moves_total,
                current,
            }));
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
            if self.analyzing {
                self.restart_analysis();
            } else if self.engine_side == Some(self.board().side_to_move()) {
                self.engine_turn();
            }
        }
    }

    /// A new table size. While the engine thinks on its own move the change waits for the
    /// next search (stopping would lose the move); analysis restarts with the new table.
    fn resize_hash(&mut self, megabytes: usize) {
        let megabytes = megabytes.max(1);
        if self
            .search
            .as_ref()
            .is_some_and(|s| s.kind == SearchKind::Think)
        {
            self.pending_hash_mb = Some(megabytes);
            return;
        }
        self.abort_search();
        self.apply_hash_size(megabytes);
        if self.analyzing {
            self.restart_analysis();
        }
    }

    /// The largest table up to `requested` MB (and `MAX_HASH_MB`) that the machine can
    /// hold, keeping the game positions; the user is told when that is less than asked.
    /// Nothing fitting at all keeps the current table.
    fn apply_hash_size(&mut self, requested: usize) {
        let wanted = requested.min(MAX_HASH_MB as usize);
        if wanted != self.tt.megabytes() {
            match self.tt.resized_to_fit(wanted) {
                Ok((table, _)) => self.tt = Arc::new(table),
                Err(error) => log::warn!("hash table kept: {error}"),
            }
        }
        let obtained = self.tt.megabytes();
        if obtained < requested {
            self.send(Message::TellUserError(format!(
                "Hash reduced to {obtained} MB: {requested} MB cannot be allocated"
            )));
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let number = value.and_then(|v| v.trim().parse::<i64>().ok());
        match (name, number) {
            ("Hash", Some(mb)) if (1..=MAX_HASH_MB).contains(&mb) => self.resize_hash(mb as usize),
            ("Threads", Some(n)) if (1..=MAX_THREADS).contains(&n) => self.threads = n as u32,
            _ => {
                let line = match value {
                    Some(v) => format!("option {name}={v}"),
                    None => format!("option {name}"),
                };
                self.error(ErrorKind::BadArgument, &line);
            }
        }
    }

    fn change_exclusions(&mut self, set: MoveSet, exclude: bool) {
        let legal = self.board().legal_moves();
        match set {
            MoveSet::All => {
                self.excluded = if exclude {
                    legal.iter().copied().collect()
                } else {
                    Vec::new()
                };
            }
            MoveSet::One(text) => match self.board().parse_move(&text) {
                Ok(m) => {
                    self.excluded.retain(|&x| x != m);
                    if exclude {
                        self.excluded.push(m);
                    }
                }
                Err(_) => {
                    self.send(Message::IllegalMove {
                        mv: text,
                        reason: None,
                    });
                    return;
                }
            },
        }
        if self.analyzing {
            self.restart_analysis();
        }
    }

    // =================================================================== searching

    /// It is our move: claim the result if the game is over, else start thinking.
    fn engine_turn(&mut self) {
        if self.paused || self.game_over {
            return;
        }
        if self.claim_if_over() {
            return;
        }
        self.start_search(SearchKind::Think);
    }

    /// Claims the result when the current position ends the game by rule (and the engine
    /// is playing). Returns whether it did.
    fn claim_if_over(&mut self) -> bool {
        let earlier: Vec<u64> = self.boards[..self.boards.len() - 1]
            .iter()
            .map(Board::key)
            .collect();
        let Some(ending) = self.board().ending(&earlier) else {
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

    fn root_moves(&self) -> Option<Vec<Move>> {
        if self.excluded.is_empty() {
            return None;
        }
        Some(
            self.board()
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| !self.excluded.contains(m))
                .collect(),
        )
    }

    fn own_moves_since_session_start(&self) -> u32 {
        let side = self.board().side_to_move();
        let start = self.time.session_start_ply().min(self.boards.len() - 1);
        self.boards[start..self.boards.len() - 1]
            .iter()
            .filter(|b| b.side_to_move() == side)
            .count() as u32
    }

    fn start_search(&mut self, kind: SearchKind) {
        if let Some(megabytes) = self.pending_hash_mb.take() {
            self.apply_hash_size(megabytes);
        }
        let mut board = self.board().clone();
        let mut limits = match kind {
            SearchKind::Think => self.time.limits(self.own_moves_since_session_start()),
            SearchKind::Ponder { .. } | SearchKind::Analyze => search::Limits {
                depth: self.time.depth.filter(|_| kind != SearchKind::Analyze),
                ..search::Limits::default()
            },
        };
        let mut speculative_key = None;
        let mut root_moves = self.root_moves();
        if let SearchKind::Ponder { predicted } = kind {
            board.make_move(predicted);
            if !self.boards.iter().any(|b| b.key() == board.key()) {
                self.tt.insert_game_position(board.key());
                speculative_key = Some(board.key());
            }
            root_moves = None;
        }
        if root_moves.as_ref().is_some_and(Vec::is_empty) {
            return; // everything excluded: nothing to analyse
        }
        if kind == SearchKind::Analyze {
            limits.nodes_per_second = None;
        }
        let id = self.next_search_id;
        self.next_search_id += 1;
        let control = Arc::new(SearchControl::new());
        let tt = Arc::clone(&self.tt);
        let events = self.events.clone();
        let thread_control = Arc::clone(&control);
        let mut options = self.options;
        options.noise_seed = self.random.then(|| rand::random::<u64>() | 1);
        self.last_info = None;
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(16 << 20)
            .spawn(move || {
                let mut report = |r: &Report| {
                    let _ = events.send(Event::Report {
                        id,
                        report: r.clone(),
                    });
                };
                let result = search::search(
                    &board,
                    &limits,
                    root_moves.as_deref(),
                    &tt,
                    &thread_control,
                    options,
                    &mut report,
                );
                let _ = events.send(Event::Done { id, result });
            })
            .expect("spawn the search thread");
        self.search = Some(RunningSearch {
            id,
            kind,
            control,
            handle: Some(handle),
            speculative_key,
            finished: None,
        });
    }

    /// Stops the running search and forgets it: its move will never be printed.
    fn abort_search(&mut self) {
        if let Some(mut s) = self.search.take() {
            s.control.stop();
            if let Some(handle) = s.handle.take() {
                let _ = handle.join();
            }
            if let Some(key) = s.speculative_key {
                self.tt.remove_game_position(key);
            }
            if s.kind == SearchKind::Think {
                // The move will not come: the held pongs may go.
                self.flush_pongs();
            }
        }
    }

    fn restart_analysis(&mut self) {
        self.abort_search();
        if self.analyzing && !self.paused {
            self.start_search(SearchKind::Analyze);
        }
    }

    fn ponder_hit(&mut self, m: Move) {
        let Some(mut s) = self.search.take() else {
            return;
        };
        s.speculative_key = None; // the position is now really in the game
        let mut board = self.board().clone();
        board.make_move(m);
        self.boards.push(board);
        self.moves.push(m);
        self.excluded.clear();
        if let Some(result) = s.finished.take() {
            // The ponder search already ended: play its move (after a fresh check).
            if let Some(handle) = s.handle.take() {
                let _ = handle.join();
            }
            self.debug(format!("ponder hit on {m}, search had finished"));
            self.search = Some(RunningSearch {
                kind: SearchKind::Think,
                ..s
            });
            let id = self.search.as_ref().map_or(0, |s| s.id);
            self.on_search_done(id, result);
            return;
        }
        let limits = self.time.limits(self.own_moves_since_session_start());
        if let Some(budget) = search::Budget::for_limits(&limits) {
            s.control.set_deadlines(s.control.elapsed_wall(), budget);
        }
        self.debug(format!("ponder hit on {m}"));
        s.kind = SearchKind::Think;
        self.search = Some(s);
    }

    fn on_report(&mut self, id: u64, report: Report) {
        if self.search.as_ref().is_none_or(|s| s.id != id) {
            return; // from a search already forgotten
        }
        let (Report::Iteration(info) | Report::NewBest(info)) = report;
        if self.post {
            // Ponder lines start with the reply we expect, so they read from the position
            // the GUI shows.
            let mut line = info.clone();
            if let Some(SearchKind::Ponder { predicted }) = self.search.as_ref().map(|s| s.kind) {
                line.pv.insert(0, predicted);
            }
            self.send(Message::Thinking(thinking_line(self.board(), &line)));
        }
        self.last_info = Some(info);
    }

    fn on_search_done(&mut self, id: u64, result: SearchResult) {
        let Some(s) = self.search.as_mut() else {
            return;
        };
        if s.id != id {
            return;
        }
        match s.kind {
            SearchKind::Think => {
                let mut s = self.search.take().expect("checked above");
                if let Some(handle) = s.handle.take() {
                    let _ = handle.join();
                }
                self.play_engine_move(result);
            }
            SearchKind::Ponder { .. } => {
                // Keep the result for a ponder hit; nothing to print now.
                s.finished = Some(result);
            }
            SearchKind::Analyze => {}
        }
    }

    fn play_engine_move(&mut self, result: SearchResult) {
        let m = result.best_move;
        let ours = self.engine_side == Some(self.board().side_to_move());
        if !ours || self.game_over || !self.board().is_legal(m) {
            // Never print a move that is not ours to make or not legal here.
            self.flush_pongs();
            return;
        }
        self.last_score = Some(centipawns(result.score));
        self.play(m);
        self.send(Message::Move(m.to_string()));
        self.kibitz(&result);
        self.flush_pongs();
        if self.claim_if_over() {
            return;
        }
        self.expected_reply = result.ponder_move;
        if self.ponder_enabled
            && self.time.nodes_per_second.is_none()
            && let Some(predicted) = result.ponder_move
            && self.board().is_legal(predicted)
        {
            self.start_search(SearchKind::Ponder { predicted });
        }
    }

    /// On a chess server, whisper a one-line summary of the search after each move.
    fn kibitz(&self, result: &SearchResult) {
        if self.company.ics_host.is_none() {
            return;
        }
        let Some(info) = &self.last_info else { return };
        let before = &self.boards[self.boards.len() - 2];
        let summary = SearchSummary {
            depth: info.depth,
            score: cecp_score(info.score),
            elapsed: result.elapsed,
            nodes: result.nodes,
            pv: before.san_line(&info.pv[..info.pv.len().min(KIBITZ_PV_MOVES)]),
        };
        self.send(Message::TellOthers(summary.to_string()));
    }
}

/// The one-line account of a search that is whispered on a server, e.g.
/// `depth 12 score +0.34 time 2.1s nodes 1843210 knps 878 pv e4 e5 Nf3`.
struct SearchSummary {
    depth: i32,
    score: cecp::Score,
    elapsed: std::time::Duration,
    nodes: u64,
    pv: String,
}

impl std::fmt::Display for SearchSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let seconds = self.elapsed.as_secs_f64();
        let knps = self.nodes as f64 / seconds.max(1e-3) / 1000.0;
        write!(f, "depth {} score ", self.depth)?;
        match self.score {
            cecp::Score::Centipawns(cp) => write!(f, "{:+.2}", f64::from(cp) / 100.0)?,
            cecp::Score::MateIn(moves) => write!(f, "#{moves}")?,
            cecp::Score::MatedIn(moves) => write!(f, "#-{moves}")?,
        }
        write!(
            f,
            " time {seconds:.1}s nodes {} knps {knps:.0} pv {}",
            self.nodes, self.pv
        )
    }
}

/// A search score in the protocol's terms (mates counted in moves).
fn cecp_score(score: search::Score) -> cecp::Score {
    match score {
        search::Score::Centipawns(cp) => cecp::Score::Centipawns(cp),
        search::Score::Mate(plies) if plies > 0 => cecp::Score::mate_in_plies(plies as u32),
        search::Score::Mate(plies) => cecp::Score::mated_in_plies(plies.unsigned_abs()),
    }
}

/// Internal score to centipawns from the mover's point of view, mates as ±(100000 + N).
fn centipawns(score: i32) -> i32 {
    cecp_score(search::Score::from_internal(score)).cecp_value() as i32
}

fn thinking_line(board: &Board, info: &Info) -> Thinking {
    let score = cecp_score(info.score);
    let seconds = info.elapsed.as_secs_f64();
    Thinking {
        depth: info.depth.max(0) as u32,
        score,
        centis: (seconds * 100.0) as u64,
        nodes: info.nodes,
        extras: Some(ThinkingExtras {
            seldepth: info.seldepth.max(0) as u32,
            nps: (info.nodes as f64 / seconds.max(1e-3)) as u64,
            tbhits: 0,
        }),
        pv: board.san_line(&info.pv),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whisper_summary_reads_as_one_short_line() {
        let summary = SearchSummary {
            depth: 12,
            score: cecp::Score::Centipawns(34),
            elapsed: std::time::Duration::from_millis(2100),
            nodes: 1_843_210,
            pv: "e4 e5 Nf3".into(),
        };
        assert_eq!(
            summary.to_string(),
            "depth 12 score +0.34 time 2.1s nodes 1843210 knps 878 pv e4 e5 Nf3"
        );
        let mate = SearchSummary {
            score: cecp::Score::MatedIn(3),
            ..summary
        };
        assert!(mate.to_string().starts_with("depth 12 score #-3 "));
    }
}
