'use strict';
// fromZod's options (issue 42, item 8; docs/ZOD.md): unknown: 'json', effects:
// 'leave-to-zod' and unknownKeys: 'strip', each an explicit opt-in. Without them each
// construct is refused naming the option; with them the descriptor and fromZodReport's
// leftOut are exact, and for realistic schemas Z.parse(codec.decode(codec.encode(v)))
// gives what Z.parse(v) gives, in both marshallers.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { z } = require('zod');
const { shorn, MODES, compileMode, assertShornError } = require('./helpers');

const { t, compile, fromZod, fromZodReport } = shorn;

const LEAVE = { effects: 'leave-to-zod' };
const FINITE = { min: -Number.MAX_VALUE, max: Number.MAX_VALUE };
const escape = (s) => s.replace(/[()[\]$.*+?/|{}^\\]/g, '\\$&');

describe('fromZod options: without them, the same refusals, naming the option', () => {
  const EFFECTS = "the option effects: 'leave-to-zod' keeps the wire type and leaves it to Zod's parse";
  const UNKNOWN = "the option unknown: 'json' takes it as t.json(), any JSON value";
  const KEYS = "the option unknownKeys: 'strip' keeps the named fields and drops the other keys";
  const ANY_INPUT = "the options effects: 'leave-to-zod' and unknown: 'json' send its input as t.json() and leave the rest to Zod's parse";
  const cases = [
    [z.object({ a: z.string().refine((s) => s.length > 1) }), '$.a', '.refine() (a refinement with a function) on z.string()', EFFECTS],
    [z.object({ a: z.number().superRefine(() => {}) }), '$.a', '.refine() (a refinement with a function) on z.number()', EFFECTS],
    [z.object({ a: z.boolean() }).refine(() => true), '$', '.refine() (a refinement with a function) on z.object()', EFFECTS],
    [z.array(z.string().transform((s) => s.length)), '$[]', '.transform()', EFFECTS],
    [z.string().trim(), '$', '.trim() (a transform) on z.string()', EFFECTS],
    [z.string().toLowerCase(), '$', '.toLowerCase() (a transform) on z.string()', EFFECTS],
    [z.string().toUpperCase(), '$', '.toUpperCase() (a transform) on z.string()', EFFECTS],
    [z.string().normalize(), '$', '.normalize() (a transform) on z.string()', EFFECTS],
    [z.object({ p: z.enum(['a', 'b']).catch('a') }), '$.p', '.catch()', EFFECTS],
    [z.coerce.number(), '$', 'z.coerce.number()', EFFECTS],
    [z.coerce.date(), '$', 'z.coerce.date()', EFFECTS],
    [z.string().pipe(z.email()), '$', '.pipe()', EFFECTS],
    [z.codec(z.iso.datetime({ offset: true }), z.date(), { decode: (s) => new Date(s), encode: (d) => d.toISOString() }), '$', 'z.codec()', EFFECTS],
    [z.string().startsWith('a'), '$', '.startsWith() on z.string()', EFFECTS],
    [z.iso.date(), '$', 'z.iso.date()', EFFECTS],
    [z.record(z.string().min(1), z.number()), '$', 'z.record() with keys of a constrained z.string()', EFFECTS],
    [z.object({ a: z.any() }), '$.a', 'z.any()', UNKNOWN],
    [z.array(z.unknown()), '$[]', 'z.unknown()', UNKNOWN],
    [z.looseObject({ a: z.string() }), '$', 'z.looseObject() (or .passthrough())', KEYS],
    [z.object({ a: z.string() }).passthrough(), '$', 'z.looseObject() (or .passthrough())', KEYS],
    [z.object({ a: z.string() }).catchall(z.number()), '$', 'z.object().catchall()', KEYS],
    [z.preprocess((x) => x, z.string()), '$', 'z.preprocess()', ANY_INPUT],
  ];
  for (const [schema, where, what, hint] of cases) {
    test(`${what} at ${where}`, () => {
      const message = new RegExp(`^invalid schema at ${escape(where)}: fromZod cannot map ${escape(what)}: .*\\(${escape(hint)}`);
      assertShornError(() => fromZod(schema), { code: 'ERR_SHORN_SCHEMA', path: where, message });
      assertShornError(() => fromZodReport(schema), { code: 'ERR_SHORN_SCHEMA', path: where, message });
      // The other options do not take it either.
      const others = { unknown: 'json', effects: 'leave-to-zod', unknownKeys: 'strip' };
      if (hint === EFFECTS) delete others.effects;
      else if (hint === UNKNOWN) delete others.unknown;
      else if (hint === KEYS) delete others.unknownKeys;
      else others.unknown = 'error';
      assertShornError(() => fromZod(schema, others), { code: 'ERR_SHORN_SCHEMA', path: where });
    });
  }

  test('what no option takes is refused with or without them', () => {
    const all = { unknown: 'json', effects: 'leave-to-zod', unknownKeys: 'strip' };
    for (const [schema, what] of [
      [z.set(z.string()), 'z.set()'],
      [z.undefined(), 'z.undefined()'],
      [z.intersection(z.object({}), z.object({})), 'z.intersection()'],
      [z.bigint(), 'z.bigint() without a 64-bit format'],
      [z.xor([z.string(), z.number()]), 'z.xor()'],
      [z.tuple([z.string()], z.number()), 'z.tuple() with a rest element'],
      [z.record(z.enum(['a']), z.number()), 'z.record() with keys of z.enum()'],
      [z.array(z.string().optional()), 'z.optional() outside an object field'],
      [z.string().min(5).max(2), 'z.string() with a minimum length over its maximum'],
      [z.void(), 'z.void()'],
      [z.symbol(), 'z.symbol()'],
      [z.function(), 'z.function()'],
      [z.promise(z.string()), 'z.promise()'],
      [z.custom(() => true), 'z.custom()'],
      [z.instanceof(Date), 'z.custom()'],
      [z.object({ a: z.string().prefault('x') }), 'z.prefault()'],
      [z.object({ a: z.string() }).readonly(), 'z.readonly()'],
      [z.coerce.bigint(), 'z.bigint() without a 64-bit format'],
      [z.literal(5n), 'z.literal(5n)'],
      [z.enum({ A: 1 }), 'z.enum() of numbers'],
    ]) {
      assertShornError(() => fromZod(schema, all), { code: 'ERR_SHORN_SCHEMA', message: new RegExp(`fromZod cannot map ${escape(what)}`) });
    }
  });

  test('options are checked', () => {
    assertShornError(() => fromZod(z.string(), { effects: 'skip' }), { code: 'ERR_SHORN_SCHEMA', message: "fromZod: effects must be 'error' or 'leave-to-zod'" });
    assertShornError(() => fromZod(z.string(), { unknown: 'any' }), { code: 'ERR_SHORN_SCHEMA', message: "fromZod: unknown must be 'error' or 'json'" });
    assertShornError(() => fromZodReport(z.string(), { unknownKeys: 'passthrough' }), { code: 'ERR_SHORN_SCHEMA', message: "fromZodReport: unknownKeys must be 'error' or 'strip'" });
    assertShornError(() => fromZod(z.string(), { refinements: 'skip' }), { code: 'ERR_SHORN_SCHEMA', message: 'fromZod: unknown option "refinements" (the options are unknown, effects, unknownKeys)' });
    assertShornError(() => fromZod(z.string(), 'json'), { code: 'ERR_SHORN_SCHEMA', message: 'fromZod: options must be an object' });
    assertShornError(() => fromZod(z.string(), null), { code: 'ERR_SHORN_SCHEMA', message: 'fromZod: options must be an object' });
    // The defaults, spelled out, are no options.
    assert.deepStrictEqual(fromZod(z.string().min(1), { unknown: 'error', effects: 'error', unknownKeys: 'error' }), t.string({ minLength: 1 }));
    assert.deepStrictEqual(fromZod(z.string(), { effects: undefined }), t.string());
    assertShornError(() => fromZod(z.any(), { unknown: 'error', effects: 'leave-to-zod' }), { code: 'ERR_SHORN_SCHEMA', path: '$', message: /z\.any\(\)/ });
  });
});

