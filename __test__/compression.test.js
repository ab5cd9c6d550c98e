'use strict';
// Content-Encoding across shorn's HTTP pieces (issue 42, item 2): receive undoes gzip,
// x-gzip, deflate and br on a Node IncomingMessage within bodyLimit (a bomb stopped at the
// limit, memory bounded); send compresses a request body; the Fastify plugin and the
// Express middleware compress replies under their `compress` option, by Accept-Encoding
// with q-values, identity and `*` as RFC 9110 reads them, over a threshold, never twice
// with @fastify/compress. Real servers on loopback, fetch and node:http clients.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const zlib = require('node:zlib');
const nodeHttp = require('node:http');
const Fastify = require('fastify');
const { t, compile } = require('..');
const shornPlugin = require('shorn/fastify');
const shornExpress = require('shorn/express');
const { send, receive, MEDIA_TYPE, DEFAULT_RECEIVE_LIMIT } = require('shorn/http');
const server = require('../lib/server');
const { listen } = require('./transport-helpers');

const Item = t.object({ id: t.uint32(), name: t.string(), tags: t.array(t.string()) });
const List = t.object({ items: t.array(Item) });
const list = compile(List);
const TAGS = ['beta', 'eu', 'ios', 'web', 'pro'];
function makeList(n) {
  return { items: Array.from({ length: n }, (_, k) => ({ id: k * 7919, name: `item number ${k}`, tags: [TAGS[k % 5], TAGS[(k * 3) % 5]] })) };
}
const big = makeList(300); // ~8 KB as shorn
const small = makeList(2); // under 1 KiB
const shornType = `${MEDIA_TYPE}; fingerprint=${list.fingerprint}`;

const COMPRESS = { gzip: (b) => zlib.gzipSync(b), 'x-gzip': (b) => zlib.gzipSync(b), deflate: (b) => zlib.deflateSync(b), br: (b) => zlib.brotliCompressSync(b) };
const DECOMPRESS = { gzip: zlib.gunzipSync, deflate: zlib.inflateSync, br: zlib.brotliDecompressSync };

