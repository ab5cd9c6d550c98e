'use strict';
// json: any value JSON.parse can return (null, boolean, finite number, string, array,
// plain object), self-described (src/types/json.rs has the bytes); decode is deep-equal
// to the input and keeps key order. Anything else (undefined, NaN, a bigint, a Date, a
// function, a cycle) is ERR_SHORN_INVALID with its path. Tape, both ways, one token per
// value: 0 null, 1 false, 2 true, 3 number + the number, 4 string + its length (text
// with the strings), 5 array + count + items, 6 object + count + (key, value)*, and on
// decode 8, an array of numbers only: count + the numbers, no token each. A key is
// its length on encode; on decode a key slot: the id of a key met before in the message
// (in its key table, rt.keyTable), or -1, a key not kept, or -2 - id, a new key, both
// then the key's text slot (src/types/json.rs, KeyIds). On decode an object of 4 to 64
// members has a shape slot after its count: a shape met before, built by `builder`; the
// first object of a shape (its id and the hash of its keys); or -1.

const { pathKey, ShornError } = require('../errors');
const rt = require('#runtime');
// The tape form (lib/json-tape.js): the native back end's; a browser build has none.
const tape = require('#json-tape');

const EXPECTED = 'JSON value (null, boolean, finite number, string, array or plain object)';

function isJson(x, c) {
  switch (typeof x) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(x);
    case 'object':
      if (x === null) return true;
      if (Array.isArray(x)) {
        // A loop, not every(): a hole is undefined, which JSON.parse never returns. The
        // length is read once (fuzz finding J7: a getter appending to the array).
        return c.nest(() => {
          const n = x.length;
          for (let k = 0; k < n; k++) if (!isJson(x[k], c)) return false;
          return true;
        });
      }
      return rt.isPlainObject(x) && c.nest(() => Object.keys(x).every((k) => isJson(x[k], c)));
    default:
      return false;
  }
}

function put(c, x) {
  switch (typeof x) {
    case 'string':
      c.write(4);
      c.string(x);
      return;
    case 'boolean':
      c.write(x ? 2 : 1);
      return;
    case 'number':
      if (!Number.isFinite(x)) throw c.invalid(EXPECTED, x);
      c.write(3);
      c.write(x);
      return;
    case 'object':
      if (x === null) {
        c.write(0);
        return;
      }
      if (Array.isArray(x)) {
        c.enter(x);
        const n = x.length;
        c.write(5);
        c.write(n);
        for (let k = 0; k < n; k++) {
          c.segments.push(k);
          put(c, x[k]);
          c.segments.pop();
        }
        c.depth--;
        return;
      }
      if (rt.isPlainObject(x)) {
        c.enter(x);
        const keys = Object.keys(x);
        c.write(6);
        c.write(keys.length);
        for (const key of keys) {
          c.string(key);
          c.segments.push(key);
          put(c, x[key]);
          c.segments.pop();
        }
        c.depth--;
        return;
      }
      throw c.invalid(EXPECTED, x);
    default:
      throw c.invalid(EXPECTED, x);
  }
}

// An encoder's write of json value `x` (`put` of the type: codecs without generated code,
// hand-offs): the tape writer's (lib/json-tape.js, `put`) in Node, where issues are not
// collected and strings are not positional; else `put`, the walk below. A browser build
// has no tape writer (#json-tape): `put` alone.
const putBytes = tape.put === undefined ? put : (c, x) => tape.put(c, x, put);

module.exports = [
  {
    name: 'json',
    build: () => ({ type: 'json' }),
    expected: () => EXPECTED,
    slots: () => 0,
    variable: true,
    test: (d, x, c) => isJson(x, c),
    // Where issues are collected, a lone surrogate in the value is one at its own path
    // (generic.js, Encoder#string).
    put: (c, d, x) => putBytes(c, x),
    // Copies both ways (issue 37, finding 2): a default's value in a descriptor is the
    // user's object no longer, and each decode of a default gets its own, so what a caller
    // does with a decoded value changes neither the next decode nor the schema.
    toJson: (d, x) => copy(x, 0),
    fromJson: (d, j) => copy(j, 0),
    lower: () => ({ op: 'json' }),
    minBytes: () => 1,
  },
];
module.exports.inspectJson = inspect;

