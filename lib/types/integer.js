'use strict';
// The integers JS holds as numbers (src/types/integer.rs): uint8, int8 (one byte), uint16,
// uint32 (varint), int16, int32 (zigzag varint), and int, any safe integer (zigzag varint
// of up to 64 bits). Tape: one slot, the number. No coercion: only numbers that are
// integers in range; -0 is accepted as 0.
//
// Constraints (docs/FORMAT.md, "Integers"): `min` and `max` (inclusive) and `multipleOf`,
// checked by JS on encode and natively on decode.

const { ShornError, describe } = require('../errors');

const OPTIONS = new Set(['min', 'max', 'multipleOf']);

// The descriptor of `name` with the constraints in `options` (checked by the compiler).
function buildConstrained(name, options, convert = (v) => v) {
  const d = { type: name };
  if (options === undefined) return d;
  if (typeof options !== 'object' || options === null) {
    throw new ShornError('ERR_SHORN_SCHEMA', `invalid schema: t.${name} takes an object of constraints`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTIONS.has(key)) throw new ShornError('ERR_SHORN_SCHEMA', `invalid schema: t.${name} has no constraint ${JSON.stringify(key)}`);
    if (options[key] !== undefined) d[key] = convert(options[key], key);
  }
  return d;
}

const boundsOf = (d) => d.min !== undefined || d.max !== undefined || d.multipleOf !== undefined;

function satisfies(d, x) {
  return (d.min === undefined || x >= d.min) && (d.max === undefined || x <= d.max) && (d.multipleOf === undefined || x % d.multipleOf === 0);
}

// The constraints integer `x` breaks (`x` of any integer type, a bigint included).
function violations(d, x) {
  const out = [];
  if (d.min !== undefined && !(x >= toSame(x, d.min))) out.push({ issue: 'too_small', expected: `${d.type} of at least ${d.min}`, found: describe(x) });
  if (d.max !== undefined && !(x <= toSame(x, d.max))) out.push({ issue: 'too_big', expected: `${d.type} of at most ${d.max}`, found: describe(x) });
  if (d.multipleOf !== undefined && x % toSame(x, d.multipleOf) !== toSame(x, 0)) {
    out.push({ issue: 'not_multiple_of', expected: `${d.type} that is a multiple of ${d.multipleOf}`, found: describe(x) });
  }
  return out;
}

// A bound in the kind of number `x` is (bigint bounds are decimal strings).
const toSame = (x, bound) => (typeof x === 'bigint' ? BigInt(bound) : bound);

// The constraints of `x` as generated code ('' if none); `literal` writes a bound.
function emitSatisfies(d, x, literal = String) {
  const parts = [];
  if (d.min !== undefined) parts.push(`${x} >= ${literal(d.min)}`);
  if (d.max !== undefined) parts.push(`${x} <= ${literal(d.max)}`);
  if (d.multipleOf !== undefined) parts.push(`${x} % ${literal(d.multipleOf)} === ${literal(0)}`);
  return parts.join(' && ');
}

// `x` is an integer of the type's range, written as one bit operation the way V8 inlines
// best. The bit operation alone also rejects non-numbers (`'5' >>> 0 !== '5'`); the typeof
// guard keeps valueOf() of objects from running.
const RANGES = [
  ['uint8', 0, 255, (x) => `(${x} & 255) === ${x}`, (x) => (x & 255) === x],
  ['uint16', 0, 65535, (x) => `(${x} & 65535) === ${x}`, (x) => (x & 65535) === x],
  ['uint32', 0, 4294967295, (x) => `(${x} >>> 0) === ${x}`, (x) => x >>> 0 === x],
  ['int8', -128, 127, (x) => `((${x} << 24) >> 24) === ${x}`, (x) => (x << 24) >> 24 === x],
  ['int16', -32768, 32767, (x) => `((${x} << 16) >> 16) === ${x}`, (x) => (x << 16) >> 16 === x],
  ['int32', -2147483648, 2147483647, (x) => `(${x} | 0) === ${x}`, (x) => (x | 0) === x],
];

