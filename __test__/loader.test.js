'use strict';
// The native addon loader (lib/addon.js) on platforms this machine is not: each test copies
// the loader into a scratch package (no local build, no platform package unless the test
// adds one) and runs it in a child process whose process.platform, process.arch and libc
// are stubbed. Checks the order local build > platform package > one clear error, and that
// the loader, npm/*/package.json and package.json "napi.targets" declare the same platforms.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..');
const main = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const platforms = fs
  .readdirSync(path.join(ROOT, 'npm'))
  .sort()
  .map((name) => ({ name, manifest: JSON.parse(fs.readFileSync(path.join(ROOT, 'npm', name, 'package.json'), 'utf8')) }));

// Runs before the loader: SHORN_STUB_PLATFORM / _ARCH replace process.platform / arch;
// SHORN_STUB_LDD is what /usr/bin/ldd holds ('' for no ldd), SHORN_STUB_GLIBC what
// process.report says (a glibc version, or '' for none, as on musl).
const STUB = `
const fs = require('node:fs');
const env = process.env;
if (env.SHORN_STUB_PLATFORM) Object.defineProperty(process, 'platform', { value: env.SHORN_STUB_PLATFORM });
if (env.SHORN_STUB_ARCH) Object.defineProperty(process, 'arch', { value: env.SHORN_STUB_ARCH });
if (env.SHORN_STUB_LDD !== undefined) {
  const readFileSync = fs.readFileSync;
  fs.readFileSync = function (file, ...rest) {
    if (file !== '/usr/bin/ldd') return readFileSync.call(this, file, ...rest);
    if (env.SHORN_STUB_LDD === '') throw Object.assign(new Error('ENOENT: /usr/bin/ldd'), { code: 'ENOENT' });
    return Buffer.from(env.SHORN_STUB_LDD);
  };
}
// SHORN_STUB_DLOPEN: a .node file is not opened but "loaded" as { loadedFrom: its path },
// so packages for other platforms can be told apart by which file the loader chose.
if (env.SHORN_STUB_DLOPEN) {
  require.extensions['.node'] = (module, filename) => {
    module.exports = { loadedFrom: filename };
  };
}
if (env.SHORN_STUB_GLIBC !== undefined) {
  const glibc = env.SHORN_STUB_GLIBC;
  process.report.getReport = () => ({
    header: glibc ? { glibcVersionRuntime: glibc } : {},
    sharedObjects: glibc ? ['/lib/x86_64-linux-gnu/libc.so.6'] : ['/lib/ld-musl-x86_64.so.1'],
  });
}
`;
const GLIBC_LDD = '#!/bin/bash\n# This file is part of the GNU C Library.\n';
const MUSL_LDD = '\x7fELF musl libc (x86_64)\n';

// What the loader did, as JSON: { loaded: [export names] } or { error: {...} }.
const PROBE = `
try {
  const addon = require(process.argv[1]);
  console.log(JSON.stringify(addon.loadedFrom ? { loadedFrom: addon.loadedFrom } : { loaded: Object.keys(addon).sort() }));
} catch (e) {
  const { code, message, platform, cause } = e;
  console.log(JSON.stringify({ error: { code, message, platform, package: e.package, cause: cause && cause.message } }));
}
`;

let scratch;
before(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-loader-'));
  fs.writeFileSync(path.join(scratch, 'stub.js'), STUB);
});
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

let packages = 0;
// A scratch copy of the package: lib/addon.js, plus `files` ({ relative path: contents }).
function scratchPackage(files = {}) {
  const dir = path.join(scratch, `pkg${packages++}`, 'shorn');
  fs.mkdirSync(path.join(dir, 'lib'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'lib', 'addon.js'), path.join(dir, 'lib', 'addon.js'));
  for (const [file, contents] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), contents);
  }
  return dir;
}

