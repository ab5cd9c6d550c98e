'use strict';
// What a user gets from `npm install shorn` on a server with no Rust toolchain. Builds the
// linux-x64-gnu binary against glibc 2.17 (scripts/build-platform.js), packs the platform
// package and the main package as they would be published (scripts/pack.js), installs both
// tarballs into an empty app with cargo off the PATH, npm offline and an empty npm cache,
// then uses the installed package from CommonJS, ESM and TypeScript (`tsc --strict`) on
// Node 20, 22 and 24. Run once by `npm test` (scripts/check.js), not per Node version: it
// runs the other Node versions itself.
//
//   node --test tests/package/package.test.js

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { performance } = require('node:perf_hooks');

const ROOT = path.join(__dirname, '..', '..');
const { build, GLIBC_BASELINE } = require('../../scripts/build-platform');
const { pack } = require('../../scripts/pack');
const { highestGlibc, compareVersions } = require('../../scripts/elf');
const tools = require('../../scripts/tools');
const { GOLDEN_VALUES_SOURCE } = require('../golden-values');

const main = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const declared = fs.readdirSync(path.join(ROOT, 'npm')).sort();
const FLOOR = { installMs: 5000, installedBytes: 2 * 1024 * 1024, coldMs: 30 };

let scratch; // everything this test makes: tarballs, the app, npm's cache
let app;
let binary;
let packed;
let install; // { ms, bytes, files }
let npmEnv; // the environment npm runs in: node and npm on the PATH, nothing else
let nodes; // [{ version, bin }], Node 20 (this process) first

function findOnPath(command) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const file = path.join(dir, command);
    if (dir && fs.existsSync(file)) return fs.realpathSync(file);
  }
  throw new Error(`${command} is not on the PATH`);
}

// Every file under `dir`: [{ file (relative), bytes }].
function walk(dir, base = dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(file, base);
    return [{ file: path.relative(base, file), bytes: fs.lstatSync(file).size }];
  });
}

