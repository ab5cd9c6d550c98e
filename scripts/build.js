'use strict';
// Builds the addon with cargo and puts it where index.js loads it (shorn.node).
// Run by `npm install` (the "install" script) and `npm run build`; `--debug` for a
// debug build.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const debug = process.argv.includes('--debug');
const args = ['build', '--lib', ...(debug ? [] : ['--release'])];

const cargo = spawnSync('cargo', args, { cwd: root, stdio: 'inherit' });
if (cargo.error) {
  console.error(`shorn: cannot run cargo (${cargo.error.message}); a Rust toolchain is needed to build the addon`);
  process.exit(1);
}
if (cargo.status !== 0) process.exit(cargo.status ?? 1);

const targetDir = process.env.CARGO_TARGET_DIR || path.join(root, 'target');
const names = { linux: 'libshorn.so', darwin: 'libshorn.dylib', win32: 'shorn.dll' };
const built = path.join(targetDir, debug ? 'debug' : 'release', names[process.platform] || 'libshorn.so');
const dest = path.join(root, 'shorn.node');
// Copy to a temporary name and rename, so a running process never loads a half-written file.
fs.copyFileSync(built, `${dest}.tmp`);
fs.renameSync(`${dest}.tmp`, dest);
console.error(`shorn: built ${path.relative(root, dest)} (${debug ? 'debug' : 'release'})`);
