'use strict';
// The closure back end: a lowered schema (lib/lower.js) compiled to one closure per
// operation, for encode (value -> bytes) and decode (bytes -> value), with no code
// generation, so it runs under a Content-Security-Policy without 'unsafe-eval' and needs
// no addon. protobuf-es builds its codecs the same way.
//
// It is the fast path only: on anything it does not take (an invalid value or message,
// a limit reached, the budget spent), it throws FAULT, with no detail, and the caller
// runs the exact walk (lib/js-backend.js), which finds the same fault with the core's
// error, code, path and offset, or, if this path refused what is valid, the value.

const { TYPES } = require('./types');
const rt = require('#runtime');
const { HEAP, HEAP_NUMBER, heapCost, kindOf, EXOTIC } = require('./lower');
const { writeUtf8 } = require('./utf8');
const { stringItems, SMALL_LITERALS } = require('./types/array');
const { utf8Write, utf8Slice, unitsText, replacementIn } = require('#host');

const { asciiText } = rt;

/** Thrown by a closure for anything it does not take; never seen outside lib/js-backend.js. */
const FAULT = Object.freeze({ fault: true });

const def = (d) => TYPES.get(d.type);
const hasOwn = Object.hasOwn;
const ObjectPrototype = Object.prototype;

const wellFormed =
  typeof String.prototype.isWellFormed === 'function'
    ? (s) => s.isWellFormed()
    : (s) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

// A fatal decoder: invalid UTF-8, encoded surrogates and overlong forms throw, as the core
// rejects them; ignoreBOM keeps a leading U+FEFF.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// An array-index key ("0" ... "4294967294", no leading zero), or -1.
function arrayIndex(key) {
  const n = key.length;
  if (n === 0 || n > 10) return -1;
  const c0 = key.charCodeAt(0);
  if (c0 < 48 || c0 > 57 || (c0 === 48 && n > 1)) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v < 4294967295 ? v : -1;
}

// A typed array's bytes and its element count, read through the intrinsics (a detached
// array has none, as the core reads it).
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsic = (key) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
const typedLength = intrinsic('length');
const typedByteLength = intrinsic('byteLength');
const typedByteOffset = intrinsic('byteOffset');
const typedBuffer = intrinsic('buffer');
const NO_BYTES = new Uint8Array(0);
function bytesOf(x) {
  const n = typedByteLength.call(x);
  return n === 0 ? NO_BYTES : new Uint8Array(typedBuffer.call(x), typedByteOffset.call(x), n);
}

function setKey(o, key, v) {
  if (key in ObjectPrototype) rt.defineOwn(o, key, v);
  else o[key] = v;
}

// The same for an array-index key, by its number: no string to read as an index again.
function setIndex(o, index, v) {
  if (index in ObjectPrototype) rt.defineOwn(o, String(index), v);
  else o[index] = v;
}

// ---- decode ---------------------------------------------------------------------------

// The core's table of a message's keys (src/types/json.rs, MAX_KEY_IDS and MAX_KEY_BYTES):
// how many keys it keeps, and the most bytes of one on the wire, its length's included.
const KEY_IDS = 256;
const KEY_BYTES = 64;

/**
 * Whether key `key` of a record (not an array index) or a json object, read from `wire`
 * bytes (its length's included), is one the message had before. The core keeps a message's
 * keys in one table (src/types/json.rs, KeyIds: up to KEY_IDS keys of up to KEY_BYTES
 * bytes), and a kept key met again is its id, with no text: its text counts once in the
 * estimate of the decoded value. `r.keys`: the message's table (null before its first key).
 * Both decodes of the JS back end count so (here, and lib/js-backend.js's exact one).
 */
function keptBefore(r, key, wire) {
  let kept = r.keys;
  if (kept === null) kept = r.keys = new Set();
  if (kept.has(key)) return true;
  if (kept.size < KEY_IDS && wire <= KEY_BYTES) kept.add(key);
  return false;
}

// The keys of json objects and records a decoder has met (`readKey`): an ASCII key of
// 1 to KEY_CACHED bytes met again is the string made the first time, found by a hash of
// its bytes and compared whole, with its array index worked out then. A key made anew
// each time cost its string's making and, at its store, V8's lookup of it as a property
// name; the string kept is one V8 has made a property name already. Decode through
// `t.json()` on the JS back end, kept against made anew: github_events 1.11-1.17x,
// twitter 1.20-1.24x, citm_catalog 1.38x, gsoc-2018 1.53x (benchmark/json-ab.js's method
// on the JS back end, both orders). KEY_SLOTS entries, replaced on a miss; a cache that
// finds fewer than one repeat in four of its first KEY_TRIAL lookups looks nothing up
// again (a record of 5,000 different keys decodes as fast as before).
const KEY_SLOTS = 512;
const KEY_CACHED = 32;
const KEY_TRIAL = 1024;
class KeyCache {
  constructor() {
    // Defined, not set: made at a decode's first key, when Object.prototype may have a
    // setter of an index (Array#fill on holes would run it).
    this.keys = Array.from({ length: KEY_SLOTS }, () => '');
    // Each key's array index (up to 2^32 - 2), or -1.
    this.indexes = new Float64Array(KEY_SLOTS).fill(-1);
    this.left = KEY_TRIAL;
    this.hits = 0;
    this.on = true;
  }
}

/**
 * A key of a json object or a record (its length, then its UTF-8), counted as `text`
 * counts text; its array index, or -1, in `r.fact`.
 */
function readKey(r) {
  const len = r.count(r.maxString, 1);
  if (len !== 0 && len <= KEY_CACHED) {
    let c = r.keyCache;
    if (c === null) c = r.keyCache = new KeyCache();
    if (c.on) return cachedKey(r, len, c);
  }
  const key = r.text(len);
  r.fact = arrayIndex(key);
  return key;
}

// `readKey`'s key of `len` bytes (1 to KEY_CACHED) through the cache.
function cachedKey(r, len, c) {
  const b = r.b;
  const p = r.p;
  const end = p + len;
  const at = (Math.imul((b[p] << 16) | (b[p + (len >> 1)] << 8) | b[end - 1], 0x9e3779b1) >>> 23) ^ len;
  if (c.left > 0 && --c.left === 0 && 4 * c.hits < KEY_TRIAL) c.on = false;
  const kept = c.keys[at];
  found: if (kept.length === len) {
    for (let k = 0; k < len; k++) if (kept.charCodeAt(k) !== b[p + k]) break found;
    c.hits++;
    r.p = end;
    r.units += len;
    r.fact = c.indexes[at];
    return kept;
  }
  const key = r.text(len);
  const index = arrayIndex(key);
  // ASCII alone (a length in units that is its length in bytes): compared by its units.
  if (key.length === len) {
    c.keys[at] = key;
    c.indexes[at] = index;
  }
  r.fact = index;
  return key;
}

/**
 * The state of one decode: the input, where it is, the limits, the estimated heap of the
 * values so far and of the text (`units`, `wide`: two bytes a unit past U+00FF).
 */
class In {
  constructor(limits, budget) {
    this.b = null;
    this.p = 0;
    this.n = 0;
    // The input's DataView (`view`), made at the first float, and its byte offset there.
    this.dv = null;
    this.off = 0;
    // Where the host has no Buffer#utf8Slice (a browser or worker, lib/host-browser.js):
    // input bytes `w0` to `w1` as a Latin-1 string, ASCII text of over 24 bytes within
    // them a slice of it (`asciiWindow`); or `w1` where the last text read alone ended.
    this.win = null;
    this.w0 = 0;
    this.w1 = 0;
    // Texts the window served, and the mean of texts a window so far (`windowsAnew`).
    this.wn = 0;
    this.ws = 0;
    this.depth = 0;
    this.heap = 0;
    this.units = 0;
    this.wide = false;
    // The message's keys whose text counts once (`key`), made at its first key; null
    // again for each message, or false where no exact estimate is asked for (`key`).
    this.keys = null;
    // Where host.unitsText.utf8 puts its units in the scratch, and whether it leaves them
    // there (lib/small-text.js, `smallTextLater`); 0 and false but there.
    this.at = 0;
    this.later = false;
    // The keys of json objects and records met before (`readKey`; made at the first), and
    // the last key's array index, or -1 (`fact`).
    this.keyCache = null;
    this.fact = -1;
    this.maxString = limits.maxStringBytes;
    this.maxBytes = limits.maxBytesLength;
    this.maxArray = limits.maxArrayLength;
    this.maxDepth = limits.maxDepth;
    this.budget = budget;
  }

