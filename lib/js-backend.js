'use strict';
// The JS back end: encode and decode with no native addon, for Node without a binary
// (an unsupported platform, `--omit=optional`, a bundled server) and for the runtimes
// that cannot load one (issue 39). Same bytes, same errors (code, path, offset) as the
// native core; `compile(schema, { backend: 'js' })` or SHORN_BACKEND=js chooses it.
//
// It is built on the two walks the JS layer already has, not on a new copy of every type:
//
// - encode is the generic marshaller's walk (lib/generic.js, each type's `put`), which
//   checks every value and raises every error JS raises, with a byte sink in place of
//   the tape: what a type's `put` writes (`write`, `write64`, `string`, `blob`) is turned
//   into that type's bytes (docs/FORMAT.md) by the type it is written for. What the core
//   checks on encode (lone surrogates, a string's core format) is found here, and raised
//   after the walk, where the core would raise it.
// - decode is `shorn inspect`'s walk (lib/cli/inspect.js, each type's `inspect`), which
//   reads what the Rust decoder reads in the same order, with its checks, offsets and
//   paths (held to that by the golden vectors), with its rows turned off and the decode
//   budget (`maxDecodedBytes`) estimated as the core estimates it.

const { TYPES } = require('./types');
const { ShornError, makeError } = require('./errors');
const { Encoder } = require('./generic');
const { Inspector } = require('./cli/inspect');
const { constraintsOf } = require('./constraints');
const { FORMATS } = require('./formats');
const rt = require('./runtime');

const def = (d) => TYPES.get(d.type);

// The formats the core checks on encode (src/types/formats.rs): JS leaves them to it.
const CORE_FORMATS = new Set(['email', 'uuid', 'ipv4', 'datetime']);
const coreFormat = (d) => d.pattern === undefined && CORE_FORMATS.has(d.format);

const TWO32 = 4294967296;

// ---- encode ---------------------------------------------------------------------------

/** A growable byte buffer. */
class Sink {
  constructor(size) {
    this.U = new Uint8Array(size);
    this.DV = new DataView(this.U.buffer);
    this.o = 0;
  }

  need(n) {
    if (this.o + n <= this.U.length) return;
    const U = new Uint8Array(Math.max(this.U.length * 2, this.o + n));
    U.set(this.U.subarray(0, this.o));
    this.U = U;
    this.DV = new DataView(U.buffer);
  }

  byte(b) {
    this.need(1);
    this.U[this.o++] = b;
  }

  varint(n) {
    this.need(5);
    const U = this.U;
    let o = this.o;
    while (n > 127) {
      U[o++] = (n & 127) | 128;
      n >>>= 7;
    }
    U[o++] = n;
    this.o = o;
  }

  /** An unsigned integer below 2^64, given as a number (exact below 2^53) or a bigint. */
  varint64(n) {
    if (typeof n === 'number' && n < TWO32) return this.varint(n);
    this.need(10);
    let z = BigInt(n);
    while (z > 127n) {
      this.U[this.o++] = Number(z & 127n) | 128;
      z >>= 7n;
    }
    this.U[this.o++] = Number(z);
  }

  /** A safe integer (or a Date's ms) as a zigzag varint of up to 64 bits. */
  zigzag64(x) {
    if ((x | 0) === x) return this.varint(((x << 1) ^ (x >> 31)) >>> 0);
    if (x <= 2 ** 51 && x >= -(2 ** 51)) return this.varint64(x < 0 ? -2 * x - 1 : 2 * x);
    const b = BigInt(x);
    this.varint64(b < 0n ? -2n * b - 1n : 2n * b);
  }

  float32(x) {
    this.need(4);
    this.DV.setFloat32(this.o, x, true);
    this.o += 4;
  }

  float64(x) {
    this.need(8);
    this.DV.setFloat64(this.o, x, true);
    this.o += 8;
  }

