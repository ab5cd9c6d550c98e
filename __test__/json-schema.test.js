'use strict';
// fromJsonSchema (lib/json-schema.js): the descriptor of each JSON Schema keyword it maps,
// real TypeBox 1.x and Fastify route schemas, round trips in both marshallers, random
// values that TypeBox's validator accepts, and ERR_SHORN_SCHEMA with the keyword's JSON
// Pointer for everything else. Issue 40.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { Type } = require('typebox');
const { Value } = require('typebox/value');
const { shorn, compileBoth, assertShornError, mulberry32 } = require('./helpers');

const { t, compile, fromJsonSchema, ShornError } = shorn;

const FLOAT = { min: -Number.MAX_VALUE, max: Number.MAX_VALUE };
const f64 = (bounds = {}) => t.float64({ ...FLOAT, ...bounds });

// Each value through encode and decode in both marshallers, back as `expected` (the value
// itself unless given).
function roundTrips(descriptor, values) {
  for (const { mode, codec } of compileBoth(descriptor)) {
    for (const value of values) {
      const [input, expected] = Array.isArray(value) && value.length === 2 && value[0] === ROUND ? [value[1].in, value[1].out] : [value, value];
      assert.deepStrictEqual(codec.decode(codec.encode(input)), expected, `${mode.name}: ${JSON.stringify(input)}`);
    }
  }
}
// A value that decodes as another (a default filled in, unknown keys left out).
const ROUND = Symbol('round');
const becomes = (input, output) => [ROUND, { in: input, out: output }];

