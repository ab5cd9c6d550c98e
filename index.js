'use strict';
// shorn's public API: lib/compile.js, and `createRegistry` (lib/envelope.js) over it. The
// ESM entry (index.mjs) takes each from its own module, so a bundle that does not import
// `createRegistry` leaves lib/envelope.js out (package.json "sideEffects": false).

const { t, compile, encode, decode, fromZod, fromZodReport, fromJsonSchema, compatibility, ShornError, Codec, optionsOf } = require('./lib/compile');
const { createRegistry } = require('./lib/envelope').registries({ compile, Codec, optionsOf });

module.exports = { t, compile, encode, decode, fromZod, fromZodReport, fromJsonSchema, compatibility, createRegistry, ShornError, Codec };
