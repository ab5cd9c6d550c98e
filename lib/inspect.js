'use strict';
// The byte walk of `shorn inspect` (its output is lib/cli/inspect.js) and of the JS back
// end's exact decode (lib/js-backend.js): walks a message's bytes with its schema and
// reports every byte range with the path and value it holds, and a decode error at the
// offset where the native decoder finds it. The walk runs over the schema's lowering
// (lib/lower.js), one entry per operation (INSPECT, below), with each type's `minBytes`
// (lib/types/; src/types/mod.rs, min_size). It reads what the Rust decoder reads, in the same order,
// with the same checks and the same error offsets and paths (the tests hold it to that on
// every golden vector): src/codec/reader.rs and varint.rs for the primitives, src/types/
// for the rest. It does not estimate the decode budget (maxDecodedBytes) nor the total
// text limit; the native decoder, run beside it, reports those.

const { TYPES } = require('./types');
const { ShornError, ISSUE, pathKey } = require('./errors');
const { analyze, walk } = require('./walk');
const { constraintsOf } = require('./constraints');
const { FORMATS } = require('./formats');
const { codePoints, patternOf } = require('./types/string');
const { lowering } = require('./lower');
const rt = require('#runtime');
const { tagIndex, tagOf } = require('./types/union');
const { keyKind } = require('./types/map');
const { inspectJson } = require('./types/json');
const { arrayIndex } = require('./closures');

// The limits a decode checks (src/program.rs, Limits), as compile() takes them.
const DEFAULT_LIMITS = Object.freeze({
  maxStringBytes: 536870888,
  maxBytesLength: 2147483647,
  maxArrayLength: 134217727,
  maxDepth: 128,
});
const LIMIT_OF = { string: 'maxStringBytes', bytes: 'maxBytesLength', array: 'maxArrayLength' };
const LIMIT_NAME = { string: 'string length', bytes: 'bytes length', array: 'item count' };

// A fatal decoder: invalid UTF-8, encoded surrogates and overlong forms throw, as the
// native decoder rejects them; ignoreBOM keeps a leading U+FEFF as the character it is.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// The formats JS checks on decode (the core checks the others: src/types/formats.rs).
const JS_FORMATS = new Set(['url', 'ipv6']);

// A string as messages show it (lib/errors.js, describe).
const describeString = (s) => `string ${JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s)}`;

/** One decode error found by the walk: code, offset, path and a message. */
function walkError(code, offset, path, message) {
  return new ShornError(code, message, { offset, path });
}

// Keys of a record or a json object must be in the order JS keeps an object's keys, each
// once (src/types/keys.rs, Keys::Record): array-index keys first, ascending, then names.
class KeyOrder {
  constructor(r) {
    this.r = r;
    this.last = null;
    this.named = false;
    this.seen = new Set();
  }

  check(key, at) {
    const index = arrayIndex(key);
    if (index >= 0) {
      if (this.named || (this.last !== null && index <= this.last)) {
        throw this.r.malformed(at, this.last === index ? 'a key appears twice' : 'keys out of order (array-index keys must come first, ascending)');
      }
      this.last = index;
      return;
    }
    this.named = true;
    if (this.seen.has(key)) throw this.r.malformed(at, 'a key appears twice');
    this.seen.add(key);
  }
}

// What the walk needs to know of a schema, worked out once per descriptor: `inspect
// --stream` walks every frame with one schema, and analysing it again for each of 2
// million empty frames took most of 22.6 s (issue 37, finding 11).
const ANALYSES = new WeakMap();

function analysisOf(descriptor, r) {
  let a = ANALYSES.get(descriptor);
  if (a === undefined) {
    const info = analyze(descriptor);
    r.refs = info.refs;
    a = { refs: info.refs, paths: info.paths, sizes: defSizes(descriptor, r), lowering: null };
    ANALYSES.set(descriptor, a);
  }
  return a;
}

// The schema's lowering (lib/lower.js), which the walk runs over (INSPECT), made on first
// use and kept with the analysis: the sizes are the walk's own, and the enum and variant
// indexes the lowering holds for the other back ends are made here as the marshaller
// makes them.
function loweringOf(a) {
  if (a.lowering === null) {
    const sizes = sizesOf(null, a.refs, a.sizes);
    const m = {
      index: (d) => new Map(d.values.map((v, k) => [v, k])),
      tagIndex,
      target: (ref) => a.refs.get(ref),
    };
    a.lowering = lowering(m, sizes);
  }
  return a.lowering;
}

