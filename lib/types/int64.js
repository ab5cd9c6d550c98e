'use strict';
// int64 and uint64: bigints in range (src/types/int64.rs); numbers are rejected (no
// coercion), decode gives a bigint. Tape: one slot holding the 64 bits, written and read
// through BigInt64Array / BigUint64Array views of the tape (TI, TU).
//
// Constraints (docs/FORMAT.md, "int64, uint64"): `min`, `max` and `multipleOf` as for the
// other integers, given as bigints and held in the descriptor as strings of decimal digits.

const { ShornError } = require('../errors');
const { buildConstrained, boundsOf, violations, integerBounds } = require('./integer');

function decimal(name) {
  return (v, key) => {
    if (typeof v !== 'bigint') {
      throw new ShornError('ERR_SHORN_SCHEMA', `invalid schema: t.${name} takes bigint constraints (${key}: ${v}n, not ${typeof v})`);
    }
    return String(v);
  };
}

// Each descriptor's bounds as bigints, read once.
const bigBounds = new WeakMap();
function bounds(d) {
  let b = bigBounds.get(d);
  if (b === undefined) {
    const big = (v) => (v === undefined ? undefined : BigInt(v));
    bigBounds.set(d, (b = { min: big(d.min), max: big(d.max), multipleOf: big(d.multipleOf) }));
  }
  return b;
}

function satisfies(d, x) {
  const b = bounds(d);
  return (b.min === undefined || x >= b.min) && (b.max === undefined || x <= b.max) && (b.multipleOf === undefined || x % b.multipleOf === 0n);
}

// src/types/int64.rs, `parse_integer`: canonical decimal digits, up to 20 of them.
function parseInteger(text) {
  const digits = text.startsWith('-') ? text.slice(1) : text;
  const canonical = digits.length > 0 && digits.length <= 20 && /^[0-9]+$/.test(digits) && (digits === '0' || !digits.startsWith('0')) && text !== '-0';
  return canonical ? BigInt(text) : undefined;
}

// The compiler's reading of the descriptor (src/types/int64.rs, `constrained`: lib/schema-rules.js).
function int64Rules(name, lo, hi) {
  return (d, cx) => {
    const bound = (key) => {
      if (!Object.hasOwn(d, key)) return undefined;
      const j = d[key];
      if (typeof j !== 'string') throw cx.fail(`${key} of a ${name} must be a string of decimal digits (a bigint), found ${cx.kind(j)}`);
      const v = parseInteger(j);
      if (v === undefined || v < lo || v > hi) throw cx.fail(`${key} of a ${name} must be an integer from ${lo} to ${hi} in decimal digits, found ${JSON.stringify(j)}`);
      return v;
    };
    const min = bound('min');
    const max = bound('max');
    let multipleOf;
    if (Object.hasOwn(d, 'multipleOf')) {
      const j = d.multipleOf;
      const m = typeof j === 'string' ? parseInteger(j) : undefined;
      if (m === undefined || m < 1n || m > 18446744073709551615n) throw cx.fail(`multipleOf of a ${name} must be an integer from 1 to 18446744073709551615 in decimal digits`);
      multipleOf = m;
    }
    if (min === undefined && max === undefined && multipleOf === undefined) return { k: name };
    integerBounds(cx, name, min ?? lo, max ?? hi, multipleOf ?? 1n);
    return cx.checked({ k: name });
  };
}

function int64Type(name, lo, hi, view) {
  const min = BigInt(lo);
  const max = BigInt(hi);
  return {
    name,
    members: ['min', 'max', 'multipleOf'],
    rules: int64Rules(name, BigInt(lo), BigInt(hi)),
    build: (options) => buildConstrained(name, options, decimal(name)),
    constraints: ['min', 'max', 'multipleOf'],
    expected: () => `${name} (bigint ${lo} to ${hi})`,
    slots: () => 1,
    uses64: true,
    test: (d, x) => typeof x === 'bigint' && x >= min && x <= max && (!boundsOf(d) || satisfies(d, x)),
    satisfies,
    violations,
    put(c, d, x, shown) {
      if (!(typeof x === 'bigint' && x >= min && x <= max)) throw c.fail(shown, x);
      if (boundsOf(d) && !satisfies(d, x)) throw c.violated(d, x);
      c.write64(x, view);
    },
    // JSON form: a number where it is a safe integer, else a string of digits.
    toJson: (d, x) => (x >= -9007199254740991n && x <= 9007199254740991n ? Number(x) : String(x)),
    fromJson(d, j) {
      if (typeof j === 'number' && Number.isSafeInteger(j)) return BigInt(j);
      if (typeof j === 'string' && /^-?[0-9]+$/.test(j)) return BigInt(j);
      return j;
    },
    kinds: 'bigint',
    lower: () => ({ op: name }),
    minBytes: () => 1,
  };
}

// Each type's name, range (decimal digits) and view of the tape.
const RANGES64 = [
  ['int64', '-9223372036854775808', '9223372036854775807', 'TI'],
  ['uint64', '0', '18446744073709551615', 'TU'],
];

module.exports = RANGES64.map(([name, lo, hi, view]) => int64Type(name, lo, hi, view));
module.exports.RANGES64 = RANGES64;
