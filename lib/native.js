'use strict';
// The native back end (Node with the addon): the schema's handle in the Rust core, and the
// functions that write and read its tape, generated (lib/codegen.js) or, where code cannot
// be generated, the generic marshaller's walk (each type's `put` and `take`). A browser or
// worker build has no addon, and none of this (package.json "imports", `#native`).

const { TYPES } = require('./types');
const { ShornError } = require('./errors');
const rt = require('#runtime');
const codegen = require('#codegen');

const def = (d) => TYPES.get(d.type);

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
  return { functions: tapeFunctions(m, nat, descriptor, info.layout), generated: false };
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
    return def(d).take(this, d);
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
    return o === undefined ? def(d).take(this, d) : o.take(this, d);
  }
}

/**
 * The functions of the generic marshaller `m` over native handle `nat`: each type's `put`
 * writes the tape and `take` reads it, where generated code cannot run (a strict
 * Content-Security-Policy, `codegen: false`).
 */
function tapeFunctions(m, nat, descriptor, layout) {
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

module.exports = { build };
