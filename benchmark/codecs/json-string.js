'use strict';
// Baseline: JSON text that stops at a JS string (no bytes), as BENCHMARKS.md defines it.

module.exports = {
  name: 'json-string',
  setup() {
    return {
      encode: (value) => JSON.stringify(value),
      decode: (text) => JSON.parse(text),
      // Report what the string would weigh on the wire, so bytes compare with the binary codecs.
      size: (text) => Buffer.byteLength(text, 'utf8'),
    };
  },
};
