'use strict';
// Schema evolution (docs/FORMAT.md, "Schema evolution"): `compile(Reader).reader(Writer)`
// reads the writer's bytes as the reader's values, by the rules of the table there;
// `compatibility(Reader, Writer)` lists what stops it. Every test runs both marshallers
// (the resolved decode splices code into each) and checks they agree.

const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const { shorn, MODES } = require('./helpers');
const { loadCorpus, corpus } = require('../benchmark/corpora');

const { t, compile, compatibility, ShornError } = shorn;

/** Encodes `value` with `writer` and reads it with `reader`, in both modes (which must agree). */
function readAs(reader, writer, value, options = {}) {
  const results = MODES.map((mode) => {
    const w = compile(writer, { ...options, codegen: mode.codegen });
    const r = compile(reader, { ...options, codegen: mode.codegen });
    return r.reader(w).decode(w.encode(value));
  });
  assert.deepStrictEqual(results[1], results[0], 'both marshallers read the same value');
  return results[0];
}

function problemsOf(reader, writer) {
  return compatibility(reader, writer).map((p) => `${p.path}: ${p.message}`);
}

function assertIncompatible(reader, writer, ...fragments) {
  const problems = problemsOf(reader, writer);
  assert.ok(problems.length > 0, 'compatibility() finds a problem');
  for (const f of fragments) assert.ok(problems.some((p) => p.includes(f)), `a problem mentions ${JSON.stringify(f)}: ${problems.join(' / ')}`);
  for (const mode of MODES) {
    const r = compile(reader, { codegen: mode.codegen });
    assert.throws(
      () => r.reader(writer),
      (e) => e instanceof ShornError && e.code === 'ERR_SHORN_SCHEMA' && Array.isArray(e.problems) && e.problems.length === problems.length && fragments.every((f) => e.message.includes(f)),
    );
  }
}

describe('the cases from the issue', () => {
  const V1 = t.object({ id: t.uint32(), first: t.string(), last: t.string() });
  const V2 = t.object({ id: t.uint32(), last: t.string(), first: t.string(), note: t.optional(t.string()) });

  test('an appended optional field: the old reader reads new bytes, the new reader old bytes', () => {
    assert.deepStrictEqual(readAs(V1, V2, { id: 1, first: 'Ada', last: 'Lovelace', note: 'x' }), { id: 1, first: 'Ada', last: 'Lovelace' });
    assert.deepStrictEqual(readAs(V2, V1, { id: 1, first: 'Ada', last: 'Lovelace' }), { id: 1, last: 'Lovelace', first: 'Ada' });
    // Plain decodes of the other schema's bytes fail, as the issue found; the reader is the fix.
    assert.throws(() => compile(V1).decode(compile(V2).encode({ id: 1, first: 'a', last: 'b', note: 'x' })), { code: 'ERR_SHORN_TRAILING' });
  });

  test('two string fields swapped between versions are matched by name, not position', () => {
    const v = readAs(V2, V1, { id: 2, first: 'Grace', last: 'Hopper' });
    assert.equal(v.first, 'Grace');
    assert.equal(v.last, 'Hopper');
    assert.deepEqual(Object.keys(v), ['id', 'last', 'first'], "keys in the reader's order");
  });
});

