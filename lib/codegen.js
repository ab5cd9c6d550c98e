'use strict';
// Generates one schema's marshalling code: `marshal(value)` walks the value in schema
// order, checks each field and writes the tape (src/codec/tape.rs), then calls the native
// encoder; `decode(bytes)` calls the native decoder and builds the result from the tape.
// Each schema gets its own functions, so V8 sees one object shape per property access.
// This is the driver; what each type generates is in its module under lib/types/.

const { TYPES } = require('./types');
const { pathKey } = require('./errors');
const rt = require('#runtime');
const { emitTest, literalKey } = require('./emit-tests');
const { MAX_FUNCTION_NODES } = require('./walk');
const { lowering } = require('./lower');
const { sizesOf } = require('./inspect');
const small = require('./small');
const { LATER } = require('./small-text');
const { TAKE } = require('./take');
const { emitOverride } = require('./evolve-native');
const { PUT, PUT_ITEMS } = require('./put');

// A path as generated code: static text and loop variables, rendered as a JS expression
// only inside `throw` statements, so the happy path never builds a path string.
class PathExpr {
  constructor(parts) {
    this.parts = parts;
  }
  field(name) {
    return new PathExpr([...this.parts, pathKey(name)]);
  }
  /** An array index held in loop variable `variable`. */
  index(variable) {
    return new PathExpr([...this.parts, '[', { variable }, ']']);
  }
  /** A constant index (a tuple item, a Map entry's key or value). */
  item(k) {
    return new PathExpr([...this.parts, `[${k}]`]);
  }
  /** A record key held in variable `variable`. */
  key(variable) {
    return new PathExpr([...this.parts, { variable: `rt.pathKey(${variable})` }]);
  }
  code() {
    const out = [];
    for (const p of this.parts) {
      if (typeof p === 'string' && typeof out[out.length - 1] === 'string') out[out.length - 1] += p;
      else out.push(p);
    }
    return out.map((p) => (typeof p === 'string' ? JSON.stringify(p) : p.variable)).join(' + ');
  }
}

/** What type modules generate code with (see lib/types/*.js, `emit*`). */
class Generator {
  constructor(info) {
    this.info = info;
    this.layout = info.layout;
    this.constants = [];
    this.counter = 0;
    this.stringArg = 0;
    this.blobArg = 0;
    this.enc = [];
    this.dec = [];
    // Test functions for unions, one per descriptor, in the factory's scope.
    this.predicates = new Map();
    this.functions = [];
    // Large schemas are split into helper functions, one per distinct object shape
    // (see `put`); `inHelper` while one is being generated.
    this.split = info.split === true;
    this.helpers = new Map();
    this.inHelper = false;
    this.level = 0;
    // Writer node -> override, for a reader of another schema's bytes (lib/evolve.js).
    this.overrides = null;
    // Decoding a batch of frames, whose strings are all sliced from one text.
    this.batch = false;
    // Constructors of decoded objects ({ name, keys }), by their keys' JSON (`construct`).
    this.ctors = new Map();
    // Generating the decode of a small message, whose text is one string (`plainTake`).
    this.plain = false;
    // Whether a decode uses DT (`denseTest`).
    this.dense = false;
    // The JS read of a small message (`fastTake`): its statements, an estimate of the heap
    // its values take, and the decode limits it must respect.
    this.fast = null;
    this.fastCost = 0;
    this.limits = DEFAULT_LIMITS;
    // In a large schema, the JS read's functions for the variants of its unions (`readApart`).
    this.fastFunctions = [];
    // The JS write of a small message (`fastPut`): its statements, and whether it writes
    // floats (through the slab's DataView).
    this.wr = null;
    this.floats = false;
    // In a large schema, the JS write's functions for the variants of its unions
    // (`writeApart`).
    this.writeFunctions = [];
    // Functions that write a whole value in its bytes into the tape, by descriptor
    // (`rawWriter`), and their source, in the factory's scope.
    this.rawWriters = new Map();
    this.rawFunctions = [];
    // The schema being generated, and its lowering, made by the first JS read or write
    // (`op`).
    this.root = null;
    this.lowering = null;
    // The longest string a JS write takes (lib/small.js, `string`): no limit for a small
    // message; RAW_TEXT_MAX units for a record in the tape, whose longer text the native
    // side transcodes faster than a JS loop (docs/DESIGN.md, "JS writes a json value's
    // bytes").
    this.writeTextMax = Infinity;
    // The parts of a wide schema that generated code hands to the generic marshaller
    // (lib/walk.js, `analyze`), as it hands recursive and json values.
    this.handedOff = info.handedOff;
    // The descriptors put or taken in the function being generated, against
    // MAX_FUNCTION_NODES, and the path of the one it is for (`count`).
    this.nodes = 0;
    this.at = '$';
  }

  /** Counts a descriptor in the function being generated; TooWide past MAX_FUNCTION_NODES. */
  count() {
    if (++this.nodes > MAX_FUNCTION_NODES) throw new TooWide(this.at);
  }

  /**
   * The expression for a new plain object with `keys` (own data properties, in that
   * order) set to `values`: an object literal, or, in a decode whose text makes most of a
   * large message (D, set in decode's prologue), a call to a constructor whose prototype
   * is Object.prototype. V8 may choose to make a literal's objects in its old generation
   * (allocation-site pretenuring); objects there that hold young strings make every
   * scavenge copy and promote the text, which made gsoc-2018 decode 3-5x slower in some
   * processes. Constructors have no allocation site. They assign, so they run only while
   * Object.prototype has none of their keys (`rt.protoClean`, checked when D is set).
   */
  construct(keys, values) {
    const literal = `{ ${keys.map((k, j) => `${literalKey(k)}: ${values[j]}`).join(', ')} }`;
    // A fixed few strings (positional) are never in chunks; nor is a batch of frames' text.
    // A key Object.prototype has now (`__proto__`, `constructor`, ...) keeps its literal,
    // so that it does not turn constructors off for every other shape.
    if (this.plain || this.layout.positional || this.batch || keys.some((k) => k in rt.ObjectPrototype)) return literal;
    const id = JSON.stringify(keys);
    let ctor = this.ctors.get(id);
    if (ctor === undefined) {
      ctor = { name: `C${this.ctors.size}`, keys };
      this.ctors.set(id, ctor);
    }
    return `(D ? new ${ctor.name}(${values.join(', ')}) : ${literal})`;
  }

  /**
   * `DT ? new NewArray(n) : ` where a decode may take text-heavy large messages (DT, set in
   * decode's prologue as D is, without D's prototype test: arrays are made without
   * assignments), else nothing: the arrays that lib/types/array.js makes as literals (an
   * allocation site) are made without one there, as `construct` makes objects.
   */
  denseTest(n) {
    if (this.plain || this.layout.positional || this.batch) return '';
    this.dense = true;
    return `DT ? new NewArray(${n}) : `;
  }

