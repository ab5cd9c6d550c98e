'use strict';
// Every type, table-driven: values that must round-trip and values that encode must reject
// with ERR_SHORN_INVALID and the exact path (and message where given). Then the object
// rules of docs/FORMAT.md ("Values"): optional, nullable, strict, getters, field names
// that Object.prototype has, key order, and paths for field names that are not identifiers.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const {
  shorn,
  MODES,
  compileMode,
  compileBoth,
  toHex,
  fromHex,
  assertShornError,
  inputViews,
  expectedDecoded,
  defineOwn,
  varint,
  zigzag,
  concatBytes,
} = require('./helpers');

const { t } = shorn;

// Values no integer type takes (each with what the message says was found).
const NOT_INTEGERS = [
  [1.5, 'number 1.5'],
  [NaN, 'number NaN'],
  [Infinity, 'number Infinity'],
  [-Infinity, 'number -Infinity'],
  ['5', 'string "5"'],
  [true, 'boolean true'],
  [null, 'null'],
  [undefined, 'undefined'],
  [5n, 'bigint 5n'],
  [{}, 'object'],
  [[5], 'array (length 1)'],
  [new Number(5), 'object (Number)'],
  [{ valueOf: () => 5 }, 'object'],
];

function integerRow(type, lo, hi) {
  const expected = `${type} (integer ${lo} to ${hi})`;
  return {
    name: type,
    schema: t[type](),
    valid: [lo, hi, 0, -0, 1, lo + 1, hi - 1, Math.trunc((lo + hi) / 2)],
    invalid: [
      { value: lo - 1, path: '$', message: `$: expected ${expected}, found number ${lo - 1}` },
      { value: hi + 1, path: '$', message: `$: expected ${expected}, found number ${hi + 1}` },
      { value: hi + 0.5, path: '$' },
      { value: lo - 2 ** 32, path: '$' },
      { value: hi + 2 ** 32, path: '$' },
      ...NOT_INTEGERS.map(([value, found]) => ({ value, path: '$', message: `$: expected ${expected}, found ${found}` })),
    ],
  };
}

const longAscii = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(2000); // 72,000 bytes
const longMixed = 'aé李🚀'.repeat(8000); // 80,000 bytes of UTF-8
const allAscii = Array.from({ length: 128 }, (_, k) => String.fromCharCode(k)).join('');
const allLatin1 = Array.from({ length: 256 }, (_, k) => String.fromCharCode(k)).join('');

const bigBuffer = new Uint8Array(100_000).map((_, k) => (k * 31 + 7) & 255);
const backing = new Uint8Array(40).map((_, k) => k);

