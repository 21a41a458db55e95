//! The transposition table: search results keyed by position, and — the trait this engine
//! inherits from micro-Max — the positions of the game itself.
//!
//! Every position that occurred in the game is entered as a *protected* entry that scores
//! as a draw: the search then sees a return to any of them as a repetition, without
//! keeping a separate list. Protected entries are never replaced by search results,
//! survive resizing, and are removed one by one when moves are taken back.
//!
//! Layout: buckets of four 16-byte entries (one 64-byte cache line). Each entry is two
//! 64-bit words, the key and the data, with the key stored XORed with the data so that a
//! torn write (two threads storing at once) reads back as a miss instead of as wrong data.
//! The words are atomics with relaxed ordering, which costs nothing on x86 and lets the
//! threads of a search share one table.

use super::params::TABLE_AGE_WEIGHT;
use crate::chess::{Board, Move, MoveKind, PieceType, Square};
use crate::memory::{AllocError, largest_fitting, memory_limit_mb};
use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Table size when the GUI asks for none.
pub const DEFAULT_HASH_MB: usize = 64;

const ENTRIES_PER_BUCKET: usize = 4;
const ENTRY_BYTES: usize = 16;

/// Whether a stored score is exact or only a bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is at least this (the node failed high).
    Lower = 1,
    /// The score is at most this (no move reached alpha).
    Upper = 2,
    /// The score is exact (a move scored between the window's bounds).
    Exact = 3,
}

/// What a probe found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move found there, or none (a fail-low node has no best move).
    pub best_move: PackedMove,
    /// The score, mates counted from this position (see the search's `score_to_table`).
    pub score: i32,
    /// The depth the score was searched to (quiescence results are zero or below).
    pub depth: i32,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
}

/// Result of looking up a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Probe {
    /// Nothing stored for this position.
    Miss,
    /// A position of the game: a return to it is a draw.
    GamePosition,
    /// A search result.
    Hit(Entry),
}

/// A move in 16 bits (dense origin, dense target, promotion piece, castling): enough to
/// recognise it among the legal moves of the position it was stored for (in Chess960 a
/// castling king may go where a plain king step goes).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct PackedMove(u16);

impl PackedMove {
    /// No move.
    pub const NONE: PackedMove = PackedMove(0);

    /// `m` in 16 bits (`Move::NONE` as [`PackedMove::NONE`]).
    pub fn pack(m: Move) -> PackedMove {
        if m.is_none() {
            return PackedMove::NONE;
        }
        let promo = match m.promoted() {
            None => 0,
            Some(PieceType::Knight) => 1,
            Some(PieceType::Bishop) => 2,
            Some(PieceType::Rook) => 3,
            Some(_) => 4,
        };
        let castle = usize::from(m.kind() == MoveKind::Castle);
        #[allow(
            clippy::cast_possible_truncation,
            reason = "6 + 6 + 3 + 1 bits: squares below 64, promo below 8, a flag"
        )]
        let bits = (m.from().index64() | m.to().index64() << 6 | promo << 12 | castle << 15) as u16;
        PackedMove(bits)
    }

    /// Whether this is [`PackedMove::NONE`].
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Whether `m` is the move this was packed from.
    pub fn matches(self, m: Move) -> bool {
        !self.is_none() && PackedMove::pack(m) == self
    }

    /// The legal move of `board` this stands for, if any (a stored move may belong to a
    /// different position with the same bucket and a colliding key).
    pub fn unpack(self, board: &Board) -> Option<Move> {
        if self.is_none() {
            return None;
        }
        let from = Square::from_index64(usize::from(self.0 & 63));
        let to = Square::from_index64(usize::from(self.0 >> 6 & 63));
        board
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| m.from() == from && m.to() == to && self.matches(m))
    }
}

