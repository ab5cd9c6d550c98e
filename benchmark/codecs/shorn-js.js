'use strict';
// shorn on its JS back end (lib/js-backend.js: no addon, no code generation), as a browser
// or a Node without a binary runs it (benchmark/backends.js sets it beside the native one).
const shorn = require('./shorn');
const { t, compile } = require('../..');

module.exports = {
  name: 'shorn-js',
  validatesItself: true,
  setup(fixture) {
    const codec = compile(fixture.schemas.shorn(t), { backend: 'js' });
    if (codec.backend !== 'js') throw new Error('shorn-js: the codec is not on the JS back end');
    const native = shorn.setup(fixture);
    return {
      encode: (value) => codec.encode(value),
      decode: (bytes) => codec.decode(bytes),
      encodeUnchecked: native.encodeUnchecked,
    };
  },
};
