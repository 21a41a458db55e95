//! Commands that set up or change the position: `new`, `setboard`, the legacy
//! `white`/`black`, the GUI's moves, `undo`/`remove` and `exclude`/`include`.

use super::policy::Opponent;
use super::searching::SearchKind;
use super::{Game, Mode, Variant};
use crate::cecp::{ErrorKind, Message, MoveSet};
use crate::chess::{Board, CastlingNotation, Color};

impl Game {
    /// The position or the set of root moves changed: exclusions lapse and an analysis
    /// starts over.
    pub(super) fn position_changed(&mut self) {
        self.excluded.clear();
        self.expected_reply = None;
        self.refresh_analysis();
    }

    /// Replaces the game with one starting at `board` (no earlier positions).
    pub(super) fn reset_position(&mut self, board: Board) {
        self.history.reset(board);
        self.game_over = false;
        self.last_score = None;
        self.draw_offered = false;
        self.draw_offer_pending = false;
        self.hopeless_moves = 0;
        self.time.restart_sessions();
    }

    pub(super) fn new_game(&mut self) {
        self.abort_search();
        self.variant = Variant::Normal;
        self.fen_castling = CastlingNotation::XFen;
        self.reset_position(Board::startpos());
        if self.mode != Mode::Analyze {
            self.mode = Mode::Play(Color::Black);
        }
        self.random = false;
        self.time.new_game();
        self.expected_reply = None;
        self.opponent = Opponent::default();
        self.position_changed();
    }

    pub(super) fn set_board(&mut self, fen: &str) {
        let read = match self.variant {
            Variant::Normal => Board::from_fen(fen),
            Variant::Chess960 => Board::from_chess960_fen(fen),
        };
        let board = match read {
            Ok(board) => board,
            Err(e) => {
                // Refused before anything is touched: a running search goes on.
                log::debug!("setboard refused: {e}");
                self.send(Message::TellUserError("Illegal position".into()));
                return;
            }
        };
        self.abort_search();
        self.fen_castling = castling_notation_of(fen);
        self.reset_position(board);
        self.position_changed();
    }

    /// GNU Chess's `white`/`black`: set the side to move, engine plays the other, clocks
    /// stop. XBoard still uses them for Black-to-move set-ups in edit mode.
    pub(super) fn legacy_color(&mut self, to_move: Color) {
        let flipped = if self.board().side_to_move() == to_move {
            None
        } else {
            let mut setup = self.board().to_setup();
            setup.side = to_move;
            setup.en_passant = None;
            match setup.into_board() {
                Ok(board) => Some(board),
                Err(_) => {
                    let name = if to_move == Color::White {
                        "white"
                    } else {
                        "black"
                    };
                    self.error(ErrorKind::NotLegalNow, name);
                    return;
                }
            }
        };
        self.abort_search();
        if let Some(board) = flipped {
            self.reset_position(board);
            self.excluded.clear();
        }
        self.mode = Mode::Play(to_move.flip());
    }

    pub(super) fn go(&mut self) {
        let to_move = self.board().side_to_move();
        if self.is_thinking() && self.mode == Mode::Play(to_move) {
            return; // already thinking on this move
        }
        self.abort_search();
        self.mode = Mode::Play(to_move);
        self.engine_turn();
    }

    pub(super) fn user_move(&mut self, text: &str) {
        // Even after a result, a legal move is applied (the engine just does not answer
        // it): calling it illegal would be a false claim that GUIs punish.
        let Ok(m) = self.board().parse_move(text) else {
            self.send(Message::IllegalMove {
                mv: text.to_string(),
                reason: None,
            });
            return;
        };
        // A predicted reply turns the ponder search into thinking on our own time.
        if let Some(SearchKind::Ponder { predicted }) = self.search_kind()
            && predicted == m
            && self.mode == Mode::Play(self.board().side_to_move().flip())
        {
            self.ponder_hit(m);
            return;
        }
        self.abort_search();
        self.history.play(m);
        self.position_changed();
        self.move_if_our_turn();
    }

    pub(super) fn take_back(&mut self, plies: usize, name: &str) {
        if self.history.plies() < plies {
            self.error(ErrorKind::NotLegalNow, name);
            return;
        }
        self.abort_search();
        self.history
            .take_back(plies)
            .expect("the game has enough moves");
        self.game_over = false;
        self.last_score = None;
        self.draw_offer_pending = false;
        self.hopeless_moves = 0;
        self.position_changed();
    }

    pub(super) fn change_exclusions(&mut self, set: MoveSet, exclude: bool) {
        match set {
            MoveSet::All if exclude => {
                self.excluded = self.board().legal_moves().iter().copied().collect();
            }
            MoveSet::All => self.excluded.clear(),
            MoveSet::One(text) => {
                let Ok(m) = self.board().parse_move(&text) else {
                    self.send(Message::IllegalMove {
                        mv: text,
                        reason: None,
                    });
                    return;
                };
                self.excluded.retain(|&x| x != m);
                if exclude {
                    self.excluded.push(m);
                }
            }
        }
        self.refresh_analysis();
    }
}

/// How `fen` writes castling: Shredder-FEN when its castling field names a rook by its
/// file, X-FEN otherwise.
fn castling_notation_of(fen: &str) -> CastlingNotation {
    let field = fen.split_whitespace().nth(2).unwrap_or("-");
    if field
        .chars()
        .any(|c| c.is_ascii_alphabetic() && !"KQkq".contains(c))
    {
        CastlingNotation::Shredder
    } else {
        CastlingNotation::XFen
    }
}
