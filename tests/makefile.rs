//! The Makefile OpenBench builds the engine with (`make -j EXE=PATH`, in the repository
//! root, maybe with a compiler named), read through make's dry run: the real build is a
//! release build, minutes long, checked by hand (`make EXE=/tmp/x && /tmp/x bench`).

use std::process::Command;

/// What `make -n ARGS` would run, with `target_dir` as cargo's target folder when given.
fn dry_run(args: &[&str], target_dir: Option<&str>) -> String {
    let mut make = Command::new("make");
    make.arg("-n")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        // Cargo sets CARGO for the tests it runs; OpenBench's shell has none.
        .env_remove("CARGO")
        .env_remove("CARGO_TARGET_DIR");
    if let Some(dir) = target_dir {
        make.env("CARGO_TARGET_DIR", dir);
    }
    let out = make.output().expect("make runs (Debian's make package)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn make_builds_the_release_binary_into_exe() {
    let cases: &[(&str, &[&str], Option<&str>, &str)] = &[
        (
            "plain make",
            &[],
            None,
            "cp target/release/ferrimax ferrimax",
        ),
        (
            "OpenBench's command",
            &["-j", "EXE=Engines/Ferrimax-0123ABCD", "CXX=clang++"],
            None,
            "cp target/release/ferrimax Engines/Ferrimax-0123ABCD",
        ),
        (
            "a target folder of its own",
            &["EXE=/tmp/x"],
            Some("/tmp/build"),
            "cp /tmp/build/release/ferrimax /tmp/x",
        ),
    ];
    for (name, args, target_dir, copy) in cases {
        let commands = dry_run(args, *target_dir);
        let lines: Vec<&str> = commands.lines().collect();
        assert_eq!(lines, ["cargo build --release", *copy], "{name}");
    }
}
