'use strict';
// Constraints (docs/FORMAT.md, "Constraints"): part of a descriptor, checked by encode
// (ERR_SHORN_INVALID with the path and the constraint) and by decode (ERR_SHORN_INVALID
// with the offset where the value starts and its path), by both marshallers; codec.check
// lists every issue, codec.safeDecode every issue of a message's value (the one decode stops
// at with its offset). Issue 10.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { shorn, MODES, compileMode, compileBoth, assertShornError, toHex, fromHex, marshallerOf } = require('./helpers');

const { t, compile } = shorn;

// Encodes with an unconstrained twin of `schema`: bytes a sender that ignores the
// constraints would write.
function unconstrained(schema) {
  return JSON.parse(
    JSON.stringify(schema, (key, value) =>
      ['min', 'max', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'maxEntries'].includes(key) ? undefined : value,
    ),
  );
}

// Each row: a schema, values it takes, and values it refuses with the path, message and
// issue code encode gives, and the offset and message decode gives for their bytes.
const ROWS = [
  {
    name: 'uint8 with bounds',
    schema: t.object({ age: t.uint8({ min: 1, max: 150 }) }),
    valid: [{ age: 1 }, { age: 150 }],
    invalid: [
      {
        value: { age: 151 },
        path: '$.age',
        code: 'too_big',
        message: '$.age: expected uint8 of at most 150, found number 151',
        offset: 0,
        decoded: 'invalid value at offset 0 ($.age): expected uint8 of at most 150, found 151',
      },
      {
        value: { age: 0 },
        path: '$.age',
        code: 'too_small',
        message: '$.age: expected uint8 of at least 1, found number 0',
        offset: 0,
        decoded: 'invalid value at offset 0 ($.age): expected uint8 of at least 1, found 0',
      },
    ],
  },
  {
    name: 'int32 with a divisor',
    schema: t.array(t.int32({ multipleOf: 5, min: -10 })),
    valid: [[-10, 0, 5, 2147483645]],
    invalid: [
      {
        value: [5, 7],
        path: '$[1]',
        code: 'not_multiple_of',
        message: '$[1]: expected int32 that is a multiple of 5, found number 7',
        offset: 2,
        decoded: 'invalid value at offset 2 ($[1]): expected int32 that is a multiple of 5, found 7',
      },
      { value: [-15], path: '$[0]', code: 'too_small', message: '$[0]: expected int32 of at least -10, found number -15', offset: 1 },
    ],
  },
  {
    name: 'int with bounds past 2^32',
    schema: t.int({ min: -(2 ** 40), max: 2 ** 40 }),
    valid: [2 ** 40, -(2 ** 40), 0],
    invalid: [{ value: 2 ** 40 + 1, path: '$', code: 'too_big', message: '$: expected int of at most 1099511627776, found number 1099511627777', offset: 0 }],
  },
  {
    name: 'uint64 with bigint bounds',
    schema: t.uint64({ min: 2n ** 64n - 10n, multipleOf: 3n }),
    valid: [2n ** 64n - 1n, 2n ** 64n - 4n],
    invalid: [
      {
        value: 2n ** 64n - 2n,
        path: '$',
        code: 'not_multiple_of',
        message: '$: expected uint64 that is a multiple of 3, found bigint 18446744073709551614n',
        offset: 0,
        decoded: 'invalid value at offset 0 ($): expected uint64 that is a multiple of 3, found 18446744073709551614',
      },
      { value: 6n, path: '$', code: 'too_small', message: '$: expected uint64 of at least 18446744073709551606, found bigint 6n', offset: 0 },
    ],
  },
  {
    name: 'int64 with negative bounds',
    schema: t.int64({ max: -1n }),
    valid: [-1n, -(2n ** 63n)],
    invalid: [{ value: 0n, path: '$', code: 'too_big', message: '$: expected int64 of at most -1, found bigint 0n', offset: 0 }],
  },
  {
    name: 'float64 with bounds',
    schema: t.float64({ min: 0, max: 1 }),
    valid: [0, -0, 0.5, 1],
    invalid: [
      { value: NaN, path: '$', code: 'too_small', message: '$: expected float64 of at least 0, found number NaN', offset: 0 },
      { value: Infinity, path: '$', code: 'too_big', message: '$: expected float64 of at most 1, found number Infinity', offset: 0 },
      { value: -1e-300, path: '$', code: 'too_small', message: '$: expected float64 of at least 0, found number -1e-300', offset: 0 },
    ],
  },
  {
    name: 'float32 compared as rounded',
    schema: t.float32({ max: 0.1 }),
    // 0.1 rounds to 0.10000000149011612, above 0.1: a float32 bound is met by the rounded value.
    valid: [Math.fround(0.09), Math.fround(-1e30)],
    invalid: [
      {
        value: 0.1,
        path: '$',
        code: 'too_big',
        message: '$: expected float32 of at most 0.1, found number 0.1 (0.10000000149011612 as a float32)',
        offset: 0,
        decoded: 'invalid value at offset 0 ($): expected float32 of at most 0.1, found 0.10000000149011612',
      },
    ],
  },
  {
    name: 'string lengths in code points',
    schema: t.object({ name: t.string({ minLength: 1, maxLength: 3 }) }),
    valid: [{ name: 'a' }, { name: '🚀🚀🚀' }, { name: 'aé李' }],
    invalid: [
      {
        value: { name: '' },
        path: '$.name',
        code: 'too_small',
        message: '$.name: expected string of at least 1 code point, found string "" (0 code points)',
        offset: 0,
        decoded: 'invalid value at offset 0 ($.name): expected string of at least 1 code point, found 0 code points',
      },
      {
        value: { name: '🚀🚀🚀🚀' },
        path: '$.name',
        code: 'too_big',
        message: '$.name: expected string of at most 3 code points, found string "🚀🚀🚀🚀" (4 code points)',
        offset: 0,
        decoded: 'invalid value at offset 0 ($.name): expected string of at most 3 code points, found 4 code points',
      },
    ],
  },
  {
    name: 'string format',
    schema: t.object({ id: t.uint8(), email: t.string({ format: 'email' }) }),
    valid: [{ id: 1, email: 'ada@example.com' }],
    invalid: [
      {
        value: { id: 1, email: 'nope' },
        path: '$.email',
        code: 'invalid_format',
        message: '$.email: expected string of format email, found string "nope"',
        offset: 1,
        decoded: 'invalid value at offset 1 ($.email): expected string of format email, found string "nope"',
      },
    ],
  },
  {
    name: 'string pattern',
    schema: t.array(t.string({ pattern: /^[a-z]+$/ })),
    valid: [['abc', 'z']],
    invalid: [
      {
        value: ['ok', 'ABC'],
        path: '$[1]',
        code: 'invalid_format',
        message: '$[1]: expected string matching /^[a-z]+$/, found string "ABC"',
        offset: 4,
        decoded: 'invalid value at offset 4 ($[1]): expected string matching /^[a-z]+$/, found string "ABC"',
      },
    ],
  },
  {
    name: 'bytes lengths',
    schema: t.bytes({ minLength: 1, maxLength: 2 }),
    valid: [new Uint8Array([1]), new Uint8Array([1, 2])],
    invalid: [
      {
        value: new Uint8Array(3),
        path: '$',
        code: 'too_big',
        message: '$: expected Uint8Array of at most 2 bytes, found Uint8Array (length 3)',
        offset: 0,
        decoded: 'invalid value at offset 0 ($): expected bytes of at most 2 bytes, found 3 bytes',
      },
      { value: new Uint8Array(0), path: '$', code: 'too_small', message: '$: expected Uint8Array of at least 1 byte, found Uint8Array (length 0)', offset: 0 },
    ],
  },
  {
    name: 'array counts',
    schema: t.object({ tags: t.array(t.string(), { minItems: 1, maxItems: 2 }) }),
    valid: [{ tags: ['a'] }, { tags: ['a', 'b'] }],
    invalid: [
      {
        value: { tags: [] },
        path: '$.tags',
        code: 'too_small',
        message: '$.tags: expected array of at least 1 item, found array (length 0)',
        offset: 0,
        decoded: 'invalid value at offset 0 ($.tags): expected array of at least 1 item, found 0 items',
      },
      { value: { tags: ['a', 'b', 'c'] }, path: '$.tags', code: 'too_big', message: '$.tags: expected array of at most 2 items, found array (length 3)', offset: 0 },
    ],
  },
  {
    name: 'record entries',
    schema: t.record(t.uint8(), { maxEntries: 1 }),
    valid: [{}, { a: 1 }],
    invalid: [
      {
        value: { a: 1, b: 2 },
        path: '$',
        code: 'too_big',
        message: '$: expected plain object (record) of at most 1 entry, found object (2 entries)',
        offset: 0,
        decoded: 'invalid value at offset 0 ($): expected record of at most 1 entry, found 2 entries',
      },
    ],
  },
  {
    name: 'map entries, keys and values',
    schema: t.map(t.string({ format: 'uuid' }), t.uint8({ max: 9 }), { maxEntries: 2 }),
    valid: [new Map([['123e4567-e89b-12d3-a456-426614174000', 9]])],
    invalid: [
      {
        value: new Map([['a', 1]]),
        path: '$[0][0]',
        code: 'invalid_format',
        message: '$[0][0]: expected string of format uuid, found string "a"',
        offset: 1,
      },
      {
        value: new Map([['123e4567-e89b-12d3-a456-426614174000', 10]]),
        path: '$[0][1]',
        code: 'too_big',
        message: '$[0][1]: expected uint8 of at most 9, found number 10',
        offset: 38,
      },
      {
        value: new Map([
          ['00000000-0000-0000-0000-000000000000', 1],
          ['ffffffff-ffff-ffff-ffff-ffffffffffff', 2],
          ['123e4567-e89b-12d3-a456-426614174000', 3],
        ]),
        path: '$',
        code: 'too_big',
        message: '$: expected Map of at most 2 entries, found Map (size 3)',
        offset: 0,
        decoded: 'invalid value at offset 0 ($): expected map of at most 2 entries, found 3 entries',
      },
    ],
  },
];

