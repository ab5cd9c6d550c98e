'use strict';
// The native back end (Node with the addon): the schema's handle in the Rust core, and the
// functions that write and read its tape, generated (lib/codegen.js) or, where code cannot
// be generated, the generic marshaller's walk (each type's `put`, and its tape read,
// `TAPE_READS` below). A browser or worker build has no addon, and none of this
// (package.json "imports", `#native`).

const { ShornError } = require('./errors');
const rt = require('#runtime');
const codegen = require('#codegen');
const jsonTape = require('#json-tape');
const { MIN_SHAPE, MAX_SHAPE, INDEX_KEY } = require('./types/record');
const string = require('./types/string');
const { RANGES } = require('./types/integer');
const { CLASSES } = require('./types/typed-array');
const { takeOverride } = require('./evolve-native');
const { RANGES64 } = require('./types/int64');

// Each type's read of the tape, by type name: the slots its `put` (lib/types/*.js) wrote,
// as the core leaves them after a decode (docs/DESIGN.md), made into the value. `c` is the
// Decoder below (its `take` for a child, `text` for the next string).
const TAPE_READS = {
  array(c, d) {
    const n = c.T[c.i++];
    const a = [];
    for (let k = 0; k < n; k++) a.push(c.take(d.items));
    return a;
  },
  bool: (c) => c.T[c.i++] !== 0,
  bytes: (c) => rt.copyBytes(c.bytes, c.T[c.i++], c.T[c.i++]),
  date: (c) => new Date(c.T[c.i++]),
  default: (c, d) => c.take(d.of),
  enum: (c, d) => d.values[c.T[c.i++]],
  json: (c) => jsonTape.take(c, rt.keyTable(c.m)),
  literal: (c, d) => d.value,
  null: () => null,
  map(c, d) {
    const n = c.T[c.i++];
    const at = c.T[c.i++];
    const m = new Map();
    for (let k = 0; k < n; k++) {
      const key = c.take(d.keys);
      m.set(key, c.take(d.values));
    }
    if (m.size !== n) throw rt.repeatedKey(at, c.pathOf(d));
    return m;
  },
  object(c, d) {
    const o = {};
    for (const f of d.fields) {
      if (f.schema.type === 'optional') {
        if (c.T[c.i++] !== 0) rt.defineOwn(o, f.name, c.take(f.schema.of));
      } else {
        rt.defineOwn(o, f.name, c.take(f.schema));
      }
    }
    return o;
  },
  optional: (c, d) => (c.T[c.i++] !== 0 ? c.take(d.of) : undefined),
  nullable: (c, d) => (c.T[c.i++] !== 0 ? c.take(d.of) : null),
  record(c, d) {
    const n = c.T[c.i++];
    const o = {};
    const K = rt.keyTable(c.m);
    // The shape slot (lib/types/record.js): here only a first record of a shape counts,
    // whose key ids a later record or json object of the message may build by (this path
    // builds key by key: it also runs where code is not generated).
    const slot = n >= MIN_SHAPE && n <= MAX_SHAPE ? c.T[c.i++] : -1;
    const ids = slot <= -2 ? [] : null;
    for (let k = 0; k < n; k++) {
      const id = c.T[c.i++];
      let key, own;
      if (id >= 0) {
        key = K.names[id];
        own = K.own[id];
      } else if (id <= INDEX_KEY) {
        key = INDEX_KEY - id;
        own = key in rt.ObjectPrototype;
      } else {
        key = c.text();
        own = rt.onPrototype(key);
        if (id !== -1) rt.keepKey(K, id, key, own);
      }
      if (ids !== null) ids.push(id >= 0 ? id : -2 - id);
      const v = c.take(d.values);
      if (own) rt.defineOwn(o, key, v);
      else o[key] = v;
    }
    if (ids !== null) rt.defineShape(K, slot, ids);
    return o;
  },
  recursive: (c, d) => c.take(d.schema),
  ref: (c, d) => c.take(c.target(d).schema),
  string(c, d) {
    const s = c.text();
    if (string.checkedByJs(d) && !string.formedOnDecode(d, s)) throw rt.decodeViolation(c.m, c.m.nat, c.bytes, c.i - 1, d, s);
    return s;
  },
  tuple(c, d) {
    // Pushed, so that the array is packed as in generated code (`map` makes a holey one).
    const out = [];
    for (const item of d.items) out.push(c.take(item));
    return out;
  },
  union: (c, d) => c.take(d.variants[c.T[c.i++]]),
  discriminatedUnion: (c, d) => c.take(d.variants[c.T[c.i++]]),
};
// The numbers JS holds as numbers: one slot, the number.
for (const [name] of [...RANGES, ['int'], ['float32'], ['float64']]) TAPE_READS[name] = (c) => c.T[c.i++];
for (const [name, , , view] of RANGES64) TAPE_READS[name] = (c) => c.read64(view);
for (const [name, Class] of CLASSES) TAPE_READS[name] = (c) => rt.copyTyped(Class, c.bytes, c.T[c.i++], c.T[c.i++]);

