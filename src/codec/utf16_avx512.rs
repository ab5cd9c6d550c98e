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
//! 3. The chars' last bytes (a byte followed by a lead) are compressed into a list of
//!    positions (`vpcompressb` of 0..63). For 16 chars at a time, a byte permute
//!    (`vpermb`) gathers each char's last four bytes into a 32-bit lane, last byte
//!    lowest. The char's own bytes are its last and those above it up to its lead (the
//!    first byte that is not a continuation byte: a scalar add on the 64-bit mask of
//!    continuation bytes finds them all); a second `vpermb`, indexed by each byte's top
//!    six bits, gives each own byte's payload mask (zero for the others), and shifts
//!    and bit selects join the masked bytes into the char.
//! 4. A char above U+FFFF becomes a surrogate pair in its lane's two 16-bit halves, and a
//!    compress of 16-bit units (`vpcompressw`) drops the other lanes' high halves; with
//!    no such char, a permute packs the lanes' low halves. A masked store writes them.
//!    Which chars are above U+FFFF (and so how many units a group writes, and where the
//!    next group's go) comes from the window's masks (a lead of four bytes, three bytes
//!    before a char's end; `pext` by the char ends puts it in char order), not from the
//!    chars' values, so the stores' masks and addresses do not wait for the values.
//!
//! Clausecker and Lemire ("Transcoding Unicode characters with AVX-512 instructions",
//! 2023) gave the tools; this is a simpler scheme, a lane a char whatever its length.
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
    // ASCII run writes `k` units for `k` bytes, and a mixed window's counts are cut so
    // that `o` stays at or below `i + consumed` (valid text never needs the cut: a char
    // has no more UTF-16 units than UTF-8 bytes; invalid text can, as a lane of four bytes
    // may hold bytes that end chars of their own). So each store ends at or before unit
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
        let spread = _mm512_set_epi32(
            0x0f0f0f0f, 0x0e0e0e0e, 0x0d0d0d0d, 0x0c0c0c0c, 0x0b0b0b0b, 0x0a0a0a0a, 0x09090909,
            0x08080808, 0x07070707, 0x06060606, 0x05050505, 0x04040404, 0x03030303, 0x02020202,
            0x01010101, 0x00000000,
        );
        let back = _mm512_set1_epi32(0x03020100);
        let sixteen = _mm512_set1_epi8(16);
        let one = _mm512_set1_epi8(1);
        let pack = _mm512_set_epi64(
            0,
            0,
            0,
            0,
            0x001e_001c_001a_0018,
            0x0016_0014_0012_0010,
            0x000e_000c_000a_0008,
            0x0006_0004_0002_0000,
        );
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
        // The payload mask of a byte, by its top six bits: ASCII 0x7f, a continuation byte
        // 0x3f, a lead of two, three or four bytes 0x1f, 0x0f, 0x07.
        let payload = _mm512_set_epi64(
            0x0707_0707_0f0f_0f0f,
            0x1f1f_1f1f_1f1f_1f1f,
            0x3f3f_3f3f_3f3f_3f3f,
            0x3f3f_3f3f_3f3f_3f3f,
            0x7f7f_7f7f_7f7f_7f7f,
            0x7f7f_7f7f_7f7f_7f7f,
            0x7f7f_7f7f_7f7f_7f7f,
            0x7f7f_7f7f_7f7f_7f7f,
        );
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
            // Bit k: byte k ends a char. All of the window's are listed (those past
            // `consumed` are not read), so that the list does not wait for `consumed`.
            let ends = ((leads >> 1) | (1u64 << (w - 1))) & loaded;
            let positions = _mm512_maskz_compress_epi8(ends, iota);
            let chars = (ends & low(consumed)).count_ones() as usize;
            // Bit k: the window's k-th char is above U+FFFF (a lead of four bytes three
            // bytes before its end), known from the window's masks rather than the
            // chars' values, so that counts and store masks do not wait for them.
            let big_leads = _mm512_cmpge_epu8_mask(v, four_lead);
            let big = _pext_u64((big_leads << 3) & ends, ends);
            let mut select = spread;
            let mut g = 0;
            while g < chars {
                let lanes = low((chars - g).min(16)) as u16;
                let at = _mm512_sub_epi8(_mm512_permutexvar_epi8(select, positions), back);
                select = _mm512_add_epi8(select, sixteen);
                let x = _mm512_permutexvar_epi8(at, v);
                // Bytes that belong to each lane's char: its last byte, and each byte above
                // while the bytes below it are continuation bytes (the lead is the first
                // that is not): per 4-bit group of `tails`, t ^ (t + 1) is the trailing ones
                // and the bit above them. With valid text no group is all ones, so no carry
                // crosses into the next lane.
                let tails = _mm512_cmplt_epi8_mask(x, cont_max);
                let own = tails ^ tails.wrapping_add(0x1111_1111_1111_1111);
                // Each own byte's payload bits, by its top six bits; the others zeroed.
                let bits = _mm512_maskz_permutexvar_epi8(own, _mm512_srli_epi16::<2>(x), payload);
                // The kept bits joined by shifts and bit selects: bytes 1 and 3 down by 2
                // onto bytes 0 and 2 (two 12-bit halves), then the high half down by 4
                // onto bit 12. (Two multiply-adds do it in fewer instructions, and timed
                // alone they were level, but a unicodePerson decode with them took 1.05x
                // the time: docs/DESIGN.md.)
                let y = _mm512_and_si512(x, bits);
                let half = _mm512_ternarylogic_epi32::<0xec>(
                    y,
                    _mm512_and_si512(_mm512_srli_epi32::<2>(y), _mm512_set1_epi32(0x3fc0_3fc0)),
                    _mm512_set1_epi32(0x00ff_00ff),
                );
                let mut c = _mm512_ternarylogic_epi32::<0xd8>(
                    _mm512_srli_epi32::<4>(half),
                    half,
                    _mm512_set1_epi32(0x0fff),
                );
                let four = (big >> g) as u16 & lanes;
                if four == 0 {
                    let count = (lanes.count_ones() as usize).min(i + consumed - o);
                    let units = _mm512_permutexvar_epi16(pack, c);
                    _mm512_mask_storeu_epi16(dst.add(o) as *mut i16, low(count) as u32, units);
                    o += count;
                    g += 16;
                    continue;
                }
                let s = _mm512_sub_epi32(c, _mm512_set1_epi32(0x1_0000));
                let hi = _mm512_add_epi32(_mm512_srli_epi32::<10>(s), _mm512_set1_epi32(0xd800));
                let lo = _mm512_or_si512(
                    _mm512_and_si512(s, _mm512_set1_epi32(0x3ff)),
                    _mm512_set1_epi32(0xdc00),
                );
                c = _mm512_mask_mov_epi32(
                    c,
                    four,
                    _mm512_or_si512(hi, _mm512_slli_epi32::<16>(lo)),
                );
                let keep =
                    _pdep_u32(lanes as u32, 0x5555_5555) | _pdep_u32(four as u32, 0xaaaa_aaaa);
                let units = _mm512_maskz_compress_epi16(keep, c);
                let count = (keep.count_ones() as usize).min(i + consumed - o);
                _mm512_mask_storeu_epi16(dst.add(o) as *mut i16, low(count) as u32, units);
                o += count;
                g += 16;
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
