'use strict';
// Hostile frame streams (issue 37 #3-#5): a batch of tiny frames must not take a process
// past its heap limit (`maxFrames` for decodeFrames, backpressure inside one large write
// for the stream decoder); a frame sent a byte at a time is held in one buffer, not one
// Buffer per byte; and the stream decoder keeps no reference to a chunk after its write
// callback, so a producer may refill one Buffer. Last, a quick run of the frames fuzz target.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { Writable } = require('node:stream');
const { t, compile, ShornError } = require('..');
const rt = require('../lib/runtime');
const framing = require('../lib/framing');
const { MODES, compileMode, assertShornError, runIsolated } = require('./helpers');

/** `n` frames of the one-byte message `00`: `01 00` each (a `t.bytes()` of length 0). */
function emptyByteArrays(n) {
  const bytes = Buffer.alloc(2 * n);
  for (let k = 0; k < n; k++) bytes[2 * k] = 1;
  return bytes;
}

// The ERR_SHORN_LIMIT of a decodeFrames call at `frame`, which starts at `offset`, with
// `why` as its message says it.
function checkFrameLimit(error, frame, offset, why) {
  assert.ok(error instanceof ShornError, `expected a ShornError, got ${error && error.stack}`);
  assert.equal(error.code, 'ERR_SHORN_LIMIT');
  assert.equal(error.frame, frame);
  assert.equal(error.offset, offset);
  assert.equal(error.message, `frame ${frame}: ${why} (stream offset ${offset})`);
}

function checkLimit(error, frame, offset, maxFrames) {
  checkFrameLimit(error, frame, offset, `more frames than maxFrames (${maxFrames}) allows in one decodeFrames call`);
}

