'use strict';
// shorn over NATS JetStream (the `nats` package). A JetStream message already has a length,
// so each message carries one shorn message, in an envelope (createRegistry) that names
// the schema which wrote it: producers still on Order v1 and producers on v2 share one
// stream, and a consumer on v2 reads both. The consumer acks what it has handled,
// terminates (`term()`) a message that does not decode, since no redelivery will ever
// decode it, and naks what its own handler failed on, so JetStream delivers it again.
//
// It needs a nats-server with JetStream (`apt-get install nats-server`, then
// `nats-server -js`), on nats://127.0.0.1:4222 or at NATS_URL.
// Run: node examples/nats.js   (it creates stream SHORN_EXAMPLE_ORDERS and deletes it after)

const { connect, AckPolicy } = require('nats');
const { t, createRegistry, ShornError } = require('..');

// Two versions of one schema: v2 widened qty and added `note`, with a default for v1's.
const OrderV1 = t.object({ id: t.uint32(), item: t.string(), qty: t.uint16() });
const OrderV2 = t.object({ id: t.uint32(), item: t.string(), qty: t.uint32(), note: t.default(t.string(), '') });

const STREAM = 'SHORN_EXAMPLE_ORDERS';
const SUBJECT = 'shorn-example.orders';

// ---- producers: each knows only the version it writes ----

async function produce(url) {
  const v1 = await connect({ servers: url });
  const v2 = await connect({ servers: url });
  const writesV1 = createRegistry([OrderV1]);
  const writesV2 = createRegistry([OrderV2]);
  // Publish resolves once the stream has stored the message (its PubAck); a msgID makes a
  // retried publish harmless: the stream drops a second copy within its duplicate window.
  for (let id = 0; id < 500; id++) {
    await v1.jetstream().publish(SUBJECT, writesV1.encode(OrderV1, { id, item: `book ${id}`, qty: 1 + (id % 5) }), { msgID: `v1-${id}` });
  }
  // A message from a producer that forgot shorn: stream sequence 501.
  await v1.jetstream().publish(SUBJECT, Buffer.from(JSON.stringify({ id: 500, item: 'pen', qty: 1 })), { msgID: 'json-500' });
  for (let id = 500; id < 1000; id++) {
    await v2.jetstream().publish(SUBJECT, writesV2.encode(OrderV2, { id, item: `lamp ${id}`, qty: 100_000 + id, note: 'gift' }), { msgID: `v2-${id}` });
  }
  await Promise.all([v1.drain(), v2.drain()]);
  console.log('published 1000 orders (500 from v1, 500 from v2) and 1 bad message');
}

// ---- the consumer, on v2: reads every version it knows as v2 ----

async function consume(url, expected) {
  const nc = await connect({ servers: url });
  try {
    const reads = createRegistry([OrderV1, OrderV2]);
    const consumer = await nc.jetstream().consumers.get(STREAM, 'orders-v2');
    const orders = new Map();
    const bad = [];
    const messages = await consumer.consume({ max_messages: 200 });
    // An example must end: stop waiting if the stream never holds what was published.
    const timer = setTimeout(() => messages.stop(new Error('timed out waiting for messages')), 10_000);
    try {
      for await (const m of messages) {
        let order;
        try {
          order = reads.decode(m.data, OrderV2);
        } catch (e) {
          if (!(e instanceof ShornError)) throw e;
          bad.push({ seq: m.seq, error: e });
          m.term();
        }
        if (order !== undefined) {
          // Handle it here; on a failure of your own, m.nak() instead, to have it again.
          if (orders.has(order.id)) throw new Error(`order ${order.id} delivered twice`);
          orders.set(order.id, order);
          m.ack();
        }
        if (orders.size + bad.length === expected) messages.stop();
      }
    } finally {
      clearTimeout(timer);
    }
    // Acks are sent without waiting for a reply; flush makes sure the server has them.
    await nc.flush();
    const info = await consumer.info();
    return { orders, bad, pending: info.num_ack_pending + info.num_pending };
  } finally {
    await nc.close();
  }
}

async function main() {
  const url = process.env.NATS_URL || 'nats://127.0.0.1:4222';
  let nc;
  try {
    nc = await connect({ servers: url });
  } catch (e) {
    throw new Error(`no NATS server at ${url} (${e.message}): start one with \`nats-server -js\` or set NATS_URL`);
  }
  const jsm = await nc.jetstreamManager();
  // The example's own stream, made anew so its sequences start at 1.
  await jsm.streams.delete(STREAM).catch(() => {});
  await jsm.streams.add({ name: STREAM, subjects: [SUBJECT] });
  // A durable consumer: the server remembers what it has acked across restarts.
  await jsm.consumers.add(STREAM, { durable_name: 'orders-v2', ack_policy: AckPolicy.Explicit });
  try {
    await produce(url);
    const { orders, bad, pending } = await consume(url, 1001);
    const fromV1 = [...orders.values()].filter((o) => o.id < 500);
    console.log(`consumed ${orders.size} orders as v2, each acked once; v1's read with note '': ${fromV1.every((o) => o.note === '')}; left unacked: ${pending}`);
    console.log('order 7 (v1):', orders.get(7));
    console.log('order 507 (v2):', orders.get(507));
    for (const b of bad) console.log(`bad message at stream sequence ${b.seq} terminated: ${b.error.code}: ${b.error.message}`);
  } finally {
    await jsm.streams.delete(STREAM);
    await nc.drain();
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}

module.exports = { OrderV1, OrderV2 };
