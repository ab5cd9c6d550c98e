'use strict';
// One speed measurement: one codec, one fixture, one operation, in a fresh process, so that no
// other codec's inline caches distort it. Checks the round trip first, then times. Prints one
// JSON line on stdout: {ok: true, opsPerSec, bytes, mbPerSec, ...} or {ok: false, error}.
//
//   node benchmark/child.js --codec avsc --fixture person --op encode [--warmup-ms 300 --sample-ms 150 --samples 5]
//
// With --variants K (a fixture that has `vary`: gsoc-2018), the operation cycles through K
// distinct documents like the fixture's, each round-trip checked first, as a server that
// receives different messages would (benchmark/varied.js).

const { parseArgs, isDeepStrictEqual, inspect } = require('node:util');
const { performance } = require('node:perf_hooks');
const { gzipSync } = require('node:zlib');
const { loadFixture } = require('./fixtures');
const { loadAdapter, buildCodec } = require('./codecs');
const { firstDifference } = require('./difference');
const { median } = require('./stats');
const { step, printResult } = require('./child-common');

const { values: args } = parseArgs({
  options: {
    codec: { type: 'string' },
    fixture: { type: 'string' },
    op: { type: 'string' },
    'warmup-ms': { type: 'string', default: '300' },
    'sample-ms': { type: 'string', default: '150' },
    samples: { type: 'string', default: '5' },
    variants: { type: 'string', default: '1' },
  },
});
const plan = { warmupMs: Number(args['warmup-ms']), sampleMs: Number(args['sample-ms']), samples: Number(args.samples) };

// Every result feeds this sink, printed at the end, so no timed call can be optimised away.
let sink = 0;

function runBatch(operation, count) {
  for (let i = 0; i < count; i++) sink += operation();
}

// Returns ops/s per sample. The clock is read once per batch, not per op: performance.now()
// costs ~47 ns here, half of a whole avsc person encode (~110 ns). Warm-up doubles the batch
// until one takes 1 ms; an op slower than a sample (events100k) then runs once per batch, so
// samples stay bounded by count as well as by time.
function measure(operation) {
  let batch = 1;
  const warmupEnd = performance.now() + plan.warmupMs;
  while (performance.now() < warmupEnd) {
    const start = performance.now();
    runBatch(operation, batch);
    if (performance.now() - start < 1) batch *= 2;
  }
  const rates = [];
  for (let s = 0; s < plan.samples; s++) {
    const start = performance.now();
    let ops = 0;
    let elapsed;
    do {
      runBatch(operation, batch);
      ops += batch;
      elapsed = performance.now() - start;
    } while (elapsed < plan.sampleMs);
    rates.push(ops / (elapsed / 1000));
  }
  return rates;
}

function decodes(codec, bytes) {
  try {
    codec.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function accepts(codec, value) {
  try {
    codec.encode(value);
    return true;
  } catch {
    return false;
  }
}

// Encodes `value` and checks that its decode is deep-equal to `expected` (built apart from
// `value`, so a codec that changes its input cannot pass by changing both); returns the
// bytes. Encodes twice and checks the second: msgpackr records its structures on the first
// call, and the steady-state bytes are what the decode loop reads. `what` names the check
// in the failure.
function roundTrip(codec, value, expected, what) {
  const encoded = step('encode', () => {
    codec.encode(value);
    return codec.encode(value);
  });
  const decoded = step('decode', () => codec.normalize(codec.decode(encoded)));
  if (!isDeepStrictEqual(decoded, expected)) throw new Error(`${what} differs: ${firstDifference(expected, decoded)}`);
  return encoded;
}

// Builds the codec, checks that encode-then-decode returns a deep-equal value and that encode
// rejects the fixture's invalid values. Returns what the timing needs, or throws an Error whose
// message is the cell's failure reason.
function prepare() {
  const fixture = loadFixture(args.fixture);
  const adapter = step('load', () => loadAdapter(args.codec));
  const codec = step('setup', () => buildCodec(adapter, fixture));
  const value = step('prepare', () => codec.prepare(fixture.value));
  // Built apart from `value`, so a codec that changes its input cannot pass by changing both.
  const expected = loadFixture(args.fixture).value;
  const encoded = roundTrip(codec, value, expected, 'round trip');
  for (const invalid of fixture.invalidValues) {
    if (accepts(codec, invalid)) {
      throw new Error(`validation missing: encode accepted ${inspect(invalid, { breakLength: Infinity })}`);
    }
  }
  for (const invalid of fixture.invalidMessages) {
    const bytes = step('encode unchecked', () => codec.encodeUnchecked(codec.prepare(invalid)));
    if (decodes(codec, bytes)) {
      throw new Error(`validation missing: decode accepted the bytes of ${inspect(invalid, { breakLength: Infinity })}`);
    }
  }
  return { codec, value, encoded, probe: fixture.probe, corpus: fixture.corpus };
}

// The encoded output through gzip at its default level (6), as a transport that compresses
// would send it; json-string's output is its UTF-8.
function gzipBytes(encoded) {
  return gzipSync(typeof encoded === 'string' ? Buffer.from(encoded, 'utf8') : encoded).length;
}

// --variants: K distinct documents (fixture.vary), each encoded and round-trip checked.
function prepareVariants(count) {
  const fixture = loadFixture(args.fixture);
  if (typeof fixture.vary !== 'function') throw new Error(`--variants: fixture '${args.fixture}' has no variants`);
  const adapter = step('load', () => loadAdapter(args.codec));
  const codec = step('setup', () => buildCodec(adapter, fixture));
  const values = [];
  const encoded = [];
  for (let k = 0; k < count; k++) {
    const value = step('prepare', () => codec.prepare(fixture.vary(fixture.value, k)));
    const expected = fixture.vary(loadFixture(args.fixture).value, k);
    values.push(value);
    encoded.push(roundTrip(codec, value, expected, `round trip of variant ${k}`));
  }
  return { codec, values, encoded, probe: fixture.probe };
}

function measureVariants(count) {
  const { codec, values, encoded, probe } = prepareVariants(count);
  let j = 0;
  const next = () => {
    const k = j;
    j = j + 1 === count ? 0 : j + 1;
    return k;
  };
  const operation = args.op === 'encode' ? () => codec.encode(values[next()]).length : () => probe(codec.decode(encoded[next()]));
  const rates = step('timed loop', () => measure(operation));
  const opsPerSec = median(rates);
  const bytes = codec.size(encoded[0]);
  return { opsPerSec, bytes, variants: count, mbPerSec: (bytes * opsPerSec) / 1e6, rates, sink };
}

function measureCell() {
  if (args.op !== 'encode' && args.op !== 'decode') throw new Error(`--op must be encode or decode, got '${args.op}'`);
  const variants = Number(args.variants);
  if (!(Number.isInteger(variants) && variants >= 1)) throw new Error(`--variants must be a whole number from 1, got '${args.variants}'`);
  if (variants > 1) return measureVariants(variants);
  const { codec, value, encoded, probe, corpus } = prepare();
  const operation = args.op === 'encode' ? () => codec.encode(value).length : () => probe(codec.decode(encoded));
  const rates = step('timed loop', () => measure(operation));
  const opsPerSec = median(rates);
  const bytes = codec.size(encoded);
  // Only for the corpora: gzip of events100k's 23 MB would add seconds to every child.
  const gzip = corpus ? { gzipBytes: gzipBytes(encoded) } : {};
  return { opsPerSec, bytes, ...gzip, mbPerSec: (bytes * opsPerSec) / 1e6, rates, sink };
}

printResult({ codec: args.codec, fixture: args.fixture, op: args.op }, measureCell);
