'use strict';
// Finding J6 (scripts/fuzz.js, "odd buffers", seed 7, input 30794 of the 1M run before the
// re-entrant getter fix of the harness): an object schema whose field is named like an
// accessor of a built-in prototype (`length`, `byteOffset`, `byteLength`, `buffer` of typed
// arrays; `size` of Map and Set; `byteLength` of ArrayBuffer) reads that field from a
// transparent Proxy around such a built-in, and V8's getter throws a plain TypeError
// ("Method get TypedArray.prototype.length called on incompatible receiver") instead of
// ERR_SHORN_INVALID. Both marshallers, directly and under a union. The same built-in without
// the Proxy encodes (an object schema reads any object's fields: a Float32Array of 2 has
// length 2), and a Proxy where a typed array or a record is expected is ERR_SHORN_INVALID
// ("found Proxy"), so only the object read is left (issue 7, item 6, on the encode side).
//
//   node scripts/fuzz-findings/j6-proxy-of-builtin-getter.js
// Prints each outcome; every one should be a ShornError (or bytes), none a TypeError.
const { t, compile } = require('../..');

const cases = [
  ['object({ length: uint8 }), Proxy(Float32Array)', t.object({ length: t.uint8() }), () => new Proxy(new Float32Array(2), {})],
  ['union([uint8, object({ length: null })]), Proxy(Float32Array)', t.union([t.uint8(), t.object({ length: t.null() })]), () => new Proxy(new Float32Array(2), {})],
  ['object({ byteOffset: optional(uint8) }), Proxy(Uint8Array)', t.object({ byteOffset: t.optional(t.uint8()) }), () => new Proxy(new Uint8Array(2), {})],
  ['object({ size: uint8 }), Proxy(Map)', t.object({ size: t.uint8() }), () => new Proxy(new Map(), {})],
  ['object({ byteLength: uint8 }), Proxy(ArrayBuffer)', t.object({ byteLength: t.uint8() }), () => new Proxy(new ArrayBuffer(2), {})],
  ['for comparison: object({ length: uint8 }), a plain Float32Array', t.object({ length: t.uint8() }), () => new Float32Array(2)],
];
let plain = 0;
for (const [name, schema, make] of cases) {
  for (const codegen of [true, false]) {
    let out;
    try {
      out = `encoded ${Buffer.from(compile(schema, { codegen }).encode(make())).toString('hex')}`;
    } catch (e) {
      out = `${e.constructor.name} ${e.code || ''} ${e.message.split('\n')[0]}`;
      if (!e.code) plain++;
    }
    console.log(`${name}, ${codegen ? 'generated' : 'generic'}: ${out}`);
  }
}
console.log(plain ? `${plain} plain TypeErrors: J6 reproduces` : 'no plain TypeError: J6 is fixed');
