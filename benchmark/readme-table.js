'use strict';
// The README's performance tables, made from the latest full benchmark run
// (benchmark/results/latest-full.json, which `npm run bench` writes after a full run), so
// the README never carries a hand-copied figure. `npm run bench` rewrites the README's
// block itself; __test__/readme.test.js checks that the block is what this renders.
//
//   node benchmark/readme-table.js           rewrites the block in README.md
//   node benchmark/readme-table.js --check   exits 1 when README.md's block is stale

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const README = path.join(ROOT, 'README.md');
const LATEST_FULL = path.join(__dirname, 'results', 'latest-full.json');
const START = '<!-- perf-table: made by `node benchmark/readme-table.js` from benchmark/results/latest-full.json; `npm run bench` remakes it -->';
const END = '<!-- /perf-table -->';
// The README ships in the npm package, benchmark/ does not: links go to the repository.
const REPO = 'https://github.com/shorn-codec/shorn/blob/main';

const PEERS = ['json-string', 'json-bytes', 'avsc', 'msgpackr', 'schemapack', 'protobufjs'];
const NAMES = {
  'json-string': 'JSON',
  'json-bytes': 'JSON to bytes',
  avsc: 'avsc',
  msgpackr: 'msgpackr',
  schemapack: 'schemapack',
  protobufjs: 'protobufjs',
};
const MESSAGES = ['person', 'unicodePerson', 'nestedEvent', 'batch100', 'events100k', 'personValidated'];

function rate(x) {
  if (x >= 1e6) return `${(x / 1e6).toPrecision(3)}M`;
  if (x >= 1e3) return `${(x / 1e3).toPrecision(3)}K`;
  return x.toPrecision(3);
}

function bytes(n) {
  if (n >= 1e6) return `${(n / 1e6).toPrecision(3)} MB`;
  if (n >= 1e4) return `${(n / 1e3).toPrecision(3)} KB`;
  return n.toLocaleString('en-US');
}

function cell(speed, fixture, op, codec) {
  return speed.find((r) => r.fixture === fixture && r.op === op && r.codec === codec && r.ok);
}

// shorn's ops/s and its lead over the fastest peer that ran the cell: "3.26x avsc".
function lead(speed, fixture, op) {
  const own = cell(speed, fixture, op, 'shorn');
  if (!own) throw new Error(`readme-table: no shorn result for ${fixture} ${op}`);
  let best = null;
  for (const peer of PEERS) {
    const r = cell(speed, fixture, op, peer);
    if (r && (best === null || r.opsPerSec > best.opsPerSec)) best = r;
  }
  if (best === null) throw new Error(`readme-table: no peer result for ${fixture} ${op}`);
  return { own, ratio: `${(own.opsPerSec / best.opsPerSec).toFixed(2)}x ${NAMES[best.codec]}` };
}

/** The block between the markers, for `results` (a full run's latest.json). */
function render(results) {
  const { meta, speed } = results;
  if (meta.quick) throw new Error('readme-table: a quick run is not what the README shows; run `npm run bench`');
  const m = meta.machine;
  const date = meta.date.slice(0, 16).replace('T', ' ');
  const lines = [START];
  lines.push(
    `Measured by \`npm run bench\` on ${date} UTC: Node ${m.node}, ${m.cores}-core ${m.cpu}, ${m.platform}; each codec in its own process, ${meta.plan.rounds} rounds, the median.`,
    'Operations per second (events100k: arrays of 100,000 events per second); "vs fastest" is shorn against the fastest',
    'of JSON, avsc, msgpackr, schemapack and protobufjs in the same cell. Peers, fixtures and method:',
    `[docs/BENCHMARKS.md](${REPO}/docs/BENCHMARKS.md); every figure of the run, with spreads and memory:`,
    `[benchmark/results/latest.md](${REPO}/benchmark/results/latest.md).`,
    '',
    '| message | JSON bytes | shorn bytes | encode/s | vs fastest | decode/s | vs fastest |',
    '|---|--:|--:|--:|--:|--:|--:|',
  );
  for (const fixture of MESSAGES) {
    const enc = lead(speed, fixture, 'encode');
    const dec = lead(speed, fixture, 'decode');
    const json = cell(speed, fixture, 'encode', 'json-string');
    lines.push(`| ${fixture} | ${bytes(json.bytes)} | ${bytes(enc.own.bytes)} | ${rate(enc.own.opsPerSec)} | ${enc.ratio} | ${rate(dec.own.opsPerSec)} | ${dec.ratio} |`);
  }
  lines.push(
    '',
    `Real documents ([benchmark/data](${REPO}/benchmark/data/README.md); one operation is the whole document), bytes`,
    'raw and through gzip (level 6):',
    '',
    '| document | JSON bytes | shorn bytes | JSON gzip | shorn gzip | encode vs fastest | decode vs fastest |',
    '|---|--:|--:|--:|--:|--:|--:|',
  );
  for (const fixture of meta.corpora) {
    const enc = lead(speed, fixture, 'encode');
    const dec = lead(speed, fixture, 'decode');
    const json = cell(speed, fixture, 'encode', 'json-string');
    lines.push(`| ${fixture} | ${bytes(json.bytes)} | ${bytes(enc.own.bytes)} | ${bytes(json.gzipBytes)} | ${bytes(enc.own.gzipBytes)} | ${enc.ratio} | ${dec.ratio} |`);
  }
  lines.push(END);
  return lines.join('\n');
}

function readResults() {
  return JSON.parse(fs.readFileSync(LATEST_FULL, 'utf8'));
}

/** README.md's text with its block replaced by `block`. */
function withBlock(readme, block) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`readme-table: README.md has no block between ${START} and ${END}`);
  return readme.slice(0, start) + block + readme.slice(end + END.length);
}

/** Rewrites README.md's block from `results` (default: latest-full.json). */
function updateReadme(results = readResults()) {
  const readme = fs.readFileSync(README, 'utf8');
  const next = withBlock(readme, render(results));
  if (next !== readme) fs.writeFileSync(README, next);
  return next !== readme;
}

module.exports = { render, readResults, withBlock, updateReadme, START, END, LATEST_FULL };

if (require.main === module) {
  if (process.argv.includes('--check')) {
    const readme = fs.readFileSync(README, 'utf8');
    if (withBlock(readme, render(readResults())) !== readme) {
      console.error('README.md: the performance block is not what benchmark/results/latest-full.json gives; run `node benchmark/readme-table.js`');
      process.exit(1);
    }
  } else {
    console.log(updateReadme() ? 'README.md: performance block rewritten' : 'README.md: performance block already current');
  }
}