// Data word layout.
const MOVE_SHIFT: u32 = 0;
const SCORE_SHIFT: u32 = 16;
const DEPTH_SHIFT: u32 = 32;
const BOUND_SHIFT: u32 = 40;
const PROTECTED_BIT: u64 = 1 << 42;
const AGE_SHIFT: u32 = 48;
/// Slots `hashfull` looks at: a thousand, as engines sample for UCI's permille.
const HASHFULL_SAMPLE: usize = 1000;
const PERMILLE: usize = 1000;
/// Depth field stores `depth + DEPTH_BIAS` so quiescence depths (≤ 0) fit in a byte.
const DEPTH_BIAS: i32 = 64;

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "search scores lie within ±(MATE + 1), which fits an i16, stored as its 16 bits; \
              the depth field is clamped to a byte first"
)]
fn pack_data(m: PackedMove, score: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    debug_assert!(i16::try_from(score).is_ok(), "score {score} fits 16 bits");
    u64::from(m.0) << MOVE_SHIFT
        | u64::from(score as i16 as u16) << SCORE_SHIFT
        | ((depth + DEPTH_BIAS).clamp(0, 255) as u64) << DEPTH_SHIFT
        | (bound as u64) << BOUND_SHIFT
        | u64::from(age) << AGE_SHIFT
}

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "each field is taken from its own bits: 16 for the move and the score (an \
              i16 stored as its bits), 8 for the depth"
)]
fn unpack_data(data: u64) -> Entry {
    let bound = match data >> BOUND_SHIFT & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => Bound::Exact,
    };
    Entry {
        best_move: PackedMove((data >> MOVE_SHIFT) as u16),
        score: i32::from((data >> SCORE_SHIFT) as u16 as i16),
        depth: (data >> DEPTH_SHIFT & 0xff) as i32 - DEPTH_BIAS,
        bound,
    }
}

#[allow(
    clippy::cast_possible_truncation,
    reason = "the age is the byte at AGE_SHIFT"
)]
fn age_of(data: u64) -> u8 {
    (data >> AGE_SHIFT) as u8
}

fn is_protected(data: u64) -> bool {
    data & PROTECTED_BIT != 0
}

