//! One updating progress line on stderr for long command-line work: rewritten in place
//! with a carriage return, and ended with a newline when the work is done. stdout keeps
//! the results only, so they can be piped and compared.

use std::io::Write;

/// A progress line that is rewritten as the work goes on.
pub struct Progress {
    /// What is being done, e.g. `bench`.
    what: &'static str,
    total: usize,
    /// Length of the last line written, so a shorter one can blank out its tail.
    last_len: usize,
}

impl Progress {
    /// Progress of `total` steps of `what`.
    pub fn new(what: &'static str, total: usize) -> Progress {
        Progress {
            what,
            total,
            last_len: 0,
        }
    }

    /// Shows that `done` steps are finished, with a short `note`.
    pub fn show(&mut self, done: usize, note: &str) {
        let line = format!("{} {done}/{} {note}", self.what, self.total);
        let padding = self.last_len.saturating_sub(line.len());
        self.last_len = line.len();
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{line}{}", " ".repeat(padding));
        let _ = err.flush();
    }

    /// Ends the line.
    pub fn finish(self) {
        let _ = writeln!(std::io::stderr());
    }
}
