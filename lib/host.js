'use strict';
// What the JS layer asks of the runtime it runs in, Node's answers. A browser bundle gets
// lib/host-browser.js instead (package.json "browser"), so no module of the codec itself
// names a Node built-in.

const util = require('node:util');
const v8 = require('node:v8');
const crypto = require('node:crypto');
const { markAsUntransferable } = require('node:worker_threads');

// Buffer#utf8Write, called on any Uint8Array (msgpackr's pure-JS mode writes its strings
// so): ~1.3x TextEncoder#encodeInto's speed on text of 64 units or more, with no view to
// make per string. Only where it writes what UTF-8 is (a probe at load), else null.
function nodeUtf8Write() {
  const write = Buffer.prototype.utf8Write;
  if (typeof write !== 'function') return null;
  try {
    const U = new Uint8Array(8);
    if (write.call(U, 'a\u00e9\u{1f600}', 1, 7) !== 7 || U[1] !== 0x61 || U[2] !== 0xc3 || U[3] !== 0xa9 || U[4] !== 0xf0 || U[7] !== 0x80) return null;
  } catch {
    return null;
  }
  return (U, s, o, room) => write.call(U, s, o, room);
}

module.exports = {
  name: 'node',
  /** isProxy, isTypedArray, isDate, isMap: by internal slots, running no user code. */
  types: util.types,
  markAsUntransferable,
  /** V8's heap limit, in bytes (the default decode budget is at most an eighth of it). */
  heapLimit: () => v8.getHeapStatistics().heap_size_limit,
  /** The SHA-256 of `text` (UTF-8), as hex. */
  sha256Hex: (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex'),
  /** Node's Buffer: what encode returns. */
  Buffer,
  /** A new byte array of `n` bytes (a Buffer here), not zeroed. */
  alloc: (n) => Buffer.allocUnsafe(n),
  base64: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
  fromBase64: (text) => new Uint8Array(Buffer.from(text, 'base64')),
  /**
   * `utf8Write(U, s, o, room)`: writes well-formed string `s` as UTF-8 into Uint8Array `U`
   * from `o` (room for all of it), returning the bytes written; or null (then
   * TextEncoder#encodeInto).
   */
  utf8Write: nodeUtf8Write(),
  /** The native addon (lib/addon.js), or a throw of ERR_SHORN_NO_ADDON. */
  loadAddon: () => require('./addon'),
};
