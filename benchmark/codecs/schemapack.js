'use strict';
// schemapack: its own type names, enums as strings (it has no enum type).
const schemapack = require('schemapack');

module.exports = {
  name: 'schemapack',
  setup(fixture) {
    const codec = schemapack.build(fixture.schemas.schemapack);
    return {
      encode: (value) => codec.encode(value),
      decode: (bytes) => codec.decode(bytes),
    };
  },
};
