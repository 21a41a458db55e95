//! The learned evaluation's tools. `ferrimax datagen OUT --games N [--nodes N]
//! [--threads N] [--seed N]`: training data (`learn::datagen`), appended to OUT with a
//! progress file beside it (`OUT.progress`), so a run stopped at any moment resumes where
//! it was with the same command. `ferrimax datagen OUT --pgn FILE...`: the same records
//! from the scored games of match runners' PGN files. `ferrimax train DATA... --out NET
//! [...]`: a network trained on such data (`learn::train`).

use super::USAGE_ERROR;
use super::args::{DatagenArgs, TrainArgs};
use crate::eval::Evaluation;
use crate::eval::nnue::{KingLayout, Network};
use crate::learn::datagen::{self, RECORD_BYTES, Record};
use crate::learn::pgn;
use crate::learn::selfplay::SelfPlay;
use crate::learn::train::{self, Settings};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::channel;
use std::time::Instant;

/// How far a run has come: what the progress file holds.
#[derive(Debug, PartialEq, Eq)]
struct Progress {
    games: u64,
    bytes: u64,
    seed: u64,
    nodes: u64,
    /// The evaluation that plays the games (a file without the line was made before the
    /// choice existed, by the hand-written one).
    evaluation: Evaluation,
}

impl Progress {
    /// A run of `settings` that has not started.
    fn new(settings: SelfPlay) -> Progress {
        Progress {
            games: 0,
            bytes: 0,
            seed: settings.seed,
            nodes: settings.nodes,
            evaluation: settings.evaluation,
        }
    }

    fn path(out: &Path) -> PathBuf {
        let mut name = out.as_os_str().to_owned();
        name.push(".progress");
        PathBuf::from(name)
    }

    fn read(out: &Path) -> Option<Progress> {
        let text = std::fs::read_to_string(Progress::path(out)).ok()?;
        let mut progress = Progress::new(SelfPlay {
            nodes: 0,
            seed: 0,
            evaluation: Evaluation::Classical,
        });
        for line in text.lines() {
            let (key, value) = line.split_once(' ')?;
            let value = value.trim();
            if key == "eval" {
                progress.evaluation = Evaluation::named(value)?;
                continue;
            }
            let value = value.parse().ok()?;
            match key {
                "games" => progress.games = value,
                "bytes" => progress.bytes = value,
                "seed" => progress.seed = value,
                "nodes" => progress.nodes = value,
                _ => return None,
            }
        }
        Some(progress)
    }

    /// Written beside the data and renamed into place, so it is whole or absent.
    fn write(&self, out: &Path) -> std::io::Result<()> {
        let path = Progress::path(out);
        let mut temporary = path.clone().into_os_string();
        temporary.push(".new");
        let text = format!(
            "games {}\nbytes {}\nseed {}\nnodes {}\neval {}\n",
            self.games,
            self.bytes,
            self.seed,
            self.nodes,
            self.evaluation.name()
        );
        std::fs::write(&temporary, text)?;
        std::fs::rename(&temporary, path)
    }
}

/// Runs `ferrimax datagen` (games with the embedded network unless `--eval` says
/// otherwise); the exit status.
pub fn run_datagen(args: &DatagenArgs) -> i32 {
    let settings = args.play.settings(Evaluation::Network);
    let threads = args.play.threads.count as u64;
    // Clap requires --games unless --pgn is given.
    let done = match args.games {
        Some(games) => generate(&args.out, games, settings, threads),
        None => convert_games(&args.out, &args.pgn),
    };
    match done {
        Ok(()) => 0,
        Err(why) => {
            eprintln!("datagen: {why}");
            USAGE_ERROR
        }
    }
}

/// Appends the records of every finished game of the PGN `files` to `out`
/// (`datagen::pgn_game_records`), file after file; a count on stderr. A self-play run's
/// file is refused: its progress file vouches for its length, and a resumed run would
/// cut the records off again.
fn convert_games(out: &Path, files: &[PathBuf]) -> Result<(), String> {
    if Progress::path(out).exists() {
        return Err(format!(
            "{} is a self-play run's data ({} beside it): write the games' records to \
             another file (train reads several)",
            out.display(),
            Progress::path(out).display()
        ));
    }
    // Every file is opened before anything is written, so a wrong name changes nothing.
    let opened = files
        .iter()
        .map(|path| File::open(path).map_err(|e| format!("{}: {e}", path.display())))
        .collect::<Result<Vec<File>, String>>()?;
    let mut data = OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let length = data
        .metadata()
        .map_err(|e| format!("{}: {e}", out.display()))?
        .len();
    if !length.is_multiple_of(RECORD_BYTES as u64) {
        return Err(format!(
            "{}: {length} bytes, not whole {RECORD_BYTES}-byte records",
            out.display()
        ));
    }
    let (mut games, mut positions) = (0u64, 0u64);
    for (mut file, path) in opened.into_iter().zip(files) {
        let mut text = String::new();
        file.read_to_string(&mut text)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        for game in pgn::read_games(&text) {
            let records = datagen::pgn_game_records(&game);
            let bytes: Vec<u8> = records.iter().flat_map(Record::to_bytes).collect();
            data.write_all(&bytes)
                .map_err(|e| format!("{}: {e}", out.display()))?;
            games += 1;
            positions += records.len() as u64;
        }
    }
    data.flush()
        .map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "datagen: {games} games, {positions} positions appended to {}",
        out.display()
    );
    Ok(())
}

