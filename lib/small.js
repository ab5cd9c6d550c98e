'use strict';
// The JS read and write of small messages (lib/codegen.js: `fastTake`, `fastPut`, and
// `rawWriter` for records written into the tape): a back end over the lowering
// (lib/lower.js), one entry per operation, as lib/closures.js is another. What a type's
// values are (its builder, checks, JSON form, constraints) stays in lib/types/; how these
// generated paths read and write an operation's bytes is here.
//
// READ[op.op](g, op) pushes onto `g.fast` the statements that read the value from
// `bytes` at `o$` (giving up by `break fast` on anything the native decode should see) and
// returns the expression of the value, or null where the operation has no JS read.
// WRITE[op.op](g, op, x) pushes onto `g.wr` the statements that write `x` into `U` at `o`
// (giving up by `break write` on anything else) and returns true, or false where it has
// none. An operation with no entry (bytes, int64, map, json, typed arrays, a recursive
// call; and records on the read side) has neither: `g.read` and `g.write` then give null
// and false, and the schema keeps the native path. `g` is the lib/codegen.js Generator:
// its cursors (`readByte`, `readVarint`, `writeVarint`, ...) and its tests (`g.test`, each
// type's test as generated code, lib/emit-tests.js) are shared with the tape paths.

const rt = require('#runtime');
const integer = require('./types/integer');
const float = require('./types/float');
const string = require('./types/string');
const { readField, literalKey, assignField, isObjectJs, tagSwitch, integerSatisfies, floatSatisfies, stringSatisfies } = require('./emit-tests');
const { CHAIN_MAX } = require('./types/union');
const { smallText, smallTextLater } = require('./small-text');

// ---- integers --------------------------------------------------------------------------

const unzigzagJs = (v) => `((${v} >>> 1) ^ -(${v} & 1))`;
// A zigzag value of up to 2^53 - 1 (`readVarint53`): by bit operations within 32 bits.
const unzigzag53Js = (v) => `(${v} <= 4294967295 ? ${unzigzagJs(v)} : ${v} % 2 === 0 ? ${v} / 2 : -(${v} + 1) / 2)`;
// Varint `v` if at most `max`; above, the native decode reads (and rejects) it.
function inRange(g, v, max) {
  g.fast.push(`if (${v} > ${max}) break fast;`);
  return v;
}
// One byte, or a varint of at most 32 bits (int's longer ones are left to the native
// decode).
const INTEGER_READ = {
  uint8: (g) => g.readByte(),
  int8: (g) => `((${g.readByte()} << 24) >> 24)`,
  uint16: (g) => inRange(g, g.readVarint(), 65535),
  uint32: (g) => g.readVarint(),
  int16: (g) => unzigzagJs(inRange(g, g.readVarint(), 65535)),
  int32: (g) => unzigzagJs(g.readVarint()),
  int: (g) => unzigzag53Js(g.readVarint53()),
};
// A byte, a varint, or a zigzag varint (an int as one of 64 bits, `writeZigzag`).
const zigzagJs = (x) => `(((${x} << 1) ^ (${x} >> 31)) >>> 0)`;
const INTEGER_WRITE = {
  uint8: (g, x) => g.wr.push(`U[o++] = ${x};`),
  int8: (g, x) => g.wr.push(`U[o++] = ${x};`),
  uint16: (g, x) => g.writeVarint(x),
  uint32: (g, x) => g.writeVarint(x),
  int16: (g, x) => g.writeVarint(zigzagJs(x)),
  int32: (g, x) => g.writeVarint(zigzagJs(x)),
  int: (g, x) => g.writeZigzag(x),
};

// A value out of its bounds gives up the JS read, and the native decode reports it.
function readInteger(g, op) {
  g.fastCost += 16;
  const read = INTEGER_READ[op.op](g);
  if (!integer.boundsOf(op.d)) return read;
  const v = g.fresh('r');
  g.fast.push(`const ${v} = ${read};`, `if (!(${integerSatisfies(op.d, v)})) break fast;`);
  return v;
}

// What the tape path checks (lib/emit-tests.js), then the bytes.
function writeInteger(g, op, x) {
  g.wr.push(`if (!${g.test(op.d, x)}) break write;`);
  INTEGER_WRITE[op.op](g, x);
  return true;
}

// ---- floats ----------------------------------------------------------------------------

// The bytes through a typed array of the machine's byte order, where that is
// little-endian, as on the wire. Out of its bounds (NaN among them), the native decode
// reads and reports it.
function readFloat(g, op) {
  if (!rt.LITTLE_ENDIAN) return null;
  const size = op.op === 'float32' ? 4 : 8;
  g.fastCost += 16;
  g.fast.push(`if (${size} > n$ - o$) break fast;`);
  const v = g.fresh('r');
  g.fast.push(`const ${v} = rt.${op.op}At(bytes, o$);`, `o$ += ${size};`);
  if (float.boundsOf(op.d)) g.fast.push(`if (!(${floatSatisfies(op.d, v)})) break fast;`);
  return v;
}

