//! Fuzzing: random and mutated input for the CECP parser, the FEN and SAN readers, the
//! Polyglot book reader and the whole game manager, driven in process, in CECP and in UCI. After every
//! command the game manager's state must be sound (`Game::inconsistency`), every `ping`
//! answered, and every output line a protocol line.
//!
//! The case counts are small for `cargo test`; `FERRIMAX_FUZZ_SCALE=N` multiplies them
//! for a long run (the counts are printed with `--nocapture`).

mod common;

use common::game::Driver;
use ferrimax::cecp::ParseError;
use ferrimax::chess::Board;
use rand::{Rng, RngExt, SeedableRng, rngs::StdRng};

/// Multiplier of every case count, from `FERRIMAX_FUZZ_SCALE` (1 by default).
fn scale() -> usize {
    std::env::var("FERRIMAX_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// Seed for this run: fixed by default (reproducible), from `FERRIMAX_FUZZ_SEED` to
/// explore.
fn seed() -> u64 {
    std::env::var("FERRIMAX_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_261_123)
}

const WORDS: &[&str] = &[
    "xboard",
    "protover",
    "accepted",
    "rejected",
    "new",
    "variant",
    "force",
    "go",
    "playother",
    "white",
    "black",
    "edit",
    "setboard",
    "random",
    "level",
    "st",
    "sd",
    "nps",
    "time",
    "otim",
    "usermove",
    "?",
    "ping",
    "draw",
    "result",
    "undo",
    "remove",
    "hard",
    "easy",
    "post",
    "nopost",
    "analyze",
    "exit",
    ".",
    "hint",
    "bk",
    "name",
    "rating",
    "ics",
    "computer",
    "pause",
    "resume",
    "memory",
    "cores",
    "egtpath",
    "option",
    "exclude",
    "include",
    "setscore",
    "lift",
    "put",
    "hover",
    "partner",
    "ptell",
    "holding",
    "d",
    "help",
    "uci",
    "#",
    "c",
    "x",
    "Pa4",
    "Ke1",
    "1-0",
    "e2e4",
    "O-O",
    "Nf3",
    "=",
    "*",
];

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "3",
    "10",
    "40",
    "0:30",
    "5:00",
    "0.5",
    "1e3",
    "99999999999999999999",
    "18446744073709551616",
    "9223372036854775807",
    "-9223372036854775808",
    "4294967296",
    "2147483648",
    "-2147483649",
    "NaN",
    "",
    "+5",
    "0.01",
    "1:2:3",
];

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",
    "1r6/8/8/8/8/2k5/8/K7 w - - 99 80",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "kkk5/8/8/8/8/8/8/KKK5 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
    // In the test tablebases (tests/data/syzygy), which the sessions use.
    "8/8/8/8/2k5/8/1r6/3QK3 w - - 0 1",
    "8/8/8/3r4/8/2k5/8/R3K3 b - - 7 40",
    "8/8/8/8/8/5k2/1P6/1K6 w - - 0 1",
];

/// The test tablebases, which the fuzzed sessions probe.
const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// A random line for the game manager: commands with random arguments, moves (legal,
/// illegal, SAN), FENs, edit-mode lines, pure noise, and mutations of all of these.
fn random_line(rng: &mut StdRng, board: &Board) -> String {
    let pick = |rng: &mut StdRng, list: &[&str]| list[rng.random_range(0..list.len())].to_string();
    let base = match rng.random_range(0..12) {
        0..=2 => {
            let legal = board.legal_moves();
            if legal.is_empty() {
                "new".to_string()
            } else {
                let m = legal.as_slice()[rng.random_range(0..legal.len())];
                match rng.random_range(0..3) {
                    0 => format!("usermove {m}"),
                    1 => board.san(m),
                    _ => m.to_string(),
                }
            }
        }
        3 => format!("setboard {}", pick(rng, FENS)),
        4 => format!(
            "{} {} {}",
            pick(rng, WORDS),
            pick(rng, NUMBERS),
            pick(rng, NUMBERS)
        ),
        5 => format!(
            "level {} {} {}",
            pick(rng, NUMBERS),
            pick(rng, NUMBERS),
            pick(rng, NUMBERS)
        ),
        6 => format!(
            "option {}={}",
            pick(
                rng,
                &[
                    "Hash",
                    "Threads",
                    "Book",
                    "Kibitz",
                    "Resign",
                    "BookDepth",
                    "Contempt",
                    "ThinkingExtras",
                    "SyzygyProbeDepth",
                    "Syzygy50MoveRule",
                    "Nonsense"
                ]
            ),
            pick(rng, NUMBERS)
        ),
        7 => noise(rng),
        8 => pick(
            rng,
            &[
                "sd 1",
                "sd 2",
                "st 0.01",
                "nps 5000",
                "go",
                "force",
                "new",
                "undo",
                "remove",
                "analyze",
                "exit",
                "edit",
                ".",
                "hint",
                "bk",
                "draw",
                "hard",
                "easy",
                "post",
                "?",
                "playother",
                "white",
                "black",
                "ics freechess.org",
                "ics -",
                "computer",
                "result 1-0 {x}",
                "random",
                "d",
                "cores 2",
                "memory 1",
                "exclude all",
                "include all",
                "pause",
                "resume",
            ],
        ),
        _ => pick(rng, WORDS),
    };
    if rng.random_range(0..4) == 0 {
        mutate(rng, &base)
    } else {
        base
    }
}

/// A line of random characters: ASCII, control characters, multi-byte characters.
fn noise(rng: &mut StdRng) -> String {
    let len = rng.random_range(0..40);
    (0..len)
        .map(|_| match rng.random_range(0..4) {
            0 => char::from(rng.random_range(0u8..32)),
            1 => char::from_u32(rng.random_range(0x80..0x3000)).unwrap_or('?'),
            _ => char::from(rng.random_range(32u8..127)),
        })
        .collect()
}

/// `text` with a few characters inserted, removed or replaced.
fn mutate(rng: &mut StdRng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..4) {
        let at = if chars.is_empty() {
            0
        } else {
            rng.random_range(0..=chars.len())
        };
        match rng.random_range(0..3) {
            0 => chars.insert(at, char::from(rng.random_range(32u8..127))),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at < chars.len() => chars[at] = char::from(rng.random_range(32u8..127)),
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Whether an engine output line is one of the protocol's.
fn is_protocol_line(line: &str) -> bool {
    const STARTS: &[&str] = &[
        "feature ",
        "move ",
        "pong ",
        "Illegal move",
        "Error (",
        "tellusererror ",
        "telluser ",
        "tellothers ",
        "tellall ",
        "# ",
        "stat01: ",
        "offer draw",
        "resign",
        "1-0 {",
        "0-1 {",
        "1/2-1/2 {",
        "Hint: ",
        " ",
    ];
    line.is_empty()
        || STARTS.iter().any(|s| line.starts_with(s))
        || line
            .split_whitespace()
            .take(4)
            .all(|w| w.parse::<i64>().is_ok())
            && line.split_whitespace().count() >= 4
}

/// The whole game manager under random command sequences: no panic, sound state after
/// every command, every `ping` answered in order, only protocol lines.
#[test]
fn the_game_manager_survives_random_sessions() {
    const SESSIONS: usize = 20;
    const COMMANDS: usize = 250;
    let mut rng = StdRng::seed_from_u64(seed());
    let mut commands = 0;
    for _ in 0..SESSIONS * scale() {
        let mut d = Driver::new();
        d.send_all(&["xboard", "protover 2", "sd 2", "post"]);
        d.send(&format!("egtpath syzygy {TABLES}"));
        let mut next_ping = 0u32;
        for _ in 0..COMMANDS {
            let our_ping = rng.random_range(0..10) == 0;
            let line = if our_ping {
                next_ping += 1;
                format!("ping {next_ping}")
            } else {
                random_line(&mut rng, d.board())
            };
            commands += 1;
            let out = d.send(&line);
            for l in &out {
                assert!(
                    is_protocol_line(l),
                    "not a protocol line {l:?} after {line:?}\n{}",
                    d.transcript()
                );
            }
            if our_ping {
                // Answered at once, or after the move when the engine was thinking.
                let pong = format!("pong {next_ping}");
                assert!(out.contains(&pong), "{line} unanswered\n{}", d.transcript());
            }
            if let Some(why) = d.game().inconsistency() {
                d.fail(&format!("after {line:?}: {why}"));
            }
            // Keep the searches short: `new` or `sd 0` lift the depth limit.
            d.send(&format!("sd {}", rng.random_range(1..=3)));
        }
        d.send("quit");
    }
    println!("game manager: {commands} commands, no fault");
}

/// Whether a line holds only the blanks and line ends the parser skips.
fn blank(line: &str) -> bool {
    line.chars().all(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
}

/// The parser never panics, whatever the line, and reads it the same way every time
/// (the game is never consulted); blanks around a line change nothing; a blank line is
/// the only one ignored, and every refusal is answered with one `Error (...)` line that
/// quotes the line. Edit mode's reader never panics either.
#[test]
fn the_parser_takes_any_line() {
    const LINES: usize = 200_000;
    let mut rng = StdRng::seed_from_u64(seed() ^ 1);
    let board = Board::startpos();
    let mut parsed = 0;
    for _ in 0..LINES * scale() {
        let line = random_line(&mut rng, &board);
        let read = ferrimax::cecp::parse(&line);
        assert_eq!(ferrimax::cecp::parse(&line), read, "{line:?} read twice");
        let padded = format!(" \t{line} ");
        assert_eq!(ferrimax::cecp::parse(&padded), read, "{line:?} with blanks");
        match &read {
            Err(ParseError::Empty) => assert!(blank(&line), "{line:?}"),
            Err(refusal) => {
                let reply = refusal.reply().expect("a refusal is answered").to_string();
                assert!(reply.starts_with("Error ("), "{line:?}: {reply:?}");
                // One line: the quoted text shows line breaks as blanks and other
                // control characters as `?`.
                let quoted: String = line
                    .trim_matches([' ', '\t', '\r', '\n'])
                    .chars()
                    .map(|c| match c {
                        '\r' | '\n' => ' ',
                        c if c.is_control() && c != '\t' => '?',
                        c => c,
                    })
                    .collect();
                assert!(reply.ends_with(&quoted), "{line:?}: {reply:?}");
                assert!(!reply.contains(['\n', '\r']), "{line:?}: {reply:?}");
            }
            Ok(_) => assert!(!blank(&line), "{line:?}"),
        }
        let _ = ferrimax::cecp::parse_edit(&line);
        parsed += 1;
    }
    println!("parser: {parsed} lines, no panic, each read one way");
}

/// FEN and SAN readers under random and mutated text: no panic; a FEN that reads gives a
/// sound board whose FEN reads back the same; SAN that reads gives a legal move.
#[test]
fn fen_and_san_readers_take_any_text() {
    const CASES: usize = 100_000;
    let mut rng = StdRng::seed_from_u64(seed() ^ 2);
    let mut boards = vec![Board::startpos()];
    for _ in 0..CASES * scale() {
        let source = FENS[rng.random_range(0..FENS.len())];
        let text = if rng.random_bool(0.5) {
            mutate(&mut rng, source)
        } else {
            noise(&mut rng)
        };
        if let Ok(board) = Board::from_fen(&text) {
            assert_eq!(board.invariant_violation(), None, "{text}");
            let again = Board::from_fen(&board.to_fen()).expect("its own FEN reads");
            assert_eq!(again.to_fen(), board.to_fen(), "{text}");
            boards.push(board);
        }
        let board = &boards[rng.random_range(0..boards.len())];
        let san = if rng.random_bool(0.5) {
            let legal = board.legal_moves();
            if legal.is_empty() {
                noise(&mut rng)
            } else {
                let m = legal.as_slice()[rng.random_range(0..legal.len())];
                mutate(&mut rng, &board.san(m))
            }
        } else {
            noise(&mut rng)
        };
        if let Ok(m) = board.parse_move(&san) {
            assert!(board.is_legal(m), "{san} in {}", board.to_fen());
        }
    }
    println!("FEN and SAN: {} cases, no fault", CASES * scale());
}

/// The book reader on random and cut files: no panic; a move it gives is legal.
#[test]
fn the_book_reader_takes_any_file() {
    const FILES: usize = 300;
    let mut rng = StdRng::seed_from_u64(seed() ^ 3);
    let path = std::env::temp_dir().join(format!("ferrimax-fuzz-book-{}.bin", std::process::id()));
    let boards: Vec<Board> = FENS
        .iter()
        .filter_map(|f| Board::from_fen(f).ok())
        .collect();
    for _ in 0..FILES * scale() {
        let mut bytes = vec![
            0u8;
            16 * rng.random_range(0..64)
                + rng.random_range(0..2) * rng.random_range(0..16)
        ];
        rng.fill_bytes(&mut bytes);
        // Some entries for the start position, so moves are found and decoded.
        if bytes.len() >= 16 && rng.random_bool(0.5) {
            let key = ferrimax::book::polyglot_key(&Board::startpos()).to_be_bytes();
            bytes[..8].copy_from_slice(&key);
        }
        std::fs::write(&path, &bytes).unwrap();
        match ferrimax::book::Book::open(&path) {
            Ok(book) => {
                for board in &boards {
                    for m in book.moves(board) {
                        assert!(board.is_legal(m.mv));
                    }
                }
            }
            Err(_) => assert!(!bytes.len().is_multiple_of(16)),
        }
    }
    let _ = std::fs::remove_file(&path);
    println!("book reader: {} files, no fault", FILES * scale());
}

/// A random UCI line, mostly well formed: the commands with their arguments (moves legal
/// in `board` or not, options that exist or not, values of every kind), some mutated,
/// some noise. Searches are kept short (`depth`, `movetime`, `nodes`).
fn random_uci_line(rng: &mut StdRng, board: &Board) -> String {
    let pick = |rng: &mut StdRng, list: &[&str]| list[rng.random_range(0..list.len())].to_string();
    let legal: Vec<String> = board.legal_moves().iter().map(|m| m.to_string()).collect();
    let some_moves = |rng: &mut StdRng| -> String {
        let mut b = Board::startpos();
        let mut moves = Vec::new();
        for _ in 0..rng.random_range(0..12) {
            let list = b.legal_moves();
            if list.is_empty() {
                break;
            }
            let m = list.as_slice()[rng.random_range(0..list.len())];
            moves.push(m.to_string());
            b.make_move(m);
        }
        if rng.random_range(0..5) == 0 {
            moves.push(pick(rng, &["e2e5", "a1a1", "zz", "e7e8q", "0000"]).to_string());
        }
        moves.join(" ")
    };
    let base = match rng.random_range(0..14) {
        0 => noise(rng),
        1 => format!("position startpos moves {}", some_moves(rng)),
        2 => format!(
            "position fen {} moves {}",
            pick(
                rng,
                &[
                    START_FEN,
                    "8/8/8/8/8/8/8/8 w - - 0 1",
                    "k7/8/1K6/8/8/8/8/7R w - - 0 1",
                    "8/8/8/8/2k5/8/1r6/3QK3 w - - 0 1",
                    "not a fen"
                ]
            ),
            legal.first().cloned().unwrap_or_default()
        ),
        3..=5 => format!(
            "go {} {} {}",
            pick(
                rng,
                &[
                    "depth 1",
                    "depth 2",
                    "movetime 5",
                    "nodes 500",
                    "mate 1",
                    "wtime 50 btime 50",
                    "infinite",
                    "ponder depth 2"
                ]
            ),
            pick(
                rng,
                &[
                    "",
                    "winc 10 binc 10",
                    "movestogo 1",
                    "wtime -5 btime 99999999999999999999"
                ]
            ),
            if rng.random_range(0..3) == 0 && !legal.is_empty() {
                format!("searchmoves {}", legal[rng.random_range(0..legal.len())])
            } else {
                String::new()
            }
        ),
        6 => "stop".to_string(),
        7 => "ponderhit".to_string(),
        8 => "isready".to_string(),
        9 => format!(
            "setoption name {} value {}",
            pick(
                rng,
                &[
                    "Hash",
                    "Threads",
                    "MultiPV",
                    "UCI_Elo",
                    "UCI_LimitStrength",
                    "Move Overhead",
                    "UCI_Chess960",
                    "Ponder",
                    "Contempt",
                    "Nonsense",
                    "SyzygyProbeDepth",
                    "Syzygy50MoveRule",
                    "SyzygyPath",
                    "Book",
                    "Eval"
                ]
            ),
            pick(
                rng,
                &[
                    "1",
                    "2",
                    "0",
                    "-1",
                    "true",
                    "false",
                    "99999999999999999999",
                    "",
                    "classical",
                    "/nonexistent"
                ]
            )
        ),
        10 => "setoption name Clear Hash".to_string(),
        11 => "ucinewgame".to_string(),
        12 => pick(
            rng,
            &["debug on", "debug off", "register later", "uci", "quit"],
        )
        .to_string(),
        _ => pick(rng, WORDS).to_string(),
    };
    if rng.random_range(0..5) == 0 {
        mutate(rng, &base)
    } else {
        base
    }
}

/// The standard start position, for the UCI fuzzer's `position fen`.
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Whether a line is one of UCI's.
fn is_uci_line(line: &str) -> bool {
    [
        "id ",
        "option name ",
        "uciok",
        "readyok",
        "bestmove ",
        "info ",
    ]
    .iter()
    .any(|s| line.starts_with(s))
}

/// The UCI front end under random sessions: no panic, sound state after every command,
/// only UCI lines, `readyok` for every `isready`, and exactly one `bestmove` for every
/// `go` once the last search is stopped.
#[test]
fn the_uci_front_end_survives_random_sessions() {
    const SESSIONS: usize = 4;
    const COMMANDS: usize = 100;
    let mut rng = StdRng::seed_from_u64(seed() ^ 5);
    let mut commands = 0;
    for _ in 0..SESSIONS * scale() {
        let mut d = Driver::new();
        d.send("uci");
        d.send(&format!("setoption name SyzygyPath value {TABLES}"));
        let (mut gos, mut answers) = (0, 0);
        for _ in 0..COMMANDS {
            let line = random_uci_line(&mut rng, d.board());
            if line.trim() == "quit" {
                continue;
            }
            commands += 1;
            let mut out = d.send_now(&line);
            out.extend(d.drain());
            if ferrimax::uci::parse(&line).is_ok_and(|c| matches!(c, ferrimax::uci::Command::Go(_)))
            {
                gos += 1;
            }
            for l in &out {
                assert!(
                    is_uci_line(l),
                    "not a UCI line {l:?} after {line:?}\n{}",
                    d.transcript()
                );
            }
            if ferrimax::uci::parse(&line) == Ok(ferrimax::uci::Command::IsReady) {
                assert!(
                    out.iter().any(|l| l == "readyok"),
                    "{line}\n{}",
                    d.transcript()
                );
            }
            answers += out.iter().filter(|l| l.starts_with("bestmove ")).count();
            if let Some(why) = d.game().inconsistency() {
                d.fail(&format!("after {line:?}: {why}"));
            }
        }
        answers += d
            .send_now("stop")
            .iter()
            .filter(|l| l.starts_with("bestmove "))
            .count();
        while answers < gos {
            let (_, _) = d.wait_for(|l| l.starts_with("bestmove "));
            answers += 1;
        }
        answers += d
            .drain()
            .iter()
            .filter(|l| l.starts_with("bestmove "))
            .count();
        assert_eq!(answers, gos, "one bestmove per go\n{}", d.transcript());
        d.send("quit");
    }
    println!("UCI front end: {commands} commands, no fault");
}