/// Plays games until `games` are written to `out`, resuming a run the progress file
/// describes.
fn generate(out: &Path, games: u64, settings: SelfPlay, threads: u64) -> Result<(), String> {
    let mut progress = match Progress::read(out) {
        Some(p)
            if p.seed != settings.seed
                || p.nodes != settings.nodes
                || p.evaluation != settings.evaluation =>
        {
            return Err(format!(
                "{} was made with --seed {} --nodes {} --eval {}: resume with those",
                out.display(),
                p.seed,
                p.nodes,
                p.evaluation.name()
            ));
        }
        Some(p) => p,
        None => Progress::new(settings),
    };
    let mut file = open_at(out, progress.bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    crate::eval::init();
    let next = AtomicU64::new(progress.games);
    let started = Instant::now();
    let (done, finished) = channel();
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..threads {
            let done = done.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games
                        || done
                            .send((index, datagen::game_records(settings, index)))
                            .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(done);
        // Games arrive in any order; they are written in game order.
        let mut waiting = BTreeMap::new();
        let mut positions = 0u64;
        for (index, records) in finished {
            waiting.insert(index, records);
            while let Some(records) = waiting.remove(&progress.games) {
                let bytes: Vec<u8> = records.iter().flat_map(|r| r.to_bytes()).collect();
                file.write_all(&bytes)
                    .and_then(|()| file.flush())
                    .map_err(|e| format!("{}: {e}", out.display()))?;
                progress.games += 1;
                progress.bytes += bytes.len() as u64;
                positions += records.len() as u64;
                progress
                    .write(out)
                    .map_err(|e| format!("progress file: {e}"))?;
                let rate = positions as f64 / started.elapsed().as_secs_f64().max(1e-3);
                eprint!(
                    "\rdatagen {}/{games} games, {} positions ({positions} this run, {rate:.0}/s)",
                    progress.games,
                    progress.bytes / RECORD_BYTES as u64
                );
            }
        }
        Ok(())
    })?;
    eprintln!();
    Ok(())
}

/// Runs `ferrimax train`: reads every record of the DATA files, trains (progress on
/// stderr; from random weights, or from `--init`'s network) and writes the integer
/// network to NET, or with `--validate` prints a network's held-out loss; the exit status.
pub fn run_train(args: &TrainArgs) -> i32 {
    let start = match args.init.as_deref().map(read_network).transpose() {
        Ok(start) => start,
        Err(status) => return status,
    };
    let kings = KingLayout::preset(args.king_buckets)
        .unwrap_or(KingLayout::NONE)
        .with_mirror(args.king_mirror == 1);
    let start_has_kings = start
        .as_ref()
        .is_some_and(|net| !net.king_layout().is_none());
    if start_has_kings && !kings.is_none() {
        return super::refuse(
            "train",
            "--king-buckets, --king-mirror: the --init network has king buckets of its own",
        );
    }
    let own_hidden = start.as_ref().map(Network::hidden);
    if let (Some(own), Some(wanted)) = (own_hidden, args.hidden)
        && wanted < own
    {
        return super::refuse(
            "train",
            format_args!("--hidden {wanted}: the --init network has {own} units; it can only grow"),
        );
    }
    let settings = Settings {
        hidden: args
            .hidden
            .or(own_hidden)
            .unwrap_or(Settings::default().hidden),
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.lr,
        result_weight: args.result_weight,
        threads: args.threads.count,
        seed: args.seed.value,
        mirror: args.mirror == 1,
        activation: args.activation,
        buckets: args.buckets,
        kings,
        start,
    };
    let files = &args.files;
    // Clap requires exactly one of --out and --validate.
    let (path, validate) = match (&args.out, &args.validate) {
        (Some(out), _) => (out.clone(), None),
        (None, Some(net)) => match read_network(net) {
            Ok(network) => (net.clone(), Some(network)),
            Err(status) => return status,
        },
        (None, None) => return super::refuse("train", "--out or --validate is needed"),
    };
    let mut records = Vec::new();
    for file in files {
        match read_records(file) {
            Ok(read) => records.extend(read),
            Err(why) => {
                eprintln!("train: {}: {why}", file.display());
                return USAGE_ERROR;
            }
        }
    }
    crate::eval::init();
    if let Some(network) = validate {
        return match train::held_out_loss(&network, &records, settings.result_weight) {
            Some(loss) => {
                eprintln!("train: {}: held-out loss {loss:.6}", path.display());
                0
            }
            None => {
                eprintln!("train: no position held out");
                USAGE_ERROR
            }
        };
    }
    let trained = train::train(&records, &settings, |line| eprintln!("train: {line}"));
    match std::fs::write(&path, trained.network.to_bytes()) {
        Ok(()) => 0,
        Err(why) => {
            eprintln!("train: {}: {why}", path.display());
            USAGE_ERROR
        }
    }
}

