'use strict';
// The JS back end: encode and decode with no native addon, for Node without a binary
// (an unsupported platform, `--omit=optional`, a bundled server) and for the runtimes
// that cannot load one (issue 39). Same bytes, same errors (code, path, offset) as the
// native core; `compile(schema, { backend: 'js' })` or SHORN_BACKEND=js chooses it.
//
// Two paths. The fast one is lib/closures.js over the schema's lowering (lib/lower.js):
// it does the whole job but, on any fault, throws a bare FAULT. Then the exact one runs,
// built on the two walks the JS layer already has, not on a new copy of every type:
//
// - encode is the generic marshaller's walk (lib/generic.js, each type's `put`), which
//   checks every value and raises every error JS raises, with a byte sink in place of
//   the tape: what a type's `put` writes (`write`, `write64`, `string`, `blob`) is turned
//   into that type's bytes (docs/FORMAT.md) by the type it is written for. What the core
//   checks on encode (lone surrogates, a string's core format) is found here, and raised
//   after the walk, where the core would raise it.
// - decode is `shorn inspect`'s walk (lib/inspect.js, INSPECT over the lowering), which
//   reads what the Rust decoder reads in the same order, with its checks, offsets and
//   paths (held to that by the golden vectors), with its rows turned off and the decode
//   budget (`maxDecodedBytes`) estimated as the core estimates it.

const { TYPES } = require('./types');
const { ShornError, makeError, pathKey } = require('./errors');
const { Encoder, loneSurrogate } = require('./generic');
const { Inspector } = require('./inspect');
const { constraintsOf } = require('./constraints');
const { FORMATS } = require('./formats');
const rt = require('#runtime');
const host = require('#host');
const { lowering, heapCost, countCost, HEAP, HEAP_NUMBER, TYPED } = require('./lower');
const closures = require('./closures');
const codegen = require('#codegen');

const { wellFormed, writeJson, FAULT, arrayIndex, keptBefore } = closures;

const def = (d) => TYPES.get(d.type);

// The formats the core checks on encode (src/types/formats.rs): JS leaves them to it.
const CORE_FORMATS = new Set(['email', 'uuid', 'ipv4', 'datetime']);
const coreFormat = (d) => d.pattern === undefined && CORE_FORMATS.has(d.format);

// ---- encode ----------------------------------------------------------------------------

// What one type's `put` writes, by the type it writes for (`ByteEncoder.cur`).
const BYTE = new Set(['bool', 'uint8', 'optional', 'nullable']);
const VARINT = new Set(['uint16', 'uint32', 'array', 'record', 'map', 'union', 'discriminatedUnion', 'enum']);

/**
 * The generic marshaller's encoder, writing bytes. Each type's `put` checks its value and
 * writes what the tape would hold; `cur`, the descriptor whose `put` runs, says how.
 */
class ByteEncoder extends Encoder {
  constructor(m, sink) {
    super(m, null, 0, '', null);
    this.sink = sink;
    this.cur = null;
    // The sizes of the Maps being written, as written, and the keys and values of the
    // innermost one's entries put so far (`map`).
    this.sizes = [];
    this.entries = 0;
    // The first fault the core would find on encode (it checks after JS): thrown after the walk.
    this.fault = null;
  }

  put(d, x, shown = d) {
    const prev = this.cur;
    this.cur = d;
    if (prev !== null && prev.type === 'map') this.entries++;
    if (d.type === 'json') this.json(d, x);
    else if (d.type === 'map') this.map(d, x, shown);
    else def(d).put(this, d, x, shown);
    this.cur = prev;
  }

  // A variant put untested (lib/generic.js): what this walk keeps of its own, and the
  // bytes written, are put back too where it finds an issue.
  putVariant(d, k, x) {
    const { cur, entries, fault } = this;
    const sizes = this.sizes.length;
    const o = this.sink.o;
    if (super.putVariant(d, k, x)) return true;
    this.cur = cur;
    this.entries = entries;
    this.fault = fault;
    this.sizes.length = sizes;
    this.sink.o = o;
    return false;
  }