/** The reader the byte walk (INSPECT, below) works with. */
class Inspector {
  constructor(bytes, descriptor, limits) {
    this.bytes = bytes;
    this.dataView = null; // made by the first float read: most frames have none
    this.pos = 0;
    this.limits = limits === undefined ? DEFAULT_LIMITS : { ...DEFAULT_LIMITS, ...limits };
    this.depth = 0;
    this.segments = [];
    this.rows = [];
    // With `onRow`, each row goes there as it is found instead of into `rows`.
    this.onRow = null;
    this.deferred = null;
    const a = analysisOf(descriptor, this);
    this.analysis = a;
    this.refs = a.refs;
    this.paths = a.paths;
    this.sizes = a.sizes;
  }

  get offset() {
    return this.pos;
  }

  get view() {
    this.dataView ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    return this.dataView;
  }

  get remaining() {
    return this.bytes.length - this.pos;
  }

  // ---- paths and errors ---------------------------------------------------------------

  path() {
    return `$${this.segments.join('')}`;
  }

  push(segment) {
    this.segments.push(segment);
  }

  pop() {
    this.segments.pop();
  }

  field(name) {
    this.segments.push(pathKey(name));
  }

  truncated(at, needed = 1) {
    return walkError('ERR_SHORN_TRUNCATED', at, this.path(), `truncated input: ${needed} more byte(s) needed at offset ${at} (${this.path()})`);
  }

  malformed(at, what) {
    return walkError('ERR_SHORN_MALFORMED', at, this.path(), `malformed input at offset ${at} (${this.path()}): ${what}`);
  }

  // Worded as src/codec/error.rs words it, ending with the option that sets the limit.
  limit(at, what, declared, limit, option) {
    return walkError('ERR_SHORN_LIMIT', at, this.path(), `${what} ${declared} at offset ${at} (${this.path()}) is over the limit of ${limit} (${option})`);
  }

  /**
   * An error JS finds only after the native decode has read every byte (a Map whose keys
   * only JS can compare): kept, and raised at the end unless the bytes fail first.
   */
  defer(error) {
    if (this.deferred === null) this.deferred = error;
  }

  // ---- primitives (src/codec/reader.rs, varint.rs) --------------------------------------

  u8() {
    if (this.pos >= this.bytes.length) throw this.truncated(this.pos);
    return this.bytes[this.pos++];
  }

  /** A varint of at most 32 bits, as a number. */
  varint() {
    const at = this.pos;
    let value = 0;
    for (let i = 0; i < 5; i++) {
      if (this.pos >= this.bytes.length) throw this.truncated(at);
      const b = this.bytes[this.pos];
      if (i === 4 && b > 0x0f) throw this.malformed(at, 'varint out of range for its type');
      value += (b & 0x7f) * 2 ** (7 * i);
      this.pos++;
      if (b < 0x80) {
        if (b === 0 && i > 0) throw this.malformed(at, 'overlong varint');
        return value;
      }
    }
    throw new Error('unreachable: the fifth byte ends the varint or is rejected');
  }

