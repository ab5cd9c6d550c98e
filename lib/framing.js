'use strict';
// Framing (docs/FORMAT.md, "Framing"): many messages in one byte stream, each a varint of
// its length, the message, and with `checksum` the CRC-32C of the message (4 bytes,
// little-endian). `FrameReader` takes bytes in chunks of any size and hands out decoded
// messages; `encodeFrames` / `decodeFrames` do the same for one Buffer. The node:stream
// classes over them are in lib/stream.js.

const { ShornError, describe } = require('./errors');
const { crc32c } = require('./crc32c');
const { frameDecoders } = require('./runtime');

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

function optionError(what, message) {
  return new ShornError('ERR_SHORN_SCHEMA', `invalid ${what} option: ${message}`);
}

/** Checks framing options: `{ checksum }`, plus `{ maxFrameBytes }` when decoding. */
function frameOptions(what, options, decoding) {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null) throw optionError(what, 'options must be an object');
  const known = decoding ? ['checksum', 'maxFrameBytes'] : ['checksum'];
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
  return { checksum, maxFrameBytes };
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
 * simply decode (cut by the chunk's end, too long, a bad checksum or message), and that
 * frame is read alone by the careful path below, which holds its bytes or reports its
 * fault exactly as if there were no batches.
 */
class FrameReader {
  constructor(codec, options, emit) {
    this.decode = codec.decode;
    const batch = frameDecoders.get(codec);
    this.batch = typeof batch === 'function' ? batch : null;
    // Where the last batch ended, and whether it stopped only because it was full.
    this.done = { end: 0, more: false };
    this.checksum = options.checksum;
    this.maxFrameBytes = options.maxFrameBytes;
    this.emit = emit;
    // The index of the next frame, and the stream offset where it starts.
    this.frame = 0;
    this.offset = 0;
    // The unfinished frame, from its first byte: the chunks (or copied tails of chunks)
    // that hold it, their total, and the frame's whole length once its header is read.
    this.parts = [];
    this.held = 0;
    this.need = -1;
    this.failed = false;
    this.scratch = { next: 0 };
  }

  /** The bytes held for an unfinished frame. */
  get bufferedBytes() {
    return this.held;
  }

  push(chunk) {
    if (this.failed) throw new ShornError('ERR_SHORN_INVALID', 'the frame reader failed before and takes no more bytes');
    if (typedArrayTag.call(chunk) !== 'Uint8Array') {
      throw new ShornError('ERR_SHORN_INVALID', `expected bytes (a Uint8Array or Buffer), found ${describe(chunk)}`);
    }
    try {
      this.take(chunk);
    } catch (e) {
      this.release();
      this.failed = true;
      throw e;
    }
  }

  take(chunk) {
    const end = typedArrayLength.call(chunk);
    const memory = typedArrayBuffer.call(chunk);
    const start = typedArrayByteOffset.call(chunk);
    let pos = 0;
    if (this.held > 0) {
      pos = this.resume(chunk);
      if (pos < 0) return;
    }
    const { checksum, maxFrameBytes, decode, emit, scratch, done } = this;
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
        if (batch !== null) {
          const values = [];
          let batched;
          try {
            batched = batch(chunk, pos, maxFrameBytes, checksumFlag, values, done);
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
            const n = values.length;
            for (let k = 0; k < n; k++) {
              frame++;
              this.frame = frame;
              emit(values[k]);
              // `emit` may have stopped the reader (a consumer that destroyed its stream).
              if (this.failed) return;
            }
            pos = done.end;
            this.offset = base + pos;
            if (done.more) continue;
            if (pos >= end) break;
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
        try {
          value = decode(new Uint8Array(memory, start + at, length));
        } catch (e) {
          throw atFrame(e, frame);
        }
        frame++;
        pos = stop;
        this.frame = frame;
        this.offset = base + pos;
        emit(value);
        // `emit` may have stopped the reader (a consumer that destroyed its stream).
        if (this.failed) return;
      }
    } finally {
      this.frame = frame;
      this.offset = base + pos;
    }
    if (pos < end) {
      // The start of a frame: copied, so a small tail does not keep a large chunk alive.
      this.parts.push(Buffer.from(new Uint8Array(memory, start + pos, end - pos)));
      this.held = end - pos;
      this.need = need;
    }
  }

  // Continues the unfinished frame with `chunk`: returns the position in `chunk` after
  // the frame once it is complete (and decoded), or -1 when `chunk` did not finish it.
  resume(chunk) {
    if (this.need < 0) {
      // The header itself is unfinished: it is in at most five bytes.
      const head = new Uint8Array(MAX_HEADER_BYTES);
      let n = 0;
      for (const part of this.parts) {
        const length = typedArrayLength.call(part);
        for (let k = 0; k < length && n < MAX_HEADER_BYTES; k++) head[n++] = part[k];
      }
      const length = typedArrayLength.call(chunk);
      for (let k = 0; k < length && n < MAX_HEADER_BYTES; k++) head[n++] = chunk[k];
      const declared = readHeader(head, 0, n, this.scratch, this.frame, this.offset);
      if (declared < 0) {
        this.hold(chunk);
        return -1;
      }
      if (declared > this.maxFrameBytes) throw this.overLimit(this.frame, this.offset, declared);
      this.need = this.scratch.next + declared + (this.checksum ? CHECKSUM_BYTES : 0);
    }
    const missing = this.need - this.held;
    if (typedArrayLength.call(chunk) < missing) {
      this.hold(chunk);
      return -1;
    }
    this.parts.push(new Uint8Array(typedArrayBuffer.call(chunk), typedArrayByteOffset.call(chunk), missing));
    const whole = Buffer.allocUnsafe(this.need);
    let at = 0;
    for (const part of this.parts) {
      typedArraySet.call(whole, part, at);
      at += typedArrayLength.call(part);
    }
    this.parts = [];
    this.held = 0;
    this.need = -1;
    // The frame is now whole: read it like any other, from a chunk of its own.
    this.take(whole);
    return this.failed ? -1 : missing;
  }

  hold(chunk) {
    // A whole chunk is kept as it is: it is all part of the frame.
    this.parts.push(chunk);
    this.held += typedArrayLength.call(chunk);
  }

  overLimit(frame, offset, length) {
    return frameError(
      'ERR_SHORN_LIMIT',
      frame,
      offset,
      `the frame length ${length} is over maxFrameBytes (${this.maxFrameBytes})`,
    );
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

  /** Drops every byte held. */
  release() {
    this.parts = [];
    this.held = 0;
    this.need = -1;
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
  const out = Buffer.allocUnsafe(total);
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

/** Decodes every frame of `bytes` into an array; the bytes must end between frames. */
function decodeFrames(codec, bytes, options) {
  const checked = frameOptions('decodeFrames', options, true);
  if (typedArrayTag.call(bytes) !== 'Uint8Array') {
    throw new ShornError('ERR_SHORN_INVALID', `decodeFrames: expected a Uint8Array, found ${describe(bytes)}`);
  }
  const values = [];
  const reader = new FrameReader(codec, checked, (value) => values.push(value));
  reader.push(bytes);
  reader.end();
  return values;
}

module.exports = {
  CHECKSUM_BYTES,
  DEFAULT_MAX_FRAME_BYTES,
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
