'use strict';
// bytes: any Uint8Array (a Buffer included); decodes to a new Uint8Array that shares no
// memory with the input (src/types/bytes.rs). Tape on encode: none, the array travels as a
// call argument; on decode: the offset in the input and the length.

const rt = require('../runtime');

module.exports = [
  {
    name: 'bytes',
    build: () => ({ type: 'bytes' }),
    expected: () => 'Uint8Array',
    slots: () => 0,
    blobs: 1,
    emitTest: (g, d, x) => `rt.typedKind(${x}) === 'Uint8Array'`,
    emitPut(g, d, x, path, room, shown) {
      g.enc.push(`if (rt.typedKind(${x}) !== 'Uint8Array') ${g.fail(path, shown, x)}`);
      g.blob(x);
    },
    emitTake: () => 'rt.copyBytes(bytes, T[i++], T[i++])',
    test: (d, x) => rt.typedKind(x) === 'Uint8Array',
    put(c, d, x, shown) {
      if (rt.typedKind(x) !== 'Uint8Array') throw c.fail(shown, x);
      c.blob(x);
    },
    take: (c) => rt.copyBytes(c.bytes, c.T[c.i++], c.T[c.i++]),
  },
];
