'use strict';
// bytes: any Uint8Array (a Buffer included); decodes to a new Uint8Array that shares no
// memory with the input (src/types/bytes.rs). Tape on encode: none, the array travels as a
// call argument; on decode: the offset in the input and the length.

//
// Constraints (docs/FORMAT.md, "bytes"): `minLength` and `maxLength`, in bytes.

const rt = require('#runtime');
const host = require('#host');
const { describe } = require('../errors');
const { buildCounts, countViolations } = require('./array');

const constrained = (d) => d.minLength !== undefined || d.maxLength !== undefined;
// The true length, read through the typed-array intrinsic (a subclass's getter never runs).
const satisfies = (d, x) => {
  const n = rt.inputLength(x);
  return (d.minLength === undefined || n >= d.minLength) && (d.maxLength === undefined || n <= d.maxLength);
};

module.exports = [
  {
    name: 'bytes',
    members: ['minLength', 'maxLength'],
    // src/types/bytes.rs: lib/schema-rules.js.
    rules: (d, cx) => (cx.range(d, 'minLength', 'maxLength') ? cx.checked({ k: 'bytes' }) : { k: 'bytes' }),
    build: (options) => buildCounts('bytes', ['minLength', 'maxLength'], options),
    constraints: ['minLength', 'maxLength'],
    expected: () => 'Uint8Array',
    slots: () => 0,
    blobs: 1,
    test: (d, x) => rt.typedKind(x) === 'Uint8Array' && (!constrained(d) || satisfies(d, x)),
    satisfies,
    violations: (d, x) => countViolations('Uint8Array', 'byte', rt.inputLength(x), d.minLength, d.maxLength, describe(x)),
    put(c, d, x, shown) {
      if (rt.typedKind(x) !== 'Uint8Array') throw c.fail(shown, x);
      if (constrained(d) && !satisfies(d, x)) throw c.violated(d, x);
      c.blob(x);
    },
    // JSON form: base64; read back from base64 or an array of byte values.
    toJson: (d, x) => (rt.typedKind(x) === 'Uint8Array' ? host.base64(x) : x),
    fromJson(d, j) {
      if (typeof j === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(j)) return host.fromBase64(j);
      if (Array.isArray(j) && j.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) return Uint8Array.from(j);
      return j;
    },
    kinds: 'object',
    lower: () => ({ op: 'bytes' }),
    minBytes: () => 1,
  },
];

module.exports.constrained = constrained;
