'use strict';
// shorn/fastify against Fastify's own JSON (issue 40, "Floor"): the same echo route on the
// nestedEvent and batch100 bodies, once served by the plugin (a shorn body in, a shorn
// reply out) and once as JSON with Fastify's schema-based validation (Ajv, schema.body)
// and serializer (fast-json-stringify, schema.response[200]). autocannon drives each over
// loopback; the server runs in a child process, each pinned to its own CPU when taskset
// is there, and the routes alternate within each round. Before timing, one request of
// each route is decoded and compared with the value sent.
//
//   node benchmark/http-frameworks.js [--rounds 3] [--duration 5] [--warmup 2] [--connections 10] [--no-pin] [--out FILE]
//
// Reported per fixture and route: requests/s and p99 latency under autocannon's load, p50
// and p99 latency of requests sent one at a time, and the bytes of the request and reply
// bodies; medians over the rounds. Targets: requests/s >= 1.3x JSON's
// on batch100, body bytes <= 1/3 of JSON's.

const path = require('node:path');
const fs = require('node:fs');
const assert = require('node:assert/strict');
const { spawn, execFileSync } = require('node:child_process');
const { loadFixture } = require('./fixtures');

const FIXTURES = ['nestedEvent', 'batch100'];
const ROUTES = ['shorn', 'json', 'pluginJson'];
const LABELS = {
  shorn: 'shorn/fastify, shorn client (shorn both ways)',
  json: 'Fastify JSON route (Ajv + fast-json-stringify)',
  pluginJson: 'shorn/fastify, JSON client (JSON both ways)',
};
// Requests timed one at a time on one keep-alive connection, per route and round.
const LATENCY_REQUESTS = 2000;
const KINDS = ['click', 'view', 'purchase', 'signup', 'logout'];

// The JSON Schema of the event, for Fastify's Ajv and fast-json-stringify: the same shape
// and ranges as shorn's schema (benchmark/fixtures.js, shornEvent).
const uint = (max) => ({ type: 'integer', minimum: 0, maximum: max });
const EVENT_SCHEMA = {
  type: 'object',
  required: ['id', 'ts', 'kind', 'user', 'geo', 'payload'],
  properties: {
    id: uint(4294967295),
    ts: { type: 'number' },
    kind: { type: 'string', enum: KINDS },
    user: {
      type: 'object',
      required: ['id', 'name', 'tags'],
      properties: { id: uint(4294967295), name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    },
    geo: { type: 'object', required: ['lat', 'lon'], properties: { lat: { type: 'number' }, lon: { type: 'number' } } },
    payload: {
      type: 'object',
      required: ['count', 'ratio', 'ok'],
      properties: { count: uint(65535), ratio: { type: 'number' }, ok: { type: 'boolean' } },
    },
  },
};
const JSON_SCHEMAS = { nestedEvent: EVENT_SCHEMA, batch100: { type: 'array', items: EVENT_SCHEMA } };

function argValue(args, name, fallback) {
  const k = args.indexOf(name);
  return k === -1 ? fallback : args[k + 1];
}

// ---- the server child ----

async function serve() {
  const Fastify = require('fastify');
  const { t, compile } = require('..');
  const shornPlugin = require('../lib/fastify');
  const app = Fastify({ logger: false });
  await app.register(shornPlugin);
  for (const name of FIXTURES) {
    const codec = compile(loadFixture(name).schemas.shorn(t));
    app.post(`/shorn/${name}`, { config: { shorn: { body: codec, response: codec } } }, async (request) => request.body);
    app.post(`/json/${name}`, { schema: { body: JSON_SCHEMAS[name], response: { 200: JSON_SCHEMAS[name] } } }, async (request) => request.body);
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${app.server.address().port}\n`);
}

// ---- the driver ----

function startServer(pin) {
  const args = [__filename, '--serve'];
  const child = pin ? spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] }) : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ child, port: Number(out.trim()) });
    });
    child.on('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

// One request of each route, checked: the reply decodes (or parses) to the value sent.
async function requests(url) {
  const { t, compile } = require('..');
  const out = {};
  for (const name of FIXTURES) {
    const fixture = loadFixture(name);
    const codec = compile(fixture.schemas.shorn(t));
    const value = fixture.value;
    const shornBody = Buffer.from(codec.encode(value));
    const jsonBody = Buffer.from(JSON.stringify(value));
    const shornHeaders = { 'content-type': `application/x-shorn; fingerprint=${codec.fingerprint}`, accept: 'application/x-shorn' };
    const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json' };
    const shornReply = await fetch(`${url}/shorn/${name}`, { method: 'POST', headers: shornHeaders, body: shornBody });
    const shornBytes = new Uint8Array(await shornReply.arrayBuffer());
    assert.equal(shornReply.headers.get('content-type'), shornHeaders['content-type']);
    assert.deepEqual(codec.decode(shornBytes), value);
    const jsonReply = await fetch(`${url}/json/${name}`, { method: 'POST', headers: jsonHeaders, body: jsonBody });
    const jsonText = await jsonReply.text();
    assert.deepEqual(JSON.parse(jsonText), JSON.parse(JSON.stringify(value)));
    const pluginReply = await fetch(`${url}/shorn/${name}`, { method: 'POST', headers: jsonHeaders, body: jsonBody });
    const pluginText = await pluginReply.text();
    assert.deepEqual(JSON.parse(pluginText), JSON.parse(JSON.stringify(value)));
    out[name] = {
      shorn: { path: `/shorn/${name}`, headers: shornHeaders, body: shornBody, replyBytes: shornBytes.length },
      json: { path: `/json/${name}`, headers: jsonHeaders, body: jsonBody, replyBytes: Buffer.byteLength(jsonText) },
      // A JSON client on the plugin's route: JSON forms and shorn's check both ways.
      pluginJson: { path: `/shorn/${name}`, headers: jsonHeaders, body: jsonBody, replyBytes: Buffer.byteLength(pluginText) },
    };
  }
  return out;
}

// The latency of one request at a time, in microseconds: autocannon records whole
// milliseconds, which says nothing about requests that take a tenth of one.
function latencies(url, request, count) {
  const http = require('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(url + request.path);
  const one = () =>
    new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = http.request(target, { method: 'POST', headers: { ...request.headers, 'content-length': request.body.length }, agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1000) : reject(new Error(`${request.path}: ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(request.body);
    });
  return (async () => {
    const times = [];
    for (let k = 0; k < count; k++) times.push(await one());
    agent.destroy();
    times.sort((a, b) => a - b);
    return { p50us: times[Math.floor(count * 0.5)], p99us: times[Math.floor(count * 0.99)] };
  })();
}

