//! Every command-line mode and flag, declared once with clap's derive API. Clap writes
//! each mode's `--help` from these declarations and refuses a bad flag or value with a
//! message that names it, so a flag's range and default live in one place and the help
//! cannot drift from the parser. The modes themselves (`mod.rs`, `tune.rs`,
//! `datagen.rs`, `genfens.rs`) receive the parsed values.
//!
//! The doc comments of this file are what `ferrimax MODE --help` prints.

use super::bench;
use crate::eval::Evaluation;
use crate::eval::nnue::{self, Activation, KingLayout, Network};
use crate::learn::selfplay::SelfPlay;
use crate::learn::train::Settings;
use clap::builder::{RangedI64ValueParser, RangedU64ValueParser};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Most search threads a mode takes (the `Threads` option's maximum).
pub const MAX_THREADS: usize = 256;
/// Most lines `bench --lines` searches (multi-PV), as the `MultiPV` option allows.
pub const MAX_LINES: usize = 64;
/// Deepest fixed-depth search `bench` and `epd --depth` take.
pub const MAX_DEPTH: u32 = 64;
/// Most hidden units `train --hidden` takes: past it a network is too slow to play with.
const MAX_HIDDEN: usize = 4_096;
/// Longest `epd --time` per position: longer values are cut to it (a suite that long
/// is a mistake, not a wish), as the first parser did.
const MAX_EPD_SECONDS: f64 = 1e6;
/// Nodes a move of the self-play tools (`selfplay`, `datagen`) unless told: about depth 7
/// in a middlegame, as engines like ours trained their first networks on.
pub const DEFAULT_PLAY_NODES: u64 = 5_000;

/// Ferrimax, a chess engine for XBoard/WinBoard (CECP 2) and UCI GUIs, chess servers and testers.
///
/// Without a command it speaks CECP on stdin/stdout (what GUIs start), or UCI when the
/// first command it reads is `uci`.
#[derive(Parser)]
#[command(
    name = "ferrimax",
    version,
    after_help = "Logs: RUST_LOG=debug ferrimax (to stderr). See README.md for GUIs, servers and options."
)]
pub struct Cli {
    /// What to do instead of speaking a protocol.
    #[command(subcommand)]
    pub mode: Option<Mode>,
}

/// The command-line modes.
#[derive(Subcommand)]
pub enum Mode {
    /// Count the leaves of the legal move tree
    Perft(PerftArgs),
    /// Count the leaves of the legal move tree under each root move
    Divide(DivideArgs),
    /// Search the bench positions; the last line, "N nodes M nps", is the signature
    ///
    /// With one thread (the default) N is the search's signature: every change of search
    /// or evaluation changes it, a pure speed-up does not.
    #[command(verbatim_doc_comment)]
    Bench(BenchArgs),
    /// Run an EPD test suite (bm/am) and count the positions solved
    Epd(EpdArgs),
    /// Play games against itself (PGN on stdout)
    ///
    /// Each game opens with 8 random plies, then both sides search a fixed number of
    /// nodes a move; --eval is classical unless told (the tuner's games).
    #[command(verbatim_doc_comment)]
    Selfplay(SelfplayArgs),
    /// Training positions for a learned evaluation, from self-play or scored PGN games
    ///
    /// The quiet positions of self-play games, each with the search's score and the
    /// game's result, appended to OUT as 32-byte records; OUT.progress says how far a run
    /// came, and the same command resumes it. --eval is nnue unless told.
    ///
    /// With --pgn, the same records of the PGN files' games instead: each position whose
    /// move carries the engine's score in its comment (cutechess and fastchess write
    /// {+0.35/12 0.52s}), under the same filter; book moves, unscored moves, mate scores
    /// and unfinished games give none.
    #[command(verbatim_doc_comment)]
    Datagen(DatagenArgs),
    /// Train a network on datagen's positions
    Train(TrainArgs),
    /// Fit the evaluation weights to the games' results (Texel's method)
    ///
    /// Prints the errors of each pass and the changed weights on stderr, the new weights
    /// on stdout in the syntax of src/eval/weights.rs.
    #[command(verbatim_doc_comment)]
    Tune(TuneArgs),
    /// Varied opening positions for OpenBench, one "info string genfens FEN" line each
    ///
    /// OpenBench asks for them in one argument, `ferrimax "genfens N seed S book B" quit`,
    /// which is read as `ferrimax genfens N --seed S --book B`. Each position is the start
    /// position, or one of the book's chosen by the seed, with a few random plies played;
    /// positions without a legal move, repeated ones and those a short search scores as
    /// already won or lost are left out. The same seed gives the same positions.
    #[command(verbatim_doc_comment)]
    Genfens(GenfensArgs),
}

