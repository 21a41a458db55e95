//! The position: a 0x88 mailbox with per-side piece lists, plus the rest of the state a
//! FEN describes and an incrementally updated Zobrist key.

use super::moves::{Move, MoveKind};
use super::types::{CastleFiles, CastlingRights, Color, Piece, PieceType, Square, dir, line_step};
use super::zobrist::keys;

/// Most pieces one side can have (FEN validation rejects more).
pub const MAX_PIECES: usize = 16;

/// Most pieces of one type one side can have: two knights, bishops or rooks plus eight
/// promoted pawns.
pub const MAX_OF_A_KIND: usize = 10;

/// A chess position.
///
/// Besides the 128-entry 0x88 board, each side keeps, per piece type, a list of the
/// squares those pieces stand on. Move generation and evaluation then visit only the
/// pieces there are, type by type, without looking at empty squares or dispatching on
/// the type of each piece.
#[derive(Clone)]
pub struct Board {
    pub(super) squares: [Piece; 128],
    /// Squares of each side's pieces, by type (index = `PieceType` discriminant).
    pub(super) lists: [[[Square; MAX_OF_A_KIND]; 7]; 2],
    /// Length of each list: the number of pieces per side and type.
    pub(super) counts: [[u8; 7]; 2],
    /// Where the piece on a square sits in its list.
    pub(super) list_index: [u8; 128],
    pub(super) side: Color,
    pub(super) castling: CastlingRights,
    /// Where the castling rooks and kings started (standard chess or Chess960): fixed for
    /// a game, like the rules.
    pub(super) castle_files: CastleFiles,
    /// The castling rights lost by a move touching each square (dense index), from
    /// `castle_files`.
    pub(super) rights_lost: [u8; 64],
    /// Set only when a legal en-passant capture exists, so positions that differ only in
    /// an unusable e.p. square share a key (as the repetition rule requires).
    pub(super) ep: Option<Square>,
    pub(super) halfmove: u16,
    pub(super) fullmove: u16,
    pub(super) key: u64,
}

impl Board {
    /// A board with no pieces, White to move. Only for building positions that are then
    /// validated (FEN reading, edit mode).
    pub(super) fn empty() -> Board {
        Board {
            squares: [Piece::EMPTY; 128],
            lists: [[[Square::default(); MAX_OF_A_KIND]; 7]; 2],
            counts: [[0; 7]; 2],
            list_index: [0; 128],
            side: Color::White,
            castling: CastlingRights::NONE,
            castle_files: CastleFiles::STANDARD,
            rights_lost: rights_lost_table(CastleFiles::STANDARD),
            ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Board {
        Board::from_fen(super::fen::STARTPOS).expect("start position FEN is valid")
    }

    // ----------------------------------------------------------------- accessors

    /// What stands on `sq` (`Piece::EMPTY` if nothing).
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.squares[sq.index()]
    }

    /// Whose turn it is.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Castling rights still held (not whether castling is legal right now).
    #[inline]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// Where the castling rooks and kings started: the files of standard chess, or those
    /// of a Chess960 start position.
    #[inline]
    pub fn castle_files(&self) -> CastleFiles {
        self.castle_files
    }

    /// Sets where the castling pieces started (done once, when the board is built).
    pub(super) fn set_castle_files(&mut self, files: CastleFiles) {
        self.castle_files = files;
        self.rights_lost = rights_lost_table(files);
    }

    /// The rook's origin and target for castling move `m` (a king move to the g- or
    /// c-file).
    #[inline]
    pub fn castle_rook_squares(&self, m: Move) -> (Square, Square) {
        let us = self.piece_at(m.from()).color();
        let kingside = m.to().file() == CastleFiles::king_target_file(true);
        let rank = us.back_rank();
        let from = self.castle_files.rook_square(us, kingside);
        (
            from,
            Square::new(CastleFiles::rook_target_file(kingside), rank),
        )
    }

    /// The en-passant target square, only when an e.p. capture is actually legal.
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    /// Half-moves since the last capture or pawn move, for the 50-move rule.
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// FEN's move number: starts at 1, grows after each Black move.
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// Zobrist key of the position (pieces, side, castling rights, usable e.p. file).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Zobrist key of the pawns alone (both colours, nothing else), for caches of what
    /// only the pawns decide. Computed from the pawn lists when asked: cheaper than
    /// keeping it up to date in every move made and unmade.
    pub fn pawn_key(&self) -> u64 {
        let keys = keys();
        [Color::White, Color::Black]
            .into_iter()
            .flat_map(|color| {
                let pawn = Piece::new(color, PieceType::Pawn);
                self.pieces_of(color, PieceType::Pawn)
                    .iter()
                    .map(move |&sq| keys.piece(pawn, sq))
            })
            .fold(0, |key, k| key ^ k)
    }

    /// Where `color`'s king stands (a valid board always has exactly one).
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.lists[color.index()][PieceType::King as usize][0]
    }