function cannon(url, request, { duration, connections }) {
  const autocannon = require('autocannon');
  return new Promise((resolve, reject) => {
    autocannon({ url: url + request.path, method: 'POST', headers: request.headers, body: request.body, duration, connections }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${request.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`));
      resolve({ rps: result.requests.average, p99: result.latency.p99 });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function hasTaskset() {
  try {
    execFileSync('taskset', ['-c', '1', 'true']);
    return true;
  } catch {
    return false;
  }
}

async function drive(args) {
  const rounds = Number(argValue(args, '--rounds', 3));
  const duration = Number(argValue(args, '--duration', 5));
  const connections = Number(argValue(args, '--connections', 10));
  const warmup = Number(argValue(args, '--warmup', 2));
  const outFile = argValue(args, '--out', null);
  const pin = !args.includes('--no-pin') && hasTaskset();
  // The driver on CPU 1, the server on CPU 0.
  if (pin) execFileSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  const { child, port } = await startServer(pin);
  const url = `http://127.0.0.1:${port}`;
  try {
    const reqs = await requests(url);
    // A warm-up of each route first, so that no round times V8's first compiles.
    for (const name of FIXTURES) {
      for (const route of ROUTES) await cannon(url, reqs[name][route], { duration: warmup, connections });
    }
    const runs = {};
    for (let round = 0; round < rounds; round++) {
      for (const name of FIXTURES) {
        // Alternate which route goes first, so a slow patch of the machine does not always
        // land on the same one.
        const order = round % 2 === 0 ? ROUTES : [...ROUTES].reverse();
        for (const route of order) {
          const key = `${name} ${route}`;
          process.stderr.write(`round ${round + 1}/${rounds}: ${key}\n`);
          const loaded = await cannon(url, reqs[name][route], { duration, connections });
          const alone = await latencies(url, reqs[name][route], LATENCY_REQUESTS);
          (runs[key] ||= []).push({ ...loaded, ...alone });
        }
      }
    }
    const lines = report(reqs, runs, { rounds, duration, connections, pin });
    process.stdout.write(lines);
    if (outFile !== null) fs.writeFileSync(outFile, lines);
  } finally {
    child.kill();
  }
}

function report(reqs, runs, { rounds, duration, connections, pin }) {
  const cpu = require('node:os').cpus()[0].model;
  const out = [];
  out.push(`Fastify ${require('fastify/package.json').version}, autocannon ${require('autocannon/package.json').version}, Node ${process.version}, ${cpu}; ` +
    `${rounds} rounds of ${duration} s per route, ${connections} connections, loopback${pin ? ', server and driver pinned to CPUs 0 and 1' : ''}; medians over the rounds. ` +
    `Each route echoes its body. requests/s and "p99 under load" (whole ms, as autocannon records them) from autocannon; "alone": ${LATENCY_REQUESTS} requests one at a time on one keep-alive connection, timed by the driver.`, '');
  out.push('| fixture | route | requests/s | p99 ms under load | p50 µs alone | p99 µs alone | request body bytes | reply body bytes |');
  out.push('|---|---|--:|--:|--:|--:|--:|--:|');
  const ratios = [];
  for (const name of FIXTURES) {
    const cells = {};
    for (const route of ROUTES) {
      const r = runs[`${name} ${route}`];
      const rps = median(r.map((x) => x.rps));
      cells[route] = { rps, request: reqs[name][route].body.length, reply: reqs[name][route].replyBytes };
      out.push(`| ${name} | ${LABELS[route]} | ${Math.round(rps)} | ${median(r.map((x) => x.p99))} | ${Math.round(median(r.map((x) => x.p50us)))} | ${Math.round(median(r.map((x) => x.p99us)))} | ${cells[route].request} | ${cells[route].reply} |`);
    }
    ratios.push(`${name}: requests/s ${(cells.shorn.rps / cells.json.rps).toFixed(2)}x JSON's (rounds: ${runs[`${name} shorn`].map((x, k) => (x.rps / runs[`${name} json`][k].rps).toFixed(2)).join(', ')}); ` +
      `body bytes ${(cells.shorn.request / cells.json.request).toFixed(3)} of JSON's; a JSON client on the plugin's route ${(cells.pluginJson.rps / cells.json.rps).toFixed(2)}x`);
  }
  out.push('', ...ratios.map((r) => `- ${r}`), '');
  return out.join('\n');
}

const args = process.argv.slice(2);
if (args.includes('--serve')) {
  serve().catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  drive(args).catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}
