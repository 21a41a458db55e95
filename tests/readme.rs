//! The README's recipes, run as written where this machine can run them (the ones that
//! need a chess server, WinBoard or cutechess-cli are checked by reading).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const ENGINE_PATH_IN_README: &str = "target/release/ferrimax";

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md")
}

/// The code blocks of the README fenced with the given language.
fn blocks(language: &str) -> Vec<String> {
    let fence = format!("```{language}");
    let mut found = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    let text = readme();
    for line in text.lines() {
        match &mut current {
            None if line.trim() == fence => current = Some(Vec::new()),
            Some(lines) if line.trim() == "```" => {
                found.push(lines.join("\n"));
                current = None;
            }
            Some(lines) => lines.push(line),
            None => {}
        }
    }
    found
}

fn engine() -> &'static str {
    env!("CARGO_BIN_EXE_ferrimax")
}

/// Every `target/release/ferrimax ...` command of the README runs and succeeds (with the
/// binary under test in its place); the logging recipe starts the protocol loop.
#[test]
fn the_command_line_recipes_run() {
    let commands: Vec<String> = blocks("sh")
        .iter()
        .flat_map(|b| b.lines().map(str::to_string).collect::<Vec<_>>())
        .filter(|l| {
            let command = l.split_once(' ').map_or(l.as_str(), |(first, rest)| {
                if first.contains('=') {
                    rest
                } else {
                    l.as_str()
                }
            });
            command.starts_with(ENGINE_PATH_IN_README)
        })
        .collect();
    assert!(commands.len() >= 6, "{commands:?}");
    for command in commands {
        let (env, rest) = match command.split_once(' ') {
            Some((var, rest)) if var.contains('=') => (Some(var), rest),
            _ => (None, command.as_str()),
        };
        let args: Vec<&str> = rest.split_whitespace().skip(1).collect();
        let mut process = Command::new(engine());
        process
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some((name, value)) = env.and_then(|e| e.split_once('=')) {
            process.env(name, value);
        }
        let mut child = process.spawn().expect("start ferrimax");
        // The protocol loop (no arguments) waits for input: end it.
        child.stdin.take().expect("stdin").write_all(b"quit\n").ok();
        let out = child.wait_with_output().expect("ferrimax runs");
        assert!(out.status.success(), "{command}: {:?}", out.status);
        assert!(
            !out.stdout.is_empty() || args.is_empty(),
            "{command}: no output"
        );
    }
}

/// The analysis session of the README, typed as written: thinking lines, no error
/// replies, a clean exit.
#[test]
fn the_analysis_session_runs() {
    let [session] = &blocks("text")[..] else {
        panic!("one text block in the README")
    };
    let mut child = Command::new(engine())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start ferrimax");
    let mut stdin = child.stdin.take().expect("stdin");
    for line in session.lines() {
        writeln!(stdin, "{line}").unwrap();
        if line == "analyze" {
            // Let it think a little, as a person would.
            std::thread::sleep(std::time::Duration::from_millis(300));
        }
    }
    let out = child.wait_with_output().expect("ferrimax runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.lines().any(|l| l.contains('\t')),
        "no thinking lines: {text}"
    );
    assert!(
        !text.contains("Error") && !text.contains("Illegal"),
        "{text}"
    );
}

/// The python-chess scripts of the README (CECP, then UCI), each run as written.
#[test]
#[ignore = "needs python-chess (installed by .ci/run)"]
fn the_python_chess_recipes_run() {
    let scripts = blocks("python");
    assert_eq!(scripts.len(), 2, "the CECP and the UCI script");
    for script in &scripts {
        run_python_recipe(script);
    }
}

fn run_python_recipe(script: &str) {
    let script = script.replace(ENGINE_PATH_IN_README, engine());
    let out = Command::new("python3")
        .args(["-c", &script])
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Score") || stdout.contains("Cp("),
        "{stdout}"
    );
}
