'use strict';
// Framing (docs/FORMAT.md, "Framing"): the vectors of tests/framing.json through
// encodeFrames/decodeFrames and the stream classes, split across chunks at every byte
// boundary; faults with their frame index; limits before buffering; backpressure; and a
// stream that fails or is destroyed holds no bytes.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { once } = require('node:events');
const { Readable, Writable, pipeline } = require('node:stream');
const { promisify } = require('node:util');
const { t, compile, ShornError } = require('..');
const { crc32c } = require('../lib/crc32c');
const { fromGolden, fromHex, toHex, assertShornError } = require('./helpers');

const framing = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'tests', 'framing.json'), 'utf8'));
const pipelineAsync = promisify(pipeline);

const Person = t.object({ id: t.uint32(), name: t.string(), age: t.uint8(), active: t.bool() });

/** Feeds `chunks` to `decoder`; resolves to `{ values, error }` read with for await. */
async function readStream(decoder, chunks) {
  const values = [];
  let error = null;
  // Reading starts first: the iterator is what listens for the error.
  const reading = (async () => {
    try {
      for await (const value of decoder) values.push(value);
    } catch (e) {
      error = e;
    }
  })();
  for (const chunk of chunks) {
    if (decoder.destroyed) break;
    if (!decoder.write(chunk)) {
      await new Promise((resolve) => {
        decoder.once('drain', resolve);
        decoder.once('close', resolve);
      });
    }
  }
  if (!decoder.destroyed) decoder.end();
  await reading;
  return { values, error };
}

/** The same bytes as chunks split at `cuts` (sorted offsets). */
function splitAt(bytes, cuts) {
  const chunks = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    chunks.push(bytes.subarray(from, cut));
    from = cut;
  }
  return chunks;
}

function checkError(error, r) {
  assert.ok(error instanceof ShornError, `${r.name}: expected a ShornError, got ${error && error.stack}`);
  assert.equal(error.code, r.code, `${r.name}: code (${error.message})`);
  assert.equal(error.frame, r.frame, `${r.name}: frame (${error.message})`);
  assert.equal(error.offset, r.offset, `${r.name}: offset (${error.message})`);
  if (r.path !== undefined) assert.equal(error.path, r.path, `${r.name}: path`);
  assert.match(error.message, new RegExp(`^frame ${r.frame}: `));
}

test('crc32c: the check value and the iSCSI vectors (RFC 3720 B.4)', () => {
  assert.equal(crc32c(Buffer.from('123456789')), 0xe3069283);
  assert.equal(crc32c(new Uint8Array(0)), 0);
  assert.equal(crc32c(new Uint8Array(32)), 0x8a9136aa);
  assert.equal(crc32c(new Uint8Array(32).fill(0xff)), 0x62a8ab43);
  assert.equal(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i)), 0x46dd794e);
  assert.equal(crc32c(Uint8Array.from({ length: 32 }, (_, i) => 31 - i)), 0x113fdb5c);
  // Every length around the 8-byte steps, against a bitwise CRC.
  const bytes = Uint8Array.from({ length: 40 }, (_, i) => (i * 37 + 11) & 0xff);
  for (let n = 0; n <= bytes.length; n++) {
    let c = 0xffffffff;
    for (let i = 0; i < n; i++) {
      c ^= bytes[i];
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    }
    assert.equal(crc32c(bytes, 0, n), (c ^ 0xffffffff) >>> 0, `length ${n}`);
    assert.equal(crc32c(bytes.subarray(3), 0, Math.max(0, n - 3)), crc32c(bytes, 3, Math.max(3, n)), `offset 3, length ${n}`);
  }
});

test('framing.json has vectors and rejects', () => {
  assert.equal(framing.format, 1);
  assert.ok(framing.vectors.length >= 8);
  assert.ok(framing.rejects.length >= 12);
});

