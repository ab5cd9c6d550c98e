'use strict';
// node:stream Transforms over the framing of lib/framing.js: `codec.encoder()` takes
// values and gives framed bytes, `codec.decoder()` takes bytes in chunks of any size and
// gives values. Both are ordinary Transforms: pipe them, `pipeline` them, and read a
// decoder with `for await`.

const { Transform } = require('node:stream');
const { ShornError } = require('./errors');
const { frameOptions, headerBytes, writeHeader, writeChecksum, atFrame, FrameReader, CHECKSUM_BYTES } = require('./framing');

// The encoder gathers the frames written in one turn of the event loop into Buffers of
// about this size, pushed when full or on the next tick: a socket then gets one write per
// batch instead of one per message (~60 bytes for the benchmark's nestedEvent).
const BATCH_BYTES = 16 * 1024;

// A fault is raised on a stream only once its reader has taken everything pushed before
// it: a stream destroyed with an error drops what it buffered, and `for await` throws at
// once, so the values of the frames before a bad one (in the same chunk) would be lost.
// Until then the write callback is held, so nothing more is written meanwhile.
class Deferred {
  constructor() {
    this.error = null;
    this.callback = null;
  }

  fail(stream, error, callback) {
    if (stream.readableLength === 0) {
      callback(error);
    } else {
      this.error = error;
      this.callback = callback;
    }
  }

  // After each read: raises a held fault once nothing is left before it.
  check(stream) {
    if (this.error !== null && stream.readableLength === 0) {
      const { error, callback } = this;
      this.error = null;
      this.callback = null;
      callback(error);
    }
  }

  clear() {
    this.error = null;
    this.callback = null;
  }
}

// `push(null)` ends an object-mode stream, and `write(null)` throws (Node's
// ERR_STREAM_NULL_VALUES), so a stream cannot carry a null value; encodeFrames and
// decodeFrames can.
function nullFrame(frame) {
  const error = new ShornError(
    'ERR_SHORN_INVALID',
    `frame ${frame}: the message decodes to null, which a Node stream cannot carry (null ends an object-mode stream); use decodeFrames, or a root type that is not null`,
  );
  error.frame = frame;
  return error;
}

/** Values in, framed bytes out. Made by `codec.encoder({ checksum })`. */
class FrameEncoder extends Transform {
  constructor(codec, options) {
    const { checksum } = frameOptions('encoder', options, false);
    super({ writableObjectMode: true });
    this.codec = codec;
    this.checksum = checksum;
    /** The index of the next frame. */
    this.frame = 0;
    this.batch = null;
    this.used = 0;
    this.scheduled = false;
    this.flushBatch = () => {
      this.scheduled = false;
      if (!this.destroyed) this.pushBatch();
    };
    this.deferred = new Deferred();
  }

  _transform(value, _encoding, callback) {
    let message;
    try {
      message = this.codec.encode(value);
    } catch (e) {
      // The frames before it are delivered first.
      this.pushBatch();
      this.deferred.fail(this, atFrame(e, this.frame), callback);
      return;
    }
    this.frame++;
    const length = message.length;
    const size = headerBytes(length) + length + (this.checksum ? CHECKSUM_BYTES : 0);
    if (this.batch !== null && this.used + size > this.batch.length) this.pushBatch();
    if (size > BATCH_BYTES) {
      // A large message gets a Buffer of its own.
      this.push(this.write1(Buffer.allocUnsafe(size), 0, message));
    } else {
      if (this.batch === null) this.batch = Buffer.allocUnsafe(BATCH_BYTES);
      this.write1(this.batch, this.used, message);
      this.used += size;
      if (!this.scheduled) {
        this.scheduled = true;
        process.nextTick(this.flushBatch);
      }
    }
    callback();
  }

  // Writes the frame of `message` at `pos` of `target`; returns `target`.
  write1(target, pos, message) {
    const start = writeHeader(target, pos, message.length);
    target.set(message, start);
    if (this.checksum) writeChecksum(target, start, start + message.length);
    return target;
  }

  pushBatch() {
    if (this.batch === null || this.used === 0) return;
    const out = this.batch.subarray(0, this.used);
    this.batch = null;
    this.used = 0;
    this.push(out);
  }

  _flush(callback) {
    this.pushBatch();
    callback();
  }

  read(size) {
    const chunk = super.read(size);
    this.deferred.check(this);
    return chunk;
  }

  _destroy(error, callback) {
    this.batch = null;
    this.used = 0;
    this.deferred.clear();
    callback(error);
  }
}

/**
 * Bytes in, values out. Made by `codec.decoder({ maxFrameBytes, checksum })`. A fault is a
 * ShornError on the stream with `frame`, the index of the frame (from 0); the values of
 * the frames before it are delivered first, and the stream drops what it held.
 */
class FrameDecoder extends Transform {
  constructor(codec, options) {
    const checked = frameOptions('decoder', options, true);
    super({ readableObjectMode: true });
    // `push` says false once the readable side is at its high-water mark: the reader then
    // stops after the batch it is in (at most 65,536 values), holds this chunk's callback,
    // and goes on in `_read`. One write of 10 MB of tiny frames put 5,000,000 values in
    // the readable buffer at once before (issue 37 #3).
    this.reader = new FrameReader(codec, checked, (value) => {
      if (value === null) throw nullFrame(this.reader.frame - 1);
      return this.push(value);
    });
    this.deferred = new Deferred();
    // The callback of a chunk the reader stopped in, called once it is all taken: until
    // then the chunk is the reader's, and the writer may not refill it.
    this.waiting = null;
  }

  /** The index of the next frame. */
  get frame() {
    return this.reader.frame;
  }

  /** The bytes held for a frame not yet complete (0 after an error or destroy). */
  get bufferedBytes() {
    return this.reader.bufferedBytes;
  }

  _transform(chunk, _encoding, callback) {
    let taken;
    try {
      taken = this.reader.push(chunk);
    } catch (e) {
      this.deferred.fail(this, e, callback);
      return;
    }
    if (taken) callback();
    else this.waiting = callback;
  }

  _read(size) {
    const callback = this.waiting;
    if (callback !== null) {
      this.waiting = null;
      let taken;
      try {
        taken = this.reader.proceed();
      } catch (e) {
        this.deferred.fail(this, e, callback);
        return;
      }
      if (!taken) {
        this.waiting = callback;
        return;
      }
      callback();
    }
    // Transform's own `_read` releases the callback it holds while its readable side is
    // full; the one just called may have been held so (the chunk's values pushed here).
    super._read(size);
  }

  _flush(callback) {
    try {
      this.reader.end();
    } catch (e) {
      this.deferred.fail(this, e, callback);
      return;
    }
    callback();
  }

  read(size) {
    const value = super.read(size);
    this.deferred.check(this);
    return value;
  }

  _destroy(error, callback) {
    this.reader.stop();
    this.waiting = null;
    this.deferred.clear();
    callback(error);
  }
}

module.exports = { FrameEncoder, FrameDecoder };