  /** The declarations of the constructors `construct` made, and the keys they assign. */
  ctorSource() {
    const lines = [];
    const keys = new Set();
    for (const { name, keys: ks } of this.ctors.values()) {
      for (const k of ks) keys.add(k);
      const args = ks.map((_, j) => `a${j}`);
      lines.push(`function ${name}(${args.join(', ')}) { ${ks.map((k, j) => `this[${JSON.stringify(k)}] = a${j};`).join(' ')} }`, `${name}.prototype = rt.ObjectPrototype;`);
    }
    return { source: lines.join('\n'), keys: [...keys] };
  }

  constant(value) {
    this.constants.push(value);
    return `K[${this.constants.length - 1}]`;
  }

  fresh(prefix) {
    return `${prefix}${this.counter++}`;
  }

  /** A fresh name for each of `prefixes`, in order (`fresh`). */
  names(...prefixes) {
    return prefixes.map((prefix) => this.fresh(prefix));
  }

  expected(d) {
    return TYPES.get(d.type).expected(d, this);
  }

  slots(d) {
    // A hand-off makes its own room (`handOffPut`).
    return this.handedOff.has(d) ? 0 : TYPES.get(d.type).slots(d, this);
  }

  pathOf(d) {
    return this.info.paths.get(d);
  }

  defaultValue(d) {
    return this.G.defaultValue(d);
  }

  /** The statement that throws ERR_SHORN_INVALID for `x` at `path`, naming `shown`. */
  fail(path, shown, x) {
    return this.raise(`rt.invalid(${path.code()}, ${this.constant(this.expected(shown))}, ${x})`);
  }

  /** The statement that throws ERR_SHORN_INVALID for `x` breaking a constraint of `d`. */
  violated(path, d, x) {
    return this.raise(`G.violation(${path.code()}, ${this.constant(d)}, ${x})`);
  }

  /** The statement that throws error `expr`, tagged relative inside a helper. */
  raise(expr) {
    return this.inHelper ? `throw rt.relative(${expr});` : `throw ${expr};`;
  }

  /** Statements that grow the tape to `need` slots (and its 64-bit views). */
  grow(need) {
    return this.info.uses64
      ? `{ T = rt.grow(T, ${need}); TI = rt.view(T, 'TI'); TU = rt.view(T, 'TU'); }`
      : `T = rt.grow(T, ${need});`;
  }

  /** Makes sure `room` slots are free, after something of variable size. */
  room(room) {
    if (room > 0) this.enc.push(`if (i + ${room} > T.length) ${this.grow(`i + ${room}`)}`);
  }

  /** Passes string `x` to the native side; its length goes on the tape. */
  string(x) {
    if (this.layout.positional) {
      this.enc.push(`s${this.stringArg++} = ${x};`, `T[i++] = ${x}.length;`);
      return;
    }
    // A long string is a chunk of its own, or in the Latin-1 list (lib/runtime.js,
    // LONG_STRING and longText).
    const n = this.fresh('n');
    this.enc.push(
      `const ${n} = ${x}.length;`,
      `T[i++] = ${n};`,
      `if (${n} < ${rt.LONG_STRING}) { S += ${x}; if (S.length > ${rt.TEXT_CHUNK}) { rt.cutText(S, i); S = ''; } }`,
      `else if (rt.longText(S, ${x}) === 0) S = '';`,
      `else T[i - 1] = ${n} + ${rt.LATIN1_SLOT};`,
    );
  }

  /** Passes byte or typed array `x` to the native side. */
  blob(x) {
    this.enc.push(this.layout.positional ? `b${this.blobArg++} = ${x};` : `B.push(${x});`);
  }

  /** The expression for the next decoded string. */
  text() {
    // A message with one string field (outside arrays) gets that string whole: no slice.
    // A fixed few strings (positional) are one text; otherwise a negative slot is a wide
    // string of a large message, in its second text (X, from q; src/codec/text.rs). A batch
    // of frames (`generateFrames`) always has its text split, whatever the layout.
    // A large text comes in chunks: a slot below -CHUNK_SLOT opens the next chunk (M,
    // whose first element is the index of the next), of S, or of X below -2 * CHUNK_SLOT.
    if (this.layout.positional && !this.batch) return this.layout.strings === 1 ? '(i++, S)' : 'S.slice(p, p += T[i++])';
    // A small message, whose text is one string (`plainTake`).
    if (this.plain) return 'S.slice(p, p += T[i++])';
    // Helpers (a split schema) read the current chunks from W, set only at a switch: a
    // store per helper call would cost a write barrier each.
    // Below the chunk switches, a kept string's slot (lib/runtime.js, KEPT_SLOT): a repeat,
    // or the first, which is sliced and kept (the key, `a[b] = c`, is read before `c`);
    // the first of id 0 starts the call's table, of no prototype (an index setter on
    // Object.prototype would take a store into an array). Tested last: a test before the
    // common slice cost github_events decode 4%.
    const C = rt.CHUNK_SLOT;
    const K = rt.KEPT_SLOT;
    const [s, x] = this.split ? ['S = W.S', 'X = W.X'] : ['S', 'X'];
    const kept = `T[i] > -${4 * K} ? st.kept[-${3 * K} - T[i++]] : T[i] > -${4 * K + 32} ? (st.kept = { __proto__: null, 0: S.slice(p, p += -${4 * K} - T[i++]) })[0] : (st.kept[(-${4 * K} - T[i]) >>> 5] = S.slice(p, p += (-${4 * K} - T[i++]) & 31))`;
    return `(T[i] >= 0 ? S.slice(p, p += T[i++]) : T[i] > -${C} ? X.slice(q, q -= T[i++]) : T[i] > -${2 * C} ? (${s} = M[M[0]++], S.slice(0, p = -${C} - T[i++])) : T[i] > -${3 * C} ? (${x} = M[M[0]++], X.slice(0, q = -${2 * C} - T[i++])) : ${kept})`;
  }

  // Whether `d` gets a helper function of its own: in a large schema, an object below the
  // root with a few fields. V8 optimizes no function over ~60 KB of bytecode and takes
  // seconds over smaller but still large ones (github_events' encoder was never optimized,
  // twitter's decoder took 0.4-1.6 s); one function per object shape keeps each small,
  // and shapes used in several places (a `user` object) share theirs.
  helps(d, shown) {
    return this.split && this.level > 0 && d.type === 'object' && shown === d && d.fields.length >= 3;
  }

  helper(d) {
    // Shapes are shared by their text, except in a reader of another schema's bytes, where
    // two nodes of one text may be read as different reader types.
    const key = this.overrides === null ? JSON.stringify(d) : d;
    let h = this.helpers.get(key);
    if (h === undefined) {
      h = { name: this.fresh('h'), put: false, take: false };
      this.helpers.set(key, h);
    }
    return h;
  }

