'use strict';
// The JS back end (lib/js-backend.js) held to the native one where the differential fuzz
// (scripts/fuzz.js, docs/FUZZING.md) found them apart: each case failed on the first build
// of the back end. Both JS modes: closures alone (a CSP) and generated objects.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { t, compile, ShornError } = require('..');
const { varint, concatBytes } = require('./helpers');
const { leastBudget, seeded } = require('../scripts/fuzz-common');

const JS_MODES = [
  { backend: 'js', codegen: false },
  { backend: 'js', codegen: true },
];

// The outcome of `fn`: the value, or the error's code, offset, path and message.
function outcome(fn) {
  try {
    return { value: fn() };
  } catch (e) {
    assert.ok(e instanceof ShornError, String(e));
    return { code: e.code, offset: e.offset, path: e.path, message: e.message };
  }
}

// Decodes `bytes` (or encodes `value`) on the native back end and on both JS modes: the
// same outcome, and `expected` of it.
function agree(schema, options, run, expected) {
  const native = outcome(() => run(compile(schema, options)));
  for (const mode of JS_MODES) {
    const codec = compile(schema, { ...options, ...mode });
    assert.equal(codec.backend, 'js');
    assert.deepStrictEqual(outcome(() => run(codec)), native, JSON.stringify(mode));
  }
  for (const [key, value] of Object.entries(expected)) assert.equal(native[key], value, key);
}

// The least `maxDecodedBytes` under which the native back end decodes `bytes`.
const nativeEdge = (schema, bytes) => leastBudget((maxDecodedBytes) => !('code' in outcome(() => compile(schema, { maxDecodedBytes }).decode(bytes))));

// Fuzz seed 9304 (2026-12-07, --build browser): at a recursive call both the nesting depth
// and the decode budget may be over; the core checks the depth first (src/engine.rs,
// Op::Call), the JS back end's exact walk charged the definition's heap first.
test('a recursive value over both maxDepth and maxDecodedBytes is refused for its depth, as natively', () => {
  const schema = t.recursive('B', (B) => t.object({ v: t.uint16(), next: t.union([t.uint8(), B]) }));
  const bytes = Buffer.from('80fe0101350f2040f2402a950f597f', 'hex');
  agree(schema, { maxDepth: 1, maxDecodedBytes: 64 }, (c) => c.decode(bytes), { code: 'ERR_SHORN_LIMIT', offset: 4, path: '$.next', message: 'nesting depth 2 at offset 4 ($.next) is over the limit of 1 (maxDepth)' });
  // Under the depth, the budget's error still.
  agree(schema, { maxDepth: 2, maxDecodedBytes: 64 }, (c) => c.decode(bytes), { code: 'ERR_SHORN_LIMIT', offset: 4, path: '$.next' });
});

test('a byte array or typed array over the budget is charged at its first byte, after its length', () => {
  agree(t.bytes(), { maxDecodedBytes: 8 }, (c) => c.decode(concatBytes(varint(15), new Uint8Array(15))), { code: 'ERR_SHORN_LIMIT', offset: 1 });
  agree(t.int16Array(), { maxDecodedBytes: 64 }, (c) => c.decode(concatBytes(varint(2), new Uint8Array(4))), { code: 'ERR_SHORN_LIMIT', offset: 1 });
});

test("a present optional field's value is charged at its presence byte", () => {
  const schema = t.object({ a: t.optional(t.int8Array()) });
  agree(schema, { maxDecodedBytes: 100 }, (c) => c.decode(Uint8Array.from([1, 2, 5, 6])), { code: 'ERR_SHORN_LIMIT', offset: 0 });
  agree(schema, { maxDecodedBytes: 100 }, (c) => c.decode(Uint8Array.from([0])), {});
});

// Fuzz seed 4101 (2026-12-06): a json -0 is a float on the wire (0x03) and a heap number
// in V8, charged as one natively; the exact path took it for a small integer (0 to 63,
// free) and decoded what the native back end refused.
test('a json -0 is charged as a heap number, as natively', () => {
  const minusZero = Uint8Array.from([0x03, 0, 0, 0, 0, 0, 0, 0, 0x80]);
  agree(t.json(), { maxDecodedBytes: 0 }, (c) => c.decode(minusZero), { code: 'ERR_SHORN_LIMIT', offset: 0 });
  agree(t.json(), { maxDecodedBytes: 15 }, (c) => c.decode(minusZero), { code: 'ERR_SHORN_LIMIT', offset: 0 });
  agree(t.json(), { maxDecodedBytes: 16 }, (c) => Object.is(c.decode(minusZero), -0), { value: true });
  agree(t.json(), { maxDecodedBytes: 0 }, (c) => c.decode(Uint8Array.from([0x40])), { value: 0 });
  agree(t.array(t.json()), { maxDecodedBytes: 40 }, (c) => c.decode(Uint8Array.from([2, 0x40, ...minusZero])), { code: 'ERR_SHORN_LIMIT' });
});

// Fuzz seed 4102 (2026-12-06): a record's key that is an array index goes to JS as its
// number, not as text (src/types/json.rs, INDEX_KEY), so the core's estimate of the text
// leaves it out; the JS back end counted its digits, and refused at the budget what the
// native back end decoded. Json objects' keys are text either way.
test("a record's array-index keys are not counted as text in the decode budget, as natively", () => {
  const cases = [
    [t.record(t.uint8()), { 5: 1, 6: 1 }],
    [t.record(t.uint8()), { 0: 1, a: 1, 4294967295: 2, '01': 3 }],
    [t.record(t.uint8()), Object.fromEntries(Array.from({ length: 300 }, (_, i) => [String(i * 3), 1]))],
    [t.record(t.json()), { 5: { 7: 1 }, 中: { 12: [-0.5] } }],
    [t.object({ r: t.record(t.string()), j: t.json() }), { r: { 12: 'x', 4294967294: 'y' }, j: { 3: 1 } }],
  ];
  for (const [schema, value] of cases) {
    const bytes = compile(schema).encode(value);
    // The least budget the native back end decodes the message under.
    const heap = nativeEdge(schema, bytes);
    assert.ok(heap > 0 && heap < 1 << 20);
    // The closures' own estimate, as a batch of frames asks for it (lib/framing.js).
    require('../lib/runtime').state.grown = true;
    compile(schema, { backend: 'js', codegen: false }).decode(bytes);
    assert.equal(require('../lib/runtime').decodedHeap(), heap);
    agree(schema, { maxDecodedBytes: heap }, (c) => c.decode(bytes), {});
    assert.deepStrictEqual(compile(schema, { maxDecodedBytes: heap, backend: 'js' }).decode(bytes), value);
    agree(schema, { maxDecodedBytes: heap - 1 }, (c) => c.decode(bytes), { code: 'ERR_SHORN_LIMIT' });
  }
});

