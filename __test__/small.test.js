'use strict';
// The JS read of small messages (lib/codegen.js, `fastTake`): a generated decode reads a
// message of at most SET_INPUT bytes itself when every value in it is in its common
// form, and leaves the rest to the native decode. Here it must give exactly what the
// native decode gives (the generic marshaller has no JS read): the same values, with the
// same keys in the same order and the same prototypes, and the same errors (code,
// message, offset, path) for every random, mutated, truncated and extended message.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { shorn, mulberry32: random } = require('./helpers');
const { generate } = require('../lib/codegen');
const { analyze } = require('../lib/walk');
const rt = require('../lib/runtime');

const { t, compile } = shorn;

// Schemas every type of which has a JS read, with random values of them: small values
// (the JS read's forms) most of the time, and now and then ones it leaves to the native
// decode (longer varints, non-ASCII and longer text).
const pick = (r, list) => list[Math.floor(r() * list.length)];
const small = (r, max) => (r() < 0.8 ? Math.floor(r() * 200) : Math.floor(r() * (max + 1)));
const ASCII = 'abcxyzABC019 _-~';
const TEXTS = ['é', 'ÿ', '李', '🚀', 'a\u0000b', 'sixteen chars ok', 'seventeen chars!!', 'fifteen chars é'];
function text(r) {
  if (r() < 0.15) return pick(r, TEXTS);
  let s = '';
  const n = Math.floor(r() * 17);
  for (let k = 0; k < n; k++) s += pick(r, [...ASCII]);
  return s;
}
const CASES = {
  person: {
    simple: { id: 1, name: 'Ada', age: 2, active: true },
    schema: t.object({ id: t.uint32(), name: t.string(), age: t.uint8(), active: t.bool() }),
    value: (r) => ({ id: small(r, 4294967295), name: text(r), age: small(r, 255), active: r() < 0.5 }),
  },
  integers: {
    simple: { a: 1, b: -1, c: 300, d: 70000, e: -2, f: 3, g: -4 },
    schema: t.object({ a: t.uint8(), b: t.int8(), c: t.uint16(), d: t.uint32(), e: t.int16(), f: t.int32(), g: t.int() }),
    value: (r) => ({
      a: small(r, 255),
      b: small(r, 255) - 128,
      c: small(r, 65535),
      d: small(r, 4294967295),
      e: small(r, 65535) - 32768,
      f: (r() < 0.5 ? -1 : 1) * small(r, 2147483647) || 0,
      g: (r() < 0.5 ? -1 : 1) * small(r, 2 ** 40) || 0,
    }),
  },
  nested: {
    simple: { kind: 'b', inner: { x: -3, tag: 'v1', none: null }, empty: {} },
    schema: t.object({ kind: t.enum(['a', 'b', 'c']), inner: t.object({ x: t.int16(), tag: t.literal('v1'), none: t.null() }), empty: t.object({}) }),
    value: (r) => ({ kind: pick(r, ['a', 'b', 'c']), inner: { x: small(r, 1000) - 500, tag: 'v1', none: null }, empty: {} }),
  },
  'keys Object.prototype has': {
    schema: t.object({ ['__proto__']: t.uint8(), constructor: t.string(), toString: t.bool() }),
    simple: (() => {
      const o = {};
      rt.defineOwn(o, '__proto__', 7);
      rt.defineOwn(o, 'constructor', 'x');
      rt.defineOwn(o, 'toString', true);
      return o;
    })(),
    value: (r) => {
      const o = {};
      rt.defineOwn(o, '__proto__', small(r, 255));
      rt.defineOwn(o, 'constructor', text(r));
      rt.defineOwn(o, 'toString', r() < 0.5);
      return o;
    },
  },
  event: {
    simple: { id: 2874519301, ts: 1.5, kind: 'view', user: { id: 5, name: 'grace', tags: ['a', 'b'] }, geo: { lat: 1, lon: -0 }, payload: { count: 4096, ratio: 0.5, ok: true } },
    schema: t.object({
      id: t.uint32(),
      ts: t.float64(),
      kind: t.enum(['click', 'view', 'purchase']),
      user: t.object({ id: t.uint32(), name: t.string(), tags: t.array(t.string()) }),
      geo: t.object({ lat: t.float64(), lon: t.float64() }),
      payload: t.object({ count: t.uint16(), ratio: t.float32(), ok: t.bool() }),
    }),
    value: (r) => ({
      id: small(r, 4294967295),
      ts: pick(r, [0, -0, 1718031234567, NaN, Infinity, -1.5, r()]),
      kind: pick(r, ['click', 'view', 'purchase']),
      user: { id: small(r, 4294967295), name: text(r), tags: Array.from({ length: Math.floor(r() * 6) }, () => text(r)) },
      geo: { lat: r() * 180 - 90, lon: -0 },
      payload: { count: small(r, 65535), ratio: Math.fround(r()), ok: r() < 0.5 },
    }),
  },
  'arrays of arrays': {
    simple: [[1, -2], []],
    schema: t.array(t.array(t.int16())),
    value: (r) => Array.from({ length: Math.floor(r() * 8) }, () => Array.from({ length: Math.floor(r() * 8) }, () => small(r, 65535) - 32768)),
  },
  optional: {
    schema: t.object({
      a: t.uint8(),
      b: t.optional(t.string()),
      c: t.nullable(t.uint32()),
      d: t.optional(t.nullable(t.bool())),
      ['__proto__']: t.optional(t.uint8()),
      toString: t.optional(t.int8()),
      e: t.float32(),
      f: t.array(t.nullable(t.uint16())),
    }),
    simple: { a: 1, b: 'x', c: null, d: true, e: 0.5, f: [1, null] },
    value: (r) => {
      const o = { a: small(r, 255) };
      if (r() < 0.5) o.b = text(r);
      o.c = r() < 0.5 ? null : small(r, 4294967295);
      if (r() < 0.3) o.d = true;
      else if (r() < 0.3) o.d = null;
      if (r() < 0.5) rt.defineOwn(o, '__proto__', small(r, 255));
      if (r() < 0.5) rt.defineOwn(o, 'toString', small(r, 255) - 128);
      o.e = Math.fround(r() * 100);
      o.f = Array.from({ length: Math.floor(r() * 5) }, () => (r() < 0.5 ? null : small(r, 65535)));
      return o;
    },
  },
  'a string alone': { schema: t.string(), value: (r) => text(r), simple: 'abc' },
  'an integer alone': { schema: t.int32(), value: (r) => (r() < 0.5 ? -1 : 1) * small(r, 2147483647) || 0, simple: -70000 },
  'an enum of many': { schema: t.enum(Array.from({ length: 300 }, (_, k) => `s${k}`)), value: (r) => `s${small(r, 299)}`, simple: 's200' },
};