/// `perft DEPTH [FEN]`.
#[derive(Args)]
pub struct PerftArgs {
    /// Plies to count
    pub depth: u32,
    /// The position
    #[command(flatten)]
    pub position: PositionArg,
}

/// `divide DEPTH [FEN]`: a root move needs a depth of at least 1.
#[derive(Args)]
pub struct DivideArgs {
    /// Plies to count, at least 1
    #[arg(value_parser = positive::<u32>)]
    pub depth: u32,
    /// The position
    #[command(flatten)]
    pub position: PositionArg,
}

/// A position given as a FEN, which a shell splits into its six fields.
#[derive(Args)]
pub struct PositionArg {
    /// The position, a FEN in one argument or several [default: the start position]
    #[arg(
        value_name = "FEN",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub fen: Vec<String>,
}

impl PositionArg {
    /// The FEN's fields joined again, or `None` when none was given.
    pub fn fen(&self) -> Option<String> {
        (!self.fen.is_empty()).then(|| self.fen.join(" "))
    }
}

/// `bench [DEPTH] [...]`.
#[derive(Args)]
pub struct BenchArgs {
    /// Depth of each search
    #[arg(
        default_value_t = bench::DEFAULT_DEPTH,
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH))
    )]
    pub depth: u32,
    /// Threads per search (with more than one the node count varies from run to run)
    #[command(flatten)]
    pub threads: SearchThreads,
    /// Hash table of each position's search, in MB, up to the `Hash` option's limit (the
    /// signature is taken at the default)
    #[arg(
        long = "hash",
        value_name = "MB",
        default_value_t = bench::HASH_MB,
        value_parser = RangedI64ValueParser::<usize>::new().range(1..=crate::game::MAX_HASH_MB)
    )]
    pub hash_mb: usize,
    /// Lines each position, as multi-PV analysis (1 to 64) [default: 1]
    #[arg(long, value_name = "N", value_parser = up_to(MAX_LINES))]
    pub lines: Option<usize>,
    /// The evaluation
    #[command(flatten)]
    pub evaluation: EvaluationArgs,
    /// Search with micro-Max's self-deepening
    ///
    /// A move that fails high during internal iterative deepening is searched to full
    /// depth at once instead of ending that shallow iteration.
    #[arg(long, overrides_with = "no_self_deepening", verbatim_doc_comment)]
    pub self_deepening: bool,
    /// Search without self-deepening (the default)
    #[arg(long, overrides_with = "self_deepening")]
    pub no_self_deepening: bool,
}

/// `epd FILE [...]`.
#[derive(Args)]
pub struct EpdArgs {
    /// The suite: a position a line in EPD, each with bm or am in SAN
    pub file: PathBuf,
    /// How long each position is searched
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Threads per search
    #[command(flatten)]
    pub threads: SearchThreads,
    /// The evaluation
    #[command(flatten)]
    pub evaluation: EvaluationArgs,
}

/// One limit per position: a time, a depth or a node count.
#[derive(Args)]
#[group(multiple = false)]
pub struct BudgetArgs {
    /// Seconds per position [default: 1]
    #[arg(long, value_name = "S", value_parser = positive_seconds)]
    pub time: Option<Duration>,
    /// Depth per position (1 to 64)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub depth: Option<u32>,
    /// Nodes per position
    #[arg(long, value_name = "N", value_parser = positive::<u64>)]
    pub nodes: Option<u64>,
}

/// `--threads` of the modes that search positions: out of range is an error.
#[derive(Args)]
pub struct SearchThreads {
    /// Threads per search (1 to 256)
    #[arg(long = "threads", id = "threads", value_name = "N", default_value_t = 1, value_parser = up_to(MAX_THREADS))]
    pub count: usize,
}