describe('a budget for one decodeFrames call (issue 37 #3)', () => {
  test('50 MB of one-byte frames under t.bytes() is ERR_SHORN_LIMIT at the default maxFrames in a 256 MB heap, not an abort', () => {
    // Before the fix the child died: ~200 bytes of heap a frame, 25,000,000 frames.
    const result = runIsolated(
      `
      const codec = compile(t.bytes());
      const n = 25_000_000;
      const bytes = Buffer.alloc(2 * n);
      for (let k = 0; k < n; k++) bytes[2 * k] = 1;
      try { codec.decodeFrames(bytes); return { code: 'none' }; } catch (e) { return { code: e.code, frame: e.frame, offset: e.offset, message: e.message }; }
    `,
      ['--max-old-space-size=256'],
    );
    assert.equal(result.code, 'ERR_SHORN_LIMIT', result.message);
    // The default: 256 MiB or an eighth of the heap limit, at 256 bytes a frame.
    assert.ok(result.frame > 10_000 && result.frame <= 2 ** 20, `frame ${result.frame}`);
    assert.equal(result.offset, 2 * result.frame);
    assert.equal(
      result.message,
      `frame ${result.frame}: more frames than maxFrames (${result.frame}) allows in one decodeFrames call (stream offset ${result.offset})`,
    );
  });

  for (const mode of MODES) {
    test(`exactly maxFrames frames decode; a byte more is ERR_SHORN_LIMIT naming the next frame and where it starts (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ id: t.uint32(), name: t.string() }), mode);
      const values = Array.from({ length: 5000 }, (_, k) => ({ id: k, name: 'n'.repeat(k % 40) }));
      for (const checksum of [false, true]) {
        const bytes = codec.encodeFrames(values, { checksum });
        // 4,000 frames span several native batches (a batch is a few thousand tape slots).
        for (const maxFrames of [0, 1, 3, 4000, 5000]) {
          const fits = codec.encodeFrames(values.slice(0, maxFrames), { checksum });
          assert.deepStrictEqual(codec.decodeFrames(fits, { checksum, maxFrames }), values.slice(0, maxFrames));
          if (maxFrames === values.length) {
            assert.deepStrictEqual(codec.decodeFrames(bytes, { checksum, maxFrames }), values);
            continue;
          }
          let error;
          try {
            codec.decodeFrames(bytes, { checksum, maxFrames });
          } catch (e) {
            error = e;
          }
          checkLimit(error, maxFrames, fits.length, maxFrames);
          // One byte of the next frame is enough: the budget is checked before its length.
          const oneMore = Buffer.concat([fits, Buffer.from([0x80])]);
          assertShornError(() => codec.decodeFrames(oneMore, { checksum, maxFrames }), { code: 'ERR_SHORN_LIMIT', frame: maxFrames, offset: fits.length });
        }
      }
    });
  }

  test('the budget counts frames, whatever they hold: null frames, tiny frames, frames read alone', () => {
    const nulls = compile(t.null());
    assert.equal(nulls.decodeFrames(Buffer.alloc(100_000), { maxFrames: 100_000 }).length, 100_000);
    assertShornError(() => nulls.decodeFrames(Buffer.alloc(100_001), { maxFrames: 100_000 }), { code: 'ERR_SHORN_LIMIT', frame: 100_000, offset: 100_000 });
    const bytes = compile(t.bytes());
    assertShornError(() => bytes.decodeFrames(emptyByteArrays(70_000), { maxFrames: 65_537 }), { code: 'ERR_SHORN_LIMIT', frame: 65_537, offset: 131_074 });
    // A frame too long for a batch (read alone) counts the same.
    const big = bytes.encodeFrames([new Uint8Array(100_000), new Uint8Array(3), new Uint8Array(100_000)]);
    assertShornError(() => bytes.decodeFrames(big, { maxFrames: 2 }), { code: 'ERR_SHORN_LIMIT', frame: 2 });
    assert.equal(bytes.decodeFrames(big, { maxFrames: 3 }).length, 3);
  });

  test('maxFrames is a safe integer of at least 0; the stream decoder has no maxFrames (it has backpressure)', () => {
    const codec = compile(t.uint8());
    for (const bad of [-1, 1.5, '5', 2 ** 53, null]) {
      assertShornError(() => codec.decodeFrames(Buffer.alloc(0), { maxFrames: bad }), {
        code: 'ERR_SHORN_SCHEMA',
        message: /^invalid decodeFrames option: maxFrames must be a safe integer of at least 0, found /,
      });
    }
    assert.deepStrictEqual(codec.decodeFrames(Buffer.alloc(0), { maxFrames: 0 }), []);
    assertShornError(() => codec.decoder({ maxFrames: 10 }), { code: 'ERR_SHORN_SCHEMA', message: 'invalid decoder option: unknown option "maxFrames"' });
  });
});

/** The heap estimate of each value of `messages` decoded alone by `codec`. */
function heapsOf(codec, messages) {
  return messages.map((m) => {
    // A native decode, even of a small message (lib/framing.js does the same); or the JS
    // back end's.
    rt.state.grown = true;
    codec.decode(m);
    const heap = rt.decodedHeap();
    assert.ok(heap > 0, `a native decode left its heap estimate, found ${heap}`);
    return heap;
  });
}

function checkHeapLimit(error, frame, offset, budget) {
  checkFrameLimit(error, frame, offset, `the values of the frames up to this one take more than maxDecodedBytes (${budget}) in one decodeFrames call (an estimate of their heap)`);
}

describe('a heap budget for all the values of one decodeFrames call (issue 37 #3)', () => {
  test('thirty frames of 250,000 empty byte arrays, each under its own budget, are ERR_SHORN_LIMIT at the second in a 512 MB heap, not an abort', () => {
    // Before the fix the child died: each frame's value is ~54 MB of estimated heap, under
    // the default maxDecodedBytes of one message (an eighth of the heap limit), and all
    // were built, 7.5 million values from 7.5 MB.
    const result = runIsolated(
      `
      const codec = compile(t.array(t.bytes()));
      const one = codec.encodeFrames([Array.from({ length: 250_000 }, () => new Uint8Array(0))]);
      const bytes = Buffer.concat(Array.from({ length: 30 }, () => one));
      try { codec.decodeFrames(bytes); return { code: 'none' }; } catch (e) { return { code: e.code, frame: e.frame, offset: e.offset, message: e.message, one: one.length }; }
    `,
      ['--max-old-space-size=512'],
      { timeout: 120_000 },
    );
    assert.equal(result.code, 'ERR_SHORN_LIMIT', result.message);
    assert.equal(result.frame, 1);
    assert.equal(result.offset, result.one);
    assert.match(result.message, /^frame 1: the values of the frames up to this one take more than maxDecodedBytes \(\d+\) in one decodeFrames call/);
  });

  for (const mode of MODES) {
    test(`a budget of exactly the values' heap decodes them all; a byte less is ERR_SHORN_LIMIT at the frame that passes it, batched or read alone (${mode.name} marshaller)`, () => {
      const codec = compileMode(t.object({ name: t.string(), blobs: t.array(t.bytes()) }), mode);
      // Small frames decode in native batches; the 40,000-item ones alone: frame 3 (40 KB)
      // needs more tape than a batch has, frame 7 (120 KB) is over a batch's 64 KiB window.
      const sizes = [0, 3, 1, 40_000, 2, 7, 0, 40_000, 5];
      const values = sizes.map((n, k) => ({ name: `v${k}`, blobs: Array.from({ length: n }, () => new Uint8Array(k % 3)) }));
      const messages = values.map((v) => codec.encode(v));
      const heaps = heapsOf(codec, messages);
      for (const checksum of [false, true]) {
        const bytes = codec.encodeFrames(values, { checksum });
        const starts = [];
        let at = 0;
        for (const m of messages) {
          starts.push(at);
          at += framing.headerBytes(m.length) + m.length + (checksum ? 4 : 0);
        }
        let sum = 0;
        for (let k = 0; k < sizes.length; k++) {
          sum += heaps[k];
          // Exactly the heap of frames 0..k: they decode, and frame k + 1 is refused.
          let error = null;
          try {
            codec.decodeFrames(bytes, { checksum, maxDecodedBytes: sum });
          } catch (e) {
            error = e;
          }
          if (k === sizes.length - 1) assert.equal(error, null);
          else checkHeapLimit(error, k + 1, starts[k + 1], sum);
          assert.deepStrictEqual(codec.decodeFrames(bytes.subarray(0, starts[k + 1]), { checksum, maxDecodedBytes: sum }), values.slice(0, k + 1));
          // A byte less: frame k is refused, at its start.
          let less = null;
          try {
            codec.decodeFrames(bytes, { checksum, maxDecodedBytes: sum - 1 });
          } catch (e) {
            less = e;
          }
          checkHeapLimit(less, k, starts[k], sum - 1);
        }
      }
    });
  }

  test("the default is the codec's own maxDecodedBytes, a reader's is the reader's, and the option overrides either", () => {
    const schema = t.object({ id: t.uint32(), tags: t.array(t.bytes()) });
    const values = Array.from({ length: 50 }, (_, k) => ({ id: k, tags: [new Uint8Array(1), new Uint8Array(2)] }));
    const heap = heapsOf(compile(schema), values.map((v) => compile(schema).encode(v))).reduce((a, b) => a + b, 0);
    const bytes = compile(schema).encodeFrames(values);
    const small = compile(schema, { maxDecodedBytes: Math.floor(heap / 2) });
    assertShornError(() => small.decodeFrames(bytes), { code: 'ERR_SHORN_LIMIT', message: new RegExp(`more than maxDecodedBytes \\(${Math.floor(heap / 2)}\\)`) });
    assert.deepStrictEqual(small.decodeFrames(bytes, { maxDecodedBytes: heap }), values);
    // A reader of a writer with one more field: the reader's limits apply.
    const writer = t.object({ id: t.uint32(), tags: t.array(t.bytes()), extra: t.optional(t.string()) });
    const written = compile(writer).encodeFrames(values);
    assertShornError(() => small.reader(writer).decodeFrames(written), { code: 'ERR_SHORN_LIMIT', message: /more than maxDecodedBytes/ });
    assert.equal(small.reader(writer).decodeFrames(written, { maxDecodedBytes: 10 * heap }).length, 50);
    assert.equal(compile(schema).reader(writer).decodeFrames(written).length, 50);
    // The stream decoder has none: it holds one batch at a time.
    assertShornError(() => small.decoder({ maxDecodedBytes: 10 }), { code: 'ERR_SHORN_SCHEMA', message: 'invalid decoder option: unknown option "maxDecodedBytes"' });
  });

  test('maxDecodedBytes is a safe integer of at least 0; 0 takes only values the estimate counts as nothing', () => {
    const codec = compile(t.uint8());
    for (const bad of [-1, 1.5, '5', 2 ** 53, null, Infinity]) {
      assertShornError(() => codec.decodeFrames(Buffer.alloc(0), { maxDecodedBytes: bad }), {
        code: 'ERR_SHORN_SCHEMA',
        message: /^invalid decodeFrames option: maxDecodedBytes must be a safe integer of at least 0, found /,
      });
    }
    assert.deepStrictEqual(codec.decodeFrames(Buffer.alloc(0), { maxDecodedBytes: 0 }), []);
    const bytes = compile(t.bytes());
    assertShornError(() => bytes.decodeFrames(emptyByteArrays(3), { maxDecodedBytes: 0 }), { code: 'ERR_SHORN_LIMIT', frame: 0, offset: 0 });
  });
});

