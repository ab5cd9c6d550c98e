'use strict';
// What both back ends share: the native addon, or none (then every codec runs on the JS
// back end, lib/js-backend.js); the state JS shares with the native side (its tape, its
// output slab, its input area), to which either back end reports a decode's heap; and the
// intrinsics and helpers the marshallers use to look at values without running their
// code. lib/runtime.js adds the native back end's tape and text to it, as one object
// (`rt`); a browser or worker build has this module alone (package.json, `#runtime`), and
// none of that code.

const host = require('#host');

const { markAsUntransferable } = host;
const { ShornError, ISSUE, makeError, invalid, describe, pathKey } = require('./errors');

// The native addon, or null where none loads (lib/addon.js says why: `addonError`): then
// every codec runs on the JS back end (lib/js-backend.js), which needs none of what
// follows but the intrinsics.
let addon = null;
let addonError = null;
try {
  addon = host.loadAddon();
} catch (e) {
  if (e === null || typeof e !== 'object' || e.code !== 'ERR_SHORN_NO_ADDON') throw e;
  addonError = e;
}

/**
 * The estimated heap of the value the last decode made (docs/FORMAT.md, "The decode
 * budget"), taken once: the JS back end's (`state.jsHeap`) or the native one's; -1 when
 * neither left one. lib/framing.js counts a frame read alone with it.
 */
function decodedHeap() {
  const h = state.jsHeap;
  if (h >= 0) {
    state.jsHeap = -1;
    return h;
  }
  return native === null ? -1 : native.decodedHeap();
}

/** The error of a codec that asked for the native back end where no addon loaded. */
function noAddon() {
  return addonError;
}

// Inputs up to SMALL_INPUT bytes are copied by JS into the native input area for
// `decodeInput`, byte by byte; inputs up to SET_INPUT bytes (the most the area's length byte
// can say) in one TypedArray#set. Either is cheaper than native code looking into a
// caller's Uint8Array (napi_get_typedarray_info, then whether its buffer is shared): in
// one process against reading the view natively, unicodePerson (182 bytes) and
// nestedEvent (61) decoded in 0.93x the time (docs/DESIGN.md).
const SMALL_INPUT = 24;
const SET_INPUT = 255;

// A tape grown past this many slots (2 MiB) is given back once a call needs less than a
// quarter of it, so one huge message does not pin its tape for the life of the process,
// while a stream of huge messages does not reallocate it every time. Same value as
// KEEP_TAPE_SLOTS in src/binding/mod.rs.
const KEEP_TAPE_SLOTS = 1 << 18;

// 32 KiB of tape covers messages up to a few thousand fields; larger ones grow it.
const TAPE_SLOTS = 4096; // src/binding/mod.rs has the same (TAPE_SLOTS)
// The first output slab; the native side makes the next ones (SLAB_BYTES there).
const SLAB_BYTES = 64 * 1024;

// ---- intrinsics, captured at load: a subclass, a Proxy or a patched prototype cannot
// run code in their place ----

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (o, key) => Object.getOwnPropertyDescriptor(o, key).get;
const typedArrayTag = getter(TypedArrayPrototype, Symbol.toStringTag);
const typedArrayLength = getter(TypedArrayPrototype, 'length');
const typedArrayBuffer = getter(TypedArrayPrototype, 'buffer');
const typedArrayByteOffset = getter(TypedArrayPrototype, 'byteOffset');
const typedArraySet = TypedArrayPrototype.set;
const arrayBufferByteLength = getter(ArrayBuffer.prototype, 'byteLength');
const dateGetTime = Date.prototype.getTime;
const { isDate, isMap } = host.types;
const ObjectPrototype = Object.prototype;
const hasOwn = Object.hasOwn;

// Whether Object.prototype has string key `key`: `key in Object.prototype` (whose own
// prototype is null and cannot be set), asked by Object.hasOwn, which looks a key sliced
// from the text up in V8's string table in a builtin, where `in` calls into the runtime
// for it: ~40 against ~80 ns a key. For a key met first in a message (json objects,
// records), before it is defined or assigned.
function onPrototype(key) {
  return hasOwn(ObjectPrototype, key);
}

