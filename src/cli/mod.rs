//! The command line: without arguments the protocol loop; `perft`, `divide`, `bench` and
//! `epd` for checking the rules, the search and its strength; `--help` and `--version`.
//! Each mode returns the process exit status. Results go to stdout, progress and errors
//! to stderr.

pub mod bench;
mod datagen;
mod epd;
mod progress;
mod tune;

pub use epd::{Budget, EpdPosition, parse_line, run_suite};

use crate::chess::positions;
use crate::chess::{Board, STARTPOS, divide, perft};
use crate::eval::nnue::Network;
use crate::search::SearchOptions;
use progress::Progress;
use std::time::{Duration, Instant};

/// What `ferrimax --help` prints, and the usage errors point to.
pub const HELP: &str = "\
Ferrimax, a chess engine for XBoard/WinBoard (CECP 2) GUIs, chess servers and testers.

usage: ferrimax                     speak CECP on stdin/stdout (what GUIs start)
       ferrimax perft DEPTH [FEN]   count the leaves of the legal move tree
       ferrimax divide DEPTH [FEN]  the same per root move
       ferrimax bench [DEPTH] [--threads N] [--lines N] [--net FILE | --classical]
                                    search the bench positions; the last line,
                                    \"N nodes M nps\", is the search's signature
       ferrimax epd FILE [--time S | --depth D | --nodes N] [--threads N] [--classical]
                                    run an EPD test suite (bm/am), count the solved
                                    (--classical: the hand-written evaluation)
       ferrimax selfplay GAMES [--nodes N] [--threads N] [--seed N] [--eval E]
                                    play games against itself (PGN on stdout;
                                    E: classical, the default, or nnue)
       ferrimax datagen OUT --games N [--nodes N] [--threads N] [--seed N] [--eval E]
                                    training positions of self-play games for a
                                    learned evaluation (resumes a stopped run;
                                    E: nnue, the default, or classical)
       ferrimax train DATA... --out NET [--hidden N] [--epochs N] [--batch N]
                     [--lr X] [--result-weight X] [--mirror 0|1]
                     [--activation crelu|screlu] [--buckets N] [--threads N]
                     [--seed N]
                                    train a network on datagen's positions
       ferrimax tune PGN... [--per-game N] [--passes N] [--threads N] [--seed N]
                     [--only PREFIX,...] [--gradient [--penalty N]]
                                    fit the evaluation weights to the games' results
                                    (Texel's method; --gradient: all at once by
                                    gradient descent); prints the weights found
       ferrimax --help | --version

Logs: RUST_LOG=debug ferrimax (to stderr). See README.md for GUIs, servers and options.";

/// The one-line usage printed with a usage error (`--help` tells more).
pub const USAGE: &str = "usage: ferrimax [perft DEPTH [FEN] | divide DEPTH [FEN] | bench [DEPTH] | epd FILE | selfplay GAMES | datagen OUT | train DATA... | tune PGN... | --help | --version]";

/// The program and its version, as `--version` prints it.
pub const VERSION: &str = concat!("ferrimax ", env!("CARGO_PKG_VERSION"));

/// Runs the command line `args` (without the program name).
pub fn run(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        None => crate::game::run(),
        Some("perft") => run_perft(&args[1..]),
        Some("divide") => run_divide(&args[1..]),
        Some("bench") => run_bench(&args[1..]),
        Some("epd") => run_epd(&args[1..]),
        Some("tune") => tune::run_tune(&args[1..]),
        Some("selfplay") => tune::run_selfplay(&args[1..]),
        Some("datagen") => datagen::run_datagen(&args[1..]),
        Some("train") => datagen::run_train(&args[1..]),
        Some("--help" | "-h" | "help") => {
            println!("{HELP}");
            0
        }
        Some("--version" | "-V") => {
            println!("{VERSION}");
            0
        }
        Some(other) => {
            eprintln!("{USAGE}  (unknown mode '{other}')");
            USAGE_ERROR
        }
    }
}

/// Exit status for a command-line usage error.
pub const USAGE_ERROR: i32 = 2;

