//! Memory the engine asks for that the machine may not have.
//!
//! The hash table is sized by a policy: at most a share of physical memory (Linux lends
//! more than it has and kills the process later, when the search has filled the table),
//! then halved until the allocator agrees. The tables each search thread makes for itself
//! (history, evaluation and pawn caches) are asked for without aborting on refusal
//! ([`try_filled`]); each works, less well, without its memory.

use std::fmt;

/// The table may take at most this share (numerator / denominator) of the machine's
/// physical memory. Linux lends more memory than it has (overcommit): a table that is
/// allocated but does not fit in RAM gets the engine killed hours later, when the search
/// has filled it. A quarter is left to the OS, the GUI and the opponent engine.
const PHYSICAL_SHARE: (usize, usize) = (3, 4);
/// The cap used on Linux when `/proc/meminfo` cannot be read (no `/proc` mounted): a size
/// that fits on any machine that still runs chess GUIs, and is plenty for the search.
const UNKNOWN_MEMORY_LIMIT_MB: usize = 4096;

/// The table could not be allocated at the size asked for (the allocator refused, or
/// the size does not fit in the address space).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// The size that could not be had.
    pub megabytes: usize,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} MB cannot be allocated", self.megabytes)
    }
}

impl std::error::Error for AllocError {}

/// The sizes to try for a request, largest first: the request capped at `limit_mb`, then
/// halves of it down to 1 MB.
fn sizes_to_try(requested_mb: usize, limit_mb: usize) -> impl Iterator<Item = usize> {
    let first = requested_mb.min(limit_mb).max(1);
    std::iter::successors(Some(first), |&mb| (mb > 1).then_some(mb / 2))
}

/// The largest size from `sizes_to_try` that `allocate` accepts, with what it made;
/// the error of the last (1 MB) attempt when none does.
pub fn largest_fitting<T>(
    requested_mb: usize,
    limit_mb: usize,
    mut allocate: impl FnMut(usize) -> Result<T, AllocError>,
) -> Result<(T, usize), AllocError> {
    let mut failure = AllocError {
        megabytes: requested_mb,
    };
    for mb in sizes_to_try(requested_mb, limit_mb) {
        match allocate(mb) {
            Ok(made) => return Ok((made, mb)),
            Err(error) => {
                log::debug!("hash table: {error}");
                failure = error;
            }
        }
    }
    Err(failure)
}

/// MemTotal of `/proc/meminfo`, in MB.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn mem_total_mb(meminfo: &str) -> Option<usize> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line.split_whitespace().skip(1);
    let kilobytes: usize = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kilobytes >> 10)
}

/// [`PHYSICAL_SHARE`] of a machine with `physical_mb` of memory (unknown: the fallback).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn limit_for_physical(physical_mb: Option<usize>) -> usize {
    let (numerator, denominator) = PHYSICAL_SHARE;
    physical_mb.map_or(UNKNOWN_MEMORY_LIMIT_MB, |mb| {
        (mb / denominator * numerator).max(1)
    })
}

/// The largest table this machine should hold, in MB: `PHYSICAL_SHARE` of MemTotal.
#[cfg(target_os = "linux")]
pub fn memory_limit_mb() -> usize {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    limit_for_physical(meminfo.as_deref().and_then(mem_total_mb))
}

/// Elsewhere the allocator's refusal is the only limit: Windows does not lend memory it
/// cannot back, so a table too large fails at allocation instead of later.
#[cfg(not(target_os = "linux"))]
pub fn memory_limit_mb() -> usize {
    usize::MAX
}

/// `len` copies of `value`, or `None` when the allocator refuses (where `vec!` would abort
/// the process).
pub fn try_filled<T: Clone>(len: usize, value: T) -> Option<Box<[T]>> {
    let mut table = Vec::new();
    table.try_reserve_exact(len).ok()?;
    table.resize(len, value);
    Some(table.into_boxed_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An allocator that grants up to `available` MB.
    fn grant_up_to(available: usize) -> impl FnMut(usize) -> Result<usize, AllocError> {
        move |mb| {
            if mb <= available {
                Ok(mb)
            } else {
                Err(AllocError { megabytes: mb })
            }
        }
    }

    #[test]
    fn largest_fitting_caps_then_halves_until_the_allocator_agrees() {
        // (name, requested, limit, the allocator grants up to, expected size)
        let cases = [
            ("fits as asked", 64, 18_000, 1 << 20, Ok(64)),
            ("zero means the least", 0, 18_000, 1 << 20, Ok(1)),
            (
                "capped at the limit",
                99_999_999,
                18_000,
                1 << 20,
                Ok(18_000),
            ),
            ("halved once", 30_000, 1 << 20, 20_000, Ok(15_000)),
            ("halved down to 1 MB", 1024, 1 << 20, 1, Ok(1)),
            ("limit then halved", 65_536, 18_000, 5_000, Ok(4_500)),
            ("odd sizes round down", 1001, 1 << 20, 300, Ok(250)),
            ("huge request", usize::MAX, usize::MAX, 4096, Ok(4095)),
            (
                "nothing fits",
                64,
                18_000,
                0,
                Err(AllocError { megabytes: 1 }),
            ),
        ];
        for (name, requested, limit, available, expected) in cases {
            let got = largest_fitting(requested, limit, grant_up_to(available));
            assert_eq!(
                got.map(|(made, mb)| {
                    assert_eq!(made, mb, "{name}");
                    mb
                }),
                expected,
                "{name}"
            );
        }
    }

    #[test]
    fn physical_memory_limit() {
        let meminfo = "MemTotal:       24684084 kB\nMemFree:        1000 kB\n";
        let cases = [
            ("this machine", meminfo, Some(24_105)),
            (
                "MemTotal not first",
                "MemFree: 1 kB\nMemTotal: 2048 kB\n",
                Some(2),
            ),
            ("no MemTotal", "MemFree: 1 kB\n", None),
            ("not a number", "MemTotal: lots kB\n", None),
            ("unknown unit", "MemTotal: 2048 MB\n", None),
            ("empty", "", None),
        ];
        for (name, text, expected) in cases {
            assert_eq!(mem_total_mb(text), expected, "{name}");
        }
        assert_eq!(limit_for_physical(Some(24_105)), 18_078);
        assert_eq!(
            limit_for_physical(Some(1)),
            1,
            "a tiny machine still gets 1 MB"
        );
        assert_eq!(limit_for_physical(None), UNKNOWN_MEMORY_LIMIT_MB);
        assert!(memory_limit_mb() >= 1);
    }

    #[test]
    fn a_refused_table_is_none_not_an_abort() {
        assert_eq!(try_filled(3, 7u8).as_deref(), Some(&[7u8, 7, 7][..]));
        // More than the address space: the allocator refuses.
        assert!(std::hint::black_box(try_filled(usize::MAX / 2, 0u64)).is_none());
    }
}
