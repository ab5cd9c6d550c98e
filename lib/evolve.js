'use strict';
// Schema evolution: reading bytes written with one schema (the writer's) as values of
// another (the reader's). docs/FORMAT.md, "Schema evolution", has the rules as a table.
//
// `plan(reader, writer)` pairs the two descriptors node by node. Where a writer node's
// decoded value is already a value of its reader node (same type, an integer read as a
// wider one, T read as nullable(T), ...), nothing changes: the writer's own decode builds
// it. Where it is not, the writer node gets an override: code that consumes the writer's
// tape for that node and builds the reader's value instead:
//   - object: fields matched by name; the writer's fields the reader lacks are read and
//     dropped; the reader's fields the writer lacks take their default (or stay absent
//     when optional); keys come out in the reader's order;
//   - enum: the writer's symbol, or the reader's default for a symbol it does not know;
//   - integer -> int64/uint64: the number as a bigint.
// Constraints (docs/FORMAT.md, "Constraints") change no bytes, so they never make two
// schemas incompatible; but a reader's constraints hold for the values it reads. Where a
// reader node has constraints its writer node does not have exactly (a reader's string of at
// most 100 code points reading a writer's unconstrained string), the plan says so
// (`checks`), and the reader checks every value it reads against its own schema.
// The resolved decode runs the writer's native program (so the writer's bytes and limits
// are checked exactly as a plain decode with the writer's schema would) and the writer's
// generated take code with the overrides spliced in (lib/codegen.js `take`, and the tape
// decoder's ResolvingDecoder for recursive and hand-off values: lib/evolve-native.js); on
// the JS back end, the writer's closures with the overrides (lib/closures.js, `readAs`).
// An override is data (`kind` and what it needs), which each back end reads its own way.

const { TYPES } = require('./types');
const { pathKey, describe } = require('./errors');
const { canonical } = require('./fingerprint');
const { constraintsOf } = require('./constraints');
const rt = require('#runtime');

const INTEGERS = ['uint8', 'uint16', 'uint32', 'int8', 'int16', 'int32', 'int'];

// Integer widening: the writer's type -> the reader types its values are read as (the
// type itself aside). Every value of the writer's type is a value of each of these.
const WIDENS = {
  uint8: ['uint16', 'uint32', 'int16', 'int32', 'int', 'int64', 'uint64', 'float32', 'float64'],
  uint16: ['uint32', 'int32', 'int', 'int64', 'uint64', 'float32', 'float64'],
  uint32: ['int', 'int64', 'uint64', 'float64'],
  int8: ['int16', 'int32', 'int', 'int64', 'float32', 'float64'],
  int16: ['int32', 'int', 'int64', 'float32', 'float64'],
  int32: ['int', 'int64', 'float64'],
  int: ['int64', 'float64'],
  float32: ['float64'],
};

const BIGINTS = new Set(['int64', 'uint64']);
const ZERO_SIZE = new Set(['literal', 'null']);

/** Pairs reader and writer descriptors (both compiled, JSON-parsed descriptors). */
class Plan {
  constructor(reader, writer) {
    this.reader = reader;
    this.writer = writer;
    this.problems = [];
    // Map keys two writer keys would read as one: the variant fits, but the reader cannot
    // take it; apart from `problems`, so a union's trial still finds its variant.
    this.keyProblems = [];
    // Writer node -> override (see the header).
    this.overrides = new Map();
    // Writer recursive definition -> the reader node it was paired with.
    this.partner = new Map();
    this.rScopes = new Map();
    this.wScopes = new Map();
    // The map key being resolved (`inKey`), or null.
    this.mapKey = null;
    // Reader union -> its variants by text and by tag (`variantIndex`).
    this.variantIndexes = new Map();
    // Writer object -> the names of its fields (`mayRead`).
    this.fieldNames = new Map();
    // Inside a trial: [map, key, had, old] for each set, to undo (`trial`); else null.
    this.undo = null;
    this.texts = new Map();
    this.free = new Map();
    // Whether some reader constraint is not one its writer node already checks.
    this.checks = false;
  }

  problem(path, message) {
    this.problems.push({ path, message });
  }

