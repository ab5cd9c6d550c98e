'use strict';
// Compression and shorn (issue 42, item 2): bytes and time of JSON and shorn, each plain,
// gzipped and brotli'd, on the benchmark fixtures and the six corpora of benchmark/data; and
// the same per message, where each small message is compressed alone (one HTTP body per
// message) and where a stream of them is compressed as one body.
//
//   taskset -c 1 node benchmark/compression.js [--rounds 5] [--sample-ms 40] [--out FILE]
//
// Levels: gzip level 6 (zlib's default, what @fastify/compress and compression() use),
// brotli quality 4 (a dynamic-content setting: @fastify/compress's default is 4, nginx's
// brotli module defaults to 6; quality 11, the library default, is for static files).
// Times are per operation, the median of `--rounds` rounds (each the mean of as many calls as
// fit in `--sample-ms`, after a warm-up), the order of the variants alternating per round.
// Every decoded value is checked against the input (isDeepStrictEqual) before timing.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { isDeepStrictEqual } = require('node:util');
const { t, compile } = require('..');
const { loadFixture } = require('./fixtures');
const { median } = require('./stats');

const GZIP_LEVEL = 6;
const BROTLI_QUALITY = 4;

const args = process.argv.slice(2);
function option(name, fallback) {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
}
const ROUNDS = Number(option('--rounds', 5));
const SAMPLE_MS = Number(option('--sample-ms', 40));
const OUT = option('--out', null);

const gzipOptions = { level: GZIP_LEVEL };
const brOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } };
const CODINGS = {
  none: { compress: (b) => b, decompress: (b) => b },
  gzip: { compress: (b) => zlib.gzipSync(b, gzipOptions), decompress: (b) => zlib.gunzipSync(b) },
  br: { compress: (b) => zlib.brotliCompressSync(b, brOptions), decompress: (b) => zlib.brotliDecompressSync(b) },
};

// The fixtures of BENCHMARKS.md (events100k left out to keep the run to a couple of
// minutes: batch100 and the corpora cover big bodies) and the six corpora.
const FIXTURES = ['person', 'unicodePerson', 'nestedEvent', 'batch100', 'twitter', 'citm_catalog', 'canada', 'github_events', 'mesh', 'gsoc-2018'];

function codecFor(fixture) {
  return compile(fixture.schemas.shorn(t));
}

// Milliseconds per call of `fn`, the mean over as many calls as fit in `ms`.
function timeOnce(fn, ms) {
  let calls = 0;
  const start = process.hrtime.bigint();
  const until = start + BigInt(Math.round(ms * 1e6));
  let now;
  do {
    fn();
    calls++;
    now = process.hrtime.bigint();
  } while (now < until);
  return Number(now - start) / 1e6 / calls;
}

// Median ms per call of each of `fns` (by name), rounds alternating their order.
function timeAll(fns) {
  const names = Object.keys(fns);
  for (const name of names) timeOnce(fns[name], SAMPLE_MS / 2); // warm-up
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) samples[name].push(timeOnce(fns[name], SAMPLE_MS));
  }
  return Object.fromEntries(names.map((n) => [n, median(samples[n])]));
}

const jsonBytes = (value) => Buffer.from(JSON.stringify(value));
const jsonValue = (bytes) => JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString());

function checkRoundTrip(what, value, back) {
  if (!isDeepStrictEqual(back, value)) throw new Error(`${what}: the decoded value differs from the input`);
}

// ---- whole bodies ----

function wholeBody(name) {
  const fixture = loadFixture(name);
  const value = fixture.value;
  const codec = codecFor(fixture);
  const row = { name, bytes: {}, encode: {}, decode: {} };
  const forms = { json: { encode: jsonBytes, decode: jsonValue }, shorn: { encode: (v) => codec.encode(v), decode: (b) => codec.decode(b) } };
  const bodies = {};
  for (const [form, f] of Object.entries(forms)) {
    for (const [coding, c] of Object.entries(CODINGS)) {
      const key = `${form}+${coding}`;
      const body = c.compress(f.encode(value));
      checkRoundTrip(`${name} ${key}`, value, f.decode(c.decompress(body)));
      bodies[key] = body;
      row.bytes[key] = body.length;
    }
  }
  const encoders = {};
  const decoders = {};
  for (const [form, f] of Object.entries(forms)) {
    for (const [coding, c] of Object.entries(CODINGS)) {
      const key = `${form}+${coding}`;
      const body = bodies[key];
      encoders[key] = () => c.compress(f.encode(value));
      decoders[key] = () => f.decode(c.decompress(body));
    }
  }
  row.encode = timeAll(encoders);
  row.decode = timeAll(decoders);
  return row;
}

