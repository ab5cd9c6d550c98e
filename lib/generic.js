'use strict';
// The generic marshaller: walks the descriptor per value instead of running generated
// code, for places where `new Function` is forbidden (a strict Content Security Policy).
// It writes the same tape and the same native arguments as lib/codegen.js, so the bytes
// are identical (the tests check it). Generated code also hands it the values whose shape
// is only known at run time (recursive types, json). Each type's own `put` and `test` are in
// lib/types/; the tape read of the native back end, lib/native.js.

const { TYPES } = require('./types');
const { tagIndex } = require('./types/union');
const { ShornError, ISSUE, violation, pathKey } = require('./errors');
const rt = require('#runtime');
const { kindOf, kindsOf, variantsByKind, EXOTIC } = require('./lower');

function def(d) {
  return TYPES.get(d.type);
}

// The test depth from which `nestTest` keeps its answers for a value. Above it a union's
// variants still walk the value again at each level, up to variants^4 times; keeping
// them from 2 levels down made the encode of a tree through a union of itself 15-25%
// slower, from 6 levels ~2% but a chain of 100 through a union of four variants that
// fail at their last field took 0.7 s (4: ~5-12%, 86 ms, 180 ms with MEMO_AFTER;
// docs/DESIGN.md, "Tests of recursive values kept").
const MEMO_DEPTH = 4;
// ... and after how many recursive tests of one outermost test: a value of a few hundred
// nodes tests each once and keeps nothing (a comment thread 4 deep, benchmark/recursion.js,
// encoded 5% slower when every node was kept).
const MEMO_AFTER = 256;

// Thrown from a union's put untested inside another's that finds an issue, up to the
// outermost, which tests its variants in turn instead (Encoder#putVariant). Never seen
// outside this module and lib/types/union.js.
const ABORT = Object.freeze({ abort: true });

// Thrown through a collecting walk (`issues`) once the list is full: the walk stops, so
// a message of a million broken values costs as much as one of `maxIssues` (issue 37,
// finding 6: 1M issues took 287 MB and 15 s). Never seen outside this module.
const CUT = Object.freeze({ cut: true });

/** What one codec's generic marshalling shares across calls. */
class Marshaller {
  constructor(descriptor, info, maxDepth) {
    this.descriptor = descriptor;
    this.refs = info.refs;
    this.paths = info.paths;
    this.maxDepth = maxDepth;
    // The key table of this codec's decodes (rt.keyTable), made at the first key.
    this.keys$ = null;
    this.caches = new Map();
    // Writer node -> override, when this marshaller decodes another schema's values from
    // this one's bytes (lib/evolve.js); null otherwise.
    this.overrides = null;
    // Levels of recursion a `test` is inside (cyclic values must end in `false`). Every
    // encode and check starts it at 0 and puts it back after: one made from user code (a
    // getter read inside a union's variant test) must not start where that test stood
    // (fuzz finding J8: a value near maxDepth was refused).
    this.testDepth = 0;
    // The answers of recursive tests of objects while one runs (`nestTest`), or null, and
    // the recursive tests it has run.
    this.memo = null;
    this.calls = 0;
    // Whether the codec generates code, so json objects of a repeated shape may be built
    // by generated functions (lib/json-tape.js, `builder`): set once it is known.
    this.generates = false;
  }

  expected(d) {
    return def(d).expected(d, this);
  }

  test(d, x) {
    return def(d).test(d, x, this);
  }

  /**
   * The error for encode's error `e` of value `v`: the core refuses a lone surrogate in a
   * json value at the json value's path (it writes the value's strings without their keys
   * and indexes), and this is the error `check` lists first for it, the same string's
   * with its path inside the value (a key's: its object's), as the JS back end gives it.
   * `e` itself where it is another error, or where `v` gave another value this time (a
   * getter). Called by the native back end's encode of a schema with a json value, from
   * its `catch`.
   */
  lonePath(e, v) {
    if (!(e instanceof ShornError) || e.code !== 'ERR_SHORN_INVALID' || !LONE.test(e.message)) return e;
    let first;
    try {
      first = this.issues(v, this.descriptor, false, 1)[0];
    } catch {
      return e; // a getter that throws now: the core's error stands
    }
    // The same string's (its index too), at e's path or below it.
    const same = first !== undefined && first.path.startsWith(e.path) && first.message.slice(first.path.length) === e.message.slice(e.path.length);
    return same && (first.path.length === e.path.length || '.['.includes(first.path[e.path.length])) ? first : e;
  }