  /** A varint of at most 64 bits, as a bigint. */
  varint64() {
    const at = this.pos;
    let value = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.bytes.length) throw this.truncated(at);
      const b = this.bytes[this.pos];
      if (i === 9 && b > 0x01) throw this.malformed(at, 'varint out of range for its type');
      value |= BigInt(b & 0x7f) << BigInt(7 * i);
      this.pos++;
      if (b < 0x80) {
        if (b === 0 && i > 0) throw this.malformed(at, 'overlong varint');
        return value;
      }
    }
    throw new Error('unreachable: the tenth byte ends the varint or is rejected');
  }

  /** `n` bytes (a view of the input), after checking they are there. */
  take(n) {
    if (n > this.remaining) throw this.truncated(this.pos, n - this.remaining);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  float32() {
    const at = this.pos;
    this.take(4);
    return this.view.getFloat32(at, true);
  }

  float64() {
    const at = this.pos;
    this.take(8);
    return this.view.getFloat64(at, true);
  }

  /** `n` bytes of UTF-8, validated as the native decoder does. */
  utf8(n) {
    const at = this.pos;
    const bytes = this.take(n);
    try {
      return utf8.decode(bytes);
    } catch {
      throw this.malformed(at, 'invalid UTF-8 in a string');
    }
  }

  /** A length or count of `kind` ('string', 'bytes', 'array'), checked against its limit. */
  length(kind) {
    const at = this.pos;
    const n = this.varint();
    const limit = this.limits[LIMIT_OF[kind]];
    if (n > limit) throw this.limit(at, LIMIT_NAME[kind], n, limit, LIMIT_OF[kind]);
    return n;
  }

  /** A count of items taking at least `minItemBytes` each, checked against the input. */
  count(minItemBytes) {
    const n = this.length('array');
    const needed = n * minItemBytes;
    if (needed > this.remaining) throw this.truncated(this.pos, needed - this.remaining);
    return n;
  }

  /** One level deeper (a recursive type, a json array or object) at `at`. */
  enter(at) {
    if (this.depth >= this.limits.maxDepth) throw this.limit(at, 'nesting depth', this.depth + 1, this.limits.maxDepth, 'maxDepth');
    this.depth++;
  }

  leave() {
    this.depth--;
  }

  keyOrder() {
    return new KeyOrder(this);
  }

  // ---- the schema -----------------------------------------------------------------------

  /** Reads one value of `d`; returns it as the decoder gives it. */
  value(d) {
    if (constraintsOf(d).length === 0) return this.own(d);
    return this.constrained(d);
  }

  /** Reads one value of `d` by its operation (INSPECT), its constraints left to `value`. */
  own(d) {
    const op = loweringOf(this.analysis).node(d);
    return INSPECT[op.op](this, op);
  }

  // ---- constraints (docs/FORMAT.md, "Constraints"), where the decoder checks them ------

  /**
   * A value of `d` and its constraints: a count before the items are read (the decoder's
   * Count step), a leaf once it is read (its Checked step), and a pattern or a url or
   * ipv6 format only after the whole message, as JS checks those (deferred).
   */
  constrained(d) {
    const at = this.pos;
    if (d.type === 'array' || d.type === 'record' || d.type === 'map') {
      const n = this.peekVarint();
      const [min, max, unit] = d.type === 'array' ? [d.minItems ?? 0, d.maxItems ?? Infinity, 'item'] : [0, d.maxEntries, 'entry'];
      if (n !== null) this.checkCount(at, d.type, unit, n, min, max);
      return this.own(d);
    }
    const value = this.own(d);
    const found = (v) => (typeof v === 'bigint' ? String(v) : Number.isNaN(v) ? 'NaN' : String(v));
    if (d.type === 'string') {
      this.checkCount(at, 'string', 'code point', codePoints(value), d.minLength ?? 0, d.maxLength ?? Infinity);
      if (d.format !== undefined && !FORMATS[d.format](value)) {
        const error = this.invalid(at, `expected string of format ${d.format}, found ${describeString(value)}`, 'invalid_format');
        if (JS_FORMATS.has(d.format)) this.defer(error);
        else throw error;
      }
      if (d.pattern !== undefined && !patternOf(d).test(value)) {
        this.defer(this.invalid(at, `expected string matching /${d.pattern}/, found ${describeString(value)}`, 'invalid_format'));
      }
    } else if (d.type === 'bytes') {
      this.checkCount(at, 'bytes', 'byte', value.length, d.minLength ?? 0, d.maxLength ?? Infinity);
    } else {
      // Numbers: bounds (bigint ones as decimal strings), then the divisor; NaN is within none.
      const big = typeof value === 'bigint';
      const as = (b) => (b === undefined ? undefined : big ? BigInt(b) : b);
      const [min, max, of] = [as(d.min), as(d.max), as(d.multipleOf)];
      if (min !== undefined && !(value >= min)) throw this.invalid(at, `expected ${d.type} of at least ${found(min)}, found ${found(value)}`, 'too_small');
      if (max !== undefined && !(value <= max)) throw this.invalid(at, `expected ${d.type} of at most ${found(max)}, found ${found(value)}`, 'too_big');
      if (of !== undefined && value % of !== (big ? 0n : 0)) throw this.invalid(at, `expected ${d.type} that is a multiple of ${found(of)}, found ${found(value)}`, 'not_multiple_of');
    }
    return value;
  }

  /** The varint at the current position without reading it, or null if it is not one. */
  peekVarint() {
    const at = this.pos;
    try {
      return this.varint();
    } catch (e) {
      if (!(e instanceof ShornError)) throw e;
      return null;
    } finally {
      this.pos = at;
    }
  }

  checkCount(at, what, unit, n, min, max) {
    const units = (k) => `${k} ${k === 1 ? unit : unit === 'entry' ? 'entries' : `${unit}s`}`;
    if (n < min) throw this.invalid(at, `expected ${what} of at least ${units(min)}, found ${units(n)}`, 'too_small');
    if (max !== undefined && n > max) throw this.invalid(at, `expected ${what} of at most ${units(max)}, found ${units(n)}`, 'too_big');
  }

  // `issue`: the constraint's issue code (`codec.safeDecode` reports it).
  invalid(at, what, issue) {
    const error = walkError('ERR_SHORN_INVALID', at, this.path(), `invalid value at offset ${at} (${this.path()}): ${what}`);
    error[ISSUE] = issue;
    return error;
  }

  minBytes(d) {
    return TYPES.get(d.type).minBytes(d, this);
  }

  target(ref) {
    return this.refs.get(ref);
  }

  /** The schema path of `d` (`[]` for any item), as errors found in JS name it. */
  staticPath(d) {
    return this.paths.get(d);
  }

  /** The fewest bytes of recursive definition `d`. */
  defSize(d) {
    return this.sizes.get(d) || 0;
  }

  // ---- what the walk reports ------------------------------------------------------------

  /** A value of `d` read from `at` to here; returns the value. */
  leaf(at, d, value) {
    this.row({ offset: at, end: this.pos, path: this.path(), d, value, note: null });
    return value;
  }

  /** Bytes from `at` to here that say something about the value at this path. */
  note(at, d, note) {
    this.row({ offset: at, end: this.pos, path: this.path(), d, value: undefined, note });
  }

  row(row) {
    if (this.onRow === null) this.rows.push(row);
    else this.onRow(row);
  }
}