  /** A plan on trial (a union variant): its findings are merged only if it has none. */
  trial(fn) {
    // What the trial sets is undone from a log if it fails, not restored from copies of
    // both maps: a copy per trial made a union of 10,000 variants cubic (84 s).
    const saved = [this.problems, this.undo, this.keyProblems];
    this.problems = [];
    this.keyProblems = [];
    this.undo = [];
    fn();
    const ok = this.problems.length === 0;
    const undo = this.undo;
    this.undo = saved[1];
    if (!ok) {
      for (let k = undo.length - 1; k >= 0; k--) {
        const [map, key, had, old] = undo[k];
        if (had) map.set(key, old);
        else map.delete(key);
      }
    } else {
      if (this.undo !== null) for (const u of undo) this.undo.push(u);
      for (const p of this.keyProblems) saved[2].push(p);
    }
    this.problems = saved[0];
    this.keyProblems = saved[2];
    return ok;
  }

  /** `map.set(key, value)`, logged for a trial to undo. */
  remember(map, key, value) {
    if (this.undo !== null) this.undo.push([map, key, map.has(key), map.get(key)]);
    map.set(key, value);
  }

  /** The canonical text of node `d`, memoized (lib/fingerprint.js). */
  text(d) {
    let s = this.texts.get(d);
    if (s === undefined) s = canonical(d, this.texts);
    return s;
  }

  /** Whether `d` has a ref to a definition outside it (then its text is not its meaning). */
  open(d) {
    let names = this.free.get(d);
    if (names === undefined) {
      names = new Set();
      if (d.type === 'ref') names.add(d.name);
      else {
        for (const [child] of TYPES.get(d.type).children(d)) for (const n of this.openNames(child)) names.add(n);
        if (d.type === 'recursive') names.delete(d.name);
      }
      this.free.set(d, names);
    }
    return names.size > 0;
  }

  openNames(d) {
    this.open(d);
    return this.free.get(d);
  }

  resolve(r, w, path) {
    // Wrappers that change nothing of the value: default (on decode the value is always
    // there) on either side, refs to their definitions.
    while (r.type === 'default') r = r.of;
    while (w.type === 'default') w = w.of;
    if (r.type === 'ref') r = this.rScopes.get(r);
    if (w.type === 'ref') w = this.wScopes.get(w);
    if (w.type === 'recursive') {
      // A writer's definition, reached again through its refs, must pair with the same
      // reader node, or one take could not serve both.
      const seen = this.partner.get(w);
      if (seen === r) return;
      if (seen !== undefined) {
        this.problem(path, `the writer's ${w.name} is read here as a different reader type than where it is defined (a recursion the reader does not share); not supported`);
        return;
      }
      this.remember(this.partner, w, r);
    }
    if (!this.open(r) && !this.open(w) && this.text(r) === this.text(w)) return;

    if (w.type === 'recursive') {
      this.scope(w, this.wScopes);
      if (r.type === 'recursive') this.scope(r, this.rScopes);
      this.resolve(r.type === 'recursive' ? r.schema : r, w.schema, path);
      return;
    }
    if (r.type === 'recursive') {
      this.scope(r, this.rScopes);
      this.resolve(r.schema, w, path);
      return;
    }
    if (this.mapKey !== null && (r.type === 'union' || r.type === 'discriminatedUnion' || w.type === 'union' || w.type === 'discriminatedUnion')) {
      this.mapKey.union = true;
    }
    if (r.type === 'union' || r.type === 'discriminatedUnion') {
      this.toUnion(r, w, path);
      return;
    }
    if (w.type === 'union' || w.type === 'discriminatedUnion') {
      // Each of the writer's variants must read as the reader's one type.
      w.variants.forEach((v) => this.resolve(r, v, path));
      return;
    }
    if (r.type === 'nullable' || r.type === 'optional') {
      if (w.type === r.type) this.resolve(r.of, w.of, path);
      else if (w.type === 'nullable' || w.type === 'optional') {
        this.problem(path, `the writer's value may be ${w.type === 'nullable' ? 'null' : 'missing'}; the reader's is ${r.type}, not ${w.type}`);
      } else if (!(ZERO_SIZE.has(w.type) && this.readerAccepts(r, literalValue(w)))) {
        this.resolve(r.of, w, path);
      } else {
        this.literalAs(r.of, w);
      }
      return;
    }
    if (w.type === 'nullable' || w.type === 'optional') {
      this.problem(path, `the writer's value may be ${w.type === 'nullable' ? 'null' : 'missing'}; the reader's ${name(r)} is not ${w.type}`);
      return;
    }
    if (ZERO_SIZE.has(w.type)) {
      const v = literalValue(w);
      if (!this.readerAccepts(r, v)) this.problem(path, `the writer's ${describe(v)} (literal) is not a value of the reader's ${name(r)}`);
      else this.literalAs(r, w);
      return;
    }
    if (constraintsOf(r).length > 0 && JSON.stringify(constraintsOf(r)) !== JSON.stringify(constraintsOf(w))) this.checks = true;
    const rule = RULES[r.type];
    if (rule === undefined || !rule.call(this, r, w, path)) {
      this.problem(path, `the writer's ${name(w)} cannot be read as ${name(r)}${r.type in WIDEN_HINTS ? WIDEN_HINTS[r.type] : ''}`);
    }
  }