// Generated decode makes arrays of a known length with it (lib/types/array.js).
const NewArray = Array;
const getPrototypeOf = Object.getPrototypeOf;

/** The class name of typed array `x` ('Uint8Array' for a Buffer), or undefined. */
function typedKind(x) {
  return typedArrayTag.call(x);
}

/**
 * The length of `x` if it is a Uint8Array (a Buffer or any subclass included), else -1,
 * read by the intrinsic getters: no getter of a subclass or trap of a Proxy runs. Decode
 * tells its input apart by this too: ~7 ns for both getters with the call (optimized code
 * inlines the tag and calls a builtin for the length), against ~16 ns for `isView(x)`
 * and a `x.constructor` check, a load V8 does not inline for typed arrays and leaves to
 * its LoadIC (2026-12-01).
 */
function inputLength(x) {
  return typedArrayTag.call(x) === 'Uint8Array' ? typedArrayLength.call(x) : -1;
}

/** The epoch ms of Date `x`, or NaN if `x` is not a Date or is an invalid one. */
function dateTime(x) {
  return isDate(x) ? dateGetTime.call(x) : NaN;
}

/** An object whose prototype is Object.prototype or null (what JSON.parse makes). */
function isPlainObject(x) {
  if (typeof x !== 'object' || x === null) return false;
  const proto = getPrototypeOf(x);
  return proto === ObjectPrototype || proto === null;
}

// ---- the shared state ----

// Views over ArrayBuffers made here, so their memory is off the V8 heap and never moves
// while Rust holds a pointer to it.
function newTape(slots) {
  return new Float64Array(new ArrayBuffer(slots * 8));
}

// A slab is handed out in views (encode results), so a caller could try to transfer it:
// marking it untransferable makes postMessage refuse, as for Node's own Buffer pool.
function newSlab() {
  const slab = new ArrayBuffer(SLAB_BYTES);
  markAsUntransferable(slab);
  return slab;
}

// The tape, slab and input area are the native side's: with no addon they are empty (a
// page or worker does not hold 96 KiB it never uses).
const state = {
  // The JS back end's last decode's estimated heap (`decodedHeap`), -1 once taken.
  jsHeap: -1,
  tape: newTape(addon === null ? 0 : TAPE_SLOTS),
  out: addon === null ? new ArrayBuffer(0) : newSlab(),
  // A small message to decode: its length, then its bytes (src/binding/mod.rs, decodeInput).
  input: new Uint8Array(new ArrayBuffer(addon === null ? 0 : 1 + SET_INPUT)),
  // A large message's wide strings, when it has Latin-1 ones too, and, when its text
  // came in chunks, the chunks after the first of each text (`[1, chunk, ...]`, the next
  // one's index first): set by the native decode (src/binding/mod.rs, split_text), taken
  // (and set back to null) by the JS that reads its tape (lib/codegen.js, `text()`).
  wide: null,
  more: null,
  makeError,
  // True while an encoder is marshalling; a getter that encodes or decodes meanwhile gets
  // a tape of its own (see `reenter`).
  busy: false,
  // The text of a large message being marshalled, cut in chunks of about TEXT_CHUNK units
  // (see `cutText`): kept here, or handed to the native side, where they start at
  // `textBase` of its pending text (else -1). Empty and -1 for every other message.
  chunks: [],
  textBase: -1,
  // The long one-byte strings of the message being marshalled, in order (`longText`), or
  // null for none.
  latin1: null,
  // The strings the current decode call keeps (KEPT_SLOT).
  kept: null,
  // Whether the text has been cut past TEXT_CHUNK (`cutText`) in this encode.
  cut: false,
  // True after a native decode of GROWN_INPUT bytes or more, or of a batch of frames,
  // which may have grown the native tape or text scratch, or an encode that grew the tape
  // past KEEP_TAPE_SLOTS (`grow`); false again after a native
  // decode of a small message, which gives any such growth back (src/binding/mod.rs,
  // `idle`). While it is true, small messages skip their JS read (lib/codegen.js,
  // `fastTake`), so that one of them goes natively and the memory is not kept.
  grown: false,
  // True while a native encode may have left the tape or the native scratch grown for a
  // large message: set as a generated `marshal` starts (or a tape grows past
  // KEEP_TAPE_SLOTS), false again after an encode whose output went in the slab, which
  // gave such growth back (src/binding/mod.rs, `idle`). While it is true, small values
  // skip their JS write (lib/codegen.js, `fastPut`), so that one of them goes natively.
  bigEncode: false,
};
// This copy of the JS layer's own native state: `{ compile, setTape, setSlab, pushText,
// dropText, types }`.
// A second copy (a test runner that resets its module registry) gets a second one.
const native = addon === null ? null : addon.init(state);
// The slab last marked untransferable (the native side makes the slabs after the first).
let markedSlab = state.out;

