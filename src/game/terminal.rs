//! What a person typing at a terminal gets that GUIs never ask for: `d` shows the board,
//! its FEN, the side to move and the game's moves; `help` lists the commands. Every line
//! starts with `#`, so no GUI could read it as a move, a result or thinking output.

use super::Game;
use crate::cecp::Message;
use crate::chess::{Board, Color, Square};

/// The commands `help` lists, with what they do.
const HELP: &[&str] = &[
    "Ferrimax speaks the XBoard/WinBoard protocol (CECP 2). At a terminal you may type:",
    "  e2e4, e4, Nf3, O-O   a move (coordinates or SAN); the engine answers as Black",
    "  new                  a new game, the engine plays Black",
    "  go                   the engine plays the side to move, now",
    "  force                the engine plays neither side (moves are just applied)",
    "  undo, remove         take back one move, or two",
    "  setboard FEN         set up a position",
    "  st SECS, sd DEPTH    seconds per move, or a depth limit",
    "  level MPS MIN INC    a clock: moves per session, minutes, increment in seconds",
    "  post, nopost         show the thinking, or not",
    "  analyze, exit        analyse the position until exit",
    "  hint, bk             a suggested move; the book's moves",
    "  option NAME=VALUE    an engine option (see README: Hash, Threads, Book, ...)",
    "  d                    show the board",
    "  quit                 leave",
];

impl Game {
    /// `d`: the board as a diagram, its FEN, the side to move and the game's moves.
    pub(super) fn show_board(&self) {
        let board = self.board();
        for line in diagram(board) {
            self.send(Message::Note(line));
        }
        self.send(Message::Note(format!("FEN: {}", self.fen())));
        let side = match board.side_to_move() {
            Color::White => "White",
            Color::Black => "Black",
        };
        self.send(Message::Note(format!("{side} to move")));
        self.send(Message::Note(format!(
            "Moves: {}",
            self.history.game_text()
        )));
    }

    /// `help`: the commands a person may type.
    pub(super) fn show_help(&self) {
        for line in HELP {
            self.send(Message::Note((*line).to_string()));
        }
    }
}

/// The board from White's side, rank 8 at the top, one line per rank.
fn diagram(board: &Board) -> Vec<String> {
    const EDGE: &str = "  +-----------------+";
    let mut lines = vec![EDGE.to_string()];
    for rank in (0..8).rev() {
        let squares: Vec<String> = (0..8)
            .map(|file| {
                let piece = board.piece_at(Square::new(file, rank));
                if piece.is_empty() {
                    ".".to_string()
                } else {
                    piece.fen_char().to_string()
                }
            })
            .collect();
        lines.push(format!("{} | {} |", rank + 1, squares.join(" ")));
    }
    lines.push(EDGE.to_string());
    lines.push("    a b c d e f g h".to_string());
    lines
}
