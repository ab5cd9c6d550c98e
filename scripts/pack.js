'use strict';
// Packs what would be published: one tarball per platform package whose binary is built
// (npm/<platform>/, see scripts/build-platform.js) and the main package, whose package.json
// gets `optionalDependencies` on every declared platform package at its own version. That is
// what napi-rs's `napi prepublish` does, and for the same reason the repository's
// package.json does not carry them: until those packages are on the registry, `npm ci` in a
// clone stops with "Missing: @shorn/linux-x64-gnu@ from lock file".
//
// Each package is copied to a staging folder and packed there, so the working tree is never
// modified; `npm pack` runs with --ignore-scripts, since the main package's `prepare` (a
// cargo build for git clones) has nothing to do for a tarball.
//
//   node scripts/pack.js [out-dir]     (npm run pack:packages; default out-dir: dist/)

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');

function npmPack(dir, dest) {
  // On Windows npm is npm.cmd, which spawnSync runs only through a shell.
  const run = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], {
    cwd: dir,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (run.error || run.status !== 0) throw new Error(`npm pack in ${dir} failed: ${run.error?.message ?? run.stderr}`);
  const [info] = JSON.parse(run.stdout);
  return { file: path.join(dest, info.filename), size: info.size, unpackedSize: info.unpackedSize, files: info.files.map((f) => f.path) };
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

// { main: { file, size, unpackedSize, files }, platforms: { 'linux-x64-gnu': {...} }, missing: [...] }
function pack(out = path.join(root, 'dist')) {
  const main = readJson(path.join(root, 'package.json'));
  const stage = path.join(out, 'stage');
  fs.rmSync(stage, { recursive: true, force: true });
  fs.mkdirSync(stage, { recursive: true });

  const platforms = {};
  const missing = [];
  const optional = {};
  for (const platform of fs.readdirSync(path.join(root, 'npm')).sort()) {
    const dir = path.join(root, 'npm', platform);
    const manifest = readJson(path.join(dir, 'package.json'));
    if (manifest.version !== main.version) {
      throw new Error(`npm/${platform} is version ${manifest.version}, shorn is ${main.version}: they are published together`);
    }
    optional[manifest.name] = main.version;
    const binary = path.join(dir, manifest.main);
    if (!fs.existsSync(binary)) {
      missing.push(platform);
      continue;
    }
    const to = path.join(stage, platform);
    fs.mkdirSync(to);
    for (const f of ['package.json', 'README.md', manifest.main]) fs.copyFileSync(path.join(dir, f), path.join(to, f));
    fs.copyFileSync(path.join(root, 'LICENSE'), path.join(to, 'LICENSE'));
    platforms[platform] = npmPack(to, out);
  }

  const to = path.join(stage, 'shorn');
  fs.mkdirSync(to);
  for (const entry of main.files) {
    fs.cpSync(path.join(root, entry), path.join(to, entry), { recursive: true });
  }
  // No scripts in the published manifest: they run files that are not published (scripts/,
  // benchmark/), and npm 11 lists a dependency's `prepare` among the install scripts a project
  // must approve (allowScripts), although it never runs it for a registry or tarball install.
  const published = { ...main, optionalDependencies: optional };
  delete published.scripts;
  fs.writeFileSync(path.join(to, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
  const packed = npmPack(to, out);
  fs.rmSync(stage, { recursive: true, force: true });
  return { main: packed, platforms, missing };
}

module.exports = { pack };

if (require.main === module) {
  const result = pack(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
  for (const p of [result.main, ...Object.values(result.platforms)]) {
    console.log(`${path.relative(process.cwd(), p.file)}: ${kb(p.size)} packed, ${kb(p.unpackedSize)} unpacked, ${p.files.length} files`);
  }
  if (result.missing.length) {
    console.log(`not packed (no binary in npm/<platform>/; npm run build:platforms builds them): ${result.missing.join(', ')}`);
  }
}
