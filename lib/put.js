'use strict';
// The generated encode's filling of the tape the native encode reads (lib/codegen.js,
// `put`): a back end over the lowering (lib/lower.js), one entry per operation, as
// lib/take.js reads what the native decode fills. What the tape holds for each type is
// docs/DESIGN.md's "The tape".
//
// PUT[op.op](g, op, x, path, room, shown) pushes onto `g.enc` the statements that check
// value `x` and put it on the tape at `i` (its text on the text, its bytes in the blobs),
// raising the error of the path (`path`, a PathExpr) that names `shown` where the value
// is not one. `room`: the tape slots made sure of for the fixed part of the value, which
// a variable one (arrays, maps, records, json) makes more of (`g.room`). Children are put
// by `g.put(child.d, ...)`, which keeps what is about the place in the schema rather than
// the type: a part handed to the generic marshaller, helper functions, the node count.
// PUT_ITEMS[op.op](g, op, x, n, path): the loop over an array's `n` items of that
// operation where the item type writes them all at once (json).

const { emitKind, emitCount, integerSatisfies, floatSatisfies, stringSatisfies, tagSwitch, readField, isObjectJs } = require('./emit-tests');
const integer = require('./types/integer');
const float = require('./types/float');
const string = require('./types/string');
const { UPFRONT } = require('./types/array');
const { tagsExpected, CHAIN_MAX } = require('./types/union');
const jsonTape = require('./json-tape');
const { kindOf } = require('./lower');
const { ShornError } = require('./errors');

// Record keys of up to this many ASCII characters are written in their bytes on encode.
const SHORT_KEY = 16;
// A record written whole in its bytes: the tape slot that says so, in place of its count
// (src/engine.rs, RAW_ENTRIES), and the most tape slots it may take.
const RAW = -1;
const RAW_SLOTS = 128;

// A number of one tape slot: its type's own check, then its bounds.
function putInteger(g, op, x, path, room, shown) {
  const d = op.d;
  g.enc.push(`if (!(${emitKind(d, x)})) ${g.fail(path, shown, x)}`);
  if (integer.boundsOf(d)) g.enc.push(`if (!(${integerSatisfies(d, x)})) ${g.violated(path, d, x)}`);
  g.enc.push(`T[i++] = ${x};`);
}

function putFloat(g, op, x, path, room, shown) {
  const d = op.d;
  g.enc.push(`if (typeof ${x} !== 'number') ${g.fail(path, shown, x)}`);
  if (float.boundsOf(d)) g.enc.push(`if (!(${floatSatisfies(d, x)})) ${g.violated(path, d, x)}`);
  g.enc.push(`T[i++] = ${x};`);
}

// Through the tape's BigInt64Array (TI) or BigUint64Array (TU) view; bounds as bigints.
function putInt64(g, op, x, path, room, shown) {
  const d = op.d;
  g.enc.push(`if (!${emitKind(d, x)}) ${g.fail(path, shown, x)}`);
  if (integer.boundsOf(d)) g.enc.push(`if (!(${integerSatisfies(d, x, (v) => `${v}n`)})) ${g.violated(path, d, x)}`);
  g.enc.push(`${op.op === 'int64' ? 'TI' : 'TU'}[i++] = ${x};`);
}

