'use strict';
// shorn without a schema: every document through `t.json()`, the self-describing any-JSON
// type (docs/FORMAT.md, "json"). Not a column of run.js's tables; benchmark/json-mode.js
// sets it against JSON and msgpackr on the corpora.
const { t, compile } = require('../..');

module.exports = {
  name: 'shorn-json',
  setup() {
    const codec = compile(t.json());
    return {
      encode: (value) => codec.encode(value),
      decode: (bytes) => codec.decode(bytes),
    };
  },
};