  /** The index of the first variant of union `d` that takes `x`, or -1. */
  variantOf(d, x) {
    return d.variants.findIndex((v) => this.test(v, x));
  }

  /**
   * For union `d` whose variants take values of different kinds (lib/lower.js), the index
   * of the one variant of `x`'s kind, the only one that may take it (-1: none); -2 where
   * the variants are tested in turn (kinds that overlap, or `x` of no kind).
   */
  variantByKind(d, x) {
    const byKind = this.cached('byKind', d, (u) => variantsByKind(u.variants, kindsOf((ref) => this.target(ref)).kinds));
    if (byKind === null) return -2;
    const kind = kindOf(x);
    return kind === EXOTIC ? -2 : byKind[kind];
  }

  /** Runs `fn` one level deeper; beyond `maxDepth` the value is not accepted. */
  nest(fn) {
    if (this.testDepth >= this.maxDepth) return false;
    this.testDepth++;
    try {
      return fn();
    } finally {
      this.testDepth--;
    }
  }

  /**
   * `test()`, the test of `x` by recursive definition `def` (a ref's target, or the
   * definition itself), one level deeper, as `nest` runs it, with its answers for objects
   * from MEMO_DEPTH levels down kept (`memo`, by definition and value) until the outermost
   * such test returns. A union tries its variants in turn, each walking the value again,
   * so a value tested through a union whose variants both recur cost about 2^depth tests:
   * an encode of `{ v: <itself> }`, its `v` a union of two variants holding the type, never
   * ended (fuzz seed 8404), nor did a chain of 40 of `{ a, t2: 'y' }` in a union of
   * `{ a, t1: 'x' }` and `{ a, t2: 'y' }`. A test passes at every depth above one it passed
   * at and fails at every depth below one it failed at (the depth only ever refuses), so
   * the deepest pass and the shallowest fail answer for every depth outside them.
   */
  nestTest(def, x, test) {
    const depth = this.testDepth;
    if (depth >= this.maxDepth) return false;
    // The outermost test (a test may run user code that encodes: its tests start at 0
    // again, with a table of their own) keeps the table it found, and puts it back.
    if (depth === 0) {
      const outer = this.memo;
      const calls = this.calls;
      this.memo = null;
      this.calls = 0;
      try {
        return this.nest(test);
      } finally {
        this.memo = outer;
        this.calls = calls;
      }
    }
    // What is known of `x` by `def`: the deepest depth it passed at, plus 1, in the low
    // 12 bits (0: none), and the shallowest it failed at, plus 1, above them (0: none).
    let perDef = null;
    let known = 0;
    if (++this.calls > MEMO_AFTER && depth >= MEMO_DEPTH && typeof x === 'object' && x !== null) {
      if (this.memo === null) this.memo = new Map();
      perDef = this.memo.get(def);
      if (perDef === undefined) this.memo.set(def, (perDef = new Map()));
      known = perDef.get(x) ?? 0;
      if (depth < (known & 4095)) return true;
      if (known >= 4096 && depth >= (known >> 12) - 1) return false;
    }
    const ok = this.nest(test);
    if (perDef !== null) {
      known = perDef.get(x) ?? 0;
      if (ok) {
        if (depth + 1 > (known & 4095)) perDef.set(x, (known & ~4095) | (depth + 1));
      } else if (known < 4096 || depth + 1 < known >> 12) perDef.set(x, (known & 4095) | ((depth + 1) << 12));
    }
    return ok;
  }

  target(d) {
    return this.refs.get(d);
  }

  pathOf(d) {
    return this.paths.get(d);
  }

  cached(kind, d, make) {
    let perKind = this.caches.get(kind);
    if (perKind === undefined) this.caches.set(kind, (perKind = new Map()));
    let v = perKind.get(d);
    if (v === undefined) perKind.set(d, (v = make(d)));
    return v;
  }

  index(d) {
    return this.cached('enum', d, (e) => new Map(e.values.map((v, k) => [v, k])));
  }

  tagIndex(d) {
    return this.cached('tags', d, tagIndex);
  }