/**
 * The codec functions of `descriptor` on the native back end, over generic marshaller `m`
 * (lib/generic.js); `generated` says whether they are generated code.
 */
function build(descriptor, info, nat, m, overrides, settings) {
  const { limits, budget, mode } = settings;
  // The tape's hand-offs from generated code, and its generic decodes, read through this.
  m.decoder = (T, i, S, p, bytes, X = S, q = 0, M = null) => decoderOf(m, T, i, S, p, bytes, X, q, M);
  m.nat = nat;
  if (mode !== false) {
    try {
      const functions = codegen.build(descriptor, info, nat, m, overrides, { maxStringBytes: limits[0], maxArrayLength: limits[2], budget });
      m.generates = true;
      return { functions, generated: true };
    } catch (e) {
      if (!(e instanceof EvalError)) throw e;
      if (mode === true) {
        throw new ShornError(
          'ERR_SHORN_SCHEMA',
          `codegen: true, but code generation is not allowed here (${e.message}); use codegen: 'auto' or false`,
        );
      }
    }
  }
  return { functions: tapeFunctions(m, nat, descriptor, info.layout, info.json), generated: false };
}

const decoderOf = (m, T, i, S, p, bytes, X, q, M) => (m.overrides === null ? new Decoder(m, T, i, S, p, bytes, X, q, M) : new ResolvingDecoder(m, T, i, S, p, bytes, X, q, M));

/** The state of one decode (or one hand-off from generated code). */
class Decoder {
  // `X` from `q`: a large message's wide strings (negative slots; src/codec/text.rs);
  // `M`: a text's further chunks (lib/codegen.js, `text()`).
  constructor(m, T, i, S, p, bytes, X, q, M) {
    this.m = m;
    this.T = T;
    this.i = i;
    this.S = S;
    this.p = p;
    this.bytes = bytes;
    this.X = X;
    this.q = q;
    this.M = M;
  }

  take(d) {
    return TAPE_READS[d.type](this, d);
  }

  text() {
    const n = this.T[this.i++];
    if (n >= 0) return this.S.slice(this.p, (this.p += n));
    if (n > -rt.CHUNK_SLOT) return this.X.slice(this.q, (this.q -= n));
    const M = this.M;
    if (n > -2 * rt.CHUNK_SLOT) {
      this.S = M[M[0]++];
      return this.S.slice(0, (this.p = -rt.CHUNK_SLOT - n));
    }
    if (n > -3 * rt.CHUNK_SLOT) {
      this.X = M[M[0]++];
      return this.X.slice(0, (this.q = -2 * rt.CHUNK_SLOT - n));
    }
    // A kept string (lib/runtime.js, KEPT_SLOT): a repeat, or the first.
    const st = rt.state;
    if (n > -4 * rt.KEPT_SLOT) return st.kept[-3 * rt.KEPT_SLOT - n];
    const v = -4 * rt.KEPT_SLOT - n;
    const s = this.S.slice(this.p, (this.p += v & 31));
    // Id 0 starts the call's table (of no prototype, as lib/codegen.js's `text()`).
    if (v < 32) st.kept = { __proto__: null, 0: s };
    else st.kept[v >>> 5] = s;
    return s;
  }

  /** `d`'s own read, where an override (lib/evolve.js) reads the writer's value first. */
  takeOwn(d) {
    return TAPE_READS[d.type](this, d);
  }

