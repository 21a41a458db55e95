//! Static evaluation, from the side to move's point of view, in micro-Max 4's units (a
//! pawn is 74; `to_centipawns` converts for display).
//!
//! Every term is a function of the position alone (micro-Max's notes explain why: terms
//! that depend on how a position was reached drift over a game and can outweigh even a
//! mate). The weights are data (`weights.rs`), fitted to game results (`crate::learn::texel`); the
//! pawn-only terms are kept per pawn structure in each search thread's [`PawnTable`]; the
//! special knowledge (pawn race, KPK, mating technique, scaling) is not tuned.
//! `docs/ARCHITECTURE.md` lists the terms.

mod endgame;
pub mod kpk;
pub mod nnue;
pub mod pawnrace;
mod pawns;
pub mod weights;

use crate::chess::{Board, Color, PieceType, Square};
use kpk::KpkBitbase;
use pawnrace::PawnRaceTable;
pub use pawns::PawnTable;
use pawns::{PawnFiles, PawnShape};
use std::sync::OnceLock;
pub use weights::Weights;

/// A pawn: the internal unit, so `to_centipawns` divides by it.
pub const PAWN_VALUE: i32 = 74;
/// A knight, 3.5 pawns.
pub const KNIGHT_VALUE: i32 = 259;
/// A bishop, 4 pawns: worth more than a knight, as in micro-Max.
pub const BISHOP_VALUE: i32 = 296;
/// A rook, 6 pawns.
pub const ROOK_VALUE: i32 = 444;
/// A queen, 11.5 pawns.
pub const QUEEN_VALUE: i32 = 851;

/// Material value of a piece type (the king has none: it is never traded).
#[inline]
pub const fn piece_value(kind: PieceType) -> i32 {
    match kind {
        PieceType::Pawn => PAWN_VALUE,
        PieceType::Knight => KNIGHT_VALUE,
        PieceType::Bishop => BISHOP_VALUE,
        PieceType::Rook => ROOK_VALUE,
        PieceType::Queen => QUEEN_VALUE,
        PieceType::King => 0,
    }
}

/// Converts an evaluation in internal units to centipawns.
pub fn to_centipawns(score: i32) -> i32 {
    score * 100 / PAWN_VALUE
}

/// Converts centipawns to internal units (saturating at a queen's worth either way:
/// beyond it no setting makes sense).
pub fn from_centipawns(centipawns: i64) -> i32 {
    let limit = i64::from(QUEEN_VALUE);
    let units = centipawns.saturating_mul(i64::from(PAWN_VALUE)) / 100;
    i32::try_from(units.clamp(-limit, limit)).expect("clamped to a queen's value")
}

// ------------------------------------------------------------------ fixed terms
// (the tuned weights are in `weights`)

/// Mobility: the typical number of reachable squares of a knight, bishop, rook and
/// queen, which scores zero.
const MOBILITY_BASELINE: [i32; 4] = [4, 6, 7, 13];
/// Half-moves without a pawn move or capture after which the side ahead is pushed to act.
const FIFTY_MOVE_PRESSURE_START: i32 = 20;
/// Penalty per such half-move for the side ahead.
const FIFTY_MOVE_PRESSURE: i32 = 1;
/// Lead in material from which a side counts as "ahead" for the two terms above.
const AHEAD_MARGIN: i32 = PAWN_VALUE / 2;

/// A pawn the defending king cannot catch (pawn race) or a won KPK ending: most of a
/// queen, less the distance still to run.
const UNSTOPPABLE_PAWN_BONUS: i32 = QUEEN_VALUE - 2 * PAWN_VALUE;
/// When both sides have a runner, the lead (in plies to queen) that decides the race.
const RACE_LEAD_PLIES: i32 = 4;
/// Score of a won KPK position, before the pawn's progress is added.
const KPK_WIN_SCORE: i32 = QUEEN_VALUE;

/// Non-pawn material (in piece counts N/B = 1, R = 2, Q = 4) of a full set, both sides:
/// the phase scale between middlegame (24) and endgame (0).
const FULL_PHASE: i32 = 24;

/// The knowledge tables the evaluation consults, built once.
struct Tables {
    pawn_race: PawnRaceTable,
    kpk: KpkBitbase,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables {
        pawn_race: PawnRaceTable::new(),
        kpk: KpkBitbase::new(),
    })
}

/// Builds the pawn-race and KPK tables now rather than at the first evaluation.
pub fn init() {
    tables();
}

