'use strict';
// `shorn infer`: a schema that fits every sample, written as a careful person would write
// it by hand (docs/CLI.md, "infer", lists the rules and the options that steer them).
// Works on the list of all values seen at each place of the samples: a place's values
// decide its type, then the values inside them decide their places' types, one level at
// a time. Builds descriptors with `t`, so the result is what `t.*` would have built.

const { t, TYPES } = require('../types');

const DEFAULTS = {
  enums: true,
  enumMax: 16, // most distinct strings an enum may have
  enumLength: 64, // longest string an enum may hold (longer ones are text, not symbols)
  literals: true,
  literalMin: 3, // samples that must agree before a constant becomes a literal
  dates: true,
  int64: true,
  float32: false,
  tuples: true,
  tupleMax: 8, // longest fixed-length array that becomes a tuple
  tupleMin: 4, // arrays of one length (and one kind of item) needed for a tuple
  typedArrays: true,
  typedMin: 64, // mean length from which all-number arrays become typed arrays
  records: true,
  recordMin: 256, // distinct keys that make any object a record
  unions: true,
  unionMax: 32, // most variants of a discriminated union
  tags: [], // more field names to try as tags
  maxDepth: 32, // deeper values are t.json()
};

// Keys that stand for ids: numbers, UUIDs, long hex hashes.
const ID_KEY = /^(?:-?\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})$/i;
// A Date's toISOString form exactly, so decode writes back the same string.
const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
// What an enum value or a union tag looks like: a word or code, not text (no spaces), not
// a number or a hex colour (which start with a digit).
const SYMBOL = /^[A-Za-z_$@][\w$@.:/+-]*$/;
// Field names that say which kind of object this is: only these (and names given with
// --tag) are tried as tags. Any field that identifies an object (a user's screen_name)
// also "splits the shapes" where the samples repeat objects, so the name must say it.
const TAG_NAMES = new Set(['type', 'kind', 'tag', 'event', 'op', 'action', 'object', 'variant', 'status', '__typename']);
const TAG_LIKE = /(?:^|[_@$-])(?:type|kind)$|[a-z](?:Type|Kind)$/;

const KINDS = ['boolean', 'number', 'string', 'array', 'object'];

// compile refuses descriptors nested deeper than this (src/types/mod.rs, MAX_SCHEMA_DEPTH),
// counting every node: an optional field of a nullable union of objects is four levels. A
// place whose type could reach it is t.json() (the deepest a place's own nodes go: a
// nullable union, the kind's type, an optional in a discriminated union's variant, a field).
const MAX_SCHEMA_DEPTH = 64;
const PLACE_LEVELS = 5;
// The deepest json value a codec reads with compile's default maxDepth (src/program.rs,
// DEFAULT_MAX_DEPTH): arrays and objects inside one another, the outermost counted.
const MAX_JSON_DEPTH = 128;

/** Samples no schema can take (exit 1 in the CLI): the message says why, the hint what to do. */
class InferError extends Error {
  constructor(message, hint) {
    super(message);
    this.hint = hint;
  }

  get name() {
    return 'InferError';
  }
}

/**
 * The deepest nesting of arrays and objects among `values` (a scalar is 0, `[[1]]` 2),
 * walked without recursion, so a sample of any depth costs no stack.
 */
function jsonDepth(values) {
  let max = 0;
  const stack = [];
  for (const v of values) if (v !== null && typeof v === 'object') stack.push(v, 1);
  while (stack.length > 0) {
    const depth = stack.pop();
    const v = stack.pop();
    if (depth > max) max = depth;
    const items = Array.isArray(v) ? v : Object.values(v);
    for (const x of items) if (x !== null && typeof x === 'object') stack.push(x, depth + 1);
  }
  return max;
}

function kindOf(x) {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'array';
  return typeof x;
}

/** The fewest bytes a value of `d` takes (the types' own `minBytes`). */
function minBytes(d) {
  return TYPES.get(d.type).minBytes(d, { minBytes, defSize: () => 0, target: () => null });
}

class Inference {
  constructor(options) {
    this.o = { ...DEFAULTS, ...options };
    // descriptor -> a short note on why it was chosen (comments in --ts output).
    this.notes = new Map();
  }

  note(d, text) {
    this.notes.set(d, text);
    return d;
  }

