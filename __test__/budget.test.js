'use strict';
// The decode budget (issue 7 #1): a valid message can declare millions of tiny values
// (26 MB of empty byte arrays took a process past its heap limit, then SIGABRT). Decode
// estimates the JS heap its values will take and refuses, before building any, a message
// over `maxDecodedBytes`. The estimate is checked against what V8 really allocates.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { shorn, MODES, compileMode, assertShornError, runIsolated, varint, concatBytes } = require('./helpers');

const { t, compile } = shorn;

// An array of `n` items whose every item is the byte `item`.
function arrayOf(n, item) {
  return concatBytes(varint(n), new Uint8Array(n).fill(item));
}

describe('the decode budget', () => {
  for (const mode of MODES) {
    test(`26,000,000 empty byte arrays (a 26 MB message) are ERR_SHORN_LIMIT before anything is built (${mode.name} marshaller)`, () => {
      // In a child process with a small heap: before the fix it died there, out of memory.
      const result = runIsolated(
        `
        const codec = compile(t.array(t.bytes()), { codegen: ${mode.codegen} });
        const n = 26_000_000;
        const bytes = Buffer.alloc(4 + n);
        bytes.set([0x80, 0xf2, 0xb2, 0x0c]); // varint 26,000,000
        try { codec.decode(bytes); return { code: 'none' }; } catch (e) { return { code: e.code, offset: e.offset, path: e.path, message: e.message }; }
      `,
        ['--max-old-space-size=256'],
      );
      assert.equal(result.code, 'ERR_SHORN_LIMIT');
      assert.equal(result.offset, 0);
      assert.equal(result.path, '$');
      assert.match(result.message, /^decoded values of about \d+ bytes, by offset 0 \(\$\), are over the limit of \d+ \(maxDecodedBytes\)$/);
    });

    test(`bombs of arrays, objects and bools are refused; the same shapes fit a larger budget (${mode.name} marshaller)`, () => {
      const shapes = [
        [t.array(t.array(t.uint8())), 0],
        [t.array(t.object({ ok: t.bool() })), 1],
        [t.array(t.bool()), 1],
        [t.array(t.nullable(t.object({ a: t.literal(1), b: t.literal(2), c: t.null() }))), 1],
        [t.array(t.union([t.object({ a: t.null() }), t.bool()])), 0],
      ];
      for (const [schema, item] of shapes) {
        const bytes = arrayOf(2_000_000, item);
        const small = compileMode(schema, mode, { maxDecodedBytes: 10_000_000 });
        assertShornError(() => small.decode(bytes), { code: 'ERR_SHORN_LIMIT' });
        const large = compileMode(schema, mode, { maxDecodedBytes: 2 ** 40 });
        assert.equal(large.decode(bytes).length, 2_000_000);
      }
    });

    test(`the budget counts byte, typed array and text contents (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ b: t.bytes(), f: t.float64Array(), s: t.string() }), mode, { maxDecodedBytes: 100_000 });
      const value = { b: new Uint8Array(40_000), f: new Float64Array(1000), s: 'x'.repeat(10_000) };
      assert.deepStrictEqual(codec.decode(codec.encode(value)), value);
      assertShornError(() => codec.decode(codec.encode({ ...value, b: new Uint8Array(90_000) })), { code: 'ERR_SHORN_LIMIT' });
      assertShornError(() => codec.decode(codec.encode({ ...value, s: 'x'.repeat(90_000) })), { code: 'ERR_SHORN_LIMIT' });
    });

    test(`recursive and json values are counted level by level (${mode.name} marshaller)`, () => {
      const json = compileMode(t.json(), mode, { maxDecodedBytes: 50_000 });
      assert.equal(json.decode(json.encode(Array.from({ length: 100 }, (_, k) => ({ k })))).length, 100);
      assertShornError(() => json.decode(json.encode(Array.from({ length: 1000 }, (_, k) => ({ k })))), { code: 'ERR_SHORN_LIMIT' });
      const Tree = t.recursive('T', (self) => t.object({ kids: t.array(self) }));
      const trees = compileMode(Tree, mode, { maxDecodedBytes: 100_000 });
      const wide = { kids: Array.from({ length: 50 }, () => ({ kids: [] })) };
      assert.deepStrictEqual(trees.decode(trees.encode(wide)), wide);
      const wider = { kids: Array.from({ length: 2000 }, () => ({ kids: [] })) };
      assertShornError(() => trees.decode(trees.encode(wider)), { code: 'ERR_SHORN_LIMIT' });
    });
  }

  test('maxDecodedBytes is a safe integer of at least 0, and the default is documented', () => {
    for (const bad of [-1, 1.5, '5', 2 ** 53]) {
      assertShornError(() => compile(t.uint8(), { maxDecodedBytes: bad }), {
        code: 'ERR_SHORN_SCHEMA',
        message: 'invalid compile option: maxDecodedBytes must be a safe integer of at least 0',
      });
    }
    // A budget of 0 still decodes values that take no heap (a number is unboxed... or not):
    // a bool or null costs nothing.
    assert.equal(compile(t.bool(), { maxDecodedBytes: 0 }).decode(new Uint8Array([1])), true);
  });
});

describe('the estimate is not below what V8 allocates', () => {
  test('for 100,000 values of each common shape, the estimate is at least 0.9x of the measured heap', () => {
    const result = runIsolated(
      `
      function estimate(schema, bytes) {
        let lo = 0, hi = 2 ** 40;
        while (lo < hi) {
          const mid = Math.floor((lo + hi) / 2);
          try { compile(schema, { maxDecodedBytes: mid }).decode(bytes); hi = mid; }
          catch (e) { if (e.code !== 'ERR_SHORN_LIMIT') throw e; lo = mid + 1; }
        }
        return lo;
      }
      function measure(codec, bytes) {
        global.gc(); global.gc();
        const m0 = process.memoryUsage();
        const v = codec.decode(bytes);
        global.gc(); global.gc();
        const m1 = process.memoryUsage();
        return [m1.heapUsed + m1.external - m0.heapUsed - m0.external, v];
      }
      const N = 100000;
      const cases = {
        'empty byte arrays': [t.array(t.bytes()), Array.from({ length: N }, () => new Uint8Array(0))],
        bools: [t.array(t.bool()), Array.from({ length: N }, (_, k) => k % 2 === 0)],
        floats: [t.array(t.float64()), Array.from({ length: N }, (_, k) => k + 0.5)],
        'objects of a bool': [t.array(t.object({ a: t.bool() })), Array.from({ length: N }, () => ({ a: true }))],
        'objects of floats': [t.array(t.object({ a: t.float64(), b: t.float64() })), Array.from({ length: N }, (_, k) => ({ a: k + 0.5, b: 1.5 }))],
        'empty arrays': [t.array(t.array(t.uint8())), Array.from({ length: N }, () => [])],
        strings: [t.array(t.string()), Array.from({ length: N }, (_, k) => 'abcdefghijklmnopq' + k)],
        dates: [t.array(t.date()), Array.from({ length: N }, (_, k) => new Date(k))],
        bigints: [t.array(t.int64()), Array.from({ length: N }, (_, k) => BigInt(k) * 1000000000000n)],
        maps: [t.array(t.map(t.string(), t.uint8())), Array.from({ length: N / 10 }, () => new Map([['a', 1]]))],
        tuples: [t.array(t.tuple([t.float64(), t.float64()])), Array.from({ length: N }, (_, k) => [k + 0.5, 1.5])],
        'typed arrays': [t.array(t.float32Array()), Array.from({ length: N / 10 }, () => new Float32Array(2))],
      };
      const out = {};
      for (const [name, [schema, value]] of Object.entries(cases)) {
        const codec = compile(schema);
        const bytes = Buffer.from(codec.encode(value));
        const [real] = measure(codec, bytes);
        out[name] = { real, estimate: estimate(schema, bytes) };
      }
      return out;
    `,
      ['--expose-gc'],
      // 12 binary searches of ~40 decodes of 100,000 values: ~15 s idle, 30+ s on a busy machine.
      { timeout: 180_000 },
    );
    for (const [name, { real, estimate }] of Object.entries(result)) {
      assert.ok(estimate >= 0.9 * real, `${name}: estimate ${estimate} is below 0.9x of the measured ${real}`);
      assert.ok(estimate <= 4 * real, `${name}: estimate ${estimate} is over 4x the measured ${real}`);
    }
  });
});