describe('framing vectors', () => {
  for (const v of framing.vectors) {
    const codec = compile(v.schema);
    const values = v.values.map(fromGolden);
    const bytes = fromHex(v.hex);
    const options = { checksum: v.checksum };

    test(`${v.name}: encodeFrames gives the exact bytes, decodeFrames the values`, () => {
      assert.equal(toHex(codec.encodeFrames(values, options)), v.hex);
      assert.deepStrictEqual(codec.decodeFrames(bytes, options), values);
    });

    // A Node stream cannot carry null (write(null) throws; push(null) ends the stream).
    const hasNull = values.includes(null);

    test(`${v.name}: the encoder stream gives the exact bytes`, { skip: hasNull && 'null values cannot be written to a stream' }, async () => {
      const encoder = codec.encoder(options);
      const out = [];
      encoder.on('data', (chunk) => out.push(chunk));
      for (const value of values) encoder.write(value);
      encoder.end();
      await once(encoder, 'end');
      assert.equal(toHex(Buffer.concat(out)), v.hex);
    });

    test(`${v.name}: the decoder stream, split into two chunks at every byte and fed byte by byte`, async () => {
      if (hasNull) {
        const { values: got, error } = await readStream(codec.decoder(options), [bytes]);
        assert.deepStrictEqual(got, values.slice(0, values.indexOf(null)));
        assert.equal(error.code, 'ERR_SHORN_INVALID');
        assert.equal(error.frame, values.indexOf(null));
        assert.match(error.message, /decodes to null, which a Node stream cannot carry/);
        return;
      }
      for (let cut = 0; cut <= bytes.length; cut++) {
        const { values: got, error } = await readStream(codec.decoder(options), splitAt(bytes, [cut]));
        assert.equal(error, null, `cut at ${cut}`);
        assert.deepStrictEqual(got, values, `cut at ${cut}`);
      }
      const { values: got } = await readStream(codec.decoder(options), splitAt(bytes, [...bytes.keys()].slice(1)));
      assert.deepStrictEqual(got, values, 'byte by byte');
    });

    if (v.checksum) {
      test(`${v.name}: every flipped bit is an error, never a wrong value`, () => {
        for (let bit = 0; bit < bytes.length * 8; bit++) {
          const bad = Uint8Array.from(bytes);
          bad[bit >> 3] ^= 1 << (bit & 7);
          assert.throws(() => codec.decodeFrames(bad, options), ShornError, `bit ${bit}`);
        }
      });
    }
  }
});

describe('framing rejects', () => {
  for (const r of framing.rejects) {
    const codec = compile(r.schema);
    const values = r.values.map(fromGolden);
    const bytes = fromHex(r.hex);
    const options = { checksum: r.checksum };
    if (r.maxFrameBytes !== undefined) options.maxFrameBytes = r.maxFrameBytes;

    test(`${r.name}: decodeFrames`, () => {
      const error = assertShornError(() => codec.decodeFrames(bytes, options), { code: r.code });
      checkError(error, r);
    });

    test(`${r.name}: the decoder stream gives the frames before it, then the error, at every split`, async () => {
      for (let cut = 0; cut <= bytes.length; cut++) {
        const decoder = codec.decoder(options);
        const { values: got, error } = await readStream(decoder, splitAt(bytes, [cut]));
        checkError(error, { ...r, name: `${r.name}, cut at ${cut}` });
        assert.deepStrictEqual(got, values, `cut at ${cut}`);
        assert.equal(decoder.bufferedBytes, 0, 'a failed stream holds no bytes');
        assert.ok(decoder.destroyed);
      }
    });
  }
});

