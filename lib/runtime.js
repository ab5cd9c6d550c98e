'use strict';
// What every compiled schema shares: the native addon, the tape (one Float64Array that
// carries numbers between JS and Rust) and the output slab Rust writes encoded bytes to;
// and the intrinsics the marshallers use to look at values without running their code.

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
// A decode input this large may grow the native tape or text past what is kept between
// calls (`state.grown`): those are kept up to 2^18 slots and 1 MiB, and a message takes
// at most two slots and two bytes of text a byte.
const GROWN_INPUT = 16384;

// A tape grown past this many slots (2 MiB) is given back once a call needs less than a
// quarter of it, so one huge message does not pin its tape for the life of the process,
// while a stream of huge messages does not reallocate it every time. Same value as
// KEEP_TAPE_SLOTS in src/binding/mod.rs.
const KEEP_TAPE_SLOTS = 1 << 18;

// Below this many input bytes a message's text is one string, whatever its strings (no
// wide text of its own, no chunks, no negative tape slots), so a generated decode takes
// its plain body (lib/codegen.js, `plainTake`). Same value as SPLIT_TEXT_MIN_INPUT in
// src/engine.rs; a larger one here would read split text as plain (types.test.js tests
// the boundary).
const SPLIT_TEXT_MIN_INPUT = 4096;

// An encode's strings are appended to one string S, which the native side reads in one
// call. Past this many UTF-16 units, S is cut (`cutText`) and a new S starts: V8 flattens
// a concatenated string to read it, and a flat string over 128 KiB is made in
// large-object space, on fresh pages every encode (gsoc-2018, 2.8M units: the kernel's
// page faults were ~25% of its encode's time, ~2% in chunks, by perf). A chunk of 32K
// units is at most 64 KiB and the string that crossed the line, made and dropped in new
// space. (64K units: two-byte chunks are 128 KiB, and gsoc-2018 encode was back at half
// speed; 16K units: github_events, 46K units, seemed slower in 5 of 8 A/B pairs.)
const TEXT_CHUNK = 1 << 15;

// A string of this many UTF-16 units or more is not appended to S: it becomes a chunk of
// its own (the chunk before it cut where it stands), which the native side reads as it
// is, one copy into its buffer, with no concatenation for V8 to flatten (a flat string
// of its own, widened to two bytes when one string of the chunk needed them, then copied
// out: three copies of every char where one does). gsoc-2018 encode (1,690 of its 34K
// strings are 512 units or more, 72% of its text) went from ~420 to ~575 ops/s, in
// benchmark children with src/binding/malloc.rs in both; twitter, github_events,
// citm_catalog and batch100 level (docs/DESIGN.md, "Large encodes and the output's
// memory"). Without malloc.rs this had lost, to page faults on every output.
const LONG_STRING = 256;

// A message whose first chunk took more tape slots than this (strings of fewer than ~16
// units on average, with the numbers between them) has its chunks handed to the native
// side as they are cut; other messages keep theirs for the encode call. A chunk of short
// strings is a tree of thousands of concatenations: kept, every one of them outlived
// scavenges and was promoted, and GC was over a third of an events100k encode; handed over
// at once it dies young (events100k encode 2.9x faster). A chunk of long strings is a
// small tree, and handing it over early made gsoc-2018 encode slower (0.76x-0.93x in four
// A/B runs). Measured 2026-12-01, docs/DESIGN.md.
const PUSH_SLOTS = 2048;

// Cuts chunk `S` (past TEXT_CHUNK units) from the text of the message being marshalled,
// `i` tape slots into it. The first such cut decides whether the chunks are handed over
// from then on (PUSH_SLOTS); long strings' chunks (`longText`) do not count.
function cutText(S, i) {
  if (state.textBase >= 0) native.pushText(S);
  else if (!state.cut && i > PUSH_SLOTS) handOver(S);
  else state.chunks.push(S);
  state.cut = true;
}

