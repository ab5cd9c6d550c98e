'use strict';
// What the JS layer asks of the runtime it runs in, Node's answers. A browser bundle gets
// lib/host-browser.js instead (package.json "browser"), so no module of the codec itself
// names a Node built-in.

const util = require('node:util');
const v8 = require('node:v8');
const crypto = require('node:crypto');
const { markAsUntransferable } = require('node:worker_threads');

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
  /** The native addon (lib/addon.js), or a throw of ERR_SHORN_NO_ADDON. */
  loadAddon: () => require('./addon'),
};