describe('decoder', () => {
  const codec = compile(Person);
  const people = Array.from({ length: 300 }, (_, i) => ({ id: i, name: 'p'.repeat(i % 150), age: i % 256, active: i % 3 === 0 }));

  test('many frames of varied sizes, split at every byte boundary of a window', async () => {
    for (const checksum of [false, true]) {
      const bytes = codec.encodeFrames(people, { checksum });
      // Every cut position once, in pairs, so each split lands in headers, bodies and checksums.
      for (let cut = 1; cut < 400; cut++) {
        const { values, error } = await readStream(codec.decoder({ checksum }), splitAt(bytes, [cut, cut + 157, cut + 1000]));
        assert.equal(error, null);
        assert.equal(values.length, people.length);
        assert.deepStrictEqual(values, people);
      }
    }
  });

  test('tiny chunks of 1 to 7 bytes', async () => {
    const bytes = codec.encodeFrames(people, { checksum: true });
    const cuts = [];
    for (let at = 0, k = 0; at < bytes.length; k++) {
      at += 1 + (k % 7);
      if (at < bytes.length) cuts.push(at);
    }
    const { values, error } = await readStream(codec.decoder({ checksum: true }), splitAt(bytes, cuts));
    assert.equal(error, null);
    assert.deepStrictEqual(values, people);
  });

  test('an oversized frame is refused at its header, before its bytes arrive', async () => {
    const decoder = codec.decoder({ maxFrameBytes: 1000 });
    const errored = once(decoder, 'error').catch((e) => e);
    // 1001 as a varint, and nothing else: the decoder must not wait for the body.
    decoder.write(Buffer.from([0xe9, 0x07]));
    const [error] = await errored;
    checkError(error, { name: 'limit', code: 'ERR_SHORN_LIMIT', frame: 0, offset: 0 });
    assert.match(error.message, /the frame length 1001 is over maxFrameBytes \(1000\)/);
    assert.equal(decoder.bufferedBytes, 0);
  });

  test('a header split across chunks is refused as soon as it is whole', async () => {
    const decoder = codec.decoder({ maxFrameBytes: 100 });
    const good = codec.encodeFrames([people[1]]);
    const errored = once(decoder, 'error').catch((e) => e);
    const values = [];
    decoder.on('data', (value) => values.push(value));
    decoder.write(good);
    decoder.write(Buffer.from([0xff]));
    decoder.write(Buffer.from([0xff]));
    decoder.write(Buffer.from([0x01]));
    const [error] = await errored;
    checkError(error, { name: 'split header', code: 'ERR_SHORN_LIMIT', frame: 1, offset: good.length });
    assert.deepStrictEqual(values, [people[1]]);
  });

  test('holds only the bytes of the unfinished frame, and drops them when destroyed', async () => {
    const decoder = codec.decoder();
    const bytes = codec.encodeFrames(people.slice(100, 103));
    decoder.on('data', () => {});
    decoder.write(bytes.subarray(0, bytes.length - 5));
    await new Promise((resolve) => setImmediate(resolve));
    const last = codec.encodeFrames([people[102]]).length;
    assert.equal(decoder.bufferedBytes, last - 5);
    decoder.destroy();
    await once(decoder, 'close');
    assert.equal(decoder.bufferedBytes, 0);
  });

  test('a consumer that destroys the stream mid-chunk gets no more values', async () => {
    const decoder = codec.decoder();
    const seen = [];
    decoder.on('data', (value) => {
      seen.push(value.id);
      if (seen.length === 3) decoder.destroy();
    });
    decoder.write(codec.encodeFrames(people.slice(0, 50)));
    await once(decoder, 'close');
    assert.deepStrictEqual(seen, [0, 1, 2]);
    assert.equal(decoder.bufferedBytes, 0);
  });

  test('backpressure: an unread decoder stops taking bytes', async () => {
    const decoder = codec.decoder();
    const frame = codec.encodeFrames([people[5]]);
    let writes = 0;
    while (decoder.write(frame) && writes < 100_000) writes++;
    // What it holds is bounded: decoded values up to its readable high-water mark, bytes
    // up to its writable one.
    assert.ok(decoder.readableLength <= decoder.readableHighWaterMark, `${decoder.readableLength} values held`);
    assert.ok(decoder.writableLength <= decoder.writableHighWaterMark + frame.length, `${decoder.writableLength} bytes held`);
    assert.ok(writes < 100_000);
    // Reading everything lets it drain and end.
    const drained = once(decoder, 'drain');
    const got = [];
    decoder.on('data', (v) => got.push(v));
    await drained;
    decoder.end();
    await once(decoder, 'end');
    assert.equal(got.length, writes + 1);
  });

  test('a stream that ends inside a frame is ERR_SHORN_TRUNCATED with its index, after the frames before it', async () => {
    const bytes = codec.encodeFrames(people.slice(0, 4));
    const { values, error } = await readStream(codec.decoder(), [bytes.subarray(0, bytes.length - 1)]);
    assert.deepStrictEqual(values, people.slice(0, 3));
    assert.equal(error.code, 'ERR_SHORN_TRUNCATED');
    assert.equal(error.frame, 3);
  });

  test('bad options are ERR_SHORN_SCHEMA naming the option', () => {
    assertShornError(() => codec.decoder({ maxFrameBytes: -1 }), {
      code: 'ERR_SHORN_SCHEMA',
      message: 'invalid decoder option: maxFrameBytes must be an integer from 0 to 4294967295, found number -1',
    });
    assertShornError(() => codec.decoder({ checksum: 'yes' }), { code: 'ERR_SHORN_SCHEMA', message: /checksum must be a boolean/ });
    assertShornError(() => codec.decoder({ maxFrameSize: 10 }), { code: 'ERR_SHORN_SCHEMA', message: 'invalid decoder option: unknown option "maxFrameSize"' });
    assertShornError(() => codec.encoder({ maxFrameBytes: 10 }), { code: 'ERR_SHORN_SCHEMA', message: 'invalid encoder option: unknown option "maxFrameBytes"' });
    assertShornError(() => codec.decodeFrames('abc'), { code: 'ERR_SHORN_INVALID', message: 'decodeFrames: expected a Uint8Array, found string "abc"' });
    assertShornError(() => codec.decodeFrames(new Uint16Array(4)), { code: 'ERR_SHORN_INVALID', message: 'decodeFrames: expected a Uint8Array, found Uint16Array (length 4)' });
    assertShornError(() => codec.encodeFrames(42), { code: 'ERR_SHORN_INVALID', message: 'encodeFrames: expected an iterable of values, found number 42' });
  });

  test('decodeFrames reads any kind of Uint8Array view', () => {
    const bytes = codec.encodeFrames(people.slice(0, 5), { checksum: true });
    const padded = new Uint8Array(bytes.length + 20).fill(0xee);
    padded.set(bytes, 7);
    assert.deepStrictEqual(codec.decodeFrames(padded.subarray(7, 7 + bytes.length), { checksum: true }), people.slice(0, 5));
  });
});

