'use strict';
// shorn over HTTP: a node:http server and a fetch() client. A body is one message, and its
// Content-Type names the schema that wrote it:
//
//   Content-Type: application/x-shorn; fingerprint=<codec.fingerprint>
//
// The server knows every version of the schema its clients may still run (here Order v1
// and v2) and reads each as v2 (`compile(v2).reader(v1)`); it answers 415 for a body of a
// type or schema it does not know, and 400 for one that does not decode.
// Run: node examples/http.js

const http = require('node:http');
const { t, compile, ShornError } = require('..');

// Two versions of one schema: v2 added `note`, with a default for v1's messages.
const OrderV1 = t.object({ id: t.uint32(), item: t.string(), qty: t.uint16() });
const OrderV2 = t.object({ id: t.uint32(), item: t.string(), qty: t.uint32(), note: t.default(t.string(), '') });
const Receipt = t.object({ id: t.uint32(), total: t.float64(), note: t.string() });

const MEDIA_TYPE = 'application/x-shorn';
const contentType = (codec) => `${MEDIA_TYPE}; fingerprint=${codec.fingerprint}`;

/** The media type and the fingerprint parameter of a Content-Type or Accept header. */
function parseType(header = '') {
  const [type, ...params] = header.split(';').map((s) => s.trim());
  const fingerprint = params.find((p) => p.toLowerCase().startsWith('fingerprint='));
  return { type: type.toLowerCase(), fingerprint: fingerprint && fingerprint.slice(12).toLowerCase() };
}

// ---- the server, on v2 ----

function createServer() {
  const order = compile(OrderV2);
  const receipt = compile(Receipt);
  // Every writer version this server reads, by fingerprint.
  const readers = new Map([OrderV1, OrderV2].map((v) => [compile(v).fingerprint, order.reader(v)]));

  return http.createServer(async (req, res) => {
    const reply = (status, body, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(type === 'application/json' ? JSON.stringify(body) : body);
    };
    const { type, fingerprint } = parseType(req.headers['content-type']);
    const reader = readers.get(fingerprint);
    if (req.method !== 'POST' || req.url !== '/orders') return reply(404, { error: 'POST /orders' });
    if (type !== MEDIA_TYPE || reader === undefined) {
      return reply(415, { error: `expected ${MEDIA_TYPE} with one of these fingerprints`, accept: [...readers.keys()] });
    }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    let value;
    try {
      value = reader.decode(Buffer.concat(chunks));
    } catch (e) {
      if (!(e instanceof ShornError)) throw e;
      return reply(400, { error: e.message, code: e.code, offset: e.offset, path: e.path });
    }
    const out = { id: value.id, total: value.qty * 2.5, note: value.note };
    reply(200, receipt.encode(out), contentType(receipt));
  });
}

// ---- a client, on v1 ----

async function placeOrder(url, codec, order) {
  const res = await fetch(`${url}/orders`, {
    method: 'POST',
    headers: { 'content-type': contentType(codec), accept: MEDIA_TYPE },
    body: codec.encode(order),
  });
  if (res.status !== 200) return { status: res.status, error: await res.json() };
  const receipt = compile(Receipt);
  if (parseType(res.headers.get('content-type')).fingerprint !== receipt.fingerprint) throw new Error('unexpected reply schema');
  return { status: 200, receipt: receipt.decode(new Uint8Array(await res.arrayBuffer())) };
}

async function main() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  try {
    const v1 = compile(OrderV1);
    console.log('v1 client:', await placeOrder(url, v1, { id: 1, item: 'tea', qty: 4 }));
    const v2 = compile(OrderV2);
    console.log('v2 client:', await placeOrder(url, v2, { id: 2, item: 'cake', qty: 100000, note: 'birthday' }));
    // JSON sent by mistake is refused by its Content-Type...
    const json = await fetch(`${url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":3}' });
    console.log('JSON body:', json.status, await json.json());
    // ...and bytes that do not decode are a 400 that says why.
    const bad = await fetch(`${url}/orders`, { method: 'POST', headers: { 'content-type': contentType(v1) }, body: '{"id":3}' });
    console.log('bad body:', bad.status, await bad.json());
  } finally {
    server.close();
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}

module.exports = { OrderV1, OrderV2, Receipt, MEDIA_TYPE, contentType, parseType, createServer, placeOrder };
