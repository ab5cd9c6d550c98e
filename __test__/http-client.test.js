'use strict';
// shorn/http (lib/http.js): the RFC 9110 media-type parser the integrations share, and
// send/receive around the global fetch and node:http, against a node:http server on
// loopback that answers as shorn's integrations do (issue 40).

const { test } = require('node:test');
const assert = require('node:assert/strict');
const nodeHttp = require('node:http');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { t, compile, createRegistry, ShornError } = require('..');
const { MEDIA_TYPE, FRAMES_MEDIA_TYPE, ACCEPT, parseContentType, parseAccept, send, receive } = require('shorn/http');
const { listen } = require('./transport-helpers');

test('parseContentType reads RFC 9110 media types: any case, any parameter order, quoted values with escapes, whitespace', () => {
  const cases = [
    ['application/x-shorn', { type: 'application/x-shorn', params: {} }],
    ['Application/X-Shorn; FingerPrint=00FF', { type: 'application/x-shorn', params: { fingerprint: '00FF' } }],
    ['application/x-shorn;fingerprint="00ff"', { type: 'application/x-shorn', params: { fingerprint: '00ff' } }],
    ['application/x-shorn ; charset=utf-8 ;\tfingerprint="00ff" ', { type: 'application/x-shorn', params: { charset: 'utf-8', fingerprint: '00ff' } }],
    ['a/b; x="semi;colon, comma"', { type: 'a/b', params: { x: 'semi;colon, comma' } }],
    ['a/b; x="back\\\\slash \\"quoted\\""', { type: 'a/b', params: { x: 'back\\slash "quoted"' } }],
    ['a/b; x=""', { type: 'a/b', params: { x: '' } }],
    ['a/b;;c=d;', { type: 'a/b', params: { c: 'd' } }],
    ['text/plain', { type: 'text/plain', params: {} }],
  ];
  for (const [header, expected] of cases) {
    const parsed = parseContentType(header);
    assert.deepEqual({ type: parsed.type, params: { ...parsed.params } }, expected, header);
  }
  for (const header of [undefined, '', 'application', 'application/', '/x', 'a/b c', 'a/b; x', 'a/b; x=', 'a/b; x="open', 'a/b; x=1; X=2', 'a/b; x="\u0001"', 'a b/c', 'a/b,c/d']) {
    assert.equal(parseContentType(header), null, String(header));
  }
});

test('parseAccept gives every range with its weight, leaving out malformed ones and bad q-values', () => {
  const ranges = parseAccept('application/x-shorn;q=0.9, application/json ; q=0.5,, bad range, */*;q=0.100, a/b;x="a,b";q=1.000, a/c;q=2, a/d;q=0.0001');
  assert.deepEqual(
    ranges.map((r) => ({ type: r.type, params: { ...r.params }, q: r.q })),
    [
      { type: 'application/x-shorn', params: {}, q: 0.9 },
      { type: 'application/json', params: {}, q: 0.5 },
      { type: '*/*', params: {}, q: 0.1 },
      { type: 'a/b', params: { x: 'a,b' }, q: 1 },
    ],
  );
  assert.deepEqual(parseAccept(undefined), []);
});

const OrderV1 = t.object({ id: t.uint32(), item: t.string() });
const OrderV2 = t.object({ id: t.int64(), item: t.string(), at: t.optional(t.date()), note: t.default(t.string(), '') });
const Receipt = t.object({ id: t.int64(), at: t.date(), lines: t.map(t.string(), t.uint16()), samples: t.float32Array() });

const receipt = compile(Receipt);
const value = { id: 2n ** 60n, at: new Date(1718031234567), lines: new Map([['tea', 2]]), samples: new Float32Array([0.5, -1]) };