  // Runs `fn` with its own line buffer and helper state; returns the lines. `d`: the
  // descriptor of a helper function, whose descriptors are counted apart (`count`).
  inner(buffer, fn, d = null) {
    const saved = [this[buffer], this.inHelper, this.level, this.nodes, this.at];
    this[buffer] = [];
    this.inHelper = true;
    this.level = 1;
    if (d !== null) [this.nodes, this.at] = [0, this.pathOf(d)];
    try {
      fn();
      return this[buffer];
    } finally {
      [this[buffer], this.inHelper, this.level, this.nodes, this.at] = saved;
    }
  }

  // `inline`: in the current function even where `d` would get a helper (a definition's
  // body).
  put(d, x, path, room, shown = d, inline = false) {
    this.count();
    if (this.handedOff.has(d)) {
      this.handOffPut(d, x, path);
      this.room(room);
      return;
    }
    if (!inline && this.helps(d, shown)) return this.putHelper(d, x, path, room);
    this.level++;
    this.putOwn(d, x, path, room, shown);
    this.level--;
  }

  /**
   * The tape write of `x` as a `d` by its operation of the lowering (lib/put.js), with no
   * hand-off or helper of its own.
   */
  putOwn(d, x, path, room, shown) {
    const op = this.op(d);
    PUT[op.op](this, op, x, path, room, shown);
  }

  /**
   * The loop over the `n` items of array `x` of descriptor `d`, written by its item type
   * at once where the type has a loop of its own (lib/put.js, PUT_ITEMS: json); false
   * where not, and the array writes its items one by one.
   */
  putItems(d, x, n, path) {
    const op = this.op(d.items);
    const emit = PUT_ITEMS[op.op];
    if (emit === undefined || this.layout.positional || this.handedOff.has(d.items)) return false;
    this.count();
    emit(this, op, x, n, path);
    return true;
  }

  // A call of `d`'s put function, made once: `body` is what it writes of `d`, whose
  // fixed part takes `slots` slots (`putOwn` of `d` itself, by default).
  putHelper(d, x, path, room, body = null, slots = this.slots(d)) {
    const h = this.helper(d);
    if (!h.put) {
      h.put = true;
      const lines = this.inner('enc', () => {
        this.enc.push(`if (i + ${slots} > T.length) ${this.grow(`i + ${slots}`)}`);
        if (body === null) this.putOwn(d, 'x', new PathExpr(['$']), slots, d);
        else body();
      }, d);
      const views = this.info.uses64 ? "let TI = rt.view(T, 'TI'); let TU = rt.view(T, 'TU');" : '';
      this.functions.push(`function put_${h.name}(x) {
  let T = W.T; let i = W.i; let S = W.S; const B = W.B;
  ${views}
  ${lines.join('\n  ')}
  W.T = T; W.i = i; W.S = S;
}`);
    }
    const e = this.fresh('e');
    this.enc.push(
      'W.T = T; W.i = i; W.S = S;',
      `try { put_${h.name}(${x}); } catch (${e}) { throw rt.rebaseRelative(${e}, ${path.code()}, ${this.inHelper}); }`,
      'T = W.T; i = W.i; S = W.S;',
    );
    if (this.info.uses64) this.enc.push("TI = rt.view(T, 'TI'); TU = rt.view(T, 'TU');");
    this.room(room);
  }

  /**
   * Emits the decoding of `d`; returns a name or an expression for its value. `inline`:
   * in the current function even where `d` would get a helper (a definition's body).
   */
  take(d, inline = false) {
    this.count();
    // (In a reader of another schema's bytes, the generic marshaller has the overrides too.)
    if (this.handedOff.has(d)) return this.handOffTake(d);
    const o = this.overrides === null ? undefined : this.overrides.get(d);
    if (o === undefined && !inline && this.helps(d, d)) return this.takeHelper(d);
    this.level++;
    const expr = o === undefined ? this.takeOwn(d) : emitOverride(o, this, d);
    this.level--;
    if (/^[A-Za-z_$][\w$]*$/.test(expr)) return expr;
    const v = this.fresh('v');
    this.dec.push(`const ${v} = ${expr};`);
    return v;
  }

  /**
   * The tape read of `d` by its operation of the lowering (lib/take.js), with no hand-off,
   * override or helper of its own: an expression for its value.
   */
  takeOwn(d) {
    const op = this.op(d);
    return TAKE[op.op](this, op);
  }

  // A call of `d`'s take function, made once: `emit` returns its value's expression.
  takeHelper(d, emit = () => this.takeOwn(d)) {
    const h = this.helper(d);
    if (!h.take) {
      h.take = true;
      let result;
      const body = this.inner('dec', () => {
        result = emit();
      }, d);
      const views = this.info.uses64 ? "const TI = rt.view(T, 'TI'); const TU = rt.view(T, 'TU');" : '';
      this.functions.push(`function take_${h.name}() {
  const T = W.T; let i = W.i; let S = W.S; let p = W.p; let X = W.X; let q = W.q; const M = W.M; const bytes = W.bytes;
  ${views}
  ${body.join('\n  ')}
  W.i = i; W.p = p; W.q = q;
  return ${result};
}`);
    }
    const v = this.fresh('v');
    this.dec.push('W.i = i; W.p = p; W.q = q;', `const ${v} = take_${h.name}();`, 'i = W.i; p = W.p; q = W.q; S = W.S; X = W.X;');
    return v;
  }

  /**
   * Decodes a value of the recursive definition `d` by a call of its function, made once
   * (each ref to `d` calls it too), which nests as deep as the message does: the native
   * decode has held that to maxDepth.
   */
  takeDefinition(d) {
    return this.takeHelper(d, () => this.take(d.schema, true));
  }

  /**
   * Encodes `x` as a value of the recursive definition `d` by a call of its function, made
   * once (each ref to `d` calls it too). Each call is a level of `maxDepth`, counted in
   * `W.d` (reset by each encode), as the generic marshaller counts them (`enter`): past it
   * the value is refused, so a cyclic value is an error, never a stack overflow.
   */
  putDefinition(d, x, path, room) {
    const slots = this.slots(d.schema);
    const body = () => {
      this.enc.push('if (W.d >= G.maxDepth) throw rt.relative(rt.tooDeep(x, G.maxDepth));', 'W.d++;');
      this.put(d.schema, 'x', new PathExpr(['$']), slots, d.schema, true);
      this.enc.push('W.d--;');
    };
    this.putHelper(d, x, path, room, body, slots);
  }

  /** A boolean expression: whether `x` is a valid value of `d`. */
  test(d, x) {
    return this.handedOff.has(d) ? `G.test(${this.constant(d)}, ${x})` : emitTest(this, d, x);
  }

  /**
   * A call of a generated test function for `d`, made once: `body(y, fail)` returns its
   * statements over argument `y`, `fail` being the statement that rejects.
   */
  predicate(d, x, body) {
    let name = this.predicates.get(d);
    if (name === undefined) {
      name = this.fresh('accepts');
      this.predicates.set(d, name);
      const lines = body('y', 'return false;');
      this.functions.push(`function ${name}(y) {\n  ${lines.join('\n  ')}\n  return true;\n}`);
    }
    return `${name}(${x})`;
  }

