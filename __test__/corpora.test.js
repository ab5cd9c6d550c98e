'use strict';
// Real-world data (benchmark/data, see its README): whole corpora through schemas written
// for their shapes must round-trip to deep-equal values, with both marshallers giving the
// same bytes, and be smaller than their JSON.

const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { shorn, MODES, compileMode } = require('./helpers');

const { t } = shorn;
const DATA = path.join(__dirname, '..', 'benchmark', 'data');

function load(name) {
  return JSON.parse(fs.readFileSync(path.join(DATA, name), 'utf8'));
}

// `git hash-object`: the SHA-1 of "blob <length>\0" and the bytes.
function gitBlobId(bytes) {
  return crypto.createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

test('the corpora are byte-identical to the source blobs their README names', () => {
  const readme = fs.readFileSync(path.join(DATA, 'README.md'), 'utf8');
  const rows = [...readme.matchAll(/^\| `([\w.-]+\.json)` \| ([\d,]+) \| `([0-9a-f]{40})` \|/gm)];
  assert.deepEqual(
    rows.map(([, file]) => file).sort(),
    fs.readdirSync(DATA).filter((f) => f.endsWith('.json')).sort(),
    'one README row per file',
  );
  for (const [, file, size, blobId] of rows) {
    const bytes = fs.readFileSync(path.join(DATA, file));
    assert.equal(bytes.length, Number(size.replaceAll(',', '')), `${file} size`);
    assert.equal(gitBlobId(bytes), blobId, `${file} blob id`);
  }
});

const Sponsor = t.object({
  '@type': t.string(),
  name: t.string(),
  disambiguatingDescription: t.string(),
  description: t.string(),
  logo: t.string(),
  url: t.string(),
});

const corpora = [
  {
    name: 'gsoc-2018.json (1,264 all-string records, non-ASCII text)',
    file: 'gsoc-2018.json',
    schema: t.array(
      t.object({
        '@context': t.string(),
        '@type': t.string(),
        name: t.string(),
        description: t.string(),
        sponsor: Sponsor,
        author: t.object({ '@type': t.string(), name: t.string() }),
      }),
    ),
    // The file is a map keyed "0".."1263"; as a list the keys are the indexes.
    value: (json) => Object.values(json),
  },
  {
    name: 'mesh.json (flat numeric arrays, uint32 colors above int32)',
    file: 'mesh.json',
    schema: t.object({
      batches: t.array(
        t.object({
          indexRange: t.array(t.uint32()),
          vertexRange: t.array(t.uint32()),
          usedBones: t.array(t.uint32()),
        }),
      ),
      morphTargets: t.object({}),
      positions: t.array(t.float64()),
      tex0: t.array(t.float64()),
      colors: t.array(t.uint32()),
      influences: t.array(t.array(t.float64())),
      normals: t.array(t.float64()),
      indices: t.array(t.uint16()),
    }),
    value: (json) => json,
  },
  {
    name: 'canada.json (111,126 float64 coordinates in nested arrays)',
    file: 'canada.json',
    schema: t.object({
      type: t.enum(['FeatureCollection']),
      features: t.array(
        t.object({
          type: t.enum(['Feature']),
          properties: t.object({ name: t.string() }),
          geometry: t.object({
            type: t.enum(['Polygon']),
            coordinates: t.array(t.array(t.array(t.float64()))),
          }),
        }),
      ),
    }),
    value: (json) => json,
  },
];

describe('real-world corpora', () => {
  for (const corpus of corpora) {
    test(`${corpus.name} round-trips through both marshallers with identical bytes`, () => {
      const value = corpus.value(load(corpus.file));
      const encoded = MODES.map((mode) => compileMode(corpus.schema, mode).encode(value));
      assert.deepEqual(encoded[0], encoded[1], 'codegen and generic bytes differ');
      for (const mode of MODES) {
        assert.deepStrictEqual(compileMode(corpus.schema, mode).decode(encoded[0]), value);
      }
      const jsonBytes = Buffer.byteLength(JSON.stringify(value));
      assert.ok(encoded[0].length < jsonBytes, `${encoded[0].length} bytes, JSON ${jsonBytes}`);
    });
  }
});
