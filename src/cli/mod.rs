//! The command line: without arguments the protocol loop; `perft`, `divide`, `bench` and
//! `epd` for checking the rules, the search and its strength; `selfplay`, `datagen`,
//! `train` and `tune` for the evaluation's data and weights; `--help` and `--version`.
//! Clap reads the command line (`args.rs` declares every flag); each mode returns the
//! process exit status. Results go to stdout, progress and errors to stderr.

mod args;
pub mod bench;
mod datagen;
mod epd;
mod genfens;
mod progress;
mod tune;

pub use args::{Cli, Mode};
pub use epd::{Budget, EpdPosition, parse_line, run_suite};

use crate::chess::positions;
use crate::chess::{Board, STARTPOS, divide, perft};
use crate::search::{SearchOptions, TranspositionTable};
use args::{BenchArgs, DivideArgs, EpdArgs, PerftArgs, PositionArg};
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use progress::Progress;
use std::ffi::OsString;
use std::time::{Duration, Instant};

/// Exit status for a command-line usage error: clap's own for the errors it finds, and
/// ours for those found after it (a FEN that is no position, a file that cannot be read).
pub const USAGE_ERROR: i32 = 2;

/// Runs the command line `args` (the program's name first, as `std::env::args_os` gives
/// it) and returns the exit status: 0 for `--help` and `--version`, 2 for a usage error.
pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    let args = genfens::openbench_request(args.into_iter().collect());
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            // Help and version go to stdout, errors to stderr; a closed stream is no news.
            let _ = error.print();
            return error.exit_code();
        }
    };
    match cli.mode {
        None => crate::game::run(),
        Some(Mode::Perft(args)) => run_perft(&args),
        Some(Mode::Divide(args)) => run_divide(&args),
        Some(Mode::Bench(args)) => run_bench(&args),
        Some(Mode::Epd(args)) => run_epd(&args),
        Some(Mode::Tune(args)) => tune::run_tune(&args),
        Some(Mode::Selfplay(args)) => tune::run_selfplay(&args),
        Some(Mode::Datagen(args)) => datagen::run_datagen(&args),
        Some(Mode::Train(args)) => datagen::run_train(&args),
        Some(Mode::Genfens(args)) => genfens::run_genfens(&args),
    }
}

/// Reports a usage error that clap could not see (a FEN that is no position, a file that
/// cannot be read) as clap reports its own: the reason, then `mode`'s usage line, on
/// stderr; returns the usage-error status.
pub(crate) fn refuse(mode: &str, reason: impl std::fmt::Display) -> i32 {
    let mut command = Cli::command();
    command.build();
    let error = match command.find_subcommand_mut(mode) {
        Some(subcommand) => subcommand.error(ErrorKind::ValueValidation, reason),
        None => command.error(ErrorKind::ValueValidation, reason),
    };
    let _ = error.print();
    USAGE_ERROR
}

/// The position of `perft` and `divide`: the FEN given, or the start position.
fn board_of(mode: &str, position: &PositionArg) -> Result<Board, i32> {
    let fen = position.fen().unwrap_or_else(|| STARTPOS.to_string());
    Board::from_any_fen(&fen).map_err(|e| refuse(mode, format!("bad FEN '{fen}': {e}")))
}

/// `ferrimax perft DEPTH [FEN]`: leaf count, time and speed.
fn run_perft(args: &PerftArgs) -> i32 {
    let mut board = match board_of("perft", &args.position) {
        Ok(board) => board,
        Err(status) => return status,
    };
    let depth = args.depth;
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
fn run_divide(args: &DivideArgs) -> i32 {
    let mut board = match board_of("divide", &args.position) {
        Ok(board) => board,
        Err(status) => return status,
    };
    let mut total = 0;
    for (m, n) in divide(&mut board, args.depth) {
        println!("{m} {n}");
        total += n;
    }
    println!("total {total}");
    0
}

/// `ferrimax bench [DEPTH] [--threads N] [--hash MB] [--lines N] [--net FILE |
/// --classical] [--self-deepening]`: searches the bench positions (with `--lines`, that
/// many lines each, as a multi-PV analysis does) and prints one line per position, then
/// `N nodes M nps` as the last line, where OpenBench and the tests read the signature and
/// speed.
/// With one thread (the default) the node count is the search's signature; with more it
/// shows the parallel speed, and the time line the time to depth.
fn run_bench(args: &BenchArgs) -> i32 {
    let depth = args.depth;
    let threads = args.threads.count;
    let mut options = SearchOptions {
        self_deepening: args.self_deepening,
        ..SearchOptions::default()
    };
    if let Some(lines) = args.lines {
        options.lines = lines;
    }
    if let Err(error) = TranspositionTable::try_new(args.hash_mb) {
        return refuse("bench", error);
    }
    let network = args.evaluation.network();
    crate::eval::init();
    let mut progress = Progress::new("bench", positions::BENCH.len());
    let result = bench::run_threads(
        depth,
        options,
        threads,
        args.hash_mb,
        network,
        |i, fen, nodes| {
            println!("position {:2} {nodes:>10} nodes  {fen}", i + 1);
            progress.show(i + 1, "positions");
        },
    );
    progress.finish();
    println!(
        "threads {threads} depth {depth} time {:.3} s",
        result.elapsed.as_secs_f64()
    );
    println!("{} nodes {} nps", result.nodes, result.nodes_per_second());
    0
}

/// Time per position when the command line gives no limit.
const DEFAULT_EPD_TIME: Duration = Duration::from_secs(1);

/// `ferrimax epd FILE [--time S | --depth D | --nodes N] [--threads N] [--net FILE |
/// --classical]`: one line per position (solved or failed, the move played and the wanted
/// ones), then `solved K of N`; with the embedded network unless told. Exit status 0
/// whatever the score; 2 for a bad command line or file.
fn run_epd(args: &EpdArgs) -> i32 {
    let budget = match (args.budget.time, args.budget.depth, args.budget.nodes) {
        (_, Some(depth), _) => epd::Budget::Depth(depth),
        (_, _, Some(nodes)) => epd::Budget::Nodes(nodes),
        (time, _, _) => epd::Budget::Time(time.unwrap_or(DEFAULT_EPD_TIME)),
    };
    let file = args.file.display();
    let text = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(e) => return refuse("epd", format!("{file}: {e}")),
    };
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match epd::parse_line(line, i + 1) {
            Ok(Some(position)) => positions.push(position),
            Ok(None) => {}
            Err(e) => return refuse("epd", format!("{file}: {e}")),
        }
    }
    crate::eval::init();
    epd::run_suite(
        &positions,
        budget,
        args.threads.count,
        args.evaluation.network(),
    );
    0
}
