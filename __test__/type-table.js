'use strict';
// The table of every type: values that must round-trip, and values that encode must
// reject with ERR_SHORN_INVALID and the exact path (and message where given). Run by
// __test__/types.test.js; __test__/coverage.test.js checks every type the compiler
// accepts has a row here.

const { shorn } = require('./helpers');

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
      {
        value: 'v300',
        path: '$',
        message: '$: expected one of "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", ... (300 values), found string "v300"',
      },
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
    name: 'default fields',
    schema: t.object({ id: t.uint8(), name: t.default(t.string(), 'anon'), big: t.default(t.int64(), 2n ** 60n), at: t.default(t.date(), new Date(0)) }),
    // Values with every field: a missing one decodes to its default (see the tests below).
    valid: [{ id: 1, name: 'x', big: 1n, at: new Date(5) }],
    invalid: [
      { value: { id: 1, name: 3 }, path: '$.name', message: '$.name: expected string, found number 3' },
      { value: { id: 1, name: null }, path: '$.name' },
      { value: { id: 1, big: 1 }, path: '$.big' },
    ],
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
      // A path rendered on error from the indexes and keys it went through.
      { value: { ok: [1], 'a b': [0, { '@x': [null, NaN] }] }, path: '$["a b"][1]["@x"][1]' },
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

module.exports = { ROWS, NOT_INTEGERS };
