'use strict';
// tuple: an array of exactly as many items as the schema lists, each of its own type;
// the items one after another, no count (src/types/tuple.rs).

const { ShornError } = require('../errors');

module.exports = [
  {
    name: 'tuple',
    members: ['items'],
    // src/types/tuple.rs: lib/schema-rules.js.
    rules(d, cx) {
      const list = cx.member(d, 'items');
      if (!Array.isArray(list)) throw cx.fail('tuple "items" must be an array of types');
      return { k: 'tuple', items: list.map((item, i) => cx.within(`[${i}]`, () => cx.value(item))) };
    },
    build(items) {
      if (!Array.isArray(items)) throw new ShornError('ERR_SHORN_SCHEMA', 'invalid schema: t.tuple takes an array of types');
      return { type: 'tuple', items: [...items] };
    },
    children: (d) => (Array.isArray(d.items) ? d.items.map((item, k) => [item, `[${k}]`]) : []),
    expected: (d) => `array of length ${d.items.length} (tuple)`,
    slots: (d, g) => d.items.reduce((n, item) => n + g.slots(item), 0),
    test: (d, x, c) => Array.isArray(x) && x.length === d.items.length && d.items.every((item, k) => c.test(item, x[k])),
    put(c, d, x, shown) {
      if (!Array.isArray(x) || x.length !== d.items.length) throw c.fail(shown, x);
      for (let k = 0; k < d.items.length; k++) {
        c.segments.push(k);
        c.put(d.items[k], x[k]);
        c.segments.pop();
      }
    },
    toJson: (d, x, c) => (Array.isArray(x) && x.length === d.items.length ? d.items.map((item, k) => c.toJson(item, x[k])) : x),
    fromJson: (d, j, c) => (Array.isArray(j) && j.length === d.items.length ? d.items.map((item, k) => c.fromJson(item, j[k])) : j),
    kinds: 'array',
    lower: (d, L) => ({ op: 'tuple', items: d.items.map((item) => L.node(item)) }),
    minBytes: (d, r) => d.items.reduce((n, item) => n + r.minBytes(item), 0),
  },
];