// Every replacement of the tape or slab registers it natively first and then on `state`:
// if the native call throws, both sides still hold the old one, so JS and Rust can never
// disagree about which tape they share.
function setTape(t) {
  if (native !== null) native.setTape(t);
  state.tape = t;
  return t;
}

// Grows the tape while marshalling: `need` slots, keeping what `T` holds so far.
function grow(T, need) {
  const t = newTape(Math.max(need, T.length * 2));
  t.set(T);
  // A decode gives such a tape back natively (src/binding/mod.rs): the next small message
  // goes natively, not through a JS read, so that it does (`state.grown`).
  if (t.length > KEEP_TAPE_SLOTS) {
    state.grown = true;
    state.bigEncode = true;
  }
  return setTape(t);
}

/**
 * Before each native call that writes the slab or the tape: replaces one that was
 * detached (a transfer that ignored the untransferable mark, ArrayBuffer#transfer, ...),
 * so the native side never writes memory that is gone.
 */
function checkBuffers() {
  if (arrayBufferByteLength.call(state.out) === 0) {
    const slab = newSlab();
    native.setSlab(slab);
    state.out = slab;
    markedSlab = slab;
  }
  if (typedArrayLength.call(state.tape) === 0) setTape(newTape(TAPE_SLOTS));
}

// Encoded messages are views of a slab, like Node's Buffer pool: Rust writes each one
// after the previous and returns `offset << 14 | length` (src/binding/mod.rs,
// SLAB_OFFSET_SHIFT), starting a new slab (`state.out`) when one is full.
const OFFSET_SHIFT = 14;
const LENGTH_MASK = (1 << OFFSET_SHIFT) - 1;

// A Buffer (Buffer.prototype, Buffer.isBuffer) made by a plain typed-array constructor:
// ~20 ns, against ~40 ns for `Buffer.allocUnsafe` plus a copy. Node's own FastBuffer is
// the same construction, but it is not exported.
// (Where there is no Buffer, a browser, it is a Uint8Array subclass of no other use.)
class OutBuffer extends Uint8Array {}
if (host.Buffer !== null) {
  Object.setPrototypeOf(OutBuffer.prototype, host.Buffer.prototype);
  Object.defineProperty(OutBuffer.prototype, 'constructor', { value: host.Buffer, writable: true, configurable: true });
}

// The slab a result is in, marked untransferable the first time it is handed out.
function slab() {
  const out = state.out;
  if (out !== markedSlab) {
    markAsUntransferable(out);
    markedSlab = out;
  }
  return out;
}

// `encodeInto`'s target and offset, checked before any work: the offset to use.
function targetOffset(target, offset) {
  const length = inputLength(target);
  if (length < 0) {
    throw new ShornError('ERR_SHORN_INVALID', `encodeInto: expected a Uint8Array target, found ${describe(target)}`);
  }
  if (offset === undefined) return 0;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset > length) {
    throw new ShornError('ERR_SHORN_INVALID', `encodeInto: expected an offset from 0 to ${length}, found ${describe(offset)}`);
  }
  return offset;
}

