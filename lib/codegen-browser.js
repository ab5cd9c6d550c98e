'use strict';
// The browser and worker build's lib/codegen.js (package.json "imports", `#codegen`): the
// generated code of the native back end, which needs the addon. There the JS back end
// (lib/js-backend.js) runs every codec, generating its own functions where eval is allowed
// (lib/closures.js), so nothing here is ever called.

module.exports = {};