// Values equal in everything a caller can see: keys in order, prototypes, own data
// properties, and -0.
function assertSame(actual, expected, where) {
  if (typeof expected !== 'object' || expected === null) {
    assert.ok(Object.is(actual, expected), `${where}: ${String(actual)} is not ${String(expected)}`);
    return;
  }
  assert.equal(Object.getPrototypeOf(actual), Object.getPrototypeOf(expected), `${where}: prototype`);
  assert.deepEqual(Reflect.ownKeys(actual), Reflect.ownKeys(expected), `${where}: keys`);
  for (const key of Reflect.ownKeys(expected)) {
    const d = Object.getOwnPropertyDescriptor(actual, key);
    const e = Object.getOwnPropertyDescriptor(expected, key);
    assert.ok(d && 'value' in d, `${where}.${String(key)}: an own data property`);
    assert.deepEqual([d.writable, d.enumerable, d.configurable], [e.writable, e.enumerable, e.configurable], `${where}.${String(key)}: attributes`);
    assertSame(d.value, e.value, `${where}.${String(key)}`);
  }
}

// What decoding `bytes` gives: the value, or the error's visible parts.
function outcome(codec, bytes) {
  try {
    return { value: codec.decode(bytes) };
  } catch (e) {
    return { error: { name: e.name, code: e.code, message: e.message, offset: e.offset, path: e.path } };
  }
}

// After a JS read is given up, the generated decode skips it for the next few messages
// (lib/codegen.js, `fastTake`): `prime`, a message it reads, decoded twice first, makes it
// try again, so that `bytes` meets the JS read.
function assertAgree(fast, native, bytes, where, prime = null) {
  if (prime !== null) {
    fast.decode(prime);
    fast.decode(prime);
  }
  const a = outcome(fast, bytes);
  const b = outcome(native, bytes);
  if ('error' in b) assert.deepEqual(a, b, `${where}: ${Buffer.from(bytes).toString('hex')}`);
  else {
    assert.ok('value' in a, `${where}: ${Buffer.from(bytes).toString('hex')} threw ${a.error && a.error.message}`);
    assertSame(a.value, b.value, `${where}: ${Buffer.from(bytes).toString('hex')}`);
  }
  return b;
}

const BYTES = [0x00, 0x01, 0x02, 0x0f, 0x10, 0x7f, 0x80, 0x81, 0xc3, 0xe6, 0xf0, 0xff];

