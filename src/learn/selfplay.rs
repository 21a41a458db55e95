//! Self-play games for the tuner: Ferrimax against itself at a fixed number of nodes a
//! move (so a game is the same on any machine and under any load), each game from its
//! own short random opening, written as PGN.
//!
//! A game ends by the rules (mate, stalemate, threefold repetition, the 50-move rule,
//! insufficient material), or is adjudicated: won once both sides' searches have agreed
//! for several plies that one side is far ahead, drawn when it grows too long.

use super::pgn::Outcome;
use crate::chess::{Board, Color, Ending, Move};
use crate::eval::nnue;
use crate::eval::{Evaluation, PAWN_VALUE};
use crate::search::{Limits, SearchControl, SearchRequest, TranspositionTable, search};

/// Random plies that open every game (then the engine plays).
pub const RANDOM_PLIES: usize = 8;
/// A score at least this far ahead (either side's search, from White's side)…
const ADJUDICATION_MARGIN: i32 = 10 * PAWN_VALUE;
/// …for this many plies in a row wins the game for that side.
const ADJUDICATION_PLIES: usize = 6;
/// A game this long is scored a draw.
const MAX_PLIES: usize = 400;
/// Table size for each game's searches.
const HASH_MB: usize = 8;

/// How to play the games.
#[derive(Copy, Clone, Debug)]
pub struct SelfPlay {
    /// Nodes per move.
    pub nodes: u64,
    /// Seed of game `0`; game `i` uses `seed + i` for its opening.
    pub seed: u64,
    /// The evaluation both sides play with (a network: the embedded one).
    pub evaluation: Evaluation,
}

/// One finished game: the PGN text of game number `index` (from 0).
pub fn play(settings: SelfPlay, index: u64) -> String {
    let game = play_game(settings, index, |_, _, _| {});
    format_game(&Board::startpos(), &game.moves, game.outcome, index)
}

/// A played game: its moves from the start position and how it ended.
pub struct PlayedGame {
    /// The moves, the random opening first.
    pub moves: Vec<Move>,
    /// The result (by the rules, or adjudicated).
    pub outcome: Outcome,
}

/// Plays game number `index` (from 0), calling `searched` with every position the engine
/// searched (after the random opening), its best move and that move's score for the
/// side to move.
pub fn play_game(
    settings: SelfPlay,
    index: u64,
    mut searched: impl FnMut(&Board, Move, i32),
) -> PlayedGame {
    let mut rng = super::SplitMix(settings.seed.wrapping_add(index));
    let mut board = Board::startpos();
    let mut moves: Vec<Move> = Vec::new();
    let mut keys: Vec<u64> = Vec::new();
    let tt = TranspositionTable::new(HASH_MB);
    tt.insert_game_position(board.key());
    let mut streak = (None::<Color>, 0usize);
    let outcome = loop {
        if let Some(ending) = board.ending(&keys) {
            break match ending {
                Ending::Checkmate { winner } => winner_outcome(winner),
                _ => Outcome::Draw,
            };
        }
        if moves.len() >= MAX_PLIES {
            break Outcome::Draw;
        }
        let m = if moves.len() < RANDOM_PLIES {
            let legal = board.legal_moves();
            legal
                .iter()
                .copied()
                .nth(rng.below(legal.len()))
                .unwrap_or(Move::NONE)
        } else {
            let (m, score) = search_move(&board, &tt, settings);
            searched(&board, m, score);
            let white_score = match board.side_to_move() {
                Color::White => score,
                Color::Black => -score,
            };
            streak = next_streak(streak, white_score);
            if let (Some(leader), plies) = streak
                && plies >= ADJUDICATION_PLIES
            {
                break winner_outcome(leader);
            }
            m
        };
        keys.push(board.key());
        board.make_move(m);
        moves.push(m);
        tt.insert_game_position(board.key());
    };
    PlayedGame { moves, outcome }
}

/// The engine's move and its score for the side to move.
fn search_move(board: &Board, tt: &TranspositionTable, settings: SelfPlay) -> (Move, i32) {
    tt.new_search();
    let request = SearchRequest::new(board.clone())
        .limits(Limits {
            nodes: Some(settings.nodes),
            ..Limits::default()
        })
        .network(match settings.evaluation {
            Evaluation::Network => Some(nnue::embedded()),
            Evaluation::Classical => None,
        });
    let result = search(&request, tt, &SearchControl::new(), &mut |_| {});
    (result.best_move, result.score)
}

/// The side that has been far ahead, and for how many plies in a row.
fn next_streak(streak: (Option<Color>, usize), white_score: i32) -> (Option<Color>, usize) {
    let leader = if white_score >= ADJUDICATION_MARGIN {
        Some(Color::White)
    } else if white_score <= -ADJUDICATION_MARGIN {
        Some(Color::Black)
    } else {
        None
    };
    match (leader, streak) {
        (None, _) => (None, 0),
        (l, (previous, n)) if l == previous => (l, n + 1),
        (l, _) => (l, 1),
    }
}

fn winner_outcome(winner: Color) -> Outcome {
    match winner {
        Color::White => Outcome::WhiteWins,
        Color::Black => Outcome::BlackWins,
    }
}

/// PGN of a game from the standard start.
fn format_game(start: &Board, moves: &[Move], outcome: Outcome, index: u64) -> String {
    let result = outcome.to_string();
    let mut board = start.clone();
    let mut text = String::new();
    for (ply, &m) in moves.iter().enumerate() {
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(&board.san(m));
        text.push(' ');
        board.make_move(m);
    }
    format!(
        "[Event \"ferrimax selfplay\"]\n[Round \"{}\"]\n[White \"Ferrimax\"]\n[Black \"Ferrimax\"]\n[Result \"{result}\"]\n\n{text}{result}\n\n",
        index + 1
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::pgn::read_games;

    #[test]
    fn a_game_is_played_to_a_result_and_reads_back() {
        let settings = SelfPlay {
            nodes: 300,
            seed: 11,
            evaluation: Evaluation::Classical,
        };
        let text = play(settings, 0);
        let games = read_games(&text);
        assert_eq!(games.len(), 1, "{text}");
        let game = &games[0];
        assert!(game.moves.len() > RANDOM_PLIES, "{text}");
        assert_eq!(play(settings, 0), text, "fixed nodes: the same game again");
        assert_ne!(play(settings, 1), text, "another opening");
    }

    #[test]
    fn adjudication_needs_a_streak_for_one_side() {
        let far = ADJUDICATION_MARGIN;
        let mut streak = (None, 0);
        for score in [far, far, -far, far, far] {
            streak = next_streak(streak, score);
        }
        assert_eq!(streak, (Some(Color::White), 2));
        streak = next_streak(streak, 0);
        assert_eq!(streak, (None, 0));
    }
}
