'use strict';
// map: a JS Map with keys of any type, insertion order kept (src/types/map.rs): a varint
// count, then each key and its value. Paths name entries as `[...map][k][0]` (the key)
// and `[...map][k][1]` (the value) would. Tape on encode: one slot, the count, then per
// entry the key's and the value's slots; on decode the count, the offset of the count,
// then the entries. The native side rejects repeated keys it can compare; JS checks the
// Map's size for the rest (keys of unions or json).

//
// Constraints (docs/FORMAT.md, "map"): `maxEntries`, checked before any entry.

const rt = require('#runtime');
const { describe } = require('../errors');
const { buildCounts, within, countViolations } = require('./array');

module.exports = [
  {
    name: 'map',
    members: ['keys', 'values', 'maxEntries'],
    // src/types/map.rs: lib/schema-rules.js.
    rules(d, cx) {
      const keysOf = cx.member(d, 'keys');
      const keys = cx.within('[]', () => cx.value(keysOf));
      const valuesOf = cx.member(d, 'values');
      const node = { k: 'map', keys, values: cx.within('[]', () => cx.value(valuesOf)) };
      return cx.range(d, '', 'maxEntries') ? cx.checked(node) : node;
    },
    build: (keys, values, options) => buildCounts('map', ['maxEntries'], options, { type: 'map', keys, values }),
    constraints: ['maxEntries'],
    children: (d) => [
      [d.keys, '[][0]'],
      [d.values, '[][1]'],
    ],
    expected: () => 'Map',
    slots: () => 1,
    variable: true,
    test: (d, x, c) => rt.isMap(x) && within(x.size, undefined, d.maxEntries) && [...x].every(([k, v]) => c.test(d.keys, k) && c.test(d.values, v)),
    satisfies: (d, x) => within(x.size, undefined, d.maxEntries),
    violations: (d, x) => countViolations('Map', 'entry', x.size, undefined, d.maxEntries, describe(x)),
    put(c, d, x, shown) {
      if (!rt.isMap(x)) throw c.fail(shown, x);
      if (!within(x.size, undefined, d.maxEntries)) throw c.violated(d, x);
      c.write(x.size);
      let k = 0;
      for (const [key, value] of x) {
        c.segments.push(k, 0);
        c.put(d.keys, key);
        c.segments[c.segments.length - 1] = 1;
        c.put(d.values, value);
        c.segments.length -= 2;
        k++;
      }
    },
    // JSON form: an array of [key, value] pairs, in the Map's order.
    toJson: (d, x, c) => (rt.isMap(x) ? Array.from(x, ([k, v]) => [c.toJson(d.keys, k), c.toJson(d.values, v)]) : x),
    fromJson(d, j, c) {
      if (!Array.isArray(j) || !j.every((e) => Array.isArray(e) && e.length === 2)) return j;
      return new Map(j.map(([k, v]) => [c.fromJson(d.keys, k), c.fromJson(d.values, v)]));
    },
    kinds: 'object',
    lower: (d, L) => ({ op: 'map', keys: L.node(d.keys), values: L.node(d.values), max: d.maxEntries, minEntry: Math.max(1, L.minBytes(d.keys) + L.minBytes(d.values)), entryCost: L.entryCost(d) }),
    minBytes: () => 1,
  },
];

// How decode compares keys of type `d` (src/types/map.rs, key_kind): by their bytes
// (equal bytes, equal values), as floats, never (keys that decode to new objects), or
// only in JS (the decoded Map's size).
const BYTE_KEYS = new Set(['bool', 'uint8', 'uint16', 'uint32', 'int8', 'int16', 'int32', 'int', 'int64', 'uint64', 'string', 'enum', 'literal', 'null']);
const JS_KEYS = new Set(['union', 'json', 'ref', 'recursive', 'optional']);
function keyKind(d, r) {
  if (BYTE_KEYS.has(d.type)) return 'bytes';
  if (d.type === 'float32' || d.type === 'float64') return 'float';
  if (d.type === 'nullable') return keyKind(d.of, r) === 'bytes' ? 'bytes' : 'js';
  if (d.type === 'default') return keyKind(d.of, r);
  if (JS_KEYS.has(d.type)) return 'js';
  return 'objects';
}
module.exports.keyKind = keyKind;
