'use strict';
// The JS back end (lib/js-backend.js) held to the native one where the differential fuzz
// (scripts/fuzz.js, docs/FUZZING.md) found them apart: each case failed on the first build
// of the back end. Both JS modes: closures alone (a CSP) and generated objects.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { t, compile, ShornError } = require('..');
const { varint, concatBytes } = require('./helpers');

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

test('a byte array or typed array over the budget is charged at its first byte, after its length', () => {
  agree(t.bytes(), { maxDecodedBytes: 8 }, (c) => c.decode(concatBytes(varint(15), new Uint8Array(15))), { code: 'ERR_SHORN_LIMIT', offset: 1 });
  agree(t.int16Array(), { maxDecodedBytes: 64 }, (c) => c.decode(concatBytes(varint(2), new Uint8Array(4))), { code: 'ERR_SHORN_LIMIT', offset: 1 });
});

test("a present optional field's value is charged at its presence byte", () => {
  const schema = t.object({ a: t.optional(t.int8Array()) });
  agree(schema, { maxDecodedBytes: 100 }, (c) => c.decode(Uint8Array.from([1, 2, 5, 6])), { code: 'ERR_SHORN_LIMIT', offset: 0 });
  agree(schema, { maxDecodedBytes: 100 }, (c) => c.decode(Uint8Array.from([0])), {});
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