describe('objects', () => {
  test("the writer's extra fields are skipped, whatever they hold", () => {
    const W = t.object({
      a: t.uint8(),
      s: t.string(),
      list: t.array(t.object({ x: t.string(), y: t.bytes() })),
      m: t.map(t.string(), t.int64()),
      j: t.json(),
      u: t.union([t.string(), t.float64()]),
      tree: t.recursive('T', (self) => t.object({ v: t.string(), kids: t.array(self) })),
      f: t.float64Array(),
      b: t.string(),
    });
    const R = t.object({ b: t.string(), a: t.uint8() });
    const value = {
      a: 5,
      s: 'skip me',
      list: [{ x: 'q', y: new Uint8Array([1, 2]) }],
      m: new Map([['k', 9n]]),
      j: { deep: [1, 'two', null] },
      u: 'str',
      tree: { v: 'root', kids: [{ v: 'leaf', kids: [] }] },
      f: new Float64Array([1.5]),
      b: 'kept',
    };
    assert.deepStrictEqual(readAs(R, W, value), { b: 'kept', a: 5 });
  });

  test("the reader's new fields take their default, or stay absent when optional", () => {
    const W = t.object({ id: t.uint8() });
    const R = t.object({
      id: t.uint8(),
      name: t.default(t.string(), 'anon'),
      when: t.default(t.date(), new Date(86400000)),
      tags: t.default(t.array(t.string()), ['a']),
      big: t.default(t.int64(), 12345678901234567890n % 2n ** 63n),
      maybe: t.optional(t.string()),
    });
    const v = readAs(R, W, { id: 1 });
    assert.deepStrictEqual(v, { id: 1, name: 'anon', when: new Date(86400000), tags: ['a'], big: 12345678901234567890n % 2n ** 63n });
    assert.ok(!Object.hasOwn(v, 'maybe'));
  });

  test('a default that is an object is a new one in every decode', () => {
    const W = t.object({ id: t.uint8() });
    const R = t.object({ id: t.uint8(), tags: t.default(t.array(t.string()), ['a']), when: t.default(t.date(), new Date(0)) });
    for (const mode of MODES) {
      const w = compile(W, { codegen: mode.codegen });
      const reader = compile(R, { codegen: mode.codegen }).reader(W);
      const bytes = w.encode({ id: 1 });
      const first = reader.decode(bytes);
      first.tags.push('changed');
      first.when.setTime(99);
      assert.deepStrictEqual(reader.decode(bytes), { id: 1, tags: ['a'], when: new Date(0) }, mode.name);
    }
  });

  test("a writer's optional field read as a field with a default", () => {
    const W = t.object({ a: t.optional(t.string()), b: t.uint8() });
    const R = t.object({ a: t.default(t.string(), 'dflt'), b: t.uint8() });
    assert.deepStrictEqual(readAs(R, W, { b: 1 }), { a: 'dflt', b: 1 });
    assert.deepStrictEqual(readAs(R, W, { a: 'given', b: 1 }), { a: 'given', b: 1 });
  });

  test('optional read as optional keeps absence; a required field read as optional is present', () => {
    const W = t.object({ b: t.uint8(), a: t.optional(t.string()), c: t.string() });
    const R = t.object({ c: t.optional(t.string()), a: t.optional(t.string()), b: t.uint8() });
    const v = readAs(R, W, { b: 1, c: 'x' });
    assert.deepStrictEqual(v, { c: 'x', b: 1 });
    assert.deepEqual(Object.keys(v), ['c', 'b']);
    assert.deepEqual(Object.keys(readAs(R, W, { b: 1, a: 'y', c: 'x' })), ['c', 'a', 'b']);
  });

  test('fields named like Object.prototype members, __proto__ included, are own data properties', () => {
    const W = t.object({ x: t.uint8(), ['__proto__']: t.optional(t.string()), toString: t.string() });
    const R = t.object({ toString: t.string(), ['__proto__']: t.optional(t.string()), constructor: t.default(t.string(), 'c') });
    const v = readAs(R, W, { x: 1, ['__proto__']: 'p', toString: 's' });
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyNames(v), ['toString', '__proto__', 'constructor']);
    assert.equal(Object.getOwnPropertyDescriptor(v, '__proto__').value, 'p');
  });

  test('a reader field the writer lacks, with no default and not optional: incompatible', () => {
    assertIncompatible(t.object({ a: t.uint8(), b: t.string() }), t.object({ a: t.uint8() }), '$.b', 'no default');
  });

  test("a writer's optional field read as a required one: incompatible", () => {
    assertIncompatible(t.object({ a: t.string() }), t.object({ a: t.optional(t.string()) }), '$.a', 'may leave it out');
  });
});

