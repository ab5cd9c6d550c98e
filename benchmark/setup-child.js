'use strict';
// Cold setup of one codec for one fixture's schema, in a fresh process: the time to load the
// library, to construct the codec the first time, to run its first encode+decode (protobufjs
// and others generate code lazily on first use), and the median of further constructions
// (which V8 and the library may have warmed by then). Prints one JSON line.
//
//   node benchmark/setup-child.js --codec avsc --fixture nestedEvent [--repeats 20]

const { parseArgs } = require('node:util');
const { performance } = require('node:perf_hooks');
const { loadFixture } = require('./fixtures');
const { loadAdapter } = require('./codecs');
const { median } = require('./stats');
const { step, printResult } = require('./child-common');

const { values: args } = parseArgs({
  options: {
    codec: { type: 'string' },
    fixture: { type: 'string' },
    repeats: { type: 'string', default: '20' },
  },
});

function timed(fn) {
  const start = performance.now();
  const result = fn();
  return { result, ms: performance.now() - start };
}

function measureCell() {
  const fixture = loadFixture(args.fixture);
  const value = fixture.value; // built before any clock starts
  const load = step('load', () => timed(() => loadAdapter(args.codec)));
  const adapter = load.result;
  // Zod is left out on purpose: this table is the codec's own schema construction.
  const first = step('setup', () => timed(() => adapter.setup(fixture)));
  const codec = first.result;
  const input = codec.prepare ? codec.prepare(value) : value; // untimed, as in child.js
  const firstRoundTrip = step('first round trip', () => timed(() => codec.decode(codec.encode(input))));
  const next = [];
  for (let i = 0; i < Number(args.repeats); i++) next.push(timed(() => adapter.setup(fixture)).ms);
  return {
    loadMs: load.ms,
    firstSetupUs: first.ms * 1000,
    firstRoundTripUs: firstRoundTrip.ms * 1000,
    nextSetupUs: median(next) * 1000,
  };
}

printResult({ codec: args.codec, fixture: args.fixture }, measureCell);