const ROWS = [
  {
    name: 'bool',
    schema: t.bool(),
    valid: [true, false],
    invalid: [
      { value: 0, path: '$', message: '$: expected boolean, found number 0' },
      { value: 1, path: '$', message: '$: expected boolean, found number 1' },
      { value: 'true', path: '$', message: '$: expected boolean, found string "true"' },
      { value: null, path: '$', message: '$: expected boolean, found null' },
      { value: undefined, path: '$', message: '$: expected boolean, found undefined' },
      { value: new Boolean(true), path: '$', message: '$: expected boolean, found object (Boolean)' },
    ],
  },
  integerRow('uint8', 0, 255),
  integerRow('uint16', 0, 65535),
  integerRow('uint32', 0, 4294967295),
  integerRow('int8', -128, 127),
  integerRow('int16', -32768, 32767),
  integerRow('int32', -2147483648, 2147483647),
  {
    name: 'float32',
    schema: t.float32(),
    valid: [
      0,
      -0,
      1.5,
      0.1,
      -2.5e-3,
      NaN,
      Infinity,
      -Infinity,
      3.4028234663852886e38,
      1.401298464324817e-45,
      1e40,
      -1e40,
      1e-50,
      -1e-50,
      16777217,
      Number.MAX_VALUE,
    ],
    invalid: [
      { value: '1', path: '$', message: '$: expected number (float32), found string "1"' },
      { value: null, path: '$', message: '$: expected number (float32), found null' },
      { value: undefined, path: '$' },
      { value: true, path: '$' },
      { value: 1n, path: '$', message: '$: expected number (float32), found bigint 1n' },
      { value: new Number(1), path: '$' },
    ],
  },
  {
    name: 'float64',
    schema: t.float64(),
    valid: [
      0,
      -0,
      NaN,
      Infinity,
      -Infinity,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      Number.MIN_VALUE,
      -Number.MIN_VALUE,
      Number.EPSILON,
      Number.MAX_SAFE_INTEGER,
      2 ** 53 + 2,
      0.1,
      -123.456e-300,
      1718031234567,
    ],
    invalid: [
      { value: '1.5', path: '$', message: '$: expected number (float64), found string "1.5"' },
      { value: null, path: '$' },
      { value: undefined, path: '$', message: '$: expected number (float64), found undefined' },
      { value: 1n, path: '$' },
      { value: [1], path: '$', message: '$: expected number (float64), found array (length 1)' },
    ],
  },
  {
    name: 'string',
    schema: t.string(),
    valid: [
      '',
      'a',
      'hello world',
      allAscii,
      allLatin1,
      'café ÿ Ñuño',
      '李小龍',
      '\u0800\uffff\ufffd',
      '🚀',
      '\u{10000}\u{10ffff}',
      'x🚀',
      '🚀x',
      '\ud83d\ude80\ud83d\ude80',
      'a\u0000b',
      longAscii,
      longMixed,
      'é'.repeat(40_000),
    ],
    invalid: [
      {
        value: '\ud800',
        path: '$',
        message: '$: expected a well-formed string, found a lone surrogate at index 0',
      },
      {
        value: 'ab\udc00cd',
        path: '$',
        message: '$: expected a well-formed string, found a lone surrogate at index 2',
      },
      {
        value: 'abc\ud83d',
        path: '$',
        message: '$: expected a well-formed string, found a lone surrogate at index 3',
      },
      {
        value: '\ude80\ud83d',
        path: '$',
        message: '$: expected a well-formed string, found a lone surrogate at index 0',
      },
      { value: `${longAscii}\ud800`, path: '$' },
      { value: 5, path: '$', message: '$: expected string, found number 5' },
      { value: null, path: '$', message: '$: expected string, found null' },
      { value: undefined, path: '$', message: '$: expected string, found undefined' },
      { value: new String('a'), path: '$', message: '$: expected string, found object (String)' },
      { value: ['a'], path: '$', message: '$: expected string, found array (length 1)' },
      { value: Buffer.from('a'), path: '$', message: '$: expected string, found Buffer (length 1)' },
    ],
  },
  {
    name: 'bytes',
    schema: t.bytes(),
    valid: [
      new Uint8Array(0),
      new Uint8Array([1, 2, 255]),
      Buffer.from('68656c6c6f', 'hex'),
      Buffer.alloc(0),
      backing.subarray(7, 19),
      new Uint8Array(backing.buffer, 33, 7),
      Buffer.from(backing.buffer, 3, 4),
      bigBuffer,
      bigBuffer.subarray(1000, 70_000),
    ],
    invalid: [
      { value: [1, 2], path: '$', message: '$: expected Uint8Array, found array (length 2)' },
      { value: 'ab', path: '$', message: '$: expected Uint8Array, found string "ab"' },
      { value: new ArrayBuffer(2), path: '$', message: '$: expected Uint8Array, found object (ArrayBuffer)' },
      { value: new Uint8ClampedArray(2), path: '$' },
      { value: new Uint16Array(2), path: '$', message: '$: expected Uint8Array, found Uint16Array (length 2)' },
      { value: new Int8Array(2), path: '$' },
      { value: new DataView(new ArrayBuffer(2)), path: '$' },
      { value: null, path: '$', message: '$: expected Uint8Array, found null' },
      { value: undefined, path: '$' },
    ],
  },
  {
    name: 'enum of 3',
    schema: t.enum(['a', 'b', 'c']),
    valid: ['a', 'b', 'c'],
    invalid: [
      { value: 'd', path: '$', message: '$: expected one of "a", "b", "c", found string "d"' },
      { value: 'A', path: '$' },
      { value: '', path: '$' },
      { value: 0, path: '$', message: '$: expected one of "a", "b", "c", found number 0' },
      { value: null, path: '$' },
      { value: undefined, path: '$' },
      { value: new String('a'), path: '$' },
      { value: ['a'], path: '$' },
      { value: 'toString', path: '$' },
    ],
  },
  {
    name: 'enum of 300 (two-byte indexes, map lookup)',
    schema: t.enum(Array.from({ length: 300 }, (_, k) => `v${k}`)),
    valid: ['v0', 'v127', 'v128', 'v299'],
    invalid: [
      { value: 'v300', path: '$' },
      { value: 'constructor', path: '$' },
      { value: '__proto__', path: '$' },
      { value: 3, path: '$' },
      { value: { toString: () => 'v1' }, path: '$' },
    ],
  },
  {
    name: 'enum with names Object.prototype has',
    schema: t.enum(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'x', 'y', 'z', 'w']),
    valid: ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'w'],
    invalid: [
      { value: 'isPrototypeOf', path: '$' },
      { value: 'length', path: '$' },
    ],
  },
  {
    name: 'array of uint8',
    schema: t.array(t.uint8()),
    valid: [[], [0], [1, 2, 3], Array.from({ length: 100_000 }, (_, k) => k & 255)],
    invalid: [
      { value: [1, 'x'], path: '$[1]', message: '$[1]: expected uint8 (integer 0 to 255), found string "x"' },
      { value: [1, 2, 256], path: '$[2]' },
      // eslint-disable-next-line no-sparse-arrays
      { value: [1, , 3], path: '$[1]', message: '$[1]: expected uint8 (integer 0 to 255), found undefined' },
      { value: { length: 1, 0: 1 }, path: '$', message: '$: expected array, found object' },
      { value: new Uint8Array(1), path: '$', message: '$: expected array, found Uint8Array (length 1)' },
      { value: 'abc', path: '$' },
      { value: null, path: '$', message: '$: expected array, found null' },
      { value: undefined, path: '$' },
    ],
  },
  {
    name: 'array of 100k strings',
    schema: t.array(t.string()),
    valid: [[], [''], ['a', 'é', '🚀'], Array.from({ length: 100_000 }, (_, k) => `item ${k}`)],
    invalid: [
      { value: ['a', 'b', 3], path: '$[2]', message: '$[2]: expected string, found number 3' },
      { value: ['a', 'b\ud800'], path: '$[1]' },
      {
        value: [...Array.from({ length: 1000 }, () => 'ok'), 'x\udfff'],
        path: '$[1000]',
        message: '$[1000]: expected a well-formed string, found a lone surrogate at index 1',
      },
    ],
  },
  {
    name: 'array of arrays of int16',
    schema: t.array(t.array(t.int16())),
    valid: [[], [[]], [[1], [], [-32768, 32767]], Array.from({ length: 300 }, (_, k) => Array.from({ length: k % 7 }, () => -k))],
    invalid: [
      { value: [[1], [2, 3], [4, 40000]], path: '$[2][1]' },
      { value: [[1], 2], path: '$[1]', message: '$[1]: expected array, found number 2' },
    ],
  },
  {
    name: 'array of arrays of arrays of bytes',
    schema: t.array(t.array(t.array(t.bytes()))),
    valid: [[[[]]], [[[new Uint8Array([1]), Buffer.from([2, 3])]], [], [[], [new Uint8Array(0)]]]],
    invalid: [{ value: [[[new Uint8Array(1)]], [[], [new Uint8Array(1), [1]]]], path: '$[1][1][1]' }],
  },
  {
    name: 'object',
    schema: t.object({ id: t.uint32(), name: t.string(), ok: t.bool() }),
    valid: [
      { id: 1, name: 'Ada', ok: true },
      { ok: false, name: '', id: 4294967295 },
      { id: 2, name: 'x', ok: true, extra: 'ignored', more: [1, 2] },
      Object.assign(Object.create({ id: 3 }), { name: 'inherited id is read', ok: false }),
    ],
    invalid: [
      { value: { id: 1, name: 'Ada' }, path: '$.ok', message: '$.ok: expected boolean, found undefined' },
      { value: { id: -1, name: 'Ada', ok: true }, path: '$.id' },
      { value: [], path: '$', message: '$: expected object, found array (length 0)' },
      { value: null, path: '$', message: '$: expected object, found null' },
      { value: undefined, path: '$', message: '$: expected object, found undefined' },
      { value: 'obj', path: '$', message: '$: expected object, found string "obj"' },
      { value: 5, path: '$' },
    ],
  },
  {
    name: 'strict object',
    schema: t.object({ id: t.uint32(), name: t.string() }, { strict: true }),
    valid: [
      { id: 1, name: 'Ada' },
      Object.defineProperty({ id: 1, name: 'Ada' }, 'hidden', { value: 1, enumerable: false }),
      Object.assign(Object.create({ inherited: 1 }), { id: 2, name: 'B' }),
    ],
    invalid: [
      { value: { id: 1, name: 'Ada', extra: 1 }, path: '$.extra', message: '$.extra: unexpected field in a strict object' },
      { value: { id: 1, name: 'Ada', 'a b': 1 }, path: '$["a b"]', message: '$["a b"]: unexpected field in a strict object' },
      { value: { id: 1, name: 'Ada', 7: 1 }, path: '$["7"]' },
      { value: { id: 1, name: 'Ada', extra: undefined }, path: '$.extra' },
      { value: { id: 1 }, path: '$.name' },
    ],
  },
  {
    name: 'nested object',
    schema: t.object({ user: t.object({ tags: t.array(t.string()), id: t.uint8() }) }),
    valid: [{ user: { tags: [], id: 0 } }, { user: { tags: ['a', 'b'], id: 255 } }],
    invalid: [
      { value: { user: { tags: ['a', 'b', 3], id: 1 } }, path: '$.user.tags[2]', message: '$.user.tags[2]: expected string, found number 3' },
      { value: { user: { tags: [], id: 256 } }, path: '$.user.id' },
      { value: { user: null }, path: '$.user', message: '$.user: expected object, found null' },
      { value: {}, path: '$.user' },
    ],
  },
  {
    name: 'array of objects',
    schema: t.array(t.object({ name: t.string() })),
    valid: [[], [{ name: 'a' }, { name: 'b' }]],
    invalid: [
      { value: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 4 }], path: '$[3].name', message: '$[3].name: expected string, found number 4' },
      { value: [{ name: 'a' }, []], path: '$[1]' },
    ],
  },
  {
    name: 'optional fields',
    schema: t.object({ a: t.optional(t.uint8()), b: t.optional(t.string()), c: t.optional(t.bytes()) }),
    valid: [{}, { a: 1 }, { b: 'x' }, { c: new Uint8Array([9]) }, { a: undefined, b: undefined, c: undefined }, { a: 0, b: '', c: new Uint8Array(0) }],
    invalid: [
      { value: { a: null }, path: '$.a', message: '$.a: expected uint8 (integer 0 to 255), found null' },
      { value: { b: 5 }, path: '$.b' },
      { value: { c: null }, path: '$.c' },
    ],
  },
  {
    name: 'nullable',
    schema: t.nullable(t.string()),
    valid: [null, '', 'a'],
    invalid: [
      { value: undefined, path: '$' },
      { value: 5, path: '$' },
    ],
  },
  {
    name: 'nullable fields',
    schema: t.object({ a: t.nullable(t.uint8()), b: t.nullable(t.object({ x: t.nullable(t.bool()) })) }),
    valid: [
      { a: null, b: null },
      { a: 1, b: { x: null } },
      { a: 0, b: { x: false } },
    ],
    invalid: [
      { value: { b: null }, path: '$.a' },
      { value: { a: null, b: { x: undefined } }, path: '$.b.x' },
      { value: { a: null, b: 1 }, path: '$.b' },
    ],
  },
  {
    name: 'optional nullable fields',
    schema: t.object({ a: t.optional(t.nullable(t.enum(['x', 'y']))) }),
    valid: [{}, { a: undefined }, { a: null }, { a: 'x' }, { a: 'y' }],
    invalid: [{ value: { a: 'z' }, path: '$.a' }],
  },
  {
    name: 'array of nullable',
    schema: t.array(t.nullable(t.float64())),
    valid: [[], [null], [1.5, null, -0, NaN]],
    invalid: [{ value: [null, undefined], path: '$[1]' }],
  },
  {
    name: 'int',
    schema: t.int(),
    valid: [0, -0, 1, -1, 63, 64, -64, 2 ** 31, -(2 ** 40), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER],
    invalid: [
      { value: 2 ** 53, path: '$', message: '$: expected int (safe integer), found number 9007199254740992' },
      { value: -(2 ** 53), path: '$' },
      { value: 1.5, path: '$', message: '$: expected int (safe integer), found number 1.5' },
      ...NOT_INTEGERS.filter(([v]) => !Number.isSafeInteger(v)).map(([value, found]) => ({
        value,
        path: '$',
        message: `$: expected int (safe integer), found ${found}`,
      })),
    ],
  },
  {
    name: 'int64',
    schema: t.int64(),
    valid: [0n, 1n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 505874924095815700n, -(2n ** 53n)],
    invalid: [
      {
        value: 2n ** 63n,
        path: '$',
        message: '$: expected int64 (bigint -9223372036854775808 to 9223372036854775807), found bigint 9223372036854775808n',
      },
      { value: -(2n ** 63n) - 1n, path: '$' },
      { value: 5, path: '$', message: '$: expected int64 (bigint -9223372036854775808 to 9223372036854775807), found number 5' },
      { value: '5', path: '$' },
      { value: Object(5n), path: '$' },
    ],
  },
  {
    name: 'uint64',
    schema: t.uint64(),
    valid: [0n, 1n, 2n ** 64n - 1n, 2n ** 63n, 127n, 128n],
    invalid: [
      { value: -1n, path: '$', message: '$: expected uint64 (bigint 0 to 18446744073709551615), found bigint -1n' },
      { value: 2n ** 64n, path: '$' },
      { value: 1, path: '$' },
    ],
  },
  {
    name: 'date',
    schema: t.date(),
    valid: [new Date(0), new Date(1718031234567), new Date(-1), new Date(8.64e15), new Date(-8.64e15)],
    invalid: [
      { value: new Date(NaN), path: '$', message: '$: expected valid Date, found Date (invalid)' },
      { value: 1718031234567, path: '$', message: '$: expected valid Date, found number 1718031234567' },
      { value: '2024-01-01', path: '$' },
      { value: Object.create(Date.prototype), path: '$' },
      { value: { getTime: () => 5 }, path: '$' },
    ],
  },
  {
    name: 'literal string',
    schema: t.object({ kind: t.literal('click'), n: t.uint8() }),
    valid: [{ kind: 'click', n: 1 }],
    invalid: [
      { value: { kind: 'view', n: 1 }, path: '$.kind', message: '$.kind: expected "click" (literal), found string "view"' },
      { value: { n: 1 }, path: '$.kind' },
    ],
  },
  {
    name: 'literal number, boolean and null',
    schema: t.tuple([t.literal(0), t.literal(1.5), t.literal(false), t.literal(null), t.null()]),
    valid: [[0, 1.5, false, null, null]],
    invalid: [
      { value: [-0, 1.5, false, null, null], path: '$[0]', message: '$[0]: expected 0 (literal), found number -0' },
      { value: [0, 1.5, 0, null, null], path: '$[2]' },
      { value: [0, 1.5, false, undefined, null], path: '$[3]', message: '$[3]: expected null, found undefined' },
      { value: [0, 1.5, false, null, 0], path: '$[4]', message: '$[4]: expected null, found number 0' },
    ],
  },
  {
    name: 'tuple',
    schema: t.tuple([t.float64(), t.string(), t.optional ? t.nullable(t.uint8()) : null]),
    valid: [[1.5, 'a', null], [-0, '', 255]],
    invalid: [
      { value: [1.5, 'a'], path: '$', message: '$: expected array of length 3 (tuple), found array (length 2)' },
      { value: [1.5, 'a', null, 4], path: '$' },
      { value: [1.5, 2, null], path: '$[1]', message: '$[1]: expected string, found number 2' },
      { value: { 0: 1.5, 1: 'a', 2: null, length: 3 }, path: '$' },
    ],
  },
  {
    name: 'empty tuple',
    schema: t.object({ e: t.tuple([]) }),
    valid: [{ e: [] }],
    invalid: [{ value: { e: [1] }, path: '$.e' }],
  },
  {
    name: 'record',
    schema: t.record(t.uint8()),
    valid: [{}, { a: 1, b: 2 }, { 10: 1, 2: 2, b: 3, a: 4 }, JSON.parse('{"__proto__": 1, "constructor": 2}'), Object.assign(Object.create(null), { x: 1 })],
    invalid: [
      { value: { a: 1, b: 256 }, path: '$.b', message: '$.b: expected uint8 (integer 0 to 255), found number 256' },
      { value: { 'a b': 'x' }, path: '$["a b"]' },
      { value: new Map(), path: '$', message: '$: expected plain object (record), found Map (size 0)' },
      { value: [], path: '$' },
      { value: new (class Point {})(), path: '$', message: '$: expected plain object (record), found object (Point)' },
      { value: null, path: '$' },
    ],
  },
  {
    name: 'map with string keys',
    schema: t.map(t.string(), t.array(t.uint8())),
    valid: [new Map(), new Map([['a', [1]], ['', []], ['__proto__', [2, 3]]])],
    invalid: [
      { value: { a: [1] }, path: '$', message: '$: expected Map, found object' },
      { value: new Map([['a', [1]], [2, [1]]]), path: '$[1][0]', message: '$[1][0]: expected string, found number 2' },
      { value: new Map([['a', [1]], ['b', [1, 300]]]), path: '$[1][1][1]' },
    ],
  },
  {
    name: 'map with object keys',
    schema: t.map(t.object({ x: t.int32() }), t.bool()),
    valid: [new Map([[{ x: 1 }, true], [{ x: 1 }, false]])],
    invalid: [{ value: new Map([[{ x: 'a' }, true]]), path: '$[0][0].x' }],
  },
  {
    name: 'union',
    schema: t.union([t.string(), t.uint32(), t.object({ a: t.bool() }), t.array(t.string())]),
    valid: ['s', '', 0, 4294967295, { a: true }, [], ['x']],
    invalid: [
      {
        value: true,
        path: '$',
        message: '$: expected string | uint32 (integer 0 to 4294967295) | object | array, found boolean true',
      },
      { value: -1, path: '$', message: '$: expected uint32 (integer 0 to 4294967295), found number -1' },
      { value: { a: 1 }, path: '$.a', message: '$.a: expected boolean, found number 1' },
      { value: ['x', 2], path: '$[1]', message: '$[1]: expected string, found number 2' },
      { value: null, path: '$' },
    ],
  },
  {
    name: 'union: the first variant that accepts wins',
    schema: t.union([t.object({ a: t.string() }), t.object({ a: t.string(), b: t.uint8() })]),
    valid: [{ a: 'x' }],
    invalid: [],
  },
  {
    name: 'discriminated union',
    schema: t.discriminatedUnion('type', [
      t.object({ type: t.literal('push'), size: t.uint32() }),
      t.object({ type: t.literal('watch'), action: t.enum(['started']) }),
      t.object({ type: t.literal(3), n: t.nullable(t.string()) }),
    ]),
    valid: [{ type: 'push', size: 3 }, { type: 'watch', action: 'started' }, { type: 3, n: null }],
    invalid: [
      { value: { type: 'fork' }, path: '$.type', message: '$.type: expected one of "push", "watch", 3, found string "fork"' },
      { value: {}, path: '$.type', message: '$.type: expected one of "push", "watch", 3, found undefined' },
      { value: { type: 'push', size: -1 }, path: '$.size' },
      { value: { type: '3', n: null }, path: '$.type' },
      { value: 'push', path: '$' },
      { value: [], path: '$' },
    ],
  },
  {
    name: 'recursive',
    schema: t.recursive('Tree', (self) => t.object({ v: t.uint8(), kids: t.array(self) })),
    valid: [
      { v: 1, kids: [] },
      { v: 1, kids: [{ v: 2, kids: [{ v: 3, kids: [] }] }, { v: 4, kids: [] }] },
    ],
    invalid: [
      { value: { v: 1, kids: [{ v: 2, kids: [{ v: 300, kids: [] }] }] }, path: '$.kids[0].kids[0].v' },
      { value: { v: 1, kids: [{ v: 2 }] }, path: '$.kids[0].kids', message: '$.kids[0].kids: expected array, found undefined' },
    ],
  },
  {
    name: 'recursive inside an object, as a nullable linked list',
    schema: t.object({
      head: t.recursive('Node', (self) => t.object({ value: t.string(), next: t.nullable(self) })),
    }),
    valid: [{ head: { value: 'a', next: null } }, { head: { value: 'a', next: { value: 'b', next: { value: 'c', next: null } } } }],
    invalid: [{ value: { head: { value: 'a', next: { value: 2, next: null } } }, path: '$.head.next.value' }],
  },
  {
    name: 'json',
    schema: t.json(),
    valid: [
      null,
      true,
      false,
      0,
      -0,
      63,
      64,
      -1,
      1.5,
      1e300,
      -(2 ** 53),
      2 ** 53,
      'x',
      'é'.repeat(40),
      [],
      {},
      [1, 'a', [null, { b: [] }]],
      { b: 1, a: 2, 10: 3, 2: 4 },
      JSON.parse('{"__proto__": {"x": 1}}'),
      Array.from({ length: 40 }, (_, k) => k),
      Object.fromEntries(Array.from({ length: 40 }, (_, k) => [`k${k}`, k])),
    ],
    invalid: [
      { value: undefined, path: '$' },
      { value: [1, undefined], path: '$[1]' },
      { value: { a: NaN }, path: '$.a', message: '$.a: expected JSON value (null, boolean, finite number, string, array or plain object), found number NaN' },
      { value: { a: { b: 1n } }, path: '$.a.b' },
      { value: { d: new Date(0) }, path: '$.d' },
      { value: [() => 1], path: '$[0]' },
      { value: new Map(), path: '$' },
      { value: [1, , 2], path: '$[1]' }, // eslint-disable-line no-sparse-arrays
    ],
  },
  ...[
    ['float64Array', Float64Array, [1.5, -0, NaN, Infinity, Number.MIN_VALUE]],
    ['float32Array', Float32Array, [1.5, -0, NaN, 3.4e38]],
    ['int32Array', Int32Array, [-1, 2 ** 31 - 1, -(2 ** 31)]],
    ['uint32Array', Uint32Array, [0, 0xff000000, 2 ** 32 - 1]],
    ['int16Array', Int16Array, [-1, 32767, -32768]],
    ['uint16Array', Uint16Array, [0, 65535]],
    ['int8Array', Int8Array, [-128, 127, 0]],
  ].map(([type, Class, sample]) => ({
    name: type,
    schema: t[type](),
    valid: [new Class(0), new Class(sample), new Class(new ArrayBuffer(8 * 9), 8, sample.length).fill(1)],
    invalid: [
      { value: Array.from(sample), path: '$', message: `$: expected ${Class.name}, found array (length ${sample.length})` },
      { value: new (Class === Float64Array ? Float32Array : Float64Array)(2), path: '$' },
      { value: new Uint8Array(8), path: '$' },
      { value: new DataView(new ArrayBuffer(8)), path: '$' },
    ],
  })),
];

