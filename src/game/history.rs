//! The game's positions, from where it started to the current one, and their mirror in the
//! hash table.
//!
//! Every position of the game is entered into the transposition table as a protected
//! entry that scores as a draw (micro-Max's way of seeing repetitions of the game from
//! inside the search). This type enters and removes the game's own positions, so the
//! table holds exactly the positions held here, plus for a while the one a ponder search
//! predicts (`searching`) and the root of a running search (`search::threads`).

use crate::chess::{Board, Color, Ending, Move};
use crate::search::TranspositionTable;
use std::sync::Arc;

/// The positions of the game since `new`, `setboard` or `edit`, and the table that knows
/// them.
pub struct GameHistory {
    /// The first is where the game started, the last is the current position.
    boards: Vec<Board>,
    table: Arc<TranspositionTable>,
}

/// `undo`/`remove` asked for more moves than the game has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotEnoughMoves;

impl GameHistory {
    /// A game at `start`, its position entered into `table`.
    pub fn new(start: Board, table: Arc<TranspositionTable>) -> GameHistory {
        table.insert_game_position(start.key());
        GameHistory {
            boards: vec![start],
            table,
        }
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        self.boards.last().expect("a game always has a position")
    }

    /// Whether the game started from the standard start position (not a set-up one).
    pub fn starts_from_the_start_position(&self) -> bool {
        self.boards[0].key() == Board::startpos().key()
    }

    /// Half-moves played since the game started.
    pub fn plies(&self) -> usize {
        self.boards.len() - 1
    }

    /// The table holding the game's positions (and the search results).
    pub fn table(&self) -> &Arc<TranspositionTable> {
        &self.table
    }

    /// Moves the game to another table, which must already hold its positions (a
    /// resized copy of the current one).
    pub fn replace_table(&mut self, table: Arc<TranspositionTable>) {
        debug_assert!(self.keys().all(|k| table.game_positions().contains(&k)));
        self.table = table;
    }

    /// Whether the position with `key` occurred in the game.
    pub fn contains(&self, key: u64) -> bool {
        self.keys().any(|k| k == key)
    }

    /// Starts the game anew at `start`: the old positions leave the table.
    pub fn reset(&mut self, start: Board) {
        for key in self.keys() {
            self.table.remove_game_position(key);
        }
        self.table.insert_game_position(start.key());
        self.boards = vec![start];
    }

    /// Makes `m`, which must be legal, and enters the new position.
    pub fn play(&mut self, m: Move) {
        let mut board = self.board().clone();
        board.make_move(m);
        self.table.insert_game_position(board.key());
        self.boards.push(board);
    }

    /// Takes back `plies` half-moves; a position leaves the table unless it also occurred
    /// earlier in the game.
    pub fn take_back(&mut self, plies: usize) -> Result<(), NotEnoughMoves> {
        if self.plies() < plies {
            return Err(NotEnoughMoves);
        }
        for _ in 0..plies {
            let board = self.boards.pop().expect("counted above");
            if !self.contains(board.key()) {
                self.table.remove_game_position(board.key());
            }
        }
        Ok(())
    }

    /// How the game ends at the current position by rule, if it does.
    pub fn ending(&self) -> Option<Ending> {
        let earlier: Vec<u64> = self.boards[..self.plies()].iter().map(Board::key).collect();
        self.board().ending(&earlier)
    }

    /// Moves made by the side to move since ply `from` (the start of a time-control
    /// session), counting the positions where it was to move before now.
    pub fn moves_of_side_to_move_since(&self, from: usize) -> u32 {
        let side = self.board().side_to_move();
        let start = from.min(self.plies());
        let made = self.boards[start..self.plies()]
            .iter()
            .filter(|b| b.side_to_move() == side)
            .count();
        u32::try_from(made).unwrap_or(u32::MAX)
    }

