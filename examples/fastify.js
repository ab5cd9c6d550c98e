'use strict';
// shorn/fastify: one Fastify route serves shorn clients on two versions of a schema and
// JSON clients, with the same values in the handler (docs/INTEGRATIONS.md).
// Run: node examples/fastify.js

const Fastify = require('fastify');
const { t, compile } = require('shorn');
const shornPlugin = require('shorn/fastify');
const { send, receive } = require('shorn/http');

const OrderV1 = t.object({ id: t.uint32(), item: t.string(), qty: t.uint16() });
const OrderV2 = t.object({ id: t.int64(), item: t.string(), qty: t.uint32(), note: t.default(t.string(), '') });
const Receipt = t.object({ id: t.int64(), total: t.float64(), note: t.string() });

async function main() {
  const app = Fastify();
  await app.register(shornPlugin); // before the routes it serves
  app.post('/orders', { config: { shorn: { body: [OrderV1, OrderV2], response: Receipt } } }, async (request) => {
    const order = request.body; // an OrderV2 value, whoever sent it: id is a bigint
    return { id: order.id, total: order.qty * 2.5, note: order.note };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${app.server.address().port}/orders`;
  try {
    const post = (init) => fetch(url, { method: 'POST', ...init });
    const v1 = compile(OrderV1);
    const v2 = compile(OrderV2);
    console.log('shorn v1 client:', 200, await receive(Receipt, await post(send(v1, { id: 1, item: 'tea', qty: 4 }))));
    console.log('shorn v2 client:', 200, await receive(Receipt, await post(send(v2, { id: 2n, item: 'cake', qty: 100000, note: 'birthday' }))));
    // A JSON client on the same route: int64 as a number (or a string of digits).
    const json = await post({ headers: { 'content-type': 'application/json' }, body: '{"id":3,"item":"jam","qty":2,"note":"from JSON"}' });
    console.log('JSON client:', json.status, await receive(Receipt, json));
    // Refusals come back as ShornErrors with the status and the server's code and path.
    const bad = v1.encode({ id: 4, item: 'tea', qty: 1 }).subarray(0, 2);
    for (const [what, init] of [
      ['text/plain', { headers: { 'content-type': 'text/plain' }, body: 'tea' }],
      ['bad body', { headers: send(v1, { id: 4, item: 'tea', qty: 1 }).headers, body: bad }],
    ]) {
      await receive(Receipt, await post(init)).catch((e) => console.log(`${what}: ${e.status} ${e.code}${e.path ? ` at ${e.path}` : ''} (${e.message})`));
    }
  } finally {
    await app.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