  /**
   * The type of a place holding `values` (JSON values, at least one). `widen`: no
   * literals and no t.null(), so every value takes at least a byte (array items must).
   * `depth` counts the arrays and objects around the place (--max-depth bounds it), and
   * `level` the descriptors around its type (compile's MAX_SCHEMA_DEPTH bounds it).
   */
  place(values, depth, widen, level) {
    if (depth > this.o.maxDepth) return this.json(values, `nested deeper than ${this.o.maxDepth} levels`);
    if (level + PLACE_LEVELS > MAX_SCHEMA_DEPTH) return this.json(values, `the schema would nest deeper than ${MAX_SCHEMA_DEPTH} levels (compile's limit)`);
    const byKind = { boolean: [], number: [], string: [], array: [], object: [] };
    let nulls = 0;
    for (const v of values) {
      if (v === null) nulls++;
      else byKind[kindOf(v)].push(v);
    }
    const kinds = KINDS.filter((k) => byKind[k].length > 0);
    if (kinds.length === 0) return widen ? this.note(t.json(), 'always null') : this.note(t.null(), 'always null');
    // The kind's type sits inside t.nullable() and t.union() where there are some.
    const kindLevel = level + (nulls > 0 ? 1 : 0) + (kinds.length > 1 ? 1 : 0);
    const types = kinds.map((k) => this[k](byKind[k], depth, widen, kindLevel));
    if (types.some((d) => d.type === 'json')) return this.json(values, 'mixed values');
    let d = types.length === 1 ? types[0] : t.union(types);
    if (nulls > 0) d = t.nullable(d);
    return d;
  }

  /**
   * t.json() for a place holding `values`, which a codec must then read as json: refused
   * when one nests deeper than a codec reads json (issue 37, finding 13: a 100,000-deep
   * sample gave a schema that refused that very sample).
   */
  json(values, why) {
    const deepest = jsonDepth(values);
    if (deepest > MAX_JSON_DEPTH) {
      throw new InferError(
        `a sample nests arrays and objects ${deepest.toLocaleString('en-US')} levels deep where the schema must be t.json(), and a codec reads t.json() values at most ${MAX_JSON_DEPTH} levels deep (compile's maxDepth): no schema would take that sample`,
        `a place is t.json() below --max-depth (${this.o.maxDepth}) levels, below ${MAX_SCHEMA_DEPTH} levels of schema (compile's limit), or where its values mix kinds; leave out or flatten the samples that nest that deep`,
      );
    }
    return this.note(t.json(), why);
  }

  boolean() {
    return t.bool();
  }

  // A number that is the same in every sample is more often a coincidence of the samples
  // (a count of 0, a size) than a constant: no literals for numbers.
  number(nums) {
    const o = this.o;
    let min = Infinity;
    let max = -Infinity;
    let integers = true;
    let safe = true;
    let float32 = true;
    for (const n of nums) {
      if (n < min) min = n;
      if (n > max) max = n;
      if (!Number.isInteger(n) || Object.is(n, -0)) integers = false;
      else if (!Number.isSafeInteger(n)) safe = false;
      if (float32 && Math.fround(n) !== n) float32 = false;
    }
    if (integers && safe) return integerType(min, max);
    // JSON.parse has rounded these, so the bounds take the doubles that the extremes
    // round to (2^64 - 1 parses as 2^64); encode reads them exactly, and names any value
    // that really is out of range.
    if (integers && o.int64 && min >= -(2 ** 63) && max <= 2 ** 64 && (min >= 0 || max <= 2 ** 63)) {
      return this.note(min >= 0 ? t.uint64() : t.int64(), 'integers beyond 2^53: a 64-bit integer, read and written exactly (JSON.parse rounds them; decode --int64-as-string writes strings)');
    }
    if (integers) return this.note(t.float64(), 'integers beyond 2^53, kept as the doubles JSON.parse gives');
    return o.float32 && float32 ? t.float32() : t.float64();
  }

  string(strs, depth, widen) {
    const o = this.o;
    const first = strs[0];
    const same = strs.every((s) => s === first);
    if (same && !widen && o.literals && strs.length >= o.literalMin) return this.note(t.literal(first), `always this (${strs.length} samples)`);
    if (o.dates && strs.every((s) => ISO_DATE.test(s) && isoDate(s))) return this.note(t.date(), 'ISO dates');
    if (o.enums && strs.length >= 2) {
      const distinct = new Set();
      let short = true;
      for (const s of strs) {
        if (s.length > o.enumLength || !SYMBOL.test(s)) {
          short = false;
          break;
        }
        distinct.add(s);
        if (distinct.size > o.enumMax) break;
      }
      const n = distinct.size;
      // One value is an enum only where a literal cannot stand (array items must take a byte).
      // Each value seen four times on average: fewer repeats say little about an open set.
      const fits = short && n <= o.enumMax && strs.length >= 4 * n && (n >= 2 || (widen && strs.length >= o.literalMin));
      if (fits) return this.note(t.enum([...distinct]), `${n} distinct in ${strs.length} samples`);
    }
    return t.string();
  }

