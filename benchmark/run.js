'use strict';
// Orchestrates the benchmark: one child process per codec x fixture x operation (V8's inline
// caches, warmed by one codec, would otherwise distort the next one's numbers by tens of
// percent), several rounds in alternating codec order, then cold setup and memory children.
// Prints the markdown report and writes it with the raw data to benchmark/results/.
//
//   node benchmark/run.js                 full run: 3 rounds, every fixture (~6 min on 2 cores)
//   node benchmark/run.js --quick         1 round, short samples, 4 small fixtures (< 1 min)
//   options: --codecs a,b  --fixtures x,y  --rounds N

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { parseArgs } = require('node:util');
const { CODEC_NAMES, hasSchema } = require('./codecs');
const { FIXTURE_NAMES, loadFixture } = require('./fixtures');
const { describeMachine, loadSnapshot } = require('./machine');
const { median, spreadPercent } = require('./stats');
const { renderReport, formatCount } = require('./report');

const RESULTS_DIR = path.join(__dirname, 'results');
const QUICK_FIXTURES = ['person', 'unicodePerson', 'nestedEvent', 'batch100'];
const PLANS = {
  full: { rounds: 3, warmupMs: 300, sampleMs: 150, samples: 5 },
  quick: { rounds: 1, warmupMs: 100, sampleMs: 80, samples: 3 },
};
// The fixture whose memory is measured: the only one big enough for its footprint to matter.
const MEMORY_FIXTURE = 'events100k';
// A child that hangs (a codec stuck in a loop) must not hang the run; the slowest healthy
// child (JSON decode of events100k) takes ~3 s.
const CHILD_TIMEOUT_MS = 120_000;

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
  if (!Number.isInteger(plan.rounds) || plan.rounds < 1) throw new Error(`--rounds must be a positive integer, got '${values.rounds}'`);
  const pickList = (option, known, fallback) => {
    const list = option ? option.split(',').map((s) => s.trim()).filter(Boolean) : fallback;
    const unknown = list.filter((name) => !known.includes(name));
    if (unknown.length) throw new Error(`unknown name(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
    return known.filter((name) => list.includes(name)); // keep the canonical column/row order
  };
  return {
    quick: values.quick,
    plan,
    codecs: pickList(values.codecs, CODEC_NAMES, CODEC_NAMES),
    fixtures: pickList(values.fixtures, FIXTURE_NAMES, values.quick ? QUICK_FIXTURES : FIXTURE_NAMES),
  };
}

// Runs one child script and returns its JSON line, or {ok: false, error} if it crashed,
// timed out or printed something else.
function runChild(script, flags, nodeOptions = []) {
  const argv = [...nodeOptions, path.join(__dirname, script)];
  for (const [key, value] of Object.entries(flags)) argv.push(`--${key}`, String(value));
  const child = spawnSync(process.execPath, argv, { encoding: 'utf8', timeout: CHILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
  const lastLine = (child.stdout || '').trim().split('\n').pop();
  try {
    return JSON.parse(lastLine);
  } catch {
    const how = child.error ? child.error.message : child.signal ? `killed by ${child.signal}` : `exit code ${child.status}`;
    const stderr = (child.stderr || '').trim().split('\n').slice(-3).join(' / ');
    return { ok: false, error: `child ${how}${stderr ? `: ${stderr}` : ''}` };
  }
}

function elapsed(startMs) {
  const s = Math.round((Date.now() - startMs) / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

function runSpeed(options, startMs) {
  const { plan, codecs, fixtures } = options;
  const cells = new Map();
  for (const fixture of fixtures) {
    for (const op of ['encode', 'decode']) {
      for (const codec of codecs) cells.set(`${fixture}|${op}|${codec}`, { fixture, op, codec, runs: [] });
    }
  }
  const total = plan.rounds * cells.size;
  let done = 0;
  for (let round = 0; round < plan.rounds; round++) {
    const order = round % 2 === 0 ? codecs : [...codecs].reverse();
    for (const fixture of fixtures) {
      for (const op of ['encode', 'decode']) {
        for (const codec of order) {
          const cell = cells.get(`${fixture}|${op}|${codec}`);
          done++;
          // A failure (bad round trip, crash) repeats in every round; don't spend time on it again.
          if (cell.error) continue;
          const { warmupMs, sampleMs, samples } = plan;
          const result = runChild('child.js', { codec, fixture, op, 'warmup-ms': warmupMs, 'sample-ms': sampleMs, samples });
          const shown = result.ok ? `${formatCount(result.opsPerSec)} ops/s, ${result.bytes} B` : `FAIL ${result.error}`;
          process.stderr.write(`[round ${round + 1}/${plan.rounds} ${done}/${total} ${elapsed(startMs)}] ${fixture} ${op} ${codec}: ${shown}\n`);
          if (result.ok) {
            cell.runs.push(result);
          } else {
            cell.error = cell.runs.length ? `${result.error} (in round ${round + 1}, after ${cell.runs.length} good)` : result.error;
          }
        }
      }
    }
  }
  return [...cells.values()].map(({ fixture, op, codec, runs, error }) => {
    if (error) return { fixture, op, codec, ok: false, error };
    const rates = runs.map((run) => run.opsPerSec);
    const opsPerSec = median(rates);
    const bytes = runs[0].bytes;
    return { fixture, op, codec, ok: true, opsPerSec, spreadPercent: spreadPercent(rates), rounds: rates, bytes, mbPerSec: (bytes * opsPerSec) / 1e6 };
  });
}

// One child per codec with a schema x distinct schema among the chosen fixtures (personValidated
// shares person's, events100k shares batch100's).
function runSetup(options) {
  const byShape = new Map();
  for (const name of options.fixtures) {
    const fixture = loadFixture(name);
    if (!byShape.has(fixture.shape)) byShape.set(fixture.shape, fixture);
  }
  const results = [];
  for (const codec of options.codecs.filter(hasSchema)) {
    for (const fixture of byShape.values()) {
      const result = runChild('setup-child.js', { codec, fixture: fixture.name });
      process.stderr.write(`[setup] ${fixture.schemas.label} ${codec}: ${result.ok ? `${result.firstSetupUs.toFixed(0)} µs` : `FAIL ${result.error}`}\n`);
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
    const removeHandoff = () => ['.data.tmp', '.meta.tmp'].forEach((suffix) => fs.rmSync(handoff + suffix, { force: true }));
    removeHandoff();
    for (const op of ['encode', 'decode']) {
      const result = runChild('memory-child.js', { codec, fixture: MEMORY_FIXTURE, op, handoff }, ['--expose-gc']);
      process.stderr.write(`[memory] ${op} ${codec}: ${result.ok ? `peak RSS ${result.peakRssMB.toFixed(0)} MB` : `FAIL ${result.error}`}\n`);
      results.push(result);
    }
    removeHandoff();
  }
  return results;
}

function main() {
  const options = parseOptions();
  const startMs = Date.now();
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  process.stderr.write(`benchmark: ${options.codecs.length} codecs x ${options.fixtures.length} fixtures x 2 ops x ${options.plan.rounds} round(s)\n`);
  const before = loadSnapshot();
  const speed = runSpeed(options, startMs);
  const setup = runSetup(options);
  const memory = options.fixtures.includes(MEMORY_FIXTURE) ? runMemory(options) : [];
  const after = loadSnapshot();
  const results = {
    meta: {
      date: new Date(startMs).toISOString(),
      quick: options.quick,
      rounds: options.plan.rounds,
      plan: options.plan,
      codecs: options.codecs,
      fixtures: options.fixtures,
      machine: describeMachine(),
      before,
      after,
      durationS: (Date.now() - startMs) / 1000,
    },
    speed,
    setup,
    memory,
  };
  const markdown = renderReport(results);
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.md'), markdown);
  process.stdout.write(markdown);
  process.stderr.write(`done in ${elapsed(startMs)}; wrote benchmark/results/latest.md and latest.json\n`);
}

main();
