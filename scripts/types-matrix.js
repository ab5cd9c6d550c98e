'use strict';
// The published types against a matrix (issue 42, item 3): every TypeScript and every
// @types/node that tests/typescript/matrix/package.json pins (npm aliases: ts59 is
// typescript@5.9.3, types-node-24 is @types/node@24.x), × the module settings a user may
// have: node16 and nodenext (a CommonJS file and an ES module each) and bundler, always
// with skipLibCheck off. Each cell type-checks a small consumer
// (tests/typescript/matrix/consumer) that imports `shorn`, `shorn/http`, `shorn/fastify`
// and `shorn/express` from the package as `npm pack` makes it (its "files" and "exports"),
// unpacked as node_modules/shorn of the consumer, next to Fastify.
//
//   node scripts/types-matrix.js [--jobs N] [--only REGEXP] [--package TGZ] [--no-cache]
//
// --only runs the cells whose label ("TypeScript 5.9.3 × @types/node 24.19.4 × nodenext")
// matches; --package checks that tarball (a published shorn, or one changed by hand to see
// the matrix fail) instead of packing the repository.
//
// The matrix's own dependencies are installed with `npm ci --prefix tests/typescript/matrix`
// (its package-lock.json), only when that lock changed since the last install. Prints one
// line per TypeScript × @types/node, a column per module setting, and exits 1 with the tsc
// output of every failing cell.
//
// The consumer lives in tests/typescript/matrix/node_modules/.cache/types-matrix, and each
// cell is an incremental program (tsc's .tsbuildinfo, --noEmit): a run after the first
// checks again only what changed (shorn's declarations, the consumer), not @types/node's
// and Fastify's, which a new lock wipes with node_modules. --no-cache checks in a
// temporary folder from scratch. A second run in the same checkout waits for the first. On 2 busy cores: ~4
// minutes from scratch (36 runs; TypeScript 5.x takes ~10 s of CPU a run, 7.0 ~2 s), ~35 s
// after that.

const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const matrix = path.join(root, 'tests', 'typescript', 'matrix');
const modules = path.join(matrix, 'node_modules');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// The module settings. node16 and nodenext check CommonJS (.cts) and ES module (.mts) files
// in one program, whose errors check() sorts into the two columns.
const MODES = [
  { name: 'node16', module: 'node16', moduleResolution: 'node16', files: ['core.cts', 'core.mts', 'subpaths.cts', 'subpaths.mts'] },
  { name: 'nodenext', module: 'nodenext', moduleResolution: 'nodenext', files: ['core.cts', 'core.mts', 'subpaths.cts', 'subpaths.mts'] },
  // What a Vite or esbuild app has: ES modules resolved with the "import" conditions.
  { name: 'bundler', module: 'esnext', moduleResolution: 'bundler', files: ['core.ts', 'subpaths.mts'] },
];
const COLUMNS = [
  ['node16', 'cjs'],
  ['node16', 'esm'],
  ['nodenext', 'cjs'],
  ['nodenext', 'esm'],
  ['bundler', 'esm'],
];

function args() {
  const out = { jobs: Math.max(1, Math.min(2, os.availableParallelism?.() ?? os.cpus().length)), only: null, tarball: null, cache: true };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--jobs') out.jobs = Number(argv[++i]);
    else if (argv[i] === '--only') out.only = new RegExp(argv[++i]);
    else if (argv[i] === '--package') out.tarball = path.resolve(argv[++i]);
    else if (argv[i] === '--no-cache') out.cache = false;
    else throw new Error(`unknown argument ${argv[i]} (--jobs N, --only REGEXP, --package TGZ, --no-cache)`);
  }
  return out;
}

function run(command, argv, options) {
  const r = spawnSync(command, argv, { encoding: 'utf8', ...options });
  if (r.error || r.status !== 0) {
    throw new Error(`${command} ${argv.join(' ')} failed${r.error ? `: ${r.error.message}` : ''}\n${r.stdout || ''}${r.stderr || ''}`);
  }
  return r.stdout;
}

