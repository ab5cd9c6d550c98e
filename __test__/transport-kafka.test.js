'use strict';
// A Kafka-compatible broker: Tansu, started by the test itself (kafka-server.js), with the
// kafkajs client. Each record's value is one envelope (createRegistry); key and headers are
// the application's. Producers on schema v1 and v2 send to a topic of three partitions; a
// consumer group of two reads every record as v2 through a registry. Nothing is lost or
// handled twice; a record whose handler throws is delivered again; a record that does not
// decode is reported with its partition and offset, sent to a dead-letter topic and
// committed past, so the rest arrive.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { Kafka, logLevel } = require('kafkajs');
const { t, compile, createRegistry, ShornError } = require('..');
const { startKafka } = require('./kafka-server');

let kafka;
let broker;
before(async () => {
  broker = await startKafka();
  kafka = new Kafka({ clientId: 'shorn-test', brokers: [broker.broker], logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 50 } });
});
after(async () => {
  if (broker) await broker.stop();
});

const V1 = t.object({ id: t.uint32(), user: t.string(), score: t.uint16(), tags: t.array(t.string()) });
const V2 = t.object({
  id: t.uint32(),
  user: t.string(),
  score: t.uint32(),
  tags: t.array(t.string()),
  region: t.default(t.enum(['eu', 'us']), 'eu'),
  note: t.optional(t.string()),
});
const V3 = t.object({ id: t.uint32(), extra: t.bytes() });

