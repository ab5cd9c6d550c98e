//! UTF-8 to UTF-16, up to 12 input bytes per step with SSSE3 byte shuffles: the scheme of
//! simdutf's `convert_masked_utf8_to_utf16` (Lemire and Keiser, "Transcoding billions of
//! Unicode characters per second with SIMD instructions", 2021), with tables built here at
//! compile time; optionally validating the UTF-8 on the way.
//!
//! Each step loads 16 bytes and marks the bytes that end a char (those followed by a byte
//! that is not a continuation byte). The first 12 bits of that mask give the lengths of the
//! first chars, and `INDEX` turns them into one of two moves:
//!
//! - six chars of 1 or 2 bytes: one shuffle puts each char's last byte in the low byte of
//!   a 16-bit lane and its lead byte (if any) in the high byte; masks and a shift make the
//!   six UTF-16 units;
//! - else four chars of 1 to 3 bytes: the same in 32-bit lanes, then a shuffle packs them
//!   into four units.
//!
//! A 4-byte char among the first four takes one scalar step; a step that starts with 8 or
//! more ASCII bytes widens 16 and keeps the ASCII ones. The last 15 bytes or fewer are
//! left to the caller's scalar loop.
//!
//! `convert::<true>` also validates the bytes, in blocks of 16 interleaved with the steps
//! (one block a step, the rest after the loop), by the "lookup" algorithm of Keiser and
//! Lemire ("Validating UTF-8 in less than one instruction per byte", 2021; simdjson's and
//! simdutf8's): for each byte and the one before it, three 16-entry tables (by the first
//! byte's high and low nibble and the second byte's high nibble) give error bits whose AND
//! is non-zero exactly for an invalid pair (a lead before a non-continuation, an ASCII
//! byte or a finished char before a continuation, overlong forms, surrogates, values above
//! U+10FFFF); a byte two after a 3- or 4-byte lead, or three after a 4-byte lead, must be
//! a continuation, which is XORed in. The last block is zero-padded, so a char cut off by
//! the end meets a zero; an input that ends at a block's end has its last 3 bytes
//! checked for leads instead.
//!
//! The blocks run in the shadow of the transcoder's chain of dependent loads (load, mask,
//! table, next step): unicodePerson decode took 0.97x the time of simdutf8 first and the
//! unchecked transcoder (docs/DESIGN.md), where a separate pass over each string had been
//! 8% of the decode (simdutf8, whose AVX2 pays only from 64 bytes: below, it calls
//! `std::str::from_utf8`, and its last partial block is copied a byte at a time and
//! reloaded, a store-forwarding stall).
//! x86-64 only (src/codec/mod.rs); elsewhere the scalar loop does it all.

use std::arch::x86_64::*;

/// For each 12-bit end-of-char mask: the shuffle's index in `SHUFFLES` (0..64: six chars
/// of 1-2 bytes; 64..145: four chars of 1-3 bytes; `NONE`: neither) and the bytes the
/// move consumes.
static INDEX: [[u8; 2]; 4096] = build_index();

/// The byte shuffles `INDEX` points at. 0x80 makes pshufb write a zero byte.
static SHUFFLES: [[u8; 16]; 145] = build_shuffles();

/// `INDEX` for masks whose first four chars include a 4-byte one.
const NONE: u8 = 255;