// The first variant that accepts the value, by a chain of `else if` (a longer union, by
// one labelled block of `if`s: CHAIN_MAX). Where the variants take values of different
// kinds (lib/lower.js, `variantsByKind`) and one's test walks inside its values (`walks`),
// by the one of the value's kind, with no test: its put refuses what its test would, and
// where it throws a ShornError the union ends as one tested in turn (`putUnionByKind`).
function putUnion(g, op, x, path, room) {
  if (op.byKind !== null && op.variants.some(walks)) {
    putUnionByKind(g, op, x, path, room);
    return;
  }
  const d = op.d;
  const chain = op.variants.length <= CHAIN_MAX;
  const label = chain ? '' : g.fresh('union');
  if (!chain) g.enc.push(`${label}: {`);
  op.variants.forEach((variant, k) => {
    g.enc.push(`${k === 0 || !chain ? '' : 'else '}if (${g.test(op.ds[k], x)}) {`, `T[i++] = ${k};`);
    g.put(variant.d, x, path, room);
    g.enc.push(chain ? '}' : `break ${label};\n}`);
  });
  // (A split schema counts the depth of recursive values in W.d: the variant's error is
  // looked for from there, as the generic marshaller does.)
  const raise = g.raise(`G.unionErrorOf(${g.constant(d)}, ${x}, ${path.code()}${g.split ? ', W.d' : ''})`);
  g.enc.push(chain ? `else ${raise}` : `${raise}\n}`);
}

// Whether the test of a value of `op` walks what is inside it (a union of leaves alone is
// tested inline faster than it is found by kind: the score construct of
// benchmark/constructs.js, a float64 or a string, took 1.42-1.44x its plain form's encode
// by kind against 1.27-1.32x tested).
const WALKING = new Set(['array', 'tuple', 'object', 'record', 'map', 'call', 'union', 'tagged', 'json']);
const walks = (op) => WALKING.has(op.op) || (op.op === 'presence' && walks(op.of));

// A test of each variant walks the value below it: through a recursive union (the JSON
// value as a schema: numbers, strings, booleans, null, arrays and records of itself)
// every level's test walked the levels below, and twitter encoded at ~90 messages a
// second against ~1,200 for t.json().
function putUnionByKind(g, op, x, path, room) {
  const d = op.d;
  const [k, depth, e] = g.names('k', 'depth', 'e');
  const raise = g.raise(`G.unionErrorOf(${g.constant(d)}, ${x}, ${path.code()}${g.split ? ', W.d' : ''})`);
  // A value of no kind (an array whose prototype is not Array.prototype) is tested
  // variant by variant, as the generic marshaller tests them.
  g.enc.push(
    `let ${k} = ${g.constant(op.byKind)}[${g.constant(kindOf)}(${x})];`,
    `if (${k} === undefined) ${k} = G.variantOf(${g.constant(d)}, ${x});`,
    `if (${k} < 0) ${raise}`,
    g.split ? `const ${depth} = W.d;` : '',
    `T[i++] = ${k};`,
    'try {',
    `switch (${k}) {`,
  );
  op.variants.forEach((variant, j) => {
    g.enc.push(`case ${j}: {`);
    g.put(variant.d, x, path, room);
    g.enc.push('break;', '}');
  });
  // On a ShornError, what a union tested in turn does: its tests (which read what a
  // getter gives, and count depth from the union) take the variant whose put threw, whose
  // error then stands (a value too deep for the put, a Map whose size lies), or none, and
  // the union's own error is thrown; a getter's error passes. (fuzz.js seed 9352: a value
  // too deep whose getter throws gave the union's error where the tested union, and the
  // generic marshaller, give the getter's.) That error is made once: the union leaves it
  // pending (lib/runtime.js, PendingUnion), and a union by kind that a pending one passes
  // through fails its test too, so it leaves its own in its place untested; marshal makes
  // the outermost's (fuzz finding J10: every union on the way out had tested the value and
  // made its own error, ~maxDepth^3 reads of a cyclic value). A split schema looks for the
  // variant's error from the depth the union is at, in W.d, which the put left deeper.
  g.enc.push(
    '}',
    `} catch (${e}) {`,
    g.split ? `W.d = ${depth};` : '',
    `if (${e} instanceof rt.PendingUnion || (${e} instanceof ${g.constant(ShornError)} && G.variantOf(${g.constant(d)}, ${x}) !== ${k})) {`,
    `throw new rt.PendingUnion(${g.constant(d)}, ${x}, ${path.code()}, ${g.split ? 'W.d' : '0'}, ${g.inHelper});`,
    '}',
    `throw ${e};`,
    '}',
  );
}

