'use strict';
// Randomised checks with fast-check, all seeded: round trips of every type and of nested
// and randomly generated schemas, agreement of the two marshallers and of encodeInto, and a
// decode fuzz (random bytes, mutated and truncated encodings) that must only ever decode or
// throw a ShornError with a decode code.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fc = require('fast-check');
const {
  shorn,
  MODES,
  compileMode,
  toHex,
  expectedDecoded,
  defineOwn,
  DECODE_CODES,
  accepts,
} = require('./helpers');

const { t, ShornError } = shorn;
const { walk } = require('../lib/walk');

const SEED = 0x5a0e;
const FIELD_NAMES = ['a', 'b', 'id', 'name', 'x1', '_', '$', '__proto__', 'constructor', 'toString', 'a b', '1', 'é', ''];
const params = (numRuns, offset = 0) => ({ seed: SEED + offset, numRuns });

// ---- value arbitraries from a descriptor ----

const INTEGER_RANGES = {
  uint8: [0, 255],
  uint16: [0, 65535],
  uint32: [0, 4294967295],
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
};

// Strings of every shape: ASCII, Latin-1, BMP, astral, and now and then a long one.
const stringArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: 'binary', minLength: 40, maxLength: 300 }),
);

// Byte arrays as plain arrays, Buffers and views with a byteOffset.
const bytesArb = fc
  .tuple(fc.uint8Array({ maxLength: 40 }), fc.nat({ max: 7 }), fc.constantFrom('plain', 'buffer', 'view'))
  .map(([u, pad, kind]) => {
    if (kind === 'plain') return u;
    if (kind === 'buffer') return Buffer.from(u);
    const backing = new Uint8Array(u.length + pad + 3).fill(0xa5);
    backing.set(u, pad);
    return backing.subarray(pad, pad + u.length);
  });

function integerArb(type) {
  const [min, max] = INTEGER_RANGES[type];
  return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max, 0, -0, min + 1, max - 1));
}

const TYPED = {
  float64Array: () => fc.float64Array({ maxLength: 20 }),
  float32Array: () => fc.float32Array({ maxLength: 20 }),
  int32Array: () => fc.int32Array({ maxLength: 20 }),
  uint32Array: () => fc.uint32Array({ maxLength: 20 }),
  int16Array: () => fc.int16Array({ maxLength: 20 }),
  uint16Array: () => fc.uint16Array({ maxLength: 20 }),
  int8Array: () => fc.int8Array({ maxLength: 20 }),
};

const bigArb = {
  int64: fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(0n, -1n, 2n ** 63n - 1n, -(2n ** 63n))),
  uint64: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.constantFrom(0n, 2n ** 64n - 1n, 127n, 128n)),
};

// Past this depth, arrays, records and maps are empty and nullables null, so the values of
// recursive types end.
const VALUE_DEPTH = 3;

