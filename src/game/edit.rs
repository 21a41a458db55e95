//! Edit mode: XBoard's way of setting up a position when `setboard` is not used (`edit`,
//! then one line per piece, `c` for the other colour, `#` to clear, `.` to finish).

use super::{Game, Mode, Variant};
use crate::cecp::{self, EditCommand, Message, ParseError};
use crate::chess::{Color, Piece, PieceType, Setup, Square};

/// A position being edited, and the mode to return to when it is done.
pub struct EditSession {
    setup: Setup,
    /// Colour of the pieces placed next (`c` switches it).
    color: Color,
    resume: Mode,
}

impl EditSession {
    fn apply(&mut self, command: EditCommand) {
        match command {
            EditCommand::SwitchColor => self.color = self.color.flip(),
            EditCommand::ClearBoard => {
                for square in Square::all() {
                    self.setup.set(square, None);
                }
            }
            EditCommand::Place { piece, square } => {
                let kind = PieceType::from_letter(piece);
                if let (Some(kind), Some(square)) = (kind, Square::parse(&square)) {
                    self.setup.set(square, Some(Piece::new(self.color, kind)));
                }
            }
            EditCommand::ClearSquare(square) => {
                if let Some(square) = Square::parse(&square) {
                    self.setup.set(square, None);
                }
            }
            EditCommand::Done => {}
        }
    }
}

impl Game {
    /// `edit`: the search stops and the following lines edit a copy of the position.
    pub(super) fn begin_edit(&mut self) {
        self.abort_search();
        let resume = std::mem::replace(&mut self.mode, Mode::Force);
        self.mode = Mode::Edit(Box::new(EditSession {
            setup: self.history.board().to_setup(),
            color: Color::White,
            resume,
        }));
    }

    /// One line in edit mode.
    pub(super) fn handle_edit_line(&mut self, line: &str) {
        let Mode::Edit(session) = &mut self.mode else {
            return;
        };
        match cecp::parse_edit(line) {
            Ok(EditCommand::Done) => self.finish_edit(),
            Ok(command) => session.apply(command),
            Err(ParseError::Empty) => {}
            Err(e) => {
                if let Some(reply) = e.reply() {
                    self.send(reply);
                }
            }
        }
    }

    /// Leaves edit mode: castling rights for kings and rooks on their home squares, no
    /// e.p. square, move counters reset; an impossible position keeps the old one.
    fn finish_edit(&mut self) {
        let Mode::Edit(session) = std::mem::replace(&mut self.mode, Mode::Force) else {
            return;
        };
        let EditSession {
            mut setup, resume, ..
        } = *session;
        self.mode = resume;
        setup.castling_from_placement(self.variant == Variant::Chess960);
        setup.en_passant = None;
        setup.halfmove = 0;
        setup.fullmove = 1;
        match setup.into_board() {
            Ok(board) => self.reset_position(board),
            Err(e) => {
                log::debug!("edited position refused: {e}");
                self.send(Message::TellUserError("Illegal position".into()));
            }
        }
        self.position_changed();
    }
}
