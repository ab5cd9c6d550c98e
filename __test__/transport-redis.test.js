'use strict';
// A real broker: Redis Streams on a redis-server the test starts itself (redis-server.js),
// with the ioredis client. Each stream entry holds one shorn message in a binary field.
// Producers XADD, a consumer group of two consumers XREADGROUP and XACK: every event is
// delivered to exactly one consumer, none lost; a bad entry is reported with its entry id
// and its index in the stream, acknowledged, and the consumers go on.

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