function valueArb(d, scope = new Map(), depth = 0) {
  const deeper = (x) => valueArb(x, scope, depth + 1);
  const deep = depth >= VALUE_DEPTH;
  switch (d.type) {
    case 'bool':
      return fc.boolean();
    case 'float32':
      return fc.oneof(fc.float(), fc.double(), fc.constantFrom(-0, NaN, Infinity, -Infinity, 1e40, 1e-50));
    case 'float64':
      return fc.oneof(fc.double(), fc.constantFrom(-0, NaN, Infinity, -Infinity, Number.MIN_VALUE, Number.MAX_VALUE));
    case 'int':
      return fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.constantFrom(0, -0, 63, 64, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER));
    case 'int64':
    case 'uint64':
      return bigArb[d.type];
    case 'date':
      return fc.oneof(fc.date({ noInvalidDate: true }), fc.constantFrom(new Date(8.64e15), new Date(-8.64e15), new Date(0)));
    case 'string':
      return stringArb;
    case 'bytes':
      return bytesArb;
    case 'enum':
      return fc.constantFrom(...d.values);
    case 'literal':
      return fc.constant(d.value);
    case 'null':
      return fc.constant(null);
    case 'json':
      return deep ? fc.constant(null) : fc.jsonValue({ maxDepth: 3 });
    case 'array':
      return deep ? fc.constant([]) : fc.array(deeper(d.items), { maxLength: 6 });
    case 'tuple':
      return fc.tuple(...d.items.map(deeper));
    case 'nullable':
      return deep ? fc.constant(null) : fc.option(deeper(d.of), { nil: null });
    case 'record':
      return deep
        ? fc.constant({})
        : fc.array(fc.tuple(fc.constantFrom(...FIELD_NAMES, 'zz', '7', '0'), deeper(d.values)), { maxLength: 5 }).map((entries) => {
            const out = {};
            for (const [k, v] of entries) defineOwn(out, k, v);
            return out;
          });
    case 'map':
      return deep ? fc.constant(new Map()) : fc.array(fc.tuple(deeper(d.keys), deeper(d.values)), { maxLength: 5 }).map((e) => new Map(e));
    case 'union':
    case 'discriminatedUnion':
      return fc.oneof(...d.variants.map(deeper));
    case 'recursive':
      return valueArb(d.schema, new Map(scope).set(d.name, d), depth + 1);
    case 'ref':
      return valueArb(scope.get(d.name).schema, scope, depth + 1);
    case 'object': {
      // Generated under safe keys, then renamed as own properties, so names such as
      // `__proto__` become real keys.
      const shape = {};
      const required = [];
      d.fields.forEach((f, k) => {
        const key = `k${k}`;
        if (f.schema.type === 'optional') {
          shape[key] = fc.option(deeper(f.schema.of), { nil: undefined });
        } else {
          shape[key] = deeper(f.schema);
          required.push(key);
        }
      });
      return fc
        .tuple(fc.record(shape, { requiredKeys: required }), fc.option(fc.integer(), { nil: undefined }))
        .map(([r, extra]) => {
          const out = {};
          d.fields.forEach((f, k) => {
            if (Object.hasOwn(r, `k${k}`)) defineOwn(out, f.name, r[`k${k}`]);
          });
          if (extra !== undefined && !d.fields.some((f) => f.name === 'zzExtra')) out.zzExtra = extra;
          return out;
        });
    }
    default:
      if (TYPED[d.type]) return TYPED[d.type]();
      return integerArb(d.type);
  }
}

// ---- the checks made for every value ----

function makePair(schema) {
  const [generated, generic] = MODES.map((mode) => compileMode(schema, mode));
  return { schema, generated, generic };
}

// Round trip, byte-identical marshallers, encodeInto == encode, decode from another view.
function checkValue(pair, value) {
  const { schema, generated, generic } = pair;
  const bytes = generated.encode(value);
  const hex = toHex(bytes);
  assert.equal(toHex(generic.encode(value)), hex, 'the generic marshaller gives the same bytes');
  const expected = expectedDecoded(schema, value);
  assert.deepStrictEqual(generated.decode(bytes), expected);
  assert.deepStrictEqual(generic.decode(new Uint8Array(bytes)), expected);
  const target = new Uint8Array(bytes.length + 5).fill(0xee);
  assert.equal(generated.encodeInto(value, target, 3), bytes.length);
  assert.equal(toHex(target.subarray(3, 3 + bytes.length)), hex, 'encodeInto gives the same bytes');
  const target2 = new Uint8Array(bytes.length);
  assert.equal(generic.encodeInto(value, target2), bytes.length);
  assert.equal(toHex(target2), hex);
  assert.equal(target[0], 0xee);
  assert.equal(target[target.length - 1], 0xee);
}