// GitHub's anchors for the headings of a Markdown file.
function headingSlugs(file) {
  return [...fs.readFileSync(file, 'utf8').matchAll(/^#+ (.+)$/gm)].map(([, title]) =>
    title.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-'),
  );
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  assert.equal(result.error, undefined, `${command}: ${result.error?.message}`);
  assert.equal(result.status, 0, `${command} ${args.join(' ')} exited ${result.status}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

// The app's own code: one round trip, and which binary the loader chose.
const ROUND_TRIP = `
  const Event = t.object({ id: t.uint32(), kind: t.enum(['click', 'view']), name: t.string(), tags: t.array(t.string()), at: t.float64() });
  const value = { id: 4000000000, kind: 'view', name: 'Zoë 🚀', tags: ['a', 'bc'], at: 1718031234567.5 };
  const codec = compile(Event);
  const bytes = codec.encode(value);`;
const APP_CJS = `'use strict';
const { t, compile, decode, ShornError } = require('shorn');
${ROUND_TRIP}
const addon = Object.keys(require.cache).filter((f) => f.endsWith('.node'));
console.log(JSON.stringify({
  hex: Buffer.from(bytes).toString('hex'),
  back: codec.decode(bytes),
  functional: decode(Event, bytes),
  error: new ShornError('x', 'ERR_SHORN_INVALID') instanceof Error,
  addon,
}));
`;
const APP_ESM = `import shorn, { t, compile } from 'shorn';
${ROUND_TRIP}
const dynamic = await import('shorn');
console.log(JSON.stringify({
  hex: Buffer.from(bytes).toString('hex'),
  back: codec.decode(bytes),
  same: dynamic.default === shorn && dynamic.compile === compile,
}));
`;
const APP_TS = `import { t, compile, ShornError, type Infer, type Codec } from 'shorn';
const Event = t.object({ id: t.uint32(), kind: t.enum(['click', 'view']), name: t.string(), tags: t.array(t.string()), at: t.float64() });
type Event = Infer<typeof Event>;
const value: Event = { id: 4000000000, kind: 'view', name: 'Zoë 🚀', tags: ['a', 'bc'], at: 1718031234567.5 };
const codec: Codec<typeof Event> = compile(Event);
const bytes: Buffer = codec.encode(value);
const back: Event = codec.decode(bytes);
const kind: 'click' | 'view' = back.kind;
// @ts-expect-error: the types must reject a kind the schema does not have
const wrong: Event = { ...value, kind: 'purchase' };
void wrong;
console.log(JSON.stringify({ hex: Buffer.from(bytes).toString('hex'), back, kind, isError: ShornError.prototype instanceof Error }));
`;
const EXPECTED = { id: 4000000000, kind: 'view', name: 'Zoë 🚀', tags: ['a', 'bc'], at: 1718031234567.5 };

before(() => {
  nodes = [{ version: process.versions.node, bin: process.execPath }, ...tools.ensure().nodes];
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-package-'));
  binary = build('linux-x64-gnu');
  packed = pack(path.join(scratch, 'tarballs'));

  // A PATH with node and npm and nothing else, so no cargo (nor a C compiler) can be found.
  const bin = path.join(scratch, 'bin');
  fs.mkdirSync(bin);
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  fs.symlinkSync(findOnPath('npm'), path.join(bin, 'npm'));
  fs.symlinkSync(findOnPath('npx'), path.join(bin, 'npx'));
  const env = { HOME: scratch, PATH: bin, npm_config_cache: path.join(scratch, 'npm-cache'), npm_config_update_notifier: 'false' };
  npmEnv = env;
  assert.equal(spawnSync('cargo', ['--version'], { env }).error?.code, 'ENOENT', 'cargo must not be reachable');

  app = path.join(scratch, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), `${JSON.stringify({ name: 'app', version: '1.0.0', private: true }, null, 2)}\n`);
  // --offline: npm may use only its (empty) cache, so nothing can come from a registry. The
  // platform tarball is named explicitly; the main package's other optional dependencies
  // (the other platforms) cannot be fetched offline and are skipped, as npm skips any
  // optional dependency that fails.
  const started = performance.now();
  const tarballs = [packed.platforms['linux-x64-gnu'].file, packed.main.file];
  const offline = ['--offline', '--no-audit', '--no-fund', '--registry', 'http://127.0.0.1:9/'];
  run(findOnPath('npm'), ['install', ...offline, ...tarballs], { cwd: app, env });
  const ms = performance.now() - started;
  const files = walk(path.join(app, 'node_modules'));
  install = { ms, files, bytes: files.reduce((sum, f) => sum + f.bytes, 0) };
});

after(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('the linux-x64-gnu binary', () => {
  test(`needs glibc ${GLIBC_BASELINE} at most`, (t) => {
    const needs = highestGlibc(binary);
    t.diagnostic(`${path.relative(ROOT, binary)} needs GLIBC_${needs}`);
    assert.ok(needs, 'it links against glibc');
    assert.ok(compareVersions(needs, GLIBC_BASELINE) <= 0, `needs GLIBC_${needs}, above ${GLIBC_BASELINE}`);
    // objdump -T, where binutils is installed, must agree with scripts/elf.js.
    const objdump = spawnSync('objdump', ['-T', binary], { encoding: 'utf8' });
    if (objdump.status === 0) {
      const versions = [...new Set(objdump.stdout.match(/GLIBC_[0-9.]+/g))].map((v) => v.slice(6)).sort(compareVersions);
      assert.equal(versions[versions.length - 1], needs);
    }
  });
});

describe('the published tarballs', () => {
  test('the main package holds the JS API, its types, the shorn command, docs, README and LICENSE, and no Rust or binary', () => {
    assert.deepEqual(
      packed.main.files.filter((f) => !f.startsWith('lib/') && !f.startsWith('docs/')).sort(),
      ['LICENSE', 'README.md', 'bin/shorn.js', 'index.d.ts', 'index.js', 'index.mjs', 'package.json'],
    );
    // The docs a user reads ship; those for contributors stay in the repository (issue 42).
    for (const f of ['lib/addon.js', 'lib/cli/main.js', 'docs/FORMAT.md', 'docs/CLI.md', 'docs/INTEGRATIONS.md', 'docs/BROKERS.md', 'docs/JSON-SCHEMA.md', 'docs/ZOD.md']) assert.ok(packed.main.files.includes(f), f);
    for (const f of ['docs/DESIGN.md', 'docs/BENCHMARKS.md', 'docs/FUZZING.md', 'docs/PACKAGING.md']) assert.ok(!packed.main.files.includes(f), `${f} is for contributors`);
    for (const f of packed.main.files) {
      assert.doesNotMatch(f, /\.(node|rs|so)$|^target\/|^src\/|Cargo\.(toml|lock)$/, `${f} must not be published`);
    }
  });

  test('the main package.json names every platform package at its own version, and has no scripts', () => {
    const published = JSON.parse(fs.readFileSync(path.join(app, 'node_modules', 'shorn', 'package.json'), 'utf8'));
    assert.deepEqual(published.optionalDependencies, Object.fromEntries(declared.map((p) => [`@shorn/${p}`, main.version])));
    assert.equal(published.scripts, undefined, 'no install, postinstall or prepare script runs on install');
    assert.equal(published.license, 'MIT');
    assert.equal(published.repository.url, 'git+https://github.com/shorn-codec/shorn.git');
    assert.match(published.homepage, /^https:\/\/github\.com\/shorn-codec\/shorn/);
  });

  test('the platform package holds its binary, package.json, README and LICENSE', () => {
    assert.deepEqual(packed.platforms['linux-x64-gnu'].files.sort(), ['LICENSE', 'README.md', 'package.json', 'shorn.linux-x64-gnu.node']);
    // The others are packed when built (npm run build:platforms); tests/package/platforms.test.js checks all seven.
    for (const p of packed.missing) assert.ok(declared.includes(p) && p !== 'linux-x64-gnu', p);
  });

  test('every link in the published Markdown resolves inside the package or the repository', () => {
    const installed = path.join(app, 'node_modules', 'shorn');
    const published = packed.main.files.filter((f) => f.endsWith('.md'));
    assert.ok(published.includes('README.md') && published.includes('docs/FORMAT.md'));
    // Markdown kept only in the repository: its links must resolve there.
    const repositoryOnly = ['benchmark/README.md', 'benchmark/data/README.md', ...declared.map((p) => `npm/${p}/README.md`)];
    for (const [base, files] of [[installed, published], [ROOT, repositoryOnly]]) {
      for (const file of files) {
        const text = fs.readFileSync(path.join(base, file), 'utf8');
        assert.doesNotMatch(text, /\.\.\/shared\/|\/work\//, `${file} names a path outside the repository`);
        for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^https?:/.test(link)) {
            assert.match(link, /^https:\/\/(github\.com\/shorn-codec\/shorn|nodejs\.org|rustup\.rs|napi\.rs)/, `${file}: ${link}`);
            continue;
          }
          const [target, anchor] = link.split('#');
          const resolved = target ? path.join(path.dirname(file), target) : file;
          assert.ok(!resolved.startsWith('..'), `${file}: ${link} leaves the repository`);
          // A published file's relative link must resolve inside the package itself.
          const where = path.join(base, resolved);
          assert.ok(fs.existsSync(where), `${file}: ${link} resolves to nothing in ${base === ROOT ? 'the repository' : 'the installed package'}`);
          if (anchor) assert.ok(headingSlugs(where).includes(anchor), `${file}: ${link} names no heading of ${resolved}`);
        }
      }
    }
  });
});

describe('npm install of the two tarballs, with no cargo and no network', () => {
  // Times are reported, not asserted: speed targets live in benchmarks, and a busy CI
  // machine must not fail a correct package (floor: under 5 s; see README).
  test('succeeds (its time is reported)', (t) => {
    t.diagnostic(`npm install: ${install.ms.toFixed(0)} ms (floor ${FLOOR.installMs} ms)`);
    assert.ok(install.ms > 0);
  });

  test(`adds under 2 MB to node_modules, with no Rust build output`, (t) => {
    t.diagnostic(`node_modules: ${install.bytes} bytes in ${install.files.length} files`);
    assert.ok(install.bytes < FLOOR.installedBytes, `${install.bytes} bytes`);
    const names = install.files.map((f) => f.file);
    assert.deepEqual(names.filter((f) => f.endsWith('.node')), [path.join('@shorn', 'linux-x64-gnu', 'shorn.linux-x64-gnu.node')]);
    for (const f of names) assert.doesNotMatch(f, /(^|\/)(target|src)\/|\.rs$|Cargo\.toml$|\.rlib$|\.d$/, f);
  });

  for (const [name, file, source] of [
    ['require', 'app.cjs', APP_CJS],
    ['import', 'app.mjs', APP_ESM],
  ]) {
    test(`${name}('shorn') round-trips a message on Node 20, 22 and 24`, () => {
      fs.writeFileSync(path.join(app, file), source);
      let bytes;
      for (const node of nodes) {
        const out = JSON.parse(run(node.bin, [file], { cwd: app }));
        assert.deepEqual(out.back, EXPECTED, `Node ${node.version}`);
        bytes ??= out.hex;
        assert.equal(out.hex, bytes, `Node ${node.version} writes the same bytes`);
        if (name === 'require') {
          assert.deepEqual(out.functional, EXPECTED);
          assert.equal(out.error, true);
          const loaded = out.addon.map((f) => path.relative(app, f));
          const platformBinary = path.join('node_modules', '@shorn', 'linux-x64-gnu', 'shorn.linux-x64-gnu.node');
          assert.deepEqual(loaded, [platformBinary], 'the platform package binary');
        } else {
          assert.equal(out.same, true, 'import() gives the same module');
        }
      }
    });
  }

  test('tsc --strict type-checks an app against the installed types, and the app round-trips', () => {
    fs.writeFileSync(path.join(app, 'app.ts'), APP_TS);
    fs.writeFileSync(path.join(app, 'app.mts'), APP_TS);
    const tsconfig = {
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        outDir: 'out',
        skipLibCheck: false,
        // @types/node from the repository: the app installs nothing but shorn.
        typeRoots: [path.join(ROOT, 'node_modules', '@types')],
        types: ['node'],
      },
      files: ['app.ts', 'app.mts'],
    };
    fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], { cwd: app });
    for (const node of nodes) {
      for (const js of ['app.js', 'app.mjs']) {
        const out = JSON.parse(run(node.bin, [path.join('out', js)], { cwd: app }));
        assert.deepEqual(out.back, EXPECTED, `Node ${node.version} ${js}`);
        assert.equal(out.kind, 'view');
        assert.equal(out.isError, true);
      }
    }
  });

  test('the shorn command is installed (node_modules/.bin/shorn, npx shorn) and infers, encodes and decodes on Node 20, 22 and 24; size runs without the optional peers', () => {
    const link = path.join(app, 'node_modules', '.bin', 'shorn');
    assert.ok(fs.existsSync(link), 'npm linked the bin');
    assert.ok((fs.statSync(link).mode & 0o111) !== 0, 'executable');
    const script = fs.realpathSync(link);
    assert.equal(script, path.join(fs.realpathSync(app), 'node_modules', 'shorn', 'bin', 'shorn.js'));
    fs.writeFileSync(path.join(app, 'event.json'), JSON.stringify(EXPECTED));
    for (const node of nodes) {
      assert.match(run(node.bin, [script, '--help'], { cwd: app }), /^ {2}infer {4}/m, `Node ${node.version}`);
      const schema = run(node.bin, [script, 'infer', 'event.json', '-o', 'event.schema.json'], { cwd: app });
      assert.equal(schema, '');
      const hex = run(node.bin, [script, 'encode', '--schema', 'event.schema.json', '--hex', 'event.json'], { cwd: app });
      const back = run(node.bin, [script, 'decode', '--schema', 'event.schema.json', '--hex'], { cwd: app, input: hex });
      assert.deepEqual(JSON.parse(back), EXPECTED, `Node ${node.version}`);
    }
    // Run through the link itself, as `npx shorn` does (its #! line finds node on the PATH).
    const viaLink = spawnSync(link, ['--version'], { cwd: app, encoding: 'utf8', env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` } });
    assert.equal(viaLink.stdout.trim(), main.version, viaLink.stderr);
    // And `npx shorn --help` itself, offline: npx finds the installed command (and runs it
    // with a shell, named here, as the PATH has only node, npm and npx).
    const npx = run(path.join(npmEnv.PATH, 'npx'), ['--offline', 'shorn', '--help'], { cwd: app, env: { ...npmEnv, npm_config_script_shell: '/bin/sh' } });
    assert.match(npx, /^Usage: shorn <command> \[options\] \[FILE\]$/m);
    for (const command of ['infer', 'encode', 'decode', 'inspect', 'size']) assert.match(npx, new RegExp(`^ {2}${command} `, 'm'));
    // size works without msgpackr and avsc (optional peers: the app has neither) and says so.
    const table = JSON.parse(run(process.execPath, [script, 'size', '--json', '--no-times', 'event.json'], { cwd: app }));
    assert.deepEqual(
      table.rows.map((r) => r.format),
      ['JSON', 'JSON + gzip', 'JSON + brotli', 'shorn', 'shorn + gzip', 'shorn + brotli'],
    );
    assert.deepEqual(table.notes, ['msgpackr: not installed (npm install msgpackr to compare)', 'avsc: not installed (npm install avsc to compare)']);
  });

  test("cold require('shorn') plus the first compile works from the installed package (its time is reported)", (t) => {
    const probe = `const { performance } = require('node:perf_hooks');
const start = performance.now();
const { t, compile } = require('shorn');
const loaded = performance.now();
compile(t.object({ id: t.uint32(), name: t.string(), age: t.uint8(), active: t.bool() }));
const compiled = performance.now();
console.log(JSON.stringify({ require: loaded - start, compile: compiled - loaded }));`;
    fs.writeFileSync(path.join(app, 'cold.cjs'), probe);
    // The median of 7 fresh processes, as the benchmark's cold-setup table measures.
    const runs = Array.from({ length: 7 }, () => JSON.parse(run(process.execPath, ['cold.cjs'], { cwd: app })));
    const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
    const requireMs = median(runs.map((r) => r.require));
    const compileMs = median(runs.map((r) => r.compile));
    const total = median(runs.map((r) => r.require + r.compile));
    t.diagnostic(
      `cold require ${requireMs.toFixed(1)} ms + first compile ${compileMs.toFixed(1)} ms = ${total.toFixed(1)} ms (median of 7; floor ${FLOOR.coldMs} ms, measured by the benchmark's cold-setup table)`,
    );
    assert.ok(Number.isFinite(total));
  });

  test('on a platform with no binary (stubbed darwin-arm64) the installed package runs on the JS back end; asking for the native one throws the one clear error', () => {
    const stub = `Object.defineProperty(process, 'platform', { value: 'darwin' });
Object.defineProperty(process, 'arch', { value: 'arm64' });`;
    fs.writeFileSync(path.join(app, 'stub.cjs'), stub);
    const probe = `const { t, compile } = require('shorn');
const codec = compile(t.object({ id: t.uint32(), name: t.string() }));
const bytes = codec.encode({ id: 1234, name: 'Ada' });
console.log(JSON.stringify({ backend: codec.backend, hex: Buffer.from(bytes).toString('hex'), back: codec.decode(bytes) }));
compile(t.uint8(), { backend: 'native' });`;
    fs.writeFileSync(path.join(app, 'no-binary.cjs'), probe);
    const result = spawnSync(process.execPath, ['--require', './stub.cjs', 'no-binary.cjs'], { cwd: app, encoding: 'utf8' });
    assert.equal(result.status, 1);
    assert.deepEqual(JSON.parse(result.stdout), { backend: 'js', hex: 'd20903416461', back: { id: 1234, name: 'Ada' } });
    const message = result.stderr;
    assert.match(message, /Error: shorn: no native addon for darwin-arm64 /);
    assert.ok(message.includes('the platform package @shorn/darwin-arm64'), message);
    assert.ok(message.includes('@shorn/darwin-arm64 is not installed'), message);
    assert.ok(message.includes('`npm run build`'), message);
    assert.ok(message.includes("Rust's cargo"), message);
    assert.ok(message.includes("code: 'ERR_SHORN_NO_ADDON'"), message);
  });
});