  /** `s` (well formed) as a varint length and its UTF-8. */
  string(s) {
    const n = s.length;
    this.need(5 + 3 * n);
    // Length first as if every unit were one byte; moved if the UTF-8 is longer.
    const at = this.o;
    const head = n < 128 ? 1 : n < 16384 ? 2 : n < 2097152 ? 3 : n < 268435456 ? 4 : 5;
    let o = at + head;
    const U = this.U;
    let k = 0;
    for (; k < n; k++) {
      const ch = s.charCodeAt(k);
      if (ch >= 0x80) break;
      U[o++] = ch;
    }
    if (k < n) o = utf8(s, k, U, o);
    const len = o - at - head;
    const lenBytes = len < 128 ? 1 : len < 16384 ? 2 : len < 2097152 ? 3 : len < 268435456 ? 4 : 5;
    if (lenBytes !== head) U.copyWithin(at + lenBytes, at + head, o);
    this.o = at;
    this.varint(len);
    this.o = at + lenBytes + len;
  }

  bytes(src) {
    this.need(src.length);
    this.U.set(src, this.o);
    this.o += src.length;
  }
}

// Writes `s` from unit `k` as UTF-8 at `o` of `U` (room for 3 bytes a unit); a lone
// surrogate (which the caller has excluded) would be written as its three bytes.
function utf8(s, k, U, o) {
  const n = s.length;
  for (; k < n; k++) {
    let ch = s.charCodeAt(k);
    if (ch < 0x80) U[o++] = ch;
    else if (ch < 0x800) {
      U[o++] = 0xc0 | (ch >> 6);
      U[o++] = 0x80 | (ch & 63);
    } else if (ch >= 0xd800 && ch <= 0xdbff && k + 1 < n && (s.charCodeAt(k + 1) & 0xfc00) === 0xdc00) {
      ch = 0x10000 + ((ch - 0xd800) << 10) + (s.charCodeAt(++k) - 0xdc00);
      U[o++] = 0xf0 | (ch >> 18);
      U[o++] = 0x80 | ((ch >> 12) & 63);
      U[o++] = 0x80 | ((ch >> 6) & 63);
      U[o++] = 0x80 | (ch & 63);
    } else {
      U[o++] = 0xe0 | (ch >> 12);
      U[o++] = 0x80 | ((ch >> 6) & 63);
      U[o++] = 0x80 | (ch & 63);
    }
  }
  return o;
}

const wellFormed =
  typeof String.prototype.isWellFormed === 'function'
    ? (s) => s.isWellFormed()
    : (s) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

// What one type's `put` writes, by the type it writes for (`ByteEncoder.cur`).
const BYTE = new Set(['bool', 'uint8', 'optional', 'nullable']);
const VARINT = new Set(['uint16', 'uint32', 'array', 'record', 'map', 'union', 'discriminatedUnion', 'enum']);

/**
 * The generic marshaller's encoder, writing bytes. Each type's `put` checks its value and
 * writes what the tape would hold; `cur`, the descriptor whose `put` runs, says how.
 */
class ByteEncoder extends Encoder {
  constructor(m, sink) {
    super(m, null, 0, '', null);
    this.sink = sink;
    this.cur = null;
    // The first fault the core would find on encode (it checks after JS): thrown after the walk.
    this.fault = null;
  }

  put(d, x, shown = d) {
    const prev = this.cur;
    this.cur = d;
    if (d.type === 'json') this.json(d, x);
    else def(d).put(this, d, x, shown);
    this.cur = prev;
  }

  write(v) {
    const t = this.cur.type;
    const w = this.sink;
    if (BYTE.has(t)) w.byte(v);
    else if (VARINT.has(t)) w.varint(v);
    else if (t === 'int8') w.byte(v & 255);
    else if (t === 'int16' || t === 'int32') w.varint(((v << 1) ^ (v >> 31)) >>> 0);
    else if (t === 'int' || t === 'date') w.zigzag64(v);
    else if (t === 'float64') w.float64(v);
    else if (t === 'float32') w.float32(v);
    else throw new Error(`shorn: internal error: the JS back end cannot write ${t}`);
  }

  write64(v) {
    this.sink.varint64(this.cur.type === 'int64' ? BigInt.asUintN(64, (v << 1n) ^ (v >> 63n)) : v);
  }

