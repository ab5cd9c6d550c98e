'use strict';
// Orchestrates the benchmark: one child process per codec x fixture x operation (V8's inline
// caches, warmed by one codec, would otherwise distort the next one's numbers by tens of
// percent), several rounds in alternating codec order, then cold setup and memory children.
// Prints the markdown report and writes it with the raw data to benchmark/results/.
//
//   node benchmark/run.js                 full run: 3 rounds, every fixture and corpus, then the
//                                         construct matrix, recursive schemas, inferred schemas,
//                                         t.json() on the corpora
//                                         and the browser (~20 min on 2 cores)
//   node benchmark/run.js --quick         1 round, short samples, 4 small fixtures and 3 corpora (~1 min)
//   options: --codecs a,b  --fixtures x,y  --rounds N
//   (--fixtures takes fixture and corpus names, and `corpora` for all six corpora)

const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { CODEC_NAMES, hasSchema } = require('./codecs');
const { FIXTURE_NAMES, EXTRA_NAMES, CORPUS_NAMES, loadFixture } = require('./fixtures');
const { describeMachine, loadSnapshot, startOtherLoadWindow } = require('./machine');
const { runChild } = require('./spawn-child');
const { median, spreadPercent } = require('./stats');
const { renderReport, formatCount } = require('./report');

const RESULTS_DIR = path.join(__dirname, 'results');
// Quick: the small fixtures, and the three smallest corpora of different kinds (API records,
// a union of events, flat numbers), so that a quick run stays near a minute.
const QUICK_FIXTURES = ['person', 'unicodePerson', 'nestedEvent', 'batch100', 'twitter', 'github_events', 'mesh'];
// setupRepeats: constructions after the first in a cold-setup child; memoryRuns: operations per
// memory child.
const PLANS = {
  full: { rounds: 3, warmupMs: 300, sampleMs: 150, samples: 5, setupRepeats: 20, memoryRuns: 3 },
  quick: { rounds: 1, warmupMs: 100, sampleMs: 80, samples: 3, setupRepeats: 20, memoryRuns: 3 },
};
// The fixture whose memory is measured: the only one big enough for its footprint to matter.
const MEMORY_FIXTURE = 'events100k';

