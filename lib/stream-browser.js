'use strict';
// The browser and worker build's lib/stream.js (package.json "imports", `#stream`):
// `codec.encoder()` and `codec.decoder()` are Node streams, which a page or a worker does
// not have. Framing itself works there: `encodeFrames` and `decodeFrames`.

function notInBrowser(name) {
  return class {
    constructor() {
      throw new Error(`shorn: codec.${name}() is a Node stream, not in shorn's browser build; use codec.encodeFrames and codec.decodeFrames on the bytes your transport gives`);
    }
  };
}

module.exports = { FrameEncoder: notInBrowser('encoder'), FrameDecoder: notInBrowser('decoder') };