    /// Squares of `color`'s pieces of type `kind`.
    #[inline]
    pub fn pieces_of(&self, color: Color, kind: PieceType) -> &[Square] {
        let c = color.index();
        &self.lists[c][kind as usize][..self.counts[c][kind as usize] as usize]
    }

    /// Squares of all `color`'s pieces, king first, then queens down to pawns.
    pub fn pieces(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        PieceType::ALL
            .iter()
            .rev()
            .flat_map(move |&kind| self.pieces_of(color, kind).iter().copied())
    }

    /// Number of `color`'s pieces of type `kind`.
    #[inline]
    pub fn count(&self, color: Color, kind: PieceType) -> u32 {
        u32::from(self.counts[color.index()][kind as usize])
    }

    /// Pieces of both sides on the board, kings and pawns included.
    #[inline]
    pub fn piece_count(&self) -> u32 {
        self.counts.iter().flatten().map(|&n| u32::from(n)).sum()
    }

    /// Pieces other than king and pawns (micro-Max's zugzwang guard and endgame measure).
    #[inline]
    pub fn non_pawn_pieces(&self, color: Color) -> u32 {
        let c = &self.counts[color.index()];
        u32::from(
            c[PieceType::Knight as usize]
                + c[PieceType::Bishop as usize]
                + c[PieceType::Rook as usize]
                + c[PieceType::Queen as usize],
        )
    }

    /// Whether `color` has its king and nothing else.
    #[inline]
    pub fn is_bare_king(&self, color: Color) -> bool {
        self.non_pawn_pieces(color) == 0 && self.count(color, PieceType::Pawn) == 0
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_attacked(self.king_square(self.side), self.side.flip())
    }

    /// Whether the legal move `m` gives check, found without making it: the enemy king is
    /// attacked on the board as it would be after the move (the piece gone from its origin
    /// and standing on its target, an en-passant victim removed, a castling rook moved).
    /// A promotion is made and taken back instead (the new piece may be of a kind the
    /// side has none of, which the attack test's shortcuts assume away).
    pub fn gives_check(&self, m: Move) -> bool {
        let plain = matches!(m.kind(), MoveKind::Normal | MoveKind::DoublePush);
        if plain && m.promoted().is_none() {
            return self.checks_directly(m) || self.uncovers_check(m);
        }
        if m.promoted().is_some() {
            let mut after = self.clone();
            after.make_move(m);
            return after.in_check();
        }
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let moved = self.squares[from.index()];
        let (rook_from, rook_to) = match m.kind() {
            MoveKind::Castle => {
                let (a, b) = self.castle_rook_squares(m);
                (Some(a), Some(b))
            }
            _ => (None, None),
        };
        let victim = match m.kind() {
            MoveKind::EnPassant => to.offset(-us.forward()),
            _ => None,
        };
        let rook = Piece::new(us, PieceType::Rook);
        // (In Chess960 the king may land on the rook's square or the rook on the king's:
        // the targets are read first.)
        let after = |sq: Square| {
            if sq == to {
                moved
            } else if Some(sq) == rook_to {
                rook
            } else if sq == from || Some(sq) == rook_from || Some(sq) == victim {
                Piece::EMPTY
            } else {
                self.squares[sq.index()]
            }
        };
        self.attacked_with(self.king_square(us.flip()), us, after)
    }

