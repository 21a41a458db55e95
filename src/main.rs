//! The `ferrimax` program: without arguments it speaks CECP on stdin and stdout for a GUI;
//! `perft`, `divide` and `bench` are command-line checks of the rules and the search.

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
    let Ok(args) = std::env::args_os()
        .skip(1)
        .map(|a| a.into_string())
        .collect::<Result<Vec<String>, _>>()
    else {
        eprintln!(
            "usage: ferrimax [perft DEPTH [FEN] | divide DEPTH [FEN] | bench [DEPTH]]  (an argument is not valid Unicode)"
        );
        std::process::exit(cli::USAGE_ERROR);
    };
    let status = match args.first().map(String::as_str) {
        Some("perft") => cli::run_perft(&args[1..]),
        Some("divide") => cli::run_divide(&args[1..]),
        Some("bench") => cli::run_bench(&args[1..]),
        Some(other) => {
            eprintln!(
                "usage: ferrimax [perft DEPTH [FEN] | divide DEPTH [FEN] | bench [DEPTH]]  (unknown mode '{other}')"
            );
            cli::USAGE_ERROR
        }
        None => ferrimax::game::run(),
    };
    std::process::exit(status);
}
