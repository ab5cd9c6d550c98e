'use strict';
// gsoc-2018 as a server receives it: several distinct documents of that size, decoded (and
// encoded) in turn, not one message over and over. Each codec in its own process per round
// (benchmark/child.js --variants), the codec order alternating by round; every variant's
// round trip is checked before anything is timed. Prints a table of medians (ops/s) and
// shorn's ratio to the fastest peer.
//
//   node benchmark/varied.js [--variants 6] [--rounds 3] [--codecs shorn,msgpackr]
//
// Why it exists: V8 may decide to make a decoder's objects in its old generation
// (allocation-site pretenuring), and a process that decodes distinct large documents ends
// up there far more often than one that repeats a message (docs/DESIGN.md, "gsoc-2018
// decode is bimodal by process").

const { parseArgs } = require('node:util');
const { median, medianRangeCell } = require('./stats');
const { runRounds, cellKey } = require('./spawn-child');

const { values: args } = parseArgs({
  options: {
    variants: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '3' },
    codecs: { type: 'string', default: 'json-string,json-bytes,avsc,msgpackr,shorn' },
    fixture: { type: 'string', default: 'gsoc-2018' },
  },
});
const codecs = args.codecs.split(',');
const rounds = Number(args.rounds);
const OPS = ['decode', 'encode'];

const cells = OPS.map((op) => ({ fixture: args.fixture, op, variants: args.variants }));
const rates = runRounds({ rounds, codecs, cells });

console.log(`${args.fixture}, ${args.variants} distinct documents in turn, ops/s (median of ${rounds} processes; range)\n`);
console.log(`| op | ${codecs.join(' | ')} | shorn / best peer |`);
console.log(`|---|${codecs.map(() => '--:|').join('')}--:|`);
for (const op of OPS) {
  let best = 0;
  for (const codec of codecs) {
    const xs = rates.get(cellKey(args.fixture, op, codec));
    if (codec !== 'shorn' && xs.length) best = Math.max(best, median(xs));
  }
  const cellsText = codecs.map((codec) => medianRangeCell(rates.get(cellKey(args.fixture, op, codec))));
  const shorn = rates.get(cellKey(args.fixture, op, 'shorn'));
  const ratio = shorn && shorn.length && best > 0 ? `${(median(shorn) / best).toFixed(2)}x` : 'n/a';
  console.log(`| ${op} | ${cellsText.join(' | ')} | ${ratio} |`);
}
