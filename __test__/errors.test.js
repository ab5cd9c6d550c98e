'use strict';
// Exact error codes, paths, offsets and messages: encode (ERR_SHORN_INVALID), decode
// (TRUNCATED / TRAILING / MALFORMED / LIMIT), schema and option errors (ERR_SHORN_SCHEMA),
// and encodeInto (ERR_SHORN_BUFFER), for both marshallers.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { shorn, MODES, compileMode, fromHex, toHex, assertShornError, varint, concatBytes, runIsolated } = require('./helpers');

const { t, compile, encode, decode, ShornError } = shorn;

describe('ShornError', () => {
  test('is an Error subclass named ShornError that carries code, path and offset', () => {
    const e = new ShornError('ERR_SHORN_TRUNCATED', 'truncated', { path: '$.a', offset: 3 });
    assert.ok(e instanceof Error);
    assert.ok(e instanceof ShornError);
    assert.equal(e.name, 'ShornError');
    assert.equal(e.code, 'ERR_SHORN_TRUNCATED');
    assert.equal(e.message, 'truncated');
    assert.equal(e.path, '$.a');
    assert.equal(e.offset, 3);
    assert.match(String(e), /^ShornError: truncated/);
    assert.equal(typeof e.stack, 'string');
  });

  test('errors thrown by the native side are ShornError instances with a stack', () => {
    const e = assertShornError(() => compile(t.string()).decode(fromHex('0280ff')), { code: 'ERR_SHORN_MALFORMED' });
    assert.equal(Object.getPrototypeOf(e), ShornError.prototype);
    assert.match(e.stack, /ShornError: malformed input/);
  });
});

