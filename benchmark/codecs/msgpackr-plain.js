'use strict';
// msgpackr with records off: every map writes its keys and every value its type, as shorn's
// `t.json()` and `t.record` do (benchmark/json-mode.js, benchmark/constructs.js set them
// against it). Native string extraction (msgpackr-extract) is on when installed.
const { Packr } = require('msgpackr');

module.exports = {
  name: 'msgpackr-plain',
  setup() {
    const packr = new Packr({ useRecords: false });
    return {
      encode: (value) => packr.pack(value),
      decode: (bytes) => packr.unpack(bytes),
    };
  },
};
