'use strict';
// fromZod (lib/zod.js): the descriptor of every Zod type it takes, values judged as zod
// judges them (check, encode and decode against safeParse), and ERR_SHORN_SCHEMA naming
// the Zod type and the place for everything else. Issue 10.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { z } = require('zod');
const { shorn, MODES, compileMode, assertShornError, ROOT } = require('./helpers');

const { t, compile, fromZod } = shorn;

describe('fromZod: descriptors', () => {
  test('the person of the benchmark, one schema for both', () => {
    const Person = z.object({ id: z.uint32(), name: z.string().min(1).max(100), age: z.int().min(0).max(150), email: z.email(), active: z.boolean() });
    assert.deepStrictEqual(
      fromZod(Person),
      t.object({
        id: t.uint32(),
        name: t.string({ minLength: 1, maxLength: 100 }),
        age: t.int({ min: 0, max: 150 }),
        email: t.string({ format: 'email' }),
        active: t.bool(),
      }),
    );
  });

  test('every Zod type it takes, and what it becomes', () => {
    const finite = { min: -Number.MAX_VALUE, max: Number.MAX_VALUE };
    const cases = [
      [z.string(), t.string()],
      [z.string().min(2).max(9).regex(/^\w+$/), t.string({ minLength: 2, maxLength: 9, pattern: '^\\w+$' })],
      [z.string().length(4).nonempty(), t.string({ minLength: 4, maxLength: 4 })],
      [z.string().email(), t.string({ format: 'email' })],
      [z.uuid(), t.string({ format: 'uuid' })],
      [z.url(), t.string({ format: 'url' })],
      [z.iso.datetime({ offset: true }), t.string({ format: 'datetime' })],
      [z.ipv4(), t.string({ format: 'ipv4' })],
      [z.ipv6(), t.string({ format: 'ipv6' })],
      [z.number(), t.float64(finite)],
      [z.number().min(0).max(1), t.float64({ min: 0, max: 1 })],
      [z.number().gt(0), t.float64({ min: Number.MIN_VALUE, max: Number.MAX_VALUE })],
      [z.float64(), t.float64(finite)],
      [z.float32(), t.float32({ min: -3.4028234663852886e38, max: 3.4028234663852886e38 })],
      [z.int(), t.int()],
      [z.number().int().gt(0.5).lt(10), t.int({ min: 1, max: 9 })],
      [z.int32().multipleOf(-4), t.int32({ multipleOf: 4 })],
      [z.uint32().min(-5), t.uint32()],
      [z.int64(), t.int64()],
      [z.uint64().gt(0n).max(100n).multipleOf(5n), t.uint64({ min: 1n, max: 100n, multipleOf: 5n })],
      [z.boolean(), t.bool()],
      [z.date(), t.date()],
      [z.enum(['a', 'b']), t.enum(['a', 'b'])],
      [z.literal('x'), t.literal('x')],
      [z.literal([1, 'one', null]), t.union([t.literal(1), t.literal('one'), t.literal(null)])],
      [z.null(), t.null()],
      [z.array(z.boolean()).min(1).max(3), t.array(t.bool(), { minItems: 1, maxItems: 3 })],
      [z.tuple([z.string(), z.boolean()]), t.tuple([t.string(), t.bool()])],
      [z.record(z.string(), z.boolean()), t.record(t.bool())],
      [z.map(z.string(), z.date()).max(5), t.map(t.string(), t.date(), { maxEntries: 5 })],
      [z.union([z.string(), z.boolean()]), t.union([t.string(), t.bool()])],
      [
        z.discriminatedUnion('type', [z.object({ type: z.literal('a') }), z.object({ type: z.literal(2), n: z.boolean() })]),
        t.discriminatedUnion('type', [t.object({ type: t.literal('a') }), t.object({ type: t.literal(2), n: t.bool() })]),
      ],
      [
        z.object({ a: z.string().optional(), b: z.boolean().nullable(), c: z.string().default('x'), d: z.boolean().optional().nullable() }),
        t.object({ a: t.optional(t.string()), b: t.nullable(t.bool()), c: t.default(t.string(), 'x'), d: t.optional(t.nullable(t.bool())) }),
      ],
      [z.strictObject({ a: z.boolean() }), t.object({ a: t.bool() }, { strict: true })],
      [z.object({ a: z.boolean() }).strict(), t.object({ a: t.bool() }, { strict: true })],
      [z.object({ a: z.boolean() }).strip(), t.object({ a: t.bool() })],
      [z.lazy(() => z.boolean()), t.bool()],
      // A format with another regular expression keeps it as a pattern: the same test.
      [z.email({ pattern: z.regexes.html5Email }), t.string({ pattern: z.regexes.html5Email.source })],
      [z.uuidv4(), t.string({ pattern: z.uuidv4()._zod.def.pattern.source })],
      [z.iso.datetime(), t.string({ pattern: z.iso.datetime()._zod.def.pattern.source })],
    ];
    for (const [zod, expected] of cases) assert.deepStrictEqual(fromZod(zod), expected, JSON.stringify(expected));
  });

  test('recursion through z.lazy and through a getter becomes a recursive type', () => {
    const List = z.lazy(() => z.object({ v: z.int(), next: List.nullable() }));
    assert.deepStrictEqual(fromZod(List), {
      type: 'recursive',
      name: 'ZodLazy',
      schema: t.object({ v: t.int(), next: t.nullable(t.ref('ZodLazy')) }),
    });
    const Category = z.object({
      name: z.string(),
      get subs() {
        return z.array(Category);
      },
    });
    const d = fromZod(z.object({ root: Category, other: Category }));
    assert.deepStrictEqual(d.fields[0].schema, {
      type: 'recursive',
      name: 'ZodObject',
      schema: t.object({ name: t.string(), subs: t.array(t.ref('ZodObject')) }),
    });
    const codec = compile(d);
    const value = { root: { name: 'a', subs: [{ name: 'b', subs: [] }] }, other: { name: 'c', subs: [] } };
    assert.deepStrictEqual(codec.decode(codec.encode(value)), value);
  });

  test("shorn's formats are still zod's: the regular expressions they test are zod's own", () => {
    const { SOURCES } = require('../lib/formats');
    for (const schema of [z.email(), z.uuid(), z.ipv4(), z.iso.datetime({ offset: true })]) {
      const { format, pattern } = schema._zod.def;
      assert.equal(SOURCES[format], pattern.source, format);
      assert.equal(pattern.flags, '', format);
    }
  });

  test('anything else is ERR_SHORN_SCHEMA naming the Zod type and where it is', () => {
    for (const [zod, where, what] of [
      [z.object({ a: z.string().transform((s) => s.length) }), '$.a', '.transform()'],
      [z.object({ a: z.preprocess((x) => x, z.string()) }), '$.a', 'z.preprocess()'],
      [z.string().pipe(z.string()), '$', '.pipe()'],
      [z.object({ a: z.array(z.string().refine((s) => s.length > 1)) }), '$.a[]', '.refine() (a refinement with a function) on z.string()'],
      [z.object({ a: z.boolean() }).refine(() => true), '$', '.refine() (a refinement with a function) on z.object()'],
      [z.string().startsWith('a'), '$', '.startsWith() on z.string()'],
      [z.string().trim(), '$', '.trim() (a transform) on z.string()'],
      [z.string().overwrite((s) => s), '$', '.overwrite() / .trim() / .toLowerCase() (a transform) on z.string()'],
      [z.cuid(), '$', 'z.cuid()'],
      [z.url({ protocol: /^https$/ }), '$', 'z.url() with hostname, protocol or normalize'],
      [z.string().regex(/a/i), '$', '.regex(/a/i)'],
      [z.bigint(), '$', 'z.bigint() without a 64-bit format'],
      [z.number().multipleOf(0.5), '$', '.multipleOf() on a float'],
      [z.coerce.number(), '$', 'z.coerce.number()'],
      [z.set(z.string()), '$', 'z.set()'],
      [z.any(), '$', 'z.any()'],
      [z.unknown(), '$', 'z.unknown()'],
      [z.undefined(), '$', 'z.undefined()'],
      [z.looseObject({}), '$', 'z.looseObject() (or .passthrough())'],
      [z.object({}).catchall(z.string()), '$', 'z.object().catchall()'],
      [z.tuple([z.string()], z.number()), '$', 'z.tuple() with a rest element'],
      [z.record(z.enum(['a']), z.number()), '$', 'z.record() with keys of z.enum()'],
      [z.map(z.string(), z.number()).min(1), '$', 'a minimum size on z.map()'],
      [z.array(z.string().optional()), '$[]', 'z.optional() outside an object field'],
      [z.string().default('x'), '$', '.default() outside an object field'],
      [z.enum({ A: 1 }), '$', 'z.enum() of numbers'],
      [z.literal(5n), '$', 'z.literal(5n)'],
      [z.date().min(new Date(0)), '$', '.min() / .gt() on z.date()'],
      [z.map(z.string(), z.object({ x: z.intersection(z.object({}), z.object({})) })), '$[][1].x', 'z.intersection()'],
      [z.xor([z.string(), z.number()]), '$', 'z.xor()'],
      [z.string().catch('x'), '$', '.catch()'],
    ]) {
      assertShornError(() => fromZod(zod), { code: 'ERR_SHORN_SCHEMA', path: where, message: new RegExp(`^invalid schema at ${where.replace(/[[\]$.]/g, '\\$&')}: fromZod cannot map ${what.replace(/[()[\]$.*+?/|]/g, '\\$&')}`) });
    }
    assertShornError(() => fromZod({ _def: { typeName: 'ZodString' } }), { code: 'ERR_SHORN_SCHEMA', message: /a Zod 3 schema/ });
    assertShornError(() => fromZod(t.string()), { code: 'ERR_SHORN_SCHEMA', message: /not a Zod schema/ });
  });
});