  /** `x` of type `d` in its JSON form (docs/FORMAT.md, "JSON forms"). */
  toJson(d, x) {
    return def(d).toJson(d, x, this);
  }

  /** The value of type `d` that JSON form `j` stands for (`j` itself if none does). */
  fromJson(d, j) {
    return def(d).fromJson(d, j, this);
  }

  /** `fn()` one level deeper, or `fallback` past `maxDepth` (a cyclic value). */
  nestJson(fn, fallback) {
    if (this.testDepth >= this.maxDepth) return fallback;
    this.testDepth++;
    try {
      return fn();
    } finally {
      this.testDepth--;
    }
  }

  /** The value of default `d`, read once from its JSON form. */
  defaultValue(d) {
    return this.cached('default', d, () => this.fromJson(d.of, d.value));
  }

  /** The error for `x` at `path` breaking a constraint of `d` (its first one). */
  violation(path, d, x) {
    return violation(path, def(d).violations(d, x)[0]);
  }

  /**
   * Every issue of `value` (`codec.check`): an encode that records each value's error
   * and goes on with the next, on a tape of its own. In the order encode meets them (what
   * the native side checks comes last), or in schema order when `schemaOrder` (the order
   * decode meets them in a message).
   */
  issues(value, d = this.descriptor, schemaOrder = false, maxIssues = Infinity) {
    const c = new Encoder(this, new Float64Array(64), 0, '', []);
    c.scratch = true;
    c.issues = [];
    c.cap = maxIssues;
    if (schemaOrder) c.late = null;
    const depth = this.testDepth;
    this.testDepth = 0;
    let cut = false;
    try {
      c.put(d, value);
    } catch (e) {
      if (e !== CUT) throw e;
      cut = true;
    } finally {
      this.testDepth = depth;
    }
    const all = c.late === null ? c.issues : c.issues.concat(c.late);
    if (!cut && all.length <= maxIssues) return all;
    // Cut: the first `maxIssues` in the order they were found, and `cut` set on the list.
    const listed = all.slice(0, maxIssues);
    listed.cut = true;
    return listed;
  }

  // `depth`: the levels of recursion the value is in (generated code's `W.d`), which json
  // and recursive values inside it count on from.
  encoder(T, i, S, B, depth = 0) {
    const c = new Encoder(this, T, i, S, B);
    c.depth = depth;
    return c;
  }

  put(c, d, x) {
    c.put(d, x);
  }

  take(c, d) {
    return c.take(d);
  }

  /**
   * The error for a value no variant of union `d` accepts (see `unionError`), returned;
   * an error a user's getter throws meanwhile propagates. `depth`: the levels of
   * recursion the union is in (generated code's `W.d`). What this call threw is told
   * apart by an owner of its own: a getter's nested encode with this codec sets its own
   * owner's (fuzz seed 9311: with the marshaller as owner, the outer union took the
   * nested one's error for its own).
   */
  unionErrorOf(d, x, path, depth = 0) {
    const owner = { thrown: null, issues: null };
    try {
      this.unionError(d, x, path, depth, owner);
    } catch (e) {
      if (e === owner.thrown) return e;
      throw e;
    }
    return undefined;
  }

  /**
   * Throws the error for a value no variant of union `d` accepts: the variant's own error
   * (with its deeper path) when exactly one variant takes values of that kind, else one
   * naming every variant.
   */
  unionError(d, x, path, depth = 0, owner = null) {
    const kinds = d.variants.filter((v) => sameKind(v, x, this));
    if (kinds.length === 1) {
      // A scratch tape: this put only looks for its error. It starts at the depth of the
      // union, so a cyclic value still stops at maxDepth.
      const c = new Encoder(this, new Float64Array(64), 0, '', []);
      c.prefix = path.slice(1);
      c.scratch = true;
      c.depth = depth;
      // Looking for a variant's error: every check of its values is JS's, in place, and
      // every union's variants are tested in turn.
      c.late = null;
      c.testing = true;
      // Collecting for `check`: every issue of that variant, the first one thrown.
      if (owner !== null && Array.isArray(owner.issues)) {
        c.issues = [];
        c.cap = owner.room();
      }
      try {
        c.put(kinds[0], x);
      } catch (e) {
        if (owner !== null && e === c.thrown) owner.thrown = e;
        if (e !== CUT) throw e;
        // The variant alone found as many issues as the list has room for.
      }
      if (c.issues !== null && c.issues.length > 0) {
        // A loop, not push(...): a variant may have hundreds of thousands of issues (issue
        // 37, finding 7: a RangeError).
        for (let k = 1; k < c.issues.length; k++) owner.pending.push(c.issues[k]);
        throw (owner.thrown = c.issues[0]);
      }
    }
    const error = rt.invalid(path, d.variants.map((v) => this.expected(v)).join(' | '), x);
    error[ISSUE] = 'invalid_union';
    if (owner !== null) owner.thrown = error;
    throw error;
  }
}

