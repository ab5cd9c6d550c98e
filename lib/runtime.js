'use strict';
// The native back end's runtime: the text of an encode (cut in chunks, long strings on
// their own) and of a decode (wide strings, chunks, kept strings), the JS reads and
// writes of small messages, an encode's output, and the key tables of decodes; over
// lib/base.js (the addon, the tape and slab JS shares with Rust, the intrinsics), which
// is all a browser or worker build has (package.json, `#runtime`). Every module and
// generated function sees both as one object, `rt`: this module's exports.

const host = require('#host');
const base = require('./base');

const { ShornError, makeError } = require('./errors');
const { state, native, setTape, newTape, newSlab, slab, OutBuffer, OFFSET_SHIFT, LENGTH_MASK, SLAB_BYTES, TAPE_SLOTS, SMALL_INPUT, SET_INPUT, ObjectPrototype, inputLength, typedArraySet } = base;

// A decode input this large may grow the native tape or text past what is kept between
// calls (`state.grown`): those are kept up to 2^18 slots and 1 MiB, and a message takes
// at most two slots and two bytes of text a byte.
const GROWN_INPUT = 16384;

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

// Gives back a tape grown past KEEP_TAPE_SLOTS once a call needs under a quarter of it.
function shrink() {
  setTape(newTape(TAPE_SLOTS));
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

// A union by kind's own error, not made yet (lib/put.js, `putUnionByKind`): the union
// whose value failed its test after a put below it threw, with what `unionErrorOf` needs.
// Every union by kind it passes through on the way out would fail its test too (a test
// only refuses more with less depth left, and the put and the tests walk the same value),
// so each throws its own in its place, and marshal makes the outermost one's error once
// (`settle`): each union had tested the value and looked for its own error again, a walk
// of up to maxDepth levels each, ~maxDepth^3 reads of a cyclic value (fuzz finding J10:
// an encode of ~0.4 s at the default maxDepth, ~22 s at 512). `relative`: its path is
// relative to a generated helper's value, which the helper's caller rebases.
class PendingUnion {
  constructor(d, x, path, depth, relative) {
    this.d = d;
    this.x = x;
    this.path = path;
    this.depth = depth;
    this.relative = relative;
  }
}
// At marshal's end: the error a pending union stands for, made by marshaller `G`; any
// other thrown value as it is.
function settle(e, G) {
  return e instanceof PendingUnion ? G.unionErrorOf(e.d, e.x, e.path, e.depth) : e;
}

// In the caller of a helper: rebases a tagged error onto `path`; `keep` keeps the tag
// when the caller is itself a helper.
function rebaseRelative(e, path, keep) {
  if (e instanceof PendingUnion) {
    if (e.relative) {
      e.path = path + e.path.slice(1);
      e.relative = keep;
    }
    return e;
  }
  if (e instanceof ShornError && e[RELATIVE] === true) {
    rebase(e, path);
    if (!keep) delete e[RELATIVE];
  }
  return e;
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

/**
 * The error for decoded string `s` of `d` breaking its pattern or format, which JS found
 * after the native decode of `bytes` by marshaller `m` succeeded: the native side decodes
 * `bytes` again to the string whose length is at tape slot `slot`, for its offset and path
 * (docs/FORMAT.md, "Decoding rules"). (An input another thread changed meanwhile may lead
 * elsewhere: then the path is the static one.)
 */
function decodeViolation(m, nat, bytes, slot, d, s) {
  // Required here: lib/types requires this module (a cold path, after a decode failed).
  const broken = require('./types').TYPES.get(d.type).violations(d, s)[0];
  const at = nat.locate(bytes, slot);
  const [offset, path] = at === undefined ? [undefined, m.pathOf(d)] : at;
  const place = offset === undefined ? `(${path})` : `at offset ${offset} (${path})`;
  return makeError('ERR_SHORN_INVALID', `invalid value ${place}: expected ${broken.expected}, found ${broken.found}`, offset, path, broken.issue);
}

module.exports = {
  decodeViolation,
  ObjectPrototype: base.ObjectPrototype,
  onPrototype: base.onPrototype,
  tapeBytes,
  tapeWriter,
  keyTable,
  keepKey,
  defineShape,
  shapeBuilder,
  NewArray: base.NewArray,
  frameDecoders: base.frameDecoders,
  tooDeep: base.tooDeep,
  native: base.native,
  noAddon: base.noAddon,
  decodedHeap: base.decodedHeap,
  state: base.state,
  SMALL_INPUT: base.SMALL_INPUT,
  GROWN_INPUT,
  SPLIT_TEXT_MIN_INPUT,
  SET_INPUT: base.SET_INPUT,
  typedArraySet: base.typedArraySet,
  KEEP_TAPE_SLOTS: base.KEEP_TAPE_SLOTS,
  TEXT_CHUNK,
  LONG_STRING,
  LATIN1_SLOT,
  PUSH_SLOTS,
  cutText,
  longText,
  chunkedText,
  endText,
  grow: base.grow,
  shrink,
  checkBuffers: base.checkBuffers,
  reenter,
  output,
  OutBuffer: base.OutBuffer,
  WRITE_MAX,
  writer,
  newWriteSlab,
  targetOffset: base.targetOffset,
  outputInto: base.outputInto,
  inputLength: base.inputLength,
  inputView: base.inputView,
  inputBuffer: base.inputBuffer,
  decodeCall,
  areaText,
  asciiText: base.asciiText,
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
  notBytes: base.notBytes,
  copyBytes: base.copyBytes,
  copyTyped: base.copyTyped,
  inputDataView: base.inputDataView,
  view: base.view,
  typedKind: base.typedKind,
  dateTime: base.dateTime,
  isPlainObject: base.isPlainObject,
  isMap: base.isMap,
  onlyKeys: base.onlyKeys,
  checkStrict: base.checkStrict,
  strictError: base.strictError,
  rebase,
  relative,
  rebaseRelative,
  PendingUnion,
  settle,
  repeatedKey: base.repeatedKey,
  pathKey: base.pathKey,
  invalid: base.invalid,
  defineOwn: base.defineOwn,
};
