'use strict';
// The public API around the codec: CommonJS and ESM entry points, descriptors as JSON, the
// functional encode/decode cache, the Buffers encode returns (independent of each other
// across the output slabs), re-entrant calls from getters, the no-eval (CSP) path in a
// process that forbids code generation, worker threads, and the TypeScript types.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Worker } = require('node:worker_threads');
const {
  shorn,
  golden,
  MODES,
  compileMode,
  fromGolden,
  toHex,
  fromHex,
  varint,
  concatBytes,
  expectedDecoded,
  assertShornError,
  runIsolated,
  ROOT,
} = require('./helpers');

const { t, compile, encode, decode, ShornError, Codec } = shorn;

const person = t.object({ id: t.uint32(), name: t.string(), age: t.uint8(), active: t.bool(), nick: t.optional(t.string()) });
const ada = { id: 1234, name: 'Ada', age: 36, active: true };
const ADA_HEX = 'd20903416461240100';

describe('entry points', () => {
  test('CommonJS require and ESM import give the same objects', async () => {
    const esm = await import('../index.mjs');
    for (const name of ['t', 'compile', 'encode', 'decode', 'fromZod', 'ShornError', 'Codec']) {
      assert.equal(esm[name], shorn[name], name);
    }
    assert.equal(esm.default, shorn);
    assert.equal(typeof esm.compile, 'function');
    const codec = esm.compile(esm.t.uint8());
    assert.ok(codec instanceof Codec);
    assert.throws(() => codec.decode(new Uint8Array(0)), (e) => e instanceof ShornError && e instanceof esm.ShornError);
  });

  test('package.json maps require, import and types to the entry files', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.equal(pkg.main, 'index.js');
    assert.deepStrictEqual(pkg.exports['.'], { types: './index.d.ts', import: './index.mjs', require: './index.js' });
    for (const file of ['index.js', 'index.mjs', 'index.d.ts']) assert.ok(fs.existsSync(path.join(ROOT, file)), file);
  });

  test('compile gives a Codec whose generated flag is true by default where code generation is allowed', () => {
    const codec = compile(person);
    assert.ok(codec instanceof Codec);
    assert.equal(codec.generated, true);
    assert.equal(compile(person, { codegen: 'auto' }).generated, true);
    assert.equal(compile(person, { codegen: false }).generated, false);
    assert.deepStrictEqual(codec.schema, JSON.parse(JSON.stringify(person)));
    assert.equal(toHex(codec.encode(ada)), ADA_HEX);
  });
});

describe('codecs', () => {
  for (const mode of MODES) {
    test(`encode, encodeInto and decode work detached from the codec (${mode.name} marshaller)`, () => {
      const codec = compileMode(person, mode);
      const { encode: enc, encodeInto, decode: dec } = codec;
      assert.equal(toHex(enc(ada)), ADA_HEX);
      const target = new Uint8Array(9);
      assert.equal(encodeInto(ada, target), 9);
      assert.deepStrictEqual(dec(target), expectedDecoded(person, ada));
      assert.deepStrictEqual([ada, { ...ada, id: 1 }].map(codec.encode).map(toHex), [ADA_HEX, `01${ADA_HEX.slice(4)}`]);
    });

    test(`a codec is frozen and keeps its descriptor as JSON (${mode.name} marshaller)`, () => {
      const codec = compileMode(person, mode);
      assert.ok(Object.isFrozen(codec));
      assert.throws(() => {
        'use strict';
        codec.encode = null;
      }, TypeError);
      assert.notEqual(codec.schema, person);
      assert.deepStrictEqual(codec.schema, JSON.parse(JSON.stringify(person)));
    });
  }
});