test('Kafka: producers on v1 and v2, a consumer group of two reads v2 through a registry, each record handled once, bad ones dead-lettered with partition and offset', { timeout: 120_000 }, async () => {
  const admin = kafka.admin();
  await admin.connect();
  const producers = [kafka.producer(), kafka.producer()];
  const group = 'workers';
  const consumers = [0, 1].map(() => kafka.consumer({ groupId: group, maxWaitTimeInMs: 200 }));
  try {
    await admin.createTopics({ topics: [{ topic: 'events', numPartitions: 3 }, { topic: 'events.dead-letter' }], waitForLeaders: true });
    await Promise.all(producers.map((p) => p.connect()));
    const writesV1 = createRegistry([V1]);
    const writesV2 = createRegistry([V2]);
    const reads = createRegistry([V1, V2]);

    const count = 4000;
    const fromV1 = [];
    const fromV2 = [];
    const expected = new Map(); // key -> the value a v2 reader must see
    for (let id = 0; id < count; id++) {
      const user = `${['ada', 'zoë', '李小龍', ''][id % 4]}_${id}`;
      const tags = ['a', 'bb', 'ccc'].slice(0, id % 4);
      if (id % 2 === 0) {
        const key = `v1-${id}`;
        fromV1.push({ key, value: writesV1.encode(V1, { id, user, score: id % 65536, tags }), headers: { from: 'v1' } });
        expected.set(key, { id, user, score: id % 65536, tags, region: 'eu' });
      } else {
        const value = { id, user, score: 100_000 + id, tags, region: 'us' };
        if (id % 3 === 0) value.note = `note ${id}`;
        const key = `v2-${id}`;
        fromV2.push({ key, value: writesV2.encode(V2, value), headers: { from: 'v2' } });
        expected.set(key, value);
      }
    }
    const good = writesV2.encode(V2, { id: 1, user: 'x', score: 1, tags: [], region: 'us' });
    const bad = new Map([
      ['bad-json', { value: Buffer.from(JSON.stringify({ id: 1 })), code: 'ERR_SHORN_MALFORMED' }],
      ['bad-v3', { value: createRegistry([V3]).encode(V3, { id: 2, extra: new Uint8Array(4) }), code: 'ERR_SHORN_UNKNOWN_SCHEMA' }],
      ['bad-truncated', { value: good.subarray(0, good.length - 2), code: 'ERR_SHORN_TRUNCATED' }],
      ['bad-trailing', { value: Buffer.concat([good, Buffer.from([0])]), code: 'ERR_SHORN_TRAILING' }],
    ]);
    [...bad].forEach(([key, b], k) => fromV2.splice(10 + k * 500, 0, { key, value: b.value, headers: { from: 'v2' } }));
    const total = fromV1.length + fromV2.length;

    const failOnce = new Set(['v1-100', 'v2-101', 'v2-3001']);
    const failed = new Set();
    const received = new Map(); // key -> { value, deliveries, from }
    const faults = [];
    const twice = [];
    const readFrom = [0, 0, 0]; // per partition, records handled (a failed attempt is not)
    let finish;
    const finished = new Promise((resolve) => (finish = resolve));
    const deadLetter = kafka.producer();
    await deadLetter.connect();
    const eachMessage = async ({ topic, partition, message }) => {
      const key = message.key.toString();
      let value;
      try {
        value = reads.decode(message.value, V2);
      } catch (error) {
        if (!(error instanceof ShornError)) throw error;
        readFrom[partition] += 1;
        const [stored] = await deadLetter.send({
          topic: 'events.dead-letter',
          messages: [{ key: message.key, value: message.value, headers: { 'shorn-error': error.code, 'shorn-from': `${topic}/${partition}/${message.offset}` } }],
        });
        faults.push({ key, partition, offset: message.offset, error, deadLetter: `${stored.partition}/${stored.baseOffset}` });
        if (received.size + faults.length === total) finish();
        return;
      }
      if (failOnce.has(key) && !failed.has(key)) {
        failed.add(key);
        throw new Error(`the handler failed on ${key}`);
      }
      readFrom[partition] += 1;
      if (received.has(key)) twice.push(key);
      received.set(key, { value, from: message.headers.from.toString() });
      if (received.size + faults.length === total) finish();
    };
    // Both join at once: Tansu answers a join after a delay of ~15 s, and a second member
    // joining later would cost a rebalance and another delay.
    await Promise.all(
      consumers.map(async (c) => {
        await c.connect();
        await c.subscribe({ topic: 'events', fromBeginning: true });
        await c.run({ eachMessage });
      }),
    );
    await Promise.all([
      producers[0].send({ topic: 'events', messages: fromV1 }),
      producers[1].send({ topic: 'events', messages: fromV2 }),
    ]);
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out: ${received.size} decoded and ${faults.length} bad of ${total}`)), 90_000).unref());
    await Promise.race([finished, timeout]);

    assert.deepStrictEqual(twice, []);
    assert.equal(received.size + faults.length, total);
    for (const [key, value] of expected) {
      const r = received.get(key);
      assert.ok(r, `${key} never arrived`);
      assert.deepStrictEqual(r.value, value, key);
      assert.equal(r.from, key.slice(0, 2));
    }
    assert.deepStrictEqual([...failed].sort(), [...failOnce].sort());
    assert.deepStrictEqual(faults.map((f) => f.key).sort(), [...bad.keys()].sort());
    for (const f of faults) {
      assert.equal(f.error.code, bad.get(f.key).code, `${f.key}: ${f.error.message}`);
      assert.match(f.offset, /^\d+$/);
    }
    assert.match(faults.find((f) => f.key === 'bad-v3').error.message, new RegExp(compile(V3).fingerprint));

    // Each partition's committed offset is the number of records handled from it (offsets
    // run from 0 without gaps), so every record was committed past, the bad ones included.
    // (Tansu 0.6.0 answers ListOffsets with the last batch's first offset, not the end, so
    // the topic's end is not asked.) The dead-letter topic stored the bad ones.
    await Promise.all(consumers.map((c) => c.disconnect()));
    const [committed] = await admin.fetchOffsets({ groupId: group, topics: ['events'] });
    assert.deepStrictEqual(
      committed.partitions.sort((a, b) => a.partition - b.partition).map((p) => Number(p.offset)),
      readFrom,
    );
    assert.equal(readFrom.reduce((a, b) => a + b), total);
    assert.equal(new Set(faults.map((f) => f.deadLetter)).size, bad.size, 'two dead letters stored at one offset');
    await deadLetter.disconnect();
  } finally {
    await Promise.all(consumers.map((c) => c.disconnect()));
    await Promise.all(producers.map((p) => p.disconnect()));
    await admin.disconnect();
  }
});

test('examples/kafka-serializer.js runs against the broker: v1 and v2 producers, a v2 consumer group, the bad message dead-lettered', { timeout: 120_000 }, () => {
  const { spawnSync } = require('node:child_process');
  const path = require('node:path');
  const run = spawnSync(process.execPath, [path.join(__dirname, '..', 'examples', 'kafka-serializer.js')], {
    env: { ...process.env, KAFKA_BROKERS: broker.broker },
    encoding: 'utf8',
    timeout: 100_000,
  });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /^consumed 1000 orders as v2; v1's read with note '': true$/m);
  assert.match(run.stdout, /^bad message \(key .*\) from .* sent to shorn-example-orders\.dead-letter: ERR_SHORN_MALFORMED/m);
});
