'use strict';
// Starts a private nats-server with JetStream for a test: on a free loopback port, its
// store in a temporary directory, killed (and the directory removed) by `stop()`. Debian's
// nats-server package provides it (.ci/run installs it); where it is missing the test
// fails with how to install it, rather than passing without having run.

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { serverBinary, freePort } = require('./transport-helpers');

const INSTALL_HINT =
  'nats-server is not installed, and the NATS JetStream transport test needs it. Install it with ' +
  '`apt-get install -y nats-server` (Debian/Ubuntu; .ci/run does this) or `brew install nats-server` (macOS), ' +
  'or set SHORN_NATS_SERVER to the path of a nats-server binary.';



/**
 * Starts nats-server with JetStream; resolves to `{ port, url, stop }` once it accepts
 * connections. `output()` returns what the server has logged, for a failing test to show.
 */
async function startNats() {
  const bin = serverBinary('SHORN_NATS_SERVER', 'nats-server', INSTALL_HINT);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-nats-'));
  // A port found free can be taken before nats-server binds it; try a few.
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    // No monitoring port, no cluster, no leaf nodes: only the client port on loopback.
    const child = spawn(bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const ready = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000);
      const look = (chunk) => {
        output += chunk;
        if (output.includes('Server is ready')) {
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
          // JetStream flushes its store on SIGTERM; a server that has not exited after
          // 10 s is killed, so a test's `after` cannot hang on it.
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
        }
        fs.rmSync(dir, { recursive: true, force: true });
      };
      return { port, url: `nats://127.0.0.1:${port}`, stop, output: () => output };
    }
    if (child.exitCode === null) child.kill('SIGKILL');
    if (!/address already in use/.test(output)) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`nats-server did not start:\n${output}`);
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  throw new Error('nats-server found no free port in 5 tries');
}

module.exports = { startNats, INSTALL_HINT };