    /// Whether the piece of the plain move `m` attacks the enemy king from its target.
    fn checks_directly(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let king = self.king_square(self.side.flip());
        let Some(kind) = self.squares[from.index()].kind() else {
            return false;
        };
        match kind {
            PieceType::Pawn => [dir::E, dir::W]
                .into_iter()
                .any(|side_step| to.offset(self.side.forward() + side_step) == Some(king)),
            PieceType::Knight => dir::KNIGHT.into_iter().any(|d| to.offset(d) == Some(king)),
            // A king never stands next to the other.
            PieceType::King => false,
            slider => {
                let step = line_step(to, king);
                slider.slides_along(step) && self.ray_clear(to, king, step, from)
            }
        }
    }

    /// Whether the plain move `m` uncovers a slider of the mover's on the enemy king:
    /// its origin lies on a line from the king, it leaves that line, and the first piece
    /// beyond it is a slider of the mover's that slides along it.
    fn uncovers_check(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let king = self.king_square(self.side.flip());
        let step = line_step(king, from);
        if step == 0 || line_step(king, to) == step || !self.ray_clear(king, from, step, from) {
            return false;
        }
        let Some(p) = first_piece_on_ray(from, step, &|sq| self.squares[sq.index()]) else {
            return false;
        };
        p.is_color(self.side) && p.kind().is_some_and(|kind| kind.slides_along(step))
    }

    /// Whether the squares strictly between `a` and `b` (`step` apart along a line) are
    /// empty, counting `vacated` as empty.
    fn ray_clear(&self, a: Square, b: Square, step: i8, vacated: Square) -> bool {
        let mut sq = a;
        while let Some(next) = sq.offset(step) {
            if next == b {
                return true;
            }
            if next != vacated && !self.squares[next.index()].is_empty() {
                return false;
            }
            sq = next;
        }
        false
    }