// The variant its tag names, found in O(1).
function putTagged(g, op, x, path, room, shown) {
  const d = op.d;
  const tag = g.fresh('tag');
  const { open, label } = tagSwitch(g, d, tag);
  g.enc.push(`if (typeof ${x} !== 'object' || ${x} === null || Array.isArray(${x})) ${g.fail(path, shown, x)}`, `const ${tag} = ${readField(x, op.key)};`, open);
  op.variants.forEach((variant, k) => {
    g.enc.push(`case ${label(k)}: {`, `T[i++] = ${k};`);
    g.put(variant.d, x, path, room);
    g.enc.push('break;', '}');
  });
  g.enc.push(`default: ${g.raise(`rt.invalid(${path.field(op.key).code()}, ${g.constant(tagsExpected(d))}, ${tag})`)}`, '}');
}

// A record: written whole by JS in its bytes where it can be (its count, keys and values,
// as the JS write of small messages writes them, lib/small.js) into the tape after a RAW
// token, as json values are: one copy natively (src/engine.rs, Entries), no token per key
// and value. A record the JS write does not take (an invalid value, text not all ASCII,
// more bytes than the tape has room for, which is RAW_SLOTS slots or more) goes by tokens,
// below, which alone report errors, over what it had written.
function putRecord(g, op, x, path, room, shown) {
  const d = op.d;
  const raw = g.rawWriter(d);
  if (raw !== null) {
    // After a record it gave up, the next 1, 2, 4, ... 64 here (while they keep being
    // given up) skip it, as for the JS write of small messages: one with text not all
    // ASCII (gsoc-2018's) would be written twice each time.
    const skip = g.fresh('rs');
    g.rawFunctions.push(`let ${skip} = 0;`, `let ${skip}b = 1;`);
    const b = g.fresh('b');
    const e = g.fresh('e');
    g.enc.push(
      `const ${b} = (i + 3) * 8;`,
      `let ${e} = -1;`,
      `if (${skip} === 0) {`,
      `if (i + ${3 + RAW_SLOTS} > T.length) ${g.grow(`i + ${3 + RAW_SLOTS}`)}`,
      `${e} = ${raw}(${x}, rt.tapeWriter(T), rt.tapeBytes(T), ${b}, T.length * 8 - 16);`,
      `if (${e} < 0) { ${skip} = ${skip}b; if (${skip}b < 64) ${skip}b *= 2; } else if (${skip}b !== 1) ${skip}b = 1;`,
      `} else ${skip}--;`,
      `if (${e} >= 0) {`,
      `T[i] = ${RAW};`,
      `T[i + 1] = ${e} - ${b};`,
      `T[i + 2] = 0;`,
      `i += 3 + ((${e} - ${b} + 7) >> 3);`,
      '} else {',
    );
  }
  const keys = g.fresh('ks');
  const [n, k, key, y] = g.names('n', 'k', 'key', 'y');
  // A key's slot and the two slots of a short key's bytes, then its value's.
  const per = 3 + g.slots(op.values.d);
  g.enc.push(
    `if (!rt.isPlainObject(${x})) ${g.fail(path, shown, x)}`,
    `const ${keys} = Object.keys(${x});`,
    `const ${n} = ${keys}.length;`,
    ...(op.max === undefined ? [] : [`if (${n} > ${op.max}) ${g.violated(path, d, x)}`]),
    `if (i + 1 + ${n} * ${per} > T.length) ${g.grow(`i + 1 + Math.min(${n} * ${per}, ${UPFRONT})`)}`,
    `T[i++] = ${n};`,
    `for (let ${k} = 0; ${k} < ${n}; ${k}++) {`,
    `if (i + ${per} > T.length) ${g.grow(`i + ${per}`)}`,
    `const ${key} = ${keys}[${k}];`,
  );
  // A key of at most SHORT_KEY ASCII characters is written in its bytes, into the tape
  // (src/types/json.rs, record_key_encode); another goes in the text.
  const [U, o, j, ch, kn] = g.names('U', 'o', 'j', 'ch', 'kn');
  g.enc.push(
    `const ${kn} = ${key}.length;`,
    `let ${j} = -1;`,
    `if (${kn} <= ${SHORT_KEY}) {`,
    `const ${U} = rt.tapeBytes(T);`,
    `const ${o} = (i + 1) * 8;`,
    `for (${j} = 0; ${j} < ${kn}; ${j}++) { const ${ch} = ${key}.charCodeAt(${j}); if (${ch} >= 128) break; ${U}[${o} + ${j}] = ${ch}; }`,
    '}',
    `if (${j} === ${kn}) { T[i] = -1 - ${kn}; i += 1 + ((${kn} + 7) >> 3); } else {`,
  );
  g.string(key);
  g.enc.push('}');
  g.enc.push(`const ${y} = ${x}[${key}];`);
  g.put(op.values.d, y, path.key(key), per);
  g.enc.push('}');
  if (raw !== null) g.enc.push('}');
  g.room(room);
}

