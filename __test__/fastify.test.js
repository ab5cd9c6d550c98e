'use strict';
// shorn/fastify (lib/fastify.js, issue 40) with a real Fastify 5 on loopback: JSON and
// shorn clients on one route, v1 and v2 clients on a v2 route, every refusal with its body,
// compressed bodies and compression bombs, media-type parameters quoted and reordered,
// Accept with q-values, a reply that breaks its schema, @fastify/compress, Fastify's own
// validation, and examples/fastify.js.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const zlib = require('node:zlib');
const nodeHttp = require('node:http');
const { execFileSync } = require('node:child_process');
const Fastify = require('fastify');
const { t, compile, createRegistry } = require('..');
const shornPlugin = require('shorn/fastify');
const { send, receive, MEDIA_TYPE, FRAMES_MEDIA_TYPE } = require('shorn/http');

const OrderV1 = t.object({ id: t.uint32(), item: t.string(), qty: t.uint16() });
// v2: id widened to int64, qty to uint32, and three optional fields of the types whose JSON
// forms differ from their values (Date, Map, typed array).
const OrderV2 = t.object({
  id: t.int64(),
  item: t.string({ minLength: 1 }),
  qty: t.uint32(),
  at: t.optional(t.date()),
  lines: t.optional(t.map(t.string(), t.uint16())),
  weights: t.optional(t.float64Array()),
});
const Receipt = t.object({ id: t.int64(), total: t.float64(), at: t.date(), seen: t.array(t.string()) });

const v1 = compile(OrderV1);
const v2 = compile(OrderV2);
const receipt = compile(Receipt);

const order = { id: 2n ** 60n + 1n, item: 'tea', qty: 4, at: new Date(1718031234567), lines: new Map([['cup', 2]]), weights: new Float64Array([0.5, 1.25]) };
const orderJson = { id: '1152921504606846977', item: 'tea', qty: 4, at: '2024-06-10T14:53:54.567Z', lines: [['cup', 2]], weights: [0.5, 1.25] };
const expected = { id: order.id, total: 10, at: order.at, seen: ['bigint', 'Date', 'Map', 'Float64Array'] };

function handler(request) {
  const o = request.body;
  const kind = (x) => (x === undefined ? 'none' : x.constructor.name);
  return { id: BigInt(o.id), total: o.qty * 2.5, at: o.at || new Date(0), seen: [typeof o.id, kind(o.at), kind(o.lines), kind(o.weights)] };
}

/** A Fastify app with the plugin and the routes of these tests, listening on loopback. */
async function start({ logs = [], before, routes } = {}) {
  const app = Fastify({ logger: { level: 'warn', stream: { write: (line) => logs.push(JSON.parse(line)) } } });
  if (before) await before(app);
  await app.register(shornPlugin);
  app.post('/orders', { config: { shorn: { body: [OrderV1, OrderV2], response: receipt } } }, handler);
  app.post('/small', { bodyLimit: 64 * 1024, config: { shorn: { body: v2, response: Receipt } } }, handler);
  app.post('/registry', { config: { shorn: { body: createRegistry([OrderV1, OrderV2]), response: receipt } } }, handler);
  app.post('/batch', { config: { shorn: { body: v2 } } }, async (request) => ({ count: request.body.length, ids: request.body.map((o) => String(o.id)) }));
  app.get('/broken', { config: { shorn: { response: receipt } } }, async () => ({ id: 1n, total: 1, at: new Date(0), seen: [7] }));
  app.get('/receipt', { config: { shorn: { response: receipt } } }, async () => expected);
  app.post('/plain', async (request) => ({ got: request.body }));
  if (routes) await routes(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${app.server.address().port}`, logs };
}

/** One request with node:http (fetch would refuse some of these headers and bodies). */
function request(url, { method = 'POST', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request(url, { method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const type = res.headers['content-type'] || '';
        const json = type.startsWith('application/json') && res.headers['content-encoding'] === undefined ? JSON.parse(bytes.toString()) : undefined;
        resolve({ status: res.statusCode, headers: res.headers, bytes, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('Fastify: a JSON client and a shorn client on the same route get the same value types in the handler, and each its own reply', async () => {
  const { app, url } = await start();
  try {
    const shornReply = await fetch(`${url}/orders`, { method: 'POST', ...send(v2, order) });
    assert.equal(shornReply.status, 200);
    assert.equal(shornReply.headers.get('content-type'), `${MEDIA_TYPE}; fingerprint=${receipt.fingerprint}`);
    assert.match(shornReply.headers.get('vary'), /\bAccept\b/);
    assert.deepEqual(await receive(receipt, shornReply), expected);

    const jsonReply = await fetch(`${url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(orderJson) });
    assert.equal(jsonReply.status, 200);
    assert.equal(jsonReply.headers.get('content-type'), 'application/json; charset=utf-8');
    const text = await jsonReply.clone().text();
    assert.deepEqual(JSON.parse(text), { id: '1152921504606846977', total: 10, at: '2024-06-10T14:53:54.567Z', seen: expected.seen });
    assert.deepEqual(await receive(receipt, jsonReply), expected);
  } finally {
    await app.close();
  }
});