/** A node:http GET (or POST) whose IncomingMessage is handed back unread. */
function open(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request(url, { method, headers }, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

/** A node:http request read whole: status, headers, raw bytes (not decompressed). */
async function fetchRaw(url, options) {
  const res = await open(url, options);
  const chunks = [];
  for await (const c of res) chunks.push(c);
  return { status: res.statusCode, headers: res.headers, bytes: Buffer.concat(chunks) };
}

// ---- Accept-Encoding (RFC 9110, 12.5.3) ----

test('parseAcceptEncoding: codings lowercased with their q-values, x-gzip as gzip, bad elements and weights left out', () => {
  const weights = server.parseAcceptEncoding('GZIP;q=0.5, br ; q=1.0, deflate;q=2, x-gzip;q=0.9, *;q=0.1, identity;q=0, a b, zstd;level=3;q=0.3, compress;q=0.0001');
  assert.deepEqual([...weights], [
    ['gzip', 0.5],
    ['br', 1],
    ['*', 0.1],
    ['identity', 0],
    ['zstd', 0.3],
  ]);
  assert.deepEqual([...server.parseAcceptEncoding('x-gzip')], [['gzip', 1]]);
  assert.deepEqual([...server.parseAcceptEncoding(undefined)], []);
});

test('replyEncoding: q-values, ties by the server order, *, identity;q=0, the threshold, no header', () => {
  const both = server.compressOption(true, 'test');
  assert.deepEqual(both, { threshold: 1024, encodings: ['br', 'gzip'] });
  const cases = [
    // [Accept-Encoding, coding of a 5000-byte reply, coding of a 10-byte reply]
    [undefined, null, null], // no header: not compressed
    ['', null, null], // empty: no coding wanted
    ['gzip', 'gzip', null],
    ['gzip, br', 'br', null], // a tie goes to the server's first
    ['br;q=0.5, gzip', 'gzip', null],
    ['gzip;q=0.8, br;q=0.8', 'br', null],
    ['x-gzip', 'gzip', null],
    ['deflate', null, null], // not one of the route's encodings
    ['*', 'br', null],
    ['gzip;q=0, *', 'br', null], // gzip excluded, * allows br
    ['br;q=0, *;q=0.5', 'gzip', null],
    ['*;q=0', null, null], // nothing acceptable, identity excluded too: sent as it is
    ['gzip;q=2', null, null], // a bad weight is left out
    ['gzip, identity;q=0', 'gzip', 'gzip'], // identity refused: even a small reply is compressed
    ['gzip, *;q=0', 'gzip', 'gzip'], // * excludes identity (no identity entry)
    ['gzip, identity;q=0.5, *;q=0', 'gzip', null], // identity named: it counts, not *
    ['gzip;q=0.2, identity;q=0.5', null, null], // the client weighs identity above gzip
    ['identity;q=0', null, null], // no coding acceptable: sent without one
  ];
  for (const [header, large, tiny] of cases) {
    assert.equal(server.replyEncoding(both, header, 5000), large, `${header} (5000 bytes)`);
    assert.equal(server.replyEncoding(both, header, 10), tiny, `${header} (10 bytes)`);
  }
  const gzipFirst = server.compressOption({ threshold: 0, encodings: ['gzip', 'deflate'] }, 'test');
  assert.equal(server.replyEncoding(gzipFirst, 'br, deflate, gzip', 1), 'gzip');
  assert.equal(server.replyEncoding(gzipFirst, 'deflate', 0), 'deflate');
  assert.equal(server.replyEncoding(null, 'gzip', 5000), null);
});

test('compress options are checked: ERR_SHORN_SCHEMA naming the option', () => {
  assert.equal(server.compressOption(undefined, 'x'), null);
  assert.equal(server.compressOption(false, 'x'), null);
  for (const [option, message] of [
    [null, /compress must be true, false or \{ threshold, encodings \}/],
    ['gzip', /compress must be true, false/],
    [{ level: 9 }, /unknown key "level"/],
    [{ threshold: -1 }, /threshold must be a whole number/],
    [{ threshold: 1.5 }, /threshold must be a whole number/],
    [{ encodings: [] }, /non-empty array/],
    [{ encodings: ['zstd'] }, /"zstd" is not one of br, gzip, deflate/],
    [{ encodings: ['gzip', 'gzip'] }, /names gzip twice/],
  ]) {
    assert.throws(() => server.compressOption(option, 'x'), { code: 'ERR_SHORN_SCHEMA', message }, JSON.stringify(option));
  }
  assert.throws(() => shornExpress({ response: list, compress: { threshold: 'big' } }), { code: 'ERR_SHORN_SCHEMA', message: /shorn\/express: compress.threshold/ });
});

// ---- receive: Content-Encoding on a Node IncomingMessage ----

// A node:http server answering GET /<coding> with `big` in shorn (or JSON at /json/<coding>)
// compressed as named ("gzip, br": gzip then br; "none": as it is).
async function encodedServer() {
  const srv = nodeHttp.createServer((req, res) => {
    const [, kind, coding] = req.url.split('/');
    let body = kind === 'json' ? Buffer.from(JSON.stringify(big)) : list.encode(big);
    const codings = decodeURIComponent(coding).split(',').map((c) => c.trim());
    for (const c of codings) if (c !== 'none' && c !== 'identity' && COMPRESS[c]) body = COMPRESS[c](body);
    const headers = { 'content-type': kind === 'json' ? 'application/json' : shornType };
    if (coding !== 'none') headers['content-encoding'] = decodeURIComponent(coding);
    if (kind === 'broken') body = Buffer.from('not gzip at all');
    res.writeHead(200, headers);
    res.end(body);
  });
  const port = await listen(srv);
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => srv.close(resolve)) };
}

