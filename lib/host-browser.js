'use strict';
// lib/host.js for browsers, workers, Deno and Bun bundles (package.json "browser"): the
// same answers without Node's built-ins. The codec runs on its JS back end
// (lib/js-backend.js); encode returns a Uint8Array.

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const typedArrayTag = Object.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
const dateGetTime = Date.prototype.getTime;
const mapHas = Map.prototype.has;

// By internal slots, as util.types answers: an intrinsic that throws on other objects.
function slot(fn) {
  return (x) => {
    try {
      fn(x);
      return true;
    } catch {
      return false;
    }
  };
}

const types = {
  // A Proxy cannot be told apart from its target here; describing one may run its traps.
  isProxy: () => false,
  isTypedArray: (x) => typedArrayTag.call(x) !== undefined,
  isDate: slot((x) => dateGetTime.call(x)),
  isMap: slot((x) => mapHas.call(x, undefined)),
};

// SHA-256 (FIPS 180-4), synchronous: a schema's fingerprint is computed by compile().
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

function sha256Hex(text) {
  const data = new TextEncoder().encode(text);
  const n = data.length;
  const padded = new Uint8Array(((n + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[n] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(n / 0x20000000));
  view.setUint32(padded.length - 4, (n << 3) >>> 0);
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const W = new Uint32Array(64);
  const rotr = (x, k) => (x >>> k) | (x << (32 - k));
  for (let at = 0; at < padded.length; at += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(at + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(W[i - 15], 7) ^ rotr(W[i - 15], 18) ^ (W[i - 15] >>> 3);
      const s1 = rotr(W[i - 2], 17) ^ rotr(W[i - 2], 19) ^ (W[i - 2] >>> 10);
      W[i] = W[i - 16] + s0 + W[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, h] = H;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + W[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    H[0] += a;
    H[1] += b;
    H[2] += c;
    H[3] += d;
    H[4] += e;
    H[5] += f;
    H[6] += g;
    H[7] += h;
  }
  return Array.from(H, (x) => x.toString(16).padStart(8, '0')).join('');
}

function base64(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return btoa(s);
}

function fromBase64(text) {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function loadAddon() {
  const error = new Error('shorn: no native addon in this runtime (a browser, a worker, or a bundle): codecs run on the JS back end');
  error.code = 'ERR_SHORN_NO_ADDON';
  throw error;
}

module.exports = {
  name: 'browser',
  types,
  markAsUntransferable: () => {},
  // No heap statistics here: the default decode budget stays 256 MiB.
  heapLimit: () => 2 ** 31,
  sha256Hex,
  Buffer: null,
  /** A new byte array of `n` bytes: a Uint8Array here (lib/framing.js's frames and buffers). */
  alloc: (n) => new Uint8Array(n),
  // No Buffer#utf8Write: TextEncoder#encodeInto writes long strings (lib/closures.js).
  utf8Write: null,
  // Nor Buffer#utf8Slice: the fatal TextDecoder reads text of over 24 bytes.
  utf8Slice: null,
  // Nor #ucs2Slice: TextDecoder's own speed is the browser's.
  unitsText: null,
  base64,
  fromBase64,
  loadAddon,
};
