//! The `ferrimax` program: without arguments it speaks CECP on stdin and stdout for a GUI;
//! `ferrimax --help` lists the command-line modes (see `ferrimax::cli`).

use ferrimax::cli;

/// Logs go to stderr (`RUST_LOG=debug`); stdout carries the protocol only.
fn init_logging() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
}

fn main() {
    init_logging();
    // `args_os`: an argument that is not valid Unicode is a usage error, not a panic.
    std::process::exit(cli::run(std::env::args_os()));
}
