'use strict';
// shorn over WebSocket (the `ws` package): a WebSocket message already has a length, so
// each binary message carries one shorn message, no framing. The server answers each
// event with an Ack, and a message it cannot read with an Ack that says so, naming the
// message's index; the connection goes on. Run: node examples/websocket.js

const { WebSocketServer, WebSocket } = require('ws');
const { t, compile } = require('..');

const Event = t.object({ id: t.uint32(), kind: t.enum(['click', 'view']), at: t.date() });
const Ack = t.object({ id: t.uint32(), ok: t.bool(), error: t.optional(t.string()) });
const events = compile(Event);
const acks = compile(Ack);

function startServer() {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (ws) => {
    let index = 0;
    ws.on('message', (data, isBinary) => {
      const message = index++;
      try {
        if (!isBinary) throw new Error('expected a binary message');
        const event = events.decode(data);
        ws.send(acks.encode({ id: event.id, ok: true }));
      } catch (e) {
        ws.send(acks.encode({ id: message, ok: false, error: `${e.code || 'ERROR'}: ${e.message}` }));
      }
    });
  });
  return new Promise((resolve) => wss.on('listening', () => resolve(wss)));
}

async function main() {
  const wss = await startServer();
  const ws = new WebSocket(`ws://127.0.0.1:${wss.address().port}`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const count = 1000;
  const replies = [];
  const done = new Promise((resolve) => {
    ws.on('message', (data) => {
      replies.push(acks.decode(data));
      if (replies.length === count + 1) resolve();
    });
  });
  for (let id = 0; id < count; id++) {
    ws.send(events.encode({ id, kind: id % 2 ? 'view' : 'click', at: new Date(1718031234567 + id) }));
  }
  ws.send(Buffer.from([0xff, 0xff])); // message 1000: not an Event
  await done;
  const ok = replies.filter((r) => r.ok).length;
  console.log(`sent ${count} events in ${count} binary messages; ${ok} acknowledged in order: ${replies.slice(0, count).every((r, i) => r.id === i)}`);
  console.log('bad message:', replies[count]);
  ws.close();
  wss.close();
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}

module.exports = { Event, Ack, startServer };
