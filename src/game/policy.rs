//! How the engine treats its opponent: how much it dislikes a draw (contempt), when it
//! accepts or offers one, and when it resigns. What it knows of the opponent comes from
//! `name`, `rating` and `computer`, which a GUI or chess-server bridge sends per game.

use super::{Game, Mode};
use crate::cecp::Message;
use crate::chess::{Board, Color, PieceType};
use crate::eval;
use crate::tablebase::Wdl;

/// A human rated this much below us is "clearly weaker": contempt grows beyond it.
const CLEARLY_WEAKER_GAP: i32 = 150;
/// Contempt grows by a centipawn per this many rating points beyond that gap...
const RATING_POINTS_PER_CONTEMPT_CP: i32 = 4;
/// ...up to this much.
const MAX_RATING_CONTEMPT_CP: i64 = 100;
/// A human rated this much below us is "much weaker": no draw by agreement unless the
/// position is dead drawn or our score is below `CLEARLY_LOSING_CP`.
const MUCH_WEAKER_GAP: i32 = 400;
/// Our score (centipawns) below which even a much weaker human gets the draw: the rule
/// keeps the engine from taking cheap draws it should win, never from preferring a loss.
const CLEARLY_LOSING_CP: i64 = -300;
/// No resignation before this move number in a game played from the start.
const RESIGN_NOT_BEFORE_MOVE: u16 = 15;

/// What the GUI told us of the opponent of this game.
#[derive(Default, Debug)]
pub struct Opponent {
    pub name: Option<String>,
    /// Our rating and the opponent's; 0 means unrated.
    pub ratings: Option<(i32, i32)>,
    pub is_computer: bool,
}

impl Opponent {
    /// How far the opponent is rated below us, when both have a rating.
    fn rating_gap(&self) -> Option<i32> {
        match self.ratings {
            Some((own, theirs)) if own > 0 && theirs > 0 => Some(own.saturating_sub(theirs)),
            _ => None,
        }
    }

    /// The draw contempt against this opponent, from the option's `base`: none against
    /// a program (a draw is the honest result between equals), more against a clearly
    /// weaker human.
    pub fn contempt(&self, base: i64) -> i64 {
        if self.is_computer {
            return 0;
        }
        let beyond = self
            .rating_gap()
            .map_or(0, |gap| gap.saturating_sub(CLEARLY_WEAKER_GAP));
        let extra = i64::from(beyond.max(0) / RATING_POINTS_PER_CONTEMPT_CP);
        base + extra.min(MAX_RATING_CONTEMPT_CP)
    }

    /// A human so much weaker that a draw by agreement is refused unless the position is
    /// dead drawn or the engine is clearly losing.
    pub fn is_much_weaker_human(&self) -> bool {
        !self.is_computer && self.rating_gap().is_some_and(|gap| gap >= MUCH_WEAKER_GAP)
    }
}

/// Whether `color` can still mate on `board` by material (it has a pawn, a rook, a queen,
/// or two minor pieces).
fn has_mating_material(board: &Board, color: Color) -> bool {
    let count = |kind| board.count(color, kind);
    count(PieceType::Pawn) + count(PieceType::Rook) + count(PieceType::Queen) > 0
        || count(PieceType::Knight) + count(PieceType::Bishop) >= 2
}

impl Game {
    /// The contempt in force for this game, centipawns.
    pub(super) fn contempt_cp(&self) -> i64 {
        self.opponent.contempt(self.settings.contempt_cp)
    }

    /// `draw`: accept at once (by offering back) when the position is dead drawn.
    /// Otherwise the offer stands until our next move, which decides it on the score of
    /// its own search ([`Game::answer_pending_draw`]); while the opponent is to move, our
    /// last score is that of this very position, so it may be accepted at once too.
    pub(super) fn answer_draw_offer(&mut self) {
        if self.is_dead_drawn() {
            self.send(Message::OfferDraw);
            return;
        }
        self.draw_offer_pending = true;
        let opponent_to_move =
            matches!(self.mode, Mode::Play(us) if us != self.board().side_to_move());
        if opponent_to_move && self.last_score.is_some_and(|cp| self.accepts_draw(cp)) {
            self.draw_offer_pending = false;
            self.send(Message::OfferDraw);
        }
    }

