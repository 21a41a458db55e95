//! `ferrimax tune`: Texel's tuning of the evaluation weights on the games of PGN files,
//! printing the weights it found in the syntax of `src/eval/weights.rs`.

use super::USAGE_ERROR;
use crate::eval::weights::DEFAULT;
use crate::tune::{self, Sampling, pgn};

const TUNE_USAGE: &str =
    "usage: ferrimax tune PGN... [--per-game N] [--passes N] [--threads N] [--seed N]";
/// Positions taken per game unless told.
const DEFAULT_PER_GAME: usize = 8;
/// Passes over the weights unless told.
const DEFAULT_PASSES: usize = 30;

/// `ferrimax tune PGN... [--per-game N] [--passes N] [--threads N] [--seed N]`: progress
/// (positions, k, the errors after each pass, the weights that changed) on stderr, the
/// tuned `Weights` on stdout. Exit status 2 for a bad command line, file or no games.
pub fn run_tune(args: &[String]) -> i32 {
    let usage = |why: &str| {
        eprintln!("{TUNE_USAGE}  ({why})");
        USAGE_ERROR
    };
    let mut files = Vec::new();
    let mut sampling = Sampling {
        per_game: DEFAULT_PER_GAME,
        seed: 1,
    };
    let mut passes = DEFAULT_PASSES;
    let mut threads = 1;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if !arg.starts_with("--") {
            files.push(arg.clone());
            continue;
        }
        let Some(value) = rest.next().and_then(|v| v.parse::<u64>().ok()) else {
            return usage(&format!("{arg} needs a number"));
        };
        let count = usize::try_from(value).unwrap_or(usize::MAX).max(1);
        match arg.as_str() {
            "--per-game" => sampling.per_game = count,
            "--passes" => passes = count,
            "--threads" => threads = count.min(super::MAX_BENCH_THREADS),
            "--seed" => sampling.seed = value,
            _ => return usage(&format!("unknown option {arg}")),
        }
    }
    if files.is_empty() {
        return usage("no PGN file");
    }
    let mut games = Vec::new();
    for file in &files {
        match std::fs::read_to_string(file) {
            Ok(text) => games.extend(pgn::read_games(&text)),
            Err(e) => return usage(&format!("{file}: {e}")),
        }
    }
    if games.is_empty() {
        return usage("no finished game in the files");
    }
    crate::eval::init();
    let (fit, held_out) = tune::collect(&games, sampling);
    eprintln!(
        "{} games, {} positions to fit, {} held out",
        games.len(),
        fit.len(),
        held_out.len()
    );
    let k = tune::fit_k(&fit, &DEFAULT, threads);
    eprintln!("k {k:.4}");
    let tuned = tune::tune(&fit, &held_out, &DEFAULT, k, passes, threads, &mut |p| {
        eprintln!(
            "pass {:2}: fit error {:.6}, held-out error {:.6}, {} changes",
            p.pass, p.fit_error, p.held_out_error, p.changes
        );
    });
    let mut before = DEFAULT.clone();
    let mut after = tuned.clone();
    for ((name, old), (_, new)) in before.tunable().into_iter().zip(after.tunable()) {
        if old != new {
            eprintln!("{name}: {old} -> {new}");
        }
    }
    println!("{tuned:?}");
    0
}
