//! Where protocol text enters and leaves: the stdin reader thread, the one output handle,
//! and the process's signal dispositions.

use crate::cecp::Message;
use std::io::{BufRead, Write};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

/// The single writer of protocol lines. Each message is written as one whole line and
/// flushed at once, under a lock, so lines never interleave and never wait in a buffer.
#[derive(Clone)]
pub struct Out {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Out {
    pub fn stdout() -> Out {
        Out::to(Box::new(std::io::stdout()))
    }

    pub fn to(sink: Box<dyn Write + Send>) -> Out {
        Out {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    /// Writes `message` as one line. A closed pipe is not an error worth dying for: the
    /// GUI is gone, and end of input will end the process.
    pub fn send(&self, message: &Message) {
        let line = format!("{message}\n");
        log::trace!("> {}", line.trim_end());
        let mut sink = self
            .sink
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let _ = sink.write_all(line.as_bytes());
        let _ = sink.flush();
    }
}

/// What the main thread receives, in arrival order.
pub enum Input {
    Line(String),
    /// stdin closed: the GUI is gone.
    Eof,
}

/// Reads stdin line by line on its own thread and forwards each line (with any `\r`
/// stripped, invalid UTF-8 replaced) through `forward`. Sends `Input::Eof` at the end.
pub fn spawn_reader<T: From<Input> + Send + 'static>(forward: Sender<T>) {
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
/// Rust's default would kill the process. SIGTERM (which XBoard sends right after `quit`)
/// ends the process at once with status 0: every line already written was flushed whole,
/// and there is nothing to save.
#[cfg(unix)]
pub fn install_signal_handlers() {
    use std::os::raw::c_int;
    const SIGINT: c_int = 2;
    const SIGTERM: c_int = 15;
    const SIG_IGN: usize = 1;
    unsafe extern "C" {
        fn signal(signum: c_int, handler: usize) -> usize;
        fn _exit(status: c_int) -> !;
    }
    extern "C" fn on_sigterm(_: c_int) {
        // SAFETY: `_exit` is async-signal-safe; it ends the process without running any
        // code that could be interrupted mid-way here.
        unsafe { _exit(0) }
    }
    // SAFETY: `signal` is the C library's; the handlers are SIG_IGN and a function with
    // the C signature `void (int)` that only calls an async-signal-safe function.
    unsafe {
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, on_sigterm as extern "C" fn(c_int) as usize);
    }
}

#[cfg(not(unix))]
pub fn install_signal_handlers() {
    // WinBoard never signals its engines.
}