  /** Hands `x` at `path` to the generic marshaller (recursive types, json). */
  handOffPut(d, x, path) {
    const c = this.fresh('c');
    this.enc.push(
      `const ${c} = G.encoder(T, i, S, B${this.split ? ', W.d' : ''});`,
      `try { ${c}.put(${this.constant(d)}, ${x}); } catch (e) { if (e === ${c}.thrown) ${this.raise(`rt.rebase(e, ${path.code()})`)} throw e; }`,
      `T = ${c}.T; i = ${c}.i; S = ${c}.S;`,
    );
    if (this.info.uses64) this.enc.push("TI = rt.view(T, 'TI'); TU = rt.view(T, 'TU');");
  }

  /**
   * The statements that decode `d` from an input of under SPLIT_TEXT_MIN_INPUT bytes, whose
   * text is always one string (no wide text of its own, no chunks, no negative slots;
   * src/engine.rs): string slots are plain slices and objects literals, without the tests
   * for the other cases (`text`, `construct`). nestedEvent decode against the one body
   * (in-process A/B, 8 to 12 processes): 0.96x-0.97x of the time; batch100, citm_catalog,
   * twitter and github_events level (docs/DESIGN.md). A schema with helpers (split) or
   * hand-offs (`handsOff`) keeps the one body, whose helpers read the general cursors.
   */
  plainTake(d) {
    const dec = this.dec;
    this.dec = [];
    this.plain = true;
    const result = this.take(d);
    this.plain = false;
    const body = this.dec;
    this.dec = dec;
    return `if (n$ < ${rt.SPLIT_TEXT_MIN_INPUT}) {
    let p = 0;
    st.busy = true;
    try {
      ${body.join('\n      ')}
      return ${result};
    } finally {
      st.busy = false;
    }
  }`;
  }

  /**
   * The JS read of a message of at most SET_INPUT bytes, or '' where the schema has a
   * type without one (lib/small.js, READ). Such a message (person's 8 bytes,
   * nestedEvent's 61) is read by JS from the caller's bytes, with no native call, where
   * every value is in the form small values of its type take: varints of up to 32 bits (an
   * int's and a date's up to 2^53 - 1),
   * ASCII strings of up to 16 characters, floats, bool bytes 0 or 1, enum indexes in range,
   * literals, optional, nullable and default values, unions, tuples, arrays and objects of
   * these. Anything else (a longer varint, other text, any fault, bytes left over) gives
   * up the JS read (`break fast`) and the native decode
   * reads the message, as it reads every other: it alone reports errors, so they are the
   * same either way. The values are the ones the native decode gives
   * (__test__/small.test.js decodes random and mutated messages both ways). Constrained
   * values are checked by the JS read as encode checks them (bounds, lengths, patterns,
   * formats), and one that breaks them gives up the JS read. Schemas with other types
   * (bytes, counted arrays), and readers of another schema's bytes, have no JS read; nor
   * do limits that a small message could reach, nor schemas whose JS read would be more
   * than FAST_SOURCE_MAX of source. After a large decode or a grown
   * tape (`st.grown`, lib/base.js) the next small message goes natively, which gives
   * back the memory. docs/DESIGN.md, "Small messages read in JS", has the measurements.
   */
  fastTake(d) {
    this.fast = [];
    this.fastCost = 0;
    this.fastFunctions = [];
    const root = this.op(d);
    // On the JS back end (`limits.anyText`, lib/small-text.js `smallTextLater`), the strings
    // of the message's object whose text is left in the scratch (numbers until `laterText`).
    this.laterRoot = this.limits.anyText === true ? root : null;
    this.laterField = null;
    this.laterVars = [];
    const result = this.read(root);
    const body = this.fast;
    this.fast = null;
    // Twice the estimate (docs/FORMAT.md, "The decode budget", counts less for these
    // values) within maxDecodedBytes: then the native decode never stops at the budget.
    if (result === null || this.fastCost * 2 > this.limits.budget || tooLarge(body)) return '';
    const later = this.laterText();
    // A read given up late costs a message most of a JS read on top of the native decode
    // (~1.2x the time, for a schema whose last string is long or not ASCII); so after one
    // is given up, the next 1, 2, 4, ... 64 (while they keep being given up) skip it.
    return `if (n$ <= ${rt.SET_INPUT} && !st.grown) {
    if (skip$ === 0) {
      fast: {
        let o$ = 0;
        ${body.join('\n        ')}
        if (o$ === n$) {
          if (backoff$ !== 1) backoff$ = 1;
          ${later.text}
          return ${result};
        }
      }
      ${later.reset}
      skip$ = backoff$;
      if (backoff$ < 64) backoff$ *= 2;
    } else skip$--;
  }`;
  }

  /**
   * The JS write of a small message, or '' where the schema has a type without one
   * (lib/small.js, WRITE). A message of at most WRITE_MAX bytes (person's 8,
   * nestedEvent's 61) is written by JS straight into a slab of its own (`rt.writer`), with
   * no tape and no native call, when every value in it is valid and in the form small
   * values take: integers (and dates) within 2^52, ASCII strings, floats other than NaN,
   * bools, enums, literals, optional, nullable and default values, unions, tuples, arrays
   * and objects of these. Anything else (an invalid value, other text, a message that
   * grows past WRITE_MAX) gives up the JS write (`break write`), and `marshal` and the native encoder take the value from
   * the start, as they take every other: they alone report errors, so errors cannot
   * differ, and __test__/small.test.js requires the bytes of both ways to be identical.
   * `encodeInto` writes the same way, then copies the message into its target and gives
   * the slab space back. Returns the two blocks, `encode`'s and `encodeInto`'s.
   * A value whose JS write is given up has the fields read so far read again (getters run
   * twice), as a union's variant tests already may. After one is given up, the next 1, 2,
   * 4, ... 64 (while they keep being given up) skip it, as for the JS read. A JS write of
   * more than FAST_SOURCE_MAX of source is left out, as a JS read is.
   */
  fastPut(d) {
    this.wr = [];
    this.floats = false;
    this.writeFunctions = [];
    const ok = this.write(this.op(d), 'v');
    const body = this.wr;
    this.wr = null;
    if (!ok || tooLarge(body)) return { encode: '', encodeInto: '' };
    const written = `if (w$.pos === e$ && w$.buf === buf$) w$.pos = o;
      if (backoffW$ !== 1) backoffW$ = 1;
      return new OutBuffer(buf$, s$, o - s$);`;
    // `encodeInto` copies the message into the target and gives its slab space back; a
    // target without room for it gives up, and the native encode throws ERR_SHORN_BUFFER.
    const copied = `const n$ = o - s$;
      if (n$ > rt.inputLength(target) - at) break write;
      for (let j = 0; j < n$; j++) target[at + j] = U[s$ + j];
      if (w$.pos === e$ && w$.buf === buf$) w$.pos = s$;
      if (backoffW$ !== 1) backoffW$ = 1;
      return n$;`;
    return { encode: this.writeBlock(body, written), encodeInto: this.writeBlock(body, copied) };
  }