// `encodeInto`: copies the message into the caller's array at `offset` (checked).
function outputInto(r, target, offset) {
  state.bigEncode = typeof r !== 'number';
  const from = typeof r === 'number' ? new Uint8Array(slab(), r >>> OFFSET_SHIFT, r & LENGTH_MASK) : r;
  const length = typedArrayLength.call(from);
  const room = inputLength(target) - offset;
  if (length > room) {
    throw new ShornError(
      'ERR_SHORN_BUFFER',
      `encodeInto: the message needs ${length} bytes; the target has ${room < 0 ? 0 : room} from offset ${offset}`,
    );
  }
  if (length <= 32) {
    for (let j = 0; j < length; j++) target[offset + j] = from[j];
  } else {
    typedArraySet.call(target, from, offset);
  }
  return length;
}

// ---- decode ----

// `length` bytes at `offset` of input `src` as a new Uint8Array view (no copy).
/** The ArrayBuffer (or SharedArrayBuffer) under typed array `x`, by the intrinsic. */
function inputBuffer(x) {
  return typedArrayBuffer.call(x);
}

function inputView(src, offset, length) {
  return new Uint8Array(typedArrayBuffer.call(src), typedArrayByteOffset.call(src) + offset, length);
}

// A decoded `bytes` value: a copy, so it never aliases the input.
function copyBytes(src, offset, length) {
  const u = new Uint8Array(length);
  typedArraySet.call(u, inputView(src, offset, length));
  return u;
}

// A decoded typed array: a new, aligned array of `Class` holding `count` elements copied
// from `offset` of the input (which may sit at any byte offset). V8 keeps an array of up
// to 64 bytes inside its object (typed_array_max_size_in_heap), and asking for its
// `buffer` moves it out, ~0.35 µs, ten times the copy: so a small one is filled without
// it. Integers are read little-endian through a DataView of the input's buffer
// (`inputDataView`); floats are copied by `set` from a view of
// a scratch buffer the bytes were copied into, since `set` between arrays of one type
// keeps every bit (a NaN read as a number loses its payload's signalling bit: the fuzz
// found a float32 one). A larger array has its bytes copied at once. 200 records of 4 or
// 8 float64s decoded 2-3x faster so (docs/DESIGN.md, "Small typed arrays filled in place").
const SMALL_TYPED = 64;
const SCRATCH = new ArrayBuffer(SMALL_TYPED);
const SCRATCH_BYTES = new Uint8Array(SCRATCH);
// Views of the scratch buffer of each length a small float array can have.
const SCRATCH_F64 = Array.from({ length: SMALL_TYPED / 8 + 1 }, (_, n) => new Float64Array(SCRATCH, 0, n));
const SCRATCH_F32 = Array.from({ length: SMALL_TYPED / 4 + 1 }, (_, n) => new Float32Array(SCRATCH, 0, n));

// A DataView of ArrayBuffer `buffer`: the last one made is kept while inputs come from the
// same buffer (Node's Buffer pool, a socket's chunk), where one made per message cost a
// fifth of a nestedEvent decode on the JS back end; only for a buffer of up to 1 MiB, so
// no large input stays alive for it. lib/closures.js reads floats through it too.
let viewSource = null;
let viewKept = null;
function inputDataView(buffer) {
  if (buffer === viewSource) return viewKept;
  const dv = new DataView(buffer);
  if (dv.byteLength <= 1 << 20) {
    viewSource = buffer;
    viewKept = dv;
  }
  return dv;
}

function copyTyped(Class, src, offset, count) {
  const out = new Class(count);
  const bytes = count * Class.BYTES_PER_ELEMENT;
  if (bytes > SMALL_TYPED) {
    typedArraySet.call(new Uint8Array(out.buffer, 0, bytes), inputView(src, offset, bytes));
    return out;
  }
  if (count === 0) return out;
  if (Class === Float64Array || Class === Float32Array) {
    for (let k = 0; k < bytes; k++) SCRATCH_BYTES[k] = src[offset + k];
    typedArraySet.call(out, Class === Float64Array ? SCRATCH_F64[count] : SCRATCH_F32[count]);
    return out;
  }
  const dv = inputDataView(typedArrayBuffer.call(src));
  const at = typedArrayByteOffset.call(src) + offset;
  switch (Class) {
    case Int32Array:
      for (let k = 0; k < count; k++) out[k] = dv.getInt32(at + 4 * k, true);
      break;
    case Uint32Array:
      for (let k = 0; k < count; k++) out[k] = dv.getUint32(at + 4 * k, true);
      break;
    case Int16Array:
      for (let k = 0; k < count; k++) out[k] = dv.getInt16(at + 2 * k, true);
      break;
    case Uint16Array:
      for (let k = 0; k < count; k++) out[k] = dv.getUint16(at + 2 * k, true);
      break;
    default:
      for (let k = 0; k < count; k++) out[k] = src[offset + k];
  }
  return out;
}