/// Centrality of a square: 0 in the corners up to 6 on the four centre squares (sum of
/// the distances from the board edge in each direction).
#[inline]
fn centrality(sq: Square) -> i32 {
    let edge = |x: u8| i32::from(x.min(7 - x));
    edge(sq.file()) + edge(sq.rank())
}

/// Rank seen from `color`'s side (0 = own first rank).
#[inline]
fn relative_rank(sq: Square, color: Color) -> u8 {
    match color {
        Color::White => sq.rank(),
        Color::Black => 7 - sq.rank(),
    }
}

/// Evaluates `board` for the side to move.
pub fn evaluate(board: &Board) -> i32 {
    evaluate_with(board, &weights::DEFAULT)
}

/// Evaluates `board` for the side to move with the weights `w` (the tuner's entry).
#[inline]
pub fn evaluate_with(board: &Board, w: &Weights) -> i32 {
    for_side_to_move(board, evaluate_white(board, w, None))
}

/// Evaluates `board` for the side to move, taking the pawns' shape from `table` when it
/// holds them (the search's entry): the same score as [`evaluate`].
#[inline]
pub fn evaluate_cached(board: &Board, table: &mut PawnTable) -> i32 {
    for_side_to_move(board, evaluate_white(board, &weights::DEFAULT, Some(table)))
}

#[inline]
fn for_side_to_move(board: &Board, white: i32) -> i32 {
    match board.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// Whether no side can win `board` whatever it does: too little material to mate, two
/// minor pieces or fewer without pawns that cannot force mate, or a K+P vs K ending the
/// bitbase calls drawn. The game manager offers and accepts draws in such positions.
pub fn is_dead_draw(board: &Board) -> bool {
    board.is_insufficient_material() || is_drawn_minor_ending(board) || kpk_score(board) == Some(0)
}

/// Which evaluation a search plays with: the learned one (a network) or the hand-written
/// one. `option Eval` and the self-play tools' `--eval` name them alike.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// A network: the embedded one, or one a file holds.
    Network,
    /// The hand-written evaluation ("classical", as Stockfish's users know it).
    Classical,
}

impl Evaluation {
    /// The names, in the order of [`Evaluation::ALL`]: the default first.
    pub const NAMES: [&'static str; 2] = ["nnue", "classical"];
    /// Every evaluation, in the order of their names.
    pub const ALL: [Evaluation; 2] = [Evaluation::Network, Evaluation::Classical];

    /// The evaluation of `name` (any case), if it is one.
    pub fn named(name: &str) -> Option<Evaluation> {
        let index = Evaluation::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))?;
        Some(Evaluation::ALL[index])
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Evaluation::Network => Evaluation::NAMES[0],
            Evaluation::Classical => Evaluation::NAMES[1],
        }
    }
}

/// Largest score, either way, that the learned evaluation may give (internal units): far
/// beyond any material balance, and far below the mate scores, which it must never reach.
const NETWORK_SCORE_LIMIT: i32 = 10 * QUEEN_VALUE;

/// The learned evaluation's score for the side to move, `centipawns` as the network gave
/// it, in internal units, with the exact knowledge a small network lacks on top: a dead
/// draw scores 0 and K+P vs K the bitbase's verdict, and against a bare king the
/// hand-written evaluation decides, whose mop-up drives that king to the edge (and to the
/// bishop's corner): the network never saw such positions, as self-play games are
/// adjudicated long before them.
pub fn from_network(board: &Board, centipawns: i32) -> i32 {
    if board.is_insufficient_material() || is_drawn_minor_ending(board) {
        return 0;
    }
    if let Some(white) = kpk_score(board) {
        return for_side_to_move(board, white);
    }
    if board.is_bare_king(Color::White) || board.is_bare_king(Color::Black) {
        return evaluate(board);
    }
    let units = i64::from(centipawns) * i64::from(PAWN_VALUE) / 100;
    let limit = i64::from(NETWORK_SCORE_LIMIT);
    i32::try_from(units.clamp(-limit, limit)).expect("clamped to the network's limit")
}

