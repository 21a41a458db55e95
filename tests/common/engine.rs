//! Drives the real `ferrimax` binary over pipes, as a GUI would: for what only a real
//! process shows (start-up, exit, signals, wall-clock budgets). The protocol itself is
//! tested in process with `common::game`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Generous limit for a reply that should come at once (CI machines are slow and shared).
pub const PROMPT: Duration = Duration::from_secs(5);

pub struct Engine {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    /// Every line received so far, for failure messages.
    pub transcript: Vec<String>,
    pub started: Instant,
}

impl Engine {
    pub fn start() -> Engine {
        let started = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_ferrimax"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start ferrimax");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
            started,
        }
    }

    /// Starts the engine and completes the handshake.
    pub fn ready() -> Engine {
        let mut e = Engine::start();
        e.send("xboard");
        e.send("protover 2");
        e.expect_line("feature done=1");
        e
    }

    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to engine");
        stdin.flush().expect("flush to engine");
    }

    pub fn send_all(&mut self, lines: &[&str]) {
        for l in lines {
            self.send(l);
        }
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Next line, or None after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok((_, line)) => {
                self.transcript.push(format!("< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Next line with the time it arrived.
    pub fn next_timed(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        let got = self.lines.recv_timeout(timeout).ok()?;
        self.transcript.push(format!("< {}", got.1));
        Some(got)
    }

    /// Reads lines until one satisfies `pred`; returns it and the lines before it.
    pub fn wait_for(
        &mut self,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> (String, Vec<String>) {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) if pred(&line) => return (line, before),
                Some(line) => before.push(line),
                None => panic!(
                    "no matching line within {timeout:?}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Waits for this exact line; returns the lines before it.
    pub fn expect_line(&mut self, exact: &str) -> Vec<String> {
        self.wait_for(PROMPT, |l| l == exact).1
    }

    /// Waits for a `move X` line and returns X.
    pub fn expect_move(&mut self, timeout: Duration) -> String {
        let (line, _) = self.wait_for(timeout, |l| l.starts_with("move "));
        line["move ".len()..].to_string()
    }

    /// Sends `ping N` and returns the lines before `pong N`.
    pub fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        self.expect_line(&format!("pong {n}"))
    }

    /// Waits for the process to exit; returns how long it took and its status.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<(Duration, std::process::ExitStatus)> {
        let start = Instant::now();
        while start.elapsed() < timeout {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some((start.elapsed(), status));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        None
    }

    /// Asserts no line satisfying `pred` arrives within `window`; returns what did arrive.
    pub fn assert_none(&mut self, window: Duration, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + window;
        let mut seen = Vec::new();
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            assert!(
                !pred(&line),
                "unexpected line {line:?}; transcript:\n{}",
                self.transcript.join("\n")
            );
            seen.push(line);
        }
        seen
    }

    /// Asserts the engine never answered `Error (...)` or `Illegal move` so far.
    pub fn assert_no_error_replies(&self) {
        let errors: Vec<&String> = self
            .transcript
            .iter()
            .filter(|l| l.starts_with("< Error") || l.starts_with("< Illegal"))
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
    }

    pub fn dump(&self) -> String {
        self.transcript.join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