#[derive(Default)]
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    fn load(&self) -> (u64, u64) {
        let data = self.data.load(Relaxed);
        (self.key_xor_data.load(Relaxed) ^ data, data)
    }

    fn store(&self, key: u64, data: u64) {
        self.key_xor_data.store(key ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }

    fn clear(&self) {
        self.store(0, 0);
    }
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket([Slot; ENTRIES_PER_BUCKET]);

/// The transposition table (see the module docs).
pub struct TranspositionTable {
    buckets: BucketArray,
    /// Every game position held (a few hundred at most), so they can be listed and removed
    /// without scanning the table, which would touch, and make the OS map, all of it.
    game_keys: Mutex<Vec<u64>>,
    /// Game positions whose bucket was already full of game positions: kept here so that
    /// no game position is ever lost. Almost always empty.
    overflow: Mutex<Vec<u64>>,
    /// Whether `overflow` holds anything (read without taking the lock in the hot path).
    has_overflow: std::sync::atomic::AtomicBool,
    /// Search generation, so results of earlier moves are replaced first.
    age: std::sync::atomic::AtomicU8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket), for tools and tests that ask
    /// for a small one; the engine itself sizes its table with [`Self::largest_fitting`].
    ///
    /// # Panics
    /// When the memory cannot be allocated.
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::try_new(megabytes).unwrap_or_else(|error| panic!("hash table: {error}"))
    }

    /// A table of about `megabytes` MB (at least one bucket), or an error when the memory
    /// cannot be had. The memory comes from the allocator already zeroed, so the OS maps it
    /// lazily and a large table does not delay start-up.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, AllocError> {
        let error = AllocError { megabytes };
        let buckets = megabytes.max(1).checked_mul(1 << 20).ok_or(error)?
            / (ENTRY_BYTES * ENTRIES_PER_BUCKET);
        Ok(TranspositionTable {
            buckets: BucketArray::try_zeroed(buckets.max(1)).ok_or(error)?,
            game_keys: Mutex::new(Vec::new()),
            overflow: Mutex::new(Vec::new()),
            has_overflow: false.into(),
            age: 0.into(),
        })
    }

    /// The largest table of at most `requested_mb` that this machine can hold, and its
    /// size in MB. The request is capped at [`memory_limit_mb`], then halved until the
    /// allocation succeeds; an error only when not even 1 MB can be had.
    pub fn largest_fitting(requested_mb: usize) -> Result<(TranspositionTable, usize), AllocError> {
        largest_fitting(requested_mb, memory_limit_mb(), TranspositionTable::try_new)
    }

    /// Size in MB as allocated.
    pub fn megabytes(&self) -> usize {
        (self.buckets.len() * ENTRY_BYTES * ENTRIES_PER_BUCKET) >> 20
    }

    /// A table of a new size holding the same game positions (search results are not
    /// carried over), or an error when the memory cannot be had (this table is untouched).
    pub fn try_resized(&self, megabytes: usize) -> Result<TranspositionTable, AllocError> {
        let table = TranspositionTable::try_new(megabytes)?;
        for key in self.game_positions() {
            table.insert_game_position(key);
        }
        Ok(table)
    }

    /// [`Self::largest_fitting`] holding the same game positions: the table to use when
    /// the GUI asks for `requested_mb`, and its size in MB.
    pub fn resized_to_fit(
        &self,
        requested_mb: usize,
    ) -> Result<(TranspositionTable, usize), AllocError> {
        largest_fitting(requested_mb, memory_limit_mb(), |mb| self.try_resized(mb))
    }

    /// Asks the CPU to bring the bucket of `key` into its cache, so that a probe of that
    /// position a little later does not wait for main memory: a move's child is probed
    /// after the work of making the move, which the fetch overlaps. A hint only; it
    /// changes no result (and does nothing on CPUs without the instruction).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch reads nothing and cannot fault; the pointer is a live bucket.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key uniformly onto 0..len without a division: the high
        // half of key * len is below len, so it fits a usize.
        #[allow(clippy::cast_possible_truncation, reason = "below the bucket count")]
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Marks a new search, so older results age out first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    /// How many searches the table has seen (wrapping): what ages its entries.
    pub fn searches(&self) -> u8 {
        self.age.load(Relaxed)
    }

    /// The best move the table holds for `board`, if it holds a legal one.
    pub fn best_move(&self, board: &Board) -> Option<Move> {
        match self.probe(board.key()) {
            Probe::Hit(entry) => entry.best_move.unpack(board),
            _ => None,
        }
    }

    /// Looks up a position.
    #[inline]
    pub fn probe(&self, key: u64) -> Probe {
        for slot in &self.bucket(key).0 {
            let (k, data) = slot.load();
            if k == key && data != 0 {
                return if is_protected(data) {
                    Probe::GamePosition
                } else {
                    Probe::Hit(unpack_data(data))
                };
            }
        }
        if self.has_overflow.load(Relaxed)
            && self.overflow.lock().expect("lock poisoned").contains(&key)
        {
            return Probe::GamePosition;
        }
        Probe::Miss
    }

    /// Stores a search result, unless the position is a game position (whose entry keeps
    /// meaning "draw"). Replaces, in order: the same position, an empty slot, the slot with
    /// the least valuable result (shallow, from an older search). Game positions are never
    /// replaced.
    #[inline]
    pub fn store(&self, key: u64, best_move: Move, score: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Relaxed);
        let bucket = self.bucket(key);
        let mut victim: Option<&Slot> = None;
        let mut victim_worth = i32::MAX;
        for slot in &bucket.0 {
            let (k, data) = slot.load();
            if data != 0 && is_protected(data) {
                if k == key {
                    return;
                }
                continue;
            }
            if k == key || data == 0 {
                victim = Some(slot);
                // Keep a known best move when the new result has none.
                if k == key && best_move.is_none() && data != 0 {
                    let old = unpack_data(data).best_move;
                    slot.store(key, pack_data(old, score, depth, bound, age));
                    return;
                }
                break;
            }
            let entry = unpack_data(data);
            let stale = i32::from(age.wrapping_sub(age_of(data)));
            let worth = entry.depth - TABLE_AGE_WEIGHT * stale;
            if worth < victim_worth {
                victim_worth = worth;
                victim = Some(slot);
            }
        }
        if let Some(slot) = victim {
            slot.store(
                key,
                pack_data(PackedMove::pack(best_move), score, depth, bound, age),
            );
        }
    }

    /// Enters a position of the game. It will score as a draw whenever the search returns
    /// to it, and it survives everything except `remove_game_position`.
    pub fn insert_game_position(&self, key: u64) {
        if self.probe(key) == Probe::GamePosition {
            return;
        }
        self.game_keys.lock().expect("lock poisoned").push(key);
        let bucket = self.bucket(key);
        let target = bucket
            .0
            .iter()
            .find(|s| {
                let (k, data) = s.load();
                k == key || data == 0
            })
            .or_else(|| bucket.0.iter().find(|s| !is_protected(s.load().1)));
        match target {
            Some(slot) => slot.store(key, PROTECTED_BIT),
            None => {
                self.overflow.lock().expect("lock poisoned").push(key);
                self.has_overflow.store(true, Relaxed);
            }
        }
    }

    /// Forgets a game position (a move was taken back).
    pub fn remove_game_position(&self, key: u64) {
        {
            let mut keys = self.game_keys.lock().expect("lock poisoned");
            match keys.iter().position(|&k| k == key) {
                Some(i) => {
                    keys.swap_remove(i);
                }
                None => return,
            }
        }
        let bucket = self.bucket(key);
        for slot in &bucket.0 {
            let (k, data) = slot.load();
            if k == key && is_protected(data) {
                // A game position waiting in the overflow for this bucket takes the freed
                // slot; left outside, it would be hidden by the next search result stored
                // there, because a probe looks in the bucket first.
                let waiting = self.take_from_overflow(|k| std::ptr::eq(self.bucket(k), bucket));
                match waiting {
                    Some(k) => slot.store(k, PROTECTED_BIT),
                    None => slot.clear(),
                }
                return;
            }
        }
        self.take_from_overflow(|k| k == key);
    }

    /// Removes and returns the first overflow key that `wanted` accepts.
    fn take_from_overflow(&self, wanted: impl Fn(u64) -> bool) -> Option<u64> {
        if !self.has_overflow.load(Relaxed) {
            return None;
        }
        let mut overflow = self.overflow.lock().expect("lock poisoned");
        let key = overflow
            .iter()
            .position(|&k| wanted(k))
            .map(|i| overflow.swap_remove(i));
        self.has_overflow.store(!overflow.is_empty(), Relaxed);
        key
    }

    /// Forgets all game positions (a new game or position).
    pub fn clear_game_positions(&self) {
        for key in self.game_positions() {
            self.remove_game_position(key);
        }
    }

    /// Keys of all game positions held.
    pub fn game_positions(&self) -> Vec<u64> {
        self.game_keys.lock().expect("lock poisoned").clone()
    }

    /// How full the table is, in permille, as UCI's `hashfull` reports it: the share of
    /// the first thousand slots that hold a result of the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let slots = self.buckets.iter().flat_map(|bucket| bucket.0.iter());
        let sample: Vec<u64> = slots
            .take(HASHFULL_SAMPLE)
            .map(|slot| slot.load().1)
            .collect();
        let used = sample
            .iter()
            .filter(|&&data| data != 0 && !is_protected(data) && age_of(data) == age)
            .count();
        u32::try_from(used * PERMILLE / sample.len().max(1)).unwrap_or(0)
    }

    /// Forgets search results but keeps the game positions.
    pub fn clear_search_results(&self) {
        for bucket in self.buckets.iter() {
            for slot in &bucket.0 {
                if !is_protected(slot.load().1) {
                    slot.clear();
                }
            }
        }
    }
}

