//! The network's inner loops on the widest vectors the CPU has, chosen at run time.
//!
//! Two loops take nearly all of the network's time: following a move in the accumulators
//! (a copy of the parent's hidden layer plus and minus a few weight rows) and the output
//! layer (a dot product of the clipped, or squared clipped, hidden layer with the output
//! weights). Each comes in three forms: the portable one (plain Rust, every CPU, and the
//! reference), one on AVX2 (256-bit vectors: `AVX2_LANES` units at a time) and one on
//! AVX-512 with its byte-and-word instructions (512-bit vectors: `AVX512_LANES` units at a
//! time), the last two on x86-64 only. One binary runs on any x86-64 CPU: [`Kernels::detect`]
//! asks the CPU once, when a network is made, and the network keeps the answer.
//!
//! Every form gives the same integers, bit for bit, because the arithmetic is modular and
//! exact:
//!
//! - the accumulators are i16 sums that wrap (`wrapping_add` in the portable code); vector
//!   adds of i16 wrap too, and sums modulo 2¹⁶ do not depend on their order;
//! - in the output layer a unit is clipped to 0..`QA` before it is multiplied, so every
//!   product and the sum of each pair `madd` forms are exact in i32 (255 · 32768 · 2 and
//!   255² · 32768 are below 2³¹); the i32 sums wrap modulo 2³² in any order, as the
//!   portable `wrapping_add` does; the i64 sums of i32 terms cannot overflow at all (at
//!   most `MAX_HIDDEN` terms below 2³¹ each).
//!
//! So the vector forms only add in another order, which modular arithmetic cannot see;
//! the tests compare every form with the portable one on random and extreme inputs.
//! The instructions are those of Intel's intrinsics guide; `std::arch` names them.

use super::QA;

/// Which form of the inner loops a network runs: the portable one, or a vector one the
/// CPU has been found to run (only [`Kernels::detect`] and [`Kernels::available`] make a
/// vector one, so holding one means the CPU runs it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernels(Path);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Kernels {
    /// The plain Rust loops, on every CPU: the reference the others equal.
    pub const PORTABLE: Kernels = Kernels(Path::Portable);

    /// The widest form this CPU runs (asks the CPU; a network asks once, when it is made).
    pub fn detect() -> Kernels {
        Kernels::available()
            .last()
            .copied()
            .unwrap_or(Kernels::PORTABLE)
    }

    /// Every form this CPU runs, the portable one first and the widest last.
    pub fn available() -> Vec<Kernels> {
        #[allow(unused_mut, reason = "only x86-64 has more than the portable form")]
        let mut all = vec![Kernels::PORTABLE];
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx2") {
                all.push(Kernels(Path::Avx2));
            }
            if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw") {
                all.push(Kernels(Path::Avx512));
            }
        }
        all
    }

    /// Its name, as the engine reports it: `portable`, `avx2` or `avx512`.
    pub fn name(self) -> &'static str {
        match self.0 {
            Path::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => "avx512",
        }
    }

    /// `dst` = `src` + every row of `adds` − every row of `subs`, each unit wrapping in
    /// i16, in one pass. All are of one length (it panics otherwise).
    #[inline]
    pub fn apply(self, dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let n = dst.len();
        assert!(
            src.len() == n && adds.iter().chain(subs).all(|row| row.len() == n),
            "rows of one length"
        );
        match self.0 {
            Path::Portable => portable::apply(dst, src, adds, subs, 0),
            // SAFETY: the CPU runs AVX2 (a `Path::Avx2` is only made after detecting it),
            // and every slice is `n` long (asserted above), as `avx2::apply` requires.
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => unsafe { avx2::apply(dst, src, adds, subs) },
            // SAFETY: as above, for AVX-512F and BW.
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => unsafe { avx512::apply(dst, src, adds, subs) },
        }
    }

    /// Σ clip(value)·weight over the units, the sum wrapping in i32 (of one length).
    pub fn clipped_sum(self, values: &[i16], weights: &[i16]) -> i32 {
        assert_eq!(values.len(), weights.len(), "a weight for each unit");
        match self.0 {
            Path::Portable => portable::clipped_sum(values, weights),
            // SAFETY: the CPU runs AVX2 (a `Path::Avx2` is only made after detecting it),
            // and both slices are of one length (asserted above).
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => unsafe { avx2::clipped_sum(values, weights) },
            // SAFETY: as above, for AVX-512F and BW.
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => unsafe { avx512::clipped_sum(values, weights) },
        }
    }

    /// Σ clip(value)²·weight over the units, the sum wrapping in i32: exact for a network
    /// whose bound on the sum fits i32 (of one length).
    pub fn squared_sum_i32(self, values: &[i16], weights: &[i16]) -> i32 {
        assert_eq!(values.len(), weights.len(), "a weight for each unit");
        match self.0 {
            Path::Portable => portable::squared_sum_i32(values, weights),
            // SAFETY: the CPU runs AVX2 (a `Path::Avx2` is only made after detecting it),
            // and both slices are of one length (asserted above).
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => unsafe { avx2::squared_sum_i32(values, weights) },
            // SAFETY: as above, for AVX-512F and BW.
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => unsafe { avx512::squared_sum_i32(values, weights) },
        }
    }

    /// Σ clip(value)²·weight over the units in i64, exact for any weights (of one length).
    pub fn squared_sum_i64(self, values: &[i16], weights: &[i16]) -> i64 {
        assert_eq!(values.len(), weights.len(), "a weight for each unit");
        match self.0 {
            Path::Portable => portable::squared_sum_i64(values, weights),
            // SAFETY: the CPU runs AVX2 (a `Path::Avx2` is only made after detecting it),
            // and both slices are of one length (asserted above).
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => unsafe { avx2::squared_sum_i64(values, weights) },
            // SAFETY: as above, for AVX-512F and BW.
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => unsafe { avx512::squared_sum_i64(values, weights) },
        }
    }
}