for (const row of ROWS) {
  describe(`constraints: ${row.name}`, () => {
    for (const mode of MODES) {
      test(`${mode.name}: valid values round-trip, check ok`, () => {
        const codec = compileMode(row.schema, mode);
        for (const value of row.valid) {
          assert.deepStrictEqual(codec.decode(codec.encode(value)), value);
          assert.deepStrictEqual(codec.check(value), { ok: true });
          assert.deepStrictEqual(codec.safeDecode(codec.encode(value)), { ok: true, value });
        }
      });

      test(`${mode.name}: encode, check and decode refuse what breaks a constraint`, () => {
        const codec = compileMode(row.schema, mode);
        const loose = compile(unconstrained(row.schema), { codegen: mode.codegen });
        for (const bad of row.invalid) {
          assertShornError(() => codec.encode(bad.value), { code: 'ERR_SHORN_INVALID', path: bad.path, message: bad.message });
          assert.deepStrictEqual(codec.check(bad.value), { ok: false, issues: [{ path: bad.path, code: bad.code, message: bad.message }] });
          const bytes = loose.encode(bad.value);
          const expected = { code: 'ERR_SHORN_INVALID', path: bad.path, offset: bad.offset };
          if (bad.decoded) expected.message = bad.decoded;
          const e = assertShornError(() => codec.decode(bytes), expected);
          assert.deepStrictEqual(codec.safeDecode(bytes), {
            ok: false,
            issues: [{ path: bad.path, code: bad.code, message: e.message, offset: bad.offset }],
          });
        }
      });
    }
  });
}