// A long string whose chars all fit a byte (V8 keeps most such strings one byte a char)
// goes to the native side in a list of its own, which it reads one byte a char
// (src/codec/tape.rs, LATIN1_SLOT): in the text, V8 widened it to two bytes, a copy, and
// the native side read it two bytes a char to transcode it. gsoc-2018 encode:
// docs/DESIGN.md, "Long one-byte strings on encode". The test is V8's own RegExp exec,
// captured at load (no patched `exec` runs): on a one-byte string it fails at once
// (~27 ns whatever its length), on a two-byte one it stops at the first wide char.
const regexpExec = RegExp.prototype.exec;
const NOT_LATIN1 = /[^\u0000-\u00ff]/;
const LATIN1_SLOT = 2 ** 32;

// A long string `x` (LONG_STRING): in the Latin-1 list, returning LATIN1_SLOT (to add to
// its slot), `S` left as it is; or as a chunk of its own after `S`, the text since the
// last cut, returning 0 (`S` is taken).
function longText(S, x) {
  if (regexpExec.call(NOT_LATIN1, x) === null) {
    if (state.latin1 === null) state.latin1 = [x];
    else state.latin1.push(x);
    return LATIN1_SLOT;
  }
  if (state.textBase >= 0) {
    if (S !== '') native.pushText(S);
    native.pushText(x);
  } else {
    if (S !== '') state.chunks.push(S);
    state.chunks.push(x);
  }
  return 0;
}

// Hands the chunks kept so far (long strings' only), then `S`, to the native side, and
// every chunk after them as it is cut.
function handOver(S) {
  const kept = state.chunks;
  state.chunks = [];
  state.textBase = native.pushText(kept.length === 0 ? S : kept[0]);
  if (kept.length === 0) return;
  for (let k = 1; k < kept.length; k++) native.pushText(kept[k]);
  native.pushText(S);
}

// The text argument of an encode whose text was cut or has long one-byte strings:
// `[base, S]` when its chunks went to the native side (`base`: where they start in its
// pending text), else every chunk, then `S`; either followed by the list of long one-byte
// strings if there are any (src/binding/mod.rs, read_text).
function chunkedText(S) {
  state.cut = false;
  const latin1 = state.latin1;
  state.latin1 = null;
  if (state.textBase >= 0) return latin1 === null ? [state.textBase, S] : [state.textBase, S, latin1];
  const chunks = state.chunks;
  chunks.push(S);
  if (latin1 !== null) chunks.push(latin1);
  state.chunks = [];
  return chunks;
}

// After an encode whose text was cut, whether it was sent or threw: forgets its chunks.
function endText() {
  state.chunks = [];
  state.latin1 = null;
  state.cut = false;
  const base = state.textBase;
  if (base >= 0) {
    state.textBase = -1;
    native.dropText(base);
  }
}

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

