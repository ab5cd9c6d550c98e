'use strict';
// What the JS layer asks of the runtime it runs in, Node's answers. A browser bundle gets
// lib/host-browser.js instead (package.json "browser"), so no module of the codec itself
// names a Node built-in.

const util = require('node:util');
const v8 = require('node:v8');
const crypto = require('node:crypto');
const { markAsUntransferable } = require('node:worker_threads');

// Buffer#utf8Write, called on any Uint8Array (msgpackr's pure-JS mode writes its strings
// so): ~1.3x TextEncoder#encodeInto's speed on text of 64 units or more, with no view to
// make per string. Only where it writes what UTF-8 is (a probe at load), else null.
function nodeUtf8Write() {
  const write = Buffer.prototype.utf8Write;
  if (typeof write !== 'function') return null;
  try {
    const U = new Uint8Array(8);
    if (write.call(U, 'a\u00e9\u{1f600}', 1, 7) !== 7 || U[1] !== 0x61 || U[2] !== 0xc3 || U[3] !== 0xa9 || U[4] !== 0xf0 || U[7] !== 0x80) return null;
  } catch {
    return null;
  }
  return (U, s, o, room) => write.call(U, s, o, room);
}

// Whether bytes `from` to `to` of Uint8Array `U` hold U+FFFD's UTF-8 (EF BF BD), by
// Buffer#indexOf (a native search): what Buffer#utf8Write writes for a lone surrogate, so
// text written without one had none. Over a long text's bytes ~2.5x faster than
// String#isWellFormed over its UTF-16 (gsoc-2018's 565 non-ASCII texts of 64 units or
// more: 0.12 against 0.28 ms). Only where a probe at load finds it so, else null.
function nodeReplacementIn() {
  const indexOf = Buffer.prototype.indexOf;
  if (typeof indexOf !== 'function') return null;
  const FFFD = Uint8Array.of(0xef, 0xbf, 0xbd);
  const find = (U, from, to) => indexOf.call(new Uint8Array(U.buffer, U.byteOffset + from, to - from), FFFD) !== -1;
  try {
    const U = Uint8Array.of(0x61, 0xef, 0xbf, 0xbd, 0x62, 0xef, 0xbf, 0xbe);
    if (!find(U, 0, 5) || find(U, 0, 3) || find(U, 2, 8) || !find(U, 1, 4)) return null;
  } catch {
    return null;
  }
  return find;
}

// Buffer#utf8Slice, called on any Uint8Array: ~1.3x the fatal TextDecoder's speed on text
// of 25-150 bytes, and no view made per string. It puts U+FFFD for what is not UTF-8
// (V8's decoder, as the WHATWG decoder replaces: overlong forms, encoded surrogates,
// anything past U+10FFFF, cut or stray bytes), so a string without one was well-formed;
// lib/closures.js gives one with U+FFFD to the fatal decoder, which refuses it or (a
// U+FFFD in the text itself) returns it. Only where a probe at load finds it so, else null.
function nodeUtf8Slice() {
  const slice = Buffer.prototype.utf8Slice;
  if (typeof slice !== 'function') return null;
  try {
    const ok = slice.call(Uint8Array.of(0x61, 0xc3, 0xa9, 0xf0, 0x9f, 0x9a, 0x80, 0xef, 0xbb, 0xbf), 0, 10) === 'a\u00e9\u{1f680}\ufeff';
    const bad = [[0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80]];
    if (!ok || !bad.every((b) => slice.call(Uint8Array.from(b), 0, b.length).includes('\ufffd'))) return null;
  } catch {
    return null;
  }
  return (U, from, to) => slice.call(U, from, to);
}