  /** The JS write of `fastPut`, then `ending` once the message is written. */
  writeBlock(body, ending) {
    return `if (st.bigEncode) {
    // The next encode is native (see rt.state.bigEncode).
  } else if (skipW$ === 0) {
    const w$ = rt.writer;
    let o = w$.pos;
    if (o > w$.last || w$.U.length === 0) o = rt.newWriteSlab();
    const U = w$.U;
    const buf$ = w$.buf;
    ${this.floats ? 'const DV = w$.DV;' : ''}
    const s$ = o;
    const e$ = o + ${rt.WRITE_MAX};
    w$.pos = e$;
    write: {
      ${body.join('\n      ')}
      if (o > e$ || U.length === 0) break write;
      ${ending}
    }
    if (w$.pos === e$ && w$.buf === buf$) w$.pos = s$;
    skipW$ = backoffW$;
    if (backoffW$ < 64) backoffW$ *= 2;
  } else skipW$--;`;
  }

  /**
   * Emits the JS write of `x` as operation `op` of the lowering (`fastPut`, lib/small.js);
   * false if it has none.
   */
  write(op, x) {
    const write = small.WRITE[op.op];
    return write !== undefined && !this.handedOff.has(op.d) && write(this, op, x) === true;
  }

  /**
   * The operation of descriptor `d` in the schema's lowering (lib/lower.js), over which
   * the tape's write and read (lib/put.js, lib/take.js) and the JS read and write of small
   * messages (lib/small.js) are generated; the lowering is made on first use, for the
   * schema being generated (`root`).
   */
  op(d) {
    if (this.lowering === null) this.lowering = lowering(this.G, sizesOf(this.root, this.info.refs));
    return this.lowering.node(d);
  }

  /**
   * Writes integer `x` as a zigzag varint of 64 bits (`fastPut`): within 32 bits by bit
   * operations, beyond by division, up to magnitude 2^52 (further, the zigzag value is no
   * longer exact in a double, and the JS write gives up).
   */
  writeZigzag(x) {
    const z = this.fresh('z');
    this.wr.push(
      `let ${z};`,
      `if ((${x} | 0) === ${x}) ${z} = ((${x} << 1) ^ (${x} >> 31)) >>> 0;`,
      'else {',
      `if (!(${x} <= ${2 ** 52} && ${x} >= -${2 ** 52})) break write;`,
      `${z} = ${x} < 0 ? -2 * ${x} - 1 : 2 * ${x};`,
      `while (${z} > 4294967295) { U[o++] = (${z} % 128) | 128; ${z} = Math.floor(${z} / 128); }`,
      '}',
    );
    // What is left is within 32 bits.
    this.writeVarint(z);
  }

  /**
   * The JS write of `x` as operation `op`, as `write`, in a function of its own (`fastPut`
   * of a large schema, for each variant of a union; see `readApart`). The function writes at
   * `o` and returns where it ended, or -1 where it gives up. A variant with no JS write, or
   * whose write alone would be over FAST_SOURCE_MAX, gives it up for its own values only.
   */
  writeApart(op, x) {
    const [outerFloats, functions] = [this.floats, this.writeFunctions.length];
    this.floats = false;
    let ok = false;
    const body = this.inner('wr', () => {
      ok = this.write(op, 'x');
    });
    // The function reads the DataView itself; the caller's block need not.
    const floats = this.floats;
    this.floats = outerFloats;
    if (!ok || tooLarge(body)) {
      this.writeFunctions.length = functions;
      this.wr.push('break write;');
      return true;
    }
    const name = this.fresh('fw');
    this.writeFunctions.push(`function ${name}(x, w$, U, o, e$) {
  ${floats ? 'const DV = w$.DV;' : ''}
  write: {
    ${body.join('\n    ')}
    return o;
  }
  return -1;
}`);
    const end = this.fresh('o');
    this.wr.push(`const ${end} = ${name}(${x}, w$, U, o, e$);`, `if (${end} < 0) break write;`, `o = ${end};`);
    return true;
  }

  /**
   * The name of a function that writes a whole `d` in its bytes on the wire, as the JS
   * write of small messages writes it (lib/small.js): `(x, w$, U, o, e$)` writes at `o` of
   * byte array `U`, never a float past `e$` (`w$.DV` is U's DataView), and returns where
   * it ended, or -1 where it gives up (an invalid value, text not ASCII, past `e$`). For
   * a record written into the tape (lib/types/record.js). Null where `d` has no JS write,
   * or one over FAST_SOURCE_MAX.
   */
  rawWriter(d) {
    if (this.overrides !== null || this.handedOff.has(d)) return null;
    let name = this.rawWriters.get(d);
    if (name !== undefined) return name;
    const saved = [this.wr, this.floats, this.writeFunctions, this.writeTextMax];
    this.wr = [];
    this.floats = false;
    this.writeFunctions = [];
    this.writeTextMax = RAW_TEXT_MAX;
    let ok = false;
    let body;
    let floats;
    let functions;
    try {
      ok = this.write(this.op(d), 'x');
      [body, floats, functions] = [this.wr, this.floats, this.writeFunctions];
    } finally {
      [this.wr, this.floats, this.writeFunctions, this.writeTextMax] = saved;
    }
    name = !ok || tooLarge(body) ? null : this.fresh('rw');
    this.rawWriters.set(d, name);
    if (name === null) return null;
    this.rawFunctions.push(
      ...functions,
      `function ${name}(x, w$, U, o, e$) {
  ${floats ? 'const DV = w$.DV;' : ''}
  write: {
    ${body.join('\n    ')}
    if (o > e$) break write;
    return o;
  }
  return -1;
}`,
    );
    return name;
  }

  /**
   * Writes string expression `x` as its length and its chars, all ASCII (`fastPut`,
   * `rawWriter`): one of more than `max` units, past `e$` or with another char gives the
   * JS write up.
   */
  writeAscii(x, max = Infinity) {
    const n = this.fresh('n');
    const k = this.fresh('k');
    const c = this.fresh('c');
    this.wr.push(`const ${n} = ${x}.length;`, `if (${n} > ${max === Infinity ? 'e$ - o' : `e$ - o || ${n} > ${max}`}) break write;`);
    this.writeVarint(n);
    this.wr.push(`for (let ${k} = 0; ${k} < ${n}; ${k}++) {`, `const ${c} = ${x}.charCodeAt(${k});`, `if (${c} > 127) break write;`, `U[o++] = ${c};`, '}');
  }

  /** Writes unsigned 32-bit integer expression `x` as a varint (`fastPut`). */
  writeVarint(x) {
    const w = this.fresh('w');
    this.wr.push(`let ${w} = ${x};`, `while (${w} > 127) { U[o++] = (${w} & 127) | 128; ${w} >>>= 7; }`, `U[o++] = ${w};`);
  }

