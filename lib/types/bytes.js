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
    // JSON form: base64; read back from base64 or an array of byte values.
    toJson: (d, x) => (rt.typedKind(x) === 'Uint8Array' ? Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString('base64') : x),
    fromJson(d, j) {
      if (typeof j === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(j)) return new Uint8Array(Buffer.from(j, 'base64'));
      if (Array.isArray(j) && j.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) return Uint8Array.from(j);
      return j;
    },
    // `shorn inspect` (lib/cli/inspect.js): a length within maxBytesLength, then the bytes.
    inspect(r, d) {
      const at = r.offset;
      const n = r.length('bytes');
      return r.leaf(at, d, Uint8Array.from(r.take(n)));
    },
    minBytes: () => 1,
  },
];
