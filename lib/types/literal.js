'use strict';
// literal (one string, finite number, boolean or null) and null: zero bytes and no tape
// slot (src/types/literal.rs). Encode requires Object.is(value, literal); decode gives it.

const { ShornError } = require('../errors');

function schemaError(message) {
  return new ShornError('ERR_SHORN_SCHEMA', `invalid schema: ${message}`);
}

function value(d) {
  return d.type === 'null' ? null : d.value;
}

const common = {
  expected: (d) => (value(d) === null ? 'null' : `${JSON.stringify(value(d))} (literal)`),
  slots: () => 0,
  test: (d, x) => Object.is(x, value(d)),
  put(c, d, x, shown) {
    if (!Object.is(x, value(d))) throw c.fail(shown, x);
  },
  toJson: (d, x) => x,
  fromJson: (d, j) => j,
  kinds: (d, K) => K.kind(value(d) === null ? 'null' : typeof value(d)),
  lower: (d) => ({ op: 'const', value: value(d) }),
  minBytes: () => 0,
};

module.exports = [
  {
    ...common,
    name: 'literal',
    members: ['value'],
    // src/types/literal.rs: lib/schema-rules.js.
    rules(d, cx) {
      const v = cx.member(d, 'value');
      if (v !== null && typeof v === 'object') throw cx.fail(`a literal is a string, number, boolean or null, not ${cx.kind(v)}`);
      return { k: 'literal', value: v };
    },
    build(v) {
      const ok = v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
      if (!ok) throw schemaError('t.literal takes a string, a finite number, a boolean or null');
      if (Object.is(v, -0)) throw schemaError('t.literal(-0): descriptors are JSON, which has no -0');
      return { type: 'literal', value: v };
    },
  },
  { ...common, name: 'null', rules: () => ({ k: 'literal', value: null }), build: () => ({ type: 'null' }) },
];

module.exports.value = value;