// A server that answers GET /<what> as told: shorn (in any of the receipt's versions),
// frames, JSON, or an error in the integrations' form.
function startServer() {
  const v1 = compile(OrderV1);
  const v2 = compile(OrderV2);
  const seen = [];
  const server = nodeHttp.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    seen.push({ headers: req.headers, body: Buffer.concat(chunks) });
    const answer = (status, type, body) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    switch (req.url) {
      case '/shorn':
        return answer(200, `${MEDIA_TYPE}; fingerprint="${receipt.fingerprint.toUpperCase()}"`, receipt.encode(value));
      case '/shorn-unnamed':
        return answer(200, MEDIA_TYPE, receipt.encode(value));
      case '/v1':
        return answer(200, `${MEDIA_TYPE}; fingerprint=${v1.fingerprint}`, v1.encode({ id: 7, item: 'tea' }));
      case '/v2':
        return answer(200, `${MEDIA_TYPE}; fingerprint=${v2.fingerprint}`, v2.encode({ id: 8n, item: 'cake', at: new Date(0), note: 'hi' }));
      case '/frames':
        return answer(200, `${FRAMES_MEDIA_TYPE}; fingerprint=${receipt.fingerprint}`, receipt.encodeFrames([value, value]));
      case '/json':
        return answer(200, 'application/json; charset=utf-8', JSON.stringify({ id: '1152921504606846976', at: '2024-06-10T14:53:54.567Z', lines: [['tea', 2]], samples: [0.5, -1] }));
      case '/json-bad':
        return answer(200, 'application/json', JSON.stringify({ id: 1, at: 'yesterday', lines: [], samples: [] }));
      case '/json-broken':
        return answer(200, 'application/json', '{"id": 1,');
      case '/other-schema':
        return answer(200, `${MEDIA_TYPE}; fingerprint=0000000000000000`, Buffer.from([1]));
      case '/html':
        return answer(200, 'text/html', '<p>hi</p>');
      case '/400':
        return answer(400, 'application/json', JSON.stringify({ error: 'truncated input', code: 'ERR_SHORN_TRUNCATED', path: '$.item', offset: 3, frame: 2 }));
      case '/415':
        return answer(415, 'application/json', JSON.stringify({ error: 'this route does not read text/plain', code: 'ERR_SHORN_MEDIA_TYPE', accept: ['application/json'] }));
      case '/502':
        return answer(502, 'text/plain', 'bad gateway');
      default:
        return answer(404, 'application/json', '{}');
    }
  });
  return { server, seen };
}

async function withServer(fn) {
  const { server, seen } = startServer();
  const port = await listen(server);
  try {
    await fn(`http://127.0.0.1:${port}`, seen);
  } finally {
    server.close();
  }
}

test('send gives fetch a body, its Content-Type with the fingerprint and an Accept preferring shorn; frames too', async () => {
  await withServer(async (url, seen) => {
    const v2 = compile(OrderV2);
    const order = { id: 9n, item: 'tea', at: new Date(5), note: '' };
    await fetch(`${url}/echo`, { method: 'POST', ...send(v2, order) });
    await fetch(`${url}/echo`, { method: 'POST', ...send(v2, [order, order], { frames: true }) });
    assert.equal(seen[0].headers['content-type'], `${MEDIA_TYPE}; fingerprint=${v2.fingerprint}`);
    assert.equal(seen[0].headers.accept, ACCEPT);
    assert.equal(ACCEPT, 'application/x-shorn, application/json;q=0.5');
    assert.deepEqual(v2.decode(seen[0].body), order);
    assert.equal(seen[1].headers['content-type'], `${FRAMES_MEDIA_TYPE}; fingerprint=${v2.fingerprint}`);
    assert.deepEqual(v2.decodeFrames(seen[1].body), [order, order]);
  });
});

test('receive reads shorn (fingerprint in any case, quoted), frames and JSON (in the JSON forms: bigint, Date, Map, typed array) into the same values', async () => {
  await withServer(async (url) => {
    for (const path of ['/shorn', '/shorn-unnamed', '/json']) {
      assert.deepEqual(await receive(receipt, await fetch(url + path)), value, path);
      // A descriptor works as well as a codec.
      assert.deepEqual(await receive(Receipt, await fetch(url + path)), value, path);
    }
    assert.deepEqual(await receive(receipt, await fetch(`${url}/frames`)), [value, value]);
  });
});

