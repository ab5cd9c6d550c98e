'use strict';
// shorn, through its public API exactly as a user calls it. Until the addon builds, requiring it
// throws and every shorn cell reports that failure.
const { t, compile } = require('../..');

const CONSTRAINTS = new Set(['min', 'max', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'maxEntries']);
// (The benchmark's schemas have no default or literal values these names could be part of.)
const withoutConstraints = (schema) => JSON.parse(JSON.stringify(schema, (key, value) => (CONSTRAINTS.has(key) ? undefined : value)));

module.exports = {
  name: 'shorn',
  // shorn checks values against its own schema, so personValidated runs no zod for it.
  validatesItself: true,
  setup(fixture) {
    const schema = fixture.schemas.shorn(t);
    const codec = compile(schema);
    return {
      encode: (value) => codec.encode(value),
      decode: (bytes) => codec.decode(bytes),
      // The same schema without its constraints: what a sender that ignores them writes.
      encodeUnchecked: (value) => compile(withoutConstraints(schema)).encode(value),
    };
  },
};