// Whether `x` is of the kind of JS value that variant `d` takes (number, string, object,
// ...), whatever its details: for the error of a union.
function sameKind(d, x, m) {
  switch (d.type) {
    case 'literal':
    case 'null':
      return typeof x === typeof (d.type === 'null' ? null : d.value) && (x === null) === (d.type === 'null' || d.value === null);
    case 'recursive':
      return sameKind(d.schema, x, m);
    case 'ref':
      return sameKind(m.target(d), x, m);
    case 'nullable':
      return x === null || sameKind(d.of, x, m);
    default: {
      const probe = KIND_PROBES[d.type];
      return probe ? probe(x) : false;
    }
  }
}

const isNumber = (x) => typeof x === 'number';
const isObject = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);
const KIND_PROBES = {
  bool: (x) => typeof x === 'boolean',
  string: (x) => typeof x === 'string',
  enum: (x) => typeof x === 'string',
  int64: (x) => typeof x === 'bigint',
  uint64: (x) => typeof x === 'bigint',
  date: (x) => x instanceof Date,
  bytes: ArrayBuffer.isView,
  array: Array.isArray,
  tuple: Array.isArray,
  object: isObject,
  record: isObject,
  discriminatedUnion: isObject,
  map: (x) => x instanceof Map,
  json: () => false,
  union: () => false,
};
for (const t of ['uint8', 'uint16', 'uint32', 'int8', 'int16', 'int32', 'int', 'float32', 'float64']) KIND_PROBES[t] = isNumber;
for (const t of ['float64Array', 'float32Array', 'int32Array', 'uint32Array', 'int16Array', 'uint16Array', 'int8Array']) {
  KIND_PROBES[t] = ArrayBuffer.isView;
}

/** The state of one encode (or one hand-off from generated code). */
class Encoder {
  constructor(m, T, i, S, B) {
    this.m = m;
    this.T = T;
    this.i = i;
    // Strings: one concatenated string (S), or a list when they go as positional arguments.
    this.S = S;
    this.strings = null;
    this.B = B;
    // The path so far, rendered only on error: an index (a number) or a key (a string)
    // per level, after `prefix` (a path already rendered, without its `$`).
    this.prefix = '';
    this.segments = [];
    this.depth = 0;
    // A scratch encoder (for an error message) never touches the shared tape.
    this.scratch = false;
    // The last error this encoder threw: only that one is rebased onto a caller's path
    // (an error from a user's getter passes through unchanged).
    this.thrown = null;
    // For `check`: every value's error is recorded here and the encode goes on with the
    // next value (null: the first error is thrown); `pending` holds the other errors of
    // the value whose first error is being thrown.
    this.issues = null;
    this.pending = [];
    // Collecting: at most this many issues are listed; then the walk stops (CUT).
    this.cap = Infinity;
    // What the native side checks after JS (a string's native format, a lone surrogate):
    // for `check`, those issues, listed after all others as encode meets them
    // (docs/FORMAT.md, "Issues"). null: JS checks them in place (a union's error).
    this.late = [];
    // Unions put untested (`putVariant`) under way, and whether this walk tests each
    // union's variants in turn again (after one put untested found an issue).
    this.untested = 0;
    this.testing = false;
  }

  put(d, x, shown = d) {
    if (this.issues === null) {
      def(d).put(this, d, x, shown);
      return;
    }
    try {
      def(d).put(this, d, x, shown);
    } catch (e) {
      if (e !== this.thrown) throw e;
      this.issues.push(e);
      for (const p of this.pending) this.issues.push(p);
      this.pending = [];
      this.thrown = null;
      if (this.room() <= 0) throw CUT;
    }
  }