/// Evaluation from White's point of view. `table` must hold shapes for the weights `w`.
fn evaluate_white(board: &Board, w: &Weights, table: Option<&mut PawnTable>) -> i32 {
    if board.is_insufficient_material() || is_drawn_minor_ending(board) {
        return 0;
    }
    if let Some(score) = kpk_score(board) {
        return score;
    }
    let computed;
    let shape = match table {
        Some(table) => table.shape(board),
        None => {
            computed = PawnShape::of(board, w);
            &computed
        }
    };
    let pawns = &shape.files;
    let phase = game_phase(board);
    let material = [Color::White, Color::Black].map(|c| material(board, w, c, phase));
    let material_lead = material[0] - material[1];
    let mut score = material_lead;
    for color in [Color::White, Color::Black] {
        let sign = if color == Color::White { 1 } else { -1 };
        let side = shape.score[color.index()]
            + pawns_among_pieces(board, w, pawns, color, phase)
            + pieces(board, w, pawns, color)
            + activity(board, w, color, phase)
            + king(board, w, pawns, color, phase)
            + placement(board, w, color, phase);
        score += sign * side;
    }
    score += trade_and_fifty_move_terms(board, w, material_lead);
    score += pawn_race(board, pawns);
    score += endgame::mop_up(board);
    endgame::scale(board, score, material_lead)
}

#[allow(
    clippy::cast_possible_wrap,
    reason = "piece counts are at most 10; unchecked as every evaluation calls this"
)]
fn material(board: &Board, w: &Weights, color: Color, phase: i32) -> i32 {
    let [pawns, knights, bishops, rooks, queens] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ]
    .map(|kind| board.count(color, kind) as i32);
    let sum = |pawn: i32, [knight, bishop, rook, queen]: [i32; 4]| {
        pawn * pawns + knight * knights + bishop * bishops + rook * rooks + queen * queens
    };
    blend(
        sum(PAWN_VALUE, w.material),
        sum(w.pawn_endgame, w.material_endgame),
        phase,
    )
}

/// A term's middlegame and endgame values blended by the material left (`phase`).
#[inline]
fn blend(middlegame: i32, endgame: i32, phase: i32) -> i32 {
    (middlegame * phase + endgame * (FULL_PHASE - phase)) / FULL_PHASE
}

/// 24 with all pieces on the board, 0 with kings and pawns only.
#[allow(
    clippy::cast_possible_wrap,
    reason = "the units of at most 32 pieces; unchecked as every evaluation calls this"
)]
fn game_phase(board: &Board) -> i32 {
    let units = |c| {
        board.count(c, PieceType::Knight)
            + board.count(c, PieceType::Bishop)
            + 2 * board.count(c, PieceType::Rook)
            + 4 * board.count(c, PieceType::Queen)
    };
    ((units(Color::White) + units(Color::Black)) as i32).min(FULL_PHASE)
}

/// The pawn terms that also depend on the other pieces: a pawn blocked by its own
/// piece, and passed pawns (whose bonus weighs the kings and the phase).
fn pawns_among_pieces(
    board: &Board,
    w: &Weights,
    pawns: &PawnFiles,
    color: Color,
    phase: i32,
) -> i32 {
    let mut score = 0;
    for &sq in board.pieces_of(color, PieceType::Pawn) {
        if let Some(front) = sq.offset(color.forward())
            && board.piece_at(front).is_color(color)
            && board.piece_at(front).kind() != Some(PieceType::Pawn)
        {
            score -= w.blocked_pawn;
        }
        if pawns.is_passed(sq, color) {
            score += passed_pawn(board, w, sq, color, phase);
        }
    }
    score
}

/// Bonus of a passed pawn: by rank, blended by phase, and in the endgame by how far the
/// defending king is from its path (and how near its own king is).
fn passed_pawn(board: &Board, w: &Weights, sq: Square, color: Color, phase: i32) -> i32 {
    let rank = relative_rank(sq, color);
    let Some(front) = sq.offset(color.forward()) else {
        return 0;
    };
    let distance = |k: Square| i32::from(k.distance(front));
    let progress = i32::from(rank) - 1;
    let kings = progress
        * (w.passer_enemy_king * distance(board.king_square(color.flip()))
            - w.passer_own_king * distance(board.king_square(color)));
    let mut endgame = w.passed_endgame[usize::from(rank)] + kings.max(0);
    let mut middlegame = w.passed_middlegame[usize::from(rank)];
    if !board.piece_at(front).is_empty() {
        endgame /= 2;
        middlegame /= 2;
    }
    blend(middlegame, endgame, phase)
}

fn pieces(board: &Board, w: &Weights, pawns: &PawnFiles, color: Color) -> i32 {
    let mut score = 0;
    for kind in [PieceType::Knight, PieceType::Bishop, PieceType::Queen] {
        let weight = w.centre[kind as usize - 1];
        for &sq in board.pieces_of(color, kind) {
            score += centrality(sq) * weight;
        }
    }
    if board.count(color, PieceType::Bishop) >= 2 {
        score += w.bishop_pair;
    }
    let enemy_king_rank = relative_rank(board.king_square(color.flip()), color);
    for &sq in board.pieces_of(color, PieceType::Rook) {
        let f = i32::from(sq.file());
        if !pawns.has_pawn(color, f) {
            score += if pawns.has_pawn(color.flip(), f) {
                w.rook_half_open_file
            } else {
                w.rook_open_file
            };
        }
        if relative_rank(sq, color) == 6 && enemy_king_rank == 7 {
            score += w.rook_seventh_rank;
        }
    }
    score
}

