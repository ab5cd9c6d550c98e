//! The tape: how values cross between JS and the codec in bulk. JS walks a value in
//! schema order and writes one f64 per slot (numbers, counts, lengths, indexes; the bits
//! of a 64-bit integer); strings travel as UTF-16 units, byte and typed arrays as slices.
//! The layout of each type's slots is in its module under `src/types/` and in
//! docs/DESIGN.md.

use super::error::{Error, ErrorKind, Result};

/// The element type of a typed array (and of `bytes`, which is a Uint8Array).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Elem {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    F32,
    F64,
}

impl Elem {
    /// Bytes per element.
    #[inline]
    pub const fn size(self) -> usize {
        match self {
            Elem::U8 | Elem::I8 => 1,
            Elem::U16 | Elem::I16 => 2,
            Elem::U32 | Elem::I32 | Elem::F32 => 4,
            Elem::F64 => 8,
        }
    }
}

/// A byte or typed array JS passed for a `bytes` or typed-array value: its element type
/// and its memory.
#[derive(Debug, Clone, Copy)]
pub struct Blob<'a> {
    pub elem: Elem,
    pub bytes: &'a [u8],
}

/// What JS marshalled for one message (or one batch).
pub struct EncodeInput<'a> {
    pub tape: &'a [f64],
    pub text: &'a [u16],
    /// Long strings whose chars all fit a byte, one byte a char, in the order their slots
    /// come (`LATIN1_SLOT`).
    pub latin1: &'a [u8],
    pub blobs: &'a [Blob<'a>],
}

/// A string's tape slot is its length in UTF-16 units, its units next in the text; or
/// this plus its length, its chars next in the Latin-1 text, one byte each. JS sends a
/// long string whose chars all fit a byte so (lib/runtime.js, `longText`): read as UTF-16
/// it was widened by V8, a copy, then read two bytes a char.
pub const LATIN1_SLOT: f64 = 4_294_967_296.0;

/// A string's chars, as `TapeIn::text` finds them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chars<'a> {
    Utf16(&'a [u16]),
    Latin1(&'a [u8]),
}

/// A cursor over an `EncodeInput`. It never trusts the input for memory safety: running
/// out of slots, units or blobs is a `TapeMismatch`, not a panic.
pub struct TapeIn<'a> {
    input: &'a EncodeInput<'a>,
    slot: usize,
    unit: usize,
    byte: usize,
    blob: usize,
}

impl<'a> TapeIn<'a> {
    #[inline]
    pub fn new(input: &'a EncodeInput<'a>) -> Self {
        TapeIn {
            input,
            slot: 0,
            unit: 0,
            byte: 0,
            blob: 0,
        }
    }

    /// The next slot.
    #[inline]
    pub fn slot(&mut self) -> Result<f64> {
        match self.input.tape.get(self.slot) {
            Some(&v) => {
                self.slot += 1;
                Ok(v)
            }
            None => Err(self.mismatch()),
        }
    }

    /// The next slot as a count or length that must be an integer from 0 to `max`.
    #[inline]
    pub fn count(&mut self, max: u32) -> Result<u32> {
        let v = self.slot()?;
        self.as_count(v, max)
    }

    /// Slot value `v`, already taken, as `count` checks it.
    #[inline]
    pub fn as_count(&self, v: f64, max: u32) -> Result<u32> {
        // A round trip through u32 (saturating, NaN to 0) keeps exactly the integers in
        // range; `f64::fract` was a call to libm's trunc per string (~6% of an encode).
        let n = v as u32;
        if n as f64 == v && n <= max {
            Ok(n)
        } else {
            Err(self.mismatch())
        }
    }