  charge(cost) {
    if ((this.heap += cost) > this.budget) throw FAULT;
  }

  /**
   * Key `key` (see `keptBefore`), just read as text: a repeat's units taken back. Not where
   * `keys` is false: the estimate may then count a repeated key's text again, which only
   * makes it larger, so a message it puts over the budget is read again by the exact
   * decode (lib/js-backend.js), which counts as the core; a batch of frames, which adds up
   * each frame's estimate, asks for it exact (`state.grown`, lib/framing.js). A table of
   * keys cost twitter's decode through `t.json()` 12%.
   */
  key(key, wire) {
    if (this.keys !== false && keptBefore(this, key, wire)) this.units -= key.length;
  }

  byte() {
    if (this.p >= this.n) throw FAULT;
    return this.b[this.p++];
  }

  /** A varint of at most 32 bits (canonical). Unrolled: a loop with `2 ** shift` cost ~40x. */
  varint() {
    const b = this.b;
    const n = this.n;
    let p = this.p;
    if (p >= n) throw FAULT;
    let c = b[p++];
    if (c < 0x80) {
      this.p = p;
      return c;
    }
    let x = c & 0x7f;
    if (p >= n) throw FAULT;
    c = b[p++];
    x |= (c & 0x7f) << 7;
    if (c < 0x80) {
      if (c === 0) throw FAULT;
      this.p = p;
      return x;
    }
    if (p >= n) throw FAULT;
    c = b[p++];
    x |= (c & 0x7f) << 14;
    if (c < 0x80) {
      if (c === 0) throw FAULT;
      this.p = p;
      return x;
    }
    if (p >= n) throw FAULT;
    c = b[p++];
    x |= (c & 0x7f) << 21;
    if (c < 0x80) {
      if (c === 0) throw FAULT;
      this.p = p;
      return x;
    }
    if (p >= n) throw FAULT;
    c = b[p++];
    if (c > 0x0f || c === 0) throw FAULT;
    this.p = p;
    return x + c * 268435456;
  }

  /**
   * A varint of at most 64 bits, as a bigint (canonical): read in numbers of 28 bits (a
   * bigint a byte cost ~4x), made a bigint once.
   */
  varint64() {
    const b = this.b;
    const n = this.n;
    let p = this.p;
    let lo = 0;
    let hi = 0;
    let top = 0;
    for (let i = 0; i < 10; i++) {
      if (p >= n) throw FAULT;
      const c = b[p++];
      if (i < 4) lo |= (c & 0x7f) << (7 * i);
      else if (i < 8) hi |= (c & 0x7f) << (7 * (i - 4));
      else if (i === 8) top = c & 0x7f;
      else if (c > 0x01) throw FAULT;
      else top |= c << 7;
      if (c < 0x80) {
        if (c === 0 && i > 0) throw FAULT;
        this.p = p;
        if (i < 4) return BigInt(lo);
        return BigInt(lo) + (BigInt(hi) << 28n) + (i < 8 ? 0n : BigInt(top) << 56n);
      }
    }
    throw FAULT;
  }