describe('encode errors', () => {
  const cases = [
    {
      name: 'a string in a nested array',
      schema: t.object({ user: t.object({ tags: t.array(t.string()) }) }),
      value: { user: { tags: ['a', 'b', 3] } },
      path: '$.user.tags[2]',
      message: '$.user.tags[2]: expected string, found number 3',
    },
    {
      name: 'a field of an array item',
      schema: t.array(t.object({ name: t.string() })),
      value: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: null }],
      path: '$[3].name',
      message: '$[3].name: expected string, found null',
    },
    {
      name: 'an integer out of range',
      schema: t.object({ age: t.uint8() }),
      value: { age: 300 },
      path: '$.age',
      message: '$.age: expected uint8 (integer 0 to 255), found number 300',
    },
    {
      name: 'a negative zero is shown as -0',
      schema: t.object({ flag: t.bool() }),
      value: { flag: -0 },
      path: '$.flag',
      message: '$.flag: expected boolean, found number -0',
    },
    {
      name: 'an int32 given a string',
      schema: t.object({ n: t.int32() }),
      value: { n: '12' },
      path: '$.n',
      message: '$.n: expected int32 (integer -2147483648 to 2147483647), found string "12"',
    },
    {
      name: 'a long string is cut in the message',
      schema: t.object({ n: t.uint16() }),
      value: { n: 'x'.repeat(100) },
      path: '$.n',
      message: `$.n: expected uint16 (integer 0 to 65535), found string "${'x'.repeat(40)}…"`,
    },
    {
      name: 'a float given a bigint',
      schema: t.object({ ratio: t.float32() }),
      value: { ratio: 10n },
      path: '$.ratio',
      message: '$.ratio: expected number (float32), found bigint 10n',
    },
    {
      name: 'an enum given an unknown value',
      schema: t.object({ kind: t.enum(['click', 'view']) }),
      value: { kind: 'buy' },
      path: '$.kind',
      message: '$.kind: expected one of "click", "view", found string "buy"',
    },
    {
      name: 'bytes given an array',
      schema: t.object({ data: t.bytes() }),
      value: { data: [1, 2, 3] },
      path: '$.data',
      message: '$.data: expected Uint8Array, found array (length 3)',
    },
    {
      name: 'an object given a Date',
      schema: t.object({ when: t.object({ ms: t.float64() }) }),
      value: { when: new Date(0) },
      path: '$.when.ms',
      message: '$.when.ms: expected number (float64), found undefined',
    },
    {
      name: 'an array given a Set',
      schema: t.object({ list: t.array(t.uint8()) }),
      value: { list: new Set([1]) },
      path: '$.list',
      message: '$.list: expected array, found object (Set)',
    },
    {
      name: 'the root of an object schema given a number',
      schema: t.object({ a: t.uint8() }),
      value: 42,
      path: '$',
      message: '$: expected object, found number 42',
    },
    {
      name: 'a lone surrogate deep in an array of objects',
      schema: t.object({ items: t.array(t.object({ id: t.uint8(), label: t.string() })) }),
      value: { items: [{ id: 1, label: 'ok' }, { id: 2, label: 'bad \udbff' }] },
      path: '$.items[1].label',
      message: '$.items[1].label: expected a well-formed string, found a lone surrogate at index 4',
    },
    {
      name: 'a lone surrogate after other strings (positional arguments)',
      schema: t.object({ a: t.string(), b: t.optional(t.string()), c: t.string() }),
      value: { a: 'first', c: '\udfffsecond' },
      path: '$.c',
      message: '$.c: expected a well-formed string, found a lone surrogate at index 0',
    },
    {
      name: 'a strict object with an extra key, nested',
      schema: t.object({ user: t.object({ id: t.uint8() }, { strict: true }) }),
      value: { user: { id: 1, role: 'admin' } },
      path: '$.user.role',
      message: '$.user.role: unexpected field in a strict object',
    },
  ];
  for (const mode of MODES) {
    for (const c of cases) {
      test(`names the path and what was found: ${c.name} (${mode.name} marshaller)`, () => {
        const codec = compileMode(c.schema, mode);
        assertShornError(() => codec.encode(c.value), { code: 'ERR_SHORN_INVALID', path: c.path, message: c.message });
      });
    }

    test(`a sparse array of length 2^32 - 1 is rejected at its first missing item (${mode.name} marshaller)`, () => {
      // In a child process: where a 32 GiB tape can be reserved it should not stay reserved here.
      const result = runIsolated(`
        const codec = compile(t.object({ list: t.array(t.uint8()) }), { codegen: ${mode.codegen} });
        const list = [];
        list.length = 2 ** 32 - 1;
        try { codec.encode({ list }); return 'no error'; } catch (e) { return [e instanceof ShornError, e.code, e.path, e.message]; }
      `);
      assert.deepStrictEqual(result, [true, 'ERR_SHORN_INVALID', '$.list[0]', '$.list[0]: expected uint8 (integer 0 to 255), found undefined']);
    });

    test(`the first invalid value in schema order is the one reported (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ a: t.uint8(), b: t.string(), c: t.bool() }), mode);
      assertShornError(() => codec.encode({ c: 1, b: 2, a: 'x' }), { code: 'ERR_SHORN_INVALID', path: '$.a' });
      assertShornError(() => codec.encode({ c: 1, b: 2, a: 1 }), { code: 'ERR_SHORN_INVALID', path: '$.b' });
    });

    test(`an encode error leaves the codec working and later outputs intact (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ s: t.string(), list: t.array(t.uint8()) }), mode);
      const before = codec.encode({ s: 'before', list: [1, 2] });
      const hex = toHex(before);
      assertShornError(() => codec.encode({ s: 'x', list: [1, 2, 'no'] }), { code: 'ERR_SHORN_INVALID', path: '$.list[2]' });
      assertShornError(() => codec.encode({ s: 'x\ud800', list: [] }), { code: 'ERR_SHORN_INVALID', path: '$.s' });
      const after = codec.encode({ s: 'after', list: [3] });
      assert.equal(toHex(before), hex);
      assert.deepStrictEqual(codec.decode(after), { s: 'after', list: [3] });
    });

    test(
      `names "or null" in the expected type of a nullable value (${mode.name} marshaller)`,
      () => {
        const codec = compileMode(t.object({ c: t.nullable(t.string()) }), mode);
        assertShornError(() => codec.encode({}), {
          code: 'ERR_SHORN_INVALID',
          path: '$.c',
          message: '$.c: expected string or null, found undefined',
        });
      },
    );
  }
});