  array(arrs, depth, widen, level) {
    const o = this.o;
    let total = 0;
    let minLength = Infinity;
    let maxLength = 0;
    for (const a of arrs) {
      total += a.length;
      if (a.length < minLength) minLength = a.length;
      if (a.length > maxLength) maxLength = a.length;
    }
    if (total === 0) return this.note(t.array(t.json()), 'always empty');
    if (o.typedArrays && total / arrs.length >= o.typedMin) {
      const typed = this.typedArray(arrs);
      if (typed) return typed;
    }
    if (o.tuples && minLength === maxLength && minLength >= 1 && minLength <= o.tupleMax) {
      const n = minLength;
      const positions = Array.from({ length: n }, (_, k) => arrs.map((a) => a[k]));
      const kinds = positions.map((values) => [...new Set(values.map(kindOf))].sort().join());
      const mixed = kinds.some((k) => k !== kinds[0]);
      if (mixed || (n >= 2 && arrs.length >= o.tupleMin)) {
        return this.note(
          t.tuple(positions.map((values) => this.place(values, depth + 1, widen, level + 1))),
          `always ${n} item${n === 1 ? '' : 's'} (${arrs.length} samples)`,
        );
      }
    }
    const items = [];
    for (const a of arrs) for (const x of a) items.push(x);
    let d = this.place(items, depth + 1, false, level + 1);
    // Items must take at least a byte (docs/FORMAT.md, "array").
    if (minBytes(d) === 0) d = this.place(items, depth + 1, true, level + 1);
    return t.array(d);
  }

  // All numbers, in a range a typed array holds exactly.
  typedArray(arrs) {
    let min = Infinity;
    let max = -Infinity;
    let integers = true;
    let float32 = true;
    for (const a of arrs) {
      for (const n of a) {
        if (typeof n !== 'number') return null;
        if (n < min) min = n;
        if (n > max) max = n;
        if (!Number.isInteger(n) || Object.is(n, -0)) integers = false;
        if (float32 && Math.fround(n) !== n) float32 = false;
      }
    }
    const note = (d) => this.note(d, 'long numeric arrays');
    if (!integers) return note(this.o.float32 && float32 ? t.float32Array() : t.float64Array());
    if (min >= -128 && max <= 127) return note(t.int8Array());
    if (min >= 0 && max <= 65535) return note(t.uint16Array());
    if (min >= -32768 && max <= 32767) return note(t.int16Array());
    if (min >= 0 && max <= 4294967295) return note(t.uint32Array());
    if (min >= -2147483648 && max <= 2147483647) return note(t.int32Array());
    return null;
  }

  object(objs, depth, widen, level) {
    const o = this.o;
    const keys = new Map();
    let totalKeys = 0;
    for (const x of objs) {
      for (const k of Object.keys(x)) {
        let values = keys.get(k);
        if (values === undefined) keys.set(k, (values = []));
        values.push(x[k]);
        totalKeys++;
      }
    }
    if (keys.size === 0) return this.note(t.record(t.json()), 'always empty');
    if (o.records && this.isRecord(keys, objs.length, totalKeys)) {
      const values = [];
      for (const list of keys.values()) for (const v of list) values.push(v);
      const some = [...keys.keys()].slice(0, 3).map((k) => JSON.stringify(k));
      return this.note(t.record(this.place(values, depth + 1, false, level + 1)), `${keys.size} key${keys.size === 1 ? '' : 's'}, such as ${some.join(', ')}`);
    }
    if (o.unions && objs.length >= 2) {
      const tag = this.findTag(objs, keys);
      if (tag) return this.discriminated(objs, tag, depth, widen, level);
    }
    return this.fields(objs, keys, depth, widen, level);
  }

  /** An object's fields; `level` is the object's. */
  fields(objs, keys, depth, widen, level, tag) {
    const fields = [];
    for (const [name, values] of keys) {
      const optional = values.length < objs.length;
      let d = name === tag?.key ? t.literal(tag.value) : this.place(values, depth + 1, widen, level + (optional ? 2 : 1));
      if (optional) d = this.note(t.optional(d), `in ${values.length} of ${objs.length}`);
      fields.push({ name, schema: d });
    }
    // As t.object builds it, with the fields in the order they were first seen (t.object
    // itself would put integer-like names first).
    return { type: 'object', fields, strict: false };
  }

  isRecord(keys, objects, totalKeys) {
    let ids = true;
    for (const k of keys.keys()) {
      if (!ID_KEY.test(k)) {
        ids = false;
        break;
      }
    }
    if (ids) return true;
    if (keys.size >= this.o.recordMin) return true;
    // Sparse: many keys, few of them in any one object.
    return objects >= 2 && keys.size >= 16 && totalKeys / objects <= keys.size / 4;
  }