// Through the slab's DataView, little-endian. A NaN is left to the native encode (a NaN's
// bits are not something to rely on two ways).
function writeFloat(g, op, x) {
  g.floats = true;
  const [size, set] = op.op === 'float32' ? [4, 'setFloat32'] : [8, 'setFloat64'];
  g.wr.push(`if (!(${g.test(op.d, x)} && ${x} === ${x}) || o > e$) break write;`, `DV.${set}(o, ${x}, true);`, `o += ${size};`);
  return true;
}

// ---- optional, nullable, default -------------------------------------------------------

// The presence byte of `op` (a `presence` operation), then its value: the variable that
// holds it (undefined or null when absent) and whether it was there (an object's optional
// field needs both), or null where the value has no read.
function readPresent(g, op) {
  const has = g.readByte();
  const value = g.fresh('r');
  g.fast.push(`if (${has} > 1) break fast;`, `let ${value}${op.absent === null ? ' = null' : ''};`, `if (${has} === 1) {`);
  const inner = g.read(op.of);
  if (inner === null) return null;
  g.fast.push(`${value} = ${inner};`, '}');
  return { value, has: `${has} === 1` };
}

// ---- unions ----------------------------------------------------------------------------

// The variant index, then a switch on it, each case reading its variant (in a large
// schema, in a function of its own: `readApart`); an index out of range gives up. The
// heap estimate counts the costliest variant.
function readVariants(g, op) {
  const k = g.readVarint();
  const v = g.fresh('u');
  g.fast.push(`let ${v};`, `switch (${k}) {`);
  const before = g.fastCost;
  let most = 0;
  for (const [n, variant] of op.variants.entries()) {
    g.fastCost = 0;
    g.fast.push(`case ${n}: {`);
    const x = g.split ? g.readApart(variant) : g.read(variant);
    if (x === null) return null;
    g.fast.push(`${v} = ${x};`, 'break;', '}');
    most = Math.max(most, g.fastCost);
  }
  g.fast.push('default: break fast;', '}');
  g.fastCost = before + 16 + most;
  return v;
}