  scope(d, scopes) {
    // Refs inside definition `d` name it (the innermost definition of a name wins, as in
    // lib/walk.js).
    const visit = (n, shadow) => {
      if (n.type === 'ref' && n.name === d.name && !shadow) scopes.set(n, d);
      if (n.type === 'ref') return;
      for (const [child] of TYPES.get(n.type).children(n)) visit(child, shadow || (child.type === 'recursive' && child.name === d.name));
    };
    if (!scopes.has(d)) {
      scopes.set(d, d);
      visit(d.schema, false);
    }
  }

  readerAccepts(r, v) {
    while (r.type === 'default') r = r.of;
    switch (r.type) {
      case 'literal':
      case 'null':
        return Object.is(literalValue(r), v);
      case 'nullable':
        return v === null || this.readerAccepts(r.of, v);
      case 'optional':
        return v === undefined || this.readerAccepts(r.of, v);
      case 'json':
        return v === null || typeof v !== 'object';
      case 'union':
        return r.variants.some((x) => this.readerAccepts(x, v));
      case 'string':
        return TYPES.get('string').test(r, v);
      case 'enum':
        return typeof v === 'string' && r.values.includes(v);
      case 'bool':
        return typeof v === 'boolean';
      default:
        if (typeof v === 'number' && (r.type === 'float64' || INTEGERS.includes(r.type) || r.type === 'float32')) {
          return TYPES.get(r.type).test(r, v);
        }
        return false;
    }
  }

  // The reader's union: each of the writer's variants (or its one type) reads as the first
  // reader variant it fits, an identical one first; discriminated unions by tag.
  toUnion(r, w, path) {
    const writerVariants = w.type === 'union' || w.type === 'discriminatedUnion' ? w.variants : [w];
    for (const v of writerVariants) {
      if (r.type === 'discriminatedUnion' && tagOf(v, r.key) !== undefined) {
        const tag = tagOf(v, r.key);
        const target = this.variantIndex(r).byTag.get(tag);
        if (target === undefined) {
          this.problem(path + pathKey(r.key), `the writer's tag ${JSON.stringify(tag)} is not one of the reader's (${r.variants.map((x) => JSON.stringify(tagOf(x, r.key))).join(', ')})`);
        } else {
          this.resolve(target, v, path);
        }
        continue;
      }
      let target = this.open(v) ? undefined : this.variantIndex(r).byText.get(this.text(v));
      if (target !== undefined) {
        this.resolve(target, v, path);
        continue;
      }
      target = r.variants.find((x) => this.mayRead(x, v) && this.trial(() => this.resolve(x, v, path)));
      if (target === undefined) {
        this.problem(path, `the writer's ${name(v)} fits no variant of the reader's ${r.type === 'union' ? 'union' : 'discriminated union'} (${r.variants.map(name).join(' | ')})`);
      }
    }
  }

  override(w, o) {
    this.remember(this.overrides, w, o);
  }

  /**
   * False when reader node `x` surely cannot read writer node `v`, found without a trial:
   * a reader object with a required field the writer's object lacks. (A union of 10,000
   * objects tried each writer variant against every reader variant before the one that
   * fits.) True means a trial decides.
   */
  mayRead(x, v) {
    while (x.type === 'default') x = x.of;
    while (v.type === 'default') v = v.of;
    if (x.type !== 'object' || v.type !== 'object') return true;
    let names = this.fieldNames.get(v);
    if (names === undefined) this.fieldNames.set(v, (names = new Set(v.fields.map((f) => f.name))));
    return x.fields.every((f) => f.schema.type === 'optional' || f.schema.type === 'default' || names.has(f.name));
  }