describe('codec.check', () => {
  const Person = t.object(
    {
      name: t.string({ minLength: 1, maxLength: 6, format: 'email' }),
      age: t.uint8({ max: 150 }),
      tags: t.array(t.string({ maxLength: 2 }), { maxItems: 2 }),
      nick: t.optional(t.string({ minLength: 2 })),
    },
    { strict: true },
  );

  for (const mode of MODES) {
    test(`${mode.name}: lists every issue, each constraint of a value too, in the order encode meets them`, () => {
      const codec = compileMode(Person, mode);
      const value = { name: 'nope-too-long', age: 300, tags: ['abc', 5, 'ok', 'x'], nick: 'z', extra: 1, more: 2 };
      const result = codec.check(value);
      assert.equal(result.ok, false);
      assert.deepStrictEqual(
        result.issues.map((i) => [i.path, i.code]),
        [
          ['$.name', 'too_big'],
          ['$.age', 'invalid_type'],
          ['$.tags', 'too_big'],
          ['$.nick', 'too_small'],
          ['$.extra', 'unrecognized_keys'],
          ['$.more', 'unrecognized_keys'],
          // The native side checks an email on encode, after everything JS checks.
          ['$.name', 'invalid_format'],
        ],
      );
      const e = assertShornError(() => codec.encode(value), { code: 'ERR_SHORN_INVALID' });
      assert.equal(result.issues[0].message, e.message);
      // Below the array's own failure nothing is looked at; with a valid count, every item is.
      const items = codec.check({ name: 'a@b.co', age: 1, tags: ['abc', 5] });
      assert.deepStrictEqual(
        items.issues.map((i) => [i.path, i.code, i.message]),
        [
          ['$.tags[0]', 'too_big', '$.tags[0]: expected string of at most 2 code points, found string "abc" (3 code points)'],
          ['$.tags[1]', 'invalid_type', '$.tags[1]: expected string, found number 5'],
        ],
      );
    });

    test(`${mode.name}: check says what encode says, for values shorn's own checks and the native side's refuse`, () => {
      const codec = compileMode(t.object({ s: t.string(), r: t.record(t.bool()), u: t.union([t.uint8({ max: 9 }), t.string()]) }), mode);
      for (const value of [
        { s: 'a\ud800b', r: {}, u: 1 },
        { s: 'a', r: { ['\udc00']: true }, u: 1 },
        { s: 'a', r: {}, u: 10 },
        { s: 'a', r: {}, u: null },
        null,
      ]) {
        const e = assertShornError(() => codec.encode(value), { code: 'ERR_SHORN_INVALID' });
        const result = codec.check(value);
        assert.equal(result.ok, false);
        assert.equal(result.issues[0].message, e.message);
        assert.equal(result.issues[0].path, e.path);
      }
      assert.equal(codec.check({ s: 'a', r: {}, u: null }).issues[0].code, 'invalid_union');
    });

    test(`${mode.name}: encode meets the native side's checks after JS's, and check lists them in that order`, () => {
      const codec = compileMode(
        t.object({
          s: t.string(),
          e: t.string({ format: 'email' }),
          u: t.string({ format: 'uuid' }),
          p: t.string({ format: 'email', pattern: '^a' }),
          r: t.record(t.string({ format: 'ipv4', maxLength: 15 })),
          b: t.bool(),
        }),
        mode,
      );
      const good = { s: 'x', e: 'a@b.co', u: '123e4567-e89b-12d3-a456-426614174000', p: 'a@b.co', r: { 'a b': '10.0.0.1' }, b: true };
      assert.deepStrictEqual(codec.decode(codec.encode(good)), good);
      const cases = [
        // Only the native side refuses: its error, with the path and the issue code.
        [{ ...good, e: 'nope' }, [['$.e', 'invalid_format']], '$.e: expected string of format email, found string "nope"'],
        [{ ...good, r: { 'a b': '10.0.0.256' } }, [['$.r["a b"]', 'invalid_format']], '$.r["a b"]: expected string of format ipv4, found string "10.0.0.256"'],
        // JS's refusals come first, whatever their place in the schema.
        [
          { ...good, s: 'a\ud800', e: 'nope', u: 'no', b: 'yes' },
          [
            ['$.b', 'invalid_type'],
            ['$.s', 'invalid_type'],
            ['$.e', 'invalid_format'],
            ['$.u', 'invalid_format'],
          ],
          '$.b: expected boolean, found string "yes"',
        ],
        // A length is JS's; the format of the same string stays the native side's.
        [
          { ...good, e: 'nope', r: { k: '1111111111111111' } },
          [
            ['$.r.k', 'too_big'],
            ['$.e', 'invalid_format'],
            ['$.r.k', 'invalid_format'],
          ],
          '$.r.k: expected string of at most 15 code points, found string "1111111111111111" (16 code points)',
        ],
        // With a pattern, JS checks the format too, in place: lengths, format, pattern.
        [
          { ...good, e: 'nope', p: 'nope' },
          [
            ['$.p', 'invalid_format'],
            ['$.p', 'invalid_format'],
            ['$.e', 'invalid_format'],
          ],
          '$.p: expected string of format email, found string "nope"',
        ],
      ];
      for (const [value, issues, message] of cases) {
        const e = assertShornError(() => codec.encode(value), { code: 'ERR_SHORN_INVALID', message });
        const result = codec.check(value);
        assert.deepStrictEqual(
          result.issues.map((i) => [i.path, i.code]),
          issues,
        );
        assert.equal(result.issues[0].message, e.message);
        assert.equal(result.issues[0].path, e.path);
        assert.equal(e.offset, undefined);
      }
      // A union's test checks the format in JS: a value whose email is bad is no variant's.
      const u = compileMode(t.union([t.string({ format: 'email' }), t.uint8()]), mode);
      assert.equal(u.check('nope').issues[0].code, 'invalid_format');
      assertShornError(() => u.encode('nope'), { code: 'ERR_SHORN_INVALID', message: '$: expected string of format email, found string "nope"' });
    });

    test(`${mode.name}: a union takes the first variant whose constraints a value meets`, () => {
      const U = t.union([t.string({ maxLength: 2 }), t.string({ format: 'email' }), t.uint8({ min: 10 }), t.uint8()]);
      const codec = compileMode(U, mode);
      assert.equal(toHex(codec.encode('ab')), '00026162');
      assert.equal(toHex(codec.encode('a@b.cd')), '0106614062' + '2e6364');
      assert.equal(toHex(codec.encode(12)), '020c');
      assert.equal(toHex(codec.encode(3)), '0303');
      assertShornError(() => codec.encode('abc'), { code: 'ERR_SHORN_INVALID', path: '$' });
      // Decode checks the variant the bytes name: 'abc' under the two-code-point variant.
      assertShornError(() => codec.decode(fromHex('0003616263')), {
        code: 'ERR_SHORN_INVALID',
        offset: 1,
        path: '$',
        message: 'invalid value at offset 1 ($): expected string of at most 2 code points, found 3 code points',
      });
      assertShornError(() => codec.decode(fromHex('020c'.replace('0c', '05'))), { code: 'ERR_SHORN_INVALID', offset: 1 });
    });
  }
});