// Strings made from UTF-16 units (or Latin-1 bytes) that JS decoded from UTF-8 into a
// scratch Buffer, by Buffer#ucs2Slice (#latin1Slice): one copy. Node 20's V8 makes a
// string from non-ASCII UTF-8 at ~4 ns a byte (unicodePerson's two strings, 175 bytes:
// ~700 ns by Buffer#utf8Slice, ~780 by TextDecoder); a JS loop that checks and decodes
// them into the scratch, and the two copies, take ~350 ns. `utf8(r, p, end)`: a decode's
// text, by that loop (lib/closures.js, In#decodeUtf8); `units(from, to)`: units `from` to
// `to` of the scratch as a string (lib/small-text.js); `below`: the length in bytes from
// which In#decodeUtf8 leaves text to Buffer#utf8Slice instead (`nativeUtf8From`: 32 on
// Node 24, else Infinity). Only where a probe at load finds it so (ucs2Slice reads
// little-endian units: a big-endian host fails the probe), else null.
const UNITS_MAX = 4096;
function nodeUnitsText() {
  const ucs2 = Buffer.prototype.ucs2Slice;
  const latin1 = Buffer.prototype.latin1Slice;
  if (typeof ucs2 !== 'function' || typeof latin1 !== 'function') return null;
  const buffer = Buffer.alloc(UNITS_MAX * 3);
  const U16 = new Uint16Array(buffer.buffer, buffer.byteOffset, UNITS_MAX);
  const bytes = buffer.subarray(UNITS_MAX * 2);
  try {
    U16[0] = 0x61;
    U16[1] = 0xe9;
    U16[2] = 0xd83d;
    U16[3] = 0xde80;
    bytes[0] = 0xe9;
    bytes[1] = 0x62;
    if (ucs2.call(buffer, 0, 8) !== 'a\u00e9\u{1f680}' || latin1.call(bytes, 0, 2) !== '\u00e9b') return null;
  } catch {
    return null;
  }
  const U8 = new Uint8Array(bytes.buffer, bytes.byteOffset, UNITS_MAX);

  /**
   * Bytes `p` to `end` of decode `r`'s input (lib/closures.js, In: at most `max` less its
   * `at`) as a string, decoded in JS into the scratch and made a string by one copy (~2x
   * V8's own decode of non-ASCII UTF-8): one byte a char while the chars fit one (Latin-1
   * text), then UTF-16 units, from `at`, from the first that does not. Only well-formed
   * UTF-8, as `In#shortUtf8` takes it; null for anything else, which `In#decodeUtf8` refuses.
   * Where `later` is set (lib/small-text.js), UTF-16 units are left in the scratch for one
   * copy of them all, `at` moves past them, and the string returned is ''.
   */
  function utf8(r, p, end) {
    // The indexes below are added with `| 0` (no overflow check; ~9% of the loop), exact
    // while every one is under 2^31.
    if (end > 0x7fffffff) return null;
    const b = r.b;
    const B = U8;
    let n = 0;
    let k = p;
    for (; k < end; ) {
      const c = b[k];
      if (c < 0x80) {
        B[n++] = c;
        k++;
      } else if ((c === 0xc2 || c === 0xc3) && k + 1 < end) {
        const c1 = b[k + 1] ^ 0x80;
        if (c1 > 0x3f) return null;
        B[n++] = ((c & 0x1f) << 6) | c1;
        k += 2;
      } else break;
    }
    if (k === end) return latin1.call(bytes, 0, n);
    // A char past U+00FF (or bytes that are not UTF-8): two bytes a char from here.
    const U = U16;
    const at = r.at;
    for (let q = 0; q < n; q++) U[at + q] = B[q];
    n += at;
    while (k < end) {
      const c = b[k];
      if (c < 0x80) {
        U[n] = c;
        n = (n + 1) | 0;
        k = (k + 1) | 0;
        continue;
      }
      if (c < 0xe0) {
        if (c < 0xc2 || k + 1 >= end) return null;
        const c1 = b[k + 1] ^ 0x80;
        if (c1 > 0x3f) return null;
        U[n] = ((c & 0x1f) << 6) | c1;
        n = (n + 1) | 0;
        k = (k + 2) | 0;
        continue;
      }
      if (c < 0xf0) {
        if (k + 2 >= end) return null;
        const c1 = b[k + 1] ^ 0x80;
        const c2 = b[k + 2] ^ 0x80;
        const u = ((c & 0x0f) << 12) | (c1 << 6) | c2;
        // Not a continuation byte; overlong; a surrogate.
        if ((c1 | c2) > 0x3f || u < 0x800 || (u & 0xf800) === 0xd800) return null;
        U[n] = u;
        n = (n + 1) | 0;
        k = (k + 3) | 0;
        continue;
      }
      if (c > 0xf4 || k + 3 >= end) return null;
      const c1 = b[k + 1] ^ 0x80;
      const c2 = b[k + 2] ^ 0x80;
      const c3 = b[k + 3] ^ 0x80;
      if ((c1 | c2 | c3) > 0x3f) return null;
      const u = (((c & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3) - 0x10000;
      // Overlong, or past U+10FFFF.
      if (u < 0 || u > 0xfffff) return null;
      U[n] = 0xd800 | (u >> 10);
      U[n + 1] = 0xdc00 | (u & 0x3ff);
      n = (n + 2) | 0;
      k = (k + 4) | 0;
    }
    r.wide = true;
    if (r.later) {
      r.at = n;
      return '';
    }
    return ucs2.call(buffer, 2 * at, 2 * n);
  }

  return {
    max: UNITS_MAX,
    below: nativeUtf8From(),
    units: (from, to) => ucs2.call(buffer, 2 * from, 2 * to),
    utf8,
  };
}

// The length in bytes from which Buffer#utf8Slice makes a string of non-ASCII UTF-8 faster
// than `unitsText.utf8` (its loop and one copy), or Infinity. Node 24 decodes such text of
// 32 bytes or more by simdutf, at ~70 ns for 32-66 bytes, ~215 for 400, against the loop's
// 100-150 and ~600 (Cyrillic, CJK, Latin-1 and mixed text, `taskset -c 1`: 1.3-2x from 32
// bytes, 3-6x at 2,000); under 32 bytes it takes V8's own path, ~135-195 ns at 28-30
// bytes, where the loop takes ~90. Node 20 and 22 take V8's path at every length, 1.3-3.6x
// the loop (docs/DESIGN.md, "Non-ASCII text on Node 24"). Deno and Bun, which say a Node
// version of their own, keep the loop, as before: in Deno 2.9 utf8Slice is level with it
// up to ~100 bytes (1.15-1.34x at 400), in Bun 1.4 1.2-2.3x from ~100 bytes (the JS back
// end runs there only without the addon, and neither was timed in a decode).
function nativeUtf8From() {
  const v = typeof process === 'object' && process.versions ? process.versions : {};
  if (v.deno !== undefined || v.bun !== undefined) return Infinity;
  return Number(String(v.node).split('.')[0]) >= 24 ? 32 : Infinity;
}

module.exports = {
  name: 'node',
  /** isProxy, isTypedArray, isDate, isMap: by internal slots, running no user code. */
  types: util.types,
  markAsUntransferable,
  /** V8's heap limit, in bytes (the default decode budget is at most an eighth of it). */
  heapLimit: () => v8.getHeapStatistics().heap_size_limit,
  /** The SHA-256 of `text` (UTF-8), as hex. */
  sha256Hex: (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex'),
  /** Node's Buffer: what encode returns. */
  Buffer,
  /** A new byte array of `n` bytes (a Buffer here), not zeroed. */
  alloc: (n) => Buffer.allocUnsafe(n),
  base64: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
  fromBase64: (text) => new Uint8Array(Buffer.from(text, 'base64')),
  /**
   * `utf8Write(U, s, o, room)`: writes well-formed string `s` as UTF-8 into Uint8Array `U`
   * from `o` (room for all of it), returning the bytes written; or null (then
   * TextEncoder#encodeInto).
   */
  utf8Write: nodeUtf8Write(),
  /** `replacementIn(U, from, to)`: whether those bytes hold U+FFFD's UTF-8; or null. */
  replacementIn: nodeReplacementIn(),
  /**
   * `utf8Slice(U, from, to)`: bytes `from` to `to` of Uint8Array `U` as a string, U+FFFD
   * for what is not UTF-8; or null (then the fatal TextDecoder alone).
   */
  utf8Slice: nodeUtf8Slice(),
  /** Text from UTF-16 units or Latin-1 bytes decoded by JS (see `nodeUnitsText`), or null. */
  unitsText: nodeUnitsText(),
  /** The native addon (lib/addon.js), or a throw of ERR_SHORN_NO_ADDON. */
  loadAddon: () => require('./addon'),
};
