'use strict';
// A real TCP socket (node:net, loopback) carrying framed streams both ways: the client
// writes its frames in deliberately tiny pieces (1 to 7 bytes, each its own write with
// Nagle off), the server decodes them with codec.decoder() and answers every event with an
// Ack through codec.encoder(). Nothing may be lost or repeated, and a bad frame is reported
// with its index after every frame before it.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const net = require('node:net');
const { once } = require('node:events');
const { pipeline } = require('node:stream/promises');
const { compile } = require('..');
const { Event, Ack, makeEvents, assertAllInOrder, listen } = require('./transport-helpers');

const events = compile(Event);
const acks = compile(Ack);

// The server: per connection, every event is acknowledged; a fault is answered by closing
// the connection after recording it (with the frame index the decoder gave).
function startServer(checksum) {
  const faults = [];
  const chunksSeen = [];
  const server = net.createServer(async (socket) => {
    let chunks = 0;
    socket.on('data', () => chunks++);
    const decoder = events.decoder({ checksum, maxFrameBytes: 4096 });
    const encoder = acks.encoder({ checksum });
    const replying = pipeline(encoder, socket).catch(() => {});
    socket.pipe(decoder);
    let seen = 0;
    try {
      for await (const event of decoder) {
        seen++;
        if (!encoder.write({ id: event.id, seen })) await once(encoder, 'drain');
      }
    } catch (e) {
      faults.push(e);
    } finally {
      chunksSeen.push(chunks);
      encoder.end();
      await replying;
    }
  });
  return { server, faults, chunksSeen };
}

// Writes `bytes` to `socket` in pieces of 1 to 7 bytes, one write each, yielding to the
// event loop between writes so each piece leaves as a segment of its own.
// Stops early if the server closes the connection (as it does after a bad frame).
async function writeTiny(socket, bytes) {
  let pieces = 0;
  for (let at = 0, k = 0; at < bytes.length; k++) {
    if (socket.writableEnded || socket.destroyed) break;
    const size = 1 + ((k * 5) % 7);
    if (!socket.write(bytes.subarray(at, at + size))) {
      await new Promise((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
      });
    }
    at += size;
    pieces++;
    if (k % 4 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return pieces;
}

async function connect(port) {
  const socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
  await once(socket, 'connect');
  // A server that closes after a bad frame can make a late write fail (EPIPE, ECONNRESET):
  // the test checks what arrived, not how the socket ended.
  socket.on('error', () => {});
  return socket;
}

for (const checksum of [false, true]) {
  test(`TCP: 2,000 events in 1-7 byte pieces, each acknowledged, none lost or repeated (checksum: ${checksum})`, async () => {
    const { server, faults, chunksSeen } = startServer(checksum);
    const port = await listen(server);
    try {
      const socket = await connect(port);
      const decoder = acks.decoder({ checksum });
      const reading = (async () => {
        const ids = [];
        for await (const ack of decoder) {
          assert.equal(ack.seen, ids.length + 1);
          ids.push(ack.id);
        }
        return ids;
      })();
      socket.pipe(decoder);
      const sent = makeEvents(2000);
      const bytes = events.encodeFrames(sent, { checksum });
      const pieces = await writeTiny(socket, bytes);
      socket.end();
      const ids = await reading;
      assertAllInOrder(ids, sent.length, 'acks');
      assert.deepStrictEqual(faults, []);
      assert.ok(pieces > bytes.length / 7, `${pieces} writes`);
      // The server's decoder really saw small chunks, not one coalesced block.
      assert.ok(chunksSeen[0] > 200, `the server got ${chunksSeen[0]} chunks for ${bytes.length} bytes`);
    } finally {
      server.close();
    }
  });
}

test('TCP: the events decoded on the server are the events sent', async () => {
  const received = [];
  const server = net.createServer(async (socket) => {
    for await (const event of socket.pipe(events.decoder())) received.push(event);
    socket.end();
  });
  const port = await listen(server);
  try {
    const socket = await connect(port);
    const sent = makeEvents(500, 1000);
    const encoder = events.encoder();
    const done = pipeline(encoder, socket);
    for (const event of sent) if (!encoder.write(event)) await once(encoder, 'drain');
    encoder.end();
    await done;
    await once(socket, 'close');
    assert.deepStrictEqual(received, sent);
  } finally {
    server.close();
  }
});

test('TCP: a bad frame on each connection is reported with its index, after every frame before it', async () => {
  const { server, faults } = startServer(true);
  const port = await listen(server);
  try {
    // Connection k sends 50 good frames, with frame `bad` corrupted by one flipped bit.
    const cases = [
      { bad: 0, how: 'flip' },
      { bad: 17, how: 'flip' },
      { bad: 49, how: 'flip' },
      { bad: 30, how: 'oversize' },
      { bad: 12, how: 'cut' },
    ];
    for (const { bad, how } of cases) {
      const sent = makeEvents(50);
      const before = events.encodeFrames(sent.slice(0, bad), { checksum: true });
      let tail = events.encodeFrames(sent.slice(bad), { checksum: true });
      if (how === 'flip') {
        tail = Buffer.from(tail);
        tail[3] ^= 0x10;
      } else if (how === 'oversize') {
        tail = Buffer.concat([Buffer.from([0xff, 0xff, 0x03]), tail]); // 65535 > maxFrameBytes 4096
      } else {
        tail = tail.subarray(0, 5); // the connection ends inside frame `bad`
      }
      const socket = await connect(port);
      const decoder = acks.decoder({ checksum: true });
      socket.pipe(decoder);
      const ids = [];
      const reading = (async () => {
        for await (const ack of decoder) ids.push(ack.id);
      })();
      await writeTiny(socket, Buffer.concat([before, tail]));
      if (!socket.destroyed) socket.end();
      await reading;
      assertAllInOrder(ids, bad, `acks before bad frame ${bad}`);
    }
    // The server recorded one fault per connection (in order of connections).
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(faults.length, cases.length);
    const expected = { flip: 'ERR_SHORN_MALFORMED', oversize: 'ERR_SHORN_LIMIT', cut: 'ERR_SHORN_TRUNCATED' };
    cases.forEach(({ bad, how }, k) => {
      assert.equal(faults[k].code, expected[how], `${how} at ${bad}: ${faults[k].message}`);
      assert.equal(faults[k].frame, bad, `${how} at ${bad}`);
    });
  } finally {
    server.close();
  }
});