describe('descriptors', () => {
  test('t builders make the plain JSON descriptors of docs/FORMAT.md', () => {
    assert.deepStrictEqual(t.bool(), { type: 'bool' });
    for (const type of ['uint8', 'uint16', 'uint32', 'int8', 'int16', 'int32', 'float32', 'float64', 'string', 'bytes']) {
      assert.deepStrictEqual(t[type](), { type });
    }
    assert.deepStrictEqual(t.enum(['a', 'b']), { type: 'enum', values: ['a', 'b'] });
    assert.deepStrictEqual(t.array(t.uint8()), { type: 'array', items: { type: 'uint8' } });
    assert.deepStrictEqual(t.object({ a: t.bool() }), { type: 'object', fields: [{ name: 'a', schema: { type: 'bool' } }], strict: false });
    assert.deepStrictEqual(t.object({ a: t.bool() }, { strict: true }).strict, true);
    assert.deepStrictEqual(t.optional(t.string()), { type: 'optional', of: { type: 'string' } });
    assert.deepStrictEqual(t.nullable(t.string()), { type: 'nullable', of: { type: 'string' } });
  });

  test('t.enum copies its values, so later changes to the array do not change the schema', () => {
    const values = ['a', 'b'];
    const d = t.enum(values);
    values.push('c');
    assert.deepStrictEqual(d.values, ['a', 'b']);
  });

  test('descriptors survive JSON.parse(JSON.stringify(d)) and compile to identical bytes', () => {
    const nested = golden.vectors.find((v) => v.name.startsWith('nested event'));
    const cases = [
      [person, ada],
      [person, { ...ada, nick: 'x' }],
      [t.array(t.object({ a: t.nullable(t.enum(['x', 'y'])), b: t.optional(t.bytes()) })), [{ a: null }, { a: 'y', b: new Uint8Array([1]) }]],
      [nested.schema, fromGolden(nested.value)],
      ...golden.vectors.map((v) => [v.schema, fromGolden(v.value)]),
    ];
    for (const [schema, value] of cases) {
      const stored = JSON.parse(JSON.stringify(schema));
      for (const mode of MODES) {
        const a = compileMode(schema, mode);
        const b = compileMode(stored, mode);
        assert.equal(toHex(b.encode(value)), toHex(a.encode(value)));
        assert.deepStrictEqual(b.decode(a.encode(value)), a.decode(a.encode(value)));
      }
    }
  });
});

describe('functional encode and decode', () => {
  test('give the same bytes and values as a compiled codec, call after call', () => {
    const schema = t.object({ id: t.uint32(), tags: t.array(t.string()) });
    const codec = compile(schema);
    for (let k = 0; k < 2000; k++) {
      const value = { id: k, tags: k % 2 ? ['x'] : [] };
      const bytes = encode(schema, value);
      assert.ok(Buffer.isBuffer(bytes));
      assert.equal(toHex(bytes), toHex(codec.encode(value)));
      assert.deepStrictEqual(decode(schema, bytes), value);
    }
  });

  test('compile a descriptor object once and reuse it for that object', () => {
    const schema = t.object({ a: t.uint8() });
    assert.equal(toHex(encode(schema, { a: 1, b: 2 })), '01');
    // The cached codec was compiled from the first state of this object.
    schema.fields.push({ name: 'b', schema: t.uint8() });
    assert.equal(toHex(encode(schema, { a: 1, b: 2 })), '01');
    assert.deepStrictEqual(decode(schema, fromHex('01')), { a: 1 });
    // An equal but new descriptor object is compiled on its own.
    const other = JSON.parse(JSON.stringify(schema));
    assert.equal(toHex(encode(other, { a: 1, b: 2 })), '0102');
  });

  test('work with a descriptor from JSON and report errors like a codec', () => {
    const schema = JSON.parse(JSON.stringify(person));
    assert.equal(toHex(encode(schema, ada)), ADA_HEX);
    assertShornError(() => encode(schema, { ...ada, age: 256 }), { code: 'ERR_SHORN_INVALID', path: '$.age' });
    assertShornError(() => decode(schema, fromHex('d209')), { code: 'ERR_SHORN_TRUNCATED', path: '$.name' });
  });
});

