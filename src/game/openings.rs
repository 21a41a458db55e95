//! The opening book in play: opening the file the `Book` option names, choosing a book
//! move (by weight, as varied as `BookVariety` asks, up to move `BookDepth`), playing it
//! without a search, and listing the book's moves for `bk`.

use super::Game;
use crate::book::{Book, BookMove};
use crate::cecp::{Message, Score, Thinking};
use std::path::Path;

/// `BookVariety` at which moves are chosen in proportion to their weights; below it the
/// heavier moves are favoured more and more, at 0 only the heaviest is played.
const PROPORTIONAL_VARIETY: i64 = 100;

impl Game {
    /// Opens the book the `Book` option names (or closes it when the name is empty). A
    /// file that cannot be used is reported to the user and no book is used.
    pub(super) fn load_book(&mut self) {
        self.book = None;
        let path = self.settings.book.clone();
        if path.is_empty() {
            return;
        }
        match Book::open(Path::new(&path)) {
            Ok(book) => self.book = Some(book),
            Err(e) => {
                log::warn!("book {path}: {e}");
                self.tell_user_error(format!("Cannot use book {path}: {e}"));
            }
        }
    }

    /// The book's moves for the current position, heaviest first (none past `BookDepth`).
    fn book_moves(&self) -> Vec<BookMove> {
        let Some(book) = &self.book else {
            return Vec::new();
        };
        let board = self.board();
        if i64::from(board.fullmove_number()) > self.settings.book_depth {
            return Vec::new();
        }
        // A Polyglot key knows castling rights only from the standard squares: in a
        // Chess960 position castling elsewhere, it would be another position's key.
        if !board.castle_files().is_standard_for(board.castling()) {
            return Vec::new();
        }
        book.moves(board)
    }

    /// A book move to play now, if the book knows the position.
    pub(super) fn choose_book_move(&self) -> Option<BookMove> {
        let moves = self.book_moves();
        let variety = self.settings.book_variety;
        let chosen = if variety <= 0 {
            moves.first().copied()
        } else {
            let sharpness = PROPORTIONAL_VARIETY as f64 / variety as f64;
            let odds: Vec<f64> = moves
                .iter()
                .map(|m| f64::from(m.weight).powf(sharpness))
                .collect();
            pick_weighted(&moves, &odds, rand::random::<f64>())
        };
        chosen.filter(|m| m.weight > 0)
    }

    /// Plays a book move at once: a thinking line whose PV starts with `(` (GUIs read it
    /// as "not searched"), the move, and on a server a whisper that says it was a book move.
    pub(super) fn play_book_move(&mut self, choice: BookMove) {
        let board = self.board();
        let san = board.san(choice.mv);
        let total: u32 = self.book_moves().iter().map(|m| u32::from(m.weight)).sum();
        if self.post {
            self.send(Message::Thinking(Thinking {
                depth: 0,
                score: Score::Centipawns(0),
                centis: 0,
                nodes: 0,
                extras: None,
                pv: format!("(book) {san}"),
            }));
        }
        self.hopeless_moves = 0;
        let summary = format!("book {san} weight {} of {total}", choice.weight);
        self.finish_own_move(choice.mv, &summary, None);
    }

    /// `bk`: the book's moves here with their weights and shares, then an empty line.
    pub(super) fn show_book(&self) {
        let moves = self.book_moves();
        let total: u32 = moves.iter().map(|m| u32::from(m.weight)).sum();
        for m in &moves {
            let share = 100 * u32::from(m.weight) / total.max(1);
            let san = self.board().san(m.mv);
            self.send(Message::BookLine(format!("{san} {} {share}%", m.weight)));
        }
        self.send(Message::BookEnd);
    }
}

/// The move whose share of the summed `odds` contains `draw` (a number in 0..1).
fn pick_weighted(moves: &[BookMove], odds: &[f64], draw: f64) -> Option<BookMove> {
    let total: f64 = odds.iter().sum();
    if total <= 0.0 {
        return moves.first().copied();
    }
    let mut left = draw * total;
    for (m, &odd) in moves.iter().zip(odds) {
        if left < odd {
            return Some(*m);
        }
        left -= odd;
    }
    moves.last().copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Board;

    #[test]
    fn weighted_choice_covers_each_move_by_its_share() {
        let board = Board::startpos();
        let moves: Vec<BookMove> = ["e2e4", "d2d4"]
            .iter()
            .zip([3, 1])
            .map(|(text, weight)| BookMove {
                mv: board.parse_move(text).unwrap(),
                weight,
            })
            .collect();
        let odds = [3.0, 1.0];
        let pick = |draw| pick_weighted(&moves, &odds, draw).unwrap().weight;
        assert_eq!(pick(0.0), 3);
        assert_eq!(pick(0.74), 3);
        assert_eq!(pick(0.76), 1);
        assert_eq!(pick(0.999), 1);
        assert_eq!(pick_weighted(&moves, &[0.0, 0.0], 0.5).unwrap().weight, 3);
    }
}
