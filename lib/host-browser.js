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
// Its constants, as FIPS 180-4 defines them: the first 32 bits of the fractional parts of
// the cube roots of the first 64 primes (K) and of the square roots of the first 8 (the
// initial hash). Computed, not listed: the closest any of them comes to a 32-bit boundary
// is 0.0055 of a unit (2^-39.5), far above Math.cbrt's error (a few ulps, ~2^-50), and
// __test__/js-backend.test.js checks the digests against Node's crypto.
const K = new Uint32Array(64);
const H0 = new Uint32Array(8);
for (let n = 2, k = 0; k < 64; n++) {
  let prime = true;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false;
  if (!prime) continue;
  if (k < 8) H0[k] = (Math.sqrt(n) % 1) * 2 ** 32;
  K[k++] = (Math.cbrt(n) % 1) * 2 ** 32;
}

function sha256Hex(text) {
  const data = new TextEncoder().encode(text);
  const n = data.length;
  const padded = new Uint8Array(((n + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[n] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(n / 0x20000000));
  view.setUint32(padded.length - 4, (n << 3) >>> 0);
  const H = H0.slice();
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
  replacementIn: null,
  // Nor Buffer#utf8Slice: the fatal TextDecoder reads text of over 24 bytes.
  utf8Slice: null,
  // Nor #ucs2Slice: TextDecoder's own speed is the browser's.
  unitsText: null,
  base64,
  fromBase64,
  loadAddon,
};