  // A Map whose entries are not as many as its size says (an own `size` getter, an
  // iterator of its own) cannot be written: the count is written first.
  map(d, x, shown) {
    const outer = this.entries;
    this.entries = 0;
    const sizes = this.sizes.length;
    def(d).put(this, d, x, shown);
    const size = this.sizes[sizes];
    this.sizes.length = sizes;
    if (this.entries !== 2 * size) {
      const at = this.path();
      throw (this.thrown = new ShornError('ERR_SHORN_INVALID', `${at}: expected a Map whose size is its number of entries, found size ${size} and ${this.entries / 2} entries`, { path: at }));
    }
    this.entries = outer;
  }

  write(v) {
    const t = this.cur.type;
    const w = this.sink;
    if (t === 'map') this.sizes.push(v);
    if (BYTE.has(t)) w.byte(v);
    else if (VARINT.has(t)) w.varint(v);
    else if (t === 'int8') w.byte(v & 255);
    else if (t === 'int16' || t === 'int32') w.varint(((v << 1) ^ (v >> 31)) >>> 0);
    else if (t === 'int' || t === 'date') w.zigzag(v);
    else if (t === 'float64') {
      w.need(8);
      w.DV.setFloat64(w.o, v, true);
      w.o += 8;
    } else if (t === 'float32') {
      w.need(4);
      w.DV.setFloat32(w.o, v, true);
      w.o += 4;
    } else throw new Error(`shorn: internal error: the JS back end cannot write ${t}`);
  }

  write64(v) {
    this.sink.varintBig(this.cur.type === 'int64' ? BigInt.asUintN(64, (v << 1n) ^ (v >> 63n)) : v);
  }

  string(s) {
    if (!wellFormed(s)) {
      this.coreFault(loneSurrogate(this.path(), s));
      return;
    }
    const d = this.cur;
    if (d.type === 'string' && d.format !== undefined && coreFormat(d) && !FORMATS[d.format](s)) {
      const broken = def(d).violations(d, s).find((v) => v.issue === 'invalid_format');
      if (broken !== undefined) this.coreFault(makeError('ERR_SHORN_INVALID', `${this.path()}: expected ${broken.expected}, found ${broken.found}`, undefined, this.path(), broken.issue));
    }
    this.sink.string(s);
  }

  blob(x) {
    const w = this.sink;
    const u = closures.bytesOf(x);
    w.varint(this.cur.type === 'bytes' ? u.length : closures.typedLength.call(x));
    w.need(u.length);
    w.U.set(u, w.o);
    w.o += u.length;
  }

  coreFault(error) {
    if (this.fault === null) this.fault = error;
  }

  /** A json value (docs/FORMAT.md, "json"); its error, if any, is the generic encoder's. */
  json(d, x) {
    const at = this.sink.o;
    if (!writeJson(this.sink, x, this.depth, this.m.maxDepth)) {
      this.sink.o = at;
      const c = new Encoder(this.m, new Float64Array(64), 0, '', []);
      c.scratch = true;
      c.prefix = this.path().slice(1);
      c.depth = this.depth;
      c.late = null;
      try {
        c.put(d, x);
      } catch (e) {
        // Its error is this walk's (a union that put the value untested takes it for its
        // own: lib/generic.js, putVariant).
        if (e === c.thrown) this.thrown = e;
        throw e;
      }
      // Nothing JS refuses: a string (or key) that is not well formed, which the core
      // refuses after every check JS makes, at its path (a key's: its object's).
      const lone = illFormed(x, this.path());
      if (lone !== undefined) {
        this.coreFault(loneSurrogate(lone.path, lone.text));
        return;
      }
      // Written by `put` but not here: a value that changed meanwhile (a getter).
      throw (this.thrown = new ShornError('ERR_SHORN_INVALID', `${this.path()}: invalid value: the json value changed while it was encoded (a getter gave another value the second time)`, { path: this.path() }));
    }
  }
}

/**
 * The first string of json value `x` at `path` that is not well formed, keys among them,
 * in the order the core writes them (an object's keys as Object.keys gives them, each
 * before its value): `{ text, path }` (a key's path is its object's), or undefined if
 * none. `x` is one the generic walk took (so no cycle, and within maxDepth).
 */