const fn build_index() -> [[u8; 2]; 4096] {
    let mut table = [[NONE, 0u8]; 4096];
    let mut mask = 0usize;
    while mask < 4096 {
        // The lengths of the first (up to six) chars that end within the 12 bytes.
        let mut lens = [0usize; 6];
        let mut count = 0;
        let mut start = 0;
        let mut pos = 0;
        while pos < 12 && count < 6 {
            if mask & (1 << pos) != 0 {
                lens[count] = pos + 1 - start;
                count += 1;
                start = pos + 1;
            }
            pos += 1;
        }
        let mut short = count == 6;
        let mut k = 0;
        while k < count {
            short = short && lens[k] <= 2;
            k += 1;
        }
        let mut medium = count >= 4;
        let mut k = 0;
        while k < 4 && k < count {
            medium = medium && lens[k] <= 3;
            k += 1;
        }
        if short {
            let mut idx = 0;
            let mut consumed = 0;
            let mut k = 0;
            while k < 6 {
                idx |= (lens[k] - 1) << k;
                consumed += lens[k];
                k += 1;
            }
            table[mask] = [idx as u8, consumed as u8];
        } else if medium {
            let mut idx = 0;
            let mut weight = 1;
            let mut consumed = 0;
            let mut k = 0;
            while k < 4 {
                idx += (lens[k] - 1) * weight;
                weight *= 3;
                consumed += lens[k];
                k += 1;
            }
            table[mask] = [(64 + idx) as u8, consumed as u8];
        }
        mask += 1;
    }
    table
}

const fn build_shuffles() -> [[u8; 16]; 145] {
    let mut table = [[0x80u8; 16]; 145];
    let mut idx = 0;
    while idx < 64 {
        let mut pos = 0;
        let mut k = 0;
        while k < 6 {
            let len = 1 + ((idx >> k) & 1);
            let end = pos + len - 1;
            table[idx][2 * k] = end as u8;
            if len == 2 {
                table[idx][2 * k + 1] = (end - 1) as u8;
            }
            pos += len;
            k += 1;
        }
        idx += 1;
    }
    while idx < 145 {
        let mut rest = idx - 64;
        let mut pos = 0;
        let mut k = 0;
        while k < 4 {
            let len = 1 + rest % 3;
            rest /= 3;
            let end = pos + len - 1;
            table[idx][4 * k] = end as u8;
            if len >= 2 {
                table[idx][4 * k + 1] = (end - 1) as u8;
            }
            if len == 3 {
                table[idx][4 * k + 2] = (end - 2) as u8;
            }
            pos += len;
            k += 1;
        }
        idx += 1;
    }
    table
}

const TOO_SHORT: u8 = 1 << 0; // 11______ 0_______ or 11______ 11______
const TOO_LONG: u8 = 1 << 1; // 0_______ 10______
const OVERLONG_3: u8 = 1 << 2; // 11100000 100_____
const TOO_LARGE: u8 = 1 << 3; // 11110100 1001____ and above
const SURROGATE: u8 = 1 << 4; // 11101101 101_____
const OVERLONG_2: u8 = 1 << 5; // 1100000_ 10______
const TOO_LARGE_1000: u8 = 1 << 6; // 11110101 1000____ and above
const OVERLONG_4: u8 = 1 << 6; // 11110000 1000____
const TWO_CONTS: u8 = 1 << 7; // 10______ 10______
/// The errors the first byte's low nibble does not decide.
const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

/// Error bits by the first byte's high nibble.
pub(super) const BYTE_1_HIGH: [u8; 16] = [
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
];

/// Error bits by the first byte's low nibble.
pub(super) const BYTE_1_LOW: [u8; 16] = [
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
];

/// Error bits by the second byte's high nibble.
pub(super) const BYTE_2_HIGH: [u8; 16] = [
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
];

/// Shuffle indices whose 16 bytes from `16 - k` move the last `k` of 16 lanes to the
/// first `k` and zero the rest (0x80 makes pshufb write a zero).
static TAIL: [u8; 32] = {
    let mut t = [0x80u8; 32];
    let mut k = 0;
    while k < 16 {
        t[k] = k as u8;
        k += 1;
    }
    t
};

/// The most each of a block's last 16 bytes may be when the input ends there: anything
/// for the first 13, and below a 4-, 3- and 2-byte lead for the last three (a saturating
/// subtraction of these leaves non-zero exactly the leads cut off by the end).
static LAST_MAX: [u8; 16] = [
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0xdf, 0xbf,
];

/// Whether `convert` can run here (SSSE3, checked once by std and cached).
#[inline(always)]
pub fn available() -> bool {
    std::arch::is_x86_feature_detected!("ssse3")
}

