'use strict';
// Output written as it is made, for `shorn inspect`: its dump comes from a walk that runs
// in one go (lib/inspect.js, which calls back row by row), which cannot wait for a
// stream's 'drain'. So the text is gathered into chunks of CHUNK_BYTES and each chunk is
// written to the file descriptor before the walk goes on: whatever the length of the dump,
// the process holds one chunk of it (issue 37, finding 11: the whole dump held as lines,
// then as one string, took ~580 bytes of memory per byte of message).

const fs = require('node:fs');

const CHUNK_BYTES = 64 * 1024;

// A pipe that stdout is may be non-blocking (libuv makes it so): a full pipe gives EAGAIN,
// and the write is tried again after a short sleep, as a blocking write would wait.
const pause = new Int32Array(new SharedArrayBuffer(4));
const RETRY_MS = 2;

function writeAll(fd, buffer) {
  let at = 0;
  while (at < buffer.length) {
    try {
      at += fs.writeSync(fd, buffer, at, buffer.length - at);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, RETRY_MS);
    }
  }
}

class SyncWriter {
  /** Writes to `file`, or to stdout without one. `open` errors are the caller's to word. */
  constructor(file) {
    this.fd = file === undefined ? process.stdout.fd : fs.openSync(file, 'w');
    this.owned = file !== undefined;
    this.parts = [];
    this.size = 0;
  }

  write(text) {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= CHUNK_BYTES) this.flush();
  }

  line(text) {
    this.write(`${text}\n`);
  }

  flush() {
    if (this.size === 0) return;
    const buffer = Buffer.from(this.parts.join(''), 'utf8');
    this.parts = [];
    this.size = 0;
    writeAll(this.fd, buffer);
  }

  close() {
    try {
      this.flush();
    } finally {
      if (this.owned) {
        this.owned = false;
        fs.closeSync(this.fd);
      }
    }
  }
}

module.exports = { SyncWriter, CHUNK_BYTES };