describe('fromJsonSchema: descriptors', () => {
  const cases = [
    // [name, schema, descriptor, values that round trip]
    ['string', { type: 'string' }, t.string(), ['', 'héllo 🚀']],
    ['string lengths and pattern', { type: 'string', minLength: 1, maxLength: 5, pattern: '^[a-z]+$' }, t.string({ minLength: 1, maxLength: 5, pattern: '^[a-z]+$' }), ['abc']],
    ['date-time as a checked string', { type: 'string', format: 'date-time' }, t.string({ format: 'datetime' }), ['2024-02-29T12:00:00.5+01:00', new Date(0).toISOString()]],
    ['email, uuid, uri, ipv4, ipv6', { type: 'array', prefixItems: ['email', 'uuid', 'uri', 'ipv4', 'ipv6'].map((format) => ({ type: 'string', format })), items: false, minItems: 5 },
      t.tuple(['email', 'uuid', 'url', 'ipv4', 'ipv6'].map((format) => t.string({ format }))), [['a@b.co', '123e4567-e89b-12d3-a456-426614174000', 'https://x.example/a?b', '10.0.0.1', '::1']]],
    ['integer without bounds', { type: 'integer' }, t.int(), [0, -1, Number.MAX_SAFE_INTEGER]],
    ['integer 0..255 is uint8', { type: 'integer', minimum: 0, maximum: 255 }, t.uint8(), [0, 255]],
    ['integer 1..100 is uint8 with bounds', { type: 'integer', minimum: 1, maximum: 100 }, t.uint8({ min: 1, max: 100 }), [1, 100]],
    ['integer -5..5 is int8', { type: 'integer', minimum: -5, maximum: 5 }, t.int8({ min: -5, max: 5 }), [-5, 5]],
    ['integer 0..65535 is uint16', { type: 'integer', minimum: 0, maximum: 65535 }, t.uint16(), [65535]],
    ['integer -300..300 is int16', { type: 'integer', minimum: -300, maximum: 300 }, t.int16({ min: -300, max: 300 }), [-300]],
    ['integer 0..70000 is uint32', { type: 'integer', minimum: 0, maximum: 70000 }, t.uint32({ max: 70000 }), [70000]],
    ['integer with a lower bound only is int', { type: 'integer', minimum: 0 }, t.int({ min: 0 }), [2 ** 40]],
    ['integer -2^31..2^31-1 is int32', { type: 'integer', minimum: -(2 ** 31), maximum: 2 ** 31 - 1 }, t.int32(), [-(2 ** 31)]],
    ['integer bounds past 2^53 are int', { type: 'integer', minimum: -(2 ** 63), maximum: 2 ** 64 }, t.int(), [Number.MIN_SAFE_INTEGER]],
    ['exclusive bounds (draft-06 and later)', { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 }, t.uint8({ min: 1, max: 9 }), [1, 9]],
    ['exclusive bounds (draft-04)', { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true }, t.uint8({ min: 1, max: 9 }), [5]],
    ['fractional integer bounds', { type: 'integer', minimum: 0.5, maximum: 9.5 }, t.uint8({ min: 1, max: 9 }), [1]],
    ['integer multipleOf', { type: 'integer', minimum: 0, maximum: 100, multipleOf: 5 }, t.uint8({ max: 100, multipleOf: 5 }), [0, 95]],
    ['number', { type: 'number' }, f64(), [0, 1.5, -1e300]],
    ['number with bounds', { type: 'number', minimum: 0, maximum: 1 }, f64({ min: 0, max: 1 }), [0, 1]],
    ['number with exclusive bounds', { type: 'number', exclusiveMinimum: 0 }, f64({ min: Number.MIN_VALUE }), [1e-300]],
    ['boolean', { type: 'boolean' }, t.bool(), [true, false]],
    ['null', { type: 'null' }, t.null(), [null]],
    ['type: [T, "null"]', { type: ['string', 'null'] }, t.nullable(t.string()), ['a', null]],
    ['nullable: true (OpenAPI 3.0)', { type: 'integer', minimum: 0, maximum: 9, nullable: true }, t.nullable(t.uint8({ max: 9 })), [9, null]],
    ['type: [string, integer]', { type: ['string', 'integer'] }, t.union([t.string(), t.int()]), ['1', 1]],
    ['type: [integer, number] is number', { type: ['integer', 'number'] }, f64(), [1.5]],
    ['enum of strings', { enum: ['a', 'b', 'c'] }, t.enum(['a', 'b', 'c']), ['c']],
    ['enum of strings and null', { type: ['string', 'null'], enum: ['a', 'b', null] }, t.nullable(t.enum(['a', 'b'])), ['b', null]],
    ['mixed enum', { enum: ['a', 1, true] }, t.union([t.literal('a'), t.literal(1), t.literal(true)]), ['a', 1, true]],
    ['const', { const: 'v1' }, t.literal('v1'), ['v1']],
    ['const with its type (TypeBox Literal)', { type: 'number', const: 2 }, t.literal(2), [2]],
    ['const null', { const: null }, t.null(), [null]],
    ['{} is any JSON value', {}, t.json(), [null, 1, 'x', [1, { a: [] }]]],
    ['true is any JSON value', true, t.json(), [{ a: 1 }]],
    ['annotations are skipped', { type: 'string', title: 'T', description: 'D', $comment: 'C', examples: ['x'], $schema: 'https://json-schema.org/draft/2020-12/schema' }, t.string(), ['x']],
    ['object: required and optional', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'boolean' } }, required: ['a'] },
      t.object({ a: t.string(), b: t.optional(t.bool()) }), [{ a: 'x' }, { a: 'x', b: true }, becomes({ a: 'x', extra: 1 }, { a: 'x' })]],
    ['object: additionalProperties false is strict', { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false },
      t.object({ a: t.string() }, { strict: true }), [{ a: 'x' }]],
    ['object: additionalProperties true or {} is not strict', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: {} }, t.object({ a: t.optional(t.string()) }), [{}]],
    ['object: a default fills a missing property', { type: 'object', properties: { role: { type: 'string', enum: ['admin', 'user'], default: 'user' } } },
      t.object({ role: t.default(t.enum(['admin', 'user']), 'user') }), [becomes({}, { role: 'user' }), { role: 'admin' }]],
    ['object: a required property with a default (Ajv fills it first)', { type: 'object', properties: { n: { type: 'integer', default: 1 } }, required: ['n'] },
      t.object({ n: t.default(t.int(), 1) }), [becomes({}, { n: 1 })]],
    ['object: a property named __proto__', { type: 'object', properties: { ['__proto__']: { type: 'string' } }, required: ['__proto__'] },
      t.object(Object.defineProperty({}, '__proto__', { value: t.string(), enumerable: true })), []],
    ['object without properties is a record of JSON', { type: 'object' }, t.record(t.json()), [{ a: [1], b: null }]],
    ['additionalProperties as a schema is a record', { type: 'object', additionalProperties: { type: 'integer' }, maxProperties: 3 }, t.record(t.int(), { maxEntries: 3 }), [{ a: 1, b: 2 }]],
    ['additionalProperties false alone: the empty object', { type: 'object', additionalProperties: false }, t.object({}, { strict: true }), [{}]],
    ['patternProperties ^.*$ is a record (TypeBox Record)', { type: 'object', patternProperties: { '^.*$': { type: 'string' } } }, t.record(t.string()), [{ x: 'y' }]],
    ['array', { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 }, t.array(t.string(), { minItems: 1, maxItems: 3 }), [['a'], ['a', 'b', 'c']]],
    ['array without items', { type: 'array' }, t.array(t.json()), [[1, 'a', null]]],
    ['array with items: false is empty', { type: 'array', items: false }, t.tuple([]), [[]]],
    ['uniqueItems: false is no constraint', { type: 'array', items: { type: 'boolean' }, uniqueItems: false }, t.array(t.bool()), [[true, true]]],
    ['tuple, draft-07 (items array, additionalItems: false)', { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false, minItems: 2 },
      t.tuple([t.string(), t.int()]), [['a', 1]]],
    ['tuple, 2020-12 (prefixItems, items: false)', { type: 'array', prefixItems: [{ type: 'boolean' }], items: false, minItems: 1 }, t.tuple([t.bool()]), [[true]]],
    ['tuple closed by maxItems', { type: 'array', prefixItems: [{ type: 'boolean' }], minItems: 1, maxItems: 1 }, t.tuple([t.bool()]), [[false]]],
    ['anyOf is a union', { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 0, maximum: 9 }] }, t.union([t.string(), t.uint8({ max: 9 })]), ['a', 9]],
    ['oneOf is a union', { oneOf: [{ type: 'boolean' }, { type: 'array', items: { type: 'boolean' } }] }, t.union([t.bool(), t.array(t.bool())]), [true, [false]]],
    ['anyOf [T, null] is nullable (TypeBox Union with Null)', { anyOf: [{ type: 'string' }, { type: 'null' }] }, t.nullable(t.string()), [null, 's']],
    ['anyOf [A, B, null]', { anyOf: [{ type: 'string' }, { type: 'boolean' }, { type: 'null' }] }, t.nullable(t.union([t.string(), t.bool()])), [null, false]],
    ['anyOf of string consts is an enum (TypeBox Union of Literals)', { anyOf: [{ const: 'a' }, { const: 'b' }] }, t.enum(['a', 'b']), ['b']],
    ['nullable of what takes null already stays as it is', { type: ['null', 'string'], enum: [null, 'a'] }, t.nullable(t.literal('a')), [null, 'a']],
    ['anyOf with a const property in each is discriminated', {
      anyOf: [
        { type: 'object', properties: { kind: { const: 'a' }, n: { type: 'number' } }, required: ['kind', 'n'] },
        { type: 'object', properties: { kind: { const: 'b' } }, required: ['kind'] },
      ],
    }, t.discriminatedUnion('kind', [t.object({ kind: t.literal('a'), n: f64() }), t.object({ kind: t.literal('b') })]), [{ kind: 'a', n: 1 }, { kind: 'b' }]],
    ['the OpenAPI discriminator names the key', {
      oneOf: [
        { type: 'object', properties: { v: { const: 1 }, t: { const: 'x' } }, required: ['v', 't'] },
        { type: 'object', properties: { v: { const: 1 }, t: { const: 'y' } }, required: ['v', 't'] },
      ],
      discriminator: { propertyName: 't' },
    }, t.discriminatedUnion('t', [t.object({ v: t.literal(1), t: t.literal('x') }), t.object({ v: t.literal(1), t: t.literal('y') })]), [{ v: 1, t: 'y' }]],
    ['an optional const is no discriminator', {
      anyOf: [
        { type: 'object', properties: { k: { const: 'a' } } },
        { type: 'object', properties: { k: { const: 'b' } } },
      ],
    }, t.union([t.object({ k: t.optional(t.literal('a')) }), t.object({ k: t.optional(t.literal('b')) })]), [{ k: 'b' }]],
    ['allOf of one schema', { allOf: [{ type: 'string' }] }, t.string(), ['x']],
    ['$ref to $defs', { $defs: { S: { type: 'string' } }, type: 'object', properties: { a: { $ref: '#/$defs/S' } }, required: ['a'] }, t.object({ a: t.string() }), [{ a: 'x' }]],
    ['$ref to definitions (draft-07)', { definitions: { S: { type: 'boolean' } }, $ref: '#/definitions/S' }, t.bool(), [true]],
    ['$ref by $id', { $defs: { s: { $id: 'Str', type: 'string' } }, type: 'array', items: { $ref: 'Str' } }, t.array(t.string()), [['a']]],
    ['$ref to a percent-encoded, escaped pointer', { $defs: { 'a/b c': { type: 'null' } }, $ref: '#/$defs/a~1b%20c' }, t.null(), [null]],
    ['$ref to the root: recursion', { type: 'object', properties: { next: { $ref: '#' } } },
      { type: 'recursive', name: 'Root', schema: t.object({ next: t.optional(t.ref('Root')) }) }, [{}, { next: { next: {} } }]],
    ['recursion through $defs', {
      $defs: { Node: { type: 'object', properties: { v: { type: 'integer' }, kids: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['v', 'kids'] } },
      $ref: '#/$defs/Node',
    }, { type: 'recursive', name: 'Node', schema: t.object({ v: t.int(), kids: t.array(t.ref('Node')) }) }, [{ v: 1, kids: [{ v: 2, kids: [] }] }]],
    ['a $ref used twice is inlined twice', { $defs: { P: { type: 'integer', minimum: 0, maximum: 9 } }, type: 'array', prefixItems: [{ $ref: '#/$defs/P' }, { $ref: '#/$defs/P' }], items: false, minItems: 2 },
      t.tuple([t.uint8({ max: 9 }), t.uint8({ max: 9 })]), [[1, 2]]],
  ];
  for (const [name, schema, descriptor, values] of cases) {
    test(name, () => {
      const d = fromJsonSchema(schema);
      assert.deepStrictEqual(d, descriptor);
      // Descriptors are JSON: the same after a round trip through text.
      assert.deepStrictEqual(JSON.parse(JSON.stringify(d)), d);
      roundTrips(d, values);
      // Each value the round trip takes, the JSON Schema takes too (TypeBox's validator).
      for (const value of values) {
        const input = Array.isArray(value) && value[0] === ROUND ? value[1].in : value;
        // (TypeBox's validator knows neither OpenAPI's nullable nor Ajv's useDefaults.)
        if (!/"(default|nullable)"/.test(JSON.stringify(schema))) assert.ok(Value.Check(schema, input), `the JSON Schema takes ${JSON.stringify(input)}`);
      }
    });
  }

  test('keeps bounds and formats as constraints: values past them are refused on encode', () => {
    const codec = compile(fromJsonSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 100 }, at: { type: 'string', format: 'date-time' } }, required: ['n', 'at'] }));
    assertShornError(() => codec.encode({ n: 0, at: '2024-01-01T00:00:00Z' }), { code: 'ERR_SHORN_INVALID', path: '$.n' });
    assertShornError(() => codec.encode({ n: 1, at: 'yesterday' }), { code: 'ERR_SHORN_INVALID', path: '$.at' });
  });

  test('unknownFormats: ignore takes a format shorn does not check as any string', () => {
    assert.deepStrictEqual(fromJsonSchema({ type: 'string', format: 'date', maxLength: 10 }, { unknownFormats: 'ignore' }), t.string({ maxLength: 10 }));
  });

  test('options.schemas: $refs to shared schemas by $id (Fastify addSchema), as an array or by id', () => {
    const User = { $id: 'User', type: 'object', properties: { name: { type: 'string' }, pet: { $ref: '#/definitions/Pet' } }, required: ['name'], definitions: { Pet: { enum: ['cat', 'dog'] } } };
    const expected = t.array(t.object({ name: t.string(), pet: t.optional(t.enum(['cat', 'dog'])) }));
    assert.deepStrictEqual(fromJsonSchema({ type: 'array', items: { $ref: 'User#' } }, { schemas: [User] }), expected);
    assert.deepStrictEqual(fromJsonSchema({ type: 'array', items: { $ref: 'User' } }, { schemas: { User } }), expected);
    assert.deepStrictEqual(fromJsonSchema({ $ref: 'User#/definitions/Pet' }, { schemas: [User] }), t.enum(['cat', 'dog']));
  });

  test('a descriptor it gives is one compile takes, and its JSON is stable', () => {
    const schema = Type.Object({ a: Type.Array(Type.Integer({ minimum: 0, maximum: 9 })) });
    assert.equal(compile(fromJsonSchema(schema)).fingerprint, compile(fromJsonSchema(JSON.parse(JSON.stringify(schema)))).fingerprint);
  });
});

