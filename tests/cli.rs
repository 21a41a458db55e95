//! The command-line modes (perft, divide, bench, epd, the tools' usage errors, --help,
//! --version), run as a user would.

use std::process::Command;

fn ferrimax(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ferrimax"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_prints_plain_node_count_time_and_speed() {
    let (status, out, _) = ferrimax(&["perft", "4"]);
    assert_eq!(status, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "nodes 197281");
    assert!(
        lines[1].starts_with("time ") && lines[1].ends_with(" s"),
        "{out}"
    );
    assert!(
        lines[2].starts_with("speed ") && lines[2].ends_with(" Mnps"),
        "{out}"
    );
}

#[test]
fn perft_takes_a_fen_split_over_arguments() {
    let (status, out, _) = ferrimax(&[
        "perft",
        "3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8",
        "w",
        "-",
        "-",
        "0",
        "1",
    ]);
    assert_eq!(status, 0);
    assert!(out.starts_with("nodes 2812\n"), "{out}");
}

#[test]
fn divide_lists_each_root_move_and_the_total() {
    let (status, out, _) = ferrimax(&["divide", "2"]);
    assert_eq!(status, 0);
    assert!(out.contains("e2e4 20\n"), "{out}");
    assert_eq!(out.lines().count(), 21);
    assert!(out.ends_with("total 400\n"), "{out}");
}

/// A usage error as clap tells it: status 2, nothing on stdout, and on stderr an
/// `error:` line that names what was wrong, with no panic.
fn assert_usage_error(name: &str, args: &[&str], names: &str) {
    let (status, out, err) = ferrimax(args);
    assert_eq!(status, 2, "{name}: {args:?}: {err}");
    assert!(out.is_empty(), "{name}: wrote to stdout: {out}");
    assert!(err.starts_with("error: "), "{name}: {err}");
    assert!(err.contains(names), "{name}: does not name {names}: {err}");
    assert!(!err.contains("panicked"), "{name}: {err}");
}

