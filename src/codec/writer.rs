//! An append-only byte writer: over a reusable `Vec<u8>` of its own, or over memory lent
//! to it for one message (`lend`: the binding lends a Node Buffer's, so a large output is
//! written where JS will read it, not copied there after).

use std::mem::MaybeUninit;
use std::ptr;

use super::varint::{MAX_VARINT64_LEN, MAX_VARINT_LEN};

/// Writes go to `ptr[len..cap]`. While nothing is lent, `ptr` and `cap` are `own`'s
/// memory and capacity (`own`'s length is kept 0: `len` is the length); while memory is
/// lent, they are that memory's, until a write needs more room than it has, when the bytes
/// written so far move to `own` and the writer goes on there (`is_lent` is then false).
#[derive(Debug)]
pub struct Writer {
    ptr: *mut u8,
    len: usize,
    cap: usize,
    lent: bool,
    own: Vec<u8>,
}

impl Default for Writer {
    fn default() -> Self {
        let mut own = Vec::new();
        Self {
            ptr: own.as_mut_ptr(),
            len: 0,
            cap: 0,
            lent: false,
            own,
        }
    }
}

impl Writer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Empties the writer, keeping its own capacity for the next message; memory lent to
    /// it is let go.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        if self.lent {
            self.lent = false;
            self.ptr = self.own.as_mut_ptr();
            self.cap = self.own.capacity();
        }
    }

    /// Writes the next message into `cap` bytes at `ptr`, not into the writer's own
    /// memory; a message that outgrows them moves to its own memory (`is_lent` false
    /// after). The writer is emptied.
    ///
    /// # Safety
    /// `ptr` must be valid for writes of `cap` bytes, and not read or written by anything
    /// else, until the writer is cleared (`clear`) or dropped; the caller reads the
    /// message through `as_slice` or from that memory before then.
    pub unsafe fn lend(&mut self, ptr: *mut u8, cap: usize) {
        self.ptr = ptr;
        self.cap = cap;
        self.len = 0;
        self.lent = true;
    }

    /// Moves a message in lent memory to the writer's own, which holds it from then on
    /// (the lent memory may go); nothing if none is lent.
    pub fn keep(&mut self) {
        if self.lent {
            self.grow(0);
        }
    }

    /// Whether the bytes written are in memory lent by `lend` (they fit).
    #[inline]
    pub fn is_lent(&self) -> bool {
        self.lent
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The capacity of the writer's own memory (not of memory lent to it).
    #[inline]
    pub fn capacity(&self) -> usize {
        self.own.capacity()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: `ptr` is non-null and valid for `cap` bytes (own memory, or lent memory
        // per `lend`'s contract), and the first `len <= cap` were written.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// The bytes written so far, to patch in place.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as in `as_slice`, through `&mut self`.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }

    /// Shortens the output to `len` bytes.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Drops all but `keep` bytes of its own capacity (more if its own memory holds a
    /// longer message), so one huge message does not pin memory.
    pub fn shrink_to(&mut self, keep: usize) {
        let used = if self.lent { 0 } else { self.len };
        // SAFETY: the first `used` bytes of `own` were written (own memory holds the
        // message unless memory is lent); its length goes back to 0 after.
        unsafe { self.own.set_len(used) };
        self.own.shrink_to(keep);
        // SAFETY: 0 is always a valid length.
        unsafe { self.own.set_len(0) };
        if !self.lent {
            self.ptr = self.own.as_mut_ptr();
            self.cap = self.own.capacity();
        }
    }

    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        if self.cap - self.len < additional {
            self.grow(additional);
        }
    }

    /// Room for `additional` more bytes in the writer's own memory: it grows, or the
    /// message moves there from lent memory that is too small.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, additional: usize) {
        let need = self
            .len
            .checked_add(additional)
            .expect("writer length overflow");
        if self.lent {
            self.own.clear();
            self.own.reserve(need.max(self.len.saturating_mul(2)));
            // SAFETY: the lent memory holds `len` written bytes (per `lend`'s contract it
            // is still valid) and `own` has room for at least `need >= len`; they are two
            // allocations, so they do not overlap.
            unsafe { ptr::copy_nonoverlapping(self.ptr, self.own.as_mut_ptr(), self.len) };
            self.lent = false;
        } else {
            // SAFETY: `own`'s first `len` bytes were written (its memory holds the message);
            // `reserve` keeps them, and the length goes back to 0 after.
            unsafe { self.own.set_len(self.len) };
            self.own.reserve(additional);
            // SAFETY: 0 is always a valid length.
            unsafe { self.own.set_len(0) };
        }
        self.ptr = self.own.as_mut_ptr();
        self.cap = self.own.capacity();
    }

    #[inline]
    pub fn u8(&mut self, value: u8) {
        if self.len == self.cap {
            self.grow(1);
        }
        // SAFETY: `len < cap` (just checked or grown), so the byte is within the memory.
        unsafe { *self.ptr.add(self.len) = value };
        self.len += 1;
    }

    #[inline]
    pub fn varint(&mut self, mut value: u32) {
        // One capacity check for the whole varint, then plain stores: per-byte pushes
        // re-check capacity each time (~3.4 ns for a 5-byte value against ~1.6 ns).
        self.reserve(MAX_VARINT_LEN);
        // SAFETY: `reserve` made room for MAX_VARINT_LEN bytes past `len`, and a u32
        // varint is at most that long; `len` covers exactly the bytes written.
        unsafe {
            let p = self.ptr.add(self.len);
            let mut i = 0;
            while value >= 0x80 {
                *p.add(i) = (value as u8) | 0x80;
                value >>= 7;
                i += 1;
            }
            *p.add(i) = value as u8;
            self.len += i + 1;
        }
    }

    #[inline]
    pub fn varint64(&mut self, mut value: u64) {
        if value < 0x80 {
            self.u8(value as u8);
            return;
        }
        self.reserve(MAX_VARINT64_LEN);
        // SAFETY: as in `varint`, with room for the longest u64 varint.
        unsafe {
            let p = self.ptr.add(self.len);
            let mut i = 0;
            while value >= 0x80 {
                *p.add(i) = (value as u8) | 0x80;
                value >>= 7;
                i += 1;
            }
            *p.add(i) = value as u8;
            self.len += i + 1;
        }
    }

    #[inline]
    pub fn f32(&mut self, value: f32) {
        self.bytes(&value.to_le_bytes());
    }

    #[inline]
    pub fn f64(&mut self, value: f64) {
        self.bytes(&value.to_le_bytes());
    }

    #[inline]
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.reserve(bytes.len());
        // SAFETY: `reserve` made room for `bytes.len()` bytes past `len`; `bytes` is
        // borrowed shared while the writer is borrowed mutably, so it is not this memory.
        unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr.add(self.len), bytes.len()) };
        self.len += bytes.len();
    }

    /// The bytes after `len()`, at least `additional` of them, for writing in place
    /// before `commit`.
    #[inline]
    pub fn spare(&mut self, additional: usize) -> &mut [MaybeUninit<u8>] {
        self.reserve(additional);
        // SAFETY: `ptr[len..cap]` is within the memory and not otherwise borrowed (the
        // slice borrows the writer); MaybeUninit makes no claim about its contents.
        unsafe {
            std::slice::from_raw_parts_mut(
                self.ptr.add(self.len).cast::<MaybeUninit<u8>>(),
                self.cap - self.len,
            )
        }
    }

    /// Marks `n` bytes after `len()`, written through `spare`, as part of the message.
    ///
    /// # Safety
    /// The first `n` bytes of `spare()` must have been initialised.
    #[inline]
    pub unsafe fn commit(&mut self, n: usize) {
        debug_assert!(n <= self.cap - self.len);
        self.len += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lent_memory_holds_a_message_that_fits() {
        let mut out = vec![0u8; 16];
        let mut w = Writer::new();
        // SAFETY: `out` outlives the writer's use of it; the writer is cleared before
        // `out` is read directly.
        unsafe { w.lend(out.as_mut_ptr(), out.len()) };
        w.varint(300);
        w.bytes(b"abc");
        assert!(w.is_lent());
        assert_eq!(w.as_slice(), &[0xac, 0x02, b'a', b'b', b'c']);
        w.clear();
        assert!(!w.is_lent());
        assert!(w.is_empty());
        assert_eq!(&out[..5], &[0xac, 0x02, b'a', b'b', b'c']);
    }

    #[test]
    fn a_message_that_outgrows_lent_memory_moves_to_its_own() {
        let mut out = vec![0u8; 4];
        let mut w = Writer::new();
        // SAFETY: as above.
        unsafe { w.lend(out.as_mut_ptr(), out.len()) };
        w.bytes(b"abc");
        w.f64(1.5);
        assert!(!w.is_lent());
        let mut want = b"abc".to_vec();
        want.extend_from_slice(&1.5f64.to_le_bytes());
        assert_eq!(w.as_slice(), &want[..]);
        // The lent memory got what fitted before the move, and nothing after.
        assert_eq!(&out[..4], &[b'a', b'b', b'c', 0]);
        w.u8(7);
        assert_eq!(w.len(), want.len() + 1);
    }

    #[test]
    fn keep_moves_a_message_out_of_lent_memory() {
        let mut out = vec![0u8; 8];
        let mut w = Writer::new();
        // SAFETY: `out` outlives the writer's use of it and is overwritten only after
        // `keep`.
        unsafe { w.lend(out.as_mut_ptr(), out.len()) };
        w.bytes(b"abc");
        w.keep();
        assert!(!w.is_lent());
        out.fill(9);
        assert_eq!(w.as_slice(), b"abc");
        w.keep();
        assert_eq!(w.as_slice(), b"abc");
    }

    #[test]
    fn own_memory_grows_and_shrinks_keeping_the_message() {
        let mut w = Writer::new();
        for i in 0..10_000u32 {
            w.varint(i);
        }
        let before = w.as_slice().to_vec();
        w.shrink_to(0);
        assert_eq!(w.as_slice(), &before[..]);
        w.truncate(3);
        assert_eq!(w.as_slice(), &before[..3]);
        w.clear();
        w.shrink_to(0);
        assert_eq!(w.capacity(), 0);
        w.u8(1);
        assert_eq!(w.as_slice(), &[1]);
    }

    #[test]
    fn spare_and_commit_write_in_place() {
        let mut w = Writer::new();
        w.u8(9);
        let s = w.spare(3);
        assert!(s.len() >= 3);
        s[0].write(1);
        s[1].write(2);
        // SAFETY: two bytes of `spare` were written.
        unsafe { w.commit(2) };
        assert_eq!(w.as_slice(), &[9, 1, 2]);
    }
}