    /// Whether the move captures something (including en passant).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant => true,
            // In Chess960 the king may land on its own rook's square.
            MoveKind::Castle => false,
            _ => !self.piece_at(m.to()).is_empty(),
        }
    }

    /// Whether the move neither captures nor promotes: the moves that history orders and
    /// that the search reduces and prunes.
    #[inline]
    pub fn is_quiet(&self, m: Move) -> bool {
        !self.is_capture(m) && m.promoted().is_none()
    }

    /// Piece a move captures, with its type (en passant captures a pawn).
    #[inline]
    pub fn captured_kind(&self, m: Move) -> Option<PieceType> {
        match m.kind() {
            MoveKind::EnPassant => Some(PieceType::Pawn),
            MoveKind::Castle => None,
            _ => self.piece_at(m.to()).kind(),
        }
    }

    // ----------------------------------------------------------------- attacks

    /// Whether any piece of `by` attacks `target`.
    #[inline]
    pub fn is_attacked(&self, target: Square, by: Color) -> bool {
        self.attacked_with(target, by, |sq| self.squares[sq.index()])
    }

    /// Attack test on a board seen through `piece_at`, which lets callers pretend squares
    /// are empty or occupied (a king stepping away from its own square, an en-passant
    /// capture removing two pawns) without changing the board.
    #[inline(always)]
    pub(super) fn attacked_with<F: Fn(Square) -> Piece>(
        &self,
        target: Square,
        by: Color,
        piece_at: F,
    ) -> bool {
        let counts = &self.counts[by.index()];
        // Pawns of `by` attack diagonally forward, so they stand diagonally behind target.
        if counts[PieceType::Pawn as usize] > 0 {
            let back = -by.forward();
            for side_step in [dir::E, dir::W] {
                if let Some(sq) = target.offset(back + side_step)
                    && piece_at(sq).is(by, PieceType::Pawn)
                {
                    return true;
                }
            }
        }
        if counts[PieceType::Knight as usize] > 0 {
            for d in dir::KNIGHT {
                if let Some(sq) = target.offset(d)
                    && piece_at(sq).is(by, PieceType::Knight)
                {
                    return true;
                }
            }
        }
        for d in dir::KING {
            if let Some(sq) = target.offset(d)
                && piece_at(sq).is(by, PieceType::King)
            {
                return true;
            }
        }
        let straight = counts[PieceType::Rook as usize] + counts[PieceType::Queen as usize] > 0;
        let diagonal = counts[PieceType::Bishop as usize] + counts[PieceType::Queen as usize] > 0;
        if straight {
            for d in dir::STRAIGHT {
                if let Some(p) = first_piece_on_ray(target, d, &piece_at)
                    && p.is_color(by)
                    && p.kind().is_some_and(PieceType::slides_straight)
                {
                    return true;
                }
            }
        }
        if diagonal {
            for d in dir::DIAGONAL {
                if let Some(p) = first_piece_on_ray(target, d, &piece_at)
                    && p.is_color(by)
                    && p.kind().is_some_and(PieceType::slides_diagonally)
                {
                    return true;
                }
            }
        }
        false
    }

    // ----------------------------------------------------------------- piece placement

    /// Puts `piece` on an empty square, keeping lists, counts and key in step.
    pub(super) fn add_piece(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.squares[sq.index()].is_empty());
        self.append_to_list(sq, piece);
        self.squares[sq.index()] = piece;
        self.key ^= keys().piece(piece, sq);
    }

    #[inline]
    pub(super) fn append_to_list(&mut self, sq: Square, piece: Piece) {
        let (c, t) = (piece.color().index(), piece.type_bits() as usize);
        let slot = self.counts[c][t] as usize;
        self.lists[c][t][slot] = sq;
        #[allow(
            clippy::cast_possible_truncation,
            reason = "slot < MAX_OF_A_KIND (the list index above checks it)"
        )]
        let slot = slot as u8;
        self.list_index[sq.index()] = slot;
        self.counts[c][t] += 1;
    }

    /// Removes the piece on `sq` from its list (the last entry fills the hole) and
    /// returns the slot it had, so `restore_to_list` can put it back exactly.
    #[inline]
    pub(super) fn remove_from_list(&mut self, sq: Square, piece: Piece) -> u8 {
        let (c, t) = (piece.color().index(), piece.type_bits() as usize);
        let slot = self.list_index[sq.index()];
        let last = self.counts[c][t] as usize - 1;
        let moved = self.lists[c][t][last];
        self.lists[c][t][slot as usize] = moved;
        self.list_index[moved.index()] = slot;
        self.counts[c][t] -= 1;
        slot
    }

    /// Inverse of `remove_from_list`: the piece returns to `slot` and the piece that had
    /// filled that slot goes back to the end of the list.
    #[inline]
    pub(super) fn restore_to_list(&mut self, sq: Square, piece: Piece, slot: u8) {
        let (c, t) = (piece.color().index(), piece.type_bits() as usize);
        let end = self.counts[c][t] as usize;
        // When the piece was the last entry, nothing filled its slot, and the entry
        // found there now may be stale: there is nothing to move back.
        if (slot as usize) < end {
            let displaced = self.lists[c][t][slot as usize];
            self.lists[c][t][end] = displaced;
            #[allow(
                clippy::cast_possible_truncation,
                reason = "end < MAX_OF_A_KIND (the list index above checks it)"
            )]
            let end = end as u8;
            self.list_index[displaced.index()] = end;
        }
        self.lists[c][t][slot as usize] = sq;
        self.list_index[sq.index()] = slot;
        self.counts[c][t] += 1;
    }

    /// Moves a piece between squares, keeping its list slot.
    #[inline]
    pub(super) fn shift_piece(&mut self, from: Square, to: Square) {
        let piece = self.squares[from.index()];
        let (c, t) = (piece.color().index(), piece.type_bits() as usize);
        let slot = self.list_index[from.index()];
        self.lists[c][t][slot as usize] = to;
        self.list_index[to.index()] = slot;
        self.squares[to.index()] = piece;
        self.squares[from.index()] = Piece::EMPTY;
    }

    /// Checks that the piece lists, counts, list indices and key agree with the board;
    /// returns a description of the first disagreement. For tests and debug assertions.
    pub fn invariant_violation(&self) -> Option<String> {
        for color in [Color::White, Color::Black] {
            for kind in PieceType::ALL {
                for (i, &sq) in self.pieces_of(color, kind).iter().enumerate() {
                    if !self.piece_at(sq).is(color, kind) {
                        return Some(format!(
                            "{color:?} {kind:?} list names {sq}, which holds {:?}",
                            self.piece_at(sq)
                        ));
                    }
                    if self.list_index[sq.index()] as usize != i {
                        return Some(format!(
                            "list index of {sq} is {} not {i}",
                            self.list_index[sq.index()]
                        ));
                    }
                }
            }
        }
        let listed: usize = [Color::White, Color::Black]
            .iter()
            .map(|&c| self.pieces(c).count())
            .sum();
        let on_board = Square::all()
            .filter(|&sq| !self.piece_at(sq).is_empty())
            .count();
        if listed != on_board {
            return Some(format!("{listed} pieces listed, {on_board} on the board"));
        }
        if self.key != self.compute_key() {
            return Some("incremental key differs from the computed one".to_string());
        }
        None
    }

    /// Computes the key from scratch (to check the incremental one).
    pub fn compute_key(&self) -> u64 {
        let keys = keys();
        let mut key = keys.castling(self.castling, self.castle_files);
        if self.side == Color::Black {
            key ^= keys.side();
        }
        if let Some(ep) = self.ep {
            key ^= keys.en_passant(ep);
        }
        for sq in Square::all() {
            let p = self.piece_at(sq);
            if !p.is_empty() {
                key ^= keys.piece(p, sq);
            }
        }
        key
    }
}

