'use strict';
// The JS read of small messages (lib/codegen.js, `fastTake`): a generated decode reads a
// message of at most SET_INPUT bytes itself when every value in it is in its common
// form, and leaves the rest to the native decode. Here it must give exactly what the
// native decode gives (the generic marshaller has no JS read): the same values, with the
// same keys in the same order and the same prototypes, and the same errors (code,
// message, offset, path) for every random, mutated, truncated and extended message.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { inspect } = require('node:util');
const { shorn, mulberry32: random, marshallerOf } = require('./helpers');
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
  'ints and dates': {
    schema: t.object({ at: t.date(), n: t.int(), list: t.array(t.int()) }),
    simple: { at: new Date(1718031234567), n: -3, list: [2 ** 40, -(2 ** 33)] },
    value: (r) => {
      const int = () => (r() < 0.5 ? -1 : 1) * Math.floor(r() * 2 ** Math.floor(r() * 54)) || 0;
      return { at: new Date(r() < 0.8 ? 1.7e12 + int() % 1e10 : int()), n: int(), list: Array.from({ length: Math.floor(r() * 4) }, int) };
    },
  },
  unions: {
    schema: t.object({
      u: t.union([t.uint8(), t.string(), t.array(t.int16()), t.null()]),
      m: t.discriminatedUnion('type', [
        t.object({ type: t.literal('a'), x: t.uint32() }),
        t.object({ type: t.literal('b'), s: t.string(), f: t.float64() }),
        t.object({ type: t.literal(3), n: t.optional(t.bool()) }),
      ]),
    }),
    simple: { u: 7, m: { type: 'b', s: 'hi', f: 0.5 } },
    value: (r) => ({
      u: pick(r, [() => small(r, 255), () => text(r), () => Array.from({ length: Math.floor(r() * 4) }, () => small(r, 65535) - 32768), () => null])(),
      m: pick(r, [() => ({ type: 'a', x: small(r, 4294967295) }), () => ({ type: 'b', s: text(r), f: r() * 10 }), () => (r() < 0.5 ? { type: 3 } : { type: 3, n: r() < 0.5 })])(),
    }),
  },
  'tuples and defaults': {
    schema: t.object({
      at: t.tuple([t.float64(), t.float64()]),
      none: t.tuple([]),
      one: t.tuple([t.string()]),
      path: t.array(t.tuple([t.int16(), t.uint8(), t.bool()])),
      role: t.default(t.enum(['user', 'admin']), 'user'),
      label: t.default(t.nullable(t.string()), 'none'),
    }),
    simple: { at: [1.5, -2], none: [], one: ['x'], path: [[1, 2, true]] },
    value: (r) => {
      const o = { at: [r() * 360 - 180, r() * 180 - 90], none: [], one: [text(r)], path: Array.from({ length: Math.floor(r() * 4) }, () => [small(r, 65535) - 32768, small(r, 255), r() < 0.5]) };
      if (r() < 0.5) o.role = pick(r, ['user', 'admin']);
      if (r() < 0.5) o.label = r() < 0.5 ? null : text(r);
      return o;
    },
  },
  // More descriptors than lib/walk.js's SPLIT_NODES: each variant's JS read and write is
  // a function of its own (lib/codegen.js, `readApart`, `writeApart`), one with a union
  // inside, and a field follows the union; a variant with bytes (no JS read or write)
  // gives them up for its messages only.
  'a union of many message types': {
    schema: t.object({
      msg: t.discriminatedUnion('type', [
        ...Array.from({ length: 20 }, (_, k) =>
          t.object({ type: t.literal(`m${k}`), id: t.uint32(), room: t.string(), text: t.optional(t.string()), at: t.float64(), seen: t.bool() }),
        ),
        t.object({ type: t.literal('inner'), u: t.union([t.uint8(), t.string(), t.null()]), list: t.array(t.int16()), after: t.uint16() }),
        t.object({ type: t.literal('blob'), data: t.bytes(), n: t.uint8() }),
      ]),
      after: t.uint8(),
    }),
    simple: { msg: { type: 'm3', id: 7, room: 'r', at: 1.5, seen: true }, after: 9 },
    value: (r) => ({
      msg:
        r() < 0.1
          ? { type: 'blob', data: Uint8Array.from({ length: small(r, 300) % 40 }, () => small(r, 255) % 256), n: small(r, 255) }
          : r() < 0.2
          ? { type: 'inner', u: pick(r, [() => small(r, 255), () => text(r), () => null])(), list: Array.from({ length: Math.floor(r() * 4) }, () => small(r, 65535) - 32768), after: small(r, 65535) }
          : { type: `m${small(r, 19) % 20}`, id: small(r, 4294967295), room: text(r), ...(r() < 0.5 ? { text: text(r) } : {}), at: r() * 10, seen: r() < 0.5 },
      after: small(r, 255),
    }),
  },
  // Constrained values are read in JS too, and checked there as encode checks them; one
  // that breaks its constraints gives up the JS read, and the native decode reports it.
  // The values come from the same schema without constraints, so that some break them.
  constraints: {
    schema: t.object({
      id: t.uint32({ min: 10, max: 100000, multipleOf: 2 }),
      age: t.uint8({ max: 150 }),
      d: t.int16({ min: -5 }),
      n: t.int({ min: -(2 ** 40), max: 2 ** 40 }),
      score: t.float64({ min: 0, max: 100 }),
      r: t.float32({ min: -1 }),
      name: t.string({ minLength: 2, maxLength: 8 }),
      code: t.string({ pattern: '^[a-z]+[0-9]?$' }),
      email: t.optional(t.string({ format: 'email' })),
      id2: t.optional(t.string({ format: 'uuid' })),
      ip: t.optional(t.string({ format: 'ipv4', maxLength: 15 })),
      site: t.optional(t.string({ format: 'url' })),
      list: t.array(t.union([t.uint8({ min: 1 }), t.string({ maxLength: 3 })])),
    }),
    writer: t.object({
      id: t.uint32(),
      age: t.uint8(),
      d: t.int16(),
      n: t.int(),
      score: t.float64(),
      r: t.float32(),
      name: t.string(),
      code: t.string(),
      email: t.optional(t.string()),
      id2: t.optional(t.string()),
      ip: t.optional(t.string()),
      site: t.optional(t.string()),
      list: t.array(t.union([t.uint8(), t.string()])),
    }),
    simple: { id: 12, age: 36, d: -5, n: -3, score: 99.5, r: -1, name: 'Ada', code: 'ab1', email: 'a@b.co', ip: '10.0.0.1', site: 'http://a.b/', list: [1, 'x'] },
    // A valid value, and in three of ten one field broken.
    value: (r) => {
      const o = {
        id: 10 + 2 * small(r, 40000),
        age: small(r, 150),
        d: small(r, 300) - 5,
        n: (r() < 0.5 ? -1 : 1) * Math.floor(r() * 2 ** Math.floor(r() * 41)) || 0,
        score: pick(r, [0, 100, 50.5, -0, r() * 100]),
        r: pick(r, [-1, 0, 1.5, Math.fround(r() * 2 - 1)]),
        name: pick(r, ['Ad', 'Ada', 'abcdefgh']),
        code: pick(r, ['a', 'abc1', 'zz9']),
        list: Array.from({ length: Math.floor(r() * 4) }, () => (r() < 0.5 ? 1 + small(r, 254) : pick(r, ['', 'ab', 'abc']))),
      };
      if (r() < 0.5) o.email = pick(r, ['a@b.co', 'ada@example.com']);
      if (r() < 0.3) o.id2 = pick(r, ['00000000-0000-0000-0000-000000000000', '123e4567-e89b-12d3-a456-426614174000']);
      if (r() < 0.5) o.ip = pick(r, ['10.0.0.1', '255.255.255.255']);
      if (r() < 0.5) o.site = pick(r, ['http://a.b/', 'https://example.com']);
      if (r() < 0.3) {
        const broken = {
          id: () => pick(r, [0, 8, 11, 100002, 4294967295]),
          age: () => 151 + Math.floor(r() * 105),
          d: () => -6 - small(r, 1000),
          n: () => pick(r, [2 ** 40 + 1, -(2 ** 40) - 2, 2 ** 52]),
          score: () => pick(r, [-1, 100.5, NaN, Infinity, -Infinity]),
          r: () => pick(r, [-1.5, NaN, -Infinity]),
          name: () => pick(r, ['', 'A', 'abcdefghi', 'é']),
          code: () => pick(r, ['', '1', 'ab12', 'A', 'ab-']),
          email: () => pick(r, ['a@b', '@b.co', 'a b@c.de', 'a@b.c']),
          id2: () => pick(r, ['not-a-uuid', '123e4567-e89b-12d3-a456-42661417400']),
          ip: () => pick(r, ['256.1.1.1', '1.2.3', '01.2.3.4', '1.2.3.4.5']),
          site: () => pick(r, ['x', 'no url', 'http//a']),
          list: () => [pick(r, [0, 'abcd'])],
        };
        const key = pick(r, Object.keys(broken));
        o[key] = broken[key]();
      }
      return o;
    },
  },
  'a string alone': { schema: t.string(), value: (r) => text(r), simple: 'abc' },
  'an integer alone': { schema: t.int32(), value: (r) => (r() < 0.5 ? -1 : 1) * small(r, 2147483647) || 0, simple: -70000 },
  'an enum of many': { schema: t.enum(Array.from({ length: 300 }, (_, k) => `s${k}`)), value: (r) => `s${small(r, 299)}`, simple: 's200' },
};

