//! What only the real binary shows, driven over pipes as a GUI would: its start-up and
//! handshake, exit on `quit`, end of input and signals, logs kept off stdout, and time
//! budgets measured on the wall clock. Everything else about the protocol is tested in
//! process, line by line (`tests/game`).

mod common;

use common::engine::{Engine, PROMPT};
use common::game::Driver;
use ferrimax::chess::Board;
use std::io::Write;
use std::process::{Command, Stdio};
#[cfg(unix)]
use std::sync::mpsc;
use std::time::{Duration, Instant};

// ------------------------------------------------------------- start-up

/// The binary's handshake is the game manager's, line for line (checked in process),
/// starting with `feature done=0` so the GUI waits for the rest.
#[test]
fn handshake_of_the_real_binary_is_the_game_managers() {
    let mut e = Engine::start();
    e.send_all(&["xboard", "protover 2"]);
    let first = e.next_line(PROMPT).expect("a reply to protover");
    assert_eq!(first, "feature done=0");
    let mut lines = vec![first];
    lines.extend(e.expect_line("feature done=1"));
    lines.push("feature done=1".to_string());
    let expected = Driver::new().send_all(&["xboard", "protover 2"]);
    assert_eq!(lines, expected);
}

#[test]
fn startup_is_fast_even_with_a_one_gigabyte_hash() {
    let mut e = Engine::start();
    e.send("xboard\nprotover 2");
    let (at, _) = loop {
        let (at, line) = e.next_timed(PROMPT).expect("features");
        if line == "feature done=1" {
            break (at, line);
        }
    };
    let startup = at - e.started;
    e.send("memory 1024");
    e.send("option Hash=1024");
    let sent = Instant::now();
    e.sync(1);
    let resize = sent.elapsed();
    eprintln!(
        "done=1 after {startup:?} from process start; memory/Hash 1024 + ping took {resize:?}"
    );
    // The design number is 20-50 ms; the test allows for a loaded CI machine.
    assert!(startup < Duration::from_millis(1000), "{startup:?}");
    assert!(resize < Duration::from_millis(1000), "{resize:?}");
}

// ------------------------------------------------------------- exit, signals, logs

/// Waits until a search has reported (with `post` on): it is running.
fn wait_for_thinking(e: &mut Engine) {
    e.wait_for(PROMPT, |l| l.starts_with(|c: char| c.is_ascii_digit()));
}

