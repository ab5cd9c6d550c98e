'use strict';
// enum: one of a list of distinct strings, as the varint index of the string (src/types/
// enumeration.rs). Tape: one slot, the index.

const { ShornError } = require('../errors');

// The compiler's reading of the descriptor (src/types/enumeration.rs: lib/schema-rules.js).
function rules(d, cx) {
  const values = cx.member(d, 'values');
  if (!Array.isArray(values)) throw cx.fail('enum "values" must be an array of strings');
  if (values.length === 0) throw cx.fail('enum needs at least one value');
  const seen = new Set();
  values.forEach((v, i) => {
    if (typeof v !== 'string') throw cx.fail(`enum value ${i} is a ${cx.kind(v)}, not a string`);
    if (seen.has(v)) throw cx.fail(`enum value ${JSON.stringify(v)} appears twice`);
    seen.add(v);
  });
  if (Object.hasOwn(d, 'default')) {
    const s = d.default;
    if (typeof s !== 'string') throw cx.fail('enum "default" must be a string');
    if (!seen.has(s)) throw cx.fail(`enum default ${JSON.stringify(s)} is not one of its values`);
  }
  return { k: 'enum' };
}

module.exports = [
  {
    name: 'enum',
    members: ['values', 'default'],
    rules,
    // `options.default`: the symbol a reader reads a newer writer's unknown symbols as
    // (schema evolution, lib/evolve.js); not on the wire.
    build(values, options = {}) {
      if (!Array.isArray(values)) throw new ShornError('ERR_SHORN_SCHEMA', 'invalid schema: t.enum takes an array of strings');
      if (typeof options !== 'object' || options === null) {
        throw new ShornError('ERR_SHORN_SCHEMA', 'invalid schema: t.enum options must be an object');
      }
      return options.default === undefined ? { type: 'enum', values: [...values] } : { type: 'enum', values: [...values], default: options.default };
    },
    // Long lists are cut: an error message need not carry a million symbols.
    expected: (d) =>
      d.values.length <= 12
        ? `one of ${d.values.map((v) => JSON.stringify(v)).join(', ')}`
        : `one of ${d.values
            .slice(0, 10)
            .map((v) => JSON.stringify(v))
            .join(', ')}, ... (${d.values.length} values)`,
    slots: () => 1,
    test: (d, x) => typeof x === 'string' && d.values.includes(x),
    put(c, d, x, shown) {
      const k = typeof x === 'string' ? c.index(d).get(x) : undefined;
      if (k === undefined) throw c.fail(shown, x);
      c.write(k);
    },
    toJson: (d, x) => x,
    fromJson: (d, j) => j,
    kinds: 'string',
    lower: (d, L) => ({ op: 'enum', values: d.values, index: L.m.index(d) }),
    minBytes: () => 1,
  },
];