const state = {
  // The JS back end's last decode's estimated heap (`decodedHeap`), -1 once taken.
  jsHeap: -1,
  tape: newTape(TAPE_SLOTS),
  out: newSlab(),
  // A small message to decode: its length, then its bytes (src/binding/mod.rs, decodeInput).
  input: new Uint8Array(new ArrayBuffer(1 + SET_INPUT)),
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

// Gives back a tape grown past KEEP_TAPE_SLOTS once a call needs under a quarter of it.
function shrink() {
  setTape(newTape(TAPE_SLOTS));
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

// Runs `fn(arg)` on a fresh tape, for a call made while an encoder is marshalling (from a
// getter or a Proxy), so the outer call's tape is left as it was.
function reenter(fn, arg) {
  const saved = state.tape;
  const chunks = state.chunks;
  const latin1 = state.latin1;
  const kept = state.kept;
  const textBase = state.textBase;
  const cut = state.cut;
  setTape(newTape(256));
  state.chunks = [];
  state.latin1 = null;
  state.textBase = -1;
  state.cut = false;
  state.busy = false;
  try {
    return fn(arg);
  } finally {
    setTape(saved);
    state.chunks = chunks;
    state.latin1 = latin1;
    state.kept = kept;
    state.textBase = textBase;
    state.cut = cut;
    state.busy = true;
  }
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

// Small messages written by JS (lib/codegen.js, `fastPut`) go to a slab of their own,
// which only JS writes: `writer.pos` is where the next one starts. A JS write reserves
// WRITE_MAX bytes from there before it reads the value (a getter may encode meanwhile, and
// its message then goes after the reservation) and gives up at more; `last` keeps the
// reservation, and a float written just past it, inside the slab.
const WRITE_MAX = 256;
const writer = { buf: null, U: new Uint8Array(0), DV: null, pos: SLAB_BYTES, last: SLAB_BYTES - WRITE_MAX - 16 };

// Starts the JS write slab (also after one was detached, ArrayBuffer#transfer); returns
// its first position, 0.
function newWriteSlab() {
  const buf = newSlab();
  writer.buf = buf;
  writer.U = new Uint8Array(buf);
  writer.DV = new DataView(buf);
  writer.pos = 0;
  return 0;
}

// The result of `encode`: a view of the message in the slab. A Buffer result means the
// message was too large for a slab and got a Buffer of its own; a plain Uint8Array, that
// it was written into a Buffer a little larger than it, of which it is the head
// (src/binding/mod.rs, `encode_large`), handed out as a Buffer over the same memory.
function output(r) {
  if (typeof r !== 'number') {
    state.bigEncode = true;
    return host.Buffer === null || r instanceof host.Buffer ? r : host.Buffer.from(r.buffer, r.byteOffset, r.length);
  }
  state.bigEncode = false;
  return new OutBuffer(slab(), r >>> OFFSET_SHIFT, r & LENGTH_MASK);
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

// The native decode of Uint8Array `bytes` of `n` bytes (`inputLength`): the message's
// text. A message of at most SMALL_INPUT bytes is copied into the input area by index
// (a typed array's elements are its own, whatever its class: no getter runs), one of at
// most SET_INPUT bytes by the intrinsic TypedArray#set (which reads the source's own
// bytes, a snapshot even of shared memory), and a longer one goes to the native side,
// which reads the view's true bytes. (Reading past the end to find the length instead
// cost ~50 ns: V8 takes a slow path for out-of-bounds typed-array reads.) The two copying
// branches keep a tail each: sharing it put a test before the small messages' own and cost
// person decode ~3% (docs/DESIGN.md).
function decodeCall(nat, bytes, n) {
  if (n <= SMALL_INPUT) {
    const I = state.input;
    I[0] = n;
    for (let j = 0; j < n; j++) I[j + 1] = bytes[j];
    const S = nat.decodeInput();
    state.grown = false;
    return S === undefined ? areaText() : S;
  }
  if (n <= SET_INPUT) {
    const I = state.input;
    I[0] = n;
    typedArraySet.call(I, bytes, 1);
    const S = nat.decodeInput();
    state.grown = false;
    return S === undefined ? areaText() : S;
  }
  if (n >= GROWN_INPUT) state.grown = true;
  return nat.decode(bytes);
}

const fromCharCode = String.fromCharCode;

// The text of a small message, when `decodeInput` left it in the input area (at most 8
// Latin-1 characters: its length, then its bytes): a string made here with a fixed
// number of arguments costs less than one made natively (docs/DESIGN.md).
function areaText() {
  const I = state.input;
  switch (I[0]) {
    case 0:
      return '';
    case 1:
      return fromCharCode(I[1]);
    case 2:
      return fromCharCode(I[1], I[2]);
    case 3:
      return fromCharCode(I[1], I[2], I[3]);
    case 4:
      return fromCharCode(I[1], I[2], I[3], I[4]);
    case 5:
      return fromCharCode(I[1], I[2], I[3], I[4], I[5]);
    case 6:
      return fromCharCode(I[1], I[2], I[3], I[4], I[5], I[6]);
    case 7:
      return fromCharCode(I[1], I[2], I[3], I[4], I[5], I[6], I[7]);
    default:
      return fromCharCode(I[1], I[2], I[3], I[4], I[5], I[6], I[7], I[8]);
  }
}

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

// The varint of at most 32 bits at `bytes[o]` (whose high bit is set) for a generated
// decode's JS read of a small message: its value times 8 plus its length, or -1 where the
// native decode is to read it (cut off by `n`, overlong, or beyond 32 bits).
function varint32At(bytes, o, n) {
  let v = bytes[o] & 127;
  for (let k = 1; k < 4; k++) {
    if (o + k >= n) return -1;
    const b = bytes[o + k];
    v |= (b & 127) << (7 * k);
    if (b < 128) return b === 0 ? -1 : v * 8 + k + 1;
  }
  if (o + 4 >= n) return -1;
  const b = bytes[o + 4];
  if (b === 0 || b > 15) return -1;
  return (v + b * 268435456) * 8 + 5;
}

// The varint at `bytes[o]` (of `n`) for a generated decode's JS read of an int or a date
// (lib/codegen.js, `readVarint53`): its value, or -1 where it is cut off, overlong, longer
// than 8 bytes or over 2^53 - 1 (then the native decode reads it, and judges it).
function varint53At(bytes, o, n) {
  let v = 0;
  let m = 1;
  for (let k = 0; k < 8; k++) {
    if (o + k >= n) return -1;
    const b = bytes[o + k];
    v += (b & 127) * m;
    if (b < 128) return (b === 0 && k > 0) || v > Number.MAX_SAFE_INTEGER ? -1 : v;
    m *= 128;
  }
  return -1;
}

// Floats of the wire's byte order (little-endian), read through typed arrays of the
// machine's, for a generated decode's JS read of a small message, where the two agree.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const F64 = new Float64Array(1);
const F64_BYTES = new Uint8Array(F64.buffer);
const F32 = new Float32Array(1);
const F32_BYTES = new Uint8Array(F32.buffer);
function float64At(bytes, o) {
  F64_BYTES[0] = bytes[o];
  F64_BYTES[1] = bytes[o + 1];
  F64_BYTES[2] = bytes[o + 2];
  F64_BYTES[3] = bytes[o + 3];
  F64_BYTES[4] = bytes[o + 4];
  F64_BYTES[5] = bytes[o + 5];
  F64_BYTES[6] = bytes[o + 6];
  F64_BYTES[7] = bytes[o + 7];
  return F64[0];
}
function float32At(bytes, o) {
  F32_BYTES[0] = bytes[o];
  F32_BYTES[1] = bytes[o + 1];
  F32_BYTES[2] = bytes[o + 2];
  F32_BYTES[3] = bytes[o + 3];
  return F32[0];
}

// The text a decode's wide strings (negative tape slots) are sliced from: `state.wide`
// when the native decode set it, else the decode's own text.
function wideText(S) {
  const w = state.wide;
  if (w === null) return S;
  state.wide = null;
  return w;
}

// A decode's further chunks of text (`state.more`), taken after `wideText`: null when
// its text came whole.
function moreText() {
  const m = state.more;
  if (m !== null) state.more = null;
  return m;
}

// Chunk-switch tape slots (src/codec/text.rs, CHUNK_SLOT): a string that opens the next
// Latin-1 chunk has slot -(CHUNK_SLOT + length), one that opens the next UTF-16 chunk
// -(2 * CHUNK_SLOT + length).
const CHUNK_SLOT = 4294967296;

// Kept strings (src/codec/text.rs, KEPT_SLOT): in a split text, an item of an array of
// strings of 2 to 12 ASCII bytes met twice before in the same decode call (as such an
// item) has slot -(3 * KEPT_SLOT + id),
// and is the string kept in `state.kept` under that id; the first of them has slot
// -(4 * KEPT_SLOT + 32 * id + length), sliced as any string and kept there (below every
// chunk switch's slot: `text()` tests for them last). The first kept string of a
// call (id 0) starts a new table, an object of no prototype (an array's stores would run
// an index setter on Object.prototype, and lose the string): one per call is young, as
// the strings it holds are (stored into a long-lived array, each was promoted with it to
// the old generation: gsoc-2018 decode 0.88x). A decode from user code meanwhile
// (`reenter`) puts the outer call's table back when it ends.
const KEPT_SLOT = CHUNK_SLOT;

// Whether a decode's text, which came in chunks (`M`, after S and X), is at least half
// the message's bytes: then its decoded objects are built by constructors (lib/codegen.js,
// `construct`).
function denseText(S, X, M, bytes) {
  let units = S.length + (X === S ? 0 : X.length);
  for (let k = 1; k < M.length; k++) units += M[k].length;
  return units * 2 >= inputLength(bytes);
}

// Whether Object.prototype has none of `keys` (own or inherited), so that a constructor's
// assignments to them make own data properties.
function protoClean(keys) {
  for (let k = 0; k < keys.length; k++) if (keys[k] in ObjectPrototype) return false;
  return true;
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

// The tape as bytes (a record key's, lib/types/record.js) and as a JS write's target (a
// record written in its bytes: `{ DV }`, the DataView floats are written through), made
// again only when the tape changes.
let viewedTape = null;
let tapeU8 = null;
const tapeW = { DV: null };
function tapeViews(T) {
  viewedTape = T;
  tapeU8 = new Uint8Array(T.buffer, T.byteOffset, T.byteLength);
  tapeW.DV = new DataView(T.buffer, T.byteOffset, T.byteLength);
}
function tapeBytes(T) {
  if (viewedTape !== T) tapeViews(T);
  return tapeU8;
}
function tapeWriter(T) {
  if (viewedTape !== T) tapeViews(T);
  return tapeW;
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

// An error thrown by the generic marshaller for a value generated code handed to it: its
// path is relative to that value ("$..."); this puts `path` in front.
function rebase(e, path) {
  if (e instanceof ShornError && typeof e.path === 'string' && e.path.startsWith('$')) {
    const old = e.path;
    e.path = path + old.slice(1);
    if (e.message.startsWith(old)) e.message = e.path + e.message.slice(old.length);
  }
  return e;
}

// Errors a generated helper function throws carry paths relative to the value it was
// given; they are tagged, so that its caller rebases them (and only them: an error a
// user's getter throws passes through untouched).
const RELATIVE = Symbol('shorn.relative');
function relative(e) {
  if (e instanceof ShornError) e[RELATIVE] = true;
  return e;
}

// In the caller of a helper: rebases a tagged error onto `path`; `keep` keeps the tag
// when the caller is itself a helper.
function rebaseRelative(e, path, keep) {
  if (e instanceof ShornError && e[RELATIVE] === true) {
    rebase(e, path);
    if (!keep) delete e[RELATIVE];
  }
  return e;
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

// The key table of a codec's decodes (src/types/json.rs, KeyIds): the record keys and
// json object keys of the message being read, by id: each key's string, and whether it
// has to be defined rather than assigned (`own`: Object.prototype has it); and the
// shapes of its json objects and records, by id (lib/json-tape.js, lib/types/record.js:
// their key ids, the hashes of their keys, and the builders of each). A key slot on the tape is an id,
// -1 (a key not kept) or -2 - id (a new key), both then the key's text. A message's
// first new key has id 0: the table starts again there, so it needs no other sign of
// where a message begins (a batch of frames holds many).
function keyTable(m) {
  return m.keys$ ?? (m.keys$ = { names: [], own: [], shapes: [], hashes: [], builders: [], records: [] });
}

// Shape ids are below this (src/types/json.rs, MAX_SHAPES).
const MAX_SHAPES = 256;
// Builders kept per kind (json objects', records'), so that messages of ever new key sets
// (hostile or not) cost bounded compiling; past it, objects are built by keyed stores.
const MAX_BUILDERS = 512;

// Keeps key ids `ids` of the object that defined shape slot `slot` (-2 - (shape +
// MAX_SHAPES * hash), src/types/json.rs, `KeyIds::shape`) in key table `K`.
function defineShape(K, slot, ids) {
  const d = -2 - slot;
  const shape = d % MAX_SHAPES;
  K.shapes[shape] = ids;
  K.hashes[shape] = (d - shape) / MAX_SHAPES;
}

// The builder of shape `shape` of key table `K` from `cache` (a Map kept by the type, of
// the hashes of builders' keys to their keys and builders), made by `make(members)` from
// its keys as object-literal keys if new; or null: no room, or another builder has its
// keys' hash. V8 makes a literal's objects with their final hidden class at once, where
// keyed stores move each to a new one per key (and past ~16 to dictionary mode).
function shapeBuilder(cache, K, shape, make) {
  const ids = K.shapes[shape];
  const found = cache.get(K.hashes[shape]);
  if (found !== undefined) return sameKeys(found.names, ids, K.names) ? found.b : null;
  if (cache.size >= MAX_BUILDERS) return null;
  // Copies, so that a builder kept for the process holds no string of a message (a
  // decoded key may be a slice of its message's text).
  const names = JSON.parse(JSON.stringify(ids.map((id) => K.names[id])));
  // `__proto__` is a computed key, which defines an own property as JSON.parse does (a
  // literal's own keys never reach a setter on Object.prototype).
  const b = make(names.map((k) => (k === '__proto__' ? '["__proto__"]' : JSON.stringify(k))));
  cache.set(K.hashes[shape], { names, b });
  return b;
}

function sameKeys(names, ids, known) {
  if (names.length !== ids.length) return false;
  for (let k = 0; k < ids.length; k++) if (names[k] !== known[ids[k]]) return false;
  return true;
}

// Keeps `key` (`own` as above), whose key slot was `slot` (-2 - id), in key table `K`.
function keepKey(K, slot, key, own) {
  const id = -2 - slot;
  if (id === 0) {
    K.names.length = 0;
    K.own.length = 0;
    K.shapes.length = 0;
    K.hashes.length = 0;
    K.builders.length = 0;
    K.records.length = 0;
  }
  // Cannot happen while JS reads every key slot the native decode wrote, in order.
  if (id !== K.names.length) throw new Error(`shorn: internal error: key ${id} of a table of ${K.names.length}`);
  K.names.push(key);
  K.own.push(own);
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
  tapeBytes,
  tapeWriter,
  keyTable,
  keepKey,
  defineShape,
  shapeBuilder,
  NewArray,
  frameDecoders,
  tooDeep,
  native,
  noAddon,
  decodedHeap,
  state,
  SMALL_INPUT,
  GROWN_INPUT,
  SPLIT_TEXT_MIN_INPUT,
  SET_INPUT,
  typedArraySet,
  KEEP_TAPE_SLOTS,
  TEXT_CHUNK,
  LONG_STRING,
  LATIN1_SLOT,
  PUSH_SLOTS,
  cutText,
  longText,
  chunkedText,
  endText,
  grow,
  shrink,
  checkBuffers,
  reenter,
  output,
  OutBuffer,
  WRITE_MAX,
  writer,
  newWriteSlab,
  targetOffset,
  outputInto,
  inputLength,
  inputView,
  inputBuffer,
  decodeCall,
  areaText,
  asciiText,
  varint32At,
  varint53At,
  LITTLE_ENDIAN,
  float64At,
  float32At,
  wideText,
  moreText,
  CHUNK_SLOT,
  KEPT_SLOT,
  denseText,
  protoClean,
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
  rebase,
  relative,
  rebaseRelative,
  repeatedKey,
  pathKey,
  invalid,
  defineOwn,
};