#[test]
fn quit_and_end_of_input_exit_quickly_even_mid_search() {
    for (ending, cores) in [("quit", 1), ("eof", 1), ("quit", 3), ("eof", 3)] {
        let mut e = Engine::ready();
        e.send_all(&["new", &format!("cores {cores}"), "post", "st 60", "go"]);
        wait_for_thinking(&mut e);
        if ending == "quit" {
            e.send("quit");
        } else {
            e.close_stdin();
        }
        let (took, status) = e
            .wait_exit(Duration::from_secs(5))
            .expect("the engine exits");
        eprintln!("{ending} mid-search with {cores} threads: exit after {took:?}");
        assert!(status.success(), "{ending}: {status:?}");
        assert!(
            took < Duration::from_millis(500),
            "{ending}, {cores}: {took:?}"
        );
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
    e.send_all(&["new", "post", "cores 3", "st 60", "go"]);
    wait_for_thinking(&mut e);
    signal(&e, "INT");
    std::thread::sleep(Duration::from_millis(100));
    assert!(
        e.child.try_wait().unwrap().is_none(),
        "SIGINT killed the engine"
    );
    e.send("?");
    e.expect_move(PROMPT);
    e.sync(1);
    e.send_all(&["cores 2", "go"]);
    wait_for_thinking(&mut e);
    signal(&e, "TERM");
    let (took, status) = e
        .wait_exit(Duration::from_secs(5))
        .expect("SIGTERM ends the engine");
    eprintln!("SIGTERM mid-search with 2 threads: exit after {took:?}");
    assert!(status.success(), "{status:?}");
    assert!(took < Duration::from_millis(500), "{took:?}");
}

/// With `RUST_LOG=debug` the logs go to stderr, and stdout carries exactly the protocol
/// lines the game manager writes in process.
#[test]
fn logs_go_to_stderr_and_stdout_carries_only_the_protocol() {
    let script = [
        "xboard",
        "protover 2",
        "accepted debug",
        "new",
        "force",
        "cores 2",
        "rejected colors",
        "setboard junk",
        "ping 1",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferrimax"))
        .env("RUST_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ferrimax");
    let mut stdin = child.stdin.take().expect("piped stdin");
    for line in script.iter().chain(&["quit"]) {
        writeln!(stdin, "{line}").expect("write to engine");
    }
    drop(stdin);
    let output = child.wait_with_output().expect("ferrimax runs");
    assert!(output.status.success(), "{:?}", output.status);
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 stdout");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected = Driver::new().send_all(&script);
    assert_eq!(stdout.lines().collect::<Vec<_>>(), expected);
    for logged in ["threads: 2", "rejected feature colors", "setboard refused"] {
        assert!(stderr.contains(logged), "{logged:?} not logged:\n{stderr}");
    }
}

// ------------------------------------------------------------- wall-clock budgets

/// Sends `setup`, then `trigger`, and returns the engine's move and how long it took.
fn timed_move(setup: &[&str], trigger: &str) -> (String, Duration) {
    let mut e = Engine::ready();
    e.send_all(setup);
    e.sync(1);
    let start = Instant::now();
    e.send(trigger);
    let m = e.expect_move(Duration::from_secs(60));
    (m, start.elapsed())
}

/// Each clock situation: the move must come well inside the time on the clock.
#[test]
fn clock_budgets_never_run_the_clock_out() {
    let cases: &[(&str, &[&str], Duration)] = &[
        (
            "40 moves in 30 s, 30 s left",
            &["new", "level 40 0:30 0", "time 3000", "otim 3000"],
            Duration::from_secs(30),
        ),
        (
            "2 min + 12 s, 2 s left",
            &["new", "level 0 2 12", "time 200", "otim 200"],
            Duration::from_secs(2),
        ),
        (
            "30 s + 0.5 s, 1 s left",
            &["new", "level 0 0:30 0.5", "time 100", "otim 100"],
            Duration::from_secs(1),
        ),
        (
            "10 s + 0.1 s, 0.3 s left",
            &["new", "level 0 0:10 0.1", "time 30", "otim 30"],
            Duration::from_millis(300),
        ),
        (
            "zero on the clock",
            &["new", "level 0 1 0", "time 0", "otim 100"],
            Duration::from_millis(300),
        ),
        (
            "negative clock",
            &["new", "level 0 1 0", "time -20", "otim 100"],
            Duration::from_millis(300),
        ),
    ];
    for (name, setup, clock) in cases {
        let (m, took) = timed_move(setup, "usermove e2e4");
        eprintln!("{name}: {m} after {took:?}");
        assert!(took < *clock, "{name}: {took:?} of {clock:?}");
    }
}

/// `plies` moves of a seeded random game that repeats no position and does not end.
fn quiet_random_game(plies: usize) -> Vec<String> {
    use ferrimax::chess::repetition_count;
    let mut seed: u64 = 12345;
    'retry: loop {
        let mut board = Board::startpos();
        let mut keys = Vec::new();
        let mut moves = Vec::new();
        while moves.len() < plies {
            let legal = board.legal_moves();
            let candidates: Vec<_> = legal
                .iter()
                .copied()
                .filter(|&m| {
                    let mut b = board.clone();
                    b.make_move(m);
                    let mut k = keys.clone();
                    k.push(board.key());
                    b.ending(&k).is_none() && repetition_count(&k, b.key(), b.halfmove_clock()) == 1
                })
                .collect();
            if candidates.is_empty() {
                seed += 1;
                continue 'retry;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = candidates[(seed >> 33) as usize % candidates.len()];
            keys.push(board.key());
            board.make_move(m);
            moves.push(m.to_string());
        }
        return moves;
    }
}

#[test]
fn last_move_before_the_time_control_keeps_a_reserve() {
    // 40 moves per session; 39 moves of each side are played in force mode, so the
    // engine's next move (White's 40th) is the last one before the control, with 1 s left.
    let mut setup: Vec<String> = vec!["new".into(), "level 40 0:10 0".into(), "force".into()];
    setup.extend(
        quiet_random_game(78)
            .into_iter()
            .map(|m| format!("usermove {m}")),
    );
    setup.extend(["time 100".to_string(), "otim 100".to_string()]);
    let setup: Vec<&str> = setup.iter().map(String::as_str).collect();
    let (_, took) = timed_move(&setup, "go");
    eprintln!("40th move with 1 s left: {took:?}");
    assert!(took < Duration::from_millis(1000), "{took:?}");
}

#[test]
fn st_is_a_hard_cap_even_when_tiny() {
    for (st, cap) in [("0.05", 400), ("0.5", 900), ("1", 1500)] {
        let (_, took) = timed_move(&["new", &format!("st {st}")], "usermove e2e4");
        eprintln!("st {st}: {took:?}");
        assert!(took < Duration::from_millis(cap), "st {st}: {took:?}");
    }
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

/// How long the engine ponders before the hit: a while, so the hit meets a search that
/// has been running with no deadline of its own.
const PONDER_TIME: Duration = Duration::from_millis(500);

/// After a ponder hit the search goes on under the clock's budget, counted from the hit
/// (a ponder search alone has no deadline).
#[test]
fn ponder_hit_continues_on_own_clock() {
    let mut e = Engine::ready();
    let expected = first_move_with_pondering(&mut e);
    std::thread::sleep(PONDER_TIME);
    e.send_all(&["time 1900", "otim 1800"]);
    let sent = Instant::now();
    e.send(&format!("usermove {expected}"));
    e.expect_move(Duration::from_secs(10));
    let took = sent.elapsed();
    eprintln!("move after ponder hit: {took:?}");
    // Budget from a 19 s clock is well under 19/3 s.
    assert!(took < Duration::from_secs(7), "{took:?}");
}

/// Whether `line` is a thinking line (`depth score time nodes ...`).
fn is_thinking(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|depth| depth.bytes().all(|b| b.is_ascii_digit()))
}

/// How a client talks to an engine that ponders, from our move to the next one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum PonderingClient {
    /// Nothing after our move; the opponent's move comes as `time`, `otim`, `usermove`.
    XBoard,
    /// `ping` as soon as it reads our move (every thinking line before the `pong` is the
    /// account of that move); before our next turn `easy` and `ping`, then `force`, the
    /// move, the clocks, `post`, `hard`, `go`. lichess-bot plays this way.
    PythonChess,
    /// `ping` once the opponent has moved, then `time`, `otim`, `usermove`; every
    /// thinking line after the `ping` is taken as thinking on our next move.
    Cutechess,
}

/// A client's view while it replays a game: the position it reads each line against, and
/// the faults it saw.
struct ClientView {
    board: Board,
    faults: Vec<String>,
}

impl ClientView {
    /// Judges a line the client read: a thinking line must begin with a legal move of
    /// the client's position.
    fn read(&mut self, line: &str) {
        if !is_thinking(line) {
            return;
        }
        let pv = line.split_once('\t').map_or("", |(_, pv)| pv);
        let first = pv.split_whitespace().next().unwrap_or("");
        if self.board.parse_san(first).is_err() {
            self.faults
                .push(format!("{line:?} read in {}", self.board.to_fen()));
        }
    }

    /// Reads (and judges) the lines that arrive until our `move`, and plays it.
    fn until_move(&mut self, e: &mut Engine) -> String {
        loop {
            let line = e.next_line(Duration::from_secs(20)).expect("a move");
            self.read(&line);
            if let Some(m) = line.strip_prefix("move ") {
                let m = self.board.parse_move(m).expect("a legal move");
                self.board.make_move(m);
                return m.to_string();
            }
        }
    }

    /// Reads (and judges) the lines already there, then the client's position becomes
    /// the one after `m`: lines still in the pipe are read against that one, as a GUI
    /// reads them.
    fn opponent_plays(&mut self, e: &mut Engine, m: &str) {
        while let Some(line) = e.next_line(Duration::ZERO) {
            self.read(&line);
        }
        let m = self.board.parse_move(m).expect("a legal reply");
        self.board.make_move(m);
    }

    /// Sends `ping n` and judges what comes before the `pong`.
    fn sync(&mut self, e: &mut Engine, n: u32) -> Vec<String> {
        let before = e.sync(n);
        for line in &before {
            self.read(line);
        }
        before
    }
}

/// Our turns in each replayed game.
const PONDER_REPLAY_TURNS: u32 = 3;

/// Replays `client`'s exact command sequence with pondering on: the engine plays Black,
/// and the opponent answers `think` after our move, with the reply the engine expects
/// (`hit`) or another one. No thinking line may begin with a move that is illegal in the
/// client's position when it reads it, and with python-chess none may come between our
/// move and the `pong` of its ping.
fn replay_pondering_client(client: PonderingClient, hit: bool, think: Duration) {
    let case = format!("{client:?}, hit {hit}, opponent thinks {think:?}");
    let mut e = Engine::ready();
    let mut view = ClientView {
        board: Board::startpos(),
        faults: Vec::new(),
    };
    e.send_all(&[
        "new",
        "post",
        "hard",
        "level 0 0:10 0",
        "time 1000",
        "otim 1000",
    ]);
    view.opponent_plays(&mut e, "e2e4");
    e.send("usermove e2e4");
    let mut ping = 0;
    for _ in 0..PONDER_REPLAY_TURNS {
        view.until_move(&mut e);
        if client == PonderingClient::PythonChess {
            ping += 1;
            let account = view.sync(&mut e, ping);
            let thinking: Vec<&String> = account.iter().filter(|l| is_thinking(l)).collect();
            assert!(thinking.is_empty(), "{case}: {thinking:?}\n{}", e.dump());
        }
        std::thread::sleep(think);
        // The expected reply, asked as XBoard's Hint button asks it.
        e.send("hint");
        let (hint, before) = e.wait_for(PROMPT, |l| l.starts_with("Hint: "));
        before.iter().for_each(|l| view.read(l));
        let expected = view
            .board
            .parse_move(&hint["Hint: ".len()..])
            .expect("a hint");
        let legal = view.board.legal_moves();
        let reply = if hit {
            expected
        } else {
            *legal
                .iter()
                .find(|&&m| m != expected)
                .expect("another move")
        };
        let reply = reply.to_string();
        view.opponent_plays(&mut e, &reply);
        let usermove = format!("usermove {reply}");
        match client {
            PonderingClient::XBoard => e.send_all(&["time 900", "otim 900", &usermove]),
            PonderingClient::Cutechess => {
                ping += 1;
                view.sync(&mut e, ping);
                e.send_all(&["time 900", "otim 900", &usermove]);
            }
            PonderingClient::PythonChess => {
                e.send("easy");
                ping += 1;
                view.sync(&mut e, ping);
                e.send_all(&[
                    "force", &usermove, "time 900", "otim 900", "post", "hard", "go",
                ]);
            }
        }
    }
    view.until_move(&mut e);
    e.assert_no_error_replies();
    assert!(
        view.faults.is_empty(),
        "{case}: {:?}\n{}",
        view.faults,
        e.dump()
    );
}

/// How long the replayed opponent thinks: less than the moment ponder lines are held
/// after our move, and more.
const QUICK_OPPONENT: Duration = Duration::from_millis(50);
const SLOW_OPPONENT: Duration = Duration::from_millis(900);

#[test]
fn pondering_lines_read_right_in_xboard() {
    for (hit, think) in [
        (true, QUICK_OPPONENT),
        (false, SLOW_OPPONENT),
        (true, SLOW_OPPONENT),
    ] {
        replay_pondering_client(PonderingClient::XBoard, hit, think);
    }
}

#[test]
fn pondering_lines_read_right_in_python_chess_and_lichess_bot() {
    for (hit, think) in [(true, Duration::ZERO), (false, SLOW_OPPONENT)] {
        replay_pondering_client(PonderingClient::PythonChess, hit, think);
    }
}

#[test]
fn pondering_lines_read_right_in_cutechess() {
    for (hit, think) in [
        (true, QUICK_OPPONENT),
        (false, SLOW_OPPONENT),
        (true, SLOW_OPPONENT),
    ] {
        replay_pondering_client(PonderingClient::Cutechess, hit, think);
    }
}

/// A GUI that says nothing after our move (XBoard) still sees the ponder search's lines,
/// a moment later.
#[test]
fn ponder_lines_come_without_a_next_line_too() {
    let mut e = Engine::ready();
    e.send_all(&[
        "new",
        "post",
        "hard",
        "level 0 0:10 0",
        "time 1000",
        "otim 1000",
    ]);
    e.send("usermove e2e4");
    e.expect_move(Duration::from_secs(20));
    e.wait_for(PROMPT, is_thinking);
}

/// A limited strength is done searching in a moment, yet takes a natural share of its
/// clock (what full strength would plan), not an instant: here a 10-second clock.
#[test]
fn a_level_takes_a_share_of_its_clock() {
    let mut e = Engine::ready();
    e.send_all(&["new", "force", "option LimitStrength=1", "option Elo=1000"]);
    e.send_all(&["level 0 0:10 0", "time 1000", "otim 1000"]);
    let sent = Instant::now();
    e.send("go");
    e.expect_move(Duration::from_secs(10));
    let took = sent.elapsed();
    eprintln!("a level's move on a 10 s clock took {took:?}");
    assert!(took >= Duration::from_millis(100), "{took:?}");
    assert!(took < Duration::from_secs(3), "{took:?}");
}

// ------------------------------------------------------------- edges of the machine

/// Black, a rook down, can return to a position of the game: a draw it takes at once, but
/// only if the table still holds the game positions after the resize.
const REPETITION_FEN: &str = "4k3/8/8/8/8/8/4P3/R3K3 b - - 0 1";
const SHUFFLE: [&str; 4] = ["e8d8", "e1d1", "d8e8", "d1e1"];

#[test]
fn a_hash_larger_than_the_machine_is_reduced_and_the_game_goes_on() {
    // (name, the request, the user is told of a reduction)
    let cases = [
        ("memory beyond any machine", "memory 99999999", true),
        ("memory beyond u64", "memory 99999999999999999999999", true),
        ("the largest Hash option", "option Hash=65536", false),
    ];
    for (name, request, surely_reduced) in cases {
        let mut e = Engine::ready();
        e.send_all(&["new", "force", &format!("setboard {REPETITION_FEN}")]);
        for m in SHUFFLE {
            e.send(&format!("usermove {m}"));
        }
        e.send(request);
        let lines = e.sync(1);
        let told: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("tellusererror Hash reduced to "))
            .collect();
        assert!(told.len() <= 1, "{name}: {lines:?}");
        if surely_reduced {
            assert_eq!(told.len(), 1, "{name}: {lines:?}");
            assert!(
                told[0].ends_with(" MB cannot be allocated"),
                "{name}: {lines:?}"
            );
        }
        assert!(
            lines.iter().all(|l| !l.starts_with("Error")),
            "{name}: {lines:?}"
        );
        e.send_all(&["sd 6", "go"]);
        let m = e.expect_move(Duration::from_secs(20));
        assert_eq!(
            m,
            "e8d8",
            "{name}: the repetition is still known\n{}",
            e.dump()
        );
        e.sync(2);
    }
}