// The frames fuzz of the JS back end (scripts/fuzz.js --target frames, seed 4125,
// 2026-12-06): natively a message's json object keys and records' keys go into one table
// (src/types/json.rs, KeyIds: up to 256 keys of up to 64 bytes on the wire), and a key met
// again is its id, with no text; so its text counts once in the estimate. The JS back end
// counted it every time, and refused at the budget what the native back end decoded
// (`{"a":{"id":""},"id":""}`: 379 natively, 381).
test('a key that repeats in a message counts once as text in the decode budget, as natively, up to the core table of 256 keys of 64 bytes', () => {
  const many = (n, at) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${at + i}`, i]));
  const long = 'é'.repeat(31); // 62 bytes, 2 for its length: 64 on the wire, kept
  const longer = 'é'.repeat(32); // 65: never kept, counted each time
  const cases = [
    [t.json(), { a: { id: '' }, id: '' }],
    [t.json(), { '😀': { id: '' }, id: '' }],
    [t.json(), [{ 0: 1, id: 2 }, { 0: 3, id: 4 }]],
    [t.json(), [{ [long]: 1 }, { [long]: 2 }, { [longer]: 3 }, { [longer]: 4 }]],
    [t.array(t.record(t.uint8())), [{ a: 1, 中: 2 }, { a: 3, 中: 4, 7: 5 }, { 7: 6 }]],
    [t.object({ r: t.record(t.json()), j: t.json() }), { r: { id: { id: 1, x: 2 } }, j: { x: { id: 3 } } }],
    // Past 256 kept keys, a new key is not kept: counted each time it comes.
    [t.json(), [many(250, 0), many(10, 250), many(10, 250), many(20, 0)]],
    [t.array(t.record(t.json())), [many(260, 0), many(260, 0)]],
  ];
  for (const [schema, value] of cases) {
    const bytes = compile(schema).encode(value);
    const heap = nativeEdge(schema, bytes);
    assert.ok(heap > 0 && heap < 1 << 20);
    const rt = require('../lib/runtime');
    for (const codegen of [false, true]) {
      // Exact, as a batch of frames asks for it (lib/framing.js sets `state.grown`).
      rt.state.grown = true;
      compile(schema, { backend: 'js', codegen }).decode(bytes);
      assert.equal(rt.decodedHeap(), heap, `${JSON.stringify(value).slice(0, 60)} (codegen ${codegen})`);
    }
    agree(schema, { maxDecodedBytes: heap }, (c) => c.decode(bytes), {});
    assert.deepStrictEqual(compile(schema, { maxDecodedBytes: heap, backend: 'js' }).decode(bytes), value);
    agree(schema, { maxDecodedBytes: heap - 1 }, (c) => c.decode(bytes), { code: 'ERR_SHORN_LIMIT' });
    // A batch of frames adds up each frame's estimate: at the native edge and one below.
    const frames = compile(schema).encodeFrames([value, value, value]);
    const batch = leastBudget((maxDecodedBytes) => !('code' in outcome(() => compile(schema).decodeFrames(frames, { maxDecodedBytes }))));
    agree(schema, {}, (c) => c.decodeFrames(frames, { maxDecodedBytes: batch }).length, { value: 3 });
    agree(schema, {}, (c) => c.decodeFrames(frames, { maxDecodedBytes: batch - 1 }), { code: 'ERR_SHORN_LIMIT' });
  }
});

// The keys of json objects and records are kept by the JS back end's decoder from one
// message to the next (lib/closures.js, `readKey`): a key met again is the string made
// the first time, found by a hash of its bytes. Each decode below runs on a codec that has
// decoded `warm` first, so its keys are in the table.
test('keys of json objects and records met in earlier messages decode as natively: colliding, array-index, non-ASCII, mutated, at the budget', () => {
  // 'aXbc' and 'aYbc' differ only where the hash does not look (first, middle, last byte
  // and length): one entry.
  const keys = ['aXbc', 'aYbc', 'id', 'type', 'x'.repeat(32), 'y'.repeat(33), 'é', 'ünï', 'constructor', 'toString', '__proto__', 'hasOwnProperty', '0', '7', '10', '4294967294', '4294967295', '01'];
  const object = (k) => {
    const o = {};
    for (let j = 0; j < keys.length; j++) Object.defineProperty(o, keys[(j + k) % keys.length], { value: j, writable: true, enumerable: true, configurable: true });
    return o;
  };
  const rows = Array.from({ length: 40 }, (_, k) => object(k));
  const warm = (schema, value) =>
    JS_MODES.map((mode) => {
      const codec = compile(schema, mode);
      codec.decode(compile(schema).encode(value));
      return codec;
    });
  for (const schema of [t.json(), t.array(t.record(t.uint32()))]) {
    const bytes = compile(schema).encode(rows);
    const codecs = warm(schema, rows);
    for (const codec of codecs) {
      assert.deepStrictEqual(codec.decode(bytes), rows);
      // Own keys in the order the native back end gives them, `__proto__` among them.
      assert.deepStrictEqual(codec.decode(bytes).map(Reflect.ownKeys), compile(schema).decode(bytes).map(Reflect.ownKeys));
    }
    // Every byte of the first row's keys changed to another ASCII letter, a non-ASCII
    // byte, a stray continuation byte and an index digit: the native value or error.
    const native = compile(schema);
    for (let at = 0; at < 200; at++) {
      for (const b of [0x41, 0xe9, 0x80, 0x30]) {
        const m = Uint8Array.from(bytes);
        m[at] = b;
        const expected = outcome(() => native.decode(m));
        for (const codec of codecs) assert.deepStrictEqual(outcome(() => codec.decode(m)), expected, `byte ${at} = ${b}`);
      }
    }
    // The budget at the native edge and one below it, on warm codecs.
    const heap = nativeEdge(schema, bytes);
    for (const maxDecodedBytes of [heap - 1, heap]) {
      const expected = outcome(() => compile(schema, { maxDecodedBytes }).decode(bytes).length);
      for (const codegen of [false, true]) {
        const codec = compile(schema, { maxDecodedBytes, backend: 'js', codegen });
        codec.decode(compile(schema).encode(rows.slice(0, 3)));
        assert.deepStrictEqual(outcome(() => codec.decode(bytes).length), expected, `${maxDecodedBytes} (codegen ${codegen})`);
      }
    }
  }
  // Keys that never repeat (the table stops looking), then ones that do.
  const unique = Object.fromEntries(Array.from({ length: 3000 }, (_, k) => [`u${k.toString(36)}`, k]));
  for (const codec of warm(t.json(), unique)) {
    assert.deepStrictEqual(codec.decode(compile(t.json()).encode(unique)), unique);
    assert.deepStrictEqual(codec.decode(compile(t.json()).encode(rows)), rows);
  }
});

// A key kept from an earlier message is still set as an own property where Object.prototype
// has gained a setter of that name since: the setter never runs.
test("a kept key that Object.prototype has gained since is set as the decoded object's own, as natively", () => {
  const value = { plain: 1, later: 2, 5: 3 };
  for (const schema of [t.json(), t.record(t.uint8())]) {
    const bytes = compile(schema).encode(value);
    const codecs = JS_MODES.map((mode) => compile(schema, mode));
    for (const codec of codecs) assert.deepStrictEqual(codec.decode(bytes), value);
    let calls = 0;
    Object.defineProperty(Object.prototype, 'later', { set: () => calls++, get: () => 'inherited', configurable: true });
    try {
      for (const codec of [compile(schema), ...codecs]) {
        const o = codec.decode(bytes);
        assert.deepStrictEqual(Object.getOwnPropertyDescriptor(o, 'later'), { value: 2, writable: true, enumerable: true, configurable: true });
      }
      assert.equal(calls, 0);
    } finally {
      delete Object.prototype.later;
    }
  }
});

// A union whose variants take values of different kinds (lib/lower.js, `kinds`) writes a
// value by the one variant of its kind, with no test of the others; a union whose kinds
// overlap still tests its variants in turn. Either way: the native bytes or error.
test('a union writes a value by the variant of its kind, or by testing its variants in turn where kinds overlap, as natively', () => {
  const Tree = t.recursive('Tree', (self) => t.object({ v: t.uint8(), kids: t.array(self) }));
  const unions = [
    t.union([t.uint8(), t.string({ maxLength: 3 }), t.bool(), t.array(t.string())]),
    t.union([t.float64(), t.string()]),
    t.union([t.int64(), t.null(), t.literal('none'), t.date()]),
    t.union([t.nullable(t.uint16()), t.enum(['a', 'b'])]),
    t.union([t.union([t.uint8(), t.string()]), t.bytes()]),
    t.union([t.literal(1), t.literal(true), t.literal('x'), Tree]),
    // Kinds that overlap: tested in turn, the first that takes the value.
    t.union([t.uint8(), t.float64()]),
    t.union([t.object({ a: t.uint8() }), t.object({ b: t.string() }), t.array(t.uint8())]),
    t.union([t.json(), t.uint8()]),
    t.union([t.uint8(), t.json()]),
    t.union([t.map(t.string(), t.uint8()), t.record(t.uint8()), t.float32Array()]),
    // Each kind declared by one variant and taken by an earlier one too (an empty object
    // takes any object that is not an array): a kind declared wrong would pick the later.
    ...[t.date(), t.bytes(), t.float32Array(), t.map(t.string(), t.uint8()), t.record(t.uint8())].map((v) => t.union([v, t.object({})])),
    t.union([t.literal(1), t.float64()]),
    t.union([t.literal('x'), t.enum(['x', 'y']), t.string()]),
    t.union([t.literal(true), t.bool()]),
    t.union([t.null(), t.nullable(t.uint8())]),
    t.union([t.int64(), t.uint64()]),
    t.union([t.tuple([t.uint8()]), t.array(t.uint8())]),
    // Arrays apart from other objects; a record takes an array whose prototype is
    // Object.prototype, which is tested variant by variant.
    t.union([t.array(t.uint8()), t.record(t.uint8())]),
    t.union([t.record(t.uint8()), t.tuple([t.uint8()])]),
    t.recursive('Json', (self) => t.union([t.float64(), t.string(), t.bool(), t.null(), t.array(self), t.record(self)])),
  ];
  const values = [0, 1, 3, 255, 256, -1, 3.5, NaN, 2n ** 70n, 5n, '', 'x', 'abc', 'abcd', 'none', 'a', true, false, null, undefined, [], ['a', 'b'], [1, 2], ['a', 1], new Date(0), new Date(NaN), new Uint8Array([1]), new Float32Array([1]), { a: 1 }, { b: 'x' }, { a: 300 }, { v: 1, kids: [{ v: 2, kids: [] }] }, { v: 1, kids: [{ v: 256, kids: [] }] }, new Map([['k', 1]]), { k: 2 }, Symbol('s'), () => 1, Object.setPrototypeOf([1], Object.prototype), Object.setPrototypeOf([2], null), new Proxy([3], {}), Object.setPrototypeOf({ 0: 4 }, Array.prototype), [1, [2, { a: 'x', b: [null, true] }]], { a: [1, { b: 'c' }], 0: 2 }, [1, [2, { a: undefined }]], { a: [1, 2n] }, [[[[[[1n]]]]]], { a: { b: { c: [new Date(0)] } } }];
  for (const u of unions) {
    for (const value of values) {
      for (const schema of [u, t.object({ u, after: t.uint8() })]) {
        const x = schema === u ? value : { u: value, after: 7 };
        const run = (c) => Buffer.from(c.encode(x)).toString('hex');
        agree(schema, {}, run, {});
        // The native back end's generated code against its generic marshaller, which tests
        // each variant in turn.
        assert.deepStrictEqual(outcome(() => run(compile(schema))), outcome(() => run(compile(schema, { codegen: false }))));
      }
    }
  }
});

// The generic marshaller (check, encode without generated code, the JS back end's exact
// walk) puts a value by the variant of its kind untested too (lib/generic.js, putVariant),
// and goes back to testing each variant in turn where that put finds any issue: every
// outcome is the one the walk gives with no variant found by kind.
test('check, the generic encode and the exact walk give what testing each variant in turn gives', () => {
  const { Marshaller } = require('../lib/generic');
  const Json = t.recursive('Json', (self) => t.union([t.float64(), t.string(), t.bool(), t.null(), t.array(self), t.record(self)]));
  const Item = t.object({ e: t.string({ format: 'email' }), n: t.uint8(), tags: t.array(t.string({ maxLength: 3 })) });
  const unions = [
    Json,
    t.object({ j: Json, after: t.uint8() }),
    t.union([t.array(Item), t.string({ pattern: /^[a-z]+$/ }), t.null()]),
    t.array(t.union([Item, t.array(t.uint8()), t.date()])),
    t.union([t.map(t.string(), t.uint8()), t.array(t.uint8()), t.bytes()]),
    // Fuzz seeds 39 and 40 (fuzz.test.js): a json value's error thrown by the exact walk's
    // own encoder of it, and a Map whose size lies (refused by the put, not the test).
    t.record(t.union([t.json()])),
    t.recursive('A', (self) => t.object({ m: t.union([t.uint8(), t.map(t.string(), t.uint8())]), next: t.union([t.null(), self]) })),
  ];
  const liar = new Map([['k', 1]]);
  Object.defineProperty(liar, 'size', { get: () => 2 });
  const values = [
    { 3: [1, 2, undefined] },
    { m: 1, next: { m: liar, next: null } },
    { m: liar, next: null },
    { a: [1, 'x', null, true, { b: [] }] },
    [1n, { a: undefined, b: [Symbol('s')] }, 'x\ud800', NaN],
    { j: [{ k: [1, 2, 3n] }], after: 300 },
    { j: { a: 'ok' }, after: 1 },
    [{ e: 'bad', n: 300, tags: ['abcd', 'ok'] }, { e: 'x\ud800@b.co', n: 1, tags: [] }],
    [{ e: 'a@b.co', n: 1, tags: ['x'] }],
    'abc', 'ABC', 'x\ud800', null, [], [[1, 2], [300]],
    [new Date(0), new Date(NaN), { e: 'a@b.co', n: 2, tags: [] }, [256]],
    new Map([['k', 1]]), new Map([['k', 300]]), new Uint8Array(2), [1, 2], Object.setPrototypeOf([1], Object.prototype),
  ];
  const outcomes = () =>
    unions.flatMap((schema) =>
      values.map((value) => {
        const run = (f) => {
          try {
            return f();
          } catch (e) {
            assert.ok(e instanceof ShornError, String(e));
            return `${e.code} ${e.path} ${e.message}`;
          }
        };
        return [
          run(() => compile(schema).check(value)),
          run(() => compile(schema).check(value, { maxIssues: 2 })),
          run(() => Buffer.from(compile(schema, { codegen: false }).encode(value)).toString('hex')),
          run(() => Buffer.from(compile(schema, { backend: 'js' }).encode(value)).toString('hex')),
          run(() => Buffer.from(compile(schema, { backend: 'js', codegen: false }).encode(value)).toString('hex')),
          run(() => Buffer.from(compile(schema).encode(value)).toString('hex')),
        ];
      }),
    );
  const found = outcomes();
  const byKind = Marshaller.prototype.variantByKind;
  Marshaller.prototype.variantByKind = () => -2;
  let tested;
  try {
    tested = outcomes();
  } finally {
    Marshaller.prototype.variantByKind = byKind;
  }
  assert.deepStrictEqual(found, tested);
});

// A union found by kind puts its variant untested, and takes the error of a value its
// variant refuses as the union's own: an error a user's getter throws meanwhile is not
// one of those, and passes through as where each variant is tested first.
test("a getter's error inside a union's variant passes through, on every back end", () => {
  const schema = t.array(t.union([t.uint8(), t.array(t.object({ a: t.uint8() }))]));
  const boom = new TypeError('boom');
  const value = [1, [{ a: 1 }, { get a() { throw boom; } }]];
  const inner = () => [0, [{ get a() { return compile(t.uint8()).encode('x'); } }]];
  for (const options of [{}, { codegen: false }, ...JS_MODES]) {
    assert.throws(() => compile(schema, options).encode(value), (e) => e === boom, JSON.stringify(options));
    // A ShornError of the user's own (another codec's, thrown by the getter): its code and
    // path, not the union's.
    assert.throws(() => compile(schema, options).encode(inner()), (e) => e.code === 'ERR_SHORN_INVALID' && e.path === '$', JSON.stringify(options));
  }
});

// Fuzz seed 9311 (2026-12-07, input 91273): the getter encodes with the same codec a value
// whose error is its own union's (found by kind too). That nested encode left its error as
// the marshaller's last thrown, so the outer union took it for its own when the getter
// threw it again, and rebased it onto its path ($[0][1].next.v for the nested $[1].next.v).
test("a ShornError a getter throws from a nested encode with the same codec passes through a union unchanged", () => {
  const schema = t.array(t.recursive('T', (T) => t.object({ v: t.uint8(), next: t.union([t.uint8(), T]) })));
  for (const options of [{}, { codegen: false }, ...JS_MODES]) {
    const codec = compile(schema, options);
    const bad = [{ v: 1, next: 0 }, { v: 1, next: { v: 'x', next: 0 } }];
    const nested = outcome(() => codec.encode(bad));
    assert.equal(nested.path, '$[1].next.v');
    const value = [{ v: 1, next: { get v() { return codec.encode(bad).length; }, next: 0 } }];
    assert.deepStrictEqual(outcome(() => codec.encode(value)), nested, JSON.stringify(options));
  }
});

// Fuzz seed 9352 (2026-12-07, input 161638): a value too deep for its put, under a union,
// with a getter below it. A union tested in turn reads the getter in its test (which
// counts depth from the union) and passes on what it throws; the generated code's union
// by kind put the value first, found it too deep, and threw the union's error instead.
test("a union's value too deep for its put, with a throwing getter in it, throws the getter's error", () => {
  const T = t.recursive('T', (T) => t.object({ v: t.object({ k: t.uint8() }), next: t.union([t.uint8(), T]) }));
  const schema = t.recursive('A', (A) => t.object({ v: T, next: t.union([t.uint8(), A]) }));
  const boom = new TypeError('boom');
  const value = () => ({ v: { v: { k: 1 }, next: { v: { get k() { throw boom; } }, next: 0 } }, next: 0 });
  for (const options of [{}, { codegen: false }, ...JS_MODES]) {
    assert.throws(() => compile(schema, { ...options, maxDepth: 2 }).encode(value()), (e) => e === boom, JSON.stringify(options));
    // Without the getter: the depth's error, at the union.
    const plain = { v: { v: { k: 1 }, next: { v: { k: 1 }, next: 0 } }, next: 0 };
    assert.deepStrictEqual(outcome(() => compile(schema, { ...options, maxDepth: 2 }).encode(plain)), outcome(() => compile(schema, { maxDepth: 2, codegen: false }).encode(plain)), JSON.stringify(options));
  }
});

// A differential check of large arrays of strings (2026-12-06) found the exact decode's
// estimate of the text over the native one's: it counted every string value, an enum's
// and a literal's too, which the core takes from the schema, not from the text. Only the
// message's figure differed (the closures, which decide, count the text alone).
test("an enum's or a literal's string is not counted as text in the decode budget's figure, as natively", () => {
  const schemas = [
    t.object({ xs: t.array(t.string()), ys: t.array(t.enum(['p', 'q', 'r'])), n: t.uint8() }),
    t.object({ xs: t.array(t.string()), k: t.literal('constant'), n: t.uint8() }),
    t.object({ xs: t.array(t.string()), ys: t.array(t.enum(['p', 'q', 'r'])) }),
  ];
  const values = [
    { xs: ['babbéb'], ys: ['r'], n: 3 },
    { xs: ['babbéb', '李'], k: 'constant', n: 3 },
    { xs: ['李'], ys: ['p', 'q', 'r', 'r'] },
  ];
  for (const [k, schema] of schemas.entries()) {
    const bytes = compile(schema).encode(values[k]);
    const hi = nativeEdge(schema, bytes);
    const lo = hi - 1;
    for (const maxDecodedBytes of [lo - 1, lo, hi]) agree(schema, { maxDecodedBytes }, (c) => c.decode(bytes), {});
  }
});

test("nested Maps keep their own sizes: an inner Map's error has the native path", () => {
  // A key Map whose values are Maps of another size, then an error deeper on: the exact
  // walk runs, and each Map checks its own entries against its own size.
  const schema = t.map(t.map(t.string(), t.map(t.string(), t.uint8())), t.uint8());
  const value = new Map([
    [new Map([['a', new Map([['x', 1], ['y', 2]])]]), 1],
    [new Map([['b', new Map([['z', 300]])]]), 2],
  ]);
  agree(schema, {}, (c) => c.encode(value), { code: 'ERR_SHORN_INVALID', path: '$[1][0][0][1][0][1]' });
});

test("a Map whose size is not its number of entries is refused, never written with the wrong count", () => {
  const m = new Map([['a', true]]);
  Object.defineProperty(m, 'size', { get: () => 3 });
  for (const mode of JS_MODES) {
    assert.throws(() => compile(t.map(t.string(), t.bool()), mode).encode(m), (e) => e instanceof ShornError && e.code === 'ERR_SHORN_INVALID' && e.path === '$');
  }
});

test('a detached byte or typed array encodes as an empty one, as the native back end reads it', () => {
  for (const [schema, Class] of [[t.bytes(), Uint8Array], [t.float64Array(), Float64Array]]) {
    const make = () => {
      const buffer = new ArrayBuffer(16);
      const x = new Class(buffer);
      structuredClone(buffer, { transfer: [buffer] });
      return x;
    };
    agree(schema, {}, (c) => [...c.encode(make())], {});
    assert.deepStrictEqual([...compile(schema, { backend: 'js' }).encode(make())], [0]);
  }
});

// A check of text bytes as a string field's: decoded on both JS modes as natively (the
// value or the error); returns the native outcome.
function textChecker() {
  const schema = t.object({ s: t.string(), after: t.uint8() });
  const native = compile(schema);
  const js = JS_MODES.map((mode) => compile(schema, mode));
  return (text) => {
    const bytes = concatBytes(varint(text.length), text, Uint8Array.of(7));
    const want = outcome(() => native.decode(bytes));
    for (const codec of js) assert.deepStrictEqual(outcome(() => codec.decode(bytes)), want, Buffer.from(text).toString('hex'));
    return want;
  };
}

// Every 1-4 byte prefix of a sequence from lead byte `edges` and continuation bytes of
// the UTF-8 grammar's edges (the third from CONT or none, the fourth from `lasts` or
// none), in the same order each time: the cores the text tests put around ASCII, Latin-1
// and wide text.
const CONT = [0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0];
function* utf8Cores(edges, lasts) {
  for (const lead of edges) {
    for (const c1 of CONT) {
      for (const c2 of [...CONT, null]) {
        for (const c3 of [...lasts, null]) {
          const seq = [lead, c1, c2, c3].filter((x) => x !== null);
          for (let cut = 1; cut <= seq.length; cut++) yield seq.slice(0, cut);
        }
      }
    }
  }
}

// Short text (up to 24 bytes) is decoded in JS on this back end (lib/closures.js,
// `shortUtf8`), longer text by a fatal TextDecoder: every 1-4 byte sequence of the UTF-8
// grammar's edges, alone and between ASCII, and random and mutated short texts, decode as
// natively, to the value or the error.
test('short text decodes as natively: every edge of UTF-8, and random and mutated bytes', () => {
  const check = textChecker();
  const EDGES = [0x00, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff];
  let valid = 0;
  for (const core of utf8Cores(EDGES, [0x80, 0xbf, 0x41])) {
    if (!('code' in check(Uint8Array.from(core)))) valid++;
    check(Uint8Array.from([0x61, ...core, 0x62]));
  }
  // Random text: mostly well-formed (several scripts), then with a byte changed or cut.
  const SAMPLES = ['zoë', 'łukasz', 'søren', 'ñuño', '李小龍', 'ярослава', '🚀x', 'ÿ', 'a\u0000b', '\ufeffbom', 'é🌍é', '\u07ff\u0800\uffff'];
  let seed = 0x5eed;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let n = 0; n < 3000; n++) {
    let text = '';
    while (text.length < 1 + Math.floor(next() * 10)) text += SAMPLES[Math.floor(next() * SAMPLES.length)];
    let bytes = new Uint8Array(Buffer.from(text)).subarray(0, 1 + Math.floor(next() * 24));
    if (n % 2 === 1 && bytes.length > 0) {
      bytes = Uint8Array.from(bytes);
      bytes[Math.floor(next() * bytes.length)] = Math.floor(next() * 256);
    }
    if (!('code' in check(bytes))) valid++;
  }
  assert.ok(valid > 1000, `${valid} texts were well-formed`);
});

test('a lone surrogate is refused as natively at every length and place, and text around it is written as natively', () => {
  // The closures find a lone surrogate in short text as they write it and in long text
  // (64 units or more, written by Buffer#utf8Write or TextEncoder, which would write
  // U+FFFD in its place) before; in Node, text of 256 units or more after, where its
  // UTF-8 holds a U+FFFD (a text of U+FFFDs of its own is written); ASCII is not checked.
  const schema = t.object({ a: t.uint8(), s: t.string(), tail: t.array(t.string()) });
  const FILL = ['a', 'é', '李', '🚀', '\ufffd'];
  const LONE = ['\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800'];
  let refused = 0;
  for (const length of [0, 1, 2, 15, 16, 42, 43, 63, 64, 65, 127, 128, 129, 200, 255, 256, 257, 5461, 5462]) {
    for (const fill of FILL) {
      let text = '';
      while (text.length < length) text += fill;
      text = text.slice(0, length);
      // The text itself (a cut 🚀 leaves a lone high surrogate at its end), then a lone
      // surrogate at its start, middle and end.
      const texts = [text];
      for (const lone of LONE) {
        for (const at of [0, Math.floor(length / 2), length]) texts.push(text.slice(0, at) + lone + text.slice(at));
      }
      for (const s of texts) {
        for (const value of [{ a: 1, s, tail: [] }, { a: 1, s: 'x', tail: ['ok', s] }]) {
          agree(schema, {}, (codec) => Buffer.from(codec.encode(value)).toString('hex'), {});
          if (!s.isWellFormed()) {
            refused++;
            assert.throws(() => compile(schema).encode(value), { code: 'ERR_SHORN_INVALID' });
          }
        }
      }
    }
  }
  assert.ok(refused > 500, `${refused} refused`);
});

test('text of over 24 bytes decodes as natively: every edge of UTF-8 after and before 30 ASCII bytes, a U+FFFD of its own, and random and mutated bytes', () => {
  // In Node such text is read by Buffer#utf8Slice, which puts U+FFFD where the bytes are
  // not UTF-8; then the fatal decoder decides.
  const check = textChecker();
  const PAD = Array.from({ length: 30 }, (_, k) => 0x61 + (k % 26));
  const EDGES = [0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xf8, 0xfc, 0xfe, 0xff];
  let valid = 0;
  let refused = 0;
  for (const core of utf8Cores(EDGES, [0x80, 0xbf])) {
    for (const text of [[...PAD, ...core], [...core, ...PAD], [...PAD, ...core, 0xc3, 0xa9]]) {
      if ('code' in check(Uint8Array.from(text))) refused++;
      else valid++;
    }
  }
  // U+FFFD, U+FEFF and the largest code points in the text itself: well-formed.
  for (const s of ['\ufffd', '\ufeff', '\uffff', '\u{10ffff}']) {
    for (const text of [`${s}${'x'.repeat(30)}`, `${'x'.repeat(30)}${s}`, s.repeat(20)]) {
      const got = check(new Uint8Array(Buffer.from(text)));
      assert.deepStrictEqual(got, { value: { s: text, after: 7 } });
    }
  }
  const SAMPLES = ['zoë', 'łukasz', '李小龍', 'ярослава', '🚀x', '\ufffd', 'é🌍é', '\u07ff\u0800\uffff', 'plain ascii text '];
  let seed = 0x5eed5;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let n = 0; n < 3000; n++) {
    let text = '';
    while (text.length < 10 + Math.floor(next() * 60)) text += SAMPLES[Math.floor(next() * SAMPLES.length)];
    let bytes = new Uint8Array(Buffer.from(text));
    bytes = bytes.subarray(0, Math.max(25, Math.floor(next() * bytes.length) + 1));
    if (n % 2 === 1) {
      bytes = Uint8Array.from(bytes);
      bytes[Math.floor(next() * bytes.length)] = Math.floor(next() * 256);
    }
    if ('code' in check(bytes)) refused++;
    else valid++;
  }
  assert.ok(valid > 1500 && refused > 1500, `${valid} well-formed, ${refused} refused`);
});

test('text of over 24 bytes whose first 8 bytes are not all ASCII, decoded in JS (lib/host.js, `unitsText.utf8`): every edge of UTF-8 at its start, after Latin-1 text and after a wide char; long Latin-1, wide and mixed text; and its heap estimate, as natively', () => {
  // In Node such text is decoded by a JS loop into a scratch Buffer, one byte a char while
  // the chars fit one, then two; up to 4,096 bytes (longer text by Buffer#utf8Slice), and
  // on Node 24 under 32 bytes (from 32 by Buffer#utf8Slice: lib/host.js, `nativeUtf8From`).
  const check = textChecker();
  const PAD = Array.from({ length: 30 }, (_, k) => 0x61 + (k % 26));
  const LATIN1 = [0xc3, 0xa9, 0x61, 0xc2, 0xa0, 0x62, 0xc3, 0xbf];
  const WIDE = [0xc5, 0x81, 0xe6, 0x9d, 0x8e, 0xf0, 0x9f, 0x9a, 0x80];
  const EDGES = [0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
  let valid = 0;
  let refused = 0;
  for (const core of utf8Cores(EDGES, [0x80, 0xbf])) {
    for (const text of [[...core, ...PAD], [...LATIN1, ...core, ...PAD], [...WIDE, ...core, ...PAD], [...LATIN1, ...PAD, ...core]]) {
      if ('code' in check(Uint8Array.from(text))) refused++;
      else valid++;
    }
  }
  assert.ok(valid > 500 && refused > 500, `${valid} well-formed, ${refused} refused`);
  // Long text around the scratch's 4,096 bytes: Latin-1 alone, wide alone, and Latin-1
  // turning wide at its end (the one-byte chars copied to two).
  for (const [unit, tail] of [['é', ''], ['李', ''], ['é', '李'], ['é', '🚀'], ['Łé', '']]) {
    for (const bytes of [25, 30, 31, 32, 33, 34, 4094, 4095, 4096, 4097, 4100, 9000]) {
      let text = '';
      while (Buffer.byteLength(text + unit + tail) <= bytes) text += unit;
      text += tail;
      const got = check(new Uint8Array(Buffer.from(text)));
      assert.deepStrictEqual(got, { value: { s: text, after: 7 } });
    }
  }
  // The heap estimate counts a text's units twice once one is past U+00FF: a budget just
  // over a one-byte text's estimate takes the Latin-1 text and refuses the wide one of as
  // many units, at the same offset on every back end.
  const schema = t.object({ s: t.string(), after: t.uint8() });
  for (const [latin1, wide] of [['é'.repeat(600), `${'é'.repeat(599)}Ł`], [`Ł${'a'.repeat(599)}`, `Ł${'a'.repeat(599)}`]]) {
    for (const maxDecodedBytes of [700, 1300, 2400]) {
      for (const s of [latin1, wide]) {
        const bytes = compile(schema).encode({ s, after: 7 });
        agree(schema, { maxDecodedBytes }, (codec) => codec.decode(bytes), {});
      }
    }
  }
});

// The JS read of small messages on this back end takes text of any kind
// (lib/small-text.js, `smallText`), not only ASCII of up to 16 bytes: every length across
// 16 and 24 bytes, Latin-1, wide and 4-byte chars, each string's bytes overwritten with
// what is not UTF-8, and budgets about the estimate of two bytes a unit.
test('small messages with text of every kind, read in JS on the JS back end: values and errors as natively', () => {
  const schema = t.object({ id: t.uint32(), name: t.string(), bio: t.string(), tag: t.optional(t.string({ maxLength: 20 })) });
  const texts = ['', 'a'.repeat(16), 'a'.repeat(17), 'a'.repeat(25), 'é'.repeat(8), 'é'.repeat(12), 'é'.repeat(13), 'Zoë Łukasz 李小龍 🚀 Ñuño', 'Программистка — 数学者 🚀🌍', 'ÿ'.repeat(100), '李'.repeat(70)];
  const bad = [[0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82, 0x41], [0x80], [0xff], [0xf0, 0x9f, 0x9a]];
  for (const name of texts) {
    for (const bio of texts) {
      for (const tag of [undefined, 'é'.repeat(20), 'é'.repeat(21)]) {
        const value = { id: 5, name, bio, tag };
        agree(schema, {}, (codec) => Buffer.from(codec.encode(value)).toString('hex'), {});
        if (tag !== undefined && tag.length > 20) continue;
        const bytes = compile(schema).encode(value);
        agree(schema, {}, (codec) => codec.decode(bytes), {});
        for (const maxDecodedBytes of [200, 400, 700]) agree(schema, { maxDecodedBytes }, (codec) => codec.decode(bytes), {});
        // Each string's first bytes (after the id and the length) made not UTF-8.
        const at = [2, 2 + Buffer.byteLength(name) + 1];
        for (const [k, where] of at.entries()) {
          const length = Buffer.byteLength(k === 0 ? name : bio);
          for (const b of bad) {
            if (b.length > length) continue;
            const m = Uint8Array.from(bytes);
            m.set(b, where);
            agree(schema, {}, (codec) => codec.decode(m), {});
          }
        }
      }
    }
  }
});

test('small messages on the JS back end (the JS read and write of lib/codegen.js where code is generated): values, bytes and errors as natively', () => {
  const schema = t.object({
    id: t.uint32(),
    kind: t.enum(['a', 'bb', 'ccc']),
    name: t.string({ maxLength: 12 }),
    score: t.float64(),
    tags: t.array(t.string()),
    note: t.optional(t.string()),
    ok: t.bool(),
    pick: t.union([t.uint8(), t.string()]),
  });
  const base = { id: 7, kind: 'bb', name: 'ada', score: 1.5, tags: ['x', 'yy'], note: undefined, ok: true, pick: 3 };
  const values = [
    base,
    { ...base, note: 'here', pick: 'p' },
    { ...base, name: 'zoë łukasz' },
    { ...base, name: 'far too long a name' },
    { ...base, id: -1 },
    { ...base, kind: 'd' },
    { ...base, score: NaN },
    { ...base, tags: ['a', 'b', 'c', 'd', 'e'] },
    { ...base, tags: Array.from({ length: 300 }, () => 'ab') },
    { ...base, tags: ['a', 7] },
    { ...base, pick: 300 },
    { ...base, name: 'a'.repeat(300) },
    { ...base, name: '\ud800' },
  ];
  for (const value of values) {
    agree(schema, {}, (codec) => Buffer.from(codec.encode(value)).toString('hex'), {});
    for (const size of [0, 5, 64]) {
      agree(schema, {}, (codec) => {
        const target = new Uint8Array(size + 3);
        const n = codec.encodeInto(value, target, 3);
        return Buffer.from(target.subarray(3, 3 + n)).toString('hex');
      }, {});
    }
  }
  // Every message of a valid value cut, extended and changed a byte at a time; and read
  // under a small maxStringBytes and maxDecodedBytes.
  const bytes = compile(schema).encode({ ...base, note: 'here', pick: 'p' });
  const messages = [bytes];
  for (let k = 0; k <= bytes.length; k++) messages.push(bytes.subarray(0, k), concatBytes(bytes.subarray(0, k), Uint8Array.of(0x80), bytes.subarray(k)));
  for (let k = 0; k < bytes.length; k++) {
    for (const b of [0x00, 0x01, 0x02, 0x7f, 0x80, 0xff]) {
      const m = Uint8Array.from(bytes);
      m[k] = b;
      messages.push(m);
    }
  }
  let decoded = 0;
  for (const options of [{}, { maxStringBytes: 3 }, { maxDecodedBytes: 200 }]) {
    for (const m of messages) {
      agree(schema, options, (codec) => codec.decode(m), {});
      if (!('code' in outcome(() => compile(schema, options).decode(m)))) decoded++;
    }
  }
  assert.ok(decoded > 50, `${decoded} decoded`);
  // Frames under a heap budget: each frame's estimate as the native decode's.
  const frames = compile(schema).encodeFrames([base, base, base]);
  for (const maxDecodedBytes of [100, 400, 1000, 10000]) {
    agree(schema, {}, (codec) => codec.decodeFrames(frames, { maxDecodedBytes }).length, {});
    agree(schema, {}, (codec) => {
      codec.decodeFrames(frames, { maxDecodedBytes });
      return codec.decode(bytes);
    }, {});
  }
});

// Repeated short strings in arrays of a large input are taken again from a table of the
// reader's own (lib/closures.js, `keptStrings`): each entry compared whole, so strings
// that share the hash's bytes (the first two, the last, the length) are told apart; and
// the text, the budget and the errors are as natively.
test('short strings that repeat in arrays of a large input decode as natively: colliding, non-ASCII, constrained, at the budget', () => {
  // Same first two bytes, last byte and length: one table entry.
  const words = ['abXc', 'abYc', 'abZc', 'ab', 'ac', 'abcdefghijkl', 'abcdefghijkm', 'abcdefghijklm', 'x', 'é1', 'eé', 'ñuño', 'tag', 'tags'];
  const pick = (k) => words[(k * 7 + (k >> 3)) % words.length];
  const rows = Array.from({ length: 4000 }, (_, k) => ({ id: k, tags: Array.from({ length: k % 5 }, (_, j) => pick(k + j)) }));
  const schema = t.array(t.object({ id: t.uint32(), tags: t.array(t.string()) }));
  const bytes = compile(schema).encode(rows);
  assert.ok(bytes.length >= 32 << 10, `${bytes.length} bytes`);
  for (const mode of JS_MODES) assert.deepStrictEqual(compile(schema, mode).decode(bytes), rows, JSON.stringify(mode));
  agree(schema, {}, (c) => c.decode(bytes), {});
  // Decoded twice, the second time from a full table.
  for (const mode of JS_MODES) {
    const codec = compile(schema, mode);
    codec.decode(bytes);
    assert.deepStrictEqual(codec.decode(bytes), rows);
  }
  // The budget: both sides of the native edge.
  const hi = nativeEdge(schema, bytes);
  for (const maxDecodedBytes of [hi - 1, hi]) agree(schema, { maxDecodedBytes }, (c) => c.decode(bytes).length, {});
  // A constraint on the items: a repeated string that breaks it is refused as natively.
  const short = t.array(t.object({ id: t.uint32(), tags: t.array(t.string({ maxLength: 4 })) }));
  agree(short, {}, (c) => c.decode(bytes), { code: 'ERR_SHORN_INVALID' });
  // A byte of a repeated string made not ASCII, or not UTF-8, at each place in one word.
  const at = Buffer.from(bytes).lastIndexOf(Buffer.from('abcdefghijkl'));
  for (let k = 0; k < 12; k++) {
    for (const b of [0xe9, 0x80, 0x41]) {
      const m = Uint8Array.from(bytes);
      m[at + k] = b;
      agree(schema, {}, (c) => c.decode(m), {});
    }
  }
  // Strings that never repeat (the reader stops looking), then ones that do.
  const unique = Array.from({ length: 3000 }, (_, k) => ({ id: k, tags: [`u${k.toString(36)}`, `v${k}`, pick(k)] }));
  const mixed = compile(schema).encode([...unique, ...rows]);
  agree(schema, {}, (c) => c.decode(mixed), {});
  for (const mode of JS_MODES) assert.deepStrictEqual(compile(schema, mode).decode(mixed), [...unique, ...rows]);
});

// The JS read of a small message runs on the input as it is, before the closures' checks
// of its class and memory, as the native back end's does: every kind of Uint8Array, shared
// memory among them, gives the native value or error, text that TextDecoder must judge (a
// U+FFFD of its own, bytes that are not UTF-8) included.
test("the text of a small message's fields, made in one string once the message is read, is each field's own", () => {
  // The object's own strings take their text once the message is read
  // (lib/small-text.js, `smallTextLater`); the constrained one, those in an array and in
  // a nested object (with an optional field) take theirs at once; all in one message,
  // among each other.
  const schema = t.object({
    a: t.string(),
    b: t.string({ maxLength: 40 }),
    c: t.array(t.string()),
    e: t.object({ f: t.string(), d: t.optional(t.string()) }),
    g: t.string(),
  });
  // Text of 25-29 bytes: not ASCII from its first bytes; then others (empty, short,
  // ASCII first, Latin-1).
  const wide = ['Программистка и', '数学者、詩人の娘。', 'Zoë Łukasz 李小龍 🚀', '🚀🌍 ✓ Ünïcødé ßü'];
  const other = ['', 'ascii', 'eight ascii bytes, é 李', 'Né à Besançon, à Genève', 'Zoë'];
  const pick = (k) => (k % 3 === 0 ? other[k % other.length] : wide[k % wide.length]);
  const values = [];
  for (let k = 0; k < 24; k++) {
    const v = { a: pick(k), b: pick(k + 1), c: [pick(k + 2), pick(k + 3)], e: { f: pick(k + 5) }, g: pick(k + 7) };
    if (k % 2 === 0) v.e.d = pick(k + 4);
    values.push(v);
  }
  const js = compile(schema, { backend: 'js' });
  // That the text was left for one string (where code is generated), counted.
  const { LATER } = require('../lib/small-text');
  const text = LATER.text;
  let made = 0;
  LATER.text = () => {
    made++;
    return text();
  };
  for (const value of values) {
    const bytes = compile(schema).encode(value);
    assert.ok(bytes.length <= 255, `a small message (${bytes.length} bytes)`);
    assert.deepStrictEqual(js.decode(bytes), value);
    // Its last byte made not UTF-8 (`g`'s text, the last the read takes): the read is
    // given up after the other fields' text was left, and the next message is read whole.
    const bad = Uint8Array.from(bytes);
    bad[bad.length - 1] = 0xff;
    agree(schema, {}, (c) => c.decode(bad), {});
    agree(schema, {}, (c) => [c.decode(bytes), c.decode(bytes.subarray(0, bytes.length - 1))], {});
    assert.deepStrictEqual(js.decode(bytes), value);
  }
  // Eight fields of one message, each with text of over 24 bytes.
  const flat = t.object(Object.fromEntries(Array.from({ length: 8 }, (_, k) => [`s${k}`, t.string()])));
  const value = Object.fromEntries(Array.from({ length: 8 }, (_, k) => [`s${k}`, wide[k % wide.length]]));
  const bytes = compile(flat).encode(value);
  assert.ok(bytes.length <= 255);
  assert.deepStrictEqual(compile(flat, { backend: 'js' }).decode(bytes), value);
  // Random messages of such text, some changed: each decoded on one codec of each back
  // end, in turn, as natively.
  const { below, pick: one } = seeded(39);
  const codecs = [compile(schema), ...JS_MODES.map((mode) => compile(schema, mode))];
  for (let k = 0; k < 400; k++) {
    const v = { a: one(wide.concat(other)), b: one(other), c: [one(wide)], e: { f: one(wide) }, g: one(wide.concat(other)) };
    if (below(2) === 0) v.e.d = one(other);
    const m = Uint8Array.from(codecs[0].encode(v));
    for (let j = below(3); j > 0; j--) m[below(m.length)] = below(256);
    const [native, ...js] = codecs.map((c) => outcome(() => c.decode(m)));
    for (const r of js) assert.deepStrictEqual(r, native, `message ${k}`);
  }
  LATER.text = text;
  if (js.generated) assert.ok(made > values.length, `text left for one string in ${made} messages`);
});

test('small messages in any kind of Uint8Array, shared memory among them, decode as natively on the JS back end', () => {
  const schema = t.object({ id: t.uint32(), name: t.string(), bio: t.string(), ok: t.bool() });
  const values = [
    { id: 1, name: 'Ada', bio: 'short', ok: true },
    { id: 2, name: 'Zoë Łukasz 李小龍 🚀 Ñuño', bio: 'Программистка и поэтесса — 数学者 🚀🌍', ok: false },
    { id: 3, name: 'ascii before it \ufffd', bio: 'eight ascii bytes, then \ufffd, then more text', ok: true },
  ];
  const kinds = [
    (b) => Uint8Array.from(b),
    (b) => Buffer.from(b),
    (b) => new (class Sub extends Uint8Array {})(b),
    (b) => {
      const u = new Uint8Array(new SharedArrayBuffer(b.length + 5), 5, b.length);
      u.set(b);
      return u;
    },
    (b) => {
      const sab = new SharedArrayBuffer(b.length + 3);
      new Uint8Array(sab).set(b, 3);
      return Buffer.from(sab, 3, b.length);
    },
  ];
  for (const value of values) {
    const bytes = compile(schema).encode(value);
    const messages = [bytes, bytes.subarray(0, bytes.length - 1), concatBytes(bytes, Uint8Array.of(0))];
    // The name's first byte made not UTF-8, and a continuation byte out of place.
    for (const b of [0xff, 0x80]) {
      const m = Uint8Array.from(bytes);
      m[2] = b;
      messages.push(m);
    }
    for (const m of messages) {
      for (const kind of kinds) agree(schema, {}, (c) => c.decode(kind(m)), {});
    }
    for (const kind of kinds) assert.deepStrictEqual(compile(schema, { backend: 'js' }).decode(kind(bytes)), value);
  }
});

// The browser and worker build's host (package.json "imports", #host) stands in for Node's
// whole: a member it lacked (`alloc`) made `codec.encodeFrames` throw a TypeError there.
// A message of over 8 KiB is handed out in the buffer it was written in, where it leaves
// at most an eighth of it unused (lib/compile.js, largeOutput): the encoder writes the
// next one elsewhere. In Node a Buffer, in a browser a Uint8Array, as a copy would be.
test('messages of over 8 KiB, handed out in the buffer they were written in, are not written over by the next encodes', () => {
  const { otherBuild } = require('../scripts/fuzz-common');
  const browser = otherBuild('browser');
  const schema = t.object({ n: t.uint32(), items: t.array(t.string()) });
  const value = (n, count) => ({ n, items: Array.from({ length: count }, (_, k) => `item ${n}.${k} ${'é'.repeat(k % 7)}`) });
  // Same sizes (each handed out), growing and shrinking ones (copied, or handed out once
  // the buffer fits), and encodeInto between them.
  const counts = [900, 900, 900, 2000, 2000, 600, 900, 5000, 600, 600, 20000, 20000, 900];
  for (const [name, build, mode] of [
    ['js', { compile }, { backend: 'js', codegen: false }],
    ['js, generated', { compile }, { backend: 'js', codegen: true }],
    ['browser', browser, {}],
  ]) {
    const codec = build.compile(schema, mode);
    const native = compile(schema);
    const kept = [];
    let handed = 0;
    counts.forEach((count, k) => {
      const out = codec.encode(value(k, count));
      const expected = native.encode(value(k, count));
      assert.ok(expected.length > 8192, `${count}: ${expected.length}`);
      assert.equal(out.constructor, name === 'browser' ? Uint8Array : Buffer, name);
      assert.ok(out.buffer.byteLength - out.length <= out.buffer.byteLength >>> 3, `${name}: ${out.buffer.byteLength} for ${out.length}`);
      if (out.buffer.byteLength !== out.length) handed++;
      kept.push([out, Uint8Array.from(expected)]);
      codec.encodeInto(value(k + 100, 10), new Uint8Array(2000));
      for (const [was, bytes] of kept) assert.deepStrictEqual(Uint8Array.from(was), bytes, `${name}: message ${kept.indexOf(kept.find((x) => x[0] === was))} after ${k}`);
    });
    assert.deepStrictEqual(codec.decode(kept[10][0]), value(10, 20000));
    // The same size again, and the second of 20000, at least.
    assert.ok(handed >= 3, `${name}: ${handed} handed out`);
  }
});

// A t.int() is read up to 4 bytes by bit operations, up to 7 by arithmetic, longer as a
// bigint (lib/closures.js, In#zigzag53), and a 64-bit varint in numbers of 28 bits
// (In#varint64): every length's edges, each overlong (a 0 byte added) and cut, as
// natively, on both JS modes.
test('t.int(), t.int64() and t.uint64() of every varint length decode as natively: the edges of each length, overlong and cut forms', () => {
  for (const a of [t.int(), t.int64(), t.uint64(), t.date()]) intLengths(t.object({ a, b: t.uint8() }));
  const schema = t.object({ a: t.int(), b: t.uint8() });
  // Every value of up to 53 bits, read back exactly.
  const codec = compile(schema, { backend: 'js' });
  for (const a of [2 ** 27, -(2 ** 27), 2 ** 28 + 1, 1372701600000, -1372701600000, 2 ** 48 - 1, -(2 ** 48), 2 ** 48, 2 ** 52 + 1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) {
    assert.deepStrictEqual(codec.decode(compile(schema).encode({ a, b: 5 })), { a, b: 5 }, String(a));
  }
  // 64-bit values of every length, written (In#varintBig, in numbers of 28 bits) and read.
  const hex = (codec, v) => Buffer.from(codec.encode(v)).toString('hex');
  for (const [type, signed] of [[t.uint64(), false], [t.int64(), true]]) {
    const big = t.object({ a: type, b: t.uint8() });
    const native = compile(big);
    const js = JS_MODES.map((mode) => compile(big, mode));
    for (let bits = 0n; bits < 64n; bits++) {
      const values = [1n << bits, (1n << bits) - 1n, (1n << 64n) - 1n - (1n << bits)].map((u) => (signed ? BigInt.asIntN(64, u) : u));
      for (const a of values) {
        for (const codec of js) {
          assert.equal(hex(codec, { a, b: 5 }), hex(native, { a, b: 5 }), String(a));
          assert.equal(codec.decode(native.encode({ a, b: 5 })).a, a);
        }
      }
    }
  }
});

function intLengths(schema) {
  const varint = (u) => {
    const out = [];
    while (u > 127n) {
      out.push(Number(u & 127n) | 128);
      u >>= 7n;
    }
    out.push(Number(u));
    return out;
  };
  let values = 0;
  for (let length = 1; length <= 10; length++) {
    const low = length === 1 ? 0n : 1n << BigInt(7 * (length - 1));
    const high = (1n << BigInt(7 * length)) - 1n;
    for (const u of [low, low + 1n, (low + high) / 2n, high - 1n, high]) {
      if (u >= 1n << 64n) continue;
      const body = varint(u);
      const forms = [
        [...body, 5],
        // Overlong: a continuation, then a 0 byte.
        [...body.slice(0, -1), body.at(-1) | 128, 0, 5],
        // Cut: the last byte gone (and the uint8 after it).
        body.slice(0, -1),
      ];
      for (const bytes of forms) {
        agree(schema, {}, (codec) => codec.decode(Uint8Array.from(bytes)), {});
        values++;
      }
    }
  }
  // The tenth byte: 0, 1 (the 64th bit) and 2 (past it).
  for (const last of [0, 1, 2]) {
    agree(schema, {}, (codec) => codec.decode(Uint8Array.from([...Array(9).fill(0xff), last, 5])), {});
    values++;
  }
  assert.ok(values > 100);
}

test("the browser build's host has every member Node's host has, of the same kind", () => {
  const node = require('../lib/host');
  const browser = require('../lib/host-browser');
  for (const [key, value] of Object.entries(node)) {
    assert.ok(key in browser, `lib/host-browser.js has no ${key}`);
    // null where the browser has no such thing (Buffer, Node's fast text paths).
    if (browser[key] !== null) assert.equal(typeof browser[key], typeof value, key);
  }
  assert.deepEqual(Object.keys(browser).sort(), Object.keys(node).sort());
  const bytes = browser.alloc(5);
  assert.equal(Object.getPrototypeOf(bytes), Uint8Array.prototype);
  assert.equal(bytes.length, 5);
});

// The browser build's SHA-256 (a schema's fingerprint) computes its constants (the roots
// of the first primes) rather than listing them: the digests of FIPS 180-4's examples and
// of every length around the padding's block boundaries are Node's.
test("the browser build's SHA-256 gives the digests Node's crypto gives", () => {
  const { sha256Hex } = require('../lib/host-browser');
  const { createHash } = require('node:crypto');
  assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'), '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  for (let n = 0; n < 200; n++) {
    const text = 'é'.repeat(n % 7) + 'x'.repeat(n);
    assert.equal(sha256Hex(text), createHash('sha256').update(text).digest('hex'), `length ${n}`);
  }
});

// Found by comparing encode errors' messages too (scripts/fuzz.js compared code and path):
// a lone surrogate in a json value is the core's to refuse, after every check JS makes,
// with its index in the string (or key) that holds it. The JS back end's fast write gave
// up on it, its exact walk found nothing JS refuses, and it threw "the json value changed
// while it was encoded" at once: over a later field's error too (`{ j: ['\ud800'], n: 'x' }`:
// $.j, natively $.n).
// Its path is the string's inside the value (a key's: the object's, as a record key's);
// every back end gave the json value's own path, which named no string in a large value.
const LONE_IN_JSON = [
  [{ a: 'x\ud800' }, '.a'],
  [['ok', '\udc00'], '[1]'],
  [{ ['k\ud800']: 1 }, ''],
  ['\ud800', ''],
  [{ a: { b: ['\ud800y'] } }, '.a.b[0]'],
  [[{ 'a\udfff': '\ud800' }], '[0]'],
  [{ 'a b': [1, { c: 'x'.repeat(100) + '\udc00' }] }, '["a b"][1].c'],
  [{ ok: 'é'.repeat(40), 'ü': ['\ud800'.repeat(2)] }, '["ü"][0]'],
];
test('a lone surrogate in a json value is refused as natively: after JS-found errors, at its own path, its index in its string', () => {
  const json = t.json();
  for (const [value, at] of LONE_IN_JSON) {
    agree(json, {}, (c) => c.encode(value), { code: 'ERR_SHORN_INVALID', path: `$${at}` });
    agree(t.object({ j: json }), {}, (c) => c.encode({ j: value }), { code: 'ERR_SHORN_INVALID', path: `$.j${at}` });
    agree(t.object({ j: json }), { codegen: false }, (c) => c.encodeInto({ j: value }, new Uint8Array(4096), 0), { code: 'ERR_SHORN_INVALID', path: `$.j${at}` });
  }
  const schema = t.object({ j: json, n: t.uint8(), s: t.string() });
  agree(schema, {}, (c) => c.encode({ j: ['\ud800'], n: 'x', s: '' }), { code: 'ERR_SHORN_INVALID', path: '$.n' });
  agree(schema, {}, (c) => c.encode({ j: ['\ud800'], n: 1, s: '\udc00' }), { code: 'ERR_SHORN_INVALID', path: '$.j[0]' });
  agree(schema, {}, (c) => c.encode({ j: ['a'], n: 1, s: '\udc00' }), { code: 'ERR_SHORN_INVALID', path: '$.s' });
  agree(t.array(json), {}, (c) => c.encode([1, { x: [2, 'b\ud800'] }]), { code: 'ERR_SHORN_INVALID', path: '$[1].x[1]' });
  agree(t.record(json), {}, (c) => c.encode({ r: { 'q\udc00': 0 } }), { code: 'ERR_SHORN_INVALID', path: '$.r' });
  assert.match(outcome(() => compile(json).encode(['ok', 'ab\udc00'])).message, /^\$\[1\]: expected a well-formed string, found a lone surrogate at index 2$/);
});

// `check` lists the issues encode meets, the first being the error encode throws
// (docs/FORMAT.md, "Issues"): for a lone surrogate in a json value, at its path inside
// the value. (Once, at the json value's own path, as the core refused it.)
test("check's issue for a lone surrogate in a json value is encode's error, at its own path", () => {
  const schema = t.object({ j: t.json(), n: t.uint8() });
  for (const options of [{}, { codegen: false }, { backend: 'js' }, { backend: 'js', codegen: false }]) {
    const codec = compile(schema, options);
    for (const [j, at] of LONE_IN_JSON) {
      const error = outcome(() => codec.encode({ j, n: 1 }));
      const report = codec.check({ j, n: 1 });
      assert.equal(report.ok, false);
      assert.deepStrictEqual(report.issues[0], { path: error.path, code: 'invalid_type', message: error.message }, JSON.stringify(options));
      assert.equal(error.path, `$.j${at}`);
    }
    // After the errors JS finds, as encode meets them; each string its own issue.
    const report = codec.check({ j: ['\ud800', { a: '\udfff' }], n: 'x' });
    assert.deepStrictEqual(report.issues.map((i) => i.path), ['$.n', '$.j[0]', '$.j[1].a']);
  }
});

// The native back end finds that path by `check`'s walk after the core's error; a value
// whose getter gives another string (or throws) the second time keeps the core's error.
test("a json value that changes before its lone surrogate's path is found keeps the core's error", () => {
  const codec = compile(t.object({ j: t.json() }));
  for (const second of [() => 'fine', () => ['\ud800'], () => { throw new Error('gone'); }]) {
    let reads = 0;
    const j = { get a() { return ++reads === 1 ? ['x', 'y\ud800'] : second(); } };
    const error = outcome(() => codec.encode({ j }));
    assert.deepStrictEqual(error, { code: 'ERR_SHORN_INVALID', offset: undefined, path: '$.j', message: '$.j: expected a well-formed string, found a lone surrogate at index 1' });
    assert.ok(reads >= 2, 'the walk ran');
  }
});

test("a reader on the JS back end reads another schema's valid bytes by the closures, with its overrides, and refuses bad ones as natively", () => {
  // The exact walk (lib/js-backend.js, ByteDecoder over lib/inspect.js) read every
  // message of a reader, 45-68x slower than the writer's own decode; now it runs only on a
  // fault. Counted by a spy on the walk, not timed.
  const { ByteDecoder } = require('../lib/js-backend');
  const writer = t.object({ id: t.uint8(), kind: t.enum(['a', 'b', 'c']), note: t.optional(t.string()), tags: t.array(t.object({ k: t.uint16(), v: t.string() })), extra: t.string() });
  // Read as: a wider integer (a bigint), an enum with a default for the symbol it lacks, a
  // field dropped (`extra`), one added with a default, nested objects reordered, and the
  // field names `__proto__` and `toString` that generated code must keep apart.
  const reader = {
    type: 'object',
    strict: false,
    fields: [
      { name: 'tags', schema: t.array(t.object({ v: t.string(), k: t.uint64(), __proto__x: t.default(t.bool(), true) })) },
      { name: 'kind', schema: t.enum(['a', 'b'], { default: 'a' }) },
      { name: 'id', schema: t.int64() },
      { name: 'note', schema: t.default(t.string(), '-') },
      { name: 'toString', schema: t.default(t.uint8(), 7) },
    ],
  };
  const value = { id: 9, kind: 'c', tags: [{ k: 1, v: 'x' }, { k: 65535, v: 'é' }], extra: 'dropped' };
  const expected = { tags: [{ v: 'x', k: 1n, __proto__x: true }, { v: 'é', k: 65535n, __proto__x: true }], kind: 'a', id: 9n, note: '-', toString: 7 };
  const bytes = compile(writer).encode(value);
  const nativeReader = compile(reader).reader(compile(writer));
  assert.deepStrictEqual(nativeReader.decode(bytes), expected);
  const walk = ByteDecoder.prototype.value;
  let walked = 0;
  ByteDecoder.prototype.value = function value(d) {
    walked++;
    return walk.call(this, d);
  };
  try {
    for (const mode of JS_MODES) {
      const r = compile(reader, mode).reader(compile(writer, mode));
      walked = 0;
      for (let k = 0; k < 3; k++) assert.deepStrictEqual(r.decode(bytes), expected, JSON.stringify(mode));
      assert.equal(walked, 0, `${JSON.stringify(mode)}: the exact walk read a valid message`);
      // Cut, and with the enum's index out of range: the walk gives the native error.
      for (const bad of [bytes.subarray(0, bytes.length - 1), concatBytes([bytes[0], 5], bytes.subarray(2))]) {
        walked = 0;
        assert.deepStrictEqual(outcome(() => r.decode(bad)), outcome(() => nativeReader.decode(bad)), JSON.stringify(mode));
        assert.ok(walked > 0, `${JSON.stringify(mode)}: a bad message's error came from the walk`);
      }
    }
  } finally {
    ByteDecoder.prototype.value = walk;
  }
});