/// Transcodes a prefix of `src[..n]` to `dst`; returns (bytes read, units written, valid).
/// The prefix ends less than 16 bytes before `n` (or at 0), at a char boundary if the bytes
/// are valid UTF-8. With `CHECK`, `valid` says whether all of `src[..n]` is valid UTF-8
/// (the units are wrong where it is not); without it, the caller has validated `src[..n]`
/// and `valid` is true.
///
/// # Safety
///
/// `src[..n]` is readable, and valid UTF-8 unless `CHECK`; `dst` has room for `n` units;
/// the CPU has SSSE3 (`available()`).
#[target_feature(enable = "ssse3")]
pub unsafe fn convert<const CHECK: bool>(
    src: *const u8,
    n: usize,
    dst: *mut u16,
) -> (usize, usize, bool) {
    let mut i = 0;
    let mut o = 0;
    let mut error = _mm_setzero_si128();
    // SAFETY: every load reads 16 bytes at `i` or `checked` with `i + 16 <= n` or
    // `checked + 16 <= n`, or the last 16 at `n - 16` when `n >= 16` (else the `n` bytes
    // are copied), and `TAIL` at `16 - (n - checked)` with `0 < n - checked < 16`, 16 of
    // its 32 bytes. Every store writes at most 16 units at `o`, and `o <= i` throughout
    // (no char has more UTF-16 units than UTF-8 bytes), so stores end at or before unit
    // `i + 16 <= n`, inside `dst`'s room.
    // `i` only ever moves by whole chars (the table's `consumed`, ASCII bytes, or one
    // decoded char), so each step starts at a lead byte of valid UTF-8. Invalid bytes
    // (only with `CHECK`) give wrong units but the same bounds: `consumed` and
    // `one_char`'s count at least one byte per unit written, and `one_char` reads at most
    // 4 bytes of the 16. Table reads index `INDEX` by a 12-bit mask and `SHUFFLES` by an
    // index below 145.
    unsafe {
        let not_cont_above = _mm_set1_epi8(-65); // 0xBF: continuation bytes are <= it, signed
        let zero = _mm_setzero_si128();
        let low7 = _mm_set1_epi16(0x7f);
        let lead5 = _mm_set1_epi16(0x1f00);
        let low7_32 = _mm_set1_epi32(0x7f);
        let mid6 = _mm_set1_epi32(0x3f00);
        let lead4 = _mm_set1_epi32(0x0f_0000);
        let pack = _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
        let t1h = _mm_loadu_si128(BYTE_1_HIGH.as_ptr() as *const __m128i);
        let t1l = _mm_loadu_si128(BYTE_1_LOW.as_ptr() as *const __m128i);
        let t2h = _mm_loadu_si128(BYTE_2_HIGH.as_ptr() as *const __m128i);
        let nibble = _mm_set1_epi8(0x0f);
        let third = _mm_set1_epi8((0xe0u8 - 0x80) as i8);
        let fourth = _mm_set1_epi8((0xf0u8 - 0x80) as i8);
        let high_bit = _mm_set1_epi8(-128);
        // The error bits of the 16 bytes at each byte (the `prev` block gives the 3 before).
        let check = |block: __m128i, prev: __m128i| {
            let prev1 = _mm_alignr_epi8::<15>(block, prev);
            // High nibbles by a 16-bit shift and a mask (SSE has no byte shift).
            let b1h = _mm_and_si128(_mm_srli_epi16::<4>(prev1), nibble);
            let b1l = _mm_and_si128(prev1, nibble);
            let b2h = _mm_and_si128(_mm_srli_epi16::<4>(block), nibble);
            let pair = _mm_and_si128(
                _mm_and_si128(_mm_shuffle_epi8(t1h, b1h), _mm_shuffle_epi8(t1l, b1l)),
                _mm_shuffle_epi8(t2h, b2h),
            );
            // Only a byte of 111_____ two back, or 1111____ three back, keeps its high bit
            // through these saturating subtractions: then this byte must continue.
            let prev2 = _mm_alignr_epi8::<14>(block, prev);
            let prev3 = _mm_alignr_epi8::<13>(block, prev);
            let must = _mm_or_si128(_mm_subs_epu8(prev2, third), _mm_subs_epu8(prev3, fourth));
            _mm_xor_si128(_mm_and_si128(must, high_bit), pair)
        };
        // With `CHECK`, the blocks of 16 bytes checked so far end at `checked`, ahead of
        // `i` (a step consumes at most 16 bytes): one a step, in the shadow of the
        // transcoder's chain of dependent loads, then the rest after the loop.
        let mut checked = 0;
        let mut prev = _mm_setzero_si128();
        // Checks the next whole block, if there is one; false if there is none.
        let mut check_next = || {
            if checked + 16 > n {
                return false;
            }
            let block = _mm_loadu_si128(src.add(checked) as *const __m128i);
            error = _mm_or_si128(error, check(block, prev));
            prev = block;
            checked += 16;
            true
        };
        while i + 16 <= n {
            if CHECK {
                check_next();
            }
            let v = _mm_loadu_si128(src.add(i) as *const __m128i);
            let high = _mm_movemask_epi8(v) as u32;
            if high & 0xff == 0 {
                // At least 8 ASCII bytes first: widen all 16, keep the ASCII ones.
                _mm_storeu_si128(dst.add(o) as *mut __m128i, _mm_unpacklo_epi8(v, zero));
                _mm_storeu_si128(dst.add(o + 8) as *mut __m128i, _mm_unpackhi_epi8(v, zero));
                let k = (high.trailing_zeros() as usize).min(16);
                i += k;
                o += k;
                continue;
            }
            // Bit k of `ends`: byte k ends a char (byte k + 1 is not a continuation byte).
            let lead = _mm_movemask_epi8(_mm_cmpgt_epi8(v, not_cont_above)) as usize;
            let [idx, consumed] = *INDEX.get_unchecked((lead >> 1) & 0xfff);
            if idx < 64 {
                let shuffle = _mm_loadu_si128(
                    SHUFFLES.get_unchecked(idx as usize).as_ptr() as *const __m128i
                );
                let perm = _mm_shuffle_epi8(v, shuffle);
                let ascii = _mm_and_si128(perm, low7);
                let lead_bits = _mm_srli_epi16(_mm_and_si128(perm, lead5), 2);
                _mm_storeu_si128(dst.add(o) as *mut __m128i, _mm_or_si128(ascii, lead_bits));
                o += 6;
            } else if idx != NONE {
                let shuffle = _mm_loadu_si128(
                    SHUFFLES.get_unchecked(idx as usize).as_ptr() as *const __m128i
                );
                let perm = _mm_shuffle_epi8(v, shuffle);
                let ascii = _mm_and_si128(perm, low7_32);
                let mid = _mm_srli_epi32(_mm_and_si128(perm, mid6), 2);
                let lead_bits = _mm_srli_epi32(_mm_and_si128(perm, lead4), 4);
                let units = _mm_or_si128(_mm_or_si128(ascii, mid), lead_bits);
                _mm_storel_epi64(dst.add(o) as *mut __m128i, _mm_shuffle_epi8(units, pack));
                o += 4;
            } else {
                let (read, wrote) = one_char(src.add(i), dst.add(o));
                i += read;
                o += wrote;
                continue;
            }
            i += consumed as usize;
        }
        if CHECK {
            while check_next() {}
            if checked < n {
                // The last bytes, zero-padded: a char cut off by the end meets a zero.
                let block = if n >= 16 {
                    // The last 16, moved down by a shuffle that zeroes the lanes past the
                    // end (a copy to the stack and a reload would stall on store
                    // forwarding).
                    let last = _mm_loadu_si128(src.add(n - 16) as *const __m128i);
                    let down =
                        _mm_loadu_si128(TAIL.as_ptr().add(16 - (n - checked)) as *const __m128i);
                    _mm_shuffle_epi8(last, down)
                } else {
                    let mut tail = [0u8; 16];
                    std::ptr::copy_nonoverlapping(src, tail.as_mut_ptr(), n);
                    _mm_loadu_si128(tail.as_ptr() as *const __m128i)
                };
                error = _mm_or_si128(error, check(block, prev));
            } else {
                // The input ends at a block's end: its last 3 bytes must not start a char
                // longer than what is left.
                let max = _mm_loadu_si128(LAST_MAX.as_ptr() as *const __m128i);
                error = _mm_or_si128(error, _mm_subs_epu8(prev, max));
            }
        }
        let valid =
            !CHECK || _mm_movemask_epi8(_mm_cmpeq_epi8(error, _mm_setzero_si128())) == 0xffff;
        (i, o, valid)
    }
}

