'use strict';
// union (the first variant, in order, that accepts the value) and discriminatedUnion
// (objects told apart by the literal of one field, dispatched in O(1) on encode): the
// varint index of the variant, then the value as that variant writes it
// (src/types/union.rs). Tape: one slot, the index; then the variant's slots.

const { ShornError } = require('../errors');
const { fieldValue } = require('./object');

function schemaError(message) {
  return new ShornError('ERR_SHORN_SCHEMA', `invalid schema: ${message}`);
}

// The literal of a discriminated variant's tag field.
function tagOf(variant, key) {
  const f = variant.fields.find((g) => g.name === key);
  return f.schema.value;
}

const isObject = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);

// The most variants tested by a chain of `else if` (lib/put.js, and lib/small.js's write);
// a longer union tests each in an `if` of its own in one labelled block. V8 compiles a
// generated function on its first call, recursing once per `else if`, ~200 bytes of
// native stack each: a union of 3,700 variants overflowed the stack on every encode.
const CHAIN_MAX = 64;

// One slot for the index, and the slots of the union's largest variant (a loop: a spread
// of 130,000 arguments into Math.max is a RangeError).
function mostSlots(d, g) {
  let most = 0;
  for (const v of d.variants) most = Math.max(most, g.slots(v));
  return 1 + most;
}

// The compiler's reading of the descriptors (src/types/union.rs: lib/schema-rules.js).
function variantsOf(d, cx) {
  const list = cx.member(d, 'variants');
  if (!Array.isArray(list)) throw cx.fail('"variants" must be an array of types');
  if (list.length === 0) throw cx.fail('a union needs at least one variant');
  return list.map((v, i) => cx.within(`[${i}]`, () => cx.value(v)));
}

function discriminatedRules(d, cx) {
  const key = cx.member(d, 'key');
  if (typeof key !== 'string') throw cx.fail('discriminatedUnion "key" must be a string');
  const list = variantsOf(d, cx);
  const tags = new Set();
  list.forEach((v, i) =>
    cx.within(`[${i}]`, () => {
      if (v.k !== 'object') throw cx.fail('each variant of a discriminatedUnion must be an object');
      const field = v.fields.find((f) => f.name === key);
      const value = field !== undefined && field.node.k === 'literal' ? field.node.value : undefined;
      if (typeof value !== 'string' && typeof value !== 'number') throw cx.fail(`each variant needs a field ${JSON.stringify(key)} that is a string or number literal`);
      const tag = typeof value === 'string' ? `s${value}` : `n${cx.shown(value)}`;
      if (tags.has(tag)) throw cx.fail(`two variants have the same ${JSON.stringify(key)}`);
      tags.add(tag);
    }),
  );
  return { k: 'discriminated', variants: list };
}

// The first variant whose test takes `x`, put; else the union's error (inside a union put
// untested, which then tests in turn: its ABORT, lib/generic.js).
function putTested(c, d, x) {
  const k = d.variants.findIndex((v) => c.test(v, x));
  if (k < 0) {
    // (lib/generic.js requires the types: read here, when it is thrown.)
    if (c.untested > 0) throw require('../generic').ABORT;
    c.unionError(d, x, c.path());
  }
  c.write(k);
  c.put(d.variants[k], x);
}