  string(s) {
    if (!wellFormed(s)) {
      this.coreFault(loneSurrogate(this.path(), s));
      return;
    }
    const d = this.cur;
    if (d.type === 'string' && d.format !== undefined && coreFormat(d) && !FORMATS[d.format](s)) {
      const broken = def(d).violations(d, s).find((v) => v.issue === 'invalid_format');
      if (broken !== undefined) this.coreFault(makeError('ERR_SHORN_INVALID', `${this.path()}: expected ${broken.expected}, found ${broken.found}`, undefined, this.path(), broken.issue));
    }
    this.sink.string(s);
  }

  blob(x) {
    const w = this.sink;
    const u = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
    w.varint(this.cur.type === 'bytes' ? u.length : x.length);
    w.bytes(u);
  }

  coreFault(error) {
    if (this.fault === null) this.fault = error;
  }

  /** A json value (docs/FORMAT.md, "json"); its error, if any, is the generic encoder's. */
  json(d, x) {
    const at = this.sink.o;
    if (!this.jsonValue(x, this.depth)) {
      this.sink.o = at;
      const c = new Encoder(this.m, new Float64Array(64), 0, '', []);
      c.scratch = true;
      c.prefix = this.path().slice(1);
      c.depth = this.depth;
      c.late = null;
      c.put(d, x);
      // Written by `put` but not here: a value that changed meanwhile (a getter).
      throw (this.thrown = new ShornError('ERR_SHORN_INVALID', `${this.path()}: invalid value: the json value changed while it was encoded (a getter gave another value the second time)`, { path: this.path() }));
    }
  }

  jsonValue(x, depth) {
    const w = this.sink;
    if (typeof x === 'string') {
      if (!wellFormed(x)) return false;
      const start = w.o;
      w.string(x);
      const len = w.U[start] < 128 ? w.U[start] : -1;
      if (len >= 0 && len < 64) {
        // A short string: its length in the type byte.
        w.U[start] = 0x80 | len;
      } else {
        w.need(1);
        w.U.copyWithin(start + 1, start, w.o);
        w.U[start] = 0x05;
        w.o++;
      }
      return true;
    }
    if (typeof x === 'number') {
      if (Number.isInteger(x) && Number.isSafeInteger(x) && !Object.is(x, -0)) {
        if (x >= 0 && x <= 63) w.byte(0x40 | x);
        else {
          w.byte(0x04);
          w.zigzag64(x);
        }
        return true;
      }
      if (!Number.isFinite(x)) return false;
      w.byte(0x03);
      w.float64(x);
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
    if (depth >= this.m.maxDepth) return false;
    if (Array.isArray(x)) {
      const n = x.length;
      if (n < 32) w.byte(0xc0 | n);
      else {
        w.byte(0x06);
        w.varint(n);
      }
      for (let k = 0; k < n; k++) if (!this.jsonValue(x[k], depth + 1)) return false;
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
      if (!this.jsonValue(x[key], depth + 1)) return false;
    }
    return true;
  }
}

// As the core words a lone surrogate (src/codec/error.rs, LoneSurrogate).
function loneSurrogate(path, x) {
  let k = 0;
  for (; k < x.length; k++) {
    const c = x.charCodeAt(k);
    if (c <= 0xdbff && c >= 0xd800 && (x.charCodeAt(k + 1) & 0xfc00) === 0xdc00) k++;
    else if ((c & 0xf800) === 0xd800) break;
  }
  return new ShornError('ERR_SHORN_INVALID', `${path}: expected a well-formed string, found a lone surrogate at index ${k}`, { path });
}

// ---- decode ---------------------------------------------------------------------------

// src/types/*.rs: the estimated JS heap of decoded values (docs/FORMAT.md, "Limits").
const HEAP_NUMBER = 16;
const HEAP = { string: 40, bytes: 216, date: 96, int64: 32, array: 48, item: 11, object: 24, field: 8, record: 64, entry: 56, map: 208, mapEntry: 40 };
const NUMBERS = new Set(['uint8', 'uint16', 'uint32', 'int8', 'int16', 'int32', 'int', 'float32', 'float64']);
const TYPED = new Set(['float64Array', 'float32Array', 'int32Array', 'uint32Array', 'int16Array', 'uint16Array', 'int8Array']);

/** `heap_cost` of src/types/mod.rs: the estimated JS heap one value of `d` takes. */
function heapCost(d, r) {
  const t = d.type;
  if (NUMBERS.has(t)) return HEAP_NUMBER;
  if (TYPED.has(t) || t === 'bytes') return HEAP.bytes;
  switch (t) {
    case 'int64':
    case 'uint64':
      return HEAP.int64;
    case 'date':
      return HEAP.date;
    case 'string':
      return HEAP.string;
    case 'array':
      return HEAP.array;
    case 'tuple':
      return d.items.reduce((n, item) => n + HEAP.item + elementCost(item, r), HEAP.array);
    case 'object':
      return d.fields.reduce((n, f) => n + HEAP.field + heapCost(f.schema, r), HEAP.object);
    case 'record':
      return HEAP.record;
    case 'map':
      return HEAP.map;
    case 'default':
      return heapCost(d.of, r);
    default:
      return 0;
  }
}

function elementCost(d, r) {
  return NUMBERS.has(d.type) ? 0 : heapCost(d, r);
}

/**
 * `shorn inspect`'s walk as a decoder: no rows; the decode budget estimated as the core
 * does (counts charged when read, strings' text at the end of the message).
 */
class ByteDecoder extends Inspector {
  constructor(bytes, descriptor, limits, budget, costs) {
    super(bytes, descriptor, limits);
    this.budget = budget;
    this.costs = costs;
    this.overrides = costs.overrides;
    this.heap = 0;
    // The decoded text: its UTF-16 units, and whether any is above U+00FF (two bytes each).
    this.units = 0;
    this.wide = false;
  }