  /**
   * The statements that forget, where the JS read of a small message (`fastTake`) is
   * given up, what it left in the scratch (`reset`), and that make, once it is read, the strings
   * whose text it left there (`text`: `laterVars`, lib/small-text.js `smallTextLater`): one
   * string of it all, and a slice of it each.
   */
  laterText() {
    if (this.laterVars.length === 0) return { reset: '', text: '' };
    const L = this.constant(LATER);
    const left = this.laterVars.map((s) => `typeof ${s} === 'number'`);
    const take = this.laterVars.map((s, k) => `if (${left[k]}) ${s} = ${L}.take(t$, ${s});`);
    return { reset: `if (${L}.n !== 0) ${L}.reset();`, text: `if (${left.join(' || ')}) { const t$ = ${L}.text(); ${take.join(' ')} }` };
  }

  /**
   * The JS read of operation `op` (`fastTake`, lib/small.js): an expression, or null if it
   * has none.
   */
  read(op) {
    const read = small.READ[op.op];
    return read === undefined || this.handedOff.has(op.d) ? null : read(this, op);
  }

  /**
   * The JS read of operation `op` as `read`, in a function of its own (`fastTake` of a large schema,
   * for each variant of a union): V8 optimizes no function over ~60 KB of bytecode, and
   * a union of many message types read inline made one (github_events' was 174 KB of
   * source). The function reads from `o$` and returns the value, leaving its end in `fo$`,
   * or returns GIVE_UP$ where the read is given up. Where `op` has no JS read, or its read
   * alone would be over FAST_SOURCE_MAX, its messages give the JS read up (github_events'
   * ForkEvent, whose repository has 60 fields), and the other variants keep theirs.
   */
  readApart(op) {
    const [cost, functions] = [this.fastCost, this.fastFunctions.length];
    let x = null;
    const body = this.inner('fast', () => {
      x = this.read(op);
    });
    if (x === null || tooLarge(body)) {
      this.fastCost = cost;
      this.fastFunctions.length = functions;
      this.fast.push('break fast;');
      return 'undefined';
    }
    const name = this.fresh('fr');
    this.fastFunctions.push(`function ${name}(bytes, n$, o$) {
  fast: {
    ${body.join('\n    ')}
    fo$ = o$;
    return ${x};
  }
  return GIVE_UP$;
}`);
    const v = this.fresh('r');
    this.fast.push(`const ${v} = ${name}(bytes, n$, o$);`, `if (${v} === GIVE_UP$) break fast;`, 'o$ = fo$;');
    return v;
  }

  /** A variable holding the next byte of the input (`fastTake`). */
  readByte() {
    const b = this.fresh('r');
    this.fast.push('if (o$ >= n$) break fast;', `const ${b} = bytes[o$++];`);
    return b;
  }

  /**
   * A variable holding the next varint of at most 32 bits: one or two bytes here, more by
   * `rt.varint32At` (a call for every two-byte varint made person decode ~4% slower).
   */
  readVarint() {
    const v = this.fresh('r');
    this.fast.push(
      'if (o$ >= n$) break fast;',
      `let ${v} = bytes[o$++];`,
      `if (${v} > 127) {`,
      `  const b$ = o$ < n$ ? bytes[o$] : 0;`,
      `  if (b$ !== 0 && b$ < 128) { ${v} = (${v} & 127) | (b$ << 7); o$++; }`,
      `  else { const x$ = rt.varint32At(bytes, o$ - 1, n$); if (x$ < 0) break fast; ${v} = Math.floor(x$ / 8); o$ += (x$ & 7) - 1; }`,
      '}',
    );
    return v;
  }

  /**
   * A variable holding the next varint of up to 2^53 - 1 (`fastTake`, an int's or a date's
   * zigzag value): one byte inline, more by `rt.varint53At`, then its bytes skipped.
   */
  readVarint53() {
    const v = this.fresh('r');
    this.fast.push(
      'if (o$ >= n$) break fast;',
      `let ${v} = bytes[o$++];`,
      `if (${v} > 127) {`,
      `  ${v} = rt.varint53At(bytes, o$ - 1, n$);`,
      `  if (${v} < 0) break fast;`,
      '  while (bytes[o$++] > 127);',
      '}',
    );
    return v;
  }

  handOffTake(d) {
    const c = this.fresh('c');
    const v = this.fresh('v');
    this.dec.push(`const ${c} = G.decoder(T, i, S, p, bytes, X, q, M);`, `const ${v} = ${c}.take(${this.constant(d)});`, `i = ${c}.i; p = ${c}.p; q = ${c}.q;`, this.split ? `if (${c}.S !== S) S = W.S = ${c}.S; if (${c}.X !== X) X = W.X = ${c}.X;` : `S = ${c}.S; X = ${c}.X;`);
    return v;
  }
}

// The most source the JS read or write of small messages (`fastTake`, `fastPut`) may
// take; a schema whose would be larger has none. Neither is split into helpers as the
// rest is (`helps`), and V8 optimizes no function of more than ~60 KB of bytecode (about
// 0.76 byte a character of this code): github_events' JS read alone was 174 KB of source,
// and its decode ran unoptimized for every message, large or small. 32 K characters is a
// union of ~11 message types of 7 fields (__test__/optimize.test.js).
const FAST_SOURCE_MAX = 32 * 1024;
// The longest string a record written into the tape takes (`rawWriter`); a longer one makes
// it go by tokens.
const RAW_TEXT_MAX = 16;

/** Whether statements `body` are more source than FAST_SOURCE_MAX. */
function tooLarge(body) {
  let length = 0;
  for (const line of body) length += line.length + 1;
  return length > FAST_SOURCE_MAX;
}

/**
 * A function over MAX_FUNCTION_NODES (lib/walk.js) that `analyze` did not foresee: the
 * parts it hands off keep every function within it, so this is a safety net, not a path
 * any schema the tests know takes. An EvalError, as code generation that is not allowed
 * is: `compile` uses the generic marshaller for the whole schema instead, or, given
 * `codegen: true`, refuses it with ERR_SHORN_SCHEMA and this message.
 */
class TooWide extends EvalError {
  constructor(path) {
    super(`the schema is too wide for generated code: ${path} puts more than ${MAX_FUNCTION_NODES} descriptors in one generated function, past what V8 runs safely`);
    this.name = 'TooWide';
  }
}

// The decode limits a generated decode's JS read respects (`fastTake`): those of
// `compile`'s options, or these defaults.
const DEFAULT_LIMITS = { maxStringBytes: -1, maxArrayLength: -1, budget: Infinity };

// Generated decoders' text cursors: S from p, and a large message's (or batch's) wide
// strings from X and q, in their own text when it has Latin-1 ones too, and M, the
// further chunks of a text in chunks (src/codec/text.rs, TextBuffer; set natively as
// state.wide and state.more and taken at once).
const WIDE_TEXT = `let p = 0;
  let X = S;
  let q = 0;
  let M = null;
  if (st.wide !== null) {
    X = st.wide;
    st.wide = null;
    if (st.more !== null) {
      M = st.more;
      st.more = null;
    }
  }`;