// ---- per message ----

// Small messages: each alone (one request or reply per message, compressed by itself), and
// the whole stream compressed as one body (NDJSON lines; shorn frames).
function perMessage(label, values, codec) {
  const sum = (bodies) => bodies.reduce((n, b) => n + b.length, 0);
  const json = values.map(jsonBytes);
  const shorn = values.map((v) => codec.encode(v));
  values.forEach((v, k) => {
    checkRoundTrip(`${label}[${k}] json`, v, jsonValue(zlib.gunzipSync(zlib.gzipSync(json[k], gzipOptions))));
    checkRoundTrip(`${label}[${k}] shorn`, v, codec.decode(zlib.gunzipSync(zlib.gzipSync(shorn[k], gzipOptions))));
  });
  const ndjson = Buffer.from(values.map((v) => `${JSON.stringify(v)}\n`).join(''));
  const frames = codec.encodeFrames(values);
  checkRoundTrip(`${label} frames`, values, codec.decodeFrames(zlib.gunzipSync(zlib.gzipSync(frames, gzipOptions))));
  const n = values.length;
  const row = {
    label,
    count: n,
    json: sum(json) / n,
    jsonGzipEach: sum(json.map(CODINGS.gzip.compress)) / n,
    jsonBrEach: sum(json.map(CODINGS.br.compress)) / n,
    shorn: sum(shorn) / n,
    shornGzipEach: sum(shorn.map(CODINGS.gzip.compress)) / n,
    shornBrEach: sum(shorn.map(CODINGS.br.compress)) / n,
    ndjsonGzip: CODINGS.gzip.compress(ndjson).length / n,
    framesGzip: CODINGS.gzip.compress(frames).length / n,
  };
  // The time of one small message: encode (+ gzip) against JSON.stringify (+ gzip).
  const one = values[0];
  row.time = timeAll({
    json: () => jsonBytes(one),
    'json+gzip': () => CODINGS.gzip.compress(jsonBytes(one)),
    shorn: () => codec.encode(one),
    'shorn+gzip': () => CODINGS.gzip.compress(codec.encode(one)),
  });
  return row;
}

function messageSets() {
  const sets = [];
  for (const name of ['person', 'unicodePerson', 'nestedEvent']) {
    const f = loadFixture(name);
    sets.push({ label: name, values: [f.value], codec: codecFor(f) });
  }
  const batch = loadFixture('batch100');
  sets.push({ label: 'batch100 events', values: batch.value, codec: compile(codecFor(batch).schema.items) });
  const github = loadFixture('github_events');
  sets.push({ label: 'github_events events', values: github.value, codec: compile(codecFor(github).schema.items) });
  const twitter = loadFixture('twitter');
  const statuses = codecFor(twitter).schema.fields.find((f) => f.name === 'statuses').schema.items;
  sets.push({ label: 'twitter statuses', values: twitter.value.statuses, codec: compile(statuses) });
  const gsoc = loadFixture('gsoc-2018');
  sets.push({ label: 'gsoc-2018 projects', values: Object.values(gsoc.value), codec: compile(codecFor(gsoc).schema.values) });
  return sets;
}

// ---- output ----

