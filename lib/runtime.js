'use strict';
// What every compiled schema shares: the native addon, the tape (one Float64Array that
// carries numbers between JS and Rust) and the output area Rust writes encoded bytes to.

const path = require('node:path');
const { ShornError, makeError, invalid, describe, pathKey } = require('./errors');
const { SMALL_INPUT } = require('./plan');

const native = require(path.join(__dirname, '..', 'shorn.node'));

// 32 KiB of tape covers messages up to a few thousand fields; larger ones grow it.
const TAPE_SLOTS = 4096;
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
  input: new Uint8Array(new ArrayBuffer(SMALL_INPUT)),
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

// A tape grown past this many slots (2 MiB) is given back after the call that needed
// it, so one huge message does not pin its tape for the life of the process.
const KEEP_TAPE_SLOTS = 1 << 18;
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
// after the previous. `place` mirrors the native side's position and roll-over rule
// exactly (src/binding.rs, `encode`), so both agree where each message starts.
let slab = state.out;
let slabLength = slab.byteLength;
let slabPos = 0;
function place(n) {
  if (slabPos + n > slabLength) {
    slab = state.out;
    slabLength = slab.byteLength;
    slabPos = 0;
  }
  const at = slabPos;
  slabPos += n;
  return at;
}

// A Buffer (Buffer.prototype, Buffer.isBuffer) made by a plain typed-array constructor:
// ~20 ns, against ~40 ns for `Buffer.allocUnsafe` plus a copy. Node's own FastBuffer is
// the same construction, but it is not exported.
class OutBuffer extends Uint8Array {}
Object.setPrototypeOf(OutBuffer.prototype, Buffer.prototype);
Object.defineProperty(OutBuffer.prototype, 'constructor', { value: Buffer, writable: true, configurable: true });

// The result of `encode`: a view of the message in the slab. A Buffer result means the
// message was too large for a slab and got a Buffer of its own.
function output(n) {
  if (typeof n !== 'number') return n;
  // `place` first: it may move to a new slab, and `slab` must be read after that.
  const at = place(n);
  return new OutBuffer(slab, at, n);
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
  // Claim the slab space first, so the position stays in step with the native side even
  // when the target turns out too small.
  let from = n;
  if (typeof n === 'number') {
    const at = place(n); // before reading `slab`, which it may replace
    from = new Uint8Array(slab, at, n);
  }
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
  KEEP_TAPE_SLOTS,
  shrink,
  SMALL_INPUT,
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