describe('random values of every type', () => {
  const TYPES = [
    ['bool', t.bool()],
    ['uint8', t.uint8()],
    ['uint16', t.uint16()],
    ['uint32', t.uint32()],
    ['int8', t.int8()],
    ['int16', t.int16()],
    ['int32', t.int32()],
    ['float32', t.float32()],
    ['float64', t.float64()],
    ['string', t.string()],
    ['bytes', t.bytes()],
    ['enum', t.enum(['click', 'view', 'purchase', 'signup', 'logout'])],
    ['enum of 40', t.enum(Array.from({ length: 40 }, (_, k) => `e${k}`))],
    ['nullable string', t.nullable(t.string())],
    ['array of int32', t.array(t.int32())],
    ['int', t.int()],
    ['int64', t.int64()],
    ['uint64', t.uint64()],
    ['date', t.date()],
    ['tuple', t.tuple([t.float64(), t.string(), t.int()])],
    ['record of strings', t.record(t.string())],
    ['map of int to string', t.map(t.int(), t.string())],
    ['map of string to array of int64', t.map(t.string(), t.array(t.int64()))],
    ['map of float64 keys', t.map(t.float64(), t.bool())],
    ['union', t.union([t.string(), t.int(), t.array(t.uint8()), t.null()])],
    ['json', t.json()],
    ...Object.keys(TYPED).map((type) => [type, t[type]()]),
  ];
  TYPES.forEach(([name, schema], k) => {
    test(`1,000 random ${name} values round-trip with identical bytes from both marshallers`, () => {
      const pair = makePair(schema);
      fc.assert(
        fc.property(valueArb(schema), (value) => checkValue(pair, value)),
        params(1000, k),
      );
    });
  });

  test('random integers outside each range are rejected by both marshallers', () => {
    for (const [type, [min, max]] of Object.entries(INTEGER_RANGES)) {
      const pair = makePair(t[type]());
      const outside = fc.oneof(
        fc.integer({ min: max + 1, max: max + 2 ** 33 }),
        fc.integer({ min: min - 2 ** 33, max: min - 1 }),
        fc.double({ min: min, max: max, noInteger: true }),
      );
      fc.assert(
        fc.property(outside, (x) => {
          for (const codec of [pair.generated, pair.generic]) {
            assert.throws(() => codec.encode(x), (e) => e instanceof ShornError && e.code === 'ERR_SHORN_INVALID' && e.path === '$');
          }
        }),
        params(200, 50),
      );
    }
  });

  test('random strings with lone surrogates are rejected, never replaced', () => {
    const pair = makePair(t.object({ s: t.string() }));
    const lone = fc
      .tuple(fc.string({ unit: 'binary', maxLength: 10 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 10 }))
      .map(([a, u, b]) => ({ s: `${a}${String.fromCharCode(u)}${b}`, index: a.length }))
      // A high surrogate followed by a low one is a pair, not a lone surrogate.
      .filter(({ s, index }) => {
        const c = s.charCodeAt(index);
        if (c <= 0xdbff) return !(s.charCodeAt(index + 1) >= 0xdc00 && s.charCodeAt(index + 1) <= 0xdfff);
        return !(index > 0 && s.charCodeAt(index - 1) >= 0xd800 && s.charCodeAt(index - 1) <= 0xdbff);
      });
    fc.assert(
      fc.property(lone, ({ s, index }) => {
        for (const codec of [pair.generated, pair.generic]) {
          assert.throws(
            () => codec.encode({ s }),
            (e) =>
              e instanceof ShornError &&
              e.code === 'ERR_SHORN_INVALID' &&
              e.path === '$.s' &&
              e.message === `$.s: expected a well-formed string, found a lone surrogate at index ${index}`,
          );
        }
      }),
      params(1000, 51),
    );
  });
});

describe('random nested values', () => {
  const SHAPES = [
    [
      'arrays of objects with optional, nullable, enum, string, bytes and float fields',
      t.array(
        t.object({
          id: t.uint32(),
          name: t.string(),
          nick: t.optional(t.string()),
          kind: t.enum(['a', 'b', 'c']),
          avatar: t.nullable(t.bytes()),
          score: t.float32(),
          ratio: t.float64(),
          note: t.optional(t.nullable(t.string())),
          flags: t.array(t.bool()),
        }),
      ),
    ],
    ['arrays of arrays of strings', t.array(t.array(t.string()))],
    ['arrays of arrays of arrays of int16', t.array(t.array(t.array(t.int16())))],
    [
      'a nested event with user, geo and payload',
      t.object({
        id: t.uint32(),
        ts: t.float64(),
        kind: t.enum(['click', 'view', 'purchase', 'signup', 'logout']),
        user: t.object({ id: t.uint32(), name: t.string(), tags: t.array(t.string()) }),
        geo: t.nullable(t.object({ lat: t.float64(), lon: t.float64() })),
        payload: t.object({ count: t.uint16(), ratio: t.float32(), ok: t.bool() }),
      }),
    ],
    [
      'an object of more than 16 strings and byte arrays (concatenated arguments)',
      t.object(
        Object.fromEntries([
          ...Array.from({ length: 10 }, (_, k) => [`s${k}`, t.string()]),
          ...Array.from({ length: 8 }, (_, k) => [`b${k}`, t.optional(t.bytes())]),
        ]),
      ),
    ],
    [
      'fields named like Object.prototype members',
      t.object({
        ['__proto__']: t.optional(t.uint8()),
        constructor: t.nullable(t.string()),
        toString: t.optional(t.bool()),
        valueOf: t.array(t.object({ hasOwnProperty: t.optional(t.int8()), 'a b': t.uint8() })),
      }),
    ],
    ['nullable arrays of nullable objects', t.array(t.nullable(t.object({ x: t.nullable(t.array(t.nullable(t.uint8()))) })))],
    ['a recursive tree', t.recursive('Tree', (self) => t.object({ v: t.int(), name: t.string(), kids: t.array(self) }))],
    [
      'a recursive linked list inside an object, with json payloads',
      t.object({ head: t.recursive('L', (self) => t.object({ data: t.json(), next: t.nullable(self) })), n: t.int64() }),
    ],
    [
      'a discriminated union of events',
      t.array(
        t.discriminatedUnion('type', [
          t.object({ type: t.literal('push'), size: t.uint32(), refs: t.record(t.string()) }),
          t.object({ type: t.literal('watch'), at: t.date(), who: t.tuple([t.string(), t.int()]) }),
          t.object({ type: t.literal(3), data: t.float32Array() }),
        ]),
      ),
    ],
    ['a map of tuples to records', t.map(t.tuple([t.uint8(), t.string()]), t.record(t.nullable(t.int16())))],
  ];
  SHAPES.forEach(([name, schema], k) => {
    test(`1,000 random values of ${name} round-trip with identical bytes`, () => {
      const pair = makePair(schema);
      fc.assert(
        fc.property(valueArb(schema), (value) => checkValue(pair, value)),
        params(1000, 100 + k),
      );
    });
  });
});