  /** A zigzag varint of up to 64 bits that must be a safe integer, as a number. */
  zigzag53() {
    const start = this.p;
    const b = this.b;
    // Up to 4 bytes (28 bits) by bit operations, up to 7 (49 bits, exact in a double: a
    // time in ms is 6) by arithmetic; longer ones as a bigint (~10x the time).
    let p = start;
    let x = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (p >= this.n) throw FAULT;
      const c = b[p++];
      x |= (c & 0x7f) << shift;
      if (c < 0x80) {
        if (c === 0 && shift > 0) throw FAULT;
        this.p = p;
        return (x >>> 1) ^ -(x & 1);
      }
    }
    let scale = 268435456;
    for (let k = 4; k < 7; k++) {
      if (p >= this.n) throw FAULT;
      const c = b[p++];
      x += (c & 0x7f) * scale;
      if (c < 0x80) {
        if (c === 0) throw FAULT;
        this.p = p;
        return x % 2 === 0 ? x / 2 : -(x + 1) / 2;
      }
      scale *= 128;
    }
    const u = this.varint64();
    const v = (u >> 1n) ^ -(u & 1n);
    if (v > 9007199254740991n || v < -9007199254740991n) throw FAULT;
    return Number(v);
  }

  /** A length or count, within `limit` and the bytes left at `each` bytes an item. */
  count(limit, each) {
    const n = this.varint();
    if (n > limit || n * each > this.n - this.p) throw FAULT;
    return n;
  }

  // The input is a plain Uint8Array or Buffer (or a view made of another kind): its
  // elements are read by index, everything else through the intrinsics or new views.

  /**
   * A DataView of the whole ArrayBuffer under the input, read at `off + p`: one per
   * buffer (`rt.inputDataView`), taken once a message.
   */
  view() {
    let dv = this.dv;
    if (dv === null) {
      this.off = typedByteOffset.call(this.b);
      dv = this.dv = rt.inputDataView(typedBuffer.call(this.b));
    }
    return dv;
  }

  /** A new view of input bytes `p` to `end`. */
  bytes(p, end) {
    return new Uint8Array(typedBuffer.call(this.b), typedByteOffset.call(this.b) + p, end - p);
  }

  /** `len` bytes of UTF-8 as a string. */
  text(len) {
    const b = this.b;
    const p = this.p;
    const end = p + len;
    if (end > this.n) throw FAULT;
    let s;
    if (len <= 16) {
      // A short ASCII string in one call of fromCharCode of a fixed arity, as a generated
      // decode's JS read makes it (no rope of one-character strings, no TextDecoder
      // call); other short text by `shortUtf8`, in JS too.
      s = asciiText(b, p, len);
      if (s === null) s = this.shortUtf8(p, end);
    } else if (len <= 24) {
      s = this.shortUtf8(p, end);
    } else s = this.decodeUtf8(p, end);
    this.p = end;
    this.units += s.length;
    return s;
  }

  /**
   * Input bytes `p` to `end` (at most 24) as a string, decoded in JS: a TextDecoder call
   * costs more than a short string's bytes (batch100's names, a quarter of its decode on
   * this back end). Only well-formed UTF-8, as the fatal decoder takes it: no overlong
   * form, no encoded surrogate, nothing past U+10FFFF, no cut or stray continuation byte;
   * anything else goes to `decodeUtf8`, which refuses it. Decoded into UTF-16 units, made
   * a string by one `fromCharCode` call (`unitsString`): a string a char, concatenated,
   * took a fifth of a batch100 decode (its non-ASCII names).
   */
  shortUtf8(p, end) {
    const b = this.b;
    const U = SHORT_UNITS;
    let n = 0;
    let wide = 0;
    // Indexes added with `| 0` (no overflow check), exact while under 2^31.
    if (end > 0x7fffffff) return this.decodeUtf8(p, end);
    for (let k = p; k < end; ) {
      const c = b[k];
      if (c < 0x80) {
        U[n] = c;
        n = (n + 1) | 0;
        k = (k + 1) | 0;
        continue;
      }
      let u;
      if (c >= 0xc2 && c <= 0xdf && k + 1 < end) {
        const c1 = b[k + 1];
        if ((c1 & 0xc0) !== 0x80) return this.decodeUtf8(p, end);
        u = ((c & 0x1f) << 6) | (c1 & 0x3f);
        k = (k + 2) | 0;
      } else if (c >= 0xe0 && c <= 0xef && k + 2 < end) {
        const c1 = b[k + 1];
        const c2 = b[k + 2];
        if ((c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80) return this.decodeUtf8(p, end);
        u = ((c & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
        // Overlong, or a surrogate.
        if (u < 0x800 || (u >= 0xd800 && u <= 0xdfff)) return this.decodeUtf8(p, end);
        k = (k + 3) | 0;
      } else if (c >= 0xf0 && c <= 0xf4 && k + 3 < end) {
        const c1 = b[k + 1];
        const c2 = b[k + 2];
        const c3 = b[k + 3];
        if ((c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80 || (c3 & 0xc0) !== 0x80) return this.decodeUtf8(p, end);
        u = ((c & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f);
        // Overlong, or past U+10FFFF.
        if (u < 0x10000 || u > 0x10ffff) return this.decodeUtf8(p, end);
        k = (k + 4) | 0;
        u -= 0x10000;
        U[n] = 0xd800 | (u >> 10);
        U[n + 1] = 0xdc00 | (u & 0x3ff);
        n = (n + 2) | 0;
        wide = 0x100;
        continue;
      } else return this.decodeUtf8(p, end);
      U[n] = u;
      n = (n + 1) | 0;
      wide |= u;
    }
    if (wide > 0xff) this.wide = true;
    return unitsString(U, n);
  }

  /**
   * Input bytes `p` to `end` as a string, if well-formed UTF-8. In Node by
   * `Buffer#utf8Slice` (host.utf8Slice), whose U+FFFD for anything not UTF-8 sends the
   * text to the fatal decoder, which refuses it (or returns it: a U+FFFD of the text's own).
   */
  decodeUtf8(p, end) {
    const b = this.b;
    // Text of which the first 8 bytes are ASCII is left to V8, whose decode of ASCII is
    // the faster (github_events' URLs), and so is text from `unitsText.below` bytes (on
    // Node 24, from 32: lib/host.js, `nativeUtf8From`).
    if (unitsText !== null && end - p >= 8 && end - p < unitsText.below && end - p <= unitsText.max - this.at && ((b[p] | b[p + 1] | b[p + 2] | b[p + 3] | b[p + 4] | b[p + 5] | b[p + 6] | b[p + 7]) & 0x80) !== 0) {
      const s = unitsText.utf8(this, p, end);
      if (s !== null) return s;
    }
    if (utf8Slice === null && end - p <= WINDOWED) {
      const s = this.asciiWindow(p, end);
      if (s !== null) return s;
    }
    let s = utf8Slice === null ? '\ufffd' : utf8Slice(b, p, end);
    if (s.indexOf('\ufffd') !== -1) {
      try {
        s = utf8.decode(this.bytes(p, end));
      } catch {
        throw FAULT;
      }
    }
    // eslint-disable-next-line no-control-regex
    if (!this.wide && /[^\u0000-\u00ff]/.test(s)) this.wide = true;
    return s;
  }

  /**
   * Input bytes `p` to `end` (25 to WINDOWED), if all ASCII and within or near a window,
   * as a slice of a Latin-1 string of the input (WINDOW bytes from the text that opened
   * it), made by one TextDecoder call for all the text in it; else null, and the text is
   * read alone, as before. A TextDecoder call costs ~440 ns in Chromium 156 whatever its
   * length (a 2 KiB one ~800), several times the decode of a URL, so a message of many
   * such strings (github_events: 447 in 38 KB) pays for a few calls, not one a string
   * (docs/DESIGN.md, "Long ASCII text in a browser"). Near: less than GAP bytes after the
   * last window or text read alone (or the message's start), while windows serve enough
   * texts (SERVED). A string kept from a decoded value may keep its window's text alive
   * (V8 slices a string of 13 chars or more), at most WINDOW bytes of it, as the native
   * back end's batches keep theirs.
   */
  asciiWindow(p, end) {
    const w = this.win;
    const inside = w !== null && p >= this.w0 && end <= this.w1;
    if (!inside) {
      // Past the window: its count of texts goes into the mean (halved a window).
      if (w !== null) {
        this.ws = (this.ws + this.wn) / 2;
        this.win = null;
      }
      if (p - this.w1 >= GAP || this.ws < SERVED) {
        this.w1 = end;
        return null;
      }
    }
    const b = this.b;
    for (let k = p; k < end; k++) if (b[k] > 0x7f) return null;
    if (inside) {
      this.wn++;
      return w.substring(p - this.w0, end - this.w0);
    }
    const to = Math.min(this.n, p + WINDOW);
    this.win = latin1.decode(this.bytes(p, to));
    this.w0 = p;
    this.w1 = to;
    this.wn = 1;
    return this.win.substring(0, end - p);
  }

  /** A new message's windows (asciiWindow): none yet, the mean of texts a window at its start. */
  windowsAnew() {
    this.win = null;
    this.w1 = 0;
    this.ws = 2 * SERVED;
  }
}

// The bytes of a Latin-1 window (In#asciiWindow): 1 KiB, ~610 ns a call in Chromium; made
// where the last window (or text read alone) ended less than GAP bytes before, while the
// message's windows have served SERVED texts each (a mean, each window weighing half):
// a window's text survives scavenges with the strings sliced from it, which cost gsoc-2018
// (2.2-2.7 texts a window) ~7% of its decode in Chromium.
const WINDOW = 1024;
const GAP = 512;
const SERVED = 3;
// The longest text read through a window: longer text pays for its call by its length
// (and is read faster by TextDecoder than by the loop that tells ASCII): gsoc-2018's
// descriptions, through windows, made its decode ~20% slower in Chromium.
const WINDOWED = 256;
// One char a byte (WHATWG's windows-1252: ASCII as it is), for ASCII text alone.
const latin1 = utf8Slice === null ? new TextDecoder('latin1') : null;

const fromCharCode = String.fromCharCode;

// The UTF-16 units of a short text (`shortUtf8`: at most 24 bytes, so at most 24 units).
const SHORT_UNITS = new Uint16Array(24);

// Units `U[0..n)` (n at most 24) as a string, by one call of `fromCharCode` of a fixed
// arity for each length (as `rt.asciiText` makes ASCII text): a call with a spread or
// `apply` costs several times more.
function unitsString(U, n) {
  switch (n) {
    case 0:
      return '';
    case 1:
      return fromCharCode(U[0]);
    case 2:
      return fromCharCode(U[0], U[1]);
    case 3:
      return fromCharCode(U[0], U[1], U[2]);
    case 4:
      return fromCharCode(U[0], U[1], U[2], U[3]);
    case 5:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4]);
    case 6:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5]);
    case 7:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6]);
    case 8:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7]);
    case 9:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8]);
    case 10:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9]);
    case 11:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10]);
    case 12:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10], U[11]);
    case 13:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10], U[11], U[12]);
    case 14:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10], U[11], U[12], U[13]);
    case 15:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10], U[11], U[12], U[13], U[14]);
    case 16:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10], U[11], U[12], U[13], U[14], U[15]);
    case 17:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10], U[11], U[12], U[13], U[14], U[15], U[16]);
    case 18:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10], U[11], U[12], U[13], U[14], U[15], U[16], U[17]);
    case 19:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10], U[11], U[12], U[13], U[14], U[15], U[16], U[17], U[18]);
    case 20:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10], U[11], U[12], U[13], U[14], U[15], U[16], U[17], U[18], U[19]);
    case 21:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10], U[11], U[12], U[13], U[14], U[15], U[16], U[17], U[18], U[19], U[20]);
    case 22:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10], U[11], U[12], U[13], U[14], U[15], U[16], U[17], U[18], U[19], U[20], U[21]);
    case 23:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10], U[11], U[12], U[13], U[14], U[15], U[16], U[17], U[18], U[19], U[20], U[21], U[22]);
    case 24:
      return fromCharCode(U[0], U[1], U[2], U[3], U[4], U[5], U[6], U[7], U[8], U[9], U[10], U[11], U[12], U[13], U[14], U[15], U[16], U[17], U[18], U[19], U[20], U[21], U[22], U[23]);
    default:
      throw new Error('shorn: internal error: unitsString takes at most 24 units');
  }
}

// The items of an array of strings, where a few short values repeat many times (tags,
// kinds, country codes): the string of 2 to 12 ASCII bytes met before is taken again from
// a table of the reader's own (256 entries, by a hash of the bytes, each compared whole),
// instead of a new one made, which every scavenge of a large decode then copies and
// promotes (docs/DESIGN.md, "Repeated short strings on decode": the native back end keeps
// them per call). Only in an input of 32 KiB or more (`KEPT_FROM`): in a smaller one the
// strings die young, and the lookup costs more than it saves (batch100 decode ~0.97x). A
// repeat counts as the text it is, as `text` counts it. A reader that
// finds fewer than one repeat in four of its first 1,024 lookups looks nothing up again.
const KEPT = 256;
const KEPT_TRIAL = 1024;
const KEPT_FROM = 32 << 10;
function keptStrings() {
  const kept = new Array(KEPT).fill('');
  let left = KEPT_TRIAL;
  let hits = 0;
  let off = false;
  return function keptItem(r) {
    const len = r.count(r.maxString, 1);
    if (len < 2 || len > 12 || off) return r.text(len);
    const b = r.b;
    const p = r.p;
    const end = p + len;
    if (end > r.n) throw FAULT;
    // The hash of the first two bytes, the last and the length; the entry is compared whole.
    const at = (Math.imul((b[p] << 16) | (b[p + 1] << 8) | b[end - 1], 0x9e3779b1) >>> 24) ^ len;
    if (left > 0 && --left === 0 && 4 * hits < KEPT_TRIAL) off = true;
    let s = kept[at];
    found: if (s.length === len) {
      for (let k = 0; k < len; k++) if (s.charCodeAt(k) !== b[p + k]) break found;
      hits++;
      r.p = end;
      r.units += len;
      return s;
    }
    s = asciiText(b, p, len);
    if (s === null) return r.text(len);
    kept[at] = s;
    r.p = end;
    r.units += len;
    return s;
  };
}