describe('encoder', () => {
  const codec = compile(Person);

  test('a value that does not match is ERR_SHORN_INVALID with its frame and path, after the frames before it', async () => {
    const encoder = codec.encoder();
    const out = [];
    encoder.on('data', (chunk) => out.push(chunk));
    const errored = once(encoder, 'error').catch((e) => e);
    encoder.write({ id: 1, name: 'a', age: 1, active: true });
    encoder.write({ id: 2, name: 'b', age: 2, active: false });
    encoder.write({ id: 3, name: 'c', age: 300, active: true });
    const [error] = await errored;
    assert.equal(error.code, 'ERR_SHORN_INVALID');
    assert.equal(error.frame, 2);
    assert.equal(error.path, '$.age');
    assert.match(error.message, /^frame 2: \$\.age: expected/);
    assert.deepStrictEqual(codec.decodeFrames(Buffer.concat(out)).map((p) => p.id), [1, 2]);
  });

  test('encodeFrames names the frame of a bad value', () => {
    const error = assertShornError(() => codec.encodeFrames([{ id: 1, name: 'a', age: 1, active: true }, { id: -1 }]), { code: 'ERR_SHORN_INVALID', path: '$.id' });
    assert.equal(error.frame, 1);
  });

  test('backpressure: an unread encoder makes write() return false', () => {
    const encoder = codec.encoder();
    let writes = 0;
    while (encoder.write({ id: writes, name: 'x'.repeat(100), age: 1, active: true }) && writes < 100_000) writes++;
    assert.ok(writes < 2000, `write() returned false after ${writes} values`);
    encoder.destroy();
  });

  test('large messages get Buffers of their own; the stream decodes back, piped', async () => {
    const Blob = t.object({ n: t.uint32(), data: t.bytes() });
    const blobs = compile(Blob);
    const values = Array.from({ length: 40 }, (_, n) => ({ n, data: new Uint8Array(n * 1000).fill(n) }));
    const got = [];
    await pipelineAsync(
      Readable.from(values),
      blobs.encoder({ checksum: true }),
      blobs.decoder({ checksum: true }),
      new Writable({
        objectMode: true,
        write(value, _encoding, callback) {
          got.push(value);
          callback();
        },
      }),
    );
    assert.deepStrictEqual(got, values);
  });
});
