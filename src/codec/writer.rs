//! An append-only byte writer over a reusable `Vec<u8>`.

#[derive(Debug, Default)]
pub struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Empties the writer, keeping its capacity for the next message.
    #[inline]
    pub fn clear(&mut self) {
        self.buf.clear();
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// Drops all but `keep` bytes of capacity, so one huge message does not pin memory.
    pub fn shrink_to(&mut self, keep: usize) {
        self.buf.shrink_to(keep);
    }

    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        self.buf.reserve(additional);
    }

    #[inline]
    pub fn u8(&mut self, value: u8) {
        self.buf.push(value);
    }

    #[inline]
    pub fn varint(&mut self, mut value: u32) {
        // Byte pushes, not a copy from a scratch array: a variable-length copy is a memmove
        // call, which showed as ~10% of a Person encode.
        while value >= 0x80 {
            self.buf.push((value as u8) | 0x80);
            value >>= 7;
        }
        self.buf.push(value as u8);
    }

    #[inline]
    pub fn f32(&mut self, value: f32) {
        self.buf.extend_from_slice(&value.to_le_bytes());
    }

    #[inline]
    pub fn f64(&mut self, value: f64) {
        self.buf.extend_from_slice(&value.to_le_bytes());
    }

    #[inline]
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Gives `n` writable bytes at the end (zeroed); used by the transcoder to write
    /// UTF-8 in place.
    #[inline]
    pub fn extend_zeroed(&mut self, n: usize) -> &mut [u8] {
        let start = self.buf.len();
        self.buf.resize(start + n, 0);
        &mut self.buf[start..]
    }
}
