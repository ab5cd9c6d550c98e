'use strict';
// Every type, table-driven: values that must round-trip and values that encode must reject
// with ERR_SHORN_INVALID and the exact path (and message where given). Then the object
// rules of docs/FORMAT.md ("Values"): optional, nullable, strict, getters, field names
// that Object.prototype has, key order, and paths for field names that are not identifiers.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
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
  runIsolated,
} = require('./helpers');

const { t } = shorn;

const { ROWS } = require('./type-table');


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

    test(`messages just under and over the size where text splits decode right (${mode.name} marshaller)`, () => {
      // From SPLIT_TEXT_MIN_INPUT (4096) input bytes, Latin-1 and wide strings come in two
      // texts, and a generated decode reads negative slots; below it, one text and a plain
      // body (lib/codegen.js, plainTake). Each size here is hit exactly.
      const codec = compileMode(t.object({ n: t.uint32(), tags: t.array(t.string()), last: t.string() }), mode);
      for (let size = 4088; size <= 4104; size++) {
        for (const [first, unit] of [['', '李'], ['ab', '李'], ['é', '🚀'], ['xy', 'é']]) {
          // `last` is wide too (one wide char, then ASCII to make up the size): with an
          // empty `first`, the message has no Latin-1 string at all.
          const value = { n: 1, tags: [first, unit.repeat(600)], last: unit };
          while (codec.encode(value).length < size) value.last += 'z';
          const bytes = codec.encode(value);
          assert.equal(bytes.length, size);
          assert.deepStrictEqual(codec.decode(bytes), value, `${size} bytes, ${JSON.stringify(first)} and ${unit}`);
        }
      }
    });

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

describe('default fields', () => {
  for (const mode of MODES) {
    test(`a missing or undefined field encodes its default, and decodes present (${mode.name} marshaller)`, () => {
      const codec = compileMode(
        t.object({ id: t.uint8(), name: t.default(t.string(), 'anon'), tags: t.default(t.array(t.string()), ['a']), at: t.default(t.date(), new Date(7)) }),
        mode,
      );
      const full = { id: 1, name: 'anon', tags: ['a'], at: new Date(7) };
      for (const value of [{ id: 1 }, { id: 1, name: undefined, tags: undefined, at: undefined }, full]) {
        const bytes = codec.encode(value);
        assert.equal(toHex(bytes), toHex(codec.encode(full)));
        assert.deepStrictEqual(codec.decode(bytes), full);
      }
      // Each decode gives values of its own.
      const a = codec.decode(codec.encode({ id: 1 }));
      a.tags.push('b');
      assert.deepStrictEqual(codec.decode(codec.encode({ id: 1 })).tags, ['a']);
    });
  }

  test('a default must fit its type and stand where a field can be missing', () => {
    assertShornError(() => shorn.compile(t.object({ a: t.default(t.uint8(), 300) })), {
      code: 'ERR_SHORN_SCHEMA',
      path: '$.a',
      message: 'invalid schema at $.a: the default does not fit its type (expected uint8 (integer 0 to 255), found number 300)',
    });
    assertShornError(() => shorn.compile(t.array(t.default(t.uint8(), 3))), { code: 'ERR_SHORN_SCHEMA', message: 'invalid schema at $[]: default is only allowed on an object field' });
    assertShornError(() => shorn.compile(t.default(t.uint8(), 3)), { code: 'ERR_SHORN_SCHEMA', message: 'invalid schema at $: default is only allowed on an object field' });
    assertShornError(() => t.default(t.uint8()), { code: 'ERR_SHORN_SCHEMA' });
  });

  test('the descriptor holds the default in its JSON form, and survives JSON', () => {
    const d = t.object({ n: t.default(t.int64(), 2n ** 60n), at: t.default(t.date(), new Date(0)), f: t.default(t.float64(), -0), b: t.default(t.bytes(), new Uint8Array([1, 2])) });
    assert.deepStrictEqual(
      d.fields.map((f) => f.schema.value),
      ['1152921504606846976', '1970-01-01T00:00:00.000Z', '-0', 'AQI='],
    );
    const codec = shorn.compile(JSON.parse(JSON.stringify(d)));
    const back = codec.decode(codec.encode({}));
    assert.deepStrictEqual(back, { n: 2n ** 60n, at: new Date(0), f: -0, b: new Uint8Array([1, 2]) });
  });
});