test('Fastify: v1 and v2 clients on a v2 route (versions array and registry), a body without fingerprint read as the current version', async () => {
  const { app, url } = await start();
  try {
    for (const route of ['/orders', '/registry']) {
      const fromV1 = await fetch(url + route, { method: 'POST', ...send(v1, { id: 7, item: 'tea', qty: 3 }) });
      assert.deepEqual(await receive(receipt, fromV1), { id: 7n, total: 7.5, at: new Date(0), seen: ['bigint', 'none', 'none', 'none'] }, route);
      const fromV2 = await fetch(url + route, { method: 'POST', ...send(v2, order) });
      assert.deepEqual(await receive(receipt, fromV2), expected, route);
    }
    const unnamed = await request(`${url}/orders`, { headers: { 'content-type': MEDIA_TYPE, accept: MEDIA_TYPE }, body: v2.encode(order) });
    assert.equal(unnamed.status, 200);
    assert.deepEqual(receipt.decode(unnamed.bytes), expected);
  } finally {
    await app.close();
  }
});

test('Fastify: Content-Type parameters quoted or not, in any case and order, and frames read as an array', async () => {
  const { app, url } = await start();
  try {
    const fp = v2.fingerprint;
    for (const type of [
      `application/x-shorn; fingerprint="${fp}"`,
      `APPLICATION/X-SHORN;FINGERPRINT=${fp.toUpperCase()}`,
      `application/x-shorn ; charset=binary ; fingerprint="${fp.toUpperCase()}"`,
      `Application/X-Shorn;\tversion="2;x";fingerprint=${fp}`,
    ]) {
      const r = await request(`${url}/orders`, { headers: { 'content-type': type, accept: MEDIA_TYPE }, body: v2.encode(order) });
      assert.equal(r.status, 200, type);
      assert.deepEqual(receipt.decode(r.bytes), expected, type);
    }
    const batch = await request(`${url}/batch`, { headers: { 'content-type': `${FRAMES_MEDIA_TYPE}; fingerprint="${fp}"` }, body: v2.encodeFrames([order, { id: 5n, item: 'x', qty: 1 }]) });
    assert.equal(batch.status, 200);
    assert.deepEqual(batch.json, { count: 2, ids: [String(order.id), '5'] });
  } finally {
    await app.close();
  }
});

