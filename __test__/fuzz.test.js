'use strict';
// The JS fuzz script in quick mode (scripts/fuzz.js --quick): random bytes, mutated
// messages and hostile values through both marshallers; it exits 0 only when every input
// passed (known findings are counted, not failed) and prints a summary.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const os = require('node:os');
const { spawnSync } = require('node:child_process');

test('scripts/fuzz.js --quick passes with a summary', () => {
  const out = path.join(os.tmpdir(), `shorn-fuzz-test-${process.pid}.jsonl`);
  const run = spawnSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'fuzz.js'), '--quick', '--runs', '8000', '--out', out], {
    encoding: 'utf8',
    timeout: 180000,
  });
  assert.equal(run.status, 0, `fuzz.js failed:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
  assert.match(run.stdout, /^shorn fuzz summary/m);
  assert.match(run.stdout, /^8000 passed, 0 failed/m);
  for (const key of ['decode.ok', 'encode.ok', 'encode.ERR_SHORN_INVALID', 'op.hostile-value', 'hostile.re-entrant getter']) {
    assert.match(run.stdout, new RegExp(`^  ${key.replace(/[.]/g, '\\.')} +[1-9]`, 'm'), `summary counts ${key}`);
  }
});

// The same inputs against the package's browser build (lib/host-browser.js, lib/base.js: its
// text and output paths are not Node's), bundled by esbuild and loaded in this process.
test('scripts/fuzz.js --build browser holds the browser build to the native back end', () => {
  const out = path.join(os.tmpdir(), `shorn-fuzz-browser-test-${process.pid}.jsonl`);
  const run = spawnSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'fuzz.js'), '--quick', '--runs', '4000', '--target', 'library', '--build', 'browser', '--seed', '39', '--out', out], {
    encoding: 'utf8',
    timeout: 180000,
  });
  assert.equal(run.status, 0, `fuzz.js failed:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
  assert.match(run.stdout, /^shorn fuzz summary \(seed 39, [\d.]+ s, the JS back end as the browser build\)/m);
  assert.match(run.stdout, /^4000 passed, 0 failed/m);
  for (const key of ['decode.ok', 'encode.ok', 'encode.ERR_SHORN_INVALID', 'op.hostile-value']) {
    assert.match(run.stdout, new RegExp(`^  ${key.replace(/[.]/g, '\\.')} +[1-9]`, 'm'), `summary counts ${key}`);
  }
  // Frame streams too: the browser build's decodeFrames against the native reference.
  const frames = spawnSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'fuzz.js'), '--target', 'frames', '--runs', '800', '--build', 'browser', '--seed', '39', '--out', out], {
    encoding: 'utf8',
    timeout: 180000,
  });
  assert.equal(frames.status, 0, `fuzz.js --target frames failed:\n${frames.stdout.slice(-4000)}\n${frames.stderr.slice(-4000)}`);
  assert.match(frames.stdout, /^800 passed, 0 failed/m);
});

// And against a copy of the package where no addon loads (a Node without a binary:
// `rt.native` null, so no native figure behind the JS back end's heap estimates).
test('scripts/fuzz.js --build no-addon holds a copy with no addon to the native back end', () => {
  const out = path.join(os.tmpdir(), `shorn-fuzz-no-addon-test-${process.pid}.jsonl`);
  for (const target of ['library', 'frames']) {
    const run = spawnSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'fuzz.js'), '--quick', '--runs', '2000', '--target', target, '--build', 'no-addon', '--seed', '40', '--out', out], {
      encoding: 'utf8',
      timeout: 180000,
    });
    assert.equal(run.status, 0, `fuzz.js --target ${target} failed:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
    assert.match(run.stdout, /^shorn fuzz summary \(seed 40, [\d.]+ s, the JS back end as the no-addon build\)/m);
    assert.match(run.stdout, /^2000 passed, 0 failed/m);
  }
});