/// The bucket array: zeroed memory, aligned to cache lines.
///
/// Asking the allocator for 64-byte alignment makes it zero the memory itself (it cannot
/// use `calloc`), touching every page: seconds for a gigabyte. With the default alignment
/// a large zeroed block comes straight from the OS and pages are mapped only when first
/// used, so the block is over-allocated by one bucket and the array starts at the first
/// cache-line boundary inside it.
///
/// On Linux a table of a huge page (2 MiB) or more is mapped by the engine itself
/// instead, aligned to a huge page and marked for huge pages (`madvise`, as Debian's
/// kernels want: their transparent huge pages are given only where asked for). Every
/// probe and prefetch lands on a random bucket, and with 4 KiB pages nearly every one
/// also misses the processor's page cache (TLB) and waits for a walk of the page tables;
/// a 2 MiB page covers 512 times as much.
struct BucketArray {
    raw: NonNull<u8>,
    /// Where the memory came from, and so how it goes back.
    source: Source,
    buckets: NonNull<Bucket>,
    len: usize,
}

/// How a [`BucketArray`]'s block was had.
enum Source {
    /// From the allocator with this layout.
    Allocator(Layout),
    /// Mapped from the OS: this many bytes.
    #[cfg(target_os = "linux")]
    Mapped(usize),
}

