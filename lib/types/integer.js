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

// The compiler's reading of an integer's descriptor (src/types/integer.rs, `constrained`
// and `bounds`: lib/schema-rules.js): bounds within the type, a divisor that some value
// between them has. `min` and `max` are bigints here, and for int64 and uint64.
function integerBounds(cx, name, min, max, multipleOf) {
  if (min > max) throw cx.fail(`min ${min} of a ${name} is greater than its max ${max}`);
  const r = ((min % multipleOf) + multipleOf) % multipleOf;
  const first = r === 0n ? min : min + (multipleOf - r);
  if (first > max) throw cx.fail(`no ${name} from ${min} to ${max} is a multiple of ${multipleOf}`);
}

function integerRules(name, lo, hi) {
  return (d, cx) => {
    const bound = (key) => {
      const x = cx.number(d, key);
      if (x === undefined) return undefined;
      if (Number.isInteger(x) && x >= lo && x <= hi) return BigInt(x);
      throw cx.fail(`${key} of a ${name} must be an integer from ${lo} to ${hi}, found ${cx.shown(x)}`);
    };
    const min = bound('min');
    const max = bound('max');
    let multipleOf;
    const m = cx.number(d, 'multipleOf');
    if (m !== undefined) {
      if (!(Number.isInteger(m) && m >= 1 && m <= Number.MAX_SAFE_INTEGER)) throw cx.fail(`multipleOf must be a safe integer of at least 1, found ${cx.shown(m)}`);
      multipleOf = BigInt(m);
    }
    if (min === undefined && max === undefined && multipleOf === undefined) return { k: name };
    integerBounds(cx, name, min ?? BigInt(lo), max ?? BigInt(hi), multipleOf ?? 1n);
    return cx.checked({ k: name });
  };
}

function integerType(name, lo, hi, expected, check) {
  return {
    name,
    members: [...OPTIONS],
    rules: integerRules(name, lo, hi),
    build: (options) => buildConstrained(name, options),
    constraints: [...OPTIONS],
    expected: () => expected,
    slots: () => 1,
    test: (d, x) => typeof x === 'number' && check(x) && (!boundsOf(d) || satisfies(d, x)),
    satisfies,
    violations,
    put(c, d, x, shown) {
      if (!(typeof x === 'number' && check(x))) throw c.fail(shown, x);
      if (boundsOf(d) && !satisfies(d, x)) throw c.violated(d, x);
      c.write(x);
    },
    toJson: (d, x) => x,
    fromJson: (d, j) => j,
    kinds: 'number',
    lower: () => ({ op: name }),
    minBytes: () => 1,
  };
}

module.exports = [
  ...RANGES.map(([name, lo, hi, , check]) => integerType(name, lo, hi, `${name} (integer ${lo} to ${hi})`, check)),
  integerType(
    'int',
    -Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER,
    'int (safe integer)',
    (x) => Number.isSafeInteger(x),
  ),
];

module.exports.buildConstrained = buildConstrained;
module.exports.integerBounds = integerBounds;
module.exports.boundsOf = boundsOf;
module.exports.violations = violations;
module.exports.RANGES = RANGES;
