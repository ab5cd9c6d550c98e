'use strict';
// Records decoded by shape (src/types/json.rs, RecordShape; lib/types/record.js): a record
// of 4 to 64 entries whose keys an earlier record or json object of the message had, in
// order, is built by one object literal; the native side finds its keys, and json
// objects' keys, by predicting each from the one before (KeyIds::next), and its shape from
// the last one. Every case is
// decoded by generated code, by the generic path (no generated code) and by the JS back
// end (which reads the bytes itself), and must give the value back with its key order
// and own properties; hostile bytes must be refused the same way by all three.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { t, compile, ShornError } = require('..');

const MODES = [{ codegen: true }, { codegen: false }, { backend: 'js' }];

// The value back from every mode, deep-equal, each record's keys in the same order and
// every key an own data property of a plain object.
function roundTrip(schema, value, label) {
  const bytes = compile(schema, { codegen: true }).encode(value);
  for (const options of MODES) {
    const codec = compile(schema, options);
    assert.deepStrictEqual(Buffer.from(codec.encode(value)), Buffer.from(bytes), `${label}: bytes ${JSON.stringify(options)}`);
    // Twice: the second decode meets the builders the first one made.
    for (let round = 0; round < 2; round++) {
      const got = codec.decode(bytes);
      assert.deepStrictEqual(got, value, `${label} ${JSON.stringify(options)}`);
      sameKeys(got, value, `${label} ${JSON.stringify(options)}`);
    }
  }
}

function sameKeys(got, want, label) {
  if (Array.isArray(want)) {
    want.forEach((w, k) => sameKeys(got[k], w, `${label}[${k}]`));
  } else if (want !== null && typeof want === 'object') {
    assert.equal(Object.getPrototypeOf(got), Object.prototype, `${label}: a plain object`);
    assert.deepStrictEqual(Reflect.ownKeys(got), Reflect.ownKeys(want), `${label}: keys`);
    for (const key of Object.keys(want)) {
      assert.ok(Object.getOwnPropertyDescriptor(got, key).writable, `${label}.${key}: a data property`);
      sameKeys(got[key], want[key], `${label}.${key}`);
    }
  }
}

const recordOf = (keys, base) => Object.fromEntries(keys.map((k, j) => [k, base + j]));
const keysOf = (n, prefix = 'k') => Array.from({ length: n }, (_, j) => `${prefix}${j}`);

test('records of 3 to 65 entries, repeated: the keys, their order and values', () => {
  for (const n of [3, 4, 5, 63, 64, 65]) {
    const keys = keysOf(n);
    const value = Array.from({ length: 6 }, (_, k) => recordOf(keys, k * 100));
    roundTrip(t.array(t.record(t.uint32())), value, `${n} entries`);
  }
});

test('records of the same keys in other orders, other counts, and keys met once', () => {
  const value = [
    { a: 1, b: 2, c: 3, d: 4 },
    { b: 1, a: 2, c: 3, d: 4 },
    { a: 1, b: 2, c: 3, d: 4 },
    { a: 1, b: 2, c: 3 },
    { a: 1, b: 2, c: 3, d: 4, e: 5 },
    { a: 1, b: 2, c: 3, d: 4 },
    { a: 1, b: 2, x: 3, d: 4 },
    { d: 1, c: 2, b: 3, a: 4 },
    { d: 1, c: 2, b: 3, a: 4 },
    { a: 1, b: 2, c: 3, d: 4 },
  ];
  roundTrip(t.array(t.record(t.uint32())), value, 'orders');
});

test('keys that are array indexes, long, or past the key table: records of no shape', () => {
  const long = 'L'.repeat(70);
  const value = [
    { 1: 1, 2: 2, a: 3, b: 4 },
    { 1: 1, 2: 2, a: 3, b: 4 },
    { [long]: 1, a: 2, b: 3, c: 4 },
    { [long]: 1, a: 2, b: 3, c: 4 },
    // 300 keys: the table keeps 256 (src/types/json.rs, MAX_KEY_IDS).
    ...Array.from({ length: 75 }, (_, k) => recordOf(keysOf(4, `m${k}_`), k)),
    { m0_0: 1, m0_1: 2, m0_2: 3, m0_3: 4 },
    { m74_0: 1, m74_1: 2, m74_2: 3, m74_3: 4 },
    { m74_0: 1, m74_1: 2, m74_2: 3, m74_3: 4 },
  ];
  roundTrip(t.array(t.record(t.uint32())), value, 'no shape');
});

test("keys Object.prototype has, __proto__ among them, are own data properties", () => {
  const one = (k) => JSON.parse(`{"__proto__": ${k}, "constructor": ${k + 1}, "toString": ${k + 2}, "valueOf": ${k + 3}, "x": ${k + 4}}`);
  const value = [one(1), one(10), one(20)];
  roundTrip(t.array(t.record(t.uint32())), value, 'prototype keys');
  for (const options of MODES) {
    const codec = compile(t.array(t.record(t.uint32())), options);
    const got = codec.decode(codec.encode(value));
    assert.equal(Object.getPrototypeOf(got[2]), Object.prototype);
    assert.equal(got[2].__proto__, 20, JSON.stringify(options));
    assert.equal(got[2].toString, 22);
  }
});