// Values for a schema: what zod says of each must be what shorn says.
const SCENES = [
  {
    name: 'person',
    zod: z.object({ id: z.uint32(), name: z.string().min(1).max(5), age: z.int().min(0).max(150), email: z.email(), active: z.boolean() }),
    valid: [
      { id: 0, name: 'Ada', age: 0, email: 'ada@example.com', active: true },
      { id: 4294967295, name: '🚀🚀🚀🚀🚀', age: 150, email: "o'b@x.io", active: false },
    ],
    invalid: [
      { id: -1, name: 'Ada', age: 1, email: 'a@b.co', active: true },
      { id: 1.5, name: 'Ada', age: 1, email: 'a@b.co', active: true },
      { id: 1, name: '', age: 1, email: 'a@b.co', active: true },
      { id: 1, name: '123456', age: 1, email: 'a@b.co', active: true },
      { id: 1, name: 'Ada', age: 151, email: 'a@b.co', active: true },
      { id: 1, name: 'Ada', age: 1.5, email: 'a@b.co', active: true },
      { id: 1, name: 'Ada', age: 1, email: 'a@b', active: true },
      { id: 1, name: 'Ada', age: 1, email: 'a@b.co', active: 'yes' },
      { id: 1, name: 'Ada', age: 1, email: 'a@b.co' },
    ],
  },
  {
    name: 'numbers',
    zod: z.object({ f: z.number().gt(0).lt(1), g: z.float32(), i: z.int32().multipleOf(3), b: z.int64().gte(-5n).lt(5n) }),
    valid: [
      { f: Number.MIN_VALUE, g: Math.fround(1.5), i: -3, b: -5n },
      { f: 1 - Number.EPSILON / 2, g: Math.fround(-3.4e38), i: 2147483646, b: 4n },
    ],
    invalid: [
      { f: 0, g: 1, i: 3, b: 0n },
      { f: 1, g: 1, i: 3, b: 0n },
      { f: NaN, g: 1, i: 3, b: 0n },
      { f: 0.5, g: Infinity, i: 3, b: 0n },
      { f: 0.5, g: NaN, i: 3, b: 0n },
      { f: 0.5, g: 3.5e38, i: 3, b: 0n },
      { f: 0.5, g: 1, i: 4, b: 0n },
      { f: 0.5, g: 1, i: 2147483647, b: 0n },
      { f: 0.5, g: 1, i: 3, b: 5n },
      { f: 0.5, g: 1, i: 3, b: -6n },
      { f: 0.5, g: 1, i: 3, b: 0 },
    ],
  },
  {
    name: 'collections',
    zod: z.object({
      tags: z.array(z.string().max(3)).min(1).max(2),
      pair: z.tuple([z.uuid(), z.ipv4()]),
      byName: z.record(z.string(), z.iso.datetime({ offset: true })),
      byId: z.map(z.int(), z.ipv6()).max(1),
      kind: z.union([z.literal('a'), z.url()]),
      opt: z.string().email().optional(),
      dflt: z.int().min(1).default(1),
    }),
    valid: [
      {
        tags: ['abc'],
        pair: ['123e4567-e89b-12d3-a456-426614174000', '1.2.3.4'],
        byName: { x: '2024-06-10T14:53:54+02:00' },
        byId: new Map([[1, '::1']]),
        kind: 'a',
        dflt: 3,
      },
      {
        tags: ['a', 'b'],
        pair: ['00000000-0000-0000-0000-000000000000', '255.255.255.255'],
        byName: {},
        byId: new Map(),
        kind: 'https://example.com/x',
        opt: 'a@b.co',
        dflt: 1,
      },
    ],
    invalid: [
      { tags: [], pair: ['123e4567-e89b-12d3-a456-426614174000', '1.2.3.4'], byName: {}, byId: new Map(), kind: 'a' },
      { tags: ['abcd'], pair: ['123e4567-e89b-12d3-a456-426614174000', '1.2.3.4'], byName: {}, byId: new Map(), kind: 'a' },
      { tags: ['a'], pair: ['123e4567-e89b-02d3-a456-426614174000', '1.2.3.4'], byName: {}, byId: new Map(), kind: 'a' },
      { tags: ['a'], pair: ['123e4567-e89b-12d3-a456-426614174000', '1.2.3.04'], byName: {}, byId: new Map(), kind: 'a' },
      { tags: ['a'], pair: ['123e4567-e89b-12d3-a456-426614174000', '1.2.3.4'], byName: { x: '2023-02-29T00:00:00Z' }, byId: new Map(), kind: 'a' },
      { tags: ['a'], pair: ['123e4567-e89b-12d3-a456-426614174000', '1.2.3.4'], byName: {}, byId: new Map([[1, '1::2::3']]), kind: 'a' },
      {
        tags: ['a'],
        pair: ['123e4567-e89b-12d3-a456-426614174000', '1.2.3.4'],
        byName: {},
        byId: new Map([
          [1, '::1'],
          [2, '::2'],
        ]),
        kind: 'a',
      },
      { tags: ['a'], pair: ['123e4567-e89b-12d3-a456-426614174000', '1.2.3.4'], byName: {}, byId: new Map(), kind: 'b' },
      { tags: ['a'], pair: ['123e4567-e89b-12d3-a456-426614174000', '1.2.3.4'], byName: {}, byId: new Map(), kind: 'a', opt: 'x' },
      { tags: ['a'], pair: ['123e4567-e89b-12d3-a456-426614174000', '1.2.3.4'], byName: {}, byId: new Map(), kind: 'a', dflt: 0 },
    ],
  },
];