  /**
   * Reader union `r`'s variants by canonical text (the first closed one of each) and by
   * tag, made once: a writer variant is found in one look-up, not a scan of the reader's
   * (10,000 variants took 16.5 s, quadratic).
   */
  variantIndex(r) {
    let index = this.variantIndexes.get(r);
    if (index === undefined) {
      index = { byText: new Map(), byTag: new Map() };
      for (const x of r.variants) {
        if (!this.open(x)) {
          const text = this.text(x);
          if (!index.byText.has(text)) index.byText.set(text, x);
        }
        if (r.type === 'discriminatedUnion') {
          const tag = tagOf(x, r.key);
          if (tag !== undefined && !index.byTag.has(tag)) index.byTag.set(tag, x);
        }
      }
      this.variantIndexes.set(r, index);
    }
    return index;
  }

  /**
   * A writer's literal read as reader node `r`: a number read as a float32 is the float32
   * nearest it, the value the reader's own decode gives, so that re-encoding it changes
   * nothing (issue 37, finding 13: literal(0.1) was read as 0.1).
   */
  literalAs(r, w) {
    while (r.type === 'default' || r.type === 'nullable' || r.type === 'optional') r = r.of;
    const v = literalValue(w);
    if (r.type !== 'float32' || typeof v !== 'number' || Object.is(Math.fround(v), v)) return;
    const f = Math.fround(v);
    this.override(w, { kind: 'constant', value: f, fromValue: () => f });
  }

  /** `fn()` with `key` the map key being resolved (`{ union }`), or null outside keys. */
  inKey(key, fn) {
    const outer = this.mapKey;
    this.mapKey = key;
    try {
      fn();
    } finally {
      this.mapKey = outer;
    }
  }
}

const WIDEN_HINTS = {};
for (const t of [...INTEGERS, 'int64', 'uint64', 'float32', 'float64']) {
  WIDEN_HINTS[t] = ' (numbers widen only: uint8 -> uint16 -> uint32 -> int/int64, int8 -> int16 -> int32 -> int/int64, integers -> float64, float32 -> float64)';
}

