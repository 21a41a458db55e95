//! A search when the allocator refuses the tables each search thread makes for itself
//! (history, evaluation cache, pawn table): it must go on without them, not abort. This
//! file is a test binary of its own because it replaces the global allocator.

use ferrimax::chess::Board;
use ferrimax::search::{self, SearchControl, SearchRequest, TranspositionTable};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// While armed, every allocation of at least this many bytes is refused.
const REFUSED_FROM_BYTES: usize = 128 << 10;

/// The system allocator, refusing large allocations while `ARMED` is set.
struct Refusing;

static ARMED: AtomicBool = AtomicBool::new(false);

fn refuses(size: usize) -> bool {
    ARMED.load(Relaxed) && size >= REFUSED_FROM_BYTES
}

// SAFETY: every call is passed on to the system allocator unchanged, or answered with a
// null pointer, which the `GlobalAlloc` contract allows for any refusal.
unsafe impl GlobalAlloc for Refusing {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if refuses(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if refuses(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if refuses(new_size) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's block, layout and size, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's block and layout, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Refusing = Refusing;

#[test]
fn a_search_goes_on_when_its_tables_are_refused() {
    const DEPTH: u32 = 6;
    let board = Board::startpos();
    let tt = TranspositionTable::new(1);
    let request = SearchRequest::new(board.clone()).depth(DEPTH);
    let control = SearchControl::new();
    ARMED.store(true, Relaxed);
    let result = search::search(&request, &tt, &control, &mut |_| {});
    ARMED.store(false, Relaxed);
    assert!(board.is_legal(result.best_move));
    assert_eq!(result.depth, i32::try_from(DEPTH).unwrap());
}