describe('one large write to the stream decoder (issue 37 #3)', () => {
  test('values are pushed with backpressure: the readable side holds at most one batch past its high-water mark', async () => {
    const codec = compile(t.bytes());
    const decoder = codec.decoder();
    const n = 500_000;
    decoder.write(emptyByteArrays(n));
    // Before the fix all 500,000 values were in the readable buffer at this point.
    assert.ok(decoder.readableLength <= decoder.readableHighWaterMark + 65_536, `${decoder.readableLength} values held`);
    decoder.end();
    let count = 0;
    let most = 0;
    for await (const value of decoder) {
      assert.equal(value.length, 0);
      most = Math.max(most, decoder.readableLength);
      count++;
    }
    assert.equal(count, n);
    assert.ok(most <= decoder.readableHighWaterMark + 65_536, `${most} values held`);
  });

  test('10 MB of one-byte frames in one write decode in a 64 MB heap', () => {
    const result = runIsolated(
      `
      const codec = compile(t.bytes());
      const n = 5_000_000;
      const bytes = Buffer.alloc(2 * n);
      for (let k = 0; k < n; k++) bytes[2 * k] = 1;
      const decoder = codec.decoder();
      decoder.end(bytes);
      let count = 0;
      for await (const value of decoder) count += 1 + value.length;
      return { count };
    `,
      ['--max-old-space-size=64'],
      { timeout: 120_000 },
    );
    assert.deepStrictEqual(result, { count: 5_000_000 });
  });

  test('a fault after a paused batch still comes after every value before it', async () => {
    const codec = compile(t.uint8());
    const good = codec.encodeFrames(Array.from({ length: 200_000 }, (_, k) => k & 0xff));
    const decoder = codec.decoder();
    decoder.end(Buffer.concat([good, Buffer.from([0x02, 0x07])]));
    let count = 0;
    let error = null;
    try {
      for await (const value of decoder) {
        assert.equal(value, count & 0xff);
        count++;
      }
    } catch (e) {
      error = e;
    }
    assert.equal(count, 200_000);
    assert.equal(error.code, 'ERR_SHORN_TRUNCATED');
    assert.equal(error.frame, 200_000);
  });
});

