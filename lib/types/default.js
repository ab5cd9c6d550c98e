'use strict';
// default: an object field that may be missing or undefined on encode, where the default
// is encoded instead; always present on decode. On the wire it is its type
// (src/types/default.rs). The descriptor holds the default in its type's JSON form
// (`toJson`, docs/FORMAT.md "JSON forms"), so it stays plain JSON; compile reads it back
// (`fromJson`) and checks it fits. Encoding never changes a value, so one default value
// serves every encode.

const { ShornError } = require('../errors');

function schemaError(message) {
  return new ShornError('ERR_SHORN_SCHEMA', `invalid schema: ${message}`);
}

module.exports = [
  {
    name: 'default',
    members: ['of', 'value'],
    // src/types/default.rs: lib/schema-rules.js.
    rules(d, cx) {
      const inner = cx.node(cx.member(d, 'of'));
      if (inner.k === 'optional' || inner.k === 'default') throw cx.fail('default of optional or default: a default field is never absent');
      cx.member(d, 'value');
      return { k: 'default', inner };
    },
    build(of, value) {
      if (value === undefined) throw schemaError('t.default takes a type and its default value (not undefined)');
      if (typeof of !== 'object' || of === null) throw schemaError('t.default takes a type and its default value');
      // Required here, not at the top: lib/generic.js requires this registry.
      const { jsonForms } = require('../generic');
      return { type: 'default', of, value: jsonForms(of).toJson(of, value) };
    },
    children: (d) => [[d.of, '']],
    expected: (d, g) => g.expected(d.of),
    slots: (d, g) => g.slots(d.of),
    test: (d, x, c) => x === undefined || c.test(d.of, x),
    put(c, d, x) {
      c.put(d.of, x === undefined ? c.m.defaultValue(d) : x);
    },
    toJson: (d, x, c) => c.toJson(d.of, x),
    fromJson: (d, j, c) => c.fromJson(d.of, j),
    lower: (d, L) => ({ op: 'default', of: L.node(d.of) }),
    minBytes: (d, r) => r.minBytes(d.of),
  },
];