describe('fromJsonSchema: TypeBox 1.x', () => {
  const Address = Type.Object({ street: Type.String(), zip: Type.String({ pattern: '^[0-9]{5}$' }) }, { additionalProperties: false });
  const Order = Type.Object(
    {
      id: Type.Integer({ minimum: 1 }),
      customer: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }), email: Type.String({ format: 'email' }), address: Type.Optional(Address) }),
      lines: Type.Array(Type.Object({ sku: Type.String(), qty: Type.Integer({ minimum: 1, maximum: 1000 }), price: Type.Number({ minimum: 0 }) }), { minItems: 1 }),
      matrix: Type.Array(Type.Array(Type.Number())),
      status: Type.Union([Type.Literal('open'), Type.Literal('paid'), Type.Literal('shipped')]),
      priority: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal('urgent')]),
      kind: Type.Enum(['retail', 'wholesale']),
      note: Type.Union([Type.String(), Type.Null()]),
      tags: Type.Record(Type.String(), Type.Boolean()),
      at: Type.String({ format: 'date-time' }),
      where: Type.Tuple([Type.Number(), Type.Number()]),
      flag: Type.Optional(Type.Boolean()),
      extra: Type.Unknown(),
    },
    { additionalProperties: false },
  );
  const order = {
    id: 7,
    customer: { name: 'Ada', email: 'ada@example.com', address: { street: '1 Main St', zip: '12345' } },
    lines: [{ sku: 'X-1', qty: 2, price: 9.5 }],
    matrix: [[1, 2], [], [3.25]],
    status: 'paid',
    priority: 'urgent',
    kind: 'retail',
    note: null,
    tags: { gift: true },
    at: '2024-05-01T10:00:00Z',
    where: [48.85, 2.35],
    extra: { anything: [1, 'two', null] },
  };

  test('Type.Object with nested arrays, optional fields, unions, literals, records, tuples, enums', () => {
    const d = fromJsonSchema(Order);
    assert.deepStrictEqual(
      d,
      t.object(
        {
          id: t.int({ min: 1 }),
          customer: t.object({
            name: t.string({ minLength: 1, maxLength: 100 }),
            email: t.string({ format: 'email' }),
            address: t.optional(t.object({ street: t.string(), zip: t.string({ pattern: '^[0-9]{5}$' }) }, { strict: true })),
          }),
          lines: t.array(t.object({ sku: t.string(), qty: t.uint16({ min: 1, max: 1000 }), price: f64({ min: 0 }) }), { minItems: 1 }),
          matrix: t.array(t.array(f64())),
          status: t.enum(['open', 'paid', 'shipped']),
          priority: t.union([t.literal(1), t.literal(2), t.literal('urgent')]),
          kind: t.enum(['retail', 'wholesale']),
          note: t.nullable(t.string()),
          tags: t.record(t.bool()),
          at: t.string({ format: 'datetime' }),
          where: t.tuple([f64(), f64()]),
          flag: t.optional(t.bool()),
          extra: t.json(),
        },
        { strict: true },
      ),
    );
    assert.ok(Value.Check(Order, order));
    roundTrips(d, [order, { ...order, flag: false, customer: { name: 'B', email: 'b@c.io' } }]);
    // Strict as TypeBox's additionalProperties: false is.
    assertShornError(() => compile(d).encode({ ...order, more: 1 }), { code: 'ERR_SHORN_INVALID' });
  });

  test('Type.Union of objects with a literal kind is a discriminated union', () => {
    const Event = Type.Union([
      Type.Object({ type: Type.Literal('click'), x: Type.Integer(), y: Type.Integer() }),
      Type.Object({ type: Type.Literal('key'), key: Type.String() }),
    ]);
    const d = fromJsonSchema(Event);
    assert.equal(d.type, 'discriminatedUnion');
    assert.equal(d.key, 'type');
    roundTrips(d, [{ type: 'click', x: 1, y: -2 }, { type: 'key', key: 'Enter' }]);
  });

  test('Type.Cyclic: recursion by $id, and mutual recursion', () => {
    const Tree = Type.Cyclic({ Node: Type.Object({ name: Type.String(), kids: Type.Array(Type.Ref('Node')) }) }, 'Node');
    assert.deepStrictEqual(fromJsonSchema(Tree), { type: 'recursive', name: 'Node', schema: t.object({ name: t.string(), kids: t.array(t.ref('Node')) }) });
    roundTrips(fromJsonSchema(Tree), [{ name: 'a', kids: [{ name: 'b', kids: [{ name: 'c', kids: [] }] }] }]);
    const Mutual = Type.Cyclic({ A: Type.Object({ b: Type.Optional(Type.Ref('B')) }), B: Type.Object({ a: Type.Ref('A'), n: Type.Integer() }) }, 'A');
    const value = { b: { a: { b: { a: {}, n: 2 } }, n: 1 } };
    assert.ok(Value.Check(Mutual, value));
    roundTrips(fromJsonSchema(Mutual), [value]);
  });

  test('Type.Ref to a schema given in options.schemas', () => {
    const Money = Type.Object({ amount: Type.Integer(), currency: Type.String({ minLength: 3, maxLength: 3 }) }, { $id: 'Money' });
    const Invoice = Type.Object({ total: Type.Ref('Money'), items: Type.Array(Type.Ref('Money')) });
    const d = fromJsonSchema(Invoice, { schemas: [Money] });
    roundTrips(d, [{ total: { amount: 100, currency: 'EUR' }, items: [] }]);
    assertShornError(() => fromJsonSchema(Invoice), { code: 'ERR_SHORN_SCHEMA', path: '/properties/total/$ref', message: /"Money".*options\.schemas/ });
  });

  test('what TypeBox makes that shorn has no type for is refused with its pointer', () => {
    const refusals = [
      [Type.Object({ a: Type.Intersect([Type.Object({ x: Type.String() }), Type.Object({ y: Type.String() })]) }), '/properties/a/allOf'],
      [Type.Object({ n: Type.BigInt() }), '/properties/n/type'],
      [Type.Object({ u: Type.Undefined() }), '/properties/u/type'],
      [Type.Record(Type.Integer(), Type.String()), '/patternProperties/^-?(?:0|[1-9][0-9]*)$'],
      [Type.Record(Type.TemplateLiteral('x${string}'), Type.String()), '/patternProperties/^x.*$'],
      [Type.Object({ m: Type.Number({ multipleOf: 0.01 }) }), '/properties/m/multipleOf'],
    ];
    for (const [schema, pointer] of refusals) {
      assertShornError(() => fromJsonSchema(schema), { code: 'ERR_SHORN_SCHEMA', path: pointer });
    }
  });
});

