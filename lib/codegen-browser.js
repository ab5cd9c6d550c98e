'use strict';
// The browser and worker build's lib/codegen.js and lib/native.js (package.json "imports",
// `#codegen` and `#native`): the native back end, its generated code and its tape walk,
// which need the addon. There the JS back end (lib/js-backend.js) runs every codec,
// generating its own functions where eval is allowed (lib/closures.js), so nothing here is
// ever called.

module.exports = {};