  /**
   * A string field in every object whose value splits the objects into groups of more
   * alike shapes than the whole (fewer keys that only some objects have), or null.
   */
  findTag(objs, keys) {
    const o = this.o;
    const candidates = [];
    for (const [name, values] of keys) {
      if (!TAG_NAMES.has(name) && !TAG_LIKE.test(name) && !o.tags.includes(name)) continue;
      if (values.length !== objs.length || !values.every((v) => typeof v === 'string' && v.length <= 64 && SYMBOL.test(v))) continue;
      const distinct = new Set(values);
      if (distinct.size >= 2 && distinct.size <= o.unionMax) candidates.push(name);
    }
    if (candidates.length === 0) return null;
    const sample = objs.length > 4000 ? objs.filter((_, k) => k % Math.ceil(objs.length / 4000) === 0) : objs;
    const shapes = sample.map((x) => shapeOf(x));
    const whole = spread(shapes);
    if (whole === 0) return null;
    let best = null;
    for (const name of candidates) {
      const groups = new Map();
      sample.forEach((x, k) => {
        let g = groups.get(x[name]);
        if (g === undefined) groups.set(x[name], (g = []));
        g.push(shapes[k]);
      });
      if (groups.size < 2) continue;
      let split = 0;
      for (const g of groups.values()) split += spread(g);
      const gain = whole - split;
      if (gain >= Math.max(2, whole / 4) && (best === null || gain > best.gain)) best = { key: name, gain };
    }
    return best && best.key;
  }

  discriminated(objs, key, depth, widen, level) {
    const groups = new Map();
    for (const x of objs) {
      let g = groups.get(x[key]);
      if (g === undefined) groups.set(x[key], (g = []));
      g.push(x);
    }
    const variants = [];
    for (const [value, group] of groups) {
      const keys = new Map();
      for (const x of group) {
        for (const k of Object.keys(x)) {
          let values = keys.get(k);
          if (values === undefined) keys.set(k, (values = []));
          values.push(x[k]);
        }
      }
      variants.push(this.note(this.fields(group, keys, depth, widen, level + 1, { key, value }), `${group.length} of ${objs.length}`));
    }
    return this.note(t.discriminatedUnion(key, variants), `told apart by ${JSON.stringify(key)}`);
  }
}

function integerType(min, max) {
  if (min >= 0) return max <= 4294967295 ? t.uint32() : t.int();
  return min >= -2147483648 && max <= 2147483647 ? t.int32() : t.int();
}

function isoDate(s) {
  const ms = Date.parse(s);
  return !Number.isNaN(ms) && new Date(ms).toISOString() === s;
}

// The shape of an object, for telling kinds of objects apart: its key paths, three levels
// deep (array items as `[]`, at most eight items an array; id-like keys as `*`). Keys, not
// the kinds of their values: a field that is sometimes null is a nullable, not a reason
// for a union.
function shapeOf(x, prefix = '', depth = 0, out = new Set()) {
  for (const k of Object.keys(x)) {
    const v = x[k];
    const path = `${prefix}${ID_KEY.test(k) ? '*' : k}`;
    out.add(path);
    if (depth >= 2 || v === null || typeof v !== 'object') continue;
    if (!Array.isArray(v)) shapeOf(v, `${path}.`, depth + 1, out);
    else {
      for (let i = 0; i < v.length && i < 8; i++) {
        const item = v[i];
        if (item !== null && typeof item === 'object' && !Array.isArray(item)) shapeOf(item, `${path}[].`, depth + 1, out);
      }
    }
  }
  return out;
}

// How unlike a group of shapes are: the key paths some have and others do not.
function spread(shapes) {
  const counts = new Map();
  for (const s of shapes) for (const p of s) counts.set(p, (counts.get(p) || 0) + 1);
  let all = 0;
  for (const n of counts.values()) if (n === shapes.length) all++;
  return counts.size - all;
}

/**
 * Infers a descriptor that fits every sample. Returns `{ schema, notes }`, `notes` a Map
 * from descriptors in `schema` to a short reason (used for comments in --ts output).
 */
function infer(samples, options = {}) {
  if (samples.length === 0) throw new Error('infer needs at least one sample');
  const inference = new Inference(options);
  const schema = inference.place(samples, 0, false, 0);
  return { schema, notes: inference.notes };
}

module.exports = { infer, InferError, DEFAULTS, minBytes, MAX_JSON_DEPTH, MAX_SCHEMA_DEPTH };