/// `--net FILE | --classical`: which evaluation the searches play with.
#[derive(Args)]
pub struct EvaluationArgs {
    /// Evaluate with this network (made by `ferrimax train`), not the embedded one
    #[arg(long, value_name = "FILE", value_parser = read_network, conflicts_with = "classical")]
    pub net: Option<Arc<Network>>,
    /// Evaluate with the hand-written evaluation, not a network
    #[arg(long)]
    pub classical: bool,
}

impl EvaluationArgs {
    /// The network to evaluate with, or `None` for the hand-written evaluation.
    pub fn network(&self) -> Option<Arc<Network>> {
        if self.classical {
            return None;
        }
        Some(self.net.clone().unwrap_or_else(nnue::embedded))
    }
}

/// `selfplay GAMES [...]`.
#[derive(Args)]
pub struct SelfplayArgs {
    /// Games to play
    pub games: u64,
    /// How the games are played [--eval default: classical, the tuner's data]
    #[command(flatten)]
    pub play: PlayArgs,
}

/// `datagen OUT --games N [...]` or `datagen OUT --pgn FILE...`.
#[derive(Args)]
pub struct DatagenArgs {
    /// The data file, appended to (self-play runs resume from OUT.progress)
    pub out: PathBuf,
    /// Games to play in all, a resumed run's included
    #[arg(long, value_name = "N", required_unless_present = "pgn")]
    pub games: Option<u64>,
    /// Take the scored moves of these PGN files' games instead of playing games
    #[arg(
        long,
        value_name = "FILE",
        num_args = 1..,
        conflicts_with_all = ["games", "nodes", "threads", "seed", "eval"]
    )]
    pub pgn: Vec<PathBuf>,
    /// How the games are played [--eval default: nnue]
    #[command(flatten)]
    pub play: PlayArgs,
}

/// The flags of the self-play tools, `selfplay` and `datagen`.
#[derive(Args)]
pub struct PlayArgs {
    /// Nodes a move (at least 1)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PLAY_NODES, value_parser = at_least_one)]
    pub nodes: u64,
    /// Games played at once
    #[command(flatten)]
    pub threads: WorkerThreads,
    /// The seed of the random choices
    #[command(flatten)]
    pub seed: SeedArg,
    /// The evaluation both sides play with: nnue (the embedded network) or classical
    #[arg(long, value_name = "E", value_parser = evaluation)]
    pub eval: Option<Evaluation>,
}

impl PlayArgs {
    /// The games' settings, with `default` as the evaluation unless `--eval` names one
    /// (each tool has its own: the tuner's games are the hand-written evaluation's).
    pub fn settings(&self, default: Evaluation) -> SelfPlay {
        SelfPlay {
            nodes: self.nodes,
            seed: self.seed.value,
            evaluation: self.eval.unwrap_or(default),
        }
    }
}

/// `--threads` of the modes that share work out: out of range is brought into it.
#[derive(Args)]
pub struct WorkerThreads {
    /// Threads (1 to 256; more count as 256, 0 as 1)
    #[arg(long = "threads", id = "threads", value_name = "N", default_value_t = 1, value_parser = clamped_threads)]
    pub count: usize,
}

/// `--seed`: the same seed, the same run.
#[derive(Args)]
pub struct SeedArg {
    /// Seed of the random choices: the same seed, the same run
    #[arg(long = "seed", id = "seed", value_name = "N", default_value_t = 1)]
    pub value: u64,
}

