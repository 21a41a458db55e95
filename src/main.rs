use ferrimax::cli;

/// Logs go to stderr (`RUST_LOG=debug`); stdout carries the protocol only.
fn init_logging() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
}

fn main() {
    init_logging();
    let args: Vec<String> = std::env::args().skip(1).collect();
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
