//! Warm memory for outputs: a nudge to glibc's malloc, once, in a process that encodes a
//! message too large for a slab (over 8 KiB).
//!
//! Every encode larger than a slab's share returns a Buffer of its own (`napi_create_buffer_copy`,
//! or `napi_create_buffer` written in place: mod.rs, `encode_large`),
//! malloc'd from the heap and freed when V8 collects it. V8 frees such Buffers in batches
//! (at a scavenge or a mark-compact, many at once when the marshalling made little other
//! garbage), and when a batch leaves more free memory at the top of the heap than glibc's
//! trim threshold, glibc gives it back to the system: the next outputs land on fresh pages,
//! and on this project's machines a fresh page costs ~2.4-3.5 µs to fault in (gsoc-2018
//! encode, 2.7 MB: ~675 faults, 1.6-2.3 ms of a ~3 ms encode; docs/DESIGN.md, "Large
//! encodes and the output's memory"). Outputs of tens of KiB suffer it too: github_events
//! (38 KB) took ~9 faults per encode and ran at 0.6x the speed it has without them.
//!
//! glibc adapts its thresholds by itself: when a program frees a chunk that came from
//! `mmap` (above the mmap threshold, 128 KiB at start), it raises the mmap threshold to that
//! chunk's size and the trim threshold to twice that, up to 32 MiB and 64 MiB
//! (`DEFAULT_MMAP_THRESHOLD_MAX` on 64-bit). `adapt` makes that happen once, with the
//! largest chunk glibc adapts to (mapped and unmapped, never touched: two system calls),
//! the first time this process encodes a message that gets a Buffer of its own. So a
//! process that does keeps up to 64 MiB of freed memory for reuse, as glibc would have
//! after freeing any 32 MiB buffer (in practice what its outputs use at their peak:
//! 20,000 github_events encodes ended at 90 MB RSS against 72 MB without). Nothing else: a threshold the user set
//! (`MALLOC_TRIM_THRESHOLD_`, `MALLOC_MMAP_THRESHOLD_`, `mallopt`) turns glibc's adapting
//! off and this with it, other C libraries and allocators are left alone, and
//! `SHORN_NO_MALLOC_ADAPT=1` in the environment turns it off.

/// Makes glibc raise its mmap and trim thresholds to their adaptive maximum, once per
/// process (see the module's doc); elsewhere, nothing.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn adapt() {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicBool, Ordering};
    static DONE: AtomicBool = AtomicBool::new(false);
    if DONE.swap(true, Ordering::Relaxed) {
        return;
    }
    if std::env::var_os("SHORN_NO_MALLOC_ADAPT").is_some_and(|v| !v.is_empty() && v != "0") {
        return;
    }
    // Two pages under 32 MiB: with its header, rounded up to pages, the chunk is at most
    // the 32 MiB glibc adapts to.
    let Ok(layout) = Layout::from_size_align((32 << 20) - 2 * 4096, 1) else {
        return;
    };
    // SAFETY: a non-zero size; `System` with an alignment of 1 is `malloc`, and the block
    // goes back to `free` with the layout it was made with, untouched. `black_box` keeps
    // the compiler from removing the pair.
    unsafe {
        let block = System.alloc(layout);
        if !block.is_null() {
            System.dealloc(std::hint::black_box(block), layout);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn adapt() {}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use std::alloc::{GlobalAlloc, Layout, System};

    /// glibc's `struct mallinfo2` (2.33 and later).
    #[repr(C)]
    struct Mallinfo2 {
        arena: usize,
        ordblks: usize,
        smblks: usize,
        hblks: usize,
        /// Bytes in chunks made by `mmap`.
        hblkhd: usize,
        usmblks: usize,
        fsmblks: usize,
        uordblks: usize,
        fordblks: usize,
        keepcost: usize,
    }

    unsafe extern "C" {
        fn mallinfo2() -> Mallinfo2;
    }

    /// Bytes glibc holds in chunks of their own mapping.
    fn mapped() -> usize {
        // SAFETY: `mallinfo2` only reads the allocator's counters.
        unsafe { mallinfo2() }.hblkhd
    }

    #[test]
    fn after_adapt_a_block_under_32_mib_comes_from_the_heap() {
        // Without `adapt` (mmap threshold at its first 128 KiB, or what this test process
        // freed), 20 MiB is mapped on its own: glibc's mapped bytes grow by it.
        super::adapt();
        let layout = Layout::from_size_align(20 << 20, 1).unwrap();
        let before = mapped();
        // SAFETY: a non-zero size; freed below with the same layout.
        let block = unsafe { System.alloc(layout) };
        assert!(!block.is_null());
        let during = mapped();
        // SAFETY: made above with `layout`.
        unsafe { System.dealloc(std::hint::black_box(block), layout) };
        assert!(
            during < before + (1 << 20),
            "{before} -> {during} mapped bytes"
        );
    }
}