/// Reads `DEPTH [FEN...]` (the FEN may arrive split over several arguments).
fn depth_and_board(args: &[String]) -> Result<(u32, Board), String> {
    let depth_text = args.first().ok_or("missing DEPTH")?;
    let depth: u32 = depth_text
        .parse()
        .map_err(|_| format!("DEPTH must be a non-negative integer, not '{depth_text}'"))?;
    let fen = if args.len() > 1 {
        args[1..].join(" ")
    } else {
        STARTPOS.to_string()
    };
    let board = Board::from_any_fen(&fen).map_err(|e| format!("bad FEN: {e}"))?;
    Ok((depth, board))
}

fn usage_error(command: &str, why: &str) -> i32 {
    eprintln!("usage: ferrimax {command} DEPTH [FEN]  ({why})");
    USAGE_ERROR
}

/// `ferrimax perft DEPTH [FEN]`: leaf count, time and speed.
pub fn run_perft(args: &[String]) -> i32 {
    let (depth, mut board) = match depth_and_board(args) {
        Ok(x) => x,
        Err(why) => return usage_error("perft", &why),
    };
    let start = Instant::now();
    let nodes = perft_with_progress(&mut board, depth);
    let seconds = start.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    println!("time {seconds:.3} s");
    println!("speed {:.1} Mnps", nodes as f64 / seconds.max(1e-9) / 1e6);
    0
}

/// [`perft`] with a progress line per root move.
fn perft_with_progress(board: &mut Board, depth: u32) -> u64 {
    if depth <= 1 {
        return perft(board, depth);
    }
    let moves = board.legal_moves();
    let mut progress = Progress::new("perft", moves.len());
    let mut nodes = 0;
    for (i, &m) in moves.iter().enumerate() {
        let undo = board.make_move(m);
        nodes += perft(board, depth - 1);
        board.unmake_move(m, &undo);
        progress.show(i + 1, "root moves");
    }
    progress.finish();
    nodes
}

/// `ferrimax divide DEPTH [FEN]`: leaf count under each root move, then the total.
pub fn run_divide(args: &[String]) -> i32 {
    let (depth, mut board) = match depth_and_board(args) {
        Ok((0, _)) => return usage_error("divide", "DEPTH must be at least 1"),
        Ok(x) => x,
        Err(why) => return usage_error("divide", &why),
    };
    let mut total = 0;
    for (m, n) in divide(&mut board, depth) {
        println!("{m} {n}");
        total += n;
    }
    println!("total {total}");
    0
}

/// Most threads `bench --threads` accepts.
const MAX_BENCH_THREADS: usize = 256;
/// Most lines `bench --lines` searches (multi-PV), as the `MultiPV` option allows.
const MAX_BENCH_LINES: usize = 64;
const BENCH_USAGE: &str = "usage: ferrimax bench [DEPTH 1-64] [--threads N] [--lines N] \
     [--net FILE | --classical] [--self-deepening|--no-self-deepening]";