describe('fromZod options: each construct with its option, the descriptor and leftOut exact', () => {
  const refine = (on) => `.refine() (a refinement with a function) on ${on}`;
  const cases = [
    // effects: 'leave-to-zod'
    ['.refine() on a string keeps its lengths', z.string().min(1).refine((s) => s !== 'x'), LEAVE, t.string({ minLength: 1 }), [{ path: '$', kind: 'refine', what: refine('z.string()') }]],
    [
      '.superRefine() and .check() on an object: after its fields',
      z
        .object({ a: z.int().check((ctx) => ctx) })
        .superRefine(() => {})
        .refine(() => true),
      LEAVE,
      t.object({ a: t.int() }),
      [
        { path: '$.a', kind: 'refine', what: refine('z.number()') },
        { path: '$', kind: 'refine', what: refine('z.object()') },
        { path: '$', kind: 'refine', what: refine('z.object()') },
      ],
    ],
    [
      '.trim(): the checks before it are shorn’s, those after it Zod’s',
      z.string().min(1).trim().max(3).regex(/^[a-z]+$/),
      LEAVE,
      t.string({ minLength: 1 }),
      [
        { path: '$', kind: 'transform', what: '.trim() (a transform) on z.string()' },
        { path: '$', kind: 'check', what: '.max() on z.string() after a transform' },
        { path: '$', kind: 'check', what: '.regex() on z.string() after a transform' },
      ],
    ],
    [
      '.toLowerCase().pipe(z.email())',
      z.object({ email: z.string().toLowerCase().pipe(z.email()) }),
      LEAVE,
      t.object({ email: t.string() }),
      [
        { path: '$.email', kind: 'transform', what: '.toLowerCase() (a transform) on z.string()' },
        { path: '$.email', kind: 'pipe', what: '.pipe()' },
      ],
    ],
    [
      '.transform(): the wire type is its input',
      z.object({ at: z.iso.datetime({ offset: true }).transform((s) => new Date(s)), n: z.array(z.string().transform(Number)).max(3) }),
      LEAVE,
      t.object({ at: t.string({ format: 'datetime' }), n: t.array(t.string(), { maxItems: 3 }) }),
      [
        { path: '$.at', kind: 'transform', what: '.transform()' },
        { path: '$.n[]', kind: 'transform', what: '.transform()' },
      ],
    ],
    [
      '.transform().refine(): the refinement of the output is Zod’s',
      z.string().transform((s) => s.length).refine((n) => n > 2),
      LEAVE,
      t.string(),
      [
        { path: '$', kind: 'transform', what: '.transform()' },
        { path: '$', kind: 'refine', what: refine('z.pipe()') },
      ],
    ],
    [
      'a union: its variants, then its refinement',
      z.union([z.string().trim(), z.int()]).refine(() => true),
      LEAVE,
      t.union([t.string(), t.int()]),
      [
        { path: '$', kind: 'transform', what: '.trim() (a transform) on z.string()' },
        { path: '$', kind: 'refine', what: refine('z.union()') },
      ],
    ],
    ['z.codec(): its input side', z.codec(z.iso.datetime({ offset: true }), z.date(), { decode: (s) => new Date(s), encode: (d) => d.toISOString() }), LEAVE, t.string({ format: 'datetime' }), [{ path: '$', kind: 'transform', what: 'z.codec()' }]],
    [
      '.catch(): the inner type (a field required as z.input says, though Zod gives the fallback for a missing one)',
      z.object({ plan: z.enum(['free', 'pro']).catch('free'), list: z.array(z.int().catch(0)), o: z.string().optional().catch('x') }),
      LEAVE,
      t.object({ plan: t.enum(['free', 'pro']), list: t.array(t.int()), o: t.optional(t.string()) }),
      [
        { path: '$.plan', kind: 'catch', what: '.catch()' },
        { path: '$.list[]', kind: 'catch', what: '.catch()' },
        { path: '$.o', kind: 'catch', what: '.catch()' },
      ],
    ],
    [
      'z.coerce: the target type, with its checks',
      z.object({ n: z.coerce.number().int().min(0), d: z.coerce.date(), s: z.coerce.string().max(4), b: z.coerce.boolean() }),
      LEAVE,
      t.object({ n: t.int({ min: 0 }), d: t.date(), s: t.string({ maxLength: 4 }), b: t.bool() }),
      [
        { path: '$.n', kind: 'coerce', what: 'z.coerce.number()' },
        { path: '$.d', kind: 'coerce', what: 'z.coerce.date()' },
        { path: '$.s', kind: 'coerce', what: 'z.coerce.string()' },
        { path: '$.b', kind: 'coerce', what: 'z.coerce.boolean()' },
      ],
    ],
    [
      '.default() of a transform: optional on the wire, Zod fills it',
      z.object({ n: z.string().transform(Number).default(0), s: z.string().default('x') }),
      LEAVE,
      t.object({ n: t.optional(t.string()), s: t.default(t.string(), 'x') }),
      [
        { path: '$.n', kind: 'transform', what: '.transform()' },
        { path: '$.n', kind: 'default', what: '.default() of a part left to Zod' },
      ],
    ],
    [
      'checks shorn has no constraint for',
      z.object({
        c: z.cuid(),
        u: z.url({ protocol: /^https$/ }),
        r: z.string().regex(/a/i),
        s: z.string().startsWith('a').max(9),
        w: z.date().min(new Date(0)),
        f: z.number().multipleOf(0.5),
        k: z.record(z.string().min(1), z.boolean()),
        m: z.map(z.string(), z.boolean()).min(1).max(4),
      }),
      LEAVE,
      t.object({
        c: t.string(),
        u: t.string({ format: 'url' }),
        r: t.string(),
        s: t.string({ maxLength: 9 }),
        w: t.date(),
        f: t.float64(FINITE),
        k: t.record(t.bool()),
        m: t.map(t.string(), t.bool(), { maxEntries: 4 }),
      }),
      [
        { path: '$.c', kind: 'check', what: 'z.cuid()' },
        { path: '$.u', kind: 'check', what: 'z.url() with hostname, protocol or normalize' },
        { path: '$.r', kind: 'check', what: '.regex(/a/i)' },
        { path: '$.s', kind: 'check', what: '.startsWith() on z.string()' },
        { path: '$.w', kind: 'check', what: '.min() / .gt() on z.date()' },
        { path: '$.f', kind: 'check', what: '.multipleOf() on a float' },
        { path: '$.k', kind: 'check', what: '.min() on the keys of z.record()' },
        { path: '$.m', kind: 'check', what: 'a minimum size on z.map()' },
      ],
    ],
    // unknown: 'json'
    ['z.any(), z.unknown()', z.object({ a: z.any(), b: z.array(z.unknown()) }), { unknown: 'json' }, t.object({ a: t.json(), b: t.array(t.json()) }), []],
    ['z.json()', z.object({ j: z.json() }), { unknown: 'json' }, t.object({ j: t.json() }), []],
    ['z.preprocess(): t.json(), with both', z.preprocess((x) => (typeof x === 'string' ? x.trim() : x), z.string()), { unknown: 'json', effects: 'leave-to-zod' }, t.json(), [{ path: '$', kind: 'transform', what: 'z.preprocess()' }]],
    [
      'z.preprocess() as a field: optional t.json() (Zod runs it on a missing field too)',
      z.object({ n: z.preprocess((x) => x ?? 0, z.number()) }),
      { unknown: 'json', effects: 'leave-to-zod' },
      t.object({ n: t.optional(t.json()) }),
      [{ path: '$.n', kind: 'transform', what: 'z.preprocess()' }],
    ],
    // unknownKeys: 'strip'
    ['z.looseObject()', z.looseObject({ a: z.string() }), { unknownKeys: 'strip' }, t.object({ a: t.string() }), [{ path: '$', kind: 'unknown-keys', what: 'z.looseObject() (or .passthrough())' }]],
    ['.passthrough()', z.object({ o: z.object({ a: z.int() }).passthrough() }), { unknownKeys: 'strip' }, t.object({ o: t.object({ a: t.int() }) }), [{ path: '$.o', kind: 'unknown-keys', what: 'z.looseObject() (or .passthrough())' }]],
    ['.catchall()', z.object({ a: z.string() }).catchall(z.number()), { unknownKeys: 'strip' }, t.object({ a: t.string() }), [{ path: '$', kind: 'unknown-keys', what: 'z.object().catchall()' }]],
    // The options change nothing else.
    ['a schema without any of it', z.object({ a: z.string().default('x'), b: z.strictObject({ c: z.int() }) }), { unknown: 'json', effects: 'leave-to-zod', unknownKeys: 'strip' }, t.object({ a: t.default(t.string(), 'x'), b: t.object({ c: t.int() }, { strict: true }) }), []],
  ];
  for (const [name, schema, options, descriptor, leftOut] of cases) {
    test(name, () => {
      const report = fromZodReport(schema, options);
      assert.deepStrictEqual(report.descriptor, descriptor);
      assert.deepStrictEqual(report.leftOut, leftOut);
      assert.deepStrictEqual(fromZod(schema, options), descriptor);
      compile(report.descriptor);
    });
  }

  test('fromZodReport without options: nothing left out, the descriptor fromZod makes', () => {
    const Person = z.object({ id: z.uint32(), name: z.string().min(1), tags: z.array(z.string()).default([]) });
    assert.deepStrictEqual(fromZodReport(Person), { descriptor: fromZod(Person), leftOut: [] });
  });

  test('inside a recursive type, what is left out is listed once, at its first place', () => {
    const Node = z.object({
      name: z.string().trim(),
      get kids() {
        return z.array(Node);
      },
    });
    const report = fromZodReport(z.object({ root: Node }), LEAVE);
    assert.deepStrictEqual(report.descriptor, t.object({ root: { type: 'recursive', name: 'ZodObject', schema: t.object({ name: t.string(), kids: t.array(t.ref('ZodObject')) }) } }));
    assert.deepStrictEqual(report.leftOut, [{ path: '$.root.name', kind: 'transform', what: '.trim() (a transform) on z.string()' }]);
  });

  test('a union with parts left to Zod: its defaults are optional on the wire (shorn may take another variant than Zod)', () => {
    const U = z.union([z.object({ a: z.string().refine((s) => s.startsWith('x')), d: z.string().default('first') }), z.object({ a: z.string(), d: z.string().default('second') })]);
    const report = fromZodReport(U, LEAVE);
    const variant = t.object({ a: t.string(), d: t.optional(t.string()) });
    assert.deepStrictEqual(report.descriptor, t.union([variant, variant]));
    assert.deepStrictEqual(report.leftOut, [
      { path: '$.a', kind: 'refine', what: refine('z.string()') },
      { path: '$.d', kind: 'default', what: '.default() in a z.union() with parts left to Zod' },
      { path: '$.d', kind: 'default', what: '.default() in a z.union() with parts left to Zod' },
    ]);
    // shorn takes the first variant for { a: 'y' }; Zod the second, and fills its default.
    const codec = compile(report.descriptor);
    for (const v of [{ a: 'y' }, { a: 'xy' }, { a: 'y', d: 'given' }]) assert.deepStrictEqual(U.parse(codec.decode(codec.encode(v))), U.parse(v));
    assert.deepStrictEqual(U.parse(codec.decode(codec.encode({ a: 'y' }))), { a: 'y', d: 'second' });
    // A discriminated union's variant is the discriminator's: defaults stay.
    const D = z.discriminatedUnion('k', [z.object({ k: z.literal('a'), s: z.string().refine(() => true), d: z.int().default(1) }), z.object({ k: z.literal('b') })]);
    assert.deepStrictEqual(fromZod(D, LEAVE), t.discriminatedUnion('k', [t.object({ k: t.literal('a'), s: t.string(), d: t.default(t.int(), 1) }), t.object({ k: t.literal('b') })]));
  });
});

