'use strict';
// Finding J7 (scripts/fuzz.js, "mutation during encode", seed 7, input 98154 of the 1M
// run): a getter that appends to the array being encoded, read while a union's variant
// test walks that array, makes the walk endless. The test (lib/types/array.js, the loop
// that replaced every() in the J1 fix) reads `x.length` on every step, so each element it
// tests adds another; in the fuzz run the array grew to 2^32 - 1 elements (300 s, 2 GB of
// RSS) before V8 threw "RangeError: Invalid array length" out of encode, which is not a
// ShornError either. every() and the marshal loop (`const n = x.length`) fix the length
// when they start; JSON.stringify does too.
//
//   node scripts/fuzz-findings/j7-growing-array-in-union.js
// The getter stops growing the array at CAP elements; a walk that fixes its length reads
// the getter once or twice per marshaller, not CAP times.
const { t, compile } = require('../..');

const CAP = 100000;
const schemas = {
  'union([uint8, array(record(float64))])': t.union([t.uint8(), t.array(t.record(t.float64()))]),
  'recursive json-like union': t.recursive('J', (self) => t.union([t.null(), t.float64(), t.array(self), t.record(self)])),
  'for comparison: array(record(float64)), no union': t.array(t.record(t.float64())),
};
let endless = 0;
for (const [name, schema] of Object.entries(schemas)) {
  for (const codegen of [true, false]) {
    const a = [];
    let reads = 0;
    const o = {
      get x() {
        reads++;
        if (a.length < CAP) a.push(o);
        return 1;
      },
    };
    Object.defineProperty(o, 'x', { enumerable: true });
    a.push(o);
    const started = process.hrtime.bigint();
    let out;
    try {
      out = `${compile(schema, { codegen }).encode(a).length} bytes`;
    } catch (e) {
      out = `${e.constructor.name} ${e.code || ''} ${e.message.split('\n')[0]}`;
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (reads >= CAP) endless++;
    console.log(`${name}, ${codegen ? 'generated' : 'generic'}: ${out}; the getter ran ${reads} times, the array has ${a.length} items, ${ms.toFixed(0)} ms`);
  }
}
console.log(endless ? `${endless} walks followed the array as it grew (to the cap of ${CAP}): J7 reproduces` : 'every walk fixed its length: J7 is fixed');
