//! A learned evaluation (NNUE, an "efficiently updatable neural network"): the form of
//! the network, its file, and its integer forward pass.
//!
//! The network is a perspective network: 768 inputs per side (a piece of one of six
//! kinds and two colours on one of 64 squares, seen from that side: its own pieces first
//! and the board turned for Black) feed one hidden layer of `hidden` units, the same
//! weights for both sides; the side to move's layer and the other's, clipped to 0..1,
//! feed one output. Because the hidden layer is a sum over the pieces (an accumulator), a
//! move changes it by adding and subtracting a few rows, which is what makes it cheap to
//! keep up to date in a search.
//!
//! The output layer may come in buckets: one set of output weights per band of material
//! on the board (pieces counted, kings included), so that an ending and a middlegame
//! weigh the same hidden units differently at the cost of a few hundred weights.
//!
//! The hidden units pass through an activation, clipped (0..1) or squared after clipping
//! (0..1, then squared: a smoother response the network can use to weigh large values).
//!
//! Integers: the hidden weights and biases are scaled by `QA` (clipping is to 0..QA), the
//! output weights by `QB`; the output, divided by QA·QB, is the score in units of
//! `OUTPUT_SCALE` centipawns (a squared unit is divided by QA once first, so that it is on
//! the same scale). The trainer (`crate::learn::train`) works in floats and rounds to this
//! form at the end.
//!
//! The inputs may also come in buckets by the king's square (`king`): several sets of
//! input weights, each side's pieces read through the set its own king picks, the board
//! optionally turned left to right so that the king stands on the a-d files.
//!
//! The inner loops (following a move in the accumulators, the output layer's sums) run on
//! the widest vectors the CPU has, chosen once when a network is made (`simd`: AVX-512,
//! AVX2 or plain Rust), with the same result bit for bit on every path.

use crate::chess::{Board, Color, Move, Piece, PieceType, Square};
use std::fmt;
use std::sync::{Arc, OnceLock};

mod king;
mod simd;

pub use king::{KingLayout, KingView, MAX_KING_SETS};
pub use simd::Kernels;

/// Inputs per side in one set of input weights: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;
/// Scale of the hidden layer's weights and biases, and its clipping bound.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const OUTPUT_SCALE: i32 = 400;
/// The file's first bytes.
const MAGIC: &[u8; 4] = b"FXNN";
/// The file format's version: 4 adds the king buckets (a mirror flag and a set for each
/// king square) after the output buckets.
const VERSION: u32 = 4;
/// The third format, read still and written for networks without king buckets (so that
/// older builds read them): output buckets after the activation.
const VERSION_OUTPUT_BUCKETS: u32 = 3;
/// The second format, read still: an activation and one output bucket.
const VERSION_ONE_BUCKET: u32 = 2;
/// The first format, read still: no activation in the header, one output bucket.
const VERSION_CLIPPED: u32 = 1;
/// Largest hidden layer a file may declare.
const MAX_HIDDEN: usize = 4096;
/// Most output buckets a file may declare (one per count of pieces from 2 to 32 at most).
pub const MAX_BUCKETS: usize = 31;
/// Pieces on a board at least (the kings) and at most (the start position).
const FEWEST_PIECES: u32 = 2;
const MOST_PIECES: u32 = 32;
/// `MOST_PIECES` as a count of rows.
const MAX_PIECES: usize = MOST_PIECES as usize;

/// The output bucket of a position with `pieces` pieces (kings included) in a network of
/// `buckets` buckets: the counts from 2 to 32 shared out evenly, fewest pieces first.
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let span = (MOST_PIECES - FEWEST_PIECES + 1) as usize;
    let above_fewest = pieces.clamp(FEWEST_PIECES, MOST_PIECES) - FEWEST_PIECES;
    above_fewest as usize * buckets / span
}

/// The network built into the engine, the evaluation it plays with unless told otherwise
/// (`docs/network.md` says how it was made). Read once, shared by every search.
pub fn embedded() -> Arc<Network> {
    static EMBEDDED: OnceLock<Arc<Network>> = OnceLock::new();
    EMBEDDED
        .get_or_init(|| {
            let bytes = include_bytes!("nets/fx11-h128k4.bin");
            Arc::new(Network::from_bytes(bytes).expect("the embedded network is well formed"))
        })
        .clone()
}

/// The input a piece on a square is, seen from `perspective`'s side: its own pieces first,
/// the board turned (rank mirrored) for Black, in the set (and with the file flip) that
/// side's king decides.
#[inline]
pub fn feature(perspective: Color, piece: Piece, square: Square, king: KingView) -> usize {
    let kind = usize::from(piece.type_bits()) - 1;
    let theirs = usize::from(piece.color() != perspective);
    let index = square.index64();
    let seen = match perspective {
        Color::White => index,
        // Rank r becomes rank 7 − r: the square index's rank bits flipped.
        Color::Black => index ^ 56,
    };
    king.offset + (theirs * 6 + kind) * 64 + (seen ^ king.flip)
}

/// What each side's king (White's first) decides about its inputs on `board`.
#[inline]
fn king_views(board: &Board, kings: &KingLayout) -> [KingView; 2] {
    [Color::White, Color::Black].map(|side| kings.view(side, board.king_square(side), INPUTS))
}