describe('fromZod options: unknown: json', () => {
  test('z.json() is t.json() with the option, and the same recursive union as before without it', () => {
    const J = z.json();
    assert.deepStrictEqual(fromZod(J, { unknown: 'json' }), t.json());
    const plain = fromZod(J);
    assert.equal(plain.type, 'recursive');
    assert.deepStrictEqual(plain.schema.variants.map((v) => v.type), ['string', 'float64', 'bool', 'null', 'array', 'record']);
    // Written out by hand (in another order), it is the same type.
    const Mine = z.lazy(() => z.union([z.null(), z.boolean(), z.number(), z.string(), z.record(z.string(), Mine), z.array(Mine)]));
    assert.deepStrictEqual(fromZod(Mine, { unknown: 'json' }), t.json());
    // Not quite it (a constraint, a missing member): not t.json(), mapped as written.
    const Short = z.lazy(() => z.union([z.string().max(3), z.number(), z.boolean(), z.null(), z.array(Short), z.record(z.string(), Short)]));
    assert.equal(fromZod(Short, { unknown: 'json' }).type, 'recursive');
    const NoNull = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.array(NoNull), z.record(z.string(), NoNull)]));
    assert.equal(fromZod(NoNull, { unknown: 'json' }).type, 'recursive');
  });

  test('z.json() and t.json() judge values alike; decoded values parse to the same', () => {
    const J = z.json();
    const codec = compile(fromZod(J, { unknown: 'json' }));
    const values = [null, true, 0, -1.5, 'text', [], [1, 'a', [null]], {}, { a: { b: [1, 2, { c: 'd' }] } }, NaN, Infinity, undefined, 1n, new Date(0), [undefined], { a: undefined }, new Map(), () => 1];
    let both = 0;
    let neither = 0;
    for (const v of values) {
      const zod = J.safeParse(v).success;
      assert.equal(codec.check(v).ok, zod, String(v));
      if (zod) {
        both++;
        assert.deepStrictEqual(J.parse(codec.decode(codec.encode(v))), J.parse(v));
      } else neither++;
    }
    assert.deepStrictEqual([both, neither], [9, 9]);
  });

  test('z.any() and z.unknown() as t.json(): JSON values go through; others Zod takes, shorn refuses', () => {
    const Z = z.object({ id: z.int(), payload: z.unknown(), extra: z.any() });
    const codec = compile(fromZod(Z, { unknown: 'json' }));
    const v = { id: 1, payload: { deep: [1, 'two', { three: null }] }, extra: 'x' };
    assert.deepStrictEqual(Z.parse(codec.decode(codec.encode(v))), Z.parse(v));
    for (const payload of [new Date(0), undefined, 1n, new Map()]) {
      assert.equal(Z.safeParse({ id: 1, payload, extra: 1 }).success, true);
      assertShornError(() => codec.encode({ id: 1, payload, extra: 1 }), { code: 'ERR_SHORN_INVALID', path: '$.payload' });
    }
  });
});

