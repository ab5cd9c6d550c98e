//! UTF-8 to UTF-16 with AVX-512 (F, BW, VL, VBMI and VBMI2) and BMI2, 64 input bytes a
//! window, validating on the way; where the CPU has them (Intel from Ice Lake, AMD from
//! Zen 4), in place of the SSSE3 steps of `utf16_simd` and their scalar tail.
//!
//! A window is up to 64 bytes, loaded under a mask (bytes past the end are neither read
//! nor faulted on, so a string's last bytes need no scalar loop). A window that starts
//! with 16 ASCII bytes or more widens them, up to its first other byte. Otherwise:
//!
//! 1. Validation (`CHECK`): Keiser and Lemire's lookup, the three tables of `utf16_simd`,
//!    on all 64 bytes at once, the bytes before the window taken as zeros (a window
//!    starts at a char boundary; if the bytes are invalid, whatever it starts at is
//!    checked). A final window (60 bytes or fewer) is zero-padded, so a char cut off by
//!    the end meets a zero. The error bits are ORed across windows and tested once.
//! 2. Which chars: those that start before the window's last 3 bytes are complete in it
//!    (the final window takes all), so it consumes up to the first lead at or after
//!    that; a window that ends in 16 ASCII bytes or more stops after its last other
//!    byte, leaving the run to the ASCII widening.
//! 3. The UTF-16 units' last bytes: each char's last byte (a byte followed by a lead),
//!    and for a char above U+FFFF also its third byte, which ends its high surrogate.
//!    They are compressed into a list of positions (`vpcompressb` of 0..63); every unit
//!    has its own end byte, so a window never writes more units than it consumes bytes.
//! 4. For 32 units at a time, a 16-bit lane each, a byte permute (`vpermb`) gathers the
//!    unit's last byte and the one before it, and a second the byte before those. An
//!    ASCII last byte is the whole char; a continuation byte after a lead of two gives 6
//!    bits and the lead 5 (its sixth is zero), joined by one multiply-add (`vpmaddubsw`);
//!    after a second continuation byte, the byte before gives 4 more, shifted in under a
//!    mask. A surrogate's lane is fixed up under masks known from the window's leads
//!    (`pext` by the unit ends puts them in unit order), not from the values: the high
//!    one's bits, shifted down by 4, plus 0xd800 - 0x40; the low one's last 10 bits, or
//!    0xdc00. A masked store writes the lanes.
//!
//! Clausecker and Lemire ("Transcoding Unicode characters with AVX-512 instructions",
//! 2023) gave the tools; this is a simpler scheme, a lane a unit whatever the char's
//! length.
//! docs/DESIGN.md has what it measured against the SSSE3 steps.

use std::arch::x86_64::*;
use std::sync::atomic::{AtomicU8, Ordering};

/// 0: not yet known; 1: no; 2: yes.
static AVAILABLE: AtomicU8 = AtomicU8::new(0);

/// Whether `convert` can run here: AVX-512 F, BW, VL, VBMI and VBMI2, BMI1 and 2, LZCNT
/// and POPCNT (checked once).
/// `SHORN_NO_AVX512=1` in the environment at the first call turns it off, so that the
/// SSSE3 path can be tested and measured on a machine with AVX-512 (CI runs one of its
/// Node test suites and a fuzz run so).
#[inline(always)]
pub fn available() -> bool {
    match AVAILABLE.load(Ordering::Relaxed) {
        2 => true,
        1 => false,
        _ => detect(),
    }
}

#[cold]
fn detect() -> bool {
    let yes =
        cpu_has() && std::env::var_os("SHORN_NO_AVX512").is_none_or(|v| v.is_empty() || v == "0");
    AVAILABLE.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
    yes
}

/// Whether the CPU has what `convert` uses.
fn cpu_has() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512vbmi")
        && std::arch::is_x86_feature_detected!("avx512vbmi2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("popcnt")
}

/// The mask of the first `k` bits, `k <= 64`.
#[inline(always)]
fn low(k: usize) -> u64 {
    if k >= 64 {
        !0
    } else {
        (1u64 << k) - 1
    }
}

