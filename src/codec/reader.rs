//! A cursor over input bytes. Every read checks the bytes that remain first and reports
//! `Truncated` with the offset and the shortfall, so no length from outside is trusted.

use super::error::{Error, Result};
use super::varint::{read_varint, read_varint2, read_varint64};

pub struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    #[inline]
    pub fn new(input: &'a [u8]) -> Self {
        Reader { input, pos: 0 }
    }

    /// A cursor at `pos` of `input` (offsets count from `input`'s start).
    #[inline]
    pub fn at(input: &'a [u8], pos: usize) -> Self {
        Reader {
            input,
            pos: pos.min(input.len()),
        }
    }

    #[inline]
    pub fn offset(&self) -> usize {
        self.pos
    }

    #[inline]
    pub fn remaining(&self) -> usize {
        self.input.len() - self.pos
    }

    #[inline]
    pub fn u8(&mut self) -> Result<u8> {
        match self.input.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(Error::truncated(self.pos, 1)),
        }
    }

    #[inline]
    pub fn varint(&mut self) -> Result<u32> {
        let (value, len) = read_varint(&self.input[self.pos..], self.pos)?;
        self.pos += len;
        Ok(value)
    }

    /// `varint`, with two-byte values read inline (`read_varint2`).
    #[inline(always)]
    pub fn varint2(&mut self) -> Result<u32> {
        let (value, len) = read_varint2(&self.input[self.pos..], self.pos)?;
        self.pos += len;
        Ok(value)
    }

    /// Reads a zero byte if one is next (a count of 0); false, reading nothing, if not.
    #[inline(always)]
    pub fn zero(&mut self) -> bool {
        if self.input.get(self.pos) == Some(&0) {
            self.pos += 1;
            return true;
        }
        false
    }

    /// The varint at the current position, without reading past it.
    #[inline]
    pub fn peek_varint(&self) -> Result<u32> {
        read_varint(&self.input[self.pos..], self.pos).map(|(value, _)| value)
    }

    #[inline]
    pub fn varint64(&mut self) -> Result<u64> {
        let (value, len) = read_varint64(&self.input[self.pos..], self.pos)?;
        self.pos += len;
        Ok(value)
    }

    /// The bytes from `start` to the current position (already read, so in bounds).
    #[inline]
    pub fn since(&self, start: usize) -> &'a [u8] {
        &self.input[start..self.pos]
    }

    #[inline]
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.input.get(self.pos..self.pos + N) {
            Some(bytes) => {
                self.pos += N;
                let mut out = [0u8; N];
                out.copy_from_slice(bytes);
                Ok(out)
            }
            None => Err(Error::truncated(self.pos, N - self.remaining())),
        }
    }

    #[inline]
    pub fn f32(&mut self) -> Result<f32> {
        self.array::<4>().map(f32::from_le_bytes)
    }

    #[inline]
    pub fn f64(&mut self) -> Result<f64> {
        self.array::<8>().map(f64::from_le_bytes)
    }

    /// Takes `len` bytes, after checking that they are there.
    #[inline]
    pub fn take(&mut self, len: usize) -> Result<&'a [u8]> {
        if len > self.remaining() {
            return Err(Error::truncated(self.pos, len - self.remaining()));
        }
        let bytes = &self.input[self.pos..self.pos + len];
        self.pos += len;
        Ok(bytes)
    }
}