/// Transcodes the one char at `src`; returns (bytes read, units written). Invalid UTF-8
/// (which `convert::<true>` reports) gives wrong units, by wrapping arithmetic, and the
/// same counts as a valid char of that lead byte.
///
/// # Safety
///
/// The 4 bytes at `src` are readable; `dst` has room for two units.
#[inline(always)]
unsafe fn one_char(src: *const u8, dst: *mut u16) -> (usize, usize) {
    // SAFETY: the caller guarantees the 4 bytes are there and `dst` has two units.
    unsafe {
        let b = *src as u32;
        let byte = |k: usize| *src.add(k) as u32 & 0x3f;
        if b < 0x80 {
            *dst = b as u16;
            (1, 1)
        } else if b < 0xe0 {
            *dst = (((b & 0x1f) << 6) | byte(1)) as u16;
            (2, 1)
        } else if b < 0xf0 {
            *dst = (((b & 0x0f) << 12) | (byte(1) << 6) | byte(2)) as u16;
            (3, 1)
        } else {
            let c = (((b & 0x07) << 18) | (byte(1) << 12) | (byte(2) << 6) | byte(3))
                .wrapping_sub(0x10000);
            *dst = (0xd800 + (c >> 10)) as u16;
            *dst.add(1) = (0xdc00 + (c & 0x3ff)) as u16;
            (4, 2)
        }
    }
}

