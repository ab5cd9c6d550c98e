'use strict';
// Regression tests for issue 37, finding 8: wide and deep schemas. Each schema here either
// works in every mode (the round trip, `check` and `safeDecode` right) or is refused at
// compile with a ShornError naming the limit; never a RangeError or a SyntaxError, at
// compile or on use. Generated code has V8's limits to keep (a function's frame, its
// parameters, the native stack V8 compiles it with): a part of a schema that would pass
// them in one function is handed to the generic marshaller (lib/walk.js,
// MAX_FUNCTION_NODES), and must behave exactly as with `codegen: false`. Sizes are just
// past the thresholds, or the ones the issue reported.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { z } = require('zod');
const { shorn, assertShornError, marshallerOf } = require('./helpers');
const { analyze, MAX_FUNCTION_NODES } = require('../lib/walk');
const codegen = require('../lib/codegen');

const { t, compile, compatibility, fromZod } = shorn;

const ROOT = path.join(__dirname, '..');

// The generated source of `schema` (as compile would generate it; no defaults in it).
function generatedSource(schema) {
  const descriptor = JSON.parse(JSON.stringify(schema));
  return codegen.generate(descriptor, analyze(descriptor), marshallerOf(descriptor));
}

function fieldsOf(n, type, value) {
  const fields = {};
  const v = {};
  for (let k = 0; k < n; k++) {
    fields[`f${k}`] = type(k);
    v[`f${k}`] = value(k);
  }
  return [fields, v];
}

// Each: a schema, a value of it, and a value it refuses (with the path `check` names).
const WIDE = [
  (() => {
    const variants = [];
    for (let k = 0; k < 3700; k++) variants.push(t.object({ [`f${k}`]: t.uint32() }));
    return { name: 'a union of 3,700 objects (every encode threw RangeError)', schema: t.union(variants), value: { f3699: 5 }, bad: { f3699: -1 }, at: '$' };
  })(),
  (() => {
    const [fields, value] = fieldsOf(65_535, () => t.uint8(), (k) => k & 255);
    return { name: 'an object of 65,535 fields (a SyntaxError at compile)', schema: t.object(fields), value, bad: { ...value, f65534: 256 }, at: '$.f65534' };
  })(),
  (() => {
    const value = Array.from({ length: 70_000 }, (_, k) => k & 255);
    const bad = value.slice();
    bad[69_999] = 'x';
    return { name: 'a tuple of 70,000 items (a SyntaxError at compile)', schema: t.tuple(value.map(() => t.uint8())), value, bad, at: '$[69999]' };
  })(),
  (() => {
    const [fields, v] = fieldsOf(MAX_FUNCTION_NODES + 50, () => t.uint8(), (k) => k & 255);
    return { name: 'a record of an object of 2,098 fields', schema: t.record(t.object(fields)), value: { a: v, b: v }, bad: { a: v, b: { ...v, f7: -1 } }, at: '$.b.f7' };
  })(),
  (() => {
    const variants = [];
    for (let k = 0; k < MAX_FUNCTION_NODES + 50; k++) variants.push(t.object({ kind: t.literal(`k${k}`), n: t.uint8() }));
    return { name: 'a discriminated union of 2,098 variants', schema: t.discriminatedUnion('kind', variants), value: { kind: 'k2097', n: 9 }, bad: { kind: 'k2097', n: 'x' }, at: '$.n' };
  })(),
  (() => {
    // 50 fields of 50-item tuples: no one node is wide, but 2,551 descriptors would sit in
    // one generated function (tuples get no function of their own).
    const row = Array.from({ length: 50 }, (_, k) => k);
    const [fields, value] = fieldsOf(50, () => t.tuple(row.map(() => t.uint8())), () => row);
    return { name: 'an object of 50 tuples of 50 items', schema: t.object(fields), value, bad: { ...value, f49: [...row.slice(0, 49), 300] }, at: '$.f49[49]' };
  })(),
  (() => {
    const symbols = Array.from({ length: 100_000 }, (_, k) => `s${k}`);
    return { name: 'an enum of 100,000 symbols', schema: t.enum(symbols), value: 's99999', bad: 's100000', at: '$' };
  })(),
  { name: 'a literal of a 1,000,000-character string', schema: t.literal('x'.repeat(1_000_000)), value: 'x'.repeat(1_000_000), bad: 'x', at: '$' },
];