test('Fastify: 415 for a type, fingerprint or Content-Encoding the route does not read, naming what it accepts', async () => {
  const { app, url } = await start();
  const accept = [
    ...[MEDIA_TYPE, FRAMES_MEDIA_TYPE].flatMap((media) => [v1, v2].map((c) => `${media}; fingerprint=${c.fingerprint}`)),
    'application/json',
  ];
  try {
    const cases = [
      { headers: { 'content-type': 'text/plain' }, code: 'ERR_SHORN_MEDIA_TYPE', error: /does not read text\/plain/ },
      { headers: { 'content-type': 'application/x-shorn; fingerprint=0000000000000000' }, code: 'ERR_SHORN_UNKNOWN_SCHEMA', error: /does not read schema 0000000000000000/ },
      { headers: { 'content-type': `application/x-shorn; fingerprint=${receipt.fingerprint}` }, code: 'ERR_SHORN_UNKNOWN_SCHEMA', error: /does not read schema/ },
      { headers: { 'content-type': 'application/x-shorn; fingerprint="open' }, code: 'ERR_SHORN_MEDIA_TYPE', error: /malformed Content-Type/ },
      { headers: { 'content-length': '3' }, code: 'ERR_SHORN_MEDIA_TYPE', error: /no Content-Type/ },
      { headers: { 'content-type': 'application/json; charset=latin1' }, code: 'ERR_SHORN_MEDIA_TYPE', error: /UTF-8, not latin1/ },
      { headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' }, code: 'ERR_SHORN_MEDIA_TYPE', error: /Content-Encoding zstd/ },
    ];
    for (const c of cases) {
      const r = await request(`${url}/orders`, { headers: c.headers, body: 'abc' });
      assert.equal(r.status, 415, JSON.stringify(c.headers));
      assert.equal(r.json.code, c.code);
      assert.match(r.json.error, c.error);
      assert.deepEqual(r.json.accept, accept);
    }
    // A shorn body on a route without shorn config: 415, as for any type without a parser.
    const plain = await request(`${url}/plain`, { headers: { 'content-type': MEDIA_TYPE }, body: 'abc' });
    assert.equal(plain.status, 415);
  } finally {
    await app.close();
  }
});

test('Fastify: 400 for a body that does not decode or check, with { code, path, offset, frame }', async () => {
  const { app, url } = await start();
  try {
    const one = v2.encode(order);
    const frames = v2.encodeFrames([order, order, order]);
    const shornType = `${MEDIA_TYPE}; fingerprint=${v2.fingerprint}`;
    const framesType = `${FRAMES_MEDIA_TYPE}; fingerprint=${v2.fingerprint}`;
    const cases = [
      { route: '/orders', type: shornType, body: one.subarray(0, one.length - 1), expect: { code: 'ERR_SHORN_TRUNCATED', path: '$.weights' } },
      { route: '/orders', type: shornType, body: Buffer.concat([one, Buffer.from([0])]), expect: { code: 'ERR_SHORN_TRAILING', offset: one.length } },
      { route: '/orders', type: shornType, body: Buffer.from(JSON.stringify(orderJson)), expect: { code: /^ERR_SHORN_/ } },
      { route: '/batch', type: framesType, body: frames.subarray(0, frames.length - 3), expect: { code: 'ERR_SHORN_TRUNCATED', frame: 2 } },
      { route: '/orders', type: 'application/json', body: JSON.stringify({ ...orderJson, item: '' }), expect: { code: 'ERR_SHORN_INVALID', path: '$.item' } },
      { route: '/orders', type: 'application/json', body: JSON.stringify({ ...orderJson, at: 'noon' }), expect: { code: 'ERR_SHORN_INVALID', path: '$.at' } },
      { route: '/orders', type: 'application/json', body: '{"id": 1, "item": "tea",', expect: { code: 'ERR_SHORN_MALFORMED', offset: 24 } },
      { route: '/orders', type: 'application/json', body: '', expect: { code: 'ERR_SHORN_MALFORMED' } },
    ];
    for (const c of cases) {
      const r = await request(url + c.route, { headers: { 'content-type': c.type }, body: c.body });
      assert.equal(r.status, 400, JSON.stringify(c.expect));
      assert.equal(typeof r.json.error, 'string');
      for (const [key, want] of Object.entries(c.expect)) {
        if (want instanceof RegExp) assert.match(r.json[key], want);
        else assert.equal(r.json[key], want, `${key} of ${r.json.error}`);
      }
    }
  } finally {
    await app.close();
  }
});

test('Fastify: gzip, deflate and br bodies are decompressed (shorn and JSON); a body that does not decompress is 400', async () => {
  const { app, url } = await start();
  try {
    const shornType = `${MEDIA_TYPE}; fingerprint=${v2.fingerprint}`;
    const compressors = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync };
    for (const [coding, compress] of Object.entries(compressors)) {
      const shorn = await request(`${url}/orders`, { headers: { 'content-type': shornType, 'content-encoding': coding, accept: MEDIA_TYPE }, body: compress(v2.encode(order)) });
      assert.equal(shorn.status, 200, coding);
      assert.deepEqual(receipt.decode(shorn.bytes), expected);
      const json = await request(`${url}/orders`, { headers: { 'content-type': 'application/json', 'content-encoding': coding }, body: compress(JSON.stringify(orderJson)) });
      assert.equal(json.status, 200, coding);
      assert.equal(json.json.id, orderJson.id);
    }
    const broken = await request(`${url}/orders`, { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: Buffer.from('not gzip at all') });
    assert.equal(broken.status, 400);
    assert.equal(broken.json.code, 'ERR_SHORN_MALFORMED');
    assert.match(broken.json.message, /does not decompress as gzip/);
  } finally {
    await app.close();
  }
});