    /// The next `len` UTF-16 units of text.
    #[inline]
    pub fn units(&mut self, len: usize) -> Result<&'a [u16]> {
        let end = self.unit.checked_add(len).ok_or_else(|| self.mismatch())?;
        match self.input.text.get(self.unit..end) {
            Some(units) => {
                self.unit = end;
                Ok(units)
            }
            None => Err(self.mismatch()),
        }
    }

    /// The chars of a string whose slot (already taken) is `slot`: its length in units, or
    /// `LATIN1_SLOT` plus its length in the Latin-1 text.
    #[inline]
    pub fn text(&mut self, slot: f64) -> Result<Chars<'a>> {
        if slot < LATIN1_SLOT {
            let len = self.as_count(slot, u32::MAX)?;
            return self.units(len as usize).map(Chars::Utf16);
        }
        let len = self.as_count(slot - LATIN1_SLOT, u32::MAX)? as usize;
        let end = self.byte.checked_add(len).ok_or_else(|| self.mismatch())?;
        match self.input.latin1.get(self.byte..end) {
            Some(bytes) => {
                self.byte = end;
                Ok(Chars::Latin1(bytes))
            }
            None => Err(self.mismatch()),
        }
    }

    /// The next `len` bytes JS wrote into the tape itself, packed 8 to a slot from the
    /// next slot on (a json value JS encoded: src/types/json.rs, `RAW`).
    #[inline]
    pub fn raw(&mut self, len: usize) -> Result<&'a [u8]> {
        let slots = len.div_ceil(8);
        let end = self
            .slot
            .checked_add(slots)
            .ok_or_else(|| self.mismatch())?;
        let tape: &'a [f64] = self.input.tape;
        match tape.get(self.slot..end) {
            Some(s) => {
                self.slot = end;
                // SAFETY: `s` is `slots` initialised f64s, 8 bytes each, borrowed for 'a
                // like the tape; every byte pattern is a valid u8, and u8 needs no alignment.
                let bytes =
                    unsafe { std::slice::from_raw_parts(s.as_ptr().cast::<u8>(), slots * 8) };
                Ok(&bytes[..len])
            }
            None => Err(self.mismatch()),
        }
    }

    /// The next byte or typed array, which must have elements of `elem`.
    #[inline]
    pub fn blob(&mut self, elem: Elem) -> Result<&'a [u8]> {
        match self.input.blobs.get(self.blob) {
            Some(b) if b.elem == elem => {
                self.blob += 1;
                Ok(b.bytes)
            }
            _ => Err(self.mismatch()),
        }
    }

    #[cold]
    pub fn mismatch(&self) -> Error {
        Error::new(ErrorKind::TapeMismatch { slot: self.slot })
    }
}

/// Where decode writes slots: straight into JS memory when the tape is long enough;
/// past its end slots are only counted, so the caller can grow it and decode again.
pub struct TapeOut<'t> {
    tape: &'t mut [f64],
    slots: usize,
}

impl<'t> TapeOut<'t> {
    #[inline]
    pub fn new(tape: &'t mut [f64]) -> Self {
        TapeOut { tape, slots: 0 }
    }

    #[inline]
    pub fn push(&mut self, v: f64) {
        if let Some(slot) = self.tape.get_mut(self.slots) {
            *slot = v;
        }
        self.slots += 1;
    }

    /// Slots produced so far (written or only counted).
    #[inline]
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Overwrites slot `at` (produced earlier), if it was written.
    #[inline]
    pub fn set(&mut self, at: usize, v: f64) {
        if let Some(slot) = self.tape.get_mut(at) {
            *slot = v;
        }
    }

    /// Puts `token` before each of the `n` slots from `from` to the last one produced:
    /// `v0 v1 ..` becomes `token v0 token v1 ..`, `n` slots more. Where the tape is too
    /// short the decode runs again once it has grown, so what lands past its end (and
    /// what is moved from there) does not matter.
    pub fn spread(&mut self, from: usize, n: usize, token: f64) {
        debug_assert_eq!(from + n, self.slots);
        // From the last slot down, so that no slot is written before it is moved.
        for k in (0..n).rev() {
            let v = self.tape.get(from + k).copied().unwrap_or(0.0);
            self.set(from + 2 * k + 1, v);
            self.set(from + 2 * k, token);
        }
        self.slots += n;
    }
}