// What `codec` does with a value, its bytes and a value it refuses, to compare two codecs.
function behaviour(codec, value, bad) {
  const bytes = Buffer.from(codec.encode(value));
  let error;
  try {
    codec.encode(bad);
  } catch (e) {
    error = { name: e.name, code: e.code, path: e.path, message: e.message };
  }
  const framed = codec.encodeFrames([value, value]);
  return {
    bytes,
    decoded: codec.decode(bytes),
    frames: codec.decodeFrames(framed),
    check: codec.check(value),
    checkBad: codec.check(bad),
    safeDecode: codec.safeDecode(bytes),
    truncated: codec.safeDecode(bytes.subarray(0, bytes.length - 1)),
    error,
  };
}

describe('issue 37 #8: wide schemas work, generated code handing the parts too wide for it to the generic marshaller', () => {
  for (const { name, schema, value, bad, at } of WIDE) {
    test(`${name}: generated and generic codecs agree on bytes, values, frames, issues and errors`, () => {
      const generated = compile(schema, { codegen: true });
      const generic = compile(schema, { codegen: false });
      assert.equal(generated.generated, true);
      const expected = behaviour(generic, value, bad);
      assert.deepStrictEqual(expected.decoded, value);
      assert.deepStrictEqual(expected.check, { ok: true });
      assert.deepStrictEqual(expected.safeDecode, { ok: true, value });
      assert.equal(expected.checkBad.issues[0].path, at);
      assert.equal(expected.error.code, 'ERR_SHORN_INVALID');
      assert.equal(expected.error.path, at);
      assert.deepStrictEqual(behaviour(generated, value, bad), expected);
    });
  }

  test('a function at the limit is generated whole; one descriptor more is handed off', () => {
    // `inner` and its 2,047 fields: 2,048 descriptors in each of its helper functions.
    const [fields, value] = fieldsOf(MAX_FUNCTION_NODES - 1, () => t.uint8(), (k) => k & 7);
    const atLimit = t.object({ inner: t.object(fields), n: t.uint8() });
    const overLimit = t.object({ inner: t.object({ ...fields, one: t.bool() }), n: t.uint8() });
    assert.doesNotMatch(generatedSource(atLimit).source, /G\.encoder/);
    assert.match(generatedSource(overLimit).source, /G\.encoder/);
    for (const [schema, v] of [[atLimit, { inner: value, n: 1 }], [overLimit, { inner: { ...value, one: true }, n: 1 }]]) {
      const codec = compile(schema, { codegen: true });
      assert.deepStrictEqual(codec.decode(codec.encode(v)), v);
      // The batch decode, generated on first use, holds no more than decode.
      assert.deepStrictEqual(codec.decodeFrames(codec.encodeFrames([v, v])), [v, v]);
    }
  });

  test('a wide part anywhere (array items, nullable, optional, union variant, map key, tuple, reader) agrees with the generic codec', () => {
    const [fields, v] = fieldsOf(MAX_FUNCTION_NODES + 10, (k) => (k % 3 === 0 ? t.string() : t.uint16()), (k) => (k % 3 === 0 ? `s${k}` : k));
    const wide = t.object(fields);
    const badWide = { ...v, f2057: -1 };
    const cases = [
      [t.object({ id: t.uint32(), items: t.array(wide), name: t.string() }), { id: 1, items: [v, v], name: 'n' }, { id: 1, items: [v, badWide], name: 'n' }],
      [t.object({ a: t.nullable(wide), b: t.bytes() }), { a: v, b: new Uint8Array([1, 2]) }, { a: badWide, b: new Uint8Array(0) }],
      [t.object({ a: t.nullable(wide) }), { a: null }, { a: 3 }],
      [t.object({ a: t.optional(wide), z: t.string() }), { a: v, z: 'q' }, { a: badWide, z: 'q' }],
      [t.object({ a: t.optional(wide), z: t.string() }), { z: 'q' }, { a: 3, z: 'q' }],
      [t.union([t.string(), wide, t.array(t.uint8())]), v, badWide],
      [t.union([t.string(), wide, t.array(t.uint8())]), [1, 2], [1, 300]],
      [t.map(wide, t.string()), new Map([[v, 'x']]), new Map([[badWide, 'x']])],
      [t.tuple([t.int64(), wide, t.float32()]), [5n, v, 0.5], [5n, badWide, 0.5]],
    ];
    for (const [schema, value, bad] of cases) {
      const generated = compile(schema, { codegen: true });
      const generic = compile(schema, { codegen: false });
      assert.deepStrictEqual(behaviour(generated, value, bad), behaviour(generic, value, bad));
    }
    // A reader of a writer with a wide part: the generic marshaller resolves it.
    const writer = compile(t.object({ id: t.uint32(), w: wide }));
    const reader = compile(t.object({ id: t.uint32(), w: t.object({ ...fields, more: t.default(t.string(), 'm') }) }));
    assert.deepStrictEqual(reader.reader(writer).decode(writer.encode({ id: 2, w: v })), { id: 2, w: { ...v, more: 'm' } });
  });

  test('a function over the limit that analysis did not foresee is refused as code generation, never run', () => {
    const [fields] = fieldsOf(MAX_FUNCTION_NODES, () => t.uint8(), () => 0);
    const descriptor = JSON.parse(JSON.stringify(t.object(fields)));
    const info = analyze(descriptor);
    assert.equal(info.handedOff.has(descriptor), true);
    info.handedOff.clear();
    assert.throws(() => codegen.generate(descriptor, info, marshallerOf(descriptor, info)), (e) => e instanceof EvalError && /\$ puts more than 2048 descriptors in one generated function/.test(e.message));
  });

  test('a union of 2,000 variants is compiled by V8 with a 200 KB stack (no else-if chain of 2,000)', () => {
    // V8 compiles a generated function on its first call, recursing once per `else if`
    // (~200 bytes of native stack each): a chain of 3,700 overflowed a default stack.
    const child = `
      const { t, compile } = require(${JSON.stringify(ROOT)});
      const variants = [];
      for (let k = 0; k < 2000; k++) variants.push(t.literal('v' + k));
      const codec = compile(t.union(variants), { codegen: true });
      const out = codec.decode(codec.encode('v1999'));
      if (out !== 'v1999' || !codec.check('v1999').ok || codec.check('w').ok) throw new Error('wrong: ' + out);
      try {
        codec.encode('w');
        throw new Error('encoded w');
      } catch (e) {
        if (e.code !== 'ERR_SHORN_INVALID') throw e;
      }
      console.log('ok');
    `;
    const run = spawnSync(process.execPath, ['--stack-size=200', '-e', child], { encoding: 'utf8' });
    assert.equal(run.stderr, '');
    assert.equal(run.stdout, 'ok\n');
  });

  test('a union of 100 variants (no else-if chain) writes the bytes the generic marshaller writes', () => {
    const variants = [];
    for (let k = 0; k < 100; k++) variants.push(k % 2 ? t.literal(`v${k}`) : t.object({ [`f${k}`]: t.uint8() }));
    const generated = compile(t.union(variants), { codegen: true });
    const generic = compile(t.union(variants), { codegen: false });
    assert.equal(generated.generated, true);
    for (const value of ['v1', 'v99', { f0: 1 }, { f98: 200 }]) {
      const bytes = generic.encode(value);
      // The first encodes of a value are written in JS (`fastPut`), the next natively.
      for (let k = 0; k < 3; k++) assert.deepStrictEqual(Buffer.from(generated.encode(value)), Buffer.from(bytes));
      assert.deepStrictEqual(generated.decode(bytes), value);
    }
    for (const value of ['v0', { f98: 256 }, 7]) {
      const expected = assertShornError(() => generic.encode(value), { code: 'ERR_SHORN_INVALID' });
      assertShornError(() => generated.encode(value), { code: 'ERR_SHORN_INVALID', message: expected.message });
    }
  });

  test('compatibility() and reader() of a too-wide schema give the generic marshaller, not a SyntaxError', () => {
    const [fields, value] = fieldsOf(65_535, () => t.uint8(), () => 1);
    const writer = compile(t.object(fields));
    const reader = compile(t.object({ ...fields, extra: t.optional(t.string()) }));
    assert.deepStrictEqual(compatibility(reader, writer), []);
    assert.deepStrictEqual(reader.reader(writer).decode(writer.encode(value)), value);
  });
});