describe('decode of strings only JS can check', () => {
  // The native side decodes these bytes without complaint; JS finds the string and asks
  // the native side where it was, by its tape slot.
  const item = t.object({ n: t.uint8(), email: t.string({ format: 'email' }) });

  for (const mode of MODES) {
    test(`${mode.name}: the offset and path of a string deep in arrays, records, maps and unions`, () => {
      const schema = t.object({
        list: t.array(item),
        byName: t.record(item),
        byId: t.map(t.uint8(), t.union([t.null(), item])),
      });
      const codec = compileMode(schema, mode);
      const loose = compile(unconstrained(schema));
      const good = { n: 1, email: 'a@b.co' };
      const bad = { n: 2, email: 'x' };
      const cases = [
        [{ list: [good, bad], byName: {}, byId: new Map() }, '$.list[1].email'],
        [{ list: [], byName: { ada: good, 'two words': bad }, byId: new Map() }, '$.byName["two words"].email'],
        [{ list: [good], byName: { a: good }, byId: new Map([[1, null], [7, bad]]) }, '$.byId[1][1].email'],
      ];
      for (const [value, path] of cases) {
        const bytes = loose.encode(value);
        const e = assertShornError(() => codec.decode(bytes), { code: 'ERR_SHORN_INVALID', path });
        // The offset is where the string starts: its length byte, then "x".
        assert.equal(bytes[e.offset], 1, `${path} at ${e.offset}`);
        assert.equal(bytes[e.offset + 1], 'x'.charCodeAt(0));
        assert.match(e.message, new RegExp(`^invalid value at offset ${e.offset} \\(${path.replace(/[[\]$.]/g, '\\$&')}\\): expected string of format email, found string "x"$`));
      }
    });

    test(`${mode.name}: a recursive type's strings (decoded by the generic marshaller) too`, () => {
      const Tree = t.recursive('Tree', (self) => t.object({ name: t.string({ pattern: '^[a-z]+$' }), kids: t.array(self) }));
      const codec = compileMode(Tree, mode);
      const bytes = compile(unconstrained(Tree)).encode({ name: 'root', kids: [{ name: 'ok', kids: [] }, { name: 'Bad', kids: [] }] });
      assertShornError(() => codec.decode(bytes), {
        code: 'ERR_SHORN_INVALID',
        path: '$.kids[1].name',
        offset: 10,
        message: 'invalid value at offset 10 ($.kids[1].name): expected string matching /^[a-z]+$/, found string "Bad"',
      });
    });
  }

  test('a large schema (generated as a function per object shape) finds the offset too', () => {
    const fields = {};
    for (let k = 0; k < 40; k++) fields[`f${k}`] = t.object({ a: t.uint8(), b: t.uint8(), c: t.string({ format: 'ipv4' }) });
    const schema = t.object(fields);
    const value = {};
    for (let k = 0; k < 40; k++) value[`f${k}`] = { a: k, b: k, c: k === 33 ? '1.2.3' : '1.2.3.4' };
    const codec = compile(schema, { codegen: true });
    const bytes = compile(unconstrained(schema)).encode(value);
    const e = assertShornError(() => codec.decode(bytes), { code: 'ERR_SHORN_INVALID', path: '$.f33.c' });
    assert.equal(e.offset, 33 * 10 + 2);
    assertShornError(() => codec.encode(value), { code: 'ERR_SHORN_INVALID', path: '$.f33.c', message: '$.f33.c: expected string of format ipv4, found string "1.2.3"' });
  });
});