test('receive reads a node:http IncomingMessage as it reads a fetch Response', async () => {
  await withServer(async (url) => {
    for (const path of ['/shorn', '/json']) {
      const res = await new Promise((resolve, reject) => nodeHttp.get(url + path, resolve).on('error', reject));
      assert.deepEqual(await receive(receipt, res), value, path);
    }
    const res = await new Promise((resolve, reject) => nodeHttp.get(`${url}/400`, resolve).on('error', reject));
    await assert.rejects(receive(receipt, res), { name: 'ShornError', status: 400, code: 'ERR_SHORN_TRUNCATED' });
  });
});

test('receive with versions [V1, V2] reads a body of either as V2; a fresh array each call reuses the readers', async () => {
  await withServer(async (url) => {
    assert.deepEqual(await receive([OrderV1, OrderV2], await fetch(`${url}/v1`)), { id: 7n, item: 'tea', note: '' });
    assert.deepEqual(await receive([OrderV1, OrderV2], await fetch(`${url}/v2`)), { id: 8n, item: 'cake', at: new Date(0), note: 'hi' });
    // Readers (generated code) are made once per set of versions, not once per call.
    const { Codec } = require('..');
    const made = Codec.prototype.reader;
    let readers = 0;
    Codec.prototype.reader = function counted(writer) {
      readers++;
      return made.call(this, writer);
    };
    try {
      for (let k = 0; k < 3; k++) await receive([OrderV1, OrderV2], await fetch(`${url}/v1`));
    } finally {
      Codec.prototype.reader = made;
    }
    assert.equal(readers, 0);
    // A registry of the versions is read the same way, as its last schema.
    const registry = createRegistry([OrderV1, OrderV2]);
    assert.deepEqual(await receive(registry, await fetch(`${url}/v1`)), { id: 7n, item: 'tea', note: '' });
  });
});

test('receive refuses a body of another schema, a media type it does not read, and JSON that breaks the schema or does not parse', async () => {
  await withServer(async (url) => {
    await assert.rejects(receive(receipt, await fetch(`${url}/other-schema`)), (e) => {
      assert.ok(e instanceof ShornError);
      assert.equal(e.code, 'ERR_SHORN_UNKNOWN_SCHEMA');
      assert.equal(e.fingerprint, '0000000000000000');
      return true;
    });
    await assert.rejects(receive(receipt, await fetch(`${url}/v1`)), { code: 'ERR_SHORN_UNKNOWN_SCHEMA' });
    await assert.rejects(receive(receipt, await fetch(`${url}/html`)), { code: 'ERR_SHORN_MEDIA_TYPE', message: /found "text\/html"/ });
    await assert.rejects(receive(receipt, await fetch(`${url}/json-bad`)), { code: 'ERR_SHORN_INVALID', path: '$.at', message: /expected valid Date, found string "yesterday"/ });
    await assert.rejects(receive(receipt, await fetch(`${url}/json-broken`)), { code: 'ERR_SHORN_MALFORMED', message: /^invalid JSON: .*line 1, column 10/ });
  });
});

test('receive turns a non-2xx answer into a ShornError with the status and the server code, path, offset, frame and accept list', async () => {
  await withServer(async (url) => {
    await assert.rejects(receive(receipt, await fetch(`${url}/400`)), (e) => {
      assert.ok(e instanceof ShornError);
      assert.equal(e.status, 400);
      assert.equal(e.code, 'ERR_SHORN_TRUNCATED');
      assert.equal(e.path, '$.item');
      assert.equal(e.offset, 3);
      assert.equal(e.frame, 2);
      assert.equal(e.message, 'HTTP 400: truncated input');
      return true;
    });
    await assert.rejects(receive(receipt, await fetch(`${url}/415`)), { status: 415, code: 'ERR_SHORN_MEDIA_TYPE', accept: ['application/json'] });
    await assert.rejects(receive(receipt, await fetch(`${url}/502`)), { status: 502, code: 'ERR_SHORN_HTTP', message: 'HTTP 502: bad gateway' });
  });
});

