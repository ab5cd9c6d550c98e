'use strict';
// The native compiler's rules for a descriptor (src/schema.rs, src/types/*.rs `compile`),
// in JS, for where no addon loads (browsers, workers, Node without a binary): there the
// JS back end has no native compiler to refuse a descriptor, and took what it refuses (an
// unknown type or member, a constraint out of range, array items of no bytes, a recursive
// type with no finite value...). `checkSchema(descriptor)` throws the ShornError the
// native compile throws, the same message at the same path, checking in its order: each
// node as the compiler reads it (`node`), then the recursive definitions' ends
// (`resolve`), one encoding per value (`oneEncoding`), and items that take bytes
// (`sizeItems`). It builds the compiler's tree of nodes, as plain objects, for the passes
// after the first. __test__/schema-rules.test.js holds it to the native compiler.

const { ShornError, pathKey } = require('./errors');

// src/types/mod.rs, MAX_SCHEMA_DEPTH.
const MAX_SCHEMA_DEPTH = 64;
// src/types/string.rs, FORMATS.
const FORMATS = ['email', 'uuid', 'url', 'datetime', 'ipv4', 'ipv6'];
const U32_MAX = 4294967295;
const MAX_SAFE = 9007199254740991;

/** A fault of the descriptor at the path being read (`at`: its segments, rendered). */
class Fault {
  constructor(message, at) {
    this.message = message;
    this.at = at;
  }
}

// The JSON kind of a value, as src/json.rs names it.
function kind(j) {
  if (j === null) return 'null';
  if (Array.isArray(j)) return 'array';
  return typeof j === 'object' ? 'object' : typeof j;
}

// A number as the native messages print it (src/codec/error.rs, `Number`).
const shown = (x) => (Object.is(x, -0) ? '-0' : String(x));

const has = (d, key) => Object.prototype.hasOwnProperty.call(d, key);

/** The reading of one descriptor: the path so far, the definitions and their scopes. */
class Cx {
  constructor() {
    this.segments = [];
    this.depth = 0;
    this.defs = [];
    this.scopes = [];
  }

  path() {
    let at = '$';
    for (const s of this.segments) at += s;
    return at;
  }

  fail(message) {
    return new Fault(message, this.path());
  }

  /** `f()` with segment `segment` on the path. */
  within(segment, f) {
    this.segments.push(segment);
    try {
      return f();
    } finally {
      this.segments.pop();
    }
  }

