'use strict';
// The generated decode's reading of the tape the native decode filled (lib/codegen.js,
// `take`): a back end over the lowering (lib/lower.js), one entry per operation, as
// lib/small.js (the JS read of small messages) and lib/closures.js are others. What the
// tape holds for each type is docs/DESIGN.md's "The tape"; the tape's cursors are `T` and
// `i`, the text's are codegen's (`g.text()`).
//
// TAKE[op.op](g, op) pushes onto `g.dec` the statements that take the value from the tape
// and returns the expression of the value. Children are taken by `g.take(child.d)`, which
// keeps what is about the place in the schema rather than the type: a part handed to the
// generic marshaller, a reader's overrides (lib/evolve.js), helper functions, the count of
// descriptors per generated function.

const { assignField, stringFormed } = require('./emit-tests');
const { stringItems, SMALL_LITERALS } = require('./types/array');
const string = require('./types/string');
const record = require('./types/record');

// A leaf of one tape slot, taken as it is.
const slot = () => 'T[i++]';

// Decode: a switch on the variant index, each case taking its variant.
function takeVariants(g, op) {
  const v = g.fresh('u');
  g.dec.push(`let ${v};`, 'switch (T[i++]) {');
  op.variants.forEach((variant, k) => {
    g.dec.push(`case ${k}: {`);
    const x = g.take(variant.d);
    g.dec.push(`${v} = ${x};`, 'break;', '}');
  });
  g.dec.push('}');
  return v;
}

