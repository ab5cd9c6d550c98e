'use strict';
// The JS fuzz scripts on the other engines the package runs on, each holding the JS back
// end to the native one on the same inputs, as in Node (docs/FUZZING.md, "Other engines"):
// - JavaScriptCore, Safari's engine, by Bun (scripts/tools.js pins it): the browser build
//   (what a page runs in Safari), and the package as Bun loads it (the addon, and the JS
//   back end over Bun's own Buffer);
// - Deno's V8 under its own Node layer (its Buffer under the JS back end's text paths);
// - SpiderMonkey, Firefox's engine (Debian's firefox-esr): the browser build in a page,
//   given scripts/fuzz.js's plain inputs and held to the native answers
//   (scripts/fuzz-page.js), with eval and under a policy that forbids it.
// Chromium runs the browser build in tests/browser/browser.test.js.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const os = require('node:os');
const { spawnSync } = require('node:child_process');
const tools = require('../../scripts/tools');

const ROOT = path.join(__dirname, '..', '..');
const { bun, deno } = tools.paths();

function fuzzPage(t, args) {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'fuzz-page.js'), ...args, '--out', path.join(os.tmpdir(), `shorn-engines-${process.pid}-page.jsonl`)], { cwd: ROOT, encoding: 'utf8', timeout: 300000 });
  assert.equal(run.status, 0, `fuzz-page.js ${args.join(' ')} failed:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
  t.diagnostic(run.stdout.trim().split('\n').join('; '));
  return run.stdout;
}

function fuzz(t, runtime, script, args) {
  const out = path.join(os.tmpdir(), `shorn-engines-${process.pid}-${args.join('-').replace(/[^\w-]/g, '')}.jsonl`);
  const command = runtime === 'bun' ? [bun.bin, []] : [deno.bin, ['run', '--allow-all', '--unstable-detect-cjs']];
  const run = spawnSync(command[0], [...command[1], path.join(ROOT, 'scripts', script), ...args, ...(script === 'fuzz.js' ? ['--out', out] : [])], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  assert.equal(run.status, 0, `${runtime} ${script} ${args.join(' ')} failed:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
  const summary = /^shorn fuzz summary .*$/m.exec(run.stdout);
  t.diagnostic(`${summary ? summary[0] : script}; ${/^\d+ passed, \d+ failed.*$/m.exec(run.stdout)[0]}`);
  return run.stdout;
}

test(`Bun ${bun.version} (JavaScriptCore): the browser build against the native back end`, (t) => {
  // Seed 9413 meets, at input 20,346, finding J6 (a Proxy around a typed array read for a
  // field named `length`) in JavaScriptCore's words, which the harness once knew only in V8's.
  const out = fuzz(t, 'bun', 'fuzz.js', ['--runs', '21000', '--target', 'library', '--build', 'browser', '--seed', '9413']);
  assert.match(out, /^shorn fuzz summary \(seed 9413, [\d.]+ s, the JS back end as the browser build; on Bun [\d.]+, JavaScriptCore\)/m);
  assert.match(out, /^21000 passed, 0 failed/m);
  assert.match(out, /^ {2}hostile\.odd buffers +[1-9]/m);
  assert.match(fuzz(t, 'bun', 'fuzz.js', ['--target', 'frames', '--runs', '3000', '--build', 'browser', '--seed', '43']), /^3000 passed, 0 failed/m);
  assert.match(fuzz(t, 'bun', 'fuzz-readers.js', ['--runs', '1000', '--build', 'browser', '--seed', '44']), /^1000 passed, 0 failed/m);
});

test(`Bun ${bun.version} (JavaScriptCore): the package as Bun loads it, addon and JS back end`, (t) => {
  const out = fuzz(t, 'bun', 'fuzz.js', ['--runs', '10000', '--target', 'library', '--seed', '41']);
  assert.match(out, /^shorn fuzz summary \(seed 41, [\d.]+ s; on Bun [\d.]+, JavaScriptCore\)/m);
  assert.match(out, /^10000 passed, 0 failed/m);
});

test(`Deno ${deno.version}: the package as Deno loads it, addon and JS back end`, (t) => {
  const out = fuzz(t, 'deno', 'fuzz.js', ['--runs', '3000', '--target', 'library', '--seed', '42']);
  assert.match(out, /^shorn fuzz summary \(seed 42, [\d.]+ s; on Deno [\d.]+\)/m);
  assert.match(out, /^3000 passed, 0 failed/m);
});

test('Firefox (SpiderMonkey): the browser build in a page, held to the native answers', (t) => {
  const eval_ = fuzzPage(t, ['--browser', 'firefox', '--runs', '10000', '--seed', '45']);
  assert.match(eval_, /^shorn fuzz-page \(seed 45, 10000 fuzz inputs\): \d+ cases in firefox\/[\d.]+, eval allowed, .*\([1-9]\d* generated, 0 closures, back end js\)$/m);
  assert.match(eval_, /^ {2}decode [1-9]\d*, decode error [1-9]\d*, encode [1-9]\d*, encode error \d+$/m);
  assert.match(eval_, /^\d+ passed, 0 failed$/m);
  const csp = fuzzPage(t, ['--browser', 'firefox', '--runs', '10000', '--seed', '46', '--csp']);
  assert.match(csp, /^shorn fuzz-page \(seed 46, 10000 fuzz inputs\): \d+ cases in firefox\/[\d.]+, script-src 'self' \(no eval\), .*\(0 generated, [1-9]\d* closures, back end js\)$/m);
  assert.match(csp, /^\d+ passed, 0 failed$/m);
});