#[test]
fn bad_arguments_give_usage_and_status_2() {
    let cases: &[(&str, &[&str], &str)] = &[
        ("perft without a depth", &["perft"], "<DEPTH>"),
        (
            "perft depth not a number",
            &["perft", "x"],
            "'x' for '<DEPTH>'",
        ),
        ("perft negative depth", &["perft", "-1"], "'-1'"),
        (
            "perft depth past u32",
            &["perft", "4294967296"],
            "'4294967296' for '<DEPTH>'",
        ),
        (
            "perft bad FEN",
            &["perft", "3", "not", "a", "fen", "at", "all"],
            "bad FEN 'not a fen at all'",
        ),
        ("divide without a depth", &["divide"], "<DEPTH>"),
        ("divide depth 0", &["divide", "0"], "'0' for '<DEPTH>'"),
        (
            "divide FEN without kings",
            &["divide", "2", "8/8/8/8/8/8/8/8", "w", "-", "-"],
            "bad FEN '8/8/8/8/8/8/8/8 w - -'",
        ),
        ("unknown mode", &["frobnicate"], "'frobnicate'"),
        ("unknown flag", &["--verbose"], "'--verbose'"),
        ("bench depth 0", &["bench", "0"], "'0' for '[DEPTH]'"),
        ("bench depth 65", &["bench", "65"], "'65' for '[DEPTH]'"),
        ("bench threads 0", &["bench", "--threads", "0"], "--threads"),
        (
            "bench threads 257",
            &["bench", "--threads", "257"],
            "--threads",
        ),
        ("bench lines 65", &["bench", "--lines", "65"], "--lines"),
        (
            "bench hash 0",
            &["bench", "--hash", "0"],
            "'0' for '--hash <MB>'",
        ),
        (
            "bench hash past the Hash option's",
            &["bench", "--hash", "65537"],
            "'65537' for '--hash <MB>'",
        ),
        (
            "bench threads without a number",
            &["bench", "--threads"],
            "--threads",
        ),
        (
            "bench missing network",
            &["bench", "--net", "/nonexistent.nnue"],
            "--net",
        ),
        (
            "bench file that is no network",
            &["bench", "--net", "Cargo.toml"],
            "--net",
        ),
        (
            "bench network and classical",
            &[
                "bench",
                "--net",
                "src/eval/nets/fx11-h128k4.bin",
                "--classical",
            ],
            "'--net <FILE>' cannot be used with '--classical'",
        ),
        ("bench unknown flag", &["bench", "--fast"], "'--fast'"),
        ("epd without a file", &["epd"], "<FILE>"),
        (
            "epd depth 0",
            &["epd", "tests/data/mates.epd", "--depth", "0"],
            "--depth",
        ),
        (
            "epd time not a number",
            &["epd", "tests/data/mates.epd", "--time", "soon"],
            "--time",
        ),
        (
            "epd time 0",
            &["epd", "tests/data/mates.epd", "--time", "0"],
            "--time",
        ),
        (
            "epd nodes 0",
            &["epd", "tests/data/mates.epd", "--nodes", "0"],
            "--nodes",
        ),
        (
            "epd two budgets",
            &[
                "epd",
                "tests/data/mates.epd",
                "--depth",
                "3",
                "--nodes",
                "9",
            ],
            "--nodes",
        ),
        (
            "epd missing file",
            &["epd", "/nonexistent.epd"],
            "/nonexistent.epd",
        ),
        (
            "selfplay games not a number",
            &["selfplay", "many"],
            "<GAMES>",
        ),
        (
            "selfplay unknown evaluation",
            &["selfplay", "1", "--eval", "fast"],
            "--eval",
        ),
        (
            "selfplay nodes not a number",
            &["selfplay", "1", "--nodes", "x"],
            "--nodes",
        ),
        (
            "datagen without --games",
            &["datagen", "out.bin"],
            "--games",
        ),
        (
            "datagen without a file",
            &["datagen", "--games", "3"],
            "<OUT>",
        ),
        (
            "train without data",
            &["train", "--out", "net.bin"],
            "<DATA>",
        ),
        ("train without --out", &["train", "data.bin"], "--out"),
        (
            "train --out and --validate",
            &["train", "d.bin", "--out", "a", "--validate", "b"],
            "--validate",
        ),
        (
            "train --init and --activation",
            &[
                "train",
                "d.bin",
                "--out",
                "a",
                "--init",
                "n",
                "--activation",
                "crelu",
            ],
            "--activation",
        ),
        (
            "train --validate and --hidden",
            &["train", "d.bin", "--validate", "n", "--hidden", "64"],
            "--hidden",
        ),
        (
            "train hidden 0",
            &["train", "d.bin", "--out", "a", "--hidden", "0"],
            "--hidden",
        ),
        (
            "train mirror 2",
            &["train", "d.bin", "--out", "a", "--mirror", "2"],
            "--mirror",
        ),
        (
            "train lr 0",
            &["train", "d.bin", "--out", "a", "--lr", "0"],
            "--lr",
        ),
        (
            "train result weight 2",
            &["train", "d.bin", "--out", "a", "--result-weight", "2"],
            "--result-weight",
        ),
        (
            "train unknown activation",
            &["train", "d.bin", "--out", "a", "--activation", "tanh"],
            "--activation",
        ),
        (
            "train king buckets 3",
            &["train", "d.bin", "--out", "a", "--king-buckets", "3"],
            "--king-buckets",
        ),
        (
            "train --validate and --king-buckets",
            &["train", "d.bin", "--validate", "n", "--king-buckets", "4"],
            "--king-buckets",
        ),
        ("tune without games", &["tune", "--passes", "2"], "<PGN>"),
        (
            "tune --only without names",
            &["tune", "games.pgn", "--only"],
            "--only",
        ),
        (
            "tune unknown flag",
            &["tune", "games.pgn", "--fast", "1"],
            "'--fast'",
        ),
        (
            "tune missing file",
            &["tune", "/nonexistent/games.pgn", "--only", "mobility"],
            "/nonexistent/games.pgn",
        ),
        (
            "tune no such weight",
            &["tune", "tests/data/selfplay.pgn", "--only", "mobilty"],
            "mobilty",
        ),
    ];
    for (name, args, names) in cases {
        assert_usage_error(name, args, names);
    }
}