// The fewest bytes of each recursive definition, to a fixed point (src/types/recursive.rs,
// resolve): every definition starts at 0 and only grows.
/**
 * The fewest bytes a value of each descriptor of schema `descriptor` takes (`minBytes`),
 * as the walk reckons them, without the rest of its analysis: for a lowering (lib/lower.js)
 * made where the schema's analysis (lib/walk.js, `analyze`: `refs`) is at hand. The sizes
 * of recursive definitions are `known` (the walk's analysis has them: `loweringOf`), or
 * worked out when one is first asked for.
 */
function sizesOf(descriptor, refs, known = null) {
  const r = {
    refs,
    sizes: known,
    minBytes: (d) => TYPES.get(d.type).minBytes(d, r),
    defSize(d) {
      if (r.sizes === null) defSizes(descriptor, r);
      return r.sizes.get(d) || 0;
    },
    target: (ref) => refs.get(ref),
  };
  return r;
}

function defSizes(descriptor, r) {
  const defs = [];
  walk(descriptor, (d) => {
    if (d && d.type === 'recursive') defs.push(d);
  });
  const sizes = new Map(defs.map((d) => [d, 0]));
  r.sizes = sizes;
  for (let round = 0; round < 64; round++) {
    let changed = false;
    for (const d of defs) {
      const size = r.minBytes(d.schema);
      if (size !== sizes.get(d)) {
        sizes.set(d, size);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return sizes;
}

// ---- the walk of each operation of the lowering -------------------------------------------
//
// INSPECT[op.op](r, op) reads one value of `op` at the reader's position, with the checks
// the Rust decoder makes (src/types/*.rs), and reports its rows (`r.leaf`, `r.note`);
// returns the value as decode gives it. Children are read by `r.value(child.d)`, which
// adds the child's constraints.

// Integers as src/types/integer.rs reads them, with the range checks of decode.
const OUT_OF_RANGE = 'varint out of range for its type';
const unzigzag = (u) => (u >>> 1) ^ -(u & 1);
const INTEGERS = {
  uint8: (r) => r.u8(),
  int8: (r) => (r.u8() << 24) >> 24,
  uint16(r, at) {
    const v = r.varint();
    if (v > 65535) throw r.malformed(at, OUT_OF_RANGE);
    return v;
  },
  uint32: (r) => r.varint(),
  int16(r, at) {
    const v = unzigzag(r.varint());
    if (v < -32768 || v > 32767) throw r.malformed(at, OUT_OF_RANGE);
    return v;
  },
  int32: (r) => unzigzag(r.varint()),
  int(r, at) {
    const u = r.varint64();
    const v = (u >> 1n) ^ -(u & 1n);
    if (v > 9007199254740991n || v < -9007199254740991n) throw r.malformed(at, OUT_OF_RANGE);
    return Number(v);
  },
};

function inspectInteger(r, op) {
  const at = r.offset;
  return r.leaf(at, op.d, INTEGERS[op.op](r, at));
}

function inspectFloat(r, op) {
  const at = r.offset;
  return r.leaf(at, op.d, op.op === 'float32' ? r.float32() : r.float64());
}

// A zigzag varint64 (int64) or a varint64 (uint64), as a bigint.
function inspectInt64(r, op) {
  const at = r.offset;
  const u = r.varint64();
  return r.leaf(at, op.d, op.op === 'int64' ? (u >> 1n) ^ -(u & 1n) : u);
}

// A variant index below the number of variants (src/types/union.rs, read_index).
function readVariant(r, op) {
  const at = r.offset;
  const k = r.varint();
  if (k >= op.variants.length) throw r.malformed(at, `union variant ${k} out of range (the union has ${op.variants.length} variants)`);
  return k;
}

const INSPECT = {
  bool(r, op) {
    const at = r.offset;
    const b = r.u8();
    if (b > 1) throw r.malformed(at, `bool byte 0x${b.toString(16).padStart(2, '0')} (expected 0x00 or 0x01)`);
    return r.leaf(at, op.d, b === 1);
  },
  uint8: inspectInteger,
  uint16: inspectInteger,
  uint32: inspectInteger,
  int8: inspectInteger,
  int16: inspectInteger,
  int32: inspectInteger,
  int: inspectInteger,
  float32: inspectFloat,
  float64: inspectFloat,
  int64: inspectInt64,
  uint64: inspectInt64,
  // A zigzag varint64 within ±8.64e15 ms.
  date(r, op) {
    const at = r.offset;
    const u = r.varint64();
    const ms = (u >> 1n) ^ -(u & 1n);
    if (ms > 8640000000000000n || ms < -8640000000000000n) throw r.malformed(at, 'varint out of range for its type');
    return r.leaf(at, op.d, new Date(Number(ms)));
  },
  // A length within maxBytesLength, then the bytes.
  bytes(r, op) {
    const at = r.offset;
    const n = r.length('bytes');
    return r.leaf(at, op.d, Uint8Array.from(r.take(n)));
  },
  // A count within maxArrayLength, then the elements, little-endian.
  typed(r, op) {
    const at = r.offset;
    const n = r.length('array');
    const bytes = r.take(n * op.Class.BYTES_PER_ELEMENT);
    const out = new op.Class(n);
    new Uint8Array(out.buffer).set(bytes);
    return r.leaf(at, op.d, out);
  },
  // A varint index below the number of values.
  enum(r, op) {
    const at = r.offset;
    const k = r.varint();
    if (k >= op.values.length) throw r.malformed(at, `enum index ${k} out of range (the enum has ${op.values.length} values)`);
    return r.leaf(at, op.d, op.values[k]);
  },
  // No bytes, the value is in the schema.
  const: (r, op) => r.leaf(r.offset, op.d, op.value),
  // A length within maxStringBytes, valid UTF-8.
  string(r, op) {
    const at = r.offset;
    const n = r.length('string');
    return r.leaf(at, op.d, r.utf8(n));
  },
  // src/types/json.rs's decode, check for check.
  json: (r, op) => inspectJson(r, op.d),
  // One level deeper, then the definition's schema.
  call(r, op) {
    r.enter(r.offset);
    const v = r.value(op.def.schema);
    r.leave();
    return v;
  },
  // The presence byte, 0 or 1, then the value.
  presence(r, op) {
    const at = r.offset;
    const b = r.u8();
    if (b > 1) throw r.malformed(at, `presence byte 0x${b.toString(16).padStart(2, '0')} (expected 0x00 or 0x01)`);
    const nullable = op.absent === null;
    if (b === 0) {
      if (nullable) return r.leaf(at, op.d, null);
      r.note(at, op.d, 'absent');
      return undefined;
    }
    r.note(at, op.d, nullable ? 'not null' : 'present');
    return r.value(op.of.d);
  },
  // On the wire, its type.
  default: (r, op) => r.value(op.of.d),
  tuple(r, op) {
    return op.items.map((item, k) => {
      r.push(`[${k}]`);
      const v = r.value(item.d);
      r.pop();
      return v;
    });
  },
  // A count (each item takes its fewest bytes at least), then the items.
  array(r, op) {
    const at = r.offset;
    const n = r.count(r.minBytes(op.items.d));
    r.note(at, op.d, `array of ${n} item${n === 1 ? '' : 's'}`, n);
    const a = [];
    for (let k = 0; k < n; k++) {
      r.push(`[${k}]`);
      a.push(r.value(op.items.d));
      r.pop();
    }
    return a;
  },
  // Each field in schema order; an absent optional one is left out.
  object(r, op) {
    const o = {};
    for (const f of op.fields) {
      r.field(f.name);
      const v = r.value(f.d);
      r.pop();
      if (v !== undefined) rt.defineOwn(o, f.name, v);
    }
    return o;
  },
  // A count (an entry takes its key's length byte and its value's bytes at least), then
  // per entry a key, in the order JS keeps an object's keys and never twice (errors at the
  // record's path), and its value (at the key's path).
  record(r, op) {
    const at = r.offset;
    const n = r.count(1 + r.minBytes(op.values.d));
    r.note(at, op.d, `record of ${n} entr${n === 1 ? 'y' : 'ies'}`, n);
    const keys = r.keyOrder();
    const o = {};
    for (let k = 0; k < n; k++) {
      const start = r.offset;
      const key = r.utf8(r.length('string'));
      keys.check(key, start);
      r.note(start, op.d, `key ${JSON.stringify(key)}`, key);
      r.push(pathKey(key));
      const v = r.value(op.values.d);
      r.pop();
      if (key in rt.ObjectPrototype) rt.defineOwn(o, key, v);
      else o[key] = v;
    }
    return o;
  },
  // A count, then per entry a key (at `[k][0]`) and a value (at `[k][1]`). Repeated keys:
  // those decode compares by their bytes or as floats fail at the key (src/types/keys.rs);
  // keys only JS can compare (unions, json) fail at the count, with the map's schema path,
  // once the whole message is read, as decode finds them.
  map(r, op) {
    const d = op.d;
    const at = r.offset;
    const n = r.count(Math.max(1, r.minBytes(op.keys.d) + r.minBytes(op.values.d)));
    r.note(at, d, `map of ${n} entr${n === 1 ? 'y' : 'ies'}`, n);
    const kind = keyKind(op.keys.d, r);
    const seen = new Set();
    const m = new Map();
    for (let k = 0; k < n; k++) {
      const start = r.offset;
      r.push(`[${k}][0]`);
      const key = r.value(op.keys.d);
      if (kind === 'float' && Object.is(key, -0)) throw r.malformed(start, '-0 as a map key (a Map holds it as 0)');
      if ((kind === 'bytes' || kind === 'float') && seen.has(key)) throw r.malformed(start, 'a key appears twice');
      seen.add(key);
      r.pop();
      r.push(`[${k}][1]`);
      m.set(key, r.value(op.values.d));
      r.pop();
    }
    if (m.size !== n) r.defer(rt.repeatedKey(at, r.staticPath(d)));
    return m;
  },
  // The variant index, then the variant.
  union(r, op) {
    const at = r.offset;
    const k = readVariant(r, op);
    r.note(at, op.d, `variant ${k} of ${op.variants.length}`, k);
    return r.value(op.variants[k].d);
  },
  // The variant index, then its fields.
  tagged(r, op) {
    const at = r.offset;
    const k = readVariant(r, op);
    const variant = op.variants[k].d;
    r.note(at, op.d, `variant ${k}, ${JSON.stringify(op.key)} = ${JSON.stringify(tagOf(variant, op.key))}`, k);
    return r.value(variant);
  },
};

module.exports = { walkError, Inspector, sizesOf, INSPECT, DEFAULT_LIMITS };