describe('fromJsonSchema: Fastify route schemas', () => {
  test('a body and a 200 response as Fastify docs write them (draft-07)', () => {
    const body = {
      type: 'object',
      required: ['name', 'qty'],
      properties: {
        name: { type: 'string', maxLength: 64 },
        qty: { type: 'integer', minimum: 1, maximum: 99 },
        price: { type: 'number', exclusiveMinimum: 0 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 8 },
        meta: { type: 'object', additionalProperties: { type: 'string' } },
        shipping: { type: 'string', enum: ['standard', 'express'], default: 'standard' },
        gift: { type: 'boolean', nullable: true },
      },
      additionalProperties: false,
    };
    const response = {
      type: 'object',
      properties: { id: { type: 'string', format: 'uuid' }, created: { type: 'string', format: 'date-time' }, items: { type: 'array', items: { $ref: 'Item#' } } },
    };
    const Item = { $id: 'Item', type: 'object', properties: { name: { type: 'string' }, qty: { type: 'integer' } }, required: ['name', 'qty'] };
    const b = fromJsonSchema(body);
    roundTrips(b, [
      becomes({ name: 'pen', qty: 2 }, { name: 'pen', qty: 2, shipping: 'standard' }),
      { name: 'pen', qty: 99, price: 1.25, tags: ['a'], meta: { k: 'v' }, shipping: 'express', gift: null },
    ]);
    assert.deepStrictEqual(b.fields.map((f) => f.name), ['name', 'qty', 'price', 'tags', 'meta', 'shipping', 'gift']);
    const r = fromJsonSchema(response, { schemas: [Item] });
    roundTrips(r, [{}, { id: '123e4567-e89b-12d3-a456-426614174000', created: '2024-01-01T00:00:00.000Z', items: [{ name: 'pen', qty: 1 }] }]);
  });

  test('shared definitions and a nullable reference', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { user: { type: 'object', properties: { id: { type: 'integer', minimum: 0, maximum: 4294967295 } }, required: ['id'] } },
      type: 'object',
      properties: { owner: { $ref: '#/definitions/user' }, editor: { anyOf: [{ $ref: '#/definitions/user' }, { type: 'null' }] } },
      required: ['owner', 'editor'],
    };
    assert.deepStrictEqual(fromJsonSchema(schema), t.object({ owner: t.object({ id: t.uint32() }), editor: t.nullable(t.object({ id: t.uint32() })) }));
  });
});

