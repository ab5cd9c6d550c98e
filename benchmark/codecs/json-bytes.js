'use strict';
// Baseline: JSON as UTF-8 bytes, the direct comparison for a binary transport.

module.exports = {
  name: 'json-bytes',
  setup() {
    return {
      encode: (value) => Buffer.from(JSON.stringify(value)),
      decode: (bytes) => JSON.parse(bytes.toString()),
    };
  },
};