  /** Cx::node: any descriptor, optional and default among them. */
  node(d) {
    if (this.depth > MAX_SCHEMA_DEPTH) throw this.fail(`nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
    if (d === null || typeof d !== 'object' || Array.isArray(d)) throw this.fail(`expected a type descriptor object, found ${kind(d)}`);
    const type = d.type;
    if (typeof type !== 'string') throw this.fail('a type descriptor needs a string "type"');
    const entry = RULES.get(type);
    if (entry === undefined) throw this.fail(`unknown type ${JSON.stringify(type)}`);
    for (const key of Object.keys(d)) {
      if (key !== 'type' && !entry.members.includes(key)) throw this.fail(`the ${type} descriptor has no member ${JSON.stringify(key)}`);
    }
    this.depth++;
    try {
      return entry.compile(d, this);
    } finally {
      this.depth--;
    }
  }

  /** value_node: not optional or default, which only an object's field may be. */
  value(d) {
    const node = this.node(d);
    if (node.k === 'optional') throw this.fail('optional is only allowed on an object field');
    if (node.k === 'default') throw this.fail('default is only allowed on an object field');
    return node;
  }

  member(d, key) {
    if (!has(d, key)) throw this.fail(`the ${typeof d.type === 'string' ? d.type : '?'} descriptor needs ${JSON.stringify(key)}`);
    return d[key];
  }

  number(d, key) {
    if (!has(d, key)) return undefined;
    const j = d[key];
    if (typeof j !== 'number') throw this.fail(`${key} must be a number, found ${kind(j)}`);
    return j;
  }

  length(d, key) {
    const x = this.number(d, key);
    if (x === undefined) return undefined;
    if (Number.isInteger(x) && x >= 0 && x <= U32_MAX) return x;
    throw this.fail(`${key} must be an integer from 0 to ${U32_MAX}, found ${shown(x)}`);
  }

  /** length_range: whether there is one; a minimum over the maximum is a fault. */
  range(d, minKey, maxKey) {
    const min = minKey === '' ? undefined : this.length(d, minKey);
    const max = this.length(d, maxKey);
    if (min === undefined && max === undefined) return false;
    const [lo, hi] = [min ?? 0, max ?? U32_MAX];
    if (lo > hi) throw this.fail(`${minKey} ${lo} is greater than ${maxKey} ${hi}`);
    return true;
  }
}

const leaf = (k) => () => ({ k });
const checked = (node, yes) => (yes ? { k: 'checked', inner: node } : node);

// src/types/integer.rs `constrained` and `bounds`, for the integers JS holds as numbers
// (`lo` and `hi` exact) and, with bigints, for int64 and uint64.
function integerBounds(cx, name, min, max, multipleOf) {
  if (min > max) throw cx.fail(`min ${min} of a ${name} is greater than its max ${max}`);
  const r = ((min % multipleOf) + multipleOf) % multipleOf;
  const first = r === 0n ? min : min + (multipleOf - r);
  if (first > max) throw cx.fail(`no ${name} from ${min} to ${max} is a multiple of ${multipleOf}`);
}

function integer(name, lo, hi) {
  return (d, cx) => {
    const bound = (key) => {
      const x = cx.number(d, key);
      if (x === undefined) return undefined;
      if (Number.isInteger(x) && x >= lo && x <= hi) return BigInt(x);
      throw cx.fail(`${key} of a ${name} must be an integer from ${lo} to ${hi}, found ${shown(x)}`);
    };
    const min = bound('min');
    const max = bound('max');
    let multipleOf;
    const m = cx.number(d, 'multipleOf');
    if (m !== undefined) {
      if (!(Number.isInteger(m) && m >= 1 && m <= MAX_SAFE)) throw cx.fail(`multipleOf must be a safe integer of at least 1, found ${shown(m)}`);
      multipleOf = BigInt(m);
    }
    if (min === undefined && max === undefined && multipleOf === undefined) return { k: name };
    integerBounds(cx, name, min ?? BigInt(lo), max ?? BigInt(hi), multipleOf ?? 1n);
    return checked({ k: name }, true);
  };
}

// src/types/int64.rs `parse_integer`: canonical decimal digits, up to 20 of them.
function parseInteger(text) {
  const digits = text.startsWith('-') ? text.slice(1) : text;
  const canonical = digits.length > 0 && digits.length <= 20 && /^[0-9]+$/.test(digits) && (digits === '0' || !digits.startsWith('0')) && text !== '-0';
  return canonical ? BigInt(text) : undefined;
}

function int64(name, lo, hi) {
  return (d, cx) => {
    const bound = (key) => {
      if (!has(d, key)) return undefined;
      const j = d[key];
      if (typeof j !== 'string') throw cx.fail(`${key} of a ${name} must be a string of decimal digits (a bigint), found ${kind(j)}`);
      const v = parseInteger(j);
      if (v === undefined || v < lo || v > hi) throw cx.fail(`${key} of a ${name} must be an integer from ${lo} to ${hi} in decimal digits, found ${JSON.stringify(j)}`);
      return v;
    };
    const min = bound('min');
    const max = bound('max');
    let multipleOf;
    if (has(d, 'multipleOf')) {
      const j = d.multipleOf;
      const m = typeof j === 'string' ? parseInteger(j) : undefined;
      if (m === undefined || m < 1n || m > 18446744073709551615n) throw cx.fail(`multipleOf of a ${name} must be an integer from 1 to 18446744073709551615 in decimal digits`);
      multipleOf = m;
    }
    if (min === undefined && max === undefined && multipleOf === undefined) return { k: name };
    integerBounds(cx, name, min ?? lo, max ?? hi, multipleOf ?? 1n);
    return checked({ k: name }, true);
  };
}

function float(name) {
  return (d, cx) => {
    const bound = (key) => {
      const x = cx.number(d, key);
      if (x !== undefined && !Number.isFinite(x)) throw cx.fail(`${key} of a ${name} must be a finite number`);
      return x;
    };
    const min = bound('min');
    const max = bound('max');
    if (min === undefined && max === undefined) return { k: name };
    const [lo, hi] = [min ?? -Infinity, max ?? Infinity];
    if (lo > hi) throw cx.fail(`min ${shown(lo)} of a ${name} is greater than its max ${shown(hi)}`);
    return checked({ k: name }, true);
  };
}

function string(d, cx) {
  const lengths = cx.range(d, 'minLength', 'maxLength');
  let pattern = false;
  if (has(d, 'pattern')) {
    if (typeof d.pattern !== 'string') throw cx.fail(`pattern must be a string (a RegExp's source), found ${kind(d.pattern)}`);
    pattern = true;
  }
  let format = false;
  if (has(d, 'format')) {
    const f = d.format;
    if (typeof f !== 'string' || !FORMATS.includes(f)) throw cx.fail(`format must be one of ${FORMATS.join(', ')}, found ${typeof f === 'string' ? JSON.stringify(f) : kind(f)}`);
    format = true;
  }
  return checked({ k: 'string' }, lengths || pattern || format);
}

function enumeration(d, cx) {
  const values = cx.member(d, 'values');
  if (!Array.isArray(values)) throw cx.fail('enum "values" must be an array of strings');
  if (values.length === 0) throw cx.fail('enum needs at least one value');
  const seen = new Set();
  values.forEach((v, i) => {
    if (typeof v !== 'string') throw cx.fail(`enum value ${i} is a ${kind(v)}, not a string`);
    if (seen.has(v)) throw cx.fail(`enum value ${JSON.stringify(v)} appears twice`);
    seen.add(v);
  });
  if (has(d, 'default')) {
    const s = d.default;
    if (typeof s !== 'string') throw cx.fail('enum "default" must be a string');
    if (!seen.has(s)) throw cx.fail(`enum default ${JSON.stringify(s)} is not one of its values`);
  }
  return { k: 'enum' };
}

function literal(d, cx) {
  const v = cx.member(d, 'value');
  if (v !== null && typeof v === 'object') throw cx.fail(`a literal is a string, number, boolean or null, not ${kind(v)}`);
  return { k: 'literal', value: v };
}

function array(d, cx) {
  const of = cx.member(d, 'items');
  const items = cx.within('[]', () => cx.value(of));
  return checked({ k: 'array', items }, cx.range(d, 'minItems', 'maxItems'));
}

function tuple(d, cx) {
  const list = cx.member(d, 'items');
  if (!Array.isArray(list)) throw cx.fail('tuple "items" must be an array of types');
  return { k: 'tuple', items: list.map((item, i) => cx.within(`[${i}]`, () => cx.value(item))) };
}

function object(d, cx) {
  const list = cx.member(d, 'fields');
  if (!Array.isArray(list)) throw cx.fail('object "fields" must be an array of { name, schema }');
  if (has(d, 'strict') && typeof d.strict !== 'boolean') throw cx.fail('object "strict" must be a boolean');
  const seen = new Set();
  const fields = list.map((f, i) => {
    const name = f !== null && typeof f === 'object' && !Array.isArray(f) ? f.name : undefined;
    if (typeof name !== 'string') throw cx.fail(`object field ${i} needs a string "name"`);
    if (seen.has(name)) throw cx.fail(`field ${JSON.stringify(name)} appears twice`);
    seen.add(name);
    if (!has(f, 'schema')) throw cx.fail(`object field ${JSON.stringify(name)} needs a "schema"`);
    return { name, node: cx.within(pathKey(name), () => cx.node(f.schema)) };
  });
  return { k: 'object', fields };
}

function optional(isOptional) {
  const name = isOptional ? 'optional' : 'nullable';
  return (d, cx) => {
    const inner = cx.node(cx.member(d, 'of'));
    if (inner.k === 'optional') throw cx.fail(`${name} of optional: optional must be outermost`);
    if (inner.k === 'nullable' && !isOptional) throw cx.fail('nullable of nullable');
    return { k: name, inner };
  };
}

function withDefault(d, cx) {
  const inner = cx.node(cx.member(d, 'of'));
  if (inner.k === 'optional' || inner.k === 'default') throw cx.fail('default of optional or default: a default field is never absent');
  cx.member(d, 'value');
  return { k: 'default', inner };
}

function record(d, cx) {
  const of = cx.member(d, 'values');
  const values = cx.within('[]', () => cx.value(of));
  return checked({ k: 'record', values }, cx.range(d, '', 'maxEntries'));
}

function map(d, cx) {
  const keysOf = cx.member(d, 'keys');
  const keys = cx.within('[]', () => cx.value(keysOf));
  const valuesOf = cx.member(d, 'values');
  const values = cx.within('[]', () => cx.value(valuesOf));
  return checked({ k: 'map', keys, values }, cx.range(d, '', 'maxEntries'));
}

function variants(d, cx) {
  const list = cx.member(d, 'variants');
  if (!Array.isArray(list)) throw cx.fail('"variants" must be an array of types');
  if (list.length === 0) throw cx.fail('a union needs at least one variant');
  return list.map((v, i) => cx.within(`[${i}]`, () => cx.value(v)));
}

function discriminated(d, cx) {
  const key = cx.member(d, 'key');
  if (typeof key !== 'string') throw cx.fail('discriminatedUnion "key" must be a string');
  const list = variants(d, cx);
  const tags = new Set();
  list.forEach((v, i) =>
    cx.within(`[${i}]`, () => {
      if (v.k !== 'object') throw cx.fail('each variant of a discriminatedUnion must be an object');
      const field = v.fields.find((f) => f.name === key);
      const node = field && field.node;
      const value = node && node.k === 'literal' ? node.value : undefined;
      if (typeof value !== 'string' && typeof value !== 'number') throw cx.fail(`each variant needs a field ${JSON.stringify(key)} that is a string or number literal`);
      const tag = typeof value === 'string' ? `s${value}` : `n${shown(value)}`;
      if (tags.has(tag)) throw cx.fail(`two variants have the same ${JSON.stringify(key)}`);
      tags.add(tag);
    }),
  );
  return { k: 'discriminated', variants: list };
}

function defName(d, cx) {
  const name = cx.member(d, 'name');
  if (typeof name !== 'string' || name === '') throw cx.fail('"name" must be a non-empty string');
  return name;
}

function recursive(d, cx) {
  const name = defName(d, cx);
  const id = cx.defs.length;
  cx.defs.push({ name, node: { k: 'literal', value: null } });
  cx.scopes.push([name, id]);
  try {
    cx.defs[id].node = cx.value(cx.member(d, 'schema'));
  } finally {
    cx.scopes.pop();
  }
  return { k: 'ref', id };
}

function ref(d, cx) {
  const name = defName(d, cx);
  for (let k = cx.scopes.length - 1; k >= 0; k--) if (cx.scopes[k][0] === name) return { k: 'ref', id: cx.scopes[k][1] };
  throw cx.fail(`ref ${JSON.stringify(name)} is not inside a recursive type of that name`);
}

const INT_MEMBERS = ['min', 'max', 'multipleOf'];
// src/types/mod.rs, REGISTRY: each type's members and its reading.
const RULES = new Map(
  [
    ['bool', [], leaf('bool')],
    ['uint8', INT_MEMBERS, integer('uint8', 0, 255)],
    ['uint16', INT_MEMBERS, integer('uint16', 0, 65535)],
    ['uint32', INT_MEMBERS, integer('uint32', 0, U32_MAX)],
    ['int8', INT_MEMBERS, integer('int8', -128, 127)],
    ['int16', INT_MEMBERS, integer('int16', -32768, 32767)],
    ['int32', INT_MEMBERS, integer('int32', -2147483648, 2147483647)],
    ['int', INT_MEMBERS, integer('int', -MAX_SAFE, MAX_SAFE)],
    ['int64', INT_MEMBERS, int64('int64', -9223372036854775808n, 9223372036854775807n)],
    ['uint64', INT_MEMBERS, int64('uint64', 0n, 18446744073709551615n)],
    ['float32', ['min', 'max'], float('float32')],
    ['float64', ['min', 'max'], float('float64')],
    ['date', [], leaf('date')],
    ['string', ['minLength', 'maxLength', 'pattern', 'format'], string],
    ['bytes', ['minLength', 'maxLength'], (d, cx) => checked({ k: 'bytes' }, cx.range(d, 'minLength', 'maxLength'))],
    ['enum', ['values', 'default'], enumeration],
    ['literal', ['value'], literal],
    ['null', [], () => ({ k: 'literal', value: null })],
    ['array', ['items', 'minItems', 'maxItems'], array],
    ['tuple', ['items'], tuple],
    ['object', ['fields', 'strict'], object],
    ['optional', ['of'], optional(true)],
    ['nullable', ['of'], optional(false)],
    ['default', ['of', 'value'], withDefault],
    ['record', ['values', 'maxEntries'], record],
    ['map', ['keys', 'values', 'maxEntries'], map],
    ['union', ['variants'], (d, cx) => ({ k: 'union', variants: variants(d, cx) })],
    ['discriminatedUnion', ['key', 'variants'], discriminated],
    ['recursive', ['name', 'schema'], recursive],
    ['ref', ['name'], ref],
    ['json', [], leaf('json')],
    ...['float64Array', 'float32Array', 'int32Array', 'uint32Array', 'int16Array', 'uint16Array', 'int8Array'].map((t) => [t, [], leaf('typed')]),
  ].map(([name, members, compile]) => [name, { members, compile }]),
);

// ---- the passes after the reading (src/schema.rs, src/types/recursive.rs) ----------------

const FIXED = { float32: 4, float64: 8 };

// min_size: the fewest bytes a value of `node` takes.
function minSize(node, sizes) {
  switch (node.k) {
    case 'literal':
      return 0;
    case 'tuple':
      return node.items.reduce((n, item) => n + minSize(item, sizes), 0);
    case 'object':
      return node.fields.reduce((n, f) => n + minSize(f.node, sizes), 0);
    case 'ref':
      return sizes[node.id] ?? 0;
    case 'default':
    case 'checked':
      return minSize(node.inner, sizes);
    default:
      return FIXED[node.k] ?? 1;
  }
}

// can_end: whether a value of `node` can end, with the definitions known to so far.
function canEnd(node, finite) {
  switch (node.k) {
    case 'ref':
      return finite[node.id];
    case 'tuple':
      return node.items.every((n) => canEnd(n, finite));
    case 'object':
      return node.fields.every((f) => canEnd(f.node, finite));
    case 'default':
      return canEnd(node.inner, finite);
    case 'union':
    case 'discriminated':
      return node.variants.some((n) => canEnd(n, finite));
    default:
      return true;
  }
}

// resolve: every definition ends; then their fewest bytes.
function resolve(defs) {
  const finite = defs.map(() => false);
  for (let changed = true; changed; ) {
    changed = false;
    defs.forEach((d, i) => {
      if (!finite[i] && canEnd(d.node, finite)) finite[i] = changed = true;
    });
  }
  const i = finite.indexOf(false);
  if (i >= 0) throw new Fault(`recursive type ${JSON.stringify(defs[i].name)} has no finite value: every path from it leads back to it through required fields`, '$');
  const sizes = defs.map(() => 0);
  for (let round = 0; round < 64; round++) {
    let changed = false;
    defs.forEach((d, k) => {
      const size = minSize(d.node, sizes);
      if (size !== sizes[k]) {
        sizes[k] = size;
        changed = true;
      }
    });
    if (!changed) break;
  }
  return sizes;
}

function takesNull(node, defs, seen) {
  switch (node.k) {
    case 'literal':
      return node.value === null;
    case 'json':
    case 'nullable':
      return true;
    case 'union':
      return node.variants.some((v) => takesNull(v, defs, seen));
    case 'ref':
      if (seen.includes(node.id)) return false;
      seen.push(node.id);
      return takesNull(defs[node.id].node, defs, seen);
    default:
      return false;
  }
}

function roundsKeys(node, defs, seen) {
  switch (node.k) {
    case 'float32':
      return true;
    case 'nullable':
    case 'checked':
      return roundsKeys(node.inner, defs, seen);
    case 'union':
      return node.variants.some((v) => roundsKeys(v, defs, seen));
    case 'ref':
      if (seen.includes(node.id)) return false;
      seen.push(node.id);
      return roundsKeys(defs[node.id].node, defs, seen);
    default:
      return false;
  }
}

// A pass over `node` and its children, with the path of each (`at`, its segments).
function children(node) {
  switch (node.k) {
    case 'array':
      return [['[]', node.items]];
    case 'record':
      return [['[]', node.values]];
    case 'map':
      return [
        ['[]', node.keys],
        ['[]', node.values],
      ];
    case 'tuple':
      return node.items.map((n, i) => [`[${i}]`, n]);
    case 'object':
      return node.fields.map((f) => [pathKey(f.name), f.node]);
    case 'union':
    case 'discriminated':
      return node.variants.map((n, i) => [`[${i}]`, n]);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'checked':
      return [['', node.inner]];
    default:
      return [];
  }
}

// one_encoding: no nullable of what takes null, no map keys of float32.
function oneEncoding(node, defs, at) {
  if (node.k === 'nullable' && takesNull(node.inner, defs, [])) throw new Fault('nullable of a type that already takes null (null would have two encodings)', at);
  if (node.k === 'map' && roundsKeys(node.keys, defs, [])) throw new Fault('float32 map keys: two keys could round to one float32; use float64 keys', at);
  for (const [segment, child] of children(node)) oneEncoding(child, defs, at + segment);
}

// size_items: array items and map entries take a byte at least.
function sizeItems(node, sizes, at) {
  if (node.k === 'array' && minSize(node.items, sizes) === 0) {
    throw new Fault('array items must take at least one byte; a null, a literal or an empty object or tuple takes none', at);
  }
  if (node.k === 'map' && minSize(node.keys, sizes) + minSize(node.values, sizes) === 0) {
    throw new Fault('map entries must take at least one byte; a key and a value that take none would let a few bytes make millions of entries', at);
  }
  for (const [segment, child] of children(node)) sizeItems(child, sizes, at + segment);
}

// Errors in a definition's passes: named by it, at the root (src/schema.rs, rename_root).
function inDefinition(def, run) {
  try {
    run();
  } catch (e) {
    if (!(e instanceof Fault)) throw e;
    throw new Fault(`in recursive type ${JSON.stringify(def.name)} at ${e.at}: ${e.message}`, '$');
  }
}

// src/json.rs: a value nested in more than MAX_JSON_DEPTH arrays and objects is refused
// as the descriptor's JSON is parsed, before any of it is read as a schema. Where the
// first such value starts in `text` (JSON.stringify's, with no white space), in UTF-8
// bytes; -1 if none.
const MAX_JSON_DEPTH = 256;
function tooDeep(text) {
  const stack = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '[' || c === '{') {
      stack.push(c);
      if (c === '[' && text[i + 1] !== ']' && stack.length > MAX_JSON_DEPTH) return i + 1;
    } else if (c === ']' || c === '}') {
      stack.pop();
    } else if ((c === ':' || (c === ',' && stack[stack.length - 1] === '[')) && stack.length > MAX_JSON_DEPTH) {
      return i + 1;
    }
  }
  return -1;
}

/**
 * Throws the ShornError the native compiler throws for `descriptor` (JSON-parsed from
 * `text`, JSON.stringify's), if any.
 */
function checkSchema(descriptor, text) {
  const deep = tooDeep(text);
  if (deep >= 0) {
    const offset = new TextEncoder().encode(text.slice(0, deep)).length;
    throw new ShornError('ERR_SHORN_SCHEMA', `invalid schema at $: the descriptor nests deeper than ${MAX_JSON_DEPTH} levels of JSON (at offset ${offset})`, { path: '$' });
  }
  try {
    const cx = new Cx();
    const root = cx.value(descriptor);
    const { defs } = cx;
    const sizes = resolve(defs);
    oneEncoding(root, defs, '$');
    for (const d of defs) inDefinition(d, () => oneEncoding(d.node, defs, '$'));
    sizeItems(root, sizes, '$');
    for (const d of defs) inDefinition(d, () => sizeItems(d.node, sizes, '$'));
  } catch (e) {
    if (!(e instanceof Fault)) throw e;
    throw new ShornError('ERR_SHORN_SCHEMA', `invalid schema at ${e.at}: ${e.message}`, { path: e.at });
  }
}

module.exports = { checkSchema };
