'use strict';
// The tape form of t.json() values (lib/types/json.js), for the native back end only: the
// JS write of a json value in its bytes straight into the tape (`write`, `items`: the
// generated encode, lib/put.js, and the generic marshaller's `put`), and the read of the
// tape the native decode fills (`take`: the generic marshaller's, and the generated
// decode's hand-offs). A browser or worker build has no tape: package.json "imports",
// `#json-tape`, gives it lib/json-tape-browser.js instead, so none of this is in its bundle.

const { ShornError } = require('./errors');
const rt = require('#runtime');
const { writeUtf8 } = require('./utf8');

// The encode of a json value by JS, in its bytes on the wire (docs/FORMAT.md, "json"),
// written straight into the tape after a RAW token (src/types/json.rs, `raw`), 8 bytes a
// slot, but for strings of TEXT_MIN units or more, which go in the text as every string
// does (the native side transcodes them faster than a JS loop, and finds their lone
// surrogates) with where each goes among the bytes after them: no token per value, and
// short strings, numbers and counts in their final bytes at once. A value it cannot write
// (not JSON, deeper than maxDepth) makes it give up (FAIL): the tape and text are put
// back and `put` marshals the value token by token, so errors come from `put` as ever.
// `put` also runs where issues are collected (`check`), in a layout of positional
// strings, and for an encode started while a write is under way (a getter's).
// docs/DESIGN.md, "`t.json()` and records", has the measurements.
const FAIL = -1;
const BUSY = -2;
// FAIL after text was cut (sent on, so not put back): `put` must throw, or the value
// changed under the encode (a getter), which is an error of its own.
const FAIL_CUT = -3;
const SAFE = Number.MAX_SAFE_INTEGER;
const TEXT_MIN = 16;
// The tape being written, as bytes (U) and for floats (DV): views made again only when
// the tape changes (rt.view does the same for 64-bit integers). `base`: the byte offset of
// the value's bytes; `texts`: where its strings in the text go and their lengths; `S`:
// the text; `cut`: whether it was cut meanwhile.
const J = { T: null, viewOf: null, U: null, DV: null, o: 0, end: 0, base: 0, depth: 0, max: 0, grow: null, scratch: false, S: '', cut: false, texts: [], nt: 0, busy: false, write: null, items: null, changed: null, item: null, k: 0, failed: 0 };

// Writes json value `x` at slot `i` of tape `T`, text `S` (depth: the levels it is in),
// growing the tape with `grow(T, need)`; returns the slot after it, or FAIL (FAIL_CUT).
// Either way the tape is `J.T` after, which the caller takes (a grown tape is the one the
// native side reads); the text is `J.S`, which the caller takes unless it failed.
// Returns BUSY, and leaves J alone, when another write is under way (a getter's encode).
function write(x, T, i, S, depth, max, grow, scratch) {
  if (!begin(S, max, grow, scratch)) return BUSY;
  try {
    return one(x, T, i, depth);
  } finally {
    end();
  }
}

// Starts a session of writes (`write`, `items`) on text `S`; false when one is under way.
function begin(S, max, grow, scratch) {
  if (J.busy) return false;
  J.busy = true;
  J.grow = grow;
  J.scratch = scratch;
  J.max = max;
  J.S = S;
  return true;
}

// Ends it.
function end() {
  J.grow = null;
  J.busy = false;
}

// Items `k` to `n` - 1 of array `x` (the tape's count already written), each a json value
// as `write` writes it, from slot `i` on, in one session: `write` for each cost ~24 ns an
// item in all (200 `true`s: 5.2 µs against 0.5 µs as t.bool()). Returns the slot after the
// items written, with `J.k` the index of the next item: `n`, or an item it could not write,
// which is then in `J.item` (read once), with J.failed FAIL or FAIL_CUT; the tape and text
// after the items written are `J.T` and `J.S`. Returns BUSY, and leaves J alone, when
// another write is under way.
function items(x, k, n, T, i, S, depth, max, grow, scratch) {
  if (!begin(S, max, grow, scratch)) return BUSY;
  try {
    for (; k < n; k++) {
      const v = x[k];
      const before = J.S;
      const after = one(v, T, i, depth);
      T = J.T;
      if (after < 0) {
        J.S = before;
        J.item = v;
        J.failed = after;
        break;
      }
      i = after;
    }
  } finally {
    end();
  }
  J.k = k;
  return i;
}