test('receive undoes gzip, x-gzip, deflate, br and lists of them on a node:http response (shorn and JSON); fetch as before', async () => {
  const s = await encodedServer();
  try {
    for (const coding of ['none', 'identity', 'gzip', 'x-gzip', 'deflate', 'br', 'gzip, br', 'deflate,gzip', 'GZIP']) {
      const c = coding === 'GZIP' ? 'gzip' : coding;
      for (const kind of ['shorn', 'json']) {
        const res = await open(`${s.url}/${kind}/${encodeURIComponent(coding === 'GZIP' ? c : coding)}`);
        assert.deepEqual(await receive(list, res), big, `${kind} ${coding}`);
      }
      if (!coding.includes(',') && coding !== 'x-gzip') assert.deepEqual(await receive(list, await fetch(`${s.url}/shorn/${c}`)), big, `fetch ${coding}`);
    }
    const upper = await open(`${s.url}/shorn/none`, {});
    assert.deepEqual(await receive(list, upper, { bodyLimit: 1 << 20 }), big);
  } finally {
    await s.close();
  }
});

test('receive refuses a coding it cannot undo (ERR_SHORN_MEDIA_TYPE) and a body that does not decompress (ERR_SHORN_MALFORMED)', async () => {
  const s = await encodedServer();
  try {
    await assert.rejects(receive(list, await open(`${s.url}/shorn/compress`)), { code: 'ERR_SHORN_MEDIA_TYPE', message: /Content-Encoding compress; receive undoes gzip, x-gzip, deflate and br/ });
    for (const coding of ['gzip', 'deflate', 'br']) {
      await assert.rejects(receive(list, await open(`${s.url}/broken/${coding}`)), { code: 'ERR_SHORN_MALFORMED', message: new RegExp(`does not decompress as ${coding}`) });
    }
  } finally {
    await s.close();
  }
});

test('receive: bodyLimit (default 16 MiB) bounds a body after decompression, compressed or not: ERR_SHORN_LIMIT', async () => {
  assert.equal(DEFAULT_RECEIVE_LIMIT, 16 * 1024 * 1024);
  const s = await encodedServer();
  try {
    const size = list.encode(big).length;
    for (const coding of ['none', 'gzip', 'br']) {
      await assert.rejects(receive(list, await open(`${s.url}/shorn/${coding}`), { bodyLimit: size - 1 }), { code: 'ERR_SHORN_LIMIT', message: new RegExp(`bodyLimit, ${size - 1} bytes`) }, coding);
      assert.deepEqual(await receive(list, await open(`${s.url}/shorn/${coding}`), { bodyLimit: size }), big, coding);
    }
    await assert.rejects(receive(list, await fetch(`${s.url}/shorn/gzip`), { bodyLimit: size - 1 }), { code: 'ERR_SHORN_LIMIT' });
    for (const bad of [-1, 1.5, '1', null]) {
      await assert.rejects(receive(list, await open(`${s.url}/shorn/none`), { bodyLimit: bad }), { code: 'ERR_SHORN_SCHEMA', message: /bodyLimit must be a whole number/ });
    }
    await assert.rejects(receive(list, await open(`${s.url}/shorn/none`), { limit: 5 }), { code: 'ERR_SHORN_SCHEMA', message: /unknown option "limit"/ });
  } finally {
    await s.close();
  }
});

