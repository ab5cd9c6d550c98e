'use strict';
// How the orchestrators (run.js, varied.js) start one measurement process.

const { spawnSync } = require('node:child_process');
const path = require('node:path');

// A child that hangs (a codec stuck in a loop) must not hang the run; the slowest healthy
// child (JSON decode of events100k) takes ~3 s.
const CHILD_TIMEOUT_MS = 120_000;

// Runs one child script and returns its JSON line, or {ok: false, error} if it crashed,
// timed out or printed something else.
function runChild(script, flags, nodeOptions = []) {
  const argv = [...nodeOptions, path.join(__dirname, script)];
  for (const [key, value] of Object.entries(flags)) argv.push(`--${key}`, String(value));
  const child = spawnSync(process.execPath, argv, { encoding: 'utf8', timeout: CHILD_TIMEOUT_MS });
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

module.exports = { runChild };