/// `train DATA... --out NET [...]` or `train DATA... --validate NET`.
#[derive(Args)]
pub struct TrainArgs {
    /// Files of datagen's records
    #[arg(value_name = "DATA", required = true)]
    pub files: Vec<PathBuf>,
    /// Write the trained network to NET
    #[arg(
        long,
        value_name = "NET",
        required_unless_present = "validate",
        conflicts_with = "validate"
    )]
    pub out: Option<PathBuf>,
    /// Only print the held-out loss of the network in NET on the data
    #[arg(long, value_name = "NET")]
    pub validate: Option<PathBuf>,
    /// Start from the network in NET (its size, activation and buckets, and its king buckets
    /// unless it has none) instead of random weights; a larger --hidden widens it
    #[arg(
        long,
        value_name = "NET",
        conflicts_with_all = ["validate", "activation", "buckets"]
    )]
    pub init: Option<PathBuf>,
    /// Sets of input weights by the king's square: 1 (none), or 4 (a king on a1, b1, g1,
    /// h1; on c1-f1; on the second rank; further up). From an --init network without
    /// them, every set starts as a copy of its input weights
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = king_buckets, conflicts_with = "validate")]
    pub king_buckets: usize,
    /// 1: turn the board for a king on the e-h files, so that the weights see it on the a-d
    /// files only (a start without it does not carry over well)
    #[arg(long, value_name = "0|1", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=1), conflicts_with = "validate")]
    pub king_mirror: u8,
    /// Hidden units (1 to 4096; 128 from random weights, the network's own from --init,
    /// where more widens it: the new units start with no say in the output, so the start
    /// scores every position as the network did)
    #[arg(long, value_name = "N", value_parser = up_to(MAX_HIDDEN), conflicts_with = "validate")]
    pub hidden: Option<usize>,
    /// Passes over the data
    #[arg(long, value_name = "N", default_value_t = Settings::default().epochs)]
    pub epochs: usize,
    /// Positions per step (at least 1)
    #[arg(long, value_name = "N", default_value_t = Settings::default().batch, value_parser = positive::<usize>)]
    pub batch: usize,
    /// Learning rate (above 0)
    #[arg(long, value_name = "X", default_value_t = Settings::default().learning_rate, value_parser = positive_rate)]
    pub lr: f32,
    /// Share of the game's result in the target (0 to 1)
    #[arg(long, value_name = "X", default_value_t = Settings::default().result_weight, value_parser = fraction)]
    pub result_weight: f32,
    /// 1: learn each position with its mirror image (files a-h swapped) too (not with king
    /// buckets that turn the board: there a position and its image are the same inputs)
    #[arg(long, value_name = "0|1", default_value_t = u8::from(Settings::default().mirror), value_parser = clap::value_parser!(u8).range(0..=1))]
    pub mirror: u8,
    /// The hidden layer's activation: crelu or screlu
    #[arg(long, value_name = "NAME", default_value_t = Settings::default().activation, value_parser = activation)]
    pub activation: Activation,
    /// Output buckets, by the number of pieces on the board (1 to 31)
    #[arg(long, value_name = "N", default_value_t = Settings::default().buckets, value_parser = up_to(nnue::MAX_BUCKETS))]
    pub buckets: usize,
    /// Threads that compute the gradients
    #[command(flatten)]
    pub threads: WorkerThreads,
    /// The seed of the shuffles and the first weights
    #[command(flatten)]
    pub seed: SeedArg,
}

/// `tune PGN... [...]`.
#[derive(Args)]
pub struct TuneArgs {
    /// PGN files of finished games
    #[arg(value_name = "PGN", required = true)]
    pub files: Vec<PathBuf>,
    /// Positions taken per game (0 is taken as 1)
    #[arg(long, value_name = "N", default_value_t = super::tune::DEFAULT_PER_GAME, value_parser = count_at_least_one)]
    pub per_game: usize,
    /// Passes over the weights (0 is taken as 1)
    #[arg(long, value_name = "N", default_value_t = super::tune::DEFAULT_PASSES, value_parser = count_at_least_one)]
    pub passes: usize,
    /// Threads that compute the errors
    #[command(flatten)]
    pub threads: WorkerThreads,
    /// The seed of the positions' choice
    #[command(flatten)]
    pub seed: SeedArg,
    /// Tune only the weights whose names start with one of these prefixes
    #[arg(long, value_name = "PREFIX,...", value_delimiter = ',')]
    pub only: Vec<String>,
    /// Move all the weights at once by gradient descent
    #[arg(long)]
    pub gradient: bool,
    /// With --gradient: millionths of error a weight moved by 100 costs
    #[arg(long, value_name = "N", default_value_t = super::tune::DEFAULT_PENALTY)]
    pub penalty: u64,
}

/// A number above 0 (clap's ranged parsers would name the type's largest value in their
/// error).
fn positive<T>(text: &str) -> Result<T, String>
where
    T: std::str::FromStr + Default + PartialEq,
    T::Err: std::fmt::Display,
{
    let n: T = text.parse().map_err(|e| format!("{e}"))?;
    if n == T::default() {
        return Err("it must be at least 1".into());
    }
    Ok(n)
}