/// The active inputs of `board` for each side (White's first), under the king buckets
/// `kings`.
pub fn features(board: &Board, kings: &KingLayout) -> [Vec<usize>; 2] {
    let [white_king, black_king] = king_views(board, kings);
    let mut both = [Vec::with_capacity(32), Vec::with_capacity(32)];
    for sq in Square::all() {
        let piece = board.piece_at(sq);
        if !piece.is_empty() {
            both[0].push(feature(Color::White, piece, sq, white_king));
            both[1].push(feature(Color::Black, piece, sq, black_king));
        }
    }
    both
}

/// What a hidden unit does to its sum before the output layer weighs it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Activation {
    /// Clipped to 0..1 ("CReLU").
    #[default]
    Clipped,
    /// Clipped to 0..1, then squared ("SCReLU").
    SquaredClipped,
}

impl Activation {
    /// The names the trainer's `--activation` takes, in the order of their file codes.
    pub const NAMES: [&'static str; 2] = ["crelu", "screlu"];
    const ALL: [Activation; 2] = [Activation::Clipped, Activation::SquaredClipped];

    /// The activation of a name in `NAMES`.
    pub fn named(name: &str) -> Option<Activation> {
        let at = Self::NAMES.iter().position(|n| *n == name)?;
        Some(Self::ALL[at])
    }

    /// Its number in a network file.
    fn code(self) -> u32 {
        match self {
            Activation::Clipped => 0,
            Activation::SquaredClipped => 1,
        }
    }

    fn from_code(code: u32) -> Option<Activation> {
        Self::ALL.into_iter().find(|a| a.code() == code)
    }
}

impl fmt::Display for Activation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = Self::ALL.iter().position(|a| a == self).unwrap_or(0);
        f.write_str(Self::NAMES[at])
    }
}

/// A network in integers, as the engine evaluates with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    activation: Activation,
    /// Which set of input weights each side's king picks.
    kings: KingLayout,
    /// Whether `kings` has more than one set or mirrors: the king's square matters to
    /// the inputs (kept, as the update of every move asks it).
    follows_kings: bool,
    /// `INPUTS` rows of `hidden` weights for each set of the king layout: the row of
    /// input `f` starts at `f * hidden`.
    input_weights: Vec<i16>,
    hidden_bias: Vec<i16>,
    /// Per output bucket: the side to move's `hidden` weights, then the other side's.
    output_weights: Vec<i16>,
    /// Per output bucket.
    output_bias: Vec<i32>,
    /// Whether one side's sum of squared units fits i32 whatever the units are, in every
    /// bucket (true for trained networks, whose output weights are small): then the
    /// output layer adds in i32, twice the lanes of i64 in the vectorised loop.
    squared_fits_i32: bool,
    /// The form of the inner loops it runs (the CPU's widest unless told otherwise); every
    /// form gives the same numbers.
    kernels: Kernels,
}

