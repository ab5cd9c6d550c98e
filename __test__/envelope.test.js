'use strict';
// Fingerprints and the self-identifying envelope (docs/FORMAT.md, "Fingerprints" and
// "Envelope"), and registries of writer schemas.

const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const { shorn, MODES } = require('./helpers');

const { t, compile, createRegistry, ShornError } = shorn;

// The vectors of docs/FORMAT.md: canonical text and fingerprint (the first 8 bytes of its
// SHA-256, checked with Python's hashlib when they were written).
const VECTORS = [
  [t.string(), '{"type":"string"}', '00404e686415370f'],
  [
    t.object({ id: t.uint32(), name: t.string() }),
    '{"fields":[{"name":"id","schema":{"type":"uint32"}},{"name":"name","schema":{"type":"string"}}],"type":"object"}',
    'dbda722acfd3f866',
  ],
  [
    t.array(t.nullable(t.enum(['a', 'b']))),
    '{"items":{"of":{"type":"enum","values":["a","b"]},"type":"nullable"},"type":"array"}',
    'ba384c30583c2bea',
  ],
  [
    t.object({ n: t.default(t.json(), { b: 1, a: [2] }) }),
    '{"fields":[{"name":"n","schema":{"of":{"type":"json"},"type":"default","value":{"b":1,"a":[2]}}}],"type":"object"}',
    '4253c43d8f4a4491',
  ],
  // Constraints are part of the canonical descriptor (issue 10): bigint bounds as the
  // decimal strings the descriptor holds.
  [
    t.object({ name: t.string({ minLength: 1, maxLength: 100 }), age: t.uint8({ max: 150 }), email: t.string({ format: 'email' }) }),
    '{"fields":[{"name":"name","schema":{"maxLength":100,"minLength":1,"type":"string"}},{"name":"age","schema":{"max":150,"type":"uint8"}},{"name":"email","schema":{"format":"email","type":"string"}}],"type":"object"}',
    '4b421bfe330655ae',
  ],
  [t.uint64({ max: 2n ** 64n - 2n, multipleOf: 2n }), '{"max":"18446744073709551614","multipleOf":"2","type":"uint64"}', 'f7d6f57e902bf478'],
];

describe('fingerprints', () => {
  const { canonical } = require('../lib/fingerprint');
  test('the documented vectors', () => {
    for (const [schema, text, fp] of VECTORS) {
      const c = compile(schema);
      assert.equal(canonical(c.schema), text);
      assert.equal(c.fingerprint, fp);
      assert.match(c.fingerprint, /^[0-9a-f]{16}$/);
    }
  });

  test('one schema, one fingerprint: built with t, parsed from JSON, keys in any order, strict: false left out', () => {
    const a = compile(t.object({ id: t.uint32(), tags: t.array(t.string()) }));
    const b = compile(JSON.parse('{"fields":[{"schema":{"type":"uint32"},"name":"id"},{"name":"tags","schema":{"items":{"type":"string"},"type":"array"}}],"type":"object"}'));
    const c = compile(t.object({ id: t.uint32(), tags: t.array(t.string()) }), { codegen: false, maxStringBytes: 10 });
    assert.equal(a.fingerprint, b.fingerprint);
    assert.equal(a.fingerprint, c.fingerprint, 'compile options are not part of the schema');
  });

  test('any change that can change the bytes, or what the schema accepts, changes it', () => {
    const base = t.object({ id: t.uint32(), name: t.string(), kind: t.enum(['x', 'y']), c: t.literal('k'), d: t.default(t.uint8(), 1) });
    const variants = [
      t.object({ name: t.string(), id: t.uint32(), kind: t.enum(['x', 'y']), c: t.literal('k'), d: t.default(t.uint8(), 1) }),
      t.object({ id: t.uint16(), name: t.string(), kind: t.enum(['x', 'y']), c: t.literal('k'), d: t.default(t.uint8(), 1) }),
      t.object({ ident: t.uint32(), name: t.string(), kind: t.enum(['x', 'y']), c: t.literal('k'), d: t.default(t.uint8(), 1) }),
      t.object({ id: t.uint32(), name: t.string(), kind: t.enum(['y', 'x']), c: t.literal('k'), d: t.default(t.uint8(), 1) }),
      t.object({ id: t.uint32(), name: t.string(), kind: t.enum(['x', 'y']), c: t.literal('j'), d: t.default(t.uint8(), 1) }),
      t.object({ id: t.uint32(), name: t.string(), kind: t.enum(['x', 'y']), c: t.literal('k'), d: t.default(t.uint8(), 2) }),
      t.object({ id: t.uint32(), name: t.optional(t.string()), kind: t.enum(['x', 'y']), c: t.literal('k'), d: t.default(t.uint8(), 1) }),
      // Constraints change no bytes, but they change which values the schema takes.
      t.object({ id: t.uint32({ max: 9 }), name: t.string(), kind: t.enum(['x', 'y']), c: t.literal('k'), d: t.default(t.uint8(), 1) }),
      t.object({ id: t.uint32({ max: 10 }), name: t.string(), kind: t.enum(['x', 'y']), c: t.literal('k'), d: t.default(t.uint8(), 1) }),
      t.object({ id: t.uint32(), name: t.string({ format: 'email' }), kind: t.enum(['x', 'y']), c: t.literal('k'), d: t.default(t.uint8(), 1) }),
      t.object({ id: t.uint32(), name: t.string({ pattern: '^a' }), kind: t.enum(['x', 'y']), c: t.literal('k'), d: t.default(t.uint8(), 1) }),
      t.object({ id: t.uint32(), name: t.string(), kind: t.enum(['x', 'y']), c: t.literal('k'), d: t.default(t.uint8({ min: 1 }), 1) }),
    ];
    const seen = new Set([compile(base).fingerprint]);
    for (const v of variants) {
      const fp = compile(v).fingerprint;
      assert.ok(!seen.has(fp), `distinct fingerprint for ${JSON.stringify(v)}`);
      seen.add(fp);
    }
  });
});

