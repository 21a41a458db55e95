//! Developer tool: prints each iteration of a search on a FEN (`cargo run --release --example think -- DEPTH FEN`).
use ferrimax::chess::Board;
use ferrimax::search::{self, Report, SearchControl, SearchRequest, TranspositionTable};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args[0].parse().unwrap();
    let board = Board::from_fen(&args[1..].join(" ")).unwrap();
    let tt = TranspositionTable::new(64);
    let request = SearchRequest::new(board.clone()).depth(depth);
    let r = search::search(&request, &tt, &SearchControl::new(), &mut |r| {
        if let Report::Iteration(i) = r {
            println!(
                "{:2} {:?} {:>9} {:>6}ms {}",
                i.depth,
                i.score,
                i.nodes,
                i.elapsed.as_millis(),
                board.san_line(&i.pv)
            );
        }
    });
    println!("best {} score {}", r.best_move, r.score);
}
