'use strict';
// `shorn encode --stream` and `shorn decode --stream`: NDJSON in, framed bytes out, and
// back, with the framing of docs/FORMAT.md ("Framing") that codec.encoder() / decoder()
// write and read (lib/framing.js). Both go chunk by chunk with backpressure, so memory
// stays that of one input chunk (and one line or frame) whatever the input's length. Not
// the node:stream Transforms themselves: an object-mode stream cannot carry null, and a
// schema may have null values; the bytes are the same.

const fs = require('node:fs');
const { StringDecoder } = require('node:string_decoder');
const { joinFrames, frameOptions, FrameReader } = require('../framing');
const { parseLine, JsonSyntaxError } = require('./json');

// Input is read in chunks of this size; what one chunk gives is written before the next
// is read.
const CHUNK_BYTES = 64 * 1024;

/** An input: a readable of the file, or stdin. */
function openInput(file) {
  if (file === undefined || file === '-') return process.stdin;
  return fs.createReadStream(file, { highWaterMark: CHUNK_BYTES });
}

/**
 * Where output goes: stdout, or a file (`-o`). `write(data)` resolves once the stream
 * takes more (backpressure); `end()` once everything is flushed.
 */
class Output {
  constructor(file) {
    this.stream = file === undefined ? process.stdout : fs.createWriteStream(file);
    this.failure = null;
    this.stream.on('error', (e) => {
      this.failure ??= e;
    });
  }

  async write(data) {
    if (this.failure) throw this.failure;
    if (data.length === 0) return;
    if (!this.stream.write(data)) await this.drained();
    if (this.failure) throw this.failure;
  }

  // Resolves on 'drain', or on an error (kept in `failure`).
  drained() {
    const stream = this.stream;
    return new Promise((resolve) => {
      const done = () => {
        stream.off('drain', done);
        stream.off('error', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('error', done);
    });
  }

  async end() {
    if (this.failure) throw this.failure;
    if (this.stream === process.stdout) {
      // stdout is never ended; wait until what was written has been handed on.
      await new Promise((resolve, reject) => this.stream.write('', (e) => (e ? reject(e) : resolve())));
      return;
    }
    await new Promise((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(resolve);
    });
  }
}

/**
 * NDJSON in, one frame per line out. `toValue(json)` turns a parsed line into the value to
 * encode (the JSON forms); `onError(kind, error, where)` builds the error to throw, `kind`
 * 'json' (a JsonSyntaxError) or 'encode' (the codec's), `where` `{ line, frame }`.
 * Resolves to the number of frames written.
 */
async function encodeStream({ codec, input, output, checksum, exactIntegers, toValue, onError, progress }) {
  frameOptions('encoder', { checksum }, false);
  const text = new StringDecoder('utf8');
  let pending = []; // the pieces of the unfinished last line of what was read so far
  let line = 0; // the number of the last line taken
  let frame = 0;
  let read = 0;
  let first = true;

  // Encodes complete `lines`, then writes their frames in one Buffer.
  const take = async (lines) => {
    const messages = [];
    let failure = null;
    for (let lineText of lines) {
      line++;
      if (first) {
        first = false;
        if (lineText.charCodeAt(0) === 0xfeff) lineText = lineText.slice(1);
      }
      if (lineText.trim() === '') continue;
      let message;
      try {
        let json;
        try {
          json = parseLine(lineText, { line, exactIntegers });
        } catch (e) {
          if (e instanceof JsonSyntaxError) throw onError('json', e, { line, frame });
          throw e;
        }
        try {
          message = codec.encode(toValue(json));
        } catch (e) {
          throw onError('encode', e, { line, frame });
        }
      } catch (e) {
        // The frames of the lines before it are written first.
        failure = e;
        break;
      }
      messages.push(message);
      frame++;
    }
    await output.write(joinFrames(messages, checksum));
    if (failure) throw failure;
  };

  for await (const chunk of input) {
    read += chunk.length;
    progress.grow(read);
    progress.tick(read);
    const chunkText = text.write(chunk);
    const newline = chunkText.indexOf('\n');
    if (newline === -1) {
      // A long line: its pieces are joined once it ends.
      pending.push(chunkText);
      continue;
    }
    const lines = chunkText.slice(newline + 1).split('\n');
    lines.unshift(pending.join('') + chunkText.slice(0, newline));
    pending = [lines.pop()];
    await take(lines);
  }
  const rest = pending.join('') + text.end();
  if (rest !== '') await take([rest]);
  return frame;
}

/**
 * Framed bytes in, one NDJSON line per frame out. `toText(value)` gives a value's JSON
 * text (lib/cli/forms.js, `text`); `onError(error, frames)` builds the error to throw for a fault in the frames (the
 * framing's ShornError, with `frame`), after the lines of the `frames` frames before it
 * are written. Resolves to the number of frames read.
 */
async function decodeStream({ codec, input, output, checksum, maxFrameBytes, toText, onError, progress }) {
  let lines = [];
  const reader = new FrameReader(codec, frameOptions('decoder', { checksum, maxFrameBytes }, true), (value) => {
    const json = toText(value);
    lines.push(json === undefined ? 'null' : json);
  });
  const flush = async () => {
    if (lines.length === 0) return;
    const out = `${lines.join('\n')}\n`;
    lines = [];
    await output.write(out);
  };
  let read = 0;
  for await (const chunk of input) {
    read += chunk.length;
    progress.grow(read);
    progress.tick(read);
    try {
      reader.push(chunk);
    } catch (e) {
      await flush();
      throw onError(e, reader.frame);
    }
    await flush();
  }
  try {
    reader.end();
  } catch (e) {
    throw onError(e, reader.frame);
  }
  return reader.frame;
}

module.exports = { encodeStream, decodeStream, openInput, Output, CHUNK_BYTES };
