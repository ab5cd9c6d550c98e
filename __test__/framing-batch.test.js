'use strict';
// Frames are decoded in batches: one native call decodes the frames that lie whole and
// sound in a chunk (src/engine.rs, decode_frames), and the frame a batch stops before is
// read alone (lib/framing.js, FrameReader). Whatever the batches, the values must be those
// of decoding each message alone, and faults those of the frame read alone: every type
// (the golden vectors), both marshallers, readers of another writer, corpora whose
// messages outgrow the tape, long texts, wide text that is taken back, chunks at
// odd offsets, and a decode made from inside an encode.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { t, compile, ShornError } = require('..');
const rt = require('../lib/runtime');
const framing = require('../lib/framing');
const { MODES, compileMode, fromGolden, fromHex, mulberry32: prng } = require('./helpers');
const { CORPORA, loadCorpus } = require('../benchmark/corpora');

const golden = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'tests', 'golden.json'), 'utf8'));


/** `bytes` as chunks of `size`, each a view at an odd offset of a larger ArrayBuffer. */
function chunked(bytes, size) {
  const chunks = [];
  for (let at = 0; at < bytes.length; at += size) {
    const part = bytes.subarray(at, Math.min(at + size, bytes.length));
    const backing = new Uint8Array(part.length + 7);
    backing.set(part, 3);
    chunks.push(backing.subarray(3, 3 + part.length));
  }
  return chunks;
}

/** Decodes `chunks` with a FrameReader over `codec`: `{ values, error }`. */
function readChunks(codec, chunks, options) {
  const values = [];
  const reader = new framing.FrameReader(codec, framing.frameOptions('test', options, true), (v) => values.push(v));
  try {
    for (const chunk of chunks) reader.push(chunk);
    reader.end();
  } catch (error) {
    return { values, error };
  }
  return { values, error: null };
}

/** Counts the native batch calls and the single-frame decodes `fn` makes through `codec`. */
function counting(codec, fn) {
  const counts = { batches: 0, alone: 0 };
  const batch = rt.frameDecoders.get(codec);
  const spy = {
    decode(bytes) {
      counts.alone++;
      return codec.decode(bytes);
    },
  };
  rt.frameDecoders.set(spy, (...args) => {
    counts.batches++;
    return batch(...args);
  });
  const result = fn(spy);
  return { counts, result };
}

function messagesOf(codec, values) {
  return values.map((v) => codec.encode(v));
}

