//! The UCI front end: the same game manager, search, options, book, levels and clock
//! policy as CECP, driven by UCI's commands (parsed in `crate::uci`).
//!
//! UCI differs from CECP in who keeps the game: the GUI sends the whole game with every
//! `position`, asks for a search with `go` and takes the engine's `bestmove`; the engine
//! never moves on its own, never ponders on its own (the GUI sends `go ponder` with the
//! expected move already played, then `ponderhit` or `stop`), and answers every `go` with
//! exactly one `bestmove`. Bad input is answered with an `info string` that says what was
//! wrong, and changes nothing.

use super::report;
use super::searching::SearchKind;
use super::{ENGINE_NAME, Flow, Game, Mode, Protocol, Variant, options};
use crate::chess::{Board, Move};
use crate::search::{Budget, Clock, Limits, Report, SearchResult};
use crate::uci::{self, Command, Go, Message, ParseError, Start};
use std::time::Duration;

/// What only a UCI session keeps.
#[derive(Debug, Default)]
pub struct UciSession {
    /// `debug on`: debug notes go out as `info string` lines.
    pub debug: bool,
    /// The time limits of the running `go ponder`, which apply from `ponderhit` on.
    ponder_limits: Option<Limits>,
}

/// What `bestmove` says when the position has no legal move.
const NULL_MOVE: &str = "0000";

impl Game {
    /// `uci` as the first command: from now on the GUI speaks UCI. The engine names
    /// itself, lists its options and says `uciok`.
    pub(super) fn start_uci(&mut self) {
        // A second `uci` mid-session still gets the running search's `bestmove` first.
        self.end_go_now();
        self.abort_search();
        self.protocol = Protocol::Uci;
        // The GUI decides when to search; nothing is searched until `go`.
        self.mode = Mode::Force;
        self.ponder_enabled = false;
        self.send_uci(Message::IdName(ENGINE_NAME.to_string()));
        self.send_uci(Message::IdAuthor(uci::AUTHOR.to_string()));
        for option in options::uci_announcements() {
            self.send_uci(Message::Option(option));
        }
        self.send_uci(Message::UciOk);
    }

    pub(super) fn send_uci(&self, message: Message) {
        self.out.send(&message);
    }

    fn info_string(&self, text: impl Into<String>) {
        self.send_uci(Message::InfoString(text.into()));
    }

    /// One line of a UCI session.
    pub(super) fn handle_uci_line(&mut self, line: &str) -> Flow {
        match uci::parse(line) {
            Ok(command) => self.execute_uci(command),
            Err(ParseError::Empty) => Flow::Continue,
            Err(error) => {
                self.info_string(error.to_string());
                Flow::Continue
            }
        }
    }