// ---- encode ---------------------------------------------------------------------------

/** A growable byte buffer (the message being written). */
class Out {
  constructor(size) {
    this.U = new Uint8Array(size);
    this.DV = new DataView(this.U.buffer);
    this.o = 0;
    this.depth = 0;
    // Whether `need` grew the buffer since the encode started (lib/compile.js, jsOutput).
    this.grown = false;
  }

  need(n) {
    if (this.o + n <= this.U.length) return;
    const U = new Uint8Array(Math.max(this.U.length * 2, this.o + n));
    U.set(this.U.subarray(0, this.o));
    this.U = U;
    this.DV = new DataView(U.buffer);
    this.grown = true;
  }

  /**
   * A new buffer of `size` bytes, where the last one was given away with the message in
   * it or was grown loose for it (lib/compile.js, jsOutput). Past 8 MiB, which an encode
   * does not keep for the next (lib/js-backend.js, `marshal`), a small one.
   */
  renew(size) {
    this.U = new Uint8Array(size <= 1 << 23 ? size : 256);
    this.DV = new DataView(this.U.buffer);
  }

  byte(b) {
    if (this.o >= this.U.length) this.need(1);
    this.U[this.o++] = b;
  }

  varint(n) {
    if (this.o + 5 > this.U.length) this.need(5);
    const U = this.U;
    let o = this.o;
    while (n > 127) {
      U[o++] = (n & 127) | 128;
      n >>>= 7;
    }
    U[o++] = n;
    this.o = o;
  }

  /** A bigint of 0 to 2^64 - 1 as a varint: in numbers of 28 bits, not a bigint a byte. */
  varintBig(z) {
    this.need(10);
    if (z < 268435456n) return this.varint(Number(z));
    const U = this.U;
    let o = this.o;
    let x = Number(z & 0xfffffffn);
    for (let i = 0; i < 4; i++) {
      U[o++] = (x & 127) | 128;
      x >>>= 7;
    }
    // Bits 28 to 55, then 56 to 63: each part whole where another follows.
    x = Number((z >> 28n) & 0xfffffffn);
    const top = Number(z >> 56n);
    if (top !== 0) {
      for (let i = 0; i < 4; i++) {
        U[o++] = (x & 127) | 128;
        x >>>= 7;
      }
      x = top;
    }
    while (x > 127) {
      U[o++] = (x & 127) | 128;
      x >>>= 7;
    }
    U[o++] = x;
    this.o = o;
  }

  /** A safe integer as a zigzag varint of up to 64 bits. */
  zigzag(x) {
    if ((x | 0) === x) return this.varint(((x << 1) ^ (x >> 31)) >>> 0);
    if (x <= 2 ** 51 && x >= -(2 ** 51)) {
      let z = x < 0 ? -2 * x - 1 : 2 * x;
      this.need(10);
      const U = this.U;
      let o = this.o;
      while (z > 127) {
        U[o++] = (z % 128) | 128;
        z = Math.floor(z / 128);
      }
      U[o++] = z;
      this.o = o;
      return;
    }
    const b = BigInt(x);
    this.varintBig(b < 0n ? -2n * b - 1n : 2n * b);
  }

  /**
   * A string: its varint byte length and its UTF-8. With `check` (a string value of the
   * schema's), one with a lone surrogate is refused (FAULT); without, the caller has
   * checked it (keys, json strings). ASCII has none, so only other text is checked.
   */
  string(s, check) {
    const n = s.length;
    this.need(5 + 3 * n);
    const U = this.U;
    const at = this.o;
    if (n < 128) {
      // One length byte if the UTF-8 is under 128 bytes too (ASCII always is).
      let o = at + 1;
      let k = 0;
      for (; k < n; k++) {
        const c = s.charCodeAt(k);
        if (c >= 0x80) break;
        U[o++] = c;
      }
      if (k === n) {
        U[at] = n;
        this.o = o;
        return;
      }
    }
    const head = n < 43 ? 1 : n < 5462 ? 2 : n < 699051 ? 3 : n < 89478486 ? 4 : 5;
    // A long string in native code (a JS loop took 61% of gsoc-2018's encode): Node's
    // Buffer#utf8Write where there is one (host.utf8Write), else TextEncoder#encodeInto;
    // a short one by the loop (a call costs more than it saves), which finds a lone
    // surrogate itself (-1). Text of 256 units or more is checked once written, where
    // there is host.replacementIn: both write a lone surrogate as U+FFFD, so text whose
    // UTF-8 is all ASCII or holds no U+FFFD had none (isWellFormed reads every unit of a
    // two-byte string: 0.28 ms of gsoc-2018's 2.0 ms encodeInto, in its 565 non-ASCII
    // texts of 64 units or more, against 0.12 for the search).
    let o;
    if (n >= 64) {
      const late = check && n >= 256 && replacementIn !== null;
      if (check && !late && !wellFormed(s)) throw FAULT;
      const room = U.length - at - head;
      o = at + head + (utf8Write !== null ? utf8Write(U, s, at + head, room) : utf8Encoder.encodeInto(s, new Uint8Array(U.buffer, at + head, room)).written);
      if (late && o - at - head !== n && replacementIn(U, at + head, o) && !wellFormed(s)) throw FAULT;
    } else {
      o = writeUtf8(s, U, at + head);
      if (o < 0) throw FAULT;
    }
    const len = o - at - head;
    const lenBytes = len < 128 ? 1 : len < 16384 ? 2 : len < 2097152 ? 3 : len < 268435456 ? 4 : 5;
    if (lenBytes !== head) U.copyWithin(at + lenBytes, at + head, o);
    this.o = at;
    this.varint(len);
    this.o = at + lenBytes + len;
  }
}

const utf8Encoder = new TextEncoder();

// ---- the compiler ---------------------------------------------------------------------

// Whether an object's optional field `f` is present (its presence byte); a present one's
// value charged as the core charges it.
function present(r, f) {
  const b = r.byte();
  if (b === 0) return false;
  if (b !== 1) throw FAULT;
  r.charge(f.cost);
  return true;
}

/**
 * The closures of operation graph `root` (lib/lower.js): `{ encode(w, x), decode(r) }`
 * for an `Out` and an `In`. `m`: the codec's marshaller (variant tests, defaults,
 * constraint checks of a type's own `test`). A reader of another schema's bytes
 * (`m.overrides`) only decodes: its `encode` is null.
 */
