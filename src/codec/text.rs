//! UTF-16 <-> UTF-8 transcoding. JS strings arrive as UTF-16 code units and leave as
//! Latin-1 or UTF-16, because V8's own UTF-8 paths cost ~700 ns per 100 non-ASCII chars
//! against ~28 ns for a UTF-16 string built from units transcoded here (docs/DESIGN.md).

use std::ops::Range;

use super::error::{Error, ErrorKind, Fault, Result};
use super::tape::Chars;
#[cfg(target_arch = "x86_64")]
use super::utf16_avx512;
#[cfg(target_arch = "x86_64")]
use super::utf16_simd;
use super::varint::{varint_len, write_varint, MAX_VARINT_LEN};
use super::writer::Writer;

#[inline]
fn is_ascii_units(units: &[u16]) -> bool {
    // A branch-free fold the compiler vectorises; for short strings it is a few cycles.
    units.iter().fold(0u16, |acc, &u| acc | u) < 0x80
}

/// Whether every byte of `bytes` is ASCII: 16 bytes a step with SSE2 on x86-64 (the last
/// step overlapping the one before), two overlapping words below 16 bytes. std's
/// `is_ascii` went a byte at a time over the short strings of a decode (github_events:
/// its 752 strings, median 38 bytes, 3.3 µs against 1.45 µs in a Rust benchmark).
#[inline(always)]
pub fn is_ascii(bytes: &[u8]) -> bool {
    let n = bytes.len();
    #[cfg(target_arch = "x86_64")]
    if n >= 16 {
        use std::arch::x86_64::*;
        let p = bytes.as_ptr();
        // SAFETY: SSE2 is part of every x86-64 target; every load reads 16 bytes that lie
        // in `bytes` (`i + 16 <= n`, and `n - 16` for the last, as `n >= 16`).
        unsafe {
            let mut acc = _mm_loadu_si128(p.add(n - 16) as *const __m128i);
            let mut i = 0;
            while i + 16 <= n {
                acc = _mm_or_si128(acc, _mm_loadu_si128(p.add(i) as *const __m128i));
                i += 16;
            }
            return _mm_movemask_epi8(acc) == 0;
        }
    }
    if n >= 8 {
        let word =
            |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or([0x80; 8]));
        let mut acc = word(n - 8);
        let mut i = 0;
        while i + 8 <= n {
            acc |= word(i);
            i += 8;
        }
        return acc & 0x8080_8080_8080_8080 == 0;
    }
    if n >= 4 {
        let word =
            |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0x80; 4]));
        return (word(0) | word(n - 4)) & 0x8080_8080 == 0;
    }
    bytes.iter().fold(0u8, |acc, &b| acc | b) < 0x80
}

/// Appends `units` as UTF-8 with its varint byte length in front.
/// A lone surrogate is an error (`LoneSurrogate`), never replaced.
pub fn write_string(w: &mut Writer, units: &[u16]) -> Result<()> {
    let n = units.len();
    if is_ascii_units(units) {
        w.varint(n as u32);
        let out = w.spare(n);
        for (o, &u) in out.iter_mut().zip(units) {
            o.write(u as u8);
        }
        // SAFETY: the loop initialised the first n spare bytes.
        unsafe { w.commit(n) };
        return Ok(());
    }
    // One pass: transcode after room for the longest possible length prefix (every unit
    // at most 3 bytes), then write the real prefix and close the gap if it is shorter.
    // Measuring first and transcoding second read the text twice.
    let max = 3 * n;
    let room = varint_len(max.min(u32::MAX as usize) as u32);
    let out = w.spare(room + max);
    let len = encode_utf8(units, &mut out[room..])
        .map_err(|unit| Error::new(ErrorKind::LoneSurrogate { unit }))?;
    let mut prefix = [0u8; MAX_VARINT_LEN];
    let used = write_varint(&mut prefix, len as u32);
    if used < room {
        out.copy_within(room..room + len, used);
    }
    for (o, &b) in out.iter_mut().zip(&prefix[..used]) {
        o.write(b);
    }
    // SAFETY: the prefix and the `len` transcoded bytes right after it are initialised.
    unsafe { w.commit(used + len) };
    Ok(())
}

/// Appends a string's chars as UTF-8 with its varint byte length in front, wherever the
/// tape found them (`TapeIn::text`).
#[inline]
pub fn write_chars(w: &mut Writer, chars: Chars) -> Result<()> {
    match chars {
        Chars::Utf16(units) => write_string(w, units),
        Chars::Latin1(bytes) => {
            write_latin1(w, bytes);
            Ok(())
        }
    }
}

/// Appends Latin-1 text (one byte a char, every char below U+0100) as UTF-8 with its
/// varint byte length in front: an ASCII byte as it is, another as two bytes. The length
/// is counted first (a pass the compiler vectorises), so no gap is closed after; ASCII
/// runs are copied 16 bytes at a time. gsoc-2018's long strings: docs/DESIGN.md, "Long
/// one-byte strings on encode".
#[inline(never)]
pub fn write_latin1(w: &mut Writer, bytes: &[u8]) {
    const BLOCK: usize = 16;
    let n = bytes.len();
    // In byte lanes, 128 bytes at a time (a count in u64 lanes took 4 bytes a step).
    let high: usize = bytes
        .chunks(128)
        .map(|chunk| chunk.iter().fold(0u8, |acc, &b| acc + (b >> 7)) as usize)
        .sum();
    // At most twice a JS string's length (under 2^30 chars), so it fits a u32.
    let len = n + high;
    w.varint(len as u32);
    if high == 0 {
        w.bytes(bytes);
        return;
    }
    let out = &mut w.spare(len)[..len];
    let (mut i, mut o) = (0, 0);
    while i < n {
        if let (Some(src), Some(dst)) = (bytes.get(i..i + BLOCK), out.get_mut(o..o + BLOCK)) {
            if src.iter().fold(0, |acc, &b| acc | b) < 0x80 {
                for (d, &b) in dst.iter_mut().zip(src) {
                    d.write(b);
                }
                i += BLOCK;
                o += BLOCK;
                continue;
            }
        }
        // A block with a char above ASCII (or the last few bytes), char by char.
        for &b in &bytes[i..(i + BLOCK).min(n)] {
            if b < 0x80 {
                out[o].write(b);
                o += 1;
            } else {
                out[o].write(0xc0 | (b >> 6));
                out[o + 1].write(0x80 | (b & 0x3f));
                o += 2;
            }
        }
        i = (i + BLOCK).min(n);
    }
    debug_assert_eq!(o, len);
    // SAFETY: the loop initialised the first `o` spare bytes (`len` of them: one for each
    // byte below 0x80, two for each of the `high` others).
    unsafe { w.commit(o) };
}

/// Copies 16 UTF-16 units to `dst` as bytes if every one is ASCII; else writes nothing and
/// returns false. One SSE2 (x86-64) or NEON (aarch64) step: both are in the baseline of
/// their targets, so no detection is needed.
#[inline(always)]
fn ascii16(src: &[u16; 16], dst: &mut [std::mem::MaybeUninit<u8>; 16]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of every x86-64 target; the loads read the 32 bytes of
        // `src` and the store writes the 16 of `dst`, both unaligned forms.
        unsafe {
            let a = _mm_loadu_si128(src.as_ptr() as *const __m128i);
            let b = _mm_loadu_si128(src.as_ptr().add(8) as *const __m128i);
            let high = _mm_and_si128(_mm_or_si128(a, b), _mm_set1_epi16(0xff80u16 as i16));
            if _mm_movemask_epi8(_mm_cmpeq_epi16(high, _mm_setzero_si128())) != 0xffff {
                return false;
            }
            // Every unit is below 0x80, so the saturating pack is a plain narrowing.
            _mm_storeu_si128(dst.as_mut_ptr() as *mut __m128i, _mm_packus_epi16(a, b));
            true
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        use std::arch::aarch64::*;
        // SAFETY: NEON is part of every aarch64 target; the loads read the 32 bytes of
        // `src` and the store writes the 16 of `dst`.
        unsafe {
            let a = vld1q_u16(src.as_ptr());
            let b = vld1q_u16(src.as_ptr().add(8));
            if vmaxvq_u16(vorrq_u16(a, b)) >= 0x80 {
                return false;
            }
            let bytes = vcombine_u8(vmovn_u16(a), vmovn_u16(b));
            vst1q_u8(dst.as_mut_ptr() as *mut u8, bytes);
            true
        }
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        if src.iter().fold(0u16, |acc, &u| acc | u) >= 0x80 {
            return false;
        }
        for (d, &u) in dst.iter_mut().zip(src) {
            d.write(u as u8);
        }
        true
    }
}

/// Transcodes UTF-16 into `out` (room for 3 bytes per unit); returns the bytes written,
/// or the index of the first lone surrogate. Long strings take the ASCII runs of their
/// text 16 units a step (`RUNS_MIN_BYTES`, as decode: in short mixed text a step tried
/// after each ASCII char would mostly fail; unicodePerson encode ran 0.93x with them).
fn encode_utf8(
    units: &[u16],
    out: &mut [std::mem::MaybeUninit<u8>],
) -> std::result::Result<usize, usize> {
    if units.len() >= RUNS_MIN_BYTES {
        encode_long_utf8(units, out)
    } else {
        encode_utf8_runs::<false>(units, out)
    }
}

