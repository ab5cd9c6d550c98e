'use strict';
// json: any value JSON.parse can return (null, boolean, finite number, string, array,
// plain object), self-described (src/types/json.rs has the bytes); decode is deep-equal
// to the input and keeps key order. Anything else (undefined, NaN, a bigint, a Date, a
// function, a cycle) is ERR_SHORN_INVALID with its path. Tape, both ways, one token per
// value: 0 null, 1 false, 2 true, 3 number + the number, 4 string + its length (text
// with the strings), 5 array + count + items, 6 object + count + (key, value)*. A key is
// its length on encode; on decode a key id: a key met before in this json value (kept
// in `keys` here), or -1, a new key (kept under the next id), or -2, one not kept, both
// then the key's text slot (src/types/json.rs, KeyIds). On decode an object of 4 to 64
// members has a shape slot after its count: a shape met before, built by `builder`; the
// first object of a shape (its id and the hash of its keys); or -1.

const { pathKey, ShornError } = require('../errors');
const rt = require('../runtime');

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

// The keys of one json value met so far, by id: the string, and whether it has to be
// defined rather than assigned (`own`); and its objects' shapes so far, by id: each its
// key ids and their hash, then the function that builds an object of them (`builder`),
// once one is used.
function newKeys() {
  return { names: [], own: [], shapes: [], hashes: [], builders: [] };
}

// Builders of objects by their keys, shared by every json value of codecs that generate
// code (not with `codegen: false`): an object literal of those keys, whose values are
// taken in order. V8 makes a literal's objects with their final hidden class at once; an
// object built by more than ~16 keyed stores goes to dictionary mode instead, slow to
// build and to read. Each is found by the hash of its keys the native side sends with
// the first object of a shape, then its keys are compared. At most MAX_BUILDERS are
// made, so messages of ever new key sets (hostile or not) cost bounded compiling; past
// it, or for keys whose hash an earlier builder has, objects are built by keyed stores.
const BUILDERS = new Map();
const MAX_BUILDERS = 512;
// Objects of this many members have a shape slot (src/types/json.rs, MIN_SHAPE_KEYS and
// MAX_SHAPE_KEYS): fewer are built as fast by keyed stores, more make long builders.
const MIN_SHAPE_KEYS = 4;
const MAX_SHAPE_KEYS = 64;
// Shape ids of a json value are below this (src/types/json.rs, MAX_SHAPES).
const MAX_SHAPES = 256;

// The builder of shape `shape` of a json value, or null.
function builder(keys, shape) {
  const ids = keys.shapes[shape];
  const hash = keys.hashes[shape];
  const found = BUILDERS.get(hash);
  let b = null;
  if (found === undefined) {
    if (BUILDERS.size < MAX_BUILDERS) {
      // Copies, so that a builder kept for the process holds no string of a message (a
      // decoded key may be a slice of its message's text).
      const names = JSON.parse(JSON.stringify(ids.map((id) => keys.names[id])));
      // Each member's key id slot is skipped; `__proto__` is a computed key, which
      // defines an own property as JSON.parse does (a literal's own keys never reach a
      // setter on Object.prototype).
      const members = names.map((k) => `${k === '__proto__' ? '["__proto__"]' : JSON.stringify(k)}: (c.i++, take(c, keys))`);
      b = new Function('c', 'keys', 'take', `return {\n  ${members.join(',\n  ')}\n};`);
      BUILDERS.set(hash, { names, b });
    }
  } else if (sameKeys(found.names, ids, keys.names)) {
    b = found.b;
  }
  keys.builders[shape] = b;
  return b;
}

function sameKeys(names, ids, known) {
  if (names.length !== ids.length) return false;
  for (let k = 0; k < ids.length; k++) if (names[k] !== known[ids[k]]) return false;
  return true;
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
      const n = T[c.i++];
      const a = new Array(n);
      for (let k = 0; k < n; k++) a[k] = take(c, keys);
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

// An object of the next `n` members; `ids`, if not null, gets their key ids.
function members(c, keys, n, ids) {
  const T = c.T;
  const o = {};
  for (let k = 0; k < n; k++) {
    const id = T[c.i++];
    let key;
    let own;
    if (id >= 0) {
      key = keys.names[id];
      own = keys.own[id];
    } else {
      key = c.text();
      // A key Object.prototype has (`__proto__`, or one a polluted prototype gained) is
      // defined, not assigned: assigning would reach its setter, as JSON.parse never
      // does. No user code runs while a value is built, so the answer holds for the
      // whole value.
      own = key in rt.ObjectPrototype;
      if (id === -1) {
        keys.names.push(key);
        keys.own.push(own);
      }
    }
    if (ids !== null) ids.push(id >= 0 ? id : keys.names.length - 1);
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
    const d = -2 - shape;
    const id = d % MAX_SHAPES;
    keys.hashes[id] = (d - id) / MAX_SHAPES;
    return members(c, keys, n, (keys.shapes[id] = []));
  }
  const b = keys.builders[shape] ?? builder(keys, shape);
  return b !== null ? b(c, keys, take) : members(c, keys, n, null);
}

module.exports = [
  {
    name: 'json',
    build: () => ({ type: 'json' }),
    expected: () => EXPECTED,
    slots: () => 0,
    variable: true,
    emitTest: (g, d, x) => `G.test(${g.constant(d)}, ${x})`,
    emitPut(g, d, x, path, room) {
      g.handOffPut(d, x, path);
      g.room(room);
    },
    emitTake: (g, d) => g.handOffTake(d),
    test: (d, x, c) => isJson(x, c),
    put: (c, d, x) => put(c, x),
    take: (c) => take(c, newKeys()),
    // Copies both ways (issue 37, finding 2): a default's value in a descriptor is the
    // user's object no longer, and each decode of a default gets its own, so what a caller
    // does with a decoded value changes neither the next decode nor the schema.
    toJson: (d, x) => copy(x, 0),
    fromJson: (d, j) => copy(j, 0),
    // `shorn inspect` (lib/cli/inspect.js): src/types/json.rs's decode, check for check.
    inspect: (r, d) => inspect(r, d),
    minBytes: () => 1,
  },
];

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
    r.note(at, d, object ? `json object of ${n} member${n === 1 ? '' : 's'}` : `json array of ${n} item${n === 1 ? '' : 's'}`);
    r.enter(at);
    let out;
    if (object) {
      out = {};
      const keys = r.keyOrder();
      for (let k = 0; k < n; k++) {
        const start = r.offset;
        const key = r.utf8(r.length('string'));
        keys.check(key, start);
        r.note(start, d, `key ${JSON.stringify(key)}`);
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
