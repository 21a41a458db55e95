//! What the Debian package ships, checked from the tree (building and installing the
//! package itself is `.ci/package`'s job): the manual page covers every engine option and
//! command-line mode, XBoard's engine file starts the installed program, and the package
//! layout puts each file where Debian's chess engines put theirs.

mod common;

use common::engine::Engine;
use std::path::Path;
use std::process::Command;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The options the engine announces at the handshake (`option="NAME -kind ..."`).
fn announced_options() -> Vec<String> {
    let mut e = Engine::start();
    e.send_all(&["xboard", "protover 2"]);
    let mut lines = e.expect_line("feature done=1");
    lines.retain(|l| l.contains("option="));
    lines
        .iter()
        .flat_map(|l| l.split("option=\"").skip(1))
        .map(|spec| spec.split(' ').next().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_manual_page_names_every_option_and_mode() {
    let page = read("docs/ferrimax.6");
    let options = announced_options();
    assert!(options.len() >= 10, "{options:?}");
    for option in &options {
        assert!(
            page.contains(&format!(".BR {option} ")),
            "ferrimax(6) lacks option {option}"
        );
    }
    let help = Command::new(env!("CARGO_BIN_EXE_ferrimax"))
        .arg("--help")
        .output()
        .expect("ferrimax --help");
    let help = String::from_utf8_lossy(&help.stdout).to_string();
    // Clap lists the modes under "Commands:", one a line, up to a blank line.
    let modes: Vec<&str> = help
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|mode| *mode != "help")
        .collect();
    assert!(modes.len() >= 6, "{modes:?}");
    for mode in modes {
        assert!(
            page.contains(&format!(".B ferrimax {mode}")),
            "ferrimax(6) lacks mode {mode}"
        );
    }
    let version = env!("CARGO_PKG_VERSION");
    assert!(page.contains(&format!("\"Ferrimax {version}\"")), "version");
}

/// XBoard's engine file: the magic line, the command (the program's name, which Debian's
/// PATH finds in /usr/games), the variants.
#[test]
fn the_engine_file_starts_the_installed_program() {
    let eng = read("docs/ferrimax.eng");
    let lines: Vec<&str> = eng.lines().collect();
    assert_eq!(lines, ["plugin spec 0.0", "ferrimax", "chess"]);
    let manifest = read("Cargo.toml");
    for (source, target) in [
        ("target/release/ferrimax", "usr/games/"),
        ("docs/ferrimax.eng", "usr/share/games/plugins/xboard/"),
        ("docs/ferrimax.6", "usr/share/man/man6/"),
        ("README.md", "usr/share/doc/ferrimax/"),
    ] {
        let asset = format!("[\"{source}\", \"{target}\"");
        assert!(manifest.contains(&asset), "no asset {asset}");
    }
    assert!(manifest.contains("license = \"GPL-3.0-or-later\""));
    assert!(read("LICENSE").contains("GNU GENERAL PUBLIC LICENSE"));
}