describe('a frame sent in tiny chunks (issue 37 #4)', () => {
  test('a 1 MiB frame sent one byte per write decodes in a 48 MB heap, held in one buffer', () => {
    // Before the fix each one-byte chunk was kept as a Buffer of its own: ~400 bytes a byte.
    const result = runIsolated(
      `
      const codec = compile(t.bytes());
      const value = new Uint8Array(1 << 20).map((_, k) => k * 7);
      const frame = codec.encodeFrames([value]);
      const decoder = codec.decoder();
      const got = [];
      decoder.on('data', (v) => got.push(v));
      global.gc();
      const before = process.memoryUsage();
      let held = 0;
      let grown = 0;
      for (let k = 0; k < frame.length; k++) {
        decoder.write(Buffer.from([frame[k]]));
        if (k === frame.length >> 1) {
          global.gc();
          const now = process.memoryUsage();
          held = decoder.bufferedBytes;
          grown = now.heapUsed + now.arrayBuffers - before.heapUsed - before.arrayBuffers;
        }
      }
      decoder.end();
      await new Promise((resolve) => decoder.on('finish', resolve));
      const same = got.length === 1 && Buffer.compare(Buffer.from(got[0]), Buffer.from(value)) === 0;
      return { held, grown, same, length: frame.length };
    `,
      ['--max-old-space-size=48', '--expose-gc'],
      { timeout: 120_000 },
    );
    assert.equal(result.same, true);
    assert.equal(result.held, (result.length >> 1) + 1);
    // One buffer of at most the frame's length, grown by doubling; 8 MiB is 8 times it.
    assert.ok(result.grown < 8 * 2 ** 20, `${result.grown} bytes grown for ${result.held} held`);
  });

  test('a header split over one-byte chunks, then the rest, then a frame split at every byte', async () => {
    const codec = compile(t.string());
    const texts = ['a'.repeat(300), '', 'héllo', 'x'.repeat(70_000)];
    const bytes = codec.encodeFrames(texts, { checksum: true });
    const chunks = [];
    for (let k = 0; k < 3; k++) chunks.push(bytes.subarray(k, k + 1));
    chunks.push(bytes.subarray(3, 200));
    for (let k = 200; k < bytes.length; k += 1 + (k % 5)) chunks.push(bytes.subarray(k, Math.min(k + 1 + (k % 5), bytes.length)));
    const decoder = codec.decoder({ checksum: true });
    const got = [];
    decoder.on('data', (v) => got.push(v));
    for (const chunk of chunks) decoder.write(chunk);
    decoder.end();
    await new Promise((resolve, reject) => {
      decoder.on('finish', resolve);
      decoder.on('error', reject);
    });
    assert.deepStrictEqual(got, texts);
  });
});

