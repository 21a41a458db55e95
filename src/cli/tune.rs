//! `ferrimax tune`: Texel's tuning of the evaluation weights on the games of PGN files,
//! printing the weights it found in the syntax of `src/eval/weights.rs`; and `ferrimax
//! selfplay`, which plays such games.

use super::args::{SelfplayArgs, TuneArgs};
use super::refuse;
use crate::eval::Evaluation;
use crate::eval::weights::DEFAULT;
use crate::learn::pgn;
use crate::learn::selfplay;
use crate::learn::texel::{self as tune, Sampling};
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Positions taken per game unless told.
pub(super) const DEFAULT_PER_GAME: usize = 8;
/// The gradient descent's penalty on moved weights unless told: a weight moved by 100
/// units costs 640 millionths of error (see `learn::texel::gradient::PENALTY_UNIT`), the value
/// that left the lowest held-out error when the weights were last fitted (commit
/// 5c1af5f says how it was chosen); with many more games a smaller one may fit better.
pub(super) const DEFAULT_PENALTY: u64 = 640;
/// Passes over the weights unless told.
pub(super) const DEFAULT_PASSES: usize = 30;

/// `ferrimax tune PGN... [--per-game N] [--passes N] [--threads N] [--seed N] [--only
/// PREFIX,...] [--gradient [--penalty N]]` (only the weights whose names start with one
/// of the prefixes; `--gradient` moves them all at once by gradient descent, a pass
/// being a round of it, instead of one at a time, and `--penalty` is what moving them
/// costs): progress (positions, k, the errors after each pass, the weights that changed)
/// on stderr, the tuned `Weights` on stdout. Exit status 2 for a bad command line, file
/// or no games.
pub fn run_tune(args: &TuneArgs) -> i32 {
    let sampling = Sampling {
        per_game: args.per_game,
        seed: args.seed.value,
    };
    let threads = args.threads.count;
    let gradient = args.gradient;
    #[allow(clippy::cast_precision_loss, reason = "a penalty is a small number")]
    let penalty = args.penalty as f64;
    let only = &args.only;
    let passes = args.passes;
    let plan = tune::Plan {
        passes,
        threads,
        only,
    };
    if let Some(unknown) = plan.prefix_selecting_nothing(&DEFAULT) {
        return refuse("tune", format!("no weight's name starts with {unknown}"));
    }
    let mut games = Vec::new();
    for file in &args.files {
        match std::fs::read_to_string(file) {
            Ok(text) => games.extend(pgn::read_games(&text)),
            Err(e) => return refuse("tune", format!("{}: {e}", file.display())),
        }
    }
    if games.is_empty() {
        return refuse("tune", "no finished game in the files");
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
    let mut report = |p: tune::Progress| {
        eprintln!(
            "pass {:2}: fit error {:.6}, held-out error {:.6}, {} changes",
            p.pass, p.fit_error, p.held_out_error, p.changes
        );
    };
    let tuned = if gradient {
        tune::gradient::tune(&fit, &held_out, &DEFAULT, k, &plan, penalty, &mut report)
    } else {
        tune::tune(&fit, &held_out, &DEFAULT, k, &plan, &mut report)
    };
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

/// `ferrimax selfplay GAMES [--nodes N] [--threads N] [--seed N] [--eval E]`: Ferrimax
/// against itself (with the hand-written evaluation unless told: the tuner's data), each
/// game as PGN on stdout as soon as it ends (in the order they end), a count on stderr.
/// Exit status 2 for a bad command line.
pub fn run_selfplay(args: &SelfplayArgs) -> i32 {
    let games = args.games;
    let settings = args.play.settings(Evaluation::Classical);
    let threads = args.play.threads.count;
    crate::eval::init();
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let out = Mutex::new(std::io::stdout());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games {
                        break;
                    }
                    let text = selfplay::play(settings, index);
                    let mut out = out
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    // A closed stdout ends the run early; nothing to report.
                    if out
                        .write_all(text.as_bytes())
                        .and_then(|()| out.flush())
                        .is_err()
                    {
                        next.store(games, Ordering::Relaxed);
                    }
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    eprint!("\rselfplay {finished}/{games} games");
                }
            });
        }
    });
    eprintln!();
    0
}
