#!/usr/bin/env node
'use strict';
// Writes the seed corpora of the fuzz targets (docs/FUZZING.md) into fuzz/corpus/<target>/,
// from the golden vectors (tests/golden.json) and the fixed schemas' sample messages
// (fuzz/schemas.json). The corpora are not committed; CI and `fuzz-ci` regenerate them.
//
//   node fuzz/seed.js [--out DIR]      (default: fuzz/corpus)
//
// decode: [schema index] + message, for every golden vector and every sample message,
//   plus each golden "rejects" vector whose schema is one of the fixed schemas;
// compile: every fixed schema's descriptor text, plus a few broken ones;
// roundtrip: [schema index] + bytes that steer the value generator (fuzz/src/lib.rs): a
//   few patterns per fixed schema, and golden messages as generator input.
// frames: [schema index, how batches run] + the sample messages framed one after another
//   (with and without checksums, a small tape, a small text budget, a small maxFrameBytes).

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const root = path.join(__dirname, '..');
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : path.join(__dirname, 'corpus');

const golden = JSON.parse(fs.readFileSync(path.join(root, 'tests', 'golden.json'), 'utf8'));
const { schemas } = JSON.parse(fs.readFileSync(path.join(__dirname, 'schemas.json'), 'utf8'));

// Every descriptor type is in the fixed set (src/types/mod.rs REGISTRY has 37).
const TYPES = [
  'bool', 'uint8', 'uint16', 'uint32', 'int8', 'int16', 'int32', 'int', 'int64', 'uint64',
  'float32', 'float64', 'date', 'string', 'bytes', 'enum', 'literal', 'null', 'array', 'tuple',
  'object', 'optional', 'nullable', 'record', 'map', 'union', 'discriminatedUnion', 'recursive',
  'ref', 'json', 'float64Array', 'float32Array', 'int32Array', 'uint32Array', 'int16Array',
  'uint16Array', 'int8Array',
];
const seen = new Set();
const walk = (d) => {
  if (d && typeof d === 'object') {
    if (typeof d.type === 'string') seen.add(d.type);
    for (const v of Object.values(d)) walk(v);
  }
};
schemas.forEach((s) => walk(s.schema));
const missing = TYPES.filter((type) => !seen.has(type));
if (missing.length) {
  console.error(`fuzz/schemas.json lacks types: ${missing.join(', ')}`);
  process.exit(1);
}
if (schemas.length > 255) throw new Error('the decode target picks a schema with one byte');

const index = new Map(schemas.map((s, i) => [JSON.stringify(s.schema) + JSON.stringify(s.limits || null), i]));
const indexOf = (schema) => index.get(JSON.stringify(schema) + 'null');

const counts = {};
function write(target, bytes) {
  const dir = path.join(out, target);
  fs.mkdirSync(dir, { recursive: true });
  const name = crypto.createHash('sha1').update(bytes).digest('hex');
  fs.writeFileSync(path.join(dir, name), bytes);
  counts[target] = (counts[target] || 0) + 1;
}
const withIndex = (i, hex) => Buffer.concat([Buffer.from([i]), Buffer.from(hex, 'hex')]);

for (const [i, s] of schemas.entries()) {
  for (const hex of s.seeds) write('decode', withIndex(i, hex));
  write('compile', Buffer.from(JSON.stringify(s.schema)));
  write('roundtrip', Buffer.from([i]));
  write('roundtrip', Buffer.concat([Buffer.from([i]), Buffer.alloc(16, 1)]));
  write('roundtrip', Buffer.concat([Buffer.from([i]), Buffer.from('0102030405060708090a0b0c0d0e0f10ff7f80', 'hex')]));
  for (const hex of s.seeds.slice(0, 2)) write('roundtrip', withIndex(i, hex));
}
for (const r of golden.rejects) {
  const i = indexOf(r.schema);
  if (i !== undefined && !r.limits) write('decode', withIndex(i, r.hex));
}
for (const text of ['', '{}', '{"type":"strng"}', '{"type":"enum","values":["a","a"]}', '[1]', '{"type":"optional","of":{"type":"bool"}}']) {
  write('compile', Buffer.from(text));
}
// Random schemas: the structured half of the compile and roundtrip targets starts from
// bytes past the fixed schemas' indexes.
for (let k = 0; k < 32; k++) {
  const bytes = crypto.createHash('sha256').update(`seed ${k}`).digest();
  bytes[0] = 0xff;
  write('roundtrip', bytes);
  write('compile', bytes.subarray(1));
}

// The frames target: each fixed schema's sample messages as one stream of frames, read
// with the default batch, with checksums, and with checksums and one of a maxFrameBytes of
// 6, a tape of 3 slots or a text budget of 3 units (`how`, fuzz_targets/frames.rs).
const varint = (n) => {
  const out = [];
  for (; n >= 0x80; n >>>= 7) out.push((n & 0x7f) | 0x80);
  out.push(n);
  return Buffer.from(out);
};
const crc32c = require(path.join(root, 'lib', 'crc32c')).crc32c;
const frameOf = (message, checksum) => {
  const parts = [varint(message.length), message];
  if (checksum) {
    const c = Buffer.alloc(4);
    c.writeUInt32LE(crc32c(message, 0, message.length) >>> 0);
    parts.push(c);
  }
  return Buffer.concat(parts);
};
for (const [i, s] of schemas.entries()) {
  const messages = s.seeds.map((hex) => Buffer.from(hex, 'hex'));
  for (const how of [0x00, 0x01, 0x23, 0x25, 0x29]) {
    write('frames', Buffer.concat([Buffer.from([i, how]), ...messages.map((m) => frameOf(m, (how & 1) !== 0))]));
  }
}

// The text target: a cut byte, then text of every char length, short and past the 64
// bytes from which it is validated first and transcoded 12 bytes a step.
const texts = ['Zoë Łukasz 李小龍 🚀 Ñuño', 'Программистка и поэтесса — 数学者、詩人の娘。Αναλυτική μηχανή ✓ Ünïcødé ßüß 🚀🌍', 'plain ASCII, then é and ÿ'];
for (const s of texts) {
  const bytes = Buffer.from(s);
  write('text', Buffer.concat([Buffer.from([bytes.length]), bytes]));
  write('text', Buffer.concat([Buffer.from([3]), bytes, bytes, bytes]));
}
console.log(`fuzz seeds in ${path.relative(process.cwd(), out) || '.'}: ${Object.entries(counts).map(([t, n]) => `${t} ${n}`).join(', ')}`);