// `write`'s body, J set up.
function one(x, T, i, depth) {
  J.depth = depth;
  J.cut = false;
  J.nt = 0;
  tape(T, i + 3);
  J.base = J.o;
  if (bytes(x) === FAIL) return J.cut ? FAIL_CUT : FAIL;
  const n = J.o - J.base;
  const texts = J.texts;
  const m = J.nt;
  let end = i + 3 + Math.ceil(n / 8);
  if (end + m > J.T.length) J.T = J.grow(J.T, end + m);
  T = J.T;
  T[i] = 7;
  T[i + 1] = n;
  T[i + 2] = m / 2;
  for (let k = 0; k < m; k++) T[end++] = texts[k];
  return end;
}

// The error of a value that `write` could not write and `put` then could: a getter gave
// another value the second time (hostile or broken; the text already sent is lost).
function changed(path) {
  return new ShornError('ERR_SHORN_INVALID', `${path}: invalid value: the json value changed while it was encoded (a getter gave another value the second time)`, { path });
}

// Generated code writes a json value with `write` and takes the tape and text from J
// after, as `put` (below) does for an encoder.
J.write = write;
J.items = items;
J.changed = changed;

// A string left in the text (TEXT_MIN and longer), as Encoder.string sends it; where it
// goes among the bytes, and its slot: its length, or LATIN1_SLOT more for a long one in
// the Latin-1 list (a key's negated, -1 - slot).
function text(x, tagged) {
  const n = x.length;
  J.texts[J.nt++] = J.o - J.base;
  if (n >= rt.LONG_STRING && !J.scratch) {
    // A chunk of its own, or in the Latin-1 list (its slot LATIN1_SLOT more).
    let slot = n;
    if (rt.longText(J.S, x) === 0) J.S = '';
    else slot += rt.LATIN1_SLOT;
    J.texts[J.nt++] = tagged ? slot : -1 - slot;
    J.cut = true;
  } else {
    J.texts[J.nt++] = tagged ? n : -1 - n;
    J.S += x;
    if (J.S.length > rt.TEXT_CHUNK) {
      if (!J.scratch) {
        rt.cutText(J.S, Math.floor(J.o / 8));
        J.cut = true;
      }
      J.S = '';
    }
  }
  return 0;
}

// Writes from slot `slot` of tape `T` on.
function tape(T, slot) {
  J.T = T;
  if (J.viewOf !== T) {
    J.viewOf = T;
    J.U = new Uint8Array(T.buffer, T.byteOffset, T.byteLength);
    J.DV = new DataView(T.buffer, T.byteOffset, T.byteLength);
  }
  J.o = slot * 8;
  J.end = J.U.length;
}

// Room for `n` more bytes (the tape grows, as an encoder's does, keeping what is written).
function need(n) {
  if (J.o + n <= J.end) return;
  const o = J.o;
  tape(J.grow(J.T, Math.ceil((o + n) / 8) + 1), 0);
  J.o = o;
}

function varint(n) {
  const U = J.U;
  let o = J.o;
  while (n > 127) {
    U[o++] = (n & 127) | 128;
    n >>>= 7;
  }
  U[o++] = n;
  J.o = o;
}

// A string: a value (`tagged`: its type byte and length in one byte, or 05 and a varint
// length) or a key (a varint length), then its UTF-8. A short ASCII string is written as
// it is read; another short one is transcoded after room for its longest header (3 bytes
// a unit), closed up where the header is shorter; a longer one, or one with a lone
// surrogate, goes in the text (`text`).
function str(x, tagged) {
  const n = x.length;
  if (n >= TEXT_MIN) return text(x, tagged);
  // Below 16 units: the header is one byte.
  need(1 + 3 * n);
  const U = J.U;
  const o = J.o;
  let p = o + 1;
  let k = 0;
  for (; k < n; k++) {
    const ch = x.charCodeAt(k);
    if (ch >= 0x80) break;
    U[p++] = ch;
  }
  if (k < n) {
    p = utf8(x, o + 1);
    if (p < 0) return text(x, tagged);
  }
  const len = p - o - 1;
  U[o] = tagged ? 0x80 | len : len;
  J.o = p;
  return 0;
}