const fromCharCode = String.fromCharCode;

// The string of the `L` bytes of `bytes` from `o` (in bounds) for a generated decode's
// JS read of a small message (lib/codegen.js, `fastTake`): made with a fixed number of
// arguments, as `areaText` does; null if `L` is over 16 or a byte is not ASCII (the native
// decode then reads the message, and checks its UTF-8).
function asciiText(bytes, o, L) {
  switch (L) {
    case 0:
      return '';
    case 1: {
      const a = bytes[o];
      return a < 128 ? fromCharCode(a) : null;
    }
    case 2: {
      const a = bytes[o];
      const b = bytes[o + 1];
      return (a | b) < 128 ? fromCharCode(a, b) : null;
    }
    case 3: {
      const a = bytes[o];
      const b = bytes[o + 1];
      const c = bytes[o + 2];
      return (a | b | c) < 128 ? fromCharCode(a, b, c) : null;
    }
    case 4: {
      const a = bytes[o];
      const b = bytes[o + 1];
      const c = bytes[o + 2];
      const d = bytes[o + 3];
      return (a | b | c | d) < 128 ? fromCharCode(a, b, c, d) : null;
    }
    case 5: {
      const a = bytes[o];
      const b = bytes[o + 1];
      const c = bytes[o + 2];
      const d = bytes[o + 3];
      const e = bytes[o + 4];
      return (a | b | c | d | e) < 128 ? fromCharCode(a, b, c, d, e) : null;
    }
    case 6: {
      const a = bytes[o];
      const b = bytes[o + 1];
      const c = bytes[o + 2];
      const d = bytes[o + 3];
      const e = bytes[o + 4];
      const f = bytes[o + 5];
      return (a | b | c | d | e | f) < 128 ? fromCharCode(a, b, c, d, e, f) : null;
    }
    case 7: {
      const a = bytes[o];
      const b = bytes[o + 1];
      const c = bytes[o + 2];
      const d = bytes[o + 3];
      const e = bytes[o + 4];
      const f = bytes[o + 5];
      const g = bytes[o + 6];
      return (a | b | c | d | e | f | g) < 128 ? fromCharCode(a, b, c, d, e, f, g) : null;
    }
    case 8: {
      const a = bytes[o];
      const b = bytes[o + 1];
      const c = bytes[o + 2];
      const d = bytes[o + 3];
      const e = bytes[o + 4];
      const f = bytes[o + 5];
      const g = bytes[o + 6];
      const h = bytes[o + 7];
      return (a | b | c | d | e | f | g | h) < 128 ? fromCharCode(a, b, c, d, e, f, g, h) : null;
    }
    case 9: {
      const x0 = bytes[o];
      const x1 = bytes[o + 1];
      const x2 = bytes[o + 2];
      const x3 = bytes[o + 3];
      const x4 = bytes[o + 4];
      const x5 = bytes[o + 5];
      const x6 = bytes[o + 6];
      const x7 = bytes[o + 7];
      const x8 = bytes[o + 8];
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7 | x8) < 128 ? fromCharCode(x0, x1, x2, x3, x4, x5, x6, x7, x8) : null;
    }
    case 10: {
      const x0 = bytes[o];
      const x1 = bytes[o + 1];
      const x2 = bytes[o + 2];
      const x3 = bytes[o + 3];
      const x4 = bytes[o + 4];
      const x5 = bytes[o + 5];
      const x6 = bytes[o + 6];
      const x7 = bytes[o + 7];
      const x8 = bytes[o + 8];
      const x9 = bytes[o + 9];
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7 | x8 | x9) < 128 ? fromCharCode(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9) : null;
    }
    case 11: {
      const x0 = bytes[o];
      const x1 = bytes[o + 1];
      const x2 = bytes[o + 2];
      const x3 = bytes[o + 3];
      const x4 = bytes[o + 4];
      const x5 = bytes[o + 5];
      const x6 = bytes[o + 6];
      const x7 = bytes[o + 7];
      const x8 = bytes[o + 8];
      const x9 = bytes[o + 9];
      const x10 = bytes[o + 10];
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7 | x8 | x9 | x10) < 128 ? fromCharCode(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10) : null;
    }
    case 12: {
      const x0 = bytes[o];
      const x1 = bytes[o + 1];
      const x2 = bytes[o + 2];
      const x3 = bytes[o + 3];
      const x4 = bytes[o + 4];
      const x5 = bytes[o + 5];
      const x6 = bytes[o + 6];
      const x7 = bytes[o + 7];
      const x8 = bytes[o + 8];
      const x9 = bytes[o + 9];
      const x10 = bytes[o + 10];
      const x11 = bytes[o + 11];
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7 | x8 | x9 | x10 | x11) < 128 ? fromCharCode(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11) : null;
    }
    case 13: {
      const x0 = bytes[o];
      const x1 = bytes[o + 1];
      const x2 = bytes[o + 2];
      const x3 = bytes[o + 3];
      const x4 = bytes[o + 4];
      const x5 = bytes[o + 5];
      const x6 = bytes[o + 6];
      const x7 = bytes[o + 7];
      const x8 = bytes[o + 8];
      const x9 = bytes[o + 9];
      const x10 = bytes[o + 10];
      const x11 = bytes[o + 11];
      const x12 = bytes[o + 12];
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7 | x8 | x9 | x10 | x11 | x12) < 128 ? fromCharCode(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12) : null;
    }
    case 14: {
      const x0 = bytes[o];
      const x1 = bytes[o + 1];
      const x2 = bytes[o + 2];
      const x3 = bytes[o + 3];
      const x4 = bytes[o + 4];
      const x5 = bytes[o + 5];
      const x6 = bytes[o + 6];
      const x7 = bytes[o + 7];
      const x8 = bytes[o + 8];
      const x9 = bytes[o + 9];
      const x10 = bytes[o + 10];
      const x11 = bytes[o + 11];
      const x12 = bytes[o + 12];
      const x13 = bytes[o + 13];
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7 | x8 | x9 | x10 | x11 | x12 | x13) < 128 ? fromCharCode(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13) : null;
    }
    case 15: {
      const x0 = bytes[o];
      const x1 = bytes[o + 1];
      const x2 = bytes[o + 2];
      const x3 = bytes[o + 3];
      const x4 = bytes[o + 4];
      const x5 = bytes[o + 5];
      const x6 = bytes[o + 6];
      const x7 = bytes[o + 7];
      const x8 = bytes[o + 8];
      const x9 = bytes[o + 9];
      const x10 = bytes[o + 10];
      const x11 = bytes[o + 11];
      const x12 = bytes[o + 12];
      const x13 = bytes[o + 13];
      const x14 = bytes[o + 14];
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7 | x8 | x9 | x10 | x11 | x12 | x13 | x14) < 128 ? fromCharCode(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14) : null;
    }
    case 16: {
      const x0 = bytes[o];
      const x1 = bytes[o + 1];
      const x2 = bytes[o + 2];
      const x3 = bytes[o + 3];
      const x4 = bytes[o + 4];
      const x5 = bytes[o + 5];
      const x6 = bytes[o + 6];
      const x7 = bytes[o + 7];
      const x8 = bytes[o + 8];
      const x9 = bytes[o + 9];
      const x10 = bytes[o + 10];
      const x11 = bytes[o + 11];
      const x12 = bytes[o + 12];
      const x13 = bytes[o + 13];
      const x14 = bytes[o + 14];
      const x15 = bytes[o + 15];
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7 | x8 | x9 | x10 | x11 | x12 | x13 | x14 | x15) < 128 ? fromCharCode(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15) : null;
    }
    default:
      return null;
  }
}

