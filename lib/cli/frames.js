'use strict';
// `shorn inspect --stream`: the annotated hex dump of a stream of frames (docs/FORMAT.md,
// "Framing"), frame by frame, up to the first fault. How many frames decode and which
// fault stops them is what the library's own frame reader (lib/framing.js) finds, so
// inspect stops where `shorn decode --stream` and codec.decoder() stop, with the same
// error; each message is then walked as `shorn inspect` walks one, its offsets counted
// from the message's first byte, as a message's decode errors count them.

const { FrameReader, frameOptions, CHECKSUM_BYTES } = require('../framing');
const { ShornError } = require('../errors');
const { inspectBytes, render, rowsAsJson } = require('./inspect');

/** The length varint at `pos` of a frame the reader accepted: `{ length, headerBytes }`. */
function header(bytes, pos) {
  let length = 0;
  for (let k = 0; ; k++) {
    const b = bytes[pos + k];
    length += (b & 0x7f) * 2 ** (7 * k);
    if (b < 0x80) return { length, headerBytes: k + 1 };
  }
}

/**
 * The frames of `bytes`: `{ frames, error }`, `frames` each `{ frame, offset, headerBytes,
 * length, message, result, error }` (offset in the stream; `message` the message's bytes,
 * `result` its walk), up to and with the first bad frame (for a fault in the framing
 * itself, only `frame`, `offset` and `error`); `error` the reader's error, or null.
 */
function inspectFrames(codec, bytes, { checksum = false, maxFrameBytes } = {}) {
  // The reader says how many frames decode and what stops it; where each frame lies is
  // read here from the lengths of those (sound) frames, one after the other.
  let count = 0;
  const reader = new FrameReader(codec, frameOptions('decoder', { checksum, maxFrameBytes }, true), () => count++);
  let error = null;
  try {
    reader.push(bytes);
    reader.end();
  } catch (e) {
    if (!(e instanceof ShornError)) throw e;
    error = e;
  }
  const trailer = checksum ? CHECKSUM_BYTES : 0;
  const frames = [];
  let offset = 0;
  const frame = (k, failure) => {
    const { length, headerBytes } = header(bytes, offset);
    const message = bytes.subarray(offset + headerBytes, offset + headerBytes + length);
    const result = inspectBytes(codec.schema, message);
    const f = { frame: k, offset, headerBytes, length, message, result, error: failure };
    offset += headerBytes + length + trailer;
    return f;
  };
  for (let k = 0; k < count; k++) frames.push(frame(k, null));
  if (error !== null) {
    // A message's own error has its path; one of the framing (length, limit, checksum,
    // bytes that end inside a frame) has none, and the frame is not walked.
    frames.push(error.path !== undefined ? frame(count, error) : { frame: count, offset, error });
  }
  return { frames, error };
}

/** The dump as lines: each frame's header line, then its message's rows. */
function renderFrames(descriptor, bytes, { frames, error }, { only, checksum = false, maxRowBytes = 32 } = {}) {
  const lines = [];
  const trailer = checksum ? CHECKSUM_BYTES : 0;
  for (const f of frames) {
    if (only !== undefined && f.frame !== only && f.error === null) continue;
    if (only !== undefined && f.frame !== only) lines.push(`# the stream fails before frame ${only}, at frame ${f.frame}:`);
    if (f.message === undefined) {
      const to = Math.min(bytes.length, f.offset + 16);
      const shown = [...bytes.subarray(f.offset, to)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
      lines.push(`# frame ${f.frame} at stream offset ${f.offset}`);
      lines.push(`0000  ${(shown || '(end of input)').padEnd(47)}  ^ ${f.error.code}: ${f.error.message}`);
      continue;
    }
    const crc = checksum ? `, crc32c ${hexLe(bytes, f.offset + f.headerBytes + f.length)}` : '';
    lines.push(`# frame ${f.frame} at stream offset ${f.offset}: ${f.length} byte${f.length === 1 ? '' : 's'} (a ${f.headerBytes}-byte length${crc}; ${f.headerBytes + f.length + trailer} in all)`);
    lines.push(...render(descriptor, f.message, f.result, { error: f.error ?? f.result.error, maxRowBytes }));
  }
  const count = frames.length - (error ? 1 : 0);
  const last = frames[frames.length - 1];
  lines.push(
    error
      ? `# ${bytes.length} bytes; frame ${last.frame} does not decode: ${error.code}${last.message !== undefined ? ` at offset ${error.offset} of its message` : ''} (${count === 0 ? 'it is the first' : `the ${count} frame${count === 1 ? '' : 's'} before it decode${count === 1 ? 's' : ''}`})`
      : `# ${bytes.length} bytes, ${count} frame${count === 1 ? '' : 's'}; all decode`,
  );
  return lines;
}

// The little-endian 32-bit checksum at `pos`, as the framing error messages write it.
function hexLe(bytes, pos) {
  return ((bytes[pos] | (bytes[pos + 1] << 8) | (bytes[pos + 2] << 16) | (bytes[pos + 3] << 24)) >>> 0).toString(16).padStart(8, '0');
}

/** The frames as plain JSON (`shorn inspect --stream --json`). */
function framesAsJson(descriptor, bytes, { frames, error }, { only } = {}) {
  const errorJson = (e) => e && { code: e.code, offset: e.offset, path: e.path, message: e.message };
  return {
    bytes: bytes.length,
    frames: frames
      .filter((f) => only === undefined || f.frame === only || f.error !== null)
      .map((f) =>
        f.message === undefined
          ? { frame: f.frame, offset: f.offset, error: errorJson(f.error) }
          : { frame: f.frame, offset: f.offset, headerBytes: f.headerBytes, length: f.length, rows: rowsAsJson(descriptor, f.result), error: errorJson(f.error) },
      ),
    error: errorJson(error),
  };
}

module.exports = { inspectFrames, renderFrames, framesAsJson };
