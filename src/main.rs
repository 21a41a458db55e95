use ferrimax::cli;

fn main() {
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
        None => 0,
    };
    std::process::exit(status);
}