/// What the activity walk needs to know of each square, as flags over the 0x88 board:
/// one byte load per square visited, where a 64-bit set would first convert the 0x88
/// index to a bit number.
struct SquareMarks([u8; 128]);

impl SquareMarks {
    /// Attacked by an enemy pawn: a piece there can be chased away, so it is no mobility.
    const UNSAFE: u8 = 1;
    /// In the enemy king's zone.
    const KING_ZONE: u8 = 2;

    /// The marks for `color`'s pieces: squares its opponent's pawns attack, and the
    /// opponent king's zone.
    fn for_side(board: &Board, color: Color) -> SquareMarks {
        let them = color.flip();
        let mut marks = SquareMarks([0; 128]);
        for &sq in board.pieces_of(them, PieceType::Pawn) {
            for side in [1, -1] {
                if let Some(target) = sq.offset(them.forward() + side) {
                    marks.set(target, Self::UNSAFE);
                }
            }
        }
        marks.mark_king_zone(board.king_square(them), them);
        marks
    }

    #[inline]
    fn set(&mut self, sq: Square, flag: u8) {
        self.0[sq.index()] |= flag;
    }

    #[inline]
    fn has(&self, sq: Square, flag: u8) -> bool {
        self.0[sq.index()] & flag != 0
    }

    /// The king's square, its neighbours, and the three squares two steps towards the
    /// enemy.
    fn mark_king_zone(&mut self, king: Square, color: Color) {
        self.set(king, Self::KING_ZONE);
        for d in crate::chess::dir::KING {
            if let Some(sq) = king.offset(d) {
                self.set(sq, Self::KING_ZONE);
            }
        }
        if let Some(ahead) = king.offset(2 * color.forward()) {
            self.set(ahead, Self::KING_ZONE);
            for side in [1, -1] {
                if let Some(sq) = ahead.offset(side) {
                    self.set(sq, Self::KING_ZONE);
                }
            }
        }
    }
}

/// Mobility of knights, bishops, rooks and queens, their attack on the enemy king's zone
/// (counted in one walk over each piece's moves), and the threat of enemy pawns to them.
fn activity(board: &Board, w: &Weights, color: Color, phase: i32) -> i32 {
    use crate::chess::dir;
    let marks = SquareMarks::for_side(board, color);
    let mut mobility = 0;
    let mut mobility_endgame = 0;
    let mut attackers = 0;
    let mut attack = 0;
    let mut threatened = 0;
    let kinds: [(PieceType, &[i8], bool); 4] = [
        (PieceType::Knight, &dir::KNIGHT, false),
        (PieceType::Bishop, &dir::DIAGONAL, true),
        (PieceType::Rook, &dir::STRAIGHT, true),
        (PieceType::Queen, &dir::KING, true),
    ];
    for (i, (kind, steps, slides)) in kinds.into_iter().enumerate() {
        for &from in board.pieces_of(color, kind) {
            let mut reach = 0;
            let mut zone_hits = 0;
            for &d in steps {
                let mut sq = from;
                while let Some(next) = sq.offset(d) {
                    sq = next;
                    let p = board.piece_at(sq);
                    if !p.is_color(color) && !marks.has(sq, SquareMarks::UNSAFE) {
                        reach += 1;
                    }
                    if marks.has(sq, SquareMarks::KING_ZONE) {
                        zone_hits += 1;
                    }
                    if !slides || !p.is_empty() {
                        break;
                    }
                }
            }
            mobility += w.mobility[i] * (reach - MOBILITY_BASELINE[i]);
            mobility_endgame += w.mobility_endgame[i] * (reach - MOBILITY_BASELINE[i]);
            if marks.has(from, SquareMarks::UNSAFE) {
                threatened += w.pawn_threat[i];
            }
            if zone_hits > 0 {
                attackers += 1;
                attack += w.king_attack[i] * zone_hits;
            }
        }
    }
    let king_attack = if attackers >= 2 {
        let a = attack.min(w.king_attack_cap);
        a * a / 4 * phase / FULL_PHASE
    } else {
        0
    };
    blend(mobility, mobility_endgame, phase) + king_attack - threatened
}

