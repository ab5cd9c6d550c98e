'use strict';
// Progress on stderr while a large input is read, parsed, encoded or decoded: on when
// stderr is a terminal and the input is over AUTO_BYTES (or forced with --progress, off
// with --no-progress). One line, rewritten in place, cleared at the end.

const AUTO_BYTES = 4 * 1024 * 1024;
const EVERY_MS = 100;

function megabytes(n) {
  return `${(n / 1e6).toFixed(1)} MB`;
}

class Progress {
  /** `forced`: true or false from the command line, undefined for automatic. */
  constructor(forced, stream = process.stderr) {
    this.forced = forced;
    this.stream = stream;
    this.on = forced === true;
    this.shown = false;
    this.last = 0;
    this.label = '';
  }

  /** Decides, once the input's size is known, whether to show progress. */
  size(bytes) {
    if (this.forced === undefined) this.on = Boolean(this.stream.isTTY) && bytes > AUTO_BYTES;
    this.total = bytes;
  }

  /** For an input of unknown size (stdin, a stream): on once `bytes` have been read past AUTO_BYTES. */
  grow(bytes) {
    if (this.forced === undefined && !this.on && bytes > AUTO_BYTES) this.on = Boolean(this.stream.isTTY);
  }

  write(text) {
    if (!this.on) return;
    // \r and a clearing escape on a terminal; plain lines elsewhere (--progress to a file).
    if (this.stream.isTTY) this.stream.write(`\r\x1b[2K${text}`);
    else this.stream.write(`${text}\n`);
    this.shown = true;
  }

  /** A step that takes a while: "shorn: parsing 27.1 MB". */
  phase(label) {
    this.label = label;
    this.write(`shorn: ${label}${this.total ? ` ${megabytes(this.total)}` : ''}…`);
  }

  /** Within a step: `done` of `total` bytes (throttled). */
  tick(done, total = this.total) {
    if (!this.on) return;
    const now = Date.now();
    if (now - this.last < EVERY_MS) return;
    this.last = now;
    const pct = total ? ` ${Math.floor((100 * done) / total)}%` : '';
    this.write(`shorn: ${this.label}${pct} (${megabytes(done)}${total ? ` of ${megabytes(total)}` : ''})`);
  }

  end() {
    if (this.shown && this.stream.isTTY) this.stream.write('\r\x1b[2K');
    this.shown = false;
  }
}

module.exports = { Progress, AUTO_BYTES };
