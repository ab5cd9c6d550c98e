'use strict';
// A real broker: NATS JetStream on a nats-server the test starts itself (nats-server.js),
// with the `nats` client. Each stream message holds one envelope (createRegistry), so the
// message says which schema wrote it. Producers on schema v1 and v2 publish concurrently;
// two workers share one durable pull consumer and read every message as v2 through a
// registry, acking each. Nothing is lost or handled twice; a message a worker naks comes
// back once; a message that does not decode is reported with its stream sequence and
// terminated, so it is never redelivered, and the rest arrive. examples/nats.js runs here
// too, against the same server, so the example cannot rot.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const path = require('node:path');
const { connect, AckPolicy, StorageType, nanos } = require('nats');
const { t, compile, createRegistry } = require('..');
const { startNats } = require('./nats-server');

let nats;
before(async () => {
  nats = await startNats();
});
after(async () => {
  if (nats) await nats.stop();
});

// Reconnecting would turn a dead server into a wait for the deadline; fail at once instead.
const open = () => connect({ servers: nats.url, reconnect: false, name: 'shorn-test' });

const V1 = t.object({ id: t.uint32(), user: t.string(), score: t.uint16(), tags: t.array(t.string()) });
// v2 widened score, added a region with a default and an optional note.
const V2 = t.object({
  id: t.uint32(),
  user: t.string(),
  score: t.uint32(),
  tags: t.array(t.string()),
  region: t.default(t.enum(['eu', 'us']), 'eu'),
  note: t.optional(t.string()),
});
// A writer the consumer was never told about.
const V3 = t.object({ id: t.uint32(), extra: t.bytes() });

/**
 * Publishes `messages` ({ subject, bytes, msgID }) in order, at most `window` awaiting
 * their PubAck at once; resolves to the PubAcks, in the same order.
 */
async function publishAll(js, messages, window = 128) {
  const acks = [];
  for (let at = 0; at < messages.length; at += window) {
    const slice = messages.slice(at, at + window);
    acks.push(...(await Promise.all(slice.map((m) => js.publish(m.subject, m.bytes, { msgID: m.msgID })))));
  }
  return acks;
}

/**
 * One worker on durable consumer `durable` of `stream`: fetches batches, hands each message
 * to `handle`, until `done()` or `deadline` (ms since the epoch). Every loop is bounded:
 * a fetch waits at most `expires` ms.
 */
async function work(js, stream, durable, handle, done, deadline) {
  const consumer = await js.consumers.get(stream, durable);
  while (!done() && Date.now() < deadline) {
    const batch = await consumer.fetch({ max_messages: 100, expires: 1000 });
    for await (const m of batch) handle(m);
  }
}