/// `ferrimax bench [DEPTH] [--threads N] [--lines N] [--self-deepening]`: searches the
/// bench positions (with `--lines`, that many lines each, as a multi-PV analysis does)
/// and prints one line per position, then `N nodes M nps` as the last line.
/// With one thread (the default) the node count is the search's signature; with more it
/// shows the parallel speed, and the time line the time to depth.
pub fn run_bench(args: &[String]) -> i32 {
    let mut depth = bench::DEFAULT_DEPTH;
    let mut threads = 1;
    let mut options = SearchOptions::default();
    let mut network = Some(crate::eval::nnue::embedded());
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--classical" => network = None,
            "--self-deepening" => options.self_deepening = true,
            "--no-self-deepening" => options.self_deepening = false,
            "--threads" => match args.next().map(|n| n.parse::<usize>()) {
                Some(Ok(n)) if (1..=MAX_BENCH_THREADS).contains(&n) => threads = n,
                _ => {
                    eprintln!(
                        "{BENCH_USAGE}  (--threads needs a number from 1 to {MAX_BENCH_THREADS})"
                    );
                    return USAGE_ERROR;
                }
            },
            "--net" => {
                let read = args
                    .next()
                    .ok_or_else(|| "--net needs a network file".to_string())
                    .and_then(|path| Network::read(path).map_err(|e| format!("{path}: {e}")));
                match read {
                    Ok(net) => network = Some(std::sync::Arc::new(net)),
                    Err(why) => {
                        eprintln!("{BENCH_USAGE}  ({why})");
                        return USAGE_ERROR;
                    }
                }
            }
            "--lines" => match args.next().map(|n| n.parse::<usize>()) {
                Some(Ok(n)) if (1..=MAX_BENCH_LINES).contains(&n) => options.lines = n,
                _ => {
                    eprintln!(
                        "{BENCH_USAGE}  (--lines needs a number from 1 to {MAX_BENCH_LINES})"
                    );
                    return USAGE_ERROR;
                }
            },
            text => match text.parse::<u32>() {
                Ok(d) if (1..=64).contains(&d) => depth = d,
                _ => {
                    eprintln!("{BENCH_USAGE}  (bad argument '{text}')");
                    return USAGE_ERROR;
                }
            },
        }
    }
    crate::eval::init();
    let mut progress = Progress::new("bench", positions::BENCH.len());
    let result = bench::run_threads(depth, options, threads, network, |i, fen, nodes| {
        println!("position {:2} {nodes:>10} nodes  {fen}", i + 1);
        progress.show(i + 1, "positions");
    });
    progress.finish();
    println!(
        "threads {threads} depth {depth} time {:.3} s",
        result.elapsed.as_secs_f64()
    );
    println!("{} nodes {} nps", result.nodes, result.nodes_per_second());
    0
}

const EPD_USAGE: &str =
    "usage: ferrimax epd FILE [--time SECONDS | --depth D | --nodes N] [--threads N] [--classical]";
/// Time per position when the command line gives no limit.
const DEFAULT_EPD_TIME: Duration = Duration::from_secs(1);

/// `ferrimax epd FILE [--time S | --depth D | --nodes N] [--threads N] [--classical]`:
/// one line per position (solved or failed, the move played and the wanted ones), then
/// `solved K of N`; with the embedded network unless `--classical`. Exit status 0 whatever the score; 2 for a bad command line or file.
pub fn run_epd(args: &[String]) -> i32 {
    let usage = |why: &str| {
        eprintln!("{EPD_USAGE}  ({why})");
        USAGE_ERROR
    };
    let Some(file) = args.first() else {
        return usage("missing FILE");
    };
    let mut budget = epd::Budget::Time(DEFAULT_EPD_TIME);
    let mut threads = 1;
    let mut network = Some(crate::eval::nnue::embedded());
    let mut rest = args[1..].iter();
    while let Some(flag) = rest.next() {
        if flag == "--classical" {
            network = None;
            continue;
        }
        let value = rest.next().map(String::as_str).unwrap_or("");
        let parsed = match flag.as_str() {
            "--time" => value
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s > 0.0)
                .map(|s| budget = epd::Budget::Time(Duration::from_secs_f64(s.min(1e6)))),
            "--depth" => value
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=64).contains(d))
                .map(|d| budget = epd::Budget::Depth(d)),
            "--nodes" => value
                .parse::<u64>()
                .ok()
                .filter(|n| *n > 0)
                .map(|n| budget = epd::Budget::Nodes(n)),
            "--threads" => value
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_BENCH_THREADS).contains(n))
                .map(|n| threads = n),
            _ => None,
        };
        if parsed.is_none() {
            return usage(&format!("bad argument '{flag} {value}'"));
        }
    }
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => return usage(&format!("{file}: {e}")),
    };
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match epd::parse_line(line, i + 1) {
            Ok(Some(position)) => positions.push(position),
            Ok(None) => {}
            Err(e) => return usage(&format!("{file}: {e}")),
        }
    }
    crate::eval::init();
    epd::run_suite(&positions, budget, threads, network);
    0
}
