'use strict';
// The JS back end (lib/js-backend.js) against the native one and against msgpackr's pure-JS
// mode (records on, no msgpackr-extract): issue 39's Node floor (within 2x of native, ahead
// of msgpackr's pure JS, every fixture). Each codec x fixture x operation in its own process
// (benchmark/child.js: the round trip is checked deep-equal first), the codec order
// alternating by round. Prints ops/s medians and range, and the two ratios. Not part of
// run.js; docs/DESIGN.md, "The JS back end", quotes it.
//
//   node benchmark/backends.js [--rounds 3] [--fixtures person,nestedEvent] [--ops decode]

const { parseArgs } = require('node:util');
const { median, medianRangeCell } = require('./stats');
const { runRounds, cellKey } = require('./spawn-child');
const { FIXTURE_NAMES } = require('./fixtures');

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    fixtures: { type: 'string', default: FIXTURE_NAMES.join(',') },
    ops: { type: 'string', default: 'encode,decode' },
  },
});
const CODECS = ['shorn', 'shorn-js', 'msgpackr-js'];
const fixtures = args.fixtures.split(',');
const ops = args.ops.split(',');
const rounds = Number(args.rounds);

const cells = fixtures.flatMap((fixture) => ops.map((op) => ({ fixture, op })));
const rates = runRounds({ rounds, codecs: CODECS, cells });

const x = (a, b) => (a !== undefined && b !== undefined && b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a');
console.log(`The JS back end, ops/s (median of ${rounds} processes; range)\n`);
console.log('| fixture, op | shorn native | shorn JS back end | msgpackr pure JS | JS / native | JS / msgpackr pure JS |');
console.log('|---|--:|--:|--:|--:|--:|');
for (const { fixture, op } of cells) {
  const medianOf = (codec) => {
    const xs = rates.get(cellKey(fixture, op, codec));
    return xs && xs.length ? median(xs) : undefined;
  };
  const text = CODECS.map((codec) => medianRangeCell(rates.get(cellKey(fixture, op, codec))));
  console.log(`| ${fixture} ${op} | ${text.join(' | ')} | ${x(medianOf('shorn-js'), medianOf('shorn'))} | ${x(medianOf('shorn-js'), medianOf('msgpackr-js'))} |`);
}
