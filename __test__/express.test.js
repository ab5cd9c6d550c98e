'use strict';
// shorn/express (lib/express.js, issue 40) with real Express 5 and Express 4 (the
// devDependency alias express4) on loopback: the same request and reply rules as the
// Fastify plugin (lib/server.js), each test run on both versions; and examples/express.js.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const zlib = require('node:zlib');
const nodeHttp = require('node:http');
const { execFileSync } = require('node:child_process');
const { t, compile } = require('..');
const shorn = require('shorn/express');
const { send, receive, MEDIA_TYPE, FRAMES_MEDIA_TYPE } = require('shorn/http');
const { listen } = require('./transport-helpers');

const EXPRESSES = [
  ['Express 5', require('express')],
  ['Express 4', require('express4')],
];

const OrderV1 = t.object({ id: t.uint32(), item: t.string(), qty: t.uint16() });
const OrderV2 = t.object({
  id: t.int64(),
  item: t.string({ minLength: 1 }),
  qty: t.uint32(),
  at: t.optional(t.date()),
  lines: t.optional(t.map(t.string(), t.uint16())),
});
const Receipt = t.object({ id: t.int64(), total: t.float64(), at: t.date(), seen: t.array(t.string()) });

const v1 = compile(OrderV1);
const v2 = compile(OrderV2);
const receipt = compile(Receipt);

const order = { id: 2n ** 60n + 1n, item: 'tea', qty: 4, at: new Date(1718031234567), lines: new Map([['cup', 2]]) };
const orderJson = { id: '1152921504606846977', item: 'tea', qty: 4, at: '2024-06-10T14:53:54.567Z', lines: [['cup', 2]] };
const expected = { id: order.id, total: 10, at: order.at, seen: ['bigint', 'Date', 'Map'] };

function handler(req, res) {
  const o = req.body;
  const kind = (x) => (x === undefined ? 'none' : x.constructor.name);
  res.shorn({ id: BigInt(o.id), total: o.qty * 2.5, at: o.at || new Date(0), seen: [typeof o.id, kind(o.at), kind(o.lines)] });
}

async function start(express) {
  const errors = [];
  const logger = { error: (message) => errors.push(message) };
  const app = express();
  app.post('/orders', shorn({ body: [OrderV1, OrderV2], response: receipt, logger }), handler);
  app.post('/small', shorn({ body: v2, response: Receipt, bodyLimit: 64 * 1024 }), handler);
  app.post('/batch', shorn({ body: v2 }), (req, res) => res.json({ count: req.body.length }));
  app.get('/receipt', shorn({ response: receipt }), (req, res) => res.shorn(expected));
  app.get('/broken', shorn({ response: receipt, logger }), (req, res) => res.shorn({ id: 1n, total: 1, at: new Date(0), seen: [7] }));
  // express.json() first: its parse is taken, and still checked.
  app.post('/parsed-first', express.json(), shorn({ body: OrderV2, response: receipt }), handler);
  const server = nodeHttp.createServer(app);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, errors, close: () => new Promise((resolve) => server.close(resolve)) };
}