const TAKE = {
  bool: () => 'T[i++] !== 0',
  uint8: slot,
  uint16: slot,
  uint32: slot,
  int8: slot,
  int16: slot,
  int32: slot,
  int: slot,
  float32: slot,
  float64: slot,
  // Read through the tape's BigInt64Array (TI) or BigUint64Array (TU) view.
  int64: () => 'TI[i++]',
  uint64: () => 'TU[i++]',
  date: () => 'new Date(T[i++])',
  // Where its bytes are in the input, and how many.
  bytes: () => 'rt.copyBytes(bytes, T[i++], T[i++])',
  typed: (g, op) => `rt.copyTyped(${op.tag}, bytes, T[i++], T[i++])`,
  enum: (g, op) => `${g.constant(op.values)}[T[i++]]`,
  const: (g, op) => JSON.stringify(op.value),
  // Sliced from the text. A decoded string is checked against its pattern, and a url or
  // ipv6 format, here (the native side checked its length and the other formats); the
  // error's offset and path come from the native side (`rt.decodeViolation`), which finds
  // the string again by its tape slot.
  string(g, op) {
    const d = op.d;
    if (!string.checkedByJs(d)) return g.text();
    const s = g.fresh('s');
    g.dec.push(`const ${s} = ${g.text()};`, `if (!(${stringFormed(g, d, s, string.jsFormat(d)).join(' && ')})) throw rt.decodeViolation(G, nat, bytes, i - 1, ${g.constant(d)}, ${s});`);
    return s;
  },
  // Taken by the generic marshaller, which holds the message's key table.
  json: (g, op) => g.handOffTake(op.d),
  // A recursive definition's function (`takeDefinition`), made once, called by each ref.
  call: (g, op) => g.takeDefinition(op.def),
  presence(g, op) {
    const v = g.fresh('v');
    g.dec.push(`let ${v} = ${String(op.absent)};`, 'if (T[i++] !== 0) {');
    const inner = g.take(op.of.d);
    g.dec.push(`${v} = ${inner};`, '}');
    return v;
  },
  // On the tape, its type (the encode put the default in).
  default: (g, op) => g.take(op.of.d),
  // Two items or more: `Array(a, b, ...)`, called, not constructed: a packed array as
  // the literal `[a, b]` makes, with no allocation site. V8 pretenures a literal's site
  // whose objects survive a scavenge (a decoded message kept for a while, as the
  // benchmark's round-trip check keeps one), and from then on makes every tuple of every
  // decode in the old generation: canada decode (56K [lon, lat] pairs) ran at ~240 ops/s
  // so. `new Array(a, b)` records a site too (construct feedback), and code that depends
  // on it was thrown away in 2 to 4 of 10 processes, which then made each tuple in the
  // runtime (~150 ops/s); the call records none: 20 of 20 processes at 830-1,340
  // (docs/DESIGN.md). One item keeps the literal: `Array(x)` of a number is an empty
  // array of length x.
  tuple(g, op) {
    const items = op.items.map((item) => g.take(item.d));
    return items.length >= 2 ? `NewArray(${items.join(', ')})` : `[${items.join(', ')}]`;
  },
  array(g, op) {
    const n = g.fresh('n');
    const k = g.fresh('k');
    const v = g.fresh('a');
    // Made at its length and filled by index: half the time of push() on arrays of 3 to
    // 200,000 numbers (mesh decode). The count was checked natively against the bytes
    // left, so it is no bigger than the message. `NewArray` is Array, captured at load.
    // An empty one is a literal: 100,000 empty arrays made by `new Array(0)` measured 88
    // heap bytes each with their slots, over the decode budget's estimate of 59 that
    // `[]` keeps to (__test__/budget.test.js). Small arrays of strings are literals
    // (lib/types/array.js, SMALL_LITERALS).
    g.dec.push(`const ${n} = T[i++];`, `const ${v} = ${n} === 0 ? [] : ${!stringItems(op.items.d) ? '' : `${g.denseTest(n)}${SMALL_LITERALS.map((literal, m) => `${n} === ${m + 1} ? ${literal} : `).join('')}`}new NewArray(${n});`, `for (let ${k} = 0; ${k} < ${n}; ${k}++) {`);
    const item = g.take(op.items.d);
    g.dec.push(`${v}[${k}] = ${item};`, '}');
    return v;
  },
  object(g, op) {
    const v = g.fresh('o');
    const values = op.fields.map((f) => {
      if (f.kind !== 'optional') return { f, value: g.take(f.d) };
      const has = g.fresh('h');
      g.dec.push(`const ${has} = T[i++] !== 0;`, `let ${has}v;`, `if (${has}) {`);
      const inner = g.take(f.node.d);
      g.dec.push(`${has}v = ${inner};`, '}');
      return { f, value: `${has}v`, has };
    });
    // Keys in schema order: a literal up to the first optional field, then assignments.
    const first = values.findIndex((x) => x.has);
    const literal = first < 0 ? values : values.slice(0, first);
    g.dec.push(`const ${v} = ${g.construct(literal.map((x) => x.f.name), literal.map((x) => x.value))};`);
    // Fields after the literal are defined where Object.prototype has the name (always
    // for `__proto__`; for others only if it gained one since): an assignment would
    // reach a prototype's setter instead of making an own property.
    for (const x of first < 0 ? [] : values.slice(first)) g.dec.push(assignField(v, x.f.name, x.value, x.has));
    return v;
  },
  record(g, op) {
    const { MIN_SHAPE, MAX_SHAPE, INDEX_KEY, builder } = record;
    const [n, k, o, r, K, id, key, own, s, B, V, ids] = g.names('n', 'k', 'o', 'r', 'K', 'id', 'key', 'own', 's', 'B', 'V', 'ids');
    // Each key is a key slot (rt.keyTable): a key met before in the message is made
    // once. A record of a known shape takes its values into an array for its builder,
    // its key slots (all keys met before) skipped; the first of a shape keeps its key
    // ids as the shape's.
    g.dec.push(
      `const ${n} = T[i++];`,
      `const ${K} = rt.keyTable(G);`,
      `let ${V} = null, ${B} = null, ${ids} = null, ${s} = -1;`,
      `if (${n} >= ${MIN_SHAPE} && ${n} <= ${MAX_SHAPE}) {`,
      `${s} = T[i++];`,
      `if (${s} >= 0) { ${B} = ${K}.records[${s}]; if (${B} === undefined) ${B} = ${g.constant(builder)}(${K}, ${s}); if (${B} !== null) ${V} = new NewArray(${n}); }`,
      `else if (${s} !== -1) ${ids} = [];`,
      '}',
      `const ${o} = ${V} === null ? ${g.construct([], [])} : null;`,
      `for (let ${k} = 0; ${k} < ${n}; ${k}++) {`,
      `const ${id} = T[i++];`,
      `let ${key}, ${own};`,
      `if (${V} === null) {`,
      `if (${id} >= 0) { ${key} = ${K}.names[${id}]; ${own} = ${K}.own[${id}]; }`,
      `else if (${id} <= ${INDEX_KEY}) { ${key} = ${INDEX_KEY} - ${id}; ${own} = ${key} in rt.ObjectPrototype; }`,
      `else { ${key} = ${g.text()}; ${own} = rt.onPrototype(${key}); if (${id} !== -1) rt.keepKey(${K}, ${id}, ${key}, ${own}); }`,
      `if (${ids} !== null) ${ids}.push(${id} >= 0 ? ${id} : -2 - ${id});`,
      '}',
    );
    const v = g.take(op.values.d);
    // A key Object.prototype has (`__proto__`, or one a polluted prototype gained) is
    // defined, not assigned: assigning would reach its setter, as JSON.parse never does.
    g.dec.push(
      `if (${V} !== null) ${V}[${k}] = ${v}; else if (${own}) rt.defineOwn(${o}, ${key}, ${v}); else ${o}[${key}] = ${v};`,
      '}',
      `const ${r} = ${V} !== null ? ${B}(${V}) : ${o};`,
      `if (${ids} !== null) rt.defineShape(${K}, ${s}, ${ids});`,
    );
    return r;
  },
  // Entries in order into a new Map; the native decode left where the map began (`at`),
  // for the error of a key met twice.
  map(g, op) {
    const [n, at, k, m] = g.names('n', 'at', 'k', 'm');
    g.dec.push(`const ${n} = T[i++];`, `const ${at} = T[i++];`, `const ${m} = new Map();`, `for (let ${k} = 0; ${k} < ${n}; ${k}++) {`);
    const key = g.take(op.keys.d);
    const v = g.take(op.values.d);
    g.dec.push(`${m}.set(${key}, ${v});`, '}', `if (${m}.size !== ${n}) throw rt.repeatedKey(${at}, ${JSON.stringify(g.pathOf(op.d))});`);
    return m;
  },
  union: takeVariants,
  tagged: takeVariants,
};

module.exports = { TAKE };