// npm ci, unless node_modules was installed from this very lock.
function install() {
  const lock = fs.readFileSync(path.join(matrix, 'package-lock.json'));
  const hash = crypto.createHash('sha256').update(lock).digest('hex');
  const stamp = path.join(modules, '.types-matrix-lock');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return false;
  run(npm, ['ci', '--prefix', matrix, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: matrix, stdio: ['ignore', 'pipe', 'pipe'] });
  fs.writeFileSync(stamp, hash);
  return true;
}

function versionOf(alias) {
  return JSON.parse(fs.readFileSync(path.join(modules, alias, 'package.json'), 'utf8')).version;
}

// One run at a time per checkout (the second waits): a run installs node_modules, and the
// consumer folder and its .tsbuildinfo files are shared. The lock is a folder with the pid
// of its holder; one left by a run that died is taken over.
function lock() {
  const dir = path.join(matrix, '.lock');
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
      return () => fs.rmSync(dir, { recursive: true, force: true });
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    let pid = 0;
    try {
      pid = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
    } catch {}
    let age = 0;
    try {
      age = Date.now() - fs.statSync(dir).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    // No pid yet: another run is taking the lock right now (or died doing it long ago).
    if (pid ? !alive(pid) : age > 60000) {
      fs.rmSync(dir, { recursive: true, force: true });
      continue;
    }
    if (!told) console.log(`waiting for the types-matrix run holding ${path.relative(root, dir)} (pid ${pid || '?'})`);
    told = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

// The package as a user gets it: `npm pack` of the repository into `tmp` (no lifecycle
// scripts: the types need no build), unpacked as node_modules/shorn of the consumer in `dir`.
function consumer(dir, tmp, given) {
  let tarball = given;
  let from = given ? path.basename(given) : null;
  if (!given) {
    const packed = JSON.parse(run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp, '--loglevel=error'], { cwd: root }));
    tarball = path.join(tmp, packed[0].filename);
    from = `packed shorn (${packed[0].files.length} files)`;
  }
  const app = path.join(dir, 'app');
  fs.mkdirSync(app, { recursive: true });
  const shorn = path.join(app, 'node_modules', 'shorn');
  fs.rmSync(shorn, { recursive: true, force: true });
  fs.mkdirSync(shorn, { recursive: true });
  run('tar', ['-xzf', tarball, '-C', shorn, '--strip-components=1']);
  const fastify = path.join(app, 'node_modules', 'fastify');
  if (!fs.existsSync(fastify)) fs.symlinkSync(path.join(modules, 'fastify'), fastify, 'junction');
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'shorn-types-consumer', private: true }, null, 2));
  const src = path.join(matrix, 'consumer');
  for (const [name, as] of [
    ['core.ts', 'core.cts'],
    ['core.ts', 'core.mts'],
    ['core.ts', 'core.ts'],
    ['subpaths.cts', 'subpaths.cts'],
    ['subpaths.mts', 'subpaths.mts'],
  ]) {
    fs.copyFileSync(path.join(src, name), path.join(app, as));
  }
  return { app, from };
}

function cells(app, only, cache) {
  const deps = JSON.parse(fs.readFileSync(path.join(matrix, 'package.json'), 'utf8')).dependencies;
  const byVersion = (a, b) => a.version.localeCompare(b.version, 'en', { numeric: true });
  const typescripts = Object.keys(deps)
    .filter((k) => /^ts\d+$/.test(k))
    .map((alias) => ({ alias, version: versionOf(alias) }))
    .sort(byVersion);
  const nodes = Object.keys(deps)
    .filter((k) => k.startsWith('types-node-'))
    .map((alias) => ({ alias, version: versionOf(alias) }))
    .sort(byVersion);
  const out = [];
  for (const ts of typescripts) {
    for (const node of nodes) {
      // @types/node as the only type root, as a user's node_modules/@types/node.
      const typeRoot = path.join(app, 'types', node.alias);
      if (!fs.existsSync(typeRoot)) {
        fs.mkdirSync(typeRoot, { recursive: true });
        fs.symlinkSync(path.join(modules, node.alias), path.join(typeRoot, 'node'), 'junction');
      }
      for (const mode of MODES) {
        const label = `TypeScript ${ts.version} × @types/node ${node.version} × ${mode.name}`;
        if (only && !only.test(label)) continue;
        const tsconfig = path.join(app, `tsconfig.${ts.alias}.${node.alias}.${mode.name}.json`);
        const compilerOptions = {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: mode.module,
          moduleResolution: mode.moduleResolution,
          skipLibCheck: false,
          typeRoots: [path.relative(app, typeRoot)],
          types: ['node'],
          ...(cache ? { incremental: true, tsBuildInfoFile: `./tsbuildinfo/${ts.alias}.${node.alias}.${mode.name}.tsbuildinfo` } : {}),
        };
        fs.writeFileSync(tsconfig, JSON.stringify({ compilerOptions, files: mode.files }, null, 2));
        out.push({ ts, node, mode, label, tsconfig });
      }
    }
  }
  return out;
}

