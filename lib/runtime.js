'use strict';
// What every compiled schema shares: the native addon, the tape (one Float64Array that
// carries numbers between JS and Rust) and the output area Rust writes encoded bytes to.

const path = require('node:path');
const { ShornError, makeError, invalid, describe, pathKey } = require('./errors');

const native = require(path.join(__dirname, '..', 'shorn.node'));

// 32 KiB of tape and 64 KiB of output cover every message up to a few thousand fields;
// larger ones grow the tape (kept) or come back as a Buffer made natively (rare enough
// that its ~330 ns does not matter next to the copy).
const TAPE_SLOTS = 4096;
const OUT_BYTES = 64 * 1024;

// Views over ArrayBuffers made here, so their memory is off the V8 heap and never moves
// while Rust holds a pointer to it.
function newTape(slots) {
  return new Float64Array(new ArrayBuffer(slots * 8));
}

const state = {
  tape: newTape(TAPE_SLOTS),
  out: new Uint8Array(new ArrayBuffer(OUT_BYTES)),
  makeError,
  // True while an encoder is marshalling; a getter that encodes or decodes meanwhile gets
  // a tape of its own (see `reenter`).
  busy: false,
};
native.init(state);

// Grows the tape while marshalling: `need` slots, keeping what `T` holds so far.
function grow(T, need) {
  const t = newTape(Math.max(need, T.length * 2));
  t.set(T);
  state.tape = t;
  native.setTape(t);
  return t;
}

// Runs `fn(arg)` on a fresh tape, for a call made while an encoder is marshalling (from a
// getter or a Proxy), so the outer call's tape is left as it was.
function reenter(fn, arg) {
  const saved = state.tape;
  const t = newTape(256);
  state.tape = t;
  native.setTape(t);
  state.busy = false;
  try {
    return fn(arg);
  } finally {
    state.tape = saved;
    native.setTape(saved);
    state.busy = true;
  }
}

// Copies the `n` bytes the native encoder wrote into `state.out` into a new Buffer
// (`Buffer.allocUnsafe` slices a pool; a Buffer made natively costs ~12x more).
// A Buffer result means the message was larger than `state.out`.
function output(n) {
  if (typeof n !== 'number') return n;
  const b = Buffer.allocUnsafe(n);
  const out = state.out;
  if (n <= 32) {
    for (let j = 0; j < n; j++) b[j] = out[j];
  } else {
    b.set(out.subarray(0, n));
  }
  return b;
}

// A decoded `bytes` value: a copy, so it never aliases the input.
function copyBytes(src, offset, length) {
  const u = new Uint8Array(length);
  u.set(src.subarray(offset, offset + length));
  return u;
}

// `encodeInto`: copies the message into the caller's array at `offset`.
function outputInto(n, target, offset) {
  if (!(target instanceof Uint8Array)) {
    throw new ShornError('ERR_SHORN_INVALID', `encodeInto: expected a Uint8Array target, found ${describe(target)}`);
  }
  if (offset === undefined) offset = 0;
  else if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset > target.length) {
    throw new ShornError(
      'ERR_SHORN_INVALID',
      `encodeInto: expected an offset from 0 to ${target.length}, found ${describe(offset)}`,
    );
  }
  const length = typeof n === 'number' ? n : n.length;
  if (length > target.length - offset) {
    throw new ShornError(
      'ERR_SHORN_BUFFER',
      `encodeInto: the message needs ${length} bytes; the target has ${target.length - offset} from offset ${offset}`,
    );
  }
  const from = typeof n === 'number' ? state.out : n;
  if (length <= 32) {
    for (let j = 0; j < length; j++) target[offset + j] = from[j];
  } else {
    target.set(from.subarray(0, length), offset);
  }
  return length;
}

// A strict object has no own enumerable key the schema does not name.
function checkStrict(x, names, path) {
  for (const key of Object.keys(x)) {
    if (!names.has(key)) {
      const at = path + pathKey(key);
      throw new ShornError('ERR_SHORN_INVALID', `${at}: unexpected field in a strict object`, { path: at });
    }
  }
}

function notBytes(value) {
  return new ShornError('ERR_SHORN_INVALID', `decode: expected a Uint8Array, found ${describe(value)}`);
}

// Adds an own data property whatever the name, `__proto__` included.
function defineOwn(o, key, value) {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

module.exports = {
  native,
  state,
  grow,
  reenter,
  output,
  outputInto,
  copyBytes,
  invalid,
  checkStrict,
  notBytes,
  defineOwn,
};