test('records and json objects of the same keys share their shapes, both ways', () => {
  const schema = t.object({ first: t.array(t.json()), records: t.array(t.record(t.union([t.uint32(), t.string()]))), then: t.array(t.json()) });
  const keys = ['id', 'name', 'score', 'tag', 'ok'];
  const value = {
    first: [recordOf(keys.slice(0, 4), 1), recordOf(keys.slice(0, 4), 2)],
    records: [recordOf(keys.slice(0, 4), 3), { id: 'x', name: 1, score: 'y', tag: 2 }, recordOf(keys, 4), recordOf(keys, 5)],
    then: [recordOf(keys, 6), { ...recordOf(keys, 7), ok: [1, { id: 1, name: 2, score: 3, tag: 4 }] }, recordOf(keys.slice(0, 4), 8)],
  };
  roundTrip(schema, value, 'shared shapes');
});

test('records inside records: an inner record never takes the shape its outer record is defining', () => {
  const schema = t.array(t.record(t.union([t.uint32(), t.record(t.uint32())])));
  const inner = (k) => ({ a: k, b: k + 1, c: k + 2, d: k + 3 });
  const value = [
    { a: inner(1), b: 2, c: 3, d: 4 },
    { a: 1, b: inner(2), c: 3, d: 4 },
    { a: inner(3), b: inner(4), c: inner(5), d: inner(6) },
    inner(7),
  ];
  roundTrip(schema, value, 'nested');
  // A recursive record: the same site inside itself.
  const tree = t.recursive('Tree', (self) => t.record(t.union([t.uint32(), self])));
  const node = (k, depth) => (depth === 0 ? { a: k, b: k, c: k, d: k } : { a: node(k, depth - 1), b: k, c: node(k + 1, depth - 1), d: k });
  roundTrip(tree, node(1, 4), 'recursive');
});

test('frames of records: each message starts its key table and shapes again', () => {
  const values = [recordOf(['a', 'b', 'c', 'd'], 1), recordOf(['e', 'f', 'g', 'h'], 2), recordOf(['a', 'b', 'c', 'd'], 3), recordOf(['d', 'c', 'b', 'a'], 4)];
  for (const options of MODES) {
    const codec = compile(t.record(t.uint32()), options);
    assert.deepStrictEqual(codec.decodeFrames(codec.encodeFrames(values)), values, JSON.stringify(options));
  }
});

// Message `hex` with, from hex offset `second` on, each one-byte key `from` made `to`, a
// key its object already has: refused as malformed by every mode.
function refusesRepeats(schema, hex, second, changes) {
  for (const [from, to] of changes) {
    const bad = hex.slice(0, second) + hex.slice(second).replace(`01${Buffer.from(from).toString('hex')}`, `01${Buffer.from(to).toString('hex')}`);
    for (const options of MODES) {
      assert.throws(
        () => compile(schema, options).decode(Buffer.from(bad, 'hex')),
        (e) => e instanceof ShornError && e.code === 'ERR_SHORN_MALFORMED',
        `${from} -> ${to} ${JSON.stringify(options)}`,
      );
    }
  }
}

test('hostile records: a repeated key is refused wherever it stands, by every mode', () => {
  const schema = t.array(t.record(t.uint8()));
  const base = compile(schema).encode([{ a: 1, b: 2, c: 3, d: 4 }, { a: 1, b: 2, c: 3, d: 4 }]);
  const hex = base.toString('hex');
  // The array's count, then each record: its count, then per key 01 <char> <value>. The
  // second record's keys (predicted from the first) changed to repeat one.
  const second = 2 + 2 * compile(t.record(t.uint8())).encode({ a: 1, b: 2, c: 3, d: 4 }).length;
  assert.equal(hex.slice(second, second + 4), '0401');
  refusesRepeats(schema, hex, second, [['b', 'a'], ['c', 'a'], ['d', 'c'], ['c', 'b'], ['d', 'a']]);
});

test('hostile json objects: a repeated key is refused where its key was predicted', () => {
  const schema = t.array(t.json());
  const value = [{ a: 1, b: 2, c: 3, d: 4 }, { a: 1, b: 2, c: 3, d: 4 }];
  const hex = compile(schema).encode(value).toString('hex');
  const second = 2 + 2 * compile(t.json()).encode(value[0]).length;
  assert.equal(hex.slice(second, second + 4), 'e401');
  refusesRepeats(schema, hex, second, [['b', 'a'], ['c', 'a'], ['d', 'c'], ['c', 'b']]);
  roundTrip(schema, value, 'json objects');
});

test('keys that are array indexes go as numbers: the largest index, non-indexes beside, a polluted prototype', () => {
  const value = JSON.parse('{"0": 1, "7": 2, "4294967294": 3, "4294967295": 4, "01": 5, "-1": 6, "1e3": 7, "a": 8, "__proto__": 9}');
  roundTrip(t.record(t.uint8()), value, 'index keys');
  roundTrip(t.array(t.record(t.uint8())), [value, value], 'index keys, twice');
  // An index Object.prototype has, with a setter: the key is still an own data property
  // of the record, and the setter never runs.
  // (Polluted after the codecs are made: compile itself reads arrays past their ends.)
  const codecs = MODES.map((options) => [options, compile(t.record(t.uint8()), options)]);
  const bytes = codecs[0][1].encode({ 7: 2, 8: 3 });
  let ran = 0;
  Object.defineProperty(Object.prototype, '7', { set() { ran++; }, get() { return 'inherited'; }, configurable: true });
  try {
    for (const [options, codec] of codecs) {
      const got = codec.decode(bytes);
      assert.ok(Object.hasOwn(got, '7') && got[7] === 2 && got[8] === 3, JSON.stringify(options));
    }
  } finally {
    delete Object.prototype[7];
  }
  assert.equal(ran, 0);
});