function check(cell, app) {
  const tsc = path.join(modules, cell.ts.alias, 'bin', 'tsc');
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', cell.tsconfig, '--pretty', 'false'], { cwd: app });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (e) => (output += `${e.message}\n`));
    child.on('close', (code) => {
      cell.seconds = (Date.now() - started) / 1000;
      cell.output = output.trim();
      cell.code = code;
      // Which side an error is on: a .cts or .d.cts file is CommonJS, a .mts or .d.mts file
      // (and anything in the bundler cell) an ES module; an error in a .ts or .d.ts file,
      // or none that tsc places, counts against both.
      const failed = new Set();
      if (code !== 0) {
        const errors = output.split('\n').filter((l) => /error TS\d+/.test(l));
        if (errors.length === 0) failed.add('cjs').add('esm');
        for (const line of errors) {
          const file = /^(.*?)\(\d+,\d+\): error/.exec(line)?.[1] ?? '';
          if (cell.mode.name === 'bundler' || file.endsWith('.mts')) failed.add('esm');
          else if (file.endsWith('.cts')) failed.add('cjs');
          else failed.add('cjs').add('esm');
        }
      }
      cell.failed = failed;
      resolve();
    });
  });
}

async function main() {
  const options = args();
  const started = Date.now();
  const release = lock();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-types-matrix-'));
  try {
    const installed = install();
    const dir = options.cache ? path.join(modules, '.cache', 'types-matrix') : tmp;
    const { app, from } = consumer(dir, tmp, options.tarball);
    const list = cells(app, options.only, options.cache);
    if (list.length === 0) throw new Error(`no cell matches ${options.only}`);
    console.log(
      `${installed ? 'installed the matrix (npm ci), ' : ''}${from}; ${list.length} tsc runs, ${options.jobs} at a time, skipLibCheck: false, ${options.cache ? 'incremental' : 'from scratch'}`,
    );
    const queue = list.slice();
    await Promise.all(
      Array.from({ length: options.jobs }, async () => {
        while (queue.length > 0) await check(queue.shift(), app);
      }),
    );

    // The table: a row per TypeScript × @types/node, a column per module setting and format.
    const rows = new Map();
    for (const cell of list) {
      const key = `${cell.ts.version}\t${cell.node.version}`;
      if (!rows.has(key)) rows.set(key, { ts: cell.ts.version, node: cell.node.version, modes: {}, seconds: 0 });
      rows.get(key).modes[cell.mode.name] = cell;
      rows.get(key).seconds += cell.seconds;
    }
    const header = ['TypeScript', '@types/node', ...COLUMNS.map(([m, f]) => `${m} ${f}`), 'tsc s'];
    const table = [header];
    for (const row of rows.values()) {
      table.push([
        row.ts,
        row.node,
        ...COLUMNS.map(([m, f]) => (row.modes[m] ? (row.modes[m].failed.has(f) ? 'FAIL' : 'ok') : '-')),
        row.seconds.toFixed(1),
      ]);
    }
    const widths = header.map((_, i) => Math.max(...table.map((r) => r[i].length)));
    for (const r of table) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());

    const failures = list.filter((c) => c.code !== 0);
    for (const cell of failures) {
      console.error(`\n-- ${cell.label}: tsc -p ${path.basename(cell.tsconfig)} exited with ${cell.code}`);
      console.error(cell.output.split(app).join('<consumer>'));
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (failures.length > 0) {
      console.error(`\n${failures.length} of ${list.length} tsc runs failed (${seconds} s)`);
      process.exitCode = 1;
    } else {
      console.log(`all ${list.length} tsc runs passed (${seconds} s)`);
    }
  } finally {
    release();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e.stack || e.message);
  process.exit(1);
});