    /// Before our move: accepts a standing draw offer (`offer draw` goes out before the
    /// move) when our fresh `score_cp` says so; returns whether it did. The offer lapses
    /// with the move either way.
    pub(super) fn answer_pending_draw(&mut self, score_cp: i64) -> bool {
        let accept = std::mem::take(&mut self.draw_offer_pending) && self.accepts_draw(score_cp);
        if accept {
            self.send(Message::OfferDraw);
        }
        accept
    }

    /// Whether a draw by agreement suits us at `score_cp` (our score, centipawns): when it
    /// is at least the margin below what a draw is worth to us; against a much weaker
    /// human only when we are clearly losing.
    fn accepts_draw(&self, score_cp: i64) -> bool {
        if self.opponent.is_much_weaker_human() && score_cp >= CLEARLY_LOSING_CP {
            return false;
        }
        let draw_value = -self.contempt_cp();
        score_cp <= draw_value - self.settings.draw_margin_cp
    }

    /// Whether the position is drawn whatever anyone plays: by its material, or because
    /// the endgame tablebases say so (with its fifty-move counter, the fifty-move rule
    /// counted as `Syzygy50MoveRule` says).
    fn is_dead_drawn(&self) -> bool {
        let board = self.board();
        let by_tables = self.tablebases.as_ref().and_then(|t| t.probe(board));
        eval::is_dead_draw(board)
            || by_tables
                .is_some_and(|wdl| wdl.counted(self.settings.syzygy_50_move_rule) == Wdl::Draw)
    }

    /// Offers a draw once per game when the position (before our move) is dead drawn.
    pub(super) fn offer_draw_if_dead(&mut self) {
        if !self.draw_offered && self.is_dead_drawn() {
            self.draw_offered = true;
            self.send(Message::OfferDraw);
        }
    }

    /// Whether to resign instead of moving, given our search's score (centipawns): the
    /// score has stayed at or below the threshold for `ResignMoves` own moves, it is not
    /// the opening, and we are not the side with mating material against a bare king.
    pub(super) fn should_resign(&mut self, score_cp: i64) -> bool {
        let threshold = self.settings.resign_threshold(self.ics_host.is_some());
        if threshold <= 0 || score_cp > -threshold {
            self.hopeless_moves = 0;
            return false;
        }
        self.hopeless_moves += 1;
        let board = self.board();
        let us = board.side_to_move();
        let we_can_still_win = has_mating_material(board, us) && board.is_bare_king(us.flip());
        // A game set up from a position is already under way (GUIs often send such a
        // position with move number 1); only a game from the start has an opening.
        let in_the_opening = self.history.starts_from_the_start_position()
            && board.fullmove_number() < RESIGN_NOT_BEFORE_MOVE;
        i64::from(self.hopeless_moves) >= self.settings.resign_moves
            && !in_the_opening
            && !we_can_still_win
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opponent(ratings: Option<(i32, i32)>, is_computer: bool) -> Opponent {
        Opponent {
            name: None,
            ratings,
            is_computer,
        }
    }

    #[test]
    fn contempt_follows_the_opponent() {
        let cases = [
            ("unknown human", opponent(None, false), 10),
            ("equal human", opponent(Some((1800, 1790)), false), 10),
            (
                "clearly weaker human",
                opponent(Some((1800, 1450)), false),
                60,
            ),
            ("far weaker human", opponent(Some((2400, 1000)), false), 110),
            ("unrated human", opponent(Some((1800, 0)), false), 10),
            ("computer", opponent(Some((1800, 1200)), true), 0),
        ];
        for (name, opponent, expected) in cases {
            assert_eq!(opponent.contempt(10), expected, "{name}");
        }
        assert!(opponent(Some((2000, 1500)), false).is_much_weaker_human());
        assert!(!opponent(Some((2000, 1700)), false).is_much_weaker_human());
        assert!(!opponent(Some((2000, 1500)), true).is_much_weaker_human());
    }
}