    fn execute_uci(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => self.start_uci(),
            Command::Debug(on) => self.uci.debug = on,
            Command::IsReady => self.send_uci(Message::ReadyOk),
            Command::SetOption { name, value } => self.uci_set_option(&name, value.as_deref()),
            Command::Register => {}
            Command::UciNewGame => self.uci_new_game(),
            Command::Position { start, moves } => self.uci_position(&start, &moves),
            Command::Go(go) => self.uci_go(&go),
            Command::Stop => self.uci_stop(),
            Command::PonderHit => self.uci_ponder_hit(),
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    fn uci_set_option(&mut self, name: &str, value: Option<&str>) {
        match self.apply_option(Protocol::Uci, name, value) {
            Ok(()) => {}
            Err(options::OptionError::Unknown) => {
                self.info_string(format!("no option named {name}"));
            }
            Err(options::OptionError::BadValue) => {
                let value = value.unwrap_or("");
                self.info_string(format!("option {name} cannot take the value '{value}'"));
            }
        }
        self.variant = if self.settings.chess960 {
            Variant::Chess960
        } else {
            Variant::Normal
        };
    }

    /// `ucinewgame`: what follows is another game: the table's search results and the
    /// opponent's details are forgotten, so every game starts alike.
    fn uci_new_game(&mut self) {
        self.end_go_now();
        self.reset_position(Board::startpos());
        self.opponent = super::policy::Opponent::default();
        self.forget_search_results();
        self.position_changed();
    }

    /// `position`: the game from its start, every position of it entered for
    /// repetitions. A FEN or a move that is not legal refuses the whole command.
    fn uci_position(&mut self, start: &Start, moves: &[String]) {
        let board = match start {
            Start::StartPos => Board::startpos(),
            Start::Fen(fen) => {
                let read = if self.settings.chess960 {
                    Board::from_chess960_fen(fen)
                } else {
                    Board::from_fen(fen)
                };
                match read {
                    Ok(board) => board,
                    Err(why) => {
                        self.info_string(format!("illegal position ({why}): {fen}"));
                        return;
                    }
                }
            }
        };
        let mut replay = board.clone();
        let mut played = Vec::with_capacity(moves.len());
        for (ply, text) in moves.iter().enumerate() {
            match replay.parse_coordinate(text) {
                Ok(m) => {
                    replay.make_move(m);
                    played.push(m);
                }
                Err(why) => {
                    self.info_string(format!(
                        "position refused: move {} ({text}) is {why}; the position stays",
                        ply + 1
                    ));
                    return;
                }
            }
        }
        self.end_go_now();
        self.reset_position(board);
        for m in played {
            self.history.play(m);
        }
        self.position_changed();
    }

    /// `go`: a book move at once, or a search whose `bestmove` comes when it ends (or,
    /// for `go infinite` and `go ponder`, when the GUI says).
    fn uci_go(&mut self, go: &Go) {
        self.end_go_now();
        self.excluded = self.excluded_by(&go.search_moves);
        let legal = self.board().legal_moves();
        if legal.is_empty() {
            self.no_legal_move();
            return;
        }
        let held = go.infinite || go.ponder;
        if !held && let Some(choice) = self.choose_book_move() {
            self.info_string(format!("book move {}", self.board().san(choice.mv)));
            self.send_uci(Message::BestMove {
                best: self.uci_move(self.board(), choice.mv),
                ponder: None,
            });
            return;
        }
        let limits = self.uci_limits(go);
        let searched = if go.ponder {
            // The clock applies from `ponderhit` on; until then only depth, nodes and
            // mate bound the search.
            self.uci.ponder_limits = Some(limits.clone());
            Limits {
                clock: None,
                move_time: None,
                min_time: None,
                ..limits
            }
        } else {
            self.uci.ponder_limits = None;
            limits
        };
        self.launch_search(SearchKind::Go { held }, searched);
    }

    /// The root moves `searchmoves` leaves out: none when it names none (or no legal
    /// move); a move that is not legal here is named in an `info string` and skipped.
    fn excluded_by(&self, search_moves: &[String]) -> Vec<Move> {
        let board = self.board();
        let mut allowed = Vec::new();
        for text in search_moves {
            match board.parse_coordinate(text) {
                Ok(m) => allowed.push(m),
                Err(why) => self.info_string(format!("searchmoves: {text} is {why}")),
            }
        }
        if allowed.is_empty() {
            return Vec::new();
        }
        let legal = board.legal_moves();
        legal
            .iter()
            .copied()
            .filter(|m| !allowed.contains(m))
            .collect()
    }

    /// The answer to `go` in a position without a legal move: the score of the end, and
    /// `bestmove 0000`.
    fn no_legal_move(&self) {
        let score = if self.board().in_check() {
            uci::Score::Mate(0)
        } else {
            uci::Score::Centipawns(0)
        };
        self.send_uci(Message::Info(report::uci_final_info(score)));
        self.send_uci(Message::BestMove {
            best: NULL_MOVE.to_string(),
            ponder: None,
        });
    }

    /// The limits of a `go` for the side to move: its clock (a negative clock is an empty
    /// one), `movetime`, `depth`, `nodes`, `mate`; `infinite` drops the time limits.
    fn uci_limits(&self, go: &Go) -> Limits {
        let white = self.board().side_to_move() == crate::chess::Color::White;
        let (time, increment) = if white {
            (go.white_time, go.white_increment)
        } else {
            (go.black_time, go.black_increment)
        };
        let clock = time.map(|time| Clock {
            remaining: millis(time),
            increment: increment.map_or(Duration::ZERO, millis),
            moves_to_go: go.moves_to_go.filter(|&n| n > 0),
        });
        let mut limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            move_time: go.move_time.map(millis),
            clock,
            mate: go.mate.filter(|&n| n > 0),
            overhead: Some(self.settings.move_overhead()),
            ..Limits::default()
        };
        if go.infinite {
            limits.move_time = None;
            limits.clock = None;
        }
        self.paced_for_level(limits)
    }