function illFormed(x, path) {
  if (typeof x === 'string') return wellFormed(x) ? undefined : { text: x, path };
  if (typeof x !== 'object' || x === null) return undefined;
  if (Array.isArray(x)) {
    for (let k = 0; k < x.length; k++) {
      const lone = illFormed(x[k], `${path}[${k}]`);
      if (lone !== undefined) return lone;
    }
    return undefined;
  }
  for (const key of Object.keys(x)) {
    if (!wellFormed(key)) return { text: key, path };
    const lone = illFormed(x[key], path + pathKey(key));
    if (lone !== undefined) return lone;
  }
  return undefined;
}

// ---- decode ---------------------------------------------------------------------------

/**
 * `shorn inspect`'s walk as a decoder: no rows; the decode budget estimated as the core
 * does (counts charged when read, strings' text at the end of the message).
 */
class ByteDecoder extends Inspector {
  constructor(bytes, descriptor, limits, budget, costs) {
    super(bytes, descriptor, limits);
    this.budget = budget;
    this.costs = costs;
    this.overrides = costs.overrides;
    this.heap = 0;
    // The decoded text: its UTF-16 units, and whether any is above U+00FF (two bytes each).
    this.units = 0;
    this.wide = false;
    // The message's keys whose text counts once (lib/closures.js, In#key).
    this.keys = null;
  }

  value(d) {
    // One level of recursion: the definition's heap, as the core charges at a call, after
    // the depth it checks first (src/engine.rs, Op::Call; the walk's `call` enters).
    if (d.type === 'recursive' || d.type === 'ref') {
      if (this.depth >= this.limits.maxDepth) this.enter(this.pos);
      this.charge(this.costs.of(d.type === 'ref' ? this.target(d).schema : d.schema), this.pos);
    }
    const v = this.costs.constrained(d) ? this.constrained(d) : this.own(d);
    // A reader of another schema's bytes: the writer's value, converted (lib/evolve.js).
    if (this.overrides !== null) {
      const o = this.overrides.get(d);
      if (o !== undefined) return o.fromValue(v);
    }
    return v;
  }

  leaf(at, d, value) {
    // Text: a string's, a json string's. An enum's or a literal's string comes from the
    // schema, not the text, and the core does not count it.
    if (typeof value === 'string' && (d.type === 'string' || d.type === 'json')) {
      this.units += value.length;
      // eslint-disable-next-line no-control-regex
      if (!this.wide && /[^\u0000-\u00ff]/.test(value)) this.wide = true;
      if (d.type === 'json') this.charge(HEAP.string, at);
    } else if (d.type === 'bytes' || TYPED.has(d.type)) {
      // At its first byte, after the length, as the core charges it.
      this.charge(value.byteLength, this.pos - value.byteLength);
    } else if (d.type === 'json' && typeof value === 'number' && !(value >= 0 && value <= 63 && Number.isInteger(value) && !Object.is(value, -0))) {
      // Every number but a small integer (0x40-0x7f, 0 to 63) is a heap number: -0 too,
      // which is written as a float (0x03).
      this.charge(HEAP_NUMBER, at);
    }
    return value;
  }

  // What the walk notes with a count (an array's, a record's, a map's, a json array's or
  // object's: charged as the core charges it when it reads one) or a key (its text).
  note(at, d, note, what) {
    const t = d.type;
    if (t === 'optional' || t === 'nullable') {
      // A present value: its heap, as the core charges at a presence byte.
      if (note !== 'absent') this.charge(this.costs.of(d.of), at);
    } else if (t === 'union' || t === 'discriminatedUnion') this.charge(this.costs.of(d.variants[what]), at);
    else if (t === 'json' && typeof what === 'number') {
      // A json array or object: its own heap and its items' (src/types/json.rs).
      const object = note.startsWith('json object');
      this.charge(object ? HEAP.record + what * HEAP.entry : HEAP.array + what * HEAP.item, at);
    } else if (typeof what === 'number') this.charge(what * this.costs.per(d), at);
    else if (typeof what === 'string') {
      // A record's key that is an array index is not text for the core (src/types/json.rs,
      // INDEX_KEY), and not in its estimate.
      if (t === 'record' && arrayIndex(what) >= 0) return;
      // A key met before in the message, kept in the core's table: its text counted once.
      if (keptBefore(this, what, this.pos - at)) return;
      this.units += what.length;
      // eslint-disable-next-line no-control-regex
      if (!this.wide && /[^\u0000-\u00ff]/.test(what)) this.wide = true;
    }
  }