// Object keys, as their bytes (a varint length and ASCII) in little-endian 32-bit words,
// written by 4-byte stores. Writing keys from their chars, a byte a char (or in the text,
// from 16 units), took ~40% of twitter's `t.json()` encode: the same encode with one byte
// for each key ran in 0.6x the time. A key is kept the second time it is met (the first
// marks it, SEEN) if it is ASCII, KEY_MIN to KEY_MAX - 1 units, and does not start with a
// digit (ids, seldom repeated). Shorter keys are written from their chars: for them the
// lookup cost more than it saved (200 records of 5 keys of 2 to 5 chars: 0.93x). The
// table is module-wide and emptied when it reaches KEYS_MAX entries (~0.5 MB at most,
// keys included), so a stream of distinct keys costs a lookup and a mark each, and the
// keys in use come back after.
const KEYS = new Map();
const KEYS_MAX = 2048;
const KEY_MIN = 8;
const KEY_MAX = 64;
const SEEN = 0;
const NEVER = 1;

// Writes key `x` (from its words, once kept); returns 0, or FAIL as `str` does. Keys the
// table never keeps (by length, or a leading digit) are not looked up: an id key is a
// fresh string each time, hashed by every lookup.
function key$(x) {
  const n = x.length;
  if (n < KEY_MIN || n >= KEY_MAX) return str(x, false);
  const first = x.charCodeAt(0);
  if (first >= 0x30 && first <= 0x39) return str(x, false);
  const e = KEYS.get(x);
  if (e === undefined || e === SEEN) return keyFirst(x, e);
  if (e === NEVER) return str(x, false);
  return keyWords(e, x);
}

// A key `key$` may keep, met once (`e` SEEN) or never (undefined): written as any string,
// and marked, or kept (NEVER if it is not ASCII, so it is not scanned again).
function keyFirst(x, e) {
  if (e === undefined) {
    if (KEYS.size >= KEYS_MAX) KEYS.clear();
    KEYS.set(x, SEEN);
    return str(x, false);
  }
  const words = wordsOf(x);
  KEYS.set(x, words === null ? NEVER : words);
  return keyWords(words, x);
}

// Shapes: the keys of an object, each key's bytes kept as words (`wordsOf`) the second
// time the same keys are met in the same order, so that objects of one shape write their
// keys 4 bytes a store with no lookup each (200 records of 4 short keys: 1.11x; gsoc-2018,
// citm_catalog, github_events 1.04x-1.10x; twitter, whose long keys the key table
// already writes, level). A shape is found by its first key (SHAPES), then its count and
// keys compared one by one (the strings are V8's internalized keys, so mostly one pointer
// compare); up to SHAPE_CHAIN shapes share a first key, the latest first. Objects of
// more than SHAPE_KEYS members, with a key of KEY_MAX units or more, or whose first key
// starts with a digit (ids as keys, seldom repeated), have none. At most SHAPES_MAX shapes
// are kept (32 keys of under 64 units each at most: ~1 MB of keys and words); the table is
// emptied when it has that many.
const SHAPES = new Map();
const SHAPES_MAX = 256;
const SHAPE_KEYS = 32;
const SHAPE_CHAIN = 4;
let shapeCount = 0;

// The words of the keys of object keys `keys` (`n` of them, 1 to SHAPE_KEYS) where its
// shape was met before, else null.
function shapeOf(keys, n) {
  const first = keys[0];
  const head = SHAPES.get(first);
  let chain = 0;
  for (let s = head; s !== undefined; s = s.next) {
    chain++;
    if (s.n !== n) continue;
    const ks = s.keys;
    let k = 1;
    while (k < n && ks[k] === keys[k]) k++;
    if (k === n) {
      if (s.words === null) s.words = keys.map(wordsOf);
      return s.words;
    }
  }
  if (head === undefined) {
    const c = first.charCodeAt(0);
    if (c >= 0x30 && c <= 0x39) return null;
  }
  // A shape keeps its keys: none of KEY_MAX units or more, so what the table holds stays
  // small whatever the keys a hostile value has.
  for (let k = 0; k < n; k++) if (keys[k].length >= KEY_MAX) return null;
  if (shapeCount >= SHAPES_MAX) {
    SHAPES.clear();
    shapeCount = 0;
  }
  // The latest first; a chain at SHAPE_CHAIN starts again with this shape alone.
  SHAPES.set(first, { n, keys, words: null, next: chain < SHAPE_CHAIN && shapeCount !== 0 ? head : undefined });
  shapeCount++;
  return null;
}

