//! Developer tool: prints the static evaluation of FENs (`cargo run --release --example evalfen -- FEN...`, FENs separated by `,`).
fn main() {
    let text = std::env::args().skip(1).collect::<Vec<_>>().join(" ");
    for fen in text.split(',') {
        let board = ferrimax::chess::Board::from_fen(fen.trim()).unwrap();
        println!("{:6}  {}", ferrimax::eval::evaluate(&board), fen.trim());
    }
}
