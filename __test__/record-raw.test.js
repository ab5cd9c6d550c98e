'use strict';
// Records written whole by JS in their bytes into the tape (lib/put.js, `putRecord`;
// src/engine.rs, RAW_ENTRIES), and, where the JS write gives up, by tokens: the bytes and
// errors of every case are those of the JS back end (lib/js-backend.js, which shares none
// of that code) and of the generic marshaller (no generated code).

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { t, compile, ShornError } = require('..');

function outcome(fn) {
  try {
    return { bytes: Buffer.from(fn()).toString('hex') };
  } catch (e) {
    assert.ok(e instanceof ShornError, String(e));
    return { code: e.code, path: e.path, message: e.message };
  }
}

// The generated encode (native back end) against the JS back end and the generic path.
function agree(schema, value, label) {
  const generated = compile(schema, { codegen: true });
  const want = outcome(() => generated.encode(value));
  for (const options of [{ backend: 'js' }, { codegen: false }]) {
    assert.deepStrictEqual(outcome(() => compile(schema, options).encode(value)), want, `${label} ${JSON.stringify(options)}`);
  }
  return want;
}

// First in this file, while the tape is its first size (4,096 slots, lib/base.js
// TAPE_SLOTS): records that end just before, at and past its end, which the JS write must
// give up (by tokens) rather than write past.
test('a record at the end of the tape: written whole up to its last byte, by tokens past it', () => {
  const schema = t.record(t.string());
  const codec = compile(schema, { codegen: true });
  // 1,422 or 1,423 entries of 23 bytes (a key of 5 ASCII characters, a value of 16, the
  // longest the JS write takes) and one more of 7 to 23 end before, at or past the end of
  // the tape's first 32,768 bytes. 1,423 and 16 first, while the tape is still that size:
  // 10 bytes past.
  const entry = (k) => [`k${String(k).padStart(4, '0')}`, 'v'.repeat(16)];
  const cases = [[1423, 16]];
  for (const m of [1422, 1423]) for (let last = 0; last <= 16; last++) cases.push([m, last]);
  for (const [m, last] of cases) {
    const value = Object.fromEntries([...Array.from({ length: m }, (_, k) => entry(k)), ['z', 'w'.repeat(last)]]);
    assert.deepStrictEqual(codec.decode(codec.encode(value)), value, `${m}, ${last}`);
  }
});

const MIXED = t.union([t.uint32(), t.string(), t.bool(), t.array(t.string()), t.float64(), t.null()]);

test('records of every kind of value, valid and not: the bytes and errors of the other paths', () => {
  const schemas = {
    mixed: t.array(t.record(MIXED)),
    numbers: t.record(t.float64()),
    ints: t.record(t.int32({ min: -5, max: 1000 })),
    strings: t.record(t.string({ maxLength: 6 })),
    objects: t.record(t.object({ a: t.uint8(), b: t.optional(t.string()) })),
    nested: t.record(t.record(t.uint16())),
    limited: t.record(t.bool(), { maxEntries: 3 }),
    enums: t.record(t.enum(['x', 'yy'])),
  };
  const values = {
    mixed: [
      [{ id: 1, name: 'ada', ok: true, tags: ['a', 'b'], score: 1.5, none: null }],
      [{}, { '': 0 }, { 0: 'zero', 10: 'ten', 2: 'two', z: 'zed' }],
      [{ name: 'zoë' }],
      [{ name: 'a\ud800' }],
      [{ ['é']: 1 }],
      [{ id: -1 }],
      [{ id: NaN }],
      [{ tags: ['a', 1] }],
      [{ long: 'x'.repeat(3000) }],
      [Object.fromEntries(Array.from({ length: 400 }, (_, k) => [`key${k}`, k]))],
      // Past the end of any tape it could be written into: by tokens.
      [{ huge: 'h'.repeat(300000) }],
      [Object.fromEntries(Array.from({ length: 40000 }, (_, k) => [`k${k}`, 'v']))],
      [{ ['__proto__']: 1 }],
      [JSON.parse('{"__proto__": "p", "b": 2}')],
      [new Map()],
      [null],
      [Object.create({ inherited: 1 })],
    ],
    numbers: [{ a: 0.1, b: -0, c: Infinity, d: NaN }, { a: 1e308 }, { a: '1' }],
    ints: [{ a: -5, b: 1000 }, { a: -6 }, { a: 1001 }, { a: 1.5 }],
    strings: [{ a: 'abcdef' }, { a: 'abcdefg' }, { a: 'ünï' }],
    objects: [{ k: { a: 1 } }, { k: { a: 1, b: 'x' } }, { k: { a: 256 } }, { k: 3 }],
    nested: [{ a: { b: 1, c: 2 }, d: {} }, { a: { b: 70000 } }],
    limited: [{ a: true, b: false, c: true }, { a: true, b: false, c: true, d: false }],
    enums: [{ a: 'x', b: 'yy' }, { a: 'z' }],
  };
  let refused = 0;
  let written = 0;
  for (const [name, schema] of Object.entries(schemas)) {
    for (const value of values[name]) {
      const got = agree(schema, value, name);
      if ('code' in got) refused++;
      else written++;
    }
  }
  assert.ok(refused >= 15 && written >= 15, `${written} written, ${refused} refused`);
});

test('a record whose value changes while it is written (a getter) is written as the token path reads it', () => {
  const schema = t.array(t.record(MIXED));
  let calls = 0;
  const flip = {
    a: 1,
    get b() {
      calls++;
      // The JS write reads 'ok' first; the token path reads a non-ASCII string.
      return calls % 2 === 1 ? 'ok' : 'nö';
    },
  };
  const bytes = compile(schema, { codegen: true }).encode([flip]);
  // What was read last is what is on the wire.
  const value = compile(schema).decode(bytes)[0];
  assert.ok(value.b === 'ok' || value.b === 'nö');
  assert.deepStrictEqual(value, { a: 1, b: value.b });
  // A getter that encodes with the same codec while the record is written.
  const codec = compile(schema, { codegen: true });
  const inner = [{ x: 'inner' }];
  const outer = [
    {
      a: 1,
      get b() {
        return Buffer.from(codec.encode(inner)).toString('hex');
      },
    },
  ];
  const got = codec.decode(codec.encode(outer));
  assert.deepStrictEqual(codec.decode(Buffer.from(got[0].b, 'hex')), inner);
});

test('many records in one message, the tape growing between them', () => {
  const schema = t.array(t.record(MIXED));
  for (const n of [0, 1, 7, 64, 500, 5000]) {
    const value = Array.from({ length: n }, (_, k) => ({ id: k, name: `user${k}`, ok: k % 2 === 0, tags: ['a', `b${k}`], score: k / 3, big: k % 97 === 0 ? 'y'.repeat(1500) : 'n' }));
    const got = agree(schema, value, `n=${n}`);
    assert.deepStrictEqual(compile(schema).decode(Buffer.from(got.bytes, 'hex')), value);
  }
});