// Reader type -> whether (and how) the writer's node `w` reads as reader node `r`. Called
// with `this` the plan; returns false for "no rule" (the caller names the pair).
const RULES = {
  string: (r, w) => w.type === 'string' || w.type === 'enum',
  enum(r, w, path) {
    if (w.type !== 'enum') return false;
    const known = new Set(r.values);
    const unknown = w.values.filter((s) => !known.has(s));
    if (unknown.length === 0) return true;
    if (r.default === undefined) {
      const shown = unknown.slice(0, 5).map((s) => JSON.stringify(s)).join(', ');
      this.problem(path, `the writer's symbol${unknown.length > 1 ? 's' : ''} ${shown}${unknown.length > 5 ? ', ...' : ''} ${unknown.length > 1 ? 'are' : 'is'} not the reader's; give the reader's enum a default (t.enum(values, { default }))`);
      return true;
    }
    // In a map's key, two writer keys read as one reader key would make a valid message
    // fail ("a key appears twice", issue 37, finding 9): only a conversion that keeps keys
    // apart is compatible, one unknown symbol read as a default the writer lacks, the
    // enum alone (in a union another variant may read as the default too).
    const key = this.mapKey;
    if (key !== null && (key.union || unknown.length > 1 || w.values.includes(r.default))) {
      const shown = unknown.slice(0, 5).map((s) => JSON.stringify(s)).join(', ') + (unknown.length > 5 ? ', ...' : '');
      const why = key.union
        ? `${unknown.length > 1 ? 'are' : 'is'} read as ${JSON.stringify(r.default)} in a union key, where another writer key may read as it too`
        : unknown.length > 1
          ? `are all read as the reader's default ${JSON.stringify(r.default)}`
          : `is read as the reader's default ${JSON.stringify(r.default)}, a symbol the writer has too`;
      this.keyProblems.push({ path, message: `the writer's map key${unknown.length > 1 ? 's' : ''} ${shown} ${why}, so two keys of one map may become one; a map's keys must stay distinct: add the writer's symbols to the reader's enum` });
    }
    const symbols = w.values.map((s) => (known.has(s) ? s : r.default));
    const bySymbol = new Map(w.values.map((s, k) => [s, symbols[k]]));
    this.override(w, {
      kind: 'symbols',
      symbols,
      // The JS back end (lib/js-backend.js) reads the writer's value, then converts it.
      fromValue: (v) => bySymbol.get(v),
    });
    return true;
  },
  // Containers: their values are JS objects, distinct map keys whatever they hold, so
  // what they hold is resolved outside any key (`inKey`).
  array(r, w, path) {
    if (w.type !== 'array') return false;
    this.inKey(null, () => this.resolve(r.items, w.items, `${path}[]`));
    return true;
  },
  tuple(r, w, path) {
    if (w.type !== 'tuple') return false;
    if (w.items.length !== r.items.length) {
      this.problem(path, `the writer's tuple has ${w.items.length} items, the reader's ${r.items.length}`);
      return true;
    }
    this.inKey(null, () => r.items.forEach((item, k) => this.resolve(item, w.items[k], `${path}[${k}]`)));
    return true;
  },
  record(r, w, path) {
    if (w.type !== 'record') return false;
    this.inKey(null, () => this.resolve(r.values, w.values, `${path}[]`));
    return true;
  },
  map(r, w, path) {
    if (w.type !== 'map') return false;
    this.inKey({ union: false }, () => this.resolve(r.keys, w.keys, `${path}<key>`));
    this.inKey(null, () => this.resolve(r.values, w.values, `${path}[]`));
    return true;
  },
  object(r, w, path) {
    if (w.type !== 'object') return false;
    this.inKey(null, () => resolveObject(this, r, w, path));
    return true;
  },
};
for (const t of ['bool', 'bytes', 'date', 'json', 'float64Array', 'float32Array', 'int32Array', 'uint32Array', 'int16Array', 'uint16Array', 'int8Array']) {
  RULES[t] = (r, w) => w.type === r.type;
}
for (const t of [...INTEGERS, 'float32', 'float64', 'int64', 'uint64']) {
  RULES[t] = function number(r, w) {
    if (w.type === r.type) return true;
    if (!(WIDENS[w.type] || []).includes(r.type)) return false;
    if (BIGINTS.has(r.type)) {
      // Numbers on the writer's tape, bigints in the reader's values.
      this.override(w, {
        kind: 'bigint',
        fromValue: (v) => BigInt(v),
      });
    }
    return true;
  };
}

function resolveObject(plan, r, w, path) {
  const writer = new Map(w.fields.map((f, k) => [f.name, k]));
  const keep = new Array(w.fields.length).fill(false);
  // Each of the reader's fields: where its value comes from.
  const out = [];
  for (const f of r.fields) {
    const at = path + pathKey(f.name);
    const rKind = f.schema.type === 'optional' ? 'optional' : f.schema.type === 'default' ? 'default' : 'plain';
    const rInner = rKind === 'plain' ? f.schema : f.schema.of;
    const k = writer.get(f.name);
    if (k === undefined) {
      if (rKind === 'plain') plan.problem(at, "missing from the writer's schema, and the reader gives it no default (t.default) and does not make it optional");
      else out.push({ name: f.name, from: -1, kind: rKind, field: f.schema });
      continue;
    }
    const ws = w.fields[k].schema;
    const wOptional = ws.type === 'optional';
    if (wOptional && rKind === 'plain') {
      plan.problem(at, "the writer may leave it out; make the reader's field optional or give it a default (t.default)");
      continue;
    }
    keep[k] = true;
    plan.resolve(rInner, wOptional ? ws.of : ws, at);
    out.push({ name: f.name, from: k, kind: rKind, maybe: wOptional, field: f.schema });
  }
  // The writer's own take builds this object unchanged when it has the reader's fields in
  // the reader's order, each as present or absent as the reader's would be.
  const same =
    out.length === w.fields.length &&
    out.every((o, n) => o.from === n && (o.maybe ? o.kind === 'optional' : true));
  if (same) return;
  plan.override(w, objectOverride(plan, w, out, keep));
}