describe('issue 37 #8: deep descriptors are ERR_SHORN_SCHEMA at every layer, never a stack overflow', () => {
  const deep = (levels, wrap = (d) => t.array(d)) => {
    let d = t.bool();
    for (let k = 0; k < levels; k++) d = wrap(d);
    return d;
  };
  const TOO_DEEP = { code: 'ERR_SHORN_SCHEMA', message: /nested deeper than 64 levels$/ };

  for (const levels of [65, 5000, 100_000]) {
    test(`a descriptor of ${levels.toLocaleString('en')} nested arrays is refused by compile, compatibility() and reader()`, () => {
      const d = deep(levels);
      const error = assertShornError(() => compile(d), TOO_DEEP);
      assert.equal(error.path, `$${'[]'.repeat(65)}`);
      assertShornError(() => compatibility(d, t.bool()), TOO_DEEP);
      assertShornError(() => compatibility(t.bool(), d), TOO_DEEP);
      assertShornError(() => compile(t.bool()).reader(d), TOO_DEEP);
    });
  }

  test('a descriptor of 5,000 nested objects is refused', () => {
    assertShornError(() => compile(deep(5000, (d) => t.object({ a: d }))), { ...TOO_DEEP, path: `$${'.a'.repeat(65)}` });
  });

  test('a circular descriptor is still named as such', () => {
    const circular = { type: 'array' };
    circular.items = circular;
    assertShornError(() => compile(circular), { code: 'ERR_SHORN_SCHEMA', message: /^invalid schema: not JSON-serialisable \(Converting circular structure/ });
  });

  test('64 levels of every kind of nesting compile, and round-trip in both modes', () => {
    const kinds = [
      [(d) => t.array(d), (v) => [v]],
      [(d) => t.object({ a: d, b: t.uint8() }), (v) => ({ a: v, b: 1 })],
      [(d) => t.tuple([d, t.string()]), (v) => [v, 'x']],
      [(d) => t.union([t.string(), d]), (v) => v],
      [(d) => t.record(d), (v) => ({ k: v })],
      [(d) => t.map(t.string(), d), (v) => new Map([['k', v]])],
    ];
    for (const [wrap, of] of kinds) {
      let d = t.uint32();
      let value = 7;
      for (let k = 0; k < 64; k++) {
        d = wrap(d);
        value = of(value);
      }
      for (const codegen of [true, false]) {
        const codec = compile(d, { codegen });
        assert.deepStrictEqual(codec.decode(codec.encode(value)), value);
        assert.deepStrictEqual(codec.check(value), { ok: true });
      }
      assert.deepStrictEqual(compatibility(d, d), []);
    }
  });

  test('a default value past the descriptor\'s 256 levels of JSON is refused, naming that limit', () => {
    let value = 1;
    for (let k = 0; k < 300; k++) value = [value];
    assertShornError(() => compile(t.object({ a: t.default(t.json(), value) })), {
      code: 'ERR_SHORN_SCHEMA',
      path: '$',
      message: /^invalid schema at \$: the descriptor nests deeper than 256 levels of JSON \(at offset \d+\)$/,
    });
  });

  test('fromZod of a 5,000-deep Zod schema is ERR_SHORN_SCHEMA (was a RangeError)', () => {
    let s = z.boolean();
    for (let k = 0; k < 5000; k++) s = z.array(s);
    assertShornError(() => fromZod(s), { ...TOO_DEEP, path: `$${'[]'.repeat(65)}` });
    let o = z.boolean();
    for (let k = 0; k < 5000; k++) o = z.object({ a: o });
    assertShornError(() => fromZod(o), { ...TOO_DEEP, path: `$${'.a'.repeat(65)}` });
  });

  test('fromZod of a 64-deep Zod schema gives the descriptor compile takes', () => {
    let s = z.boolean();
    for (let k = 0; k < 64; k++) s = z.array(s);
    const codec = compile(fromZod(s));
    let value = true;
    for (let k = 0; k < 64; k++) value = [value];
    assert.deepStrictEqual(codec.decode(codec.encode(value)), value);
  });

  test('fromZod of a chain of 5,000 z.lazy() is ERR_SHORN_SCHEMA', () => {
    const lazy = (n) => (n === 0 ? z.boolean() : z.lazy(() => lazy(n - 1)));
    assertShornError(() => fromZod(lazy(5000)), { ...TOO_DEEP, path: '$' });
  });
});