describe('fromJsonSchema: refusals name the keyword and its JSON Pointer', () => {
  const refusals = [
    // [schema, pointer, message]
    [{ type: 'object', properties: { user: { not: { type: 'string' } } } }, '/properties/user/not', /"not": shorn has no negation/],
    [{ if: { type: 'string' }, then: { minLength: 1 } }, '/if', /conditional/],
    [{ allOf: [{ type: 'string' }, { minLength: 1 }] }, '/allOf', /intersection/],
    [{ type: 'array', contains: { type: 'string' } }, '/contains', /some items/],
    [{ type: 'object', propertyNames: { pattern: '^a' } }, '/propertyNames', /string keys/],
    [{ type: 'object', dependentRequired: { a: ['b'] } }, '/dependentRequired', /depend/],
    [{ type: 'object', unevaluatedProperties: false }, '/unevaluatedProperties', /additionalProperties: false/],
    [{ $dynamicRef: '#meta' }, '/$dynamicRef', /dynamic/],
    [{ type: 'string', contentEncoding: 'base64' }, '/contentEncoding', /encoded content/],
    [{ type: 'string', foo: 1 }, '/foo', /no such type or constraint/],
    [false, '', /the schema false/],
    [{ type: 'array', items: false, prefixItems: 'x' }, '/prefixItems', /array of schemas/],
    [null, '', /expected a JSON Schema/],
    [{ properties: { a: 'str' }, type: 'object' }, '/properties/a', /expected a JSON Schema/],
    [{ type: 'string', format: 'date' }, '/format', /"date" is none of them.*unknownFormats/],
    [{ type: 'string', pattern: '^\\p{L}+$' }, '/pattern', /u flag/],
    [{ type: 'string', pattern: '(a)\\1' }, '', /backreference|pattern/i],
    [{ type: 'string', minLength: -1 }, '/minLength', /at least 0/],
    [{ type: 'string', minLength: 5, maxLength: 2 }, '/minLength', /over maxLength/],
    [{ type: 'string', minimum: 1 }, '/minimum', /applies to numbers/],
    [{ minLength: 1 }, '/minLength', /without "type"/],
    [{ type: 'integer', multipleOf: 0.5 }, '/multipleOf', /integer divisor/],
    [{ type: 'number', multipleOf: 2 }, '/multipleOf', /integers only/],
    [{ type: 'integer', minimum: 5, maximum: 4 }, '', /no integer/],
    [{ type: 'integer', minimum: 2 ** 60 }, '', /2\^53/],
    [{ type: 'integer', exclusiveMinimum: true }, '/exclusiveMinimum', /needs a minimum/],
    [{ type: 'number', maximum: 'x' }, '/maximum', /expected a number/],
    [{ type: 'number', minimum: 2, exclusiveMaximum: 2 }, '', /no number/],
    [{ type: 'bigint' }, '/type', /"bigint"/],
    [{ type: [] }, '/type', /type name/],
    [{ type: 'string', nullable: 'yes' }, '/nullable', /true or false/],
    [{ enum: [] }, '/enum', /at least one/],
    [{ enum: ['a', { b: 1 }] }, '/enum/1', /literal/],
    [{ type: 'string', enum: ['a', 1] }, '/enum/1', /not of the type string/],
    [{ const: [1] }, '/const', /literal/],
    [{ enum: ['a'], minLength: 1 }, '/minLength', /beside "enum"/],
    [{ $ref: '#/$defs/A', type: 'object' }, '/type', /beside "\$ref"/],
    [{ anyOf: [{ type: 'string' }], oneOf: [{ type: 'string' }] }, '/oneOf', /one of \$ref/],
    [{ anyOf: [] }, '/anyOf', /at least one/],
    [{ type: 'string', discriminator: { propertyName: 'k' } }, '/discriminator', /oneOf or anyOf/],
    [{ oneOf: [{ type: 'string' }, { type: 'number' }], discriminator: { propertyName: 'k' } }, '/discriminator', /distinct string or number const/],
    [{ oneOf: [{ type: 'object' }], discriminator: { propertyName: 'k', mapping: { a: '#/x' } } }, '/discriminator/mapping', /propertyName/],
    [{ oneOf: [{ type: 'object' }], discriminator: 'k' }, '/discriminator', /propertyName/],
    [{ $ref: '#/$defs/Missing' }, '/$ref', /points at nothing/],
    [{ $ref: 'Other#' }, '/$ref', /no schema has that \$id/],
    [{ $ref: '#anchor' }, '/$ref', /anchors/],
    [{ $ref: 5 }, '/$ref', /expected a string/],
    [{ $defs: {}, $ref: '#/$defs/%E0%A4%A' }, '/$ref', /percent-encoding/],
    [{ $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } }, $ref: '#/$defs/A' }, '/$defs/A', /leads back to itself/],
    [{ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'number' } }, '/additionalProperties', /named fields or a record/],
    [{ type: 'object', additionalProperties: 3 }, '/additionalProperties', /expected a schema/],
    [{ type: 'object', properties: [] }, '/properties', /object of schemas/],
    [{ type: 'object', properties: {}, required: 'a' }, '/required', /array of property names/],
    [{ type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }, '/required', /"b".*not in "properties"/],
    [{ type: 'object', patternProperties: { '^a': { type: 'string' } } }, '/patternProperties/^a', /every key matches/],
    [{ type: 'object', patternProperties: { '^.*$': {}, '.*': {} } }, '/patternProperties/.*', /only one pattern/],
    [{ type: 'object', patternProperties: 1 }, '/patternProperties', /object of schemas/],
    [{ type: 'object', properties: { a: {} }, patternProperties: { '^.*$': {} } }, '/patternProperties', /named fields or any keys/],
    [{ type: 'object', additionalProperties: { type: 'string' }, required: ['a'] }, '/required', /no required keys/],
    [{ type: 'object', additionalProperties: { type: 'string' }, minProperties: 1 }, '/minProperties', /maxEntries only/],
    [{ type: 'object', properties: { a: {} }, maxProperties: 1 }, '/maxProperties', /count/],
    // A default is checked against its type by compile, which names the field's path.
    [{ type: 'object', properties: { a: { type: 'integer', default: 'x' } } }, '$.a', /the default does not fit its type/],
    [{ type: 'array', uniqueItems: true }, '/uniqueItems', /distinct/],
    [{ type: 'array', minItems: 3, maxItems: 2 }, '/minItems', /over maxItems/],
    [{ type: 'array', items: [{ type: 'string' }], prefixItems: [] }, '/prefixItems', /use one/],
    [{ type: 'array', prefixItems: [{ type: 'string' }], additionalItems: false }, '/additionalItems', /2020-12/],
    [{ type: 'array', additionalItems: false }, '/additionalItems', /says nothing/],
    [{ type: 'array', prefixItems: [{ type: 'string' }], minItems: 1 }, '', /more items.*items: false/],
    [{ type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'number' }, minItems: 1 }, '', /more items.*additionalItems: false/],
    [{ type: 'array', items: [{ type: 'string' }, { type: 'string' }], additionalItems: false }, '', /may be missing.*minItems: 2/],
    [{ type: 'array', items: [{ type: 'string' }, { type: 'string' }], additionalItems: false, minItems: 1 }, '/minItems', /may be missing/],
    [{ type: 'array', prefixItems: [{ type: 'string' }], items: false, minItems: 2 }, '/minItems', /no array is valid/],
    [{ type: 'array', prefixItems: [{ type: 'string' }, { type: 'string' }], minItems: 2, maxItems: 1 }, '/minItems', /over maxItems/],
    [{ type: 'object', properties: { user: { type: 'object', properties: { tags: { type: 'array', items: { not: {} } } } } } }, '/properties/user/properties/tags/items/not', /negation/],
    [{ $defs: { 'a/b': { not: {} } }, $ref: '#/$defs/a~1b' }, '/$defs/a~1b/not', /negation/],
  ];
  for (const [schema, pointer, message] of refusals) {
    test(`${JSON.stringify(schema)} at ${JSON.stringify(pointer)}`, () => {
      assertShornError(() => compile(fromJsonSchema(schema)), { code: 'ERR_SHORN_SCHEMA', message, path: pointer });
    });
  }

  test('the message names the place and the keyword', () => {
    const error = assertShornError(() => fromJsonSchema({ type: 'object', properties: { user: { not: { type: 'string' } } } }), { code: 'ERR_SHORN_SCHEMA' });
    assert.equal(error.message, 'invalid JSON Schema at /properties/user/not: fromJsonSchema cannot map "not": shorn has no negation of a type');
    assert.equal(error.keyword, 'not');
    assert.ok(error instanceof ShornError);
  });

  test('a keyword in a shared schema is named with its $id', () => {
    assertShornError(() => fromJsonSchema({ $ref: 'User#' }, { schemas: [{ $id: 'User', type: 'object', properties: { a: { if: {} } } }] }), {
      code: 'ERR_SHORN_SCHEMA',
      path: 'User#/properties/a/if',
    });
  });

  test('bad options', () => {
    assertShornError(() => fromJsonSchema({}, { strict: true }), { code: 'ERR_SHORN_SCHEMA', message: /unknown option "strict"/ });
    assertShornError(() => fromJsonSchema({}, { unknownFormats: 'drop' }), { code: 'ERR_SHORN_SCHEMA', message: /unknownFormats/ });
    assertShornError(() => fromJsonSchema({}, null), { code: 'ERR_SHORN_SCHEMA', message: /options must be an object/ });
    assertShornError(() => fromJsonSchema({}, { schemas: 'User' }), { code: 'ERR_SHORN_SCHEMA', message: /options\.schemas/ });
    assertShornError(() => fromJsonSchema({}, { schemas: [{ type: 'string' }] }), { code: 'ERR_SHORN_SCHEMA', message: /needs an \$id/ });
  });
});