// Values compared with Object.is semantics (NaN equal, -0 distinct) by deepStrictEqual.
for (const row of ROWS) {
  for (const mode of MODES) {
    describe(`${row.name} (${mode.name} marshaller)`, () => {
      test('round-trips every valid value', () => {
        const codec = compileMode(row.schema, mode);
        for (const value of row.valid) {
          const bytes = codec.encode(value);
          const decoded = codec.decode(bytes);
          assert.deepStrictEqual(decoded, expectedDecoded(row.schema, value));
          // One value, one encoding: the decoded value encodes to the same bytes.
          assert.equal(toHex(codec.encode(decoded)), toHex(bytes));
        }
      });

      test('rejects every invalid value with ERR_SHORN_INVALID and its path', () => {
        const codec = compileMode(row.schema, mode);
        for (const { value, path, message } of row.invalid) {
          const expected = { code: 'ERR_SHORN_INVALID', path };
          if (message !== undefined) expected.message = message;
          assertShornError(() => codec.encode(value), expected);
          assertShornError(() => codec.encodeInto(value, new Uint8Array(1 << 16)), expected);
        }
      });
    });
  }
}

// Exact bytes at the edges of each encoding, written from docs/FORMAT.md.
const EXACT = [
  ['uint8 -0 is 0', t.uint8(), -0, '00'],
  ['int8 -0 is 0', t.int8(), -0, '00'],
  ['uint16 -0 is 0', t.uint16(), -0, '00'],
  ['uint32 -0 is 0', t.uint32(), -0, '00'],
  ['int16 -0 is 0', t.int16(), -0, '00'],
  ['int32 -0 is 0', t.int32(), -0, '00'],
  ['uint16 128', t.uint16(), 128, '8001'],
  ['uint16 16383', t.uint16(), 16383, 'ff7f'],
  ['uint16 16384', t.uint16(), 16384, '808001'],
  ['uint32 2^21', t.uint32(), 2 ** 21, '80808001'],
  ['uint32 2^28', t.uint32(), 2 ** 28, '8080808001'],
  ['int8 -128 to 127 in one byte', t.int8(), 127, '7f'],
  ['int16 32767', t.int16(), 32767, 'feff03'],
  ['int16 -64', t.int16(), -64, '7f'],
  ['int32 -1', t.int32(), -1, '01'],
  ['float32 rounds like Math.fround', t.float32(), 16777217, '0000804b'],
  ['float32 overflows to Infinity', t.float32(), 1e40, '0000807f'],
  ['float32 underflows to 0', t.float32(), 1e-50, '00000000'],
  ['float64 MIN_VALUE', t.float64(), Number.MIN_VALUE, '0100000000000000'],
  ['string "héllo"', t.string(), 'héllo', '0668c3a96c6c6f'],
  ['string of Latin-1 ÿ', t.string(), '\u00ff', '02c3bf'],
  ['string of U+FFFF', t.string(), '\uffff', '03efbfbf'],
  ['string of U+10FFFF', t.string(), '\u{10ffff}', '04f48fbfbf'],
  ['string with a NUL', t.string(), 'a\u0000', '026100'],
  ['bytes', t.bytes(), new Uint8Array([1, 2, 255]), '030102ff'],
  ['enum of 300, index 299', t.enum(Array.from({ length: 300 }, (_, k) => `v${k}`)), 'v299', 'ab02'],
  ['nullable null', t.nullable(t.uint8()), null, '00'],
  ['nullable value', t.nullable(t.uint8()), 7, '0107'],
  ['optional field absent by undefined', t.object({ a: t.optional(t.uint8()) }), { a: undefined }, '00'],
  ['optional field present', t.object({ a: t.optional(t.uint8()) }), { a: 0 }, '0100'],
  ['optional nullable: key missing', t.object({ a: t.optional(t.nullable(t.uint8())) }), {}, '00'],
  ['optional nullable: undefined', t.object({ a: t.optional(t.nullable(t.uint8())) }), { a: undefined }, '00'],
  ['optional nullable: null', t.object({ a: t.optional(t.nullable(t.uint8())) }), { a: null }, '0100'],
  ['optional nullable: value', t.object({ a: t.optional(t.nullable(t.uint8())) }), { a: 3 }, '010103'],
];

