'use strict';
// Real-world data (benchmark/data, see its README): each whole corpus, exactly as JSON.parse
// gives it, through the schema benchmark/corpora.js writes for it (the one the benchmark
// times) must round-trip to a deep-equal value, with both marshallers giving the same bytes,
// the decoded value encoding back to them, and fewer bytes than its JSON.

const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { shorn, MODES, compileMode } = require('./helpers');
const { CORPORA, corpus, loadCorpus, meshTypedShorn, meshToTyped } = require('../benchmark/corpora');

const { t } = shorn;
const DATA = path.join(__dirname, '..', 'benchmark', 'data');

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

describe('real-world corpora through the schemas of benchmark/corpora.js', () => {
  for (const { name, shorn: schema } of CORPORA) {
    test(`${name} round-trips exactly through both marshallers, with one encoding, smaller than JSON`, (context) => {
      const value = loadCorpus(name);
      // Parsed apart from `value`, so an encode that changed its input could not pass.
      const expected = loadCorpus(name);
      const [generated, generic] = MODES.map((mode) => compileMode(schema(t), mode));
      const bytes = generated.encode(value);
      assert.ok(generic.encode(value).equals(bytes), 'codegen and generic bytes differ');
      for (const codec of [generated, generic]) {
        const decoded = codec.decode(bytes);
        assert.deepStrictEqual(decoded, expected);
        assert.ok(codec.encode(decoded).equals(bytes), 'the decoded value encodes to other bytes');
      }
      assert.deepStrictEqual(value, expected, 'encode changed its input');
      const jsonBytes = Buffer.byteLength(JSON.stringify(expected));
      assert.ok(bytes.length < jsonBytes, `${bytes.length} bytes, JSON ${jsonBytes}`);
      context.diagnostic(`${name}: ${bytes.length} bytes, compact JSON ${jsonBytes}`);
    });
  }

  // No schema: every corpus as any JSON, key order included (JSON.stringify compares it).
  test('every corpus round-trips exactly through t.json(), both marshallers, one encoding', () => {
    const [generated, generic] = MODES.map((mode) => compileMode(t.json(), mode));
    for (const { name } of CORPORA) {
      const value = loadCorpus(name);
      const bytes = generated.encode(value);
      assert.ok(generic.encode(value).equals(bytes), `${name}: codegen and generic bytes differ`);
      for (const codec of [generated, generic]) {
        const decoded = codec.decode(bytes);
        assert.deepStrictEqual(decoded, value, name);
        assert.equal(JSON.stringify(decoded), JSON.stringify(value), `${name}: key order`);
      }
    }
  });

  test('mesh as Float64Array, Uint32Array and Uint16Array round-trips, in no more bytes than plain arrays', () => {
    const typed = meshToTyped(loadCorpus('mesh'));
    const expected = meshToTyped(loadCorpus('mesh'));
    const plainBytes = shorn.compile(corpus('mesh').shorn(t)).encode(loadCorpus('mesh'));
    const [generated, generic] = MODES.map((mode) => compileMode(meshTypedShorn(t), mode));
    const bytes = generated.encode(typed);
    assert.ok(generic.encode(typed).equals(bytes), 'codegen and generic bytes differ');
    for (const codec of [generated, generic]) {
      const decoded = codec.decode(bytes);
      assert.deepStrictEqual(decoded, expected);
      assert.ok(decoded.positions instanceof Float64Array && decoded.indices instanceof Uint16Array);
    }
    assert.ok(bytes.length <= plainBytes.length, `typed ${bytes.length} bytes, plain ${plainBytes.length}`);
  });
});

// benchmark/varied.js decodes several distinct gsoc-2018 documents in turn: each variant
// must be valid for the schema, round-trip, and share no string with another.
test('gsoc-2018 variants (benchmark --variants) differ in every string and round-trip', () => {
  const { vary, shorn: schema } = corpus('gsoc-2018');
  const doc = loadCorpus('gsoc-2018');
  const codec = shorn.compile(schema(t));
  const strings = (v, out = []) => {
    if (typeof v === 'string') out.push(v);
    else if (v !== null && typeof v === 'object') for (const key of Object.keys(v)) if (key[0] !== '@') strings(v[key], out);
    return out;
  };
  const [a, b] = [vary(doc, 0), vary(doc, 1)];
  const [sa, sb, s0] = [strings(a), strings(b), strings(doc)];
  assert.equal(sa.length, s0.length);
  assert.ok(sa.every((s, k) => s !== sb[k] && s !== s0[k]), 'every string differs');
  assert.deepStrictEqual(Object.keys(a), Object.keys(doc));
  for (const v of [a, b]) assert.deepStrictEqual(codec.decode(codec.encode(v)), v);
});
