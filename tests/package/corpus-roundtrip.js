'use strict';
// Round-trips every corpus of benchmark/data through the installed shorn of the app in the
// current folder: each corpus through its schema (benchmark/corpora.js) and through t.json(),
// with both marshallers; checks the decoded value equals a fresh JSON.parse of the file and
// encodes back to the same bytes. Prints, as one JSON line, the length and SHA-256 of every
// encoding and the .node file the loader opened, so that tests/package/platforms.test.js can
// compare the bytes written on arm64 (under qemu) with those written on x64.
//
//   cd <app> && node <repo>/tests/package/corpus-roundtrip.js

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const path = require('node:path');
const { CORPORA, loadCorpus } = require('../../benchmark/corpora');

// The app's shorn, by its path: this file is inside the repository, whose package is named
// shorn too, and require('shorn') from here would resolve to the repository itself.
const shorn = require(path.join(process.cwd(), 'node_modules', 'shorn'));
const { t, compile } = shorn;

const encodings = {};
function roundTrip(label, schema, name) {
  const [generated, generic] = [true, false].map((codegen) => compile(schema, { codegen }));
  const value = loadCorpus(name);
  const expected = loadCorpus(name);
  const bytes = generated.encode(value);
  assert.ok(generic.encode(value).equals(bytes), `${label}: codegen and generic bytes differ`);
  for (const codec of [generated, generic]) {
    const decoded = codec.decode(bytes);
    assert.deepStrictEqual(decoded, expected, label);
    assert.ok(codec.encode(decoded).equals(bytes), `${label}: the decoded value encodes to other bytes`);
  }
  encodings[label] = { bytes: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
}

for (const { name, shorn: schema } of CORPORA) {
  roundTrip(`${name} (schema)`, schema(t), name);
  roundTrip(`${name} (t.json())`, t.json(), name);
}

const addon = Object.keys(require.cache).filter((f) => f.endsWith('.node'));
console.log(JSON.stringify({ arch: process.arch, node: process.version, addon, encodings }));