function parseOptions() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      codecs: { type: 'string' },
      fixtures: { type: 'string' },
      rounds: { type: 'string' },
    },
  });
  const plan = { ...PLANS[values.quick ? 'quick' : 'full'] };
  if (values.rounds !== undefined) plan.rounds = Number(values.rounds);
  if (!Number.isInteger(plan.rounds) || plan.rounds < 1) {
    throw new Error(`--rounds must be a positive integer, got '${values.rounds}'`);
  }
  const pickList = (option, known, fallback, groups = {}) => {
    const names = option ? option.split(',').map((s) => s.trim()).filter(Boolean) : fallback;
    const list = names.flatMap((name) => groups[name] || [name]);
    const unknown = list.filter((name) => !known.includes(name));
    if (unknown.length) throw new Error(`unknown name(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
    return known.filter((name) => list.includes(name)); // keep the canonical column/row order
  };
  return {
    quick: values.quick,
    plan,
    codecs: pickList(values.codecs, CODEC_NAMES, CODEC_NAMES),
    fixtures: pickList(values.fixtures, [...FIXTURE_NAMES, ...EXTRA_NAMES], values.quick ? QUICK_FIXTURES : FIXTURE_NAMES, {
      corpora: CORPUS_NAMES,
    }),
  };
}

// The chosen codecs that run `fixture`: the corpora run only the codecs they name.
function codecsFor(options, fixture) {
  const { codecs } = loadFixture(fixture); // the value is built lazily, so this is cheap
  return codecs ? options.codecs.filter((codec) => codecs.includes(codec)) : options.codecs;
}

// One progress line on stderr per child: what ran, and its figure or its failure.
function progress(tag, what, result, describeOk) {
  process.stderr.write(`[${tag}] ${what}: ${result.ok ? describeOk(result) : `FAIL ${result.error}`}\n`);
}

function elapsed(startMs) {
  const s = Math.round((Date.now() - startMs) / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

// The order children run in within one round: fixtures, then operations, then codecs, with the
// codec order reversed in odd rounds so that drift over a round favours no codec.
function* roundOrder(options, round) {
  for (const fixture of options.fixtures) {
    const forward = codecsFor(options, fixture);
    const codecs = round % 2 === 0 ? forward : [...forward].reverse();
    for (const op of ['encode', 'decode']) {
      for (const codec of codecs) yield { fixture, op, codec };
    }
  }
}

// Median across rounds of the per-child medians, and their spread.
function summarize({ fixture, op, codec, runs, error }) {
  if (error) return { fixture, op, codec, ok: false, error };
  const rates = runs.map((run) => run.opsPerSec);
  const opsPerSec = median(rates);
  const bytes = runs[0].bytes;
  const mbPerSec = (bytes * opsPerSec) / 1e6;
  const { gzipBytes } = runs[0]; // corpora only
  const spread = spreadPercent(rates);
  return { fixture, op, codec, ok: true, opsPerSec, spreadPercent: spread, rounds: rates, bytes, gzipBytes, mbPerSec };
}

function runSpeed(options, startMs) {
  const { rounds, warmupMs, sampleMs, samples } = options.plan;
  const cells = new Map();
  const total = rounds * [...roundOrder(options, 0)].length;
  let done = 0;
  for (let round = 0; round < rounds; round++) {
    for (const { fixture, op, codec } of roundOrder(options, round)) {
      const key = `${fixture}|${op}|${codec}`;
      if (!cells.has(key)) cells.set(key, { fixture, op, codec, runs: [] });
      const cell = cells.get(key);
      done++;
      // A failure (bad round trip, crash) repeats in every round; don't spend time on it again.
      if (cell.error) continue;
      const flags = { codec, fixture, op, 'warmup-ms': warmupMs, 'sample-ms': sampleMs, samples };
      const result = runChild('child.js', flags);
      const tag = `round ${round + 1}/${rounds} ${done}/${total} ${elapsed(startMs)}`;
      progress(tag, `${fixture} ${op} ${codec}`, result, (r) => `${formatCount(r.opsPerSec)} ops/s, ${r.bytes} B`);
      if (result.ok) cell.runs.push(result);
      else if (cell.runs.length) cell.error = `${result.error} (round ${round + 1}, after ${cell.runs.length} good)`;
      else cell.error = result.error;
    }
  }
  return [...cells.values()].map(summarize);
}

// One child per codec with a schema x distinct schema among the chosen fixtures (events100k
// shares batch100's; each corpus is its own).
function runSetup(options) {
  const byShape = new Map();
  for (const name of options.fixtures) {
    const fixture = loadFixture(name);
    if (!byShape.has(fixture.shape)) byShape.set(fixture.shape, fixture);
  }
  const results = [];
  for (const codec of options.codecs.filter(hasSchema)) {
    for (const fixture of byShape.values()) {
      if (!codecsFor(options, fixture.name).includes(codec)) continue;
      const result = runChild('setup-child.js', { codec, fixture: fixture.name, repeats: options.plan.setupRepeats });
      progress('setup', `${fixture.schemas.label} ${codec}`, result, (r) => `first ${r.firstSetupUs.toFixed(0)} µs`);
      results.push({ ...result, label: fixture.schemas.label });
    }
  }
  return results;
}

function runMemory(options) {
  const results = [];
  for (const codec of options.codecs) {
    const handoff = path.join(RESULTS_DIR, `memory-${codec}`);
    // Files left by an interrupted run must not stand in for a failed encode's output.
    const removeHandoff = () => {
      for (const suffix of ['.data.tmp', '.meta.tmp']) fs.rmSync(handoff + suffix, { force: true });
    };
    removeHandoff();
    for (const op of ['encode', 'decode']) {
      const flags = { codec, fixture: MEMORY_FIXTURE, op, handoff, runs: options.plan.memoryRuns };
      const result = runChild('memory-child.js', flags, ['--expose-gc']);
      progress('memory', `${op} ${codec}`, result, (r) => `peak RSS ${r.peakRssMB.toFixed(0)} MB`);
      results.push(result);
    }
    removeHandoff();
  }
  return results;
}

async function main() {
  const options = parseOptions();
  const startMs = Date.now();
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const { codecs, fixtures, plan } = options;
  const perRound = [...roundOrder(options, 0)].length;
  process.stderr.write(
    `benchmark: ${codecs.length} codecs x ${fixtures.length} fixtures x 2 ops ` +
      `(${perRound} children) x ${plan.rounds} rounds\n`,
  );
  const before = loadSnapshot();
  const otherBusyPercent = startOtherLoadWindow();
  const speed = runSpeed(options, startMs);
  const setup = runSetup(options);
  const memory = fixtures.includes(MEMORY_FIXTURE) ? runMemory(options) : [];
  // Resolved decodes (benchmark/evolve.js), when shorn and nestedEvent are in the run.
  const evolve = options.codecs.includes('shorn') && fixtures.includes('nestedEvent') ? require('./evolve').run(plan.rounds) : '';
  // Stream decodes (benchmark/streams.js), when shorn and events100k are in the run.
  const streams = options.codecs.includes('shorn') && fixtures.includes('events100k') ? require('./streams').run(plan.rounds) : null;
  // The construct matrix (benchmark/constructs.js), when shorn is in the run.
  // Then recursive schemas against the same unrolled (benchmark/recursion.js), and the
  // corpora under the schemas `shorn infer` writes (benchmark/inferred.js).
  const constructs = options.codecs.includes('shorn') && !options.quick ? `${require('./constructs').run(plan.rounds)}\n${require('./recursion').run(plan.rounds)}\n${require('./inferred').run(plan.rounds)}` : '';
  // The corpora as `t.json()` values against JSON and msgpackr with records off
  // (benchmark/json-mode.js, issue 43's floor), the corpora among the fixtures.
  const jsonCorpora = fixtures.filter((name) => CORPUS_NAMES.includes(name));
  const jsonMode =
    options.codecs.includes('shorn') && !options.quick && jsonCorpora.length > 0
      ? require('./json-mode').run(plan.rounds, { corpora: jsonCorpora, codecs: ['json-string', 'msgpackr-plain', 'shorn-json'] })
      : '';
  // shorn's browser build in Chromium (benchmark/browser.js), when shorn is in the run.
  const browser = options.codecs.includes('shorn') && !options.quick ? await require('./browser').run(plan.rounds) : '';
  const otherBusyDuringRun = otherBusyPercent();
  const after = loadSnapshot();
  const results = {
    meta: {
      date: new Date(startMs).toISOString(),
      quick: options.quick,
      plan,
      codecs,
      fixtures,
      corpora: fixtures.filter((name) => CORPUS_NAMES.includes(name)),
      machine: describeMachine(),
      before,
      otherBusyDuringRun,
      after,
      durationS: (Date.now() - startMs) / 1000,
    },
    speed,
    setup,
    memory,
  };
  results.evolve = evolve;
  if (streams) results.streams = { messagesPerSec: streams.results, cpuMessagesPerSec: streams.cpuResults, bytes: streams.bytes };
  results.constructs = constructs;
  results.jsonMode = jsonMode;
  results.browser = browser;
  const markdown =
    renderReport(results) + (evolve ? `\n${evolve}` : '') + (streams ? `\n${streams.markdown}` : '') + (constructs ? `\n${constructs}` : '') + (jsonMode ? `\n${jsonMode}` : '') + (browser ? `\n${browser}` : '');
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.md'), markdown);
  process.stdout.write(markdown);
  // A full run (every codec, every fixture) is what the README shows: its tables are remade
  // from it (benchmark/readme-table.js), never copied by hand.
  const full = !options.quick && CODEC_NAMES.every((c) => codecs.includes(c)) && FIXTURE_NAMES.every((f) => fixtures.includes(f));
  if (full) {
    fs.writeFileSync(path.join(RESULTS_DIR, 'latest-full.json'), `${JSON.stringify(results, null, 2)}\n`);
    require('./readme-table').updateReadme(results);
  }
  process.stderr.write(`done in ${elapsed(startMs)}; wrote benchmark/results/latest.md and latest.json${full ? ', latest-full.json and the README\'s tables' : ' (not a full run: the README keeps the tables of the last full one)'}\n`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