#[test]
fn an_argument_that_is_not_unicode_is_a_usage_error() {
    use std::os::unix::ffi::OsStrExt;
    let out = Command::new(env!("CARGO_BIN_EXE_ferrimax"))
        .arg("perft")
        .arg(std::ffi::OsStr::from_bytes(b"\xff"))
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("UTF-8"), "{err}");
}

/// `--help` and `--version` answer on stdout with status 0, for the program and for each
/// mode.
#[test]
fn help_and_version() {
    let (status, out, _) = ferrimax(&["--help"]);
    assert_eq!(status, 0);
    assert!(out.starts_with("Ferrimax, a chess engine"), "{out}");
    for mode in [
        "perft", "divide", "bench", "epd", "selfplay", "datagen", "train", "tune", "genfens",
    ] {
        assert!(out.contains(&format!("\n  {mode} ")), "{mode}: {out}");
        let (status, help, err) = ferrimax(&[mode, "--help"]);
        assert_eq!(status, 0, "{mode}: {err}");
        assert!(
            help.contains(&format!("Usage: ferrimax {mode} ")),
            "{mode}: {help}"
        );
    }
    let (status, help, _) = ferrimax(&["bench", "--help"]);
    assert_eq!(status, 0);
    for flag in [
        "--threads <N>",
        "--lines <N>",
        "--net <FILE>",
        "--classical",
    ] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
    let (status, same, _) = ferrimax(&["help", "bench"]);
    assert_eq!((status, same), (0, help));
    for flag in ["--version", "-V"] {
        let (status, out, _) = ferrimax(&[flag]);
        assert_eq!(status, 0);
        assert_eq!(out, format!("ferrimax {}\n", env!("CARGO_PKG_VERSION")));
    }
}

