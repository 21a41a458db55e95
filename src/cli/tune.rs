//! `ferrimax tune`: Texel's tuning of the evaluation weights on the games of PGN files,
//! printing the weights it found in the syntax of `src/eval/weights.rs`; and `ferrimax
//! selfplay`, which plays such games.

use super::USAGE_ERROR;
use crate::eval::Evaluation;
use crate::eval::weights::DEFAULT;
use crate::tune::selfplay::{self, SelfPlay};
use crate::tune::{self, Sampling, pgn};
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

const TUNE_USAGE: &str = "usage: ferrimax tune PGN... [--per-game N] [--passes N] [--threads N] \
     [--seed N] [--only PREFIX,...] [--gradient [--penalty N]]";
/// Positions taken per game unless told.
const DEFAULT_PER_GAME: usize = 8;
/// The gradient descent's penalty on moved weights unless told: a weight moved by 100
/// units costs 640 millionths of error (see `tune::gradient::PENALTY_UNIT`), the value
/// that left the lowest held-out error when the weights were last fitted (commit
/// 5c1af5f says how it was chosen); with many more games a smaller one may fit better.
const DEFAULT_PENALTY: f64 = 640.0;
/// Passes over the weights unless told.
const DEFAULT_PASSES: usize = 30;

/// `ferrimax tune PGN... [--per-game N] [--passes N] [--threads N] [--seed N] [--only
/// PREFIX,...] [--gradient [--penalty N]]` (only the weights whose names start with one
/// of the prefixes; `--gradient` moves them all at once by gradient descent, a pass
/// being a round of it, instead of one at a time, and `--penalty` is what moving them
/// costs): progress (positions, k, the errors after each pass, the weights that changed)
/// on stderr, the tuned `Weights` on stdout. Exit status 2 for a bad command line, file
/// or no games.
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
    let mut only = Vec::new();
    let mut gradient = false;
    let mut penalty = DEFAULT_PENALTY;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if !arg.starts_with("--") {
            files.push(arg.clone());
            continue;
        }
        if arg == "--only" {
            let Some(list) = rest.next() else {
                return usage("--only needs weight names");
            };
            only.extend(list.split(',').map(str::to_string));
            continue;
        }
        if arg == "--gradient" {
            gradient = true;
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
            #[allow(clippy::cast_precision_loss, reason = "a penalty is a small number")]
            "--penalty" => penalty = value as f64,
            _ => return usage(&format!("unknown option {arg}")),
        }
    }
    if files.is_empty() {
        return usage("no PGN file");
    }
    let plan = tune::Plan {
        passes,
        threads,
        only: &only,
    };
    if let Some(unknown) = plan.prefix_selecting_nothing(&DEFAULT) {
        return usage(&format!("no weight's name starts with {unknown}"));
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

const SELFPLAY_USAGE: &str = "usage: ferrimax selfplay GAMES [--nodes N] [--threads N] [--seed N]";
/// Nodes a move unless told (about depth 7 in a middlegame).
const DEFAULT_SELFPLAY_NODES: u64 = 5_000;

/// `ferrimax selfplay GAMES [--nodes N] [--threads N] [--seed N]`: Ferrimax against
/// itself, each game as PGN on stdout as soon as it ends (in the order they end), a
/// count on stderr. Exit status 2 for a bad command line.
pub fn run_selfplay(args: &[String]) -> i32 {
    let usage = |why: &str| {
        eprintln!("{SELFPLAY_USAGE}  ({why})");
        USAGE_ERROR
    };
    let Some(games) = args.first().and_then(|g| g.parse::<u64>().ok()) else {
        return usage("GAMES must be a number");
    };
    let flags = match SelfPlayFlags::parse(
        &args[1..],
        DEFAULT_SELFPLAY_NODES,
        Evaluation::Classical,
        false,
    ) {
        Ok(flags) => flags,
        Err(why) => return usage(&why),
    };
    let (settings, threads) = (flags.settings, flags.threads);
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

/// The flags of the self-play tools (`selfplay`, `datagen`), each followed by a number.
pub(super) struct SelfPlayFlags {
    pub settings: SelfPlay,
    pub threads: u64,
    /// `--games`, where the tool takes it as a flag.
    pub games: Option<u64>,
}

impl SelfPlayFlags {
    /// Reads `--nodes`, `--threads`, `--seed`, `--eval classical|nnue` (and `--games` when
    /// `games_flag`); the reason when a flag is unknown or lacks its value.
    pub fn parse(
        args: &[String],
        default_nodes: u64,
        default_evaluation: Evaluation,
        games_flag: bool,
    ) -> Result<Self, String> {
        let mut flags = SelfPlayFlags {
            settings: SelfPlay {
                nodes: default_nodes,
                seed: 1,
                evaluation: default_evaluation,
            },
            threads: 1,
            games: None,
        };
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            if arg == "--eval" {
                let name = rest.next().map_or("", String::as_str);
                flags.settings.evaluation = Evaluation::named(name)
                    .ok_or_else(|| format!("--eval needs classical or nnue, not '{name}'"))?;
                continue;
            }
            let Some(value) = rest.next().and_then(|v| v.parse::<u64>().ok()) else {
                return Err(format!("{arg} needs a number"));
            };
            match arg.as_str() {
                "--games" if games_flag => flags.games = Some(value),
                "--nodes" => flags.settings.nodes = value.max(1),
                "--threads" => flags.threads = value.clamp(1, super::MAX_BENCH_THREADS as u64),
                "--seed" => flags.settings.seed = value,
                _ => return Err(format!("unknown option {arg}")),
            }
        }
        Ok(flags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SELFPLAY_GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/selfplay.pgn");

    #[test]
    fn bad_tune_command_lines_are_usage_errors() {
        let args = |list: &[&str]| list.iter().map(|a| (*a).to_string()).collect::<Vec<_>>();
        for (name, line) in [
            ("no file", args(&["--passes", "2"])),
            ("--only without names", args(&["games.pgn", "--only"])),
            ("unknown option", args(&["games.pgn", "--fast", "1"])),
            (
                "missing file",
                args(&["/nonexistent/games.pgn", "--only", "mobility"]),
            ),
            (
                "no such weight (the file is real)",
                args(&[SELFPLAY_GAMES, "--only", "mobilty"]),
            ),
        ] {
            assert_eq!(run_tune(&line), USAGE_ERROR, "{name}");
        }
    }

    /// The self-play tools read the same flags; `--games` only where it is a flag.
    #[test]
    fn self_play_flags() {
        let args = |list: &[&str]| list.iter().map(|a| (*a).to_string()).collect::<Vec<_>>();
        let flags = SelfPlayFlags::parse(
            &args(&[
                "--games",
                "7",
                "--nodes",
                "0",
                "--threads",
                "999",
                "--seed",
                "5",
                "--eval",
                "NNUE",
            ]),
            100,
            Evaluation::Classical,
            true,
        )
        .expect("good flags");
        assert_eq!(flags.settings.evaluation, Evaluation::Network);
        assert_eq!(flags.games, Some(7));
        assert_eq!(flags.settings.nodes, 1, "at least one node");
        assert_eq!(flags.threads, super::super::MAX_BENCH_THREADS as u64);
        assert_eq!(flags.settings.seed, 5);
        let defaults =
            SelfPlayFlags::parse(&[], 100, Evaluation::Classical, false).expect("no flags");
        assert_eq!((defaults.settings.nodes, defaults.threads), (100, 1));
        assert_eq!(defaults.settings.evaluation, Evaluation::Classical);
        for (name, line, games_flag) in [
            (
                "--games where GAMES is an argument",
                args(&["--games", "3"]),
                false,
            ),
            ("no number", args(&["--nodes", "many"]), true),
            ("number missing", args(&["--seed"]), true),
            ("unknown", args(&["--fast", "1"]), true),
            ("no such evaluation", args(&["--eval", "fast"]), true),
            ("evaluation missing", args(&["--eval"]), true),
        ] {
            assert!(
                SelfPlayFlags::parse(&line, 100, Evaluation::Classical, games_flag).is_err(),
                "{name}"
            );
        }
    }
}