/**
 * Writes `bytes` to `decoder` as a producer that owns one Buffer of `size` bytes: each
 * piece is copied into it, written, and once the write's callback has run the Buffer is
 * filled with 0x55 before the next piece (legal for a Writable). Values are read with
 * `for await`, `slow` ones a turn of the event loop each.
 */
async function refilling(decoder, bytes, size, slow = false) {
  const values = [];
  let error = null;
  const reading = (async () => {
    try {
      for await (const value of decoder) {
        values.push(value);
        if (slow && values.length % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (e) {
      error = e;
    }
  })();
  const scratch = Buffer.alloc(size);
  for (let at = 0; at < bytes.length && !decoder.destroyed; at += size) {
    const n = Math.min(size, bytes.length - at);
    scratch.set(bytes.subarray(at, at + n));
    await new Promise((resolve) => decoder.write(scratch.subarray(0, n), resolve));
    scratch.fill(0x55);
  }
  if (!decoder.destroyed) decoder.end();
  await reading;
  return { values, error };
}

describe('chunks reused after their write callback (issue 37 #5)', () => {
  test('a producer that refills one Buffer after each callback gets exact values, at every chunk size', async () => {
    const codec = compile(t.object({ s: t.string(), b: t.bytes(), n: t.uint32() }));
    const values = [
      { s: `${'0'.repeat(40)}${'5'.repeat(40)}`, b: new Uint8Array([1, 2, 3]), n: 5 },
      { s: '', b: new Uint8Array(0), n: 0 },
      { s: 'x'.repeat(300), b: new Uint8Array(200).fill(9), n: 300 },
      { s: 'short', b: new Uint8Array([0x55]), n: 0x55555555 },
    ];
    for (const checksum of [false, true]) {
      const bytes = codec.encodeFrames(values, { checksum });
      for (const size of [1, 2, 3, 5, 7, 11, 13, 64, 333, bytes.length]) {
        const { values: got, error } = await refilling(codec.decoder({ checksum }), bytes, size);
        assert.equal(error, null, `size ${size}: ${error && error.message}`);
        assert.deepStrictEqual(got, values, `chunks of ${size}`);
      }
    }
  });

  test('a chunk paused by backpressure is not called back before it is read, so a refill cannot reach it', async () => {
    const codec = compile(t.string());
    const values = Array.from({ length: 150_000 }, (_, k) => `v${k}`);
    const bytes = codec.encodeFrames(values);
    for (const size of [100_000, bytes.length]) {
      const { values: got, error } = await refilling(codec.decoder(), bytes, size, true);
      assert.equal(error, null);
      assert.equal(got.length, values.length);
      assert.deepStrictEqual(got, values);
    }
  });

  test('piped from a Writable-like producer into a Writable sink, values stay exact', async () => {
    const codec = compile(t.uint32());
    const values = Array.from({ length: 3000 }, (_, k) => k * 2654435761 >>> 0);
    const bytes = codec.encodeFrames(values);
    const got = [];
    const sink = new Writable({
      objectMode: true,
      write(value, _encoding, callback) {
        got.push(value);
        setImmediate(callback);
      },
    });
    const decoder = codec.decoder();
    decoder.pipe(sink);
    const scratch = Buffer.alloc(9);
    for (let at = 0; at < bytes.length; at += 9) {
      const n = Math.min(9, bytes.length - at);
      scratch.set(bytes.subarray(at, at + n));
      await new Promise((resolve) => decoder.write(scratch.subarray(0, n), resolve));
      scratch.fill(0xff);
    }
    decoder.end();
    await new Promise((resolve) => sink.on('finish', resolve));
    assert.deepStrictEqual(got, values);
  });
});

test('scripts/fuzz.js --target frames: 1,500 random frame streams read four ways agree with frames read one at a time', () => {
  const out = path.join(os.tmpdir(), `shorn-fuzz-frames-test-${process.pid}.jsonl`);
  const run = spawnSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'fuzz.js'), '--target', 'frames', '--quick', '--runs', '1500', '--out', out], {
    encoding: 'utf8',
    timeout: 180_000,
  });
  assert.equal(run.status, 0, `fuzz.js failed:\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
  assert.match(run.stdout, /^1500 passed, 0 failed/m);
  for (const key of ['frames.ok', 'frames.ERR_SHORN_LIMIT', 'frames.ERR_SHORN_TRUNCATED', 'frames.over-one-window']) {
    assert.match(run.stdout, new RegExp(`^  ${key.replace(/[.]/g, '\\.')} +[1-9]`, 'm'), `summary counts ${key}`);
  }
});
