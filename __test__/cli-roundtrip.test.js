'use strict';
// The command line gives the same JSON back (issue 42, item 5): `shorn encode | shorn decode`
// on the six corpora gives back data equal to the input, numbers as numbers, with 64-bit
// integers compared exactly; int64 and uint64 at their boundaries, written as integer
// literals (or with --int64-as-string as strings); key order; and the hints that name
// --stream and --each where the input is a stream of frames, NDJSON or an array of values.
//
// The JSON the command writes is read here with a parser of this file's own (not
// lib/cli/json.js, whose reading is under test too), which keeps every number's literal:
// an integer-valued number is compared as a bigint, exactly, any other as a double.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { shorn, ROOT, cliRunner } = require('./helpers');
const { CORPORA } = require('../benchmark/corpora');

const { t } = shorn;
const DATA = path.join(ROOT, 'benchmark', 'data');

let dir;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-cli-roundtrip-'));
});
after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});
// `shorn ...args` in `dir` (helpers.js, cliRunner).
const { shornCli, ok, file } = cliRunner(() => dir);

function sameBytes(actual, expected, message) {
  assert.ok(Buffer.from(actual).equals(Buffer.from(expected)), message ?? `${Buffer.from(actual).toString('hex')} != ${Buffer.from(expected).toString('hex')}`);
}

// ---- an exact JSON reader -----------------------------------------------------------------

const WS = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/**
 * The number a JSON literal stands for, exactly: an integer (an integer literal, or any
 * literal whose double is an integer other than -0) as a bigint, any other as its double.
 * So 18446744073709551615 is 18446744073709551615n, never 18446744073709551616, and the
 * string "18446744073709551615" stays a string: a number written as a string, or rounded,
 * does not compare equal.
 */
function exactNumber(literal, fraction, exponent) {
  if (fraction === undefined && exponent === undefined) return literal === '-0' ? -0 : BigInt(literal);
  const n = Number(literal);
  return Number.isInteger(n) && !Object.is(n, -0) ? BigInt(n) : n;
}