// Z.parse(codec.decode(codec.encode(v))) against Z.parse(v), for every value: what shorn
// encodes, Zod judges after decode as it judges the value itself (the same data or the same
// refusal); what shorn refuses, Zod refuses too (`zodTakes` lists the exceptions, each for
// its reason). The outcomes are counted so that each scene tests what it says.
function roundTrips(Z, codec, values, zodTakes = () => false) {
  const tally = { same: 0, zodRefusesBoth: 0, shornRefuses: 0, zodOnly: 0 };
  for (const v of values) {
    const direct = Z.safeParse(v);
    let bytes;
    try {
      bytes = codec.encode(v);
    } catch (e) {
      assert.equal(e.code, 'ERR_SHORN_INVALID');
      if (direct.success) {
        assert.ok(zodTakes(v), `shorn refuses a value Zod takes: ${JSON.stringify(v)}: ${e.message}`);
        tally.zodOnly++;
      } else tally.shornRefuses++;
      continue;
    }
    const back = codec.decode(bytes);
    const after = Z.safeParse(back);
    assert.equal(after.success, direct.success, JSON.stringify(v));
    if (direct.success) {
      assert.deepStrictEqual(after.data, direct.data);
      tally.same++;
    } else {
      assert.deepStrictEqual(
        after.error.issues.map((i) => [i.path, i.code]),
        direct.error.issues.map((i) => [i.path, i.code]),
      );
      tally.zodRefusesBoth++;
    }
  }
  return tally;
}

