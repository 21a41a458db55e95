//! Analyze mode, pondering, the smaller commands, signals, exit and logging, played
//! against the real binary.

mod common;

use common::board_after;
use common::engine::{Engine, PROMPT};
use ferrimax::chess::Board;
use std::time::{Duration, Instant};

fn is_thinking(line: &str) -> bool {
    line.starts_with(|c: char| c.is_ascii_digit())
}

fn first_pv_move(line: &str) -> &str {
    line.split('\t')
        .nth(1)
        .and_then(|pv| pv.split_whitespace().next())
        .unwrap_or("")
}

#[test]
fn analyze_searches_until_told_and_answers_dot_and_ping() {
    let mut e = Engine::ready();
    e.send_all(&["new", "force", "post", "analyze"]);
    e.wait_for(PROMPT, is_thinking);
    std::thread::sleep(Duration::from_millis(600));
    e.send(".");
    let (stat, _) = e.wait_for(PROMPT, |l| l.starts_with("stat01:"));
    let fields: Vec<&str> = stat.split_whitespace().collect();
    assert!(fields.len() >= 6, "{stat}");
    assert!(
        fields[1..6].iter().all(|f| f.parse::<u64>().is_ok()),
        "{stat}"
    );
    let sent = Instant::now();
    e.send("ping 5");
    let before = e.expect_line("pong 5");
    assert!(
        sent.elapsed() < Duration::from_millis(500),
        "pong waited for the analysis"
    );
    assert!(before.iter().all(|l| !l.starts_with("move ")), "{before:?}");
    // Still analysing: more thinking lines come, and never a move.
    e.wait_for(Duration::from_secs(10), is_thinking);
    e.send("exit");
    e.sync(6);
    let after = e.assert_none(Duration::from_millis(500), is_thinking);
    assert!(after.is_empty(), "{after:?}");
}

#[test]
fn analyze_restarts_on_moves_and_honours_exclusions() {
    let mut e = Engine::ready();
    e.send_all(&["new", "force", "post", "analyze"]);
    e.wait_for(PROMPT, is_thinking);
    // After 1.e4 the analysis is about Black's replies.
    e.send("usermove e2e4");
    e.sync(1);
    let (line, _) = e.wait_for(PROMPT, is_thinking);
    let board = board_after(&["e2e4"]);
    assert!(board.parse_san(first_pv_move(&line)).is_ok(), "{line}");
    // Only d7d5 is allowed at the root.
    e.send_all(&["exclude all", "include d7d5"]);
    e.sync(2);
    for _ in 0..5 {
        let (line, _) = e.wait_for(PROMPT, is_thinking);
        assert_eq!(first_pv_move(&line), "d5", "{line}");
    }
    // undo goes back to the start position.
    e.send_all(&["undo"]);
    e.sync(3);
    let (line, _) = e.wait_for(PROMPT, is_thinking);
    assert!(
        Board::startpos().parse_san(first_pv_move(&line)).is_ok(),
        "{line}"
    );
    e.send_all(&["exit"]);
    e.sync(4);
}

/// Lets the engine (Black) answer 1.e4 with pondering on, and returns the reply it
/// expects (from `hint`), which it is now pondering on.
fn first_move_with_pondering(e: &mut Engine) -> String {
    e.send_all(&[
        "new",
        "hard",
        "level 0 0:20 0",
        "time 2000",
        "otim 2000",
        "usermove e2e4",
    ]);
    e.expect_move(Duration::from_secs(10));
    e.send("hint");
    let (hint, _) = e.wait_for(PROMPT, |l| l.starts_with("Hint: "));
    hint["Hint: ".len()..].to_string()
}

/// An engine pondering after its first move (thinking output on), and its expected reply.
fn engine_pondering() -> (Engine, String) {
    let mut e = Engine::ready();
    e.send("post");
    let expected = first_move_with_pondering(&mut e);
    (e, expected)
}

#[test]
fn ponders_after_its_move_and_pong_does_not_wait() {
    let (mut e, _) = engine_pondering();
    e.wait_for(PROMPT, is_thinking);
    let sent = Instant::now();
    e.send("ping 8");
    let before = e.expect_line("pong 8");
    assert!(sent.elapsed() < Duration::from_millis(500));
    assert!(before.iter().all(|l| !l.starts_with("move ")), "{before:?}");
    // Still pondering afterwards.
    e.wait_for(PROMPT, is_thinking);
}