test('Fastify: a compression bomb is 413 within the route bodyLimit, quickly and without holding its output', async () => {
  const { app, url } = await start();
  try {
    // Each bomb is under the route's 64 KiB itself and inflates past it: 48 MiB of zeros
    // as gzip or deflate (~47 KB), 256 MiB as br (~200 bytes). Sent chunked, with no
    // Content-Length to refuse them by.
    const bombs = {
      gzip: zlib.gzipSync(Buffer.alloc(48 * 1024 * 1024), { level: 9 }),
      deflate: zlib.deflateSync(Buffer.alloc(48 * 1024 * 1024), { level: 9 }),
      br: zlib.brotliCompressSync(Buffer.alloc(256 * 1024 * 1024), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }),
    };
    const before = process.memoryUsage().rss;
    for (const [coding, bomb] of Object.entries(bombs)) {
      assert.ok(bomb.length < 64 * 1024, `${coding} bomb: ${bomb.length} bytes`);
      for (const type of ['application/json', `${MEDIA_TYPE}; fingerprint=${v2.fingerprint}`]) {
        const started = process.hrtime.bigint();
        const r = await request(`${url}/small`, { headers: { 'content-type': type, 'content-encoding': coding, 'transfer-encoding': 'chunked' }, body: bomb });
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        assert.equal(r.status, 413, coding);
        assert.equal(r.json.code, 'ERR_SHORN_LIMIT');
        assert.match(r.json.message, /bodyLimit of 65536 bytes \(after decompression\)/);
        assert.ok(ms < 2000, `${coding}: ${ms} ms`);
      }
    }
    const grown = (process.memoryUsage().rss - before) / 1024 / 1024;
    assert.ok(grown < 64, `RSS grew by ${grown.toFixed(1)} MiB`);
    // A Content-Length over the limit is refused before a byte is read, in shorn's form.
    const declared = await request(`${url}/small`, { headers: { 'content-type': 'application/json' }, body: Buffer.alloc(100 * 1024, 32) });
    assert.equal(declared.status, 413);
    assert.deepEqual(declared.json, { error: "the body is larger than this route's bodyLimit of 65536 bytes (after decompression)", code: 'ERR_SHORN_LIMIT', limit: 65536 });
  } finally {
    await app.close();
  }
});

