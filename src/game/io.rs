//! Where protocol text enters and leaves: the stdin reader thread, the one output handle,
//! and the process's signal dispositions.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering, Ordering::Relaxed};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long an exit waits for a line in progress (see [`Out::exit_between_lines`]).
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// The single writer of protocol lines. Each message is written as one whole line and
/// flushed at once, under a lock, so lines never interleave and never wait in a buffer.
#[derive(Clone)]
pub struct Out {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    /// The process is exiting: lines not yet started are dropped.
    closing: Arc<AtomicBool>,
}

impl Out {
    /// Protocol lines to standard output: the engine as a GUI runs it.
    pub fn stdout() -> Out {
        Out::to(Box::new(std::io::stdout()))
    }

    /// Protocol lines to any writer, so tests can read what the engine says.
    pub fn to(sink: Box<dyn Write + Send>) -> Out {
        Out {
            sink: Arc::new(Mutex::new(sink)),
            closing: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes `message` (a CECP or a UCI message) as one line. A closed pipe is not an
    /// error worth dying for: the GUI is gone, and end of input will end the process.
    pub fn send(&self, message: &impl std::fmt::Display) {
        let line = format!("{message}\n");
        log::trace!("> {}", line.trim_end());
        let mut sink = self
            .sink
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if self.closing.load(Relaxed) {
            return;
        }
        let _ = sink.write_all(line.as_bytes());
        let _ = sink.flush();
    }

    /// Ends the process with `status` between two lines: no new line starts once this is
    /// called, a line being written is finished, and the process exits holding the
    /// writer's lock. A GUI that stopped reading would block that line forever, so after
    /// `EXIT_GRACE` the process exits regardless.
    pub fn exit_between_lines(&self, status: i32) -> ! {
        self.closing.store(true, Relaxed);
        let watchdog = std::thread::Builder::new()
            .name("exit watchdog".into())
            .spawn(move || {
                std::thread::sleep(EXIT_GRACE);
                log::warn!("a line is still being written after {EXIT_GRACE:?}: exiting");
                std::process::exit(status);
            });
        if let Err(error) = watchdog {
            log::warn!("exit watchdog not started: {error}");
        }
        let mut sink = self
            .sink
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let _ = sink.flush();
        std::process::exit(status);
    }
}

/// What the main thread receives, in arrival order.
pub enum Input {
    /// One line, without its line ending.
    Line(String),
    /// stdin closed: the GUI is gone.
    Eof,
}

/// Reads stdin line by line on its own thread and forwards each line (with any `\r`
/// stripped, invalid UTF-8 replaced) through `forward`, counting it in `unread` first (the
/// receiver counts it down when it handles it). Sends `Input::Eof` at the end.
pub fn spawn_reader<T: From<Input> + Send + 'static>(forward: Sender<T>, unread: Arc<AtomicUsize>) {
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut reader = stdin.lock();
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buffer);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        log::trace!("< {line}");
                        unread.fetch_add(1, Ordering::AcqRel);
                        if forward.send(Input::Line(line).into()).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = forward.send(Input::Eof.into());
        })
        .expect("spawn the stdin reader");
}

/// XBoard (on Unix) sends SIGINT to "wake" engines it believes are thinking; the engine
/// declares `sigint=0`, but old GUIs and a Ctrl-C in a terminal may still send one, and
/// the default action would kill the process: SIGINT is received and ignored. SIGTERM
/// (which XBoard sends right after `quit`) ends the process with status 0, but only
/// between two lines: a thread waits for the signals and exits through
/// [`Out::exit_between_lines`], so the GUI never reads half a line.
#[cfg(unix)]
pub fn install_signal_handlers(out: &Out) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;
    let mut signals = match Signals::new([SIGINT, SIGTERM]) {
        Ok(signals) => signals,
        Err(error) => {
            log::warn!("signal handlers not installed: {error}");
            return;
        }
    };
    let out = out.clone();
    let spawned = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if signal == SIGTERM {
                    log::debug!("SIGTERM: exiting");
                    out.exit_between_lines(0);
                }
                log::debug!("signal {signal} ignored");
            }
        });
    if let Err(error) = spawned {
        log::warn!("signal thread not started: {error}");
    }
}

#[cfg(not(unix))]
pub fn install_signal_handlers(_out: &Out) {
    // WinBoard never signals its engines.
}
