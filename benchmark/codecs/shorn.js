'use strict';
// shorn, through its public API exactly as a user calls it. Until the addon builds, requiring it
// throws and every shorn cell reports that failure.
const { t, compile } = require('../..');

module.exports = {
  name: 'shorn',
  // shorn checks values against its own schema, so personValidated runs no zod for it.
  validatesItself: true,
  setup(fixture) {
    const codec = compile(fixture.schemas.shorn(t));
    return {
      encode: (value) => codec.encode(value),
      decode: (bytes) => codec.decode(bytes),
    };
  },
};
