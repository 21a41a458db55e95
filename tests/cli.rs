//! The command-line modes (perft, divide, bench, epd, --help, --version), run as a user would.

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

#[test]
fn bad_arguments_give_usage_and_status_2() {
    for args in [
        &["perft"][..],
        &["perft", "x"],
        &["perft", "-1"],
        &["perft", "3", "not", "a", "fen", "at", "all"],
        &["divide"],
        &["divide", "0"],
        &["divide", "2", "8/8/8/8/8/8/8/8", "w", "-", "-"],
        &["frobnicate"],
    ] {
        let (status, out, err) = ferrimax(args);
        assert_eq!(status, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?} wrote to stdout: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("usage: ferrimax"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
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
    assert!(err.starts_with("usage: ferrimax"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `--help` and `--version` answer on stdout with status 0; an unknown mode or a bad
/// argument is a usage error (status 2) told on stderr, with nothing on stdout.
#[test]
fn help_version_and_usage_errors() {
    let (status, out, _) = ferrimax(&["--help"]);
    assert_eq!(status, 0);
    assert!(out.starts_with("Ferrimax, a chess engine"), "{out}");
    for mode in ["perft", "divide", "bench", "epd", "--version"] {
        assert!(
            out.contains(&format!("ferrimax {mode}")) || out.contains(mode),
            "{mode}"
        );
    }
    let (status, out, _) = ferrimax(&["--version"]);
    assert_eq!(status, 0);
    assert_eq!(out, format!("ferrimax {}\n", env!("CARGO_PKG_VERSION")));
    let cases: &[&[&str]] = &[
        &["frobnicate"],
        &["--verbose"],
        &["epd"],
        &["epd", "tests/data/mates.epd", "--depth", "0"],
        &["epd", "tests/data/mates.epd", "--time", "soon"],
        &["epd", "/nonexistent.epd"],
        &["bench", "--threads", "0"],
    ];
    for args in cases {
        let (status, out, err) = ferrimax(args);
        assert_eq!(status, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains("ferrimax"), "{args:?}: {err}");
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
