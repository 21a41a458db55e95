//! Legal move generation.
//!
//! Instead of generating pseudo-legal moves and testing each for self-check, the
//! generator first finds the pieces giving check and the pieces pinned to their king,
//! then produces only legal moves: a pinned piece moves only along its pin line, in
//! check only moves that capture the checker or block the line count, and king moves
//! are tested against attacks with the king lifted off its square (so it cannot hide
//! "behind itself" on a checking ray). En passant, the one move that removes two pieces
//! from a rank, is tested on the board as it would be after the capture.

use super::board::Board;
use super::moves::{Move, MoveKind, MoveList};
use super::types::{
    CastleFiles, CastlingRights, Color, Piece, PieceType, Square, dir, is_straight, line_step,
};

/// Set of squares as a 128-bit mask over 0x88 indices.
type SquareSet = u128;

#[inline(always)]
fn bit(sq: Square) -> SquareSet {
    1u128 << sq.index()
}

/// Check and pin facts of the side to move, computed once per generation.
struct KingSafety {
    checkers: u32,
    /// Squares a non-king move may land on: everything when not in check; the checker
    /// and the squares between it and the king when in single check.
    targets: SquareSet,
    pinned: SquareSet,
    /// (pinned piece square, direction from the king towards it).
    pins: [(Square, i8); 8],
    pin_count: usize,
}

impl KingSafety {
    /// Direction of the pin line through a pinned piece, if it is pinned.
    #[inline]
    fn pin_direction(&self, sq: Square) -> Option<i8> {
        if self.pinned & bit(sq) == 0 {
            return None;
        }
        self.pins[..self.pin_count]
            .iter()
            .find(|(s, _)| *s == sq)
            .map(|&(_, d)| d)
    }
}

/// Whether a piece pinned along `pin` (or not pinned) may move in direction `d`.
#[inline(always)]
fn along_pin(pin: Option<i8>, d: i8) -> bool {
    match pin {
        None => true,
        Some(p) => d == p || d == -p,
    }
}