test('a reader of a recursive schema on the JS back end reads as natively: every level converted, and cut bytes refused as natively', () => {
  const W = t.recursive('N', (self) => t.object({ name: t.string(), kind: t.enum(['a', 'b', 'c']), kids: t.array(self), extra: t.uint8() }));
  const R = t.recursive('N', (self) => t.object({ kids: t.array(self), name: t.string(), kind: t.enum(['a', 'b'], { default: 'b' }), n: t.default(t.uint8(), 5) }));
  const tree = (d) => ({ name: `n${d}`, kind: ['a', 'b', 'c'][d % 3], kids: d === 0 ? [] : [tree(d - 1), tree(d - 1)], extra: d });
  const bytes = compile(W).encode(tree(4));
  const native = compile(R).reader(compile(W));
  const want = native.decode(bytes);
  assert.equal(want.kids[0].kids[0].kind, 'b'); // 'c' two levels down: the reader's default
  for (const mode of JS_MODES) {
    const r = compile(R, mode).reader(compile(W, mode));
    assert.deepStrictEqual(r.decode(bytes), want, JSON.stringify(mode));
    for (let cut = 0; cut < bytes.length; cut += 7) {
      assert.deepStrictEqual(outcome(() => r.decode(bytes.subarray(0, cut))), outcome(() => native.decode(bytes.subarray(0, cut))), `${JSON.stringify(mode)} cut at ${cut}`);
    }
  }
});