module.exports = [
  {
    name: 'union',
    members: ['variants'],
    rules: (d, cx) => ({ k: 'union', variants: variantsOf(d, cx) }),
    build(variants) {
      if (!Array.isArray(variants)) throw schemaError('t.union takes an array of types');
      return { type: 'union', variants: [...variants] };
    },
    children: (d) => (Array.isArray(d.variants) ? d.variants.map((v) => [v, '']) : []),
    expected: (d, g) => d.variants.map((v) => g.expected(v)).join(' | '),
    slots: mostSlots,
    variable: true,
    // Where the variants are of different kinds (lib/lower.js), only the one of the
    // value's kind may take it: it alone is tested, or put untested (`putVariant`).
    test(d, x, c) {
      const k = c.variantByKind(d, x);
      return k === -2 ? d.variants.some((v) => c.test(v, x)) : k >= 0 && c.test(d.variants[k], x);
    },
    put(c, d, x) {
      const byKind = c.variantByKind(d, x);
      if (byKind >= 0) {
        if (c.putVariant(d, byKind, x)) return;
        // It found an issue: this union, and every one under it, tested in turn.
        c.tested(() => putTested(c, d, x));
        return;
      }
      putTested(c, d, x);
    },
    toJson(d, x, c) {
      const v = d.variants.find((variant) => c.test(variant, x));
      return v === undefined ? x : c.toJson(v, x);
    },
    // The first variant whose JSON form reads back to a value it takes.
    fromJson(d, j, c) {
      for (const variant of d.variants) {
        const x = c.fromJson(variant, j);
        if (c.test(variant, x)) return x;
      }
      return j;
    },
    kinds: (d, K) => d.variants.reduce((bits, v) => bits | K.kinds(v), 0),
    lower: (d, L) => ({ op: 'union', byKind: L.variantsByKind(d.variants), ds: d.variants, variants: d.variants.map((v) => L.node(v)), costs: d.variants.map((v) => L.cost(v)) }),
    minBytes: () => 1,
  },
  {
    name: 'discriminatedUnion',
    members: ['key', 'variants'],
    rules: discriminatedRules,
    build(key, variants) {
      if (typeof key !== 'string') throw schemaError('t.discriminatedUnion takes a key name and an array of objects');
      if (!Array.isArray(variants)) throw schemaError('t.discriminatedUnion takes a key name and an array of objects');
      return { type: 'discriminatedUnion', key, variants: [...variants] };
    },
    children: (d) => (Array.isArray(d.variants) ? d.variants.map((v) => [v, '']) : []),
    expected: (d) => `object with ${JSON.stringify(d.key)} one of ${d.variants.map((v) => JSON.stringify(tagOf(v, d.key))).join(', ')}`,
    slots: mostSlots,
    variable: true,
    test(d, x, c) {
      if (!isObject(x)) return false;
      const k = c.tagIndex(d).get(fieldValue(x, d.key));
      return k !== undefined && c.test(d.variants[k], x);
    },
    put(c, d, x, shown) {
      if (!isObject(x)) throw c.fail(shown, x);
      const tag = fieldValue(x, d.key);
      const k = c.tagIndex(d).get(tag);
      if (k === undefined) {
        c.segments.push(d.key);
        const error = c.invalid(tagsExpected(d), tag);
        c.segments.pop();
        throw error;
      }
      c.write(k);
      c.put(d.variants[k], x);
    },
    toJson(d, x, c) {
      const k = isObject(x) ? c.tagIndex(d).get(fieldValue(x, d.key)) : undefined;
      return k === undefined ? x : c.toJson(d.variants[k], x);
    },
    fromJson(d, j, c) {
      const k = isObject(j) ? c.tagIndex(d).get(j[d.key]) : undefined;
      return k === undefined ? j : c.fromJson(d.variants[k], j);
    },
    kinds: 'object',
    lower: (d, L) => ({ op: 'tagged', key: d.key, index: L.m.tagIndex(d), variants: d.variants.map((v) => L.node(v)), costs: d.variants.map((v) => L.cost(v)) }),
    minBytes: () => 1,
  },
];

// Tag -> variant index: a Map, so dispatch is one lookup whatever the number of variants.
function tagIndex(d) {
  return new Map(d.variants.map((v, k) => [tagOf(v, d.key), k]));
}

function tagsExpected(d) {
  return `one of ${d.variants.map((v) => JSON.stringify(tagOf(v, d.key))).join(', ')}`;
}

module.exports.tagIndex = tagIndex;
module.exports.CHAIN_MAX = CHAIN_MAX;
module.exports.tagsExpected = tagsExpected;
module.exports.tagOf = tagOf;