describe('fromZod: values judged as zod judges them', () => {
  for (const scene of SCENES) {
    for (const mode of MODES) {
      test(`${scene.name}, ${mode.name} marshaller: check, encode and decode agree with safeParse`, () => {
        const codec = compileMode(fromZod(scene.zod), mode);
        const loose = compile(
          JSON.parse(JSON.stringify(fromZod(scene.zod), (k, v) => (['min', 'max', 'multipleOf', 'minLength', 'maxLength', 'format', 'pattern', 'minItems', 'maxItems', 'maxEntries'].includes(k) ? undefined : v))),
        );
        for (const value of scene.valid) {
          assert.equal(scene.zod.safeParse(value).success, true, 'a valid value of the scene');
          assert.deepStrictEqual(codec.check(value), { ok: true });
          // Decoding gives what zod's parse gives (defaults filled in).
          assert.deepStrictEqual(codec.decode(codec.encode(value)), scene.zod.parse(value));
        }
        for (const value of scene.invalid) {
          assert.equal(scene.zod.safeParse(value).success, false, 'an invalid value of the scene');
          assert.equal(codec.check(value).ok, false);
          assertShornError(() => codec.encode(value), { code: 'ERR_SHORN_INVALID' });
          // Bytes of it from a sender without the constraints: decode refuses them too.
          let bytes;
          try {
            bytes = loose.encode(value);
          } catch {
            continue; // not even of the type
          }
          assert.equal(codec.safeDecode(bytes).ok, false);
          assertShornError(() => codec.decode(bytes), { code: 'ERR_SHORN_INVALID' });
        }
      });
    }
  }
});

describe('fromZod: zod stays optional', () => {
  test('package.json names zod as an optional peer dependency', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.match(pkg.peerDependencies.zod, /^\^4\./);
    assert.deepStrictEqual(pkg.peerDependenciesMeta.zod, { optional: true });
  });

  test('loading shorn and calling fromZod load no zod', () => {
    const script = `
      const shorn = require(${JSON.stringify(ROOT)});
      const schema = { _zod: { def: { type: 'object', shape: { a: { _zod: { def: { type: 'boolean' } } } } } } };
      const d = shorn.fromZod(schema);
      const loaded = Object.keys(require.cache).filter((f) => /[\\\\/]zod[\\\\/]/.test(f));
      process.stdout.write(JSON.stringify({ d, loaded }));`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const { d, loaded } = JSON.parse(run.stdout);
    assert.deepStrictEqual(d, t.object({ a: t.bool() }));
    assert.deepStrictEqual(loaded, []);
  });
});
