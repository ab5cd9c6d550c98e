//! UTF-8 to UTF-16 of text already validated as UTF-8, up to 12 input bytes per step with
//! SSSE3 byte shuffles: the scheme of simdutf's `convert_masked_utf8_to_utf16` (Lemire and
//! Keiser, "Transcoding billions of Unicode characters per second with SIMD instructions",
//! 2021), with tables built here at compile time.
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

/// Whether `convert` can run here (SSSE3, checked once by std and cached).
#[inline(always)]
pub fn available() -> bool {
    std::arch::is_x86_feature_detected!("ssse3")
}

/// Transcodes a prefix of `src[..n]` to `dst`; returns (bytes read, units written). The
/// prefix ends at a char boundary less than 16 bytes before `n` (or at 0).
///
/// # Safety
///
/// `src[..n]` is valid UTF-8 and readable; `dst` has room for `n` units; the CPU has SSSE3
/// (`available()`).
#[target_feature(enable = "ssse3")]
pub unsafe fn convert(src: *const u8, n: usize, dst: *mut u16) -> (usize, usize) {
    let mut i = 0;
    let mut o = 0;
    // SAFETY: every load reads 16 bytes at `i` with `i + 16 <= n`. Every store writes at
    // most 16 units at `o`, and `o <= i` throughout (no char has more UTF-16 units than
    // UTF-8 bytes), so stores end at or before unit `i + 16 <= n`, inside `dst`'s room.
    // `i` only ever moves by whole chars (the table's `consumed`, ASCII bytes, or one
    // decoded char), so each step starts at a lead byte of valid UTF-8. Table reads index
    // `INDEX` by a 12-bit mask and `SHUFFLES` by an index below 145.
    unsafe {
        let not_cont_above = _mm_set1_epi8(-65); // 0xBF: continuation bytes are <= it, signed
        let zero = _mm_setzero_si128();
        let low7 = _mm_set1_epi16(0x7f);
        let lead5 = _mm_set1_epi16(0x1f00);
        let low7_32 = _mm_set1_epi32(0x7f);
        let mid6 = _mm_set1_epi32(0x3f00);
        let lead4 = _mm_set1_epi32(0x0f_0000);
        let pack = _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
        while i + 16 <= n {
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
    }
    (i, o)
}

/// Transcodes the one char at `src`; returns (bytes read, units written).
///
/// # Safety
///
/// `src` starts a valid UTF-8 char, all of whose bytes are readable; `dst` has room for
/// two units.
#[inline(always)]
unsafe fn one_char(src: *const u8, dst: *mut u16) -> (usize, usize) {
    // SAFETY: the caller guarantees the char's bytes are there and `dst` has two units.
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
            let c = (((b & 0x07) << 18) | (byte(1) << 12) | (byte(2) << 6) | byte(3)) - 0x10000;
            *dst = (0xd800 + (c >> 10)) as u16;
            *dst.add(1) = (0xdc00 + (c & 0x3ff)) as u16;
            (4, 2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simd_units(s: &str) -> Vec<u16> {
        let n = s.len();
        let mut out: Vec<u16> = Vec::with_capacity(n + 16);
        // SAFETY: `s` is valid UTF-8 and `out` has room for `n + 16` units.
        let (read, wrote) = unsafe { convert(s.as_ptr(), n, out.as_mut_ptr()) };
        // SAFETY: `convert` initialised `wrote` units.
        unsafe { out.set_len(wrote) };
        assert!(s.is_char_boundary(read));
        assert!(n - read < 16, "{read} of {n}");
        out.extend(s[read..].encode_utf16());
        out
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