function request(url, { method = 'POST', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request(url, { method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const json = (res.headers['content-type'] || '').startsWith('application/json') ? JSON.parse(bytes.toString()) : undefined;
        resolve({ status: res.statusCode, headers: res.headers, bytes, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

for (const [name, express] of EXPRESSES) {
  test(`${name}: JSON and shorn clients (v1 and v2) on one route get the same value types in req.body; res.shorn answers each in its form`, async () => {
    const { url, close } = await start(express);
    try {
      const shornReply = await fetch(`${url}/orders`, { method: 'POST', ...send(v2, order) });
      assert.equal(shornReply.headers.get('content-type'), `${MEDIA_TYPE}; fingerprint=${receipt.fingerprint}`);
      assert.match(shornReply.headers.get('vary'), /Accept/);
      assert.deepEqual(await receive(receipt, shornReply), expected);
      const fromV1 = await fetch(`${url}/orders`, { method: 'POST', ...send(v1, { id: 7, item: 'tea', qty: 3 }) });
      assert.deepEqual(await receive(receipt, fromV1), { id: 7n, total: 7.5, at: new Date(0), seen: ['bigint', 'none', 'none'] });
      const jsonReply = await fetch(`${url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(orderJson) });
      assert.equal(jsonReply.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.deepEqual(await receive(receipt, jsonReply), expected);
      const batch = await request(`${url}/batch`, { headers: { 'content-type': `${FRAMES_MEDIA_TYPE}; fingerprint=${v2.fingerprint}` }, body: v2.encodeFrames([order, order, order]) });
      assert.deepEqual(batch.json, { count: 3 });
    } finally {
      await close();
    }
  });

  test(`${name}: Content-Type parameters quoted, uppercase and reordered; Accept with q-values`, async () => {
    const { url, close } = await start(express);
    try {
      const fp = v2.fingerprint;
      for (const type of [`application/x-shorn; fingerprint="${fp}"`, `APPLICATION/X-SHORN;FINGERPRINT=${fp.toUpperCase()}`, `application/x-shorn ; a="b;c" ; fingerprint="${fp}"`]) {
        const r = await request(`${url}/orders`, { headers: { 'content-type': type, accept: MEDIA_TYPE }, body: v2.encode(order) });
        assert.equal(r.status, 200, type);
        assert.deepEqual(receipt.decode(r.bytes), expected);
      }
      for (const [accept, shornWanted] of [
        ['application/x-shorn;q=0.9, application/json;q=0.8', true],
        ['application/json, application/x-shorn;q=0.5', false],
        ['application/x-shorn;q=0', false],
        ['*/*', false],
      ]) {
        const r = await request(`${url}/receipt`, { method: 'GET', headers: { accept } });
        assert.equal(r.headers['content-type'].startsWith(MEDIA_TYPE), shornWanted, accept);
      }
    } finally {
      await close();
    }
  });

  test(`${name}: 415, 400 and 413 answers with their bodies`, async () => {
    const { url, close } = await start(express);
    try {
      const accept = [...[MEDIA_TYPE, FRAMES_MEDIA_TYPE].flatMap((media) => [v1, v2].map((c) => `${media}; fingerprint=${c.fingerprint}`)), 'application/json'];
      for (const [headers, code] of [
        [{ 'content-type': 'text/plain' }, 'ERR_SHORN_MEDIA_TYPE'],
        [{ 'content-type': 'application/x-shorn; fingerprint=0000000000000000' }, 'ERR_SHORN_UNKNOWN_SCHEMA'],
        [{ 'content-type': 'application/json', 'content-encoding': 'compress' }, 'ERR_SHORN_MEDIA_TYPE'],
      ]) {
        const r = await request(`${url}/orders`, { headers, body: 'abc' });
        assert.equal(r.status, 415);
        assert.equal(r.json.code, code);
        assert.deepEqual(r.json.accept, accept);
      }
      const one = v2.encode(order);
      const frames = v2.encodeFrames([order, order]);
      for (const [route, type, body, want] of [
        ['/orders', `${MEDIA_TYPE}; fingerprint=${v2.fingerprint}`, one.subarray(0, 11), { code: 'ERR_SHORN_TRUNCATED', path: '$.item' }],
        ['/orders', `${MEDIA_TYPE}; fingerprint=${v2.fingerprint}`, Buffer.concat([one, Buffer.from([1])]), { code: 'ERR_SHORN_TRAILING', offset: one.length }],
        ['/batch', `${FRAMES_MEDIA_TYPE}; fingerprint=${v2.fingerprint}`, frames.subarray(0, frames.length - 1), { code: 'ERR_SHORN_TRUNCATED', frame: 1 }],
        ['/orders', 'application/json', JSON.stringify({ ...orderJson, qty: -1 }), { code: 'ERR_SHORN_INVALID', path: '$.qty' }],
        ['/orders', 'application/json', '{"id": 1,', { code: 'ERR_SHORN_MALFORMED', offset: 9 }],
        ['/parsed-first', 'application/json', JSON.stringify({ id: 1, item: 'tea' }), { code: 'ERR_SHORN_INVALID', path: '$.qty' }],
      ]) {
        const r = await request(url + route, { headers: { 'content-type': type }, body });
        assert.equal(r.status, 400, JSON.stringify(want));
        for (const [key, value] of Object.entries(want)) assert.equal(r.json[key], value, `${key}: ${r.json.error}`);
      }
      const parsedFirst = await request(`${url}/parsed-first`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(orderJson) });
      assert.deepEqual(parsedFirst.json.seen, expected.seen);
      const tooLong = await request(`${url}/small`, { headers: { 'content-type': 'application/json' }, body: Buffer.alloc(65 * 1024, 32) });
      assert.equal(tooLong.status, 413);
      assert.deepEqual(tooLong.json, { error: "the body is larger than this route's bodyLimit of 65536 bytes (after decompression)", code: 'ERR_SHORN_LIMIT', limit: 65536 });
    } finally {
      await close();
    }
  });

  test(`${name}: gzip, deflate and br bodies decompressed; compression bombs are 413 with memory bounded`, async () => {
    const { url, close } = await start(express);
    try {
      const compressors = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync };
      for (const [coding, compress] of Object.entries(compressors)) {
        const r = await request(`${url}/orders`, { headers: { 'content-type': 'application/json', 'content-encoding': coding }, body: compress(JSON.stringify(orderJson)) });
        assert.equal(r.status, 200, coding);
        assert.deepEqual(r.json.seen, expected.seen);
      }
      const before = process.memoryUsage().rss;
      const bombs = {
        gzip: zlib.gzipSync(Buffer.alloc(48 * 1024 * 1024), { level: 9 }),
        deflate: zlib.deflateSync(Buffer.alloc(48 * 1024 * 1024), { level: 9 }),
        br: zlib.brotliCompressSync(Buffer.alloc(256 * 1024 * 1024), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }),
      };
      for (const [coding, bomb] of Object.entries(bombs)) {
        const r = await request(`${url}/small`, { headers: { 'content-type': `${MEDIA_TYPE}; fingerprint=${v2.fingerprint}`, 'content-encoding': coding, 'transfer-encoding': 'chunked' }, body: bomb });
        assert.equal(r.status, 413, coding);
        assert.equal(r.json.code, 'ERR_SHORN_LIMIT');
      }
      const grown = (process.memoryUsage().rss - before) / 1024 / 1024;
      assert.ok(grown < 64, `RSS grew by ${grown.toFixed(1)} MiB`);
      const broken = await request(`${url}/orders`, { headers: { 'content-type': 'application/json', 'content-encoding': 'deflate' }, body: 'not deflate' });
      assert.equal(broken.status, 400);
      assert.equal(broken.json.code, 'ERR_SHORN_MALFORMED');
    } finally {
      await close();
    }
  });

  test(`${name}: res.shorn of a value that breaks the response schema is a 500 naming the path, reported to the logger`, async () => {
    const { url, errors, close } = await start(express);
    try {
      const r = await request(`${url}/broken`, { method: 'GET', headers: { accept: MEDIA_TYPE } });
      assert.equal(r.status, 500);
      assert.equal(r.json.code, 'ERR_SHORN_INVALID');
      assert.equal(r.json.path, '$.seen[0]');
      assert.equal(errors.length, 1);
      assert.match(errors[0], /^shorn: the reply to GET \/broken does not match its schema: \$\.seen\[0\]: expected string, found number 7/);
    } finally {
      await close();
    }
  });
}

test('shorn/express refuses options it cannot use with ERR_SHORN_SCHEMA, when the route is made', () => {
  assert.throws(() => shorn({}), { code: 'ERR_SHORN_SCHEMA', message: /give a body schema, a response schema, or both/ });
  assert.throws(() => shorn({ body: OrderV1, bodylimit: 1 }), { code: 'ERR_SHORN_SCHEMA', message: /unknown option "bodylimit"/ });
  assert.throws(() => shorn({ body: OrderV1, bodyLimit: -1 }), { code: 'ERR_SHORN_SCHEMA', message: /bodyLimit/ });
  assert.throws(() => shorn({ body: 'OrderV1' }), { code: 'ERR_SHORN_SCHEMA', message: /expected a codec or a descriptor, found string/ });
});

test('shorn/express is the same function from import and require', async () => {
  const esm = await import('shorn/express');
  assert.equal(esm.default, shorn);
});

test('examples/express.js runs on Express 5: a shorn client, a JSON client, a 415', () => {
  const out = execFileSync(process.execPath, [path.join(__dirname, '..', 'examples', 'express.js')], { encoding: 'utf8', timeout: 30_000 });
  assert.match(out, /shorn client: \{ id: 1n, total: 10, note: '' \}/);
  assert.match(out, /JSON client: \{ id: 2n, total: 5, note: 'from JSON' \}/);
  assert.match(out, /text\/plain: 415 ERR_SHORN_MEDIA_TYPE/);
});