describe('numbers widen', () => {
  const cases = [
    ['uint8', 'uint16', 255],
    ['uint8', 'uint32', 200],
    ['uint16', 'uint32', 65535],
    ['uint32', 'int', 4294967295],
    ['int8', 'int16', -128],
    ['int16', 'int32', -32768],
    ['int32', 'int', -2147483648],
    ['int32', 'float64', 2147483647],
    ['uint16', 'float64', 65535],
    ['int', 'float64', Number.MAX_SAFE_INTEGER],
    ['float32', 'float64', 1.5],
  ];
  for (const [w, r, x] of cases) {
    test(`${w} -> ${r}`, () => {
      assert.deepStrictEqual(readAs(t.object({ v: t[r]() }), t.object({ v: t[w]() }), { v: x }), { v: x });
    });
  }
  const bigints = [
    ['uint8', 'int64', 255],
    ['int32', 'int64', -2147483648],
    ['uint32', 'uint64', 4294967295],
    ['int', 'int64', -Number.MAX_SAFE_INTEGER],
    ['int', 'int64', Number.MAX_SAFE_INTEGER],
  ];
  for (const [w, r, x] of bigints) {
    test(`${w} -> ${r} gives a bigint (${x})`, () => {
      assert.deepStrictEqual(readAs(t.object({ v: t[r]() }), t.object({ v: t[w]() }), { v: x }), { v: BigInt(x) });
      assert.deepStrictEqual(readAs(t.array(t[r]()), t.array(t[w]()), [x, 0]), [BigInt(x), 0n]);
    });
  }

  test('narrowing and sign changes are incompatible, with the rule in the message', () => {
    assertIncompatible(t.object({ v: t.uint8() }), t.object({ v: t.uint16() }), '$.v', 'uint16 cannot be read as uint8', 'widen');
    assertIncompatible(t.object({ v: t.uint32() }), t.object({ v: t.int8() }), '$.v', 'int8 cannot be read as uint32');
    assertIncompatible(t.object({ v: t.int32() }), t.object({ v: t.float64() }), 'float64 cannot be read as int32');
    assertIncompatible(t.object({ v: t.int() }), t.object({ v: t.int64() }), 'int64 cannot be read as int');
    assertIncompatible(t.object({ v: t.uint64() }), t.object({ v: t.int8() }), 'int8 cannot be read as uint64');
    assertIncompatible(t.object({ v: t.float32() }), t.object({ v: t.float64() }), 'float64 cannot be read as float32');
  });
});

describe('nullable, optional and literals', () => {
  test('T read as nullable(T) and as an optional field', () => {
    assert.deepStrictEqual(readAs(t.object({ v: t.nullable(t.string()) }), t.object({ v: t.string() }), { v: 'x' }), { v: 'x' });
    assert.deepStrictEqual(readAs(t.array(t.nullable(t.uint16())), t.array(t.uint8()), [1, 2]), [1, 2]);
    assert.deepStrictEqual(readAs(t.object({ v: t.optional(t.int64()) }), t.object({ v: t.int32() }), { v: -3 }), { v: -3n });
  });

  test('nullable(T) read as nullable(wider T)', () => {
    assert.deepStrictEqual(readAs(t.array(t.nullable(t.int64())), t.array(t.nullable(t.int8())), [1, null, -2]), [1n, null, -2n]);
  });

  test('null and literals read as types that hold their value', () => {
    assert.deepStrictEqual(readAs(t.object({ v: t.nullable(t.string()) }), t.object({ v: t.null() }), { v: null }), { v: null });
    assert.deepStrictEqual(readAs(t.object({ v: t.string() }), t.object({ v: t.literal('k') }), { v: 'k' }), { v: 'k' });
    assert.deepStrictEqual(readAs(t.object({ v: t.uint8() }), t.object({ v: t.literal(7) }), { v: 7 }), { v: 7 });
    assertIncompatible(t.object({ v: t.uint8() }), t.object({ v: t.literal(300) }), '$.v', 'number 300');
    assertIncompatible(t.object({ v: t.literal('a') }), t.object({ v: t.literal('b') }), '$.v');
  });

  test('nullable(T) read as T: incompatible', () => {
    assertIncompatible(t.object({ v: t.string() }), t.object({ v: t.nullable(t.string()) }), '$.v', 'may be null');
  });
});

describe('enums', () => {
  const W = t.object({ c: t.enum(['red', 'green', 'blue', 'teal']) });
  test('by symbol, whatever the order', () => {
    const R = t.object({ c: t.enum(['teal', 'blue', 'green', 'red', 'pink']) });
    for (const c of ['red', 'green', 'blue', 'teal']) assert.deepStrictEqual(readAs(R, W, { c }), { c });
  });

  test("a symbol the reader lacks reads as the reader's default", () => {
    const R = t.object({ c: t.enum(['red', 'green', 'other'], { default: 'other' }) });
    assert.deepStrictEqual(readAs(R, W, { c: 'teal' }), { c: 'other' });
    assert.deepStrictEqual(readAs(R, W, { c: 'blue' }), { c: 'other' });
    assert.deepStrictEqual(readAs(R, W, { c: 'green' }), { c: 'green' });
    assert.deepStrictEqual(readAs(t.array(R), t.array(W), [{ c: 'red' }, { c: 'teal' }]), [{ c: 'red' }, { c: 'other' }]);
  });

  test('without a default: incompatible, naming the symbols', () => {
    assertIncompatible(t.object({ c: t.enum(['red', 'green']) }), W, '$.c', '"blue", "teal"', 'default');
  });

  test('an enum read as a string', () => {
    assert.deepStrictEqual(readAs(t.object({ c: t.string() }), W, { c: 'teal' }), { c: 'teal' });
  });

  test("the enum default is a descriptor member checked by compile, and does not change the bytes", () => {
    assert.throws(() => compile(t.enum(['a'], { default: 'b' })), { code: 'ERR_SHORN_SCHEMA', message: /default "b" is not one of its values/ });
    assert.throws(() => compile({ type: 'enum', values: ['a'], default: 1 }), { code: 'ERR_SHORN_SCHEMA' });
    assert.deepEqual(compile(t.enum(['a', 'b'], { default: 'b' })).encode('b'), compile(t.enum(['a', 'b'])).encode('b'));
  });
});

