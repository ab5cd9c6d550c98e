'use strict';
// The large messages' fuzz script (scripts/fuzz-large.js): the JS back end against the
// native one on messages of 32 KiB and more; it exits 0 only when every run agreed. On the
// build before 30cd07d it failed on its first runs (the JS back end's exact decode counted
// an enum's strings as text in its over-the-limit figure), so this run would catch its
// return, and any difference the JS back end's table of repeated strings makes.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

test('scripts/fuzz-large.js passes 60 runs with a summary', () => {
  const run = spawnSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'fuzz-large.js'), '--runs', '60', '--seed', '11'], {
    encoding: 'utf8',
    timeout: 180000,
  });
  assert.equal(run.status, 0, `fuzz-large.js failed:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
  assert.match(run.stdout, /^60 passed, 0 failed/m);
  for (const key of ['value.decoded', 'budget.decoded', 'budget.refused', 'mutated.ERR_SHORN_MALFORMED', 'cut.ERR_SHORN_TRUNCATED', 'schema.events', 'schema.flat', 'schema.nested', 'schema.optional']) {
    assert.match(run.stdout, new RegExp(`^  ${key.replace(/[.]/g, '\\.')} +[1-9]`, 'm'), `summary counts ${key}`);
  }
  assert.doesNotMatch(run.stdout, /value\.small/, 'every message is large');
});

// The same against the package's browser build, whose long text is read by the fatal
// TextDecoder and written by TextEncoder#encodeInto, not by Node's Buffer methods.
test('scripts/fuzz-large.js --build browser passes 30 runs', () => {
  const run = spawnSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'fuzz-large.js'), '--runs', '30', '--seed', '12', '--build', 'browser'], {
    encoding: 'utf8',
    timeout: 180000,
  });
  assert.equal(run.status, 0, `fuzz-large.js failed:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
  assert.match(run.stdout, /^30 passed, 0 failed \(the JS back end as the browser build\)/m);
  for (const key of ['value.decoded', 'budget.refused', 'cut.ERR_SHORN_TRUNCATED']) {
    assert.match(run.stdout, new RegExp(`^  ${key.replace(/[.]/g, '\\.')} +[1-9]`, 'm'), `summary counts ${key}`);
  }
});