#[test]
fn ponder_hit_continues_on_own_clock() {
    let (mut e, expected) = engine_pondering();
    std::thread::sleep(Duration::from_millis(1500));
    e.send_all(&["time 1900", "otim 1800"]);
    let sent = Instant::now();
    e.send(&format!("usermove {expected}"));
    e.expect_move(Duration::from_secs(10));
    let took = sent.elapsed();
    eprintln!("move after ponder hit: {took:?}");
    // Budget from a 19 s clock is well under 19/3 s.
    assert!(took < Duration::from_secs(7), "{took:?}");
}

#[test]
fn ponder_miss_restarts_and_still_plays_legally() {
    let (mut e, expected) = engine_pondering();
    let mut board = board_after(&["e2e4"]);
    let reply = e
        .transcript
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("< move "))
        .unwrap()
        .to_string();
    board.make_move(board.parse_move(&reply).unwrap());
    let other = board
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .find(|m| *m != expected)
        .unwrap();
    board.make_move(board.parse_move(&other).unwrap());
    e.send_all(&["time 1900", "otim 1800", &format!("usermove {other}")]);
    let m = e.expect_move(Duration::from_secs(10));
    assert!(
        board.parse_move(&m).is_ok(),
        "{m} illegal after a ponder miss:\n{}",
        e.dump()
    );
}

#[test]
fn easy_force_new_and_result_stop_pondering() {
    for stopper in ["easy", "force", "new", "result 1/2-1/2 {agreed}"] {
        let (mut e, _) = engine_pondering();
        e.wait_for(PROMPT, is_thinking);
        e.send(stopper);
        e.sync(1);
        let late = e.assert_none(Duration::from_millis(700), |l| {
            is_thinking(l) || l.starts_with("move ")
        });
        assert!(late.is_empty(), "{stopper}: {late:?}");
    }
}

#[test]
fn hint_bk_memory_cores_and_options() {
    let mut e = Engine::ready();
    e.send_all(&["new", "st 0.2", "usermove e2e4"]);
    e.expect_move(PROMPT);
    e.send("hint");
    let (hint, _) = e.wait_for(PROMPT, |l| l.starts_with("Hint: "));
    assert!(hint.len() > "Hint: ".len());
    // bk: an empty book is an empty reply (just the terminating empty line).
    e.send("bk");
    e.expect_line("");
    e.send_all(&["memory 8", "cores 2", "option Hash=16"]);
    let lines = e.sync(1);
    assert!(lines.is_empty(), "{lines:?}");
    e.send("option Bogus=3");
    e.expect_line("Error (bad argument): option Bogus=3");
    // The game goes on after resizing.
    e.send("usermove d2d4");
    e.expect_move(PROMPT);
}

#[test]
fn quit_and_end_of_input_exit_quickly_even_mid_search() {
    for ending in ["quit", "eof"] {
        let mut e = Engine::ready();
        e.send_all(&["new", "st 60", "go"]);
        std::thread::sleep(Duration::from_millis(300));
        if ending == "quit" {
            e.send("quit");
        } else {
            e.close_stdin();
        }
        let (took, status) = e
            .wait_exit(Duration::from_secs(5))
            .expect("the engine exits");
        eprintln!("{ending} mid-search: exit after {took:?}");
        assert!(status.success(), "{ending}: {status:?}");
        assert!(took < Duration::from_millis(500), "{ending}: {took:?}");
    }
}

#[cfg(unix)]
fn signal(e: &Engine, name: &str) {
    let pid = e.child.id().to_string();
    let ok = std::process::Command::new("kill")
        .args(["-s", name, &pid])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -s {name}");
}

#[cfg(unix)]
#[test]
fn sigint_is_ignored_and_sigterm_exits_quickly() {
    let mut e = Engine::ready();
    e.send_all(&["new", "st 60", "go"]);
    std::thread::sleep(Duration::from_millis(200));
    signal(&e, "INT");
    std::thread::sleep(Duration::from_millis(100));
    assert!(
        e.child.try_wait().unwrap().is_none(),
        "SIGINT killed the engine"
    );
    e.send("?");
    e.expect_move(PROMPT);
    e.sync(1);
    e.send("go");
    std::thread::sleep(Duration::from_millis(200));
    signal(&e, "TERM");
    let (took, status) = e
        .wait_exit(Duration::from_secs(5))
        .expect("SIGTERM ends the engine");
    eprintln!("SIGTERM mid-search: exit after {took:?}");
    assert!(status.success(), "{status:?}");
    assert!(took < Duration::from_millis(500), "{took:?}");
}