test('receive: a compressed body cut off mid-stream rejects with the connection error, not as a bad compression; an empty encoded body is empty', async () => {
  const gz = zlib.gzipSync(list.encode(makeList(5000)));
  const srv = nodeHttp.createServer((req, res) => {
    if (req.url === '/empty-404') {
      res.writeHead(404, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      return res.end();
    }
    res.writeHead(200, { 'content-type': shornType, 'content-encoding': 'gzip' });
    res.write(gz.subarray(0, 1000));
    setTimeout(() => res.socket.destroy(), 20);
  });
  const port = await listen(srv);
  try {
    const plain = await open(`http://127.0.0.1:${port}/cut`);
    await assert.rejects(receive(list, plain), (e) => {
      assert.notEqual(e.code, 'ERR_SHORN_MALFORMED', e.message);
      assert.equal(e.code, 'ECONNRESET');
      return true;
    });
    // No bytes at all with a Content-Encoding (a 404 or 204 some servers send): the answer
    // is read as empty, and the status is what the caller hears about.
    await assert.rejects(receive(list, await open(`http://127.0.0.1:${port}/empty-404`)), { code: 'ERR_SHORN_HTTP', status: 404 });
  } finally {
    srv.close();
  }
});

test('receive destroys a response whose Content-Encoding it cannot undo, rather than leave it unread', async () => {
  const s = await encodedServer();
  try {
    const res = await open(`${s.url}/shorn/compress`);
    await assert.rejects(receive(list, res), { code: 'ERR_SHORN_MEDIA_TYPE' });
    assert.equal(res.destroyed, true);
  } finally {
    await s.close();
  }
});

// 256 MiB of zeros as gzip (~250 KB) and br (a few hundred bytes), made once.
function bombs() {
  const zeros = Buffer.alloc(1 << 20);
  const gz = zlib.createGzip({ level: 9 });
  const br = zlib.createBrotliCompress();
  const out = { gzip: [], br: [] };
  gz.on('data', (c) => out.gzip.push(c));
  br.on('data', (c) => out.br.push(c));
  return new Promise((resolve) => {
    let n = 0;
    (function write() {
      while (n < 256) {
        n++;
        const a = gz.write(zeros);
        const b = br.write(zeros);
        if (!a || !b) return setImmediate(write);
      }
      let ended = 0;
      const done = () => ++ended === 2 && resolve({ gzip: Buffer.concat(out.gzip), br: Buffer.concat(out.br) });
      gz.end(done);
      br.end(done);
    })();
  });
}

test('receive stops a compression bomb at bodyLimit: 256 MiB of output refused at 1 MiB, memory bounded, the response cut off (node:http and fetch)', async () => {
  const bomb = await bombs();
  assert.ok(bomb.gzip.length < 1 << 20, 'the gzip bomb is under the limit itself');
  const srv = nodeHttp.createServer((req, res) => {
    const coding = req.url.slice(1);
    res.writeHead(200, { 'content-type': shornType, 'content-encoding': coding });
    res.end(bomb[coding]);
  });
  const port = await listen(srv);
  try {
    for (const coding of ['gzip', 'br']) {
      global.gc?.();
      const before = process.memoryUsage();
      let peak = 0;
      const sample = setInterval(() => {
        const m = process.memoryUsage();
        peak = Math.max(peak, m.heapUsed + m.arrayBuffers - before.heapUsed - before.arrayBuffers);
      }, 2);
      const res = await open(`http://127.0.0.1:${port}/${coding}`);
      const started = Date.now();
      await assert.rejects(receive(list, res, { bodyLimit: 1 << 20 }), { code: 'ERR_SHORN_LIMIT' });
      clearInterval(sample);
      const m = process.memoryUsage();
      peak = Math.max(peak, m.heapUsed + m.arrayBuffers - before.heapUsed - before.arrayBuffers);
      assert.ok(peak < 48 * 1024 * 1024, `${coding}: memory grew by ${peak} bytes for a 1 MiB limit`);
      assert.ok(Date.now() - started < 5000, `${coding}: took ${Date.now() - started} ms`);
      assert.equal(res.destroyed, true, `${coding}: the response is cut off`);
      // fetch undoes the coding itself; receive reads its body as a stream and stops there too.
      const started2 = Date.now();
      await assert.rejects(receive(list, await fetch(`http://127.0.0.1:${port}/${coding}`), { bodyLimit: 1 << 20 }), { code: 'ERR_SHORN_LIMIT' });
      const after = process.memoryUsage();
      assert.ok(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers < 48 * 1024 * 1024, `fetch ${coding}: memory bounded`);
      assert.ok(Date.now() - started2 < 5000, `fetch ${coding}: took ${Date.now() - started2} ms`);
    }
  } finally {
    srv.close();
  }
});

// ---- send: compressed request bodies ----

test('send compresses a body with gzip, deflate or br and says so; the Fastify and Express integrations read it', async () => {
  for (const coding of ['gzip', 'deflate', 'br']) {
    const sent = send(list, big, { compress: coding });
    assert.equal(sent.headers['content-encoding'], coding);
    assert.equal(sent.headers['content-type'], shornType);
    assert.deepEqual(list.decode(DECOMPRESS[coding](sent.body)), big);
    assert.ok(sent.body.length < list.encode(big).length / 2, `${coding} is smaller`);
  }
  const framed = send(list, [small, small], { frames: true, compress: 'gzip' });
  assert.deepEqual(list.decodeFrames(zlib.gunzipSync(framed.body)), [small, small]);
  assert.equal(send(list, big, { compress: false }).headers['content-encoding'], undefined);
  assert.throws(() => send(list, big, { compress: 'zstd' }), { code: 'ERR_SHORN_SCHEMA', message: /compress must be 'gzip', 'deflate' or 'br', found "zstd"/ });
  assert.throws(() => send(list, big, { compress: true }), { code: 'ERR_SHORN_SCHEMA', message: /compress must be/ });
  assert.throws(() => send(list, big, { gzip: true }), { code: 'ERR_SHORN_SCHEMA', message: /unknown option "gzip"/ });

  const app = Fastify();
  await app.register(shornPlugin);
  app.post('/count', { config: { shorn: { body: List } } }, async (request) => ({ count: request.body.items.length, last: request.body.items.at(-1).name }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const express = require('express');
  const eapp = express();
  eapp.post('/count', shornExpress({ body: List }), (req, res) => res.json({ count: req.body.items.length, last: req.body.items.at(-1).name }));
  const esrv = nodeHttp.createServer(eapp);
  const eport = await listen(esrv);
  try {
    for (const url of [`http://127.0.0.1:${app.server.address().port}/count`, `http://127.0.0.1:${eport}/count`]) {
      for (const coding of ['gzip', 'deflate', 'br']) {
        const viaFetch = await fetch(url, { method: 'POST', ...send(list, big, { compress: coding }) });
        assert.deepEqual(await viaFetch.json(), { count: 300, last: 'item number 299' }, `${url} fetch ${coding}`);
        const sent = send(list, big, { compress: coding });
        const viaHttp = await fetchRaw(url, { method: 'POST', headers: sent.headers, body: sent.body });
        assert.deepEqual(JSON.parse(viaHttp.bytes), { count: 300, last: 'item number 299' }, `${url} node:http ${coding}`);
      }
    }
  } finally {
    await app.close();
    esrv.close();
  }
});

// lib/http.js where neither process.getBuiltinModule nor node:zlib exist, as in a browser:
// the module loaded in a fresh context whose require has no Node built-ins.
function browserHttp(globals = {}) {
  const file = require.resolve('shorn/http');
  const source = fs.readFileSync(file, 'utf8');
  const module = { exports: {} };
  const requireNoBuiltins = (name) => {
    if (name.startsWith('node:')) throw new Error(`Cannot find module '${name}'`);
    return require(path.resolve(path.dirname(file), name));
  };
  const context = vm.createContext({ module, exports: module.exports, require: requireNoBuiltins, TextDecoder, TextEncoder, Uint8Array, Map, WeakMap, Set, ...globals });
  vm.runInContext(`(function (module, exports, require) {${source}\n})(module, module.exports, require)`, context);
  return module.exports;
}

test('send without node:zlib (a browser) refuses compress with an error naming CompressionStream; plain send still works', () => {
  const http = browserHttp();
  assert.throws(() => http.send(list, big, { compress: 'gzip' }), { code: 'ERR_SHORN_SCHEMA', message: /needs node:zlib \(Node, Deno, Bun\).*CompressionStream\('gzip'\).*Content-Encoding: gzip/ });
  assert.deepEqual(list.decode(http.send(list, big).body), big);
});

test('receive without node:zlib undoes gzip and deflate with DecompressionStream, refuses br clearly, and still stops a bomb', async () => {
  const http = browserHttp({ DecompressionStream });
  const fakeResponse = (coding, body) => ({
    statusCode: 200,
    headers: { 'content-type': shornType, 'content-encoding': coding },
    async *[Symbol.asyncIterator]() {
      for (let at = 0; at < body.length; at += 1000) yield body.subarray(at, at + 1000);
    },
  });
  const bytes = list.encode(big);
  assert.deepEqual(await http.receive(list, fakeResponse('gzip', zlib.gzipSync(bytes))), big);
  assert.deepEqual(await http.receive(list, fakeResponse('deflate', zlib.deflateSync(bytes))), big);
  await assert.rejects(http.receive(list, fakeResponse('gzip', Buffer.from('nope'))), { code: 'ERR_SHORN_MALFORMED', message: /does not decompress as gzip/ });
  await assert.rejects(http.receive(list, fakeResponse('br', zlib.brotliCompressSync(bytes))), { code: 'ERR_SHORN_MEDIA_TYPE', message: /neither node:zlib nor a DecompressionStream for it/ });
  const bomb = zlib.gzipSync(Buffer.alloc(64 << 20), { level: 9 });
  await assert.rejects(http.receive(list, fakeResponse('gzip', bomb), { bodyLimit: 1 << 20 }), { code: 'ERR_SHORN_LIMIT' });
  // An input that fails mid-way (a connection cut) gives its own error.
  const cut = {
    statusCode: 200,
    headers: { 'content-type': shornType, 'content-encoding': 'gzip' },
    async *[Symbol.asyncIterator]() {
      yield zlib.gzipSync(bytes).subarray(0, 100);
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    },
  };
  await assert.rejects(http.receive(list, cut), { code: 'ECONNRESET', message: 'aborted' });
  // Without DecompressionStream either: the clear error.
  const bare = browserHttp();
  await assert.rejects(bare.receive(list, fakeResponse('gzip', zlib.gzipSync(bytes))), { code: 'ERR_SHORN_MEDIA_TYPE', message: /neither node:zlib nor a DecompressionStream/ });
  assert.deepEqual(await bare.receive(list, fakeResponse('identity', bytes)), big);
});

// ---- reply compression: Fastify ----

async function fastifyApp({ compress, before, after } = {}) {
  const app = Fastify();
  if (before) await before(app);
  await app.register(shornPlugin, compress === undefined ? {} : { compress });
  if (after) await after(app);
  app.get('/big', { config: { shorn: { response: list } } }, async () => big);
  app.get('/small', { config: { shorn: { response: list } } }, async () => small);
  app.get('/plain', async () => ({ text: 'x'.repeat(5000) }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${app.server.address().port}` };
}

function assertVary(headers, ...names) {
  const vary = String(headers.vary).toLowerCase().split(',').map((x) => x.trim());
  for (const name of names) assert.equal(vary.filter((x) => x === name.toLowerCase()).length, 1, `Vary ${headers.vary} has ${name} once`);
}

test('Fastify: replies are not compressed by default (compress off)', async () => {
  const { app, url } = await fastifyApp();
  try {
    const r = await fetchRaw(`${url}/big`, { headers: { accept: MEDIA_TYPE, 'accept-encoding': 'gzip, br' } });
    assert.equal(r.headers['content-encoding'], undefined);
    assert.deepEqual(list.decode(r.bytes), big);
  } finally {
    await app.close();
  }
});

test('Fastify compress: true: shorn and JSON replies over 1 KiB compressed by Accept-Encoding (br, gzip, q-values), Vary set, small ones not', async () => {
  const { app, url } = await fastifyApp({ compress: true });
  try {
    for (const [acceptEncoding, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.1, gzip;q=0.9', 'gzip'],
      ['*', 'br'],
      ['deflate', undefined],
      [undefined, undefined],
      ['identity', undefined],
    ]) {
      const headers = { accept: MEDIA_TYPE };
      if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
      const r = await fetchRaw(`${url}/big`, { headers });
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-encoding'], coding, String(acceptEncoding));
      assertVary(r.headers, 'Accept', 'Accept-Encoding');
      const bytes = coding === undefined ? r.bytes : DECOMPRESS[coding](r.bytes);
      assert.deepEqual(list.decode(bytes), big);
      if (coding !== undefined) assert.equal(Number(r.headers['content-length']), r.bytes.length);
      // receive undoes it on the IncomingMessage; fetch undoes it itself.
      assert.deepEqual(await receive(list, await open(`${url}/big`, { headers })), big);
    }
    assert.deepEqual(await receive(list, await fetch(`${url}/big`, { headers: { accept: MEDIA_TYPE } })), big);
    // JSON replies of the route too.
    const json = await fetchRaw(`${url}/big`, { headers: { accept: 'application/json', 'accept-encoding': 'gzip' } });
    assert.equal(json.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(zlib.gunzipSync(json.bytes)), big);
    // Under the threshold: as it is, unless identity is refused.
    const tiny = await fetchRaw(`${url}/small`, { headers: { accept: MEDIA_TYPE, 'accept-encoding': 'gzip, br' } });
    assert.equal(tiny.headers['content-encoding'], undefined);
    assertVary(tiny.headers, 'Accept-Encoding');
    assert.deepEqual(list.decode(tiny.bytes), small);
    const forced = await fetchRaw(`${url}/small`, { headers: { accept: MEDIA_TYPE, 'accept-encoding': 'gzip, identity;q=0' } });
    assert.equal(forced.headers['content-encoding'], 'gzip');
    assert.deepEqual(list.decode(zlib.gunzipSync(forced.bytes)), small);
    // A route without shorn config is not touched.
    const plain = await fetchRaw(`${url}/plain`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(plain.headers['content-encoding'], undefined);
  } finally {
    await app.close();
  }
});

test('Fastify compress: { threshold, encodings } is honoured; a bad option fails the registration', async () => {
  const { app, url } = await fastifyApp({ compress: { threshold: 0, encodings: ['gzip', 'deflate'] } });
  try {
    const r = await fetchRaw(`${url}/small`, { headers: { accept: MEDIA_TYPE, 'accept-encoding': 'br, deflate' } });
    assert.equal(r.headers['content-encoding'], 'deflate');
    assert.deepEqual(list.decode(zlib.inflateSync(r.bytes)), small);
    const b = await fetchRaw(`${url}/big`, { headers: { accept: MEDIA_TYPE, 'accept-encoding': 'br' } });
    assert.equal(b.headers['content-encoding'], undefined);
  } finally {
    await app.close();
  }
  const bad = Fastify();
  bad.register(shornPlugin, { compress: { encodings: ['lz4'] } });
  await assert.rejects(bad.ready(), { code: 'ERR_SHORN_SCHEMA', message: /shorn\/fastify: compress.encodings: "lz4"/ });
});

test('Fastify with @fastify/compress: a shorn reply is compressed once, whichever compresses it and in either registration order', async () => {
  const compressPlugin = require('@fastify/compress');
  const setups = {
    // Its default types leave shorn replies alone; the plugin's compress does them.
    'default types, shorn compress on': { compress: true, before: (app) => app.register(compressPlugin, { threshold: 0 }) },
    // customTypes makes it compress shorn replies (and JSON): shorn's compress is off.
    'customTypes, shorn compress off': { before: (app) => app.register(compressPlugin, { threshold: 0, customTypes: /^application\/(?:json|x-shorn)\b/ }) },
    // Both on, compress registered first or after shorn: still once.
    'customTypes first, shorn compress on': { compress: true, before: (app) => app.register(compressPlugin, { threshold: 0, customTypes: /^application\/(?:json|x-shorn)\b/ }) },
    'customTypes after, shorn compress on': { compress: true, after: (app) => app.register(compressPlugin, { threshold: 0, customTypes: /^application\/(?:json|x-shorn)\b/ }) },
  };
  for (const [name, setup] of Object.entries(setups)) {
    const { app, url } = await fastifyApp(setup);
    try {
      for (const [acceptEncoding, coding] of [
        ['gzip', 'gzip'],
        ['br', 'br'],
      ]) {
        const r = await fetchRaw(`${url}/big`, { headers: { accept: MEDIA_TYPE, 'accept-encoding': acceptEncoding } });
        assert.equal(r.status, 200, name);
        assert.equal(r.headers['content-encoding'], coding, `${name}: ${acceptEncoding}`);
        // Decompressed once, the bytes are the shorn message itself.
        assert.deepEqual(list.decode(DECOMPRESS[coding](r.bytes)), big, `${name}: ${acceptEncoding}`);
        assertVary(r.headers, 'Accept-Encoding');
        assert.deepEqual(await receive(list, await open(`${url}/big`, { headers: { accept: MEDIA_TYPE, 'accept-encoding': acceptEncoding } })), big, name);
        assert.deepEqual(await receive(list, await fetch(`${url}/big`, { headers: { accept: MEDIA_TYPE } })), big, name);
      }
      const json = await fetchRaw(`${url}/big`, { headers: { accept: 'application/json', 'accept-encoding': 'gzip' } });
      assert.equal(json.headers['content-encoding'], 'gzip', name);
      assert.deepEqual(JSON.parse(zlib.gunzipSync(json.bytes)), big, name);
    } finally {
      await app.close();
    }
  }
});

// ---- reply compression: Express ----

for (const [name, express] of [
  ['Express 5', require('express')],
  ['Express 4', require('express4')],
]) {
  test(`${name}: res.shorn compresses over the threshold by Accept-Encoding with compress: true, not by default`, async () => {
    const app = express();
    app.get('/big', shornExpress({ response: list, compress: true }), (req, res) => res.shorn(big));
    app.get('/small', shornExpress({ response: list, compress: true }), (req, res) => res.shorn(small));
    app.get('/off', shornExpress({ response: list }), (req, res) => res.shorn(big));
    app.get('/gzip-only', shornExpress({ response: list, compress: { threshold: 0, encodings: ['gzip'] } }), (req, res) => res.shorn(small));
    const srv = nodeHttp.createServer(app);
    const url = `http://127.0.0.1:${await listen(srv)}`;
    try {
      for (const [acceptEncoding, coding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip;q=1, br;q=0.5', 'gzip'],
        ['br;q=0', undefined],
        [undefined, undefined],
      ]) {
        const headers = { accept: MEDIA_TYPE };
        if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
        const r = await fetchRaw(`${url}/big`, { headers });
        assert.equal(r.headers['content-encoding'], coding, String(acceptEncoding));
        assertVary(r.headers, 'Accept', 'Accept-Encoding');
        assert.deepEqual(list.decode(coding === undefined ? r.bytes : DECOMPRESS[coding](r.bytes)), big);
        assert.equal(Number(r.headers['content-length']), r.bytes.length);
        assert.deepEqual(await receive(list, await open(`${url}/big`, { headers })), big);
      }
      assert.deepEqual(await receive(list, await fetch(`${url}/big`, { headers: { accept: MEDIA_TYPE } })), big);
      const json = await fetchRaw(`${url}/big`, { headers: { accept: 'application/json', 'accept-encoding': 'gzip' } });
      assert.equal(json.headers['content-encoding'], 'gzip');
      assert.deepEqual(JSON.parse(zlib.gunzipSync(json.bytes)), big);
      const tiny = await fetchRaw(`${url}/small`, { headers: { accept: MEDIA_TYPE, 'accept-encoding': 'gzip' } });
      assert.equal(tiny.headers['content-encoding'], undefined);
      assert.deepEqual(list.decode(tiny.bytes), small);
      const off = await fetchRaw(`${url}/off`, { headers: { accept: MEDIA_TYPE, 'accept-encoding': 'gzip' } });
      assert.equal(off.headers['content-encoding'], undefined);
      assert.equal(off.headers.vary, 'Accept');
      const only = await fetchRaw(`${url}/gzip-only`, { headers: { accept: MEDIA_TYPE, 'accept-encoding': 'br, gzip;q=0.1' } });
      assert.equal(only.headers['content-encoding'], 'gzip');
      assert.deepEqual(list.decode(zlib.gunzipSync(only.bytes)), small);
    } finally {
      srv.close();
    }
  });
}