function compile(root, m, generate = false) {
  const encoders = new Map();
  const decoders = new Map();

  function enc(op) {
    let f = encoders.get(op);
    if (f === undefined) {
      // A call's body may be compiled while it is: the closure looks it up when run.
      encoders.set(op, (w, x) => f(w, x));
      f = makeEncoder(op);
      encoders.set(op, f);
    }
    return f;
  }

  // A reader of another schema's bytes (lib/evolve.js): the writer's nodes whose value the
  // reader takes another way, each converted once read (`fromValue`), as the exact walk
  // converts it (lib/js-backend.js, ByteDecoder#value).
  // An object the reader reads as an object of its own (objectOverride) is built from the
  // writer's field values as they are read (`readAs`), not from the writer's object.
  const overrides = m.overrides;
  const overrideOf = (op) => (overrides === null ? undefined : overrides.get(op.d));
  const readAs = (op) => {
    const o = op.op === 'object' ? overrideOf(op) : undefined;
    return o !== undefined && o.kind === 'object' ? o : undefined;
  };

  function dec(op) {
    let f = decoders.get(op);
    if (f === undefined) {
      decoders.set(op, (r) => f(r));
      f = makeDecoder(op);
      const o = overrideOf(op);
      if (o !== undefined && readAs(op) === undefined) {
        const read = f;
        f = (r) => o.fromValue(read(r));
      }
      decoders.set(op, f);
    }
    return f;
  }

  // A leaf's constraints, by its type's own test (the exact walk words the error).
  const checkedBy = (op, f) => {
    if (!op.checked) return f;
    const d = op.d;
    const test = def(d).test;
    return (w, x) => {
      if (!test(d, x, m)) throw FAULT;
      f(w, x);
    };
  };

  function makeEncoder(op) {
    switch (op.op) {
      case 'bool':
        return (w, x) => {
          if (typeof x !== 'boolean') throw FAULT;
          w.byte(x ? 1 : 0);
        };
      case 'uint8':
        return checkedBy(op, (w, x) => {
          if (typeof x !== 'number' || (x & 255) !== x) throw FAULT;
          w.byte(x);
        });
      case 'int8':
        return checkedBy(op, (w, x) => {
          if (typeof x !== 'number' || (x << 24) >> 24 !== x) throw FAULT;
          w.byte(x & 255);
        });
      case 'uint16':
        return checkedBy(op, (w, x) => {
          if (typeof x !== 'number' || (x & 65535) !== x) throw FAULT;
          w.varint(x);
        });
      case 'uint32':
        return checkedBy(op, (w, x) => {
          if (typeof x !== 'number' || x >>> 0 !== x) throw FAULT;
          w.varint(x);
        });
      case 'int16':
        return checkedBy(op, (w, x) => {
          if (typeof x !== 'number' || (x << 16) >> 16 !== x) throw FAULT;
          w.varint(((x << 1) ^ (x >> 31)) >>> 0);
        });
      case 'int32':
        return checkedBy(op, (w, x) => {
          if (typeof x !== 'number' || (x | 0) !== x) throw FAULT;
          w.varint(((x << 1) ^ (x >> 31)) >>> 0);
        });
      case 'int':
        return checkedBy(op, (w, x) => {
          if (!Number.isSafeInteger(x)) throw FAULT;
          w.zigzag(x);
        });
      case 'int64':
        return checkedBy(op, (w, x) => {
          if (typeof x !== 'bigint' || x < -9223372036854775808n || x > 9223372036854775807n) throw FAULT;
          w.varintBig(BigInt.asUintN(64, (x << 1n) ^ (x >> 63n)));
        });
      case 'uint64':
        return checkedBy(op, (w, x) => {
          if (typeof x !== 'bigint' || x < 0n || x > 18446744073709551615n) throw FAULT;
          w.varintBig(x);
        });
      case 'float32':
        return checkedBy(op, (w, x) => {
          if (typeof x !== 'number') throw FAULT;
          w.need(4);
          w.DV.setFloat32(w.o, x, true);
          w.o += 4;
        });
      case 'float64':
        return checkedBy(op, (w, x) => {
          if (typeof x !== 'number') throw FAULT;
          w.need(8);
          w.DV.setFloat64(w.o, x, true);
          w.o += 8;
        });
      case 'date':
        return (w, x) => {
          const ms = rt.dateTime(x);
          if (ms !== ms) throw FAULT;
          w.zigzag(ms);
        };
      case 'string':
        return checkedBy(op, (w, x) => {
          if (typeof x !== 'string') throw FAULT;
          w.string(x, true);
        });
      case 'bytes':
        return checkedBy(op, (w, x) => {
          if (rt.typedKind(x) !== 'Uint8Array') throw FAULT;
          const u = bytesOf(x);
          w.varint(u.length);
          w.need(u.length);
          w.U.set(u, w.o);
          w.o += u.length;
        });
      case 'typed': {
        const { tag } = op;
        return (w, x) => {
          if (rt.typedKind(x) !== tag) throw FAULT;
          const u = bytesOf(x);
          w.varint(typedLength.call(x));
          w.need(u.length);
          w.U.set(u, w.o);
          w.o += u.length;
        };
      }
      case 'enum': {
        const { index } = op;
        return (w, x) => {
          const k = typeof x === 'string' ? index.get(x) : undefined;
          if (k === undefined) throw FAULT;
          w.varint(k);
        };
      }
      case 'const': {
        const { value } = op;
        return (w, x) => {
          if (!Object.is(x, value)) throw FAULT;
        };
      }
      case 'json':
        return (w, x) => {
          if (!writeJson(w, x, w.depth, m.maxDepth)) throw FAULT;
        };
      case 'array': {
        const item = enc(op.items);
        const { min, max } = op;
        if (generate) return arrayWriter(item, min, max);
        return (w, x) => {
          if (!Array.isArray(x)) throw FAULT;
          const n = x.length;
          if ((min !== undefined && n < min) || (max !== undefined && n > max)) throw FAULT;
          w.varint(n);
          for (let k = 0; k < n; k++) item(w, x[k]);
        };
      }
      case 'tuple': {
        const items = op.items.map(enc);
        return (w, x) => {
          if (!Array.isArray(x) || x.length !== items.length) throw FAULT;
          for (let k = 0; k < items.length; k++) items[k](w, x[k]);
        };
      }
      case 'object': {
        const fields = op.fields.map((f) => ({ ...f, put: enc(f.node), value: f.kind === 'default' ? () => m.defaultValue(f.d) : null }));
        const { strict } = op;
        if (generate && fields.length <= MAX_GENERATED_FIELDS) return objectWriter(fields, strict);
        if (strict === null && fields.length >= 1 && fields.length <= PLAIN_FIELDS && fields.every((f) => f.kind === 'plain' && !f.own)) return plainObjectWriter(fields);
        return (w, x) => {
          if (typeof x !== 'object' || x === null || Array.isArray(x)) throw FAULT;
          for (let k = 0; k < fields.length; k++) {
            const f = fields[k];
            const v = f.own && !hasOwn(x, f.name) ? undefined : x[f.name];
            if (f.kind === 'plain') f.put(w, v);
            else if (f.kind === 'optional') {
              if (v === undefined) w.byte(0);
              else {
                w.byte(1);
                f.put(w, v);
              }
            } else f.put(w, v === undefined ? f.value() : v);
          }
          if (strict !== null && !rt.onlyKeys(x, strict)) throw FAULT;
        };
      }
      case 'presence': {
        const of = enc(op.of);
        const { absent } = op;
        return (w, x) => {
          if (x === absent) w.byte(0);
          else {
            w.byte(1);
            of(w, x);
          }
        };
      }
      case 'default': {
        const of = enc(op.of);
        const d = op.d;
        return (w, x) => of(w, x === undefined ? m.defaultValue(d) : x);
      }
      case 'record': {
        const value = enc(op.values);
        const { max } = op;
        return (w, x) => {
          if (!rt.isPlainObject(x)) throw FAULT;
          const keys = Object.keys(x);
          const n = keys.length;
          if (max !== undefined && n > max) throw FAULT;
          w.varint(n);
          for (let k = 0; k < n; k++) {
            const key = keys[k];
            if (!wellFormed(key)) throw FAULT;
            w.string(key);
            value(w, x[key]);
          }
        };
      }
      case 'map': {
        const key = enc(op.keys);
        const value = enc(op.values);
        const { max } = op;
        return (w, x) => {
          if (!rt.isMap(x)) throw FAULT;
          const size = x.size;
          if (max !== undefined && size > max) throw FAULT;
          w.varint(size);
          let n = 0;
          for (const [k, v] of x) {
            key(w, k);
            value(w, v);
            n++;
          }
          // A size that is not the number of entries (an own `size` getter, say).
          if (n !== size) throw FAULT;
        };
      }
      case 'union': {
        const variants = op.variants.map(enc);
        const { ds, byKind } = op;
        const tested = (w, x) => {
          for (let k = 0; k < ds.length; k++) {
            if (m.test(ds[k], x)) {
              w.varint(k);
              variants[k](w, x);
              return;
            }
          }
          throw FAULT;
        };
        if (byKind === null) return tested;
        // Variants of different kinds (lib/lower.js, `variantsByKind`): only the one of the
        // value's kind can take it, and its closure checks it as its test would. A value
        // of no kind (EXOTIC) is tested by each in turn.
        return (w, x) => {
          const kind = kindOf(x);
          if (kind === EXOTIC) return tested(w, x);
          const k = byKind[kind];
          if (k < 0) throw FAULT;
          w.varint(k);
          variants[k](w, x);
        };
      }
      case 'tagged': {
        const variants = op.variants.map(enc);
        const { key, index } = op;
        const own = key in ObjectPrototype;
        return (w, x) => {
          if (typeof x !== 'object' || x === null || Array.isArray(x)) throw FAULT;
          const k = index.get(own && !hasOwn(x, key) ? undefined : x[key]);
          if (k === undefined) throw FAULT;
          w.varint(k);
          variants[k](w, x);
        };
      }
      case 'call': {
        const body = enc(op.body);
        return (w, x) => {
          if (w.depth >= m.maxDepth) throw FAULT;
          w.depth++;
          body(w, x);
          w.depth--;
        };
      }
      default:
        throw new Error(`shorn: internal error: no closure writes ${op.op}`);
    }
  }

  const checkedRead = (op, f) => {
    if (!op.checked) return f;
    const d = op.d;
    const test = def(d).test;
    return (r) => {
      const v = f(r);
      if (!test(d, v, m)) throw FAULT;
      return v;
    };
  };

  function makeDecoder(op) {
    switch (op.op) {
      case 'bool':
        return (r) => {
          const b = r.byte();
          if (b > 1) throw FAULT;
          return b === 1;
        };
      case 'uint8':
        return checkedRead(op, (r) => r.byte());
      case 'int8':
        return checkedRead(op, (r) => (r.byte() << 24) >> 24);
      case 'uint16':
        return checkedRead(op, (r) => {
          const v = r.varint();
          if (v > 65535) throw FAULT;
          return v;
        });
      case 'uint32':
        return checkedRead(op, (r) => r.varint());
      case 'int16':
        return checkedRead(op, (r) => {
          const u = r.varint();
          if (u > 65535) throw FAULT;
          return (u >>> 1) ^ -(u & 1);
        });
      case 'int32':
        return checkedRead(op, (r) => {
          const u = r.varint();
          return (u >>> 1) ^ -(u & 1);
        });
      case 'int':
        return checkedRead(op, (r) => r.zigzag53());
      case 'int64':
        return checkedRead(op, (r) => {
          const u = r.varint64();
          return (u >> 1n) ^ -(u & 1n);
        });
      case 'uint64':
        return checkedRead(op, (r) => r.varint64());
      case 'float32':
        return checkedRead(op, (r) => {
          if (r.p + 4 > r.n) throw FAULT;
          const v = r.view().getFloat32(r.off + r.p, true);
          r.p += 4;
          return v;
        });
      case 'float64':
        return checkedRead(op, (r) => {
          if (r.p + 8 > r.n) throw FAULT;
          const v = r.view().getFloat64(r.off + r.p, true);
          r.p += 8;
          return v;
        });
      case 'date':
        return (r) => {
          const ms = r.zigzag53();
          if (ms > 8.64e15 || ms < -8.64e15) throw FAULT;
          return new Date(ms);
        };
      case 'string':
        return checkedRead(op, (r) => r.text(r.count(r.maxString, 1)));
      case 'bytes':
        return checkedRead(op, (r) => {
          const n = r.count(r.maxBytes, 1);
          r.charge(n);
          const u = new Uint8Array(n);
          if (n !== 0) u.set(r.bytes(r.p, r.p + n));
          r.p += n;
          return u;
        });
      case 'typed': {
        const { Class } = op;
        const size = Class.BYTES_PER_ELEMENT;
        return (r) => {
          const n = r.count(r.maxArray, size);
          r.charge(n * size);
          const out = rt.copyTyped(Class, r.b, r.p, n);
          r.p += n * size;
          return out;
        };
      }
      case 'enum': {
        const { values } = op;
        return (r) => {
          const k = r.varint();
          if (k >= values.length) throw FAULT;
          return values[k];
        };
      }
      case 'const': {
        const { value } = op;
        return () => value;
      }
      case 'json':
        return (r) => readJson(r, r.depth);
      case 'array': {
        const item = dec(op.items);
        // Of strings, in a large input, the items read by `keptStrings`.
        const kept = op.items.op === 'string' && overrideOf(op.items) === undefined ? checkedRead(op.items, keptStrings()) : null;
        const { min, max, minItem, itemCost } = op;
        if (generate) return arrayReader(item, kept, min, max, minItem, itemCost, stringItems(op.items.d));
        return (r) => {
          const n = r.count(r.maxArray, minItem);
          if ((min !== undefined && n < min) || (max !== undefined && n > max)) throw FAULT;
          r.charge(n * itemCost);
          const a = new Array(n);
          const f = kept !== null && r.n >= KEPT_FROM ? kept : item;
          for (let k = 0; k < n; k++) a[k] = f(r);
          return a;
        };
      }
      case 'tuple': {
        const items = op.items.map(dec);
        if (generate && items.length <= MAX_GENERATED_FIELDS) return tupleReader(items);
        return tupleClosure(items);
      }
      case 'object': {
        // An optional field's value, when present, is charged as the core charges it.
        const fields = op.fields.map((f) => ({ name: f.name, optional: f.kind === 'optional', cost: f.kind === 'optional' ? heapCost(f.d.of) : 0, take: dec(f.node), define: f.name in ObjectPrototype }));
        const as = readAs(op);
        if (as !== undefined) {
          if (generate && fields.length <= MAX_GENERATED_FIELDS && as.fields.length <= MAX_GENERATED_FIELDS) return objectReaderAs(fields, as.fields);
          return (r) => {
            const values = new Array(fields.length);
            for (let k = 0; k < fields.length; k++) {
              const f = fields[k];
              if (f.optional && !present(r, f)) continue;
              values[k] = f.take(r);
            }
            return as.fromFields(values);
          };
        }
        if (generate && fields.length <= MAX_GENERATED_FIELDS) return objectReader(fields);
        if (fields.length >= 1 && fields.length <= PLAIN_FIELDS && fields.every((f) => !f.optional && !f.define)) return plainObjectClosure(fields);
        return (r) => {
          const o = {};
          for (let k = 0; k < fields.length; k++) {
            const f = fields[k];
            if (f.optional && !present(r, f)) continue;
            const v = f.take(r);
            if (f.define) rt.defineOwn(o, f.name, v);
            else o[f.name] = v;
          }
          return o;
        };
      }
      case 'presence': {
        const of = dec(op.of);
        const { absent, cost } = op;
        return (r) => {
          const b = r.byte();
          if (b === 0) return absent;
          if (b !== 1) throw FAULT;
          r.charge(cost);
          return of(r);
        };
      }
      case 'default':
        return dec(op.of);
      case 'record': {
        const value = dec(op.values);
        const { max, minEntry, entryCost } = op;
        return (r) => {
          const n = r.count(r.maxArray, minEntry);
          if (max !== undefined && n > max) throw FAULT;
          r.charge(n * entryCost);
          const o = {};
          let last = -1;
          let named = false;
          for (let k = 0; k < n; k++) {
            const start = r.p;
            const key = readKey(r);
            const index = r.fact;
            if (index >= 0) {
              if (named || index <= last) throw FAULT;
              last = index;
              // Not text for the core (src/types/json.rs, INDEX_KEY): not in its estimate.
              r.units -= key.length;
              setIndex(o, index, value(r));
              continue;
            }
            named = true;
            if (hasOwn(o, key)) throw FAULT;
            r.key(key, r.p - start);
            setKey(o, key, value(r));
          }
          return o;
        };
      }
      case 'map': {
        const key = dec(op.keys);
        const value = dec(op.values);
        const { max, minEntry, entryCost } = op;
        const float = op.keys.op === 'float64';
        return (r) => {
          const n = r.count(r.maxArray, minEntry);
          if (max !== undefined && n > max) throw FAULT;
          r.charge(n * entryCost);
          const out = new Map();
          for (let k = 0; k < n; k++) {
            const kv = key(r);
            if (float && Object.is(kv, -0)) throw FAULT;
            out.set(kv, value(r));
          }
          // A repeated key (by any comparison the core makes, a Map's included).
          if (out.size !== n) throw FAULT;
          return out;
        };
      }
      case 'union':
      case 'tagged': {
        const variants = op.variants.map(dec);
        const { costs } = op;
        return (r) => {
          const k = r.varint();
          if (k >= variants.length) throw FAULT;
          r.charge(costs[k]);
          return variants[k](r);
        };
      }
      case 'call': {
        const body = dec(op.body);
        const { cost } = op;
        return (r) => {
          if (r.depth >= r.maxDepth) throw FAULT;
          r.charge(cost);
          r.depth++;
          const v = body(r);
          r.depth--;
          return v;
        };
      }
      default:
        throw new Error(`shorn: internal error: no closure reads ${op.op}`);
    }
  }

  return { encode: overrides === null ? enc(root) : null, decode: dec(root) };
}

