'use strict';
// shorn without a schema, `t.json()`, on the corpora, against JSON, msgpackr with records off
// (keys and types on the wire, as `t.json()` writes them: issue 43's peer) and with records
// (as in run.js's tables), and shorn with the corpus's schema for reference. Each
// codec x corpus x operation in its own process (benchmark/child.js: the round trip is
// checked deep-equal first), pinned to the last core where `taskset` exists, the codec order
// alternating by round. Prints ops/s medians, their range, and t.json() / the fastest of
// JSON string and msgpackr (records off). run.js runs it in a full run (`run`, with the
// three codecs the floor needs); docs/DESIGN.md, "`t.json()`", quotes it.
//
//   node benchmark/json-mode.js [--rounds 3] [--corpora twitter,github_events] [--ops decode]

const os = require('node:os');
const { spawnSync } = require('node:child_process');
const { median, medianRangeCell } = require('./stats');
const { runRounds, cellKey } = require('./spawn-child');
const { CORPUS_NAMES } = require('./fixtures');

const CODECS = ['json-string', 'msgpackr-plain', 'msgpackr', 'shorn-json', 'shorn'];
// The peers t.json() is set against: the other codecs that need no schema (msgpackr with
// records keeps a structure per key list, out of band: a schema of sorts; shown, not set
// against).
const PEERS = ['json-string', 'msgpackr-plain'];
const HEADINGS = {
  'json-string': 'JSON string',
  'msgpackr-plain': 'msgpackr (records off)',
  msgpackr: 'msgpackr (records)',
  'shorn-json': 'shorn t.json()',
  shorn: 'shorn, schema',
};
// The core children are pinned to, as benchmark/constructs.js pins its own.
const PIN_CORE = os.cpus().length - 1;

/**
 * Runs every codec of `codecs` (shorn-json and the PEERS among them) on each corpus and
 * operation, `rounds` times; returns the report's markdown.
 */
function run(rounds = 3, { corpora = CORPUS_NAMES, ops = ['decode', 'encode'], codecs = CODECS } = {}) {
  const pin = process.platform === 'linux' && spawnSync('taskset', ['--version']).status === 0 ? PIN_CORE : undefined;
  const cells = corpora.flatMap((fixture) => ops.map((op) => ({ fixture, op })));
  const rates = runRounds({ rounds, codecs, cells, pin });
  const lines = [
    '## `t.json()` on the corpora',
    '',
    `Each corpus as one \`t.json()\` value (no schema), ops/s (median of ${rounds} processes; range), one process per measurement${pin === undefined ? '' : ` (pinned to core ${pin})`}, the codecs alternating. Issue 43's floor: shorn's \`t.json()\` at least as fast as the fastest of JSON (a string, as \`JSON.stringify\` gives it and \`JSON.parse\` takes it) and msgpackr with records off (keys and types on the wire, as here). \`node benchmark/json-mode.js\`.`,
    '',
    `| corpus | ${codecs.map((c) => HEADINGS[c]).join(' | ')} | t.json() / best of JSON, msgpackr (records off) |`,
    `|---|${codecs.map(() => '--:|').join('')}--:|`,
  ];
  for (const { fixture, op } of cells) {
    const medianOf = (codec) => {
      const xs = rates.get(cellKey(fixture, op, codec));
      return xs && xs.length ? median(xs) : undefined;
    };
    const cellsText = codecs.map((codec) => medianRangeCell(rates.get(cellKey(fixture, op, codec))));
    const best = Math.max(...PEERS.filter((p) => codecs.includes(p)).map((p) => medianOf(p) ?? 0));
    const own = medianOf('shorn-json');
    const ratio = own !== undefined && best > 0 ? own / best : undefined;
    const ratioText = ratio === undefined ? 'n/a' : `${ratio.toFixed(2)}x${ratio < 1 ? ' **slower**' : ''}`;
    lines.push(`| ${fixture} ${op} | ${cellsText.join(' | ')} | ${ratioText} |`);
  }
  return `${lines.join('\n')}\n`;
}

if (require.main === module) {
  const { parseArgs } = require('node:util');
  const { values: args } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      corpora: { type: 'string', default: CORPUS_NAMES.join(',') },
      ops: { type: 'string', default: 'decode,encode' },
    },
  });
  process.stdout.write(run(Number(args.rounds), { corpora: args.corpora.split(','), ops: args.ops.split(',') }));
}

module.exports = { run, CODECS, PEERS };