/// For each 8-bit mask, the positions of its set bits in order, then 0x80 (`pshufb`
/// writes a zero there): the shuffle that packs the kept bytes of 8 to the front.
static PACK8: [[u8; 8]; 256] = build_pack8();

const fn build_pack8() -> [[u8; 8]; 256] {
    let mut table = [[0x80u8; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 8 {
            if mask & (1 << bit) != 0 {
                table[mask][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        mask += 1;
    }
    table
}

/// UTF-8 whose chars are all at most U+00FF (no byte of 0xC4 or more: the caller has
/// checked) to Latin-1, 16 bytes a block, as `utf16_avx512::latin1` does 64: each two-byte
/// char joined into one byte at its lead, the continuation bytes packed out (two 8-byte
/// halves, each by a `pshufb` from `PACK8`), validated in the same masks. Returns (bytes
/// read, bytes written, valid): the blocks stop less than 16 bytes before `n`, at a char
/// boundary, for the caller to finish; false where the bytes read are invalid (the bytes
/// written are then to be dropped).
///
/// # Safety
///
/// `src[..n]` is readable; `dst` has room for `n` bytes; the CPU has SSSE3 (`available()`).
#[target_feature(enable = "ssse3")]
pub unsafe fn latin1(src: *const u8, n: usize, dst: *mut u8) -> (usize, usize, bool) {
    let mut i = 0;
    let mut o = 0;
    // SAFETY: each block reads `src[i..i + 16]` with `i + 16 <= n`. Writes: a block writes
    // 16 bytes at `o`, or 8 at `o` and 8 at `o + low` (`low <= 8` bytes kept of the first
    // eight), and `o <= i` before it (a block writes at most one byte per byte it
    // consumes), so every write ends at or before `i + 16 <= n`, inside `dst`'s room.
    unsafe {
        let cont_max = _mm_set1_epi8(-64);
        let lead_bits = _mm_set1_epi8(0xfeu8 as i8);
        let lead_value = _mm_set1_epi8(0xc2u8 as i8);
        let top_two = _mm_set1_epi8(0xc0u8 as i8);
        let low_six = _mm_set1_epi8(0x3f);
        while i + 16 <= n {
            let v = _mm_loadu_si128(src.add(i) as *const __m128i);
            let high = _mm_movemask_epi8(v) as u32;
            if high == 0 {
                _mm_storeu_si128(dst.add(o) as *mut __m128i, v);
                i += 16;
                o += 16;
                continue;
            }
            let cont = _mm_movemask_epi8(_mm_cmplt_epi8(v, cont_max)) as u32;
            let is_lead = _mm_cmpeq_epi8(_mm_and_si128(v, lead_bits), lead_value);
            let lead = _mm_movemask_epi8(is_lead) as u32;
            // A lead as the block's last byte goes to the next block, or to the caller.
            let consumed = 16 - (lead >> 15) as usize;
            let taken = (1u32 << consumed) - 1;
            let bad = (high & !cont & !lead)
                | ((cont ^ (lead << 1)) & taken)
                | (lead & (1 << (consumed - 1)) & taken);
            if bad & taken != 0 {
                return (i, o, false);
            }
            let next = _mm_srli_si128::<1>(v);
            let joined = _mm_or_si128(
                _mm_and_si128(_mm_slli_epi16::<6>(v), top_two),
                _mm_and_si128(next, low_six),
            );
            let bytes = _mm_or_si128(_mm_and_si128(is_lead, joined), _mm_andnot_si128(is_lead, v));
            let keep = !cont & taken;
            let low_keep = (keep & 0xff) as usize;
            let high_keep = ((keep >> 8) & 0xff) as usize;
            let lo = _mm_shuffle_epi8(
                bytes,
                _mm_loadl_epi64(PACK8[low_keep].as_ptr() as *const __m128i),
            );
            let hi = _mm_shuffle_epi8(
                _mm_srli_si128::<8>(bytes),
                _mm_loadl_epi64(PACK8[high_keep].as_ptr() as *const __m128i),
            );
            _mm_storel_epi64(dst.add(o) as *mut __m128i, lo);
            let low_count = low_keep.count_ones() as usize;
            _mm_storel_epi64(dst.add(o + low_count) as *mut __m128i, hi);
            o += low_count + high_keep.count_ones() as usize;
            i += consumed;
        }
        (i, o, true)
    }
}

/// The cases both Latin-1 kernels are tested on (`latin1` here and in `utf16_avx512`),
/// for a kernel of `block` bytes a step, and std's answer for each.
#[cfg(test)]
pub(super) mod latin1_cases {
    /// The Latin-1 bytes of `bytes`, or None where std finds them invalid UTF-8.
    pub fn latin1_of(bytes: &[u8]) -> Option<Vec<u8>> {
        std::str::from_utf8(bytes).ok().map(|s| {
            s.chars()
                .map(|c| u8::try_from(c as u32).unwrap())
                .collect::<Vec<_>>()
        })
    }

    /// Calls `check` on: mixes of ASCII and two-byte chars of every length to three
    /// blocks and more, behind ASCII prefixes of every length to a block, so each char
    /// falls at every position of a block and across its end; valid text with each byte
    /// below 0xC4, and each of several bytes after it, put at each position around the
    /// first two block ends (stray and missing continuation bytes, overlong leads, a lead
    /// cut off by the end); all-ASCII blocks; a long run of two-byte chars.
    pub fn each(block: usize, mut check: impl FnMut(&[u8])) {
        let chars = ["a", "é", "\u{80}", "ÿ", "ß", " "];
        for seed in 0..32u64 {
            let mut s = String::new();
            let mut k = seed;
            while s.len() < 3 * block + 32 {
                k = k
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                s.push_str(chars[(k >> 33) as usize % chars.len()]);
                check(s.as_bytes());
                check(format!("{}{s}", "x".repeat(s.len() % (block + 1))).as_bytes());
            }
        }
        let base: Vec<u8> = "aéxÿ".repeat(block / 2 + 2).into_bytes();
        let ends = [
            0,
            1,
            2,
            block - 3,
            block - 2,
            block - 1,
            block,
            block + 1,
            block + 2,
        ];
        for at in ends.into_iter().chain(2 * block - 3..=2 * block) {
            for b in 0..0xc4u8 {
                let mut bytes = base.clone();
                bytes[at] = b;
                check(&bytes);
                check(&bytes[..at + 1]);
                check(&bytes[..at + 2]);
                for second in [0x00u8, 0x41, 0x7f, 0x80, 0xa9, 0xbf, 0xc0, 0xc2, 0xc3] {
                    bytes[at + 1] = second;
                    check(&bytes);
                    check(&bytes[..at + 2]);
                }
            }
        }
        check(
            "plain ASCII text, several blocks of it. "
                .repeat(block / 8)
                .as_bytes(),
        );
        check("é".repeat(5 * block).as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `latin1` on `bytes` (no byte of 0xC4 or more), its blocks then the rest by std,
    /// against std on the whole.
    fn latin1_like_std(bytes: &[u8]) {
        if !available() {
            return;
        }
        let mut out = vec![0u8; bytes.len()];
        // SAFETY: `bytes` is readable; `out` has `bytes.len()` bytes; `available()`.
        let (read, wrote, valid) = unsafe { latin1(bytes.as_ptr(), bytes.len(), out.as_mut_ptr()) };
        assert!(
            read <= bytes.len() && (!valid || bytes.len() - read < 16),
            "{bytes:02x?}"
        );
        out.truncate(wrote);
        let got = if valid {
            latin1_cases::latin1_of(&bytes[read..]).map(|tail| [out, tail].concat())
        } else {
            None
        };
        assert_eq!(got, latin1_cases::latin1_of(bytes), "{bytes:02x?}");
    }

    #[test]
    fn latin1_converts_and_validates_like_std_at_every_block_position() {
        latin1_cases::each(16, latin1_like_std);
    }

    fn simd_units(s: &str) -> Vec<u16> {
        let n = s.len();
        let mut out: Vec<u16> = Vec::with_capacity(n + 16);
        // SAFETY: `s` is valid UTF-8 and `out` has room for `n + 16` units.
        let (read, wrote, valid) = unsafe { convert::<false>(s.as_ptr(), n, out.as_mut_ptr()) };
        // SAFETY: `convert` initialised `wrote` units.
        unsafe { out.set_len(wrote) };
        assert!(valid && s.is_char_boundary(read));
        assert!(n - read < 16, "{read} of {n}");
        out.extend(s[read..].encode_utf16());
        let checked = checked_units(s.as_bytes()).expect("valid UTF-8 rejected");
        assert_eq!(checked, out, "{s:?}");
        out
    }

    /// `convert::<true>`, then std for the rest, as `text::push_utf16_any` does with its
    /// own loop: the units, or `None` if the bytes are invalid. Checks that `convert`'s
    /// validity is std's, and its units too.
    fn checked_units(bytes: &[u8]) -> Option<Vec<u16>> {
        let n = bytes.len();
        let mut out: Vec<u16> = Vec::with_capacity(n + 16);
        // SAFETY: `bytes` are readable and `out` has room for `n + 16` units.
        let (read, wrote, valid) = unsafe { convert::<true>(bytes.as_ptr(), n, out.as_mut_ptr()) };
        // SAFETY: `convert` initialised `wrote` units.
        unsafe { out.set_len(wrote) };
        assert!(n < 16 || n - read < 16, "{read} of {n}");
        let std = std::str::from_utf8(bytes);
        assert_eq!(valid, std.is_ok(), "{bytes:x?}");
        let std = std.ok()?;
        out.extend(std[read..].encode_utf16());
        assert_eq!(out, std.encode_utf16().collect::<Vec<_>>(), "{bytes:x?}");
        Some(out)
    }

    #[test]
    fn validates_like_std_every_pair_and_many_triples_at_each_step_position() {
        if !available() {
            return;
        }
        // Each short sequence after non-ASCII text of several lengths (so it lands at
        // every place in a step, before, across and after a step's 16 bytes, and in the
        // caller's rest), and the same followed by more text.
        let spread: Vec<u8> = (0..=255u8)
            .step_by(7)
            .chain([
                0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5,
            ])
            .collect();
        let mut seqs: Vec<Vec<u8>> = Vec::new();
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                seqs.push(vec![a, b]);
            }
        }
        for &a in &spread {
            for &b in &spread {
                for &c in &spread {
                    seqs.push(vec![a, b, c]);
                }
            }
        }
        let before = "Łódź ëë 李小龍 Ñuño, ";
        for seq in &seqs {
            for pad in [0usize, 11, 12, 13, 15, 16, 17, 24] {
                let mut bytes = before.as_bytes()[..pad].to_vec();
                if std::str::from_utf8(&bytes).is_err() {
                    continue;
                }
                bytes.extend_from_slice(seq);
                if bytes.len() < 16 {
                    bytes.extend_from_slice("é".repeat(8).as_bytes());
                }
                checked_units(&bytes);
                bytes.extend_from_slice("Привет, 数学者 🚀".as_bytes());
                checked_units(&bytes);
            }
        }
    }

    #[test]
    fn validates_like_std_every_cut_and_insertion_of_real_text() {
        if !available() {
            return;
        }
        let text =
            "Zoë Łukasz 李小龍 🚀 Ñuño Программистка 数学者 Αναλυτική ✓ 🌍 \u{10FFFF}\u{FFFD} z";
        let bytes = text.as_bytes();
        for start in 0..bytes.len() {
            for end in start..=bytes.len() {
                checked_units(&bytes[start..end]);
            }
        }
        // Surrogates, overlong forms, values above U+10FFFF, stray and missing bytes, at
        // every position of a prefix.
        let bad: [&[u8]; 9] = [
            &[0xed, 0xa0, 0x80],
            &[0xc0, 0x80],
            &[0xc1, 0xbf],
            &[0xe0, 0x9f, 0xbf],
            &[0xf0, 0x8f, 0xbf, 0xbf],
            &[0xf4, 0x90, 0x80, 0x80],
            &[0xff],
            &[0x80],
            &[0xe4, 0xb8],
        ];
        for bad in bad {
            for at in 0..48 {
                let mut b = bytes[..48].to_vec();
                b.splice(at..at, bad.iter().copied());
                checked_units(&b);
            }
        }
    }

    #[test]
    fn converts_like_std_for_every_mix_of_char_lengths() {
        if !available() {
            return;
        }
        let chars = [
            "a",
            "é",
            "\u{7ff}",
            "\u{800}",
            "李",
            "\u{ffff}",
            "🚀",
            "\u{10ffff}",
            " ",
        ];
        // Every sequence of 5 chars, repeated past 12 bytes and past two 64-byte blocks, at
        // four alignments.
        let mut seq = [0usize; 5];
        loop {
            let word: String = seq.iter().map(|&k| chars[k]).collect();
            for pad in ["", "x", "xy", "xyz"] {
                for times in [4, 13] {
                    let s = format!("{pad}{}", word.repeat(times));
                    let want: Vec<u16> = s.encode_utf16().collect();
                    assert_eq!(simd_units(&s), want, "{s:?}");
                }
            }
            let mut k = 0;
            while k < 5 {
                seq[k] += 1;
                if seq[k] < chars.len() {
                    break;
                }
                seq[k] = 0;
                k += 1;
            }
            if k == 5 {
                break;
            }
        }
    }

    #[test]
    fn converts_long_real_text_like_std() {
        if !available() {
            return;
        }
        let s = "Программистка и поэтесса — 数学者、詩人の娘。Αναλυτική μηχανή ✓ Ünïcødé ßüß 🚀🌍 \
                 plain ASCII for a while, then 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 and مرحبا بالعالم and नमस्ते दुनिया.";
        for cut in 0..s.len() {
            if s.is_char_boundary(cut) {
                let part = &s[cut..];
                assert_eq!(simd_units(part), part.encode_utf16().collect::<Vec<_>>());
            }
        }
    }
}
