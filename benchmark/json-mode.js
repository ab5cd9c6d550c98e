'use strict';
// shorn without a schema, `t.json()`, on the corpora, against JSON and msgpackr (with
// records, as in run.js's tables), and shorn with the corpus's schema for reference. Each
// codec x corpus x operation in its own process (benchmark/child.js: the round trip is
// checked deep-equal first), the codec order alternating by round. Prints ops/s medians,
// their range, and t.json() / the fastest of JSON string and msgpackr; docs/DESIGN.md,
// "`t.json()`", quotes it. Not part of run.js.
//
//   node benchmark/json-mode.js [--rounds 3] [--corpora twitter,github_events] [--ops decode]

const { parseArgs } = require('node:util');
const { median } = require('./stats');
const { runChild } = require('./spawn-child');
const { CORPUS_NAMES } = require('./fixtures');

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    corpora: { type: 'string', default: CORPUS_NAMES.join(',') },
    ops: { type: 'string', default: 'decode,encode' },
  },
});
const CODECS = ['json-string', 'msgpackr', 'shorn-json', 'shorn'];
// The peers t.json() is set against: the other codecs that need no schema.
const PEERS = ['json-string', 'msgpackr'];
const corpora = args.corpora.split(',');
const ops = args.ops.split(',');
const rounds = Number(args.rounds);

const rates = new Map();
const cell = (corpus, op, codec) => `${corpus} ${op} ${codec}`;
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? CODECS : [...CODECS].reverse();
  for (const corpus of corpora) {
    for (const op of ops) {
      for (const codec of order) {
        const result = runChild('child.js', { codec, fixture: corpus, op });
        const key = cell(corpus, op, codec);
        if (!rates.has(key)) rates.set(key, []);
        if (!result.ok) {
          console.error(`${key}: ${result.error}`);
          process.exitCode = 1;
          continue;
        }
        rates.get(key).push(result.opsPerSec);
        console.error(`[round ${r + 1}/${rounds}] ${key}: ${result.opsPerSec.toFixed(1)} ops/s`);
      }
    }
  }
}

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
console.log(`t.json() on the corpora, ops/s (median of ${rounds} processes; range)\n`);
console.log('| corpus | JSON string | msgpackr (records) | shorn t.json() | shorn, schema | t.json() / best of JSON, msgpackr |');
console.log('|---|--:|--:|--:|--:|--:|');
for (const corpus of corpora) {
  for (const op of ops) {
    const medians = {};
    const cells = CODECS.map((codec) => {
      const xs = rates.get(cell(corpus, op, codec)) || [];
      if (xs.length === 0) return 'n/a';
      medians[codec] = median(xs);
      return `${fmt(medians[codec])} (${fmt(Math.min(...xs))}-${fmt(Math.max(...xs))})`;
    });
    const best = Math.max(...PEERS.map((p) => medians[p] ?? 0));
    const ratio = medians['shorn-json'] !== undefined && best > 0 ? `${(medians['shorn-json'] / best).toFixed(2)}x` : 'n/a';
    console.log(`| ${corpus} ${op} | ${cells.join(' | ')} | ${ratio} |`);
  }
}
