'use strict';
// Issue 43: `t.json()` values written by JS in their bytes on the wire (lib/json-tape.js,
// `write`), and the key table a message's records and json values share on decode
// (rt.keyTable, src/types/json.rs `KeyIds`). The bytes are checked against a reference
// encoder written from docs/FORMAT.md alone, and every value JS gives up on (a lone
// surrogate, a value that is not JSON, one too deep) must fail as it always did.

const test = require('node:test');
const assert = require('node:assert');
const fc = require('fast-check');
const { t, compile } = require('..');

// docs/FORMAT.md, "json", byte for byte.
function reference(x) {
  const out = [];
  const varint = (n) => {
    let v = BigInt(n);
    while (v > 127n) {
      out.push(Number(v & 127n) | 128);
      v >>= 7n;
    }
    out.push(Number(v));
  };
  const utf8 = (s) => [...Buffer.from(s, 'utf8')];
  const value = (v) => {
    if (v === null) out.push(0);
    else if (v === false) out.push(1);
    else if (v === true) out.push(2);
    else if (typeof v === 'number') {
      if (Number.isSafeInteger(v) && !Object.is(v, -0)) {
        if (v >= 0 && v <= 63) out.push(0x40 | v);
        else {
          out.push(0x04);
          const b = BigInt(v);
          varint(b < 0n ? -2n * b - 1n : 2n * b);
        }
      } else {
        const f = Buffer.alloc(8);
        f.writeDoubleLE(v);
        out.push(0x03, ...f);
      }
    } else if (typeof v === 'string') {
      const b = utf8(v);
      if (b.length < 64) out.push(0x80 | b.length);
      else {
        out.push(0x05);
        varint(b.length);
      }
      for (const c of b) out.push(c);
    } else if (Array.isArray(v)) {
      if (v.length < 32) out.push(0xc0 | v.length);
      else {
        out.push(0x06);
        varint(v.length);
      }
      v.forEach(value);
    } else {
      const keys = Object.keys(v);
      if (keys.length < 32) out.push(0xe0 | keys.length);
      else {
        out.push(0x07);
        varint(keys.length);
      }
      for (const k of keys) {
        const b = utf8(k);
        varint(b.length);
        for (const c of b) out.push(c);
        value(v[k]);
      }
    }
  };
  value(x);
  return Buffer.from(out);
}

const hex = (b) => Buffer.from(b).toString('hex');
// `v` with every object a plain one, as decode makes them (a null-prototype one included).
const plain = (v) =>
  Array.isArray(v) ? v.map(plain) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)])) : v;
const codecs = [
  ['generated', compile(t.json())],
  ['generic', compile(t.json(), { codegen: false })],
];

// Numbers at the edges of each form, strings at the edges of each length form and of
// UTF-8 (2, 3 and 4 byte characters), counts at 31 and 32.
const EDGES = [
  0, 63, 64, -1, -64, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 52, -(2 ** 52), 2 ** 52 + 1, -(2 ** 52) - 1,
  Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, -0, 0.5, -1.5e300, 5e-324,
  '', 'a'.repeat(63), 'a'.repeat(64), 'é'.repeat(31), 'é'.repeat(32), '€'.repeat(21), '€'.repeat(22), '😀'.repeat(15),
  '😀'.repeat(16), 'x'.repeat(100000), '€'.repeat(50000), 'a😀b€c'.repeat(500),
  Array.from({ length: 31 }, (_, k) => k), Array.from({ length: 32 }, (_, k) => k),
  Object.fromEntries(Array.from({ length: 31 }, (_, k) => [`k${k}`, k])),
  Object.fromEntries(Array.from({ length: 32 }, (_, k) => [`k${k}`, k])),
  { ['é'.repeat(70)]: 1, [`${'k'.repeat(200)}`]: [null, true, false] },
  { 2: 'b', 1: 'a', z: 'z', __proto__: null },
];

