//! Drives the game manager in process, as `ferrimax::game::run` does, but with the test in
//! charge of the event loop: no process, no pipes, no sleeps.
//!
//! A GUI line is handed to [`Game::handle`] at once; events of search threads are handed
//! over only when a helper waits for them, so what a helper returns is exactly the output
//! of what it handled. While the engine thinks on its own move [`Driver::send`] goes on
//! handling events until the move is out, which makes a depth-limited game deterministic.

use ferrimax::chess::Board;
use ferrimax::game::{Event, Flow, Game, Input, Out};
use std::io::Write;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest wait for a search event, a move or a matching line. Depth-limited searches end
/// in milliseconds; this only turns a hang (a lost event, an endless search) into a
/// failure with a transcript, and is generous for a loaded, shared machine.
pub const EVENT_TIMEOUT: Duration = Duration::from_secs(60);

/// The captured output: every message arrives as one whole line.
#[derive(Clone, Default)]
struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    /// Takes the complete lines written so far, leaving any unfinished one.
    fn take_lines(&self) -> Vec<String> {
        let mut bytes = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let Some(end) = bytes.iter().rposition(|&b| b == b'\n') else {
            return Vec::new();
        };
        let complete: Vec<u8> = bytes.drain(..=end).collect();
        let text = String::from_utf8(complete).expect("output is UTF-8");
        text.lines().map(str::to_string).collect()
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut bytes = self.0.lock().unwrap_or_else(|p| p.into_inner());
        bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A game manager, its event channel and its captured output.
pub struct Driver {
    game: Game,
    inbox: Receiver<Event>,
    output: SharedBuffer,
    /// Output lines produced but not yet returned by a helper.
    unread: Vec<String>,
    /// Every line in (`> `) and out (`< `), for failure messages.
    transcript: Vec<String>,
}

/// Whether `line` is a thinking line (`depth score time nodes ...`), not a result such
/// as `1/2-1/2 {...}` or `1-0 {...}`, which also starts with a digit.
pub fn is_thinking_line(line: &str) -> bool {
    line.starts_with(|c: char| c.is_ascii_digit())
        && line
            .split_whitespace()
            .next()
            .is_some_and(|depth| depth.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `line` is a `move` line.
pub fn is_move(line: &str) -> bool {
    line.starts_with("move ")
}

/// The fields of a thinking line: depth, score, centiseconds, nodes (and the rest).
pub struct ThinkingLine<'a> {
    pub depth: u32,
    pub score: i64,
    pub nodes: u64,
    /// The principal variation in SAN, after the TAB.
    pub pv: &'a str,
}

impl<'a> ThinkingLine<'a> {
    pub fn parse(line: &'a str) -> ThinkingLine<'a> {
        let (numbers, pv) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("no TAB in thinking line {line:?}"));
        let fields: Vec<&str> = numbers.split(' ').collect();
        let number = |i: usize| -> i64 {
            fields
                .get(i)
                .and_then(|f| f.parse().ok())
                .unwrap_or_else(|| panic!("field {i} of {line:?}"))
        };
        ThinkingLine {
            depth: u32::try_from(number(0)).expect("depth"),
            score: number(1),
            nodes: u64::try_from(number(3)).expect("nodes"),
            pv,
        }
    }

    /// The first move of the principal variation (SAN).
    pub fn first_move(&self) -> &'a str {
        self.pv.split_whitespace().next().unwrap_or("")
    }
}

impl Driver {
    /// A game manager as `ferrimax` starts it: start position, engine playing Black.
    pub fn new() -> Driver {
        let (events, inbox) = channel();
        let output = SharedBuffer::default();
        let game = Game::new(Out::to(Box::new(output.clone())), events);
        Driver {
            game,
            inbox,
            output,
            unread: Vec::new(),
            transcript: Vec::new(),
        }
    }

    /// The game manager, for questions about its state.
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn board(&self) -> &Board {
        self.game.board()
    }

    /// Handles `event` and collects its output.
    fn handle(&mut self, event: Event) -> Flow {
        let flow = self.game.handle(event);
        self.collect_output();
        flow
    }

    /// Moves what the game wrote into the unread lines and the transcript.
    fn collect_output(&mut self) {
        for line in self.output.take_lines() {
            self.transcript.push(format!("< {line}"));
            self.unread.push(line);
        }
    }

    fn take_unread(&mut self) -> Vec<String> {
        std::mem::take(&mut self.unread)
    }

    /// Handles one GUI line without waiting for anything; returns what it wrote.
    pub fn send_now(&mut self, line: &str) -> Vec<String> {
        self.send_for_flow(line);
        self.take_unread()
    }

    /// Handles one GUI line and tells whether the loop would go on (`quit`).
    pub fn send_for_flow(&mut self, line: &str) -> Flow {
        self.transcript.push(format!("> {line}"));
        self.handle(Event::Input(Input::Line(line.to_string())))
    }

    /// End of input.
    pub fn eof(&mut self) -> Flow {
        self.transcript.push("> (end of input)".to_string());
        self.handle(Event::Input(Input::Eof))
    }

    /// Handles one GUI line; if the engine then thinks on its move, handles search events
    /// until the move is out. Returns everything written meanwhile.
    pub fn send(&mut self, line: &str) -> Vec<String> {
        self.send_for_flow(line);
        self.settle()
    }

    /// [`Driver::send`] for each line; returns all they wrote.
    pub fn send_all(&mut self, lines: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        for line in lines {
            out.extend(self.send(line));
        }
        out
    }

    /// Handles search events while the engine thinks on its own move; returns the output
    /// not yet returned.
    pub fn settle(&mut self) -> Vec<String> {
        let started = Instant::now();
        while self.game.is_thinking() {
            if started.elapsed() > EVENT_TIMEOUT {
                self.fail("no move in time");
            }
            self.next_event();
        }
        self.take_unread()
    }

    /// Blocks for the next search event and handles it; returns whether it was the end
    /// of a search (`Done`). Held ponder lines go out when due on the way, as in
    /// `Game::run`.
    fn next_event(&mut self) -> bool {
        let give_up = Instant::now() + EVENT_TIMEOUT;
        loop {
            let due = self
                .game
                .held_output_deadline()
                .map_or(give_up, |d| d.min(give_up));
            match self
                .inbox
                .recv_timeout(due.saturating_duration_since(Instant::now()))
            {
                Ok(event) => {
                    let done = matches!(event, Event::Done { .. });
                    self.handle(event);
                    return done;
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() < give_up => {
                    self.game.release_held_ponder_lines();
                    self.collect_output();
                }
                Err(RecvTimeoutError::Timeout) => self.fail("no search event in time"),
                Err(RecvTimeoutError::Disconnected) => self.fail("event channel closed"),
            }
        }
    }

    /// Handles the events already queued, without blocking; returns the new output. The
    /// events of an aborted search are all queued by the time the abort returns (its
    /// thread was joined), so after an abort this shows whether any of them got through.
    pub fn drain(&mut self) -> Vec<String> {
        while let Ok(event) = self.inbox.try_recv() {
            self.handle(event);
        }
        self.take_unread()
    }

    /// Handles search events until an output line satisfies `pred` (looking first at
    /// lines not yet returned); returns it and the lines before it.
    pub fn wait_for(&mut self, pred: impl Fn(&str) -> bool) -> (String, Vec<String>) {
        let started = Instant::now();
        loop {
            if let Some(i) = self.unread.iter().position(|l| pred(l)) {
                let mut before: Vec<String> = self.unread.drain(..=i).collect();
                let line = before.pop().expect("the matching line");
                return (line, before);
            }
            if started.elapsed() > EVENT_TIMEOUT {
                self.fail("no matching line in time");
            }
            self.next_event();
        }
    }

    /// Handles search events (and held lines falling due) for `span`; returns the new
    /// output.
    pub fn run_for(&mut self, span: Duration) -> Vec<String> {
        let end = Instant::now() + span;
        loop {
            let now = Instant::now();
            if now >= end {
                break;
            }
            let due = self.game.held_output_deadline().map_or(end, |d| d.min(end));
            match self.inbox.recv_timeout(due.saturating_duration_since(now)) {
                Ok(event) => {
                    self.handle(event);
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.game.release_held_ponder_lines();
                    self.collect_output();
                }
                Err(RecvTimeoutError::Disconnected) => self.fail("event channel closed"),
            }
        }
        self.take_unread()
    }

    /// Waits for a thinking line and returns it.
    pub fn wait_thinking(&mut self) -> String {
        self.wait_for(is_thinking_line).0
    }

    /// Handles search events until a search ends; returns the new output. Only for a
    /// search that has already reported (seen by a wait for one of its lines): the events
    /// of earlier, aborted searches were queued before it started, so the next `Done` is
    /// its own.
    pub fn wait_search_end(&mut self) -> Vec<String> {
        while !self.next_event() {}
        self.take_unread()
    }

    /// Every line in and out so far.
    pub fn transcript(&self) -> String {
        self.transcript.join("\n")
    }

    /// Fails the test with the transcript.
    pub fn fail(&self, why: &str) -> ! {
        panic!("{why}; transcript:\n{}", self.transcript())
    }
}

impl Default for Driver {
    fn default() -> Driver {
        Driver::new()
    }
}

impl Drop for Driver {
    /// Stops any search, so no thread of a finished test keeps a core busy: `.` ends an
    /// edit session (elsewhere it is a harmless status request) and `force` aborts and
    /// joins whatever search runs.
    fn drop(&mut self) {
        for line in [".", "force"] {
            self.game
                .handle(Event::Input(Input::Line(line.to_string())));
        }
    }
}