/// The network in `path` for `train` (`--init`, `--validate`), or the exit status after
/// saying on stderr why it is none.
fn read_network(path: &Path) -> Result<Network, i32> {
    Network::read(path).map_err(|why| {
        eprintln!("train: {}: {why}", path.display());
        USAGE_ERROR
    })
}

/// Every record of a `datagen` file.
pub fn read_records(path: &Path) -> Result<Vec<Record>, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    if !bytes.len().is_multiple_of(RECORD_BYTES) {
        return Err(format!(
            "{} bytes: not whole {RECORD_BYTES}-byte records",
            bytes.len()
        ));
    }
    bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, chunk)| {
            let record: &[u8; RECORD_BYTES] = chunk.try_into().expect("exact chunks");
            Record::from_bytes(record).map_err(|e| format!("record {i}: {e}"))
        })
        .collect()
}

/// The data file, cut back to `bytes` (what the progress file vouches for) and opened to
/// append.
fn open_at(out: &Path, bytes: u64) -> std::io::Result<File> {
    let file = OpenOptions::new().create(true).append(true).open(out)?;
    file.set_len(bytes)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("ferrimax-datagen-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("data.bin")
    }

    const SETTINGS: SelfPlay = SelfPlay {
        nodes: 200,
        seed: 9,
        evaluation: Evaluation::Network,
    };

    /// A progress file of a run made before `--eval` existed was made by the hand-written
    /// evaluation, and resumes only with it.
    #[test]
    fn an_old_progress_file_is_the_hand_written_evaluations() {
        let out = scratch("old");
        std::fs::write(
            Progress::path(&out),
            "games 0\nbytes 0\nseed 9\nnodes 200\n",
        )
        .unwrap();
        let progress = Progress::read(&out).unwrap();
        assert_eq!(progress.evaluation, Evaluation::Classical);
        assert!(
            generate(&out, 1, SETTINGS, 1).is_err(),
            "the network may not resume it"
        );
        let classical = SelfPlay {
            evaluation: Evaluation::Classical,
            ..SETTINGS
        };
        generate(&out, 1, classical, 1).unwrap();
        let text = std::fs::read_to_string(Progress::path(&out)).unwrap();
        assert!(text.ends_with("eval classical\n"), "{text}");
        let _ = std::fs::remove_dir_all(out.parent().unwrap());
    }

    /// The same file whatever the thread count, and a run stopped and resumed (even with
    /// a torn record at the end) is the same file as one run.
    #[test]
    fn runs_are_the_same_file_on_any_threads_and_when_resumed() {
        let one = scratch("one");
        generate(&one, 4, SETTINGS, 1).unwrap();
        let two = scratch("two");
        generate(&two, 4, SETTINGS, 2).unwrap();
        let whole = std::fs::read(&one).unwrap();
        assert!(!whole.is_empty() && whole.len().is_multiple_of(RECORD_BYTES));
        assert_eq!(std::fs::read(&two).unwrap(), whole);

        let resumed = scratch("resumed");
        generate(&resumed, 2, SETTINGS, 1).unwrap();
        // A record half written when the run was stopped.
        let mut torn = OpenOptions::new().append(true).open(&resumed).unwrap();
        torn.write_all(&[7; RECORD_BYTES / 2]).unwrap();
        drop(torn);
        generate(&resumed, 4, SETTINGS, 2).unwrap();
        assert_eq!(std::fs::read(&resumed).unwrap(), whole);
        assert_eq!(Progress::read(&resumed).unwrap().games, 4);
        // Another seed cannot resume this run.
        let other = SelfPlay {
            seed: 10,
            ..SETTINGS
        };
        assert!(generate(&resumed, 5, other, 1).is_err());
        // Nor another evaluation.
        let classical = SelfPlay {
            evaluation: Evaluation::Classical,
            ..SETTINGS
        };
        assert!(generate(&resumed, 5, classical, 1).is_err());
        for path in [one, two, resumed] {
            let _ = std::fs::remove_dir_all(path.parent().unwrap());
        }
    }
}
