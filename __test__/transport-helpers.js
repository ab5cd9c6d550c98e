'use strict';
// What the transport tests share: the event schema they carry, varied events, and small
// helpers for loopback servers. Every server is started by its test on 127.0.0.1, port 0.

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const net = require('node:net');
const { t } = require('..');

const KINDS = ['click', 'view', 'purchase', 'signup', 'logout'];

const Event = t.object({
  id: t.uint32(),
  ts: t.float64(),
  kind: t.enum(KINDS),
  user: t.object({ id: t.uint32(), name: t.string(), tags: t.array(t.string()) }),
  payload: t.object({ count: t.uint16(), ratio: t.float32(), ok: t.bool() }),
});

const Ack = t.object({ id: t.uint32(), seen: t.uint32() });

const NAMES = ['ada', 'grace', 'zoë', 'łukasz', '李小龍', 'ярослава', ''];

/** `count` varied events with ids `first`, `first + 1`, ... (names of every kind of text). */
function makeEvents(count, first = 0) {
  const events = [];
  for (let k = 0; k < count; k++) {
    const i = first + k;
    events.push({
      id: i,
      ts: 1718031234567 + i * 17,
      kind: KINDS[i % KINDS.length],
      user: { id: (i * 7919) % 1000000, name: `${NAMES[i % NAMES.length]}_${i}`.repeat(1 + (i % 3)), tags: ['a', 'bb', 'ccc'].slice(0, i % 4) },
      payload: { count: i % 65536, ratio: Math.fround((i % 1000) / 1000), ok: i % 2 === 0 },
    });
  }
  return events;
}

/** Checks that `ids` is exactly 0..count-1 in order: nothing lost, nothing repeated. */
function assertAllInOrder(ids, count, what) {
  assert.equal(ids.length, count, `${what}: ${ids.length} of ${count} arrived`);
  for (let i = 0; i < count; i++) assert.equal(ids[i], i, `${what}: item ${i} is ${ids[i]}`);
}

/** Resolves with the port of `server` once it listens on 127.0.0.1. */
function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });
}

/**
 * The server binary a test starts: `$envName` if set, else `name` on PATH; if it does not
 * run (`--version`), an error with `hint` (how to install it), so that the test fails
 * rather than passes without having run.
 */
function serverBinary(envName, name, hint) {
  const bin = process.env[envName] || name;
  const probe = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(`${hint} (running \`${bin} --version\`: ${probe.error ? probe.error.message : `exit ${probe.status}`})`);
  }
  return bin;
}

/** A loopback port free now (a server started on it may still lose a race for it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

module.exports = { Event, Ack, makeEvents, assertAllInOrder, listen, serverBinary, freePort };