/// Clock and depth values at the edges of their integer types, which once wrapped:
/// `time 1844674407370955162` made the engine move in 8 ms as if its clock were empty,
/// and `sd 2147483648` searched one ply.
#[test]
fn edge_numbers_give_a_long_clock_and_no_depth_cap() {
    const HUGE_CLOCK: &str = "1844674407370955162";
    let mut e = Engine::ready();
    e.send_all(&[
        "new",
        "level 0 5 0",
        &format!("time {HUGE_CLOCK}"),
        &format!("otim {HUGE_CLOCK}"),
        "go",
    ]);
    e.assert_none(Duration::from_millis(1000), |l| l.starts_with("move "));
    e.send("?");
    e.expect_move(PROMPT);

    e.send_all(&["new", "sd 2147483648", "st 0.5", "post", "go"]);
    let (_, thinking) = e.wait_for(PROMPT, |l| l.starts_with("move "));
    let deepest = thinking
        .iter()
        .filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok())
        .max();
    assert!(deepest.is_some_and(|d| d > 1), "{}", e.dump());
    e.assert_no_error_replies();
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
/// block halfway through its long lines most of the time. `started` hears when the first
/// bytes have come.
#[cfg(unix)]
fn read_slowly(mut stdout: impl std::io::Read, started: mpsc::Sender<()>) -> Vec<u8> {
    let mut all = Vec::new();
    let mut piece = [0u8; 4096];
    loop {
        match stdout.read(&mut piece) {
            Ok(0) | Err(_) => return all,
            Ok(n) => {
                if all.is_empty() {
                    // The test may have given up waiting; then nobody listens.
                    let _ = started.send(());
                }
                all.extend_from_slice(&piece[..n]);
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// SIGTERM while the engine writes long lines faster than the GUI reads them: the engine
/// exits promptly with status 0, and what reached stdout ends with a whole line.
#[cfg(unix)]
#[test]
fn sigterm_never_cuts_a_line_in_half() {
    const ROUNDS: u64 = 10;
    for round in 0..ROUNDS {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ferrimax"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start ferrimax");
        let stdout = child.stdout.take().expect("piped stdout");
        let (started, output_began) = mpsc::channel();
        let reader = std::thread::spawn(move || read_slowly(stdout, started));
        let mut stdin = child.stdin.take().expect("piped stdin");
        // The engine may be gone before all of it is written: a broken pipe is expected.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&flood_input());
            stdin
        });
        // The signal comes while the engine is writing: on a loaded machine its first
        // line can take longer than the pause alone.
        output_began
            .recv_timeout(PROMPT)
            .unwrap_or_else(|_| panic!("round {round}: no output before the signal"));
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
        // The line being written is finished first (a slow reader holds it up), and the
        // GUI kills a silent engine after a second anyway: this checks promptness only
        // loosely; the quick-exit test above measures it.
        assert!(took < Duration::from_secs(2), "round {round}: {took:?}");
        assert!(!output.is_empty(), "round {round}: no output at all");
        let tail = String::from_utf8_lossy(&output[output.len().saturating_sub(60)..]);
        assert!(
            output.ends_with(b"\n"),
            "round {round}: stdout ends mid-line after {} bytes: ...{tail:?}",
            output.len()
        );
    }
}

/// Bytes that are not UTF-8 and Windows line endings, as the stdin reader receives them:
/// an invalid line is refused like any unknown command, CR-LF lines work, and the
/// engine stays in step.
#[test]
fn invalid_utf8_and_crlf_lines_are_survived() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferrimax"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start ferrimax");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"xboard\r\nprotover 2\r\n\xff\xfe\xc0 bad\r\nping 3\r\nusermove e2e4\r\nforce\r\nping 4\nquit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().expect("ferrimax runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8 out");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("feature")).collect();
    assert_eq!(
        lines
            .first()
            .map(|l| l.starts_with("Error (unknown command): ")),
        Some(true),
        "{text}"
    );
    assert!(
        lines.contains(&"pong 3") && lines.contains(&"pong 4"),
        "{text}"
    );
    assert!(out.status.success());
}

