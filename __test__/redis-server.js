'use strict';
// Starts a private redis-server for a test: on a free loopback port, in a temporary
// directory, with no persistence, killed (and its directory removed) by `stop()`. Debian's
// redis-server package provides it (.ci/run installs it); where it is missing the test
// fails with how to install it, rather than passing without having run.

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { serverBinary, freePort } = require('./transport-helpers');

const INSTALL_HINT =
  'redis-server is not installed, and the Redis Streams transport test needs it. Install it with ' +
  '`apt-get install -y redis-server` (Debian/Ubuntu; .ci/run does this) or `brew install redis` (macOS), ' +
  'or set SHORN_REDIS_SERVER to the path of a redis-server binary.';



/** Starts redis-server; resolves to `{ port, stop }` once it accepts connections. */
async function startRedis() {
  const bin = serverBinary('SHORN_REDIS_SERVER', 'redis-server', INSTALL_HINT);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-redis-'));
  // A port found free can be taken before redis binds it; try a few.
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const child = spawn(
      bin,
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'notice'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const ready = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000);
      const look = (chunk) => {
        output += chunk;
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve(true);
        }
      };
      child.stdout.on('data', look);
      child.stderr.on('data', look);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (ready) {
      const stop = async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
        fs.rmSync(dir, { recursive: true, force: true });
      };
      return { port, stop };
    }
    if (child.exitCode === null) child.kill('SIGKILL');
    if (!/Address already in use/.test(output)) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`redis-server did not start:\n${output}`);
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  throw new Error('redis-server found no free port in 5 tries');
}

module.exports = { startRedis, INSTALL_HINT };