// ---- objects, generated ---------------------------------------------------------------

// Where code may be generated (`compile`'s `generate`), each object's read and write is a
// function of its own, made by `new Function`: its property loads and stores, and the
// literal it builds, see one shape, where the closures above share one site among every
// object of every schema (megamorphic). The fields' values are still the closures'. Up to
// this many fields (a wider object keeps the closures: its source would be large).
const MAX_GENERATED_FIELDS = 256;

// Field names reach the source as JSON string literals, the only form they take there.
const key = (name) => JSON.stringify(name);

/** An object's write: each field read once, as `put` reads it, then written. */
function objectWriter(fields, strict) {
  const lines = ['if (typeof x !== "object" || x === null || Array.isArray(x)) throw FAULT;', 'let v;'];
  fields.forEach((f, k) => {
    lines.push(f.own ? `v = hasOwn(x, ${key(f.name)}) ? x[${key(f.name)}] : undefined;` : `v = x[${key(f.name)}];`);
    if (f.kind === 'plain') lines.push(`p${k}(w, v);`);
    else if (f.kind === 'optional') lines.push(`if (v === undefined) w.byte(0); else { w.byte(1); p${k}(w, v); }`);
    else lines.push(`p${k}(w, v === undefined ? d${k}() : v);`);
  });
  if (strict !== null) lines.push('if (!onlyKeys(x, strict)) throw FAULT;');
  const source = `${fields.map((f, k) => `const p${k} = F[${k}].put, d${k} = F[${k}].value;`).join('\n')}
return function writeObject(w, x) {
  ${lines.join('\n  ')}
};`;
  return new Function('F', 'FAULT', 'hasOwn', 'onlyKeys', 'strict', source)(fields, FAULT, hasOwn, rt.onlyKeys, strict);
}