// The browser build reads ASCII text of over 24 bytes as slices of a Latin-1 window of
// the input (lib/closures.js, In#asciiWindow), where text lies near the last text, else
// alone: every gap around the window's edges (GAP 1,024, WINDOW 2,048), text that ends
// at, before and past a window's end, text in the last bytes of the input, non-ASCII
// and DEL (0x7f) at either end, ill-formed UTF-8 (a stray 0x80) refused at the same
// offset; and a message after another, whose window must not be read again.
test("the browser build's long ASCII text, read through windows, is what the native back end reads", () => {
  const { otherBuild } = require('../scripts/fuzz-common');
  const browser = otherBuild('browser');
  const schema = t.array(t.object({ gap: t.bytes(), s: t.string() }));
  const native = compile(schema);
  const codec = browser.compile(schema);
  const { random: rand } = seeded(39);
  const text = (n, k) => {
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(32 + ((i * 7 + k * 13) % 95));
    return s;
  };
  const lengths = [25, 26, 40, 100, 1000, 1023, 1024, 1025, 2047, 2048, 2049, 5000];
  const gaps = [0, 1, 10, 500, 1000, 1020, 1023, 1024, 1025, 2000, 2047, 2048, 3000];
  const odd = (k) => ['\x7f' + text(30, k), text(30, k) + '\x7f', 'é' + text(30, k), text(30, k) + 'é', text(20, k) + '日本' + text(20, k), text(2100, k) + 'ü'];
  for (let round = 0; round < 40; round++) {
    const count = 1 + Math.floor(rand() * 12);
    const value = Array.from({ length: count }, (_, k) => {
      const s = rand() < 0.2 ? odd(k)[Math.floor(rand() * 6)] : text(lengths[Math.floor(rand() * lengths.length)], round + k);
      return { gap: new Uint8Array(gaps[Math.floor(rand() * gaps.length)]).fill(0x41 + (k % 26)), s };
    });
    const bytes = native.encode(value);
    assert.deepStrictEqual(codec.decode(Uint8Array.from(bytes)), native.decode(bytes), `round ${round}`);
    // The same layout with other text: no text of the message before.
    const other = value.map(({ gap, s }) => ({ gap, s: s.replace(/[ -~]/g, (c) => (c === 'z' ? 'y' : 'z')) }));
    assert.deepStrictEqual(codec.decode(native.encode(other)), other, `round ${round}, again`);
  }
  // Bytes over 0x7f between texts within one window (a gap of them, non-ASCII text),
  // before, between and after ASCII texts: the window's record of where ASCII ends
  // (In#asciiWindow, `wk` and `wa`) must be found again past each.
  for (let round = 0; round < 200; round++) {
    const value = Array.from({ length: 2 + Math.floor(rand() * 10) }, (_, k) => {
      const r = rand();
      const gap = new Uint8Array(Math.floor(rand() * 40)).fill(rand() < 0.5 ? 0x41 : [0x80, 0xc3, 0xff][k % 3]);
      return { gap, s: r < 0.25 ? odd(k)[Math.floor(rand() * 5)] : text(25 + Math.floor(rand() * 60), round + k) };
    });
    const bytes = native.encode(value);
    assert.deepStrictEqual(codec.decode(Uint8Array.from(bytes)), native.decode(bytes), `mixed round ${round}`);
  }
  // A byte over 0x7f as the last or first byte of a text inside a window (ill-formed
  // UTF-8: the native error), after ASCII texts and after a gap of such bytes.
  const errorOf = (fn) => {
    try {
      fn();
    } catch (e) {
      return { code: e.code, offset: e.offset, path: e.path, message: e.message };
    }
    return null;
  };
  for (const fill of [0x41, 0xff]) {
    for (const bad of [0x80, 0xc3, 0xff]) {
      for (const where of ['first', 'last']) {
        const value = [0, 1, 2, 3].map((k) => ({ gap: new Uint8Array(k === 2 ? 5 : 0).fill(fill), s: text(30, k) }));
        const bytes = Uint8Array.from(native.encode(value));
        // Text 2's first byte: after items 0 and 1 (the array's count is one byte either
        // way), the gap's length, the gap and the text's length.
        const start = native.encode(value.slice(0, 2)).length + 1 + value[2].gap.length + 1;
        assert.equal(String.fromCharCode(bytes[start]), value[2].s[0]);
        const at = start + (where === 'first' ? 0 : 29);
        bytes[at] = bad;
        const expected = errorOf(() => native.decode(bytes));
        assert.ok(expected !== null, `${fill} ${bad} ${where}`);
        assert.deepStrictEqual(errorOf(() => codec.decode(bytes)), expected, `${fill} ${bad} ${where}`);
      }
    }
  }
  // Text that ends around the end of the window the text before opened (at its start
  // plus 2,048): each gap from well before to well after.
  for (let gap = 1900; gap <= 2060; gap++) {
    const value = [{ gap: new Uint8Array(0), s: text(30, 1) }, { gap: new Uint8Array(4), s: text(30, 2) }, { gap: new Uint8Array(gap), s: text(30, 3) }, { gap: new Uint8Array(1), s: text(40, 4) }];
    assert.deepStrictEqual(codec.decode(native.encode(value)), value, `gap ${gap}`);
  }
  // The last text of the input, after near ones.
  const tail = [{ gap: new Uint8Array(3), s: text(30, 1) }, { gap: new Uint8Array(4), s: text(60, 2) }, { gap: new Uint8Array(0), s: text(25, 3) }];
  assert.deepStrictEqual(codec.decode(native.encode(tail)), tail);
  // Ill-formed UTF-8 (a stray 0x80, a byte of 0xff) in long text near other text: the
  // native error.
  for (const [bad, at] of [0x80, 0xff].flatMap((bad) => [0, 20, 29].map((at) => [bad, at]))) {
    const bytes = Uint8Array.from(native.encode(tail));
    const start = bytes.indexOf(0x20 + ((30 * 0 + 2 * 13) % 95), 4 + 30);
    bytes[start + at] = bad;
    const err = (fn) => {
      try {
        fn();
      } catch (e) {
        return { code: e.code, offset: e.offset, path: e.path, message: e.message };
      }
      return null;
    };
    const expected = err(() => native.decode(bytes));
    assert.ok(expected !== null);
    assert.deepStrictEqual(err(() => codec.decode(bytes)), expected, `${bad} at ${at}`);
  }
});

