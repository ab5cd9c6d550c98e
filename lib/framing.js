'use strict';
// Framing (docs/FORMAT.md, "Framing"): many messages in one byte stream, each a varint of
// its length, the message, and with `checksum` the CRC-32C of the message (4 bytes,
// little-endian). `FrameReader` takes bytes in chunks of any size and hands out decoded
// messages; `encodeFrames` / `decodeFrames` do the same for one Buffer. The node:stream
// classes over them are in lib/stream.js.

const host = require('#host');
const { ShornError, describe } = require('./errors');
const { crc32c } = require('./crc32c');
const { frameDecoders, decodedHeap, state } = require('#runtime');

// Intrinsics, so reading a chunk runs none of its own code (a subclass's `subarray` or
// `length` getter): what chunks are made of is read through the typed-array internals.
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (key) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
const typedArrayTag = getter(Symbol.toStringTag);
const typedArrayLength = getter('length');
const typedArrayBuffer = getter('buffer');
const typedArrayByteOffset = getter('byteOffset');
const typedArraySet = TypedArrayPrototype.set;

// A frame length is a 32-bit varint (at most 5 bytes, FORMAT.md "Varints").
const MAX_HEADER_BYTES = 5;
const MAX_FRAME_LIMIT = 0xffffffff;
// The default maxFrameBytes: a frame is held whole before it is decoded, so this bounds
// what one connection can make a decoder buffer. Messages are usually far smaller; a
// larger one is ERR_SHORN_LIMIT with a message naming the option.
const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;
const CHECKSUM_BYTES = 4;
// The default maxFrames of one decodeFrames call. A tiny frame's value costs up to ~224
// bytes of heap (a byte array, Map or typed array is 208-216 bytes in the decode budget's
// estimate, plus the result's 8-byte slot); 25,000,000 frames of `01 00` (50 MB) under
// t.bytes() took 5 GB and aborted the process (issue 37 #3). So a batch gets the default
// budget of one message (lib/compile.js, DEFAULT_MAX_DECODED_BYTES: 256 MiB, or an eighth of
// V8's heap limit where that is less) at 256 bytes a frame: 1,048,576 frames on a heap
// of 2 GiB or more.
const FRAME_COST = 256;
const DEFAULT_MAX_FRAMES = Math.floor(Math.min(256 * 1024 * 1024, host.heapLimit() / 8) / FRAME_COST);
// At most this many bytes of a chunk go to one native batch, so one batch builds at most
// this many values (a frame is at least a byte): 50 MB of zero-length frames under
// t.null() take no tape slots and no text, and were one batch of 50,000,000 values. The
// stream decoder pushes a batch's values, then waits for its reader; 65,536 values of
// ~224 bytes are ~15 MB. A frame that a window cuts is read alone (one in 64 KiB).
const BATCH_WINDOW = 64 * 1024;
// The first buffer for an unfinished frame whose length is known: it doubles as bytes
// arrive, up to the frame's length, so a frame sent a byte at a time is copied about
// twice in all, and a 5-byte header declaring 16 MiB does not make the decoder allocate
// 16 MiB before any of them arrives.
const HOLD_START = 4096;

function optionError(what, message) {
  return new ShornError('ERR_SHORN_SCHEMA', `invalid ${what} option: ${message}`);
}

/**
 * Checks framing options: `{ checksum }`, plus `{ maxFrameBytes }` when decoding, plus
 * `{ maxFrames, maxDecodedBytes }` for one call that returns every value (`batch`), whose
 * default heap budget is `budget` (the codec's own `maxDecodedBytes`).
 */