describe('unions', () => {
  test('by variant: each writer variant reads as the first reader variant it fits, an identical one first', () => {
    const W = t.union([t.string(), t.uint8(), t.object({ a: t.uint8() })]);
    const R = t.union([t.object({ a: t.uint16(), b: t.default(t.string(), 'b') }), t.float64(), t.string(), t.uint8()]);
    assert.deepStrictEqual(readAs(R, W, 'x'), 'x');
    assert.deepStrictEqual(readAs(R, W, 7), 7);
    assert.deepStrictEqual(readAs(R, W, { a: 1 }), { a: 1, b: 'b' });
  });

  test('a type read as a union holding it, a union read as one type', () => {
    assert.deepStrictEqual(readAs(t.union([t.string(), t.int64()]), t.int32(), -5), -5n);
    assert.deepStrictEqual(readAs(t.float64(), t.union([t.uint8(), t.float32()]), 1.5), 1.5);
    assertIncompatible(t.string(), t.union([t.string(), t.uint8()]), 'uint8 cannot be read as string');
  });

  test('a writer variant no reader variant fits: incompatible', () => {
    assertIncompatible(t.union([t.string(), t.uint8()]), t.union([t.string(), t.bool()]), 'bool fits no variant');
  });

  const A1 = t.object({ kind: t.literal('a'), x: t.uint8() });
  const B1 = t.object({ kind: t.literal('b'), y: t.string() });
  test('discriminated unions by tag, variants in any order, each object resolved', () => {
    const W = t.discriminatedUnion('kind', [A1, B1]);
    const R = t.discriminatedUnion('kind', [
      t.object({ kind: t.literal('c'), z: t.bool() }),
      t.object({ kind: t.literal('b'), y: t.string(), n: t.default(t.uint8(), 3) }),
      t.object({ kind: t.literal('a'), x: t.int64() }),
    ]);
    assert.deepStrictEqual(readAs(R, W, { kind: 'a', x: 9 }), { kind: 'a', x: 9n });
    assert.deepStrictEqual(readAs(R, W, { kind: 'b', y: 'q' }), { kind: 'b', y: 'q', n: 3 });
  });

  test("a tag the reader does not know: incompatible", () => {
    assertIncompatible(t.discriminatedUnion('kind', [A1]), t.discriminatedUnion('kind', [A1, B1]), '$.kind', 'tag "b"');
  });
});