test('Fastify: Accept with q-values picks shorn or JSON; Vary: Accept either way', async () => {
  const { app, url } = await start();
  try {
    const cases = [
      ['application/x-shorn', 'shorn'],
      ['application/x-shorn;q=0.9, application/json;q=0.8', 'shorn'],
      ['application/json;q=0.5, application/x-shorn', 'shorn'],
      [`application/x-shorn; fingerprint="${receipt.fingerprint.toUpperCase()}"`, 'shorn'],
      ['application/json, application/x-shorn;q=0.5', 'json'],
      ['application/x-shorn;q=0', 'json'],
      ['application/x-shorn; fingerprint=0000000000000000', 'json'],
      ['*/*', 'json'],
      ['text/html, application/xhtml+xml, */*;q=0.8', 'json'],
      ['application/*;q=0.2, application/x-shorn;q=0.1', 'json'],
      [undefined, 'json'],
    ];
    for (const [accept, want] of cases) {
      const r = await request(`${url}/receipt`, { method: 'GET', headers: accept === undefined ? {} : { accept } });
      assert.equal(r.status, 200);
      assert.match(r.headers.vary, /Accept/);
      if (want === 'shorn') {
        assert.equal(r.headers['content-type'], `${MEDIA_TYPE}; fingerprint=${receipt.fingerprint}`, accept);
        assert.deepEqual(receipt.decode(r.bytes), expected);
      } else {
        assert.equal(r.headers['content-type'], 'application/json; charset=utf-8', accept);
        assert.equal(r.json.id, String(expected.id));
      }
    }
  } finally {
    await app.close();
  }
});

test('Fastify: a reply that breaks its schema is a 500 naming the path, logged through Fastify logger', async () => {
  const { app, url, logs } = await start();
  try {
    for (const accept of [MEDIA_TYPE, 'application/json']) {
      const r = await request(`${url}/broken`, { method: 'GET', headers: { accept } });
      assert.equal(r.status, 500);
      assert.equal(r.json.code, 'ERR_SHORN_INVALID');
      assert.equal(r.json.path, '$.seen[0]');
      assert.match(r.json.error, /^the reply does not match its schema: \$\.seen\[0\]: expected string, found number 7/);
    }
    const logged = logs.filter((l) => l.level === 50 && l.msg === 'shorn: the reply does not match its schema');
    assert.equal(logged.length, 2);
    assert.equal(logged[0].path, '$.seen[0]');
    assert.equal(logged[0].err.code, 'ERR_SHORN_INVALID');
  } finally {
    await app.close();
  }
});

test('Fastify: routes without shorn config keep Fastify own JSON parser; a JSON parser registered later cannot let JSON past the checks', async () => {
  const { app, url } = await start({
    routes: async (root) => {
      // A context with its own JSON parser, made after shorn's: its JSON reaches the shorn
      // route parsed by that parser, and is still converted and checked.
      await root.register(async (child) => {
        child.removeContentTypeParser('application/json');
        child.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => done(null, JSON.parse(text)));
        child.post('/custom-json', { config: { shorn: { body: OrderV2, response: receipt } } }, handler);
      });
    },
  });
  try {
    const plain = await request(`${url}/plain`, { headers: { 'content-type': 'application/json' }, body: '{"a":[1,2]}' });
    assert.deepEqual(plain.json, { got: { a: [1, 2] } });
    const poisoned = await request(`${url}/plain`, { headers: { 'content-type': 'application/json' }, body: '{"__proto__":{"x":1}}' });
    assert.equal(poisoned.status, 400, 'Fastify still refuses prototype poisoning');
    const good = await request(`${url}/custom-json`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(orderJson) });
    assert.equal(good.status, 200);
    assert.deepEqual(good.json.seen, expected.seen);
    const bad = await request(`${url}/custom-json`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 1, item: 'tea' }) });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'ERR_SHORN_INVALID');
    assert.equal(bad.json.path, '$.qty');
  } finally {
    await app.close();
  }
});