// SAFETY: the array owns its memory, and `Bucket` (atomics only) is Send and Sync.
unsafe impl Send for BucketArray {}
// SAFETY: see `Send` above: shared access only goes through the atomics of `Bucket`.
unsafe impl Sync for BucketArray {}

impl BucketArray {
    /// `len` empty buckets, or `None` when the memory is refused (or the size overflows).
    fn try_zeroed(len: usize) -> Option<BucketArray> {
        let bucket = std::mem::size_of::<Bucket>();
        let bytes = len.checked_mul(bucket)?;
        #[cfg(target_os = "linux")]
        if bytes >= huge_pages::SIZE {
            return BucketArray::mapped(len, bytes);
        }
        let layout = Layout::from_size_align(bytes.checked_add(bucket)?, 16).ok()?;
        // SAFETY: the layout has non-zero size.
        let raw = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        let offset = raw.as_ptr().align_offset(std::mem::align_of::<Bucket>());
        assert!(
            offset < bucket,
            "an aligned start lies within the spare bucket"
        );
        // SAFETY: `offset + len * bucket <= bytes + bucket`, so the array lies inside the
        // block.
        let buckets = unsafe { NonNull::new_unchecked(raw.as_ptr().add(offset) as *mut Bucket) };
        Some(BucketArray {
            raw,
            source: Source::Allocator(layout),
            buckets,
            len,
        })
    }

    /// `len` buckets (`bytes` in all) in a mapping of their own that starts at a huge page.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, bytes: usize) -> Option<BucketArray> {
        // One huge page more than the array, so that an aligned start lies inside.
        let mapped = bytes.checked_add(huge_pages::SIZE)?;
        let raw = huge_pages::map(mapped)?;
        let offset = raw.as_ptr().align_offset(huge_pages::SIZE);
        assert!(
            offset < huge_pages::SIZE,
            "an aligned start lies within the spare page"
        );
        // SAFETY: `offset + bytes < mapped`, so the array lies inside the mapping.
        let start = unsafe { raw.as_ptr().add(offset) };
        huge_pages::advise(start, bytes);
        // SAFETY: `start` is inside the mapping, so not null.
        let buckets = unsafe { NonNull::new_unchecked(start.cast::<Bucket>()) };
        Some(BucketArray {
            raw,
            source: Source::Mapped(mapped),
            buckets,
            len,
        })
    }
}

impl std::ops::Deref for BucketArray {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `len` aligned buckets lie in the block (see `try_zeroed`); all-zero bytes are
        // a valid `Bucket` (every atomic zero: an empty slot); the block lives as long as
        // `self`.
        unsafe { std::slice::from_raw_parts(self.buckets.as_ptr(), self.len) }
    }
}

impl Drop for BucketArray {
    fn drop(&mut self) {
        match self.source {
            // SAFETY: `raw` came from `alloc_zeroed` with exactly this layout.
            Source::Allocator(layout) => unsafe { dealloc(self.raw.as_ptr(), layout) },
            #[cfg(target_os = "linux")]
            // SAFETY: `raw` is the start of a mapping of exactly this many bytes, which
            // nothing uses once the array is gone.
            Source::Mapped(bytes) => unsafe { huge_pages::unmap(self.raw, bytes) },
        }
    }
}

/// The system calls behind a mapped table (Linux).
#[cfg(target_os = "linux")]
mod huge_pages {
    use std::ptr::NonNull;

    /// The huge page of x86-64 and of most ARM64 kernels; where huge pages are another
    /// size (or absent) the advice only goes unused.
    pub(super) const SIZE: usize = 2 << 20;

