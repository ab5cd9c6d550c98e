'use strict';
// Two builds of shorn (two checkouts, each built) in one process, one fixture, one
// operation, timed in turn: samples of ~50 ms alternating A and B (the order flipping each
// sample), the ratio B / A of time per op per pair. For A/B runs of a change too small to
// see across processes here (this machine's processes differ by up to 2x). The build
// loaded second can run slower, so run it both ways round, over several processes, and
// take the median of the ratios (B / A, then 1 / (A / B)); docs/DESIGN.md, "What small
// decodes had put on since", quotes it so.
//
//   node benchmark/fixture-ab.js A_ROOT B_ROOT person decode [samples]

const path = require('node:path');
const { isDeepStrictEqual } = require('node:util');
const { loadFixture } = require('./fixtures');
const { median } = require('./stats');

const [A, B, name, op, samples = '7'] = process.argv.slice(2);
if (!A || !B || !name || (op !== 'encode' && op !== 'decode')) {
  console.error('usage: node benchmark/fixture-ab.js A_ROOT B_ROOT FIXTURE encode|decode [samples]');
  process.exit(2);
}
const fixture = loadFixture(name);
const value = fixture.value;

function operation(root) {
  const { t, compile } = require(path.resolve(root));
  const codec = compile(fixture.schemas.shorn(t));
  const bytes = codec.encode(value);
  if (!isDeepStrictEqual(codec.decode(bytes), value)) throw new Error(`${root}: the round trip changed ${name}`);
  return { bytes: Buffer.from(bytes), op: op === 'encode' ? () => codec.encode(value).length : () => fixture.probe(codec.decode(bytes)) };
}

const a = operation(A);
const b = operation(B);
if (!a.bytes.equals(b.bytes)) throw new Error('the two builds encode different bytes');

let sink = 0;
// Ops per sample: doubled until one batch of A takes ~50 ms.
let batch = 1;
for (;;) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < batch; i++) sink += a.op();
  if (Number(process.hrtime.bigint() - start) > 5e7) break;
  batch *= 2;
}
function nsPerOp(fn) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < batch; i++) sink += fn();
  return Number(process.hrtime.bigint() - start) / batch;
}
nsPerOp(b.op);
nsPerOp(a.op);
const ta = [];
const tb = [];
for (let s = 0; s < Number(samples); s++) {
  if (s % 2) {
    ta.push(nsPerOp(a.op));
    tb.push(nsPerOp(b.op));
  } else {
    tb.push(nsPerOp(b.op));
    ta.push(nsPerOp(a.op));
  }
}
const fmt = (ns) => (ns < 1e4 ? `${ns.toFixed(1)} ns` : `${(ns / 1e3).toFixed(1)} us`);
console.log(
  `${name} ${op}: A ${fmt(median(ta))} B ${fmt(median(tb))} per op; B / A time ${median(tb.map((x, i) => x / ta[i])).toFixed(3)} (sink ${sink})`,
);