// Every golden vector written and read, every reject refused with its code, offset and
// path, by the installed package (ESM, so Node, Deno and Bun run the same file).
const GOLDEN_PROBE = `import { readFileSync } from 'node:fs';
import { compile, ShornError } from 'shorn';
const golden = JSON.parse(readFileSync(new URL('./golden.json', import.meta.url), 'utf8'));
${GOLDEN_VALUES_SOURCE}
let backend;
let vectors = 0;
for (const v of golden.vectors) {
  const codec = compile(v.schema);
  backend = codec.backend;
  const hex = toHex(codec.encode(from(v.value)));
  if (hex !== v.hex) throw new Error(v.name + ': wrote ' + hex);
  if (toHex(codec.encode(codec.decode(fromHex(v.hex)))) !== v.hex) throw new Error(v.name + ': decoded value writes other bytes');
  vectors++;
}
let rejects = 0;
for (const r of golden.rejects) {
  if (r.layer === 'js') continue;
  let e;
  try {
    compile(r.schema, r.limits || {}).decode(fromHex(r.hex));
  } catch (error) {
    e = error;
  }
  if (!(e instanceof ShornError) || e.code !== r.code || e.offset !== r.offset || e.path !== r.path) throw new Error(r.name + ': ' + (e ? e.code + ' ' + e.offset + ' ' + e.path : 'decoded'));
  rejects++;
}
console.log(JSON.stringify({ backend, vectors, rejects }));`;