    /// `stop`: the search ends and answers with `bestmove` (at once, if it had ended
    /// already and was only held).
    fn uci_stop(&mut self) {
        self.uci.ponder_limits = None;
        let Some(s) = self.search.as_mut() else {
            return;
        };
        if !matches!(s.kind, SearchKind::Go { .. }) {
            return;
        }
        s.kind = SearchKind::Go { held: false };
        match s.take_finished() {
            Some(result) => {
                let id = s.id();
                self.on_search_done(id, result);
            }
            None => s.control.stop(),
        }
    }

    /// `ponderhit`: the move pondered on was played: the search goes on under the clock
    /// of its `go ponder`, counted from now.
    fn uci_ponder_hit(&mut self) {
        let Some(limits) = self.uci.ponder_limits.take() else {
            return;
        };
        let Some(s) = self.search.as_mut() else {
            return;
        };
        s.kind = SearchKind::Go { held: false };
        if let Some(result) = s.take_finished() {
            let id = s.id();
            self.on_search_done(id, result);
            return;
        }
        if let Some(budget) = Budget::for_limits(&limits) {
            s.control.set_deadlines(s.control.elapsed_wall(), budget);
        }
    }

    /// A GUI that sends `go`, `position` or `ucinewgame` while a search runs (UCI asks it
    /// to `stop` first) still gets the `bestmove` of that search, before anything else.
    fn end_go_now(&mut self) {
        self.uci.ponder_limits = None;
        let Some(mut s) = self.search.take() else {
            return;
        };
        s.control.stop();
        let result = s.take_finished().or_else(|| s.join());
        if let Some(result) = result
            && matches!(s.kind, SearchKind::Go { .. })
        {
            self.send_best_move(&result);
        }
    }

    /// `bestmove` for `result`, with the reply it expects when that is legal.
    pub(super) fn send_best_move(&self, result: &SearchResult) {
        let board = self.board();
        if result.best_move.is_none() || !board.is_legal(result.best_move) {
            self.send_uci(Message::BestMove {
                best: NULL_MOVE.to_string(),
                ponder: None,
            });
            return;
        }
        let mut after = board.clone();
        after.make_move(result.best_move);
        let ponder = result
            .ponder_move
            .filter(|&reply| after.is_legal(reply))
            .map(|reply| self.uci_move(&after, reply));
        self.send_uci(Message::BestMove {
            best: self.uci_move(board, result.best_move),
            ponder,
        });
    }

    /// A search report as an `info` line; `rank` is its place among the lines of a
    /// multi-PV search (shown when there are several).
    pub(super) fn send_uci_info(&self, report: &Report, rank: usize) {
        let several = usize::try_from(self.settings.multi_pv).unwrap_or(1) > 1
            && !self.settings.limit_strength;
        // A level's further candidates are its own business: without a `multipv` rank a
        // GUI would read each as the main line.
        if !several && matches!(report, Report::OtherLine(_)) {
            return;
        }
        let pv = self.uci_line(report.info().pv.as_slice());
        let info = report::uci_info(
            report,
            several.then_some(rank),
            self.history.table().hashfull(),
            pv,
        );
        self.send_uci(Message::Info(info));
    }

    /// A move as UCI writes it: castling as the king's step, or in Chess960
    /// (`UCI_Chess960`) as the king taking its own rook.
    fn uci_move(&self, board: &Board, m: Move) -> String {
        board.uci_coordinate(m, self.settings.chess960)
    }

    /// A line of moves from the current position, as UCI writes them.
    fn uci_line(&self, moves: &[Move]) -> Vec<String> {
        let mut board = self.board().clone();
        let mut line = Vec::with_capacity(moves.len());
        for &m in moves {
            if !board.is_legal(m) {
                break;
            }
            line.push(self.uci_move(&board, m));
            board.make_move(m);
        }
        line
    }
}

/// Milliseconds as a duration; a negative count is none.
fn millis(ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}