describe('codec.safeDecode', () => {
  test('gives the value, or the one issue of bytes that are no message, with its offset', () => {
    for (const { codec } of compileBoth(t.object({ a: t.uint8({ max: 5 }), b: t.bool() }))) {
      assert.deepStrictEqual(codec.safeDecode(fromHex('0501')), { ok: true, value: { a: 5, b: true } });
      for (const [hex, code, offset, path] of [
        ['05', 'truncated', 1, '$.b'],
        ['050100', 'trailing', 2, '$'],
        ['0502', 'malformed', 1, '$.b'],
        ['0601', 'too_big', 0, '$.a'],
      ]) {
        const result = codec.safeDecode(fromHex(hex));
        assert.equal(result.ok, false);
        assert.equal(result.issues.length, 1);
        const [issue] = result.issues;
        assert.deepStrictEqual([issue.code, issue.offset, issue.path], [code, offset, path], hex);
        assert.throws(() => codec.decode(fromHex(hex)), (e) => e.message === issue.message);
      }
      const notBytes = codec.safeDecode('0501');
      assert.deepStrictEqual(notBytes.ok, false);
      assert.equal(notBytes.issues[0].code, 'invalid_type');
    }
  });

  const Person = t.object({
    name: t.string({ minLength: 1, maxLength: 8, format: 'email' }),
    age: t.uint8({ max: 150 }),
    tags: t.array(t.string({ maxLength: 2 })),
    n: t.int32({ multipleOf: 5 }),
  });
  const loose = compile(unconstrained(Person));

  for (const mode of MODES) {
    test(`${mode.name}: every constraint a message's value breaks, in schema order, decode's own issue with its offset`, () => {
      const codec = compileMode(Person, mode);
      const bytes = loose.encode({ name: 'nope-long', age: 200, tags: ['ok', 'abc', 'x', 'defg'], n: 7 });
      const result = codec.safeDecode(bytes);
      assert.equal(result.ok, false);
      // decode stops at the name's length, natively, at offset 0.
      const e = assertShornError(() => codec.decode(bytes), { code: 'ERR_SHORN_INVALID', path: '$.name', offset: 0 });
      assert.deepStrictEqual(result.issues, [
        { path: '$.name', code: 'too_big', message: e.message, offset: 0 },
        { path: '$.name', code: 'invalid_format', message: 'invalid value ($.name): expected string of format email, found string "nope-long"' },
        { path: '$.age', code: 'too_big', message: 'invalid value ($.age): expected uint8 of at most 150, found number 200' },
        { path: '$.tags[1]', code: 'too_big', message: 'invalid value ($.tags[1]): expected string of at most 2 code points, found string "abc" (3 code points)' },
        { path: '$.tags[3]', code: 'too_big', message: 'invalid value ($.tags[3]): expected string of at most 2 code points, found string "defg" (4 code points)' },
        { path: '$.n', code: 'not_multiple_of', message: 'invalid value ($.n): expected int32 that is a multiple of 5, found number 7' },
      ]);
      // A format JS finds after a native decode that went through: its issue has the offset.
      const formatOnly = loose.encode({ name: 'ab', age: 1, tags: [], n: 10 });
      assert.deepStrictEqual(codec.safeDecode(formatOnly).issues, [
        { path: '$.name', code: 'invalid_format', message: 'invalid value at offset 0 ($.name): expected string of format email, found string "ab"', offset: 0 },
      ]);
    });

    test(`${mode.name}: a message that breaks a constraint and is malformed further on has both issues`, () => {
      const codec = compileMode(Person, mode);
      const bytes = loose.encode({ name: 'a@b.co', age: 200, tags: [], n: 5 });
      // Cut off inside the last field: age breaks its bound first, then the bytes end.
      const cut = bytes.subarray(0, bytes.length - 1);
      const result = codec.safeDecode(cut);
      assert.deepStrictEqual(
        result.issues.map((i) => [i.path, i.code, i.offset]),
        [
          ['$.age', 'too_big', 7],
          ['$.n', 'truncated', 9],
        ],
      );
    });
  }
});