test('Fastify: works with @fastify/compress (request bodies decompressed once, JSON replies compressed) and with Fastify validation left on', async () => {
  const { app, url } = await start({
    before: (root) => root.register(require('@fastify/compress'), { threshold: 0 }),
    routes: (root) => {
      root.post(
        '/validated',
        {
          schema: { body: { type: 'object', required: ['id', 'item'], properties: { id: { type: 'integer' }, item: { type: 'string', minLength: 2 } } } },
          config: { shorn: { body: OrderV1 } },
        },
        async (request) => ({ item: request.body.item }),
      );
    },
  });
  try {
    const shornType = `${MEDIA_TYPE}; fingerprint=${v2.fingerprint}`;
    const gz = await request(`${url}/orders`, { headers: { 'content-type': shornType, 'content-encoding': 'gzip', accept: MEDIA_TYPE }, body: zlib.gzipSync(v2.encode(order)) });
    assert.equal(gz.status, 200);
    assert.equal(gz.headers['content-encoding'], undefined, 'a shorn reply is not compressed again');
    assert.deepEqual(receipt.decode(gz.bytes), expected);
    const json = await request(`${url}/orders`, { headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' }, body: JSON.stringify(orderJson) });
    assert.equal(json.status, 200);
    assert.equal(json.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(zlib.gunzipSync(json.bytes)).seen, expected.seen);
    // Fastify's validation runs on the decoded value, shorn or JSON.
    const ok = await request(`${url}/validated`, { headers: { 'content-type': `${MEDIA_TYPE}; fingerprint=${v1.fingerprint}` }, body: v1.encode({ id: 1, item: 'tea', qty: 1 }) });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json, { item: 'tea' });
    const invalid = await request(`${url}/validated`, { headers: { 'content-type': `${MEDIA_TYPE}; fingerprint=${v1.fingerprint}` }, body: v1.encode({ id: 1, item: 't', qty: 1 }) });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.json.code, 'FST_ERR_VALIDATION');
  } finally {
    await app.close();
  }
});