describe('fromJsonSchema: deep and huge schemas', () => {
  test('5,000 nested arrays: ERR_SHORN_SCHEMA past 64 levels, no RangeError', () => {
    let schema = { type: 'string' };
    for (let k = 0; k < 5000; k++) schema = { type: 'array', items: schema };
    assertShornError(() => fromJsonSchema(schema), { code: 'ERR_SHORN_SCHEMA', message: /nested deeper than 64 levels/ });
  });

  test('64 levels of arrays convert and compile; the optional wrappers count too', () => {
    let schema = { type: 'string' };
    for (let k = 0; k < 64; k++) schema = { type: 'array', items: schema };
    compile(fromJsonSchema(schema));
    let objects = { type: 'string' };
    for (let k = 0; k < 40; k++) objects = { type: 'object', properties: { a: objects } };
    assertShornError(() => fromJsonSchema(objects), { code: 'ERR_SHORN_SCHEMA', message: /nested deeper than 64 levels/ });
  });

  test('a chain of 10,000 $refs: ERR_SHORN_SCHEMA, no RangeError', () => {
    const $defs = {};
    for (let k = 0; k < 10000; k++) $defs[`d${k}`] = k === 9999 ? { type: 'string' } : { $ref: `#/$defs/d${k + 1}` };
    assertShornError(() => fromJsonSchema({ $defs, $ref: '#/$defs/d0' }), { code: 'ERR_SHORN_SCHEMA', message: /nested deeper than 64 levels/ });
  });

  test('definitions that double at each link are refused past 100,000 types', () => {
    const $defs = { d40: { type: 'string' } };
    for (let k = 39; k >= 0; k--) $defs[`d${k}`] = { type: 'array', prefixItems: [{ $ref: `#/$defs/d${k + 1}` }, { $ref: `#/$defs/d${k + 1}` }], items: false, minItems: 2 };
    assertShornError(() => fromJsonSchema({ $defs, $ref: '#/$defs/d0' }), { code: 'ERR_SHORN_SCHEMA', message: /more than 100000 types/ });
  });

  test('a deep $defs nobody references is indexed without recursion', () => {
    let deep = {};
    for (let k = 0; k < 100000; k++) deep = { $defs: { x: deep } };
    assert.deepStrictEqual(fromJsonSchema({ $defs: { deep }, type: 'boolean' }), t.bool());
  });
});