/// The EPD runner: one line per position and the total on stdout; progress on stderr.
#[test]
fn epd_runs_a_suite_and_counts_the_solved() {
    let (status, out, err) = ferrimax(&["epd", "tests/data/mates.epd", "--depth", "4"]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(
        out,
        "solved rook mate: played Rh8#, bm Rh8#\n\
         solved scholar's mate: played Qxf7#, bm Qxf7#\n\
         solved no stalemate: played Qc8#, am Qc7\n\
         solved mate in two: played Qd8+, bm Qd8+\n\
         solved 4 of 4\n"
    );
    assert!(err.contains("epd 4/4 solved 4"), "{err}");
    let (status, out, _) = ferrimax(&["epd", "tests/data/mates.epd", "--nodes", "2000"]);
    assert_eq!(status, 0);
    assert!(out.ends_with("solved 4 of 4\n"), "{out}");
}

/// OpenBench's bench convention: the last line is `N nodes M nps`, and N, the signature,
/// is the same on every run.
#[test]
fn bench_ends_with_the_node_count_and_speed() {
    let signature = || {
        let (status, out, err) = ferrimax(&["bench", "4"]);
        assert_eq!(status, 0, "{err}");
        let last = out.lines().last().unwrap_or_default().to_string();
        let fields: Vec<&str> = last.split(' ').collect();
        let [nodes, "nodes", speed, "nps"] = fields[..] else {
            panic!("last line: {last}");
        };
        assert!(speed.parse::<u64>().is_ok(), "{last}");
        nodes.parse::<u64>().expect("a node count")
    };
    assert_eq!(signature(), signature());
}

/// Long work shows its progress on stderr, never on stdout.
#[test]
fn progress_goes_to_stderr_only() {
    let (status, out, err) = ferrimax(&["bench", "3"]);
    assert_eq!(status, 0);
    assert!(err.contains("bench 42/42"), "{err}");
    assert!(
        out.lines()
            .all(|l| !l.contains('\r') && !l.starts_with("bench")),
        "{out}"
    );
    let (status, out, err) = ferrimax(&["perft", "3"]);
    assert_eq!(status, 0);
    assert!(err.contains("perft 20/20"), "{err}");
    assert!(out.starts_with("nodes 8902\n"), "{out}");
}

/// The positions of `genfens` output: each line `info string genfens FEN`, the FEN
/// whole (OpenBench reads the move counters as its fifth and sixth fields).
fn genfens_positions(out: &str) -> Vec<ferrimax::chess::Board> {
    out.lines()
        .map(|line| {
            let fen = line
                .strip_prefix("info string genfens ")
                .unwrap_or_else(|| panic!("not a genfens line: {line}"));
            assert_eq!(fen.split(' ').count(), 6, "{fen}");
            ferrimax::chess::Board::from_fen(fen).expect("a position")
        })
        .collect()
}

/// OpenBench's request as its client sends it, the request in one argument (with its
/// trailing space when the workload adds nothing) and then `quit`: that many playable
/// positions, the same for the same seed, the same as the request typed with flags.
#[test]
fn genfens_answers_openbench() {
    let request = ["genfens 6 seed 42 book None ", "quit"];
    let (status, out, err) = ferrimax(&request);
    assert_eq!(status, 0, "{err}");
    let positions = genfens_positions(&out);
    assert_eq!(positions.len(), 6, "{out}");
    assert!(positions.iter().all(|b| b.has_legal_move()), "{out}");
    assert_eq!(
        ferrimax(&request).1,
        out,
        "the same seed, the same positions"
    );
    let (_, other, _) = ferrimax(&["genfens 6 seed 43 book None", "quit"]);
    assert_ne!(other, out, "another seed");
    let (status, typed, _) = ferrimax(&["genfens", "6", "--seed", "42", "--book", "None"]);
    assert_eq!((status, typed), (0, out));

    let from_book = [
        "genfens 5 seed 9 book tests/data/openings.epd depth 4",
        "quit",
    ];
    let (status, out, err) = ferrimax(&from_book);
    assert_eq!(status, 0, "{err}");
    let positions = genfens_positions(&out);
    assert_eq!(positions.len(), 5, "{out}");
    assert!(
        positions.iter().all(|b| b.fullmove_number() >= 2),
        "a book position and two or three plies: {out}"
    );

    let cases: &[(&str, &[&str], &str)] = &[
        (
            "missing book",
            &["genfens 2 seed 1 book /nonexistent.epd", "quit"],
            "/nonexistent.epd",
        ),
        (
            "a book that is no EPD",
            &["genfens 2 seed 1 book Cargo.toml", "quit"],
            "Cargo.toml: line 1",
        ),
        (
            "count not a number",
            &["genfens many seed 1", "quit"],
            "'many'",
        ),
        ("seed not a number", &["genfens 2 seed x", "quit"], "--seed"),
    ];
    for (name, args, names) in cases {
        assert_usage_error(name, args, names);
    }
}

/// A scratch folder of this test process, emptied first.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrimax-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// `datagen OUT --pgn FILE`: the records of the scored games, appended, reading back as
/// the library makes them; a self-play run's file and a flag of self-play are refused.
#[test]
fn datagen_takes_the_scored_moves_of_pgn_games() {
    use ferrimax::learn::datagen::{RECORD_BYTES, Record, pgn_game_records};
    let dir = scratch("datagen-pgn");
    let out = dir.join("games.bin");
    let out_text = out.to_str().expect("a UTF-8 path");
    let pgn = "tests/data/scored.pgn";
    let (status, stdout, err) = ferrimax(&["datagen", out_text, "--pgn", pgn]);
    assert_eq!(status, 0, "{err}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(err.contains("2 games, 11 positions"), "{err}");
    let text = std::fs::read_to_string(pgn).expect("the games");
    let wanted: Vec<Record> = ferrimax::learn::pgn::read_games(&text)
        .iter()
        .flat_map(pgn_game_records)
        .collect();
    assert_eq!(wanted.len(), 11);
    let read_back = |bytes: &[u8]| -> Vec<Record> {
        assert_eq!(bytes.len() % RECORD_BYTES, 0);
        bytes
            .chunks_exact(RECORD_BYTES)
            .map(|chunk| Record::from_bytes(chunk.try_into().expect("a record")).expect("valid"))
            .collect()
    };
    assert_eq!(read_back(&std::fs::read(&out).expect("written")), wanted);
    // A second run appends.
    let (status, _, err) = ferrimax(&["datagen", out_text, "--pgn", pgn, pgn]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(read_back(&std::fs::read(&out).expect("written")).len(), 33);

    std::fs::write(dir.join("games.bin.progress"), "games 0\n").expect("written");
    let (status, _, err) = ferrimax(&["datagen", out_text, "--pgn", pgn]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("self-play run"), "{err}");
    let (status, _, err) = ferrimax(&["datagen", "other.bin", "--pgn", "/nonexistent.pgn"]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("/nonexistent.pgn"), "{err}");
    assert!(
        !std::path::Path::new("other.bin").exists(),
        "nothing written"
    );
    for (name, flag, value) in [
        ("games", "--games", "3"),
        ("nodes", "--nodes", "100"),
        ("threads", "--threads", "2"),
        ("seed", "--seed", "2"),
        ("evaluation", "--eval", "classical"),
    ] {
        assert_usage_error(
            name,
            &["datagen", out_text, "--pgn", pgn, flag, value],
            flag,
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `train --king-buckets 4` (with `--king-mirror 1` or not) writes a king-bucketed network
/// that `bench --net` plays with, from random weights or from a network without king
/// buckets; a start that has its own king buckets is refused another layout.
#[test]
fn train_makes_king_bucketed_networks() {
    let dir = scratch("train-kings");
    let path = |name: &str| dir.join(name).to_str().expect("a UTF-8 path").to_owned();
    let data = path("games.bin");
    let (status, _, err) = ferrimax(&["datagen", &data, "--pgn", "tests/data/scored.pgn"]);
    assert_eq!(status, 0, "{err}");
    let train = |extra: &[&str]| {
        let mut args = vec!["train", data.as_str(), "--epochs", "1", "--batch", "4"];
        args.extend_from_slice(extra);
        ferrimax(&args)
    };
    let (plain, kings, turned) = (path("plain.bin"), path("kings.bin"), path("turned.bin"));
    for (out, sets, mirror) in [(&plain, "1", "0"), (&kings, "4", "0"), (&turned, "4", "1")] {
        let layout = ["--king-buckets", sets, "--king-mirror", mirror];
        let mut args = vec!["--out", out.as_str(), "--hidden", "8"];
        args.extend_from_slice(&layout);
        let (status, stdout, err) = train(&args);
        assert_eq!(status, 0, "{sets} {mirror}: {err}");
        assert!(stdout.is_empty(), "{stdout}");
    }
    let read = |file: &str| ferrimax::eval::nnue::Network::read(file).expect("a network");
    assert!(read(&plain).king_layout().is_none());
    assert_eq!(read(&kings).king_layout().sets(), 4);
    assert!(!read(&kings).king_layout().mirrors());
    assert!(read(&turned).king_layout().mirrors());
    for net in [&kings, &turned] {
        let (status, stdout, err) = ferrimax(&["bench", "--net", net, "2"]);
        assert_eq!(status, 0, "{err}");
        let last = stdout.lines().last().unwrap_or_default();
        assert!(last.ends_with("nps"), "{stdout}");
    }
    let from_plain = path("from-plain.bin");
    let (status, _, err) = train(&[
        "--out",
        &from_plain,
        "--init",
        &plain,
        "--king-buckets",
        "4",
    ]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(read(&from_plain).king_layout().sets(), 4);
    assert_eq!(read(&from_plain).hidden(), 8);
    let again = path("again.bin");
    for layout in [["--king-buckets", "4"], ["--king-mirror", "1"]] {
        let mut args = vec!["--out", again.as_str(), "--init", kings.as_str()];
        args.extend_from_slice(&layout);
        let (status, _, err) = train(&args);
        assert_eq!(status, 2, "{layout:?}: {err}");
        assert!(err.contains("--king-buckets"), "{err}");
    }
    assert!(!std::path::Path::new(&again).exists(), "nothing written");
    // A larger --hidden widens an --init network; a smaller one is refused.
    let wide = path("wide.bin");
    let (status, _, err) = train(&["--out", &wide, "--init", &kings, "--hidden", "24"]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(read(&wide).hidden(), 24);
    assert_eq!(read(&wide).king_layout().sets(), 4);
    let (status, stdout, err) = ferrimax(&["bench", "--net", &wide, "2"]);
    assert_eq!(status, 0, "{err}");
    assert!(stdout.lines().last().unwrap_or_default().ends_with("nps"));
    let (status, _, err) = train(&["--out", &again, "--init", &wide, "--hidden", "8"]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("--hidden 8"), "{err}");
    assert!(!std::path::Path::new(&again).exists(), "nothing written");
    let _ = std::fs::remove_dir_all(dir);
}