describe('encode output', () => {
  for (const mode of MODES) {
    test(`is a Buffer of exactly the message length (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ s: t.string() }), mode);
      for (const n of [0, 1, 10, 126, 127, 128, 1000, 8190, 8192, 8200, 20_000, 70_000]) {
        const s = 'q'.repeat(n);
        const out = codec.encode({ s });
        const header = varint(n);
        assert.ok(Buffer.isBuffer(out), `${n}`);
        assert.ok(out instanceof Buffer);
        assert.ok(out instanceof Uint8Array);
        assert.equal(out.length, header.length + n);
        assert.equal(out.byteLength, header.length + n);
        assert.equal(out.toString('hex'), toHex(concatBytes(header, Buffer.from(s))));
        assert.equal(out.toString('latin1', header.length), s);
      }
      const empty = compileMode(t.object({}), mode).encode({});
      assert.ok(Buffer.isBuffer(empty));
      assert.equal(empty.length, 0);
    });

    test(`supports the Buffer methods (${mode.name} marshaller)`, () => {
      const out = compileMode(person, mode).encode(ada);
      assert.equal(out.toString('hex'), ADA_HEX);
      assert.equal(out.toString('base64'), Buffer.from(ADA_HEX, 'hex').toString('base64'));
      assert.ok(out.equals(Buffer.from(ADA_HEX, 'hex')));
      assert.equal(out.readUInt8(3), 0x41);
      assert.ok(Buffer.isBuffer(out.subarray(1, 3)));
      assert.equal(out.subarray(1, 3).toString('hex'), '0903');
      assert.equal(Buffer.concat([out, out]).toString('hex'), ADA_HEX + ADA_HEX);
      assert.deepStrictEqual(JSON.parse(JSON.stringify(out)), { type: 'Buffer', data: [...Buffer.from(ADA_HEX, 'hex')] });
      assert.equal(Buffer.compare(out, Buffer.from(ADA_HEX, 'hex')), 0);
    });

    test(
      `20,000 encodes of 1 byte to 20 KiB stay independent of each other (${mode.name} marshaller)`,
      () => {
        const codec = compileMode(t.bytes(), mode);
        const into = compileMode(t.object({ k: t.uint32() }), mode);
        const payloadSize = (k) => (k % 10 === 0 ? (k * 37) % 20_480 : (k * 13) % 600);
        const payload = (k) => {
          const u = new Uint8Array(payloadSize(k));
          for (let j = 0; j < u.length; j++) u[j] = (k * 7 + j) & 255;
          return u;
        };
        const kept = [];
        let slabs = new Set();
        for (let k = 0; k < 20_000; k++) {
          const out = codec.encode(payload(k));
          kept.push(out);
          slabs.add(out.buffer);
          if (k % 97 === 0) {
            // Other calls between encodes: a decode and an encodeInto of another codec.
            assert.equal(codec.decode(out).length, payloadSize(k));
            into.encodeInto({ k }, new Uint8Array(8));
          }
        }
        assert.ok(slabs.size > 100, `the encodes crossed ${slabs.size} output areas`);
        slabs = null;
        let wrong = 0;
        let first = -1;
        for (let k = 0; k < kept.length; k++) {
          const expected = concatBytes(varint(payloadSize(k)), payload(k));
          if (!Buffer.from(expected).equals(kept[k])) {
            wrong++;
            if (first < 0) first = k;
          }
        }
        assert.equal(wrong, 0, `${wrong} of 20,000 buffers hold the wrong bytes, the first at #${first}`);
      },
    );

    test(
      `the encode that fills an output slab returns its own bytes (${mode.name} marshaller)`,
      () => {
        const codec = compileMode(t.string(), mode);
        const outputs = [];
        // 700 messages of 105 to 107 bytes fill more than one 64 KiB slab.
        for (let k = 0; k < 700; k++) outputs.push([`k${k}${'x'.repeat(100)}`, codec.encode(`k${k}${'x'.repeat(100)}`)]);
        const wrong = outputs.filter(([s, out]) => out.toString('hex') !== toHex(concatBytes([s.length], Buffer.from(s))));
        assert.deepStrictEqual(wrong.map(([s]) => s.slice(0, 5)), []);
      },
    );

    // After a message over 8 KiB, the next is written straight into a Buffer a sixteenth
    // larger (src/binding/mod.rs, `encode_large`); one that outgrows it, or leaves over
    // an eighth of it unused, is copied to a Buffer of its own.
    test(
      `large messages written in place: each size after each, and an error in the middle (${mode.name} marshaller)`,
      () => {
        const codec = compileMode(t.bytes(), mode);
        const payload = (n, k) => {
          const u = new Uint8Array(n);
          for (let j = 0; j < n; j++) u[j] = (k * 31 + j * 7) & 255;
          return u;
        };
        const sizes = [20_000, 20_000, 21_000, 30_000, 30_000, 10_000, 100, 100, 9_000, 9_000, 200_000, 200_000, 8_000];
        const kept = sizes.map((n, k) => [n, k, codec.encode(payload(n, k))]);
        let inPlace = 0;
        for (const [n, k, out] of kept) {
          assert.ok(Buffer.isBuffer(out), `#${k} is a Buffer`);
          assert.equal(Buffer.compare(out, Buffer.from(concatBytes(varint(n), payload(n, k)))), 0, `#${k}, ${n} bytes`);
          if (mode.backend !== undefined) continue; // the JS back end writes its own way
          if (n > 8192) {
            // A view never hides much memory: at most a sixteenth more, and a little.
            assert.ok(out.buffer.byteLength <= Math.ceil(out.length * 1.15) + 64, `#${k}: ${out.buffer.byteLength} bytes behind ${out.length}`);
            if (out.buffer.byteLength > out.length) inPlace++;
          } else {
            // A small message goes in the slab, after a large one too.
            assert.equal(out.buffer.byteLength, 64 * 1024, `#${k}, ${n} bytes, in the slab`);
          }
        }
        if (mode.backend === undefined) assert.ok(inPlace >= 4, `${inPlace} messages written in place`);

        // A refusal while the message is being written in place leaves nothing behind.
        const strings = compileMode(t.array(t.string()), mode);
        const words = Array.from({ length: 3000 }, (_, k) => `word number ${k}, long enough to go to the native side`);
        const good = strings.encode(words);
        assert.equal(strings.encode(words).toString('hex'), good.toString('hex'));
        assert.throws(() => strings.encode([...words, 'lone \ud800 surrogate']), (e) => e.code === 'ERR_SHORN_INVALID' && /\[3000\]/.test(e.message));
        const again = strings.encode(words);
        assert.equal(again.toString('hex'), good.toString('hex'));
        assert.deepStrictEqual(strings.decode(again), words);
      },
    );
  }
});

