'use strict';
// HTTP on loopback: a node:http server and the global fetch() client, with the content type
// of the README ("Transports"): `application/x-shorn; fingerprint=<16 hex>` for one message,
// `application/x-shorn-frames; fingerprint=<16 hex>` for framed messages (docs/FORMAT.md,
// "Framing"). Version skew: clients on v1 and on v2 against a server on v2, which replies in
// the version a client names in Accept; 415 for a type or schema the server does not know,
// 400 for a body that does not decode, with the index of a bad frame. Also runs
// examples/http.js, so the example cannot rot.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { Readable } = require('node:stream');
const { t, compile, ShornError } = require('..');
const { listen } = require('./transport-helpers');

const SINGLE = 'application/x-shorn';
const FRAMES = 'application/x-shorn-frames';

const OrderV1 = t.object({ id: t.uint32(), item: t.string(), qty: t.uint16(), tags: t.array(t.string()) });
// v2: qty widened, a field dropped (tags), two added with defaults, fields reordered.
const OrderV2 = t.object({
  item: t.string(),
  id: t.uint32(),
  qty: t.uint32(),
  note: t.default(t.string(), ''),
  rush: t.default(t.bool(), false),
});
const ReceiptV1 = t.object({ id: t.uint32(), total: t.float64() });
const ReceiptV2 = t.object({ id: t.uint32(), total: t.float64(), currency: t.default(t.enum(['EUR', 'USD']), 'EUR') });

/** The media type and fingerprint of a Content-Type or Accept header. */
function parseType(header = '') {
  const [type, ...params] = header.split(';').map((s) => s.trim());
  const fp = params.find((p) => p.toLowerCase().startsWith('fingerprint='));
  return { type: type.toLowerCase(), fingerprint: fp ? fp.slice('fingerprint='.length).toLowerCase() : undefined };
}

const typeOf = (media, codec) => `${media}; fingerprint=${codec.fingerprint}`;

// The server, on v2: reads orders of v1 and v2 as v2; replies with receipts in the version
// Accept names (v2 if it names none).
function startServer() {
  const order = compile(OrderV2);
  const readers = new Map([OrderV1, OrderV2].map((v) => [compile(v).fingerprint, order.reader(v)]));
  const receipts = new Map([ReceiptV1, ReceiptV2].map((v) => [compile(v).fingerprint, compile(v)]));
  const seen = [];
  const server = http.createServer(async (req, res) => {
    const json = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const { type, fingerprint } = parseType(req.headers['content-type']);
    const reader = readers.get(fingerprint);
    if ((type !== SINGLE && type !== FRAMES) || reader === undefined) {
      req.resume();
      return json(415, { error: 'unsupported content type', accept: [...readers.keys()].map((fp) => `${SINGLE}; fingerprint=${fp}`) });
    }
    const wanted = parseType(req.headers.accept).fingerprint;
    const receipt = receipts.get(wanted) || receipts.get(compile(ReceiptV2).fingerprint);
    const toReceipt = (o) => ({ id: o.id, total: o.qty * 2.5 + (o.rush ? 10 : 0), currency: 'EUR' });
    try {
      if (type === SINGLE) {
        const chunks = [];
        for await (const chunk of req) chunks.push(chunk);
        const o = reader.decode(Buffer.concat(chunks));
        seen.push(o);
        res.writeHead(200, { 'content-type': typeOf(SINGLE, receipt) });
        return res.end(receipt.encode(toReceipt(o)));
      }
      // Framed: the request body is read as a stream of orders.
      const out = [];
      for await (const o of req.pipe(reader.decoder({ maxFrameBytes: 1024 }))) {
        seen.push(o);
        out.push(toReceipt(o));
      }
      res.writeHead(200, { 'content-type': typeOf(FRAMES, receipt) });
      return res.end(receipt.encodeFrames(out));
    } catch (e) {
      if (!(e instanceof ShornError)) throw e;
      req.resume();
      return json(400, { error: e.message, code: e.code, frame: e.frame, path: e.path });
    }
  });
  return { server, seen };
}

async function post(url, contentType, body, accept) {
  const headers = { 'content-type': contentType };
  if (accept) headers.accept = accept;
  const res = await fetch(url, { method: 'POST', headers, body, duplex: 'half' });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type'), bytes };
}

function orders(count, version) {
  return Array.from({ length: count }, (_, id) =>
    version === 1
      ? { id, item: `item ${id} ✓`, qty: id % 65536, tags: ['a', 'b'].slice(0, id % 3) }
      : { item: `item ${id} ✓`, id, qty: 70000 + id, note: id % 2 ? `note ${id}` : '', rush: id % 5 === 0 },
  );
}

test('HTTP: clients on v1 and on v2 against a server on v2, 200 requests each, every reply read in the client version', async () => {
  const { server, seen } = startServer();
  const port = await listen(server);
  const url = `http://127.0.0.1:${port}/orders`;
  try {
    for (const [version, Order, Receipt] of [
      [1, OrderV1, ReceiptV1],
      [2, OrderV2, ReceiptV2],
    ]) {
      const codec = compile(Order);
      const receipt = compile(Receipt);
      const sent = orders(200, version);
      const replies = await Promise.all(sent.map((o) => post(url, typeOf(SINGLE, codec), codec.encode(o), typeOf(SINGLE, receipt))));
      const got = replies.map((r) => {
        assert.equal(r.status, 200);
        assert.equal(r.type, typeOf(SINGLE, receipt));
        return receipt.decode(r.bytes);
      });
      const expected = sent.map((o) => {
        const total = o.qty * 2.5 + (o.rush ? 10 : 0);
        return version === 1 ? { id: o.id, total } : { id: o.id, total, currency: 'EUR' };
      });
      assert.deepStrictEqual(got, expected);
    }
    // The server read every v1 order as a v2 value: tags dropped, defaults filled.
    const v1Seen = seen.slice(0, 200).sort((a, b) => a.id - b.id);
    assert.deepStrictEqual(v1Seen[7], { item: 'item 7 ✓', id: 7, qty: 7, note: '', rush: false });
    assert.equal(seen.length, 400);
  } finally {
    server.close();
  }
});

