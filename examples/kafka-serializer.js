'use strict';
// shorn with Kafka (the `kafkajs` package). A Kafka record's value already has a length,
// so it carries one shorn message, in an envelope (createRegistry) that names the schema
// which wrote it: producers on Order v1 and on v2 share a topic, and a consumer on v2 reads
// both. The key and the headers are the application's, untouched by shorn.
//
// Kafka has no per-message ack: a consumer group commits offsets, and kafkajs commits a
// message's offset once `eachMessage` returns. A message that throws there is retried, and
// when the retries run out the consumer restarts at the same offset, so a message that can
// never decode must not throw or its partition never moves past it: it goes to a
// dead-letter topic, with where it came from, and the consumer moves on.
//
// Run by the tests (__test__/transport-kafka.test.js) against Tansu, a Kafka-compatible
// broker (docs/BROKERS.md). By hand: a broker on 127.0.0.1:9092 or at KAFKA_BROKERS
// (comma-separated host:port), then `node examples/kafka-serializer.js` (it creates topics
// shorn-example-orders and shorn-example-orders.dead-letter, and deletes them after).

const { t, createRegistry, ShornError } = require('..');

// Two versions of one schema: v2 widened qty and added `note`, with a default for v1's.
const OrderV1 = t.object({ id: t.uint32(), item: t.string(), qty: t.uint16() });
const OrderV2 = t.object({ id: t.uint32(), item: t.string(), qty: t.uint32(), note: t.default(t.string(), '') });

const TOPIC = 'shorn-example-orders';
const DEAD_LETTER = `${TOPIC}.dead-letter`;

// ---- the serializer: two functions around a registry ----

/**
 * A message for kafkajs's `producer.send`: `value` encoded with `schema` (one `registry`
 * knows) in an envelope; `key` and `headers` as kafkajs takes them.
 */
function toMessage(registry, schema, value, { key, headers } = {}) {
  return { key, value: registry.encode(schema, value), headers };
}

/**
 * The value of a message kafkajs consumed, read as `reader` whichever known schema wrote
 * it, or null for a tombstone (a compacted topic's deletion of the key, which has no
 * value). Throws a ShornError when it does not decode: ERR_SHORN_MALFORMED for bytes that
 * are not an envelope, ERR_SHORN_UNKNOWN_SCHEMA for a writer the registry does not know,
 * and the message's own error (with its path and offset) for a body that does not decode.
 */
function fromMessage(registry, reader, message) {
  return message.value === null ? null : registry.decode(message.value, reader);
}

// ---- producers, a consumer group and a dead-letter topic, run against a broker ----

async function main() {
  let Kafka;
  try {
    ({ Kafka } = require('kafkajs'));
  } catch (e) {
    if (e.code !== 'MODULE_NOT_FOUND') throw e;
    throw new Error('this example needs kafkajs, which shorn does not depend on: npm install --no-save kafkajs');
  }
  const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');
  const kafka = new Kafka({ clientId: 'shorn-example', brokers, retry: { retries: 3 } });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 2 }, { topic: DEAD_LETTER }], waitForLeaders: true });
  const producer = kafka.producer();
  const consumer = kafka.consumer({ groupId: `${TOPIC}-v2` });
  try {
    await producer.connect();
    // Each producer knows only the version it writes; these two stand for two services.
    const writesV1 = createRegistry([OrderV1]);
    const writesV2 = createRegistry([OrderV2]);
    const messages = [];
    for (let id = 0; id < 500; id++) {
      messages.push(toMessage(writesV1, OrderV1, { id, item: `book ${id}`, qty: 1 + (id % 5) }, { key: String(id), headers: { 'trace-id': `t-${id}` } }));
    }
    // A message from a producer that forgot shorn.
    messages.push({ key: '500', value: Buffer.from(JSON.stringify({ id: 500, item: 'pen', qty: 1 })) });
    for (let id = 500; id < 1000; id++) {
      messages.push(toMessage(writesV2, OrderV2, { id, item: `lamp ${id}`, qty: 100_000 + id, note: 'gift' }, { key: String(id), headers: { 'trace-id': `t-${id}` } }));
    }
    // The key picks the partition: one order's messages stay in order.
    await producer.send({ topic: TOPIC, messages });
    console.log('published 1000 orders (500 from v1, 500 from v2) and 1 bad message');

    // The consumer, on v2: reads every version it knows as v2.
    const reads = createRegistry([OrderV1, OrderV2]);
    const orders = new Map();
    const deadLettered = [];
    let finish;
    const finished = new Promise((resolve, reject) => {
      finish = resolve;
      // An example must end: stop waiting if the topic never holds what was published.
      setTimeout(() => reject(new Error('timed out waiting for messages')), 30_000).unref();
    });
    await consumer.connect();
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        let order;
        try {
          order = fromMessage(reads, OrderV2, message);
        } catch (e) {
          if (!(e instanceof ShornError)) throw e;
          // Returning commits its offset: the bad message is kept aside, not retried forever.
          const from = `${topic}/${partition}/${message.offset}`;
          await producer.send({
            topic: DEAD_LETTER,
            messages: [{ key: message.key, value: message.value, headers: { ...message.headers, 'shorn-error': `${e.code}: ${e.message}`, 'shorn-from': from } }],
          });
          deadLettered.push({ from, key: message.key.toString(), error: e });
        }
        // (null would be a tombstone; this topic has none.)
        if (order !== undefined && order !== null) {
          // Handle it here; throw on a failure of your own, and kafkajs delivers it again.
          orders.set(order.id, { order, traceId: message.headers['trace-id'].toString() });
        }
        if (orders.size + deadLettered.length === messages.length) finish();
      },
    });
    await finished;
    const fromV1 = [...orders.values()].filter(({ order }) => order.id < 500);
    console.log(`consumed ${orders.size} orders as v2; v1's read with note '': ${fromV1.every(({ order }) => order.note === '')}`);
    console.log('order 7 (v1):', orders.get(7));
    console.log('order 507 (v2):', orders.get(507));
    for (const d of deadLettered) console.log(`bad message (key ${d.key}) from ${d.from} sent to ${DEAD_LETTER}: ${d.error.code}: ${d.error.message}`);
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
    await admin.deleteTopics({ topics: [TOPIC, DEAD_LETTER] }).catch(() => {});
    await admin.disconnect();
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}

module.exports = { OrderV1, OrderV2, toMessage, fromMessage };