/// Output that never stops: analysis with thinking output, plus error replies that quote
/// long input lines (each reply far longer than a pipe's atomic write).
#[cfg(unix)]
fn flood_input() -> Vec<u8> {
    const LONG_WORD: usize = 20_000;
    const REPLIES: usize = 300;
    let mut input = b"xboard\nprotover 2\npost\nanalyze\n".to_vec();
    let line = format!("{}\n", "x".repeat(LONG_WORD));
    for _ in 0..REPLIES {
        input.extend_from_slice(line.as_bytes());
    }
    input
}

/// Reads everything from `stdout` in small pieces with pauses, so the engine's writes
/// block halfway through its long lines most of the time.
#[cfg(unix)]
fn read_slowly(mut stdout: impl std::io::Read) -> Vec<u8> {
    let mut all = Vec::new();
    let mut piece = [0u8; 4096];
    loop {
        match stdout.read(&mut piece) {
            Ok(0) | Err(_) => return all,
            Ok(n) => all.extend_from_slice(&piece[..n]),
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// SIGTERM while the engine writes long lines faster than the GUI reads them: the engine
/// exits promptly with status 0, and what reached stdout ends with a whole line.
#[cfg(unix)]
#[test]
fn sigterm_never_cuts_a_line_in_half() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    const ROUNDS: u64 = 10;
    for round in 0..ROUNDS {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ferrimax"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start ferrimax");
        let stdout = child.stdout.take().expect("piped stdout");
        let reader = std::thread::spawn(move || read_slowly(stdout));
        let mut stdin = child.stdin.take().expect("piped stdin");
        // The engine may be gone before all of it is written: a broken pipe is expected.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&flood_input());
            stdin
        });
        std::thread::sleep(Duration::from_millis(100 + 20 * round));
        let pid = child.id().to_string();
        let killed = Command::new("kill").args(["-s", "TERM", &pid]).status();
        assert!(killed.unwrap().success(), "round {round}: kill -s TERM");
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(
                start.elapsed() < PROMPT,
                "round {round}: no exit after SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(2));
        };
        let took = start.elapsed();
        drop(writer.join());
        let output = reader.join().expect("reader thread");
        assert_eq!(status.code(), Some(0), "round {round}: {status:?}");
        assert!(took < Duration::from_millis(500), "round {round}: {took:?}");
        assert!(!output.is_empty(), "round {round}: no output at all");
        let tail = String::from_utf8_lossy(&output[output.len().saturating_sub(60)..]);
        assert!(
            output.ends_with(b"\n"),
            "round {round}: stdout ends mid-line after {} bytes: ...{tail:?}",
            output.len()
        );
    }
}

#[test]
fn debug_lines_only_after_accepted_debug_and_logs_stay_off_stdout() {
    let run = |accept: bool| {
        let mut e = Engine::start_with_env(&[("RUST_LOG", "debug")]);
        e.send_all(&["xboard", "protover 2"]);
        e.expect_line("feature done=1");
        if accept {
            e.send("accepted debug");
        }
        // A ponder hit is reported as a debug comment.
        let expected = first_move_with_pondering(&mut e);
        e.send(&format!("usermove {expected}"));
        e.expect_move(Duration::from_secs(10));
        e.sync(1);
        e.transcript.clone()
    };
    let accepted = run(true);
    assert!(
        accepted.iter().any(|l| l.starts_with("< # ")),
        "{accepted:?}"
    );
    let silent = run(false);
    assert!(silent.iter().all(|l| !l.starts_with("< #")), "{silent:?}");
    // With RUST_LOG=debug, nothing but protocol lines reached stdout.
    for line in silent.iter().filter_map(|l| l.strip_prefix("< ")) {
        let known = ["feature ", "move ", "pong ", "Hint: "]
            .iter()
            .any(|p| line.starts_with(p));
        assert!(known, "stray stdout line {line:?}");
    }
}
