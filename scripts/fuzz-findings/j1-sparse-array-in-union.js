'use strict';
// Finding J1 (scripts/fuzz.js, "huge sparse array"): encoding an empty array with a huge
// `length` where a union can hold an array takes time in proportion to the length, not
// to the array's contents: the union's variant test walks every index. An array whose
// length is 2^32 - 1 (built by code: `a.length = 2 ** 32 - 1`) stalled one encode for
// minutes (293 s in the fuzz run). A plain `t.array(...)` fails at $[0] at once.
//
//   node scripts/fuzz-findings/j1-sparse-array-in-union.js
// Prints the time of each encode; every one should be well under a millisecond.
const { t, compile } = require('../..');

const J = t.recursive('J', (self) => t.union([t.null(), t.bool(), t.float64(), t.string(), t.array(self), t.record(self)]));
const cases = [
  ['union([null, array(uint8)]), generic marshaller', compile(t.union([t.null(), t.array(t.uint8())]), { codegen: false })],
  ['recursive json-like union, generated code', compile(J, { codegen: true })],
  ['recursive json-like union, generic marshaller', compile(J, { codegen: false })],
];
for (const [name, codec] of cases) {
  const a = [];
  a.length = 1e8;
  const started = process.hrtime.bigint();
  let outcome;
  try {
    codec.encode(a);
    outcome = 'encoded';
  } catch (e) {
    outcome = `${e.code} at ${e.path}`;
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(`${name}: length 1e8 -> ${outcome} in ${ms.toFixed(1)} ms${ms > 100 ? '  <-- slow' : ''}`);
}