for (const mode of MODES) {
  describe(`exact bytes (${mode.name} marshaller)`, () => {
    for (const [name, schema, value, hex] of EXACT) {
      test(`encodes ${name} as ${hex}`, () => {
        const codec = compileMode(schema, mode);
        assert.equal(toHex(codec.encode(value)), hex);
        assert.deepStrictEqual(codec.decode(fromHex(hex)), expectedDecoded(schema, value));
      });
    }

    test('encodes integers across each range exactly as docs/FORMAT.md says', () => {
      const reference = {
        uint8: (n) => [n],
        int8: (n) => [n & 255],
        uint16: (n) => varint(n),
        uint32: (n) => varint(n),
        int16: (n) => varint(zigzag(n)),
        int32: (n) => varint(zigzag(n)),
      };
      const samples = {
        uint8: [0, 255],
        int8: [-128, 127],
        uint16: [0, 65535],
        int16: [-32768, 32767],
        uint32: [0, 4294967295],
        int32: [-2147483648, 2147483647],
      };
      for (const [type, [lo, hi]] of Object.entries(samples)) {
        const codec = compileMode(t[type](), mode);
        const step = Math.max(1, Math.floor((hi - lo) / 5000));
        const values = [];
        for (let n = lo; n <= hi; n += step) values.push(n);
        values.push(hi, hi - 1, lo + 1, 127, 128, 16383, 16384, -64, -65, 63, 64);
        for (const n of values.filter((x) => x >= lo && x <= hi)) {
          const bytes = codec.encode(n);
          assert.equal(toHex(bytes), toHex(Uint8Array.from(reference[type](n))), `${type} ${n}`);
          assert.equal(codec.decode(bytes), n, `${type} ${n}`);
        }
      }
    });

    test('encodes a string over 64 KiB with its exact varint length', () => {
      const codec = compileMode(t.string(), mode);
      const s = 'é'.repeat(50_000);
      const out = codec.encode(s);
      assert.deepStrictEqual([...out.subarray(0, 3)], varint(100_000));
      assert.equal(out.length, 3 + 100_000);
      assert.equal(Buffer.from(out.subarray(3)).toString('utf8'), s);
    });

    test('decodes integer -0 as +0', () => {
      for (const type of ['uint8', 'uint16', 'uint32', 'int8', 'int16', 'int32']) {
        const codec = compileMode(t[type](), mode);
        assert.ok(Object.is(codec.decode(codec.encode(-0)), 0), type);
      }
    });

    test('keeps float64 -0, NaN and ±Infinity exactly', () => {
      const codec = compileMode(t.float64(), mode);
      for (const x of [-0, 0, NaN, Infinity, -Infinity]) {
        assert.ok(Object.is(codec.decode(codec.encode(x)), x), String(x));
      }
      const codec32 = compileMode(t.float32(), mode);
      for (const x of [-0, 0, NaN, Infinity, -Infinity]) {
        assert.ok(Object.is(codec32.decode(codec32.encode(x)), x), `float32 ${x}`);
      }
    });
  });
}