function frameOptions(what, options, decoding, batch = false, budget = Infinity) {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null) throw optionError(what, 'options must be an object');
  const known = decoding ? (batch ? ['checksum', 'maxFrameBytes', 'maxFrames', 'maxDecodedBytes'] : ['checksum', 'maxFrameBytes']) : ['checksum'];
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw optionError(what, `unknown option ${JSON.stringify(key)}`);
  }
  const checksum = options.checksum === undefined ? false : options.checksum;
  if (typeof checksum !== 'boolean') throw optionError(what, `checksum must be a boolean, found ${describe(checksum)}`);
  let maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
  if (decoding && options.maxFrameBytes !== undefined) {
    maxFrameBytes = options.maxFrameBytes;
    if (!Number.isInteger(maxFrameBytes) || maxFrameBytes < 0 || maxFrameBytes > MAX_FRAME_LIMIT) {
      throw optionError(what, `maxFrameBytes must be an integer from 0 to ${MAX_FRAME_LIMIT}, found ${describe(maxFrameBytes)}`);
    }
  }
  let maxFrames = batch ? DEFAULT_MAX_FRAMES : Infinity;
  if (batch && options.maxFrames !== undefined) {
    maxFrames = options.maxFrames;
    if (!Number.isSafeInteger(maxFrames) || maxFrames < 0) {
      throw optionError(what, `maxFrames must be a safe integer of at least 0, found ${describe(maxFrames)}`);
    }
  }
  let maxDecodedBytes = batch ? budget : Infinity;
  if (batch && options.maxDecodedBytes !== undefined) {
    maxDecodedBytes = options.maxDecodedBytes;
    if (!Number.isSafeInteger(maxDecodedBytes) || maxDecodedBytes < 0) {
      throw optionError(what, `maxDecodedBytes must be a safe integer of at least 0, found ${describe(maxDecodedBytes)}`);
    }
  }
  return { checksum, maxFrameBytes, maxFrames, maxDecodedBytes };
}

