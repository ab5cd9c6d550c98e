'use strict';
// scripts/version.js, which keeps the versions of the main package and the seven platform
// packages in step for a release (docs/PACKAGING.md): run on a scratch copy of the manifests.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..');

// A scratch copy of what the script reads and writes: package.json, package-lock.json,
// npm/*/package.json, and the script itself at scripts/version.js.
function scratchCopy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-version-'));
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.copyFileSync(path.join(ROOT, 'scripts', 'version.js'), path.join(dir, 'scripts', 'version.js'));
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
  for (const p of fs.readdirSync(path.join(ROOT, 'npm'))) {
    fs.mkdirSync(path.join(dir, 'npm', p), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'npm', p, 'package.json'), path.join(dir, 'npm', p, 'package.json'));
  }
  return dir;
}

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const run = (dir, args) => spawnSync(process.execPath, [path.join(dir, 'scripts', 'version.js'), ...args], { encoding: 'utf8' });

test('sets one version everywhere, lists them, and fails when they differ', (t) => {
  const dir = scratchCopy();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const platforms = fs.readdirSync(path.join(dir, 'npm')).sort();
  assert.equal(platforms.length, 7);

  const set = run(dir, ['2.3.4-rc.1']);
  assert.equal(set.status, 0, set.stderr);
  assert.equal(readJson(path.join(dir, 'package.json')).version, '2.3.4-rc.1');
  const lock = readJson(path.join(dir, 'package-lock.json'));
  assert.equal(lock.version, '2.3.4-rc.1');
  assert.equal(lock.packages[''].version, '2.3.4-rc.1');
  for (const p of platforms) {
    const manifest = readJson(path.join(dir, 'npm', p, 'package.json'));
    assert.equal(manifest.version, '2.3.4-rc.1', p);
    // Nothing else in the manifest changes.
    assert.deepEqual({ ...manifest, version: undefined }, { ...readJson(path.join(ROOT, 'npm', p, 'package.json')), version: undefined });
  }
  assert.equal(set.stdout.trim().split('\n').length, 8, 'one line per package');
  assert.match(set.stdout, /^@shorn\/linux-arm64-musl 2\.3\.4-rc\.1$/m);

  // One platform package left behind: listed, and the script fails.
  const file = path.join(dir, 'npm', 'darwin-arm64', 'package.json');
  fs.writeFileSync(file, JSON.stringify({ ...readJson(file), version: '2.3.3' }));
  const check = run(dir, []);
  assert.equal(check.status, 1);
  assert.match(check.stdout, /^@shorn\/darwin-arm64 2\.3\.3$/m);
  assert.match(check.stderr, /the versions differ/);

  // Not a version: refused, nothing written.
  const bad = run(dir, ['2.3']);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /"2\.3" is not a version/);
  assert.equal(readJson(path.join(dir, 'package.json')).version, '2.3.4-rc.1');
});