// A json value: written by JS in its bytes (lib/json-tape.js, `write`); a value it gives
// up on is handed to the generic marshaller.
function putJson(g, op, x, path, room) {
  const d = op.d;
  if (g.layout.positional) {
    g.handOffPut(d, x, path);
    g.room(room);
    return;
  }
  const w = g.constant(jsonTape.J);
  const end = g.fresh('e');
  g.enc.push(
    `const ${end} = ${w}.write(${x}, T, i, S, ${g.split ? 'W.d' : '0'}, G.maxDepth, rt.grow, false);`,
    `if (${end} !== ${jsonTape.BUSY} && ${w}.T !== T) { T = ${w}.T; ${g.info.uses64 ? "TI = rt.view(T, 'TI'); TU = rt.view(T, 'TU');" : ''} }`,
    `if (${end} >= 0) { i = ${end}; S = ${w}.S; }`,
    'else {',
  );
  g.handOffPut(d, x, path);
  g.enc.push(`if (${end} === ${jsonTape.FAIL_CUT}) ${g.raise(`${w}.changed(${path.code()})`)}`, '}');
  g.room(room);
}

const PUT = {
  bool(g, op, x, path, room, shown) {
    g.enc.push(`if (typeof ${x} !== 'boolean') ${g.fail(path, shown, x)}`, `T[i++] = ${x} ? 1 : 0;`);
  },
  uint8: putInteger,
  uint16: putInteger,
  uint32: putInteger,
  int8: putInteger,
  int16: putInteger,
  int32: putInteger,
  int: putInteger,
  float32: putFloat,
  float64: putFloat,
  int64: putInt64,
  uint64: putInt64,
  date(g, op, x, path, room, shown) {
    const ms = g.fresh('ms');
    // NaN (not a Date, or an invalid one) is the one value unequal to itself.
    g.enc.push(`const ${ms} = rt.dateTime(${x});`, `if (${ms} !== ${ms}) ${g.fail(path, shown, x)}`, `T[i++] = ${ms};`);
  },
  // Bytes and typed arrays go to the native side as they are (`g.blob`).
  bytes(g, op, x, path, room, shown) {
    const d = op.d;
    g.enc.push(`if (rt.typedKind(${x}) !== 'Uint8Array') ${g.fail(path, shown, x)}`);
    if (d.minLength !== undefined || d.maxLength !== undefined) g.enc.push(`if (!(${emitCount(`rt.inputLength(${x})`, d.minLength, d.maxLength)})) ${g.violated(path, d, x)}`);
    g.blob(x);
  },
  typed(g, op, x, path, room, shown) {
    g.enc.push(`if (rt.typedKind(${x}) !== '${op.tag}') ${g.fail(path, shown, x)}`);
    g.blob(x);
  },
  // Its index: a switch on up to 8 values, else a Map.
  enum(g, op, x, path, room, shown) {
    const values = op.values;
    if (values.length <= 8) {
      g.enc.push(`switch (${x}) {`);
      values.forEach((v, k) => g.enc.push(`case ${JSON.stringify(v)}: T[i++] = ${k}; break;`));
      g.enc.push(`default: ${g.fail(path, shown, x)}`, '}');
    } else {
      const e = g.fresh('e');
      const map = g.constant(new Map(values.map((v, k) => [v, k])));
      g.enc.push(`const ${e} = ${map}.get(${x});`, `if (${e} === undefined) ${g.fail(path, shown, x)}`, `T[i++] = ${e};`);
    }
  },
  // No slot: the value must be the literal.
  const(g, op, x, path, room, shown) {
    g.enc.push(`if (!(${g.test(op.d, x)})) ${g.fail(path, shown, x)}`);
  },
  // In the text; its constraints checked here but for a format the native side checks.
  string(g, op, x, path, room, shown) {
    const d = op.d;
    g.enc.push(`if (typeof ${x} !== 'string') ${g.fail(path, shown, x)}`);
    const checks = string.constrained(d) ? stringSatisfies(g, d, x, true) : '';
    if (checks !== '') g.enc.push(`if (!(${checks})) ${g.violated(path, d, x)}`);
    g.string(x);
  },
  json: putJson,
  // A recursive definition's function (`putDefinition`), made once, called by each ref.
  call(g, op, x, path, room) {
    g.putDefinition(op.def, x, path, room);
  },
  presence(g, op, x, path, room) {
    g.enc.push(`if (${x} === ${String(op.absent)}) T[i++] = 0; else {`, 'T[i++] = 1;');
    // A nullable's value that fails is reported against "T or null".
    g.put(op.of.d, x, path, room, op.absent === null ? op.d : undefined);
    g.enc.push('}');
  },
  default(g, op, x, path, room) {
    const y = g.fresh('d');
    g.enc.push(`const ${y} = ${x} === undefined ? ${g.constant(g.defaultValue(op.d))} : ${x};`);
    g.put(op.of.d, y, path, room);
  },
  tuple(g, op, x, path, room, shown) {
    g.enc.push(`if (!Array.isArray(${x}) || ${x}.length !== ${op.items.length}) ${g.fail(path, shown, x)}`);
    op.items.forEach((item, k) => {
      const y = g.fresh('t');
      g.enc.push(`const ${y} = ${x}[${k}];`);
      g.put(item.d, y, path.item(k), room);
    });
  },
  // The count, then the items: room for all of them made up front (up to UPFRONT slots;
  // past it each item makes its own, so a sparse array of length 2^32 - 1 fails on its
  // first item instead of on memory). Tape room: an array makes room for its items'
  // static slots before its loop, an item that holds arrays makes room for itself on each
  // iteration, and after the loop there is room again for whatever static slots can
  // follow in the enclosing item (`room`).
  array(g, op, x, path, room, shown) {
    const d = op.d;
    const [n, k, y] = g.names('n', 'k', 'y');
    const per = g.slots(op.items.d);
    g.enc.push(`if (!Array.isArray(${x})) ${g.fail(path, shown, x)}`, `const ${n} = ${x}.length;`);
    if (op.min !== undefined || op.max !== undefined) g.enc.push(`if (!(${emitCount(n, op.min, op.max)})) ${g.violated(path, d, x)}`);
    g.enc.push(`if (i + 1 + ${n} * ${per} > T.length) ${g.grow(`i + 1 + Math.min(${n} * ${per}, ${UPFRONT})`)}`, `T[i++] = ${n};`);
    if (g.putItems(d, x, n, path)) {
      g.room(room);
      return;
    }
    g.enc.push(`for (let ${k} = 0; ${k} < ${n}; ${k}++) {`, `if (i + ${per} > T.length) ${g.grow(`i + ${per}`)}`, `const ${y} = ${x}[${k}];`);
    g.put(op.items.d, y, path.index(k), per);
    g.enc.push('}');
    g.room(room);
  },
  // Each field read as a property (own only for names Object.prototype has), in order.
  object(g, op, x, path, room, shown) {
    g.enc.push(`if (!${isObjectJs(x)}) ${g.fail(path, shown, x)}`);
    for (const f of op.fields) {
      const y = g.fresh('f');
      g.enc.push(`const ${y} = ${readField(x, f.name)};`);
      g.put(f.d, y, path.field(f.name), room);
    }
    if (op.strict !== null) {
      const names = g.constant(new Set(op.d.fields.map((f) => f.name)));
      const error = g.fresh('e');
      g.enc.push(`const ${error} = rt.strictError(${x}, ${names}, ${path.code()});`, `if (${error} !== null) ${g.raise(error)}`);
    }
  },
  record: putRecord,
  // The count, then each entry's key and value, in the Map's order.
  map(g, op, x, path, room, shown) {
    const [n, k, e, key, y] = g.names('n', 'k', 'e', 'key', 'y');
    const per = g.slots(op.keys.d) + g.slots(op.values.d);
    g.enc.push(
      `if (!rt.isMap(${x})) ${g.fail(path, shown, x)}`,
      `const ${n} = ${x}.size;`,
      ...(op.max === undefined ? [] : [`if (${n} > ${op.max}) ${g.violated(path, op.d, x)}`]),
      `if (i + 1 + ${n} * ${per} > T.length) ${g.grow(`i + 1 + Math.min(${n} * ${per}, ${UPFRONT})`)}`,
      `T[i++] = ${n};`,
      `let ${k} = 0;`,
      `for (const ${e} of ${x}) {`,
      `if (i + ${per} > T.length) ${g.grow(`i + ${per}`)}`,
      `const ${key} = ${e}[0];`,
      `const ${y} = ${e}[1];`,
    );
    g.put(op.keys.d, key, path.index(k).item(0), per);
    g.put(op.values.d, y, path.index(k).item(1), per);
    g.enc.push(`${k}++;`, '}');
    g.room(room);
  },
  union: putUnion,
  tagged: putTagged,
};