const int = (n) => Math.round(n).toLocaleString('en-US');
const pct = (n, of) => `${Math.round((100 * n) / of)}%`;
const us = (ms) => (ms >= 10 ? `${ms.toFixed(1)} ms` : ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(ms >= 0.01 ? 0 : 1)} µs`);

function bytesTable(rows) {
  const lines = [
    '| fixture | JSON | JSON+gzip | JSON+br | shorn | shorn+gzip | shorn+br | shorn+gzip / JSON+gzip |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const r of rows) {
    const b = r.bytes;
    const j = b['json+none'];
    lines.push(
      `| ${r.name} | ${int(j)} | ${int(b['json+gzip'])} (${pct(b['json+gzip'], j)}) | ${int(b['json+br'])} (${pct(b['json+br'], j)}) | ${int(b['shorn+none'])} (${pct(b['shorn+none'], j)}) | ${int(b['shorn+gzip'])} (${pct(b['shorn+gzip'], j)}) | ${int(b['shorn+br'])} (${pct(b['shorn+br'], j)}) | ${pct(b['shorn+gzip'], b['json+gzip'])} |`,
    );
  }
  return lines.join('\n');
}

function timeTable(rows, which) {
  const verb = which === 'encode' ? 'encode' : 'decode';
  const lines = [
    `| fixture | JSON | JSON+gzip | JSON+br | shorn | shorn+gzip | shorn+br | JSON+gzip ÷ shorn+gzip |`,
    '|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const r of rows) {
    const m = r[verb];
    lines.push(
      `| ${r.name} | ${us(m['json+none'])} | ${us(m['json+gzip'])} | ${us(m['json+br'])} | ${us(m['shorn+none'])} | ${us(m['shorn+gzip'])} | ${us(m['shorn+br'])} | ${(m['json+gzip'] / m['shorn+gzip']).toFixed(2)} |`,
    );
  }
  return lines.join('\n');
}

function messageTable(rows) {
  const lines = [
    '| messages | n | JSON | JSON+gzip alone | JSON+br alone | shorn | shorn+gzip alone | shorn+br alone | NDJSON gzipped whole | frames gzipped whole |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const r of rows) {
    const j = r.json;
    const cell = (x) => `${int(x)} (${pct(x, j)})`;
    const whole = (x) => (r.count === 1 ? 'n/a' : cell(x));
    lines.push(`| ${r.label} | ${r.count} | ${int(j)} | ${cell(r.jsonGzipEach)} | ${cell(r.jsonBrEach)} | ${cell(r.shorn)} | ${cell(r.shornGzipEach)} | ${cell(r.shornBrEach)} | ${whole(r.ndjsonGzip)} | ${whole(r.framesGzip)} |`);
  }
  return lines.join('\n');
}

function messageTimeTable(rows) {
  const lines = ['| one message of | JSON | JSON+gzip | shorn | shorn+gzip |', '|---|--:|--:|--:|--:|'];
  for (const r of rows) lines.push(`| ${r.label} | ${us(r.time.json)} | ${us(r.time['json+gzip'])} | ${us(r.time.shorn)} | ${us(r.time['shorn+gzip'])} |`);
  return lines.join('\n');
}

function main() {
  const started = Date.now();
  const rows = [];
  for (const name of FIXTURES) {
    process.stderr.write(`${name}... `);
    rows.push(wholeBody(name));
  }
  process.stderr.write('per message... ');
  const messages = messageSets().map((s) => perMessage(s.label, s.values, s.codec));
  process.stderr.write(`done in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);

  const cpu = os.cpus()[0];
  const command = ['node', path.relative(process.cwd(), __filename), ...args].join(' ');
  const body = [
    `Node ${process.version}, ${cpu ? cpu.model : 'unknown CPU'}, ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} at the end; ${ROUNDS} rounds of ${SAMPLE_MS} ms per cell, medians.`,
    `gzip level ${GZIP_LEVEL} (zlib's default), brotli quality ${BROTLI_QUALITY} (a dynamic-content quality). Every decoded value was checked equal to the input.`,
    '',
    '### Bytes of one body (whole document as one message; % of JSON)',
    '',
    bytesTable(rows),
    '',
    '### Encode + compress, per body (JSON: `Buffer.from(JSON.stringify(v))`, then the compressor)',
    '',
    timeTable(rows, 'encode'),
    '',
    '### Decompress + decode, per body (JSON: decompress, then `JSON.parse`)',
    '',
    timeTable(rows, 'decode'),
    '',
    '### Small messages: bytes per message (mean), each compressed alone vs the stream compressed whole (% of JSON)',
    '',
    messageTable(messages),
    '',
    '### Small messages: time to encode (+ gzip) one message',
    '',
    messageTimeTable(messages),
    '',
  ].join('\n');
  process.stdout.write(`${body}\n`);
  if (OUT !== null) {
    const head = `# Compression: JSON and shorn, plain, gzip and brotli (${new Date().toISOString().slice(0, 10)})\n\nCommand: \`taskset -c 1 ${command}\`\n\n`;
    fs.writeFileSync(OUT, head + body);
    process.stderr.write(`wrote ${OUT}\n`);
  }
}

main();