test('send and receive refuse what is not a codec or a response, with ERR_SHORN_SCHEMA', async () => {
  await assert.rejects(receive(receipt, { status: 200 }), { code: 'ERR_SHORN_SCHEMA', message: /fetch Response or a Node IncomingMessage/ });
  await assert.rejects(receive(42, new Response('{}', { headers: { 'content-type': 'application/json' } })), { code: 'ERR_SHORN_SCHEMA' });
  await assert.rejects(receive([], new Response('{}')), { code: 'ERR_SHORN_SCHEMA', message: /at least one schema/ });
  assert.throws(() => send(receipt, value, null), { code: 'ERR_SHORN_SCHEMA' });
});

test('shorn/http gives the same functions from import and require', async () => {
  const esm = await import('shorn/http');
  assert.equal(esm.receive, receive);
  assert.equal(esm.default.send, send);
  assert.equal(esm.MEDIA_TYPE, 'application/x-shorn');
  assert.equal(esm.FRAMES_MEDIA_TYPE, 'application/x-shorn-frames');
});

test('lib/http.js requires no Node built-in when it loads (it runs in browsers, Deno and Bun)', () => {
  const source = require('node:fs').readFileSync(require.resolve('shorn/http'), 'utf8');
  const topLevel = source.split('\n').filter((line) => /^(?:const|let|var|import)\b.*require\(/.test(line));
  assert.deepEqual(topLevel, []);
  assert.doesNotMatch(source, /require\('node:/);
  assert.doesNotMatch(source, /\bBuffer\b/);
});

test('examples/fetch-client.js runs: send and receive against a node:http server, shorn and JSON', () => {
  const out = execFileSync(process.execPath, [path.join(__dirname, '..', 'examples', 'fetch-client.js')], { encoding: 'utf8', timeout: 30_000 });
  assert.match(out, /shorn reply: \{ id: 7n, at: 2024-06-10T14:53:54\.567Z, tags: Map\(1\) \{ 'a' => 1 \} \}/);
  assert.match(out, /JSON reply: \{ id: 7n, at: 2024-06-10T14:53:54\.567Z, tags: Map\(1\) \{ 'a' => 1 \} \}/);
  assert.match(out, /refused: 400 ERR_SHORN_TRUNCATED/);
});

test('JSON forms: where values are their own JSON form a JSON value goes through the codec (defaults filled, unknown keys dropped); NaN and refusals take the forms path', () => {
  const { jsonForms } = require('../lib/http');
  const codec = compile(t.object({ x: t.float64(), y: t.float32(), n: t.default(t.string(), 'd'), o: t.nullable(t.uint8()) }));
  const forms = jsonForms(codec);
  assert.deepEqual(forms.parse('{"x":1.5,"y":0.1,"extra":true,"o":null}'), { x: 1.5, y: Math.fround(0.1), n: 'd', o: null });
  assert.deepEqual(forms.parse('{"x":"NaN","y":1,"n":"a","o":2}'), { x: NaN, y: 1, n: 'a', o: 2 });
  assert.equal(forms.stringify({ x: NaN, y: 1, n: 'a', o: null, secret: 1 }), '{"x":"NaN","y":1,"n":"a","o":null}');
  assert.equal(forms.stringify({ x: 2, y: 1, n: 'a', o: 3, secret: 1 }), '{"x":2,"y":1,"n":"a","o":3}');
  assert.throws(() => forms.parse('{"x":1,"y":1,"o":300}'), { code: 'ERR_SHORN_INVALID', path: '$.o' });
  assert.throws(() => forms.stringify({ x: 1, y: 1, o: -1 }), { code: 'ERR_SHORN_INVALID', path: '$.o' });
});