/// Why bytes are not a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// Not a file of this format (its first bytes).
    NotANetwork,
    /// A version this engine does not read.
    Version(u32),
    /// A hidden layer of no units or too many.
    Hidden(usize),
    /// No output buckets or too many.
    Buckets(usize),
    /// A king bucket table naming a set past `MAX_KING_SETS`, or a mirror flag not 0 or 1.
    KingBuckets,
    /// An activation this engine does not know (its code).
    Activation(u32),
    /// Shorter or longer than the header says.
    Length {
        /// Bytes the header implies.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::NotANetwork => f.write_str("not a Ferrimax network file"),
            NetworkError::Version(v) => write!(f, "network format version {v} is not read here"),
            NetworkError::Hidden(n) => write!(f, "a hidden layer of {n} units"),
            NetworkError::Buckets(n) => write!(f, "{n} output buckets"),
            NetworkError::KingBuckets => f.write_str("a bad king bucket table"),
            NetworkError::Activation(code) => write!(f, "unknown activation {code}"),
            NetworkError::Length { expected, found } => {
                write!(f, "{found} bytes where the header says {expected}")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

/// Where a version 4 file keeps its king buckets: the mirror flag (4 bytes), then one
/// byte for each king square.
const KING_MIRROR_AT: usize = 20;
const KING_TABLE_AT: usize = 24;

/// The bytes of a file's header (magic, version, hidden units and, from version 2, the
/// activation, from version 3 the output buckets, from version 4 the king buckets).
fn header_length(version: u32) -> usize {
    match version {
        VERSION_CLIPPED => 12,
        VERSION_ONE_BUCKET => 16,
        VERSION_OUTPUT_BUCKETS => 20,
        _ => KING_TABLE_AT + 64,
    }
}

/// The bytes of a file of `version` with a hidden layer of `hidden` units, `buckets`
/// output buckets and `sets` sets of input weights.
fn file_length(version: u32, hidden: usize, buckets: usize, sets: usize) -> usize {
    header_length(version)
        + 2 * (sets * INPUTS * hidden + hidden + buckets * 2 * hidden)
        + 4 * buckets
}

impl Network {
    /// A network from its parts (as many output buckets as output biases), without king
    /// buckets; `None` when their sizes do not agree.
    pub fn new(
        input_weights: Vec<i16>,
        hidden_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Option<Network> {
        Network::with_kings(
            KingLayout::NONE,
            input_weights,
            hidden_bias,
            output_weights,
            output_bias,
        )
    }

    /// A network from its parts with the king buckets `kings` (as many sets of input rows
    /// as it needs); `None` when their sizes do not agree.
    pub fn with_kings(
        kings: KingLayout,
        input_weights: Vec<i16>,
        hidden_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Option<Network> {
        let hidden = hidden_bias.len();
        let buckets = output_bias.len();
        let agree = (1..=MAX_HIDDEN).contains(&hidden)
            && (1..=MAX_BUCKETS).contains(&buckets)
            && input_weights.len() == kings.sets() * INPUTS * hidden
            && output_weights.len() == buckets * 2 * hidden;
        if !agree {
            return None;
        }
        let squared_fits_i32 = output_weights
            .chunks(2 * hidden)
            .all(|bucket| squared_sum_bound(bucket) <= i64::from(i32::MAX));
        Some(Network {
            hidden,
            activation: Activation::Clipped,
            kings,
            follows_kings: !kings.is_none(),
            input_weights,
            hidden_bias,
            output_weights,
            output_bias,
            squared_fits_i32,
            kernels: Kernels::detect(),
        })
    }

    /// The same network running its inner loops in the form `kernels` (the portable one,
    /// or another that `Kernels::available` lists), for comparing the forms.
    #[must_use]
    pub fn with_kernels(mut self, kernels: Kernels) -> Network {
        self.kernels = kernels;
        self
    }

    /// The form of the inner loops it runs.
    pub fn kernels(&self) -> Kernels {
        self.kernels
    }

    /// The same network with `activation` in its hidden layer.
    #[must_use]
    pub fn with_activation(mut self, activation: Activation) -> Network {
        self.activation = activation;
        self
    }

    /// The activation of its hidden layer.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// Units of the hidden layer.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// Its king buckets.
    pub fn king_layout(&self) -> &KingLayout {
        &self.kings
    }

    /// Its integer weights, in `new`'s order (input rows of every king set, hidden biases,
    /// output weights, output biases): the trainer starts from them to go on learning on
    /// new data.
    pub fn weights(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (
            &self.input_weights,
            &self.hidden_bias,
            &self.output_weights,
            &self.output_bias,
        )
    }

    /// The file: magic, version, hidden units, activation, output buckets, the king
    /// buckets (version 4 only: without them the file is of version 3), then every weight
    /// little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let version = if self.kings.is_none() {
            VERSION_OUTPUT_BUCKETS
        } else {
            VERSION
        };
        let sets = self.kings.sets();
        let mut bytes = Vec::with_capacity(file_length(version, self.hidden, self.buckets(), sets));
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&version.to_le_bytes());
        let hidden = u32::try_from(self.hidden).expect("at most MAX_HIDDEN");
        bytes.extend_from_slice(&hidden.to_le_bytes());
        bytes.extend_from_slice(&self.activation.code().to_le_bytes());
        let buckets = u32::try_from(self.buckets()).expect("at most MAX_BUCKETS");
        bytes.extend_from_slice(&buckets.to_le_bytes());
        if version == VERSION {
            let (table, mirror) = self.kings.parts();
            bytes.extend_from_slice(&u32::from(mirror).to_le_bytes());
            bytes.extend_from_slice(table);
        }
        for w in self
            .input_weights
            .iter()
            .chain(&self.hidden_bias)
            .chain(&self.output_weights)
        {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            bytes.extend_from_slice(&b.to_le_bytes());
        }
        bytes
    }

    /// The network in the file at `path`; the error says why there is none (unreadable
    /// file or bad contents), for the `EvalFile` option and the command line alike.
    pub fn read(path: impl AsRef<std::path::Path>) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        Network::from_bytes(&bytes).map_err(|e| e.to_string())
    }

    /// Reads a file (the inverse of `to_bytes`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < 12 || &bytes[..4] != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        let word = |at: usize| {
            bytes
                .get(at..at + 4)
                .map_or(0, |b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
        };
        let version = word(4);
        let versions = [
            VERSION,
            VERSION_OUTPUT_BUCKETS,
            VERSION_ONE_BUCKET,
            VERSION_CLIPPED,
        ];
        if !versions.contains(&version) {
            return Err(NetworkError::Version(version));
        }
        let hidden = usize::try_from(word(8)).unwrap_or(usize::MAX);
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(NetworkError::Hidden(hidden));
        }
        let buckets = if version >= VERSION_OUTPUT_BUCKETS {
            usize::try_from(word(16)).unwrap_or(usize::MAX)
        } else {
            1
        };
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(NetworkError::Buckets(buckets));
        }
        let kings = if version == VERSION {
            let table = bytes
                .get(KING_TABLE_AT..KING_TABLE_AT + 64)
                .and_then(|t| <[u8; 64]>::try_from(t).ok());
            let mirror = match word(KING_MIRROR_AT) {
                0 => Some(false),
                1 => Some(true),
                _ => None,
            };
            table
                .zip(mirror)
                .and_then(|(table, mirror)| KingLayout::from_parts(table, mirror))
                .ok_or(NetworkError::KingBuckets)?
        } else {
            KingLayout::NONE
        };
        let expected = file_length(version, hidden, buckets, kings.sets());
        if bytes.len() != expected {
            return Err(NetworkError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let activation = if version == VERSION_CLIPPED {
            Activation::Clipped
        } else {
            Activation::from_code(word(12)).ok_or(NetworkError::Activation(word(12)))?
        };
        let biases_at = expected - 4 * buckets;
        let mut shorts = bytes[header_length(version)..biases_at]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        let mut take = |n: usize| shorts.by_ref().take(n).collect::<Vec<i16>>();
        let input_weights = take(kings.sets() * INPUTS * hidden);
        let hidden_bias = take(hidden);
        let output_weights = take(buckets * 2 * hidden);
        let output_bias = bytes[biases_at..]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        Network::with_kings(
            kings,
            input_weights,
            hidden_bias,
            output_weights,
            output_bias,
        )
        .map(|net| net.with_activation(activation))
        .ok_or(NetworkError::Hidden(hidden))
    }

    /// The accumulators of `board` computed from scratch: the biases plus the row of
    /// every active input.
    pub fn accumulate(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            sides: [vec![0; self.hidden], vec![0; self.hidden]],
        };
        for (side, perspective) in [Color::White, Color::Black].into_iter().enumerate() {
            self.refresh(board, perspective, &mut acc.sides[side]);
        }
        acc
    }

    /// `perspective`'s hidden layer of `board` from scratch: the biases plus the row of
    /// every piece's input (a board has at most `MAX_PIECES`), without touching the heap,
    /// as a search does when a king changes set.
    fn refresh(&self, board: &Board, perspective: Color, side: &mut [i16]) {
        let king = self
            .kings
            .view(perspective, board.king_square(perspective), INPUTS);
        let mut rows = [&[][..]; MAX_PIECES];
        let mut count = 0;
        for sq in Square::all() {
            let piece = board.piece_at(sq);
            if !piece.is_empty() && count < MAX_PIECES {
                rows[count] = self.row(feature(perspective, piece, sq, king));
                count += 1;
            }
        }
        self.kernels
            .apply(side, &self.hidden_bias, &rows[..count], &[]);
    }

    fn row(&self, feature: usize) -> &[i16] {
        &self.input_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The accumulators after a move into `child`: `parent`'s (the position before it)
    /// with the rows of the pieces it `changes` subtracted where they were and added where
    /// they are, in one pass over each side; `after` is the position after the move. A
    /// side whose king moved into another set of input weights (or across a mirroring
    /// layout's d/e line) is computed afresh from `after` instead.
    pub fn apply(
        &self,
        parent: &Accumulator,
        changes: &PieceChanges,
        after: &Board,
        child: &mut Accumulator,
    ) {
        for (side, perspective) in [Color::White, Color::Black].into_iter().enumerate() {
            let mut king = KingView::default();
            if self.follows_kings {
                king = self
                    .kings
                    .view(perspective, after.king_square(perspective), INPUTS);
                let crossed = changes
                    .king_from(perspective)
                    .is_some_and(|from| self.kings.view(perspective, from, INPUTS) != king);
                if crossed {
                    self.refresh(after, perspective, &mut child.sides[side]);
                    continue;
                }
            }
            let mut adds = [&[][..]; MAX_CHANGES];
            let mut subs = [&[][..]; MAX_CHANGES];
            let (mut added, mut subtracted) = (0, 0);
            for &(piece, from, to) in changes.as_slice() {
                if let Some(from) = from {
                    subs[subtracted] = self.row(feature(perspective, piece, from, king));
                    subtracted += 1;
                }
                if let Some(to) = to {
                    adds[added] = self.row(feature(perspective, piece, to, king));
                    added += 1;
                }
            }
            self.kernels.apply(
                &mut child.sides[side],
                &parent.sides[side],
                &adds[..added],
                &subs[..subtracted],
            );
        }
    }

    /// The score in centipawns for the side to move of `board`, whose accumulators `acc`
    /// are (the board gives the side and the output bucket).
    pub fn evaluate(&self, acc: &Accumulator, board: &Board) -> i32 {
        let (us, them) = match board.side_to_move() {
            Color::White => (&acc.sides[0], &acc.sides[1]),
            Color::Black => (&acc.sides[1], &acc.sides[0]),
        };
        let bucket = output_bucket(board.piece_count(), self.buckets());
        let weights = &self.output_weights[bucket * 2 * self.hidden..][..2 * self.hidden];
        let (ours, theirs) = weights.split_at(self.hidden);
        let k = self.kernels;
        // Each side's sum in QA·QB units (clipped: its i32 sum wraps rather than panics for
        // a file made to overflow it) or QA·QA·QB units (squared: in i32 where
        // `squared_fits_i32` says no sum can wrap, else i64), then added in i64.
        let output = match self.activation {
            Activation::Clipped => {
                i64::from(k.clipped_sum(us, ours)) + i64::from(k.clipped_sum(them, theirs))
            }
            Activation::SquaredClipped if self.squared_fits_i32 => {
                (i64::from(k.squared_sum_i32(us, ours))
                    + i64::from(k.squared_sum_i32(them, theirs)))
                    / i64::from(QA)
            }
            Activation::SquaredClipped => {
                (k.squared_sum_i64(us, ours) + k.squared_sum_i64(them, theirs)) / i64::from(QA)
            }
        } + i64::from(self.output_bias[bucket]);
        let centipawns = output * i64::from(OUTPUT_SCALE) / i64::from(QA * QB);
        i32::try_from(centipawns).unwrap_or(if centipawns > 0 { i32::MAX } else { i32::MIN })
    }
}