    /// `bytes` of zeroed memory (the OS maps its pages when first touched), or `None` when
    /// the OS refuses.
    pub(super) fn map(bytes: usize) -> Option<NonNull<u8>> {
        // SAFETY: a new private anonymous mapping at an address of the OS's choosing
        // touches no existing memory; failure is the MAP_FAILED value, checked below.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return None;
        }
        NonNull::new(ptr.cast::<u8>())
    }

    /// Asks for huge pages under the `bytes` from `start` (aligned to `SIZE`). A kernel
    /// without transparent huge pages refuses; that costs only speed.
    pub(super) fn advise(start: *mut u8, bytes: usize) {
        // SAFETY: madvise only changes how the kernel backs these pages, which lie inside
        // a mapping of ours; it reads and writes no memory.
        let refused = unsafe { libc::madvise(start.cast(), bytes, libc::MADV_HUGEPAGE) } != 0;
        if refused {
            log::debug!(
                "hash table: no huge pages ({})",
                std::io::Error::last_os_error()
            );
        }
    }

    /// Returns a mapping made by [`map`].
    ///
    /// # Safety
    /// `raw` and `bytes` are a mapping from [`map`], and nothing refers into it any more.
    pub(super) unsafe fn unmap(raw: NonNull<u8>, bytes: usize) {
        // SAFETY: the caller's promise: the whole mapping, no longer used.
        unsafe { libc::munmap(raw.as_ptr().cast(), bytes) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn some_move() -> Move {
        Board::startpos().parse_move("e2e4").unwrap()
    }

    /// In Chess960 a castling king may go where a plain king step goes (king f1, rook
    /// h1: both end on g1): the packed moves tell them apart.
    #[test]
    fn castling_and_a_king_step_to_the_same_square_pack_apart() {
        let board = Board::from_chess960_fen("4k3/8/8/8/8/8/8/5K1R w H - 0 1").unwrap();
        let to_g1: Vec<Move> = board
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| m.from().to_string() == "f1" && m.to().to_string() == "g1")
            .collect();
        assert_eq!(to_g1.len(), 2, "{to_g1:?}");
        let packed: Vec<PackedMove> = to_g1.iter().map(|&m| PackedMove::pack(m)).collect();
        assert_ne!(packed[0], packed[1]);
        for (m, p) in to_g1.iter().zip(&packed) {
            assert_eq!(p.unpack(&board), Some(*m));
        }
    }

    #[test]
    fn stores_and_probes_with_bounds_and_negative_scores() {
        let tt = TranspositionTable::new(1);
        let m = some_move();
        tt.store(42, m, -1234, 7, Bound::Upper);
        match tt.probe(42) {
            Probe::Hit(e) => {
                assert_eq!(e.score, -1234);
                assert_eq!(e.depth, 7);
                assert_eq!(e.bound, Bound::Upper);
                assert!(e.best_move.matches(m));
                assert_eq!(e.best_move.unpack(&Board::startpos()), Some(m));
            }
            other => panic!("{other:?}"),
        }
        tt.store(43, Move::NONE, 5, -2, Bound::Exact);
        assert!(matches!(tt.probe(43), Probe::Hit(Entry { depth: -2, .. })));
        assert_eq!(tt.probe(44), Probe::Miss);
    }

    /// Keys that all land in one bucket of a table.
    fn keys_in_one_bucket(tt: &TranspositionTable, count: usize) -> Vec<u64> {
        let target = tt.bucket(1) as *const Bucket;
        (1u64..)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .filter(|&k| std::ptr::eq(tt.bucket(k), target))
            .take(count)
            .collect()
    }

    #[test]
    fn game_positions_survive_a_table_full_of_search_results() {
        let tt = TranspositionTable::new(1);
        let game: Vec<u64> = (1..=300u64)
            .map(|i| i.wrapping_mul(0x2545_f491_4f6c_dd1d))
            .collect();
        for &k in &game {
            tt.insert_game_position(k);
        }
        let m = some_move();
        for i in 0..2_000_000u64 {
            tt.store(
                i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1,
                m,
                10,
                60,
                Bound::Exact,
            );
        }
        for &k in &game {
            assert_eq!(tt.probe(k), Probe::GamePosition);
            tt.store(k, m, 99, 99, Bound::Exact);
            assert_eq!(
                tt.probe(k),
                Probe::GamePosition,
                "a search store overwrote it"
            );
        }
    }

    #[test]
    fn a_full_bucket_of_game_positions_never_loses_one() {
        let tt = TranspositionTable::new(1);
        let keys = keys_in_one_bucket(&tt, ENTRIES_PER_BUCKET + 3);
        for &k in &keys {
            tt.insert_game_position(k);
        }
        for &k in &keys {
            assert_eq!(tt.probe(k), Probe::GamePosition);
        }
        let mut held = tt.game_positions();
        held.sort();
        let mut expected = keys.clone();
        expected.sort();
        assert_eq!(held, expected);
        for &k in &keys {
            tt.remove_game_position(k);
            assert_ne!(tt.probe(k), Probe::GamePosition);
        }
        assert!(tt.game_positions().is_empty());
    }

    #[test]
    fn an_overflowing_game_position_is_not_hidden_once_its_bucket_has_room() {
        let tt = TranspositionTable::new(1);
        let keys = keys_in_one_bucket(&tt, ENTRIES_PER_BUCKET + 2);
        for &k in &keys {
            tt.insert_game_position(k);
        }
        // A move is taken back, freeing a slot; the search then stores results for every key.
        tt.remove_game_position(keys[0]);
        for &k in &keys {
            tt.store(k, some_move(), 123, 5, Bound::Exact);
        }
        for &k in &keys[1..] {
            assert_eq!(tt.probe(k), Probe::GamePosition, "{k:#x}");
        }
    }

    #[test]
    fn resizing_keeps_game_positions_and_clearing_results_keeps_them_too() {
        let tt = TranspositionTable::new(1);
        tt.insert_game_position(77);
        tt.store(78, some_move(), 1, 1, Bound::Exact);
        let bigger = tt.try_resized(4).unwrap();
        assert_eq!(bigger.megabytes(), 4);
        assert_eq!(bigger.probe(77), Probe::GamePosition);
        assert_eq!(bigger.probe(78), Probe::Miss);
        bigger.store(78, some_move(), 1, 1, Bound::Exact);
        bigger.clear_search_results();
        assert_eq!(bigger.probe(77), Probe::GamePosition);
        assert_eq!(bigger.probe(78), Probe::Miss);
        bigger.clear_game_positions();
        assert_eq!(bigger.probe(77), Probe::Miss);
    }

    /// A table of a huge page or more starts on one (so that the kernel can back it with
    /// huge pages); a smaller one still starts on a cache line. Every size keeps its
    /// bucket count, whatever its memory's source.
    #[cfg(target_os = "linux")]
    #[test]
    fn large_tables_start_on_a_huge_page() {
        for (megabytes, alignment) in [(1, 64), (2, huge_pages::SIZE), (16, huge_pages::SIZE)] {
            let tt = TranspositionTable::new(megabytes);
            let start = tt.buckets.as_ptr() as usize;
            assert_eq!(start % alignment, 0, "{megabytes} MB");
            assert_eq!(tt.megabytes(), megabytes);
            tt.store(5, some_move(), 3, 4, Bound::Lower);
            assert!(matches!(tt.probe(5), Probe::Hit(_)));
        }
    }

    #[test]
    fn impossible_sizes_are_errors_not_aborts() {
        for megabytes in [usize::MAX, usize::MAX >> 20, 1 << 40] {
            // black_box keeps the table alive: with fat LTO, LLVM may otherwise elide an
            // allocation nobody reads and call it a success.
            assert_eq!(
                std::hint::black_box(TranspositionTable::try_new(megabytes)).err(),
                Some(AllocError { megabytes }),
                "{megabytes} MB"
            );
        }
        let tt = TranspositionTable::new(1);
        tt.insert_game_position(77);
        assert!(tt.try_resized(1 << 40).is_err());
        assert_eq!(
            tt.megabytes(),
            1,
            "a failed resize leaves the table as it was"
        );
        assert_eq!(tt.probe(77), Probe::GamePosition);
        let (fitted, megabytes) = tt.resized_to_fit(1 << 40).unwrap();
        assert_eq!(fitted.megabytes(), megabytes);
        assert!(megabytes <= memory_limit_mb(), "{megabytes} MB");
        assert_eq!(fitted.probe(77), Probe::GamePosition);
    }
}