/// `genfens N [--seed S] [--book FILE|None] [-- EXTRA...]`.
#[derive(Args)]
pub struct GenfensArgs {
    /// Positions to print
    #[arg(value_name = "N")]
    pub count: u64,
    /// The seed of the random choices
    #[command(flatten)]
    pub seed: SeedArg,
    /// Start positions, one EPD or FEN a line, or None for the start position
    #[arg(long, value_name = "FILE|None", default_value = "None", value_parser = book_source)]
    pub book: BookSource,
    /// What OpenBench's workload adds after the book; read and ignored
    #[arg(last = true, value_name = "EXTRA")]
    pub extra: Vec<String>,
}

/// Where `genfens` starts its positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookSource {
    /// The standard start position (OpenBench's `book None`).
    StartPosition,
    /// The positions of an EPD or FEN file.
    File(PathBuf),
}

/// OpenBench names no book `None`.
fn book_source(text: &str) -> Result<BookSource, String> {
    Ok(if text == "None" {
        BookSource::StartPosition
    } else {
        BookSource::File(PathBuf::from(text))
    })
}

/// A parser of `1..=max`, for `usize` values.
fn up_to(max: usize) -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..=max as u64)
}

/// `--threads` brought into `1..=MAX_THREADS`.
fn clamped_threads(text: &str) -> Result<usize, String> {
    let n: u64 = text.parse().map_err(|e| format!("{e}"))?;
    Ok(usize::try_from(n)
        .unwrap_or(usize::MAX)
        .clamp(1, MAX_THREADS))
}

/// A number, 0 taken as 1.
fn at_least_one(text: &str) -> Result<u64, String> {
    let n: u64 = text.parse().map_err(|e| format!("{e}"))?;
    Ok(n.max(1))
}

/// A count, 0 taken as 1 and a count past `usize` as its largest.
fn count_at_least_one(text: &str) -> Result<usize, String> {
    at_least_one(text).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// Seconds above 0, cut to `MAX_EPD_SECONDS`.
fn positive_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.parse().map_err(|e| format!("{e}"))?;
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err("seconds must be above 0".into());
    }
    Ok(Duration::from_secs_f64(seconds.min(MAX_EPD_SECONDS)))
}

/// A learning rate: finite and above 0.
fn positive_rate(text: &str) -> Result<f32, String> {
    let x: f32 = text.parse().map_err(|e| format!("{e}"))?;
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err("the rate must be above 0".into())
    }
}

/// A share: 0 to 1.
fn fraction(text: &str) -> Result<f32, String> {
    let x: f32 = text.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=1.0).contains(&x) {
        Ok(x)
    } else {
        Err("a share is from 0 to 1".into())
    }
}

/// `nnue` or `classical`, in any case.
fn evaluation(text: &str) -> Result<Evaluation, String> {
    Evaluation::named(text)
        .ok_or_else(|| format!("not an evaluation: {} are", Evaluation::NAMES.join(" and ")))
}

/// `crelu` or `screlu`.
/// A number of king buckets `train` has a layout for.
fn king_buckets(text: &str) -> Result<usize, String> {
    let presets = KingLayout::PRESETS;
    text.parse()
        .ok()
        .filter(|n| presets.contains(n))
        .ok_or_else(|| {
            let names: Vec<String> = presets.iter().map(ToString::to_string).collect();
            format!("not a king bucket layout: {} are", names.join(" and "))
        })
}

fn activation(text: &str) -> Result<Activation, String> {
    Activation::named(text)
        .ok_or_else(|| format!("not an activation: {} are", Activation::NAMES.join(" and ")))
}