/// The largest magnitude one side's sum of squared units can reach in one bucket (its
/// `output_weights`): every unit at QA, each weight's sign on its side.
fn squared_sum_bound(output_weights: &[i16]) -> i64 {
    let half = output_weights.len() / 2;
    let (ours, theirs) = output_weights.split_at(half);
    let total = |weights: &[i16]| weights.iter().map(|&w| i64::from(w).abs()).sum::<i64>();
    total(ours).max(total(theirs)) * i64::from(QA * QA)
}

/// The hidden layer of both sides for one position (White's first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    sides: [Vec<i16>; 2],
}

/// Most pieces one move changes (a capture with promotion: the captured piece, the pawn,
/// the new piece; castling: king and rook).
const MAX_CHANGES: usize = 3;

/// The pieces a move changes, as `Board::piece_moves` lists them (each from a square, to
/// a square or both): what the accumulators need to follow the move, taken from the board
/// before it, and small enough to keep until they do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceChanges {
    changes: [(Piece, Option<Square>, Option<Square>); MAX_CHANGES],
    len: usize,
}

impl PieceChanges {
    /// No change: a null move.
    pub const NONE: PieceChanges = PieceChanges {
        changes: [(Piece::EMPTY, None, None); MAX_CHANGES],
        len: 0,
    };

