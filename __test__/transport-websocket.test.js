'use strict';
// WebSocket (the `ws` package) on loopback: each binary WebSocket message carries one shorn
// message, or a batch of frames (encodeFrames). Thousands of messages each way, none lost
// or repeated; a bad message is answered with an error naming its index, and the
// connection goes on.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const { once } = require('node:events');
const { WebSocket, WebSocketServer } = require('ws');
const { compile, t } = require('..');
const { Event, Ack, makeEvents, assertAllInOrder, listen } = require('./transport-helpers');

const events = compile(Event);
const acks = compile(Ack);
// What the server sends back on a bad message: its index among the client's messages.
const Fault = t.object({ message: t.uint32(), code: t.string(), frame: t.optional(t.uint32()) });
const faults = compile(Fault);
// A server-to-client message is an Ack or a Fault.
const Reply = t.discriminatedUnion('type', [
  t.object({ type: t.literal('ack'), ack: Ack }),
  t.object({ type: t.literal('acks'), acks: t.array(Ack) }),
  t.object({ type: t.literal('fault'), fault: Fault }),
]);
const replies = compile(Reply);

// The server: one Ack per event of a single message, one `acks` reply per batch (a binary
// message whose first byte is 0x01 is a batch of frames; 0x00 one message), a Fault for a
// message it cannot read.
async function startServer() {
  const server = http.createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => {
    let index = 0;
    let seen = 0;
    ws.on('message', (data, isBinary) => {
      const message = index++;
      try {
        if (!isBinary) throw Object.assign(new Error('expected a binary message'), { code: 'TEXT' });
        const kind = data[0];
        const body = data.subarray(1);
        if (kind === 0) {
          const event = events.decode(body);
          seen++;
          ws.send(replies.encode({ type: 'ack', ack: { id: event.id, seen } }));
        } else if (kind === 1) {
          const batch = events.decodeFrames(body, { checksum: true });
          const list = batch.map((event) => ({ id: event.id, seen: ++seen }));
          ws.send(replies.encode({ type: 'acks', acks: list }));
        } else {
          throw Object.assign(new Error(`unknown kind ${kind}`), { code: 'KIND' });
        }
      } catch (e) {
        ws.send(replies.encode({ type: 'fault', fault: { message, code: e.code, frame: e.frame } }));
      }
    });
  });
  const port = await listen(server);
  return { server, wss, url: `ws://127.0.0.1:${port}` };
}

async function open(url) {
  const ws = new WebSocket(url);
  ws.binaryType = 'nodebuffer';
  await once(ws, 'open');
  return ws;
}

function one(event) {
  return Buffer.concat([Buffer.from([0]), events.encode(event)]);
}

test('WebSocket: 5,000 events one per binary message, 5,000 acks back, in order', async () => {
  const { server, wss, url } = await startServer();
  try {
    const ws = await open(url);
    const sent = makeEvents(5000);
    const ids = [];
    const done = new Promise((resolve, reject) => {
      ws.on('message', (data, isBinary) => {
        try {
          assert.equal(isBinary, true);
          const reply = replies.decode(data);
          assert.equal(reply.type, 'ack');
          assert.equal(reply.ack.seen, ids.length + 1);
          ids.push(reply.ack.id);
          if (ids.length === sent.length) resolve();
        } catch (e) {
          reject(e);
        }
      });
    });
    for (const event of sent) ws.send(one(event));
    await done;
    assertAllInOrder(ids, sent.length, 'acks');
    ws.close();
    await once(ws, 'close');
  } finally {
    wss.close();
    server.close();
  }
});

test('WebSocket: batches of frames in one message each (encodeFrames with checksum), and the events arrive intact', async () => {
  const received = [];
  const { server, wss, url } = await startServer();
  // A second listener that keeps what the server decoded, to compare whole values.
  wss.on('connection', (ws) => {
    ws.on('message', (data) => {
      if (data[0] === 1) received.push(...events.decodeFrames(data.subarray(1), { checksum: true }));
    });
  });
  try {
    const ws = await open(url);
    const sent = makeEvents(3000);
    const ids = [];
    const done = new Promise((resolve) => {
      ws.on('message', (data) => {
        const reply = replies.decode(data);
        for (const ack of reply.acks) ids.push(ack.id);
        if (ids.length === sent.length) resolve();
      });
    });
    for (let at = 0; at < sent.length; at += 100) {
      const batch = events.encodeFrames(sent.slice(at, at + 100), { checksum: true });
      ws.send(Buffer.concat([Buffer.from([1]), batch]));
    }
    await done;
    assertAllInOrder(ids, sent.length, 'batched acks');
    assert.deepStrictEqual(received, sent);
    ws.close();
    await once(ws, 'close');
  } finally {
    wss.close();
    server.close();
  }
});

test('WebSocket: every bad message is reported with its index, and the connection goes on', async () => {
  const { server, wss, url } = await startServer();
  try {
    const ws = await open(url);
    const sent = makeEvents(200);
    const messages = sent.map(one);
    // Bad messages in place of some good ones: a cut message, a trailing byte, a text
    // message, a batch with a flipped bit in its fourth frame, an unknown kind.
    const batch = Buffer.from(events.encodeFrames(sent.slice(0, 5), { checksum: true }));
    const third = events.encodeFrames(sent.slice(0, 3), { checksum: true }).length;
    batch[third + 2] ^= 0x01;
    const bad = new Map([
      [10, { data: messages[10].subarray(0, 8), code: 'ERR_SHORN_TRUNCATED' }],
      [57, { data: Buffer.concat([messages[57], Buffer.from([0])]), code: 'ERR_SHORN_TRAILING' }],
      [90, { data: 'not binary', code: 'TEXT' }],
      [120, { data: Buffer.concat([Buffer.from([1]), batch]), code: 'ERR_SHORN_MALFORMED', frame: 3 }],
      [199, { data: Buffer.from([7, 1, 2]), code: 'KIND' }],
    ]);
    const acked = [];
    const reported = [];
    const done = new Promise((resolve) => {
      ws.on('message', (data) => {
        const reply = replies.decode(data);
        if (reply.type === 'ack') acked.push(reply.ack.id);
        else reported.push(reply.fault);
        if (acked.length + reported.length === messages.length) resolve();
      });
    });
    messages.forEach((data, i) => ws.send(bad.has(i) ? bad.get(i).data : data));
    await done;
    assert.deepStrictEqual(
      reported,
      [...bad].map(([i, b]) => (b.frame === undefined ? { message: i, code: b.code } : { message: i, code: b.code, frame: b.frame })),
    );
    assert.deepStrictEqual(
      acked,
      sent.map((e) => e.id).filter((id) => !bad.has(id)),
    );
    ws.close();
    await once(ws, 'close');
  } finally {
    wss.close();
    server.close();
  }
});

test('examples/websocket.js runs: 1,000 events acknowledged in order, the bad message reported with its index', () => {
  const { execFileSync } = require('node:child_process');
  const path = require('node:path');
  const out = execFileSync(process.execPath, [path.join(__dirname, '..', 'examples', 'websocket.js')], { encoding: 'utf8', timeout: 20_000 });
  assert.match(out, /sent 1000 events in 1000 binary messages; 1000 acknowledged in order: true/);
  assert.match(out, /bad message: \{\n {2}id: 1000,\n {2}ok: false,\n {2}error: 'ERR_SHORN_TRUNCATED: /);
});