/// The reference loops (the compiler vectorises them for the baseline x86-64, SSE2). Each
/// starts at unit `from`, so that the vector forms finish a hidden layer whose size is not
/// a multiple of their lanes with them.
mod portable {
    use super::QA;

    pub(super) fn apply(
        dst: &mut [i16],
        src: &[i16],
        adds: &[&[i16]],
        subs: &[&[i16]],
        from: usize,
    ) {
        let dst = &mut dst[from..];
        dst.copy_from_slice(&src[from..]);
        for row in adds {
            for (v, w) in dst.iter_mut().zip(&row[from..]) {
                *v = v.wrapping_add(*w);
            }
        }
        for row in subs {
            for (v, w) in dst.iter_mut().zip(&row[from..]) {
                *v = v.wrapping_sub(*w);
            }
        }
    }

    /// A unit clipped to 0..QA.
    #[inline]
    fn clip(value: i16) -> i32 {
        i32::from(value).clamp(0, QA)
    }

    /// One unit's squared term: clipped, squared, times its weight (exact in i32).
    #[inline]
    fn squared_term(value: i16, weight: i16) -> i32 {
        let v = clip(value);
        v * v * i32::from(weight)
    }

    pub(super) fn clipped_sum(values: &[i16], weights: &[i16]) -> i32 {
        values
            .iter()
            .zip(weights)
            .map(|(&v, &w)| clip(v) * i32::from(w))
            .fold(0, i32::wrapping_add)
    }

    pub(super) fn squared_sum_i32(values: &[i16], weights: &[i16]) -> i32 {
        values
            .iter()
            .zip(weights)
            .map(|(&v, &w)| squared_term(v, w))
            .fold(0, i32::wrapping_add)
    }

    pub(super) fn squared_sum_i64(values: &[i16], weights: &[i16]) -> i64 {
        values
            .iter()
            .zip(weights)
            .map(|(&v, &w)| i64::from(squared_term(v, w)))
            .sum()
    }
}

/// A sum over the units from `whole` on, which a vector loop leaves to `sum` (the
/// portable one) when the hidden layer is not a multiple of its lanes; nothing otherwise.
#[cfg(target_arch = "x86_64")]
#[inline]
fn tail<T: Default>(
    values: &[i16],
    weights: &[i16],
    whole: usize,
    sum: fn(&[i16], &[i16]) -> T,
) -> T {
    if whole < values.len() {
        sum(&values[whole..], &weights[whole..])
    } else {
        T::default()
    }
}

