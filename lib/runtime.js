'use strict';
// What every compiled schema shares: the native addon, the tape (one Float64Array that
// carries numbers between JS and Rust) and the output area Rust writes encoded bytes to.

const { ShornError, makeError, invalid, describe, pathKey } = require('./errors');
const { SMALL_INPUT, KEEP_TAPE_SLOTS } = require('./plan');

const addon = require('./addon');

// 32 KiB of tape covers messages up to a few thousand fields; larger ones grow it.
const TAPE_SLOTS = 4096; // src/binding.rs has the same (TAPE_SLOTS)
// The first output slab; the native side makes the next ones (src/binding.rs, SLAB_BYTES).
const SLAB_BYTES = 64 * 1024;

// Views over ArrayBuffers made here, so their memory is off the V8 heap and never moves
// while Rust holds a pointer to it.
function newTape(slots) {
  return new Float64Array(new ArrayBuffer(slots * 8));
}

const state = {
  tape: newTape(TAPE_SLOTS),
  out: new ArrayBuffer(SLAB_BYTES),
  // A small message to decode: its length, then its bytes (see src/binding.rs, decodeInput).
  input: new Uint8Array(new ArrayBuffer(1 + SMALL_INPUT)),
  makeError,
  // True while an encoder is marshalling; a getter that encodes or decodes meanwhile gets
  // a tape of its own (see `reenter`).
  busy: false,
};
// This copy of the JS layer's own native state: `{ compile, setTape }`. A second copy
// (a test runner that resets its module registry) gets a second one over the same addon.
const native = addon.init(state);

// Grows the tape while marshalling: `need` slots, keeping what `T` holds so far.
function grow(T, need) {
  const t = newTape(Math.max(need, T.length * 2));
  t.set(T);
  state.tape = t;
  native.setTape(t);
  return t;
}

// Gives back a tape grown past KEEP_TAPE_SLOTS once a call needs under a quarter of it
// (lib/plan.js).
function shrink() {
  state.tape = newTape(TAPE_SLOTS);
  native.setTape(state.tape);
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

// Encoded messages are views of a slab, like Node's Buffer pool: Rust writes each one
// after the previous and returns `offset << 14 | length` (src/binding.rs,
// SLAB_OFFSET_SHIFT), starting a new slab (`state.out`) when one is full.
const OFFSET_SHIFT = 14;
const LENGTH_MASK = (1 << OFFSET_SHIFT) - 1;

// A Buffer (Buffer.prototype, Buffer.isBuffer) made by a plain typed-array constructor:
// ~20 ns, against ~40 ns for `Buffer.allocUnsafe` plus a copy. Node's own FastBuffer is
// the same construction, but it is not exported.
class OutBuffer extends Uint8Array {}
Object.setPrototypeOf(OutBuffer.prototype, Buffer.prototype);
Object.defineProperty(OutBuffer.prototype, 'constructor', { value: Buffer, writable: true, configurable: true });

// The result of `encode`: a view of the message in the slab. A Buffer result means the
// message was too large for a slab and got a Buffer of its own.
function output(r) {
  if (typeof r !== 'number') return r;
  return new OutBuffer(state.out, r >>> OFFSET_SHIFT, r & LENGTH_MASK);
}

// A decoded `bytes` value: a copy, so it never aliases the input.
function copyBytes(src, offset, length) {
  const u = new Uint8Array(length);
  u.set(src.subarray(offset, offset + length));
  return u;
}

// `encodeInto`'s target and offset, checked before any work: the offset to use.
function targetOffset(target, offset) {
  if (!(target instanceof Uint8Array)) {
    throw new ShornError('ERR_SHORN_INVALID', `encodeInto: expected a Uint8Array target, found ${describe(target)}`);
  }
  if (offset === undefined) return 0;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset > target.length) {
    throw new ShornError(
      'ERR_SHORN_INVALID',
      `encodeInto: expected an offset from 0 to ${target.length}, found ${describe(offset)}`,
    );
  }
  return offset;
}

// `encodeInto`: copies the message into the caller's array at `offset` (checked).
function outputInto(r, target, offset) {
  const from = typeof r === 'number' ? new Uint8Array(state.out, r >>> OFFSET_SHIFT, r & LENGTH_MASK) : r;
  const length = from.length;
  if (length > target.length - offset) {
    throw new ShornError(
      'ERR_SHORN_BUFFER',
      `encodeInto: the message needs ${length} bytes; the target has ${target.length - offset} from offset ${offset}`,
    );
  }
  if (length <= 32) {
    for (let j = 0; j < length; j++) target[offset + j] = from[j];
  } else {
    target.set(from, offset);
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
  shrink,
  SMALL_INPUT,
  KEEP_TAPE_SLOTS,
  grow,
  reenter,
  output,
  targetOffset,
  outputInto,
  copyBytes,
  invalid,
  checkStrict,
  notBytes,
  defineOwn,
};