describe('re-entrant calls from getters', () => {
  for (const mode of MODES) {
    test(`a getter that encodes and decodes with another codec leaves the outer message correct (${mode.name} marshaller)`, () => {
      const inner = compileMode(t.object({ a: t.string(), n: t.array(t.uint32()) }), mode);
      const outer = compileMode(t.object({ x: t.uint32(), y: t.string(), z: t.array(t.string()), w: t.bytes() }), mode);
      const seen = [];
      const value = {
        x: 5,
        get y() {
          const b = inner.encode({ a: 'inner', n: Array.from({ length: 3000 }, (_, k) => k) });
          seen.push(inner.decode(b).n.length);
          return 'outer';
        },
        z: ['p', 'q'],
        get w() {
          seen.push(inner.decode(inner.encode({ a: 'é', n: [1] })).a);
          return new Uint8Array([9]);
        },
      };
      const plain = { x: 5, y: 'outer', z: ['p', 'q'], w: new Uint8Array([9]) };
      const expected = toHex(outer.encode(plain));
      assert.equal(toHex(outer.encode(value)), expected);
      assert.deepStrictEqual(seen, [3000, 'é']);
      const target = new Uint8Array(64);
      const n = outer.encodeInto(value, target);
      assert.equal(toHex(target.subarray(0, n)), expected);
    });

    test(`a getter inside a large array that calls another codec leaves the outer message correct (${mode.name} marshaller)`, () => {
      const inner = compileMode(t.array(t.float64()), mode);
      const outer = compileMode(t.array(t.object({ v: t.uint32(), s: t.string() })), mode);
      const items = Array.from({ length: 5000 }, (_, k) => ({ v: k, s: `s${k}` }));
      const tricky = items.map((item, k) =>
        k % 1000 === 500
          ? {
              get v() {
                inner.decode(inner.encode(Array.from({ length: 4000 }, (_, j) => j / 3)));
                return item.v;
              },
              s: item.s,
            }
          : item,
      );
      assert.equal(toHex(outer.encode(tricky)), toHex(outer.encode(items)));
    });

    test(`a getter that encodes and decodes with the same codec leaves the outer message correct (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ a: t.string(), b: t.uint8(), c: t.array(t.string()) }), mode);
      const value = {
        a: 'x',
        get b() {
          const inner = codec.encode({ a: 'yyyy', b: 9, c: ['1', '2', '3'] });
          assert.deepStrictEqual(codec.decode(inner), { a: 'yyyy', b: 9, c: ['1', '2', '3'] });
          return 2;
        },
        c: ['z'],
      };
      assert.equal(toHex(codec.encode(value)), '01780201017a');
      assert.deepStrictEqual(codec.decode(codec.encode(value)), { a: 'x', b: 2, c: ['z'] });
    });

    // Fuzz finding J8: a union's variant test counts how deep it is on the schema's
    // marshaller, which both marshallers share; an encode re-entered from a getter that
    // the test reads must start that count at 0, not where the outer test stood.
    test(`an encode re-entered from inside a union's variant test gets the whole depth limit (${mode.name} marshaller)`, () => {
      const B = t.recursive('B', (self) => t.object({ v: t.string(), next: t.nullable(self) }));
      const codec = compileMode(t.union([B, t.uint32()]), mode, { maxDepth: 6 });
      const chain = (n) => (n === 0 ? null : { v: `v${n}`, next: chain(n - 1) });
      // The deepest chain the codec takes on its own.
      let deepest = 1;
      while (deepest < 50) {
        try {
          codec.encode(chain(deepest + 1));
          deepest++;
        } catch (e) {
          assert.equal(e.code, 'ERR_SHORN_INVALID');
          break;
        }
      }
      assert.ok(deepest > 2 && deepest < 50, `deepest ${deepest}`);
      const alone = toHex(codec.encode(chain(deepest)));
      let inner = null;
      const value = {
        v: 'a',
        next: {
          get v() {
            inner = toHex(codec.encode(chain(deepest)));
            return 'b';
          },
          next: null,
        },
      };
      const plain = toHex(codec.encode({ v: 'a', next: { v: 'b', next: null } }));
      assert.equal(toHex(codec.encode(value)), plain);
      assert.equal(inner, alone);
      // And the count is where the outer test left it when the getter returns: a cyclic
      // value still ends in ERR_SHORN_INVALID, not a stack overflow.
      const cyclic = { v: 'c', next: null };
      cyclic.next = cyclic;
      assert.throws(() => codec.encode(cyclic), { code: 'ERR_SHORN_INVALID' });
      // The same for check(), which marks no call busy: inside an encode's test, and with
      // an encode inside its own.
      let results;
      const calling = (call) => {
        results = [];
        return {
          v: 'a',
          next: {
            get v() {
              results.push(call());
              return 'b';
            },
            next: null,
          },
        };
      };
      // Every call the getter made (one per read of the field) gave the value's own result.
      const each = (want) => {
        assert.ok(results.length > 0);
        assert.deepStrictEqual(results, results.map(() => want));
      };
      assert.equal(toHex(codec.encode(calling(() => codec.check(chain(deepest)).ok))), plain);
      each(true);
      assert.deepStrictEqual(codec.check(calling(() => toHex(codec.encode(chain(deepest))))), { ok: true });
      each(alone);
      assert.deepStrictEqual(codec.check(calling(() => codec.check(chain(deepest)).ok)), { ok: true });
      each(true);
    });

    // A large schema's generated code is split into a function per object shape, which
    // pass the tape, text and byte arrays through one object per codec; an encode of the
    // same codec from a getter inside one of them must leave the outer call's there.
    test(`a getter that encodes with the same large (split) codec leaves the outer message correct (${mode.name} marshaller)`, () => {
      const fields = {};
      for (let k = 0; k < 150; k++) fields[`f${k}`] = t.uint8();
      const part = () => t.object({ x: t.uint8(), b: t.bytes(), s: t.string() });
      const codec = compileMode(t.object({ a: part(), c: part(), d: t.array(part()), rest: t.object(fields) }), mode);
      const rest = {};
      for (let k = 0; k < 150; k++) rest[`f${k}`] = k;
      const plain = {
        a: { x: 1, b: new Uint8Array([1, 2]), s: 'a' },
        c: { x: 3, b: new Uint8Array([3, 4, 5]), s: 'cé' },
        d: [{ x: 5, b: new Uint8Array([6]), s: '' }],
        rest,
      };
      const expected = toHex(codec.encode(plain));
      const other = { ...plain, a: { x: 9, b: new Uint8Array([9, 9, 9, 9]), s: 'other' }, d: [] };
      const otherHex = toHex(codec.encode(other));
      const inner = [];
      const value = {
        ...plain,
        a: {
          get x() {
            inner.push(toHex(codec.encode(other)));
            return 1;
          },
          b: plain.a.b,
          s: 'a',
        },
      };
      assert.equal(toHex(codec.encode(value)), expected);
      assert.deepStrictEqual(inner, [otherHex]);
      assert.deepStrictEqual(codec.decode(codec.encode(value)), plain);
    });

    // A call made while another encode is marshalling starts on a small tape of its own, so
    // inner encodes of growing values cross the tape's end at every alignment.
    test(`encodes re-entered from a getter grow their tape correctly at every alignment (${mode.name} marshaller)`, () => {
      const inner = compileMode(
        t.array(t.object({ tags: t.array(t.uint8()), a: t.uint32(), b: t.nullable(t.uint32()), s: t.string(), deep: t.array(t.array(t.uint8())) })),
        mode,
      );
      const outer = compileMode(t.object({ x: t.uint8() }), mode);
      const values = [];
      for (let k = 1; k <= 70; k++) {
        for (let L = 0; L < 9; L++) {
          values.push(
            Array.from({ length: k }, (_, j) => ({
              tags: Array.from({ length: (L + j) % 9 }, (_, q) => q),
              a: j,
              b: j % 2 ? null : j,
              s: `s${j}`,
              deep: j % 5 ? [] : [[1, 2], [], [3]],
            })),
          );
        }
      }
      const inside = [];
      outer.encode({
        get x() {
          for (const v of values) inside.push(toHex(inner.encode(v)));
          return 1;
        },
      });
      const mismatches = values.filter((v, k) => toHex(inner.encode(v)) !== inside[k]).length;
      assert.equal(mismatches, 0);
      assert.deepStrictEqual(inner.decode(fromHex(inside[inside.length - 1])), values[values.length - 1]);
    });

    test(`huge encodes and decodes re-entered from a getter inside a huge encode leave both correct (${mode.name} marshaller)`, () => {
      // Both tapes grow past the size that is given back after a call (2 MiB).
      const inner = compileMode(t.array(t.float64()), mode);
      const outer = compileMode(t.object({ list: t.array(t.uint32()), tail: t.string() }), mode);
      const list = Array.from({ length: 300_000 }, (_, k) => k);
      const innerValue = Array.from({ length: 400_000 }, (_, k) => k / 7);
      const plain = toHex(outer.encode({ list, tail: 'end' }));
      const innerHex = toHex(inner.encode(innerValue));
      const seen = [];
      const tricky = {
        list,
        get tail() {
          const bytes = inner.encode(innerValue);
          seen.push(toHex(bytes) === innerHex, inner.decode(bytes).length);
          return 'end';
        },
      };
      assert.equal(toHex(outer.encode(tricky)), plain);
      assert.deepStrictEqual(seen, [true, 400_000]);
      assert.deepStrictEqual(outer.decode(fromHex(plain)), { list, tail: 'end' });
      assert.equal(toHex(outer.encode({ list: [1], tail: 'q' })), '01010171');
    });

    test(`a ShornError thrown and caught inside a getter does not disturb the outer call (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ a: t.uint8(), b: t.string() }), mode);
      const other = compileMode(t.uint8(), mode);
      const value = {
        a: 1,
        get b() {
          assert.throws(() => other.encode(300), (e) => e.code === 'ERR_SHORN_INVALID');
          assert.throws(() => other.decode(fromHex('0102')), (e) => e.code === 'ERR_SHORN_TRAILING');
          return 'ok';
        },
      };
      assert.equal(toHex(codec.encode(value)), '01026f6b');
      assert.equal(toHex(other.encode(7)), '07');
    });
  }
});

// ---- the no-eval path in a process that forbids code generation ----

const CSP_VALUES = [
  [person, ada],
  [person, { ...ada, nick: 'Countess' }],
  [t.array(t.object({ s: t.string(), b: t.nullable(t.bytes()), e: t.enum(['a', 'b']) })), [{ s: 'é🚀', b: null, e: 'b' }, { s: '', b: new Uint8Array([1, 2]), e: 'a' }]],
  // The golden values travel in their own JSON form (bigints, Maps, dates and typed arrays
  // included).
  ...golden.vectors.map((v) => [v.schema, fromGolden(v.value), v.value]),
];

// Bytes cannot cross as JSON directly: values with bytes, NaN or -0 travel as golden-style
// JSON and are rebuilt in the child.
function toGoldenJson(v) {
  if (v instanceof Uint8Array) return { $bytes: toHex(v) };
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return { $number: 'NaN' };
    if (v === Infinity) return { $number: 'Infinity' };
    if (v === -Infinity) return { $number: '-Infinity' };
    if (Object.is(v, -0)) return { $number: '-0' };
    return v;
  }
  if (Array.isArray(v)) return v.map(toGoldenJson);
  if (v !== null && typeof v === 'object') {
    const out = {};
    for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: toGoldenJson(v[k]), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

let cspResult;
function cspRun() {
  if (cspResult === undefined) {
    const cases = JSON.stringify(CSP_VALUES.map(([schema, value, json]) => ({ schema, value: json === undefined ? toGoldenJson(value) : json })));
    cspResult = runIsolated(
      `
      const { fromGolden } = require(${JSON.stringify(path.join(__dirname, 'helpers.js'))});
      let evalBlocked = false;
      try { new Function('return 1'); } catch (e) { evalBlocked = e instanceof EvalError; }
      // Parsed, not pasted as a literal: a literal would turn a "__proto__" key into a prototype.
      const cases = JSON.parse(${JSON.stringify(cases)});
      const out = [];
      for (const { schema, value } of cases) {
        const codec = compile(schema);
        const v = fromGolden(value);
        const bytes = codec.encode(v);
        const target = new Uint8Array(bytes.length);
        codec.encodeInto(v, target);
        const functional = encode(schema, v);
        let decodedHex;
        try { decodedHex = compile(schema).encode(codec.decode(bytes)).toString('hex'); } catch (e) { decodedHex = String(e); }
        out.push({ generated: codec.generated, hex: bytes.toString('hex'), into: Buffer.from(target).toString('hex'), functional: functional.toString('hex'), decodedHex });
      }
      let forced;
      try { compile(t.uint8(), { codegen: true }); forced = { threw: false }; } catch (e) { forced = { threw: true, isShornError: e instanceof ShornError, name: e.name, code: e.code }; }
      return { evalBlocked, out, forced };
    `,
      ['--disallow-code-generation-from-strings'],
    );
  }
  return cspResult;
}

describe('without code generation (--disallow-code-generation-from-strings)', () => {
  test('compile falls back to the generic marshaller and gives the bytes of the codegen path', () => {
    const { evalBlocked, out } = cspRun();
    assert.equal(evalBlocked, true, 'the child process forbids new Function');
    assert.equal(out.length, CSP_VALUES.length);
    CSP_VALUES.forEach(([schema, value], k) => {
      const expected = toHex(compileMode(schema, MODES[0]).encode(value));
      assert.deepStrictEqual(out[k], { generated: false, hex: expected, into: expected, functional: expected, decodedHex: expected }, `case ${k}`);
    });
  });

  test('compile with codegen: true throws a ShornError where code generation is forbidden', () => {
    const { forced } = cspRun();
    assert.equal(forced.threw, true);
    assert.equal(forced.isShornError, true, `got ${forced.name}`);
    assert.equal(forced.code, 'ERR_SHORN_SCHEMA');
  });
});

// ---- worker threads ----

function runWorker(seed) {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { t, compile } = require(workerData.root);
    const results = [];
    for (const codegen of [true, false]) {
      const codec = compile(t.object({ id: t.uint32(), name: t.string(), data: t.bytes(), tags: t.array(t.string()) }), { codegen });
      for (let k = 0; k < 200; k++) {
        const value = { id: workerData.seed * 1000 + k, name: 'w' + workerData.seed + 'é' + k, data: new Uint8Array([k & 255, workerData.seed]), tags: ['t' + k] };
        const bytes = codec.encode(value);
        const back = codec.decode(bytes);
        results.push({ hex: bytes.toString('hex'), ok: back.id === value.id && back.name === value.name && back.data[0] === (k & 255) && back.tags[0] === 't' + k });
      }
    }
    parentPort.postMessage(results);
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: { root: ROOT, seed } });
    let message;
    worker.on('message', (m) => {
      message = m;
    });
    worker.on('error', reject);
    worker.on('exit', (code) => (code === 0 ? resolve(message) : reject(new Error(`worker exited with ${code}`))));
  });
}

function expectedWorkerHex(seed) {
  const codec = compile(t.object({ id: t.uint32(), name: t.string(), data: t.bytes(), tags: t.array(t.string()) }));
  const out = [];
  for (let round = 0; round < 2; round++) {
    for (let k = 0; k < 200; k++) {
      const value = { id: seed * 1000 + k, name: `w${seed}é${k}`, data: new Uint8Array([k & 255, seed]), tags: [`t${k}`] };
      out.push(toHex(concatBytes(varint(value.id), varint(Buffer.byteLength(value.name)), Buffer.from(value.name), [2, k & 255, seed], [1], varint(value.tags[0].length), Buffer.from(value.tags[0]))));
    }
  }
  assert.equal(out[0], toHex(codec.encode({ id: seed * 1000, name: `w${seed}é0`, data: new Uint8Array([0, seed]), tags: ['t0'] })));
  return out;
}

describe('worker threads', () => {
  test('the addon loads in a worker and encodes and decodes correctly', async () => {
    const results = await runWorker(1);
    assert.deepStrictEqual(results.map((r) => r.hex), expectedWorkerHex(1));
    assert.ok(results.every((r) => r.ok));
  });

  test('two workers at once each get correct results, and the main thread still works after', async () => {
    const [a, b] = await Promise.all([runWorker(2), runWorker(3)]);
    assert.deepStrictEqual(a.map((r) => r.hex), expectedWorkerHex(2));
    assert.deepStrictEqual(b.map((r) => r.hex), expectedWorkerHex(3));
    assert.ok(a.every((r) => r.ok) && b.every((r) => r.ok));
    const codec = compile(person);
    assert.equal(toHex(codec.encode(ada)), ADA_HEX);
    assert.deepStrictEqual(codec.decode(fromHex(ADA_HEX)), expectedDecoded(person, ada));
  });
});

describe('two copies of the JS layer in one process', () => {
  test(
    'a module registry reset (jest.resetModules) leaves both copies encoding and decoding correctly',
    () => {
      const result = runIsolated(`
        const path = require('node:path');
        for (const key of Object.keys(require.cache)) {
          if (key.startsWith(ROOT + path.sep) && !key.endsWith('.node') && !key.includes('node_modules')) delete require.cache[key];
        }
        const second = require(ROOT);
        const a = compile(t.object({ s: t.string(), n: t.uint8() }));
        const b = second.compile(second.t.object({ s: second.t.string(), n: second.t.uint8() }));
        const out = [];
        for (let k = 0; k < 3; k++) {
          try { out.push(a.encode({ s: 'a' + k, n: k }).toString('hex')); } catch (e) { out.push(e.message); }
          try { out.push(b.encode({ s: 'b' + k, n: k }).toString('hex')); } catch (e) { out.push(e.message); }
        }
        try { out.push(a.decode(Buffer.from('02613005', 'hex'))); } catch (e) { out.push(e.message); }
        try { out.push(b.decode(Buffer.from('02623006', 'hex'))); } catch (e) { out.push(e.message); }
        return out;
      `);
      assert.deepStrictEqual(result, [
        '02613000',
        '02623000',
        '02613101',
        '02623101',
        '02613202',
        '02623202',
        { s: 'a0', n: 5 },
        { s: 'b0', n: 6 },
      ]);
    },
  );
});

describe('TypeScript types', () => {
  test('index.d.ts declares the public API', () => {
    const dts = fs.readFileSync(path.join(ROOT, 'index.d.ts'), 'utf8');
    for (const name of ['t', 'compile', 'encode', 'decode', 'fromZod']) {
      assert.match(dts, new RegExp(`export declare (const|function) ${name}\\b`), name);
    }
    for (const name of ['ShornError', 'Codec']) assert.match(dts, new RegExp(`export declare class ${name}\\b`), name);
    assert.match(dts, /export type Infer</);
    for (const code of ['ERR_SHORN_SCHEMA', 'ERR_SHORN_INVALID', 'ERR_SHORN_TRUNCATED', 'ERR_SHORN_TRAILING', 'ERR_SHORN_MALFORMED', 'ERR_SHORN_LIMIT', 'ERR_SHORN_BUFFER']) {
      assert.ok(dts.includes(`'${code}'`), code);
    }
    for (const option of ['maxStringBytes', 'maxBytesLength', 'maxArrayLength', 'codegen']) assert.ok(dts.includes(`${option}?:`), option);
  });

  test('tests/typescript type-checks with tsc', (ctx) => {
    let tsc;
    try {
      tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
    } catch {
      ctx.skip('typescript is not installed');
      return;
    }
    const { spawnSync } = require('node:child_process');
    const run = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tests', 'typescript')], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stdout + run.stderr);
  });
});

describe('tape memory', () => {
  // Issue 6 ("Also fix"): lib/generic.js read rt.KEEP_TAPE_SLOTS, which lib/runtime.js did
  // not export, so the generic marshaller never gave back a tape grown for a huge message.
  // (The JS back end has no tape; it keeps no buffer over 1 MiB between encodes.)
  for (const mode of MODES.filter((m) => m.backend === undefined)) {
    test(`a tape grown for a huge encode is given back after a small one (${mode.name} marshaller)`, () => {
      const rt = require('../lib/runtime');
      const codec = compileMode(t.array(t.uint32()), mode);
      const huge = Array.from({ length: 600_000 }, (_, k) => k);
      codec.encode(huge);
      assert.ok(rt.state.tape.length > 600_000, `the tape grew to ${rt.state.tape.length} slots`);
      codec.encode(huge);
      assert.ok(rt.state.tape.length > 600_000, 'kept while messages that large keep coming');
      codec.encode([1, 2, 3]);
      assert.ok(rt.state.tape.length <= 4096, `given back: ${rt.state.tape.length} slots`);
    });
  }
  test('text scratch grown for a huge decode is given back after a small message, whatever its text', () => {
    const rt = require('../lib/runtime');
    const codec = shorn.compile(t.object({ s: t.string() }));
    const huge = codec.encode({ s: 'x'.repeat(4 << 20) });
    for (const small of ['', 'Ada', 'Ada Lovelace', 'Zoë']) {
      assert.equal(codec.decode(huge).s.length, 4 << 20);
      const grown = rt.native.scratchBytes();
      assert.ok(grown >= 4 << 20, `the text grew: ${grown} bytes`);
      assert.equal(codec.decode(codec.encode({ s: small })).s, small);
      const after = rt.native.scratchBytes();
      assert.ok(after < grown - (3 << 20), `given back after ${JSON.stringify(small)}: ${after} of ${grown} bytes`);
    }
  });
});
