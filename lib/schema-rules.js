'use strict';
// The native compiler's rules for a descriptor (src/schema.rs, src/types/*.rs), in JS, for
// where no addon loads (browsers, workers, Node without a binary): there the JS back end
// has no native compiler to refuse a descriptor, and took what it refuses (an unknown type
// or member, a constraint out of range, array items of no bytes, a recursive type with no
// finite value...). `checkSchema(descriptor, text)` throws the ShornError the native
// compile throws, the same message at the same path, checking in its order: the JSON's
// nesting, each node as the compiler reads it (`Cx#node`, with each type's own `members`
// and `rules` in its module, lib/types/*.js, as src/types/*.rs has them), then the
// recursive definitions' ends (`resolve`), one encoding per value (`oneEncoding`) and
// items that take bytes (`sizeItems`). A type's `rules(d, cx)` returns its node in the
// compiler's tree, a plain object (`k`: its kind), for the passes after the reading; a
// type with none (a leaf with no members) is the node `{ k: type }`.
// __test__/schema-rules.test.js holds it to the native compiler.

const { ShornError, pathKey } = require('./errors');
const { TYPES } = require('./types');

// src/types/mod.rs, MAX_SCHEMA_DEPTH.
const MAX_SCHEMA_DEPTH = 64;
const U32_MAX = 4294967295;

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
    const def = TYPES.get(type);
    if (def === undefined) throw this.fail(`unknown type ${JSON.stringify(type)}`);
    for (const key of Object.keys(d)) {
      if (key !== 'type' && !def.members.includes(key)) throw this.fail(`the ${type} descriptor has no member ${JSON.stringify(key)}`);
    }
    this.depth++;
    try {
      return def.rules === undefined ? { k: type } : def.rules(d, this);
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

  /** The node of a value a check of its constraints wraps (src/types/mod.rs, `Node::Checked`). */
  checked(inner) {
    return { k: 'checked', inner };
  }

  /** The JSON kind of `j`, as the messages name it. */
  kind(j) {
    return kind(j);
  }

  /** Number `x` as the messages print it. */
  shown(x) {
    return shown(x);
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