// ---- random schemas ----

function minSize(d) {
  switch (d.type) {
    case 'float32':
      return 4;
    case 'float64':
      return 8;
    case 'literal':
    case 'null':
      return 0;
    case 'object':
      return d.fields.reduce((n, f) => n + minSize(f.schema), 0);
    case 'tuple':
      return d.items.reduce((n, item) => n + minSize(item), 0);
    default:
      return 1;
  }
}

function takesNull(d) {
  if (d.type === 'union') return d.variants.some(takesNull);
  return d.type === 'null' || d.type === 'json' || d.type === 'nullable' || (d.type === 'literal' && d.value === null);
}

function roundsKeys(d) {
  if (d.type === 'union') return d.variants.some(roundsKeys);
  if (d.type === 'nullable') return roundsKeys(d.of);
  return d.type === 'float32';
}

const leafArb = fc.constantFrom(
  ...[
    'bool',
    'uint8',
    'uint16',
    'uint32',
    'int8',
    'int16',
    'int32',
    'int',
    'int64',
    'uint64',
    'float32',
    'float64',
    'date',
    'string',
    'bytes',
    'json',
    'null',
    ...Object.keys(TYPED),
  ].map((type) => ({ type })),
  { type: 'literal', value: 'x' },
  { type: 'literal', value: 7 },
  { type: 'literal', value: true },
);
const enumSchemaArb = fc
  .uniqueArray(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 12 })
  .map((values) => ({ type: 'enum', values }));

const { schema: schemaArb } = fc.letrec((tie) => ({
  schema: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'schema' },
    leafArb,
    enumSchemaArb,
    tie('array'),
    tie('object'),
    tie('nullable'),
    tie('tuple'),
    tie('record'),
    tie('map'),
    tie('union'),
  ),
  array: tie('schema')
    .filter((items) => minSize(items) > 0)
    .map((items) => ({ type: 'array', items })),
  // A nullable of a type that takes null, and float32 map keys, are schema errors.
  nullable: tie('schema')
    .filter((of) => !takesNull(of))
    .map((of) => ({ type: 'nullable', of })),
  tuple: fc.array(tie('schema'), { maxLength: 3 }).map((items) => ({ type: 'tuple', items })),
  record: tie('schema').map((values) => ({ type: 'record', values })),
  map: fc
    .tuple(tie('schema'), tie('schema'))
    .filter(([k, v]) => minSize(k) + minSize(v) > 0 && !roundsKeys(k))
    .map(([keys, values]) => ({ type: 'map', keys, values })),
  union: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((variants) => ({ type: 'union', variants })),
  object: fc
    .tuple(
      fc.uniqueArray(fc.constantFrom(...FIELD_NAMES), { maxLength: 5 }),
      fc.array(fc.tuple(tie('schema'), fc.boolean()), { minLength: 5, maxLength: 5 }),
      fc.boolean(),
    )
    .map(([names, schemas, strict]) => ({
      type: 'object',
      fields: names.map((name, k) => {
        const [s, optional] = schemas[k];
        return { name, schema: optional ? { type: 'optional', of: s } : s };
      }),
      strict,
    })),
}));

