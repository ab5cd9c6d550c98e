'use strict';
// The browser and worker build's lib/json-tape.js (package.json "imports", `#json-tape`):
// the tape form of t.json() values, which only the native back end reads and writes. There
// the JS back end writes and reads json values in their bytes itself (lib/closures.js,
// lib/js-backend.js); lib/types/json.js finds no `write` here and marshals by `put`.

module.exports = {};
