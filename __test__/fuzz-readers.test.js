'use strict';
// The readers' fuzz script (scripts/fuzz-readers.js): random writer/reader pairs through
// both marshallers and the JS back end; it exits 0 only when every pair passed. On the code before issue 37's
// fixes it failed 181 of 1,000 pairs (shared defaults, map keys read as one, float32
// literals), so this run would catch their return.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

test('scripts/fuzz-readers.js passes 400 pairs with a summary', () => {
  const run = spawnSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'fuzz-readers.js'), '--runs', '400', '--seed', '11'], {
    encoding: 'utf8',
    timeout: 180000,
  });
  assert.equal(run.status, 0, `fuzz-readers.js failed:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
  assert.match(run.stdout, /^400 passed, 0 failed/m);
  for (const key of ['pair.compatible', 'pair.incompatible', 'value.read', 'mutated.ok']) {
    assert.match(run.stdout, new RegExp(`^  ${key.replace(/[.]/g, '\\.')} +[1-9]`, 'm'), `summary counts ${key}`);
  }
});

// The same pairs against the package's browser build (readers, frames and registries on it).
test('scripts/fuzz-readers.js --build browser passes 200 pairs', () => {
  const run = spawnSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'fuzz-readers.js'), '--runs', '200', '--seed', '12', '--build', 'browser'], {
    encoding: 'utf8',
    timeout: 180000,
  });
  assert.equal(run.status, 0, `fuzz-readers.js failed:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
  assert.match(run.stdout, /both marshallers and the JS back end \(the browser build\)/);
  assert.match(run.stdout, /^200 passed, 0 failed/m);
  for (const key of ['pair.compatible', 'value.read', 'mutated.ok']) {
    assert.match(run.stdout, new RegExp(`^  ${key.replace(/[.]/g, '\\.')} +[1-9]`, 'm'), `summary counts ${key}`);
  }
});
