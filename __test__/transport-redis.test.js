'use strict';
// A real broker: Redis Streams on a redis-server the test starts itself (redis-server.js),
// with the ioredis client. Each stream entry holds one shorn message in a binary field.
// Producers XADD, a consumer group of two consumers XREADGROUP and XACK: every event is
// delivered to exactly one consumer, none lost; a bad entry is reported with its entry id
// and its index in the stream, acknowledged, and the consumers go on. Version skew:
// producers on v1 and v2 write self-identifying envelopes (createRegistry), and a consumer
// on v2 reads both.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const Redis = require('ioredis');
const { compile } = require('..');
const { Event, makeEvents } = require('./transport-helpers');
const { startRedis } = require('./redis-server');

const events = compile(Event);

let redis;
before(async () => {
  redis = await startRedis();
});
after(async () => {
  if (redis) await redis.stop();
});

function client() {
  return new Redis({ port: redis.port, host: '127.0.0.1', lazyConnect: false, maxRetriesPerRequest: 2 });
}

/** Adds every message (a Buffer) as entry field `m` of `stream`, in pipelines of 500. */
async function produce(connection, stream, messages) {
  const ids = [];
  for (let at = 0; at < messages.length; at += 500) {
    const pipeline = connection.pipeline();
    for (const message of messages.slice(at, at + 500)) pipeline.xaddBuffer(stream, '*', 'm', message);
    for (const [error, id] of await pipeline.exec()) {
      if (error) throw error;
      ids.push(id.toString());
    }
  }
  return ids;
}

/**
 * One consumer of `group`: reads batches of up to 50 new entries, decodes each, acks it,
 * until `stop()` says so and nothing is left. `faults` gets `{ id, error }` for entries it
 * cannot decode (acknowledged too: a bad entry must not be redelivered forever).
 */
async function consume(connection, stream, group, name, received, faults, stop) {
  for (;;) {
    const reply = await connection.xreadgroupBuffer('GROUP', group, name, 'COUNT', 50, 'BLOCK', 50, 'STREAMS', stream, '>');
    if (reply === null) {
      if (stop()) return;
      continue;
    }
    const [[, entries]] = reply;
    const done = [];
    for (const [rawId, fields] of entries) {
      const id = rawId.toString();
      try {
        assert.equal(fields[0].toString(), 'm');
        received.push({ id, consumer: name, event: events.decode(fields[1]) });
      } catch (error) {
        faults.push({ id, error });
      }
      done.push(id);
    }
    await connection.xack(stream, group, ...done);
  }
}

test('Redis Streams: 6,000 events through a consumer group of two, each delivered once, none lost', async () => {
  const producer = client();
  const consumers = [client(), client()];
  try {
    const stream = 'events';
    await producer.xgroup('CREATE', stream, 'workers', '$', 'MKSTREAM');
    const sent = makeEvents(6000);
    const received = [];
    const faults = [];
    let produced = false;
    const stop = () => produced;
    const running = consumers.map((c, k) => consume(c, stream, 'workers', `c${k}`, received, faults, stop));
    const ids = await produce(producer, stream, sent.map((e) => events.encode(e)));
    produced = true;
    await Promise.all(running);

    assert.deepStrictEqual(faults, []);
    assert.equal(received.length, sent.length);
    // Each entry once, and the entry ids are those XADD gave, in stream order per consumer.
    const byId = new Map(received.map((r) => [r.id, r]));
    assert.equal(byId.size, sent.length, 'an entry was delivered twice');
    ids.forEach((id, i) => assert.deepStrictEqual(byId.get(id).event, sent[i], `entry ${i} (${id})`));
    const perConsumer = new Set(received.map((r) => r.consumer));
    assert.ok(perConsumer.size >= 1);
    // Nothing left pending in the group.
    const [pending] = await producer.xpending(stream, 'workers');
    assert.equal(pending, 0);
  } finally {
    for (const c of [producer, ...consumers]) c.disconnect();
  }
});

test('Redis Streams: every bad entry is reported with its id and index, and the rest arrive', async () => {
  const producer = client();
  const consumer = client();
  try {
    const stream = 'mixed';
    await producer.xgroup('CREATE', stream, 'workers', '$', 'MKSTREAM');
    const sent = makeEvents(1000);
    const messages = sent.map((e) => events.encode(e));
    const bad = new Map([
      [0, { bytes: messages[0].subarray(0, 4), code: 'ERR_SHORN_TRUNCATED' }],
      [333, { bytes: Buffer.concat([messages[333], Buffer.from([9])]), code: 'ERR_SHORN_TRAILING' }],
      [334, { bytes: Buffer.from(JSON.stringify(sent[334])), code: /ERR_SHORN_/ }],
      [999, { bytes: Buffer.alloc(0), code: 'ERR_SHORN_TRUNCATED' }],
    ]);
    for (const [i, b] of bad) messages[i] = b.bytes;
    const received = [];
    const faults = [];
    let produced = false;
    const running = consume(consumer, stream, 'workers', 'c0', received, faults, () => produced);
    const ids = await produce(producer, stream, messages);
    produced = true;
    await running;

    const index = new Map(ids.map((id, i) => [id, i]));
    assert.deepStrictEqual(
      faults.map((f) => index.get(f.id)),
      [...bad.keys()],
    );
    for (const f of faults) {
      const expected = bad.get(index.get(f.id)).code;
      if (expected instanceof RegExp) assert.match(f.error.code, expected);
      else assert.equal(f.error.code, expected, f.error.message);
    }
    assert.deepStrictEqual(
      received.map((r) => index.get(r.id)),
      sent.map((_, i) => i).filter((i) => !bad.has(i)),
    );
    for (const r of received) assert.deepStrictEqual(r.event, sent[index.get(r.id)]);
  } finally {
    producer.disconnect();
    consumer.disconnect();
  }
});