  value(d) {
    // One level of recursion: the definition's heap, as the core charges at a call.
    if (d.type === 'recursive') this.charge(this.costs.of(d.schema), this.pos);
    else if (d.type === 'ref') this.charge(this.costs.of(this.target(d).schema), this.pos);
    const v = this.costs.constrained(d) ? this.constrained(d) : def(d).inspect(this, d);
    // A reader of another schema's bytes: the writer's value, converted (lib/evolve.js).
    if (this.overrides !== null) {
      const o = this.overrides.get(d);
      if (o !== undefined) return o.fromValue(v);
    }
    return v;
  }

  leaf(at, d, value) {
    if (typeof value === 'string') {
      this.units += value.length;
      // eslint-disable-next-line no-control-regex
      if (!this.wide && /[^\u0000-\u00ff]/.test(value)) this.wide = true;
      if (d.type === 'json') this.charge(HEAP.string, at);
    } else if (d.type === 'bytes' || TYPED.has(d.type)) {
      this.charge(value.byteLength, at);
    } else if (d.type === 'json' && typeof value === 'number' && !(value >= 0 && value <= 63 && Number.isInteger(value))) {
      this.charge(HEAP_NUMBER, at);
    }
    return value;
  }

  // What the walk notes with a count (an array's, a record's, a map's, a json array's or
  // object's: charged as the core charges it when it reads one) or a key (its text).
  note(at, d, note, what) {
    const t = d.type;
    if (t === 'optional' || t === 'nullable') {
      // A present value: its heap, as the core charges at a presence byte.
      if (note !== 'absent') this.charge(this.costs.of(d.of), at);
    } else if (t === 'union' || t === 'discriminatedUnion') this.charge(this.costs.of(d.variants[what]), at);
    else if (t === 'json' && typeof what === 'number') {
      // A json array or object: its own heap and its items' (src/types/json.rs).
      const object = note.startsWith('json object');
      this.charge(object ? HEAP.record + what * HEAP.entry : HEAP.array + what * HEAP.item, at);
    } else if (typeof what === 'number') this.charge(what * this.costs.per(d), at);
    else if (typeof what === 'string') {
      this.units += what.length;
      // eslint-disable-next-line no-control-regex
      if (!this.wide && /[^\u0000-\u00ff]/.test(what)) this.wide = true;
    }
  }