test('Fastify: jsonSchema: true serves a TypeBox route from its schemas (body and response[200]) with Fastify validation on; shorn config and shorn: false still rule', async () => {
  const { Type } = require('typebox');
  const { fromJsonSchema } = require('..');
  const Body = Type.Object({ id: Type.Integer({ minimum: 0, maximum: 4294967295 }), item: Type.String({ minLength: 1 }), tags: Type.Array(Type.String()), note: Type.Optional(Type.String()) });
  const Reply = Type.Object({ id: Type.Integer(), count: Type.Integer({ minimum: 0, maximum: 255 }), item: Type.String() });
  const app = Fastify();
  await app.register(shornPlugin, { jsonSchema: true });
  app.post('/typebox', { schema: { body: Body, response: { 200: Reply } } }, async (request) => ({ id: request.body.id, count: request.body.tags.length, item: request.body.item }));
  // A route's own shorn config wins over its schemas; Fastify's validation, left on, still
  // runs on the decoded value (here a v1 order, which the route's schema refuses: no tags).
  app.post('/explicit', { schema: { body: Body }, config: { shorn: { body: OrderV1 } } }, async (request) => ({ qty: request.body.qty }));
  app.post('/opted-out', { schema: { body: Type.Object({ any: Type.Unsafe({ not: {} }) }) }, config: { shorn: false } }, async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${app.server.address().port}`;
  try {
    const body = compile(fromJsonSchema(Body));
    const reply = compile(fromJsonSchema(Reply));
    const value = { id: 12, item: 'tea', tags: ['a', 'b'] };
    const shornAnswer = await fetch(`${url}/typebox`, { method: 'POST', ...send(body, value) });
    assert.equal(shornAnswer.status, 200);
    assert.equal(shornAnswer.headers.get('content-type'), `${MEDIA_TYPE}; fingerprint=${reply.fingerprint}`);
    assert.deepEqual(await receive(reply, shornAnswer), { id: 12, count: 2, item: 'tea' });
    const jsonAnswer = await request(`${url}/typebox`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
    assert.equal(jsonAnswer.status, 200);
    assert.deepEqual(jsonAnswer.json, { id: 12, count: 2, item: 'tea' });
    const refused = await request(`${url}/typebox`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...value, item: '' }) });
    assert.equal(refused.status, 400);
    assert.equal(refused.json.code, 'ERR_SHORN_INVALID');
    assert.equal(refused.json.path, '$.item');
    const explicit = await request(`${url}/explicit`, { headers: { 'content-type': `${MEDIA_TYPE}; fingerprint=${v1.fingerprint}` }, body: v1.encode({ id: 1, item: 'tea', qty: 9 }) });
    assert.equal(explicit.status, 400, 'the shorn config reads it; Fastify validation, on, refuses it for the missing tags');
    assert.equal(explicit.json.code, 'FST_ERR_VALIDATION');
    const optedOut = await request(`${url}/opted-out`, { headers: { 'content-type': 'application/json' }, body: '{"any":1}' });
    assert.equal(optedOut.status, 400, 'Fastify alone answers the route');
  } finally {
    await app.close();
  }
  // A route schema fromJsonSchema cannot map fails when the route is made, naming it.
  const strict = Fastify();
  await strict.register(shornPlugin, { jsonSchema: true });
  assert.throws(
    () => strict.post('/odd', { schema: { body: { type: 'object', properties: { x: { type: 'string' } }, not: { required: ['x'] } } } }, async () => null),
    { code: 'ERR_SHORN_SCHEMA', message: /^route POST \/odd: schema\.body: .*not.*config: \{ shorn: false \}/s },
  );
  await strict.close();
});

test('Fastify: a route config shorn cannot use is ERR_SHORN_SCHEMA when the route is made; so is an unknown plugin option', async () => {
  const app = Fastify();
  await app.register(shornPlugin);
  assert.throws(() => app.post('/a', { config: { shorn: { body: 42 } } }, handler), { code: 'ERR_SHORN_SCHEMA', message: /route POST \/a: config\.shorn\.body: expected a codec or a descriptor/ });
  assert.throws(() => app.post('/b', { config: { shorn: { bdy: OrderV1 } } }, handler), { code: 'ERR_SHORN_SCHEMA', message: /unknown key "bdy"/ });
  assert.throws(() => app.post('/c', { config: { shorn: { body: [OrderV2, OrderV1] } } }, handler), { code: 'ERR_SHORN_SCHEMA', message: /cannot read every message/ });
  await app.close();
  const other = Fastify();
  other.register(shornPlugin, { jsonschema: true });
  await assert.rejects(() => other.ready(), { code: 'ERR_SHORN_SCHEMA', message: /unknown option "jsonschema"/ });
});

test('shorn/fastify is the same plugin from import and require, marked to escape encapsulation', async () => {
  const esm = await import('shorn/fastify');
  assert.equal(esm.default, shornPlugin);
  assert.equal(shornPlugin[Symbol.for('skip-override')], true);
  assert.deepEqual(shornPlugin[Symbol.for('plugin-meta')], { fastify: '5.x', name: 'shorn' });
});

test('examples/fastify.js runs: JSON and shorn clients, v1 and v2, a 415 and a 400', () => {
  const out = execFileSync(process.execPath, [path.join(__dirname, '..', 'examples', 'fastify.js')], { encoding: 'utf8', timeout: 30_000 });
  assert.match(out, /shorn v1 client: 200 \{ id: 1n, total: 10, note: '' \}/);
  assert.match(out, /shorn v2 client: 200 \{ id: 2n, total: 250000, note: 'birthday' \}/);
  assert.match(out, /JSON client: 200 \{ id: 3n, total: 5, note: 'from JSON' \}/);
  assert.match(out, /text\/plain: 415 ERR_SHORN_MEDIA_TYPE/);
  assert.match(out, /bad body: 400 ERR_SHORN_TRUNCATED at \$\.item/);
});
