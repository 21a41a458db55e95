//! Games with real clients and peer engines. They need programs from outside the Rust
//! toolchain (python-chess, Fairy-Max, Stockfish, Polyglot, XBoard, Xvfb), so they are
//! `#[ignore]`d; `.ci/run` installs the peers and runs them with
//! `cargo test -- --include-ignored`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn engine() -> &'static str {
    env!("CARGO_BIN_EXE_ferrimax")
}

/// Runs the script `tests/peers/NAME` with python3, the engine's path and `args`, and
/// returns its stdout and stderr; a failing exit status fails the test with both.
fn run_peer_script(name: &str, args: &[&str]) -> (String, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/peers")
        .join(name);
    let out = Command::new("python3")
        .arg(&script)
        .arg(engine())
        .args(args)
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    eprintln!("{stdout}\n{stderr}");
    assert!(out.status.success(), "{name} failed:\n{stdout}\n{stderr}");
    (stdout, stderr)
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrimax-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
#[ignore = "needs python-chess and Fairy-Max (installed by .ci/run)"]
fn python_chess_plays_games_analyses_and_undoes() {
    // The client reaches Fairy-Max through tests/peers/fairymax_setboard.py, which gives
    // it the setboard command python-chess requires.
    let (stdout, stderr) = run_peer_script(
        "python_chess_client.py",
        &["--fairymax", "/usr/games/fairymax"],
    );
    assert!(stdout.contains("python-chess client: all ok"));
    assert!(!stderr.contains("EngineError"), "{stderr}");
    // python-chess warns of rejected features and unexpected output: it saw none.
    assert!(!stderr.contains("WARNING"), "{stderr}");
}

/// Games with pondering on, driven as lichess-bot drives an XBoard engine through
/// python-chess (tests/peers/ponder_soak.py; the run was longer): no fault, no
/// ponder line taken for the account of a move, no warning from python-chess.
#[test]
#[ignore = "needs python-chess (installed by .ci/run)"]
fn python_chess_plays_with_pondering_as_lichess_bot_does() {
    let (stdout, stderr) = run_peer_script(
        "ponder_soak.py",
        &["--controls", "10+0.1:2,3+0.03:4", "--seed", "5"],
    );
    assert!(stdout.contains(", 0 faults"), "{stdout}");
    assert!(!stderr.contains("WARNING"), "{stderr}");
}

/// The same games over UCI (`popen_uci`): python-chess ponders with `go ponder`, then
/// `ponderhit` or `stop`; no fault, no warning.
#[test]
#[ignore = "needs python-chess (installed by .ci/run)"]
fn python_chess_plays_over_uci_with_pondering() {
    let (stdout, stderr) = run_peer_script(
        "ponder_soak.py",
        &["--uci", "--controls", "3+0.03:2,2+0.02:2", "--seed", "54"],
    );
    assert!(stdout.contains(", 0 faults"), "{stdout}");
    assert!(!stderr.contains("WARNING"), "{stderr}");
}

/// python-chess's UCI client: games with pondering, Chess960, a level, an analysis with
/// MultiPV and `go` limits (tests/peers/uci_client.py), without a warning.
#[test]
#[ignore = "needs python-chess (installed by .ci/run)"]
fn python_chess_uci_client_plays_analyses_and_keeps_limits() {
    let (stdout, _) = run_peer_script("uci_client.py", &["--games", "1"]);
    assert!(stdout.contains("uci client: all ok"), "{stdout}");
}

/// Won endings drawn at random from the test tablebases are converted, and drawn ones
/// held, against Stockfish using the same tables (tests/peers/tablebase_conversion.py;
/// the run was 50 of each with the 5-piece tables).
#[test]
#[ignore = "needs python-chess and Stockfish (installed by .ci/run)"]
fn tablebase_endings_are_converted_and_held_against_stockfish() {
    let tables = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy");
    let tables = tables.to_str().expect("a UTF-8 path");
    let (stdout, _) = run_peer_script(
        "tablebase_conversion.py",
        &[
            "--tables",
            tables,
            "--won",
            "3",
            "--drawn",
            "3",
            "--movetime",
            "0.1",
        ],
    );
    assert!(
        stdout.contains("conversion: 3 of 3 won converted, 0 of 3 drawn lost"),
        "{stdout}"
    );
}

/// A shorter run of the soak that alternates play, analysis and undo in one engine
/// process (tests/peers/python_chess_soak.py; the long run used more cycles),
/// with two search threads.
#[test]
#[ignore = "needs python-chess (installed by .ci/run)"]
fn python_chess_soak_alternating_play_analysis_and_undo() {
    let (stdout, _) = run_peer_script(
        "python_chess_soak.py",
        &["--cycles", "12", "--seed", "7", "--threads", "2"],
    );
    assert!(stdout.contains(", 0 faults"), "{stdout}");
}

/// Chess960 against python-chess's move generator on random positions with castling at
/// every stage (tests/peers/chess960_check.py), and python-chess playing a Chess960 game
/// with the engine and analysing with it, without a warning.
#[test]
#[ignore = "needs python-chess (installed by .ci/run)"]
fn chess960_agrees_with_python_chess_and_plays_through_it() {
    let (stdout, stderr) = run_peer_script("chess960_check.py", &["--walks", "40"]);
    assert!(stdout.contains("all ok"), "{stdout}");
    assert!(!stderr.contains("WARNING"), "{stderr}");
}

/// python-chess reads a multi-PV analysis: three lines per depth, no warning
/// (tests/peers/multipv_check.py).
#[test]
#[ignore = "needs python-chess (installed by .ci/run)"]
fn python_chess_reads_a_multipv_analysis() {
    let (stdout, stderr) = run_peer_script("multipv_check.py", &[]);
    assert!(stdout.contains("multipv check: all ok"), "{stdout}");
    assert!(!stderr.contains("WARNING"), "{stderr}");
}

/// KQK, KRK, KBBK and KBNK (with the lone king starting near the corner the bishop does
/// not cover) are mated within the 50-move rule against Stockfish's defence
/// (tests/peers/basic_mates.py; fixed depth and nodes, so machine load does not matter).
#[test]
#[ignore = "needs python-chess and Stockfish (installed by .ci/run)"]
fn basic_mates_are_delivered_against_stockfish() {
    let (stdout, _) = run_peer_script("basic_mates.py", &[]);
    assert!(
        stdout.contains("mated") && !stdout.contains("FAIL"),
        "{stdout}"
    );
}

/// The book reader against the reference: a book written by Debian's `polyglot make-book`
/// must list, in every position of its games, exactly the moves and weights python-chess
/// reads from it; a game with the book plays book moves at once.
#[test]
#[ignore = "needs polyglot and python-chess (installed by .ci/run)"]
fn polyglot_books_read_as_the_reference_reads_them() {
    let (stdout, _) = run_peer_script("book_check.py", &["/usr/games/polyglot"]);
    assert!(stdout.contains("book_check: all ok"), "{stdout}");
}

/// Plays `games` games in XBoard under Xvfb with Ferrimax as first engine and `second`
/// (a command line) as the second, XBoard acting as referee (it tests every claim and
/// forfeits illegal moves), `extra` arguments added; checks every game finished without
/// a forfeit, illegal move or false claim and every line of Ferrimax's was protocol.
fn xboard_match(name: &str, second: &str, games: usize, extra: &[&str]) {
    let dir = scratch_dir(name);
    let log = dir.join("xboard-debug.log");
    let pgn = dir.join("match.pgn");
    let status = Command::new("xvfb-run")
        .args(["-a", "/usr/games/xboard", "-fcp", engine(), "-scp", second])
        .args(["-mg", &games.to_string(), "-tc", "0:20", "-inc", "0.2"])
        .args([
            "-xponder",
            "-noGUI",
            "-xexit",
            "-saveSettingsOnExit",
            "false",
        ])
        .args(["-autoCallFlag", "true", "-testClaims", "true"])
        .args(["-matchPause", "1000", "-debug"])
        .args(extra)
        .arg("-nameOfDebugFile")
        .arg(&log)
        .arg("-sgf")
        .arg(&pgn)
        .current_dir(&dir)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("run xvfb-run xboard");
    let played = std::fs::read_to_string(&pgn).unwrap_or_default();
    let debug = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(status.success(), "xboard exited with {status:?}\n{played}");
    let results: Vec<&str> = played
        .lines()
        .filter(|l| l.starts_with("[Result "))
        .collect();
    eprintln!("{name}: {results:?}");
    assert_eq!(results.len(), games, "{played}");
    assert!(
        results.iter().all(|r| !r.contains('*')),
        "unfinished game: {played}"
    );
    for bad in [
        "Illegal move",
        "illegal move",
        "False",
        "false claim",
        "Forfeit",
        "forfeit",
        "Error writing",
    ] {
        let hit = debug
            .lines()
            .find(|l| l.contains(bad) && !l.contains(">first") && !l.contains(">second"));
        assert!(hit.is_none(), "{bad}: {hit:?}");
    }
    // Every one of our lines was protocol XBoard understood (no stray output).
    let ours: Vec<&str> = debug
        .lines()
        .filter_map(|l| l.split_once("<first : ").map(|(_, r)| r))
        .collect();
    assert!(ours.iter().any(|l| l.starts_with("move ")));
    for line in ours {
        let known = [
            "feature ",
            "move ",
            "pong ",
            "1-0 ",
            "0-1 ",
            "1/2-1/2 ",
            "offer draw",
            "tellothers ",
            "Hint: ",
            "# ",
        ]
        .iter()
        .any(|p| line.starts_with(p))
            || line.starts_with(|c: char| c.is_ascii_digit());
        assert!(known, "unexpected engine line {line:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A two-game XBoard match against Fairy-Max.
#[test]
#[ignore = "needs XBoard, Xvfb and Fairy-Max (installed by .ci/run)"]
fn xboard_match_against_fairy_max() {
    // Debian's Fairy-Max 5.0b crashes on the `computer` command XBoard sends in
    // engine-vs-engine games.
    xboard_match(
        "xboard",
        "/usr/games/fairymax",
        2,
        &["-secondComputerString", ""],
    );
}

/// Chess960 in XBoard: two games of Ferrimax against itself from XBoard's own shuffled
/// start positions (Fairy-Max does not play the variant), castling as XBoard writes it.
#[test]
#[ignore = "needs XBoard and Xvfb (installed by .ci/run)"]
fn xboard_plays_chess960() {
    xboard_match("xboard960", engine(), 2, &["-variant", "fischerandom"]);
}

/// Runs XBoard under Xvfb for one game of Ferrimax (first engine, White) against
/// Fairy-Max, with extra arguments; returns the saved game and XBoard's debug log.
fn xboard_game(name: &str, extra: &[&str]) -> (String, String) {
    let dir = scratch_dir(name);
    let log = dir.join("xboard-debug.log");
    let pgn = dir.join("game.pgn");
    let status = Command::new("xvfb-run")
        .args(["-a", "/usr/games/xboard", "-fcp", engine()])
        .args(["-scp", "/usr/games/fairymax", "-secondComputerString", ""])
        .args(["-mg", "1", "-tc", "0:30", "-inc", "0.2", "-noGUI", "-xexit"])
        .args(["-saveSettingsOnExit", "false", "-testClaims", "true"])
        .args(["-debug", "-matchPause", "1000"])
        .args(extra)
        .arg("-nameOfDebugFile")
        .arg(&log)
        .arg("-sgf")
        .arg(&pgn)
        .current_dir(&dir)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("run xvfb-run xboard");
    assert!(status.success(), "xboard exited with {status:?}");
    let game = std::fs::read_to_string(&pgn).unwrap_or_default();
    let debug = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    (game, debug)
}

/// XBoard as the client of the bot features: the engine's book (set through XBoard's
/// `-firstOptions`) gives its first move at once with a `(book)` thinking line, and in a
/// hopeless position it resigns (Resign set the same way) and XBoard records it.
#[test]
#[ignore = "needs XBoard, Xvfb and Fairy-Max (installed by .ci/run)"]
fn xboard_plays_book_moves_and_takes_a_resignation() {
    let dir = scratch_dir("xboard-book");
    let book = dir.join("book.bin");
    let start = ferrimax::chess::Board::startpos();
    let e4 = ferrimax::book::encode(start.parse_move("e2e4").unwrap());
    let mut entry = ferrimax::book::polyglot_key(&start).to_be_bytes().to_vec();
    entry.extend_from_slice(&e4.to_be_bytes());
    entry.extend_from_slice(&1u16.to_be_bytes());
    entry.extend_from_slice(&0u32.to_be_bytes());
    std::fs::write(&book, entry).unwrap();
    let options = format!("Book={},BookVariety=0", book.display());
    let (game, debug) = xboard_game("xboard-bookgame", &["-firstOptions", &options]);
    assert!(game.contains("1. e4 "), "{game}");
    assert!(
        debug
            .lines()
            .any(|l| l.contains("<first : 0 0 0 0 (book) e4")),
        "no book thinking line"
    );

    // White (Ferrimax) has a bare king against queen and rook, at move 40.
    let fen = dir.join("hopeless.fen");
    std::fs::write(&fen, "3qk3/3r4/8/8/8/8/8/4K3 w - - 0 40\n").unwrap();
    let fen = fen.display().to_string();
    let resign = ["-firstOptions", "Resign=500,ResignMoves=2", "-lpf", &fen];
    let (game, debug) = xboard_game("xboard-resign", &resign);
    assert!(game.contains("[Result \"0-1\"]"), "{game}");
    assert!(
        debug.lines().any(|l| l.contains("<first : resign")),
        "the engine did not resign:\n{game}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// XBoard loads the repository's `winboard.ini` as written in the README (`xboard
/// @winboard.ini` in the engine's folder): Ferrimax is the first engine, gets the hash
/// size from it, and plays a game.
#[test]
#[ignore = "needs XBoard, Xvfb and Fairy-Max (installed by .ci/run)"]
fn xboard_loads_the_settings_file() {
    let dir = scratch_dir("winboard-ini");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("winboard.ini"),
        dir.join("winboard.ini"),
    )
    .unwrap();
    std::os::unix::fs::symlink(engine(), dir.join("ferrimax")).unwrap();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let log = dir.join("xboard-debug.log");
    let pgn = dir.join("game.pgn");
    let status = Command::new("xvfb-run")
        .args(["-a", "/usr/games/xboard", "@winboard.ini"])
        .args(["-scp", "/usr/games/fairymax", "-secondComputerString", ""])
        .args(["-mg", "1", "-tc", "0:10", "-inc", "0.1", "-noGUI", "-xexit"])
        .args(["-saveSettingsOnExit", "false", "-debug"])
        .arg("-nameOfDebugFile")
        .arg(&log)
        .arg("-sgf")
        .arg(&pgn)
        .env("PATH", path)
        .current_dir(&dir)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("run xvfb-run xboard");
    assert!(status.success(), "{status:?}");
    let game = std::fs::read_to_string(&pgn).unwrap_or_default();
    let debug = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(game.contains("[White \"Ferrimax "), "{game}");
    assert!(!game.contains("[Result \"*\"]"), "{game}");
    // XBoard adds its tablebase cache (4 MB by default) to the hash size.
    let memory = debug.lines().find_map(|l| {
        l.split_once(">first : memory ")
            .map(|(_, n)| n.trim().to_string())
    });
    let megabytes: u32 = memory.and_then(|n| n.parse().ok()).expect("a memory line");
    assert!(megabytes >= 64, "memory {megabytes}");
    let _ = std::fs::remove_dir_all(&dir);
}