for (const [name, codec] of codecs) {
  test(`json values at the edges of every form are the reference bytes and round-trip (${name})`, () => {
    for (const v of EDGES) {
      const bytes = codec.encode(v);
      assert.strictEqual(hex(bytes), hex(reference(v)), JSON.stringify(v).slice(0, 80));
      assert.deepStrictEqual(codec.decode(bytes), plain(v));
    }
    // The same, many to a message (the tape grows past its first size while JS writes).
    const many = Array.from({ length: 50 }, () => EDGES).flat();
    assert.deepStrictEqual(codec.decode(codec.encode(many)), plain(many));
  });

  test(`5,000 random JSON values are the reference bytes (${name})`, () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
        assert.strictEqual(hex(codec.encode(v)), hex(reference(v)));
      }),
      { numRuns: 5000, seed: 43 },
    );
  });

  test(`values JS does not write fail as before, with their paths (${name})`, () => {
    const cases = [
      // The native side finds these; the error is at the string's path (lib/generic.js,
      // Marshaller#lonePath; once at the json value's own path, $).
      [{ a: [1, { b: '\ud800' }] }, /lone surrogate/i, '$.a[1].b'],
      [{ a: [1, { b: 'x'.repeat(100) + '\udc00' }] }, /lone surrogate/i, '$.a[1].b'],
      [{ a: [1, undefined] }, /JSON value/, '$.a[1]'],
      [{ a: { b: new Date(0) } }, /JSON value/, '$.a.b'],
      [[1, 2, NaN], /JSON value/, '$[2]'],
      [{ k: 1n }, /JSON value/, '$.k'],
    ];
    for (const [v, message, path] of cases) {
      assert.throws(() => codec.encode(v), (e) => e.code === 'ERR_SHORN_INVALID' && message.test(e.message) && e.path === path, JSON.stringify(path));
    }
    const deep = [];
    let at = deep;
    for (let k = 0; k < 200; k++) at = at[0] = [];
    assert.throws(() => codec.encode(deep), (e) => e.code === 'ERR_SHORN_INVALID' && /maxDepth/.test(e.message));
    const cyclic = { a: {} };
    cyclic.a.b = cyclic;
    assert.throws(() => codec.encode(cyclic), (e) => e.code === 'ERR_SHORN_INVALID' && /cyclic/.test(e.message));
  });
}

// An array's leading numbers go on the decode tape without a token each; at its first
// other item they get theirs (src/types/json.rs, `NUMBERS`, TapeOut::spread). Every count
// of leading numbers, before every other kind of item, in tapes short enough to grow.
test('arrays of numbers, and numbers before other items, decode as written; a bad item after numbers keeps its path and offset', () => {
  const others = ['s', 'x'.repeat(70), null, true, false, [], [1, 'a'], { k: 1 }, { a: 1, b: 2, c: 3, d: 4 }];
  const numbers = (n) => Array.from({ length: n }, (_, k) => (k % 3 === 0 ? k : k % 3 === 1 ? -k * 1e6 : k + 0.25));
  for (const [name, codec] of codecs) {
    for (const n of [0, 1, 2, 5, 31, 32, 1000, 70000]) {
      const values = [numbers(n), ...others.map((o) => [...numbers(n), o, ...numbers(3)]), [numbers(n), [...numbers(n), 'z']], { a: numbers(n), b: [...numbers(n), { c: numbers(2) }] }];
      for (const v of values) assert.deepStrictEqual(codec.decode(codec.encode(v)), plain(v), `${name}: ${n} numbers`);
      // Many to a message: the tape grows past its first size and the decode runs again.
      const many = Array.from({ length: 4 }, () => values);
      assert.deepStrictEqual(codec.decode(codec.encode(many)), plain(many), `${name}: ${n} numbers, many`);
      // Type byte 08 is malformed: after n small integers (one byte each) in an array of
      // n + 1 items, at its offset, with the item's path.
      const zeros = reference(Array(n + 1).fill(0));
      const head = zeros.subarray(0, zeros.length - (n + 1));
      const bad = Buffer.from([...head, ...Array(n).fill(0x41), 0x08]);
      assert.throws(() => codec.decode(bad), (e) => e.code === 'ERR_SHORN_MALFORMED' && e.offset === head.length + n && e.path === `$[${n}]`, `${name}: ${n}`);
    }
  }
});