  /**
   * Collecting (`check`, `safeDecode`): how many more issues the list has room for
   * (`maxIssues`), counting those the native side would find (`late`).
   */
  room() {
    return this.cap - this.issues.length - this.pending.length - (this.late === null ? 0 : this.late.length);
  }

  /**
   * Lists `e`, an issue JS finds for the native side's check: with the native side's
   * (`late`) when encode order is kept, else in place; stops past `maxIssues`.
   */
  lateIssue(e) {
    (this.late ?? this.issues).push(e);
    if (this.room() <= 0) throw CUT;
  }

  /**
   * The error for `x` breaking constraints of `d` (when collecting, the others wait);
   * without a string's format when `format` is false (the native side checks it).
   */
  violated(d, x, format = true) {
    const at = this.path();
    const [first, ...rest] = def(d).violations(d, x, format);
    if (this.issues !== null) for (const broken of rest) this.pending.push(violation(at, broken));
    return (this.thrown = violation(at, first));
  }

  test(d, x) {
    return this.m.test(d, x);
  }

  variantByKind(d, x) {
    return this.m.variantByKind(d, x);
  }

  /**
   * Puts `x` by variant `k` of union `d` untested (the one of its kind: `variantByKind`), as
   * where its test passed, and returns true. A test walks the value below it, and a
   * recursive union's put tested each level's value: the JSON value as a schema checked
   * twitter at 85 a second, t.json() at ~1,400. Where that put finds any issue (an error,
   * or one listed: `check`), the outermost such put returns false with nothing of it kept,
   * and its union, and every one under it, tests its variants in turn (`testing`) for the
   * error or issues it gave before it put any untested; one inside another gives up at
   * once (ABORT), so that a value is put untested once and tested once at most (a cyclic
   * value through a union was tried again at every level, and took 2^maxDepth steps).
   */
  putVariant(d, k, x) {
    if (this.testing) return false;
    const { issues, pending, late } = this;
    const counts = [issues === null ? 0 : issues.length, pending.length, late === null ? 0 : late.length];
    const outermost = this.untested === 0;
    const before = outermost ? this.state() : null;
    this.untested++;
    let ok = false;
    try {
      this.write(k);
      this.put(d.variants[k], x);
      ok = (issues === null || issues.length === counts[0]) && pending.length === counts[1] && (late === null || late.length === counts[2]);
    } catch (e) {
      // (An error of the user's, a getter's, passes through.)
      if (e !== ABORT && e !== this.thrown && e !== CUT) throw e;
    } finally {
      this.untested--;
    }
    if (ok) return true;
    if (!outermost) throw ABORT;
    this.restore(before);
    return false;
  }

  /** What a put changes in this walk, for `restore`. */
  state() {
    const { strings, B, segments, issues, pending, late } = this;
    return {
      i: this.i,
      S: this.S,
      depth: this.depth,
      thrown: this.thrown,
      sizes: [strings === null ? 0 : strings.length, B === null ? 0 : B.length, segments.length, issues === null ? 0 : issues.length, pending.length, late === null ? 0 : late.length],
    };
  }

  restore(state) {
    const { strings, B, segments, issues, pending, late } = this;
    const sizes = state.sizes;
    this.i = state.i;
    this.S = state.S;
    this.depth = state.depth;
    this.thrown = state.thrown;
    if (strings !== null) strings.length = sizes[0];
    if (B !== null) B.length = sizes[1];
    segments.length = sizes[2];
    if (issues !== null) issues.length = sizes[3];
    pending.length = sizes[4];
    if (late !== null) late.length = sizes[5];
  }

  /** Runs `fn` with every union under it testing its variants in turn (`putVariant`). */
  tested(fn) {
    const testing = this.testing;
    this.testing = true;
    try {
      return fn();
    } finally {
      this.testing = testing;
    }
  }

  // Checked on every slot: simple, and this path is not the fast one.
  write(value) {
    if (this.i >= this.T.length) this.T = this.grow(this.i + 1);
    this.T[this.i++] = value;
  }

  write64(value, view) {
    if (this.i >= this.T.length) this.T = this.grow(this.i + 1);
    rt.view(this.T, view)[this.i++] = value;
  }

  grow(need) {
    if (!this.scratch) return rt.grow(this.T, need);
    const T = new Float64Array(Math.max(need, this.T.length * 2));
    T.set(this.T);
    return T;
  }