// Deno and Bun (scripts/tools.js), running a file of the app in `cwd`.
function runtimes() {
  const { deno, bun } = tools.paths();
  return [
    { name: `Deno ${deno.version}`, args: (file) => [deno.bin, ['run', '--allow-read', '--allow-env', '--allow-ffi', '--allow-sys', file]] },
    { name: `Bun ${bun.version}`, args: (file) => [bun.bin, [file]] },
  ];
}

describe('Deno and Bun run the installed package (the two tarballs)', () => {
  test('every golden vector, on whichever back end each loads (reported)', (t) => {
    fs.copyFileSync(path.join(ROOT, 'tests', 'golden.json'), path.join(app, 'golden.json'));
    fs.writeFileSync(path.join(app, 'golden.mjs'), GOLDEN_PROBE);
    for (const runtime of runtimes()) {
      const [command, args] = runtime.args('golden.mjs');
      const out = JSON.parse(run(command, args, { cwd: app, env: { ...npmEnv, NO_COLOR: '1' } }));
      t.diagnostic(`${runtime.name}: ${out.vectors} vectors, ${out.rejects} rejects, ${out.backend} back end`);
      assert.ok(out.vectors >= 40 && out.rejects >= 20, JSON.stringify(out));
      const forced = JSON.parse(run(command, args, { cwd: app, env: { ...npmEnv, NO_COLOR: '1', SHORN_BACKEND: 'js' } }));
      assert.equal(forced.backend, 'js', `${runtime.name} with SHORN_BACKEND=js`);
    }
  });
});