// Values for a JSON Schema: mostly ones it takes, near its bounds, built from the schema
// itself; TypeBox's validator judges which it takes.
function randomFor(schema, next, defs, depth = 0) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  if (schema.$ref !== undefined) return randomFor(defs[schema.$ref.split('/').pop()], next, defs, depth + 1);
  if (schema.anyOf || schema.oneOf) return randomFor(pick(schema.anyOf || schema.oneOf), next, defs, depth);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return pick(schema.enum);
  const types = [].concat(schema.type);
  const type = pick(types);
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return next() < 0.5;
    case 'integer': {
      const lo = schema.minimum ?? -(2 ** 40);
      const hi = schema.maximum ?? 2 ** 40;
      return pick([lo, hi, Math.floor(lo + next() * (hi - lo)), lo - 1, hi + 1]);
    }
    case 'number':
      return pick([schema.minimum ?? -1e300, next() * 1000 - 500, 0.1, schema.maximum ?? 1e300]);
    case 'string': {
      if (schema.format === 'date-time') return pick([new Date(Math.floor(next() * 4e12)).toISOString(), '2024-01-01T00:00:00+05:30', 'not a date']);
      if (schema.format === 'email') return pick(['a@b.co', 'first.last@example.org', 'nope']);
      const n = Math.floor(next() * ((schema.maxLength ?? 8) + 2));
      return Array.from({ length: n }, () => pick(['a', 'z', 'é', '🚀', ' ', '0'])).join('');
    }
    case 'array': {
      if (schema.prefixItems) return schema.prefixItems.map((s) => randomFor(s, next, defs, depth + 1));
      if (Array.isArray(schema.items)) return schema.items.map((s) => randomFor(s, next, defs, depth + 1));
      const n = depth > 4 ? 0 : Math.floor(next() * 4);
      return Array.from({ length: n }, () => randomFor(schema.items, next, defs, depth + 1));
    }
    case 'object': {
      const out = {};
      if (schema.patternProperties || schema.additionalProperties) {
        const values = schema.patternProperties ? Object.values(schema.patternProperties)[0] : schema.additionalProperties;
        for (let k = Math.floor(next() * 3); k > 0; k--) out[pick(['a', 'b', 'key with space', ''])] = randomFor(values, next, defs, depth + 1);
        return out;
      }
      for (const [name, s] of Object.entries(schema.properties || {})) {
        if ((schema.required || []).includes(name) || (depth < 4 && next() < 0.6)) out[name] = randomFor(s, next, defs, depth + 1);
      }
      return out;
    }
    default:
      throw new Error(`no values for ${JSON.stringify(schema)}`);
  }
}