// Key `x`'s bytes (its length, below KEY_MAX so one byte, then ASCII) as little-endian
// 32-bit words, after the count of its bytes; null if it is not ASCII or KEY_MAX units or
// more.
function wordsOf(x) {
  const n = x.length;
  if (n >= KEY_MAX) return null;
  const words = [n + 1];
  let word = n;
  for (let k = 0; k < n; k++) {
    const ch = x.charCodeAt(k);
    if (ch >= 0x80) return null;
    const at = (k + 1) & 3;
    if (at === 0) {
      words.push(word);
      word = ch;
    } else word |= ch << (8 * at);
  }
  words.push(word);
  return words;
}

// Writes key `x` from its words `e` (null: as any key).
function keyWords(e, x) {
  if (e === null) return str(x, false);
  const m = e.length;
  need(4 * m);
  const DV = J.DV;
  let o = J.o;
  for (let k = 1; k < m; k++) {
    DV.setInt32(o, e[k], true);
    o += 4;
  }
  // The bytes after the key's (up to 3, from its last word) are written over next.
  J.o += e[0];
  return 0;
}

// Writes `x` as UTF-8 at `o`; returns where it ends, or FAIL (-1) at a lone surrogate.
const utf8 = (x, o) => writeUtf8(x, J.U, o);

// Writes number `v` at `o` of the tape's bytes `U` (`DV`, its DataView), which has room
// for 9 bytes there; returns where it ends, FAIL if `v` is not finite, or WIDE for an
// integer beyond 32 bits (`wide` writes it). Inlined where it is called: the array loop
// (`numbers`) keeps `U` and `o` in locals.
function numberAt(U, DV, o, v) {
  // An int32 but -0, which is a float on the wire.
  if ((v | 0) === v && (v !== 0 || 1 / v > 0)) {
    if (v >= 0 && v <= 63) {
      U[o] = 0x40 | v;
      return o + 1;
    }
    U[o++] = 0x04;
    let z = ((v << 1) ^ (v >> 31)) >>> 0;
    while (z > 127) {
      U[o++] = (z & 127) | 128;
      z >>>= 7;
    }
    U[o++] = z;
    return o;
  }
  if (Number.isInteger(v) && v !== 0 && v <= SAFE && v >= -SAFE) return WIDE;
  // NaN and the infinities (v - v is NaN for them, 0 for every finite number).
  if (v - v !== 0) return FAIL;
  U[o] = 0x03;
  DV.setFloat64(o + 1, v, true);
  return o + 9;
}

const WIDE = -4;

// A safe integer beyond 32 bits: 04, then its zigzag varint, exact in a double for
// magnitudes up to 2^52 and in a BigInt beyond (up to 2^53 - 1, whose zigzag needs 54
// bits).
function wide(x) {
  need(9);
  const U = J.U;
  let o = J.o;
  U[o++] = 0x04;
  if (x > 2 ** 52 || x < -(2 ** 52)) {
    let z = x < 0 ? -2n * BigInt(x) - 1n : 2n * BigInt(x);
    while (z > 127n) {
      U[o++] = Number(z & 127n) | 128;
      z >>= 7n;
    }
    U[o++] = Number(z);
  } else {
    let z = x < 0 ? -2 * x - 1 : 2 * x;
    while (z > 127) {
      U[o++] = (z % 128) | 128;
      z = Math.floor(z / 128);
    }
    U[o++] = z;
  }
  J.o = o;
  return 0;
}

function num(x) {
  need(9);
  const o = numberAt(J.U, J.DV, J.o, x);
  if (o >= 0) {
    J.o = o;
    return 0;
  }
  return o === WIDE ? wide(x) : FAIL;
}