describe('decode errors', () => {
  const cases = [
    {
      name: 'a string cut short',
      schema: t.string(),
      hex: '0568',
      code: 'ERR_SHORN_TRUNCATED',
      offset: 1,
      path: '$',
      message: 'truncated input: 4 more byte(s) needed at offset 1 ($)',
    },
    {
      name: 'a float64 field cut short',
      schema: t.object({ a: t.uint8(), b: t.float64() }),
      hex: '010000',
      code: 'ERR_SHORN_TRUNCATED',
      offset: 1,
      path: '$.b',
      message: 'truncated input: 6 more byte(s) needed at offset 1 ($.b)',
    },
    {
      name: 'a huge array count with few bytes, before allocating',
      schema: t.array(t.uint8()),
      bytes: concatBytes(varint(100_000_000), [1, 2]),
      code: 'ERR_SHORN_TRUNCATED',
      offset: 4,
      path: '$',
    },
    {
      name: 'an array of float64 whose count needs more bytes than remain',
      schema: t.array(t.float64()),
      bytes: concatBytes(varint(10), new Uint8Array(79)),
      code: 'ERR_SHORN_TRUNCATED',
      offset: 1,
      path: '$',
    },
    {
      name: 'a huge bytes length',
      schema: t.object({ data: t.bytes() }),
      hex: 'feffffff07',
      code: 'ERR_SHORN_TRUNCATED',
      offset: 5,
      path: '$.data',
    },
    {
      name: 'a varint cut short',
      schema: t.object({ a: t.uint32() }),
      hex: 'ffff',
      code: 'ERR_SHORN_TRUNCATED',
      offset: 0,
      path: '$.a',
    },
    {
      name: 'a bool byte 2',
      schema: t.bool(),
      hex: '02',
      code: 'ERR_SHORN_MALFORMED',
      offset: 0,
      path: '$',
      message: 'malformed input at offset 0 ($): bool byte 0x02 (expected 0x00 or 0x01)',
    },
    {
      name: 'a presence byte 2 of an optional field',
      schema: t.object({ a: t.optional(t.bool()) }),
      hex: '02',
      code: 'ERR_SHORN_MALFORMED',
      offset: 0,
      path: '$.a',
      message: 'malformed input at offset 0 ($.a): presence byte 0x02 (expected 0x00 or 0x01)',
    },
    {
      name: 'a bad value inside a present optional field',
      schema: t.object({ a: t.optional(t.bool()) }),
      hex: '0102',
      code: 'ERR_SHORN_MALFORMED',
      offset: 1,
      path: '$.a',
      message: 'malformed input at offset 1 ($.a): bool byte 0x02 (expected 0x00 or 0x01)',
    },
    {
      name: 'an enum index out of range',
      schema: t.enum(['a', 'b', 'c']),
      hex: '03',
      code: 'ERR_SHORN_MALFORMED',
      offset: 0,
      path: '$',
      message: 'malformed input at offset 0 ($): enum index 3 out of range (the enum has 3 values)',
    },
    {
      name: 'an overlong varint',
      schema: t.uint32(),
      hex: '8000',
      code: 'ERR_SHORN_MALFORMED',
      offset: 0,
      path: '$',
      message: 'malformed input at offset 0 ($): overlong varint',
    },
    {
      name: 'an overlong three-byte varint',
      schema: t.uint32(),
      hex: 'ff8000',
      code: 'ERR_SHORN_MALFORMED',
      offset: 0,
      path: '$',
    },
    {
      name: 'an overlong string length',
      schema: t.string(),
      hex: '810061',
      code: 'ERR_SHORN_MALFORMED',
      offset: 0,
      path: '$',
    },
    {
      name: 'a uint16 over 65535',
      schema: t.uint16(),
      hex: '808004',
      code: 'ERR_SHORN_MALFORMED',
      offset: 0,
      path: '$',
      message: 'malformed input at offset 0 ($): varint out of range for its type',
    },
    {
      name: 'an int16 over 32767',
      schema: t.int16(),
      hex: '808004',
      code: 'ERR_SHORN_MALFORMED',
      offset: 0,
      path: '$',
    },
    {
      name: 'invalid UTF-8 in a nested array item',
      schema: t.array(t.object({ name: t.string() })),
      hex: '04016101620163028080',
      code: 'ERR_SHORN_MALFORMED',
      offset: 8,
      path: '$[3].name',
      message: 'malformed input at offset 8 ($[3].name): invalid UTF-8 in a string',
    },
    {
      name: 'a UTF-8 sequence cut by the end of the string',
      schema: t.object({ a: t.string(), b: t.uint8() }),
      hex: '01c3a9',
      code: 'ERR_SHORN_MALFORMED',
      offset: 1,
      path: '$.a',
    },
    {
      name: 'a UTF-8 code point above U+10FFFF',
      schema: t.string(),
      hex: '04f4908080',
      code: 'ERR_SHORN_MALFORMED',
      offset: 1,
      path: '$',
    },
    {
      name: 'an overlong 3-byte UTF-8 form',
      schema: t.string(),
      hex: '03e08080',
      code: 'ERR_SHORN_MALFORMED',
      offset: 1,
      path: '$',
    },
    {
      name: 'a string over maxStringBytes',
      schema: t.string(),
      options: { maxStringBytes: 2 },
      hex: '03616263',
      code: 'ERR_SHORN_LIMIT',
      offset: 0,
      path: '$',
      message: 'string length 3 at offset 0 ($) is over the limit of 2 (maxStringBytes)',
    },
    {
      name: 'an array over maxArrayLength, nested',
      schema: t.object({ list: t.array(t.uint8()) }),
      options: { maxArrayLength: 2 },
      hex: '03010203',
      code: 'ERR_SHORN_LIMIT',
      offset: 0,
      path: '$.list',
      message: 'item count 3 at offset 0 ($.list) is over the limit of 2 (maxArrayLength)',
    },
    {
      // The limit is maxArrayLength for every count, and the message says "item count"
      // (it said "array length" of a record's or a map's count) and names the option.
      name: 'a record over maxArrayLength',
      schema: t.record(t.uint8()),
      options: { maxArrayLength: 2 },
      hex: '03016101016202016303',
      code: 'ERR_SHORN_LIMIT',
      offset: 0,
      path: '$',
      message: 'item count 3 at offset 0 ($) is over the limit of 2 (maxArrayLength)',
    },
    {
      name: 'a map over maxArrayLength',
      schema: t.object({ m: t.map(t.string(), t.uint8()) }),
      options: { maxArrayLength: 2 },
      hex: '03016101016202016303',
      code: 'ERR_SHORN_LIMIT',
      offset: 0,
      path: '$.m',
      message: 'item count 3 at offset 0 ($.m) is over the limit of 2 (maxArrayLength)',
    },
    {
      name: 'bytes over maxBytesLength in an array item',
      schema: t.array(t.bytes()),
      options: { maxBytesLength: 1 },
      hex: '02010102aabb',
      code: 'ERR_SHORN_LIMIT',
      offset: 3,
      path: '$[1]',
      message: 'bytes length 2 at offset 3 ($[1]) is over the limit of 1 (maxBytesLength)',
    },
    {
      name: 'a declared length over the limit even when the bytes are missing',
      schema: t.string(),
      options: { maxStringBytes: 10 },
      hex: '0b61',
      code: 'ERR_SHORN_LIMIT',
      offset: 0,
      path: '$',
    },
    {
      name: 'a string whose UTF-8 length is over maxStringBytes though its JS length is not',
      schema: t.string(),
      options: { maxStringBytes: 1 },
      hex: '02c3a9',
      code: 'ERR_SHORN_LIMIT',
      offset: 0,
      path: '$',
      message: 'string length 2 at offset 0 ($) is over the limit of 1 (maxStringBytes)',
    },
    {
      name: 'a non-empty string when maxStringBytes is 0',
      schema: t.string(),
      options: { maxStringBytes: 0 },
      hex: '0161',
      code: 'ERR_SHORN_LIMIT',
      offset: 0,
      path: '$',
    },
    {
      name: 'trailing bytes',
      schema: t.object({ a: t.uint8() }),
      hex: '010203',
      code: 'ERR_SHORN_TRAILING',
      offset: 1,
      path: '$',
      message: 'trailing bytes after the message, from offset 1',
    },
  ];
  for (const mode of MODES) {
    for (const c of cases) {
      test(`rejects ${c.name} with ${c.code} at offset ${c.offset} (${mode.name} marshaller)`, () => {
        const codec = compileMode(c.schema, mode, c.options);
        const bytes = c.bytes || fromHex(c.hex);
        const expected = { code: c.code, offset: c.offset, path: c.path };
        if (c.message) expected.message = c.message;
        const e = assertShornError(() => codec.decode(bytes), expected);
        assert.equal(typeof e.offset, 'number');
        assert.ok(Number.isInteger(e.offset));
      });
    }

    test(`limits at exactly the declared size are accepted (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ s: t.string(), b: t.bytes(), a: t.array(t.uint8()) }), mode, {
        maxStringBytes: 3,
        maxBytesLength: 2,
        maxArrayLength: 1,
      });
      assert.deepStrictEqual(codec.decode(fromHex('03616263' + '02aabb' + '0107')), {
        s: 'abc',
        b: new Uint8Array([0xaa, 0xbb]),
        a: [7],
      });
      assert.deepStrictEqual(compileMode(t.string(), mode, { maxStringBytes: 0 }).decode(fromHex('00')), '');
    });

    test(`limits apply to decode only, not encode (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.string(), mode, { maxStringBytes: 1 });
      assert.equal(toHex(codec.encode('abc')), '03616263');
    });

    test(`a decode error leaves the codec working (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ s: t.string(), n: t.uint8() }), mode);
      assertShornError(() => codec.decode(fromHex('0280ff01')), { code: 'ERR_SHORN_MALFORMED' });
      assertShornError(() => codec.decode(new Uint8Array(100).fill(0x7f)), { code: 'ERR_SHORN_TRUNCATED' });
      assert.deepStrictEqual(codec.decode(fromHex('02686901')), { s: 'hi', n: 1 });
    });
  }
});

describe('decode input type', () => {
  const NOT_BYTES = [
    ['a string', 'abc', 'found string "abc"'],
    ['an ArrayBuffer', new ArrayBuffer(1), 'found object (ArrayBuffer)'],
    ['an array', [1], 'found array (length 1)'],
    ['null', null, 'found null'],
    ['undefined', undefined, 'found undefined'],
    ['a number', 1, 'found number 1'],
    ['a DataView', new DataView(new ArrayBuffer(1)), 'found object (DataView)'],
    ['a Uint16Array', new Uint16Array(1), 'found Uint16Array (length 1)'],
    ['an Int8Array', new Int8Array(1), 'found Int8Array (length 1)'],
  ];
  for (const mode of MODES) {
    for (const [name, value, found] of NOT_BYTES) {
      test(`decoding ${name} is ERR_SHORN_INVALID (${mode.name} marshaller)`, () => {
        const codec = compileMode(t.uint8(), mode);
        assertShornError(() => codec.decode(value), {
          code: 'ERR_SHORN_INVALID',
          message: `decode: expected a Uint8Array, ${found}`,
        });
      });
    }
  }

  // A transferred ArrayBuffer leaves its views with length 0: decoding one is decoding no
  // bytes (the generic path once copied small inputs with TypedArray#set, which threw a
  // raw TypeError on a detached buffer).
  for (const mode of MODES) {
    test(`decoding a view of a detached ArrayBuffer is decoding an empty input (${mode.name} marshaller)`, () => {
      const ab = new ArrayBuffer(8);
      const view = new Uint8Array(ab, 2, 4);
      structuredClone(ab, { transfer: [ab] });
      assert.equal(view.length, 0);
      assertShornError(() => compileMode(t.uint8(), mode).decode(view), { code: 'ERR_SHORN_TRUNCATED', offset: 0, path: '$' });
      assert.deepStrictEqual(compileMode(t.object({}), mode).decode(view), {});
    });
  }

  test('the functional decode rejects a non-Uint8Array the same way', () => {
    const schema = t.uint8();
    assertShornError(() => decode(schema, 'x'), { code: 'ERR_SHORN_INVALID', message: 'decode: expected a Uint8Array, found string "x"' });
  });
});

describe('schema errors', () => {
  const deep = (levels) => {
    let d = t.bool();
    for (let k = 0; k < levels; k++) d = t.array(d);
    return d;
  };
  const deepObject = (levels) => {
    let d = t.bool();
    for (let k = 0; k < levels; k++) d = t.object({ a: d });
    return d;
  };
  const circular = { type: 'array' };
  circular.items = circular;

  const cases = [
    ['an unknown type, nested', () => compile(t.object({ user: t.object({ tags: t.array({ type: 'strng' }) }) })), '$.user.tags[]', 'invalid schema at $.user.tags[]: unknown type "strng"'],
    ['an enum with duplicates', () => compile(t.enum(['a', 'b', 'a'])), '$', 'invalid schema at $: enum value "a" appears twice'],
    ['an empty enum', () => compile(t.enum([])), '$', 'invalid schema at $: enum needs at least one value'],
    ['an enum with a non-string value', () => compile(t.enum(['a', 1])), '$', 'invalid schema at $: enum value 1 is a number, not a string'],
    ['t.enum given a non-array', () => t.enum('abc'), undefined, 'invalid schema: t.enum takes an array of strings'],
    [
      'an array of empty objects',
      () => compile(t.array(t.object({}))),
      '$',
      'invalid schema at $: array items must take at least one byte; a null, a literal or an empty object or tuple takes none',
    ],
    [
      'an array of objects of empty objects, as a field',
      () => compile(t.object({ x: t.array(t.object({ y: t.object({}) })) })),
      '$.x',
      'invalid schema at $.x: array items must take at least one byte; a null, a literal or an empty object or tuple takes none',
    ],
    ['optional at the root', () => compile(t.optional(t.uint8())), '$', 'invalid schema at $: optional is only allowed on an object field'],
    ['optional as array items', () => compile(t.array(t.optional(t.uint8()))), '$[]', 'invalid schema at $[]: optional is only allowed on an object field'],
    [
      'nullable of optional',
      () => compile(t.object({ a: t.nullable(t.optional(t.uint8())) })),
      '$.a',
      'invalid schema at $.a: nullable of optional: optional must be outermost',
    ],
    [
      'optional of optional',
      () => compile(t.object({ a: t.optional(t.optional(t.uint8())) })),
      '$.a',
      'invalid schema at $.a: optional of optional: optional must be outermost',
    ],
    ['nullable of nullable', () => compile(t.nullable(t.nullable(t.uint8()))), '$', 'invalid schema at $: nullable of nullable'],
    ['nesting of 65 arrays', () => compile(deep(65)), `$${'[]'.repeat(65)}`, /nested deeper than 64 levels$/],
    ['nesting of 65 objects', () => compile(deepObject(65)), `$${'.a'.repeat(65)}`, /nested deeper than 64 levels$/],
    ['nesting of 1,000 arrays', () => compile(deep(1000)), undefined, /^invalid schema/],
    ['nesting of 100,000 arrays', () => compile(deep(100_000)), undefined, /^invalid schema/],
    ['a circular descriptor', () => compile(circular), undefined, /^invalid schema: not JSON-serialisable \(/],
    ['a descriptor holding a bigint', () => compile({ type: 'uint8', x: 1n }), undefined, 'invalid schema: not JSON-serialisable (Do not know how to serialize a BigInt)'],
    ['undefined', () => compile(undefined), undefined, 'invalid schema: expected a descriptor object'],
    ['a function', () => compile(() => {}), undefined, 'invalid schema at $: found a function'],
    ['an uncalled builder as a field', () => compile(t.object({ a: t.string })), undefined, 'invalid schema at $.a: found a function (did you mean t.string()?)'],
    ['an uncalled builder as array items', () => compile(t.object({ list: t.array(t.uint8) })), undefined, 'invalid schema at $.list[]: found a function (did you mean t.uint8()?)'],
    ['null', () => compile(null), '$', 'invalid schema at $: expected a type descriptor object, found null'],
    ['a type name string', () => compile('uint8'), '$', 'invalid schema at $: expected a type descriptor object, found string'],
    ['a descriptor without type', () => compile({}), '$', 'invalid schema at $: a type descriptor needs a string "type"'],
    ['an array without items', () => compile({ type: 'array' }), '$', /needs "items"$/],
    ['an object without fields', () => compile({ type: 'object' }), '$', /needs "fields"$/],
    ['an enum without values', () => compile({ type: 'enum' }), '$', /needs "values"$/],
    ['a nullable without of', () => compile({ type: 'nullable' }), '$', /needs "of"$/],
    ['object fields given as a map', () => compile({ type: 'object', fields: { a: t.bool() } }), '$', 'invalid schema at $: object "fields" must be an array of { name, schema }'],
    ['a field without a name', () => compile({ type: 'object', fields: [{ schema: t.bool() }] }), '$', 'invalid schema at $: object field 0 needs a string "name"'],
    ['a field without a schema', () => compile({ type: 'object', fields: [{ name: 'a' }] }), '$', 'invalid schema at $: object field "a" needs a "schema"'],
    [
      'duplicate field names',
      () => compile({ type: 'object', fields: [{ name: 'a', schema: t.bool() }, { name: 'a', schema: t.uint8() }] }),
      '$',
      'invalid schema at $: field "a" appears twice',
    ],
    ['a non-boolean strict', () => compile({ type: 'object', fields: [], strict: 'yes' }), '$', 'invalid schema at $: object "strict" must be a boolean'],
    ['t.object given null', () => t.object(null), undefined, 'invalid schema: t.object takes an object of { name: type }'],
    ['t.object given an array', () => t.object([t.bool()]), undefined, 'invalid schema: t.object takes an object of { name: type }'],
    ['the functional encode given null', () => encode(null, 1), undefined, 'invalid schema: expected a descriptor object'],
    ['the functional decode given a string', () => decode('uint8', new Uint8Array(1)), undefined, 'invalid schema: expected a descriptor object'],
    ['the functional encode given a bad descriptor', () => encode({ type: 'nope' }, 1), '$', 'invalid schema at $: unknown type "nope"'],
  ];
  for (const [name, fn, path, message] of cases) {
    test(`rejects ${name} with ERR_SHORN_SCHEMA`, () => {
      const expected = { code: 'ERR_SHORN_SCHEMA', message };
      if (path !== undefined) expected.path = path;
      assertShornError(fn, expected);
    });
  }

  for (const mode of MODES) {
    test(`accepts nesting of exactly 64 levels and round-trips a value that deep (${mode.name} marshaller)`, () => {
      const codec = compileMode(deep(64), mode);
      let value = true;
      for (let k = 0; k < 64; k++) value = [value];
      const bytes = codec.encode(value);
      assert.equal(toHex(bytes), `${'01'.repeat(64)}01`);
      assert.deepStrictEqual(codec.decode(bytes), value);
      const objects = compileMode(deepObject(64), mode);
      let o = false;
      for (let k = 0; k < 64; k++) o = { a: o };
      assert.deepStrictEqual(objects.decode(objects.encode(o)), o);
    });
  }

  const OPTIONS = [
    ['maxStringBytes -1', { maxStringBytes: -1 }, 'invalid compile option: maxStringBytes must be an integer from 0 to 4294967295'],
    ['maxStringBytes 1.5', { maxStringBytes: 1.5 }, 'invalid compile option: maxStringBytes must be an integer from 0 to 4294967295'],
    ['maxStringBytes "10"', { maxStringBytes: '10' }, 'invalid compile option: maxStringBytes must be an integer from 0 to 4294967295'],
    ['maxBytesLength 2^32', { maxBytesLength: 2 ** 32 }, 'invalid compile option: maxBytesLength must be an integer from 0 to 4294967295'],
    ['maxBytesLength NaN', { maxBytesLength: NaN }, 'invalid compile option: maxBytesLength must be an integer from 0 to 4294967295'],
    ['maxArrayLength null', { maxArrayLength: null }, 'invalid compile option: maxArrayLength must be an integer from 0 to 4294967295'],
    ['maxArrayLength Infinity', { maxArrayLength: Infinity }, 'invalid compile option: maxArrayLength must be an integer from 0 to 4294967295'],
    ['codegen "yes"', { codegen: 'yes' }, "invalid compile option: codegen must be true, false or 'auto'"],
    ['codegen 1', { codegen: 1 }, "invalid compile option: codegen must be true, false or 'auto'"],
    ['codegen null', { codegen: null }, "invalid compile option: codegen must be true, false or 'auto'"],
    ['options null', null, 'invalid compile option: options must be an object'],
    ['options a number', 5, 'invalid compile option: options must be an object'],
    ['options a string', 'fast', 'invalid compile option: options must be an object'],
    ['an unknown option', { maxStringLength: 5 }, 'invalid compile option: unknown option "maxStringLength"'],
    ['an unknown option set to undefined', { codegen: true, extra: undefined }, 'invalid compile option: unknown option "extra"'],
  ];
  for (const [name, options, message] of OPTIONS) {
    test(`rejects the compile option ${name} with ERR_SHORN_SCHEMA`, () => {
      assertShornError(() => compile(t.uint8(), options), { code: 'ERR_SHORN_SCHEMA', message });
    });
  }

  test('accepts limits of 0 and 4294967295 and codegen "auto"', () => {
    for (const options of [{ maxStringBytes: 0, maxBytesLength: 0, maxArrayLength: 0 }, { maxStringBytes: 4294967295, maxBytesLength: 4294967295, maxArrayLength: 4294967295 }, { codegen: 'auto' }, undefined, {}]) {
      const codec = compile(t.object({ s: t.string() }), options);
      assert.equal(toHex(codec.encode({ s: '' })), '00');
      assert.deepStrictEqual(codec.decode(fromHex('00')), { s: '' });
    }
  });
});

describe('encodeInto', () => {
  const schema = t.object({ id: t.uint32(), name: t.string() });
  const value = { id: 1234, name: 'Ada' };
  const hex = 'd20903416461';
  const big = { id: 1, name: 'z'.repeat(20_000) }; // over the 8 KiB slab-message size
  for (const mode of MODES) {
    test(`writes exactly at the offset and returns the length (${mode.name} marshaller)`, () => {
      const codec = compileMode(schema, mode);
      for (const offset of [0, 1, 7, 14]) {
        const target = new Uint8Array(20).fill(0xee);
        assert.equal(codec.encodeInto(value, target, offset), 6);
        const expected = new Uint8Array(20).fill(0xee);
        expected.set(fromHex(hex), offset);
        assert.deepStrictEqual(target, expected, `offset ${offset}`);
      }
      const exact = new Uint8Array(6);
      assert.equal(codec.encodeInto(value, exact), 6);
      assert.equal(toHex(exact), hex);
    });

    test(`writes into Buffers and views relative to the view (${mode.name} marshaller)`, () => {
      const codec = compileMode(schema, mode);
      const backing = new Uint8Array(40).fill(0xee);
      const view = backing.subarray(10, 20);
      assert.equal(codec.encodeInto(value, view, 2), 6);
      assert.equal(toHex(backing.subarray(12, 18)), hex);
      assert.ok(backing.subarray(0, 12).every((b) => b === 0xee));
      assert.ok(backing.subarray(18).every((b) => b === 0xee));
      const buf = Buffer.alloc(9, 0xee);
      assert.equal(codec.encodeInto(value, buf, 3), 6);
      assert.equal(buf.toString('hex'), `eeeeee${hex}`);
    });

    test(`writes a message over 8 KiB (${mode.name} marshaller)`, () => {
      const codec = compileMode(schema, mode);
      const expected = codec.encode(big);
      const target = new Uint8Array(expected.length + 10).fill(0xee);
      assert.equal(codec.encodeInto(big, target, 10), expected.length);
      assert.deepStrictEqual(target.subarray(10), new Uint8Array(expected));
      assert.ok(target.subarray(0, 10).every((b) => b === 0xee));
    });

    test(`a target too small is ERR_SHORN_BUFFER and nothing is written (${mode.name} marshaller)`, () => {
      const codec = compileMode(schema, mode);
      const backing = new Uint8Array(30).fill(0xee);
      const target = backing.subarray(10, 16);
      assertShornError(() => codec.encodeInto(value, target, 2), {
        code: 'ERR_SHORN_BUFFER',
        message: 'encodeInto: the message needs 6 bytes; the target has 4 from offset 2',
      });
      assertShornError(() => codec.encodeInto(value, new Uint8Array(5)), {
        code: 'ERR_SHORN_BUFFER',
        message: 'encodeInto: the message needs 6 bytes; the target has 5 from offset 0',
      });
      assertShornError(() => codec.encodeInto(value, target, 1), { code: 'ERR_SHORN_BUFFER' });
      assertShornError(() => codec.encodeInto(big, target, 0), { code: 'ERR_SHORN_BUFFER' });
      assertShornError(() => codec.encodeInto(value, target, 6), { code: 'ERR_SHORN_BUFFER' });
      assert.ok(backing.every((b) => b === 0xee), 'the target and the memory around it are unchanged');
    });

    test(`an invalid value writes nothing (${mode.name} marshaller)`, () => {
      const codec = compileMode(schema, mode);
      const target = new Uint8Array(16).fill(0xee);
      assertShornError(() => codec.encodeInto({ id: -1, name: 'x' }, target), { code: 'ERR_SHORN_INVALID', path: '$.id' });
      assertShornError(() => codec.encodeInto({ id: 1, name: '\ud800' }, target, 3), { code: 'ERR_SHORN_INVALID', path: '$.name' });
      assert.ok(target.every((b) => b === 0xee));
      assert.equal(toHex(codec.encode(value)), hex);
    });

    test(`an empty message fits at the very end of the target (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({}), mode);
      const target = new Uint8Array(4).fill(0xee);
      assert.equal(codec.encodeInto({}, target, 4), 0);
      assert.equal(codec.encodeInto({}, new Uint8Array(0)), 0);
      assert.ok(target.every((b) => b === 0xee));
    });

    test(`failed encodeInto calls do not disturb the output of later encodes (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ k: t.uint32(), s: t.string() }), mode);
      const kept = [];
      for (let k = 0; k < 3000; k++) {
        const v = { k, s: 'x'.repeat(k % 300) };
        if (k % 3 === 0) {
          assertShornError(() => codec.encodeInto(v, new Uint8Array(1)), { code: 'ERR_SHORN_BUFFER' });
        } else if (k % 3 === 1) {
          const target = new Uint8Array(400);
          const n = codec.encodeInto(v, target);
          kept.push([v, target.subarray(0, n)]);
        } else {
          kept.push([v, codec.encode(v)]);
        }
      }
      for (const [v, bytes] of kept) {
        const expected = concatBytes(varint(v.k), varint(v.s.length), Buffer.from(v.s));
        assert.equal(toHex(bytes), toHex(expected), `k = ${v.k}`);
      }
    });
  }
});

// An encodeInto call rejected for its offset or target has, so far, left the JS and native
// views of the output slab out of step, which corrupts every later encode in the process;
// these run in a child process so the rest of this file is not affected.
describe('encodeInto with a bad offset or target (isolated in a child process)', () => {
  for (const mode of MODES) {
    test(`an offset or target it cannot use is ERR_SHORN_INVALID and writes nothing (${mode.name} marshaller)`, () => {
      const result = runIsolated(`
        const codec = compile(t.object({ id: t.uint32(), name: t.string() }), { codegen: ${mode.codegen} });
        const value = { id: 1234, name: 'Ada' };
        const target = new Uint8Array(16).fill(0xee);
        const errors = [];
        for (const offset of [-1, 17, 1.5, '1', NaN, null]) {
          try { codec.encodeInto(value, target, offset); errors.push('no error'); } catch (e) { errors.push([e.constructor.name, e.code, e.message]); }
        }
        for (const bad of [[0, 0, 0, 0, 0, 0], new ArrayBuffer(8), null, new Uint16Array(8)]) {
          try { codec.encodeInto(value, bad); errors.push('no error'); } catch (e) { errors.push([e.constructor.name, e.code, e.message]); }
        }
        return { errors, untouched: target.every((b) => b === 0xee) };
      `);
      const offsetMessage = (found) => ['ShornError', 'ERR_SHORN_INVALID', `encodeInto: expected an offset from 0 to 16, found ${found}`];
      const targetMessage = (found) => ['ShornError', 'ERR_SHORN_INVALID', `encodeInto: expected a Uint8Array target, found ${found}`];
      assert.deepStrictEqual(result, {
        errors: [
          offsetMessage('number -1'),
          offsetMessage('number 17'),
          offsetMessage('number 1.5'),
          offsetMessage('string "1"'),
          offsetMessage('number NaN'),
          offsetMessage('null'),
          targetMessage('array (length 6)'),
          targetMessage('object (ArrayBuffer)'),
          targetMessage('null'),
          targetMessage('Uint16Array (length 8)'),
        ],
        untouched: true,
      });
    });

    test(
      `encodes correctly after encodeInto rejected an offset or a target (${mode.name} marshaller)`,
      () => {
        const result = runIsolated(`
          const s = compile(t.string(), { codegen: ${mode.codegen} });
          const u = compile(t.uint8(), { codegen: ${mode.codegen} });
          const out = [];
          try { s.encodeInto('abc', new Uint8Array(8), -1); } catch {}
          out.push(s.encode('xyz').toString('hex'));
          try { u.encodeInto(7, [0]); } catch {}
          out.push(u.encode(9).toString('hex'));
          out.push(s.encode('q').toString('hex'));
          const target = new Uint8Array(4);
          out.push(Buffer.from(target.subarray(0, s.encodeInto('hi', target))).toString('hex'));
          return out;
        `);
        assert.deepStrictEqual(result, ['0378797a', '09', '0171', '026869']);
      },
    );
  }
});