// Values for strict objects must not carry the extra key valueArb sometimes adds.
function dropExtra(d, v) {
  if (v === null || v === undefined) return v;
  switch (d.type) {
    case 'array':
      return Array.isArray(v) ? v.map((x) => dropExtra(d.items, x)) : v;
    case 'tuple':
      return Array.isArray(v) && v.length === d.items.length ? v.map((x, k) => dropExtra(d.items[k], x)) : v;
    case 'nullable':
      return dropExtra(d.of, v);
    case 'record': {
      if (typeof v !== 'object' || Array.isArray(v) || v instanceof Map) return v;
      const out = {};
      for (const k of Object.keys(v)) defineOwn(out, k, dropExtra(d.values, v[k]));
      return out;
    }
    case 'map':
      return v instanceof Map ? new Map([...v].map(([k, x]) => [dropExtra(d.keys, k), dropExtra(d.values, x)])) : v;
    case 'union': {
      // The value came from one variant's arbitrary; clean it for the first that accepts it.
      const variant = d.variants.find((x) => accepts(x, dropExtra(x, v)) || accepts(x, v));
      return variant ? dropExtra(variant, v) : v;
    }
    case 'object': {
      if (typeof v !== 'object' || Array.isArray(v)) return v;
      const out = {};
      for (const f of d.fields) {
        if (Object.hasOwn(v, f.name)) {
          const s = f.schema.type === 'optional' ? f.schema.of : f.schema;
          defineOwn(out, f.name, dropExtra(s, v[f.name]));
        }
      }
      if (!d.strict && Object.hasOwn(v, 'zzExtra')) out.zzExtra = v.zzExtra;
      return out;
    }
    default:
      return v;
  }
}

describe('random schemas', () => {
  test('300 random schemas compile in both modes and round-trip random values with identical bytes', () => {
    const arb = schemaArb.chain((schema) => fc.tuple(fc.constant(schema), fc.array(valueArb(schema), { minLength: 1, maxLength: 4 })));
    fc.assert(
      fc.property(arb, ([schema, values]) => {
        const pair = makePair(schema);
        // A stored descriptor compiles to the same bytes.
        const stored = makePair(JSON.parse(JSON.stringify(schema)));
        for (const raw of values) {
          const value = dropExtra(schema, raw);
          checkValue(pair, value);
          assert.equal(toHex(stored.generated.encode(value)), toHex(pair.generated.encode(value)));
        }
      }),
      params(300, 200),
    );
  });
});

// ---- decode fuzz ----

const FUZZ_SCHEMAS = [
  ['bool', t.bool()],
  ['uint16', t.uint16()],
  ['int32', t.int32()],
  ['string', t.string()],
  ['bytes', t.bytes()],
  ['enum', t.enum(['a', 'b', 'c'])],
  ['array of strings', t.array(t.string())],
  ['array of arrays of uint8', t.array(t.array(t.uint8()))],
  [
    'an object of every kind of field',
    t.object({
      id: t.uint32(),
      name: t.string(),
      tags: t.array(t.enum(['x', 'y'])),
      nick: t.optional(t.nullable(t.string())),
      data: t.nullable(t.bytes()),
      n: t.int16(),
      ok: t.bool(),
      list: t.array(t.object({ a: t.uint8(), s: t.optional(t.string()) })),
    }),
  ],
  ['floats', t.object({ a: t.float32(), b: t.array(t.float64()) })],
  ['int, int64, uint64 and date', t.tuple([t.int(), t.int64(), t.uint64(), t.date()])],
  ['json', t.json()],
  ['record of uint8', t.record(t.uint8())],
  ['map of strings', t.map(t.string(), t.nullable(t.string()))],
  ['map of float64 keys', t.map(t.float64(), t.uint8())],
  ['union', t.union([t.string(), t.int(), t.array(t.uint8()), t.null()])],
  [
    'discriminated union',
    t.discriminatedUnion('k', [t.object({ k: t.literal('a'), n: t.uint16() }), t.object({ k: t.literal('b'), s: t.array(t.string()) })]),
  ],
  ['recursive tree', t.recursive('T', (self) => t.object({ v: t.uint8(), kids: t.array(self) }))],
  ['typed arrays', t.object({ f: t.float64Array(), i: t.int16Array(), b: t.int8Array() })],
];

// Schemas whose accepted inputs may encode back to other bytes (docs/FORMAT.md,
// "Principles"): a NaN keeps its value, not its payload, and a union encodes a value under
// the first variant that accepts it. For these the values are compared instead.
function valueCompared(schema) {
  let found = false;
  walk(schema, (d) => {
    if (d && ['float32', 'float64', 'union'].includes(d.type)) found = true;
  });
  return found;
}