test('Redis Streams: producers on v1 and v2, a consumer on v2 through a registry of envelopes', async () => {
  const { t, createRegistry } = require('..');
  const V1 = t.object({ id: t.uint32(), user: t.string(), score: t.uint16() });
  const V2 = t.object({ user: t.string(), id: t.uint32(), score: t.uint32(), region: t.default(t.enum(['eu', 'us']), 'eu') });
  const V3 = t.object({ id: t.uint32(), user: t.string(), score: t.uint32(), region: t.string(), extra: t.bytes() });
  // Each side knows the writers it deals with: old producers only v1; the consumer v1 and v2.
  const producerV1 = createRegistry([V1]);
  const producerV2 = createRegistry([V2]);
  const producerV3 = createRegistry([V3]);
  const consumerSide = createRegistry([V1, V2]);

  const p1 = client();
  const p2 = client();
  const consumer = client();
  try {
    const stream = 'skew';
    await p1.xgroup('CREATE', stream, 'workers', '$', 'MKSTREAM');
    const count = 2000;
    // Interleaved: even ids from the v1 producer, odd from v2; a few entries no consumer
    // can read (a v3 writer it does not know, JSON by mistake, a bare message without an
    // envelope).
    const expected = [];
    const entries = [];
    for (let id = 0; id < count; id++) {
      if (id % 2 === 0) {
        entries.push({ conn: p1, bytes: producerV1.encode(V1, { id, user: `u${id}`, score: id % 65536 }) });
        expected.push({ user: `u${id}`, id, score: id % 65536, region: 'eu' });
      } else {
        entries.push({ conn: p2, bytes: producerV2.encode(V2, { user: `ü${id}`, id, score: 100000 + id, region: 'us' }) });
        expected.push({ user: `ü${id}`, id, score: 100000 + id, region: 'us' });
      }
    }
    const bad = new Map([
      [500, { bytes: producerV3.encode(V3, { id: 500, user: 'x', score: 1, region: 'mars', extra: new Uint8Array(3) }), code: 'ERR_SHORN_UNKNOWN_SCHEMA' }],
      [501, { bytes: Buffer.from(JSON.stringify({ id: 501 })), code: 'ERR_SHORN_MALFORMED', message: /not a shorn envelope/ }],
      [1502, { bytes: require('..').compile(V1).encode({ id: 1502, user: 'y', score: 2 }), code: 'ERR_SHORN_MALFORMED', message: /not a shorn envelope/ }],
    ]);
    for (const [i, b] of bad) entries[i].bytes = b.bytes;

    const received = [];
    const faults = [];
    let produced = false;
    const running = (async () => {
      for (;;) {
        const reply = await consumer.xreadgroupBuffer('GROUP', 'workers', 'c0', 'COUNT', 100, 'BLOCK', 50, 'STREAMS', stream, '>');
        if (reply === null) {
          if (produced) return;
          continue;
        }
        const [[, list]] = reply;
        for (const [rawId, fields] of list) {
          try {
            received.push(consumerSide.decode(fields[1], V2));
          } catch (error) {
            faults.push({ id: rawId.toString(), error });
          }
        }
        await consumer.xack(stream, 'workers', ...list.map(([rawId]) => rawId));
      }
    })();
    // Both producers write concurrently, each its own entries in order.
    const ids = new Array(count);
    await Promise.all(
      [p1, p2].map(async (conn) => {
        for (let i = 0; i < count; i++) {
          if (entries[i].conn !== conn) continue;
          ids[i] = (await conn.xaddBuffer(stream, '*', 'm', entries[i].bytes)).toString();
        }
      }),
    );
    produced = true;
    await running;

    const index = new Map(ids.map((id, i) => [id, i]));
    assert.deepStrictEqual(
      faults.map((f) => index.get(f.id)).sort((a, b) => a - b),
      [...bad.keys()],
    );
    for (const f of faults) {
      const b = bad.get(index.get(f.id));
      assert.equal(f.error.code, b.code, f.error.message);
      if (b.message) assert.match(f.error.message, b.message);
    }
    const good = expected.filter((_, i) => !bad.has(i));
    assert.deepStrictEqual(
      received.sort((a, b) => a.id - b.id),
      good,
    );
  } finally {
    for (const c of [p1, p2, consumer]) c.disconnect();
  }
});
