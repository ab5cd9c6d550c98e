'use strict';
// `shorn inspect --stream`: the annotated hex dump of a stream of frames (docs/FORMAT.md,
// "Framing"), frame by frame, up to the first fault. How many frames decode and which
// fault stops them is what the library's own frame reader (lib/framing.js) finds, so
// inspect stops where `shorn decode --stream` and codec.decoder() stop, with the same
// error; each message is then walked as `shorn inspect` walks one, its offsets counted
// from the message's first byte, as a message's decode errors count them.
//
// Frames are found and handed on one at a time (`eachFrame`), so a dump is written as it
// is made and holds one frame's walk at most: 2 MB of empty frames, all kept and their
// dump built as one string, took 3.6 GB and 22.6 s (issue 37, finding 11).

const { FrameReader, frameOptions, CHECKSUM_BYTES } = require('../framing');
const { ShornError } = require('../errors');
const { inspectBytes } = require('./inspect');

// The input goes to the frame reader in slices of this size, as `decode --stream` reads
// it, so the frames of one slice are dumped before the next is read.
const SLICE_BYTES = 64 * 1024;

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
 * Calls `onFrame(f)` for each frame of `bytes`, in order, up to and with the first bad
 * one: `f` is `{ frame, offset, headerBytes, length, message, error }` (offset in the
 * stream, `message` a view of the message's bytes, `error` null or the reader's error),
 * or for a fault in the framing itself (length, limit, checksum, bytes that end inside a
 * frame) only `{ frame, offset, error }`. Returns `{ count, error }`: the frames that
 * decode, and the reader's error or null.
 */
function eachFrame(codec, bytes, { checksum = false, maxFrameBytes } = {}, onFrame) {
  // The reader says how many frames decode and what stops it; where each frame lies is
  // read here from the lengths of those (sound) frames, one after the other.
  let count = 0;
  const reader = new FrameReader(codec, frameOptions('decoder', { checksum, maxFrameBytes }, true), () => {
    count++;
  });
  const trailer = checksum ? CHECKSUM_BYTES : 0;
  let shown = 0;
  let offset = 0;
  const frame = (k, error) => {
    const { length, headerBytes } = header(bytes, offset);
    const message = bytes.subarray(offset + headerBytes, offset + headerBytes + length);
    onFrame({ frame: k, offset, headerBytes, length, message, error });
    offset += headerBytes + length + trailer;
  };
  const upTo = (n) => {
    for (; shown < n; shown++) frame(shown, null);
  };
  let error = null;
  try {
    for (let from = 0; from < bytes.length; from += SLICE_BYTES) {
      reader.push(bytes.subarray(from, Math.min(bytes.length, from + SLICE_BYTES)));
      upTo(count);
    }
    reader.end();
  } catch (e) {
    if (!(e instanceof ShornError)) throw e;
    error = e;
  }
  upTo(count);
  if (error !== null) {
    // A message's own error has its path; one of the framing has none, and the frame is
    // not walked.
    if (error.path !== undefined) frame(count, error);
    else onFrame({ frame: count, offset, error });
  }
  return { count, error };
}

/**
 * The frames of `bytes`, each walked: `{ frames, error }`, `frames` as `eachFrame` gives
 * them, each message's with `result`, its walk (all kept: for tests and small streams).
 */
function inspectFrames(codec, bytes, options = {}) {
  const frames = [];
  const { error } = eachFrame(codec, bytes, options, (f) => {
    if (f.message !== undefined) f.result = inspectBytes(codec.schema, f.message);
    frames.push(f);
  });
  return { frames, error };
}

/** The line before a frame's dump. */
function frameHeading(bytes, f, checksum) {
  const trailer = checksum ? CHECKSUM_BYTES : 0;
  const crc = checksum ? `, crc32c ${hexLe(bytes, f.offset + f.headerBytes + f.length)}` : '';
  return `# frame ${f.frame} at stream offset ${f.offset}: ${f.length} byte${f.length === 1 ? '' : 's'} (a ${f.headerBytes}-byte length${crc}; ${f.headerBytes + f.length + trailer} in all)`;
}

/** The line for a fault in the framing itself: the frame's first bytes and the error. */
function framingFault(bytes, f) {
  const to = Math.min(bytes.length, f.offset + 16);
  const shown = [];
  for (let i = f.offset; i < to; i++) shown.push(bytes[i].toString(16).padStart(2, '0'));
  return [`# frame ${f.frame} at stream offset ${f.offset}`, `0000  ${(shown.join(' ') || '(end of input)').padEnd(47)}  ^ ${f.error.code}: ${f.error.message}`];
}

/** The last line of a stream's dump. */
function streamSummary(bytes, { count, error, last }) {
  if (!error) return `# ${bytes.length} bytes, ${count} frame${count === 1 ? '' : 's'}; all decode`;
  const before = count === 0 ? 'it is the first' : `the ${count} frame${count === 1 ? '' : 's'} before it decode${count === 1 ? 's' : ''}`;
  return `# ${bytes.length} bytes; frame ${last.frame} does not decode: ${error.code}${last.message !== undefined ? ` at offset ${error.offset} of its message` : ''} (${before})`;
}

// The little-endian 32-bit checksum at `pos`, as the framing error messages write it.
function hexLe(bytes, pos) {
  return ((bytes[pos] | (bytes[pos + 1] << 8) | (bytes[pos + 2] << 16) | (bytes[pos + 3] << 24)) >>> 0).toString(16).padStart(8, '0');
}

module.exports = { eachFrame, inspectFrames, frameHeading, framingFault, streamSummary };