test('a getter that encodes json while a json value is written gets its own bytes, and the outer value its own', () => {
  const codec = compile(t.object({ a: t.json(), b: t.json() }));
  const inner = compile(t.json());
  let innerBytes = null;
  const value = {
    a: {
      get x() {
        innerBytes = inner.encode({ deep: ['é', 1.5, 'x'.repeat(300)] });
        return [1, 2, 3];
      },
      y: 'after',
    },
    b: { z: 2 ** 40 },
  };
  const bytes = codec.encode(value);
  assert.deepStrictEqual(codec.decode(bytes), { a: { x: [1, 2, 3], y: 'after' }, b: { z: 2 ** 40 } });
  assert.deepStrictEqual(inner.decode(innerBytes), { deep: ['é', 1.5, 'x'.repeat(300)] });
});

test('records and json values of one message share its key table; each message and each frame starts its own', () => {
  const schema = t.object({
    counts: t.record(t.uint32()),
    items: t.array(t.json()),
    more: t.record(t.json()),
  });
  const item = (k) => ({ id: k, name: `n${k}`, tags: ['a', 'b'], ok: k % 2 === 0, nested: { id: k, name: 'x', score: 1, deeper: { id: 1, ok: true, name: 'y', tags: [] } } });
  const messages = [
    { counts: { id: 1, name: 2, ['__proto__']: 3 }, items: [item(1), item(2), item(3)], more: { id: item(4), other: { name: 'n', id: 5 } } },
    // Other keys first: ids of the message before would name them wrongly.
    { counts: { zeta: 1, eta: 2 }, items: [{ zeta: 1, eta: [item(5)] }, item(6)], more: {} },
    { counts: {}, items: [{}, [], 'x'], more: { ['k'.repeat(65)]: 1, id: { id: { id: 1 } } } },
    // More keys than a table keeps (256): those past it go by their text.
    {
      counts: Object.fromEntries(Array.from({ length: 300 }, (_, k) => [`c${k}`, k])),
      items: Array.from({ length: 40 }, (_, k) => Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`k${(k * 7 + j) % 300}`, j]))),
      more: { 1: 1, 0: 0, c1: 'c1' },
    },
  ];
  for (const codegen of [true, false]) {
    const codec = compile(schema, { codegen });
    // One at a time, alternating with a codec of other keys.
    const other = compile(t.record(t.json()), { codegen });
    for (const m of messages) {
      assert.deepStrictEqual(codec.decode(codec.encode(m)), m);
      assert.deepStrictEqual(other.decode(other.encode({ q: { r: 1 }, id: 2 })), { q: { r: 1 }, id: 2 });
    }
    // Many to a native call: a batch of frames, one tape.
    const frames = codec.encodeFrames([...messages, ...messages.slice().reverse()]);
    assert.deepStrictEqual(codec.decodeFrames(frames), [...messages, ...messages.slice().reverse()]);
    // `__proto__` stays an own data property, as JSON.parse makes it.
    const got = codec.decode(codec.encode(messages[0]));
    assert.ok(Object.hasOwn(got.counts, '__proto__'));
    assert.strictEqual(Object.getPrototypeOf(got.counts), Object.prototype);
  }
});

test('a record whose key repeats one of the message table or an enclosing record is still malformed', () => {
  const codec = compile(t.record(t.record(t.uint8())));
  // {"a": {"a": 1}, "a": ...}: written by hand, the encoder never repeats a key.
  const bytes = Buffer.from([0x02, 0x01, 0x61, 0x01, 0x01, 0x61, 0x01, 0x01, 0x61, 0x00]);
  assert.throws(() => codec.decode(bytes), (e) => e.code === 'ERR_SHORN_MALFORMED' && /appears twice/.test(e.message));
  const ok = Buffer.from([0x02, 0x01, 0x61, 0x01, 0x01, 0x61, 0x01, 0x01, 0x62, 0x00]);
  assert.deepStrictEqual(codec.decode(ok), { a: { a: 1 }, b: {} });
});