describe('npm install of the main tarball alone (no platform package: --omit=optional, an unsupported platform)', () => {
  let alone;
  before(() => {
    alone = path.join(scratch, 'alone');
    fs.mkdirSync(alone);
    fs.writeFileSync(path.join(alone, 'package.json'), `${JSON.stringify({ name: 'alone', version: '1.0.0', private: true }, null, 2)}\n`);
    const offline = ['--offline', '--no-audit', '--no-fund', '--registry', 'http://127.0.0.1:9/'];
    run(findOnPath('npm'), ['install', ...offline, packed.main.file], { cwd: alone, env: npmEnv });
  });

  test('loads no binary, runs on the JS back end, and reads and writes every golden vector and the six corpora as the native back end does', () => {
    const files = walk(path.join(alone, 'node_modules'));
    assert.deepEqual(files.filter((f) => f.file.endsWith('.node')), []);
    fs.copyFileSync(path.join(ROOT, 'tests', 'golden.json'), path.join(alone, 'golden.json'));
    fs.writeFileSync(path.join(alone, 'golden.mjs'), GOLDEN_PROBE);
    const out = JSON.parse(run(process.execPath, ['golden.mjs'], { cwd: alone }));
    assert.equal(out.backend, 'js');
    assert.ok(out.vectors >= 40 && out.rejects >= 20, JSON.stringify(out));
    for (const runtime of runtimes()) {
      const [command, args] = runtime.args('golden.mjs');
      assert.deepEqual(JSON.parse(run(command, args, { cwd: alone, env: { ...npmEnv, NO_COLOR: '1' } })), out, runtime.name);
    }
    // The corpora: the same bytes as this checkout's native build writes.
    const corpus = path.join(__dirname, 'corpus-roundtrip.js');
    const native = JSON.parse(run(process.execPath, [corpus], { cwd: app }));
    const js = JSON.parse(run(process.execPath, [corpus], { cwd: alone }));
    assert.deepEqual(js.addon, []);
    assert.equal(Object.keys(js.encodings).length, 12);
    assert.deepEqual(js.encodings, native.encodings);
  });
});