describe('bytes decode to a new Uint8Array', () => {
  for (const mode of MODES) {
    for (const size of [3, 60, 1000, 100_000]) {
      test(`does not alias the input (${size} bytes, ${mode.name} marshaller)`, () => {
        const schema = t.object({ n: t.uint8(), data: t.bytes(), tail: t.bytes() });
        const codec = compileMode(schema, mode);
        const data = new Uint8Array(size).map((_, k) => k & 255);
        const encoded = codec.encode({ n: 1, data, tail: new Uint8Array([7, 8]) });
        for (const [kind, input] of inputViews(encoded)) {
          const decoded = codec.decode(input);
          assert.equal(Object.getPrototypeOf(decoded.data), Uint8Array.prototype, kind);
          assert.notEqual(decoded.data.buffer, input.buffer, kind);
          assert.deepStrictEqual(decoded.data, data, kind);
          assert.deepStrictEqual(decoded.tail, new Uint8Array([7, 8]), kind);
          input.fill(0x33);
          assert.deepStrictEqual(decoded.data, data, `${kind}: decoded bytes unchanged after the input is overwritten`);
          assert.deepStrictEqual(decoded.tail, new Uint8Array([7, 8]), kind);
          decoded.data.fill(0x44);
          assert.ok(input.every((b) => b === 0x33), `${kind}: input unchanged after the decoded bytes are overwritten`);
        }
      });
    }

    test(`two decodes of the same input give distinct arrays (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.bytes(), mode);
      const input = codec.encode(new Uint8Array([1, 2, 3]));
      const a = codec.decode(input);
      const b = codec.decode(input);
      assert.notEqual(a, b);
      a[0] = 9;
      assert.deepStrictEqual(b, new Uint8Array([1, 2, 3]));
    });

    test(`encoding reads the bytes of a view, not its whole ArrayBuffer (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.array(t.bytes()), mode);
      const backingBytes = new Uint8Array(100).map((_, k) => k);
      const views = [backingBytes.subarray(10, 13), Buffer.from(backingBytes.buffer, 90, 2), backingBytes.subarray(50, 50)];
      assert.equal(toHex(codec.encode(views)), '03030a0b0c025a5b00');
    });
  }
});