impl Board {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<true>(&mut list);
        list
    }

    /// Appends all legal moves to `list`.
    #[inline]
    pub fn generate_legal(&self, list: &mut MoveList) {
        self.generate::<true>(list);
    }

    /// Appends the legal captures and promotions (the moves quiescence search looks at),
    /// under-promotions included.
    #[inline]
    pub fn generate_captures(&self, list: &mut MoveList) {
        self.generate::<false>(list);
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        !m.is_none() && self.legal_moves().contains(m)
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    fn generate<const QUIETS: bool>(&self, list: &mut MoveList) {
        let us = self.side;
        let safety = self.king_safety(us);
        self.king_moves::<QUIETS>(list);
        if safety.checkers >= 2 {
            return; // only the king can answer a double check
        }
        if QUIETS && safety.checkers == 0 {
            self.castling_moves(list);
        }
        let targets = safety.targets;
        for &from in self.pieces_of(us, PieceType::Pawn) {
            self.pawn_moves::<QUIETS>(list, from, safety.pin_direction(from), targets);
        }
        for &from in self.pieces_of(us, PieceType::Knight) {
            if safety.pin_direction(from).is_none() {
                self.knight_moves::<QUIETS>(list, from, targets);
            }
        }
        for (kind, dirs) in [
            (PieceType::Bishop, &dir::DIAGONAL[..]),
            (PieceType::Rook, &dir::STRAIGHT[..]),
            (PieceType::Queen, &dir::KING[..]),
        ] {
            for &from in self.pieces_of(us, kind) {
                self.slider_moves::<QUIETS>(list, from, dirs, safety.pin_direction(from), targets);
            }
        }
        self.en_passant_moves(list);
    }

    /// The lines out of `target` (bit `i` for `dir::KING[i]`) on which `side` has a
    /// bishop, rook or queen that moves along them: only these can hold a sliding attack
    /// on `target` (a check, a pin, an exchange's attacker), and a few list entries cost
    /// less to look at than eight rays walked to the edge.
    #[inline]
    pub fn slider_lines(&self, target: Square, side: Color) -> u8 {
        let mut lines = 0;
        for kind in [PieceType::Bishop, PieceType::Rook, PieceType::Queen] {
            for &sq in self.pieces_of(side, kind) {
                let step = line_step(target, sq);
                if kind.slides_along(step) {
                    let i = dir::KING
                        .iter()
                        .position(|&d| d == step)
                        .expect("a king step");
                    lines |= 1 << i;
                }
            }
        }
        lines
    }

    /// Directions out of `us`'s king along which an enemy bishop, rook or queen stands
    /// that could move along that line: only these lines can hold a check or a pin.
    #[inline]
    fn lines_with_enemy_sliders(&self, us: Color) -> impl Iterator<Item = i8> + use<> {
        let lines = self.slider_lines(self.king_square(us), us.flip());
        (0..8)
            .filter(move |&i| lines & 1 << i != 0)
            .map(|i| dir::KING[i])
    }

    /// Finds checkers and pins by walking the lines out of the king that hold an enemy
    /// slider, then looking for checking knights and pawns.
    fn king_safety(&self, us: Color) -> KingSafety {
        let them = us.flip();
        let king = self.king_square(us);
        let mut s = KingSafety {
            checkers: 0,
            targets: 0,
            pinned: 0,
            pins: [(Square::default(), 0); 8],
            pin_count: 0,
        };
        for d in self.lines_with_enemy_sliders(us) {
            let straight = is_straight(d);
            let mut ray: SquareSet = 0;
            let mut own: Option<Square> = None;
            let mut sq = king;
            while let Some(next) = sq.offset(d) {
                sq = next;
                ray |= bit(sq);
                let p = self.squares[sq.index()];
                if p.is_empty() {
                    continue;
                }
                if p.is_color(us) {
                    if own.is_some() {
                        break; // two of our own pieces: no pin on this line
                    }
                    own = Some(sq);
                    continue;
                }
                let kind = p.kind().expect("non-empty square");
                let slides = if straight {
                    kind.slides_straight()
                } else {
                    kind.slides_diagonally()
                };
                if slides {
                    match own {
                        Some(pinned) => {
                            s.pinned |= bit(pinned);
                            s.pins[s.pin_count] = (pinned, d);
                            s.pin_count += 1;
                        }
                        None => {
                            s.checkers += 1;
                            s.targets |= ray;
                        }
                    }
                }
                break;
            }
        }
        if self.count(them, PieceType::Knight) > 0 {
            for d in dir::KNIGHT {
                if let Some(sq) = king.offset(d)
                    && self.squares[sq.index()].is(them, PieceType::Knight)
                {
                    s.checkers += 1;
                    s.targets |= bit(sq);
                }
            }
        }
        for side_step in [dir::E, dir::W] {
            if let Some(sq) = king.offset(us.forward() + side_step)
                && self.squares[sq.index()].is(them, PieceType::Pawn)
            {
                s.checkers += 1;
                s.targets |= bit(sq);
            }
        }
        if s.checkers == 0 {
            s.targets = SquareSet::MAX;
        }
        s
    }

    #[inline(always)]
    fn push_pawn_move(&self, list: &mut MoveList, from: Square, to: Square) {
        if to.rank() == self.side.promotion_rank() {
            for p in PieceType::PROMOTIONS {
                list.push(Move::promotion(from, to, p));
            }
        } else {
            list.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    fn pawn_moves<const QUIETS: bool>(
        &self,
        list: &mut MoveList,
        from: Square,
        pin: Option<i8>,
        targets: SquareSet,
    ) {
        let us = self.side;
        let fwd = us.forward();
        // A pawn is never on its promotion rank, so one step forward stays on the board.
        let one = from.offset(fwd).expect("pawn below its last rank");
        if along_pin(pin, fwd) && self.squares[one.index()].is_empty() {
            let promotes = one.rank() == us.promotion_rank();
            if (QUIETS || promotes) && targets & bit(one) != 0 {
                self.push_pawn_move(list, from, one);
            }
            if QUIETS && from.rank() == us.pawn_rank() {
                let two = one.offset(fwd).expect("double push stays on the board");
                if self.squares[two.index()].is_empty() && targets & bit(two) != 0 {
                    list.push(Move::new(from, two, MoveKind::DoublePush));
                }
            }
        }
        for side_step in [dir::E, dir::W] {
            let d = fwd + side_step;
            if !along_pin(pin, d) {
                continue;
            }
            if let Some(to) = from.offset(d)
                && self.squares[to.index()].is_color(us.flip())
                && targets & bit(to) != 0
            {
                self.push_pawn_move(list, from, to);
            }
        }
    }

    #[inline]
    fn knight_moves<const QUIETS: bool>(
        &self,
        list: &mut MoveList,
        from: Square,
        targets: SquareSet,
    ) {
        let us = self.side;
        for d in dir::KNIGHT {
            if let Some(to) = from.offset(d) {
                let p = self.squares[to.index()];
                let allowed = if QUIETS {
                    !p.is_color(us)
                } else {
                    p.is_color(us.flip())
                };
                if allowed && targets & bit(to) != 0 {
                    list.push(Move::new(from, to, MoveKind::Normal));
                }
            }
        }
    }

    #[inline]
    fn slider_moves<const QUIETS: bool>(
        &self,
        list: &mut MoveList,
        from: Square,
        dirs: &[i8],
        pin: Option<i8>,
        targets: SquareSet,
    ) {
        let them = self.side.flip();
        for &d in dirs {
            if !along_pin(pin, d) {
                continue;
            }
            let mut sq = from;
            while let Some(to) = sq.offset(d) {
                sq = to;
                let p = self.squares[to.index()];
                if p.is_empty() {
                    if QUIETS && targets & bit(to) != 0 {
                        list.push(Move::new(from, to, MoveKind::Normal));
                    }
                    continue;
                }
                if p.is_color(them) && targets & bit(to) != 0 {
                    list.push(Move::new(from, to, MoveKind::Normal));
                }
                break;
            }
        }
    }

    fn king_moves<const QUIETS: bool>(&self, list: &mut MoveList) {
        let us = self.side;
        let them = us.flip();
        let from = self.king_square(us);
        for d in dir::KING {
            let Some(to) = from.offset(d) else { continue };
            let p = self.squares[to.index()];
            let allowed = if QUIETS {
                !p.is_color(us)
            } else {
                p.is_color(them)
            };
            if allowed && !self.attacked_without(to, them, from) {
                list.push(Move::new(from, to, MoveKind::Normal));
            }
        }
    }

    /// Attack test with `vacated` treated as empty (the king that is moving away).
    #[inline]
    fn attacked_without(&self, target: Square, by: Color, vacated: Square) -> bool {
        self.attacked_with(target, by, |sq| {
            if sq == vacated {
                Piece::EMPTY
            } else {
                self.squares[sq.index()]
            }
        })
    }

    /// Castling, by the rules that standard chess and Chess960 share: the right still
    /// held; every square the king and the rook cross or land on empty but for the two
    /// of them; the king neither in check (the caller ensures) nor passing through or
    /// landing on an attacked square, judged with both castling pieces lifted off the
    /// board (in Chess960 the rook may stand between an attacker and the king's path).
    fn castling_moves(&self, list: &mut MoveList) {
        let us = self.side;
        let them = us.flip();
        let rank = us.back_rank();
        let king = self.king_square(us);
        for kingside in [true, false] {
            if !self.castling.has(CastlingRights::flag(us, kingside)) {
                continue;
            }
            let rook = self.castle_files.rook_square(us, kingside);
            let king_to = Square::new(CastleFiles::king_target_file(kingside), rank);
            let rook_to = Square::new(CastleFiles::rook_target_file(kingside), rank);
            let ours = |sq: Square| sq == king || sq == rook;
            let crossed = files_between(king, king_to).chain(files_between(rook, rook_to));
            let clear = crossed
                .map(|file| Square::new(file, rank))
                .all(|sq| ours(sq) || self.squares[sq.index()].is_empty());
            let lifted = |sq: Square| {
                if ours(sq) {
                    Piece::EMPTY
                } else {
                    self.squares[sq.index()]
                }
            };
            // The king's own square too: when it does not move, the rook leaving may
            // open a line onto it.
            let safe = || {
                files_between(king, king_to)
                    .map(|file| Square::new(file, rank))
                    .all(|sq| !self.attacked_with(sq, them, lifted))
            };
            if clear && safe() {
                list.push(Move::new(king, king_to, MoveKind::Castle));
            }
        }
    }

    /// En-passant captures (the e.p. square is only set when one is legal, but with two
    /// candidate pawns each needs its own test).
    fn en_passant_moves(&self, list: &mut MoveList) {
        let Some(to) = self.ep else { return };
        for from in self.en_passant_captors(to) {
            list.push(Move::new(from, to, MoveKind::EnPassant));
        }
    }
}

/// The files from `a` to `b`, both included, in either order.
fn files_between(a: Square, b: Square) -> std::ops::RangeInclusive<u8> {
    a.file().min(b.file())..=a.file().max(b.file())
}