/** The number of bytes of the varint of `n` (0 <= n < 2^32). */
function headerBytes(n) {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

/** Writes the varint of `n` at `pos` of `target`; returns the position after it. */
function writeHeader(target, pos, n) {
  while (n >= 0x80) {
    target[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  target[pos++] = n;
  return pos;
}

/** Writes the CRC-32C of `target[start..end)` at `end`, little-endian; returns end + 4. */
function writeChecksum(target, start, end) {
  const c = crc32c(target, start, end);
  target[end] = c & 0xff;
  target[end + 1] = (c >>> 8) & 0xff;
  target[end + 2] = (c >>> 16) & 0xff;
  target[end + 3] = c >>> 24;
  return end + CHECKSUM_BYTES;
}

/** `error` with the index of the frame it belongs to, as `frame` and in its message. */
function atFrame(error, frame) {
  if (error instanceof ShornError && error.frame === undefined) {
    error.frame = frame;
    error.message = `frame ${frame}: ${error.message}`;
  }
  return error;
}

function frameError(code, frame, offset, message) {
  const error = new ShornError(code, `frame ${frame}: ${message} (stream offset ${offset})`, { offset });
  error.frame = frame;
  return error;
}

/**
 * Reads the varint at `pos` of `bytes` (before `end`): its value, or -1 if the bytes end
 * inside it; sets `state.next` to the position after it. Throws ERR_SHORN_MALFORMED for
 * an overlong or over-range varint, `frame` and `offset` naming where.
 */
function readHeader(bytes, pos, end, state, frame, offset) {
  let value = 0;
  for (let k = 0; k < MAX_HEADER_BYTES; k++) {
    if (pos + k >= end) return -1;
    const b = bytes[pos + k];
    if (k === 4 && b > 0x0f) {
      throw frameError('ERR_SHORN_MALFORMED', frame, offset, 'the frame length is a varint over 32 bits');
    }
    value += (b & 0x7f) * 2 ** (7 * k);
    if (b < 0x80) {
      if (b === 0 && k > 0) {
        throw frameError('ERR_SHORN_MALFORMED', frame, offset, 'the frame length is an overlong varint');
      }
      state.next = pos + k + 1;
      return value;
    }
  }
  // Unreachable: a fifth byte with the high bit set is over 0x0f.
  throw frameError('ERR_SHORN_MALFORMED', frame, offset, 'the frame length is a varint over 32 bits');
}

// Where the frame after `count` whole, sound frames from `pos` starts (frames a batch read).
function frameAfter(bytes, pos, end, count, trailer) {
  const state = { next: 0 };
  for (let k = 0; k < count; k++) {
    const length = readHeader(bytes, pos, end, state, 0, 0);
    pos = state.next + length + trailer;
  }
  return pos;
}

// Chunks up to this size are decoded in batches (positions cross to native code as u32).
const MAX_BATCH_INPUT = 0xffffffff;

/**
 * Decodes frames from bytes that arrive in chunks of any size. `push(chunk)` calls
 * `emit(value)` for each frame the chunk completes, in order; `end()` checks that no frame
 * was left unfinished. After an error, or `release()`, the reader holds no bytes and
 * takes no more.
 *
 * The frames that lie whole and sound in a chunk are decoded in batches, one native call
 * per batch (the codec's `decodeFrames`, lib/codegen.js; docs/DESIGN.md: cross once per
 * batch), and their values emitted in order. A batch stops before any frame it cannot
 * simply decode (cut by the chunk's end or by BATCH_WINDOW, too long, a bad checksum or
 * message), and that frame is read alone by the careful path below, which holds its bytes
 * or reports its fault exactly as if there were no batches.
 *
 * Backpressure: when `emit` returns false, the reader stops after the batch (or frame) it
 * is in, and `push` returns false; `proceed()` goes on with the same chunk later, so the
 * chunk must stay unchanged until then. Once `push` or `proceed` has returned true, the
 * reader keeps nothing of the chunk: the start of an unfinished frame is copied.
 */
class FrameReader {
  constructor(codec, options, emit) {
    this.decode = codec.decode;
    const batch = frameDecoders.get(codec);
    this.batch = typeof batch === 'function' ? batch : null;
    // Where the last batch ended, whether it stopped only because it was full, the heap
    // its values may take (`budget`, in) and took (`heap`, out).
    this.done = { end: 0, more: false, budget: Infinity, heap: 0 };
    this.checksum = options.checksum;
    this.maxFrameBytes = options.maxFrameBytes;
    // No budgets unless given (decodeFrames gives them; a stream has backpressure): the
    // frames, and the estimated heap of their values (the native decode's estimate,
    // docs/FORMAT.md "The decode budget", summed), read so far.
    this.maxFrames = options.maxFrames === undefined ? Infinity : options.maxFrames;
    this.maxHeap = options.maxDecodedBytes === undefined ? Infinity : options.maxDecodedBytes;
    this.heap = 0;
    // A heap left by a decode before this reader's first is not one of its frames'.
    if (this.maxHeap !== Infinity) decodedHeap();
    this.emit = emit;
    // The index of the next frame, and the stream offset where it starts.
    this.frame = 0;
    this.offset = 0;
    // The unfinished frame, from its first byte, copied into one buffer (`pending`, null
    // when none): its first `held` bytes are the frame's, and `need` is the frame's whole
    // length once its header is read (-1 until then).
    this.pending = null;
    this.held = 0;
    this.need = -1;
    // A chunk taken up to `waitingAt` when `emit` asked the reader to wait (backpressure).
    this.waiting = null;
    this.waitingAt = 0;
    this.stalled = false;
    this.failed = false;
    this.scratch = { next: 0 };
  }

  /** The bytes held for an unfinished frame. */
  get bufferedBytes() {
    return this.held;
  }

  /** Takes `chunk`: true when all of it is taken, false when `emit` asked to wait. */
  push(chunk) {
    if (this.failed) throw new ShornError('ERR_SHORN_INVALID', 'the frame reader failed before and takes no more bytes');
    if (typedArrayTag.call(chunk) !== 'Uint8Array') {
      throw new ShornError('ERR_SHORN_INVALID', `expected bytes (a Uint8Array or Buffer), found ${describe(chunk)}`);
    }
    return this.run(chunk, 0);
  }

  /** Goes on with the chunk `push` stopped in: true once all of it is taken. */
  proceed() {
    const chunk = this.waiting;
    if (chunk === null || this.failed) return true;
    this.waiting = null;
    return this.run(chunk, this.waitingAt);
  }

  run(chunk, from) {
    this.stalled = false;
    try {
      return this.take(chunk, from);
    } catch (e) {
      this.release();
      this.failed = true;
      throw e;
    }
  }

  // Emits a value; remembers whether the consumer asked to wait.
  give(value) {
    if (this.emit(value) === false) this.stalled = true;
  }

  take(chunk, from) {
    const end = typedArrayLength.call(chunk);
    const memory = typedArrayBuffer.call(chunk);
    const start = typedArrayByteOffset.call(chunk);
    let pos = from;
    if (this.held > 0) {
      pos = this.resume(chunk);
      if (pos < 0) return true;
    }
    const { checksum, maxFrameBytes, maxFrames, decode, scratch, done } = this;
    const batch = end <= MAX_BATCH_INPUT ? this.batch : null;
    const checksumFlag = checksum ? 1 : 0;
    const trailer = checksum ? CHECKSUM_BYTES : 0;
    let frame = this.frame;
    // `base`: the stream offset of chunk[0]; `need`: the whole length of a frame left
    // unfinished at the end of the chunk (-1 while its header is unfinished too).
    const base = this.offset - pos;
    let need = -1;
    try {
      while (pos < end) {
        if (this.stalled) {
          this.waiting = chunk;
          this.waitingAt = pos;
          return false;
        }
        if (frame >= maxFrames) throw this.overBudget(frame, base + pos);
        if (batch !== null) {
          const stop = end - pos > BATCH_WINDOW ? pos + BATCH_WINDOW : end;
          const windowed = stop === end ? chunk : new Uint8Array(memory, start, stop);
          const values = [];
          done.budget = this.maxHeap - this.heap;
          done.heap = 0;
          let batched;
          try {
            batched = batch(windowed, pos, maxFrameBytes, checksumFlag, values, done);
          } catch (e) {
            if (!(e instanceof ShornError)) throw e;
            // A check JS makes as it builds a value (a string's pattern, or its url or ipv6
            // format; a reader's constraints; a Map's keys only JS can compare) failed in
            // the frame after those built: they are emitted, and that frame is read alone
            // below, which reports its fault as if there were no batches.
            batched = true;
            done.end = frameAfter(chunk, pos, end, values.length, trailer);
            done.more = false;
          }
          if (batched) {
            this.heap += done.heap;
            const n = values.length;
            const room = maxFrames - frame;
            for (let k = 0; k < n && k < room; k++) {
              frame++;
              this.frame = frame;
              this.give(values[k]);
              // `emit` may have stopped the reader (a consumer that destroyed its stream).
              if (this.failed) return true;
            }
            if (n > room) {
              pos = frameAfter(chunk, pos, end, room, trailer);
              throw this.overBudget(frame, base + pos);
            }
            pos = done.end;
            this.offset = base + pos;
            if (done.more) continue;
            if (pos >= end) break;
            if (this.stalled) continue;
            if (frame >= maxFrames) throw this.overBudget(frame, base + pos);
          }
        }
        // One frame, read alone: the one a batch stopped before.
        let length = chunk[pos];
        let at = pos + 1;
        if (length >= 0x80) {
          length = readHeader(chunk, pos, end, scratch, frame, base + pos);
          if (length < 0) break;
          at = scratch.next;
        }
        if (length > maxFrameBytes) throw this.overLimit(frame, base + pos, length);
        const stop = at + length + trailer;
        if (stop > end) {
          need = stop - pos;
          break;
        }
        if (checksum) verify(chunk, at, at + length, frame, base + pos);
        let value;
        // With a heap budget, even a small message is decoded natively (not read in JS,
        // lib/codegen.js `fastTake`), which leaves its estimate for `charge`.
        if (this.maxHeap !== Infinity) state.grown = true;
        try {
          value = decode(new Uint8Array(memory, start + at, length));
        } catch (e) {
          throw atFrame(e, frame);
        }
        if (this.maxHeap !== Infinity) this.charge(length, frame, base + pos);
        frame++;
        pos = stop;
        this.frame = frame;
        this.offset = base + pos;
        this.give(value);
        // `emit` may have stopped the reader (a consumer that destroyed its stream).
        if (this.failed) return true;
      }
    } finally {
      this.frame = frame;
      this.offset = base + pos;
    }
    if (pos < end) {
      // The start of a frame, copied: the chunk may be refilled once its write is called
      // back (issue 37 #5), and a small tail must not keep a large chunk alive.
      const tail = end - pos;
      this.pending = host.alloc(need < 0 ? MAX_HEADER_BYTES : Math.min(need, Math.max(tail, HOLD_START)));
      typedArraySet.call(this.pending, new Uint8Array(memory, start + pos, tail), 0);
      this.held = tail;
      this.need = need;
    }
    return true;
  }

  // Continues the unfinished frame with `chunk`: returns the position in `chunk` after
  // the frame once it is complete (and decoded), or -1 when `chunk` did not finish it.
  resume(chunk) {
    const length = typedArrayLength.call(chunk);
    if (this.need < 0) {
      // The header itself is unfinished: it is in at most five bytes, and `pending` has
      // room for them. The bytes are copied after those held but counted only below.
      const { pending, held } = this;
      const n = Math.min(length, MAX_HEADER_BYTES - held);
      for (let k = 0; k < n; k++) pending[held + k] = chunk[k];
      const declared = readHeader(pending, 0, held + n, this.scratch, this.frame, this.offset);
      if (declared < 0) {
        // n is all of `chunk`: five bytes would have ended the header or been refused.
        this.held = held + n;
        return -1;
      }
      if (declared > this.maxFrameBytes) throw this.overLimit(this.frame, this.offset, declared);
      this.need = this.scratch.next + declared + (this.checksum ? CHECKSUM_BYTES : 0);
    }
    const missing = this.need - this.held;
    if (length < missing) {
      this.append(chunk, length);
      return -1;
    }
    this.append(chunk, missing);
    // `pending` is never longer than the frame (append), so it is the frame.
    const whole = this.pending;
    this.pending = null;
    this.held = 0;
    this.need = -1;
    // The frame is now whole: read it like any other, from a chunk of its own.
    this.take(whole, 0);
    return this.failed ? -1 : missing;
  }

  // Copies the first `count` bytes of `chunk` after those held, growing `pending` by
  // doubling, never past the frame's length: memory stays under twice the frame and the
  // copying linear, however small the chunks (a frame sent a byte per chunk held one
  // Buffer per byte, ~400 bytes each: 3.27 GB for 16 MiB; issue 37 #4).
  append(chunk, count) {
    const { held, need } = this;
    let pending = this.pending;
    if (held + count > pending.length) {
      const size = Math.min(need, Math.max(2 * pending.length, held + count));
      const grown = host.alloc(size);
      typedArraySet.call(grown, new Uint8Array(pending.buffer, pending.byteOffset, held), 0);
      this.pending = pending = grown;
    }
    const part = count === typedArrayLength.call(chunk) ? chunk : new Uint8Array(typedArrayBuffer.call(chunk), typedArrayByteOffset.call(chunk), count);
    typedArraySet.call(pending, part, held);
    this.held = held + count;
  }

  overLimit(frame, offset, length) {
    return frameError(
      'ERR_SHORN_LIMIT',
      frame,
      offset,
      `the frame length ${length} is over maxFrameBytes (${this.maxFrameBytes})`,
    );
  }

  // Counts the heap of the value of the frame just read alone (`length` bytes), as the
  // native decode estimated it, and refuses it past maxDecodedBytes. (A decode that left
  // no estimate, which `state.grown` rules out, would count FRAME_COST a byte.)
  charge(length, frame, offset) {
    const heap = decodedHeap();
    this.heap += heap >= 0 ? heap : (length + 1) * FRAME_COST;
    if (this.heap > this.maxHeap) {
      throw frameError(
        'ERR_SHORN_LIMIT',
        frame,
        offset,
        `the values of the frames up to this one take more than maxDecodedBytes (${this.maxHeap}) in one decodeFrames call (an estimate of their heap)`,
      );
    }
  }

  overBudget(frame, offset) {
    return frameError('ERR_SHORN_LIMIT', frame, offset, `more frames than maxFrames (${this.maxFrames}) allows in one decodeFrames call`);
  }

  /** Checks that the bytes ended between frames; throws ERR_SHORN_TRUNCATED if not. */
  end() {
    if (this.failed || this.held === 0) return;
    const { held, need } = this;
    const error = frameError(
      'ERR_SHORN_TRUNCATED',
      this.frame,
      this.offset,
      need < 0
        ? `the bytes ended inside the frame's length (${held} byte${held === 1 ? '' : 's'})`
        : `the bytes ended after ${held} of the frame's ${need} bytes`,
    );
    this.release();
    this.failed = true;
    throw error;
  }

  /** Drops every byte held, and the chunk it was waiting to go on with. */
  release() {
    this.pending = null;
    this.held = 0;
    this.need = -1;
    this.waiting = null;
  }

  /** Drops every byte held and takes no more (a destroyed stream). */
  stop() {
    this.release();
    this.failed = true;
  }
}

function verify(bytes, start, end, frame, offset) {
  const expected = bytes[end] | (bytes[end + 1] << 8) | (bytes[end + 2] << 16) | (bytes[end + 3] << 24);
  const actual = crc32c(bytes, start, end) | 0;
  if (actual !== expected) {
    const hex = (x) => (x >>> 0).toString(16).padStart(8, '0');
    throw frameError(
      'ERR_SHORN_MALFORMED',
      frame,
      offset,
      `checksum mismatch: the frame says crc32c ${hex(expected)}, its ${end - start} bytes give ${hex(actual)}`,
    );
  }
}

/** Encodes `values` (any iterable) as frames in one Buffer. */
function encodeFrames(codec, values, options) {
  const { checksum } = frameOptions('encodeFrames', options, false);
  if (values === null || typeof values !== 'object' || typeof values[Symbol.iterator] !== 'function') {
    throw new ShornError('ERR_SHORN_INVALID', `encodeFrames: expected an iterable of values, found ${describe(values)}`);
  }
  const messages = [];
  let frame = 0;
  for (const value of values) {
    try {
      messages.push(codec.encode(value));
    } catch (e) {
      throw atFrame(e, frame);
    }
    frame++;
  }
  return joinFrames(messages, checksum);
}

/** The frames of encoded `messages`, with checksums or not, in one Buffer. */
function joinFrames(messages, checksum) {
  const trailer = checksum ? CHECKSUM_BYTES : 0;
  let total = 0;
  for (const message of messages) total += headerBytes(message.length) + message.length + trailer;
  const out = host.alloc(total);
  let pos = 0;
  for (const message of messages) {
    pos = writeHeader(out, pos, message.length);
    out.set(message, pos);
    const start = pos;
    pos += message.length;
    if (checksum) pos = writeChecksum(out, start, pos);
  }
  return out;
}

/**
 * Decodes every frame of `bytes` into an array; the bytes must end between frames. At most
 * `maxFrames` frames: a byte of the next one is ERR_SHORN_LIMIT with its `frame` index.
 */
function decodeFrames(codec, bytes, options, budget) {
  const checked = frameOptions('decodeFrames', options, true, true, budget);
  if (typedArrayTag.call(bytes) !== 'Uint8Array') {
    throw new ShornError('ERR_SHORN_INVALID', `decodeFrames: expected a Uint8Array, found ${describe(bytes)}`);
  }
  const values = [];
  const reader = new FrameReader(codec, checked, (value) => {
    values.push(value);
  });
  reader.push(bytes);
  reader.end();
  return values;
}

module.exports = {
  CHECKSUM_BYTES,
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_MAX_FRAMES,
  frameOptions,
  headerBytes,
  writeHeader,
  writeChecksum,
  atFrame,
  FrameReader,
  encodeFrames,
  joinFrames,
  decodeFrames,
};
