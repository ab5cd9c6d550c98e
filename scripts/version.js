'use strict';
// Keeps the versions of the packages published together in step: the main package
// (package.json, and its entry in package-lock.json) and every platform package
// (npm/*/package.json). scripts/pack.js refuses to pack a set whose versions differ, and the
// main package's optionalDependencies name the platform packages at its own version.
//
//   node scripts/version.js            prints each package's version; exits 1 if they differ
//   node scripts/version.js 0.2.0      sets every one to 0.2.0 (and the lockfile's root)

const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
// An npm version: semver, with an optional prerelease and build.
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

function manifests() {
  const files = [path.join(root, 'package.json')];
  for (const dir of fs.readdirSync(path.join(root, 'npm')).sort()) files.push(path.join(root, 'npm', dir, 'package.json'));
  return files.map((file) => ({ file, json: JSON.parse(fs.readFileSync(file, 'utf8')) }));
}

// Writes JSON as npm does: two spaces, a final newline; through a temporary file.
function writeJson(file, json) {
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(json, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}

function setVersion(version) {
  if (!SEMVER.test(version)) throw new Error(`${JSON.stringify(version)} is not a version (like 1.2.3 or 1.2.3-rc.1)`);
  for (const { file, json } of manifests()) writeJson(file, { ...json, version });
  const lockFile = path.join(root, 'package-lock.json');
  if (fs.existsSync(lockFile)) {
    const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
    lock.version = version;
    if (lock.packages?.['']) lock.packages[''].version = version;
    writeJson(lockFile, lock);
  }
}

// { name: version } of every package, and whether they agree.
function versions() {
  const found = Object.fromEntries(manifests().map(({ json }) => [json.name, json.version]));
  return { found, inStep: new Set(Object.values(found)).size === 1 };
}

module.exports = { setVersion, versions };

if (require.main === module) {
  try {
    const [version] = process.argv.slice(2);
    if (version) setVersion(version);
    const { found, inStep } = versions();
    for (const [name, v] of Object.entries(found)) console.log(`${name} ${v}`);
    if (!inStep) {
      console.error('shorn: the versions differ; set them all with `node scripts/version.js <version>`');
      process.exitCode = 1;
    }
  } catch (e) {
    console.error(`shorn: ${e.message}`);
    process.exitCode = 1;
  }
}