/** JSON text to values, numbers as exactNumber gives them. Throws on what is not JSON. */
function parseExact(text) {
  let i = 0;
  const space = () => {
    WS.lastIndex = i;
    WS.exec(text);
    i = WS.lastIndex;
  };
  const fail = (what) => new SyntaxError(`${what} at offset ${i}: ${JSON.stringify(text.slice(i, i + 20))}`);
  const expect = (c) => {
    space();
    if (text[i] !== c) throw fail(`expected ${c}`);
    i++;
  };
  const string = () => {
    STRING.lastIndex = i;
    const m = STRING.exec(text);
    if (m === null) throw fail('bad string');
    i = STRING.lastIndex;
    return JSON.parse(m[0]);
  };
  const value = () => {
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      const o = {};
      space();
      if (text[i] === '}') {
        i++;
        return o;
      }
      for (;;) {
        space();
        const k = string();
        expect(':');
        Object.defineProperty(o, k, { value: value(), writable: true, enumerable: true, configurable: true });
        space();
        if (text[i] === ',') i++;
        else {
          expect('}');
          return o;
        }
      }
    }
    if (c === '[') {
      i++;
      const a = [];
      space();
      if (text[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        space();
        if (text[i] === ',') i++;
        else {
          expect(']');
          return a;
        }
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) throw fail('not a JSON value');
    i = NUMBER.lastIndex;
    return exactNumber(m[0], m[1], m[2]);
  };
  const v = value();
  space();
  if (i !== text.length) throw fail('data after the value');
  return v;
}

test('the exact reader: integers as bigints, exactly; strings of digits stay strings', () => {
  assert.deepStrictEqual(parseExact('{"a": 18446744073709551615, "b": "18446744073709551615", "c": [1.5, 2e3, -0, 1.0]}'), {
    a: 18446744073709551615n,
    b: '18446744073709551615',
    c: [1.5, 2000n, -0, 1n],
  });
  assert.notDeepStrictEqual(parseExact('9007199254740993'), parseExact('9007199254740992'));
  assert.deepStrictEqual(parseExact(JSON.stringify({ s: 'a"\\\u2028\u00e9\ud83d\ude00' })), { s: 'a"\\\u2028\u00e9\ud83d\ude00' });
  assert.throws(() => parseExact('{"a":1} x'), SyntaxError);
});

// ---- int64 and uint64 ---------------------------------------------------------------------

describe('int64 and uint64: JSON integer literals of any size, read and written exactly', () => {
  const Pair = t.object({ i: t.int64(), u: t.uint64() });
  const codec = shorn.compile(Pair);
  const schema = () => file('pair.schema.json', JSON.stringify(Pair));
  // [int64 literal, uint64 literal]: 0, 2^53 - 1, 2^53, 2^53 + 1 (each side), -2^63, 2^63 - 1,
  // 2^63, 2^64 - 1, and -0, which is the integer 0.
  const rows = [
    ['0', '0'],
    ['9007199254740991', '9007199254740991'],
    ['9007199254740992', '9007199254740992'],
    ['9007199254740993', '9007199254740993'],
    ['-9007199254740991', '1'],
    ['-9007199254740992', '2'],
    ['-9007199254740993', '3'],
    ['-9223372036854775808', '9223372036854775808'],
    ['9223372036854775807', '18446744073709551615'],
    ['-9223372036854775807', '18446744073709551614'],
    ['-0', '0'],
  ];
  const values = rows.map(([i, u]) => ({ i: BigInt(i), u: BigInt(u) }));
  const canonical = (literal) => (literal === '-0' ? '0' : literal);
  const ndjson = rows.map(([i, u]) => `{"i":${i},"u":${u}}`).join('\n');
  const written = rows.map(([i, u]) => `{"i":${canonical(i)},"u":${u}}\n`).join('');

  test('encode reads each literal exactly and decode writes it back as the same literal, not a string and not a double', () => {
    const s = schema();
    for (const [k, [i, u]] of rows.entries()) {
      const bytes = ok(['encode', '--schema', s], { input: `{"i": ${i}, "u": ${u}}` }).stdout;
      sameBytes(bytes, codec.encode(values[k]), `${i}, ${u}`);
      const back = ok(['decode', '--schema', s], { input: bytes }).out;
      assert.equal(back, `{"i":${canonical(i)},"u":${u}}\n`);
      assert.deepStrictEqual(parseExact(back), { i: BigInt(i), u: BigInt(u) });
    }
    // --pretty indents, and still writes literals.
    const bytes = codec.encode(values[8]);
    assert.equal(ok(['decode', '--pretty', '--schema', s], { input: bytes }).out, '{\n  "i": 9223372036854775807,\n  "u": 18446744073709551615\n}\n');
  });

  test('--stream: the same, a line a frame', () => {
    const s = schema();
    const frames = ok(['encode', '--stream', '--schema', s], { input: ndjson }).stdout;
    sameBytes(frames, codec.encodeFrames(values));
    assert.equal(ok(['decode', '--stream', '--schema', s], { input: frames }).out, written);
    const checked = ok(['encode', '--stream', '--checksum', '--schema', s], { input: ndjson }).stdout;
    assert.equal(ok(['decode', '--stream', '--checksum', '--schema', s], { input: checked }).out, written);
  });

  test('--int64-as-string writes every int64 and uint64 as a string of digits, and encode reads those back to the same bytes', () => {
    const s = schema();
    const frames = codec.encodeFrames(values);
    const strings = rows.map(([i, u]) => `{"i":"${canonical(i)}","u":"${u}"}\n`).join('');
    const out = ok(['decode', '--stream', '--int64-as-string', '--schema', s], { input: frames }).out;
    assert.equal(out, strings);
    sameBytes(ok(['encode', '--stream', '--schema', s], { input: out }).stdout, frames);
    assert.equal(ok(['decode', '--int64-as-string', '--schema', s], { input: codec.encode(values[0]) }).out, '{"i":"0","u":"0"}\n');
    // It is a decode option: encode reads both forms anyway.
    assert.equal(shornCli(['encode', '--int64-as-string', '--schema', s], { input: '{}' }).status, 2);
  });

  test('a literal with a fraction or an exponent whose value is an integer is read exactly too; one that is no integer is refused', () => {
    const s = schema();
    const exact = { '9.223372036854775807e18': 9223372036854775807n, '-9.223372036854775808E+18': -9223372036854775808n, '12345678901234567890.000': 12345678901234567890n, '1e19': 10000000000000000000n };
    for (const [literal, value] of Object.entries(exact)) {
      const field = value < 0n ? 'i' : 'u';
      const other = field === 'i' ? 'u' : 'i';
      const bytes = ok(['encode', '--schema', s, '--hex'], { input: `{"${field}": ${literal}, "${other}": ${field === 'i' ? '1.8446744073709551615e19' : '0'}}` }).out;
      assert.equal(bytes, `${Buffer.from(codec.encode({ [field]: value, [other]: field === 'i' ? 18446744073709551615n : 0n })).toString('hex')}\n`, literal);
    }
    // 1.00000000000000000001e19 is no integer: refused, not rounded to one.
    const r = shornCli(['encode', '--schema', s, '--hex'], { input: '{"i": 0, "u": 1.00000000000000000001e19}' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /\$\.u: expected uint64 .*found number 10000000000000000000/);
    // A float64 beside them gets the double JSON.parse gives.
    const F = t.object({ u: t.uint64(), f: t.float64() });
    const bytes = ok(['encode', '--schema', JSON.stringify(F)], { input: '{"u": 1e19, "f": 1.8446744073709551615e19}' }).stdout;
    assert.deepStrictEqual(shorn.decode(F, bytes), { u: 10000000000000000000n, f: 18446744073709551615 });
  });

  test('a literal out of range is refused with its path and its exact value', () => {
    const s = schema();
    let r = shornCli(['encode', '--schema', s, '--hex'], { input: '{"i": 0, "u": 18446744073709551616}' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /\$\.u: expected uint64 \(bigint 0 to 18446744073709551615\), found bigint 18446744073709551616/);
    r = shornCli(['encode', '--schema', s, '--hex'], { input: '{"i": -9223372036854775809, "u": 0}' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /\$\.i: expected int64 .*found bigint -9223372036854775809/);
  });

  test('in every place a type can be: arrays, records, tuples, maps, unions, optional and nullable fields, typed neighbours', () => {
    const Nested = t.object({
      list: t.array(t.uint64()),
      byName: t.record(t.int64()),
      pair: t.tuple([t.int64(), t.string()]),
      map: t.map(t.uint64(), t.int64()),
      either: t.union([t.string(), t.int64()]),
      maybe: t.optional(t.nullable(t.uint64())),
      none: t.nullable(t.int64()),
      f: t.float64(),
      n: t.uint32(),
      any: t.json(),
    });
    const s = file('nested.schema.json', JSON.stringify(Nested));
    const text =
      '{"list":[18446744073709551615,1,9007199254740993],"byName":{"a":-9223372036854775808,"b":5},' +
      '"pair":[9223372036854775807,"x"],"map":[[18446744073709551615,-9007199254740993]],"either":-9007199254740993,' +
      '"maybe":12345678901234567890,"none":null,"f":1.5,"n":4294967295,"any":{"k":[1,"two"]}}';
    const bytes = ok(['encode', '--schema', s], { input: text }).stdout;
    const value = shorn.decode(Nested, bytes);
    assert.deepStrictEqual(value.list, [18446744073709551615n, 1n, 9007199254740993n]);
    assert.deepStrictEqual([...value.map], [[18446744073709551615n, -9007199254740993n]]);
    assert.equal(value.either, -9007199254740993n);
    assert.equal(ok(['decode', '--schema', s], { input: bytes }).out, `${text}\n`);
  });

  test('inspect shows them as decode writes them, in its dump and with --json; --int64-as-string as strings', () => {
    const s = schema();
    const bytes = codec.encode(values[8]);
    const dump = ok(['inspect', '--schema', s], { input: bytes }).out;
    assert.match(dump, /\$\.i = 9223372036854775807\n/);
    assert.match(dump, /\$\.u = 18446744073709551615\n/);
    const json = ok(['inspect', '--json', '--schema', s], { input: bytes }).out;
    assert.deepStrictEqual(parseExact(json).rows.map((row) => row.value), [9223372036854775807n, 18446744073709551615n]);
    assert.match(ok(['inspect', '--int64-as-string', '--schema', s], { input: bytes }).out, /\$\.u = "18446744073709551615"\n/);
    const frames = ok(['inspect', '--stream', '--json', '--schema', s], { input: codec.encodeFrames(values.slice(7, 9)) }).out;
    assert.deepStrictEqual(
      parseExact(frames).frames.map((f) => f.rows.map((row) => row.value)),
      [
        [-9223372036854775808n, 9223372036854775808n],
        [9223372036854775807n, 18446744073709551615n],
      ],
    );
  });

});

describe('floats: -0 is the literal -0, NaN and the infinities strings (they have no literal)', () => {
  test('-0 in a float32, a float64, a float typed array and a t.json() value comes back as -0, a number', () => {
    const Floats = t.object({ n: t.float64(), f: t.float32(), xs: t.float64Array(), ys: t.float32Array(), any: t.json(), s: t.string(), o: t.optional(t.uint8()) });
    const codec = shorn.compile(Floats);
    const s = file('floats.schema.json', JSON.stringify(Floats));
    const text = '{"n":-0,"f":-0,"xs":[1.5,-0,"NaN","Infinity"],"ys":[-0,"-Infinity"],"any":{"z":-0,"k":[0,-0.5]},"s":"a\u2028\\""}';
    const bytes = ok(['encode', '--schema', s], { input: text }).stdout;
    const value = codec.decode(bytes);
    assert.ok(Object.is(value.n, -0) && Object.is(value.f, -0) && Object.is(value.xs[1], -0) && Object.is(value.ys[0], -0) && Object.is(value.any.z, -0));
    const out = ok(['decode', '--schema', s], { input: bytes }).out;
    assert.equal(out, `${text}\n`);
    const back = JSON.parse(out);
    assert.ok(Object.is(back.n, -0) && Object.is(back.xs[1], -0) && Object.is(back.any.z, -0));
    // The library's JSON form, "-0", is read too, to the same bytes.
    sameBytes(ok(['encode', '--schema', s], { input: text.replace(/"n":-0,"f":-0/, '"n":"-0","f":"-0"') }).stdout, bytes);
    // Anything else is what JSON.stringify writes.
    const plain = { n: 0.1, f: 1.5, xs: [1e300, 5e-324], ys: [], any: [{ a: 'b\u0000' }, null, true], s: '\ud83d\ude00\u2028' };
    assert.equal(ok(['decode', '--schema', s], { input: codec.encode({ ...plain, xs: new Float64Array(plain.xs), ys: new Float32Array(0) }) }).out, `${JSON.stringify(plain)}\n`);
  });
});

describe('the writer (lib/cli/forms.js text)', () => {
  const { formsFor } = require('../lib/cli/forms');
  const { stringify } = require('../lib/cli/json');
  const Schema = t.object({
    s: t.string(),
    id: t.uint64(),
    f: t.float64(),
    xs: t.float32Array(),
    byName: t.record(t.int64()),
    any: t.json(),
  });
  const codec = shorn.compile(Schema);
  const value = { s: 'M:5', id: 18446744073709551615n, f: -0, xs: new Float32Array([-0, 1.5]), byName: { 'M:1': -1n, b: -9223372036854775808n }, any: { z: -0, a: ['M:2', -0] } };
  const expected = '{"s":"M:5","id":18446744073709551615,"f":-0,"xs":[-0,1.5],"byName":{"M:1":-1,"b":-9223372036854775808},"any":{"z":-0,"a":["M:2",-0]}}';

  test('bigints and -0 are exact whatever the strings and keys of the data hold, the marker the writer uses too', () => {
    const decoded = codec.decode(codec.encode(value));
    // A random marker, and one that the data's strings and keys hold (the writer finds more
    // quoted markers than it made, and writes the value the slower way).
    for (const marker of [undefined, 'M:', 'M', 'M:5', '1', 'shorn']) {
      const forms = formsFor(codec.schema, { marker });
      assert.equal(forms.text(decoded), expected, String(marker));
      assert.equal(forms.text(decoded, 2), stringify(parseExact(expected), 2), String(marker));
      assert.equal(formsFor(codec.schema, { marker, int64AsString: true }).text(decoded), expected.replace(/(-?[0-9]{2,})(?=[,}])/g, '"$1"').replace('"byName":{"M:1":-1', '"byName":{"M:1":"-1"'));
    }
    // A marker JSON.stringify would escape is refused.
    for (const marker of ['"', '\\', '\n', 'é']) assert.throws(() => formsFor(codec.schema, { marker }), TypeError);
    // A root that is an int64 or a float.
    assert.equal(formsFor(t.uint64()).text(18446744073709551615n), '18446744073709551615');
    assert.equal(formsFor(t.float64()).text(-0), '-0');
    assert.equal(formsFor(t.nullable(t.int64())).text(null), 'null');
  });
});

describe('key order', () => {
  test('decode writes an object\'s keys in the order of the schema\'s fields, whatever the input\'s order (docs/CLI.md)', () => {
    const Schema = t.object({ z: t.uint8(), a: t.string(), m: t.object({ y: t.bool(), b: t.uint64() }) });
    const s = file('order.schema.json', JSON.stringify(Schema));
    const bytes = ok(['encode', '--schema', s], { input: '{"m": {"b": 18446744073709551615, "y": true}, "a": "x", "z": 1}' }).stdout;
    assert.equal(ok(['decode', '--schema', s], { input: bytes }).out, '{"z":1,"a":"x","m":{"y":true,"b":18446744073709551615}}\n');
  });
});

// ---- hints --------------------------------------------------------------------------------

describe('hints that name --stream and --each where the input shows it', () => {
  const Order = t.object({ id: t.uint32(), sku: t.string(), qty: t.uint16() });
  const codec = shorn.compile(Order);
  const schema = () => file('order.schema.json', JSON.stringify(Order));
  const orders = Array.from({ length: 2000 }, (_, k) => ({ id: k, sku: `sku-${k % 37}`, qty: (k * 7) % 100 }));

  test('decode of a stream of frames without --stream says that it reads as frames, and how many', () => {
    const s = schema();
    let r = shornCli(['decode', '--schema', s], { input: codec.encodeFrames(orders.slice(0, 3)) });
    assert.equal(r.status, 1);
    const lines = r.stderr.split('\n');
    assert.match(lines[0], /^shorn: stdin does not decode: /);
    assert.equal(lines[1], 'shorn: it reads as a stream of 3 frames (what shorn encode --stream and codec.encoder() write): if it is one, shorn decode --stream, with the same --schema, decodes it');
    // With checksums, the hint names --checksum too.
    r = shornCli(['decode', '--schema', s], { input: codec.encodeFrames(orders.slice(0, 2), { checksum: true }) });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /\nshorn: it reads as a stream of 2 frames \(.*\): if it is one, shorn decode --stream --checksum, with the same --schema, decodes it\n$/);
    // From hex text: --stream reads raw bytes, which the hint says.
    r = shornCli(['decode', '--hex', '--schema', s], { input: Buffer.from(codec.encodeFrames(orders.slice(0, 2))).toString('hex') });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /\nshorn: it reads as a stream of 2 frames \(.*\): if it is one, shorn decode --stream, with the same --schema, decodes its bytes \(raw: --stream reads no hex text\)\n$/);
    // And the command the hint names decodes it.
    assert.equal(ok(['decode', '--stream', '--schema', s], { input: codec.encodeFrames(orders.slice(0, 3)) }).out, `${orders.slice(0, 3).map((o) => JSON.stringify(o)).join('\n')}\n`);
  });

  test('no --stream hint where the bytes are no stream of frames: a broken message keeps its inspect hint', () => {
    const s = schema();
    const bytes = codec.encode(orders[5]);
    for (const broken of [bytes.subarray(0, bytes.length - 1), Buffer.concat([bytes, Buffer.from([0x80])]), Buffer.from([0x05, 0x02, 0xc3, 0x28])]) {
      const r = shornCli(['decode', '--schema', s], { input: broken });
      assert.equal(r.status, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /--stream/);
      assert.match(r.stderr, /\nshorn: shorn inspect, with the same --schema, shows the bytes around it\n$/);
    }
  });

  test('encode of a JSON array whose items each fit the schema says so, and names encode --stream --each', () => {
    const s = schema();
    const input = file('orders.json', JSON.stringify(orders));
    const r = shornCli(['encode', '--schema', s, input, '--hex']);
    assert.equal(r.status, 1);
    assert.equal(
      r.stderr,
      'shorn: the value does not fit the schema: $: expected object, found array (length 2000)\n' +
        'shorn: it is an array of 2,000 values that each fit the schema: shorn encode --stream --each writes a frame for each, or give a schema for the array (t.array of this one)\n',
    );
    // What the hint names works, and gives the frames of the items.
    const frames = ok(['encode', '--stream', '--each', '--schema', s, input]).stdout;
    sameBytes(frames, codec.encodeFrames(orders));
    // An array whose items do not all fit gets no such hint.
    const bad = shornCli(['encode', '--schema', s, '--hex'], { input: JSON.stringify([orders[0], { id: -1, sku: 'x', qty: 1 }]) });
    assert.equal(bad.status, 1);
    assert.equal(bad.stderr, 'shorn: the value does not fit the schema: $: expected object, found array (length 2)\n');
    // Nor does an array where the schema wants an array of something else.
    const other = shornCli(['encode', '--schema', JSON.stringify(t.array(t.string())), '--hex'], { input: '[1, 2]' });
    assert.equal(other.status, 1);
    assert.doesNotMatch(other.stderr, /--each/);
  });

  test('encode --stream --each: a JSON array in, a frame per item out; its errors name the item', () => {
    const s = schema();
    const input = file('few.json', JSON.stringify(orders.slice(0, 3)));
    sameBytes(ok(['encode', '--stream', '--each', '--checksum', '--schema', s, input]).stdout, codec.encodeFrames(orders.slice(0, 3), { checksum: true }));
    assert.equal(ok(['encode', '--stream', '--each', '--schema', s], { input: '[]' }).stdout.length, 0);
    let r = shornCli(['encode', '--stream', '--each', '--schema', s], { input: JSON.stringify([orders[0], orders[1], { ...orders[2], qty: 'x' }]) });
    assert.equal(r.status, 1);
    assert.equal(r.stderr, 'shorn: stdin: item 2: the value does not fit the schema: $.qty: expected uint16 (integer 0 to 65535), found string "x"\nshorn: the 2 frames before it were written\n');
    sameBytes(r.stdout, codec.encodeFrames(orders.slice(0, 2)));
    r = shornCli(['encode', '--stream', '--each', '--schema', s], { input: JSON.stringify(orders[0]) });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^shorn: stdin is not a JSON array: --each takes an array of values \(found object\)\n/);
    r = shornCli(['encode', '--each', '--schema', s], { input: '[]' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--each is for --stream/);
  });

  test('encode of NDJSON without --stream names encode --stream', () => {
    const s = schema();
    const r = shornCli(['encode', '--schema', s, '--hex'], { input: orders.slice(0, 3).map((o) => JSON.stringify(o)).join('\n') });
    assert.equal(r.status, 1);
    assert.equal(r.stderr, 'shorn: stdin:2:1: invalid JSON: Unexpected data after the JSON value\nshorn: the input looks like NDJSON (its line 1 is a JSON value): shorn encode --stream reads NDJSON, one value a line, and writes a frame for each\n');
    // Two values on one line are not NDJSON: the hint says only what encode takes.
    const two = shornCli(['encode', '--schema', s, '--hex'], { input: `${JSON.stringify(orders[0])} ${JSON.stringify(orders[1])}` });
    assert.equal(two.status, 1);
    assert.equal(two.stderr, 'shorn: stdin:1:32: invalid JSON: Unexpected data after the JSON value\nshorn: this command takes one JSON value (NDJSON is for encode --stream, infer and size)\n');
  });
});

// ---- the six corpora ----------------------------------------------------------------------

// The CLI round trip of issue 42: each corpus through the schema `shorn infer` gives for it,
// `shorn encode | shorn decode` gives back data equal to the file: every number a number,
// integers exactly (twitter's 64-bit ids beyond 2^53 too), strings, booleans and nulls the
// same, objects with the same keys (in the schema's order, so compared as data, not text).
describe('the six corpora: encode | decode gives back the same JSON', () => {
  for (const { name, file: fileName } of CORPORA) {
    test(name, () => {
      const input = path.join(DATA, fileName);
      const schemaFile = path.join(dir, `${name}.schema.json`);
      ok(['infer', '-o', schemaFile, input]);
      const bytes = ok(['encode', '--schema', schemaFile, input]).stdout;
      const out = ok(['decode', '--schema', schemaFile], { input: bytes }).out;
      const expected = parseExact(fs.readFileSync(input, 'utf8'));
      assert.deepStrictEqual(parseExact(out), expected);
      if (name === 'twitter') {
        // The ids beyond 2^53 (twitter.json has 197) come back as the same integers.
        const big = (out.match(/:[0-9]{17,}/g) || []).filter((m) => !Number.isSafeInteger(Number(m.slice(1))));
        assert.equal(big.length, 197, 'integer literals beyond 2^53 in the output');
      }
    });
  }

  test('twitter, a status a frame: infer --each, encode --stream --each, decode --stream', () => {
    const input = path.join(DATA, 'twitter.json');
    const statuses = path.join(dir, 'statuses.json');
    const text = fs.readFileSync(input, 'utf8');
    // The statuses array's own text, cut out of the file (so its literals are untouched).
    const from = text.indexOf('[', text.indexOf('"statuses"'));
    const to = text.lastIndexOf('"search_metadata"');
    fs.writeFileSync(statuses, text.slice(from, text.lastIndexOf(']', to) + 1));
    const expected = parseExact(fs.readFileSync(statuses, 'utf8'));
    assert.equal(expected.length, 100);
    const schemaFile = path.join(dir, 'status.schema.json');
    ok(['infer', '--each', '-o', schemaFile, statuses]);
    const frames = ok(['encode', '--stream', '--each', '--schema', schemaFile, statuses]).stdout;
    const lines = ok(['decode', '--stream', '--schema', schemaFile], { input: frames }).out.split('\n');
    assert.equal(lines.pop(), '');
    assert.deepStrictEqual(lines.map(parseExact), expected);
  });
});