// Deeper than any codec reads (src/program.rs, MAX_MAX_DEPTH is 1000): a cycle, most likely.
const MAX_COPY_DEPTH = 1000;

/** A deep copy of JSON value `x`; what is not JSON is kept as it is, for `test` to refuse. */
function copy(x, depth) {
  if (typeof x !== 'object' || x === null) return x;
  if (depth >= MAX_COPY_DEPTH) {
    throw new ShornError('ERR_SHORN_INVALID', `invalid value: a json value nested deeper than ${MAX_COPY_DEPTH} levels; is it cyclic?`);
  }
  if (Array.isArray(x)) {
    const n = x.length;
    const out = new Array(n);
    for (let k = 0; k < n; k++) out[k] = copy(x[k], depth + 1);
    return out;
  }
  if (!rt.isPlainObject(x)) return x;
  const out = {};
  for (const key of Object.keys(x)) {
    const v = copy(x[key], depth + 1);
    if (key in rt.ObjectPrototype) rt.defineOwn(out, key, v);
    else out[key] = v;
  }
  return out;
}

const MAX_SAFE = 9007199254740991n;
const hex2 = (b) => `0x${b.toString(16).padStart(2, '0')}`;

function inspect(r, d) {
  const at = r.offset;
  const tag = r.u8();
  if (tag <= 0x02) return r.leaf(at, d, tag === 0 ? null : tag === 2);
  if (tag === 0x03) {
    const v = r.float64();
    if (!Number.isFinite(v)) throw r.malformed(at, 'a json number that is not finite');
    if (Number.isSafeInteger(v) && !Object.is(v, -0)) throw r.malformed(at, 'a json integer in the float form');
    return r.leaf(at, d, v);
  }
  if (tag === 0x04) {
    const u = r.varint64();
    const v = (u >> 1n) ^ -(u & 1n);
    if (v > MAX_SAFE || v < -MAX_SAFE) throw r.malformed(at, 'varint out of range for its type');
    if (v >= 0n && v <= 63n) throw r.malformed(at, 'a json integer 0-63 in the long form');
    return r.leaf(at, d, Number(v));
  }
  if (tag >= 0x40 && tag <= 0x7f) return r.leaf(at, d, tag & 0x3f);
  if (tag === 0x05 || (tag >= 0x80 && tag <= 0xbf)) {
    let n = tag & 0x3f;
    if (tag === 0x05) {
      n = r.length('string');
      if (n < 64) throw r.malformed(at, 'a short json string in the long form');
    }
    return r.leaf(at, d, r.utf8(n));
  }
  if (tag === 0x06 || tag === 0x07 || tag >= 0xc0) {
    const object = tag === 0x07 || tag >= 0xe0;
    // An item takes at least its type byte; a member its key's length byte too.
    const min = object ? 2 : 1;
    let n;
    if (tag < 0x08) {
      n = r.count(min);
      if (n < 32) throw r.malformed(at, 'a short json array or object in the long form');
    } else {
      n = tag & 0x1f;
      if (n * min > r.remaining) throw r.truncated(r.offset, n * min - r.remaining);
    }
    r.note(at, d, object ? `json object of ${n} member${n === 1 ? '' : 's'}` : `json array of ${n} item${n === 1 ? '' : 's'}`, n);
    r.enter(at);
    let out;
    if (object) {
      out = {};
      const keys = r.keyOrder();
      for (let k = 0; k < n; k++) {
        const start = r.offset;
        const key = r.utf8(r.length('string'));
        keys.check(key, start);
        r.note(start, d, `key ${JSON.stringify(key)}`, key);
        r.push(pathKey(key));
        const v = inspect(r, d);
        r.pop();
        if (key in rt.ObjectPrototype) rt.defineOwn(out, key, v);
        else out[key] = v;
      }
    } else {
      out = new Array(n);
      for (let k = 0; k < n; k++) {
        r.push(`[${k}]`);
        out[k] = inspect(r, d);
        r.pop();
      }
    }
    r.leave();
    return out;
  }
  throw r.malformed(at, `json type byte ${hex2(tag)}`);
}
