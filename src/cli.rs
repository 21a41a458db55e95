//! Command-line modes other than the protocol loop: `perft`, `divide` and `bench`. Each
//! returns the process exit status.

use crate::chess::{Board, STARTPOS, divide, perft};
use crate::search::{SearchOptions, bench};
use std::time::Instant;

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
    let board = Board::from_fen(&fen).map_err(|e| format!("bad FEN: {e}"))?;
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
    let nodes = perft(&mut board, depth);
    let seconds = start.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    println!("time {seconds:.3} s");
    println!("speed {:.1} Mnps", nodes as f64 / seconds.max(1e-9) / 1e6);
    0
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
const BENCH_USAGE: &str =
    "usage: ferrimax bench [DEPTH 1-64] [--threads N] [--self-deepening|--no-self-deepening]";

/// `ferrimax bench [DEPTH] [--threads N] [--self-deepening]`: searches the bench
/// positions and prints one line per position, then `N nodes M nps` as the last line.
/// With one thread (the default) the node count is the search's signature; with more it
/// shows the parallel speed, and the time line the time to depth.
pub fn run_bench(args: &[String]) -> i32 {
    let mut depth = bench::DEFAULT_DEPTH;
    let mut threads = 1;
    let mut options = SearchOptions::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
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
    let result = bench::run_threads(depth, options, threads, |i, fen, nodes| {
        println!("position {:2} {nodes:>10} nodes  {fen}", i + 1);
    });
    println!(
        "threads {threads} depth {depth} time {:.3} s",
        result.elapsed.as_secs_f64()
    );
    println!("{} nodes {} nps", result.nodes, result.nodes_per_second());
    0
}