/// The placement tables' score of `color`'s pieces, blended by phase.
fn placement(board: &Board, w: &Weights, color: Color, phase: i32) -> i32 {
    let mut middlegame = 0;
    let mut endgame = 0;
    for (kind, (row, row_endgame)) in PieceType::ALL
        .into_iter()
        .zip(w.placement.iter().zip(&w.placement_endgame))
    {
        for &sq in board.pieces_of(color, kind) {
            let i = weights::half_board_index(sq.file(), relative_rank(sq, color));
            middlegame += row[i];
            endgame += row_endgame[i];
        }
    }
    blend(middlegame, endgame, phase)
}

/// King placement, blended between the middlegame (stay home, castled, behind pawns)
/// and the endgame (come to the centre) by the amount of material left.
fn king(board: &Board, w: &Weights, pawns: &PawnFiles, color: Color, phase: i32) -> i32 {
    let sq = board.king_square(color);
    let rank = i32::from(relative_rank(sq, color));
    let mut middlegame = -w.king_advance * rank;
    let file = sq.file();
    let castled_file = file <= 2 || file >= 6;
    let rights = board.castling();
    let may_castle = [true, false]
        .into_iter()
        .filter(|&kingside| rights.has(crate::chess::CastlingRights::flag(color, kingside)))
        .count();
    // A king on a wing with its castling rights still held has not castled: a Chess960
    // king that starts there (in standard chess the rights keep the king on e).
    if rank == 0 && castled_file && may_castle == 0 {
        middlegame += w.castled;
        let shelter_files = if file <= 2 { 0..3 } else { 5..8 };
        for f in shelter_files {
            let near = pawns_near_home(board, pawns, color, f);
            if !near {
                middlegame -= w.shelter_pawn;
            }
        }
    }
    middlegame += w.castling_right * i32::try_from(may_castle).unwrap_or(0);
    let endgame = w.king_centre * centrality(sq);
    blend(middlegame, endgame, phase)
}

/// Whether `color` has a pawn on `file` on its 2nd or 3rd rank (a shelter pawn).
fn pawns_near_home(board: &Board, pawns: &PawnFiles, color: Color, file: u8) -> bool {
    if pawns.count[color.index()][file as usize] == 0 {
        return false;
    }
    [1u8, 2].into_iter().any(|r| {
        let rank = match color {
            Color::White => r,
            Color::Black => 7 - r,
        };
        board
            .piece_at(Square::new(file, rank))
            .is(color, PieceType::Pawn)
    })
}

/// From H.G. Muller's micro-Max 4 pages ("the Future"): the side behind dislikes trades,
/// the side ahead likes them and must not let the 50-move counter run.
fn trade_and_fifty_move_terms(board: &Board, w: &Weights, material_diff: i32) -> i32 {
    if material_diff.abs() < AHEAD_MARGIN {
        return 0;
    }
    let sign = material_diff.signum();
    #[allow(
        clippy::cast_possible_wrap,
        reason = "at most 32 pieces; unchecked as every evaluation calls this"
    )]
    let pieces_left =
        (board.non_pawn_pieces(Color::White) + board.non_pawn_pieces(Color::Black)) as i32;
    let traded = (14 - pieces_left).max(0);
    let idle = (i32::from(board.halfmove_clock()) - FIFTY_MOVE_PRESSURE_START).max(0);
    sign * (w.trade * traded - FIFTY_MOVE_PRESSURE * idle)
}

/// Two minor pieces or fewer with no pawns where the stronger side cannot force mate
/// (KNNK, KBKN, KNKN, KBKB): scored as a draw.
fn is_drawn_minor_ending(board: &Board) -> bool {
    let heavy_or_pawns = |c| {
        board.count(c, PieceType::Pawn)
            + board.count(c, PieceType::Rook)
            + board.count(c, PieceType::Queen)
    };
    if heavy_or_pawns(Color::White) + heavy_or_pawns(Color::Black) > 0 {
        return false;
    }
    let minors = |c| board.count(c, PieceType::Knight) + board.count(c, PieceType::Bishop);
    let (w, b) = (minors(Color::White), minors(Color::Black));
    let two_knights = |c| board.count(c, PieceType::Knight) == 2 && minors(c) == 2;
    (w <= 1 && b <= 1)
        || (w == 2 && b == 0 && two_knights(Color::White))
        || (b == 2 && w == 0 && two_knights(Color::Black))
}