function generate(descriptor, info, G, overrides = null, limits = DEFAULT_LIMITS) {
  const g = new Generator(info);
  g.G = G;
  g.overrides = overrides;
  g.limits = limits;
  g.root = descriptor;
  const { layout } = info;
  const minimum = g.slots(descriptor);
  g.put(descriptor, 'v', new PathExpr(['$']), minimum);
  // `decode` is a function of its own (its two bodies, `plainTake`'s and the other, count
  // together); `decodeFrames` takes as the second, so it holds no more.
  g.nodes = 0;
  const args = [];
  const decls = [];
  if (layout.positional) {
    for (let s = 0; s < layout.strings; s++) args.push(`s${s}`);
    for (let b = 0; b < layout.blobs; b++) args.push(`b${b}`);
    if (layout.strings) decls.push(`let ${args.slice(0, layout.strings).map((a) => `${a} = ''`).join(', ')};`);
    if (layout.blobs) decls.push(`let ${args.slice(layout.strings).join(', ')};`);
  } else {
    decls.push("let S = '';");
    args.push('st.chunks.length === 0 && st.textBase < 0 && st.latin1 === null ? S : rt.chunkedText(S)');
    // No byte-array fields, no array to allocate per call.
    if (layout.blobs) {
      decls.push('const B = [];');
      args.push('B');
    } else if (info.handsOff || g.split) {
      decls.push('const B = undefined;');
    }
  }
  // Only recursive and json types count test depth (lib/generic.js, testDepth).
  const depth = info.handsOff;
  const views64 = info.uses64 ? "let TI = rt.view(T, 'TI'); let TU = rt.view(T, 'TU');" : '';
  const result = g.take(descriptor);
  const plain = layout.positional || g.split || info.handsOff ? '' : g.plainTake(descriptor);
  const fast = overrides === null ? g.fastTake(descriptor) : '';
  const fastW = overrides === null && !info.handsOff ? g.fastPut(descriptor) : { encode: '', encodeInto: '' };
  let fastState = fast === '' ? '' : '// The JS read of small messages is skipped for the next skip$ messages (`fastTake`).\nlet skip$ = 0;\nlet backoff$ = 1;';
  if (fast !== '' && g.fastFunctions.length !== 0) {
    fastState += `\n// The JS read's functions for union variants (\`readApart\`): where one ended, and what
// one returns when it gives up.
let fo$ = 0;
const GIVE_UP$ = {};
${g.fastFunctions.join('\n')}`;
  }

  // In `marshal`'s finally: a tape grown for a huge message is kept while messages that
  // large keep coming, and given back after the first call that needs less than a quarter
  // of it (decode does the same natively: src/binding.rs, decode_bytes).
  const ctors = g.ctorSource();
  const dense = g.ctors.size === 0 ? '' : `dense$ && rt.protoClean(${g.constant(ctors.keys)})`;
  const source = `'use strict';
const NewArray = rt.NewArray;
${fastState}
${fastW.encode === '' ? '' : '// The JS write of small messages is skipped for the next skipW$ values (`fastPut`).\nconst OutBuffer = rt.OutBuffer;\nlet skipW$ = 0;\nlet backoffW$ = 1;'}
${fastW.encode === '' ? '' : g.writeFunctions.join('\n')}
${g.ctors.size === 0 ? '' : `let D = false;\n${ctors.source}`}
${g.dense ? 'let DT = false;' : ''}
${g.split ? `const W = { T: null, i: 0, S: "", B: null, p: 0, X: "", q: 0, M: null, bytes: null, d: 0 };
// A call from user code (a getter) while this codec's helpers run uses W too: the outer
// call's W is put back after it.
function reenter(fn, arg) {
  const saved = { ...W };
  try {
    return rt.reenter(fn, arg);
  } finally {
    Object.assign(W, saved);
  }
}` : 'const reenter = rt.reenter;'}
${g.functions.join('\n')}
${g.rawFunctions.join('\n')}
function marshal(v) {
  if (st.busy) return reenter(marshal, v);
  st.busy = true;
  ${fastW.encode === '' ? '' : 'st.bigEncode = true;'}
  ${depth ? 'const depth = G.testDepth;\n  G.testDepth = 0;' : ''}
  let T = st.tape;
  ${views64}
  let i = 0;
  try {
    if (T.length < ${minimum}) ${g.grow(minimum)}
    ${decls.join('\n    ')}
    ${g.split ? 'W.B = B; W.d = 0;' : ''}
    ${g.enc.join('\n    ')}
    // A slab detached from under us (ArrayBuffer#transfer on Node 22) is replaced first.
    if (st.out.byteLength === 0) rt.checkBuffers();
    return nat.encode(${args.join(', ')});
  } catch (e) {
    // A union's error left to be made once (rt.PendingUnion)${info.json ? '; a lone surrogate in a json value: at its own path (Marshaller#lonePath)' : ''}.
    throw ${info.json ? 'G.lonePath(rt.settle(e, G), v)' : 'rt.settle(e, G)'};
  } finally {
    st.busy = false;
    ${depth ? 'G.testDepth = depth;' : ''}
    ${layout.positional ? '' : 'if (st.chunks.length !== 0 || st.textBase >= 0 || st.latin1 !== null) rt.endText();'}
    if (T.length > ${rt.KEEP_TAPE_SLOTS} && i * 4 < T.length) rt.shrink();
  }
}
function decode(bytes) {
  if (st.busy) return reenter(decode, bytes);
  // See lib/runtime.js, decodeCall: the same, inline.
  const n$ = rt.inputLength(bytes);
  if (n$ < 0) throw rt.notBytes(bytes);
  ${fast}
  let S;
  if (n$ <= ${rt.SMALL_INPUT}) {
    const I = st.input;
    I[0] = n$;
    for (let j = 0; j < n$; j++) I[j + 1] = bytes[j];
    S = nat.decodeInput();
    st.grown = false;
    if (S === undefined) S = rt.areaText();
  } else if (n$ <= ${rt.SET_INPUT}) {
    const I = st.input;
    I[0] = n$;
    rt.typedArraySet.call(I, bytes, 1);
    S = nat.decodeInput();
    st.grown = false;
    if (S === undefined) S = rt.areaText();
  } else {
    if (n$ >= ${rt.GROWN_INPUT}) st.grown = true;
    S = nat.decode(bytes);
  }
  const T = st.tape;
  ${info.uses64 ? "const TI = rt.view(T, 'TI'); const TU = rt.view(T, 'TU');" : ''}
  let i = 0;
  ${plain}
  ${layout.positional ? '// A fixed few strings are one text (as `text()` reads them): no wide text, no chunks.\n  let p = 0;' : WIDE_TEXT}
  ${g.ctors.size === 0 && !g.dense ? '' : 'const dense$ = M !== null && rt.denseText(S, X, M, bytes);'}
  ${g.ctors.size === 0 ? '' : `// (A decode from user code while this one builds values puts D back when it ends.)
  const outerD = D;
  D = ${dense};`}
  ${g.dense ? 'const outerDT = DT;\n  DT = dense$;' : ''}
  // While values are built, a call from user code (a prototype's setter, reached only
  // from a polluted prototype) takes a tape of its own, as during an encode: it cannot
  // overwrite the slots this decode still reads.
  st.busy = true;
  try {
    ${g.split ? 'W.T = T; W.S = S; W.X = X; W.M = M; W.bytes = bytes;' : ''}
    ${g.dec.join('\n    ')}
    return ${result};
  } finally {
    st.busy = false;
    ${g.ctors.size === 0 ? '' : 'D = outerD;'}
    ${g.dense ? 'DT = outerDT;' : ''}
  }
}
function encode(v) {
  ${fastW.encode}
  return rt.output(marshal(v));
}
function encodeInto(v, target, offset) {
  const at = rt.targetOffset(target, offset);
  ${fastW.encodeInto}
  return rt.outputInto(marshal(v), target, at);
}
return { encode, encodeInto, decode };
`;
  return { source, constants: g.constants };
}