test('without code generation, objects of 0 to 10 fields, plain, optional, with defaults, strict (1 to 8 plain ones read and written by a closure of that many sites): the native bytes, values, key order and getter order, and no exact walk', () => {
  // Plain fields alone, and with optional ones and defaults among them.
  const sets = [
    [
      [() => t.uint32(), 7],
      [() => t.string(), 'zoë'],
      [() => t.float64(), -1.5],
      [() => t.bool(), true],
      [() => t.array(t.uint8()), [1, 2]],
    ],
    [
      [() => t.uint32(), 7],
      [() => t.string(), 'zoë'],
      [() => t.float64(), -1.5],
      [() => t.optional(t.bool()), true, 'optional'],
      [() => t.array(t.uint8()), [1, 2]],
      [() => t.default(t.int32(), -9), -3, 'optional'],
      [() => t.object({ a: t.int32() }), { a: -3 }],
    ],
  ];
  const { random: rand } = seeded(1244);
  // The closures must take every valid value and message themselves: the exact walks
  // (which would give the same result, slower) are counted by spies, not timed.
  const { ByteDecoder, ByteEncoder } = require('../lib/js-backend');
  const walks = { decode: ByteDecoder.prototype.value, encode: ByteEncoder.prototype.put };
  let walked = 0;
  ByteDecoder.prototype.value = function value(...args) {
    walked++;
    return walks.decode.apply(this, args);
  };
  ByteEncoder.prototype.put = function put(...args) {
    walked++;
    return walks.encode.apply(this, args);
  };
  try {
  for (const [strict, kinds] of [false, true].flatMap((strict) => sets.map((kinds) => [strict, kinds]))) {
    for (let shift = 0; shift < kinds.length; shift++)
    for (let n = 0; n <= 10; n++) {
      // An index key among them (an object lists it first, the schema too).
      const names = Array.from({ length: n }, (_, k) => (k === n - 1 && n > 2 ? '0' : `f${k}`));
      // Each kind at each place, over the shifts.
      const schema = t.object(Object.fromEntries(names.map((name, k) => [name, kinds[(k + shift) % kinds.length][0]()])), { strict });
      const native = compile(schema);
      const js = compile(schema, { backend: 'js', codegen: false });
      assert.equal(js.generated, false);
      for (let round = 0; round < 4; round++) {
        // Optional and default fields left out now and then.
        const value = {};
        names.forEach((name, k) => {
          const [, v, optional] = kinds[(k + shift) % kinds.length];
          if (optional && rand() < 0.4) return;
          value[name] = v;
        });
        const bytes = native.encode(value);
        walked = 0;
        assert.deepEqual(Buffer.from(js.encode(value)), Buffer.from(bytes), `${n} fields`);
        const back = js.decode(bytes);
        assert.equal(walked, 0, `${n} fields: an exact walk ran on a valid value or message`);
        assert.deepEqual(back, native.decode(bytes));
        assert.deepEqual(Object.keys(back), Object.keys(native.decode(bytes)));
        // Each field read once, in the schema's order (the native back end may read some
        // twice: its JS write of small messages gives up on a value it does not take, such
        // as non-ASCII text, and its marshaller reads the fields again; lib/codegen.js,
        // fastPut).
        const seen = [];
        const withGetters = {};
        for (const [name, v] of Object.entries(value)) Object.defineProperty(withGetters, name, { enumerable: true, get: () => (seen.push(name), v) });
        js.encode(withGetters);
        const schemaOrder = Object.keys(Object.fromEntries(names.map((name) => [name, 0])));
        assert.deepEqual(seen, schemaOrder.filter((name) => name in value), `${n} fields`);
        if (n === 0) continue;
        // A wrong field's error, and an unknown key's where strict, as natively.
        const err = (codec, v) => {
          try {
            codec.encode(v);
          } catch (e) {
            return [e.code, e.path, e.message];
          }
          return null;
        };
        const wrong = { ...value, [names[n - 1]]: Symbol('x') };
        assert.notEqual(err(native, wrong), null);
        assert.deepEqual(err(js, wrong), err(native, wrong));
        const extra = { ...value, zz: 1 };
        assert.deepEqual(err(js, extra), err(native, extra));
      }
    }
  }
  } finally {
    ByteDecoder.prototype.value = walks.decode;
    ByteEncoder.prototype.put = walks.encode;
  }
});