/// Exact score of K+P vs K from the bitbase, if that is the material.
fn kpk_score(board: &Board) -> Option<i32> {
    let total_pieces = |c| board.pieces(c).count();
    let (strong, weak) = match (total_pieces(Color::White), total_pieces(Color::Black)) {
        (2, 1) => (Color::White, Color::Black),
        (1, 2) => (Color::Black, Color::White),
        _ => return None,
    };
    let &pawn = board.pieces_of(strong, PieceType::Pawn).first()?;
    let orient = |sq| as_seen_by(strong, sq);
    let strong_to_move = board.side_to_move() == strong;
    let win = tables().kpk.is_win(
        orient(pawn),
        orient(board.king_square(strong)),
        orient(board.king_square(weak)),
        strong_to_move,
    );
    let score = if win {
        KPK_WIN_SCORE + PAWN_VALUE * i32::from(relative_rank(pawn, strong))
    } else {
        0
    };
    Some(if strong == Color::White {
        score
    } else {
        -score
    })
}

/// The 0x88 index of `sq` with `color` playing up the board, as the pawn-race table and
/// the KPK bitbase (both built for a White pawn) expect it.
fn as_seen_by(color: Color, sq: Square) -> u8 {
    match color {
        Color::White => sq.raw(),
        Color::Black => sq.flip_rank().raw(),
    }
}

/// Coulom's pawn race: when a side has only king and pawns, a passed pawn of the other
/// side that its king cannot catch is nearly a queen. If both sides have such a pawn, the
/// one that queens first (counting whose move it is) gets the bonus.
fn pawn_race(board: &Board, pawns: &PawnFiles) -> i32 {
    let runner = |color: Color| -> Option<i32> {
        let defender = color.flip();
        if board.non_pawn_pieces(defender) > 0 {
            return None;
        }
        let orient = |sq| as_seen_by(color, sq);
        let to_move = board.side_to_move() == color;
        let king = orient(board.king_square(color));
        let enemy_king = orient(board.king_square(defender));
        board
            .pieces_of(color, PieceType::Pawn)
            .iter()
            .filter(|&&sq| pawns.is_passed(sq, color) && !own_pawn_in_front(board, sq, color))
            .filter(|&&sq| {
                tables()
                    .pawn_race
                    .can_run(orient(sq), king, enemy_king, to_move)
            })
            .map(|&sq| {
                // Plies until it queens: two per rank to go, one fewer if it is our move,
                // and the double step from the second rank saves a move.
                let rank = i32::from(relative_rank(sq, color));
                let moves = 7 - rank - i32::from(rank == 1);
                2 * moves - i32::from(to_move)
            })
            .min()
    };
    let bonus = |plies: i32| UNSTOPPABLE_PAWN_BONUS - plies * PAWN_VALUE / 8;
    let has_passer = |color: Color| {
        board
            .pieces_of(color, PieceType::Pawn)
            .iter()
            .any(|&sq| pawns.is_passed(sq, color))
    };
    // Safety first (Coulom): a runner is decisive only when the other side has no passed
    // pawn of its own (which could queen with check, or tie the king down: the table
    // lets the defending king chase that pawn, while in the real race it is busy); when
    // both sides run, only a lead of two full moves counts, and only for half.
    match (runner(Color::White), runner(Color::Black)) {
        (Some(w), None) if !has_passer(Color::Black) => bonus(w),
        (None, Some(b)) if !has_passer(Color::White) => -bonus(b),
        (Some(w), Some(b)) if w + RACE_LEAD_PLIES <= b => bonus(w) / 2,
        (Some(w), Some(b)) if b + RACE_LEAD_PLIES <= w => -bonus(b) / 2,
        _ => 0,
    }
}

