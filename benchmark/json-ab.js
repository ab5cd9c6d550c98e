'use strict';
// Two builds of shorn (two checkouts, each built) in one process, `t.json()` on one
// corpus, timed in turn: 200 ms samples alternating A and B, the ratio B / A per pair.
// For A/B runs of a change to `t.json()` where separate processes vary more than the
// change (this machine's processes differ by up to 2x). The build loaded second ran up
// to ~10% slower in some runs, so run it both ways round. docs/DESIGN.md quotes it.
//
//   node benchmark/json-ab.js A_ROOT B_ROOT twitter decode [samples]

const fs = require('node:fs');
const path = require('node:path');
const { isDeepStrictEqual } = require('node:util');
const { median } = require('./stats');

const [A, B, corpus, op, samples = '15'] = process.argv.slice(2);
if (!A || !B || !corpus || (op !== 'encode' && op !== 'decode')) {
  console.error('usage: node benchmark/json-ab.js A_ROOT B_ROOT CORPUS encode|decode [samples]');
  process.exit(2);
}
const text = fs.readFileSync(path.join(__dirname, 'data', `${corpus}.json`), 'utf8');
const value = JSON.parse(text);

function timed(root) {
  const { t, compile } = require(path.resolve(root));
  const codec = compile(t.json());
  const bytes = codec.encode(value);
  if (!isDeepStrictEqual(codec.decode(bytes), JSON.parse(text))) throw new Error(`${root}: the round trip changed ${corpus}`);
  return op === 'encode' ? () => codec.encode(value).length : () => (codec.decode(bytes) === null ? 0 : 1);
}

let sink = 0;
function rate(fn, ms) {
  const start = process.hrtime.bigint();
  const end = start + BigInt(ms * 1e6);
  let n = 0;
  let now;
  do {
    sink += fn();
    n++;
  } while ((now = process.hrtime.bigint()) < end);
  return n / (Number(now - start) / 1e9);
}

const a = timed(A);
const b = timed(B);
rate(a, 500);
rate(b, 500);
const ra = [];
const rb = [];
const ratios = [];
for (let s = 0; s < Number(samples); s++) {
  let x;
  let y;
  if (s % 2) {
    x = rate(a, 200);
    y = rate(b, 200);
  } else {
    y = rate(b, 200);
    x = rate(a, 200);
  }
  ra.push(x);
  rb.push(y);
  ratios.push(y / x);
}
console.log(
  `${corpus} ${op}: A ${median(ra).toFixed(0)} B ${median(rb).toFixed(0)} ops/s; B / A median ${median(ratios).toFixed(3)}` +
    ` (${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}; ${sink} results)`,
);