describe('the JS read of small messages', () => {
  for (const [name, { schema, value }] of Object.entries(CASES)) {
    test(`${name}: it is generated`, () => {
      assert.match(generate(schema, analyze(schema), null).source, /fast: \{/);
    });

    test(`${name}: random, mutated, truncated and extended messages decode as natively`, () => {
      const fast = compile(schema, { codegen: true });
      const native = compile(schema, { codegen: false });
      const r = random(0x5a11 + name.length);
      let read = 0;
      let failed = 0;
      for (let n = 0; n < 400; n++) {
        const v = value(r);
        const bytes = fast.encode(v);
        assert.deepEqual(bytes, native.encode(v));
        assertAgree(fast, native, bytes, `${name} ${n}`);
        assertSame(fast.decode(bytes), native.decode(bytes), `${name} ${n}`);
        if (bytes.length <= rt.SET_INPUT) read++;
        // Every byte replaced by telling values, every truncation, a byte more.
        for (let k = 0; k < bytes.length && n % 4 === 0; k++) {
          for (const b of BYTES) {
            const m = Uint8Array.from(bytes);
            m[k] = b;
            if ('error' in assertAgree(fast, native, m, `${name} ${n} byte ${k} = ${b}`, bytes)) failed++;
          }
        }
        for (let k = 0; k < bytes.length; k++) assertAgree(fast, native, bytes.subarray(0, k), `${name} ${n} cut at ${k}`, bytes);
        assertAgree(fast, native, Uint8Array.from([...bytes, pick(r, BYTES)]), `${name} ${n} extended`, bytes);
        // A view at an offset into a larger buffer.
        const wide = new Uint8Array(bytes.length + 7);
        wide.set(bytes, 3);
        assertAgree(fast, native, wide.subarray(3, 3 + bytes.length), `${name} ${n} view`, bytes);
      }
      // The tests above must have run through both the JS read and its faults.
      assert.ok(read > 100, `${read} messages of at most ${rt.SET_INPUT} bytes`);
      assert.ok(failed > 50, `${failed} mutated messages were errors`);
    });
  }

  test('varints at every boundary, overlong and over-range, decode as natively in every integer type', () => {
    const varint = (v) => {
      const out = [];
      do {
        const low = v % 128;
        v = Math.floor(v / 128);
        out.push(v > 0 ? low | 128 : low);
      } while (v > 0);
      return out;
    };
    const values = [0, 1, 127, 128, 255, 256, 16383, 16384, 32767, 32768, 65535, 65536, 65537, 2 ** 21 - 1, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 35, 2 ** 53 - 1];
    const encodings = values.map(varint);
    // Overlong forms, a fifth byte over 0x0f, a sixth byte, and cut-off ones.
    encodings.push([0x80, 0x00], [0xff, 0x80, 0x00], [0xff, 0xff, 0xff, 0xff, 0x00], [0xff, 0xff, 0xff, 0xff, 0x10], [0xff, 0xff, 0xff, 0xff, 0x1f]);
    encodings.push([0xff, 0xff, 0xff, 0xff, 0x8f, 0x01], [0x80], [0xff, 0xff], [0xff, 0xff, 0xff, 0xff]);
    for (const type of ['uint8', 'int8', 'uint16', 'uint32', 'int16', 'int32', 'int']) {
      for (const schema of [t[type](), t.object({ a: t[type](), b: t.bool() }), t.array(t[type]())]) {
        const fast = compile(schema, { codegen: true });
        const native = compile(schema, { codegen: false });
        const zero = Uint8Array.from(schema.type === 'object' ? [0, 1] : [0]);
        for (const e of encodings) {
          const framed = schema.type === 'object' ? [...e, 1] : schema.type === 'array' ? [2, ...e, 0] : e;
          assertAgree(fast, native, Uint8Array.from(framed), `${type} ${JSON.stringify(schema.type)} ${Buffer.from(e).toString('hex')}`, zero);
        }
      }
    }
  });

  test('random bytes of every length up to SET_INPUT decode as natively', () => {
    const r = random(0xb17e);
    for (const { schema, simple } of Object.values(CASES)) {
      const fast = compile(schema, { codegen: true });
      const native = compile(schema, { codegen: false });
      // A message the JS read reads.
      const prime = fast.encode(simple);
      for (let n = 0; n < 3000; n++) {
        const bytes = Uint8Array.from({ length: Math.floor(r() * (r() < 0.5 ? 25 : rt.SET_INPUT + 1)) }, () => (r() < 0.7 ? Math.floor(r() * 128) : pick(r, BYTES)));
        assertAgree(fast, native, bytes, 'random', prime);
      }
    }
  });

  test('types without a JS read, constraints and limits a small message could reach leave it to the native decode', () => {
    const none = [
      t.object({ a: t.uint8(), b: t.date() }),
      t.object({ a: t.float64({ min: 0 }) }),
      t.object({ a: t.array(t.uint8(), { maxItems: 3 }) }),
      t.object({ a: t.bytes() }),
      t.object({ a: t.uint8({ max: 9 }) }),
      t.object({ a: t.string({ maxLength: 3 }) }),
      t.object({ a: t.string({ format: 'email' }) }),
    ];
    for (const d of none) assert.doesNotMatch(generate(d, analyze(d), null).source, /fast: \{/, JSON.stringify(d));
    const person = CASES.person.schema;
    const limits = { maxStringBytes: -1, maxArrayLength: -1, budget: Infinity };
    assert.doesNotMatch(generate(person, analyze(person), null, null, { ...limits, maxStringBytes: 2 }).source, /fast: \{/);
    assert.doesNotMatch(generate(person, analyze(person), null, null, { ...limits, budget: 100 }).source, /fast: \{/);
    const list = t.array(t.uint8());
    assert.match(generate(list, analyze(list), null, null, limits).source, /fast: \{/);
    assert.doesNotMatch(generate(list, analyze(list), null, null, { ...limits, maxArrayLength: 3 }).source, /fast: \{/);
    assert.throws(() => compile(list, { maxArrayLength: 3 }).decode(Uint8Array.of(4, 1, 2, 3, 4)), { code: 'ERR_SHORN_LIMIT' });
    // Through compile: the limits hold as they do natively.
    const bytes = compile(person).encode({ id: 1, name: 'Ada', age: 2, active: true });
    assert.throws(() => compile(person, { maxStringBytes: 2 }).decode(bytes), { code: 'ERR_SHORN_LIMIT' });
    assert.throws(() => compile(person, { maxDecodedBytes: 10 }).decode(bytes), { code: 'ERR_SHORN_LIMIT' });
    assert.equal(compile(person, { maxStringBytes: 3 }).decode(bytes).name, 'Ada');
  });

  test('a JS read given up is skipped for the next 1, 2, 4, ... 64 messages, and tried again after one it reads', () => {
    const codec = compile(CASES.person.schema);
    const src = generate(CASES.person.schema, analyze(CASES.person.schema), null).source;
    assert.match(src, /skip\$ = backoff\$;/);
    // Observable only in time; here, that values and errors stay right through it.
    const good = codec.encode({ id: 1, name: 'Ada', age: 2, active: true });
    const late = codec.encode({ id: 1, name: 'Ada Lovelace, Countess', age: 2, active: true });
    for (let k = 0; k < 300; k++) {
      assert.equal(codec.decode(k % 7 === 0 ? good : late).name, k % 7 === 0 ? 'Ada' : 'Ada Lovelace, Countess');
      assert.throws(() => codec.decode(good.subarray(0, 5)), { code: 'ERR_SHORN_TRUNCATED' });
    }
  });

  test('a tape grown by a huge encode or decode is given back by the next small message, read natively', () => {
    const list = compile(t.array(t.uint8()));
    const person = compile(CASES.person.schema);
    const bytes = person.encode({ id: 1, name: 'Ada', age: 2, active: true });
    const huge = list.encode(new Array(600_000).fill(1));
    assert.ok(rt.state.tape.length > rt.KEEP_TAPE_SLOTS, `the encode grew the tape: ${rt.state.tape.length} slots`);
    assert.equal(person.decode(bytes).name, 'Ada');
    assert.ok(rt.state.tape.length <= rt.KEEP_TAPE_SLOTS, `given back: ${rt.state.tape.length} slots`);
    assert.equal(list.decode(huge).length, 600_000);
    assert.ok(rt.state.tape.length > rt.KEEP_TAPE_SLOTS, `the decode grew the tape: ${rt.state.tape.length} slots`);
    assert.equal(person.decode(bytes).name, 'Ada');
    assert.ok(rt.state.tape.length <= rt.KEEP_TAPE_SLOTS, `given back: ${rt.state.tape.length} slots`);
    // Then small messages are read in JS again.
    assert.equal(rt.state.grown, false);
  });

  test("a reader of another schema's bytes reads natively, with its defaults", () => {
    const writer = compile(t.object({ id: t.uint32() }));
    const reader = compile(t.object({ id: t.uint32(), name: t.default(t.string(), 'x') }));
    assert.deepEqual(reader.reader(writer).decode(writer.encode({ id: 5 })), { id: 5, name: 'x' });
  });
});