// The error for a decode input that is not a Uint8Array (`inputLength` -1).
function notBytes(value) {
  return new ShornError('ERR_SHORN_INVALID', `decode: expected a Uint8Array, found ${describe(value)}`);
}

// BigInt64Array and BigUint64Array views of a tape, for int64 and uint64 slots; one of
// each is kept for the tape last asked about.
let viewsOf = null;
let viewI64 = null;
let viewU64 = null;
function view(T, kind) {
  if (viewsOf !== T) {
    viewsOf = T;
    viewI64 = new BigInt64Array(T.buffer, T.byteOffset, T.length);
    viewU64 = new BigUint64Array(T.buffer, T.byteOffset, T.length);
  }
  return kind === 'TI' ? viewI64 : viewU64;
}

// ---- values ----

// Whether every own enumerable key of `x` is in `names`.
function onlyKeys(x, names) {
  for (const key of Object.keys(x)) if (!names.has(key)) return false;
  return true;
}

// The error for the first own enumerable key of `x` the schema does not name, or null;
// with `all`, the errors for every such key (an array).
function strictError(x, names, path, all = false, max = Infinity) {
  const errors = [];
  for (const key of Object.keys(x)) {
    if (errors.length >= max) break;
    if (!names.has(key)) {
      const at = path + pathKey(key);
      const error = new ShornError('ERR_SHORN_INVALID', `${at}: unexpected field in a strict object`, { path: at });
      error[ISSUE] = 'unrecognized_keys';
      if (!all) return error;
      errors.push(error);
    }
  }
  return all ? errors : null;
}