// A default's value, made new per decode when it is an object (a Date, an array...), so
// one decode's caller cannot change what the next decode returns.
function defaultMaker(plan, d) {
  const m = plan.readerForms;
  const first = m.fromJson(d.of, d.value);
  if (first === null || (typeof first !== 'object' && typeof first !== 'function')) return { constant: first };
  return { make: () => m.fromJson(d.of, d.value) };
}

function objectOverride(plan, w, out, keep) {
  const defaults = out.map((o) => (o.kind === 'default' ? defaultMaker(plan, o.field) : null));
  // Each of the reader's fields that its object may hold, and how its value is had: the
  // writer's field's (`value`), its default (`default`: the writer has no such field),
  // the writer's field's or else its default (`either`: the writer's is optional), or the
  // writer's field's where present (`present`). A field that is neither in the writer nor
  // defaulted is left out: it stays absent. `define`: a name Object.prototype has
  // (`__proto__` is a setter there), defined as an own property, not set.
  const fields = [];
  out.forEach((e, n) => {
    let how;
    if (e.from < 0) how = e.kind === 'default' ? 'default' : null;
    else if (!e.maybe) how = 'value';
    else how = e.kind === 'default' ? 'either' : 'present';
    if (how !== null) fields.push({ name: e.name, from: e.from, how, dflt: defaults[n], define: e.name in Object.prototype });
  });
  const names = w.fields.map((f) => f.name);
  const inherited = names.map((name) => name in Object.prototype);
  // The reader's object from the writer's field values (undefined for an absent one): a
  // define of each key cost a nestedEvent reader's decode on the JS back end 1.3 of its 1.7 µs.
  const fromFields = (values) => {
    const o = {};
    for (let n = 0; n < fields.length; n++) {
      const f = fields[n];
      let v = f.how === 'default' ? undefined : values[f.from];
      if (v === undefined) {
        if (f.how === 'present') continue;
        if (f.how !== 'value') v = 'constant' in f.dflt ? f.dflt.constant : f.dflt.make();
      }
      if (f.define) rt.defineOwn(o, f.name, v);
      else o[f.name] = v;
    }
    return o;
  };
  // The back ends build the reader's object from `fields`: lib/closures.js (objectReaderAs,
  // or `fromFields`), and the native back end's generated and tape reads
  // (lib/evolve-native.js), which read and drop a writer field that no reader field takes
  // (`keep`).
  return {
    kind: 'object',
    fields,
    keep,
    fromFields,
    // The writer's object as the JS back end's exact walk read it (an absent field has no
    // key: one that Object.prototype has is looked up as the object's own).
    fromValue(x) {
      const values = new Array(names.length);
      for (let k = 0; k < names.length; k++) values[k] = inherited[k] ? (Object.hasOwn(x, names[k]) ? x[names[k]] : undefined) : x[names[k]];
      return fromFields(values);
    },
  };
}

function literalValue(d) {
  return d.type === 'null' ? null : d.value;
}

function tagOf(v, key) {
  if (v.type !== 'object') return undefined;
  const f = v.fields.find((x) => x.name === key);
  return f && f.schema.type === 'literal' ? f.schema.value : undefined;
}

function name(d) {
  switch (d.type) {
    case 'enum':
      return d.values.length <= 4 ? `enum (${d.values.map((v) => JSON.stringify(v)).join(', ')})` : `enum of ${d.values.length} symbols`;
    case 'literal':
      return `literal ${JSON.stringify(d.value)}`;
    case 'nullable':
    case 'optional':
      return `${d.type}(${name(d.of)})`;
    case 'array':
      return `array of ${name(d.items)}`;
    case 'recursive':
      return d.name;
    default:
      return d.type;
  }
}

/**
 * Plans reading `writer`'s bytes as `reader`'s values. `readerForms` reads the reader's
 * defaults from their JSON forms (a generic Marshaller of the reader's descriptor).
 * Returns `{ problems, overrides, same, checks }`; `same` when the two are one schema;
 * `checks` when the reader must check its constraints on the values it reads.
 */
function plan(reader, writer, readerForms) {
  const p = new Plan(reader, writer);
  p.readerForms = readerForms;
  if (canonical(reader) === canonical(writer)) return { problems: [], overrides: p.overrides, same: true, checks: false };
  p.resolve(reader, writer, '$');
  return { problems: p.problems.concat(p.keyProblems), overrides: p.overrides, same: false, checks: p.checks };
}

module.exports = { plan };
