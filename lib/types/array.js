'use strict';
// array: a varint count, then each item (src/types/array.rs). Tape: one slot, the count,
// then each item's slots. Items must take at least one byte each (the compiler checks).

//
// Constraints (docs/FORMAT.md, "array"): `minItems` and `maxItems`, checked before any item
// (natively on decode, before any item is read). The helpers below serve the other types
// with counts: bytes (`minLength`, `maxLength`), record and map (`maxEntries`).

const { ShornError, describe } = require('../errors');

// Most slots reserved up front for one array; past this, each item makes its own room,
// so a sparse array of length 2^32 - 1 fails on its first item instead of on memory.
const UPFRONT = 1 << 20;

// A decoded array of 1 to 4 strings or enum values is made as a literal of that many
// `undefined`s, then filled: a literal has an allocation site, which V8 pretenures when its
// arrays outlive scavenges, as the objects around them already are (a large message's
// events, each with its tags); `new Array(n)` has none, so those arrays were copied by
// every scavenge and promoted on their own. events100k decode: 86-91 -> 71-76 ms, its
// scavenges 70 -> 44 over 35 decodes (docs/DESIGN.md, "Small arrays as literals"). Others
// keep `new Array(n)`: of numbers, its elements become unboxed doubles, where a literal of
// `undefined`s holds each double in a heap number; of objects, citm_catalog decoded ~2%
// slower with literals. So do arrays in a decode whose text makes most of a large message
// (`g.denseTest()`), as its objects are made without a site (lib/codegen.js, `construct`):
// pretenured holders of young strings copy and promote the text at every scavenge.
const SMALL_LITERALS = ['[undefined]', '[undefined, undefined]', '[undefined, undefined, undefined]', '[undefined, undefined, undefined, undefined]'];
const STRINGS = new Set(['string', 'enum']);
function stringItems(d) {
  while (d.type === 'default') d = d.of;
  return STRINGS.has(d.type);
}

// The descriptor members `keys` of `options` for `t.<name>` (checked by the compiler).
function buildCounts(name, keys, options, d = { type: name }) {
  if (options === undefined) return d;
  if (typeof options !== 'object' || options === null) throw new ShornError('ERR_SHORN_SCHEMA', `invalid schema: t.${name} takes an object of constraints`);
  for (const key of Object.keys(options)) {
    if (!keys.includes(key)) throw new ShornError('ERR_SHORN_SCHEMA', `invalid schema: t.${name} has no constraint ${JSON.stringify(key)}`);
    if (options[key] !== undefined) d[key] = options[key];
  }
  return d;
}

const within = (n, min, max) => (min === undefined || n >= min) && (max === undefined || n <= max);

// The constraint count `n` of a `what` breaks; `unit` is singular (`item`, `entry`).
function countViolations(what, unit, n, min, max, found) {
  const units = (k) => (k === 1 ? unit : unit === 'entry' ? 'entries' : `${unit}s`);
  if (min !== undefined && n < min) return [{ issue: 'too_small', expected: `${what} of at least ${min} ${units(min)}`, found }];
  if (max !== undefined && n > max) return [{ issue: 'too_big', expected: `${what} of at most ${max} ${units(max)}`, found }];
  return [];
}

const constrained = (d) => d.minItems !== undefined || d.maxItems !== undefined;

module.exports = [
  {
    name: 'array',
    members: ['items', 'minItems', 'maxItems'],
    // src/types/array.rs: lib/schema-rules.js.
    rules(d, cx) {
      const of = cx.member(d, 'items');
      const items = cx.within('[]', () => cx.value(of));
      const node = { k: 'array', items };
      return cx.range(d, 'minItems', 'maxItems') ? cx.checked(node) : node;
    },
    build: (items, options) => buildCounts('array', ['minItems', 'maxItems'], options, { type: 'array', items }),
    constraints: ['minItems', 'maxItems'],
    children: (d) => [[d.items, '[]']],
    expected: () => 'array',
    slots: () => 1,
    variable: true,
    // A loop, not every(): every() skips holes, which made a sparse array of length 2^32 - 1
    // take minutes to be refused; a hole is undefined, which no item type takes. The length
    // is read once, as encoding reads it: an item's getter that appends to the array made a
    // walk that re-read it endless (fuzz finding J7).
    test(d, x, c) {
      if (!Array.isArray(x)) return false;
      const n = x.length;
      if (!within(n, d.minItems, d.maxItems)) return false;
      for (let k = 0; k < n; k++) if (!c.test(d.items, x[k])) return false;
      return true;
    },
    satisfies: (d, x) => within(x.length, d.minItems, d.maxItems),
    violations: (d, x) => countViolations('array', 'item', x.length, d.minItems, d.maxItems, describe(x)),
    put(c, d, x, shown) {
      if (!Array.isArray(x)) throw c.fail(shown, x);
      const n = x.length;
      if (constrained(d) && !within(n, d.minItems, d.maxItems)) throw c.violated(d, x);
      c.write(n);
      for (let k = 0; k < n; k++) {
        c.segments.push(k);
        c.put(d.items, x[k]);
        c.segments.pop();
      }
    },
    toJson: (d, x, c) => (Array.isArray(x) ? Array.from(x, (y) => c.toJson(d.items, y)) : x),
    fromJson: (d, j, c) => (Array.isArray(j) ? j.map((y) => c.fromJson(d.items, y)) : j),
    kinds: 'array',
    lower: (d, L) => ({ op: 'array', items: L.node(d.items), min: d.minItems, max: d.maxItems, minItem: L.minBytes(d.items), itemCost: L.itemCost(d.items) }),
    minBytes: () => 1,
  },
];

module.exports.buildCounts = buildCounts;
module.exports.stringItems = stringItems;
module.exports.UPFRONT = UPFRONT;
module.exports.SMALL_LITERALS = SMALL_LITERALS;
module.exports.within = within;
module.exports.constrained = constrained;
module.exports.countViolations = countViolations;
