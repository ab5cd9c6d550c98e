'use strict';
// Preloaded (node --require) into the arm64 Node that tests/package/platforms.test.js runs
// under qemu-aarch64:
//   - a child process of process.execPath (an arm64 program, which the kernel here cannot
//     start by itself) is started through the same qemu, given as a JSON array in
//     SHORN_ARM64_RUNNER: ["/usr/bin/qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"];
//   - when the process ends, the .node files it loaded are written to SHORN_LOADED_FILE as a
//     JSON array, so the test can check that the arm64 platform package was the one used.

const childProcess = require('node:child_process');
const fs = require('node:fs');

const runner = JSON.parse(process.env.SHORN_ARM64_RUNNER || 'null');
if (runner) {
  for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync']) {
    const original = childProcess[name];
    childProcess[name] = function (file, args, ...rest) {
      if (file !== process.execPath) return original.call(this, file, args, ...rest);
      // (file, options) and (file, callback) forms: no argument list.
      if (!Array.isArray(args)) return original.call(this, runner[0], [...runner.slice(1), file], ...[args, ...rest].filter((a) => a !== undefined));
      return original.call(this, runner[0], [...runner.slice(1), file, ...args], ...rest);
    };
  }
}

if (process.env.SHORN_LOADED_FILE) {
  process.on('exit', () => {
    const loaded = Object.keys(require.cache).filter((f) => f.endsWith('.node'));
    fs.writeFileSync(process.env.SHORN_LOADED_FILE, JSON.stringify(loaded));
  });
}