/// `encode_utf8` of a long string, out of line: inlined beside the short strings' loop,
/// it cost that loop ~50 instructions per nestedEvent encode.
#[inline(never)]
fn encode_long_utf8(
    units: &[u16],
    out: &mut [std::mem::MaybeUninit<u8>],
) -> std::result::Result<usize, usize> {
    encode_utf8_runs::<true>(units, out)
}

/// `encode_utf8`, with `RUNS` the ASCII runs 16 units a step (`ascii16`); a run of
/// three-byte chars (CJK) goes in a loop of its own either way. gsoc-2018 encode, its 507
/// two-byte long strings (654K units, one char above U+00FF in most): 44 µs against 257
/// µs with the 8-unit blocks and per-block checks of the loop before (a Rust benchmark;
/// docs/DESIGN.md, "Long strings on encode, 16 units a step").
#[inline(always)]
fn encode_utf8_runs<const RUNS: bool>(
    units: &[u16],
    out: &mut [std::mem::MaybeUninit<u8>],
) -> std::result::Result<usize, usize> {
    const BLOCK: usize = 16;
    let mut o = 0;
    let mut i = 0;
    while i < units.len() {
        let u = units[i] as u32;
        if u < 0x80 {
            // The run, 16 units a step while they are all ASCII, then unit by unit to its end.
            while let (true, Some(src), Some(dst)) =
                (RUNS, units.get(i..i + BLOCK), out.get_mut(o..o + BLOCK))
            {
                let (Ok(src), Ok(dst)) = (src.try_into(), dst.try_into()) else {
                    break;
                };
                if !ascii16(src, dst) {
                    break;
                }
                i += BLOCK;
                o += BLOCK;
            }
            while let Some(&u) = units.get(i) {
                if u >= 0x80 {
                    break;
                }
                out[o].write(u as u8);
                o += 1;
                i += 1;
            }
            continue;
        }
        if u < 0x800 {
            out[o].write(0xc0 | (u >> 6) as u8);
            out[o + 1].write(0x80 | (u & 0x3f) as u8);
            o += 2;
            i += 1;
        } else if !(0xd800..0xe000).contains(&u) {
            // Three bytes a unit, and the units after it that take three too (CJK text)
            // in one loop whose stores need no bounds check (`out` has room for 3 bytes a
            // unit). Unit by unit: 1.6x the time on Japanese text.
            out[o].write(0xe0 | (u >> 12) as u8);
            out[o + 1].write(0x80 | ((u >> 6) & 0x3f) as u8);
            out[o + 2].write(0x80 | (u & 0x3f) as u8);
            o += 3;
            i += 1;
            let mut k = 0;
            for (d, &u) in out[o..].chunks_exact_mut(3).zip(&units[i..]) {
                let u = u as u32;
                if u < 0x800 || (0xd800..0xe000).contains(&u) {
                    break;
                }
                d[0].write(0xe0 | (u >> 12) as u8);
                d[1].write(0x80 | ((u >> 6) & 0x3f) as u8);
                d[2].write(0x80 | (u & 0x3f) as u8);
                k += 1;
            }
            o += 3 * k;
            i += k;
        } else {
            let lo = units.get(i + 1).map_or(0, |&l| l as u32);
            if u >= 0xdc00 || !(0xdc00..0xe000).contains(&lo) {
                return Err(i);
            }
            let c = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
            out[o].write(0xf0 | (c >> 18) as u8);
            out[o + 1].write(0x80 | ((c >> 12) & 0x3f) as u8);
            out[o + 2].write(0x80 | ((c >> 6) & 0x3f) as u8);
            out[o + 3].write(0x80 | (c & 0x3f) as u8);
            o += 4;
            i += 2;
        }
    }
    Ok(o)
}

/// Decoded text of one message, kept as Latin-1 while every char fits a byte (so the JS
/// string is one-byte, half the size and cheaper to build) and widened to UTF-16 at the
/// first char above U+00FF.
///
/// A large message (`start(true)`) is split instead: strings whose chars all fit a byte go
/// to the Latin-1 text, the others to the UTF-16 text, and a string's tape slot is its
/// length, negated for the UTF-16 text. One wide char no longer widens the whole message
/// (in gsoc-2018, 1,040 such chars made all 2.8M units two-byte: ~half the decode).
///
/// A split text is also cut in chunks just under 128 KiB each (`LATIN1_CHUNK_UNITS`,
/// `UTF16_CHUNK_UNITS`), at string boundaries: V8 makes a string above 128 KiB in its
/// large-object space, on fresh pages each time, and a multi-MB decode spent more time in
/// page faults than in decoding (docs/DESIGN.md). The first string of every chunk but
/// the first of its text has a slot of its own (`chunk_slot`) that tells the reader to
/// move to the next chunk; a string longer than a chunk has one to itself.
#[derive(Debug, Default)]
pub struct TextBuffer {
    latin1: Vec<u8>,
    utf16: Vec<u16>,
    wide: bool,
    split: bool,
    /// Where each chunk after the first of its text starts, in the order the strings
    /// reach them; empty unless split.
    cuts: Vec<Cut>,
    /// Where the current chunk of each text starts.
    latin1_from: usize,
    utf16_from: usize,
    /// The length of each text past which the current chunk is full: a string that ends
    /// past it starts a new chunk (`usize::MAX` unsplit: never).
    latin1_full: usize,
    utf16_full: usize,
    /// Short strings met before in this text (`push_value`).
    kept: Kept,
    /// Units of the strings given kept slots for repeats (they add no text, but their
    /// strings count against the decode budget as if they did: `budget_since`).
    repeated: usize,
}

/// The most units of a Latin-1 chunk (one byte each) and of a UTF-16 chunk (two each),
/// unless one string is longer: V8's largest regular object is 128 KiB, header included.
/// (Chunks of 64 KiB were no faster on gsoc-2018, and slower on texts of 64-128 KiB, which
/// these leave whole.)
pub const LATIN1_CHUNK_UNITS: usize = (1 << 17) - 64;
pub const UTF16_CHUNK_UNITS: usize = (1 << 16) - 32;

/// Chunk-switch slots are below `-CHUNK_SLOT` (string lengths are far below it): a
/// string opening a new Latin-1 chunk has slot `-(CHUNK_SLOT + length)`, one opening a
/// new UTF-16 chunk `-(2 * CHUNK_SLOT + length)`.
pub const CHUNK_SLOT: f64 = 4_294_967_296.0;

/// The slot of a string of `units` units that opens a new chunk of the `wide` text.
#[inline]
pub fn chunk_slot(wide: bool, units: usize) -> f64 {
    -(if wide { 2.0 * CHUNK_SLOT } else { CHUNK_SLOT } + units as f64)
}

/// The start of a chunk: in the UTF-16 text (`wide`) or the Latin-1 one, at unit `at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    pub wide: bool,
    pub at: usize,
}

/// Where the chunks of a chunked text (`Text::Chunked`) are in its two texts.
#[derive(Debug, PartialEq, Eq)]
pub struct ChunkRanges {
    /// The first chunk of the Latin-1 text, and of the UTF-16 text.
    pub first: Range<usize>,
    pub first_wide: Range<usize>,
    /// Every further chunk, in the order the reader moves to them, with whether it is of
    /// the UTF-16 text.
    pub more: Vec<(bool, Range<usize>)>,
}

/// The chunks of a chunked text whose texts are `latin1_len` and `utf16_len` units long.
pub fn chunk_ranges(latin1_len: usize, utf16_len: usize, cuts: &[Cut]) -> ChunkRanges {
    let mut ends = [latin1_len, utf16_len];
    let mut more = vec![(false, 0..0); cuts.len()];
    for (k, c) in cuts.iter().enumerate().rev() {
        let end = &mut ends[c.wide as usize];
        more[k] = (c.wide, c.at..*end);
        *end = c.at;
    }
    ChunkRanges {
        first: 0..ends[0],
        first_wide: 0..ends[1],
        more,
    }
}

/// Kept-string slots of a split text (`TextBuffer::push_value`): an item of an array of
/// strings of 2 to 12 ASCII bytes met twice before in the same decode call (as an item of
/// such an array) has slot `kept_slot(id)`, and
/// JS takes the string it kept under that id (lib/runtime.js, KEPT_SLOT) instead of
/// slicing a new one; its second time has slot `keep_slot(id, length)`, its bytes in the
/// Latin-1 text as any string's, and JS keeps the slice under `id`. Repeated short strings
/// (tags, statuses, enum-like values of `t.string()`) then make one JS string per decode
/// call instead of one per value: events100k's 300,000 tags were a quarter of its decode
/// (docs/DESIGN.md, "Repeated short strings on decode"). A string met once costs a lookup
/// here and nothing in JS. The slots are below the chunk switches' (`CHUNK_SLOT`), so JS
/// tests for them last: a test before the common slice cost github_events decode 4%.
pub const KEPT_SLOT: f64 = CHUNK_SLOT;