describe('optional and nullable fields', () => {
  const schema = t.object({ a: t.uint8(), b: t.optional(t.string()), c: t.nullable(t.string()) });
  for (const mode of MODES) {
    test(`a missing key and undefined are both absent, and decode leaves the key out (${mode.name} marshaller)`, () => {
      const codec = compileMode(schema, mode);
      const missing = codec.encode({ a: 1, c: null });
      const undef = codec.encode({ a: 1, b: undefined, c: null });
      assert.equal(toHex(missing), '010000');
      assert.equal(toHex(undef), '010000');
      const decoded = codec.decode(missing);
      assert.deepStrictEqual(Object.keys(decoded), ['a', 'c']);
      assert.equal(Object.hasOwn(decoded, 'b'), false);
      assert.equal('b' in decoded, false);
    });

    test(`null round-trips as null and undefined is rejected for a nullable field (${mode.name} marshaller)`, () => {
      const codec = compileMode(schema, mode);
      const decoded = codec.decode(codec.encode({ a: 1, c: null }));
      assert.equal(decoded.c, null);
      assert.ok(Object.hasOwn(decoded, 'c'));
      assertShornError(() => codec.encode({ a: 1 }), { code: 'ERR_SHORN_INVALID', path: '$.c' });
      assertShornError(() => codec.encode({ a: 1, b: null, c: 'x' }), {
        code: 'ERR_SHORN_INVALID',
        path: '$.b',
        message: '$.b: expected string, found null',
      });
    });
  }
});

