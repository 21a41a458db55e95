//! Making and taking back moves: the pieces moved, captured and promoted, the castling
//! rook carried along (in Chess960 king and rook may land on each other's squares), the
//! rights and e.p. square updated, and the Zobrist key kept in step, all undone exactly.

use super::board::Board;
use super::moves::{Move, MoveKind};
use super::types::{CastleFiles, CastlingRights, Color, Piece, PieceType, Square, dir};
use super::zobrist::keys;

/// What `make_move` overwrote, for `unmake_move` to put back.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    captured: Piece,
    /// Index the captured piece had in its list.
    captured_slot: u8,
    /// Index a promoting pawn had in the pawn list.
    pawn_slot: u8,
    castling: CastlingRights,
    ep: Option<Square>,
    halfmove: u16,
    key: u64,
}

impl Board {
    /// The rook's squares of a castling of `us` whose king lands on `king_to` (for
    /// unmaking, when the king no longer stands on the move's origin).
    fn castle_rook_squares_for(&self, us: Color, king_to: Square) -> (Square, Square) {
        let kingside = king_to.file() == CastleFiles::king_target_file(true);
        let from = self.castle_files.rook_square(us, kingside);
        let to = Square::new(CastleFiles::rook_target_file(kingside), us.back_rank());
        (from, to)
    }

    /// Moves the castling king and rook at once: in Chess960 either may land on the
    /// other's square (or stay on its own), so both leave before either arrives.
    fn relocate_castling(
        &mut self,
        king_from: Square,
        king_to: Square,
        rook_from: Square,
        rook_to: Square,
    ) {
        let king = self.squares[king_from.index()];
        let rook = self.squares[rook_from.index()];
        let king_slot = self.list_index[king_from.index()];
        let rook_slot = self.list_index[rook_from.index()];
        self.squares[king_from.index()] = Piece::EMPTY;
        self.squares[rook_from.index()] = Piece::EMPTY;
        for (piece, slot, to) in [(king, king_slot, king_to), (rook, rook_slot, rook_to)] {
            let (c, t) = (piece.color().index(), piece.type_bits() as usize);
            self.lists[c][t][slot as usize] = to;
            self.list_index[to.index()] = slot;
            self.squares[to.index()] = piece;
        }
    }

    /// What legal move `m` does to the pieces, for what mirrors the board piece by piece
    /// (a network's accumulators): each piece that changes, with the square it leaves and
    /// the square it reaches (`None` for a piece captured, or a pawn that becomes another
    /// piece). At most three changes.
    pub fn piece_moves(
        &self,
        m: Move,
    ) -> impl Iterator<Item = (Piece, Option<Square>, Option<Square>)> {
        let (from, to) = (m.from(), m.to());
        let piece = self.piece_at(from);
        let mut changes = [None; 3];
        match m.kind() {
            MoveKind::Castle => {
                let (rook_from, rook_to) = self.castle_rook_squares(m);
                changes[0] = Some((piece, Some(from), Some(to)));
                changes[1] = Some((self.piece_at(rook_from), Some(rook_from), Some(rook_to)));
            }
            MoveKind::EnPassant => {
                let victim = to
                    .offset(-self.side.forward())
                    .expect("beside the e.p. square");
                changes[0] = Some((piece, Some(from), Some(to)));
                changes[1] = Some((self.piece_at(victim), Some(victim), None));
            }
            MoveKind::Normal | MoveKind::DoublePush => {
                let captured = self.piece_at(to);
                if !captured.is_empty() {
                    changes[0] = Some((captured, Some(to), None));
                }
                match m.promoted() {
                    Some(kind) => {
                        changes[1] = Some((piece, Some(from), None));
                        changes[2] = Some((Piece::new(self.side, kind), None, Some(to)));
                    }
                    None => changes[1] = Some((piece, Some(from), Some(to))),
                }
            }
        }
        changes.into_iter().flatten()
    }

    /// The state a move overwrites, before it is made (no capture yet).
    #[inline]
    fn undo_record(&self) -> Undo {
        Undo {
            captured: Piece::EMPTY,
            captured_slot: 0,
            pawn_slot: 0,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            key: self.key,
        }
    }

