'use strict';
// shorn without a schema, `t.json()`, on the corpora, against JSON, msgpackr with records off
// (keys and types on the wire, as `t.json()` writes them: issue 43's peer) and with records
// (as in run.js's tables), and shorn with the corpus's schema for reference. Each
// codec x corpus x operation in its own process (benchmark/child.js: the round trip is
// checked deep-equal first), the codec order alternating by round. Prints ops/s medians,
// their range, and t.json() / the fastest of JSON string and msgpackr; docs/DESIGN.md,
// "`t.json()`", quotes it. Not part of run.js.
//
//   node benchmark/json-mode.js [--rounds 3] [--corpora twitter,github_events] [--ops decode]

const { parseArgs } = require('node:util');
const { median, medianRangeCell } = require('./stats');
const { runRounds, cellKey } = require('./spawn-child');
const { CORPUS_NAMES } = require('./fixtures');

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    corpora: { type: 'string', default: CORPUS_NAMES.join(',') },
    ops: { type: 'string', default: 'decode,encode' },
  },
});
const CODECS = ['json-string', 'msgpackr-plain', 'msgpackr', 'shorn-json', 'shorn'];
// The peers t.json() is set against: the other codecs that need no schema (msgpackr with
// records keeps a structure per key list, out of band: a schema of sorts; shown, not set
// against).
const PEERS = ['json-string', 'msgpackr-plain'];
const corpora = args.corpora.split(',');
const ops = args.ops.split(',');
const rounds = Number(args.rounds);

const cells = corpora.flatMap((fixture) => ops.map((op) => ({ fixture, op })));
const rates = runRounds({ rounds, codecs: CODECS, cells });

console.log(`t.json() on the corpora, ops/s (median of ${rounds} processes; range)\n`);
console.log('| corpus | JSON string | msgpackr (records off) | msgpackr (records) | shorn t.json() | shorn, schema | t.json() / best of JSON, msgpackr (records off) |');
console.log('|---|--:|--:|--:|--:|--:|--:|');
for (const { fixture, op } of cells) {
  const medianOf = (codec) => {
    const xs = rates.get(cellKey(fixture, op, codec));
    return xs.length ? median(xs) : undefined;
  };
  const cellsText = CODECS.map((codec) => medianRangeCell(rates.get(cellKey(fixture, op, codec))));
  const best = Math.max(...PEERS.map((p) => medianOf(p) ?? 0));
  const own = medianOf('shorn-json');
  const ratio = own !== undefined && best > 0 ? `${(own / best).toFixed(2)}x` : 'n/a';
  console.log(`| ${fixture} ${op} | ${cellsText.join(' | ')} | ${ratio} |`);
}