/** An object's read: a literal of its fields up to the first optional one, then stores. */
function objectReader(fields) {
  return objectReaderAs(
    fields,
    fields.map((f, k) => ({ name: f.name, from: k, how: f.optional ? 'present' : 'value', dflt: null, define: f.define })),
  );
}

/**
 * An object of the writer's read as the reader's (lib/evolve.js, objectOverride), a
 * function of its own: each writer field read into a local, in the writer's order, then
 * the reader's object built as one literal up to its first field that may be absent.
 * `out`: the reader's fields, each with how its value is had (`how`: the writer field
 * `from`'s value, its default `dflt`, either, or the writer's where present) and whether
 * its name is defined rather than set (`define`).
 */
function objectReaderAs(fields, out) {
  const reads = fields.map((f, k) => (f.optional ? `b = r.byte(); if (b === 1) { r.charge(${f.cost}); v${k} = t${k}(r); } else if (b !== 0) throw FAULT;` : `v${k} = t${k}(r);`));
  const values = out.map((f, n) => {
    const dflt = f.dflt === null ? '' : 'constant' in f.dflt ? `D${n}` : `M${n}()`;
    if (f.how === 'default') return dflt;
    if (f.how === 'either') return `(v${f.from} === undefined ? ${dflt} : v${f.from})`;
    return `v${f.from}`; // 'value', and 'present' (set below only where defined)
  });
  const first = out.findIndex((f) => f.how === 'present');
  const literal = first < 0 ? out.length : first;
  const lines = [`const o = { ${out.slice(0, literal).map((f, n) => `${f.name === '__proto__' ? `[${key(f.name)}]` : key(f.name)}: ${values[n]}`).join(', ')} };`];
  for (let n = literal; n < out.length; n++) {
    const f = out[n];
    const set = f.define ? `defineOwn(o, ${key(f.name)}, ${values[n]});` : `o[${key(f.name)}] = ${values[n]};`;
    lines.push(f.how === 'present' ? `if (v${f.from} !== undefined) ${set}` : set);
  }
  const source = `${fields.map((f, k) => `const t${k} = F[${k}].take;`).join('\n')}
${out.map((f, n) => (f.dflt === null ? '' : 'constant' in f.dflt ? `const D${n} = R[${n}].dflt.constant;` : `const M${n} = R[${n}].dflt.make;`)).join('\n')}
return function readObjectAs(r) {
  let b${fields.map((f, k) => `, v${k}`).join('')};
  ${reads.join('\n  ')}
  ${lines.join('\n  ')}
  return o;
};`;
  return new Function('F', 'R', 'FAULT', 'defineOwn', source)(fields, out, FAULT, rt.defineOwn);
}

/**
 * An array's read, a function of its own: its item's call is one the engine can inline (a
 * float then needs no box), where the shared closure's call site sees every item type.
 */
function arrayReader(item, kept, min, max, minItem, itemCost, literals) {
  const bounds = [min !== undefined ? `n < ${min}` : '', max !== undefined ? `n > ${max}` : ''].filter(Boolean).join(' || ');
  // Of 1 to 4 strings or enum values, a literal: an allocation site V8 pretenures with
  // the objects around it, as the native back end's take does (lib/types/array.js,
  // SMALL_LITERALS).
  const make = literals ? `n === 0 ? [] : ${SMALL_LITERALS.map((literal, m) => `n === ${m + 1} ? ${literal} : `).join('')}new Array(n)` : 'new Array(n)';
  const source = `return function readArray(r) {
  const n = r.count(r.maxArray, ${minItem});
  ${bounds ? `if (${bounds}) throw FAULT;` : ''}
  r.charge(n * ${itemCost});
  const a = ${make};
  ${kept === null ? '' : `if (r.n >= ${KEPT_FROM}) for (let k = 0; k < n; k++) a[k] = kept(r);
  else `}for (let k = 0; k < n; k++) a[k] = item(r);
  return a;
};`;
  return new Function('item', 'kept', 'FAULT', source)(item, kept, FAULT);
}

function arrayWriter(item, min, max) {
  const bounds = [min !== undefined ? `n < ${min}` : '', max !== undefined ? `n > ${max}` : ''].filter(Boolean).join(' || ');
  const source = `return function writeArray(w, x) {
  if (!Array.isArray(x)) throw FAULT;
  const n = x.length;
  ${bounds ? `if (${bounds}) throw FAULT;` : ''}
  w.varint(n);
  for (let k = 0; k < n; k++) item(w, x[k]);
};`;
  return new Function('item', 'FAULT', source)(item, FAULT);
}

// The most fields plainObjectClosure and plainObjectWriter take: each names that many
// stores and loads of its own (k0-k7), so a larger object keeps the loop.
const PLAIN_FIELDS = 8;

/**
 * An object of one to eight fields, none optional and none named as a property of
 * Object.prototype, read without code generation: each field stored by a site of its own,
 * its name a constant of the closure. A loop over the fields with one keyed store (what
 * larger objects and the others still take) took 4.7x the time in Firefox 153 and 1.4x
 * in Chromium 156 to build a four-field object (eight such schemas in turn alike), and
 * was 27% of a person decode under a policy that forbids eval in Firefox (docs/DESIGN.md,
 * "Objects without code generation"). A case a field count, not one body with a return
 * after each count as plainObjectWriter: that body read person 4-6% slower in Chromium
 * and Firefox under the policy (pages of person alone, 4 pairs in both orders).
 */
function plainObjectClosure(fields) {
  const [k0, k1, k2, k3, k4, k5, k6, k7] = fields.map((f) => f.name);
  const [t0, t1, t2, t3, t4, t5, t6, t7] = fields.map((f) => f.take);
  switch (fields.length) {
    case 1:
      return (r) => {
        const o = {};
        o[k0] = t0(r);
        return o;
      };
    case 2:
      return (r) => {
        const o = {};
        o[k0] = t0(r);
        o[k1] = t1(r);
        return o;
      };
    case 3:
      return (r) => {
        const o = {};
        o[k0] = t0(r);
        o[k1] = t1(r);
        o[k2] = t2(r);
        return o;
      };
    case 4:
      return (r) => {
        const o = {};
        o[k0] = t0(r);
        o[k1] = t1(r);
        o[k2] = t2(r);
        o[k3] = t3(r);
        return o;
      };
    case 5:
      return (r) => {
        const o = {};
        o[k0] = t0(r);
        o[k1] = t1(r);
        o[k2] = t2(r);
        o[k3] = t3(r);
        o[k4] = t4(r);
        return o;
      };
    case 6:
      return (r) => {
        const o = {};
        o[k0] = t0(r);
        o[k1] = t1(r);
        o[k2] = t2(r);
        o[k3] = t3(r);
        o[k4] = t4(r);
        o[k5] = t5(r);
        return o;
      };
    case 7:
      return (r) => {
        const o = {};
        o[k0] = t0(r);
        o[k1] = t1(r);
        o[k2] = t2(r);
        o[k3] = t3(r);
        o[k4] = t4(r);
        o[k5] = t5(r);
        o[k6] = t6(r);
        return o;
      };
    default:
      return (r) => {
        const o = {};
        o[k0] = t0(r);
        o[k1] = t1(r);
        o[k2] = t2(r);
        o[k3] = t3(r);
        o[k4] = t4(r);
        o[k5] = t5(r);
        o[k6] = t6(r);
        o[k7] = t7(r);
        return o;
      };
  }
}

