'use strict';
// The golden vectors of tests/golden.json (shared with tests/golden.rs): exact bytes on
// encode, the value back on decode, typed errors for every truncation, trailing byte and
// listed reject, for both marshallers and for every kind of input view.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const {
  golden,
  MODES,
  compileMode,
  fromHex,
  toHex,
  fromGolden,
  assertShornError,
  inputViews,
  varint,
  concatBytes,
} = require('./helpers');

// The implementation copies small inputs into a native area and reads longer ones in place
// (the threshold is internal, at most 255 bytes): the vectors (0 to 61 bytes) and their
// repetitions past 255 bytes cover both sides of it, whatever it is.
const SMALL_INPUT = 255;

test('golden.json is format version 1 with vectors and rejects', () => {
  assert.equal(golden.format, 1);
  assert.ok(golden.vectors.length >= 40, `${golden.vectors.length} vectors`);
  assert.ok(golden.rejects.length >= 20, `${golden.rejects.length} rejects`);
});

for (const mode of MODES) {
  test(`decodes messages of every length from 2 to 302 bytes from every kind of view (${mode.name} marshaller)`, () => {
    const codec = compileMode({ type: 'object', fields: [{ name: 's', schema: { type: 'string' } }, { name: 'b', schema: { type: 'bool' } }], strict: false }, mode);
    for (let n = 0; n < 300; n++) {
      const s = 'é'.repeat(n >> 1) + 'a'.repeat(n & 1);
      const bytes = concatBytes(varint(n), Buffer.from(s), [1]);
      for (const [kind, input] of inputViews(bytes)) {
        assert.deepStrictEqual(codec.decode(input), { s, b: true }, `${bytes.length} bytes, ${kind}`);
      }
      assertShornError(() => codec.decode(bytes.subarray(0, bytes.length - 1)), { code: 'ERR_SHORN_TRUNCATED', offset: bytes.length - 1, path: '$.b' });
      assertShornError(() => codec.decode(concatBytes(bytes, [0])), { code: 'ERR_SHORN_TRAILING', offset: bytes.length, path: '$' });
    }
  });
}

// The vector repeated as items of an array until the message is over SMALL_INPUT bytes.
function asLargeArray(v) {
  const one = fromHex(v.hex);
  const count = Math.floor(SMALL_INPUT / one.length) + 2;
  const parts = [varint(count)];
  for (let k = 0; k < count; k++) parts.push(one);
  return { schema: { type: 'array', items: v.schema }, count, bytes: concatBytes(...parts) };
}

for (const mode of MODES) {
  describe(`golden vectors, ${mode.name} marshaller`, () => {
    for (const v of golden.vectors) {
      const value = fromGolden(v.value);
      const expected = 'decoded' in v ? fromGolden(v.decoded) : value;
      const bytes = fromHex(v.hex);

      test(`${v.name}: encodes to exactly ${v.hex || '(no bytes)'}`, () => {
        const codec = compileMode(v.schema, mode);
        const out = codec.encode(value);
        assert.ok(Buffer.isBuffer(out));
        assert.equal(out.length, bytes.length);
        assert.equal(toHex(out), v.hex);
        const target = new Uint8Array(bytes.length + 4).fill(0xee);
        assert.equal(codec.encodeInto(value, target, 2), bytes.length);
        assert.equal(toHex(target.subarray(2, 2 + bytes.length)), v.hex);
      });

      test(`${v.name}: decodes to the value from Buffer, Uint8Array and offset views`, () => {
        const codec = compileMode(v.schema, mode);
        for (const [kind, input] of inputViews(bytes)) {
          assert.deepStrictEqual(codec.decode(input), expected, kind);
        }
      });

      test(`${v.name}: every truncated prefix is ERR_SHORN_TRUNCATED`, () => {
        const codec = compileMode(v.schema, mode);
        for (let n = 0; n < bytes.length; n++) {
          const e = assertShornError(() => codec.decode(bytes.subarray(0, n)), { code: 'ERR_SHORN_TRUNCATED' });
          assert.equal(typeof e.offset, 'number', `prefix of ${n}`);
          assert.ok(e.offset >= 0 && e.offset <= n, `offset ${e.offset} within a prefix of ${n} bytes`);
          assert.match(e.path, /^\$/);
        }
      });

      test(`${v.name}: one appended byte is ERR_SHORN_TRAILING at offset ${bytes.length}`, () => {
        const codec = compileMode(v.schema, mode);
        for (const extra of [0x00, 0x01, 0xff]) {
          const longer = concatBytes(bytes, [extra]);
          assertShornError(() => codec.decode(longer), {
            code: 'ERR_SHORN_TRAILING',
            offset: bytes.length,
            path: '$',
            message: `trailing bytes after the message, from offset ${bytes.length}`,
          });
        }
      });

      if (bytes.length > 0) {
        test(`${v.name}: repeated as array items past ${SMALL_INPUT} bytes, round-trips through the large-input path`, () => {
          const large = asLargeArray(v);
          assert.ok(large.bytes.length > SMALL_INPUT);
          const codec = compileMode(large.schema, mode);
          const values = Array.from({ length: large.count }, () => value);
          assert.equal(toHex(codec.encode(values)), toHex(large.bytes));
          const expectedItems = Array.from({ length: large.count }, () => expected);
          for (const [kind, input] of inputViews(large.bytes)) {
            assert.deepStrictEqual(codec.decode(input), expectedItems, kind);
          }
          for (let n = 0; n < large.bytes.length; n++) {
            assertShornError(() => codec.decode(large.bytes.subarray(0, n)), { code: 'ERR_SHORN_TRUNCATED' });
          }
          assertShornError(() => codec.decode(concatBytes(large.bytes, [0])), {
            code: 'ERR_SHORN_TRAILING',
            offset: large.bytes.length,
          });
        });
      }
    }

    for (const r of golden.rejects) {
      const limits = r.limits || {};
      const bytes = fromHex(r.hex);

      test(`rejects ${r.name} with ${r.code} at offset ${r.offset}, path ${r.path}`, () => {
        const codec = compileMode(r.schema, mode, limits);
        for (const [kind, input] of inputViews(bytes)) {
          const e = assertShornError(() => codec.decode(input), { code: r.code, offset: r.offset, path: r.path });
          assert.equal(typeof e.message, 'string', kind);
        }
      });

      // A fault found before the end of the input stays the same fault when more bytes
      // follow, so padding moves these into the large-input path with the same error
      // (except where the JS layer finds it, after the whole message is read: then the
      // padding is found first).
      if (r.code !== 'ERR_SHORN_TRUNCATED' && r.layer !== 'js') {
        test(`rejects ${r.name} with ${r.code} at offset ${r.offset} when padded past ${SMALL_INPUT} bytes`, () => {
          const codec = compileMode(r.schema, mode, limits);
          const padded = concatBytes(bytes, new Uint8Array(100));
          for (const [kind, input] of inputViews(padded)) {
            const e = assertShornError(() => codec.decode(input), { code: r.code, offset: r.offset, path: r.path });
            assert.ok(e.message.length > 0, kind);
          }
        });
      }
    }
  });
}
