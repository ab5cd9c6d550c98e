'use strict';
// record: a plain object with any own enumerable string keys, every value of one type
// (src/types/record.rs): a varint count, then each key (a string) and its value, in
// Object.keys order. Decode builds an ordinary object with every key an own data
// property, `__proto__` included, as JSON.parse does. Tape: one slot, the count (on decode
// then a shape slot if it has 4 to 64 entries, below); then per entry the key (on encode
// its length, its text travels with the strings; on decode a key slot of the message's
// key table, rt.keyTable, or an array index's, INDEX_KEY) and the value's slots.

//
// Constraints (docs/FORMAT.md, "record"): `maxEntries`, checked before any entry.

const rt = require('#runtime');
const { buildCounts, within, countViolations } = require('./array');

const entries = (n) => `object (${n} ${n === 1 ? 'entry' : 'entries'})`;

// On decode a record of MIN_SHAPE to MAX_SHAPE entries has a shape slot after its count
// (src/types/json.rs, RecordShape; shapes are shared with json values): -1, none; a
// record whose keys define shape s for the message, -2 - (s + MAX_SHAPES * hash); or s,
// a shape met before, whose keys it has, in order. A record of a known shape is built by
// the shape's builder, an object literal of its keys taking the values from an array
// (rt.shapeBuilder): built key by key, every store is a megamorphic keyed store that
// moves the object to a new hidden class (~16 ns a key; 200 records of 5 keys: 15.8 us
// by keyed stores, 3.7 by builders, in one process). Builders are kept for the process
// by the hash of their keys, and only where code is generated.
const MIN_SHAPE = 4;
const MAX_SHAPE = 64;
const BUILDERS = new Map();
// A key that is an array index comes as the one slot INDEX_KEY - index, no text
// (src/types/json.rs): stored by its number, it makes no string to parse back and hash.
const INDEX_KEY = -4294967296;

// The builder of shape `shape` of key table `K`, or null, kept in K for the rest of the
// message.
function builder(K, shape) {
  const b = rt.shapeBuilder(BUILDERS, K, shape, (members) => new Function('V', `return {\n  ${members.map((k, j) => `${k}: V[${j}]`).join(',\n  ')}\n};`));
  K.records[shape] = b;
  return b;
}

module.exports = [
  {
    name: 'record',
    members: ['values', 'maxEntries'],
    // src/types/record.rs: lib/schema-rules.js.
    rules(d, cx) {
      const of = cx.member(d, 'values');
      const node = { k: 'record', values: cx.within('[]', () => cx.value(of)) };
      return cx.range(d, '', 'maxEntries') ? cx.checked(node) : node;
    },
    build: (values, options) => buildCounts('record', ['maxEntries'], options, { type: 'record', values }),
    constraints: ['maxEntries'],
    children: (d) => [[d.values, '[]']],
    expected: () => 'plain object (record)',
    slots: () => 1,
    variable: true,
    test: (d, x, c) => rt.isPlainObject(x) && within(Object.keys(x).length, undefined, d.maxEntries) && Object.keys(x).every((k) => c.test(d.values, x[k])),
    satisfies: (d, x) => within(Object.keys(x).length, undefined, d.maxEntries),
    violations: (d, x) => countViolations('plain object (record)', 'entry', Object.keys(x).length, undefined, d.maxEntries, entries(Object.keys(x).length)),
    put(c, d, x, shown) {
      if (!rt.isPlainObject(x)) throw c.fail(shown, x);
      const keys = Object.keys(x);
      if (!within(keys.length, undefined, d.maxEntries)) throw c.violated(d, x);
      c.write(keys.length);
      for (const key of keys) {
        c.string(key);
        c.segments.push(key);
        c.put(d.values, x[key]);
        c.segments.pop();
      }
    },
    toJson(d, x, c) {
      if (!rt.isPlainObject(x)) return x;
      const o = {};
      for (const k of Object.keys(x)) rt.defineOwn(o, k, c.toJson(d.values, x[k]));
      return o;
    },
    fromJson(d, j, c) {
      if (!rt.isPlainObject(j)) return j;
      const o = {};
      for (const k of Object.keys(j)) rt.defineOwn(o, k, c.fromJson(d.values, j[k]));
      return o;
    },
    kinds: 'object',
    lower: (d, L) => ({ op: 'record', values: L.node(d.values), max: d.maxEntries, minEntry: 1 + L.minBytes(d.values), entryCost: L.entryCost(d) }),
    minBytes: () => 1,
  },
];
module.exports.MIN_SHAPE = MIN_SHAPE;
module.exports.MAX_SHAPE = MAX_SHAPE;
module.exports.INDEX_KEY = INDEX_KEY;
module.exports.builder = builder;