describe('the envelope and registries', () => {
  const V1 = t.object({ id: t.uint32(), name: t.string() });
  const V2 = t.object({ id: t.uint32(), name: t.string(), email: t.default(t.string(), '') });
  const V3 = t.object({ name: t.string(), email: t.default(t.string(), ''), id: t.int64() });

  test('an envelope is the magic byte, the version, the fingerprint, then the message', () => {
    const reg = createRegistry([V1]);
    const c = compile(V1);
    const bytes = reg.encode(V1, { id: 1, name: 'a' });
    assert.ok(Buffer.isBuffer(bytes));
    assert.equal(bytes.toString('hex'), `f501${c.fingerprint}${c.encode({ id: 1, name: 'a' }).toString('hex')}`);
    assert.equal(reg.fingerprintOf(bytes), c.fingerprint);
    assert.deepEqual(reg.fingerprints, [c.fingerprint]);
  });

  for (const mode of MODES) {
    test(`any known writer decodes into the reader's shape (${mode.name})`, () => {
      const opts = { codegen: mode.codegen };
      const reg = createRegistry([V1, V2, compile(V3, opts)], opts);
      const m1 = reg.encode(V1, { id: 1, name: 'a' });
      const m2 = reg.encode(V2, { id: 2, name: 'b', email: 'e' });
      const m3 = reg.encode(V3, { id: 3n, name: 'c' });
      assert.deepStrictEqual(reg.decode(m1), { id: 1, name: 'a' }, "no reader: the writer's own shape");
      assert.deepStrictEqual(reg.decode(m1, V3), { name: 'a', email: '', id: 1n });
      assert.deepStrictEqual(reg.decode(m2, V3), { name: 'b', email: 'e', id: 2n });
      assert.deepStrictEqual(reg.decode(m2, V1), { id: 2, name: 'b' });
      assert.deepStrictEqual(reg.decode(m3, V3), { name: 'c', email: '', id: 3n });
      // A reader need not be registered, and may be a codec.
      const R = t.object({ name: t.string() });
      assert.deepStrictEqual(reg.decode(m2, R), { name: 'b' });
      assert.deepStrictEqual(reg.decode(m2, compile(R)), { name: 'b' });
      // V3's int64 cannot be read as V1's uint32: the pair is refused, naming the problem.
      assert.throws(() => reg.decode(m3, V1), { code: 'ERR_SHORN_SCHEMA', message: /\$\.id: the writer's int64 cannot be read as uint32/ });
    });
  }

  test('a schema rebuilt as another object is the same schema', () => {
    const reg = createRegistry([V1]);
    const again = JSON.parse(JSON.stringify(V1));
    assert.deepEqual(reg.encode(again, { id: 5, name: 'x' }), reg.encode(V1, { id: 5, name: 'x' }));
    assert.deepStrictEqual(reg.decode(reg.encode(V1, { id: 5, name: 'x' }), again), { id: 5, name: 'x' });
  });

  test('an unknown schema on encode, an unknown fingerprint on decode: ERR_SHORN_UNKNOWN_SCHEMA', () => {
    const reg = createRegistry([V1]);
    assert.throws(() => reg.encode(V2, { id: 1, name: 'a' }), (e) => e instanceof ShornError && e.code === 'ERR_SHORN_UNKNOWN_SCHEMA' && e.fingerprint === compile(V2).fingerprint);
    const other = createRegistry([V2]).encode(V2, { id: 1, name: 'a' });
    assert.throws(
      () => reg.decode(other),
      (e) => e.code === 'ERR_SHORN_UNKNOWN_SCHEMA' && e.fingerprint === compile(V2).fingerprint && e.message.includes(compile(V2).fingerprint),
    );
  });

  test('bytes that are not an envelope: ERR_SHORN_MALFORMED saying so', () => {
    const reg = createRegistry([V1]);
    const json = Buffer.from(JSON.stringify({ id: 1, name: 'a' }));
    assert.throws(() => reg.decode(json), { code: 'ERR_SHORN_MALFORMED', offset: 0, message: /^not a shorn envelope: its first byte is 0x7b \('\{': JSON\?\)/ });
    assert.throws(() => reg.decode(compile(V1).encode({ id: 1, name: 'a' })), { code: 'ERR_SHORN_MALFORMED', message: /not a shorn envelope/ });
    assert.throws(() => reg.decode(new Uint8Array(0)), { code: 'ERR_SHORN_MALFORMED', message: /not a shorn envelope: no bytes/ });
    assert.throws(() => reg.decode(Buffer.from([0xf5, 1, 0, 0])), { code: 'ERR_SHORN_TRUNCATED', offset: 4 });
    assert.throws(() => reg.decode(Buffer.from([0xf5, 2, 0, 0, 0, 0, 0, 0, 0, 0])), { code: 'ERR_SHORN_MALFORMED', offset: 1, message: /version 2/ });
    assert.throws(() => reg.decode('f501'), { code: 'ERR_SHORN_INVALID' });
  });

  test("a fault in the message is reported at its offset in the envelope", () => {
    const reg = createRegistry([V1]);
    const bytes = reg.encode(V1, { id: 300, name: 'abc' });
    assert.throws(() => reg.decode(bytes.subarray(0, bytes.length - 1)), (e) => e.code === 'ERR_SHORN_TRUNCATED' && e.offset === 13 && /offset 13 /.test(e.message) && e.stack.includes('offset 13 '));
    assert.throws(() => reg.decode(Buffer.concat([bytes, Buffer.from([0])])), (e) => e.code === 'ERR_SHORN_TRAILING' && e.offset === bytes.length);
  });

  test('envelopes in views at any offset, and plain encode stays headerless', () => {
    const reg = createRegistry([V1]);
    const env = reg.encode(V1, { id: 9, name: 'z' });
    const big = new Uint8Array(env.length + 7);
    big.set(env, 5);
    assert.deepStrictEqual(reg.decode(big.subarray(5, 5 + env.length)), { id: 9, name: 'z' });
    assert.equal(compile(V1).encode({ id: 9, name: 'z' }).length, env.length - 10);
  });

  test('createRegistry takes an array', () => {
    assert.throws(() => createRegistry(V1), { code: 'ERR_SHORN_SCHEMA' });
    assert.throws(() => createRegistry([V1]).encode(undefined, 1), { code: 'ERR_SHORN_SCHEMA' });
  });
});

// One fingerprint, one codec (issue 37, finding 13): two codecs of one schema compiled with
// other limits are refused, naming the first option that differs; the same options, or
// the same codec twice, are one entry.
test('a registry refuses two codecs of one schema compiled with different options, naming the option', () => {
  const schema = t.object({ s: t.string() });
  const cases = [
    [{}, { maxStringBytes: 10 }, 'maxStringBytes the default vs 10'],
    [{ maxDepth: 5 }, { maxDepth: 6 }, 'maxDepth 5 vs 6'],
    [{ maxDecodedBytes: 1000 }, {}, 'maxDecodedBytes 1000 vs '],
    [{ maxIssues: 3 }, { maxIssues: 4 }, 'maxIssues 3 vs 4'],
  ];
  for (const [a, b, named] of cases) {
    assert.throws(
      () => createRegistry([compile(schema, a), compile(schema, b)]),
      (e) => e instanceof ShornError && e.code === 'ERR_SHORN_SCHEMA' && e.message.includes(`different options (${named}`),
      named,
    );
  }
  const codec = compile(schema, { maxDepth: 7 });
  const registry = createRegistry([codec, compile(schema, { maxDepth: 7 }), codec]);
  assert.deepEqual(registry.fingerprints, [codec.fingerprint]);
});