/// A network file, read while the command line is, so that a bad one is a usage error
/// that names `--net`.
fn read_network(path: &str) -> Result<Arc<Network>, String> {
    Network::read(path)
        .map(Arc::new)
        .map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::USAGE_ERROR;

    fn parse(args: &[&str]) -> Result<Mode, clap::Error> {
        let line = std::iter::once("ferrimax").chain(args.iter().copied());
        Cli::try_parse_from(line).map(|cli| cli.mode.expect("a mode"))
    }

    /// Clap's own checks of the declarations (conflicting names, groups, positionals).
    #[test]
    fn the_declarations_hold_together() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    /// Clap's exit statuses are the ones the program has always had: 2 for a usage error,
    /// 0 for help and version.
    #[test]
    fn clap_exits_as_the_program_always_did() {
        let cases: &[(&str, &[&str], i32)] = &[
            ("unknown mode", &["frobnicate"], USAGE_ERROR),
            ("bad value", &["perft", "x"], USAGE_ERROR),
            ("help", &["--help"], 0),
            ("a mode's help", &["bench", "--help"], 0),
            ("version", &["--version"], 0),
        ];
        for (name, args, status) in cases {
            let error = parse(args).err().expect(name);
            assert_eq!(error.exit_code(), *status, "{name}");
        }
    }

    /// Values out of range are brought into it where the first parser did so.
    #[test]
    fn values_saturate_where_they_always_did() {
        let Ok(Mode::Datagen(datagen)) = parse(&[
            "datagen",
            "out",
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
        ]) else {
            panic!("datagen parses");
        };
        assert_eq!(datagen.games, Some(7));
        let settings = datagen.play.settings(Evaluation::Classical);
        assert_eq!(settings.nodes, 1, "at least one node");
        assert_eq!(settings.seed, 5);
        assert_eq!(settings.evaluation, Evaluation::Network);
        assert_eq!(datagen.play.threads.count, MAX_THREADS);

        let Ok(Mode::Selfplay(selfplay)) = parse(&["selfplay", "3", "--threads", "0"]) else {
            panic!("selfplay parses");
        };
        let settings = selfplay.play.settings(Evaluation::Classical);
        assert_eq!(
            (settings.nodes, settings.seed, selfplay.play.threads.count),
            (DEFAULT_PLAY_NODES, 1, 1)
        );
        assert_eq!(
            settings.evaluation,
            Evaluation::Classical,
            "the tool's default"
        );

        let Ok(Mode::Tune(tune)) = parse(&["tune", "a.pgn", "--per-game", "0", "--passes", "0"])
        else {
            panic!("tune parses");
        };
        assert_eq!((tune.per_game, tune.passes), (1, 1));

        let Ok(Mode::Epd(epd)) = parse(&["epd", "suite.epd", "--time", "1e9"]) else {
            panic!("epd parses");
        };
        assert_eq!(
            epd.budget.time,
            Some(Duration::from_secs_f64(MAX_EPD_SECONDS))
        );
    }

    /// The defaults shown by `--help` are the ones the modes use.
    #[test]
    fn defaults() {
        let Ok(Mode::Bench(bench)) = parse(&["bench"]) else {
            panic!("bench parses");
        };
        assert_eq!(bench.depth, bench::DEFAULT_DEPTH);
        assert_eq!((bench.threads.count, bench.lines), (1, None));
        assert_eq!(bench.hash_mb, bench::HASH_MB);
        assert!(!bench.self_deepening && bench.evaluation.network().is_some());
        let Ok(Mode::Bench(bench)) = parse(&["bench", "15", "--threads", "16", "--hash", "256"])
        else {
            panic!("an SMP measurement's bench parses");
        };
        assert_eq!(
            (bench.depth, bench.threads.count, bench.hash_mb),
            (15, 16, 256)
        );
        let Ok(Mode::Bench(bench)) = parse(&["bench", "--self-deepening", "--classical"]) else {
            panic!("bench parses");
        };
        assert!(bench.self_deepening && bench.evaluation.network().is_none());
        let Ok(Mode::Bench(bench)) = parse(&["bench", "--self-deepening", "--no-self-deepening"])
        else {
            panic!("the last of the two counts");
        };
        assert!(!bench.self_deepening);

        let Ok(Mode::Train(train)) = parse(&["train", "a.bin", "b.bin", "--out", "net"]) else {
            panic!("train parses");
        };
        let defaults = Settings::default();
        assert_eq!(train.files.len(), 2);
        assert_eq!(
            (train.hidden, train.epochs, train.batch, train.buckets),
            (None, defaults.epochs, defaults.batch, defaults.buckets)
        );
        assert_eq!(train.mirror == 1, defaults.mirror);
        assert_eq!(train.activation, defaults.activation);

        let Ok(Mode::Perft(perft)) = parse(&["perft", "3", "8/8/8/8/8/8/8/K6k", "w", "-", "-"])
        else {
            panic!("perft parses");
        };
        assert_eq!(
            perft.position.fen().as_deref(),
            Some("8/8/8/8/8/8/8/K6k w - -")
        );
    }
}