// Number `v`, item `k` of array `x` of `n` items, and the numbers after it: returns the
// index of the first item after them that is not a number, that item in `J.item` (each
// item is read once: a getter may give another value each time), or `n`; or FAIL. The
// tape's bytes and where they end are locals for the run.
function numbers(x, v, k, n) {
  let U = J.U;
  let DV = J.DV;
  let o = J.o;
  let end = J.end - 9;
  for (;;) {
    if (o > end) {
      J.o = o;
      need(9);
      U = J.U;
      DV = J.DV;
      o = J.o;
      end = J.end - 9;
    }
    const p = numberAt(U, DV, o, v);
    if (p >= 0) o = p;
    else {
      J.o = o;
      if (p === FAIL || wide(v) === FAIL) return FAIL;
      U = J.U;
      DV = J.DV;
      o = J.o;
      end = J.end - 9;
    }
    if (++k === n) break;
    v = x[k];
    if (typeof v !== 'number') {
      J.item = v;
      break;
    }
  }
  J.o = o;
  return k;
}

// A count in the type byte (`short` | n, below 32) or after `long`.
function count(n, short, long) {
  need(6);
  if (n < 32) J.U[J.o++] = short | n;
  else {
    J.U[J.o++] = long;
    varint(n);
  }
}

function bytes(x) {
  // An if per kind: a switch on typeof cost a call of V8's Typeof per value.
  if (typeof x === 'string') return str(x, true);
  if (typeof x === 'number') return num(x);
  if (typeof x === 'boolean') {
    need(1);
    J.U[J.o++] = x ? 2 : 1;
    return 0;
  }
  if (typeof x !== 'object') return FAIL;
  if (x === null) {
    need(1);
    J.U[J.o++] = 0;
    return 0;
  }
  if (J.depth >= J.max) return FAIL;
  J.depth++;
  if (Array.isArray(x)) {
    const n = x.length;
    count(n, 0xc0, 0x06);
    let k = 0;
    while (k < n) {
      const v = x[k];
      if (typeof v === 'number') {
        // Then its run of numbers, and the item after them (read once) in turn.
        k = numbers(x, v, k, n);
        if (k === FAIL) return FAIL;
        if (k === n) break;
        const item = J.item;
        J.item = null;
        if (bytes(item) === FAIL) return FAIL;
      } else if (bytes(v) === FAIL) return FAIL;
      k++;
    }
  } else {
    if (!rt.isPlainObject(x)) return FAIL;
    const keys = Object.keys(x);
    const n = keys.length;
    count(n, 0xe0, 0x07);
    // Each key from its shape's words where the shape was met before, else by `key$`.
    const words = n !== 0 && n <= SHAPE_KEYS ? shapeOf(keys, n) : null;
    if (n < 4) {
      for (let k = 0; k < n; k++) {
        const key = keys[k];
        if ((words !== null ? keyWords(words[k], key) : key$(key)) === FAIL || bytes(x[key]) === FAIL) return FAIL;
      }
    } else {
      const values = Object.values(x);
      if (values.length !== n) return FAIL;
      for (let k = 0; k < n; k++) if ((words !== null ? keyWords(words[k], keys[k]) : key$(keys[k])) === FAIL || bytes(values[k]) === FAIL) return FAIL;
    }
  }
  J.depth--;
  return 0;
}

// Builders of objects by their keys, shared by every json value of codecs that generate
// code (not with `codegen: false`): an object literal of those keys, whose values are
// taken in order (rt.shapeBuilder). Each is found by the hash of its keys the native side
// sends with the first object of a shape, then its keys are compared.
const BUILDERS = new Map();
// Objects of this many members have a shape slot (src/types/json.rs, MIN_SHAPE_KEYS and
// MAX_SHAPE_KEYS): fewer are built as fast by keyed stores, more make long builders.
const MIN_SHAPE_KEYS = 4;
const MAX_SHAPE_KEYS = 64;

// The builder of shape `shape` of a json value, or null. Each member's key id slot is
// skipped.
function builder(keys, shape) {
  const b = rt.shapeBuilder(BUILDERS, keys, shape, (members) => new Function('c', 'keys', 'take', `return {\n  ${members.map((k) => `${k}: (c.i++, take(c, keys))`).join(',\n  ')}\n};`));
  keys.builders[shape] = b;
  return b;
}