  read64(view) {
    return rt.view(this.T, view)[this.i++];
  }

  target(d) {
    return this.m.target(d);
  }

  pathOf(d) {
    return this.m.pathOf(d);
  }
}

/** A decode whose overridden nodes build another schema's values (lib/evolve.js). */
class ResolvingDecoder extends Decoder {
  take(d) {
    const o = this.m.overrides.get(d);
    return o === undefined ? this.takeOwn(d) : takeOverride(o, this, d);
  }
}

/**
 * The functions of the generic marshaller `m` over native handle `nat`: each type's `put`
 * writes the tape and `take` reads it, where generated code cannot run (a strict
 * Content-Security-Policy, `codegen: false`).
 */
function tapeFunctions(m, nat, descriptor, layout, json) {
  const st = rt.state;

  function marshal(v) {
    if (st.busy) return rt.reenter(marshal, v);
    st.busy = true;
    const depth = m.testDepth;
    m.testDepth = 0;
    // Per call, so a call made from inside another (a getter that encodes with the same
    // codec) has its own.
    const c = m.encoder(st.tape, 0, '', []);
    if (layout.positional) c.strings = [];
    try {
      c.put(descriptor, v);
      if (st.out.byteLength === 0) rt.checkBuffers();
      if (!layout.positional) {
        const text = st.chunks.length === 0 && st.textBase < 0 && st.latin1 === null ? c.S : rt.chunkedText(c.S);
        return layout.blobs ? nat.encode(text, c.B) : nat.encode(text);
      }
      // Positional calls take every string and byte-array argument the schema has. An
      // absent one is "" (adds no text) or undefined (skipped), so padding at the end
      // gives the native side the same text and blobs as the generated code's arguments.
      const strings = c.strings;
      const blobs = c.B;
      while (strings.length < layout.strings) strings.push('');
      while (blobs.length < layout.blobs) blobs.push(undefined);
      return nat.encode(...strings, ...blobs);
    } catch (e) {
      // A lone surrogate in a json value at its own path (Marshaller#lonePath).
      throw json ? m.lonePath(e, v) : e;
    } finally {
      st.busy = false;
      m.testDepth = depth;
      if (st.chunks.length !== 0 || st.textBase >= 0 || st.latin1 !== null) rt.endText();
      if (c.T.length > rt.KEEP_TAPE_SLOTS && c.i * 4 < c.T.length) rt.shrink();
    }
  }

  function decode(bytes) {
    if (st.busy) return rt.reenter(decode, bytes);
    const n = rt.inputLength(bytes);
    if (n < 0) throw rt.notBytes(bytes);
    const S = rt.decodeCall(nat, bytes, n);
    const X = rt.wideText(S);
    const M = rt.moreText();
    // As in lib/codegen.js: a call from user code while values are built gets its own tape.
    st.busy = true;
    try {
      return decoderOf(m, st.tape, 0, S, 0, bytes, X, 0, M).take(descriptor);
    } finally {
      st.busy = false;
    }
  }

  // As lib/codegen.js's `decodeFrames`: the whole, sound frames of `bytes` from `start`
  // on, decoded in one native call, their values built into `out`.
  function decodeFrames(bytes, start, max, checksum, out, at) {
    if (st.busy) return false;
    const S = nat.decodeFrames(bytes, start, max, checksum, at.budget);
    st.grown = true;
    const X = rt.wideText(S);
    const M = rt.moreText();
    const T = st.tape;
    const n = T[0];
    at.end = T[1];
    at.more = T[2] === 1;
    at.heap = T[3];
    st.busy = true;
    try {
      const c = decoderOf(m, T, 4, S, 0, bytes, X, 0, M);
      for (let k = 0; k < n; k++) out.push(c.take(descriptor));
    } finally {
      st.busy = false;
    }
    return true;
  }

  return {
    encode: (v) => rt.output(marshal(v)),
    encodeInto(v, target, offset) {
      const at = rt.targetOffset(target, offset);
      return rt.outputInto(marshal(v), target, at);
    },
    decode,
    decodeFrames,
  };
}

module.exports = { build, TAPE_READS };