describe('containers and recursion', () => {
  test('arrays, tuples, records and maps resolve their items, keys and values', () => {
    const item = [t.object({ a: t.uint8(), gone: t.string() }), t.object({ a: t.int64(), added: t.default(t.bool(), true) })];
    assert.deepStrictEqual(readAs(t.array(item[1]), t.array(item[0]), [{ a: 1, gone: 'x' }]), [{ a: 1n, added: true }]);
    assert.deepStrictEqual(readAs(t.tuple([t.int64(), item[1]]), t.tuple([t.uint8(), item[0]]), [3, { a: 2, gone: '' }]), [3n, { a: 2n, added: true }]);
    assert.deepStrictEqual(readAs(t.record(item[1]), t.record(item[0]), { k: { a: 4, gone: '' } }), { k: { a: 4n, added: true } });
    const m = readAs(t.map(t.int64(), item[1]), t.map(t.uint16(), item[0]), new Map([[5, { a: 6, gone: '' }]]));
    assert.deepStrictEqual(m, new Map([[5n, { a: 6n, added: true }]]));
    assertIncompatible(t.tuple([t.uint8()]), t.tuple([t.uint8(), t.uint8()]), '2 items');
  });

  test('recursive types: a field added with a default at every level', () => {
    const W = t.recursive('Tree', (self) => t.object({ v: t.uint8(), kids: t.array(self) }));
    const R = t.recursive('Tree', (self) => t.object({ kids: t.array(self), v: t.int64(), label: t.default(t.string(), '-') }));
    const value = { v: 1, kids: [{ v: 2, kids: [] }, { v: 3, kids: [{ v: 4, kids: [] }] }] };
    const want = { kids: [{ kids: [], v: 2n, label: '-' }, { kids: [{ kids: [], v: 4n, label: '-' }], v: 3n, label: '-' }], v: 1n, label: '-' };
    assert.deepStrictEqual(readAs(R, W, value), want);
    // Inside an object that codegen handles, recursion handed to the generic marshaller.
    assert.deepStrictEqual(readAs(t.object({ t: R }), t.object({ dropped: t.string(), t: W }), { dropped: 'x', t: value }), { t: want });
  });

  test('the resolved decode keeps the depth limit', () => {
    const W = t.recursive('L', (self) => t.object({ next: t.nullable(self) }));
    const R = t.recursive('L', (self) => t.object({ next: t.nullable(self), n: t.default(t.uint8(), 0) }));
    let deep = { next: null };
    for (let k = 0; k < 20; k++) deep = { next: deep };
    const bytes = compile(W).encode(deep);
    for (const mode of MODES) {
      const reader = compile(R, { maxDepth: 8, codegen: mode.codegen }).reader(W);
      assert.throws(() => reader.decode(bytes), { code: 'ERR_SHORN_LIMIT' });
    }
  });
});

describe('constraints (issue 10)', () => {
  // Constraints change no bytes: they never make a reader incompatible. A reader's own
  // constraints hold for the values it reads; the writer's are checked by the writer's decode.
  const W = t.object({ id: t.uint8(), name: t.string(), tags: t.array(t.string()), extra: t.bool() });
  const R = t.object({ id: t.uint16({ max: 100 }), name: t.string({ maxLength: 6, format: 'email' }), tags: t.array(t.string(), { maxItems: 2 }) });

  test('a reader with constraints its writer lacks is compatible, and checks every value it reads', () => {
    assert.deepStrictEqual(compatibility(R, W), []);
    const w = compile(W);
    for (const mode of MODES) {
      const reader = compile(R, { codegen: mode.codegen }).reader(W);
      assert.deepStrictEqual(reader.decode(w.encode({ id: 7, name: 'a@b.co', tags: ['x'], extra: true })), { id: 7, name: 'a@b.co', tags: ['x'] });
      for (const [value, path, message] of [
        [{ id: 101, name: 'a@b.co', tags: [], extra: true }, '$.id', 'invalid value ($.id): expected uint16 of at most 100, found number 101'],
        [{ id: 1, name: 'a@b.com', tags: [], extra: true }, '$.name', 'invalid value ($.name): expected string of at most 6 code points, found string "a@b.com" (7 code points)'],
        [{ id: 1, name: 'nope', tags: [], extra: true }, '$.name', 'invalid value ($.name): expected string of format email, found string "nope"'],
        [{ id: 1, name: 'a@b.co', tags: ['a', 'b', 'c'], extra: true }, '$.tags', 'invalid value ($.tags): expected array of at most 2 items, found array (length 3)'],
      ]) {
        assert.throws(() => reader.decode(w.encode(value)), (e) => e instanceof ShornError && e.code === 'ERR_SHORN_INVALID' && e.path === path && e.message === message);
      }
    }
  });

  test("the writer's constraints are checked by the writer's decode, with offsets; the same constraints are not checked twice", () => {
    const W2 = t.object({ id: t.uint8({ max: 9 }), gone: t.bool() });
    const R2 = t.object({ id: t.uint8({ max: 9 }) });
    const bytes = compile(t.object({ id: t.uint8(), gone: t.bool() })).encode({ id: 10, gone: true });
    for (const mode of MODES) {
      const reader = compile(R2, { codegen: mode.codegen }).reader(W2);
      assert.throws(() => reader.decode(bytes), { code: 'ERR_SHORN_INVALID', offset: 0, path: '$.id', message: 'invalid value at offset 0 ($.id): expected uint8 of at most 9, found 10' });
      assert.equal(reader.decode.name, 'decode', 'no second check: each reader constraint is its writer node\'s own');
    }
    // A literal the reader's constraints refuse is a problem of the plan, found once.
    assertIncompatible(t.object({ n: t.uint8({ max: 5 }) }), t.object({ n: t.literal(7) }), 'literal');
  });
});