// Decoding arbitrary bytes either succeeds or throws a ShornError with a decode code; a
// success re-encodes to the same bytes (one value, one encoding), except that a NaN keeps
// its value and not its payload, so schemas with floats compare values instead.
function checkDecodeAnything(codec, schema, bytes) {
  let value;
  try {
    value = codec.decode(bytes);
  } catch (e) {
    assert.ok(e instanceof ShornError, `not a ShornError: ${e && e.stack}`);
    assert.ok(DECODE_CODES.includes(e.code), `unexpected code ${e.code}: ${e.message}`);
    assert.ok(Number.isInteger(e.offset) && e.offset >= 0 && e.offset <= bytes.length, `offset ${e.offset} of ${bytes.length}`);
    assert.equal(typeof e.path, 'string');
    assert.match(e.path, /^\$/);
    return false;
  }
  const again = codec.encode(value);
  if (valueCompared(schema)) assert.deepStrictEqual(codec.decode(again), value);
  else assert.equal(toHex(again), toHex(bytes), 'an accepted input re-encodes to the same bytes');
  return true;
}

const mutationArb = fc.oneof(
  fc.record({ op: fc.constant('flip'), at: fc.nat(), bit: fc.nat({ max: 7 }) }),
  fc.record({ op: fc.constant('set'), at: fc.nat(), byte: fc.constantFrom(0x00, 0x01, 0x02, 0x7f, 0x80, 0xff, 0xc0, 0xed) }),
  fc.record({ op: fc.constant('truncate'), at: fc.nat() }),
  fc.record({ op: fc.constant('insert'), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant('delete'), at: fc.nat() }),
  fc.record({ op: fc.constant('append'), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
);

function mutate(bytes, mutations) {
  let b = Array.from(bytes);
  for (const m of mutations) {
    const at = b.length === 0 ? 0 : m.at % b.length;
    switch (m.op) {
      case 'flip':
        if (b.length) b[at] ^= 1 << m.bit;
        break;
      case 'set':
        if (b.length) b[at] = m.byte;
        break;
      case 'truncate':
        b = b.slice(0, at);
        break;
      case 'insert':
        b.splice(at, 0, m.byte);
        break;
      case 'delete':
        b.splice(at, 1);
        break;
      default:
        b = b.concat(Array.from(m.bytes));
    }
  }
  return new Uint8Array(b);
}

describe('decode fuzz', () => {
  for (const mode of MODES) {
    test(`random bytes never crash the decoder (${mode.name} marshaller)`, { timeout: 20_000 }, () => {
      FUZZ_SCHEMAS.forEach(([, schema], k) => {
        const codec = compileMode(schema, mode);
        const input = fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ minLength: 65, maxLength: 300 }));
        fc.assert(
          fc.property(input, (bytes) => {
            checkDecodeAnything(codec, schema, bytes);
          }),
          params(600, 300 + k),
        );
      });
    });

    test(`mutated and truncated encodings never crash the decoder (${mode.name} marshaller)`, { timeout: 20_000 }, () => {
      FUZZ_SCHEMAS.forEach(([, schema], k) => {
        const codec = compileMode(schema, mode);
        const arb = fc.tuple(valueArb(schema), fc.array(mutationArb, { minLength: 1, maxLength: 3 }));
        let accepted = 0;
        fc.assert(
          fc.property(arb, ([value, mutations]) => {
            const bytes = mutate(codec.encode(value), mutations);
            if (checkDecodeAnything(codec, schema, bytes)) accepted++;
          }),
          params(600, 400 + k),
        );
        assert.ok(accepted < 600, 'some mutations are rejected');
      });
    });
  }

  test('every truncation of random nested encodings is ERR_SHORN_TRUNCATED', () => {
    const schema = FUZZ_SCHEMAS[8][1];
    const pair = makePair(schema);
    fc.assert(
      fc.property(valueArb(schema), (value) => {
        const bytes = pair.generated.encode(value);
        for (let n = 0; n < bytes.length; n++) {
          for (const codec of [pair.generated, pair.generic]) {
            assert.throws(() => codec.decode(bytes.subarray(0, n)), (e) => e instanceof ShornError && e.code === 'ERR_SHORN_TRUNCATED');
          }
        }
      }),
      params(200, 500),
    );
  });
});
