//! Command-line modes other than the protocol loop: `perft` and `divide` (and, later,
//! `bench`). Each returns the process exit status.

use crate::chess::{Board, STARTPOS, divide, perft};
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