  string(x) {
    // The native side refuses lone surrogates on encode; `check` must say so itself. A
    // string's path, inside a json value too; a key's, its object's (`lonePath` gives
    // the core's error that path).
    if (this.issues !== null && !x.isWellFormed()) this.lateIssue(loneSurrogate(this.path(), x));
    if (this.strings !== null) this.strings.push(x);
    else if (x.length >= rt.LONG_STRING && !this.scratch) {
      // A long string is a chunk of its own, or in the Latin-1 list, as lib/runtime.js
      // says at LONG_STRING and longText.
      if (rt.longText(this.S, x) === 0) this.S = '';
      else {
        this.write(x.length + rt.LATIN1_SLOT);
        return;
      }
    } else {
      this.S += x;
      // In chunks, as lib/runtime.js says at TEXT_CHUNK; a scratch encode's text is
      // never sent.
      if (this.S.length > rt.TEXT_CHUNK) {
        if (!this.scratch) rt.cutText(this.S, this.i);
        this.S = '';
      }
    }
    this.write(x.length);
  }

  blob(x) {
    this.B.push(x);
  }

  /** The path so far, or of its first `n` segments. */
  path(n = -1) {
    let at = `$${this.prefix}`;
    const segments = this.segments;
    const end = n < 0 ? segments.length : n;
    for (let k = 0; k < end; k++) at += typeof segments[k] === 'number' ? `[${segments[k]}]` : pathKey(segments[k]);
    return at;
  }

  fail(shown, x) {
    return (this.thrown = rt.invalid(this.path(), this.m.expected(shown), x));
  }

  invalid(expected, x) {
    return (this.thrown = rt.invalid(this.path(), expected, x));
  }

  /** One level deeper into a recursive type or a json array or object. */
  enter(x) {
    if (this.depth >= this.m.maxDepth) {
      const at = this.path();
      const error = new ShornError(
        'ERR_SHORN_INVALID',
        `${at}: nested deeper than maxDepth (${this.m.maxDepth})${typeof x === 'object' && x !== null ? '; is the value cyclic?' : ''}`,
        { path: at },
      );
      error[ISSUE] = 'too_deep';
      throw (this.thrown = error);
    }
    this.depth++;
  }

  nest(fn) {
    return this.m.nest(fn);
  }

  nestTest(def, x, test) {
    return this.m.nestTest(def, x, test);
  }

  target(d) {
    return this.m.target(d);
  }

  index(d) {
    return this.m.index(d);
  }

  tagIndex(d) {
    return this.m.tagIndex(d);
  }

  unionError(d, x, path) {
    this.m.unionError(d, x, path, this.depth, this);
  }
}

// The error the native encoder gives for a lone surrogate (src/codec/error.rs), and its
// message's end.
const LONE = /: expected a well-formed string, found a lone surrogate at index \d+$/;
function loneSurrogate(path, x) {
  let k = 0;
  for (; k < x.length; k++) {
    const c = x.charCodeAt(k);
    if (c <= 0xdbff && c >= 0xd800 && (x.charCodeAt(k + 1) & 0xfc00) === 0xdc00) k++;
    else if ((c & 0xf800) === 0xd800) break;
  }
  return new ShornError('ERR_SHORN_INVALID', `${path}: expected a well-formed string, found a lone surrogate at index ${k}`, { path });
}

/**
 * The generic marshaller of `descriptor` (its `put` and `test` walks, JSON forms, caches);
 * with `overrides`, it decodes another schema's values (lib/evolve.js). The native back
 * end's functions over it are lib/native.js's, the JS back end's lib/js-backend.js's.
 */
function marshaller(descriptor, info, maxDepth, overrides = null) {
  const m = new Marshaller(descriptor, info, maxDepth);
  m.overrides = overrides;
  return m;
}

/** JSON forms of the types of `descriptor`, with no codec (for `t.default`). */
function jsonForms(descriptor) {
  const { analyze } = require('./walk');
  let info;
  try {
    info = analyze(descriptor);
  } catch {
    info = { refs: new Map(), paths: new Map() };
  }
  return new Marshaller(descriptor, info, 128);
}

module.exports = { marshaller, Marshaller, Encoder, jsonForms, loneSurrogate, ABORT };