/// The loops on 256-bit vectors. Each `unsafe fn` requires a CPU with AVX2 and slices of
/// one length; the helpers are safe to call from code compiled for AVX2.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{QA, portable, tail};
    use std::arch::x86_64::{
        __m256i, _mm_add_epi32, _mm_add_epi64, _mm_cvtsi128_si32, _mm_cvtsi128_si64,
        _mm_extract_epi64, _mm_shuffle_epi32, _mm256_add_epi16, _mm256_add_epi32, _mm256_add_epi64,
        _mm256_castsi256_si128, _mm256_cvtepi32_epi64, _mm256_extracti128_si256,
        _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16,
        _mm256_mullo_epi32, _mm256_set1_epi16, _mm256_setzero_si256, _mm256_storeu_si256,
        _mm256_sub_epi16, _mm256_unpackhi_epi16, _mm256_unpacklo_epi16,
    };

    /// i16 units in one 256-bit vector.
    pub(super) const AVX2_LANES: usize = 16;

    /// The `AVX2_LANES` units of `slice` from `at`.
    ///
    /// # Safety
    /// `at + AVX2_LANES` is at most the length of `slice`.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn load(slice: &[i16], at: usize) -> __m256i {
        debug_assert!(at + AVX2_LANES <= slice.len());
        // SAFETY: the caller keeps the 16 units read inside `slice`; an unaligned load
        // takes any address.
        unsafe { _mm256_loadu_si256(slice.as_ptr().add(at).cast()) }
    }

    /// Units clipped to 0..QA.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn clip(values: __m256i) -> __m256i {
        #[allow(clippy::cast_possible_truncation, reason = "QA is 255")]
        let top = _mm256_set1_epi16(QA as i16);
        _mm256_min_epi16(_mm256_max_epi16(values, _mm256_setzero_si256()), top)
    }

    /// The squared terms clip(v)²·w of 16 units as two vectors of eight i32, exact: the
    /// units and weights spread to i32 lanes (the unpacks pair each with a zero), `madd`
    /// multiplies a unit by its weight (the zero halves add 0·0), and a 32-bit multiply
    /// by the unit again. The unpacks reorder the units, but units and weights alike, so
    /// each unit still meets its own weight (and a sum does not care about the order).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn squared_terms(values: __m256i, weights: __m256i) -> [__m256i; 2] {
        let zero = _mm256_setzero_si256();
        let clipped = clip(values);
        let low = _mm256_unpacklo_epi16(clipped, zero);
        let high = _mm256_unpackhi_epi16(clipped, zero);
        let low_products = _mm256_madd_epi16(low, _mm256_unpacklo_epi16(weights, zero));
        let high_products = _mm256_madd_epi16(high, _mm256_unpackhi_epi16(weights, zero));
        [
            _mm256_mullo_epi32(low_products, low),
            _mm256_mullo_epi32(high_products, high),
        ]
    }

    /// The sum of eight i32 lanes, wrapping.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn sum_i32(v: __m256i) -> i32 {
        let four = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        // Add the upper pair of lanes to the lower, then the neighbour of each.
        let two = _mm_add_epi32(four, _mm_shuffle_epi32::<0b01_00_11_10>(four));
        let one = _mm_add_epi32(two, _mm_shuffle_epi32::<0b10_11_00_01>(two));
        _mm_cvtsi128_si32(one)
    }

    /// The sum of four i64 lanes.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn sum_i64(v: __m256i) -> i64 {
        let two = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        _mm_cvtsi128_si64(two).wrapping_add(_mm_extract_epi64::<1>(two))
    }

    /// Eight i32 lanes widened to i64 and added to the four lanes of `sum`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn add_widened(sum: __m256i, terms: __m256i) -> __m256i {
        let low = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(terms));
        let high = _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(terms));
        _mm256_add_epi64(sum, _mm256_add_epi64(low, high))
    }

    /// The units a loop of `n` takes in whole vectors.
    fn whole(n: usize) -> usize {
        n / AVX2_LANES * AVX2_LANES
    }

    /// [`super::Kernels::apply`]: each vector of the result loaded once, every row added
    /// or subtracted in registers, stored once; the moves of a search (one row in and one
    /// out, a capture's two out, castling's two and two) with their rows unrolled.
    ///
    /// # Safety
    /// The CPU runs AVX2; `src` and every row are as long as `dst`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn apply(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        // SAFETY: each arm passes on the caller's promise (the CPU runs AVX2, every row
        // is as long as `dst`), and `apply_rows` asks no more.
        unsafe {
            match (adds, subs) {
                (&[a], &[s]) => apply_rows(dst, src, &[a], &[s]),
                (&[a], &[s, t]) => apply_rows(dst, src, &[a], &[s, t]),
                (&[a, b], &[s, t]) => apply_rows(dst, src, &[a, b], &[s, t]),
                _ => apply_rows(dst, src, adds, subs),
            }
        }
    }

    /// [`apply`]'s loop, inlined into each of its arms, where the number of rows is known.
    ///
    /// # Safety
    /// As [`apply`].
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn apply_rows(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let whole = whole(dst.len());
        for at in (0..whole).step_by(AVX2_LANES) {
            // SAFETY: `at + AVX2_LANES <= whole`, and every slice is at least `whole` long
            // (the caller's promise), so each load and the store stay inside their slice;
            // an unaligned store takes any address.
            unsafe {
                let mut v = load(src, at);
                for row in adds {
                    v = _mm256_add_epi16(v, load(row, at));
                }
                for row in subs {
                    v = _mm256_sub_epi16(v, load(row, at));
                }
                _mm256_storeu_si256(dst.as_mut_ptr().add(at).cast(), v);
            }
        }
        if whole < dst.len() {
            portable::apply(dst, src, adds, subs, whole);
        }
    }

    /// [`super::Kernels::clipped_sum`]: `madd` multiplies 16 clipped units by their weights
    /// and adds neighbours into eight i32 lanes (exact: see the module docs).
    ///
    /// # Safety
    /// The CPU runs AVX2; `weights` is as long as `values`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn clipped_sum(values: &[i16], weights: &[i16]) -> i32 {
        let whole = whole(values.len());
        let mut sum = _mm256_setzero_si256();
        for at in (0..whole).step_by(AVX2_LANES) {
            // SAFETY: `at + AVX2_LANES <= whole`, at most the length of both slices.
            let (v, w) = unsafe { (load(values, at), load(weights, at)) };
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clip(v), w));
        }
        sum_i32(sum).wrapping_add(tail(values, weights, whole, portable::clipped_sum))
    }

    /// [`super::Kernels::squared_sum_i32`].
    ///
    /// # Safety
    /// The CPU runs AVX2; `weights` is as long as `values`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn squared_sum_i32(values: &[i16], weights: &[i16]) -> i32 {
        let whole = whole(values.len());
        let mut sum = _mm256_setzero_si256();
        for at in (0..whole).step_by(AVX2_LANES) {
            // SAFETY: `at + AVX2_LANES <= whole`, at most the length of both slices.
            let (v, w) = unsafe { (load(values, at), load(weights, at)) };
            let [low, high] = squared_terms(v, w);
            sum = _mm256_add_epi32(sum, _mm256_add_epi32(low, high));
        }
        sum_i32(sum).wrapping_add(tail(values, weights, whole, portable::squared_sum_i32))
    }

    /// [`super::Kernels::squared_sum_i64`]: the i32 terms widened to i64 before they are
    /// added.
    ///
    /// # Safety
    /// The CPU runs AVX2; `weights` is as long as `values`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn squared_sum_i64(values: &[i16], weights: &[i16]) -> i64 {
        let whole = whole(values.len());
        let mut sum = _mm256_setzero_si256();
        for at in (0..whole).step_by(AVX2_LANES) {
            // SAFETY: `at + AVX2_LANES <= whole`, at most the length of both slices.
            let (v, w) = unsafe { (load(values, at), load(weights, at)) };
            let [low, high] = squared_terms(v, w);
            sum = add_widened(add_widened(sum, low), high);
        }
        sum_i64(sum) + tail(values, weights, whole, portable::squared_sum_i64)
    }
}