  row() {}

  charge(cost, at) {
    this.heap += cost;
    if (this.heap > this.budget) {
      throw new ShornError(
        'ERR_SHORN_LIMIT',
        `decoded values of about ${this.heap} bytes, by offset ${at} (${this.path()}), are over the limit of ${this.budget} (maxDecodedBytes)`,
        { offset: at, path: this.path() },
      );
    }
  }
}

// Per descriptor, what the decoder asks often: whether it has constraints, and the cost
// of each item or entry of its counts.
class Costs {
  constructor(overrides) {
    this.overrides = overrides;
    this.flags = new Map();
    this.items = new Map();
    this.heaps = new Map();
  }

  constrained(d) {
    let c = this.flags.get(d);
    if (c === undefined) this.flags.set(d, (c = constraintsOf(d).length > 0));
    return c;
  }

  /** `heapCost(d)`, once per descriptor. */
  of(d) {
    let c = this.heaps.get(d);
    if (c === undefined) this.heaps.set(d, (c = heapCost(d)));
    return c;
  }

  per(d) {
    let c = this.items.get(d);
    if (c === undefined) this.items.set(d, (c = countCost(d)));
    return c;
  }
}

const LIMIT_NAMES = ['maxStringBytes', 'maxBytesLength', 'maxArrayLength'];
const NO_BYTES = new Uint8Array(0);
const BufferPrototype = host.Buffer === null ? Uint8Array.prototype : host.Buffer.prototype;
const SAB = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : null;

/**
 * The functions of a codec on the JS back end: `encode`, `encodeInto`, `decode` and
 * `decodeFrames`, as lib/native.js's `build` gives them for the native one.
 */