    /// Plays a legal move. The returned `Undo` restores the position exactly.
    pub fn make_move(&mut self, m: Move) -> Undo {
        let keys = keys();
        let us = self.side;
        let from = m.from();
        let to = m.to();
        let piece = self.squares[from.index()];
        debug_assert!(
            piece.is_color(us),
            "no piece of the side to move on {from} for {m}"
        );
        let mut undo = self.undo_record();
        let mut key = self.key ^ keys.side();
        if let Some(ep) = self.ep {
            key ^= keys.en_passant(ep);
        }
        self.ep = None;
        self.halfmove += 1;

        let captured_sq = match m.kind() {
            MoveKind::EnPassant => to.offset(-us.forward()),
            MoveKind::Castle => None,
            _ if !self.squares[to.index()].is_empty() => Some(to),
            _ => None,
        };
        if let Some(csq) = captured_sq {
            let captured = self.squares[csq.index()];
            undo.captured = captured;
            undo.captured_slot = self.remove_from_list(csq, captured);
            self.squares[csq.index()] = Piece::EMPTY;
            key ^= keys.piece(captured, csq);
            self.halfmove = 0;
        }
        if m.kind() == MoveKind::Castle {
            let (rook_from, rook_to) = self.castle_rook_squares(m);
            let rook = self.squares[rook_from.index()];
            self.relocate_castling(from, to, rook_from, rook_to);
            key ^= keys.piece(rook, rook_from) ^ keys.piece(rook, rook_to);
        } else {
            self.shift_piece(from, to);
        }
        key ^= keys.piece(piece, from) ^ keys.piece(piece, to);
        if let Some(promoted) = m.promoted() {
            let new = Piece::new(us, promoted);
            undo.pawn_slot = self.remove_from_list(to, piece);
            self.append_to_list(to, new);
            self.squares[to.index()] = new;
            key ^= keys.piece(piece, to) ^ keys.piece(new, to);
        }
        if piece.type_bits() == PieceType::Pawn as u8 {
            self.halfmove = 0;
        }

        let lost = self.rights_lost[from.index64()] | self.rights_lost[to.index64()];
        if self.castling.has(lost) {
            let rights = self.castling.without(lost);
            let files = self.castle_files;
            key ^= keys.castling(self.castling, files) ^ keys.castling(rights, files);
            self.castling = rights;
        }

        self.side = us.flip();
        if us == Color::Black {
            self.fullmove += 1;
        }
        if m.kind() == MoveKind::DoublePush {
            let skipped = from
                .offset(us.forward())
                .expect("double push passes a square");
            if self.en_passant_capture_exists(skipped) {
                self.ep = Some(skipped);
                key ^= keys.en_passant(skipped);
            }
        }
        self.key = key;
        undo
    }

    /// Takes back `m`, which must be the last move made, with the `Undo` it returned.
    pub fn unmake_move(&mut self, m: Move, undo: &Undo) {
        let us = self.side.flip();
        let from = m.from();
        let to = m.to();
        if m.promoted().is_some() {
            // The new piece is the last of its list: everything made later was unmade.
            let new = self.squares[to.index()];
            self.counts[us.index()][new.type_bits() as usize] -= 1;
            let pawn = Piece::new(us, PieceType::Pawn);
            self.restore_to_list(to, pawn, undo.pawn_slot);
            self.squares[to.index()] = pawn;
        }
        if m.kind() == MoveKind::Castle {
            let (rook_from, rook_to) = self.castle_rook_squares_for(us, to);
            self.relocate_castling(to, from, rook_to, rook_from);
        } else {
            self.shift_piece(to, from);
        }
        if !undo.captured.is_empty() {
            let csq = if m.kind() == MoveKind::EnPassant {
                to.offset(-us.forward())
                    .expect("e.p. victim is on the board")
            } else {
                to
            };
            self.restore_to_list(csq, undo.captured, undo.captured_slot);
            self.squares[csq.index()] = undo.captured;
        }
        if us == Color::Black {
            self.fullmove -= 1;
        }
        self.side = us;
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
    }

    /// Passes the turn (null-move pruning). Not a legal chess move: only for search.
    pub fn make_null(&mut self) -> Undo {
        let keys = keys();
        let undo = self.undo_record();
        self.key ^= keys.side();
        if let Some(ep) = self.ep.take() {
            self.key ^= keys.en_passant(ep);
        }
        self.halfmove += 1;
        self.side = self.side.flip();
        undo
    }

    /// Undoes `make_null`.
    pub fn unmake_null(&mut self, undo: &Undo) {
        self.side = self.side.flip();
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
    }

    /// After a double push over `skipped` (side already switched): can the side to move
    /// capture en passant without leaving its king in check?
    pub(super) fn en_passant_capture_exists(&self, skipped: Square) -> bool {
        self.en_passant_captors(skipped).next().is_some()
    }

    /// Squares of the pawns of the side to move that may legally take en passant on `to`
    /// (zero, one or two of them).
    pub(super) fn en_passant_captors(&self, to: Square) -> impl Iterator<Item = Square> + '_ {
        let us = self.side;
        let victim = to
            .offset(-us.forward())
            .expect("the e.p. victim is on the board");
        [dir::E, dir::W]
            .into_iter()
            .filter_map(move |side_step| victim.offset(side_step))
            .filter(move |&from| {
                self.squares[from.index()].is(us, PieceType::Pawn)
                    && self.en_passant_is_legal(from, to, victim)
            })
    }

    /// Whether the pawn on `from` may take en passant on `to`, removing the pawn on
    /// `victim`: both pawns leave their rank and one lands on `to`, so check the king on
    /// the board as it would be (this catches the rank pin and discovered checks).
    fn en_passant_is_legal(&self, from: Square, to: Square, victim: Square) -> bool {
        let us = self.side;
        let pawn = Piece::new(us, PieceType::Pawn);
        let king = self.king_square(us);
        !self.attacked_with(king, us.flip(), |sq| {
            if sq == to {
                pawn
            } else if sq == from || sq == victim {
                Piece::EMPTY
            } else {
                self.squares[sq.index()]
            }
        })
    }
}