/// Transcodes all of `src[..n]` to `dst`; returns (bytes read, units written, valid), as
/// `utf16_simd::convert` does, the bytes read always `n`. With `CHECK`, `valid` says
/// whether `src[..n]` is valid UTF-8 (the units are wrong, and fewer, where it is not);
/// without it, the caller has validated `src[..n]` and `valid` is true.
///
/// # Safety
///
/// `src[..n]` is readable, and valid UTF-8 unless `CHECK`; `dst` has room for `n` units;
/// the CPU has what `available()` checks.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi1,bmi2,lzcnt,popcnt"
)]
pub unsafe fn convert<const CHECK: bool>(
    src: *const u8,
    n: usize,
    dst: *mut u16,
) -> (usize, usize, bool) {
    let mut i = 0;
    let mut o = 0;
    let mut error = _mm512_setzero_si512();
    // SAFETY: every load is a masked load of the bytes `i..i + w` with `i + w <= n` (the
    // masked-off bytes are not read and cannot fault), or of a constant table of 16 bytes.
    // Every store is masked to the units it writes, and `o <= i` before each window: an
    // ASCII run writes `k` units for `k` bytes, and a mixed window one unit per unit end
    // among its first `consumed` bytes (a set bit of a mask over them, so at most
    // `consumed`, whatever the bytes). So each store ends at or before unit
    // `i + consumed <= n`, inside `dst`'s room. `consumed` is at least 1 (a final window
    // takes its `w >= 1` bytes; another at least `w - 3 >= 58`), so the loop ends. Byte
    // permutes index their 64-byte registers by the low 6 bits of each index.
    unsafe {
        let iota = _mm512_set_epi64(
            0x3f3e3d3c3b3a3938,
            0x3736353433323130,
            0x2f2e2d2c2b2a2928,
            0x2726252423222120,
            0x1f1e1d1c1b1a1918,
            0x1716151413121110,
            0x0f0e0d0c0b0a0908,
            0x0706050403020100,
        );
        // Byte pairs (j, j) in 16-bit lane j: a permute of the unit end list by them gives
        // each lane its unit's end position twice.
        let pairs = _mm512_set_epi64(
            0x1f1f_1e1e_1d1d_1c1c,
            0x1b1b_1a1a_1919_1818,
            0x1717_1616_1515_1414,
            0x1313_1212_1111_1010,
            0x0f0f_0e0e_0d0d_0c0c,
            0x0b0b_0a0a_0909_0808,
            0x0707_0606_0505_0404,
            0x0303_0202_0101_0000,
        );
        let thirty_two = _mm512_set1_epi8(32);
        let one = _mm512_set1_epi8(1);
        let down_high = _mm512_set1_epi16(0x0100);
        let down_both = _mm512_set1_epi16(0x0202);
        let end_high = _mm512_set1_epi16(0x0080);
        let both_high = _mm512_set1_epi16(0xc0c0u16 as i16);
        let both_cont = _mm512_set1_epi16(0x8080u16 as i16);
        let six_six = _mm512_set1_epi16(0x3f3f);
        let seven = _mm512_set1_epi16(0x007f);
        let join = _mm512_set1_epi16(0x4001);
        let ten = _mm512_set1_epi16(0x03ff);
        let high_base = _mm512_set1_epi16((0xd800u16 - (0x1_0000u32 >> 10) as u16) as i16);
        let low_base = _mm512_set1_epi16(0xdc00u16 as i16);
        let t1h = _mm512_broadcast_i32x4(_mm_loadu_si128(
            super::utf16_simd::BYTE_1_HIGH.as_ptr() as *const __m128i
        ));
        let t1l = _mm512_broadcast_i32x4(_mm_loadu_si128(
            super::utf16_simd::BYTE_1_LOW.as_ptr() as *const __m128i
        ));
        let t2h = _mm512_broadcast_i32x4(_mm_loadu_si128(
            super::utf16_simd::BYTE_2_HIGH.as_ptr() as *const __m128i
        ));
        let nibble = _mm512_set1_epi8(0x0f);
        let third = _mm512_set1_epi8((0xe0u8 - 0x80) as i8);
        let fourth = _mm512_set1_epi8((0xf0u8 - 0x80) as i8);
        let high_bit = _mm512_set1_epi8(-128);
        let cont_max = _mm512_set1_epi8(-64);
        let four_lead = _mm512_set1_epi8(0xf0u8 as i8);
        while i < n {
            let rem = n - i;
            let w = rem.min(64);
            let loaded = low(w);
            let v = _mm512_maskz_loadu_epi8(loaded, src.add(i) as *const i8);
            let high = _mm512_movepi8_mask(v);
            let ascii_run = high.trailing_zeros() as usize;
            if ascii_run >= 16 {
                // ASCII first (all of the window, or up to its first other byte): widened.
                let k = ascii_run.min(w);
                let lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
                let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v));
                let keep = low(k);
                _mm512_mask_storeu_epi16(dst.add(o) as *mut i16, keep as u32, lo);
                // `wrapping_add`: with 32 units or fewer to store, `o + 32` may be past
                // `dst`'s room, and the store under a zero mask writes nothing there.
                let upper = dst.wrapping_add(o + 32) as *mut i16;
                _mm512_mask_storeu_epi16(upper, (keep >> 32) as u32, hi);
                i += k;
                o += k;
                continue;
            }
            if CHECK {
                // Keiser and Lemire's lookup, as in `utf16_simd`, on the whole window; the
                // bytes before it are taken as zeros (the window starts at a char boundary).
                let idx1 = _mm512_sub_epi8(iota, one);
                let prev1 = _mm512_maskz_permutexvar_epi8(!1, idx1, v);
                let prev2 = _mm512_maskz_permutexvar_epi8(!3, _mm512_sub_epi8(idx1, one), v);
                let prev3 = _mm512_maskz_permutexvar_epi8(
                    !7,
                    _mm512_sub_epi8(idx1, _mm512_set1_epi8(2)),
                    v,
                );
                let b1h = _mm512_and_si512(_mm512_srli_epi16::<4>(prev1), nibble);
                let b1l = _mm512_and_si512(prev1, nibble);
                let b2h = _mm512_and_si512(_mm512_srli_epi16::<4>(v), nibble);
                let pair = _mm512_and_si512(
                    _mm512_and_si512(_mm512_shuffle_epi8(t1h, b1h), _mm512_shuffle_epi8(t1l, b1l)),
                    _mm512_shuffle_epi8(t2h, b2h),
                );
                let must = _mm512_or_si512(
                    _mm512_subs_epu8(prev2, third),
                    _mm512_subs_epu8(prev3, fourth),
                );
                error = _mm512_or_si512(
                    error,
                    _mm512_xor_si512(_mm512_and_si512(must, high_bit), pair),
                );
            }
            let cont = _mm512_cmplt_epi8_mask(v, cont_max);
            let leads = !cont & loaded;
            let mut consumed = if rem <= 60 {
                w
            } else {
                let after = leads & !low(w - 3);
                if after == 0 {
                    w
                } else {
                    after.trailing_zeros() as usize
                }
            };
            // A window that ends in 16 ASCII bytes or more stops after its last other
            // byte, so the run is widened by the next.
            let last = 64 - high.leading_zeros() as usize;
            if last + 16 <= consumed {
                consumed = last;
            }
            // Bit k: byte k ends a UTF-16 unit: the last byte of each char, and for a
            // char above U+FFFF (a lead of four bytes) also its third byte, which ends its
            // high surrogate. All of the window's are listed (those past `consumed` are
            // not read), so that the list does not wait for `consumed`. Each unit has its
            // own end byte, so a window writes no more units than it consumes bytes.
            let fours = _mm512_cmpge_epu8_mask(v, four_lead) & loaded;
            let ends = ((leads >> 1) | (1u64 << (w - 1)) | (fours << 2)) & loaded;
            let positions = _mm512_maskz_compress_epi8(ends, iota);
            let units = (ends & low(consumed)).count_ones() as usize;
            // Bit k: the window's k-th unit is a high (a lead of four bytes two bytes
            // before its end) or a low surrogate (three bytes before), known from the
            // window's masks rather than the values, so that nothing waits for them.
            let highs = _pext_u64((fours << 2) & ends, ends);
            let lows = _pext_u64((fours << 3) & ends, ends);
            let mut select = pairs;
            let mut g = 0;
            while g < units {
                // A 16-bit lane per unit: its end byte low and the byte before it high
                // (`x`), the byte two before it low in `z`.
                let at = _mm512_permutexvar_epi8(select, positions);
                select = _mm512_add_epi8(select, thirty_two);
                let x = _mm512_permutexvar_epi8(_mm512_sub_epi8(at, down_high), v);
                let z = _mm512_permutexvar_epi8(_mm512_sub_epi8(at, down_both), v);
                // An ASCII end byte is the whole char; a continuation byte after a lead of
                // two gives six bits and the lead five (its sixth is 0: 110xxxxx); after
                // another continuation byte, the byte before that gives four more (a lead
                // of three, or of four for a high surrogate; a low surrogate's are cut
                // below).
                let ascii = _mm512_testn_epi16_mask(x, end_high);
                let three = _mm512_cmpeq_epi16_mask(_mm512_and_si512(x, both_high), both_cont);
                let y = _mm512_and_si512(x, _mm512_mask_blend_epi16(ascii, six_six, seven));
                // Low byte + high byte * 64: the two bytes' payloads joined (13 bits at
                // most, so the signed sum cannot saturate).
                let joined = _mm512_maddubs_epi16(y, join);
                let mut u = _mm512_or_si512(joined, _mm512_maskz_slli_epi16::<12>(three, z));
                let (high, low16) = ((highs >> g) as u32, (lows >> g) as u32);
                if (high | low16) != 0 {
                    // A char above U+FFFF: its high surrogate's lane holds the lead's three
                    // bits, the first continuation byte's six and the second's top two, all
                    // above 4 bits; 0xd800 - (0x10000 >> 10) moves them in place. Its low
                    // surrogate's lane holds its last ten bits.
                    let hs = _mm512_add_epi16(_mm512_srli_epi16::<4>(u), high_base);
                    let ls = _mm512_ternarylogic_epi32::<0xea>(u, ten, low_base);
                    u = _mm512_mask_blend_epi16(high, u, hs);
                    u = _mm512_mask_blend_epi16(low16, u, ls);
                }
                let count = (units - g).min(32);
                _mm512_mask_storeu_epi16(dst.add(o) as *mut i16, low(count) as u32, u);
                o += count;
                g += 32;
            }
            i += consumed;
        }
        (n, o, !CHECK || _mm512_test_epi8_mask(error, error) == 0)
    }
}