/// The slot of a repeat of kept string `id`: `-(3 * KEPT_SLOT + id)`.
#[inline]
pub fn kept_slot(id: u32) -> f64 {
    -(3.0 * KEPT_SLOT + id as f64)
}

/// The slot of a string of `len` bytes, kept from now on as `id`: `-(4 * KEPT_SLOT + 32 *
/// id + len)`.
#[inline]
pub fn keep_slot(id: u32, len: usize) -> f64 {
    -(4.0 * KEPT_SLOT + (32 * id as usize + len) as f64)
}
/// At most this many kept strings a decode call; later repeats are not kept.
pub const MAX_KEPT: u32 = 255;
const KEPT_MIN_BYTES: usize = 2;
const KEPT_MAX_BYTES: usize = 12;
/// Buckets of the table of strings met (a power of two), probed at most `KEPT_PROBES`
/// deep: a string that finds no room is not entered, so colliding strings cost a few
/// compares each, never a search of the table. 256 of 16 bytes (4 KiB): a decode's other
/// memory evicts the table between calls, and the first look at each line misses; with
/// 512 of 24 bytes the lookups of twitter's decode cost more than its repeats saved.
const KEPT_BUCKETS: usize = 256;
const KEPT_PROBES: usize = 4;
/// Strings entered after which a call that found fewer repeats than `KEPT_TRIAL_REPEATS`
/// looks nothing up for the rest of it (names and ids seldom repeat).
const KEPT_TRIAL: u32 = 32;
const KEPT_TRIAL_REPEATS: u32 = 8;
/// The id of an entry met once, not kept.
const MET_ONCE: u8 = u8::MAX;

#[derive(Debug, Default, Clone, Copy)]
struct KeptEntry {
    /// The string's bytes, as `short_words` packs them.
    lo: u64,
    hi: u32,
    /// The decode call it was met in (`Kept::generation`), its id (`MET_ONCE` if not
    /// kept) and its length.
    generation: u16,
    id: u8,
    len: u8,
}

/// The short strings met in the current decode call. An entry counts only if it is of this
/// call's generation, and is kept only if its id is below `count` (a rollback lowers
/// `count`: the entries it kept are met-once again), so nothing is cleared between calls.
#[derive(Debug, Default)]
struct Kept {
    table: Vec<KeptEntry>,
    generation: u16,
    count: u32,
    /// Entries made and repeats found in this call; whether to look strings up at all.
    entered: u32,
    repeats: u32,
    on: bool,
}

/// What `Kept::find` found for a string.
enum Found {
    /// Kept under this id.
    Kept(u32),
    /// Met once before, in this bucket: keep it now, if there is room for an id.
    Once(usize),
    /// Not met: entered in its bucket, or no room.
    New,
}

/// The bytes of `x`, of 4 to 8 bytes, as one word (its first four and last four): with
/// the length, it tells `x` from every other string (json and record keys, src/types/keys.rs;
/// kept strings, `short_words`).
#[inline(always)]
pub(crate) fn word(x: &[u8]) -> u64 {
    let n = x.len();
    u32::from_le_bytes([x[0], x[1], x[2], x[3]]) as u64
        | (u32::from_le_bytes([x[n - 4], x[n - 3], x[n - 2], x[n - 1]]) as u64) << 32
}

/// The bytes of a string of 2 to 12 bytes as two words that, with its length, tell it from
/// every other: its first 8 bytes and its last 4, its `word` (4 to 8 bytes), or (2 or 3
/// bytes) every byte.
#[inline(always)]
fn short_words(b: &[u8]) -> (u64, u32) {
    let n = b.len();
    if n > 8 {
        let first: [u8; 8] = b[..8].try_into().unwrap_or_default();
        let last: [u8; 4] = b[n - 4..].try_into().unwrap_or_default();
        (u64::from_le_bytes(first), u32::from_le_bytes(last))
    } else if n >= 4 {
        (word(b), 0)
    } else {
        (
            b[0] as u64 | (b[n / 2] as u64) << 8 | (b[n - 1] as u64) << 16,
            0,
        )
    }
}

impl Kept {
    fn start(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Entries of a generation 2^32 calls ago would count again: clear them.
            self.table
                .iter_mut()
                .for_each(|e| *e = KeptEntry::default());
            self.generation = 1;
        }
        self.count = 0;
        self.entered = 0;
        self.repeats = 0;
        self.on = true;
    }

    /// Looks `bytes` up, entering it if it was not met and there is room.
    #[inline]
    fn find(&mut self, bytes: &[u8]) -> Found {
        if self.table.is_empty() {
            self.table = vec![KeptEntry::default(); KEPT_BUCKETS];
        }
        let (lo, hi) = short_words(bytes);
        let n = bytes.len();
        let hash =
            (lo ^ (hi as u64).rotate_left(29) ^ n as u64).wrapping_mul(0x517c_c1b7_2722_0a95);
        let first = (hash >> 56) as usize;
        for probe in 0..KEPT_PROBES {
            let bucket = (first + probe) & (KEPT_BUCKETS - 1);
            let e = &mut self.table[bucket];
            if e.generation != self.generation {
                *e = KeptEntry {
                    lo,
                    hi,
                    generation: self.generation,
                    id: MET_ONCE,
                    len: n as u8,
                };
                self.entered += 1;
                if self.entered == KEPT_TRIAL && self.repeats < KEPT_TRIAL_REPEATS {
                    self.on = false;
                }
                return Found::New;
            }
            if e.len as usize == n && e.lo == lo && e.hi == hi {
                self.repeats += 1;
                return if e.id != MET_ONCE && (e.id as u32) < self.count {
                    Found::Kept(e.id as u32)
                } else {
                    Found::Once(bucket)
                };
            }
        }
        Found::New
    }
}

/// A position in a `TextBuffer` (`mark`, `rollback`, `budget_since`).
#[derive(Debug, Clone, Copy)]
pub struct TextMark {
    latin1: usize,
    utf16: usize,
    wide: bool,
    cuts: usize,
    latin1_from: usize,
    utf16_from: usize,
    kept: u32,
    repeated: usize,
}