/// A memory figure of a running process in MB from `/proc/PID/status` (Linux only):
/// `VmRSS` (resident) or `VmSize` (mapped).
#[cfg(target_os = "linux")]
fn process_mb(e: &Engine, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.child.id()))
        .expect("read /proc/PID/status");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("{field} in {status}"));
    kb / 1024
}

/// Resident memory beyond the hash table: code, stacks, buffers, game history.
#[cfg(target_os = "linux")]
const RESIDENT_BEYOND_THE_HASH_MB: u64 = 32;

/// `memory` from 1 to 4096 MB and back, mid-game: after each resize the table is mapped at
/// the size asked, a table shrunk is given back to the system, the engine holds no more
/// than the request plus 32 MB resident (the table's pages become resident only as the
/// search writes them), and the game positions survive: the engine, a rook down, still
/// steers into the repetition.
#[cfg(target_os = "linux")]
#[test]
fn memory_resizes_mid_game_stay_within_the_request_and_keep_the_game() {
    let mut e = Engine::ready();
    e.send_all(&["new", "force", &format!("setboard {REPETITION_FEN}")]);
    for m in SHUFFLE {
        e.send(&format!("usermove {m}"));
    }
    e.send("sd 4");
    let (mut previous, mut previous_mapped) = (0u64, 0u64);
    for (n, megabytes) in [1u64, 16, 256, 4096, 64, 1, 2048, 1]
        .into_iter()
        .enumerate()
    {
        e.send(&format!("memory {megabytes}"));
        let n = u32::try_from(n).expect("few steps");
        let lines = e.sync(n);
        let resident = process_mb(&e, "VmRSS");
        let mapped = process_mb(&e, "VmSize");
        eprintln!("memory {megabytes}: resident {resident} MB, mapped {mapped} MB");
        if lines
            .iter()
            .any(|l| l.starts_with("tellusererror Hash reduced"))
        {
            // A machine too small for the request: the engine said so and went on.
            continue;
        }
        assert!(
            resident <= megabytes + RESIDENT_BEYOND_THE_HASH_MB,
            "memory {megabytes}: resident {resident} MB"
        );
        assert!(
            mapped >= megabytes,
            "memory {megabytes}: mapped {mapped} MB"
        );
        if megabytes < previous {
            // The old table is unmapped (threads' stacks and the allocator's arenas make
            // the rest of the figure move a little).
            let freed = previous_mapped.saturating_sub(mapped);
            assert!(
                freed >= (previous - megabytes) / 2,
                "memory {megabytes}: only {freed} MB of {previous} MB given back"
            );
        }
        (previous, previous_mapped) = (megabytes, mapped);
        e.send("go");
        let m = e.expect_move(Duration::from_secs(20));
        assert_eq!(
            m,
            "e8d8",
            "memory {megabytes}: the repetition\n{}",
            e.dump()
        );
        e.send_all(&["force", "undo"]);
    }
    e.assert_no_error_replies();
}
