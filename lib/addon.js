'use strict';
// Loads the native addon (the Rust core and N-API layer). Built from a git clone by
// `npm run build` (scripts/build.js), which puts it at the package root as shorn.node.

const path = require('node:path');

module.exports = require(path.join(__dirname, '..', 'shorn.node'));