function integerType(name, expected, emitCheck, check) {
  return {
    name,
    build: (options) => buildConstrained(name, options),
    constraints: [...OPTIONS],
    expected: () => expected,
    slots: () => 1,
    emitTest: (g, d, x) => `(typeof ${x} === 'number' && ${emitCheck(x)}${boundsOf(d) ? ` && ${emitSatisfies(d, x)}` : ''})`,
    emitPut(g, d, x, path, room, shown) {
      g.enc.push(`if (!(typeof ${x} === 'number' && ${emitCheck(x)})) ${g.fail(path, shown, x)}`);
      if (boundsOf(d)) g.enc.push(`if (!(${emitSatisfies(d, x)})) ${g.violated(path, d, x)}`);
      g.enc.push(`T[i++] = ${x};`);
    },
    emitTake: () => 'T[i++]',
    // The JS read of a small message (lib/codegen.js, `fastTake`): one byte, or a varint
    // of at most 32 bits (int's longer ones are left to the native decode). A value out of
    // its bounds gives up the JS read, and the native decode reports it.
    emitRead(g, d) {
      g.fastCost += 16;
      const read = READ_JS[name](g);
      if (!boundsOf(d)) return read;
      const v = g.fresh('r');
      g.fast.push(`const ${v} = ${read};`, `if (!(${emitSatisfies(d, v)})) break fast;`);
      return v;
    },
    // The JS write of a small message (lib/codegen.js, `fastPut`): what `emitPut` checks,
    // then the bytes.
    emitWrite(g, d, x) {
      g.wr.push(`if (!${this.emitTest(g, d, x)}) break write;`);
      WRITE_JS[name](g, x);
      return true;
    },
    test: (d, x) => typeof x === 'number' && check(x) && (!boundsOf(d) || satisfies(d, x)),
    satisfies,
    violations,
    put(c, d, x, shown) {
      if (!(typeof x === 'number' && check(x))) throw c.fail(shown, x);
      if (boundsOf(d) && !satisfies(d, x)) throw c.violated(d, x);
      c.write(x);
    },
    take: (c) => c.T[c.i++],
    toJson: (d, x) => x,
    fromJson: (d, j) => j,
    // `shorn inspect` (lib/inspect.js): the bytes as src/types/integer.rs reads them.
    inspect(r, d) {
      const at = r.offset;
      return r.leaf(at, d, READ[name](r, at));
    },
    lower: () => ({ op: name }),
    minBytes: () => 1,
  };
}

// How a generated decode's JS read takes each integer (`emitRead`).
const unzigzagJs = (v) => `((${v} >>> 1) ^ -(${v} & 1))`;
// A zigzag value of up to 2^53 - 1 (`readVarint53`): by bit operations within 32 bits.
const unzigzag53Js = (v) => `(${v} <= 4294967295 ? ${unzigzagJs(v)} : ${v} % 2 === 0 ? ${v} / 2 : -(${v} + 1) / 2)`;
// Varint `v` if at most `max`; above, the native decode reads (and rejects) it.
function inRange(g, v, max) {
  g.fast.push(`if (${v} > ${max}) break fast;`);
  return v;
}
const READ_JS = {
  uint8: (g) => g.readByte(),
  int8: (g) => `((${g.readByte()} << 24) >> 24)`,
  uint16: (g) => inRange(g, g.readVarint(), 65535),
  uint32: (g) => g.readVarint(),
  int16: (g) => unzigzagJs(inRange(g, g.readVarint(), 65535)),
  int32: (g) => unzigzagJs(g.readVarint()),
  int: (g) => unzigzag53Js(g.readVarint53()),
};

// How a generated encode's JS write puts each integer (`emitWrite`): a byte, a varint, or
// a zigzag varint (an int as one of 64 bits, `writeZigzag`).
const zigzagJs = (x) => `(((${x} << 1) ^ (${x} >> 31)) >>> 0)`;
const WRITE_JS = {
  uint8: (g, x) => g.wr.push(`U[o++] = ${x};`),
  int8: (g, x) => g.wr.push(`U[o++] = ${x};`),
  uint16: (g, x) => g.writeVarint(x),
  uint32: (g, x) => g.writeVarint(x),
  int16: (g, x) => g.writeVarint(zigzagJs(x)),
  int32: (g, x) => g.writeVarint(zigzagJs(x)),
  int: (g, x) => g.writeZigzag(x),
};

// How `shorn inspect` reads each integer, with the range checks of decode.
const OUT_OF_RANGE = 'varint out of range for its type';
const unzigzag = (u) => (u >>> 1) ^ -(u & 1);
const READ = {
  uint8: (r) => r.u8(),
  int8: (r) => (r.u8() << 24) >> 24,
  uint16(r, at) {
    const v = r.varint();
    if (v > 65535) throw r.malformed(at, OUT_OF_RANGE);
    return v;
  },
  uint32: (r) => r.varint(),
  int16(r, at) {
    const v = unzigzag(r.varint());
    if (v < -32768 || v > 32767) throw r.malformed(at, OUT_OF_RANGE);
    return v;
  },
  int32: (r) => unzigzag(r.varint()),
  int(r, at) {
    const u = r.varint64();
    const v = (u >> 1n) ^ -(u & 1n);
    if (v > 9007199254740991n || v < -9007199254740991n) throw r.malformed(at, OUT_OF_RANGE);
    return Number(v);
  },
};

module.exports = [
  ...RANGES.map(([name, lo, hi, emitCheck, check]) => integerType(name, `${name} (integer ${lo} to ${hi})`, emitCheck, check)),
  integerType(
    'int',
    'int (safe integer)',
    (x) => `Number.isSafeInteger(${x})`,
    (x) => Number.isSafeInteger(x),
  ),
];

module.exports.unzigzag53Js = unzigzag53Js;
module.exports.buildConstrained = buildConstrained;
module.exports.boundsOf = boundsOf;
module.exports.violations = violations;
module.exports.emitSatisfies = emitSatisfies;