function take(c, keys) {
  const T = c.T;
  switch (T[c.i++]) {
    case 0:
      return null;
    case 1:
      return false;
    case 2:
      return true;
    case 3:
      return T[c.i++];
    case 4:
      return c.text();
    case 5: {
      const n = T[c.i];
      if (n > 4) return array(c, keys);
      c.i++;
      const a = new Array(n);
      for (let k = 0; k < n; k++) a[k] = take(c, keys);
      return a;
    }
    case 8: {
      // An array of numbers only (canada's coordinates, mesh's vertices and indices).
      const i = c.i + 1;
      const n = T[c.i];
      const a = new Array(n);
      for (let k = 0; k < n; k++) a[k] = T[i + k];
      c.i = i + n;
      return a;
    }
    default: {
      const n = T[c.i++];
      if (n >= MIN_SHAPE_KEYS && n <= MAX_SHAPE_KEYS) {
        // The shape slot (src/types/json.rs): -1 for an object of no shape kept.
        const shape = T[c.i++];
        if (shape !== -1 && c.m.generates) return shaped(c, keys, n, shape);
      }
      return members(c, keys, n, null);
    }
  }
}

// An array: its count, then its items. A number, the commonest item (canada's and mesh's
// arrays), is read without a call, the slot index in a local.
function array(c, keys) {
  const T = c.T;
  let i = c.i;
  const n = T[i++];
  const a = new Array(n);
  for (let k = 0; k < n; k++) {
    if (T[i] === 3) {
      a[k] = T[i + 1];
      i += 2;
    } else {
      c.i = i;
      a[k] = take(c, keys);
      i = c.i;
    }
  }
  c.i = i;
  return a;
}

// An object of the next `n` members; `ids`, if not null, gets their key ids.
function members(c, keys, n, ids) {
  const T = c.T;
  const o = {};
  for (let k = 0; k < n; k++) {
    const id = T[c.i++];
    let key;
    let own;
    let kept = id;
    if (id >= 0) {
      key = keys.names[id];
      own = keys.own[id];
    } else {
      key = c.text();
      // A key Object.prototype has (`__proto__`, or one a polluted prototype gained) is
      // defined, not assigned: assigning would reach its setter, as JSON.parse never
      // does. No user code runs while a value is built, so the answer holds for the
      // whole value.
      own = rt.onPrototype(key);
      if (id !== -1) {
        kept = -2 - id;
        rt.keepKey(keys, id, key, own);
      }
    }
    if (ids !== null) ids.push(kept);
    const v = take(c, keys);
    if (own) rt.defineOwn(o, key, v);
    else o[key] = v;
  }
  return o;
}

// An object with a shape slot: the first of its shape (`-2 - shape`), whose key ids
// become the shape's, or a later one, made by the shape's builder (when there is one).
function shaped(c, keys, n, shape) {
  if (shape <= -2) {
    // The shape's id and the hash of its keys (src/types/json.rs, `KeyIds::shape`).
    // Kept once the object is read: its first key may be the message's first (id 0),
    // which starts the table again.
    const ids = [];
    const o = members(c, keys, n, ids);
    rt.defineShape(keys, shape, ids);
    return o;
  }
  const b = keys.builders[shape] ?? builder(keys, shape);
  return b !== null ? b(c, keys, take) : members(c, keys, n, null);
}

/**
 * Encoder `c`'s write of json value `x` in its tape form, with `write`; `put` (the generic
 * walk, lib/types/json.js) where issues are collected or strings are positional, and where
 * `write` gives up (then its error, or the value changed while it was written).
 */
function put(c, x, walk) {
  if (c.issues !== null || c.strings !== null) return walk(c, x);
  const end = write(x, c.T, c.i, c.S, c.depth, c.m.maxDepth, (T, need) => {
    c.T = T;
    return c.grow(need);
  }, c.scratch);
  if (end !== BUSY) c.T = J.T;
  if (end >= 0) {
    c.i = end;
    c.S = J.S;
    return;
  }
  walk(c, x);
  if (end === FAIL_CUT) throw changed(c.path());
}

module.exports = { J, BUSY, FAIL, FAIL_CUT, write, changed, take, put };