// What `generate` needs of a schema's generic marshaller to generate code (a default's value).

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
  for (const [name, { schema, value, simple, writer }] of Object.entries(CASES)) {
    test(`${name}: it is generated`, () => {
      const info = analyze(schema);
      const { source } = generate(schema, info, marshallerOf(schema, info));
      assert.match(source, /fast: \{/);
      // A large schema reads each union variant in a function of its own.
      assert.equal(/function fr\d+\(bytes, n\$, o\$\)/.test(source), info.split, 'variant functions in a large schema only');
    });

    test(`${name}: a message of small values is read in JS, with no native call`, () => {
      // A native decode of a small message starts by copying it into the input area (its
      // length first); the JS read leaves the area alone.
      const codec = compile(schema);
      const bytes = codec.encode(simple);
      const expected = compile(schema, { codegen: false }).decode(bytes);
      const area = rt.state.input;
      for (let k = 0; k < 3; k++) {
        area[0] = 0xff;
        const value = codec.decode(bytes);
        assert.equal(area[0], 0xff, `${name}: read natively`);
        assertSame(value, expected, name);
      }
    });

    test(`${name}: random, mutated, truncated and extended messages decode as natively`, () => {
      const fast = compile(schema, { codegen: true });
      const native = compile(schema, { codegen: false });
      const r = random(0x5a11 + name.length);
      const write = writer === undefined ? null : compile(writer);
      // A message the JS read reads, to make it try again after one it gave up.
      const good = fast.encode(simple);
      let read = 0;
      let failed = 0;
      for (let n = 0; n < 400; n++) {
        const v = value(r);
        const bytes = write === null ? fast.encode(v) : write.encode(v);
        if (write === null) assert.deepEqual(bytes, native.encode(v));
        if ('error' in assertAgree(fast, native, bytes, `${name} ${n}`)) failed++;
        else assertSame(fast.decode(bytes), native.decode(bytes), `${name} ${n}`);
        if (bytes.length <= rt.SET_INPUT) read++;
        // Every byte replaced by telling values, every truncation, a byte more.
        for (let k = 0; k < bytes.length && n % 4 === 0; k++) {
          for (const b of BYTES) {
            const m = Uint8Array.from(bytes);
            m[k] = b;
            if ('error' in assertAgree(fast, native, m, `${name} ${n} byte ${k} = ${b}`, good)) failed++;
          }
        }
        for (let k = 0; k < bytes.length; k++) assertAgree(fast, native, bytes.subarray(0, k), `${name} ${n} cut at ${k}`, good);
        assertAgree(fast, native, Uint8Array.from([...bytes, pick(r, BYTES)]), `${name} ${n} extended`, good);
        // A view at an offset into a larger buffer.
        const wide = new Uint8Array(bytes.length + 7);
        wide.set(bytes, 3);
        assertAgree(fast, native, wide.subarray(3, 3 + bytes.length), `${name} ${n} view`, good);
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
    const values = [0, 1, 127, 128, 255, 256, 16383, 16384, 32767, 32768, 65535, 65536, 65537, 2 ** 21 - 1, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 35, 2 ** 42, 2 ** 49 - 1, 2 ** 49, 2 ** 52, 2 ** 53 - 2, 2 ** 53 - 1, 2 ** 53, 2 ** 56, 2 ** 63];
    const encodings = values.map(varint);
    // Overlong forms, a fifth byte over 0x0f, a sixth byte, and cut-off ones.
    encodings.push([0x80, 0x00], [0xff, 0x80, 0x00], [0xff, 0xff, 0xff, 0xff, 0x00], [0xff, 0xff, 0xff, 0xff, 0x10], [0xff, 0xff, 0xff, 0xff, 0x1f]);
    encodings.push([0xff, 0xff, 0xff, 0xff, 0x8f, 0x01], [0x80], [0xff, 0xff], [0xff, 0xff, 0xff, 0xff]);
    // Long ones: overlong at 6 to 10 bytes, cut off, and ten bytes of ones.
    for (let k = 5; k <= 9; k++) encodings.push([...Array(k).fill(0xff), 0x00], [...Array(k).fill(0x80), 0x01], Array(k).fill(0xff));
    encodings.push([...Array(9).fill(0xff), 0x01], [...Array(9).fill(0xff), 0x7f], [...Array(10).fill(0xff), 0x01]);
    for (const type of ['uint8', 'int8', 'uint16', 'uint32', 'int16', 'int32', 'int', 'date']) {
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

  test('types without a JS read, counted constraints and limits a small message could reach leave it to the native decode', () => {
    const none = [
      t.object({ a: t.uint8(), b: t.bytes() }),
      t.object({ a: t.array(t.uint8(), { maxItems: 3 }) }),
      t.object({ a: t.bytes() }),
    ];
    for (const d of none) assert.doesNotMatch(generate(d, analyze(d), marshallerOf(d)).source, /fast: \{/, JSON.stringify(d));
    // Bounds, lengths, patterns and formats are checked by the JS read itself.
    const some = [
      t.object({ a: t.float64({ min: 0 }) }),
      t.object({ a: t.uint8({ max: 9 }) }),
      t.object({ a: t.string({ maxLength: 3 }) }),
      t.object({ a: t.string({ format: 'email' }) }),
      t.object({ a: t.string({ pattern: '^a' }) }),
    ];
    for (const d of some) assert.match(generate(d, analyze(d), marshallerOf(d)).source, /fast: \{/, JSON.stringify(d));
    const person = CASES.person.schema;
    const limits = { maxStringBytes: -1, maxArrayLength: -1, budget: Infinity };
    assert.doesNotMatch(generate(person, analyze(person), marshallerOf(person), null, { ...limits, maxStringBytes: 2 }).source, /fast: \{/);
    assert.doesNotMatch(generate(person, analyze(person), marshallerOf(person), null, { ...limits, budget: 100 }).source, /fast: \{/);
    const list = t.array(t.uint8());
    assert.match(generate(list, analyze(list), marshallerOf(list), null, limits).source, /fast: \{/);
    assert.doesNotMatch(generate(list, analyze(list), marshallerOf(list), null, { ...limits, maxArrayLength: 3 }).source, /fast: \{/);
    assert.throws(() => compile(list, { maxArrayLength: 3 }).decode(Uint8Array.of(4, 1, 2, 3, 4)), { code: 'ERR_SHORN_LIMIT' });
    // Through compile: the limits hold as they do natively.
    const bytes = compile(person).encode({ id: 1, name: 'Ada', age: 2, active: true });
    assert.throws(() => compile(person, { maxStringBytes: 2 }).decode(bytes), { code: 'ERR_SHORN_LIMIT' });
    assert.throws(() => compile(person, { maxDecodedBytes: 10 }).decode(bytes), { code: 'ERR_SHORN_LIMIT' });
    assert.equal(compile(person, { maxStringBytes: 3 }).decode(bytes).name, 'Ada');
  });

  test('a JS read given up is skipped for the next 1, 2, 4, ... 64 messages, and tried again after one it reads', () => {
    const codec = compile(CASES.person.schema);
    const src = generate(CASES.person.schema, analyze(CASES.person.schema), marshallerOf(CASES.person.schema)).source;
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

// The JS write of small messages (lib/codegen.js, `fastPut`): a generated encode writes a
// valid value of at most WRITE_MAX bytes whose values are in their common form itself, into
// a slab of its own (`rt.writer`), and leaves the rest to `marshal` and the native encoder.
// The bytes must be the ones the native encoder writes (the generic marshaller has no JS
// write), and every value it does not write (invalid, other text, too large) must give the
// result and the error the native encode gives.
describe('the JS write of small messages', () => {
  // Whether `bytes` came from the JS write (its slab) rather than the native encoder's.
  const written = (bytes) => bytes.buffer === rt.writer.buf;
  // After a JS write is given up, the generated encode skips it for the next few values:
  // encoding `simple` until one is written in JS makes it try the next value again.
  function prime(codec, simple) {
    for (let k = 0; k < 200; k++) if (written(codec.encode(simple))) return;
    assert.fail('no value was written in JS');
  }
  function encodeOutcome(codec, value) {
    try {
      return { bytes: Buffer.from(codec.encode(value)).toString('hex') };
    } catch (e) {
      return { error: { name: e.name, code: e.code, message: e.message, path: e.path } };
    }
  }
  // What `encodeInto` writes into a target with `room` bytes from offset 3, or its error.
  function outcomeInto(codec, value, room) {
    const target = new Uint8Array(3 + Math.max(room, 0)).fill(0xee);
    try {
      const n = codec.encodeInto(value, target, 3);
      return { n, target: Buffer.from(target).toString('hex') };
    } catch (e) {
      return { error: { name: e.name, code: e.code, message: e.message, path: e.path }, target: Buffer.from(target).toString('hex') };
    }
  }
  // Wrong values to put in place of a part of a value.
  const JUNK = [undefined, null, -1, 1.5, 2 ** 32, 2 ** 31, -(2 ** 31) - 1, NaN, -0, Infinity, 'x', 'é', '', true, 0, 256, 65536, {}, [], [1], 10n, 'click'];
  // `value` with one of its parts (picked by `r`) replaced by junk.
  function mutate(r, value) {
    const slots = [];
    const walk = (x) => {
      if (typeof x !== 'object' || x === null) return;
      for (const key of Object.keys(x)) {
        slots.push([x, key]);
        walk(x[key]);
      }
    };
    walk(value);
    if (slots.length === 0) return pick(r, JUNK);
    const [parent, key] = pick(r, slots);
    rt.defineOwn(parent, key, pick(r, JUNK));
    return value;
  }

  for (const [name, { schema, value, simple, writer }] of Object.entries(CASES)) {
    test(`${name}: it is generated`, () => {
      const info = analyze(schema);
      const { source } = generate(schema, info, marshallerOf(schema, info));
      assert.match(source, /write: \{/);
      // A large schema writes each union variant in a function of its own.
      assert.equal(/function fw\d+\(x, w\$, U, o, e\$\)/.test(source), info.split, 'variant functions in a large schema only');
    });

    test(`${name}: random and broken values encode as natively, to the byte and the error`, () => {
      const fast = compile(schema, { codegen: true });
      const native = compile(schema, { codegen: false });
      const r = random(0x3a7e + name.length);
      let inJs = 0;
      let errors = 0;
      for (let n = 0; n < 600; n++) {
        const v = n % 3 === 2 ? mutate(r, value(r)) : value(r);
        prime(fast, simple);
        const a = encodeOutcome(fast, v);
        const b = encodeOutcome(native, v);
        assert.deepEqual(a, b, `${name} ${n}: ${inspect(v)}`);
        // encodeInto, at an offset, into a target with room or one byte short of it.
        const size = 'bytes' in b ? b.bytes.length / 2 : 8;
        for (const room of [size, size - 1]) {
          prime(fast, simple);
          assert.deepEqual(outcomeInto(fast, v, room), outcomeInto(native, v, room), `${name} ${n} into ${room}: ${inspect(v)}`);
        }
        if ('error' in b) errors++;
        else {
          prime(fast, simple);
          if (written(fast.encode(v))) inJs++;
        }
      }
      // Both ways must have been taken, and the errors met.
      assert.ok(inJs > 200, `${inJs} values written in JS`);
      assert.ok(errors > 50, `${errors} values were errors`);
    });
  }

  test('edge values of every leaf encode as natively', () => {
    const cases = [
      [t.uint8(), [0, 255, 256, -1, 1.5, -0]],
      [t.int8(), [-128, 127, 128, -129, -0, -1]],
      [t.uint16(), [0, 127, 128, 16383, 16384, 65535, 65536]],
      [t.uint32(), [0, 127, 128, 2 ** 21 - 1, 2 ** 21, 2 ** 28, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, -1]],
      [t.int16(), [-32768, 32767, -64, 63, 64, -65, 32768]],
      [t.int32(), [-(2 ** 31), 2 ** 31 - 1, -1, 0, -0, 2 ** 31, 1e9]],
      [t.int(), [0, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 2 ** 32, -(2 ** 32), 2 ** 35 + 7, -(2 ** 40) - 3, 2 ** 52, -(2 ** 52), 2 ** 52 + 2, 2 ** 53 - 1, -(2 ** 53) + 1, 2 ** 53, -0]],
      [t.date(), [new Date(0), new Date(-1), new Date(1718031234567), new Date(-62198755200000), new Date(2 ** 52), new Date(-(2 ** 52)), new Date(8.64e15), new Date(-8.64e15), new Date(NaN), 0, '2024-01-01', null]],
      [t.float64(), [0, -0, 1.5, NaN, -NaN, Infinity, -Infinity, Number.MIN_VALUE, Number.MAX_VALUE, 1e300]],
      [t.float32(), [0, -0, 1.1, NaN, Infinity, 3.4028235677973366e38, 1e300, 1e-46, Number.MIN_VALUE]],
      [t.float64({ min: 0, max: 1 }), [0, 1, -0, 1.0000001, NaN]],
      [t.float32({ max: 1 }), [1, 1.00000001, 1.0000001]],
      [t.uint8({ min: 3, max: 9 }), [3, 2, 9, 10]],
      [t.int({ multipleOf: 3 }), [3, 4, -3, 3 * 2 ** 31]],
      [t.string(), ['', 'a', 'a\u0000b', '\u007f', '\u0080', 'x'.repeat(127), 'x'.repeat(128), 'x'.repeat(200), 'x'.repeat(300), 'é', '\ud800', '🚀']],
      [t.string({ minLength: 2, maxLength: 4 }), ['ab', 'a', 'abcd', 'abcde', '🚀🚀', '🚀']],
      [t.string({ format: 'email' }), ['a@b.co', 'a@b', 'not an email', '']],
      [t.string({ pattern: '^[a-z]+$' }), ['abc', 'ab1', '']],
      [t.enum(['a', 'b']), ['a', 'b', 'c', 0]],
      [t.enum(Array.from({ length: 300 }, (_, k) => `s${k}`)), ['s0', 's127', 's128', 's299', 's300']],
      [t.literal(5), [5, 6, '5']],
      [t.literal(0), [0, -0]],
      [t.null(), [null, undefined, 0]],
      [t.bool(), [true, false, 0, 1]],
      [t.nullable(t.uint8()), [null, 0, undefined]],
      [t.array(t.uint8()), [[], [1, 2], Array(3), [1, 'x'], new Array(255).fill(1), new Array(300).fill(1)]],
      [t.object({ a: t.uint8() }, { strict: true }), [{ a: 1 }, { a: 1, b: 2 }]],
      [t.object({ a: t.optional(t.uint8()) }), [{}, { a: undefined }, { a: 1 }, { a: null }]],
    ];
    for (const [schema, values] of cases) {
      const fast = compile(schema, { codegen: true });
      const native = compile(schema, { codegen: false });
      for (const v of values) {
        // (The first value of each is one the JS write writes.)
        prime(fast, values[0]);
        assert.deepEqual(encodeOutcome(fast, v), encodeOutcome(native, v), `${JSON.stringify(schema)} ${inspect(v)}`);
      }
    }
  });

  test('random ints and dates of every size encode as natively', () => {
    const schema = t.object({ a: t.int(), b: t.date(), c: t.array(t.int()) });
    const fast = compile(schema, { codegen: true });
    const native = compile(schema, { codegen: false });
    const r = random(0xda7e);
    const int = () => {
      const bits = Math.floor(r() * 54);
      const x = Math.floor(r() * 2 ** bits);
      return r() < 0.5 ? -x : x;
    };
    let inJs = 0;
    for (let n = 0; n < 2000; n++) {
      const v = { a: int(), b: new Date(r() < 0.9 ? int() : r() * 1.8e16 - 9e15), c: Array.from({ length: Math.floor(r() * 4) }, int) };
      prime(fast, { a: 1, b: new Date(0), c: [] });
      const b = encodeOutcome(native, v);
      assert.deepEqual(encodeOutcome(fast, v), b, inspect(v));
      prime(fast, { a: 1, b: new Date(0), c: [] });
      if ('bytes' in b && written(fast.encode(v))) inJs++;
    }
    assert.ok(inJs > 1000, `${inJs} written in JS`);
  });

  test('types without a JS write leave every value to the native encode', () => {
    const none = [
      t.object({ a: t.bytes() }),
      t.object({ a: t.array(t.uint8(), { minItems: 1 }) }),
      t.object({ a: t.int64() }),
      t.json(),
      t.recursive('R', (self) => t.object({ next: t.nullable(self) })),
    ];
    for (const d of none) assert.doesNotMatch(generate(d, analyze(d), marshallerOf(d)).source, /write: \{/, JSON.stringify(d));
    const codec = compile(t.object({ a: t.uint8(), b: t.bytes() }));
    assert.equal(written(codec.encode({ a: 1, b: Uint8Array.of(1) })), false);
  });

  test('messages written in JS are views that later ones never overwrite, across slabs', () => {
    const codec = compile(CASES.person.schema);
    prime(codec, CASES.person.simple);
    const out = [];
    for (let k = 0; k < 30_000; k++) {
      out.push(codec.encode({ id: k, name: `n${k % 1000}`, age: k % 256, active: k % 2 === 0 }));
      assert.ok(written(out[k]), `${k} written in JS`);
    }
    assert.ok(new Set(out.map((b) => b.buffer)).size > 2, 'over more than two slabs');
    for (let k = 0; k < out.length; k++) assert.deepEqual(codec.decode(out[k]), { id: k, name: `n${k % 1000}`, age: k % 256, active: k % 2 === 0 });
    assert.ok(Buffer.isBuffer(out[0]));
  });

  test('a getter that encodes during a JS write leaves both messages correct', () => {
    const codec = compile(t.object({ a: t.string(), b: t.uint8(), c: t.array(t.string()) }));
    prime(codec, { a: 'x', b: 1, c: [] });
    let inner = null;
    const value = {
      a: 'x',
      get b() {
        inner = codec.encode({ a: 'yyyy', b: 9, c: ['1', '2', '3'] });
        return 2;
      },
      c: ['z'],
    };
    const outer = codec.encode(value);
    assert.ok(written(outer) && written(inner));
    assert.equal(Buffer.from(outer).toString('hex'), '01780201017a');
    assert.deepEqual(codec.decode(inner), { a: 'yyyy', b: 9, c: ['1', '2', '3'] });
    assert.deepEqual(codec.decode(outer), { a: 'x', b: 2, c: ['z'] });
    // A getter that throws: the error reaches the caller, and the next messages are right.
    const boom = new Error('boom');
    assert.throws(() => codec.encode({ a: 'x', get b() { throw boom; }, c: [] }), (e) => e === boom);
    assert.deepEqual(codec.decode(codec.encode({ a: 'q', b: 3, c: ['r'] })), { a: 'q', b: 3, c: ['r'] });
    assert.deepEqual(codec.decode(inner), { a: 'yyyy', b: 9, c: ['1', '2', '3'] });
    assert.deepEqual(codec.decode(outer), { a: 'x', b: 2, c: ['z'] });
  });

  test('a JS write slab taken away (ArrayBuffer#transfer) is replaced', { skip: typeof ArrayBuffer.prototype.transfer !== 'function' && 'no ArrayBuffer#transfer' }, () => {
    const codec = compile(CASES.person.schema);
    const first = codec.encode({ id: 1, name: 'Ada', age: 2, active: true });
    assert.ok(written(first));
    try {
      first.buffer.transfer();
    } catch {
      // Refused (untransferable): nothing was taken.
    }
    const next = codec.encode({ id: 2, name: 'Bob', age: 3, active: false });
    assert.deepEqual(codec.decode(next), { id: 2, name: 'Bob', age: 3, active: false });
  });

  test('a huge encode is followed by one native encode, which gives back its tape and scratch', () => {
    const list = compile(t.array(t.uint32()));
    const person = compile(CASES.person.schema);
    list.encode(Array.from({ length: 600_000 }, (_, k) => k));
    assert.ok(rt.state.tape.length > rt.KEEP_TAPE_SLOTS);
    const p = { id: 1, name: 'Ada', age: 2, active: true };
    assert.equal(written(person.encode(p)), false);
    assert.ok(rt.state.tape.length <= rt.KEEP_TAPE_SLOTS, `given back: ${rt.state.tape.length} slots`);
    assert.equal(written(person.encode(p)), true);
    // And after an encode that failed natively or in JS, one native encode too.
    assert.throws(() => list.encode([1, -1]), { code: 'ERR_SHORN_INVALID' });
    assert.equal(written(person.encode(p)), false);
    assert.equal(written(person.encode(p)), true);
  });
});