    /// The game's moves in SAN with move numbers (`1. e4 e5 2. Nf3`), from the first
    /// position; `...` first when Black moved first.
    pub fn game_text(&self) -> String {
        let mut parts = Vec::new();
        for pair in self.boards.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            let legal = before.legal_moves();
            let Some(&m) = legal.iter().find(|&&m| {
                let mut next = before.clone();
                next.make_move(m);
                next.key() == after.key()
            }) else {
                break;
            };
            let number = before.fullmove_number();
            match before.side_to_move() {
                Color::White => parts.push(format!("{number}.")),
                Color::Black if parts.is_empty() => parts.push(format!("{number}...")),
                Color::Black => {}
            }
            parts.push(before.san(m));
        }
        parts.join(" ")
    }

    /// Why the history and the table disagree, if they do: every board must be sound,
    /// each a legal move from the one before, and the table's game positions exactly the
    /// boards' keys (plus `extra`, a ponder search's predicted position).
    pub fn inconsistency(&self, extra: Option<u64>) -> Option<String> {
        for (i, board) in self.boards.iter().enumerate() {
            if let Some(why) = board.invariant_violation() {
                return Some(format!("board {i}: {why}"));
            }
        }
        for pair in self.boards.windows(2) {
            let reached = pair[0].legal_moves().iter().any(|&m| {
                let mut next = pair[0].clone();
                next.make_move(m);
                next.key() == pair[1].key()
            });
            if !reached {
                return Some(format!(
                    "{} does not follow {}",
                    pair[1].to_fen(),
                    pair[0].to_fen()
                ));
            }
        }
        let mut held = self.table.game_positions();
        held.sort_unstable();
        let mut expected: Vec<u64> = self.keys().chain(extra).collect();
        expected.sort_unstable();
        expected.dedup();
        (held != expected).then(|| format!("table holds {held:x?}, the game {expected:x?}"))
    }

    fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.boards.iter().map(Board::key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tt::Probe;

    fn history() -> GameHistory {
        GameHistory::new(Board::startpos(), Arc::new(TranspositionTable::new(1)))
    }

    fn play(h: &mut GameHistory, moves: &[&str]) {
        for text in moves {
            let m = h.board().parse_move(text).expect("legal");
            h.play(m);
        }
    }

    fn table_keys(h: &GameHistory) -> Vec<u64> {
        let mut keys = h.table().game_positions();
        keys.sort_unstable();
        keys
    }

    fn own_keys(h: &GameHistory) -> Vec<u64> {
        let mut keys: Vec<u64> = h.keys().collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    #[test]
    fn the_table_holds_exactly_the_game_positions() {
        let mut h = history();
        let knights = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3"];
        play(&mut h, &knights);
        assert_eq!(table_keys(&h), own_keys(&h));
        // Taking back to a repeated position keeps the repeated key.
        h.take_back(4).unwrap();
        assert_eq!(table_keys(&h), own_keys(&h));
        assert_eq!(h.table().probe(h.board().key()), Probe::GamePosition);
        assert_eq!(h.take_back(5), Err(NotEnoughMoves));
        assert_eq!(h.plies(), 1, "a refused take-back changes nothing");
        h.reset(Board::from_fen("8/8/8/4k3/8/8/8/R3K3 w Q - 0 1").unwrap());
        assert_eq!(table_keys(&h), own_keys(&h));
        assert_eq!(h.plies(), 0);
    }

    #[test]
    fn repetition_ends_the_game() {
        let mut h = history();
        play(&mut h, &["g1f3", "g8f6", "f3g1", "f6g8"]);
        assert_eq!(h.ending(), None);
        play(&mut h, &["g1f3", "g8f6", "f3g1", "f6g8"]);
        assert_eq!(h.ending(), Some(Ending::Repetition));
    }

    #[test]
    fn moves_are_counted_from_a_session_start() {
        let mut h = history();
        play(&mut h, &["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(h.moves_of_side_to_move_since(0), 2);
        assert_eq!(h.moves_of_side_to_move_since(2), 1);
        assert_eq!(h.moves_of_side_to_move_since(99), 0);
    }
}