const PUT_ITEMS = {
  // An array's json items written by one `items` call (lib/json-tape.js), each as `write`
  // writes it; one it gives up on is handed to the generic marshaller in place, and the
  // loop goes on from the next.
  json(g, op, x, n, path) {
    const w = g.constant(jsonTape.J);
    const [k, e, f, y] = g.names('k', 'e', 'f', 'y');
    g.enc.push(
      `for (let ${k} = 0; ${k} < ${n}; ${k}++) {`,
      `const ${e} = ${w}.items(${x}, ${k}, ${n}, T, i, S, ${g.split ? 'W.d' : '0'}, G.maxDepth, rt.grow, false);`,
      `let ${y};`,
      `let ${f} = 0;`,
      `if (${e} !== ${jsonTape.BUSY}) {`,
      `if (${w}.T !== T) { T = ${w}.T; ${g.info.uses64 ? "TI = rt.view(T, 'TI'); TU = rt.view(T, 'TU');" : ''} }`,
      `i = ${e}; S = ${w}.S; ${k} = ${w}.k;`,
      `if (${k} === ${n}) break;`,
      `${y} = ${w}.item; ${w}.item = null; ${f} = ${w}.failed;`,
      `} else ${y} = ${x}[${k}];`,
    );
    g.handOffPut(op.d, y, path.index(k));
    g.enc.push(`if (${f} === ${jsonTape.FAIL_CUT}) ${g.raise(`${w}.changed(${path.index(k).code()})`)}`, '}');
  },
};

module.exports = { PUT, PUT_ITEMS };