// The frames of `messages`, by hand (so the test does not trust encodeFrames).
function frames(messages, checksum) {
  const { crc32c } = require('../lib/crc32c');
  const parts = [];
  for (const m of messages) {
    let n = m.length;
    const header = [];
    while (n >= 0x80) {
      header.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    header.push(n);
    parts.push(Buffer.from(header), Buffer.from(m));
    if (checksum) {
      const c = Buffer.alloc(4);
      c.writeUInt32LE(crc32c(m));
      parts.push(c);
    }
  }
  return Buffer.concat(parts);
}

describe('batches decode what single decodes do', () => {
  // The golden vectors grouped by schema: every type, each value framed many times over.
  const bySchema = new Map();
  for (const v of golden.vectors) {
    const key = JSON.stringify(v.schema);
    if (!bySchema.has(key)) bySchema.set(key, { schema: v.schema, hexes: [] });
    bySchema.get(key).hexes.push(v.hex);
  }
  for (const mode of MODES) {
    test(`every golden schema, ${mode.name}: batched equals each message alone, at every chunk size`, () => {
      let schemas = 0;
      for (const { schema, hexes } of bySchema.values()) {
        const codec = compileMode(schema, mode);
        const messages = [];
        for (let k = 0; k < 40; k++) messages.push(fromHex(hexes[k % hexes.length]));
        const expected = messages.map((m) => codec.decode(m));
        for (const checksum of [false, true]) {
          const bytes = frames(messages, checksum);
          for (const size of [bytes.length || 1, 4096, 97, 13, 3]) {
            const { values, error } = readChunks(codec, chunked(bytes, size), { checksum });
            assert.equal(error, null, `${JSON.stringify(schema)}: ${error && error.message}`);
            assert.deepStrictEqual(values, expected, JSON.stringify(schema));
          }
          assert.deepStrictEqual(codec.decodeFrames(bytes, { checksum }), expected);
        }
        schemas++;
      }
      assert.ok(schemas > 30, `${schemas} schemas`);
    });
  }

  test('the golden values are what the batches give (not only what decode gives)', () => {
    for (const v of golden.vectors) {
      const codec = compile(v.schema);
      const bytes = frames([fromHex(v.hex), fromHex(v.hex)], false);
      const value = fromGolden('decoded' in v ? v.decoded : v.value);
      assert.deepStrictEqual(codec.decodeFrames(bytes), [value, value], v.name);
    }
  });

  test('a 64 KiB chunk of small frames takes a few native calls, not one per frame', () => {
    const Event = t.object({ id: t.uint32(), name: t.string(), tags: t.array(t.string()), at: t.float64() });
    const codec = compile(Event);
    const random = prng(7);
    const values = Array.from({ length: 2000 }, (_, k) => ({
      id: k,
      name: random() < 0.5 ? `user_${k}` : `usér_${k}_€`,
      tags: ['a', 'bb', 'ccc'].slice(0, 1 + (k % 3)),
      at: random(),
    }));
    const bytes = codec.encodeFrames(values);
    const { counts, result } = counting(codec, (spy) => framing.decodeFrames(spy, bytes));
    assert.deepStrictEqual(result, values);
    // 2000 frames of ~8 slots in a 4096-slot tape: a handful of batches.
    assert.ok(counts.batches <= 10, `${counts.batches} batches`);
    assert.equal(counts.alone, 0);
  });

  test('frames cut by chunk ends are read alone, the rest in batches', () => {
    const codec = compile(t.object({ id: t.uint32(), name: t.string() }));
    const values = Array.from({ length: 500 }, (_, k) => ({ id: k, name: `n${k}` }));
    const bytes = codec.encodeFrames(values);
    const { counts, result } = counting(codec, (spy) => readChunks(spy, chunked(bytes, 100)));
    assert.equal(result.error, null);
    assert.deepStrictEqual(result.values, values);
    const chunks = Math.ceil(bytes.length / 100);
    assert.ok(counts.alone < chunks, `${counts.alone} frames alone in ${chunks} chunks`);
    assert.ok(counts.batches <= 2 * chunks, `${counts.batches} batches in ${chunks} chunks`);
  });

  test('long texts end batches (a batch text stays small) and read back whole', () => {
    const codec = compile(t.object({ s: t.string(), n: t.uint16() }));
    const values = Array.from({ length: 120 }, (_, k) => ({ s: `${k % 2 ? 'ж' : 'z'}`.repeat(1000 + k), n: k }));
    const bytes = codec.encodeFrames(values);
    const { counts, result } = counting(codec, (spy) => framing.decodeFrames(spy, bytes));
    assert.deepStrictEqual(result, values);
    assert.ok(counts.batches >= 4, `${counts.batches} batches for ~120k units of text`);
  });

  test('a message too big for the tape is read alone (the tape grows), and its wide text taken back', () => {
    const codec = compile(t.object({ s: t.string(), xs: t.array(t.uint8()) }));
    const values = [];
    for (let k = 0; k < 300; k++) values.push({ s: `plain ${k} é`, xs: [k & 0xff] });
    // Adds a wide string to the batch's text, then needs more tape than there is.
    values.splice(150, 0, { s: 'wide € then a big array', xs: new Array(20000).fill(7) });
    const expected = structuredClone(values);
    for (const mode of MODES) {
      const c = compileMode(codec.schema, mode);
      assert.deepStrictEqual(c.decodeFrames(c.encodeFrames(values)), expected, mode.name);
    }
  });

  test('a bad message after text that widened: the frames before it intact, then its own error', () => {
    const codec = compile(t.object({ s: t.string(), n: t.uint8() }));
    const good = ['ab', 'cd', 'é-latin1'].map((s, n) => codec.encode({ s, n }));
    const bad = Buffer.concat([codec.encode({ s: '€ wide', n: 9 }), Buffer.from([0])]);
    const bytes = frames([...good, bad, good[0]], false);
    for (const size of [bytes.length, 5]) {
      const { values, error } = readChunks(codec, chunked(bytes, size));
      assert.deepStrictEqual(values, [
        { s: 'ab', n: 0 },
        { s: 'cd', n: 1 },
        { s: 'é-latin1', n: 2 },
      ]);
      assert.ok(error instanceof ShornError);
      assert.equal(error.code, 'ERR_SHORN_TRAILING');
      assert.equal(error.frame, 3);
      assert.match(error.message, /^frame 3: /);
    }
  });

  test('checksums in batches: a flipped bit in any frame is that frame\'s error, after the frames before it', () => {
    const codec = compile(t.object({ id: t.uint32(), name: t.string() }));
    const values = Array.from({ length: 50 }, (_, k) => ({ id: k, name: `name ${k}` }));
    const bytes = codec.encodeFrames(values, { checksum: true });
    const frameStarts = [];
    for (let at = 0, k = 0; k < values.length; k++) {
      frameStarts.push(at);
      at += 1 + bytes[at] + 4;
    }
    for (const k of [0, 1, 17, 49]) {
      const flipped = Buffer.from(bytes);
      flipped[frameStarts[k] + 2] ^= 0x10;
      const { values: got, error } = readChunks(codec, [flipped], { checksum: true });
      assert.deepStrictEqual(got, values.slice(0, k));
      assert.equal(error.code, 'ERR_SHORN_MALFORMED');
      assert.equal(error.frame, k);
      assert.equal(error.offset, frameStarts[k]);
      assert.match(error.message, /checksum mismatch/);
    }
  });

  test('maxFrameBytes: a batch never decodes a frame over it; the frame is refused with its index', () => {
    const codec = compile(t.object({ s: t.string() }));
    const values = [{ s: 'a' }, { s: 'b' }, { s: 'x'.repeat(300) }, { s: 'c' }];
    const bytes = codec.encodeFrames(values);
    const { values: got, error } = readChunks(codec, [bytes], { maxFrameBytes: 100 });
    assert.deepStrictEqual(got, values.slice(0, 2));
    assert.equal(error.code, 'ERR_SHORN_LIMIT');
    assert.equal(error.frame, 2);
  });

  test('bytes and typed arrays are copied from the right place of a chunk at any offset', () => {
    const S = t.object({ b: t.bytes(), f: t.float64Array(), u: t.uint16Array(), big: t.int64(), name: t.string() });
    const random = prng(3);
    const values = Array.from({ length: 300 }, (_, k) => ({
      b: Uint8Array.from({ length: k % 17 }, () => Math.floor(random() * 256)),
      f: Float64Array.from({ length: k % 5 }, () => random()),
      u: Uint16Array.from({ length: k % 4 }, () => Math.floor(random() * 65536)),
      big: BigInt(k) * -1234567890123n,
      name: `n${k}`,
    }));
    for (const mode of MODES) {
      const codec = compileMode(S, mode);
      const bytes = codec.encodeFrames(values);
      for (const size of [bytes.length, 1000, 33]) {
        const { values: got, error } = readChunks(codec, chunked(bytes, size));
        assert.equal(error, null);
        assert.deepStrictEqual(got, values, `${mode.name}, chunks of ${size}`);
      }
    }
  });

  test('recursive, json, unions, maps and records in batches, both marshallers', () => {
    const Tree = t.recursive('Tree', (self) => t.object({ name: t.string(), kids: t.array(self) }));
    const S = t.object({
      tree: Tree,
      doc: t.json(),
      u: t.union([t.string(), t.uint32(), t.array(t.bool())]),
      e: t.discriminatedUnion('type', [
        t.object({ type: t.literal('a'), at: t.date() }),
        t.object({ type: t.literal('b'), by: t.record(t.nullable(t.string())) }),
      ]),
      m: t.map(t.uint8(), t.nullable(t.string())),
    });
    const values = Array.from({ length: 200 }, (_, k) => ({
      tree: { name: `r${k}`, kids: k % 3 ? [{ name: 'x', kids: [] }] : [] },
      doc: k % 2 ? { k, list: [1, 'two', null, { deep: 'é€' }] } : `s${k}`,
      u: [`u${k}`, k, [true, false]][k % 3],
      e: k % 2 ? { type: 'a', at: new Date(1e12 + k) } : { type: 'b', by: { x: 'y', n: null } },
      m: new Map([
        [k & 0xff, `v${k}`],
        [(k + 1) & 0xff, null],
      ]),
    }));
    for (const mode of MODES) {
      const codec = compileMode(S, mode);
      const messages = messagesOf(codec, values);
      const expected = messages.map((m) => codec.decode(m));
      const bytes = frames(messages, false);
      for (const size of [bytes.length, 501, 17]) {
        const { values: got, error } = readChunks(codec, chunked(bytes, size));
        assert.equal(error, null);
        assert.deepStrictEqual(got, expected, `${mode.name}, chunks of ${size}`);
      }
    }
  });

  test('readers of another writer decode batches as their own values', () => {
    const V1 = t.object({ id: t.uint8(), name: t.string(), gone: t.string() });
    const V2 = t.object({ name: t.string(), id: t.uint32(), extra: t.default(t.string(), 'dflt') });
    for (const mode of MODES) {
      const writer = compileMode(V1, mode);
      const reader = compileMode(V2, mode).reader(V1);
      const values = Array.from({ length: 400 }, (_, k) => ({ id: k & 0xff, name: `n${k}é`, gone: 'x'.repeat(k % 9) }));
      const bytes = writer.encodeFrames(values);
      const expected = values.map((v) => ({ name: v.name, id: v.id, extra: 'dflt' }));
      for (const size of [bytes.length, 64, 5]) {
        const { values: got, error } = readChunks(reader, chunked(bytes, size));
        assert.equal(error, null);
        assert.deepStrictEqual(got, expected, `${mode.name}, chunks of ${size}`);
      }
      assert.deepStrictEqual(reader.decodeFrames(bytes), expected);
    }
  });

  test('corpora (large split schemas, messages over the tape) framed, both marshallers', () => {
    for (const { name, shorn: schema } of CORPORA) {
      const d = schema(t);
      // Arrays are framed item by item; other documents whole, three times.
      const doc = loadCorpus(name);
      const [itemSchema, values] = d.type === 'array' ? [d.items, doc] : [d, [doc, loadCorpus(name), doc]];
      for (const mode of MODES) {
        const codec = compileMode(itemSchema, mode);
        const messages = messagesOf(codec, values);
        const expected = messages.map((m) => codec.decode(m));
        const bytes = frames(messages, true);
        for (const size of [65536, 4099]) {
          const { values: got, error } = readChunks(codec, chunked(bytes, size), { checksum: true });
          assert.equal(error, null, `${name} ${mode.name}: ${error && error.message}`);
          assert.deepStrictEqual(got, expected, `${name}, ${mode.name}, chunks of ${size}`);
        }
      }
    }
  });

  test('decodeFrames called from a getter during an encode reads frame by frame, correctly', () => {
    const Inner = compile(t.object({ id: t.uint32(), name: t.string() }));
    const inner = Array.from({ length: 50 }, (_, k) => ({ id: k, name: `i${k}` }));
    const innerBytes = Inner.encodeFrames(inner);
    const Outer = compile(t.object({ count: t.uint32(), label: t.string() }));
    let seen = null;
    const value = {
      get count() {
        seen = Inner.decodeFrames(innerBytes);
        return seen.length;
      },
      label: 'outer',
    };
    const bytes = Outer.encode(value);
    assert.deepStrictEqual(seen, inner);
    assert.deepStrictEqual(Outer.decode(bytes), { count: 50, label: 'outer' });
  });
});