describe('object field order', () => {
  const schema = t.object({
    a: t.uint8(),
    b: t.optional(t.uint8()),
    c: t.uint8(),
    d: t.optional(t.uint8()),
    e: t.nullable(t.uint8()),
    f: t.optional(t.uint8()),
  });
  const cases = [
    [{ f: 6, e: 5, d: 4, c: 3, b: 2, a: 1 }, ['a', 'b', 'c', 'd', 'e', 'f'], '01010203010401050106'],
    [{ e: null, c: 3, a: 1 }, ['a', 'c', 'e'], '0100030000' + '00'],
    [{ d: 4, c: 3, a: 1, e: 5 }, ['a', 'c', 'd', 'e'], '010003010401' + '0500'],
    [{ f: 6, b: 2, c: 3, a: 1, e: null }, ['a', 'b', 'c', 'e', 'f'], '0101020300000106'],
  ];
  for (const mode of MODES) {
    test(`decoded keys are in schema order whichever optionals are present (${mode.name} marshaller)`, () => {
      const codec = compileMode(schema, mode);
      for (const [value, keys, hex] of cases) {
        const bytes = codec.encode(value);
        assert.equal(toHex(bytes), hex);
        const decoded = codec.decode(bytes);
        assert.deepStrictEqual(Object.keys(decoded), keys);
        assert.deepStrictEqual(decoded, expectedDecoded(schema, value));
      }
    });

    test(`fields are written in schema order, not the value's key order (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ z: t.uint8(), y: t.uint8(), x: t.uint8() }), mode);
      assert.equal(toHex(codec.encode({ x: 3, y: 2, z: 1 })), '010203');
      assert.deepStrictEqual(Object.keys(codec.decode(fromHex('010203'))), ['z', 'y', 'x']);
    });
  }
});

describe('field names that Object.prototype has', () => {
  const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
  const schema = t.object({
    ['__proto__']: t.uint8(), // computed, so it is a key and not the literal's prototype
    constructor: t.string(),
    toString: t.bool(),
    hasOwnProperty: t.array(t.uint8()),
    valueOf: t.nullable(t.float64()),
  });

  // One test per marshaller, each with a codec of `schema`.
  function testBoth(name, fn) {
    for (const mode of MODES) {
      test(`${name} (${mode.name} marshaller)`, () => fn(compileMode(schema, mode)));
    }
  }

  testBoth('round-trip as own data properties and never change the prototype', (codec) => {
    assert.deepStrictEqual(
      schema.fields.map((f) => f.name),
      NAMES,
      't.object keeps a computed __proto__ key as a field',
    );
    const value = {};
    defineOwn(value, '__proto__', 7);
    value.constructor = 'c';
    value.toString = true;
    value.hasOwnProperty = [1, 2];
    value.valueOf = 1.5;
    const bytes = codec.encode(value);
    assert.equal(toHex(bytes), '07' + '0163' + '01' + '020102' + '01000000000000f83f');
    const decoded = codec.decode(bytes);
    assert.equal(Object.getPrototypeOf(decoded), Object.prototype);
    assert.deepStrictEqual(Object.keys(decoded), NAMES);
    for (const name of NAMES) {
      const d = Object.getOwnPropertyDescriptor(decoded, name);
      assert.ok(d, `own ${name}`);
      assert.deepStrictEqual(
        { writable: d.writable, enumerable: d.enumerable, configurable: d.configurable, accessor: 'get' in d },
        { writable: true, enumerable: true, configurable: true, accessor: false },
        name,
      );
    }
    assert.equal(decoded.__proto__, 7); // eslint-disable-line no-proto
    assert.equal(decoded.toString, true);
    assert.deepStrictEqual(decoded, value);
  });

  testBoth('decodes JSON-made values with an own "__proto__" key', (codec) => {
    const value = JSON.parse('{"__proto__": 255, "constructor": "", "toString": false, "hasOwnProperty": [], "valueOf": null}');
    const decoded = codec.decode(codec.encode(value));
    assert.deepStrictEqual(decoded, value);
    assert.equal(Object.getPrototypeOf(decoded), Object.prototype);
  });

  testBoth('reads these names only as own properties, not inherited ones', (codec) => {
    // A plain {} inherits all five; each must be reported missing, in schema order.
    assertShornError(() => codec.encode({}), {
      code: 'ERR_SHORN_INVALID',
      path: '$.__proto__',
      message: '$.__proto__: expected uint8 (integer 0 to 255), found undefined',
    });
    const noConstructor = {};
    defineOwn(noConstructor, '__proto__', 1);
    assertShornError(() => codec.encode(noConstructor), {
      code: 'ERR_SHORN_INVALID',
      path: '$.constructor',
      message: '$.constructor: expected string, found undefined',
    });
    const inherits = Object.create({ toString: true });
    defineOwn(inherits, '__proto__', 1);
    inherits.constructor = 'c';
    assertShornError(() => codec.encode(inherits), {
      code: 'ERR_SHORN_INVALID',
      path: '$.toString',
      message: '$.toString: expected boolean, found undefined',
    });
  });

  for (const mode of MODES) {
    test(`a missing optional toString field is absent, not the inherited function (${mode.name} marshaller)`, () => {
      const opt = compileMode(t.object({ toString: t.optional(t.bool()), valueOf: t.optional(t.uint8()), n: t.uint8() }), mode);
      assert.equal(toHex(opt.encode({ n: 1 })), '000001');
      const decoded = opt.decode(fromHex('000001'));
      assert.deepStrictEqual(Object.keys(decoded), ['n']);
      assert.equal(Object.hasOwn(decoded, 'toString'), false);
      assert.equal(Object.hasOwn(decoded, 'valueOf'), false);
      assert.equal(decoded.toString, Object.prototype.toString);
      const present = opt.decode(fromHex('0100010701'));
      assert.deepStrictEqual(Object.keys(present), ['toString', 'valueOf', 'n']);
      assert.equal(present.toString, false);
    });

    test(`an optional __proto__ field after another optional is an own property (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ a: t.optional(t.uint8()), ['__proto__']: t.optional(t.object({ x: t.uint8() })) }), mode);
      const value = { a: 1 };
      defineOwn(value, '__proto__', { x: 2 });
      const bytes = codec.encode(value);
      assert.equal(toHex(bytes), '01010102');
      const decoded = codec.decode(bytes);
      assert.equal(Object.getPrototypeOf(decoded), Object.prototype);
      assert.deepStrictEqual(Object.keys(decoded), ['a', '__proto__']);
      assert.deepStrictEqual(Object.getOwnPropertyDescriptor(decoded, '__proto__').value, { x: 2 });
      assert.equal(decoded.x, undefined, 'the prototype was not set to the decoded field');
      const absent = codec.decode(fromHex('0000'));
      assert.deepStrictEqual(Object.keys(absent), []);
      assert.equal(Object.getPrototypeOf(absent), Object.prototype);
    });

    test(`an own __proto__ key that is not in the schema does not reach the result (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ a: t.uint8() }), mode);
      const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
      const decoded = codec.decode(codec.encode(value));
      assert.deepStrictEqual(Object.keys(decoded), ['a']);
      assert.equal(decoded.polluted, undefined);
      assert.equal({}.polluted, undefined);
    });
  }
});

describe('getters and other object kinds', () => {
  for (const mode of MODES) {
    test(`reads fields through getters, own and inherited (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ a: t.uint8(), b: t.string() }), mode);
      let reads = 0;
      const own = {
        get a() {
          reads++;
          return 5;
        },
        b: 'x',
      };
      assert.equal(toHex(codec.encode(own)), '05' + '0178');
      assert.equal(reads, 1);
      class Point {
        get a() {
          return 9;
        }
        get b() {
          return 'yz';
        }
      }
      assert.equal(toHex(codec.encode(new Point())), '09' + '02797a');
    });

    test(`reads fields of a Proxy, a class instance and a null-prototype object (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ a: t.uint8() }), mode);
      const proxy = new Proxy({}, { get: (_, key) => (key === 'a' ? 3 : undefined) });
      assert.equal(toHex(codec.encode(proxy)), '03');
      const bare = Object.create(null);
      bare.a = 4;
      assert.equal(toHex(codec.encode(bare)), '04');
      assert.equal(toHex(codec.encode(new (class { constructor() { this.a = 6; } })())), '06');
    });

    test(`an error thrown by a getter reaches the caller and the codec still works (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ a: t.uint8(), b: t.uint8() }), mode);
      const boom = new Error('getter failed');
      assert.throws(
        () =>
          codec.encode({
            a: 1,
            get b() {
              throw boom;
            },
          }),
        (e) => e === boom,
      );
      assert.equal(toHex(codec.encode({ a: 1, b: 2 })), '0102');
    });
  }
});