describe('the reader object', () => {
  const W = t.object({ id: t.uint8(), s: t.string() });
  const R = t.object({ s: t.string(), id: t.uint16() });

  test('one schema: the codec\'s own decode', () => {
    const c = compile(W);
    const reader = c.reader(t.object({ id: t.uint8(), s: t.string() }));
    assert.equal(reader.decode, c.decode);
    assert.equal(reader.writerFingerprint, c.fingerprint);
    assert.equal(reader.readerFingerprint, c.fingerprint);
    assert.deepEqual(compatibility(W, W), []);
  });

  test('the writer may be a codec; fingerprints of both', () => {
    const w = compile(W);
    const r = compile(R);
    const reader = r.reader(w);
    assert.equal(reader.writerFingerprint, w.fingerprint);
    assert.equal(reader.readerFingerprint, r.fingerprint);
    assert.deepStrictEqual(reader.decode(w.encode({ id: 1, s: 'x' })), { s: 'x', id: 1 });
  });

  test("bad bytes are the writer's decode errors; the reader's limits apply", () => {
    const w = compile(W);
    for (const mode of MODES) {
      const reader = compile(R, { codegen: mode.codegen, maxStringBytes: 3 }).reader(W);
      const bytes = w.encode({ id: 1, s: 'abcd' });
      assert.throws(() => reader.decode(bytes), { code: 'ERR_SHORN_LIMIT' });
      assert.throws(() => reader.decode(w.encode({ id: 1, s: 'ab' }).subarray(0, 3)), { code: 'ERR_SHORN_TRUNCATED' });
      assert.throws(() => reader.decode('nope'), { code: 'ERR_SHORN_INVALID' });
    }
  });

  test('an invalid writer schema is ERR_SHORN_SCHEMA', () => {
    assert.throws(() => compile(R).reader({ type: 'nope' }), { code: 'ERR_SHORN_SCHEMA' });
  });
});

// A large schema (split into helper functions by the code generator): every object of the
// github_events schema loses its first field, gains a defaulted one and is read with its
// fields in reverse order. The expected value is built independently, from the data.
describe('a large schema (github_events)', () => {
  const writer = corpus('github_events').shorn(t);
  const data = loadCorpus('github_events');

  function change(d) {
    if (Array.isArray(d)) return d.map(change);
    if (d === null || typeof d !== 'object') return d;
    const out = {};
    for (const [k, v] of Object.entries(d)) out[k] = k === 'value' ? v : change(v);
    if (d.type === 'object' && !d.fields.some((f) => f.schema.type === 'literal')) {
      out.fields = [...out.fields.slice(1).reverse(), { name: 'zzAdded', schema: t.default(t.uint8(), 7) }];
    }
    return out;
  }
  const reader = change(JSON.parse(JSON.stringify(writer)));

  // What the reader should give for `value` of writer node `w`.
  function expected(w, value) {
    while (w.type === 'default') w = w.of;
    if (value === null || value === undefined) return value;
    switch (w.type) {
      case 'object': {
        if (w.fields.some((f) => f.schema.type === 'literal')) {
          const o = {};
          for (const f of w.fields) if (Object.hasOwn(value, f.name) && value[f.name] !== undefined) o[f.name] = expected(f.schema, value[f.name]);
          return o;
        }
        const o = {};
        for (const f of [...w.fields.slice(1).reverse()]) if (Object.hasOwn(value, f.name) && value[f.name] !== undefined) o[f.name] = expected(f.schema, value[f.name]);
        o.zzAdded = 7;
        return o;
      }
      case 'array':
        return value.map((x) => expected(w.items, x));
      case 'nullable':
      case 'optional':
        return expected(w.of, value);
      case 'discriminatedUnion':
        return expected(
          w.variants.find((v) => v.fields.find((f) => f.name === w.key).schema.value === value[w.key]),
          value,
        );
      case 'record':
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expected(w.values, v)]));
      case 'union':
        throw new Error('the github_events schema has no plain unions; extend this oracle if it gains one');
      default:
        return value;
    }
  }

  test('reads every event as the changed schema, in both marshallers, keys in order', () => {
    const want = expected(JSON.parse(JSON.stringify(writer)), data);
    const got = readAs(reader, writer, data);
    assert.deepStrictEqual(got, want);
    // deepStrictEqual ignores key order; the reader's order is checked on each event.
    const order = (v) => (Array.isArray(v) ? v.map(order) : v && typeof v === 'object' ? Object.keys(v).map((k) => [k, order(v[k])]) : v);
    assert.deepStrictEqual(order(got), order(want));
  });
});