impl PartialEq for Board {
    /// Two boards are equal when every FEN-visible field and the key agree; the order of
    /// the live entries of the piece lists is also compared, so that make/unmake round
    /// trips are checked to be exact.
    fn eq(&self, other: &Board) -> bool {
        self.squares == other.squares
            && self.counts == other.counts
            && [Color::White, Color::Black].iter().all(|&c| {
                PieceType::ALL
                    .iter()
                    .all(|&k| self.pieces_of(c, k) == other.pieces_of(c, k))
            })
            && self.side == other.side
            && self.castling == other.castling
            && self.castle_files == other.castle_files
            && self.ep == other.ep
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.key == other.key
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}

/// First non-empty square's piece along a ray from `from` (exclusive), if any.
#[inline(always)]
fn first_piece_on_ray<F: Fn(Square) -> Piece>(from: Square, d: i8, piece_at: &F) -> Option<Piece> {
    let mut sq = from;
    while let Some(next) = sq.offset(d) {
        let p = piece_at(next);
        if !p.is_empty() {
            return Some(p);
        }
        sq = next;
    }
    None
}

/// The castling rights lost by a move touching each square (dense index), for castling
/// pieces that started on `files`.
fn rights_lost_table(files: CastleFiles) -> [u8; 64] {
    std::array::from_fn(|index| {
        let square = Square::all()
            .find(|sq| sq.index64() == index)
            .expect("64 squares");
        files.rights_lost_at(square)
    })
}