describe('field names in paths', () => {
  const NAMES = [
    ['a b', '$["a b"]'],
    ['1a', '$["1a"]'],
    ['', '$[""]'],
    ['é', '$["é"]'],
    ['a"b', '$["a\\"b"]'],
    ['a\\b', '$["a\\\\b"]'],
    ['line\nbreak', '$["line\\nbreak"]'],
    ['tab\t', '$["tab\\t"]'],
    ['\u0001', '$["\\u0001"]'],
    ['a-b', '$["a-b"]'],
    ['a.b', '$["a.b"]'],
    ['0', '$["0"]'],
    ['_ok$', '$._ok$'],
    ['$', '$.$'],
    ['A1', '$.A1'],
  ];
  for (const mode of MODES) {
    test(`encode errors quote non-identifier names as JSON strings (${mode.name} marshaller)`, () => {
      for (const [name, path] of NAMES) {
        const codec = compileMode(t.object({ [name]: t.string() }), mode);
        assertShornError(() => codec.encode({ [name]: 1 }), {
          code: 'ERR_SHORN_INVALID',
          path,
          message: `${path}: expected string, found number 1`,
        });
        const nested = compileMode(t.object({ outer: t.object({ [name]: t.array(t.uint8()) }) }), mode);
        assertShornError(() => nested.encode({ outer: { [name]: [1, -1] } }), {
          code: 'ERR_SHORN_INVALID',
          path: `$.outer${path.slice(1)}[1]`,
        });
      }
    });

    test(`decode errors name fields the same way (${mode.name} marshaller)`, () => {
      for (const [name, path] of NAMES) {
        const codec = compileMode(t.object({ [name]: t.bool() }), mode);
        assertShornError(() => codec.decode(fromHex('02')), { code: 'ERR_SHORN_MALFORMED', offset: 0, path });
      }
    });

    test(`non-identifier names round-trip, integer-like ones included (${mode.name} marshaller)`, () => {
      const schema = t.object({ 'a b': t.uint8(), 1: t.uint8(), '': t.uint8(), 'é': t.uint8() });
      const codec = compileMode(schema, mode);
      const value = { 'a b': 1, 1: 2, '': 3, 'é': 4 };
      const bytes = codec.encode(value);
      // t.object takes JS key order, where integer-like keys come first.
      assert.deepStrictEqual(schema.fields.map((f) => f.name), ['1', 'a b', '', 'é']);
      assert.equal(toHex(bytes), '02010304');
      assert.deepStrictEqual(codec.decode(bytes), value);
    });
  }
});

describe('both marshallers', () => {
  test('give identical bytes for every valid value of every row', () => {
    for (const row of ROWS) {
      const [a, b] = compileBoth(row.schema).map((x) => x.codec);
      for (const value of row.valid) {
        assert.equal(toHex(a.encode(value)), toHex(b.encode(value)), row.name);
      }
    }
  });

  test('give identical bytes for large nested values (concatenated-argument layout)', () => {
    const schema = t.array(t.object({ s: t.string(), b: t.bytes(), n: t.optional(t.nullable(t.string())) }));
    const value = Array.from({ length: 2000 }, (_, k) => ({
      s: `s${k}é`,
      b: new Uint8Array([k & 255, (k >> 8) & 255]),
      ...(k % 3 === 0 ? {} : { n: k % 3 === 1 ? null : `n${k}` }),
    }));
    const [a, b] = compileBoth(schema).map((x) => x.codec);
    const bytes = a.encode(value);
    assert.equal(toHex(b.encode(value)), toHex(bytes));
    assert.deepStrictEqual(b.decode(bytes), expectedDecoded(schema, value));
    assert.deepStrictEqual(a.decode(bytes), expectedDecoded(schema, value));
  });

  test('give identical bytes for a schema with more than 16 strings and byte arrays', () => {
    const fields = {};
    for (let k = 0; k < 12; k++) fields[`s${k}`] = t.string();
    for (let k = 0; k < 8; k++) fields[`b${k}`] = t.optional(t.bytes());
    const schema = t.object(fields);
    const value = {};
    for (let k = 0; k < 12; k++) value[`s${k}`] = 'x'.repeat(k);
    for (let k = 0; k < 8; k += 2) value[`b${k}`] = new Uint8Array(k).fill(k);
    const [a, b] = compileBoth(schema).map((x) => x.codec);
    const bytes = a.encode(value);
    assert.equal(toHex(b.encode(value)), toHex(bytes));
    assert.deepStrictEqual(a.decode(bytes), expectedDecoded(schema, value));
    assert.deepStrictEqual(b.decode(bytes), expectedDecoded(schema, value));
    const expected = [];
    for (let k = 0; k < 12; k++) expected.push(varint(k), new Uint8Array(k).fill(0x78));
    for (let k = 0; k < 8; k++) expected.push(k % 2 === 0 ? concatBytes([1], varint(k), new Uint8Array(k).fill(k)) : [0]);
    assert.equal(toHex(bytes), toHex(concatBytes(...expected)));
  });
});

describe('strings and byte arrays from every source', () => {
  for (const mode of MODES) {
    test(
      `strings of every length up to 1,100 in five scripts round-trip alone, in arrays and beside other strings (${mode.name} marshaller)`,
      () => {
        const one = compileMode(t.string(), mode);
        const many = compileMode(t.array(t.string()), mode);
        const three = compileMode(t.object({ a: t.string(), b: t.string(), c: t.string() }), mode);
        const failures = [];
        for (const unit of ['a', 'ÿ', 'é', '李', '🚀']) {
          for (let n = 0; n < 1100; n++) {
            const s = unit.repeat(n);
            if (one.decode(one.encode(s)) !== s) failures.push(`alone ${unit} x ${n}`);
            const list = ['x'.repeat(n % 70), s, unit.repeat(n % 300), s];
            if (JSON.stringify(many.decode(many.encode(list))) !== JSON.stringify(list)) failures.push(`array ${unit} x ${n}`);
            const o = { a: 'q'.repeat(n % 257), b: s, c: unit };
            if (JSON.stringify(three.decode(three.encode(o))) !== JSON.stringify(o)) failures.push(`object ${unit} x ${n}`);
          }
        }
        assert.deepStrictEqual(failures.slice(0, 10), []);
      },
    );

    test(`rope, sliced and multi-megabyte strings round-trip (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.string(), mode);
      let rope = '';
      for (let k = 0; k < 1000; k++) rope += `é${k}`;
      const sliced = `${'ab'.repeat(5000)}🚀`.slice(3);
      for (const s of [rope, sliced, rope + sliced, 'x'.repeat(2_000_000), '🚀'.repeat(400_000)]) {
        const bytes = codec.encode(s);
        assert.equal(bytes.length, varint(Buffer.byteLength(s)).length + Buffer.byteLength(s));
        assert.equal(codec.decode(bytes), s);
      }
      assert.equal(codec.decode(codec.encode('small after large')), 'small after large');
    });

    test(`inputs and byte arrays backed by a SharedArrayBuffer work (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ s: t.string(), b: t.bytes() }), mode);
      const shared = new Uint8Array(new SharedArrayBuffer(3));
      shared.set([7, 8, 9]);
      assert.equal(toHex(codec.encode({ s: 'a', b: shared })), '016103070809');
      for (const value of [{ s: 'hi', b: new Uint8Array([1, 2]) }, { s: 'x'.repeat(100), b: new Uint8Array(50).fill(3) }]) {
        const bytes = codec.encode(value);
        const view = new Uint8Array(new SharedArrayBuffer(bytes.length + 7), 7, bytes.length);
        view.set(bytes);
        const decoded = codec.decode(view);
        assert.deepStrictEqual(decoded, value);
        assert.ok(!(decoded.b.buffer instanceof SharedArrayBuffer), 'decoded bytes are a copy in a plain ArrayBuffer');
      }
    });
  }
});