// A strict object has no own enumerable key the schema does not name.
function checkStrict(x, names, path) {
  const error = strictError(x, names, path);
  if (error !== null) throw error;
}

// A value of a recursive type nested past maxDepth, as the generic marshaller refuses it
// (lib/generic.js, `enter`), at the path `$` of the definition's function that found it
// (its callers rebase it: `relative`).
function tooDeep(x, maxDepth) {
  const error = new ShornError('ERR_SHORN_INVALID', `$: nested deeper than maxDepth (${maxDepth})${typeof x === 'object' && x !== null ? '; is the value cyclic?' : ''}`, { path: '$' });
  error[ISSUE] = 'too_deep';
  return error;
}

// A decoded Map that holds fewer entries than the message: two keys were the same.
function repeatedKey(offset, path) {
  return new ShornError('ERR_SHORN_MALFORMED', `malformed input at offset ${offset} (${path}): a key appears twice`, {
    offset,
    path,
  });
}

// Adds an own data property whatever the name, `__proto__` included.
function defineOwn(o, key, value) {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

// A Codec or reader -> its batch decoder of frames (lib/codegen.js, `decodeFrames`), for
// lib/framing.js; kept off the frozen objects themselves.
const frameDecoders = new WeakMap();

module.exports = {
  ObjectPrototype,
  onPrototype,
  NewArray,
  frameDecoders,
  tooDeep,
  native,
  noAddon,
  decodedHeap,
  state,
  SMALL_INPUT,
  SET_INPUT,
  typedArraySet,
  KEEP_TAPE_SLOTS,
  grow,
  checkBuffers,
  OutBuffer,
  targetOffset,
  outputInto,
  inputLength,
  inputView,
  inputBuffer,
  asciiText,
  notBytes,
  copyBytes,
  copyTyped,
  inputDataView,
  view,
  typedKind,
  dateTime,
  isPlainObject,
  isMap,
  onlyKeys,
  checkStrict,
  strictError,
  repeatedKey,
  pathKey,
  invalid,
  defineOwn,
  TAPE_SLOTS,
  SLAB_BYTES,
  OFFSET_SHIFT,
  LENGTH_MASK,
  newTape,
  newSlab,
  setTape,
  slab,
};
