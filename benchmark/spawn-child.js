'use strict';
// How the orchestrators (run.js, varied.js, json-mode.js) start measurement processes.

const { spawnSync } = require('node:child_process');
const path = require('node:path');

// A child that hangs (a codec stuck in a loop) must not hang the run; the slowest healthy
// child (JSON decode of events100k) takes ~3 s.
const CHILD_TIMEOUT_MS = 120_000;

// Runs one child script and returns its JSON line, or {ok: false, error} if it crashed,
// timed out or printed something else. With `pin` (a core number), the child runs on that
// core alone (`taskset`, which the caller has checked for).
function runChild(script, flags, nodeOptions = [], pin = undefined) {
  const argv = [...nodeOptions, path.join(__dirname, script)];
  for (const [key, value] of Object.entries(flags)) argv.push(`--${key}`, String(value));
  const [file, args] = pin === undefined ? [process.execPath, argv] : ['taskset', ['-c', String(pin), process.execPath, ...argv]];
  const child = spawnSync(file, args, { encoding: 'utf8', timeout: CHILD_TIMEOUT_MS });
  const lastLine = (child.stdout || '').trim().split('\n').pop();
  try {
    return JSON.parse(lastLine);
  } catch {
    let how = `exit code ${child.status}`;
    if (child.error) how = child.error.message; // includes the timeout
    else if (child.signal) how = `killed by ${child.signal}`;
    const stderr = (child.stderr || '').trim().split('\n').slice(-3).join(' / ');
    return { ok: false, error: `child ${how}${stderr ? `: ${stderr}` : ''}` };
  }
}

// The loop of the smaller orchestrators (varied.js, json-mode.js): every codec on every
// cell ({fixture, op}, plus any flags for child.js) in its own child.js process, `rounds`
// times, the codec order alternating by round. Returns a Map from `key(fixture, op, codec)`
// to the ops/s of each round that succeeded; a failed child is reported on stderr and sets
// a failing exit code. `pin`: as runChild's.
function runRounds({ rounds, codecs, cells, pin = undefined }) {
  const rates = new Map();
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? codecs : [...codecs].reverse();
    for (const flags of cells) {
      for (const codec of order) {
        const key = cellKey(flags.fixture, flags.op, codec);
        if (!rates.has(key)) rates.set(key, []);
        const result = runChild('child.js', { codec, ...flags }, [], pin);
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
  return rates;
}

const cellKey = (fixture, op, codec) => `${fixture} ${op} ${codec}`;

module.exports = { runChild, runRounds, cellKey };