  row() {}

  charge(cost, at) {
    this.heap += cost;
    if (this.heap > this.budget) {
      throw new ShornError(
        'ERR_SHORN_LIMIT',
        `decoded values of about ${this.heap} bytes, by offset ${at} (${this.path()}), are over the limit of ${this.budget} (maxDecodedBytes)`,
        { offset: at, path: this.path() },
      );
    }
  }
}

// Per descriptor, what the decoder asks often: whether it has constraints, and the cost
// of each item or entry of its counts.
class Costs {
  constructor(overrides) {
    this.overrides = overrides;
    this.flags = new Map();
    this.items = new Map();
    this.heaps = new Map();
  }

  constrained(d) {
    let c = this.flags.get(d);
    if (c === undefined) this.flags.set(d, (c = constraintsOf(d).length > 0));
    return c;
  }

  /** `heapCost(d)`, once per descriptor. */
  of(d) {
    let c = this.heaps.get(d);
    if (c === undefined) this.heaps.set(d, (c = heapCost(d)));
    return c;
  }

  per(d) {
    let c = this.items.get(d);
    if (c === undefined) {
      if (d.type === 'array') c = HEAP.item + elementCost(d.items);
      else if (d.type === 'record') c = HEAP.entry + heapCost(d.values);
      else c = HEAP.mapEntry + heapCost(d.keys) + heapCost(d.values);
      this.items.set(d, c);
    }
    return c;
  }
}

const LIMIT_NAMES = ['maxStringBytes', 'maxBytesLength', 'maxArrayLength'];

/**
 * The functions of a codec on the JS back end: `encode`, `encodeInto`, `decode` and
 * `decodeFrames`, as lib/generic.js's `build` gives them for the native one.
 */
function build(descriptor, m, settings, output) {
  const limits = { maxDepth: settings.maxDepth };
  LIMIT_NAMES.forEach((name, k) => {
    if (settings.limits[k] !== -1) limits[name] = settings.limits[k];
  });
  const costs = new Costs(m.overrides);
  const rootCost = heapCost(descriptor);
  let spare = new Sink(1024);

  function marshal(v) {
    // A sink per call that another (a getter's encode) interrupts.
    const sink = spare ?? new Sink(256);
    spare = null;
    sink.o = 0;
    const depth = m.testDepth;
    m.testDepth = 0;
    try {
      const c = new ByteEncoder(m, sink);
      c.put(descriptor, v);
      if (c.fault !== null) throw c.fault;
      return sink;
    } finally {
      m.testDepth = depth;
      if (sink.U.length <= 1 << 20) spare = sink;
    }
  }

  function decode(bytes) {
    const n = rt.inputLength(bytes);
    if (n < 0) throw rt.notBytes(bytes);
    // A plain view, made through the intrinsics (a subclass's getters never run); a copy
    // of a SharedArrayBuffer's, which TextDecoder refuses (the core copies them too).
    bytes = n === 0 ? new Uint8Array(0) : rt.inputView(bytes, 0, n);
    if (typeof SharedArrayBuffer === 'function' && bytes.buffer instanceof SharedArrayBuffer) bytes = bytes.slice();
    const r = new ByteDecoder(bytes, descriptor, limits, settings.budget, costs);
    r.heap = rootCost;
    const value = r.value(descriptor);
    if (r.remaining !== 0) {
      throw new ShornError('ERR_SHORN_TRAILING', `trailing bytes after the message, from offset ${r.pos}`, { offset: r.pos, path: '$' });
    }
    if (r.deferred !== null) throw r.deferred;
    r.charge(r.wide ? 2 * r.units : r.units, n);
    rt.state.jsHeap = r.heap;
    return value;
  }

  return {
    encode: (v) => output(marshal(v)),
    encodeInto(v, target, offset) {
      const at = rt.targetOffset(target, offset);
      const sink = marshal(v);
      return rt.outputInto(sink.U.subarray(0, sink.o), target, at);
    },
    decode,
  };
}

module.exports = { build, ByteEncoder, ByteDecoder };