describe('fromJsonSchema: random values the JSON Schema takes encode, and round trip', () => {
  const schemas = {
    order: Type.Object({
      id: Type.Integer({ minimum: 1, maximum: 1000000 }),
      who: Type.Object({ name: Type.String({ maxLength: 10 }), email: Type.String({ format: 'email' }) }),
      lines: Type.Array(Type.Object({ qty: Type.Integer({ minimum: 1, maximum: 99 }), price: Type.Number({ minimum: 0 }) })),
      status: Type.Union([Type.Literal('open'), Type.Literal('paid')]),
      note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      at: Type.String({ format: 'date-time' }),
      tags: Type.Record(Type.String(), Type.Boolean()),
      pair: Type.Tuple([Type.Integer({ minimum: -128, maximum: 127 }), Type.Boolean()]),
    }, { additionalProperties: false }),
    shapes: Type.Array(Type.Union([
      Type.Object({ kind: Type.Literal('circle'), r: Type.Number({ minimum: 0 }) }),
      Type.Object({ kind: Type.Literal('rect'), w: Type.Integer({ minimum: 0, maximum: 65535 }), h: Type.Integer({ minimum: 0, maximum: 65535 }) }),
    ])),
    tree: { $defs: { N: { type: 'object', properties: { v: { type: 'integer', minimum: -300, maximum: 300 }, kids: { type: 'array', items: { $ref: '#/$defs/N' } } }, required: ['v'] } }, $ref: '#/$defs/N' },
    fastify: { type: 'object', properties: { q: { type: 'string', minLength: 1, maxLength: 4 }, page: { type: ['integer', 'null'], minimum: 0, maximum: 100 }, mode: { enum: ['a', 'b', 1] } }, required: ['q'] },
  };
  for (const [name, schema] of Object.entries(schemas)) {
    test(name, () => {
      const codec = compile(fromJsonSchema(schema));
      const next = mulberry32(40);
      let taken = 0;
      for (let k = 0; k < 1000; k++) {
        const value = randomFor(schema, next, schema.$defs || {});
        if (!Value.Check(schema, value)) continue;
        taken++;
        const bytes = codec.encode(value);
        assert.deepStrictEqual(codec.decode(bytes), value, JSON.stringify(value));
      }
      assert.ok(taken >= 50, `only ${taken} of 1,000 values were valid`);
    });
  }
});
