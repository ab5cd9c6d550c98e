//! Unsigned LEB128 varints of at most 32 or 64 bits, and zigzag for signed values.
//! Decoding rejects overlong forms (a final byte of 0 after the first) and values over
//! the width (2^32 - 1 or 2^64 - 1), so every value has exactly one encoding.

use super::error::{Error, Fault, Result};

/// The most bytes a u32 varint takes.
pub const MAX_VARINT_LEN: usize = 5;

/// Bytes `value` takes as a varint.
#[inline]
pub fn varint_len(value: u32) -> usize {
    // 1 + floor(bit_length - 1) / 7, with 0 taking one byte.
    let bits = 32 - (value | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// Writes `value` into `out` (which must hold `MAX_VARINT_LEN` bytes) and returns the
/// number of bytes written.
#[inline]
pub fn write_varint(out: &mut [u8; MAX_VARINT_LEN], mut value: u32) -> usize {
    let mut i = 0;
    while value >= 0x80 {
        out[i] = (value as u8) | 0x80;
        value >>= 7;
        i += 1;
    }
    out[i] = value as u8;
    i + 1
}

/// Reads a varint from the start of `bytes`; returns the value and its length.
/// `offset` is where `bytes` starts in the whole input, for the error.
#[inline]
pub fn read_varint(bytes: &[u8], offset: usize) -> Result<(u32, usize)> {
    match bytes.first() {
        Some(&b) if b < 0x80 => Ok((b as u32, 1)),
        _ => read_varint_slow(bytes, offset),
    }
}

/// `read_varint` with values of two bytes (128 to 16383) read inline too: for loops over
/// one integer type (`engine::decode_leaf_items`). Not in `read_varint`, which is inlined
/// into every leaf of `decode_block`: there the larger code made most schemas' decode
/// slower (callgrind, native instructions per decode: nestedEvent 1430 to 1453,
/// personValidated 1294 to 1324).
#[inline(always)]
pub fn read_varint2(bytes: &[u8], offset: usize) -> Result<(u32, usize)> {
    match *bytes {
        [b, ..] if b < 0x80 => Ok((b as u32, 1)),
        [b0, b1, ..] if b1 < 0x80 && b1 != 0 => Ok((((b1 as u32) << 7) | (b0 & 0x7f) as u32, 2)),
        _ => read_varint_slow(bytes, offset),
    }
}

/// Varints of two bytes or more (and the end of the input). With the five bytes a u32
/// varint may take in hand, the bytes are read unrolled, with no bounds check or loop
/// counter per byte; nearer the end of the input, by `read_varint_short`. citm_catalog
/// decode reads ~14K varints of three to five bytes: `read_varint_slow` went from 660K to
/// 575K instructions per decode unrolled (callgrind), ~46 to ~40 per varint.
#[inline(never)]
fn read_varint_slow(bytes: &[u8], offset: usize) -> Result<(u32, usize)> {
    /// The last byte `b` of a varint of `len` bytes: zero there is overlong.
    #[inline(always)]
    fn last(value: u32, b: u8, len: usize, offset: usize) -> Result<(u32, usize)> {
        if b == 0 {
            return Err(Error::malformed(offset, Fault::OverlongVarint));
        }
        Ok((value, len))
    }
    let [b0, b1, b2, b3, b4, ..] = *bytes else {
        return read_varint_short(bytes, offset);
    };
    let mut value = (b0 & 0x7f) as u32;
    if b0 < 0x80 {
        // One byte: the callers read those inline, but this function stands alone.
        return Ok((value, 1));
    }
    value |= ((b1 & 0x7f) as u32) << 7;
    if b1 < 0x80 {
        return last(value, b1, 2, offset);
    }
    value |= ((b2 & 0x7f) as u32) << 14;
    if b2 < 0x80 {
        return last(value, b2, 3, offset);
    }
    value |= ((b3 & 0x7f) as u32) << 21;
    if b3 < 0x80 {
        return last(value, b3, 4, offset);
    }
    if b4 > 0x0f {
        // A fifth byte carries bits 28..35; anything over 4 bits is beyond u32 (and a
        // continuation bit would make a sixth byte).
        return Err(Error::malformed(offset, Fault::VarintOutOfRange));
    }
    last(value | (b4 as u32) << 28, b4, 5, offset)
}

/// `read_varint_slow` for inputs shorter than five bytes, byte by byte.
#[cold]
fn read_varint_short(bytes: &[u8], offset: usize) -> Result<(u32, usize)> {
    let mut value: u32 = 0;
    for i in 0..MAX_VARINT_LEN {
        let Some(&b) = bytes.get(i) else {
            // Like every Truncated, the offset is where the unfinished value starts.
            return Err(Error::truncated(offset, 1));
        };
        if i == MAX_VARINT_LEN - 1 && b > 0x0f {
            // A fifth byte carries bits 28..35; anything over 4 bits is beyond u32.
            return Err(Error::malformed(offset, Fault::VarintOutOfRange));
        }
        value |= ((b & 0x7f) as u32) << (7 * i);
        if b < 0x80 {
            if b == 0 && i > 0 {
                return Err(Error::malformed(offset, Fault::OverlongVarint));
            }
            return Ok((value, i + 1));
        }
    }
    unreachable!("the fifth byte either ends the varint or is rejected")
}

/// The most bytes a u64 varint takes.
pub const MAX_VARINT64_LEN: usize = 10;

/// Reads a varint of up to 64 bits from the start of `bytes`; returns the value and its
/// length. The tenth byte may only carry bit 63 (`00` is overlong, above `01` is over
/// 64 bits).
#[inline]
pub fn read_varint64(bytes: &[u8], offset: usize) -> Result<(u64, usize)> {
    match bytes.first() {
        Some(&b) if b < 0x80 => Ok((b as u64, 1)),
        _ => read_varint64_slow(bytes, offset),
    }
}

#[inline(never)]
fn read_varint64_slow(bytes: &[u8], offset: usize) -> Result<(u64, usize)> {
    let mut value: u64 = 0;
    for i in 0..MAX_VARINT64_LEN {
        let Some(&b) = bytes.get(i) else {
            return Err(Error::truncated(offset, 1));
        };
        if i == MAX_VARINT64_LEN - 1 && b > 0x01 {
            return Err(Error::malformed(offset, Fault::VarintOutOfRange));
        }
        value |= ((b & 0x7f) as u64) << (7 * i);
        if b < 0x80 {
            if b == 0 && i > 0 {
                return Err(Error::malformed(offset, Fault::OverlongVarint));
            }
            return Ok((value, i + 1));
        }
    }
    unreachable!("the tenth byte either ends the varint or is rejected")
}

#[inline]
pub fn zigzag64(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

#[inline]
pub fn unzigzag64(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

#[inline]
pub fn zigzag(value: i32) -> u32 {
    ((value << 1) ^ (value >> 31)) as u32
}

#[inline]
pub fn unzigzag(value: u32) -> i32 {
    ((value >> 1) as i32) ^ -((value & 1) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::error::ErrorKind;

    fn enc(v: u32) -> Vec<u8> {
        let mut buf = [0; MAX_VARINT_LEN];
        let n = write_varint(&mut buf, v);
        assert_eq!(n, varint_len(v), "varint_len({v})");
        buf[..n].to_vec()
    }

    #[test]
    fn encodes_boundaries() {
        assert_eq!(enc(0), [0x00]);
        assert_eq!(enc(127), [0x7f]);
        assert_eq!(enc(128), [0x80, 0x01]);
        assert_eq!(enc(1234), [0xd2, 0x09]);
        assert_eq!(enc(16383), [0xff, 0x7f]);
        assert_eq!(enc(16384), [0x80, 0x80, 0x01]);
        assert_eq!(enc(u32::MAX), [0xff, 0xff, 0xff, 0xff, 0x0f]);
    }

    #[test]
    fn round_trips_every_bit_length() {
        for shift in 0..32 {
            for v in [1u32 << shift, (1u32 << shift) - 1, (1u32 << shift) + 1] {
                let bytes = enc(v);
                assert_eq!(read_varint(&bytes, 0).unwrap(), (v, bytes.len()));
            }
        }
    }

    #[test]
    fn rejects_an_overlong_varint() {
        for bytes in [
            &[0x80, 0x00][..],
            &[0xff, 0x80, 0x00],
            &[0x81, 0x80, 0x80, 0x80, 0x00],
        ] {
            let err = read_varint(bytes, 7).unwrap_err();
            assert_eq!(
                err.kind(),
                &ErrorKind::Malformed {
                    offset: 7,
                    fault: Fault::OverlongVarint
                }
            );
        }
    }

    #[test]
    fn rejects_a_varint_over_u32() {
        let err = read_varint(&[0xff, 0xff, 0xff, 0xff, 0x10], 0).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::Malformed {
                offset: 0,
                fault: Fault::VarintOutOfRange
            }
        );
        let err = read_varint(&[0xff, 0xff, 0xff, 0xff, 0xff, 0x01], 0).unwrap_err();
        assert_eq!(err.code(), "ERR_SHORN_MALFORMED");
    }

    #[test]
    fn the_unrolled_reader_agrees_with_the_byte_loop() {
        // Every length and final byte, with continuation bytes of a few patterns, then
        // padding: `read_varint_slow` (five bytes in hand) against `read_varint_short`.
        let mids = [0x80u8, 0x81, 0xff, 0xaa];
        for len in 1..=6usize {
            for &mid in &mids {
                for last in 0..=255u8 {
                    let mut bytes = vec![mid; len - 1];
                    bytes.push(last);
                    let short = read_varint_short(&bytes, 9);
                    bytes.extend_from_slice(&[0x55; 5]);
                    let long = read_varint_slow(&bytes, 9);
                    match short {
                        // A cut input is truncated only for the short reader.
                        Err(e) if e.code() == "ERR_SHORN_TRUNCATED" => {
                            assert!(len < 5 && last >= 0x80, "{len} {mid:#x} {last:#x}");
                            assert!(long.is_ok() || len == 4, "{len} {mid:#x} {last:#x}");
                        }
                        short => assert_eq!(short, long, "{len} {mid:#x} {last:#x}"),
                    }
                }
            }
        }
    }

    #[test]
    fn a_cut_varint_is_truncated() {
        let err = read_varint(&[0x80, 0x80], 3).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::Truncated {
                offset: 3,
                needed: 1
            }
        );
        assert_eq!(
            read_varint(&[], 0).unwrap_err().code(),
            "ERR_SHORN_TRUNCATED"
        );
    }

    #[test]
    fn varint64_round_trips_and_rejects_overlong_and_over_64_bits() {
        let mut w = crate::codec::Writer::new();
        for shift in 0..64 {
            for v in [
                1u64 << shift,
                (1u64 << shift) - 1,
                (1u64 << shift).wrapping_add(1),
            ] {
                w.clear();
                w.varint64(v);
                let bytes = w.as_slice();
                assert_eq!(read_varint64(bytes, 0).unwrap(), (v, bytes.len()), "{v}");
            }
        }
        w.clear();
        w.varint64(u64::MAX);
        assert_eq!(
            w.as_slice(),
            [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
        );
        let over = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        assert_eq!(
            read_varint64(&over, 4).unwrap_err().kind(),
            &ErrorKind::Malformed {
                offset: 4,
                fault: Fault::VarintOutOfRange
            }
        );
        let overlong = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00];
        assert_eq!(
            read_varint64(&overlong, 0).unwrap_err().kind(),
            &ErrorKind::Malformed {
                offset: 0,
                fault: Fault::OverlongVarint
            }
        );
        assert_eq!(
            read_varint64(&[0xff; 5], 2).unwrap_err().kind(),
            &ErrorKind::Truncated {
                offset: 2,
                needed: 1
            }
        );
        for v in [0i64, -1, 1, i64::MIN, i64::MAX, -(1 << 53), 1 << 53] {
            assert_eq!(unzigzag64(zigzag64(v)), v);
        }
        assert_eq!(zigzag64(-1), 1);
        assert_eq!(zigzag64(i64::MIN), u64::MAX);
    }

    #[test]
    fn zigzag_maps_small_magnitudes_to_small_values() {
        let cases = [
            (0, 0),
            (-1, 1),
            (1, 2),
            (-2, 3),
            (i32::MAX, u32::MAX - 1),
            (i32::MIN, u32::MAX),
        ];
        for (signed, unsigned) in cases {
            assert_eq!(zigzag(signed), unsigned);
            assert_eq!(unzigzag(unsigned), signed);
        }
    }
}