/// The text of a decoded message, borrowed from its `TextBuffer`: one string, or (a split
/// message with both kinds of strings) the Latin-1 text and the UTF-16 text, or (a split
/// message in chunks) both texts and where their chunks start.
#[derive(Debug, PartialEq, Eq)]
pub enum Text<'a> {
    Latin1(&'a [u8]),
    Utf16(&'a [u16]),
    Split(&'a [u8], &'a [u16]),
    Chunked(&'a [u8], &'a [u16], &'a [Cut]),
}

impl TextBuffer {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn clear(&mut self) {
        self.start(false);
    }

    /// Empties the buffer for a message; `split`: keep Latin-1 and wide strings apart.
    pub fn start(&mut self, split: bool) {
        self.latin1.clear();
        self.utf16.clear();
        self.wide = false;
        self.split = split;
        self.cuts.clear();
        self.set_chunks(0, 0);
        self.kept.start();
        self.repeated = 0;
    }

    /// The current chunks start at `latin1_from` and `utf16_from`. (An unsplit text is
    /// never cut, but gets the same bounds: `cut` lifts them when a text reaches one.)
    #[inline]
    fn set_chunks(&mut self, latin1_from: usize, utf16_from: usize) {
        self.latin1_from = latin1_from;
        self.utf16_from = utf16_from;
        self.latin1_full = latin1_from + LATIN1_CHUNK_UNITS;
        self.utf16_full = utf16_from + UTF16_CHUNK_UNITS;
    }

    /// Length in UTF-16 code units (the length JS sees; both texts' for a split one).
    pub fn len(&self) -> usize {
        if self.wide {
            self.utf16.len()
        } else {
            self.latin1.len() + self.utf16.len()
        }
    }

    /// The length of the longest JS string the text becomes.
    pub fn longest(&self) -> usize {
        self.latin1.len().max(self.utf16.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the JS string of the text takes (one or two per unit).
    #[cfg(test)]
    pub fn byte_size(&self) -> usize {
        // Unwidened, `utf16` is empty; widened, `latin1` is.
        self.latin1.len() + 2 * self.utf16.len()
    }

    /// What the text appended since `mark` costs the decode budget: two bytes a unit if
    /// it holds a char above U+00FF (or the whole text was wide already), else one. It
    /// does not depend on whether the text is split: a whole text widened by that char
    /// holds the appended Latin-1 strings at two bytes too, and a split one holds them at
    /// one, but both are counted at two (fuzz/decode found the two disagreeing under a
    /// tight `maxDecodedBytes`, 2026-12-02).
    #[inline]
    pub fn budget_since(&self, mark: &TextMark) -> usize {
        // Whole, one of the two holds the text; split, both do.
        let appended = self.latin1.len() + self.utf16.len() + self.repeated
            - (mark.latin1 + mark.utf16 + mark.repeated);
        let wide = if self.split {
            self.utf16.len() > mark.utf16
        } else {
            self.wide
        };
        if wide {
            2 * appended
        } else {
            appended
        }
    }

    /// Where the text is now, to `rollback` to.
    #[inline]
    pub fn mark(&self) -> TextMark {
        TextMark {
            latin1: self.latin1.len(),
            utf16: self.utf16.len(),
            wide: self.wide,
            cuts: self.cuts.len(),
            latin1_from: self.latin1_from,
            utf16_from: self.utf16_from,
            kept: self.kept.count,
            repeated: self.repeated,
        }
    }

    /// Drops what was appended after `mark`. An unsplit text widened since is narrowed
    /// back to Latin-1 (every unit before the mark then fits a byte).
    pub fn rollback(&mut self, mark: TextMark) {
        self.kept.count = mark.kept;
        self.repeated = mark.repeated;
        if self.wide && !mark.wide {
            self.latin1.clear();
            let units = &self.utf16[..mark.latin1.min(self.utf16.len())];
            self.latin1.extend(units.iter().map(|&u| u as u8));
            self.utf16.clear();
            self.wide = false;
        } else {
            self.latin1.truncate(mark.latin1);
            self.utf16.truncate(mark.utf16);
            self.cuts.truncate(mark.cuts);
            self.set_chunks(mark.latin1_from, mark.utf16_from);
        }
    }

    /// Units of memory held (both forms).
    pub fn capacity(&self) -> usize {
        self.latin1.capacity() + self.utf16.capacity()
    }

    #[inline]
    pub fn text(&self) -> Text<'_> {
        // Unsplit, the text is all in `utf16` once widened, else all in `latin1`.
        if !self.split {
            if self.wide {
                Text::Utf16(&self.utf16)
            } else {
                Text::Latin1(&self.latin1)
            }
        } else if !self.cuts.is_empty() {
            Text::Chunked(&self.latin1, &self.utf16, &self.cuts)
        } else if self.utf16.is_empty() {
            Text::Latin1(&self.latin1)
        } else if self.latin1.is_empty() {
            Text::Utf16(&self.utf16)
        } else {
            Text::Split(&self.latin1, &self.utf16)
        }
    }

    /// `push_str` of an item of an array of `t.string()` (`string::decode_item`): in a
    /// split text, one of 2 to
    /// 12 ASCII bytes met twice before in this decode call gets its kept slot, with no
    /// text (`kept_slot`); its second time, it is appended and given the slot that keeps
    /// it (`keep_slot`).
    #[inline(always)]
    pub fn push_value(&mut self, bytes: &[u8], offset: usize) -> Result<f64> {
        if self.split && self.kept.on && (KEPT_MIN_BYTES..=KEPT_MAX_BYTES).contains(&bytes.len()) {
            if let Some(slot) = self.keep(bytes) {
                return Ok(slot);
            }
        }
        self.push_str(bytes, offset)
    }

    /// `push_value`'s slot for a short string that is kept or to be kept, or None. Out of
    /// line: inlined, it kept `push_str` out of the decode loop, and github_events decode
    /// (whose short strings seldom repeat) ran 0.92x.
    #[inline(never)]
    fn keep(&mut self, bytes: &[u8]) -> Option<f64> {
        if !is_ascii(bytes) {
            return None;
        }
        let n = bytes.len();
        match self.kept.find(bytes) {
            Found::Kept(id) => {
                self.repeated += n;
                Some(kept_slot(id))
            }
            // Kept only where it opens no chunk (the switch has a slot of its own).
            Found::Once(bucket)
                if self.kept.count < MAX_KEPT
                    && !self.wide
                    && self.latin1.len() + n <= self.latin1_full =>
            {
                let id = self.kept.count;
                self.kept.table[bucket].id = id as u8;
                self.kept.count += 1;
                self.push_ascii(bytes);
                Some(keep_slot(id, n))
            }
            _ => None,
        }
    }

    /// Validates `bytes` as UTF-8 and appends them; returns the string's tape slot: its
    /// length in UTF-16 units, negated when a split buffer put it in the UTF-16 text.
    #[inline(always)]
    pub fn push_str(&mut self, bytes: &[u8], offset: usize) -> Result<f64> {
        if is_ascii(bytes) {
            self.push_ascii(bytes);
            if self.latin1.len() > self.latin1_full {
                return Ok(self.cut(false, bytes.len()));
            }
            return Ok(bytes.len() as f64);
        }
        if self.split {
            return self.push_split(bytes, offset);
        }
        self.push_non_ascii(bytes, offset).map(|units| units as f64)
    }

    /// A non-ASCII string of a split message.
    fn push_split(&mut self, bytes: &[u8], offset: usize) -> Result<f64> {
        let checked = validate_up_front(bytes, offset)?;
        // A char above U+00FF has a lead byte of at least 0xC4; without one, every char fits
        // a byte, or the bytes are malformed (where the Latin-1 copy stops early).
        if !has_wide_lead(bytes) {
            let mark = self.latin1.len();
            if self.push_latin1(bytes) {
                let units = self.latin1.len() - mark;
                if self.latin1.len() > self.latin1_full {
                    return Ok(self.cut(false, units));
                }
                return Ok(units as f64);
            }
            return Err(Error::malformed(offset, Fault::BadUtf8));
        }
        let before = self.utf16.len();
        let valid = push_utf16_any(&mut self.utf16, bytes, checked);
        if !valid {
            return Err(Error::malformed(offset, Fault::BadUtf8));
        }
        let units = self.utf16.len() - before;
        if self.utf16.len() > self.utf16_full {
            return Ok(self.cut(true, units));
        }
        Ok(-(units as f64))
    }

    /// A string of `units` units, just appended to the `wide` text, ends past its current
    /// chunk: it opens a new one, unless it opened this one (then it is longer than a chunk
    /// alone, and the next string opens the next). Returns the string's slot.
    #[cold]
    fn cut(&mut self, wide: bool, units: usize) -> f64 {
        if !self.split {
            // Strings of a fixed few (lib/codegen.js, positional) are read from one text.
            self.latin1_full = usize::MAX;
            self.utf16_full = usize::MAX;
            return units as f64;
        }
        let (len, from) = if wide {
            (self.utf16.len(), self.utf16_from)
        } else {
            (self.latin1.len(), self.latin1_from)
        };
        let at = len - units;
        if at == from {
            return if wide { -(units as f64) } else { units as f64 };
        }
        self.cuts.push(Cut { wide, at });
        if wide {
            self.set_chunks(self.latin1_from, at);
        } else {
            self.set_chunks(at, self.utf16_from);
        }
        chunk_slot(wide, units)
    }

    /// Validates `bytes` as UTF-8 and appends them; returns the number of UTF-16 units
    /// appended. `offset` locates `bytes` in the input, for the error.
    #[inline(always)]
    pub fn push_utf8(&mut self, bytes: &[u8], offset: usize) -> Result<usize> {
        if is_ascii(bytes) {
            self.push_ascii(bytes);
            return Ok(bytes.len());
        }
        self.push_non_ascii(bytes, offset)
    }

    /// Appends ASCII `bytes` to the text they belong in (the Latin-1 one, unless widened).
    #[inline(always)]
    fn push_ascii(&mut self, bytes: &[u8]) {
        if self.wide {
            self.utf16.extend(bytes.iter().map(|&b| b as u16));
        } else if bytes.len() <= 16 {
            // A variable-length copy is a memmove call; short names copy faster inline
            // (and `extend` of an iterator stayed an out-of-line call: 44 instructions
            // of a person decode's ~550 native ones).
            self.latin1.reserve(16);
            let len = self.latin1.len();
            let spare = self.latin1.spare_capacity_mut();
            for (d, &b) in spare.iter_mut().zip(bytes) {
                d.write(b);
            }
            // SAFETY: the loop initialised `bytes.len()` (at most 16, reserved) bytes
            // after `len`.
            unsafe { self.latin1.set_len(len + bytes.len()) };
        } else {
            self.latin1.extend_from_slice(bytes);
        }
    }

    /// Appends non-ASCII `bytes` to an unsplit text, widening it at the first char above
    /// U+00FF; returns the number of UTF-16 units appended.
    #[inline(always)]
    fn push_non_ascii(&mut self, bytes: &[u8], offset: usize) -> Result<usize> {
        let checked = validate_up_front(bytes, offset)?;
        let before = self.len();
        if !self.wide {
            // A string with a char above U+00FF widens the text at once: its Latin-1
            // prefix would only be copied again by `widen`.
            if !has_wide_lead(bytes) {
                // Valid UTF-8 without a lead of 0xC4 or more has no char above U+00FF.
                if self.push_latin1(bytes) {
                    return Ok(self.len() - before);
                }
                return Err(Error::malformed(offset, Fault::BadUtf8));
            }
            self.widen();
        }
        let valid = push_utf16_any(&mut self.utf16, bytes, checked);
        if !valid {
            return Err(Error::malformed(offset, Fault::BadUtf8));
        }
        Ok(self.len() - before)
    }

    /// Appends `bytes`, UTF-8 without a lead byte of 0xC4 or more (`has_wide_lead` is
    /// false), to the Latin-1 text, one byte per char; false, appending nothing, where they
    /// are not valid UTF-8. With AVX-512, 64 bytes at a time (`utf16_avx512::latin1`);
    /// else with SSSE3, 16 at a time (`utf16_simd::latin1`) and the last few by the byte
    /// loop below, which alone branches on every char of accented Latin text.
    #[inline(always)]
    fn push_latin1(&mut self, bytes: &[u8]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if utf16_avx512::available() {
            self.latin1.reserve(bytes.len());
            let start = self.latin1.len();
            // SAFETY: `bytes` are readable and have no byte of 0xC4 or more; the text has
            // room for `bytes.len()` more bytes; `available()` found the CPU's features.
            let (wrote, valid) = unsafe {
                utf16_avx512::latin1(
                    bytes.as_ptr(),
                    bytes.len(),
                    self.latin1.as_mut_ptr().add(start),
                )
            };
            if valid {
                // SAFETY: `latin1` initialised `wrote` bytes after `start`.
                unsafe { self.latin1.set_len(start + wrote) };
            }
            return valid;
        }
        let mark = self.latin1.len();
        // (Only x86-64 has the blocks below that move `rest` on.)
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut rest = bytes;
        #[cfg(target_arch = "x86_64")]
        if bytes.len() >= 16 && utf16_simd::available() {
            self.latin1.reserve(bytes.len());
            // SAFETY: `bytes` are readable and have no byte of 0xC4 or more; the text has
            // room for `bytes.len()` more bytes; `available()` found SSSE3.
            let (read, wrote, valid) = unsafe {
                utf16_simd::latin1(
                    bytes.as_ptr(),
                    bytes.len(),
                    self.latin1.as_mut_ptr().add(mark),
                )
            };
            if !valid {
                return false;
            }
            // SAFETY: `latin1` initialised `wrote` bytes after `mark`.
            unsafe { self.latin1.set_len(mark + wrote) };
            // The last bytes (under 16, from a char boundary) by the byte loop.
            rest = &bytes[read..];
        }
        if self.push_latin1_prefix(rest).is_empty() {
            return true;
        }
        self.latin1.truncate(mark);
        false
    }

    /// Appends the longest prefix of valid UTF-8 `bytes` whose chars are all at most
    /// U+00FF as Latin-1; returns the rest (starting at the first wider char).
    fn push_latin1_prefix<'b>(&mut self, bytes: &'b [u8]) -> &'b [u8] {
        self.latin1.reserve(bytes.len());
        let mut i = 0;
        let long = bytes.len() >= RUNS_MIN_BYTES;
        while i < bytes.len() {
            let b = bytes[i];
            if long && i + 16 <= bytes.len() {
                // A long string's ASCII runs, 16 bytes at a time (as `push_utf16`).
                let block: [u8; 16] = bytes[i..i + 16].try_into().unwrap();
                if u128::from_ne_bytes(block) & ASCII_HIGH_BITS == 0 {
                    self.latin1.extend_from_slice(&block);
                    i += 16;
                    continue;
                }
            }
            if b < 0x80 {
                self.latin1.push(b);
                i += 1;
            } else if (b == 0xc2 || b == 0xc3)
                && bytes.get(i + 1).is_some_and(|&c| c & 0xc0 == 0x80)
            {
                // Two-byte sequences with these leads are exactly U+0080..U+00FF. Anything
                // else, malformed sequences included, is left to `push_utf16`.
                self.latin1.push(((b & 0x1f) << 6) | (bytes[i + 1] & 0x3f));
                i += 2;
            } else {
                break;
            }
        }
        &bytes[i..]
    }

    #[cold]
    fn widen(&mut self) {
        self.utf16.clear();
        self.utf16.reserve(self.latin1.len() * 2);
        self.utf16.extend(self.latin1.iter().map(|&b| b as u16));
        self.latin1.clear();
        self.wide = true;
    }
}

/// The high bit of each of 16 bytes: a block is ASCII when none is set.
const ASCII_HIGH_BITS: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;

/// Whether `bytes` hold a lead byte of a char above U+00FF (0xC4 or more), tested 16 bytes
/// at a time without stopping early (which the compiler turns into vector compares;
/// `iter().any()` stays a byte loop).
fn has_wide_lead(bytes: &[u8]) -> bool {
    let mut blocks = bytes.chunks_exact(16);
    for block in &mut blocks {
        if block.iter().fold(false, |seen, &b| seen | (b >= 0xc4)) {
            return true;
        }
    }
    blocks.remainder().iter().any(|&b| b >= 0xc4)
}

/// Validates a non-ASCII string whole before it is transcoded, when that pays; returns
/// whether it is still to be checked while it is transcoded (`checked`), or the error
/// (`offset` locates `bytes` in the input). With SSSE3, every string is checked while
/// transcoded (`utf16_avx512::convert::<true>` or `utf16_simd::convert::<true>` from 16
/// bytes, the scalar loop below that):
/// a separate pass by simdutf8 had been 8% of a unicodePerson decode. Elsewhere, strings
/// from 64 bytes are validated by simdutf8 first, whose SIMD pays from there (below, it
/// calls `std::str::from_utf8`), and shorter ones are checked by the scalar loop.
#[inline(always)]
fn validate_up_front(bytes: &[u8], offset: usize) -> Result<bool> {
    #[cfg(target_arch = "x86_64")]
    if utf16_simd::available() {
        return Ok(true);
    }
    if bytes.len() < 64 {
        return Ok(true);
    }
    if simdutf8::basic::from_utf8(bytes).is_err() {
        return Err(Error::malformed(offset, Fault::BadUtf8));
    }
    Ok(false)
}

/// A continuation byte: 10xxxxxx.
#[inline(always)]
fn cont(b: u8) -> bool {
    b & 0xc0 == 0x80
}

/// From this many bytes, a string is transcoded with its ASCII runs widened 16 bytes at a
/// time (`push_utf16::<_, true>`): long texts with a few wide characters are mostly such
/// runs (gsoc-2018's descriptions: 10 instructions per unit before, ~5.6 now). Shorter
/// ones keep the plain loop: in short mixed text (unicodePerson) the runs are a word or a
/// space, and trying a block after each cost 10% more (callgrind, push_utf16 per decode:
/// 1723 plain, 1906 with runs).
const RUNS_MIN_BYTES: usize = 256;

/// `push_utf16` of the right kind for `bytes`: from 16 bytes, the AVX-512 transcoder where
/// the CPU has it (all of the string), else the SSSE3 one (all but the last 15 bytes or
/// fewer, which the plain loop does); shorter strings and other CPUs, the plain loop.
#[inline]
fn push_utf16_any(out: &mut Vec<u16>, bytes: &[u8], checked: bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    if bytes.len() >= 16 && utf16_simd::available() {
        out.reserve(bytes.len());
        let start = out.len();
        let (src, n, dst) = (bytes.as_ptr(), bytes.len(), out.as_mut_ptr());
        // SAFETY: `bytes` are readable, and were validated as UTF-8 when `checked` is
        // false; `out` has room for `bytes.len()` more units; `available()` found SSSE3,
        // and `utf16_avx512::available()` its own features.
        let (read, wrote, valid) = unsafe {
            match (utf16_avx512::available(), checked) {
                (true, true) => utf16_avx512::convert::<true>(src, n, dst.add(start)),
                (true, false) => utf16_avx512::convert::<false>(src, n, dst.add(start)),
                (false, true) => utf16_simd::convert::<true>(src, n, dst.add(start)),
                (false, false) => utf16_simd::convert::<false>(src, n, dst.add(start)),
            }
        };
        // SAFETY: `convert` initialised `wrote` units after `start`.
        unsafe { out.set_len(start + wrote) };
        // The rest (with SSSE3, under 16 bytes from a char boundary; none with AVX-512)
        // by the plain loop.
        return valid && (read == n || push_utf16::<false, false>(out, &bytes[read..]));
    }
    match (checked, bytes.len() >= RUNS_MIN_BYTES) {
        (true, false) => push_utf16::<true, false>(out, bytes),
        (true, true) => push_utf16::<true, true>(out, bytes),
        (false, false) => push_utf16::<false, false>(out, bytes),
        (false, true) => push_utf16::<false, true>(out, bytes),
    }
}

/// Appends UTF-8 `bytes` to `out` as UTF-16. With `CHECKED`, each sequence is validated
/// as it is read (Unicode's table 3-7: no overlong forms, no surrogates, nothing above
/// U+10FFFF) and the result is false at the first invalid one; without it, the caller
/// has validated `bytes` (simdutf8 or `utf16_simd::convert::<true>`) and the result is
/// always true.
#[inline(never)]
fn push_utf16<const CHECKED: bool, const RUNS: bool>(out: &mut Vec<u16>, bytes: &[u8]) -> bool {
    // UTF-16 never needs more units than UTF-8 has bytes, so one reservation covers the
    // whole string and the loop writes without capacity checks (`extend` of
    // `str::encode_utf16` was ~40% of a unicodePerson decode).
    out.reserve(bytes.len());
    let start = out.len();
    let n = bytes.len();
    let src = bytes.as_ptr();
    let mut i = 0;
    let mut o = 0;
    // SAFETY: `dst` points at `bytes.len()` reserved units; each char of k bytes yields at
    // most k units (a 4-byte one yields 2), so writes stay below `start + n`. Reads: a
    // k-byte sequence is read only when its k bytes are there, which `CHECKED` tests
    // before reading and the caller's UTF-8 validation guarantees otherwise. `set_len`
    // covers exactly the units written, also when a check fails midway.
    let valid = unsafe {
        let dst = out.as_mut_ptr().add(start);
        let byte = |k: usize| *src.add(k);
        loop {
            if i >= n {
                break true;
            }
            let b = byte(i);
            if b < 0x80 {
                *dst.add(o) = b as u16;
                i += 1;
                o += 1;
                // With `RUNS`, the rest of an ASCII run, 16 bytes at a time (widened as
                // a vector), from a second ASCII byte on.
                while RUNS && i + 16 <= n && byte(i) < 0x80 {
                    let block = (src.add(i) as *const [u8; 16]).read_unaligned();
                    if u128::from_ne_bytes(block) & ASCII_HIGH_BITS != 0 {
                        break;
                    }
                    let units: [u16; 16] = block.map(u16::from);
                    (dst.add(o) as *mut [u16; 16]).write_unaligned(units);
                    i += 16;
                    o += 16;
                }
            } else if b < 0xe0 {
                if CHECKED && (b < 0xc2 || i + 1 >= n || !cont(byte(i + 1))) {
                    break false;
                }
                *dst.add(o) = (((b as u32 & 0x1f) << 6) | (byte(i + 1) as u32 & 0x3f)) as u16;
                i += 2;
                o += 1;
            } else if b < 0xf0 {
                if CHECKED {
                    if i + 2 >= n || !cont(byte(i + 2)) {
                        break false;
                    }
                    let c1 = byte(i + 1);
                    let lo = if b == 0xe0 { 0xa0 } else { 0x80 };
                    let hi = if b == 0xed { 0x9f } else { 0xbf };
                    if c1 < lo || c1 > hi {
                        break false;
                    }
                }
                let c = ((b as u32 & 0x0f) << 12)
                    | ((byte(i + 1) as u32 & 0x3f) << 6)
                    | (byte(i + 2) as u32 & 0x3f);
                *dst.add(o) = c as u16;
                i += 3;
                o += 1;
            } else {
                if CHECKED {
                    if b > 0xf4 || i + 3 >= n || !cont(byte(i + 2)) || !cont(byte(i + 3)) {
                        break false;
                    }
                    let c1 = byte(i + 1);
                    let lo = if b == 0xf0 { 0x90 } else { 0x80 };
                    let hi = if b == 0xf4 { 0x8f } else { 0xbf };
                    if c1 < lo || c1 > hi {
                        break false;
                    }
                }
                let c = ((b as u32 & 0x07) << 18)
                    | ((byte(i + 1) as u32 & 0x3f) << 12)
                    | ((byte(i + 2) as u32 & 0x3f) << 6)
                    | (byte(i + 3) as u32 & 0x3f);
                let c = c - 0x10000;
                *dst.add(o) = (0xd800 + (c >> 10)) as u16;
                *dst.add(o + 1) = (0xdc00 + (c & 0x3ff)) as u16;
                i += 4;
                o += 2;
            }
        }
    };
    // SAFETY: the loop above initialised `o` units after `start`.
    unsafe { out.set_len(start + o) };
    valid
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A split text's slots for `push_value` of `strings`, in order.
    fn kept_slots(t: &mut TextBuffer, strings: &[&str]) -> Vec<f64> {
        strings
            .iter()
            .map(|s| t.push_value(s.as_bytes(), 0).unwrap())
            .collect()
    }

    #[test]
    fn short_ascii_strings_met_twice_are_kept_and_repeats_take_their_slot() {
        let mut t = TextBuffer::new();
        t.start(true);
        let mark = t.mark();
        let words = [
            "ios",
            "eu",
            "ios",
            "ios",
            "eu",
            "a",
            "abcdefghijklm",
            "eu",
            "é!",
        ];
        let slots = kept_slots(&mut t, &words);
        assert_eq!(
            slots,
            [
                3.0,             // met once: an ordinary slot
                2.0,             //
                keep_slot(0, 3), // met twice: kept as id 0, its text appended
                kept_slot(0),    // a repeat of id 0: no text
                keep_slot(1, 2), // id 1
                1.0,             // one byte: never kept
                13.0,            // 13 bytes: never kept
                kept_slot(1),
                2.0, // not ASCII: never kept
            ]
        );
        // The text holds each string's bytes once per ordinary or first-kept slot.
        assert_eq!(t.text(), Text::Latin1(b"ioseuioseuaabcdefghijklm\xe9!"));
        // Repeats count against the budget as the text they did not add.
        assert_eq!(t.budget_since(&mark), 3 + 2 + 3 + 3 + 2 + 1 + 13 + 2 + 2);
        // An unsplit text (a small message) keeps nothing, and each call starts afresh.
        t.start(false);
        assert_eq!(kept_slots(&mut t, &["ios", "ios", "ios"]), [3.0, 3.0, 3.0]);
        t.start(true);
        assert_eq!(
            kept_slots(&mut t, &["ios", "ios", "ios"]),
            [3.0, keep_slot(0, 3), kept_slot(0)]
        );
    }

    #[test]
    fn strings_of_every_length_and_byte_are_told_apart() {
        // Two strings differing in one byte, at every place, of every kept length: never
        // the same kept id.
        let mut t = TextBuffer::new();
        for n in KEPT_MIN_BYTES..=KEPT_MAX_BYTES {
            for at in 0..n {
                t.start(true);
                let a = vec![b'a'; n];
                let mut b = a.clone();
                b[at] = b'b';
                let slots: Vec<f64> = [&a, &a, &b, &b, &a, &b]
                    .iter()
                    .map(|s| t.push_value(s, 0).unwrap())
                    .collect();
                assert_eq!(
                    slots,
                    [
                        n as f64,
                        keep_slot(0, n),
                        n as f64,
                        keep_slot(1, n),
                        kept_slot(0),
                        kept_slot(1)
                    ],
                    "{n} bytes, differing at {at}"
                );
            }
        }
        // Lengths apart: "ab" and "ab\0" are two strings.
        t.start(true);
        let slots: Vec<f64> = [&b"ab"[..], b"ab", b"ab\0", b"ab\0", b"ab\0"]
            .iter()
            .map(|s| t.push_value(s, 0).unwrap())
            .collect();
        assert_eq!(slots[4], kept_slot(1));
    }

    #[test]
    fn a_rollback_forgets_the_strings_kept_after_its_mark() {
        let mut t = TextBuffer::new();
        t.start(true);
        kept_slots(&mut t, &["ios", "ios"]);
        let mark = t.mark();
        assert_eq!(
            kept_slots(&mut t, &["eu", "eu", "eu", "ios"]),
            [2.0, keep_slot(1, 2), kept_slot(1), kept_slot(0)]
        );
        t.rollback(mark);
        // "eu" was met before the rollback's strings were: kept anew at once, under the
        // id it had (JS keeps it again before any repeat).
        assert_eq!(
            kept_slots(&mut t, &["eu", "eu", "ios"]),
            [keep_slot(1, 2), kept_slot(1), kept_slot(0)]
        );
    }

    #[test]
    fn kept_strings_stop_at_their_cap_and_calls_without_repeats_stop_looking() {
        let mut t = TextBuffer::new();
        t.start(true);
        let names: Vec<String> = (0..2 * MAX_KEPT).map(|k| format!("s{k}")).collect();
        // Each name twice, then a third time: ids are given in order, below MAX_KEPT, and
        // each repeat takes its own string's id.
        let mut ids = Vec::new();
        for name in &names {
            t.push_value(name.as_bytes(), 0).unwrap();
            let slot = t.push_value(name.as_bytes(), 0).unwrap();
            ids.push((slot <= -4.0 * KEPT_SLOT).then_some(((-slot - 4.0 * KEPT_SLOT) as u32) / 32));
        }
        let kept: Vec<u32> = ids.iter().flatten().copied().collect();
        assert!(kept.len() > MAX_KEPT as usize / 2, "{}", kept.len());
        assert_eq!(kept, (0..kept.len() as u32).collect::<Vec<_>>());
        assert!(t.kept.count <= MAX_KEPT);
        for (name, id) in names.iter().zip(&ids) {
            let slot = t.push_value(name.as_bytes(), 0).unwrap();
            match id {
                Some(id) => assert_eq!(slot, kept_slot(*id)),
                None => assert!(slot >= 0.0),
            }
        }
        // KEPT_TRIAL strings met once and no repeat: nothing more is looked up.
        t.start(true);
        for name in &names[..KEPT_TRIAL as usize] {
            t.push_value(name.as_bytes(), 0).unwrap();
        }
        assert_eq!(kept_slots(&mut t, &["s0", "s0", "s0"]), [2.0, 2.0, 2.0]);
    }

    #[test]
    fn latin1_text_is_written_as_its_chars_utf8() {
        // Every byte value, in runs of every length around the block size, at every
        // alignment, against the chars' own UTF-8.
        let mut seed = 0x2545_f491_u32;
        for len in (0..70).chain([255, 256, 1000]) {
            for density in [0, 1, 5, 50, 100] {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 17;
                        seed ^= seed << 5;
                        if (seed % 100) < density {
                            0x80 | (seed >> 8) as u8
                        } else {
                            (seed >> 8) as u8 & 0x7f
                        }
                    })
                    .collect();
                let text: String = bytes.iter().map(|&b| b as char).collect();
                let mut a = Writer::new();
                write_latin1(&mut a, &bytes);
                let mut b = Writer::new();
                write_string(&mut b, &text.encode_utf16().collect::<Vec<_>>()).unwrap();
                assert_eq!(a.as_slice(), b.as_slice(), "{len} {density}");
                let mut c = Writer::new();
                write_chars(&mut c, Chars::Latin1(&bytes)).unwrap();
                assert_eq!(c.as_slice(), b.as_slice());
            }
        }
    }

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    fn encoded(units: &[u16]) -> Result<Vec<u8>> {
        let mut w = Writer::new();
        write_string(&mut w, units)?;
        Ok(w.as_slice().to_vec())
    }

    #[test]
    fn encodes_ascii_and_non_ascii_like_std() {
        for s in [
            "",
            "Ada",
            "Zoë Łukasz 李小龍 🚀 Ñuño",
            "ßüß🌍✓",
            "\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}",
        ] {
            let mut expected = Vec::new();
            expected.push(s.len() as u8);
            expected.extend_from_slice(s.as_bytes());
            assert_eq!(encoded(&units(s)).unwrap(), expected, "{s:?}");
        }
    }

    #[test]
    fn is_ascii_agrees_with_std_at_every_length_and_position() {
        for n in 0..80 {
            let clean = vec![b'a'; n];
            assert!(is_ascii(&clean), "{n}");
            for at in 0..n {
                for high in [0x80u8, 0xc3, 0xff] {
                    let mut v = clean.clone();
                    v[at] = high;
                    assert!(!is_ascii(&v), "{n} {at} {high:#x}");
                }
            }
        }
        // Slices that start anywhere in a larger buffer.
        let mut buf = [b'x'; 100];
        buf[50] = 0x80;
        for start in 0..60 {
            for end in start..100 {
                assert_eq!(
                    is_ascii(&buf[start..end]),
                    buf[start..end].is_ascii(),
                    "{start}..{end}"
                );
            }
        }
    }

    #[test]
    fn long_strings_with_ascii_runs_encode_like_std_at_every_alignment() {
        // Runs of ASCII broken by a char of each UTF-8 length at every position of a
        // 16-unit step (`ascii16`), every 37 units or every 5, in strings shorter than a
        // step, of about one, and long.
        for wide in ["é", "数", "🚀", "\u{7f}", "\u{ff}", "\u{100}"] {
            for len in [
                1,
                15,
                16,
                17,
                33,
                RUNS_MIN_BYTES - 1,
                RUNS_MIN_BYTES,
                300,
                1000,
            ] {
                for (period, at) in (0..37).map(|at| (37, at)).chain((0..5).map(|at| (5, at))) {
                    let mut s = String::new();
                    let mut k = 0;
                    while s.len() < len {
                        s.push(if k % period == at {
                            wide.chars().next().unwrap()
                        } else {
                            'a'
                        });
                        k += 1;
                    }
                    let u = units(&s);
                    let mut prefix = [0u8; MAX_VARINT_LEN];
                    let used = write_varint(&mut prefix, s.len() as u32);
                    let mut expected = prefix[..used].to_vec();
                    expected.extend_from_slice(s.as_bytes());
                    assert_eq!(encoded(&u).unwrap(), expected, "{wide} {len} {period} {at}");
                    // A lone surrogate late in the string is found at its index.
                    let mut bad = u.clone();
                    let last = bad.len() - 1;
                    bad[last] = 0xd800;
                    if last > 0 && bad[last - 1] & 0xfc00 != 0xd800 {
                        assert_eq!(
                            encoded(&bad).unwrap_err().kind(),
                            &ErrorKind::LoneSurrogate { unit: last }
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn strings_whose_bytes_outgrow_their_length_prefix_encode_like_std() {
        // ASCII then wide chars and the reverse, so that the UTF-8 length needs a longer
        // varint than the unit count; and lone surrogates after ASCII prefixes of every
        // length, found at their index.
        let mut cases: Vec<String> = Vec::new();
        for m in 0..140 {
            for j in [0, 1, 2, 5, 20, 50] {
                cases.push(format!("{}{}", "a".repeat(m), "数".repeat(j)));
                cases.push(format!("{}{}a", "数".repeat(j), "a".repeat(m)));
            }
        }
        cases.push(format!("{}{}", "a".repeat(16_000), "数".repeat(300)));
        cases.push(format!("{}🚀{}", "a".repeat(16_383), "b".repeat(40)));
        for s in &cases {
            let mut prefix = [0u8; MAX_VARINT_LEN];
            let used = write_varint(&mut prefix, s.len() as u32);
            let mut expected = prefix[..used].to_vec();
            expected.extend_from_slice(s.as_bytes());
            assert_eq!(encoded(&units(s)).unwrap(), expected, "{} bytes", s.len());
        }
        for m in 0..100 {
            for tail in [0usize, 1, 40] {
                let mut u = units(&"a".repeat(m));
                u.push(0xdc00);
                u.extend(units(&"é".repeat(tail)));
                assert_eq!(
                    encoded(&u).unwrap_err().kind(),
                    &ErrorKind::LoneSurrogate { unit: m },
                    "{m} {tail}"
                );
            }
        }
    }

    #[test]
    fn every_code_point_in_a_short_string_encodes_like_std() {
        // Each char between ASCII neighbours and beside a char of every other length, so
        // every length follows every other in the short strings' loop.
        let mut s = String::new();
        for c in (0..=0x10ffffu32).filter_map(char::from_u32) {
            s.clear();
            for n in ['a', c, 'é', c, '数', c, '🚀', c, 'b'] {
                s.push(n);
            }
            let mut expected = vec![s.len() as u8];
            expected.extend_from_slice(s.as_bytes());
            assert_eq!(encoded(&units(&s)).unwrap(), expected, "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn rejects_lone_surrogates_with_their_index() {
        for (u, at) in [
            (vec![0x61, 0xd800], 1),
            (vec![0xdc00, 0x61], 0),
            (vec![0x61, 0xd800, 0x62], 1),
            (vec![0xd83d, 0xde80, 0xde80], 2),
        ] {
            let err = encoded(&u).unwrap_err();
            assert_eq!(err.kind(), &ErrorKind::LoneSurrogate { unit: at });
        }
    }

    #[test]
    fn decodes_to_latin1_until_a_wide_char_appears() {
        let mut t = TextBuffer::new();
        assert_eq!(t.push_utf8(b"Ada", 0).unwrap(), 3);
        assert_eq!(t.push_utf8("Zoë".as_bytes(), 0).unwrap(), 3);
        assert_eq!(t.text(), Text::Latin1(&b"AdaZo\xeb"[..]));
        assert_eq!(t.push_utf8("李🚀".as_bytes(), 0).unwrap(), 3);
        assert_eq!(t.push_utf8(b"!", 0).unwrap(), 1);
        assert_eq!(t.text(), Text::Utf16(&units("AdaZoë李🚀!")[..]));
    }

    #[test]
    fn transcodes_every_sequence_length_at_every_alignment() {
        let chars = [
            "a",
            "é",
            "ÿ",
            "Ā",
            "李",
            "\u{ffff}",
            "🚀",
            "\u{10ffff}",
            "\u{7f}",
            "\u{80}",
            "\u{7ff}",
            "\u{800}",
        ];
        for a in chars {
            for b in chars {
                for c in chars {
                    for pad in ["", "x", "xy", "xyz"] {
                        let s = format!("{pad}{a}{b}{c}{a}");
                        for split in [false, true] {
                            let mut t = TextBuffer::new();
                            t.start(split);
                            let slot = t.push_str(s.as_bytes(), 0).unwrap();
                            assert_eq!(slot.abs() as usize, s.encode_utf16().count());
                            assert_eq!(string_of(&t, slot), units(&s), "{s:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn short_and_long_strings_accept_exactly_what_std_accepts() {
        // Every 1- to 3-byte sequence, alone (the checked scalar loop) and padded past 64
        // bytes (validated by the SSSE3 transcoder, or simdutf8 without SSSE3), must be
        // accepted exactly when std accepts it.
        let pad = "a".repeat(70);
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for a in 0..=255u8 {
            cases.push(vec![a]);
            for b in [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff] {
                cases.push(vec![a, b]);
                for c in [0x80, 0xbf, 0xc0] {
                    cases.push(vec![a, b, c]);
                    cases.push(vec![a, b, c, 0x80]);
                }
            }
        }
        for case in cases {
            let valid = std::str::from_utf8(&case).is_ok();
            for padded in [case.clone(), [pad.as_bytes(), &case].concat()] {
                for split in [false, true] {
                    let mut t = TextBuffer::new();
                    t.start(split);
                    let got = t.push_str(&padded, 0);
                    assert_eq!(got.is_ok(), valid, "{padded:02x?}");
                    if let Ok(slot) = got {
                        let want: Vec<u16> = std::str::from_utf8(&padded)
                            .unwrap()
                            .encode_utf16()
                            .collect();
                        assert_eq!(slot.abs() as usize, want.len());
                        assert_eq!(string_of(&t, slot), want, "{padded:02x?}");
                    }
                }
            }
        }
    }

    /// The units of the one string in `t` whose slot is `slot`, read as the JS layer does.
    fn string_of(t: &TextBuffer, slot: f64) -> Vec<u16> {
        match t.text() {
            Text::Latin1(l) => {
                assert!(slot >= 0.0);
                l.iter().map(|&x| x as u16).collect()
            }
            Text::Utf16(u) => u.to_vec(),
            Text::Split(..) | Text::Chunked(..) => panic!("one string is never split"),
        }
    }

    #[test]
    fn rollback_drops_what_came_after_the_mark_in_both_modes() {
        for split in [false, true] {
            let mut t = TextBuffer::new();
            t.start(split);
            t.push_str(b"ab", 0).unwrap();
            t.push_str("é".as_bytes(), 0).unwrap();
            let mark = t.mark();
            // A wide string: widens an unsplit text, goes to the second text of a split one.
            t.push_str("数学 x".as_bytes(), 0).unwrap();
            t.push_str(b"more", 0).unwrap();
            t.rollback(mark);
            assert_eq!(
                t.text(),
                Text::Latin1(&[b'a', b'b', 0xe9]),
                "split: {split}"
            );
            assert_eq!(t.byte_size(), 3);
            // And it goes on as if the rolled-back strings had never come.
            t.push_str(b"c", 0).unwrap();
            assert_eq!(t.text(), Text::Latin1(&[b'a', b'b', 0xe9, b'c']));
        }
    }

    #[test]
    fn split_text_keeps_latin1_strings_one_byte() {
        let mut t = TextBuffer::new();
        t.start(true);
        let strings = ["plain", "café", "数学者", "", "ÿé", "a🚀b", "tail"];
        let slots: Vec<f64> = strings
            .iter()
            .map(|s| t.push_str(s.as_bytes(), 0).unwrap())
            .collect();
        // Latin-1 strings (ASCII or not) go to the first text, others to the second.
        assert_eq!(slots, [5.0, 4.0, -3.0, 0.0, 2.0, -4.0, 4.0]);
        let Text::Split(latin1, utf16) = t.text() else {
            panic!("expected a split text")
        };
        assert_eq!(
            latin1,
            "plaincaféÿétail"
                .chars()
                .map(|c| c as u8)
                .collect::<Vec<_>>()
        );
        assert_eq!(utf16, units("数学者a🚀b"));
        assert_eq!(t.longest(), 15);
        assert_eq!(t.byte_size(), 15 + 2 * 7);
        // Only wide strings: the UTF-16 text alone, all slots negative.
        t.start(true);
        assert_eq!(t.push_str("数".as_bytes(), 0).unwrap(), -1.0);
        assert_eq!(t.text(), Text::Utf16(&units("数")));
        // Unsplit, the first wide char widens everything: all slots positive.
        t.start(false);
        assert_eq!(t.push_str(b"ab", 0).unwrap(), 2.0);
        assert_eq!(t.push_str("数".as_bytes(), 0).unwrap(), 1.0);
        assert_eq!(t.text(), Text::Utf16(&units("ab数")));
        // Bad UTF-8 is refused in a split text too, short and long.
        t.start(true);
        assert!(t.push_str(&[0x61, 0xe2, 0x82], 0).is_err());
        assert!(t
            .push_str(&[b"a".repeat(70).as_slice(), &[0xc3]].concat(), 0)
            .is_err());
    }

    /// The chunks of a text, as the reader sees them (`chunk_ranges`), as strings.
    fn chunk_strings(t: &TextBuffer) -> (String, String, Vec<(bool, String)>) {
        let Text::Chunked(l, u, cuts) = t.text() else {
            panic!("expected a text in chunks, got {:?}", t.cuts)
        };
        let latin = |r: Range<usize>| l[r].iter().map(|&b| b as char).collect::<String>();
        let wide = |r: Range<usize>| String::from_utf16(&u[r]).unwrap();
        let ChunkRanges {
            first,
            first_wide,
            more,
        } = chunk_ranges(l.len(), u.len(), cuts);
        let more = more
            .into_iter()
            .map(|(w, r)| (w, if w { wide(r) } else { latin(r) }))
            .collect();
        (latin(first), wide(first_wide), more)
    }

    #[test]
    fn a_split_text_is_cut_in_chunks_at_string_boundaries() {
        let mut t = TextBuffer::new();
        t.start(true);
        let a = "a".repeat(LATIN1_CHUNK_UNITS - 2);
        let w = "数".repeat(UTF16_CHUNK_UNITS - 1);
        assert_eq!(t.push_str(a.as_bytes(), 0).unwrap(), a.len() as f64);
        // Fills the Latin-1 chunk exactly: no cut.
        assert_eq!(t.push_str("éb".as_bytes(), 0).unwrap(), 2.0);
        assert_eq!(
            t.push_str(w.as_bytes(), 0).unwrap(),
            -(w.chars().count() as f64)
        );
        // One unit past either chunk: the string opens the next one.
        assert_eq!(t.push_str(b"c", 0).unwrap(), chunk_slot(false, 1));
        assert_eq!(
            t.push_str("学学".as_bytes(), 0).unwrap(),
            chunk_slot(true, 2)
        );
        assert_eq!(t.push_str(b"", 0).unwrap(), 0.0);
        assert_eq!(t.push_str("dé".as_bytes(), 0).unwrap(), 2.0);
        // A string longer than a chunk opens one of its own and fills it alone.
        let long = "e".repeat(2 * LATIN1_CHUNK_UNITS);
        assert_eq!(
            t.push_str(long.as_bytes(), 0).unwrap(),
            chunk_slot(false, long.len())
        );
        assert_eq!(t.push_str(b"", 0).unwrap(), chunk_slot(false, 0));
        assert_eq!(t.push_str(b"f", 0).unwrap(), 1.0);
        assert_eq!(
            t.len(),
            a.len() + 2 + w.chars().count() + 1 + 2 + 2 + long.len() + 1
        );
        let (first, first_wide, more) = chunk_strings(&t);
        assert_eq!(first, format!("{a}éb"));
        assert_eq!(first_wide, w);
        assert_eq!(
            more,
            [
                (false, "cdé".to_string()),
                (true, "学学".to_string()),
                (false, long.clone()),
                (false, "f".to_string()),
            ]
        );
        // Only Latin-1 strings: still in chunks, with an empty first UTF-16 chunk.
        t.start(true);
        t.push_str(a.as_bytes(), 0).unwrap();
        assert_eq!(t.push_str(b"xyz", 0).unwrap(), chunk_slot(false, 3));
        assert_eq!(
            chunk_strings(&t),
            (a.clone(), String::new(), vec![(false, "xyz".into())])
        );
        // A new message starts with no chunks.
        t.start(true);
        assert_eq!(t.push_str(b"xyz", 0).unwrap(), 3.0);
        assert_eq!(t.text(), Text::Latin1(b"xyz"));
    }

    #[test]
    fn an_unsplit_text_is_never_cut() {
        // Its strings are a fixed few, sliced from one text (lib/codegen.js, positional).
        let mut t = TextBuffer::new();
        t.start(false);
        let a = "a".repeat(3 * LATIN1_CHUNK_UNITS);
        assert_eq!(t.push_str(a.as_bytes(), 0).unwrap(), a.len() as f64);
        assert_eq!(t.push_str(b"b", 0).unwrap(), 1.0);
        let w = "数".repeat(3 * UTF16_CHUNK_UNITS);
        assert_eq!(
            t.push_str(w.as_bytes(), 0).unwrap(),
            (3 * UTF16_CHUNK_UNITS) as f64
        );
        assert_eq!(t.push_str(b"c", 0).unwrap(), 1.0);
        let Text::Utf16(u) = t.text() else {
            panic!("expected one UTF-16 text")
        };
        assert_eq!(u.len(), a.len() + 1 + w.chars().count() + 1);
    }

    #[test]
    fn rollback_drops_the_chunks_cut_after_the_mark() {
        let mut t = TextBuffer::new();
        t.start(true);
        let a = "a".repeat(LATIN1_CHUNK_UNITS);
        t.push_str(a.as_bytes(), 0).unwrap();
        let mark = t.mark();
        assert_eq!(t.push_str(b"b", 0).unwrap(), chunk_slot(false, 1));
        assert_eq!(
            t.push_str(&a.as_bytes()[1..], 0).unwrap(),
            (a.len() - 1) as f64
        );
        t.rollback(mark);
        assert_eq!(t.text(), Text::Latin1(a.as_bytes()));
        // The chunk it was in is the current one again: the next string opens the next.
        assert_eq!(t.push_str(b"c", 0).unwrap(), chunk_slot(false, 1));
        assert_eq!(chunk_strings(&t).2, [(false, "c".to_string())]);
    }

    #[test]
    fn rejects_invalid_utf8() {
        let mut t = TextBuffer::new();
        for bad in [
            &[0xc3][..],
            &[0xff],
            &[0xed, 0xa0, 0x80],
            &[0xc0, 0x80],
            &[0x61, 0xe2, 0x82],
        ] {
            let err = t.push_utf8(bad, 9).unwrap_err();
            assert_eq!(
                err.kind(),
                &ErrorKind::Malformed {
                    offset: 9,
                    fault: Fault::BadUtf8
                }
            );
        }
    }
}