test('a json value whose getter gives a non-JSON value, then a JSON one, fails either way', () => {
  for (const codegen of [true, false]) {
    const codec = compile(t.object({ a: t.json() }), { codegen });
    const flip = (long) => {
      let calls = 0;
      return {
        // Text past a chunk (32K units) is sent on before the getter is read.
        text: long ? ['x'.repeat(40000), 'y'.repeat(300)] : 'short',
        get v() {
          calls++;
          return calls === 1 ? undefined : 1;
        },
      };
    };
    // Nothing cut: put runs again and takes the value it is given then, as a getter read
    // twice always could.
    assert.deepStrictEqual(codec.decode(codec.encode({ a: flip(false) })), { a: { text: 'short', v: 1 } });
    // Text already sent: the encode fails rather than send text twice.
    assert.throws(
      () => codec.encode({ a: flip(true) }),
      (e) => e.code === 'ERR_SHORN_INVALID' && /changed while it was encoded/.test(e.message) && e.path === '$.a',
      `codegen ${codegen}`,
    );
    // The codec is sound after it.
    assert.deepStrictEqual(codec.decode(codec.encode({ a: { k: ['z'.repeat(50000)] } })), { a: { k: ['z'.repeat(50000)] } });
  }
});

test('an array item behind a getter is read once however its type changes, after numbers or not', () => {
  for (const codegen of [true, false]) {
    const codec = compile(t.json(), { codegen });
    for (const before of [[], [1], [1.5, -7, 2 ** 40]]) {
      for (const seq of [[5, { a: 1 }], [{ a: 1 }, 5], ['s', 6.5], [7, 8]]) {
        let calls = 0;
        const a = [...before, 0, 9];
        Object.defineProperty(a, before.length, { enumerable: true, get: () => seq[calls++ % 2] });
        const got = codec.decode(codec.encode(a));
        assert.strictEqual(calls, 1, `codegen ${codegen}: ${JSON.stringify(before)} ${JSON.stringify(seq)}`);
        assert.deepStrictEqual(got, [...before, seq[0], 9]);
      }
    }
  }
});

test('an object whose getter deletes or adds a member encodes keys and values in line, of 7 members or 8', () => {
  for (const codegen of [true, false]) {
    const codec = compile(t.json(), { codegen });
    for (const n of [7, 8, 20]) {
      for (const change of ['delete', 'add']) {
        const o = Object.fromEntries(Array.from({ length: n }, (_, k) => [`k${k}`, k]));
        Object.defineProperty(o, 'k1', {
          enumerable: true,
          configurable: true,
          get() {
            if (change === 'delete') delete o.k3;
            else o.extra = 'x';
            return 'one';
          },
        });
        const got = codec.decode(codec.encode(o));
        // Whatever was read, each key has its own value: k1 the getter's, the others theirs.
        for (const [key, v] of Object.entries(got)) assert.strictEqual(v, key === 'k1' ? 'one' : key === 'extra' ? 'x' : Number(key.slice(1)), `${n} ${change} ${key}`);
        assert.ok('k0' in got && 'k1' in got && `k${n - 1}` in got);
      }
    }
  }
});