    /// The changes of `m`, a move of `board` not made yet.
    #[inline]
    pub fn of(board: &Board, m: Move) -> PieceChanges {
        let mut all = PieceChanges::NONE;
        for change in board.piece_moves(m) {
            all.changes[all.len] = change;
            all.len += 1;
        }
        all
    }

    fn as_slice(&self) -> &[(Piece, Option<Square>, Option<Square>)] {
        &self.changes[..self.len]
    }

    /// The square `color`'s king left, when these changes move it.
    #[inline]
    fn king_from(&self, color: Color) -> Option<Square> {
        let king = Piece::new(color, PieceType::King);
        self.as_slice()
            .iter()
            .find(|&&(piece, _, _)| piece == king)
            .and_then(|&(_, from, _)| from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::PieceType;
    use crate::learn::SplitMix;

    /// A small network whose weights follow a fixed pattern.
    fn patterned(hidden: usize) -> Network {
        let weight = |i: usize, m: usize| {
            let (v, m) = (
                i16::try_from(i * 7919 % m).unwrap(),
                i16::try_from(m).unwrap(),
            );
            v - m / 2
        };
        Network::new(
            (0..INPUTS * hidden).map(|i| weight(i, 61)).collect(),
            (0..hidden).map(|i| weight(i, 97) + 40).collect(),
            (0..2 * hidden).map(|i| weight(i, 53)).collect(),
            vec![1234],
        )
        .unwrap()
    }

    /// A patterned network with `buckets` output buckets, each weighing differently.
    fn bucketed(hidden: usize, buckets: usize) -> Network {
        let one = patterned(hidden);
        let output_weights = (0..buckets)
            .flat_map(|b| {
                let shift = i16::try_from(b).unwrap();
                one.output_weights.iter().map(move |&w| w + shift)
            })
            .collect();
        let biases = (0..buckets).map(|b| 1234 + 100 * i32::try_from(b).unwrap());
        Network::new(
            one.input_weights.clone(),
            one.hidden_bias.clone(),
            output_weights,
            biases.collect(),
        )
        .unwrap()
    }

    /// A patterned network with the four-set king layout turning the board (when
    /// `mirror`) or not, each set weighing differently.
    fn king_bucketed(hidden: usize, mirror: bool) -> Network {
        let one = patterned(hidden);
        let kings = KingLayout::preset(4).unwrap().with_mirror(mirror);
        let input_weights = (0..kings.sets())
            .flat_map(|set| {
                let shift = i16::try_from(set * 3).unwrap();
                one.input_weights.iter().map(move |&w| w - shift)
            })
            .collect();
        Network::with_kings(
            kings,
            input_weights,
            one.hidden_bias.clone(),
            one.output_weights.clone(),
            one.output_bias.clone(),
        )
        .unwrap()
    }

    #[test]
    fn features_mirror_for_black() {
        let pawn = Piece::new(Color::White, PieceType::Pawn);
        let e2 = Square::parse("e2").unwrap();
        let e7 = Square::parse("e7").unwrap();
        let black_pawn = Piece::new(Color::Black, PieceType::Pawn);
        let plain = KingView::default();
        assert_eq!(
            feature(Color::White, pawn, e2, plain),
            feature(Color::Black, black_pawn, e7, plain)
        );
        assert!(feature(Color::White, black_pawn, e7, plain) >= 6 * 64);
        let all = features(&Board::startpos(), &KingLayout::NONE);
        assert_eq!(all[0].len(), 32);
        let mut mirrored = all[1].clone();
        mirrored.sort_unstable();
        let mut white = all[0].clone();
        white.sort_unstable();
        assert_eq!(mirrored, white, "the start position is symmetric");
    }

    /// Under a mirroring king layout a position and its mirror image (files a-h swapped)
    /// have the same inputs, and the king's set moves every input of its side by a set.
    #[test]
    fn king_buckets_pick_a_set_and_turn_the_board() {
        let kings = KingLayout::preset(4).unwrap().with_mirror(true);
        let sorted = |fen: &str| {
            features(&Board::from_fen(fen).unwrap(), &kings).map(|mut v| {
                v.sort_unstable();
                v
            })
        };
        assert_eq!(
            sorted("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1 w - - 1 6"),
            sorted("1kr1qb1r/ppp1pppp/2n2n2/3p1b2/3P1B2/2N1P3/PPP2PPP/1KR1QBNR w - - 1 6"),
        );
        // White's king castled (set 0), then on the second rank (set 2): its side's
        // inputs move to the other set; Black's king stays castled, its inputs in set 0.
        let castled = sorted("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1");
        let stepped = sorted("6k1/5ppp/8/8/8/8/4KPPP/8 w - - 0 1");
        let within = |inputs: &[usize], set: usize| {
            inputs
                .iter()
                .all(|&f| (set * INPUTS..(set + 1) * INPUTS).contains(&f))
        };
        assert!(within(&castled[0], 0) && within(&castled[1], 0));
        assert!(within(&stepped[0], 2) && within(&stepped[1], 0));
    }

    #[test]
    fn a_network_file_reads_back_and_bad_files_are_refused() {
        let net = patterned(8);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
        assert_eq!(
            Network::from_bytes(b"nonsense"),
            Err(NetworkError::NotANetwork)
        );
        assert_eq!(
            bytes[4..8],
            VERSION_OUTPUT_BUCKETS.to_le_bytes(),
            "no king buckets"
        );
        let truncated = &bytes[..bytes.len() - 3];
        assert!(matches!(
            Network::from_bytes(truncated),
            Err(NetworkError::Length { .. })
        ));
        let mut future = bytes.clone();
        future[4] = 9;
        assert_eq!(Network::from_bytes(&future), Err(NetworkError::Version(9)));
        let mut unknown = bytes.clone();
        unknown[12] = 7;
        assert_eq!(
            Network::from_bytes(&unknown),
            Err(NetworkError::Activation(7))
        );
    }

    /// Each activation and bucket count survives the file; a first-format file (no
    /// activation in its header, as the first networks were written) reads as clipped,
    /// and first- and second-format files have one output bucket.
    #[test]
    fn activation_and_buckets_are_kept_in_the_file_and_old_files_are_read() {
        for activation in [Activation::Clipped, Activation::SquaredClipped] {
            for buckets in [1, 8] {
                let net = bucketed(8, buckets).with_activation(activation);
                let read = Network::from_bytes(&net.to_bytes()).unwrap();
                assert_eq!(read.activation(), activation);
                assert_eq!(read.buckets(), buckets);
                assert_eq!(read, net);
            }
        }
        let squared = patterned(8).with_activation(Activation::SquaredClipped);
        let mut second = squared.to_bytes();
        second.drain(16..20);
        second[4..8].copy_from_slice(&VERSION_ONE_BUCKET.to_le_bytes());
        assert_eq!(Network::from_bytes(&second), Ok(squared.clone()));
        let mut old = second;
        old.drain(12..16);
        old[4..8].copy_from_slice(&VERSION_CLIPPED.to_le_bytes());
        let read = Network::from_bytes(&old).unwrap();
        assert_eq!(read, patterned(8));
        let mut no_buckets = patterned(8).to_bytes();
        no_buckets[16] = 0;
        assert_eq!(
            Network::from_bytes(&no_buckets),
            Err(NetworkError::Buckets(0))
        );
        for name in Activation::NAMES {
            assert_eq!(Activation::named(name).unwrap().to_string(), name);
        }
    }

    /// A king-bucketed network is written in the fourth format and reads back with its
    /// layout; a table naming a set too many, or a mirror flag neither 0 nor 1, is refused.
    #[test]
    fn king_buckets_are_kept_in_the_file() {
        let net = king_bucketed(8, true).with_activation(Activation::SquaredClipped);
        let bytes = net.to_bytes();
        assert_eq!(bytes[4..8], VERSION.to_le_bytes());
        assert_eq!(bytes.len(), file_length(VERSION, 8, 1, 4));
        let read = Network::from_bytes(&bytes).unwrap();
        assert_eq!(
            read.king_layout(),
            &KingLayout::preset(4).unwrap().with_mirror(true)
        );
        assert_eq!(read, net);
        let mut bad_set = bytes.clone();
        bad_set[KING_TABLE_AT + 20] = u8::try_from(MAX_KING_SETS).unwrap();
        assert_eq!(
            Network::from_bytes(&bad_set),
            Err(NetworkError::KingBuckets)
        );
        let mut bad_flag = bytes.clone();
        bad_flag[KING_MIRROR_AT] = 2;
        assert_eq!(
            Network::from_bytes(&bad_flag),
            Err(NetworkError::KingBuckets)
        );
        let mut more_sets = bytes;
        more_sets[KING_TABLE_AT + 63] = 4;
        assert!(matches!(
            Network::from_bytes(&more_sets),
            Err(NetworkError::Length { .. })
        ));
    }

    /// The i32 sum of squared units serves only networks whose sums cannot overflow it,
    /// and gives the i64 sum's value: for patterned weights, and for weights so large
    /// that only i64 holds the sum.
    #[test]
    fn the_narrow_squared_sum_equals_the_wide_one() {
        let board = Board::startpos();
        let small = patterned(16).with_activation(Activation::SquaredClipped);
        assert!(small.squared_fits_i32);
        let acc = small.accumulate(&board);
        for side in [Color::White, Color::Black] {
            let (values, weights) = (&acc.sides[side.index()], &small.output_weights[..16]);
            for k in Kernels::available() {
                assert_eq!(
                    i64::from(k.squared_sum_i32(values, weights)),
                    k.squared_sum_i64(values, weights)
                );
            }
        }
        let huge = Network::new(
            vec![0; INPUTS * 2],
            vec![255; 2],
            vec![i16::MAX; 4],
            vec![0],
        )
        .unwrap()
        .with_activation(Activation::SquaredClipped);
        assert!(!huge.squared_fits_i32, "only i64 holds its sums");
        let wide = 2 * 2 * 255 * 255 * i64::from(i16::MAX) / 255;
        let expected = wide * i64::from(OUTPUT_SCALE) / i64::from(QA * QB);
        assert_eq!(
            i64::from(huge.evaluate(&huge.accumulate(&board), &board)),
            expected
        );
    }

    /// The squared activation's output, worked by hand for one hidden unit per side.
    #[test]
    fn a_squared_unit_is_scaled_back_once() {
        let board = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        // No input weights: each side's unit is its bias, half of QA (0.5 in floats).
        let half = i16::try_from(QA / 2 + 1).unwrap();
        let (ours, theirs) = (i16::try_from(QB).unwrap(), 0);
        let net = Network::new(vec![0; INPUTS], vec![half], vec![ours, theirs], vec![0])
            .unwrap()
            .with_activation(Activation::SquaredClipped);
        let cp = net.evaluate(&net.accumulate(&board), &board);
        // 128² / 255 · 64 over 255 · 64: about 0.25 units, 100 centipawns.
        assert_eq!(cp, 100);
        let clipped = net.clone().with_activation(Activation::Clipped);
        assert_eq!(clipped.evaluate(&clipped.accumulate(&board), &board), 200);
    }

    /// The piece counts from 2 to 32 fall into the buckets evenly, in order, and every
    /// bucket is used; one bucket takes them all.
    #[test]
    fn piece_counts_share_the_buckets_out_evenly() {
        for buckets in [1, 2, 4, 8, 16, MAX_BUCKETS] {
            let all: Vec<usize> = (0..=40).map(|n| output_bucket(n, buckets)).collect();
            assert!(all.windows(2).all(|w| w[0] <= w[1]), "{buckets}: in order");
            assert_eq!(all[0], 0);
            assert_eq!(all[40], buckets - 1);
            let used: std::collections::BTreeSet<_> = all.iter().collect();
            assert_eq!(used.len(), buckets, "{buckets}: every bucket used");
        }
        let eight: Vec<usize> = [2, 5, 6, 9, 13, 17, 21, 25, 28, 29, 32]
            .map(|n| output_bucket(n, 8))
            .to_vec();
        assert_eq!(eight, [0, 0, 1, 1, 2, 3, 4, 5, 6, 6, 7]);
    }

    /// A position is weighed by its own bucket's output weights and bias: the score of a
    /// bucketed network is the one-bucket network's score made of that bucket alone.
    #[test]
    fn a_position_uses_the_bucket_of_its_piece_count() {
        let net = bucketed(16, 8);
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R b KQkq - 0 1",
            "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let bucket = output_bucket(board.piece_count(), 8);
            let alone = Network::new(
                net.input_weights.clone(),
                net.hidden_bias.clone(),
                net.output_weights[bucket * 32..][..32].to_vec(),
                vec![net.output_bias[bucket]],
            )
            .unwrap();
            let acc = net.accumulate(&board);
            assert_eq!(
                net.evaluate(&acc, &board),
                alone.evaluate(&acc, &board),
                "{fen}"
            );
        }
    }

    /// Each kind of move, in a position where it can be played: the updated accumulators
    /// are the fresh ones of the position after it.
    #[test]
    fn every_kind_of_move_updates_exactly() {
        let net = patterned(16);
        let cases = [
            (
                "short castling",
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                "e1g1",
            ),
            (
                "long castling",
                "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
                "e8c8",
            ),
            ("en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"),
            (
                "promotion with capture",
                "3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1",
                "e7d8n",
            ),
            ("capture", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"),
        ];
        let crossings = [
            (
                "king across the d/e line",
                "4k3/8/8/8/8/8/8/3K4 w - - 0 1",
                "d1e1",
            ),
            (
                "king to the second rank",
                "6k1/8/8/8/8/8/8/6K1 w - - 0 1",
                "g1g2",
            ),
            (
                "king takes across the line",
                "6k1/8/8/8/8/8/8/3Kn3 w - - 0 1",
                "d1e1",
            ),
        ];
        for (name, fen, text) in cases.into_iter().chain(crossings) {
            for net in [&net, &king_bucketed(16, false), &king_bucketed(16, true)] {
                let mut board = Board::from_fen(fen).unwrap();
                let m = board.parse_move(text).unwrap();
                let parent = net.accumulate(&board);
                let changes = PieceChanges::of(&board, m);
                board.make_move(m);
                let mut acc = parent.clone();
                net.apply(&parent, &changes, &board, &mut acc);
                assert_eq!(acc, net.accumulate(&board), "{name}");
            }
        }
    }

    /// The accumulators kept up to date move by move equal the ones computed afresh,
    /// over random games with castling, captures, en passant and promotions.
    #[test]
    fn updated_accumulators_equal_fresh_ones() {
        for net in [
            patterned(16),
            king_bucketed(16, false),
            king_bucketed(16, true),
        ] {
            let mut random = SplitMix(0x9e37_79b9_7f4a_7c15);
            for game in 0..30 {
                let mut board = Board::startpos();
                let mut acc = net.accumulate(&board);
                for _ in 0..120 {
                    let moves = board.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves.as_slice()[random.below(moves.len())];
                    let (parent, changes) = (acc.clone(), PieceChanges::of(&board, m));
                    board.make_move(m);
                    net.apply(&parent, &changes, &board, &mut acc);
                    assert_eq!(
                        acc,
                        net.accumulate(&board),
                        "game {game}: {}",
                        board.to_fen()
                    );
                }
            }
        }
    }

    /// Positions of random games (castling, captures, en passant and promotions come up),
    /// `games` of at most `plies` moves, from a fixed seed.
    fn random_positions(games: usize, plies: usize) -> Vec<Board> {
        let mut random = SplitMix(0x0123_4567_89ab_cdef);
        let mut all = Vec::new();
        for _ in 0..games {
            let mut board = Board::startpos();
            for _ in 0..plies {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                board.make_move(moves.as_slice()[random.below(moves.len())]);
                all.push(board.clone());
            }
        }
        all
    }

    /// Every form of the inner loops (the CPU's vector ones and the portable one) gives the
    /// same accumulators, updated and fresh, and the same score, for many positions: with
    /// the embedded network (squared, i32 sums) and as clipped, a patterned network of a
    /// size no vector divides, and one whose weights need the i64 sums.
    #[test]
    fn every_form_evaluates_alike() {
        let odd = patterned(37);
        let wide = Network::new(
            (0..INPUTS * 40)
                .map(|i| i16::try_from(i % 97).unwrap() - 20)
                .collect(),
            vec![200; 40],
            (0..80)
                .map(|i| if i % 3 == 0 { i16::MIN } else { i16::MAX })
                .collect(),
            vec![-5],
        )
        .unwrap();
        let embedded = embedded().as_ref().clone();
        assert_eq!(embedded.activation(), Activation::SquaredClipped);
        assert!(embedded.squared_fits_i32);
        assert!(!wide.squared_fits_i32);
        let nets = [
            embedded.clone(),
            embedded.with_activation(Activation::Clipped),
            king_bucketed(48, true).with_activation(Activation::SquaredClipped),
            odd.clone(),
            odd.with_activation(Activation::SquaredClipped),
            wide.clone(),
            wide.with_activation(Activation::SquaredClipped),
        ];
        let positions = random_positions(20, 100);
        assert!(positions.len() > 1000);
        for net in nets {
            let portable = net.clone().with_kernels(Kernels::PORTABLE);
            for k in Kernels::available() {
                let fast = net.clone().with_kernels(k);
                let (mut a, mut b) = (
                    portable.accumulate(&positions[0]),
                    net.accumulate(&positions[0]),
                );
                for board in &positions {
                    let acc = fast.accumulate(board);
                    assert_eq!(acc, portable.accumulate(board), "{}", k.name());
                    assert_eq!(
                        fast.evaluate(&acc, board),
                        portable.evaluate(&acc, board),
                        "{} {} {}",
                        k.name(),
                        net.activation(),
                        board.to_fen()
                    );
                    for &m in board.legal_moves().iter() {
                        let changes = PieceChanges::of(board, m);
                        let mut after = board.clone();
                        after.make_move(m);
                        fast.apply(&acc, &changes, &after, &mut a);
                        portable.apply(&acc, &changes, &after, &mut b);
                        assert_eq!(a, b, "{} {m:?} in {}", k.name(), board.to_fen());
                    }
                }
            }
        }
    }
}