test('HTTP: a framed body streamed from the client (5,000 orders in v1), read with for await by a v2 server', async () => {
  const { server } = startServer();
  const port = await listen(server);
  try {
    const codec = compile(OrderV1);
    const receipt = compile(ReceiptV1);
    const sent = orders(5000, 1);
    // The body is the encoder stream itself: fetch sends it as it is produced.
    const body = Readable.from(sent).pipe(codec.encoder());
    const r = await post(`http://127.0.0.1:${port}/orders`, typeOf(FRAMES, codec), Readable.toWeb(body), typeOf(SINGLE, receipt));
    assert.equal(r.status, 200);
    assert.equal(r.type, typeOf(FRAMES, receipt));
    const got = receipt.decodeFrames(r.bytes);
    assert.deepStrictEqual(got.map((x) => x.id), sent.map((o) => o.id));
    assert.deepStrictEqual(got[4999], { id: 4999, total: 4999 * 2.5 });
  } finally {
    server.close();
  }
});

test('HTTP: 415 for a type or schema the server does not know, naming what it accepts', async () => {
  const { server } = startServer();
  const port = await listen(server);
  const url = `http://127.0.0.1:${port}/orders`;
  try {
    const v1 = compile(OrderV1);
    const body = v1.encode(orders(1, 1)[0]);
    const Other = compile(t.object({ id: t.uint32() }));
    for (const type of ['application/json', SINGLE, `${SINGLE}; fingerprint=0000000000000000`, typeOf(SINGLE, Other), `text/plain; fingerprint=${v1.fingerprint}`]) {
      const r = await post(url, type, body);
      assert.equal(r.status, 415, type);
      const answer = JSON.parse(Buffer.from(r.bytes).toString());
      assert.deepStrictEqual(answer.accept.sort(), [OrderV1, OrderV2].map((v) => `${SINGLE}; fingerprint=${compile(v).fingerprint}`).sort());
    }
  } finally {
    server.close();
  }
});

test('HTTP: 400 for a body that does not decode, with the code, path, and the index of a bad frame', async () => {
  const { server } = startServer();
  const port = await listen(server);
  const url = `http://127.0.0.1:${port}/orders`;
  try {
    const v1 = compile(OrderV1);
    const one = v1.encode(orders(1, 1)[0]);
    const cases = [
      // JSON sent with shorn's type by mistake.
      { type: typeOf(SINGLE, v1), body: Buffer.from('{"id":1,"item":"x"}'), code: /ERR_SHORN_/ },
      { type: typeOf(SINGLE, v1), body: one.subarray(0, one.length - 1), code: 'ERR_SHORN_TRUNCATED' },
      { type: typeOf(SINGLE, v1), body: Buffer.concat([one, Buffer.from([0])]), code: 'ERR_SHORN_TRAILING' },
    ];
    const frames = v1.encodeFrames(orders(40, 1));
    const cut = v1.encodeFrames(orders(25, 1)).length;
    cases.push({ type: typeOf(FRAMES, v1), body: Buffer.concat([frames.subarray(0, cut), Buffer.from([0x80, 0x00])]), code: 'ERR_SHORN_MALFORMED', frame: 25 });
    cases.push({ type: typeOf(FRAMES, v1), body: Buffer.concat([frames.subarray(0, cut), Buffer.from([0xff, 0x7f])]), code: 'ERR_SHORN_LIMIT', frame: 25 });
    cases.push({ type: typeOf(FRAMES, v1), body: frames.subarray(0, frames.length - 2), code: 'ERR_SHORN_TRUNCATED', frame: 39 });
    for (const c of cases) {
      const r = await post(url, c.type, c.body);
      assert.equal(r.status, 400);
      const answer = JSON.parse(Buffer.from(r.bytes).toString());
      if (c.code instanceof RegExp) assert.match(answer.code, c.code);
      else assert.equal(answer.code, c.code, answer.error);
      if (c.frame !== undefined) assert.equal(answer.frame, c.frame, answer.error);
    }
  } finally {
    server.close();
  }
});

test('examples/http.js runs: both client versions served, JSON refused with 415, a bad body 400', () => {
  const out = execFileSync(process.execPath, [path.join(__dirname, '..', 'examples', 'http.js')], { encoding: 'utf8', timeout: 20_000 });
  assert.match(out, /v1 client: \{ status: 200, receipt: \{ id: 1, total: 10, note: '' \} \}/);
  assert.match(out, /v2 client: \{ status: 200, receipt: \{ id: 2, total: 250000, note: 'birthday' \} \}/);
  assert.match(out, /JSON body: 415/);
  assert.match(out, /bad body: 400 \{[^]*code: 'ERR_SHORN_TRUNCATED'/);
});