/// The loops on 512-bit vectors, the AVX2 ones widened (AVX-512BW has the 16-bit
/// instructions, AVX-512F the rest). Each `unsafe fn` requires a CPU with AVX-512F and
/// AVX-512BW and slices of one length.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::avx2::{sum_i32 as sum_i32_avx2, sum_i64 as sum_i64_avx2};
    use super::{QA, portable, tail};
    use std::arch::x86_64::{
        __m512i, _mm512_add_epi16, _mm512_add_epi32, _mm512_add_epi64, _mm512_castsi512_si256,
        _mm512_cvtepi32_epi64, _mm512_extracti64x4_epi64, _mm512_loadu_si512, _mm512_madd_epi16,
        _mm512_max_epi16, _mm512_min_epi16, _mm512_mullo_epi32, _mm512_set1_epi16,
        _mm512_setzero_si512, _mm512_storeu_si512, _mm512_sub_epi16, _mm512_unpackhi_epi16,
        _mm512_unpacklo_epi16,
    };
    use std::arch::x86_64::{_mm256_add_epi32, _mm256_add_epi64};

    /// i16 units in one 512-bit vector.
    pub(super) const AVX512_LANES: usize = 32;

    /// The `AVX512_LANES` units of `slice` from `at`.
    ///
    /// # Safety
    /// `at + AVX512_LANES` is at most the length of `slice`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    unsafe fn load(slice: &[i16], at: usize) -> __m512i {
        debug_assert!(at + AVX512_LANES <= slice.len());
        // SAFETY: the caller keeps the 32 units read inside `slice`; an unaligned load
        // takes any address.
        unsafe { _mm512_loadu_si512(slice.as_ptr().add(at).cast()) }
    }

    /// Units clipped to 0..QA.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn clip(values: __m512i) -> __m512i {
        #[allow(clippy::cast_possible_truncation, reason = "QA is 255")]
        let top = _mm512_set1_epi16(QA as i16);
        _mm512_min_epi16(_mm512_max_epi16(values, _mm512_setzero_si512()), top)
    }

    /// The squared terms of 32 units as two vectors of 16 i32, as in the AVX2 form.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn squared_terms(values: __m512i, weights: __m512i) -> [__m512i; 2] {
        let zero = _mm512_setzero_si512();
        let clipped = clip(values);
        let low = _mm512_unpacklo_epi16(clipped, zero);
        let high = _mm512_unpackhi_epi16(clipped, zero);
        let low_products = _mm512_madd_epi16(low, _mm512_unpacklo_epi16(weights, zero));
        let high_products = _mm512_madd_epi16(high, _mm512_unpackhi_epi16(weights, zero));
        [
            _mm512_mullo_epi32(low_products, low),
            _mm512_mullo_epi32(high_products, high),
        ]
    }

    /// The sum of 16 i32 lanes, wrapping.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn sum_i32(v: __m512i) -> i32 {
        let halves = _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
        sum_i32_avx2(halves)
    }

    /// The sum of eight i64 lanes.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn sum_i64(v: __m512i) -> i64 {
        let halves = _mm256_add_epi64(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
        sum_i64_avx2(halves)
    }

    /// 16 i32 lanes widened to i64 and added to the eight lanes of `sum`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn add_widened(sum: __m512i, terms: __m512i) -> __m512i {
        let low = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(terms));
        let high = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64::<1>(terms));
        _mm512_add_epi64(sum, _mm512_add_epi64(low, high))
    }

    /// The units a loop of `n` takes in whole vectors.
    fn whole(n: usize) -> usize {
        n / AVX512_LANES * AVX512_LANES
    }

    /// [`super::Kernels::apply`] (as the AVX2 form).
    ///
    /// # Safety
    /// The CPU runs AVX-512F and AVX-512BW; `src` and every row are as long as `dst`.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn apply(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        // SAFETY: each arm passes on the caller's promise (the CPU runs AVX-512F and BW,
        // every row is as long as `dst`), and `apply_rows` asks no more.
        unsafe {
            match (adds, subs) {
                (&[a], &[s]) => apply_rows(dst, src, &[a], &[s]),
                (&[a], &[s, t]) => apply_rows(dst, src, &[a], &[s, t]),
                (&[a, b], &[s, t]) => apply_rows(dst, src, &[a, b], &[s, t]),
                _ => apply_rows(dst, src, adds, subs),
            }
        }
    }

    /// [`apply`]'s loop, inlined into each of its arms, where the number of rows is known.
    ///
    /// # Safety
    /// As [`apply`].
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    unsafe fn apply_rows(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let whole = whole(dst.len());
        for at in (0..whole).step_by(AVX512_LANES) {
            // SAFETY: `at + AVX512_LANES <= whole`, and every slice is at least `whole`
            // long (the caller's promise), so each load and the store stay inside their
            // slice; an unaligned store takes any address.
            unsafe {
                let mut v = load(src, at);
                for row in adds {
                    v = _mm512_add_epi16(v, load(row, at));
                }
                for row in subs {
                    v = _mm512_sub_epi16(v, load(row, at));
                }
                _mm512_storeu_si512(dst.as_mut_ptr().add(at).cast(), v);
            }
        }
        if whole < dst.len() {
            portable::apply(dst, src, adds, subs, whole);
        }
    }

    /// [`super::Kernels::clipped_sum`] (as the AVX2 form).
    ///
    /// # Safety
    /// The CPU runs AVX-512F and AVX-512BW; `weights` is as long as `values`.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn clipped_sum(values: &[i16], weights: &[i16]) -> i32 {
        let whole = whole(values.len());
        let mut sum = _mm512_setzero_si512();
        for at in (0..whole).step_by(AVX512_LANES) {
            // SAFETY: `at + AVX512_LANES <= whole`, at most the length of both slices.
            let (v, w) = unsafe { (load(values, at), load(weights, at)) };
            sum = _mm512_add_epi32(sum, _mm512_madd_epi16(clip(v), w));
        }
        sum_i32(sum).wrapping_add(tail(values, weights, whole, portable::clipped_sum))
    }

    /// [`super::Kernels::squared_sum_i32`].
    ///
    /// # Safety
    /// The CPU runs AVX-512F and AVX-512BW; `weights` is as long as `values`.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn squared_sum_i32(values: &[i16], weights: &[i16]) -> i32 {
        let whole = whole(values.len());
        let mut sum = _mm512_setzero_si512();
        for at in (0..whole).step_by(AVX512_LANES) {
            // SAFETY: `at + AVX512_LANES <= whole`, at most the length of both slices.
            let (v, w) = unsafe { (load(values, at), load(weights, at)) };
            let [low, high] = squared_terms(v, w);
            sum = _mm512_add_epi32(sum, _mm512_add_epi32(low, high));
        }
        sum_i32(sum).wrapping_add(tail(values, weights, whole, portable::squared_sum_i32))
    }

    /// [`super::Kernels::squared_sum_i64`].
    ///
    /// # Safety
    /// The CPU runs AVX-512F and AVX-512BW; `weights` is as long as `values`.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn squared_sum_i64(values: &[i16], weights: &[i16]) -> i64 {
        let whole = whole(values.len());
        let mut sum = _mm512_setzero_si512();
        for at in (0..whole).step_by(AVX512_LANES) {
            // SAFETY: `at + AVX512_LANES <= whole`, at most the length of both slices.
            let (v, w) = unsafe { (load(values, at), load(weights, at)) };
            let [low, high] = squared_terms(v, w);
            sum = add_widened(add_widened(sum, low), high);
        }
        sum_i64(sum) + tail(values, weights, whole, portable::squared_sum_i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sizes of a hidden layer around the lanes of every form, and the largest a file
    /// may declare.
    const SIZES: [usize; 15] = [1, 2, 7, 15, 16, 17, 31, 32, 33, 48, 63, 100, 128, 129, 4096];

    /// Values where integer arithmetic goes wrong if it can: the ends of i16, the clipping
    /// bounds and their neighbours.
    const EXTREMES: [i16; 11] = [
        i16::MIN,
        i16::MIN + 1,
        -256,
        -1,
        0,
        1,
        254,
        255,
        256,
        i16::MAX - 1,
        i16::MAX,
    ];

    /// A xorshift generator: reproducible random numbers without a dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            usize::try_from(self.next() % n as u64).unwrap()
        }

        /// One i16: an extreme one time in four, else any, often near the clipping range.
        fn value(&mut self) -> i16 {
            let bits = self.next();
            match bits % 4 {
                0 => EXTREMES[self.below(EXTREMES.len())],
                1 => i16::try_from((bits >> 8) % 600).unwrap() - 300,
                #[allow(clippy::cast_possible_truncation, reason = "any 16 bits")]
                _ => (bits >> 16) as i16,
            }
        }

        fn values(&mut self, n: usize) -> Vec<i16> {
            (0..n).map(|_| self.value()).collect()
        }
    }

    /// Every vector form this CPU runs (the portable one is the reference).
    fn vector_forms() -> Vec<Kernels> {
        let all = Kernels::available();
        assert_eq!(all[0], Kernels::PORTABLE);
        println!(
            "forms: {:?}",
            all.iter().map(|k| k.name()).collect::<Vec<_>>()
        );
        all[1..].to_vec()
    }

    #[test]
    fn detection_picks_the_widest_form_available() {
        assert_eq!(Some(&Kernels::detect()), Kernels::available().last());
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") {
            assert!(Kernels::available().iter().any(|k| k.name() == "avx2"));
        }
    }

    /// Rows added and subtracted: the vector forms equal the portable one for every count
    /// of rows (the unrolled ones and the general loop), every size, random and extreme
    /// units (sums that wrap included).
    #[test]
    fn every_form_applies_rows_as_the_portable_one() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let counts = [
            (0, 0),
            (1, 1),
            (1, 2),
            (2, 2),
            (1, 0),
            (0, 3),
            (3, 3),
            (32, 0),
        ];
        for k in vector_forms() {
            for n in SIZES {
                for (adds, subs) in counts {
                    let src = rng.values(n);
                    let rows: Vec<Vec<i16>> = (0..adds + subs).map(|_| rng.values(n)).collect();
                    let rows: Vec<&[i16]> = rows.iter().map(Vec::as_slice).collect();
                    let (added, subtracted) = rows.split_at(adds);
                    let mut expected = vec![0; n];
                    Kernels::PORTABLE.apply(&mut expected, &src, added, subtracted);
                    let mut got = vec![7; n];
                    k.apply(&mut got, &src, added, subtracted);
                    assert_eq!(got, expected, "{} n {n} rows {adds}+{subs}", k.name());
                }
            }
        }
    }

    /// The output layer's three sums: the vector forms equal the portable one on random
    /// and extreme units and weights (i32 sums that wrap included).
    #[test]
    fn every_form_sums_the_output_layer_as_the_portable_one() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let p = Kernels::PORTABLE;
        for k in vector_forms() {
            for n in SIZES {
                for _ in 0..20 {
                    let (values, weights) = (rng.values(n), rng.values(n));
                    let name = k.name();
                    assert_eq!(
                        k.clipped_sum(&values, &weights),
                        p.clipped_sum(&values, &weights),
                        "{name} clipped n {n}"
                    );
                    assert_eq!(
                        k.squared_sum_i32(&values, &weights),
                        p.squared_sum_i32(&values, &weights),
                        "{name} squared i32 n {n}"
                    );
                    assert_eq!(
                        k.squared_sum_i64(&values, &weights),
                        p.squared_sum_i64(&values, &weights),
                        "{name} squared i64 n {n}"
                    );
                }
            }
        }
    }

    /// The largest sums there are: every unit at the clipping bound or far above it, every
    /// weight at an end of i16, in the largest hidden layer.
    #[test]
    fn every_form_agrees_at_the_ends_of_the_range() {
        let p = Kernels::PORTABLE;
        for k in vector_forms() {
            for value in [255, 256, i16::MAX, i16::MIN, 0] {
                for weight in [i16::MIN, i16::MAX, -1] {
                    let values = vec![value; 4096];
                    let weights = vec![weight; 4096];
                    assert_eq!(
                        k.clipped_sum(&values, &weights),
                        p.clipped_sum(&values, &weights)
                    );
                    assert_eq!(
                        k.squared_sum_i32(&values, &weights),
                        p.squared_sum_i32(&values, &weights)
                    );
                    let wide = p.squared_sum_i64(&values, &weights);
                    assert_eq!(k.squared_sum_i64(&values, &weights), wide);
                    if value >= 255 {
                        assert_eq!(wide, 4096 * 255 * 255 * i64::from(weight), "exact in i64");
                    }
                }
            }
            let mut dst = vec![0; 4096];
            let top = vec![i16::MAX; 4096];
            k.apply(&mut dst, &top, &[&top], &[]);
            assert_eq!(dst, vec![-2; 4096], "i16::MAX + i16::MAX wraps to -2");
        }
    }

    #[test]
    #[should_panic(expected = "rows of one length")]
    fn rows_of_another_length_are_refused() {
        let mut dst = vec![0; 32];
        Kernels::detect().apply(&mut dst, &[0; 32], &[&[1; 31]], &[]);
    }
}