describe('large schemas (generated as a function per object shape)', () => {
  // 3 x 40 + ... descriptors: over the size where generated code is split.
  const Item = t.object(Object.fromEntries(Array.from({ length: 40 }, (_, k) => [`f${k}`, k % 2 ? t.string() : t.uint16()])));
  const Big = t.object({ a: Item, list: t.array(Item), more: t.object({ deep: t.array(t.nullable(Item)), again: Item }) });
  const item = (n) => Object.fromEntries(Array.from({ length: 40 }, (_, k) => [`f${k}`, k % 2 ? `s${n}${k}` : (n * 7 + k) & 65535]));
  const value = { a: item(1), list: [item(2), item(3)], more: { deep: [null, item(4)], again: item(5) } };

  test('the generated code is split, and gives the bytes of the generic marshaller', () => {
    const { analyze } = require('../lib/walk');
    assert.equal(analyze(JSON.parse(JSON.stringify(Big))).split, true);
    const [gen, generic] = MODES.map((mode) => compileMode(Big, mode));
    const bytes = gen.encode(value);
    assert.equal(toHex(bytes), toHex(generic.encode(value)));
    assert.deepStrictEqual(gen.decode(bytes), value);
    assert.deepStrictEqual(generic.decode(bytes), value);
  });

  for (const mode of MODES) {
    test(`errors inside a helper carry the whole path (${mode.name} marshaller)`, () => {
      const codec = compileMode(Big, mode);
      const bad = structuredClone(value);
      bad.more.deep[1].f7 = 5;
      assertShornError(() => codec.encode(bad), { code: 'ERR_SHORN_INVALID', path: '$.more.deep[1].f7', message: '$.more.deep[1].f7: expected string, found number 5' });
      const bad2 = structuredClone(value);
      bad2.list[1].f4 = -1;
      assertShornError(() => codec.encode(bad2), { code: 'ERR_SHORN_INVALID', path: '$.list[1].f4' });
    });

    test(`an error a getter throws passes through a helper unchanged (${mode.name} marshaller)`, () => {
      const codec = compileMode(Big, mode);
      const other = compileMode(t.object({ x: t.uint8() }), mode);
      const mine = new Error('mine');
      const v1 = structuredClone(value);
      Object.defineProperty(v1.list[0], 'f3', { get: () => { throw mine; } });
      assert.throws(() => codec.encode(v1), (e) => e === mine);
      const v2 = structuredClone(value);
      Object.defineProperty(v2.more.again, 'f5', { get: () => other.encode({ x: 300 }) });
      assertShornError(() => codec.encode(v2), { code: 'ERR_SHORN_INVALID', path: '$.x' });
    });
  }
});