describe('constraints are part of the descriptor', () => {
  test('t builds plain JSON, bigint bounds as decimal strings, a RegExp as its source', () => {
    assert.deepStrictEqual(t.uint8({ min: 1, max: 2, multipleOf: 1 }), { type: 'uint8', min: 1, max: 2, multipleOf: 1 });
    assert.deepStrictEqual(t.int64({ min: -(2n ** 63n), multipleOf: 10n }), { type: 'int64', min: '-9223372036854775808', multipleOf: '10' });
    assert.deepStrictEqual(t.string({ pattern: /^a.b$/g, format: 'email', maxLength: 3 }), { type: 'string', pattern: '^a.b$', format: 'email', maxLength: 3 });
    assert.deepStrictEqual(t.array(t.bool(), { maxItems: 3 }), { type: 'array', items: { type: 'bool' }, maxItems: 3 });
    assert.deepStrictEqual(t.map(t.bool(), t.bool(), { maxEntries: 1 }), { type: 'map', keys: { type: 'bool' }, values: { type: 'bool' }, maxEntries: 1 });
    assert.deepStrictEqual(t.string(), { type: 'string' });
    const schema = t.object({ n: t.uint64({ max: 2n ** 64n - 2n }), s: t.string({ pattern: '\\d+' }) });
    const again = compile(JSON.parse(JSON.stringify(schema)));
    assertShornError(() => again.encode({ n: 2n ** 64n - 1n, s: '1' }), { code: 'ERR_SHORN_INVALID', path: '$.n' });
    assertShornError(() => again.encode({ n: 1n, s: 'x' }), { code: 'ERR_SHORN_INVALID', path: '$.s' });
  });

  test('the builders refuse what they cannot keep', () => {
    assertShornError(() => t.string({ pattern: /a/i }), { code: 'ERR_SHORN_SCHEMA', message: /flags are not kept/ });
    assertShornError(() => t.string({ maxLenght: 3 }), { code: 'ERR_SHORN_SCHEMA', message: 'invalid schema: t.string has no constraint "maxLenght"' });
    assertShornError(() => t.int64({ min: 5 }), { code: 'ERR_SHORN_SCHEMA', message: /takes bigint constraints/ });
    assertShornError(() => t.float64({ multipleOf: 2 }), { code: 'ERR_SHORN_SCHEMA', message: 'invalid schema: t.float64 has no constraint "multipleOf"' });
    assertShornError(() => t.uint8(3), { code: 'ERR_SHORN_SCHEMA', message: 'invalid schema: t.uint8 takes an object of constraints' });
  });

  test('compile refuses constraints no value meets, a pattern that is no RegExp, an unknown format, a default that breaks them', () => {
    for (const [schema, path, message] of [
      [t.object({ a: t.uint8({ min: 3, max: 2 }) }), '$.a', 'min 3 of a uint8 is greater than its max 2'],
      // A descriptor from JSON: t.string refuses such a pattern itself (__test__/pattern.test.js).
      [{ type: 'array', items: { type: 'string', pattern: '(' } }, '$[]', 'pattern "(" is not a valid RegExp (Invalid regular expression: /(/: Unterminated group)'],
      [{ type: 'string', format: 'phone' }, '$', 'format must be one of email, uuid, url, datetime, ipv4, ipv6, found "phone"'],
      [t.object({ n: t.default(t.string({ minLength: 1 }), '') }), '$.n', 'the default does not fit its type (expected string of at least 1 code point, found string "" (0 code points))'],
      [t.object({ n: t.default(t.uint8({ multipleOf: 2 }), 3) }), '$.n', 'the default does not fit its type (expected uint8 that is a multiple of 2, found number 3)'],
      [t.object({ n: t.default(t.array(t.uint8({ max: 1 })), [0, 2]) }), '$.n', 'the default does not fit its type ($[1]: expected uint8 of at most 1, found number 2)'],
    ]) {
      for (const codegen of [true, false]) {
        assertShornError(() => compile(schema, { codegen }), { code: 'ERR_SHORN_SCHEMA', message: `invalid schema at ${path}: ${message}` });
      }
    }
    compile(t.object({ n: t.default(t.string({ minLength: 1, format: 'email' }), 'a@b.co') }));
  });

  test('a schema without constraints generates no constraint checks', () => {
    const { generate } = require('../lib/codegen');
    const { analyze } = require('../lib/walk');
    const d = t.object({ a: t.uint8(), s: t.string(), l: t.array(t.float64()), m: t.map(t.string(), t.bytes()) });
    const { source } = generate(d, analyze(d), marshallerOf(d));
    assert.doesNotMatch(source, /violation|decodeViolation/);
    const c = t.object({ a: t.uint8({ max: 3 }), s: t.string({ format: 'url' }) });
    assert.match(generate(c, analyze(c), marshallerOf(c)).source, /G\.violation[\s\S]*rt\.decodeViolation/);
  });
});