function runLoader(dir, stub) {
  const run = spawnSync(process.execPath, ['--require', path.join(scratch, 'stub.js'), '-e', PROBE, path.join(dir, 'lib', 'addon.js')], {
    env: { ...process.env, ...stub },
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

function stubFor(manifest) {
  const stub = { SHORN_STUB_PLATFORM: manifest.os[0], SHORN_STUB_ARCH: manifest.cpu[0] };
  if (manifest.os[0] === 'linux') stub.SHORN_STUB_LDD = manifest.libc[0] === 'musl' ? MUSL_LDD : GLIBC_LDD;
  return stub;
}

// The parts every no-addon error must have: the platform, the package, how to build.
function assertClearError(error, platform, pkg) {
  assert.equal(error.code, 'ERR_SHORN_NO_ADDON');
  assert.equal(error.platform, platform);
  assert.equal(error.package, pkg);
  assert.match(error.message, new RegExp(`^shorn: no native addon for ${platform} `));
  assert.ok(error.message.includes(`the platform package ${pkg}`), error.message);
  assert.ok(error.message.includes('`npm run build`'), error.message);
  assert.ok(error.message.includes("Rust's cargo"), error.message);
  assert.ok(error.message.includes('git clone https://github.com/shorn-codec/shorn'), error.message);
}

const realAddon = path.join(ROOT, 'shorn.node');
const NATIVE_EXPORTS = ['init'];

describe('the declared platforms', () => {
  test('npm/ has the seven platform packages, each named @shorn/<platform> and shipping only its binary', () => {
    assert.deepEqual(
      platforms.map((p) => p.name),
      ['darwin-arm64', 'darwin-x64', 'linux-arm64-gnu', 'linux-arm64-musl', 'linux-x64-gnu', 'linux-x64-musl', 'win32-x64-gnu'],
    );
    for (const { name, manifest } of platforms) {
      assert.equal(manifest.name, `@shorn/${name}`);
      assert.deepEqual(manifest.publishConfig, { access: 'public' }, 'a scoped package is published public');
      assert.equal(manifest.version, main.version, `${name} is published with shorn, at its version`);
      assert.equal(manifest.main, `shorn.${name}.node`);
      assert.deepEqual(manifest.files, [manifest.main]);
      assert.equal(manifest.license, main.license);
      assert.deepEqual(manifest.engines, main.engines);
      const [platform, arch, abi] = name.split('-');
      assert.deepEqual(manifest.os, [platform]);
      assert.deepEqual(manifest.cpu, [arch]);
      if (platform === 'linux') assert.deepEqual(manifest.libc, [abi === 'musl' ? 'musl' : 'glibc']);
      else assert.equal(manifest.libc, undefined);
    }
  });

  test('package.json "napi.targets" lists the Rust target of each platform package', () => {
    // napi-rs's names: x86_64 -> x64, aarch64 -> arm64; apple-darwin -> darwin,
    // pc-windows-gnu -> win32-gnu, unknown-linux-gnu -> linux-gnu.
    const named = main.napi.targets.map((triple) => {
      const [cpu, , system, abi] = triple.split('-');
      const arch = { x86_64: 'x64', aarch64: 'arm64' }[cpu];
      if (system === 'darwin') return `darwin-${arch}`;
      if (system === 'windows') return `win32-${arch}-${abi}`;
      return `${system}-${arch}-${abi}`;
    });
    assert.deepEqual(named.sort(), platforms.map((p) => p.name));
    assert.equal(main.napi.binaryName, 'shorn');
  });

  test('with all seven platform packages installed, the loader on each platform loads that platform package', () => {
    // The real manifests (npm/<name>/package.json, whose main names the binary) with a
    // placeholder binary each; the stub records which file would be opened.
    const files = {};
    for (const { name, manifest } of platforms) {
      files[`node_modules/${manifest.name}/package.json`] = JSON.stringify(manifest);
      files[`node_modules/${manifest.name}/${manifest.main}`] = `placeholder for ${name}`;
    }
    const dir = scratchPackage(files);
    const chosen = {};
    for (const { name, manifest } of platforms) {
      const result = runLoader(dir, { ...stubFor(manifest), SHORN_STUB_DLOPEN: '1' });
      assert.equal(result.error, undefined, `${name}: ${result.error?.message}`);
      chosen[name] = path.relative(dir, result.loadedFrom);
    }
    assert.deepEqual(chosen, {
      'darwin-arm64': path.join('node_modules', '@shorn', 'darwin-arm64', 'shorn.darwin-arm64.node'),
      'darwin-x64': path.join('node_modules', '@shorn', 'darwin-x64', 'shorn.darwin-x64.node'),
      'linux-arm64-gnu': path.join('node_modules', '@shorn', 'linux-arm64-gnu', 'shorn.linux-arm64-gnu.node'),
      'linux-arm64-musl': path.join('node_modules', '@shorn', 'linux-arm64-musl', 'shorn.linux-arm64-musl.node'),
      'linux-x64-gnu': path.join('node_modules', '@shorn', 'linux-x64-gnu', 'shorn.linux-x64-gnu.node'),
      'linux-x64-musl': path.join('node_modules', '@shorn', 'linux-x64-musl', 'shorn.linux-x64-musl.node'),
      'win32-x64-gnu': path.join('node_modules', '@shorn', 'win32-x64-gnu', 'shorn.win32-x64-gnu.node'),
    });
    // The libc on Linux arm64 comes from process.report where there is no ldd, too.
    const noLdd = { SHORN_STUB_PLATFORM: 'linux', SHORN_STUB_ARCH: 'arm64', SHORN_STUB_LDD: '', SHORN_STUB_DLOPEN: '1' };
    assert.match(runLoader(dir, { ...noLdd, SHORN_STUB_GLIBC: '' }).loadedFrom, /linux-arm64-musl\/shorn\.linux-arm64-musl\.node$/);
    assert.match(runLoader(dir, { ...noLdd, SHORN_STUB_GLIBC: '2.17' }).loadedFrom, /linux-arm64-gnu\/shorn\.linux-arm64-gnu\.node$/);
    // Windows on arm64 and Linux on 32-bit ARM have no package: the one clear error.
    const winArm = runLoader(dir, { SHORN_STUB_PLATFORM: 'win32', SHORN_STUB_ARCH: 'arm64', SHORN_STUB_DLOPEN: '1' });
    assertClearError(winArm.error, 'win32-arm64-gnu', '@shorn/win32-arm64-gnu');
    const arm = runLoader(dir, { SHORN_STUB_PLATFORM: 'linux', SHORN_STUB_ARCH: 'arm', SHORN_STUB_LDD: GLIBC_LDD, SHORN_STUB_DLOPEN: '1' });
    assertClearError(arm.error, 'linux-arm-gnu', '@shorn/linux-arm-gnu');
  });

  test('on each declared platform the loader looks for that platform package, and says it is not installed', () => {
    for (const { name, manifest } of platforms) {
      const { error } = runLoader(scratchPackage(), stubFor(manifest));
      assert.ok(error, `${name}: nothing to load, so an error`);
      assertClearError(error, name, manifest.name);
      assert.ok(error.message.includes(`${manifest.name} is not installed`), error.message);
      assert.ok(error.message.includes('--omit=optional'), error.message);
    }
  });
});

describe('the loader', () => {
  test('on an undeclared platform, the error says no package is published for it and lists those that are', () => {
    const { error } = runLoader(scratchPackage(), { SHORN_STUB_PLATFORM: 'freebsd', SHORN_STUB_ARCH: 'x64' });
    assertClearError(error, 'freebsd-x64', '@shorn/freebsd-x64');
    assert.ok(error.message.includes('shorn publishes no @shorn/freebsd-x64 package'), error.message);
    for (const { name } of platforms) assert.ok(error.message.includes(name), `lists ${name}`);
  });

  test('without /usr/bin/ldd it asks process.report for the libc: glibc, then musl', () => {
    const noLdd = { SHORN_STUB_PLATFORM: 'linux', SHORN_STUB_LDD: '' };
    const glibc = runLoader(scratchPackage(), { ...noLdd, SHORN_STUB_ARCH: 'arm64', SHORN_STUB_GLIBC: '2.31' });
    assertClearError(glibc.error, 'linux-arm64-gnu', '@shorn/linux-arm64-gnu');
    const musl = runLoader(scratchPackage(), { ...noLdd, SHORN_STUB_ARCH: 'x64', SHORN_STUB_GLIBC: '' });
    assertClearError(musl.error, 'linux-x64-musl', '@shorn/linux-x64-musl');
  });

  const glibcHost = process.platform === 'linux' && Boolean(process.report.getReport().header.glibcVersionRuntime);
  test("without /usr/bin/ldd, a glibc machine's own process.report says glibc", { skip: !glibcHost }, () => {
    const { error } = runLoader(scratchPackage(), { SHORN_STUB_ARCH: 'arm64', SHORN_STUB_LDD: '' });
    assertClearError(error, 'linux-arm64-gnu', '@shorn/linux-arm64-gnu');
  });

  test('names a platform package that is installed but fails to load, with the cause', () => {
    const dir = scratchPackage({
      'node_modules/@shorn/linux-x64-gnu/package.json': JSON.stringify({ name: '@shorn/linux-x64-gnu', main: 'shorn.linux-x64-gnu.node' }),
      'node_modules/@shorn/linux-x64-gnu/shorn.linux-x64-gnu.node': 'not a shared library',
    });
    const { error } = runLoader(dir, { SHORN_STUB_PLATFORM: 'linux', SHORN_STUB_ARCH: 'x64', SHORN_STUB_LDD: GLIBC_LDD });
    assertClearError(error, 'linux-x64-gnu', '@shorn/linux-x64-gnu');
    assert.ok(error.message.includes('@shorn/linux-x64-gnu is installed but failed to load'), error.message);
    assert.ok(error.cause && error.message.includes(error.cause), 'the cause is attached and quoted');
  });

  test('loads the platform package for this platform', { skip: process.platform !== 'linux' || process.arch !== 'x64' }, () => {
    const dir = scratchPackage({
      'node_modules/@shorn/linux-x64-gnu/package.json': JSON.stringify({ name: '@shorn/linux-x64-gnu', main: 'shorn.linux-x64-gnu.node' }),
      'node_modules/@shorn/linux-x64-gnu/shorn.linux-x64-gnu.node': fs.readFileSync(realAddon),
    });
    assert.deepEqual(runLoader(dir, {}), { loaded: NATIVE_EXPORTS });
  });

  test('prefers a local build (shorn.node) to the platform package', () => {
    const dir = scratchPackage({
      'shorn.node': fs.readFileSync(realAddon),
      'node_modules/@shorn/linux-x64-gnu/package.json': JSON.stringify({ name: '@shorn/linux-x64-gnu', main: 'shorn.linux-x64-gnu.node' }),
      'node_modules/@shorn/linux-x64-gnu/shorn.linux-x64-gnu.node': 'not a shared library',
    });
    assert.deepEqual(runLoader(dir, {}), { loaded: NATIVE_EXPORTS });
  });

  test('a local build that fails to load is named in the error', () => {
    const dir = scratchPackage({ 'shorn.node': 'not a shared library' });
    const { error } = runLoader(dir, { SHORN_STUB_PLATFORM: 'darwin', SHORN_STUB_ARCH: 'arm64' });
    assertClearError(error, 'darwin-arm64', '@shorn/darwin-arm64');
    assert.ok(error.message.includes(`${path.join(dir, 'shorn.node')} exists but failed to load`), error.message);
    assert.ok(error.cause, 'the cause is attached');
  });
});