// The source of `decodeFrames(bytes, start, maxFrameBytes, checksum, out, at)`: one
// native call decodes the whole, sound frames of `bytes` from `start` on (src/engine.rs,
// decode_frames: a header of 4 slots, then each message's slots, and one text for all),
// up to `at.budget` estimated heap bytes of values, and the values are built one after
// another into `out`; `at.end` is where the first frame not decoded starts, `at.more`
// whether the batch stopped only because it was full, `at.heap` the values' heap.
// Returns false, having done nothing, when called while this thread is marshalling (from
// a getter during an encode): the caller reads the frames one at a time instead.
// Generated on first use (lib/framing.js), so compile does not pay for it.
function generateFrames(descriptor, info, G, overrides = null) {
  const g = new Generator(info);
  g.G = G;
  g.overrides = overrides;
  g.batch = true;
  g.root = descriptor;
  const result = g.take(descriptor);
  const views64 = info.uses64 ? "const TI = rt.view(T, 'TI'); const TU = rt.view(T, 'TU');" : '';
  const source = `'use strict';
const NewArray = rt.NewArray;
${g.split ? 'const W = { T: null, i: 0, S: "", B: null, p: 0, X: "", q: 0, M: null, bytes: null };' : ''}
${g.functions.join('\n')}
function decodeFrames(bytes, start$, max$, checksum$, out$, at$) {
  if (st.busy) return false;
  let S = nat.decodeFrames(bytes, start$, max$, checksum$, at$.budget);
  st.grown = true;
  const T = st.tape;
  ${views64}
  const n$ = T[0];
  at$.end = T[1];
  at$.more = T[2] === 1;
  at$.heap = T[3];
  let i = 4;
  ${WIDE_TEXT}
  st.busy = true;
  try {
    ${g.split ? 'W.T = T; W.S = S; W.X = X; W.M = M; W.bytes = bytes;' : ''}
    for (let k$ = 0; k$ < n$; k$++) {
      ${g.dec.join('\n      ')}
      out$.push(${result});
    }
  } finally {
    st.busy = false;
  }
  return true;
}
return decodeFrames;
`;
  return { source, constants: g.constants };
}

function buildFrames(descriptor, info, nat, G, overrides = null) {
  const { source, constants } = generateFrames(descriptor, info, G, overrides);
  // eslint-disable-next-line no-new-func
  const factory = new Function('nat', 'rt', 'st', 'K', 'G', source);
  return factory(nat, rt, rt.state, constants, G);
}

// Builds the functions with `new Function`; throws where code generation is forbidden
// (a strict Content Security Policy, --disallow-code-generation-from-strings). `G` is the
// schema's generic marshaller, for the values generated code hands to it.
function build(descriptor, info, nat, G, overrides = null, limits = DEFAULT_LIMITS) {
  const { source, constants } = generate(descriptor, info, G, overrides, limits);
  // eslint-disable-next-line no-new-func
  const factory = new Function('nat', 'rt', 'st', 'K', 'G', source);
  const functions = factory(nat, rt, rt.state, constants, G);
  // The batch decoder of lib/framing.js, generated on its first call.
  let frames = null;
  functions.decodeFrames = (bytes, start, max, checksum, out, at) => {
    if (frames === null) frames = buildFrames(descriptor, info, nat, G, overrides);
    return frames(bytes, start, max, checksum, out, at);
  };
  return functions;
}

/**
 * The JS read and write of small messages alone (`fastTake`, `fastPut`), for the JS back
 * end (lib/js-backend.js) where code generation is allowed: the same generated code the
 * native back end runs before its native call, with the JS back end's closures in place
 * of that call. `{ decode(bytes, n$), encode(v), encodeInto(v, target, at) }`: decode
 * returns `SMALL_NONE` and encode null (encodeInto -1) where the JS read or write gives
 * up, and the caller decodes or encodes the message the JS back end's way, which alone
 * reports errors. Null when the schema has neither (a type without one). `L`: the
 * lowering to generate over (the JS back end's own), else one made here.
 * `limits.anyText`: text that is not short ASCII is read by the JS back end's reader of
 * it (lib/small-text.js), which the JS read then takes rather than give up on.
 */
const SMALL_NONE = Object.freeze({ none: true });
function buildSmall(descriptor, info, G, limits = DEFAULT_LIMITS, L = null) {
  const g = new Generator(info);
  g.G = G;
  // The JS back end's own lowering (lib/js-backend.js), made over the same marshaller.
  if (L !== null) g.lowering = L;
  g.overrides = null;
  g.limits = limits;
  g.root = descriptor;
  const fast = g.fastTake(descriptor);
  const fastW = info.handsOff ? { encode: '', encodeInto: '' } : g.fastPut(descriptor);
  if (fast === '' && fastW.encode === '') return null;
  const source = `'use strict';
const NewArray = rt.NewArray;
const OutBuffer = rt.OutBuffer;
let skip$ = 0;
let backoff$ = 1;
let skipW$ = 0;
let backoffW$ = 1;
let fo$ = 0;
const GIVE_UP$ = {};
${g.fastFunctions.join('\n')}
${g.writeFunctions.join('\n')}
${g.functions.join('\n')}
function decode(bytes, n$) {
  ${fast}
  return NONE;
}
function encode(v) {
  ${fastW.encode}
  return null;
}
function encodeInto(v, target, at) {
  ${fastW.encodeInto}
  return -1;
}
return { decode, encode, encodeInto };
`;
  // eslint-disable-next-line no-new-func
  const factory = new Function('nat', 'rt', 'st', 'K', 'G', 'NONE', source);
  return factory(null, rt, rt.state, g.constants, G, SMALL_NONE);
}

module.exports = { generate, generateFrames, build, buildSmall, SMALL_NONE, MAX_FUNCTION_NODES };