// A pattern or format JS finds broken after a native decode: the native side finds the
// string's offset and path again (`nat.locate`); where it cannot (an input another thread
// changed meanwhile), the error has the string's static path and no offset.
test('a string JS finds broken after a native decode is reported at its offset, or at its static path', () => {
  const rt = require('../lib/runtime');
  const d = t.object({ u: t.array(t.string({ format: 'url' })) });
  const m = marshallerOf(d);
  const item = d.fields[0].schema.items;
  const at = rt.decodeViolation(m, { locate: () => [7, '$.u[2]'] }, null, 0, item, 'x');
  assert.equal(at.message, 'invalid value at offset 7 ($.u[2]): expected string of format url, found string "x"');
  assert.deepEqual([at.code, at.offset, at.path], ['ERR_SHORN_INVALID', 7, '$.u[2]']);
  const lost = rt.decodeViolation(m, { locate: () => undefined }, null, 0, item, 'x');
  assert.equal(lost.message, 'invalid value ($.u[]): expected string of format url, found string "x"');
  assert.deepEqual([lost.code, lost.offset, lost.path], ['ERR_SHORN_INVALID', undefined, '$.u[]']);
});

describe('frames: a message that breaks a constraint stops the stream at its frame, after the frames before it', () => {
  const { FrameReader } = require('../lib/framing');
  const Schema = t.object({ n: t.uint8({ max: 9 }), u: t.string({ format: 'url' }), p: t.string({ pattern: '^[a-z]+$' }) });
  const loose = compile(unconstrained(Schema));
  const good = (n) => ({ n, u: 'http://a.b', p: 'x' });
  // Frame 2 breaks a constraint the core checks (n), or one only JS checks (url, pattern):
  // either way the batch of frames stops before it, and it is read alone.
  const cases = [
    [{ n: 10, u: 'http://a.b', p: 'x' }, 0, '$.n'],
    [{ n: 3, u: 'nope', p: 'x' }, 1, '$.u'],
    [{ n: 3, u: 'http://a.b', p: 'Y' }, 12, '$.p'],
  ];
  for (const mode of MODES) {
    test(`${mode.name}: decodeFrames and a FrameReader give frame 2's error, having emitted frames 0 and 1`, () => {
      const codec = compileMode(Schema, mode);
      for (const [bad, offset, path] of cases) {
        for (const checksum of [false, true]) {
          const bytes = loose.encodeFrames([good(1), good(2), bad, good(4)], { checksum });
          const e = assertShornError(() => codec.decodeFrames(bytes, { checksum }), { code: 'ERR_SHORN_INVALID', offset, path });
          assert.equal(e.frame, 2);
          assert.match(e.message, /^frame 2: invalid value at offset /);
          const emitted = [];
          const reader = new FrameReader(codec, { checksum, maxFrameBytes: 1 << 20 }, (v) => emitted.push(v));
          assert.throws(() => reader.push(bytes), { code: 'ERR_SHORN_INVALID', path });
          assert.deepStrictEqual(emitted, [good(1), good(2)]);
        }
      }
    });

    test(`${mode.name}: a reader's constraints hold for the frames it reads`, () => {
      const W = t.object({ n: t.uint8(), extra: t.bool() });
      const R = t.object({ n: t.uint8({ max: 9 }) });
      const reader = compileMode(R, mode).reader(W);
      const bytes = compile(W).encodeFrames([{ n: 1, extra: true }, { n: 2, extra: false }, { n: 10, extra: true }]);
      const e = assertShornError(() => reader.decodeFrames(bytes), { code: 'ERR_SHORN_INVALID', path: '$.n' });
      assert.equal(e.frame, 2);
      assert.deepStrictEqual(reader.decodeFrames(compile(W).encodeFrames([{ n: 1, extra: true }, { n: 9, extra: false }])), [{ n: 1 }, { n: 9 }]);
    });
  }
});