/// UTF-8 whose chars are all at most U+00FF (no byte of 0xC4 or more: the caller has
/// checked) to Latin-1, 64 bytes a window, validating; returns (bytes written, valid).
/// A window's two-byte chars (a lead of 0xC2 or 0xC3, then a continuation byte) become
/// one byte, `(lead & 3) << 6 | (next & 0x3f)`, written at the lead's place; a compress
/// (`vpcompressb`) then drops the continuation bytes. A window never ends between a lead
/// and its continuation byte: one whose last byte is a lead stops before it. The text is
/// valid when every continuation byte follows a lead of 0xC2 or 0xC3 and every such lead
/// is followed by one, and no byte is 0xC0 or 0xC1 (overlong) or 0xC4 or more. Where it
/// is not, the result is false and the bytes written are to be dropped.
///
/// # Safety
///
/// `src[..n]` is readable; `dst` has room for `n` bytes; the CPU has what `available()`
/// checks.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi1,bmi2,lzcnt,popcnt"
)]
pub unsafe fn latin1(src: *const u8, n: usize, dst: *mut u8) -> (usize, bool) {
    let mut i = 0;
    let mut o = 0;
    // SAFETY: every load is a masked load of the bytes `i..i + w` with `i + w <= n`
    // (masked-off bytes are neither read nor faulted on); every store is masked to the
    // `count <= consumed` bytes it writes at `o`, and `o <= i` before each window (a
    // window writes at most one byte per byte it consumes), so it ends at or before
    // byte `i + consumed <= n` of `dst`. `consumed` is at least 1 (a window of 64 bytes
    // consumes 63 or 64; a last one all of its `w >= 1`), so the loop ends.
    unsafe {
        let next_index = _mm512_set_epi64(
            0x003f3e3d3c3b3a39,
            0x3837363534333231,
            0x302f2e2d2c2b2a29,
            0x2827262524232221,
            0x201f1e1d1c1b1a19,
            0x1817161514131211,
            0x100f0e0d0c0b0a09,
            0x0807060504030201,
        );
        let cont_max = _mm512_set1_epi8(-64);
        let lead_bits = _mm512_set1_epi8(0xfeu8 as i8);
        let lead_value = _mm512_set1_epi8(0xc2u8 as i8);
        let top_two = _mm512_set1_epi8(0xc0u8 as i8);
        while i < n {
            let w = (n - i).min(64);
            let loaded = low(w);
            let v = _mm512_maskz_loadu_epi8(loaded, src.add(i) as *const i8);
            let high = _mm512_movepi8_mask(v);
            if high == 0 {
                _mm512_mask_storeu_epi8(dst.add(o) as *mut i8, loaded, v);
                i += w;
                o += w;
                continue;
            }
            let cont = _mm512_cmplt_epi8_mask(v, cont_max);
            let lead = _mm512_cmpeq_epi8_mask(_mm512_and_si512(v, lead_bits), lead_value);
            // A lead as the window's last byte goes to the next window, if there is one
            // (else it is cut off: invalid, below).
            let consumed = if w == 64 && lead >> 63 != 0 && i + 64 < n {
                63
            } else {
                w
            };
            let taken = low(consumed);
            let bad = (high & !cont & !lead)
                | ((cont ^ (lead << 1)) & taken)
                | (lead & (1u64 << (consumed - 1)));
            if bad & taken != 0 {
                return (o, false);
            }
            let next = _mm512_permutexvar_epi8(next_index, v);
            // Bytes: (lead << 6) & 0xc0 | next & 0x3f (a 16-bit shift by 6 leaves each
            // byte's low two bits at its top; nothing crosses into the byte above that
            // survives the select).
            let joined =
                _mm512_ternarylogic_epi32::<0xca>(top_two, _mm512_slli_epi16::<6>(v), next);
            let bytes = _mm512_mask_blend_epi8(lead, v, joined);
            let keep = !cont & taken;
            let count = keep.count_ones() as usize;
            let out = _mm512_maskz_compress_epi8(keep, bytes);
            _mm512_mask_storeu_epi8(dst.add(o) as *mut i8, low(count), out);
            i += consumed;
            o += count;
        }
        (o, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Our units for `bytes`, or None where we find them invalid; None too when the CPU
    /// lacks AVX-512 (the tests then check nothing, and say so).
    fn units(bytes: &[u8]) -> Option<Option<Vec<u16>>> {
        if !cpu_has() {
            return None;
        }
        let mut out = vec![0u16; bytes.len()];
        // SAFETY: `bytes` is readable; `out` has `bytes.len()` units; `cpu_has()`.
        let (read, wrote, valid) =
            unsafe { convert::<true>(bytes.as_ptr(), bytes.len(), out.as_mut_ptr()) };
        assert_eq!(read, bytes.len(), "reads all of its input");
        out.truncate(wrote);
        Some(valid.then_some(out))
    }

    fn like_std(bytes: &[u8]) {
        let Some(got) = units(bytes) else {
            eprintln!("no AVX-512 VBMI2 here: utf16_avx512 untested");
            return;
        };
        let want = std::str::from_utf8(bytes)
            .ok()
            .map(|s| s.encode_utf16().collect::<Vec<_>>());
        assert_eq!(got, want, "{bytes:02x?}");
        if let Some(want) = want {
            let mut out = vec![0u16; bytes.len()];
            // SAFETY: as above; the bytes are valid UTF-8.
            let (read, wrote, valid) =
                unsafe { convert::<false>(bytes.as_ptr(), bytes.len(), out.as_mut_ptr()) };
            assert!(valid);
            assert_eq!(read, bytes.len(), "reads all of its input");
            out.truncate(wrote);
            assert_eq!(out, want, "{bytes:02x?}");
        }
    }

    /// `latin1`'s bytes for `bytes` (which have no byte of 0xC4 or more), or None where
    /// it finds them invalid, checked against std.
    fn latin1_like_std(bytes: &[u8]) {
        if !cpu_has() {
            return;
        }
        let mut out = vec![0u8; bytes.len()];
        // SAFETY: `bytes` is readable; `out` has `bytes.len()` bytes; `cpu_has()`.
        let (wrote, valid) = unsafe { latin1(bytes.as_ptr(), bytes.len(), out.as_mut_ptr()) };
        out.truncate(wrote);
        let want = super::super::utf16_simd::latin1_cases::latin1_of(bytes);
        assert_eq!(valid.then_some(out), want, "{bytes:02x?}");
    }

    #[test]
    fn latin1_converts_and_validates_like_std_at_every_window_position() {
        super::super::utf16_simd::latin1_cases::each(64, latin1_like_std);
    }

    const CHARS: [&str; 8] = ["a", "é", "ß", "€", "李", "\u{ffff}", "🚀", "\u{10ffff}"];

    #[test]
    fn converts_like_std_for_every_mix_of_char_lengths_at_every_window_position() {
        // Runs of mixed chars, of every length to 200 bytes and more, so every char
        // length falls at every position of a window and across its end.
        for seed in 0..64 {
            let mut s = String::new();
            let mut k = seed as u64;
            while s.len() < 260 {
                // A 64-bit LCG's high bits: every char kind, in no short cycle.
                k = k
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                s.push_str(CHARS[(k >> 33) as usize % CHARS.len()]);
                like_std(s.as_bytes());
                // And behind an ASCII prefix of every length to 64.
                let prefixed = format!("{}{}", "x".repeat(s.len() % 65), s);
                like_std(prefixed.as_bytes());
            }
        }
    }

    #[test]
    fn validates_like_std_every_byte_at_every_window_position() {
        // Each byte value, and each pair after a lead, put into valid text at each
        // position around a window's end: invalid leads, stray and missing continuation
        // bytes, overlong forms, surrogates, values above U+10FFFF, cut-off chars.
        let base: Vec<u8> = "aé€🚀".repeat(30).into_bytes();
        for at in [
            0usize, 1, 2, 3, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 120, 127, 128,
        ] {
            for b in 0..=255u8 {
                let mut bytes = base.clone();
                bytes[at] = b;
                like_std(&bytes);
                like_std(&bytes[..at + 1]);
                like_std(&bytes[..(at + 2).min(bytes.len())]);
            }
            for lead in [
                0xc0u8, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xf8,
            ] {
                for second in 0x70..=0xc0u8 {
                    let mut bytes = base.clone();
                    bytes[at] = lead;
                    bytes[at + 1] = second;
                    like_std(&bytes);
                    bytes[at + 2] = 0x80;
                    bytes[at + 3] = 0x80;
                    like_std(&bytes);
                    like_std(&bytes[..at + 3]);
                }
            }
        }
    }

    #[test]
    fn converts_every_scalar_value_like_std() {
        // Every char from U+0000 to U+10FFFF, in runs of 1,000 (a few windows each), as
        // they come and behind one ASCII byte, so each char's bytes fall at other window
        // positions: every lead, payload and surrogate value through the lanes' math.
        let chars: Vec<char> = (0..=0x10_ffffu32).filter_map(char::from_u32).collect();
        for run in chars.chunks(1000) {
            let s: String = run.iter().collect();
            like_std(s.as_bytes());
            like_std(format!("x{s}").as_bytes());
        }
    }

    #[test]
    fn converts_real_text_like_std() {
        let text =
            "Программистка и поэтесса — 数学者、詩人の娘。Αναλυτική μηχανή ✓ Ünïcødé ßüß 🚀🌍";
        for k in 0..text.len() {
            like_std(&text.as_bytes()[k..]);
            like_std(&text.as_bytes()[..k]);
        }
        like_std(text.repeat(40).as_bytes());
    }
}