fn own_pawn_in_front(board: &Board, sq: Square, color: Color) -> bool {
    let mut s = sq;
    while let Some(next) = s.offset(color.forward()) {
        if board.piece_at(next).is(color, PieceType::Pawn) {
            return true;
        }
        s = next;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Board::from_fen(fen).unwrap())
    }

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        assert_eq!(eval_fen(crate::chess::STARTPOS), 0);
        // Colour-flipped positions evaluate the same for the side to move.
        let pairs = [
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
            ),
            (
                "8/5k2/8/3P4/8/8/2K5/8 w - - 0 1",
                "8/2k5/8/8/3p4/8/5K2/8 b - - 0 1",
            ),
            (
                "6k1/5ppp/8/8/8/8/1r3PPP/4R1K1 w - - 0 1",
                "4r1k1/1R3ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
            ),
        ];
        for (a, b) in pairs {
            assert_eq!(eval_fen(a), eval_fen(b), "{a} vs {b}");
        }
    }

    #[test]
    fn placement_reads_each_piece_from_its_own_side_with_the_files_folded() {
        let mut w = weights::DEFAULT.clone();
        w.placement = [[0; weights::HALF_BOARD]; 6];
        w.placement_endgame = [[0; weights::HALF_BOARD]; 6];
        let knight = PieceType::Knight as usize - 1;
        let third_rank_c_or_f = weights::half_board_index(2, 2);
        w.placement[knight][third_rank_c_or_f] = 10;
        w.placement_endgame[knight][third_rank_c_or_f] = 30;
        // White's knight on f3 and Black's on c6 both stand on their own third rank.
        let board = Board::from_fen("4k3/8/2n5/8/8/5N2/8/4K3 w - - 0 1").unwrap();
        let cases = [
            ("White, middlegame", Color::White, FULL_PHASE, 10),
            ("Black, middlegame", Color::Black, FULL_PHASE, 10),
            ("White, endgame", Color::White, 0, 30),
            ("Black, half way", Color::Black, FULL_PHASE / 2, 20),
        ];
        for (name, color, phase, expected) in cases {
            assert_eq!(placement(&board, &w, color, phase), expected, "{name}");
        }
    }

    #[test]
    fn a_piece_attacked_by_a_pawn_costs_its_threat_weight() {
        let mut threat = weights::DEFAULT.clone();
        let mut none = weights::DEFAULT.clone();
        threat.pawn_threat = [50, 0, 0, 0];
        none.pawn_threat = [0; 4];
        let cases = [
            (
                "White knight on d5, Black pawn on e6",
                "r3k3/pp6/4p3/3N4/8/8/PP6/R3K3 w - - 0 1",
                50,
            ),
            (
                "the same knight, the pawn on e7",
                "r3k3/pp2p3/8/3N4/8/8/PP6/R3K3 w - - 0 1",
                0,
            ),
            (
                "Black to move: still White's loss",
                "r3k3/pp6/4p3/3N4/8/8/PP6/R3K3 b - - 0 1",
                -50,
            ),
            (
                "Black knight on e4, White pawn on d3",
                "r3k3/pp6/8/8/4n3/3P4/PP6/R3K3 w - - 0 1",
                -50,
            ),
        ];
        for (name, fen, cost) in cases {
            let board = Board::from_fen(fen).unwrap();
            let drop = evaluate_with(&board, &none) - evaluate_with(&board, &threat);
            assert_eq!(drop, cost, "{name}");
        }
    }

    #[test]
    fn bishop_outweighs_knight_and_extra_material_counts() {
        assert!(
            eval_fen("4k3/8/8/8/8/8/4PPPP/2B1K3 w - - 0 1")
                > eval_fen("4k3/8/8/8/8/8/4PPPP/1N2K3 w - - 0 1")
        );
        assert!(eval_fen("4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1") > 500);
    }

    #[test]
    fn gradual_promotion_bonus_grows_with_the_rank() {
        // A black rook keeps this out of the pawn-race and KPK knowledge.
        let pawn_on = |rank: usize| {
            let mut ranks = ["8"; 8];
            ranks[0] = "4k2r";
            ranks[7] = "4K3";
            ranks[8 - rank] = "P7";
            Board::from_fen(&(ranks.join("/") + " w - - 0 1")).unwrap()
        };
        let mut without = weights::DEFAULT.clone();
        without.promotion_step = 0;
        let step = weights::DEFAULT.promotion_step;
        // The term itself: nothing on the 5th, a step on the 6th, two on the 7th.
        for (rank, steps) in [(5, 0), (6, 1), (7, 2)] {
            let board = pawn_on(rank);
            let bonus = evaluate(&board) - evaluate_with(&board, &without);
            assert_eq!(bonus, steps * step, "pawn on rank {rank}");
        }
        // And with every other term, the pawn is worth more the nearer it is.
        let [fifth, sixth, seventh] = [5, 6, 7].map(|rank| evaluate(&pawn_on(rank)));
        assert!(
            fifth < sixth && sixth < seventh,
            "{fifth} {sixth} {seventh}"
        );
    }

    #[test]
    fn kpk_wins_and_draws_are_recognised() {
        // King in front of its pawn on the 6th: won. Rook pawn with the defender in the corner: drawn.
        assert!(eval_fen("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1") > 700);
        assert_eq!(eval_fen("7k/8/6K1/7P/8/8/8/8 b - - 0 1"), 0);
        assert!(
            eval_fen("8/8/8/8/4p3/4k3/8/4K3 b - - 0 1") > 700,
            "Black to move wins with Ke3"
        );
    }

    #[test]
    fn dead_draws_are_told_from_drawish_and_won_endings() {
        init();
        let cases = [
            ("bare kings", "8/8/4k3/8/8/3K4/8/8 w - - 0 1", true),
            ("knight and king", "8/8/4k3/8/8/3KN3/8/8 w - - 0 1", true),
            (
                "bishop against knight",
                "8/2n5/4k3/8/8/3KB3/8/8 w - - 0 1",
                true,
            ),
            ("two knights", "8/8/4k3/8/8/2NKN3/8/8 b - - 0 1", true),
            (
                "rook pawn, defender in the corner",
                "7k/8/6K1/7P/8/8/8/8 b - - 0 1",
                true,
            ),
            (
                "king in front of its pawn",
                "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1",
                false,
            ),
            (
                "bishop and knight mate",
                "8/8/4k3/8/8/2NKB3/8/8 w - - 0 1",
                false,
            ),
            ("rook up", "8/8/4k3/8/8/R2K4/8/8 w - - 0 1", false),
            (
                "opposite bishops with pawns",
                "8/5b2/4k3/4p3/4P3/3KB3/8/8 w - - 0 1",
                false,
            ),
        ];
        for (name, fen, dead) in cases {
            let board = Board::from_fen(fen).unwrap();
            assert_eq!(is_dead_draw(&board), dead, "{name}");
        }
    }

    #[test]
    fn evaluations_are_named_both_ways() {
        for evaluation in Evaluation::ALL {
            assert_eq!(Evaluation::named(evaluation.name()), Some(evaluation));
        }
        assert_eq!(Evaluation::named("NNUE"), Some(Evaluation::Network));
        assert_eq!(Evaluation::named("Classical"), Some(Evaluation::Classical));
        assert_eq!(Evaluation::named("hce"), None);
    }

    #[test]
    fn the_networks_score_keeps_the_exact_endings_and_stays_below_mate() {
        let bare_kings_and_knight = "8/8/4k3/8/8/3KN3/8/8 w - - 0 1";
        let kpk_win_white_to_move = "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1";
        let kpk_win_black_to_move = "4k3/8/4K3/4P3/8/8/8/8 b - - 0 1";
        let rook_up = "8/8/4k3/8/8/R2K4/8/8 w - - 0 1";
        let rook_and_pawns = "8/5pp1/4k3/8/8/R2K4/6PP/8 w - - 0 1";
        let units = |cp: i32| cp * PAWN_VALUE / 100;
        let cases = [
            // (name, position, network's centipawns, expected internal units)
            (
                "dead draw ignores the network",
                bare_kings_and_knight,
                500,
                Some(0),
            ),
            (
                "K+P vs K: the bitbase, not the network",
                kpk_win_white_to_move,
                -300,
                None,
            ),
            ("against a bare king, the mop-up", rook_up, 400, None),
            (
                "a plain score is converted",
                rook_and_pawns,
                400,
                Some(units(400)),
            ),
            (
                "a huge score is held below mate",
                rook_and_pawns,
                i32::MAX,
                Some(NETWORK_SCORE_LIMIT),
            ),
            (
                "and either way",
                rook_and_pawns,
                i32::MIN,
                Some(-NETWORK_SCORE_LIMIT),
            ),
        ];
        for (name, fen, centipawns, expected) in cases {
            let board = Board::from_fen(fen).unwrap();
            let expected = expected.unwrap_or_else(|| evaluate(&board));
            assert_eq!(from_network(&board, centipawns), expected, "{name}");
        }
        let black = Board::from_fen(kpk_win_black_to_move).unwrap();
        assert_eq!(
            from_network(&black, 300),
            evaluate(&black),
            "K+P vs K, Black to move"
        );
        assert!(evaluate(&black) < 0, "the bitbase's win is Black's loss");
        let board = Board::from_fen(rook_and_pawns).unwrap();
        assert!(from_network(&board, i32::MAX) < crate::search::MATE_BOUND);
    }

    #[test]
    fn unstoppable_passer_beats_the_lone_king_race() {
        // White's a-pawn outruns a far black king (a black pawn keeps KPK out of it); with
        // the black king inside the square the same material is worth far less.
        let far = eval_fen("7k/7p/8/P7/8/8/8/K7 w - - 0 1");
        let near = eval_fen("8/2k4p/8/P7/8/8/8/K7 w - - 0 1");
        assert!(far > near + 300, "far {far} near {near}");
    }
}