const READ = {
  bool(g) {
    const b = g.readByte();
    g.fast.push(`if (${b} > 1) break fast;`);
    return `${b} !== 0`;
  },
  uint8: readInteger,
  uint16: readInteger,
  uint32: readInteger,
  int8: readInteger,
  int16: readInteger,
  int32: readInteger,
  int: readInteger,
  float32: readFloat,
  float64: readFloat,
  // The zigzag varint, up to 2^53 - 1, so within ±2^52 ms, inside a Date's range (longer
  // ones are left to the native decode).
  date(g) {
    g.fastCost += 112;
    return `new Date(${unzigzag53Js(g.readVarint53())})`;
  },
  // An ASCII string of up to 16 characters (`rt.asciiText`); other text gives up the JS
  // read. A constrained one is checked as lib/emit-tests.js checks it (its lengths, pattern and
  // format, as encode checks them); one that breaks them gives up the JS read too, and the
  // native decode reports it. On the JS back end (`g.limits.anyText`, lib/small-text.js
  // `smallText`), any well-formed text of the message, whose estimate (two bytes a UTF-16
  // unit, at most SET_INPUT of them) is counted in.
  string(g, op) {
    const max = g.limits.maxStringBytes;
    if (max >= 0 && max < rt.SET_INPUT) return null;
    const anyText = g.limits.anyText === true;
    g.fastCost += anyText ? 64 + 2 * rt.SET_INPUT : 64;
    const n = g.readVarint();
    const s = g.fresh('r');
    g.fast.push(`if (${n} > n$ - o$) break fast;`);
    if (anyText) {
      // A field of the message's object whose text is left for one copy with the others
      // (`laterText`): a number until then.
      const later = g.laterField === op && !string.constrained(op.d);
      const text = g.constant(later ? smallTextLater : smallText);
      g.fast.push(`let ${s} = rt.asciiText(bytes, o$, ${n});`, `if (${s} === null && (${s} = ${text}(bytes, o$, ${n})) === null) break fast;`);
      if (later) g.laterVars.push(s);
    } else g.fast.push(`const ${s} = rt.asciiText(bytes, o$, ${n});`, `if (${s} === null) break fast;`);
    g.fast.push(`o$ += ${n};`);
    if (string.constrained(op.d)) g.fast.push(`if (!(${stringSatisfies(g, op.d, s)})) break fast;`);
    return s;
  },
  enum(g, op) {
    const k = g.readVarint();
    g.fast.push(`if (${k} >= ${op.values.length}) break fast;`);
    g.fastCost += 16;
    return `${g.constant(op.values)}[${k}]`;
  },
  // No bytes.
  const: (g, op) => JSON.stringify(op.value),
  // No more items than bytes left (each takes one at least), each read in a loop.
  array(g, op) {
    const max = g.limits.maxArrayLength;
    if (op.min !== undefined || op.max !== undefined || (max >= 0 && max < rt.SET_INPUT)) return null;
    const n = g.readVarint();
    const v = g.fresh('r');
    const k = g.fresh('k');
    g.fast.push(`if (${n} > n$ - o$) break fast;`, `const ${v} = ${n} === 0 ? [] : new NewArray(${n});`);
    const outer = g.fast;
    const cost = g.fastCost;
    g.fast = [];
    const item = g.read(op.items);
    const body = g.fast;
    g.fast = outer;
    if (item === null) return null;
    // At most SET_INPUT items, each costing what its read counted and a slot.
    g.fastCost = cost + 48 + (g.fastCost - cost + 11) * rt.SET_INPUT;
    g.fast.push(`for (let ${k} = 0; ${k} < ${n}; ${k}++) {`, ...body, `${v}[${k}] = ${item};`, '}');
    return v;
  },
  // Each item, then the array as the tape path makes it.
  tuple(g, op) {
    const items = [];
    for (const item of op.items) {
      const x = g.read(item);
      if (x === null) return null;
      items.push(x);
    }
    g.fastCost += 48 + 11 * items.length;
    return items.length >= 2 ? `NewArray(${items.join(', ')})` : `[${items.join(', ')}]`;
  },
  // The object as the tape path builds it: a literal up to the first optional field, then
  // assignments.
  object(g, op) {
    const values = [];
    // The message's own object, when it is all literal: its strings' text may be made
    // once it is read (`laterText`).
    const top = g.laterRoot === op && op.fields.every((f) => f.kind !== 'optional');
    for (const f of op.fields) {
      const field = g.op(f.d);
      if (f.kind !== 'optional') {
        if (top) g.laterField = field;
        const value = g.read(field);
        g.laterField = null;
        if (value === null) return null;
        values.push({ f, value });
        continue;
      }
      const read = readPresent(g, field);
      if (read === null) return null;
      values.push({ f, ...read });
    }
    g.fastCost += 24 + 8 * op.fields.length;
    const first = values.findIndex((x) => x.has);
    const literal = `{ ${(first < 0 ? values : values.slice(0, first)).map((x) => `${literalKey(x.f.name)}: ${x.value}`).join(', ')} }`;
    if (first < 0) return literal;
    const o = g.fresh('r');
    g.fast.push(`const ${o} = ${literal};`);
    for (const x of values.slice(first)) g.fast.push(assignField(o, x.f.name, x.value, x.has));
    return o;
  },
  presence(g, op) {
    const read = readPresent(g, op);
    return read === null ? null : read.value;
  },
  // On the wire, its type.
  default: (g, op) => g.read(op.of),
  union: readVariants,
  tagged: readVariants,
};