test('record keys written by JS in their bytes (short ASCII) or in the text (the rest) are the same bytes either way', () => {
  const keys = ['', 'a', 'id', '0', '10', '__proto__', 'x'.repeat(7), 'x'.repeat(8), 'x'.repeat(9), 'y'.repeat(15), 'y'.repeat(16), 'y'.repeat(17), 'é', 'aé', 'a'.repeat(15) + 'é', '😀', 'k'.repeat(300)];
  const value = Object.fromEntries(keys.map((k, n) => [k, n]));
  const generated = compile(t.record(t.uint16()));
  const generic = compile(t.record(t.uint16()), { codegen: false });
  const bytes = generated.encode(value);
  assert.strictEqual(hex(bytes), hex(generic.encode(value)));
  const got = generated.decode(bytes);
  assert.deepStrictEqual(Object.keys(got), Object.keys(value));
  assert.deepStrictEqual({ ...got }, { ...value });
  // An invalid value is named by its key, short or not.
  for (const k of ['ab', 'y'.repeat(20), 'é']) {
    assert.throws(() => generated.encode({ ...value, [k]: -1 }), (e) => e.code === 'ERR_SHORN_INVALID' && e.path === `$${/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`}`, k);
  }
  // A lone surrogate in a key is the native side's error, as before.
  assert.throws(() => generated.encode({ a: 1, ['b\ud800']: 2 }), (e) => e.code === 'ERR_SHORN_INVALID' && /lone surrogate/.test(e.message));
});

test('json object keys written from the key table (kept the second time met) are the reference bytes every time', () => {
  const codec = compile(t.json());
  // Every length around the table's bounds (8 to 63 units) and every alignment of its
  // 4-byte words; keys that start with a digit, are not ASCII, hold U+0000 or U+007F.
  const keys = [];
  for (let n = 1; n <= 70; n++) keys.push('abcdefghijklmnopqrstuvwxyz'.repeat(3).slice(0, n), `${n}`.padEnd(n, 'q'));
  keys.push('é'.repeat(10), 'aaaaaaaaé', '\u0000'.repeat(9), '\u007f'.repeat(12), 'x\u0080yyyyyyyy', '😀'.repeat(8));
  const value = (round) => [Object.fromEntries(keys.map((k, n) => [k, n + round])), { inner: Object.fromEntries(keys.slice(0, 40).map((k) => [k, { [k]: k }])) }];
  // Met once, twice (kept), then from the table, in one message and across messages.
  for (let round = 0; round < 4; round++) {
    const v = value(round);
    const bytes = codec.encode(v);
    assert.strictEqual(hex(bytes), hex(reference(v)), `round ${round}`);
    assert.deepStrictEqual(codec.decode(bytes), plain(v));
  }
  // An object of 3,000 members of distinct long keys (more than the table holds, so it
  // is emptied on the way) written four times: the tape grows while keys are written.
  const wide = Object.fromEntries(Array.from({ length: 3000 }, (_, k) => [`member_${String(k).padStart(6, '0')}_${'z'.repeat(k % 13)}`, k % 5 === 0 ? [k] : k]));
  for (let round = 0; round < 4; round++) {
    const bytes = codec.encode(wide);
    assert.strictEqual(hex(bytes), hex(reference(wide)), `wide round ${round}`);
  }
  // The keys kept before it are still right after the table was emptied.
  const v = value(9);
  assert.strictEqual(hex(codec.encode(v)), hex(reference(v)));
});

// An array of json values is written in one session (lib/json-tape.js, `items`); an item
// it gives up on is handed to `put` in place and the session goes on after it.
test('an array of json values is the reference bytes, and an item handed off mid-array keeps its place, path and error', () => {
  const count = (n) => {
    const out = [];
    while (n > 127) {
      out.push((n & 127) | 128);
      n >>>= 7;
    }
    out.push(n);
    return Buffer.from(out);
  };
  const wire = (items) => Buffer.concat([count(items.length), ...items.map(reference)]);
  for (const shape of ['bare', 'field']) {
    const codec = compile(shape === 'bare' ? t.array(t.json()) : t.object({ id: t.uint32(), items: t.array(t.json()) }));
    const encode = (items) => (shape === 'bare' ? codec.encode(items) : codec.encode({ id: 7, items }).subarray(1));
    const at = (k) => (shape === 'bare' ? `$[${k}]` : `$.items[${k}]`);
    // A getter giving undefined the first time and 1 after: JS gives up, put takes 1.
    const flip = (long) => {
      let calls = 0;
      return { text: long ? 'x'.repeat(40000) : 'in the text, not cut', get v() { return ++calls === 1 ? undefined : 1; } };
    };
    const ok = (k) => ({ id: k, name: `user${k}`, score: k / 8, tags: ['a', 'é'.repeat(k % 20), 'z'.repeat(k * 7)] });
    for (const n of [0, 1, 5, 200]) {
      const items = Array.from({ length: n }, (_, k) => ok(k));
      assert.strictEqual(hex(encode(items)), hex(wire(items)), `${shape}: ${n} items`);
      // Long texts past a chunk (32K units) before, among and after the items.
      const long = [...items, 'y'.repeat(40000), ...items, ['w'.repeat(70000)], ...items];
      assert.strictEqual(hex(encode(long)), hex(wire(long)), `${shape}: ${n} items with long texts`);
      for (const k of [0, Math.floor(n / 2), n]) {
        // Handed off at k, after a text was cut or not, then the rest.
        for (const cutBefore of [false, true]) {
          const head = [...(cutBefore ? ['c'.repeat(40000)] : []), ...items.slice(0, k)];
          const mixed = [...head, flip(false), ...items.slice(k)];
          const want = [...head, { text: 'in the text, not cut', v: 1 }, ...items.slice(k)];
          assert.strictEqual(hex(encode(mixed)), hex(wire(want)), `${shape}: ${n} items, handed off at ${k}`);
          assert.deepStrictEqual(codec.decode(shape === 'bare' ? encode(mixed) : codec.encode({ id: 7, items: mixed })), shape === 'bare' ? plain(want) : { id: 7, items: plain(want) });
          // Its own text cut, then a value that is not JSON: the encode fails at its path.
          assert.throws(
            () => encode([...head, flip(true), ...items.slice(k)]),
            (e) => e.code === 'ERR_SHORN_INVALID' && /changed while it was encoded/.test(e.message) && e.path === at(head.length),
          );
          // Not JSON: put's error, at the item's path and within it.
          assert.throws(() => encode([...head, undefined, ...items]), (e) => e.code === 'ERR_SHORN_INVALID' && e.path === at(head.length));
          assert.throws(() => encode([...head, { a: [1, NaN] }]), (e) => e.code === 'ERR_SHORN_INVALID' && e.path === `${at(head.length)}.a[1]`);
          // The codec is sound after each failure.
          assert.strictEqual(hex(encode(items)), hex(wire(items)));
        }
      }
    }
    // An item whose getter encodes an array of json values meanwhile (the session busy):
    // both get their own bytes.
    const inner = compile(t.array(t.json()));
    let innerBytes = null;
    const innerItems = [{ deep: ['é', 1.5, 'x'.repeat(300)] }, 'two', [3]];
    const outer = [{ a: 1 }, { get b() { innerBytes = inner.encode(innerItems); return [2, 'b']; } }, 'after', { c: ['d'.repeat(50)] }];
    const want = [{ a: 1 }, { b: [2, 'b'] }, 'after', { c: ['d'.repeat(50)] }];
    assert.strictEqual(hex(encode(outer)), hex(wire(want)), shape);
    assert.strictEqual(hex(innerBytes), hex(wire(innerItems)), shape);
  }
});

// Objects whose keys were met before in the same order write them from the shape's words
// (lib/json-tape.js, SHAPES): the same bytes as every other way, however shapes share
// first keys, overflow the table, or hold keys that have no words.
test('objects of a shape met before are the reference bytes, for shapes of every kind and more shapes than the table keeps', () => {
  const codec = compile(t.json());
  const key = (n, c = 'k') => c.repeat(n);
  const shapes = [
    ['id', 'name', 'score', 'active'],
    ['id', 'name'],
    ['id', 'name', 'score'],
    ['id', 'other'],
    ['id', 'x1', 'x2', 'x3', 'x4', 'x5'],
    ['id', 'name', 'score', 'active', 'extra'],
    ['a'],
    [''],
    ['é', 'ascii'],
    ['ascii', 'é'.repeat(9), key(63), key(64), key(200), '😀'],
    ['0', 'a'],
    ['b', '12', '3'],
    Array.from({ length: 32 }, (_, k) => `m${k}`),
    Array.from({ length: 33 }, (_, k) => `m${k}`),
    Array.from({ length: 20 }, (_, k) => key(k + 1, String.fromCharCode(97 + k))),
  ];
  const object = (keys, round) => Object.fromEntries(keys.map((k, j) => [k, j % 3 === 0 ? round : j % 3 === 1 ? `v${round}` : { [k]: [round] }]));
  // Each shape met once, twice (kept) and more, interleaved, in one message and across.
  for (let round = 0; round < 4; round++) {
    const v = [...shapes.map((keys) => object(keys, round)), ...shapes.map((keys) => object(keys, round + 1))];
    const bytes = codec.encode(v);
    assert.strictEqual(hex(bytes), hex(reference(v)), `round ${round}`);
    assert.deepStrictEqual(codec.decode(bytes), plain(v));
  }
  // Many shapes of one first key (more than a chain holds), and more shapes than the
  // table keeps (it is emptied on the way), each met three times.
  const many = Array.from({ length: 3000 }, (_, k) => (k % 3 === 0 ? ['id', `f${k}`] : [`first${k % 1500}`, 'second', `third${k}`]));
  for (let round = 0; round < 3; round++) {
    const v = many.map((keys) => object(keys, round));
    assert.strictEqual(hex(codec.encode(v)), hex(reference(v)), `many, round ${round}`);
  }
  // The shapes kept before are still right after.
  const v = shapes.map((keys) => object(keys, 9));
  assert.strictEqual(hex(codec.encode(v)), hex(reference(v)));
  // A member's getter that deletes a later member, in an object of a kept shape: keys and
  // values stay in line (the write gives up and put writes what it reads).
  const o = object(shapes[0], 1);
  Object.defineProperty(o, 'id', { enumerable: true, configurable: true, get() { delete o.active; return 5; } });
  const got = codec.decode(codec.encode(o));
  assert.strictEqual(got.id, 5);
  for (const [k, x] of Object.entries(got)) if (k !== 'id') assert.deepStrictEqual(x, object(shapes[0], 1)[k], k);
});

// The json encode's tables (key words, shapes) keep keys from one encode to the next; a
// value's long keys must not stay alive through them (a shape once kept any key).
test('json encodes keep no long keys alive after them: 200 objects of distinct 1 MB keys leave the heap as it was', () => {
  const { runIsolated } = require('./helpers');
  const grown = runIsolated(
    `
      const codec = compile(t.json());
      const heap = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
      codec.encode({ warm: [1, 'x'] });
      const before = heap();
      for (let k = 0; k < 200; k++) {
        // A fresh 1 MB key each time (first in its object, so a new shape), met twice.
        const key = String.fromCharCode(97 + (k % 26)) + 'k'.repeat(1 << 20) + k;
        const value = { [key]: 1, b: 2 };
        codec.encode([value, value]);
      }
      return (heap() - before) / 2 ** 20;
    `,
    ['--expose-gc'],
  );
  assert.ok(grown < 50, `the heap grew ${grown.toFixed(1)} MB`);
});

// A key first met in a message is looked for on Object.prototype before it is set
// (rt.onPrototype): one a polluted prototype has gets defined, never assigned, in json
// objects and records, with and without generated code.
test('json objects and records define a key a polluted Object.prototype has (a setter never runs)', () => {
  const { runIsolated } = require('./helpers');
  for (const codegen of [true, false]) {
    const result = runIsolated(`
      const json = compile(t.json(), { codegen: ${codegen} });
      const record = compile(t.record(t.string()), { codegen: ${codegen} });
      const value = { title: 't', body: 'b'.repeat(40), n: 'seven', inner: [{ body: 'x', other: 1 }] };
      const flat = { title: 't', body: 'b'.repeat(40), n: 'seven' };
      const jb = json.encode(value);
      const rb = record.encode(flat);
      let calls = 0;
      Object.defineProperty(Object.prototype, 'body', { configurable: true, set() { calls++; } });
      Object.defineProperty(Object.prototype, 'n', { configurable: true, value: -1, writable: false });
      let j, r, error = null;
      try { j = json.decode(jb); r = record.decode(rb); } catch (e) { error = String(e); }
      delete Object.prototype.body;
      delete Object.prototype.n;
      const own = (o, k) => Object.getOwnPropertyDescriptor(o, k)?.value;
      return {
        calls,
        error,
        json: j === undefined ? null : [own(j, 'body'), own(j, 'n'), own(j.inner[0], 'body')],
        record: r === undefined ? null : [own(r, 'body'), own(r, 'n')],
      };
    `);
    assert.deepStrictEqual(result, { calls: 0, error: null, json: ['b'.repeat(40), 'seven', 'x'], record: ['b'.repeat(40), 'seven'] }, `codegen ${codegen}`);
  }
});