function build(descriptor, m, settings, output, generate, info) {
  const limits = { maxDepth: settings.maxDepth };
  LIMIT_NAMES.forEach((name, k) => {
    if (settings.limits[k] !== -1) limits[name] = settings.limits[k];
  });
  const costs = new Costs(m.overrides);
  const rootCost = heapCost(descriptor);
  // The fast path: closures over the schema's lowering (lib/lower.js, lib/closures.js);
  // in a reader of another schema's bytes, over the writer's, with the reader's overrides.
  const sizes = new ByteDecoder(new Uint8Array(0), descriptor, limits, settings.budget, costs);
  const L = lowering(m, sizes);
  const fast = closures.compile(L.node(descriptor), m, generate);
  const fullLimits = { ...sizes.limits };
  let spareIn = new closures.In(fullLimits, settings.budget);
  let spareOut = new closures.Out(1024);
  // Small messages where code is generated in Node: the JS read and write the native back
  // end runs before its native call (lib/codegen.js, `buildSmall`), the closures after it
  // where they give up, generated over the same lowering. (A browser build has no such
  // code generator: `#codegen`.)
  // (Not in a reader: the generated read knows no overrides.)
  const small =
    generate && m.overrides === null && typeof codegen.buildSmall === 'function'
      ? codegen.buildSmall(descriptor, info, m, { maxStringBytes: settings.limits[0], maxArrayLength: settings.limits[2], budget: settings.budget, anyText: true }, L)
      : null;
  const SMALL_NONE = codegen.SMALL_NONE;

  // The exact walk: the bytes, or the error the native back end gives.
  function marshalExact(v, w) {
    w.o = 0;
    const depth = m.testDepth;
    m.testDepth = 0;
    try {
      const c = new ByteEncoder(m, w);
      c.put(descriptor, v);
      if (c.fault !== null) throw c.fault;
      return w;
    } finally {
      m.testDepth = depth;
    }
  }

  function marshal(v) {
    // Its own buffer for a call that another (a getter's encode) interrupts.
    const w = spareOut ?? new closures.Out(256);
    spareOut = null;
    w.grown = false;
    try {
      if (fast.encode !== null) {
        w.o = 0;
        w.depth = 0;
        try {
          fast.encode(w, v);
          return w;
        } catch (e) {
          if (e !== FAULT) throw e;
        }
      }
      return marshalExact(v, w);
    } finally {
      // Kept for the next encode up to 8 MiB (a corpus of a few MiB grew it from 1 KiB by
      // doubling, copying each time, on every encode).
      if (w.U.length <= 1 << 23) spareOut = w;
    }
  }

  function decodeExact(bytes, n) {
    // A view of its own: the walk calls the input's methods.
    const r = new ByteDecoder(n === 0 ? NO_BYTES : rt.inputView(bytes, 0, n), descriptor, limits, settings.budget, costs);
    r.heap = rootCost;
    const value = r.value(descriptor);
    if (r.remaining !== 0) {
      throw new ShornError('ERR_SHORN_TRAILING', `trailing bytes after the message, from offset ${r.pos}`, { offset: r.pos, path: '$' });
    }
    if (r.deferred !== null) throw r.deferred;
    r.charge(r.wide ? 2 * r.units : r.units, n);
    rt.state.jsHeap = r.heap;
    return value;
  }

  function decode(bytes) {
    const n = rt.inputLength(bytes);
    if (n < 0) throw rt.notBytes(bytes);
    // The JS read of a small message, of the input as it is, as the native back end's
    // (lib/codegen.js, `decode`): it reads elements by index, which no subclass changes,
    // and text through `smallText`, which gives up where anything in it fails (the
    // closures then read the view or copy made below). (It skips itself while
    // `state.grown`: a frame read under a heap budget, lib/framing.js, is read below,
    // which leaves its estimate.) The checks below took ~25 ns of a person decode's ~52
    // before it.
    if (small !== null) {
      const value = small.decode(bytes, n);
      if (value !== SMALL_NONE) {
        rt.state.jsHeap = -1;
        return value;
      }
    }
    // A Uint8Array or Buffer as it is (the closures read its elements by index, the rest
    // through the intrinsics); of another class, a plain view made through the intrinsics
    // (a subclass's methods and getters never run); a SharedArrayBuffer's, a copy, which
    // TextDecoder takes (the core copies them too).
    const proto = Object.getPrototypeOf(bytes);
    if (n === 0) bytes = NO_BYTES;
    else if (proto !== Uint8Array.prototype && proto !== BufferPrototype && proto !== rt.OutBuffer.prototype) bytes = rt.inputView(bytes, 0, n);
    if (SAB !== null && rt.inputBuffer(bytes) instanceof SAB) bytes = new Uint8Array(rt.inputView(bytes, 0, n));
    // An estimate of the value's heap exact to the core's where a batch of frames asks
    // for one (lib/framing.js sets `state.grown`), else one that may count a repeated
    // key's text again (lib/closures.js, In#key).
    const exact = rt.state.grown;
    // With no addon nothing else sets `state.grown` back (a native decode of a small
    // message does): the next small message is read in JS again.
    if (rt.native === null) rt.state.grown = false;
    const r = spareIn ?? new closures.In(fullLimits, settings.budget);
    spareIn = null;
    r.b = bytes;
    r.p = 0;
    r.n = n;
    r.dv = null;
    r.windowsAnew();
    r.depth = 0;
    r.heap = rootCost;
    r.units = 0;
    r.wide = false;
    r.keys = exact ? null : false;
    try {
      const value = fast.decode(r);
      if (r.p === n && r.heap + (r.wide ? 2 * r.units : r.units) <= settings.budget) {
        rt.state.jsHeap = r.heap + (r.wide ? 2 * r.units : r.units);
        return value;
      }
    } catch (e) {
      if (e !== FAULT) throw e;
    } finally {
      r.b = null;
      r.dv = null;
      r.win = null;
      spareIn = r;
    }
    return decodeExact(bytes, n);
  }

  return {
    encode(v) {
      if (small !== null) {
        const out = small.encode(v);
        if (out !== null) return out;
      }
      return output(marshal(v));
    },
    encodeInto(v, target, offset) {
      const at = rt.targetOffset(target, offset);
      if (small !== null) {
        const n = small.encodeInto(v, target, at);
        if (n >= 0) return n;
      }
      const w = marshal(v);
      return rt.outputInto(w.U.subarray(0, w.o), target, at);
    },
    decode,
  };
}

module.exports = { build, canGenerate: closures.canGenerate, ByteEncoder, ByteDecoder };
