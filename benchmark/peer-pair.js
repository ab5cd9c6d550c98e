'use strict';
// shorn and one peer in one process, one fixture, one operation, timed in turn: samples of
// ~100 ms alternating (the order flipping each pair), the ratio shorn rate / peer rate per
// pair, and its median. This machine's speed swings by up to 2x over seconds, within a
// process too, so two codecs timed in separate processes (npm run bench) can land in
// different phases; a pair of samples taken back to back mostly shares one. It is not the
// benchmark's method (one process per codec): both codecs share one V8 heap and JIT here,
// so use it to check a ratio the full runs leave in doubt, and quote it as what it is.
// Each codec gets its own timing loop (made by `new Function`), so neither loop's call
// site sees the other's function.
//
//   node benchmark/peer-pair.js unicodePerson decode [peer=json-string] [pairs=20]

const { isDeepStrictEqual } = require('node:util');
const { loadFixture } = require('./fixtures');
const { loadAdapter, buildCodec } = require('./codecs');
const { median } = require('./stats');

const [name, op, peer = 'json-string', pairsArg = '20'] = process.argv.slice(2);
const pairs = Number(pairsArg);
if (!name || (op !== 'encode' && op !== 'decode') || !(pairs > 0)) {
  console.error('usage: node benchmark/peer-pair.js FIXTURE encode|decode [peer] [pairs]');
  process.exit(2);
}

function runner(codecName) {
  const fixture = loadFixture(name);
  const codec = buildCodec(loadAdapter(codecName), fixture);
  const value = codec.prepare(fixture.value);
  // Twice, as benchmark/child.js does: msgpackr records its structures on the first call.
  codec.encode(value);
  const encoded = codec.encode(value);
  const expected = loadFixture(name).value;
  if (!isDeepStrictEqual(codec.normalize(codec.decode(encoded)), expected)) {
    throw new Error(`${codecName}: the round trip changed ${name}`);
  }
  const once = op === 'encode' ? () => codec.size(codec.encode(value)) : () => (fixture.probe(codec.decode(encoded)) === undefined ? 0 : 1);
  // eslint-disable-next-line no-new-func
  // Batches of up to 1000 ops, fewer for a slow op (events100k: one), so that a sample
  // stays near 100 ms.
  const t0 = performance.now();
  once();
  const batch = Math.max(1, Math.min(1000, Math.floor(10 / Math.max(performance.now() - t0, 1e-3))));
  const loop = new Function('once', 'batch', `let sink = 0;
    return function rate() {
      const start = performance.now();
      let n = 0;
      do {
        for (let i = 0; i < batch; i++) sink += once();
        n += batch;
      } while (performance.now() - start < 100);
      if (sink === -1) console.log(sink);
      return n / (performance.now() - start);
    };`)(once, batch);
  loop();
  loop();
  return loop;
}

const shorn = runner('shorn');
const other = runner(peer);
const ratios = [];
for (let k = 0; k < pairs; k++) {
  let a;
  let b;
  if (k % 2) {
    b = other();
    a = shorn();
  } else {
    a = shorn();
    b = other();
  }
  ratios.push(a / b);
}
ratios.sort((x, y) => x - y);
const fmt = (x) => `${x.toFixed(2)}x`;
console.log(`${name} ${op}: shorn / ${peer} rate, median of ${pairs} pairs ${fmt(median(ratios))} (${fmt(ratios[0])}-${fmt(ratios[ratios.length - 1])})`);