/**
 * The write of such an object (not strict; one to eight fields, each plain and read as
 * any property): each field read by a site of its own, as plainObjectClosure. Written
 * with a case a field count as the reader it was level in Chromium and 2-4% faster in
 * Firefox (person encode under the policy, 4 pairs in both orders): not kept, for the
 * size.
 */
function plainObjectWriter(fields) {
  const [k0, k1, k2, k3, k4, k5, k6, k7] = fields.map((f) => f.name);
  const [p0, p1, p2, p3, p4, p5, p6, p7] = fields.map((f) => f.put);
  const n = fields.length;
  return (w, x) => {
    if (typeof x !== 'object' || x === null || Array.isArray(x)) throw FAULT;
    p0(w, x[k0]);
    if (n === 1) return;
    p1(w, x[k1]);
    if (n === 2) return;
    p2(w, x[k2]);
    if (n === 3) return;
    p3(w, x[k3]);
    if (n === 4) return;
    p4(w, x[k4]);
    if (n === 5) return;
    p5(w, x[k5]);
    if (n === 6) return;
    p6(w, x[k6]);
    if (n === 7) return;
    p7(w, x[k7]);
  };
}

// How a tuple's items become one packed array, which the engine decides (canada decode,
// 56K [lon, lat] pairs, a page each, ops/s; docs/DESIGN.md, "Tuples in Chromium" and
// "Tuples in Firefox"). V8 builds `new Array(a, b)` of the global Array inline (Chromium
// 156: 1,500, a literal 1,200; Node 20 and 24 alike) and pretenures a literal's site once
// its arrays survive scavenges (Node's canada in a slow state in 6 of 10 processes), and
// does not inline a call of Array through a binding (Chromium ~220). SpiderMonkey runs
// `new Array(a, b)` as a call into its VM (a profile: the Array constructor and the
// minor GCs under it, 54% of the decode) and builds a literal inline (Firefox 153: 400
// -> 800). JavaScriptCore takes both alike. So a literal where the engine is
// SpiderMonkey (its own non-standard global, InternalError, tells), else `new Array`.
const LITERAL_TUPLES = typeof globalThis.InternalError === 'function';

/**
 * A tuple's read: its items, in order, in one packed array, in the engine's form
 * (LITERAL_TUPLES). One item is always the literal: `new Array(x)` of a number is x
 * empty slots.
 */
function tupleReader(items) {
  const values = items.map((_, k) => `t${k}(r)`).join(', ');
  const source = `${items.map((_, k) => `const t${k} = F[${k}];`).join('\n')}
return function readTuple(r) {
  return ${items.length >= 2 && !LITERAL_TUPLES ? `new Array(${values})` : `[${values}]`};
};`;
  return new Function('F', source)(items);
}

/**
 * The same without code generation: one, two and three items by name, in the engine's
 * form (a loop of `push` took Chromium's canada decode under a policy that forbids eval
 * from 1,250 to 250 ops/s); more, by `push`, which keeps the array packed (filling a
 * `new Array(n)` by index leaves V8's holey).
 */
function tupleClosure(items) {
  const n = items.length;
  if (n === 1) {
    const [t0] = items;
    return (r) => [t0(r)];
  }
  if (n === 2) {
    const [t0, t1] = items;
    return LITERAL_TUPLES ? (r) => [t0(r), t1(r)] : (r) => new Array(t0(r), t1(r));
  }
  if (n === 3) {
    const [t0, t1, t2] = items;
    return LITERAL_TUPLES ? (r) => [t0(r), t1(r), t2(r)] : (r) => new Array(t0(r), t1(r), t2(r));
  }
  return (r) => {
    const a = [];
    for (let k = 0; k < n; k++) a.push(items[k](r));
    return a;
  };
}

/** Whether `new Function` may run here (not under a Content-Security-Policy without 'unsafe-eval'). */
let evalAllowed;
function canGenerate() {
  if (evalAllowed === undefined) {
    try {
      evalAllowed = new Function('return 1')() === 1;
    } catch {
      evalAllowed = false;
    }
  }
  return evalAllowed;
}

// ---- json (docs/FORMAT.md, "json") ----------------------------------------------------

function writeJson(w, x, depth, max) {
  if (typeof x === 'string') {
    if (!wellFormed(x)) return false;
    const start = w.o;
    w.string(x);
    const U = w.U;
    const len = U[start] < 128 ? U[start] : -1;
    if (len >= 0 && len < 64) U[start] = 0x80 | len;
    else {
      w.need(1);
      w.U.copyWithin(start + 1, start, w.o);
      w.U[start] = 0x05;
      w.o++;
    }
    return true;
  }
  if (typeof x === 'number') {
    if (Number.isSafeInteger(x) && !(x === 0 && 1 / x < 0)) {
      if (x >= 0 && x <= 63) w.byte(0x40 | x);
      else {
        w.byte(0x04);
        w.zigzag(x);
      }
      return true;
    }
    if (!Number.isFinite(x)) return false;
    w.need(9);
    w.U[w.o++] = 0x03;
    w.DV.setFloat64(w.o, x, true);
    w.o += 8;
    return true;
  }
  if (typeof x === 'boolean') {
    w.byte(x ? 2 : 1);
    return true;
  }
  if (typeof x !== 'object') return false;
  if (x === null) {
    w.byte(0);
    return true;
  }
  if (depth >= max) return false;
  if (Array.isArray(x)) {
    const n = x.length;
    if (n < 32) w.byte(0xc0 | n);
    else {
      w.byte(0x06);
      w.varint(n);
    }
    for (let k = 0; k < n; k++) if (!writeJson(w, x[k], depth + 1, max)) return false;
    return true;
  }
  if (!rt.isPlainObject(x)) return false;
  const keys = Object.keys(x);
  const n = keys.length;
  if (n < 32) w.byte(0xe0 | n);
  else {
    w.byte(0x07);
    w.varint(n);
  }
  for (let k = 0; k < n; k++) {
    const key = keys[k];
    if (!wellFormed(key)) return false;
    w.string(key);
    if (!writeJson(w, x[key], depth + 1, max)) return false;
  }
  return true;
}

function readJson(r, depth) {
  const tag = r.byte();
  if (tag <= 0x02) return tag === 0 ? null : tag === 2;
  if (tag >= 0x40 && tag <= 0x7f) return tag & 0x3f;
  if (tag >= 0x80 && tag <= 0xbf) {
    r.charge(HEAP.string);
    return r.text(tag & 0x3f);
  }
  if (tag === 0x03) {
    if (r.p + 8 > r.n) throw FAULT;
    const v = r.view().getFloat64(r.off + r.p, true);
    r.p += 8;
    if (!Number.isFinite(v) || (Number.isSafeInteger(v) && !Object.is(v, -0))) throw FAULT;
    r.charge(HEAP_NUMBER);
    return v;
  }
  if (tag === 0x04) {
    const v = r.zigzag53();
    if (v >= 0 && v <= 63) throw FAULT;
    r.charge(HEAP_NUMBER);
    return v;
  }
  if (tag === 0x05) {
    const n = r.count(r.maxString, 1);
    if (n < 64) throw FAULT;
    r.charge(HEAP.string);
    return r.text(n);
  }
  if (tag === 0x06 || tag === 0x07 || tag >= 0xc0) {
    const object = tag === 0x07 || tag >= 0xe0;
    const min = object ? 2 : 1;
    let n;
    if (tag < 0x08) {
      n = r.count(r.maxArray, min);
      if (n < 32) throw FAULT;
    } else {
      n = tag & 0x1f;
      if (n * min > r.n - r.p) throw FAULT;
    }
    r.charge(object ? HEAP.record + n * HEAP.entry : HEAP.array + n * HEAP.item);
    if (depth >= r.maxDepth) throw FAULT;
    if (!object) {
      const a = new Array(n);
      for (let k = 0; k < n; k++) a[k] = readJson(r, depth + 1);
      return a;
    }
    const o = {};
    let last = -1;
    let named = false;
    for (let k = 0; k < n; k++) {
      const start = r.p;
      const key = readKey(r);
      r.key(key, r.p - start);
      const index = r.fact;
      if (index >= 0) {
        if (named || index <= last) throw FAULT;
        last = index;
        setIndex(o, index, readJson(r, depth + 1));
        continue;
      }
      named = true;
      if (hasOwn(o, key)) throw FAULT;
      setKey(o, key, readJson(r, depth + 1));
    }
    return o;
  }
  throw FAULT;
}

module.exports = { compile, canGenerate, In, Out, FAULT, wellFormed, writeJson, bytesOf, typedLength, arrayIndex, keptBefore, tupleClosure, plainObjectClosure, plainObjectWriter };