/// The bits of a 64-bit integer in a tape slot: JS reads and writes them through a
/// BigInt64Array or BigUint64Array view of the tape's memory, so they cross unchanged.
#[inline]
pub fn bits_to_slot(bits: u64) -> f64 {
    f64::from_bits(bits)
}

#[inline]
pub fn slot_to_bits(slot: f64) -> u64 {
    slot.to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_four_bit_patterns_cross_a_slot_unchanged_nan_payloads_included() {
        for bits in [
            0u64,
            1,
            u64::MAX,
            0x7ff0_0000_0000_0001, // a signalling NaN pattern
            0xfff8_0000_0000_0000,
            0x7ff8_dead_beef_0001,
            i64::MIN as u64,
        ] {
            let mut tape = [0.0f64; 1];
            let mut out = TapeOut::new(&mut tape);
            out.push(bits_to_slot(bits));
            assert_eq!(slot_to_bits(tape[0]), bits);
        }
    }

    #[test]
    fn spread_puts_a_token_before_each_slot_and_counts_them() {
        let mut tape = [0.0f64; 8];
        let mut out = TapeOut::new(&mut tape);
        for v in [9.0, 5.0, 10.0, 11.0] {
            out.push(v);
        }
        out.spread(2, 2, 3.0);
        assert_eq!(out.slots(), 6);
        out.push(4.0);
        assert_eq!(tape[..7], [9.0, 5.0, 3.0, 10.0, 3.0, 11.0, 4.0]);
        // Past the tape's end only the count is right; nothing panics.
        for (len, from, n) in [(3, 1, 4), (0, 0, 3), (5, 2, 6)] {
            let mut tape = vec![7.0f64; len];
            let mut out = TapeOut::new(&mut tape);
            for k in 0..from + n {
                out.push(k as f64);
            }
            out.spread(from, n, 3.0);
            assert_eq!(out.slots(), from + 2 * n);
        }
    }

    #[test]
    fn a_short_tape_is_a_mismatch_not_a_panic() {
        let input = EncodeInput {
            tape: &[1.0],
            text: &[0x61],
            latin1: &[0xe9, 0x61],
            blobs: &[],
        };
        let mut t = TapeIn::new(&input);
        assert_eq!(t.slot().unwrap(), 1.0);
        assert_eq!(t.slot().unwrap_err().code(), "ERR_SHORN_INVALID");
        assert!(t.units(2).is_err());
        assert!(t.units(usize::MAX).is_err());
        assert!(t.blob(Elem::U8).is_err());
    }

    #[test]
    fn a_slot_finds_a_string_in_the_text_or_in_the_latin1_text() {
        let input = EncodeInput {
            tape: &[],
            text: &[0x61, 0x62],
            latin1: &[0xe9, 0x61, 0x7a],
            blobs: &[],
        };
        let mut t = TapeIn::new(&input);
        assert_eq!(
            t.text(LATIN1_SLOT + 2.0).unwrap(),
            Chars::Latin1(&[0xe9, 0x61])
        );
        assert_eq!(t.text(1.0).unwrap(), Chars::Utf16(&[0x61]));
        assert_eq!(t.text(LATIN1_SLOT + 1.0).unwrap(), Chars::Latin1(&[0x7a]));
        assert_eq!(t.text(1.0).unwrap(), Chars::Utf16(&[0x62]));
        // Past either text's end, or not a length: a mismatch, never a panic.
        assert!(t.text(LATIN1_SLOT + 1.0).is_err());
        assert!(t.text(1.0).is_err());
        for bad in [
            f64::NAN,
            -1.0,
            0.5,
            LATIN1_SLOT + 0.5,
            LATIN1_SLOT - 0.5,
            2.0 * LATIN1_SLOT,
            f64::INFINITY,
        ] {
            let mut t = TapeIn::new(&input);
            assert!(t.text(bad).is_err(), "{bad}");
        }
    }
}