describe('tuples decode to packed arrays', () => {
  // lib/types/tuple.js builds tuples of two items or more with `Array(a, b, ...)`, a call
  // (no allocation site for V8 to pretenure or to deoptimize on); the arrays must still be
  // packed, as the literal `[a, b]` and JSON.parse make them, in both marshallers and on
  // the JS back end (lib/closures.js, which constructs the global Array), small and large.
  test('generated decode calls Array for them, and constructs none', () => {
    // `new Array(a, b)` records construct feedback with an allocation site, as a literal
    // does: canada decode fell to ~150 ops/s in some processes with it (docs/DESIGN.md).
    for (const n of [2, 3, 5]) {
      const codec = shorn.compile(t.array(t.tuple(Array.from({ length: n }, () => t.float64()))));
      const source = codec.decode.toString();
      assert.match(source, new RegExp(`= NewArray\\(${Array.from({ length: n }, () => 'v\\d+').join(', ')}\\);`));
      assert.doesNotMatch(source, /new NewArray\(\w+, /);
      assert.deepEqual(codec.decode(codec.encode([[...Array(n).keys()]])), [[...Array(n).keys()]]);
    }
  });
  test("the JS back end's generated closures construct the global Array for them", () => {
    // lib/closures.js, tupleReader: a literal's site pretenured left canada decode at
    // ~300 ops/s in half the benchmark processes, against ~1,600; Chromium 156 does not
    // inline a call of Array through a binding (`NewArray(a, b)`: canada decode ~220 ops/s
    // there, against ~1,350 with `new Array(a, b)`), nor Node 24 a `new` of one
    // (docs/DESIGN.md, "Tuples in Chromium").
    const sources = [];
    const Real = globalThis.Function;
    globalThis.Function = function Recording(...args) {
      sources.push(String(args[args.length - 1]));
      return Real(...args);
    };
    let codecs;
    try {
      codecs = [1, 2, 3].map((n) => shorn.compile(t.array(t.tuple(Array.from({ length: n }, () => t.float64()))), { backend: 'js', codegen: true }));
    } finally {
      globalThis.Function = Real;
    }
    const readers = sources.filter((source) => source.includes('function readTuple'));
    assert.equal(readers.length, 3);
    assert.match(readers[0], /return \[t0\(r\)\];/);
    assert.match(readers[1], /return new Array\(t0\(r\), t1\(r\)\);/);
    assert.match(readers[2], /return new Array\(t0\(r\), t1\(r\), t2\(r\)\);/);
    codecs.forEach((codec, k) => {
      const value = [Array.from({ length: k + 1 }, (_, j) => j + 0.5)];
      assert.deepEqual(codec.decode(codec.encode(value)), value);
    });
  });
  test('the JS back end builds them in the engine\'s form, generated and not: a literal in SpiderMonkey, else new Array', () => {
    // lib/closures.js, LITERAL_TUPLES: Firefox's canada decode 400 -> 800 ops/s with the
    // literal; without code generation a loop of `push` took Chromium's from 1,250 to 250
    // (docs/DESIGN.md, "Tuples in Firefox").
    const script = (spiderMonkey) => `'use strict';
${spiderMonkey ? 'globalThis.InternalError = class InternalError extends Error {};' : ''}
const sources = [];
const Real = globalThis.Function;
globalThis.Function = function Recording(...args) {
  sources.push(String(args[args.length - 1]));
  return Real(...args);
};
const shorn = require(${JSON.stringify(path.join(__dirname, '..'))});
const closures = require(${JSON.stringify(path.join(__dirname, '..', 'lib', 'closures.js'))});
const { t } = shorn;
const values = [];
for (const codegen of [true, false]) {
  for (const n of [1, 2, 3, 4, 5]) {
    const codec = shorn.compile(t.array(t.tuple(Array.from({ length: n }, () => t.float64()))), { backend: 'js', codegen });
    const value = [Array.from({ length: n }, (_, j) => j + 0.5), Array.from({ length: n }, (_, j) => -j)];
    const back = codec.decode(codec.encode(value));
    values.push(JSON.stringify(back) === JSON.stringify(value) && back.every((a) => Array.isArray(a) && Object.keys(a).length === n));
  }
}
globalThis.Function = Real;
const f = () => 1;
process.stdout.write(JSON.stringify({
  values,
  generated: sources.filter((s) => s.includes('function readTuple')).map((s) => /return (.*);/.exec(s.slice(s.indexOf('function readTuple')))[1]),
  closures: [2, 3].map((n) => String(closures.tupleClosure(Array(n).fill(f)))),
}));
`;
    for (const spiderMonkey of [false, true]) {
      const child = spawnSync(process.execPath, ['-e', script(spiderMonkey)], { encoding: 'utf8' });
      assert.equal(child.status, 0, child.stderr);
      const out = JSON.parse(child.stdout);
      assert.deepEqual(out.values, Array(10).fill(true));
      assert.deepEqual(
        out.generated,
        spiderMonkey ? ['[t0(r)]', '[t0(r), t1(r)]', '[t0(r), t1(r), t2(r)]', '[t0(r), t1(r), t2(r), t3(r)]', '[t0(r), t1(r), t2(r), t3(r), t4(r)]'] : ['[t0(r)]', 'new Array(t0(r), t1(r))', 'new Array(t0(r), t1(r), t2(r))', 'new Array(t0(r), t1(r), t2(r), t3(r))', 'new Array(t0(r), t1(r), t2(r), t3(r), t4(r))'],
      );
      assert.match(out.closures[0], spiderMonkey ? /^\(r\) => \[t0\(r\), t1\(r\)\]$/ : /^\(r\) => new Array\(t0\(r\), t1\(r\)\)$/);
      assert.match(out.closures[1], spiderMonkey ? /^\(r\) => \[t0\(r\), t1\(r\), t2\(r\)\]$/ : /^\(r\) => new Array\(t0\(r\), t1\(r\), t2\(r\)\)$/);
    }
  });
  test('of every length, in small and large messages', () => {
    const result = runIsolated(
      `
      const out = [];
      for (const n of [1, 2, 3, 5]) {
        const floats = t.tuple(Array.from({ length: n }, () => t.float64()));
        const mixed = t.tuple(Array.from({ length: n }, (_, k) => (k % 2 ? t.string() : t.uint8())));
        for (const [item, v] of [[floats, (k) => Array.from({ length: n }, (_, j) => k + j / 2)], [mixed, (k) => Array.from({ length: n }, (_, j) => (j % 2 ? 's' + k : j))]]) {
          for (const mode of ['generated', 'generic', 'js', 'js closures']) {
            const options = { generated: {}, generic: { codegen: false }, js: { backend: 'js' }, 'js closures': { backend: 'js', codegen: false } }[mode];
            const codec = compile(t.array(item), options);
            for (const count of [1, 3000]) {
              const value = Array.from({ length: count }, (_, k) => v(k));
              const back = codec.decode(codec.encode(value));
              out.push([n, mode, count, JSON.stringify(back) === JSON.stringify(value), back.every((a) => !%HasHoleyElements(a))]);
            }
          }
        }
      }
      return out;
    `,
      ['--allow-natives-syntax'],
    );
    assert.equal(result.length, 64);
    for (const row of result) assert.deepEqual(row.slice(3), [true, true], String(row));
  });
});

// A decoded typed array of up to 64 bytes is filled element by element through a DataView
// (lib/base.js, copyTyped), a longer one by a copy of its bytes: every class, every
// length across that edge, from inputs at every alignment, in an object of a batch and
// alone, give the elements written, little-endian.
describe('typed arrays on both sides of 64 bytes decode to their elements', () => {
  // Every typed-array type the library has, with its class (from its lowering).
  const CLASSES = require('../lib/types/typed-array').map((type) => [type.name, type.lower().Class]);
  for (const mode of MODES) {
    test(mode.name, () => {
      for (const [name, Class] of CLASSES) {
        const size = Class.BYTES_PER_ELEMENT;
        const alone = compileMode(t[name](), mode);
        const batch = compileMode(t.array(t.object({ id: t.uint8(), v: t[name]() })), mode);
        for (let n = 0; n * size <= 80; n++) {
          // Elements from their little-endian bytes, so the test does not lean on the
          // machine's byte order: k * 37 + 11 for each byte.
          const bytes = Uint8Array.from({ length: n * size }, (_, k) => (k * 37 + 11 + n) & 255);
          const dv = new DataView(bytes.buffer);
          const expected = new Class(n);
          for (let k = 0; k < n; k++) {
            const at = k * size;
            expected[k] =
              Class === Float64Array ? dv.getFloat64(at, true)
              : Class === Float32Array ? dv.getFloat32(at, true)
              : Class === Int32Array ? dv.getInt32(at, true)
              : Class === Uint32Array ? dv.getUint32(at, true)
              : Class === Int16Array ? dv.getInt16(at, true)
              : Class === Uint16Array ? dv.getUint16(at, true)
              : dv.getInt8(at);
          }
          const message = concatBytes(Uint8Array.from(varint(n)), bytes);
          for (let shift = 0; shift < 8; shift++) {
            const wide = new Uint8Array(message.length + shift);
            wide.set(message, shift);
            const got = alone.decode(wide.subarray(shift));
            assert.equal(Object.getPrototypeOf(got), Class.prototype, `${name} of ${n} at +${shift}`);
            assert.equal(got.byteOffset, 0, `${name} of ${n}: aligned, a buffer of its own`);
            assert.equal(got.buffer.byteLength, n * size, `${name} of ${n}: a buffer of its own`);
            assert.deepStrictEqual(got, expected, `${name} of ${n} at +${shift}`);
          }
          // Signalling NaNs keep every bit (a float read as a number would quiet them).
          if ((Class === Float64Array || Class === Float32Array) && n > 0) {
            const nan = Uint8Array.from(bytes);
            for (let k = 0; k < n; k++) {
              if (Class === Float64Array) new DataView(nan.buffer).setBigUint64(k * 8, 0x7ff0000000000001n + BigInt(k), true);
              else new DataView(nan.buffer).setUint32(k * 4, k % 2 ? 0xffbbff79 : 0x7f800001 + k, true);
            }
            const framed = concatBytes(Uint8Array.from(varint(n)), nan);
            for (let shift = 0; shift < 8; shift += 3) {
              const wide = new Uint8Array(framed.length + shift);
              wide.set(framed, shift);
              const got = alone.decode(wide.subarray(shift));
              assert.equal(toHex(new Uint8Array(got.buffer, got.byteOffset, got.byteLength)), toHex(nan), `${name} of ${n} NaNs at +${shift}`);
              assert.equal(toHex(alone.encode(got)), toHex(framed), `${name} of ${n} NaNs re-encoded`);
            }
          }
          const items = [0, 1, 2].map((id) => ({ id, v: expected }));
          const decoded = batch.decode(batch.encode(items));
          assert.deepStrictEqual(decoded, items, `${name} of ${n} in a batch`);
          assert.notEqual(decoded[0].v, decoded[1].v, 'each item its own array');
          assert.equal(toHex(alone.encode(expected)), toHex(message), `${name} of ${n}: the bytes`);
        }
      }
    });
  }
});

// A variant or a record value with no steps of its own (a literal, null) as the last steps of
// a program: the native encode looked at the step after it, past the end (fuzz, 2026-12-04,
// when unions and records of one union ran without a block).
test('unions and records whose values have no steps of their own encode on every path', () => {
  const { compile } = shorn;
  const cases = [
    [t.union([t.string(), t.literal('x')]), 'x'],
    [t.union([t.uint8(), t.null()]), null],
    [t.record(t.literal('x')), Object.fromEntries(Array.from({ length: 300 }, (_, k) => [`k${k}`, 'x']))],
    [t.record(t.union([t.uint8(), t.literal('x')])), Object.fromEntries(Array.from({ length: 300 }, (_, k) => [`k${k}`, k % 2 ? 'x' : k % 200]))],
    [t.array(t.union([t.uint8(), t.null()])), Array.from({ length: 300 }, (_, k) => (k % 3 ? null : k % 200))],
    [t.object({ r: t.record(t.union([t.array(t.string()), t.null()])) }), { r: { a: ['s'], b: null, c: [] } }],
  ];
  for (const [schema, value] of cases) {
    const want = compile(schema, { backend: 'js' }).encode(value);
    for (const codegen of [true, false]) {
      const codec = compile(schema, { codegen });
      const bytes = codec.encode(value);
      assert.deepStrictEqual(Buffer.from(bytes), Buffer.from(want));
      assert.deepStrictEqual(codec.decode(bytes), value);
    }
  }
});