test('NATS JetStream: producers on v1 and v2, two workers on one durable consumer read v2 through a registry, each message acked once, bad ones terminated with their sequence', { timeout: 90_000 }, async () => {
  const producerV1 = await open();
  const producerV2 = await open();
  const workers = [await open(), await open()];
  try {
    const jsm = await producerV1.jetstreamManager();
    await jsm.streams.add({ name: 'EVENTS', subjects: ['events.>'], storage: StorageType.File });
    // An ack that never reached the server shows as a second delivery once ack_wait has
    // passed, or else as num_ack_pending below. 10 s, not less: a worker slowed down by a
    // loaded machine must not see its messages redelivered while it holds them.
    await jsm.consumers.add('EVENTS', { durable_name: 'workers', ack_policy: AckPolicy.Explicit, ack_wait: nanos(10_000) });

    // Each producer knows only its own version; the consumer side knows both.
    const writesV1 = createRegistry([V1]);
    const writesV2 = createRegistry([V2]);
    const reads = createRegistry([V1, V2]);

    const count = 4000;
    const fromV1 = [];
    const fromV2 = [];
    const expected = new Map(); // msgID -> the value a v2 reader must see
    for (let id = 0; id < count; id++) {
      const user = `${['ada', 'zoë', '李小龍', ''][id % 4]}_${id}`;
      const tags = ['a', 'bb', 'ccc'].slice(0, id % 4);
      if (id % 2 === 0) {
        const msgID = `v1-${id}`;
        fromV1.push({ subject: 'events.v1', msgID, bytes: writesV1.encode(V1, { id, user, score: id % 65536, tags }) });
        // What v1 lacks takes v2's default (region) or stays absent (note).
        expected.set(msgID, { id, user, score: id % 65536, tags, region: 'eu' });
      } else {
        const value = { id, user, score: 100_000 + id, tags, region: 'us' };
        if (id % 3 === 0) value.note = `note ${id}`;
        const msgID = `v2-${id}`;
        fromV2.push({ subject: 'events.v2', msgID, bytes: writesV2.encode(V2, value) });
        expected.set(msgID, value);
      }
    }
    // Messages no v2 reader can read, among the v2 producer's: JSON sent by mistake, a
    // writer the registry does not know, and envelopes whose body is cut short or has a
    // byte too many.
    const good = writesV2.encode(V2, { id: 1, user: 'x', score: 1, tags: [], region: 'us' });
    const bad = [
      { at: 10, msgID: 'bad-json', bytes: Buffer.from(JSON.stringify({ id: 1 })), code: 'ERR_SHORN_MALFORMED', message: /not a shorn envelope/ },
      { at: 700, msgID: 'bad-v3', bytes: createRegistry([V3]).encode(V3, { id: 2, extra: new Uint8Array(4) }), code: 'ERR_SHORN_UNKNOWN_SCHEMA', message: new RegExp(compile(V3).fingerprint) },
      { at: 1400, msgID: 'bad-truncated', bytes: good.subarray(0, good.length - 2), code: 'ERR_SHORN_TRUNCATED' },
      { at: 1999, msgID: 'bad-trailing', bytes: Buffer.concat([good, Buffer.from([0])]), code: 'ERR_SHORN_TRAILING' },
    ];
    for (const b of [...bad].reverse()) fromV2.splice(b.at, 0, { subject: 'events.v2', msgID: b.msgID, bytes: b.bytes });
    const total = fromV1.length + fromV2.length;

    // A worker's handler fails on these the first time (it naks), as if it had crashed
    // half-way: JetStream must deliver them again, and only them.
    const failOnce = new Set(['v1-100', 'v2-101', 'v2-3001']);
    const received = new Map(); // stream sequence -> { value, deliveries }
    const firstSeen = [[], []]; // per worker, stream sequences of first deliveries in order
    const nakked = [];
    const faults = [];
    const twice = [];
    const handler = (w) => (m) => {
      if (m.info.redeliveryCount === 1) firstSeen[w].push(m.seq);
      let value;
      try {
        value = reads.decode(m.data, V2);
      } catch (error) {
        faults.push({ seq: m.seq, error, deliveries: m.info.redeliveryCount });
        // Not redelivered, not counted as pending: it will never decode.
        m.term();
        return;
      }
      const msgID = `v${value.score >= 100_000 ? 2 : 1}-${value.id}`;
      if (failOnce.has(msgID) && m.info.redeliveryCount === 1) {
        nakked.push(m.seq);
        m.nak();
        return;
      }
      if (received.has(m.seq)) twice.push(m.seq);
      received.set(m.seq, { value, deliveries: m.info.redeliveryCount });
      m.ack();
    };

    // The server says which messages it saw terminated (not merely acked), on an advisory
    // subject; the subscription is in place before the first message is read.
    const terminated = [];
    const advisories = producerV1.subscribe('$JS.EVENT.ADVISORY.CONSUMER.MSG_TERMINATED.EVENTS.workers', {
      callback: (error, m) => (error ? terminated.push(error) : terminated.push(m.json())),
    });
    await producerV1.flush();

    const done = () => received.size + faults.length >= total;
    const deadline = Date.now() + 60_000;
    const running = workers.map((nc, w) => work(nc.jetstream(), 'EVENTS', 'workers', handler(w), done, deadline));
    const [acksV1, acksV2] = await Promise.all([publishAll(producerV1.jetstream(), fromV1), publishAll(producerV2.jetstream(), fromV2)]);
    await Promise.all(running);

    // Sequences the stream gave each message.
    const seqOf = new Map();
    fromV1.forEach((m, i) => seqOf.set(m.msgID, acksV1[i].seq));
    fromV2.forEach((m, i) => seqOf.set(m.msgID, acksV2[i].seq));
    assert.equal(new Set(seqOf.values()).size, total, 'two messages got one sequence');
    assert.ok([...acksV1, ...acksV2].every((a) => a.stream === 'EVENTS' && !a.duplicate));

    // A producer's retry (same msgID) is dropped by the stream's duplicate window.
    const retry = await producerV1.jetstream().publish('events.v1', fromV1[5].bytes, { msgID: fromV1[5].msgID });
    assert.deepStrictEqual([retry.duplicate, retry.seq], [true, seqOf.get(fromV1[5].msgID)]);

    assert.deepStrictEqual(twice, []);
    assert.equal(received.size + faults.length, total, `${received.size} decoded and ${faults.length} bad of ${total}`);

    // The bad ones: each reported once, on its first delivery, with its stream sequence.
    assert.deepStrictEqual(
      faults.map((f) => f.seq).sort((a, b) => a - b),
      bad.map((b) => seqOf.get(b.msgID)),
    );
    for (const b of bad) {
      const f = faults.find((x) => x.seq === seqOf.get(b.msgID));
      assert.equal(f.error.code, b.code, `${b.msgID}: ${f.error.message}`);
      if (b.message) assert.match(f.error.message, b.message);
      assert.equal(f.deliveries, 1);
    }

    // The good ones: every value exactly as sent (v1's read with v2's default), once.
    for (const [msgID, value] of expected) {
      const r = received.get(seqOf.get(msgID));
      assert.ok(r, `${msgID} (sequence ${seqOf.get(msgID)}) never arrived`);
      assert.deepStrictEqual(r.value, value, msgID);
      assert.equal(r.deliveries, failOnce.has(msgID) ? 2 : 1, `${msgID} deliveries`);
    }
    assert.deepStrictEqual(nakked.sort((a, b) => a - b), [...failOnce].map((id) => seqOf.get(id)).sort((a, b) => a - b));
    // Each worker met new messages in stream order; together they met each one once.
    for (const seen of firstSeen) assert.deepStrictEqual(seen, [...seen].sort((a, b) => a - b));
    assert.equal(firstSeen[0].length + firstSeen[1].length, total);

    // The server agrees: every message acknowledged (or terminated), none waiting for an
    // ack, and nothing left to deliver. Acks are sent without a reply; a flush makes sure
    // the server has read them.
    for (const nc of workers) await nc.flush();
    const info = await jsm.consumers.info('EVENTS', 'workers');
    assert.equal(info.num_ack_pending, 0);
    assert.equal(info.num_pending, 0);
    assert.equal(info.ack_floor.stream_seq, total);
    // The server sends advisories from a loop of its own, after the term: wait for them, 5 s
    // at most.
    for (const until = Date.now() + 5000; terminated.length < bad.length && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    advisories.unsubscribe();
    assert.deepStrictEqual(
      terminated.map((a) => a.stream_seq).sort((a, b) => a - b),
      bad.map((b) => seqOf.get(b.msgID)),
    );
    const late = [];
    await work(workers[0].jetstream(), 'EVENTS', 'workers', (m) => late.push(m.seq), () => late.length > 0, Date.now() + 1500);
    assert.deepStrictEqual(late, []);
  } finally {
    await Promise.all([producerV1, producerV2, ...workers].map((nc) => nc.close()));
  }
});

test('examples/nats.js runs against a JetStream server: v1 and v2 producers, a v2 consumer, the bad message terminated', { timeout: 30_000 }, async () => {
  const out = await new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(__dirname, '..', 'examples', 'nats.js')],
      { encoding: 'utf8', timeout: 20_000, env: { ...process.env, NATS_URL: nats.url } },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout)),
    );
  });
  assert.match(out, /published 1000 orders \(500 from v1, 500 from v2\) and 1 bad message/);
  assert.match(out, /consumed 1000 orders as v2, each acked once; v1's read with note '': true; left unacked: 0/);
  assert.match(out, /order 7 \(v1\): \{ id: 7, item: 'book 7', qty: 3, note: '' \}/);
  assert.match(out, /bad message at stream sequence 501 terminated: ERR_SHORN_MALFORMED: not a shorn envelope/);
});