const WRITE = {
  bool(g, op, x) {
    g.wr.push(`if (typeof ${x} !== 'boolean') break write;`, `U[o++] = ${x} ? 1 : 0;`);
    return true;
  },
  uint8: writeInteger,
  uint16: writeInteger,
  uint32: writeInteger,
  int8: writeInteger,
  int16: writeInteger,
  int32: writeInteger,
  int: writeInteger,
  float32: writeFloat,
  float64: writeFloat,
  // The epoch ms, as the tape path reads them.
  date(g, op, x) {
    const ms = g.fresh('ms');
    g.wr.push(`const ${ms} = rt.dateTime(${x});`, `if (${ms} !== ${ms}) break write;`);
    g.writeZigzag(ms);
    return true;
  },
  // An ASCII string, its length then its chars; other text gives up the JS write.
  // Constraints are checked as lib/emit-tests.js checks them, the formats the native side checks
  // on encode included.
  string(g, op, x) {
    g.wr.push(`if (!(${g.test(op.d, x)})) break write;`);
    g.writeAscii(x, g.writeTextMax);
    return true;
  },
  // The index, found as the tape path finds it.
  enum(g, op, x) {
    const values = op.values;
    if (values.length <= 8) {
      g.wr.push(`switch (${x}) {`);
      values.forEach((v, k) => g.wr.push(`case ${JSON.stringify(v)}: U[o++] = ${k}; break;`));
      g.wr.push('default: break write;', '}');
    } else {
      const e = g.fresh('e');
      g.wr.push(`const ${e} = ${g.constant(new Map(values.map((v, k) => [v, k])))}.get(${x});`, `if (${e} === undefined) break write;`);
      g.writeVarint(e);
    }
    return true;
  },
  // No bytes.
  const(g, op, x) {
    g.wr.push(`if (!(${g.test(op.d, x)})) break write;`);
    return true;
  },
  // The count, then each item; no more items than bytes left (each takes one at least).
  array(g, op, x) {
    if (op.min !== undefined || op.max !== undefined) return false;
    const [n, k, y] = g.names('n', 'k', 'y');
    g.wr.push(`if (!Array.isArray(${x})) break write;`, `const ${n} = ${x}.length;`, `if (${n} > e$ - o) break write;`);
    g.writeVarint(n);
    g.wr.push(`for (let ${k} = 0; ${k} < ${n}; ${k}++) {`, `const ${y} = ${x}[${k}];`);
    if (!g.write(op.items, y)) return false;
    g.wr.push('if (o > e$) break write;', '}');
    return true;
  },
  // Each item, read as the tape path reads them.
  tuple(g, op, x) {
    g.wr.push(`if (!Array.isArray(${x}) || ${x}.length !== ${op.items.length}) break write;`);
    for (const [k, item] of op.items.entries()) {
      const y = g.fresh('t');
      g.wr.push(`const ${y} = ${x}[${k}];`);
      if (!g.write(item, y)) return false;
    }
    return true;
  },
  // The fields in order, read as the tape path reads them.
  object(g, op, x) {
    g.wr.push(`if (!${isObjectJs(x)}) break write;`);
    for (const f of op.fields) {
      const y = g.fresh('f');
      g.wr.push(`const ${y} = ${readField(x, f.name)};`);
      if (!g.write(g.op(f.d), y)) return false;
    }
    if (op.strict !== null) g.wr.push(`if (rt.strictError(${x}, ${g.constant(op.strict)}, '$') !== null) break write;`);
    return true;
  },
  presence(g, op, x) {
    const absent = String(op.absent);
    g.wr.push(`if (${x} === ${absent}) U[o++] = 0; else {`, 'U[o++] = 1;');
    if (!g.write(op.of, x)) return false;
    g.wr.push('}');
    return true;
  },
  // The type's, with the default for undefined, as the tape path.
  default(g, op, x) {
    const y = g.fresh('d');
    g.wr.push(`const ${y} = ${x} === undefined ? ${g.constant(g.defaultValue(op.d))} : ${x};`);
    return g.write(op.of, y);
  },
  // The count, then each key (all ASCII) and its value; anything else gives the JS write
  // up.
  record(g, op, x) {
    const keys = g.fresh('ks');
    const [n, k, key, y] = g.names('n', 'k', 'key', 'y');
    g.wr.push(`if (!rt.isPlainObject(${x})) break write;`, `const ${keys} = Object.keys(${x});`, `const ${n} = ${keys}.length;`);
    if (op.max !== undefined) g.wr.push(`if (${n} > ${op.max}) break write;`);
    g.wr.push(`if (${n} > e$ - o) break write;`);
    g.writeVarint(n);
    g.wr.push(`for (let ${k} = 0; ${k} < ${n}; ${k}++) {`, `const ${key} = ${keys}[${k}];`);
    g.writeAscii(key);
    g.wr.push(`const ${y} = ${x}[${key}];`);
    if (!g.write(op.values, y)) return false;
    g.wr.push('if (o > e$) break write;', '}');
    return true;
  },
  // The first variant that accepts the value, tested as the tape path tests them; none
  // gives up.
  union(g, op, x) {
    const chain = op.variants.length <= CHAIN_MAX;
    const label = chain ? '' : g.fresh('union');
    if (!chain) g.wr.push(`${label}: {`);
    for (const [k, variant] of op.variants.entries()) {
      g.wr.push(`${k === 0 || !chain ? '' : 'else '}if (${g.test(op.ds[k], x)}) {`);
      g.writeVarint(String(k));
      if (!(g.split ? g.writeApart(variant, x) : g.write(variant, x))) return false;
      g.wr.push(chain ? '}' : `break ${label};\n}`);
    }
    g.wr.push(chain ? 'else break write;' : 'break write;\n}');
    return true;
  },
  // The variant its tag names, as the tape path finds it (in a large schema, written by a
  // function of its own: `writeApart`); an unknown tag gives up.
  tagged(g, op, x) {
    const tags = tagSwitch(g, op.d, readField(x, op.key));
    g.wr.push(`if (typeof ${x} !== 'object' || ${x} === null || Array.isArray(${x})) break write;`, tags.open);
    for (const [k, variant] of op.variants.entries()) {
      g.wr.push(`case ${tags.label(k)}: {`);
      g.writeVarint(String(k));
      if (!(g.split ? g.writeApart(variant, x) : g.write(variant, x))) return false;
      g.wr.push('break;', '}');
    }
    g.wr.push('default: break write;', '}');
    return true;
  },
};

module.exports = { READ, WRITE };