describe('fromZod options: Z.parse(decode(encode(v))) is Z.parse(v) for realistic schemas', () => {
  const Signup = z
    .object({
      email: z.string().trim().toLowerCase().pipe(z.email()),
      name: z.string().trim().min(1).max(50),
      password: z.string().min(8).max(128),
      confirm: z.string(),
      age: z.coerce.number().int().min(13).optional(),
      tags: z.array(z.string().trim().toLowerCase()).max(5).default([]),
      plan: z.enum(['free', 'pro']).catch('free'),
      born: z.iso
        .date()
        .transform((s) => new Date(`${s}T00:00:00Z`))
        .optional(),
      site: z.url({ protocol: /^https$/ }).optional(),
    })
    .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'passwords differ' });

  test('a signup form: trim, toLowerCase, pipe, coerce, default, catch, transform, refine', () => {
    const { descriptor, leftOut } = fromZodReport(Signup, LEAVE);
    assert.deepStrictEqual(
      descriptor,
      t.object({
        email: t.string(),
        name: t.string(),
        password: t.string({ minLength: 8, maxLength: 128 }),
        confirm: t.string(),
        age: t.optional(t.int({ min: 13 })),
        tags: t.optional(t.array(t.string(), { maxItems: 5 })),
        plan: t.enum(['free', 'pro']),
        born: t.optional(t.string()),
        site: t.optional(t.string({ format: 'url' })),
      }),
    );
    assert.deepStrictEqual(leftOut, [
      { path: '$.email', kind: 'transform', what: '.trim() (a transform) on z.string()' },
      { path: '$.email', kind: 'transform', what: '.toLowerCase() (a transform) on z.string() after a transform' },
      { path: '$.email', kind: 'pipe', what: '.pipe()' },
      { path: '$.name', kind: 'transform', what: '.trim() (a transform) on z.string()' },
      { path: '$.name', kind: 'check', what: '.min() on z.string() after a transform' },
      { path: '$.name', kind: 'check', what: '.max() on z.string() after a transform' },
      { path: '$.age', kind: 'coerce', what: 'z.coerce.number()' },
      { path: '$.tags[]', kind: 'transform', what: '.trim() (a transform) on z.string()' },
      { path: '$.tags[]', kind: 'transform', what: '.toLowerCase() (a transform) on z.string() after a transform' },
      { path: '$.tags', kind: 'default', what: '.default() of a part left to Zod' },
      { path: '$.plan', kind: 'catch', what: '.catch()' },
      { path: '$.born', kind: 'check', what: 'z.iso.date()' },
      { path: '$.born', kind: 'transform', what: '.transform()' },
      { path: '$.site', kind: 'check', what: 'z.url() with hostname, protocol or normalize' },
      { path: '$', kind: 'refine', what: '.refine() (a refinement with a function) on z.object()' },
    ]);
    const base = { email: ' Ada@Example.COM ', name: '  Ada Lovelace  ', password: 'correct horse', confirm: 'correct horse', plan: 'free' };
    const values = [
      base,
      { ...base, age: 36, tags: [' Math ', 'ENGINES'], plan: 'pro', born: '1815-12-10', site: 'https://ada.example' },
      // 54 code points before the trim, 50 after: shorn must not judge the trimmed length.
      { ...base, name: `  ${'x'.repeat(50)}  ` },
      { ...base, tags: [] },
      // Refused by Zod on the parts left to it; shorn sends them and Zod refuses them the same.
      { ...base, confirm: 'wrong' },
      { ...base, email: 'not an email' },
      { ...base, name: '   ' },
      { ...base, name: 'y'.repeat(51) },
      { ...base, born: '1815-13-10' },
      { ...base, site: 'http://ada.example' },
      // Refused by shorn on what it checks, and by Zod.
      { ...base, age: 12 },
      { ...base, password: 'short', confirm: 'short' },
      { ...base, tags: ['a', 'b', 'c', 'd', 'e', 'f'] },
      { ...base, site: 'not a url' },
      // Zod takes these; shorn does not: a coercion's input that is not the target type,
      // and values .catch() replaces (the wire has the inner type, required as z.input
      // says).
      { ...base, age: '36' },
      { ...base, plan: 'gold' },
      { ...base, plan: undefined },
    ];
    const exceptions = (v) => typeof v.age === 'string' || v.plan === 'gold' || v.plan === undefined;
    for (const mode of MODES) {
      const codec = compileMode(descriptor, mode);
      assert.deepStrictEqual(roundTrips(Signup, codec, values, exceptions), { same: 4, zodRefusesBoth: 6, shornRefuses: 4, zodOnly: 3 }, mode.name);
    }
    // What the app gets: the parsed value, transforms done.
    const codec = compile(descriptor);
    const parsed = Signup.parse(codec.decode(codec.encode(values[1])));
    assert.deepStrictEqual(parsed, {
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      password: 'correct horse',
      confirm: 'correct horse',
      age: 36,
      tags: ['math', 'engines'],
      plan: 'pro',
      born: new Date('1815-12-10T00:00:00Z'),
      site: 'https://ada.example',
    });
  });

  test('an order: money and times as strings on the wire, transformed by Zod; a superRefine on the items', () => {
    const Order = z.object({
      id: z.uuid(),
      placedAt: z.iso.datetime({ offset: true }).transform((s) => new Date(s)),
      price: z
        .string()
        .regex(/^\d+\.\d{2}$/)
        .transform((s) => Math.round(Number(s) * 100)),
      items: z
        .array(z.object({ sku: z.string().regex(/^[A-Z]{3}-\d{4}$/), qty: z.int().min(1).max(99) }))
        .min(1)
        .superRefine((items, ctx) => {
          const seen = new Set();
          for (const [k, item] of items.entries()) {
            if (seen.has(item.sku)) ctx.addIssue({ code: 'custom', path: [k, 'sku'], message: 'sku twice' });
            seen.add(item.sku);
          }
        }),
      note: z.string().trim().max(10).optional(),
      meta: z.record(z.string(), z.unknown()).optional(),
    });
    const { descriptor, leftOut } = fromZodReport(Order, { effects: 'leave-to-zod', unknown: 'json' });
    assert.deepStrictEqual(
      descriptor,
      t.object({
        id: t.string({ format: 'uuid' }),
        placedAt: t.string({ format: 'datetime' }),
        price: t.string({ pattern: '^\\d+\\.\\d{2}$' }),
        items: t.array(t.object({ sku: t.string({ pattern: '^[A-Z]{3}-\\d{4}$' }), qty: t.int({ min: 1, max: 99 }) }), { minItems: 1 }),
        note: t.optional(t.string()),
        meta: t.optional(t.record(t.json())),
      }),
    );
    assert.deepStrictEqual(leftOut, [
      { path: '$.placedAt', kind: 'transform', what: '.transform()' },
      { path: '$.price', kind: 'transform', what: '.transform()' },
      { path: '$.items', kind: 'refine', what: '.refine() (a refinement with a function) on z.array()' },
      { path: '$.note', kind: 'transform', what: '.trim() (a transform) on z.string()' },
      { path: '$.note', kind: 'check', what: '.max() on z.string() after a transform' },
    ]);
    const base = { id: '123e4567-e89b-12d3-a456-426614174000', placedAt: '2026-12-03T23:15:00+01:00', price: '19.99', items: [{ sku: 'ABC-0001', qty: 2 }] };
    const values = [
      base,
      { ...base, note: '   gift wrap   ', meta: { source: 'web', ab: [1, 2] } },
      { ...base, items: [{ sku: 'ABC-0001', qty: 1 }, { sku: 'ABC-0002', qty: 99 }] },
      { ...base, items: [{ sku: 'ABC-0001', qty: 1 }, { sku: 'ABC-0001', qty: 2 }] },
      { ...base, note: 'far too long for it' },
      { ...base, price: '19.9' },
      { ...base, items: [] },
      { ...base, items: [{ sku: 'abc-0001', qty: 2 }] },
      { ...base, placedAt: '2026-12-03T23:15:00' },
      { ...base, meta: { when: new Date(0) } },
    ];
    for (const mode of MODES) {
      const codec = compileMode(descriptor, mode);
      assert.deepStrictEqual(roundTrips(Order, codec, values, (v) => v.meta?.when instanceof Date), { same: 3, zodRefusesBoth: 2, shornRefuses: 4, zodOnly: 1 }, mode.name);
    }
    const codec = compile(descriptor);
    assert.deepStrictEqual(Order.parse(codec.decode(codec.encode(values[1]))), {
      ...base,
      placedAt: new Date('2026-12-03T22:15:00Z'),
      price: 1999,
      note: 'gift wrap',
      meta: { source: 'web', ab: [1, 2] },
    });
  });

  test('a webhook payload: z.looseObject() stripped, z.json() data', () => {
    const Hook = z.looseObject({ event: z.enum(['push', 'star']), data: z.json(), at: z.coerce.date() });
    const { descriptor, leftOut } = fromZodReport(Hook, { unknown: 'json', unknownKeys: 'strip', effects: 'leave-to-zod' });
    assert.deepStrictEqual(descriptor, t.object({ event: t.enum(['push', 'star']), data: t.json(), at: t.date() }));
    assert.deepStrictEqual(leftOut, [
      { path: '$.at', kind: 'coerce', what: 'z.coerce.date()' },
      { path: '$', kind: 'unknown-keys', what: 'z.looseObject() (or .passthrough())' },
    ]);
    for (const mode of MODES) {
      const codec = compileMode(descriptor, mode);
      const v = { event: 'push', data: { ref: 'main', commits: [{ id: 'a1' }] }, at: new Date(1e12), installation: 42, sender: { login: 'ada' } };
      const back = codec.decode(codec.encode(v));
      // The other keys are dropped on encode: Zod's parse of what arrives has the named
      // fields only, the parse of the value itself all of them.
      assert.deepStrictEqual(back, { event: 'push', data: v.data, at: v.at });
      assert.deepStrictEqual(Hook.parse(back), { event: 'push', data: v.data, at: v.at });
      assert.deepStrictEqual(Hook.parse(v), v);
      const { installation, sender, ...named } = v;
      void [installation, sender];
      assert.deepStrictEqual(Hook.parse(back), Hook.parse(named));
      // A coercion's input that is not a Date: Zod takes it, shorn does not.
      assert.equal(Hook.safeParse({ ...named, at: 1e12 }).success, true);
      assertShornError(() => codec.encode({ ...named, at: 1e12 }), { code: 'ERR_SHORN_INVALID', path: '$.at' });
    }
  });

  test('random values: what shorn encodes, Zod judges after decode as before; what shorn refuses, Zod refuses', () => {
    // A small PRNG (mulberry32), seeded: the same values each run.
    let seed = 42;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
    const ALPHABET = ['a', 'b', 'A', 'Z', ' ', ' ', '\t', '@', '.', 'c', 'o', '1', 'é', 'É', '🚀'];
    const text = () => Array.from({ length: Math.floor(random() * 9) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');
    const int = () => Math.floor(random() * 16) - 3;
    const scenes = [
      [z.string().trim().min(2).max(5), text],
      [z.string().min(1).trim().toLowerCase().regex(/^[a-zé]+$/), text],
      [z.string().max(7).trim().toUpperCase().pipe(z.string().min(3)), text],
      [z.email().trim(), () => (random() < 0.5 ? text() : `${text().trim() || 'a'}@b.co${random() < 0.3 ? ' ' : ''}`)],
      [z.string().refine((x) => x.includes('a')).max(4), text],
      [z.string().transform((x) => x.length).pipe(z.int().min(2)), text],
      [
        z.object({ n: z.int().min(0).max(10).refine((n) => n % 2 === 0), s: z.string().trim().max(3).optional(), d: z.string().trim().default('none') }),
        () => {
          const v = { n: int() };
          if (random() < 0.7) v.s = text();
          if (random() < 0.5) v.d = text();
          return v;
        },
      ],
      [z.object({ tags: z.array(z.string().trim().toLowerCase()).max(3).default([]) }), () => (random() < 0.2 ? {} : { tags: Array.from({ length: Math.floor(random() * 5) }, text) })],
    ];
    const total = { same: 0, zodRefusesBoth: 0, shornRefuses: 0, zodOnly: 0 };
    for (const [Z, make] of scenes) {
      const values = Array.from({ length: 300 }, make);
      for (const mode of MODES) {
        const codec = compileMode(fromZod(Z, LEAVE), mode);
        const tally = roundTrips(Z, codec, values);
        for (const k of Object.keys(total)) total[k] += tally[k];
      }
    }
    assert.equal(total.zodOnly, 0);
    // 1,900, 1,668 and 1,232 with this seed.
    assert.ok(total.same > 1000 && total.zodRefusesBoth > 1000 && total.shornRefuses > 500, JSON.stringify(total));
  });

  test('ESM: fromZodReport is exported as fromZod is', async () => {
    const esm = await import('../index.mjs');
    assert.equal(esm.fromZodReport, fromZodReport);
    assert.equal(esm.default.fromZodReport, fromZodReport);
  });
});
