'use strict';
// float32 (4 bytes, rounded as by Math.fround) and float64 (8 bytes; NaN, the infinities
// and -0 kept): any number (src/types/float.rs). Tape: one slot, the number.
//
// Constraints (docs/FORMAT.md, "float32, float64"): `min` and `max`, inclusive; NaN is
// within no bounds. A float32 is compared as it is rounded to a float32, so that what
// encode takes, decode takes too.

const { ShornError, describe } = require('../errors');

function buildFloat(name, options) {
  const d = { type: name };
  if (options === undefined) return d;
  if (typeof options !== 'object' || options === null) throw new ShornError('ERR_SHORN_SCHEMA', `invalid schema: t.${name} takes an object of constraints`);
  for (const key of Object.keys(options)) {
    if (key !== 'min' && key !== 'max') throw new ShornError('ERR_SHORN_SCHEMA', `invalid schema: t.${name} has no constraint ${JSON.stringify(key)}`);
    if (options[key] !== undefined) d[key] = options[key];
  }
  return d;
}

const boundsOf = (d) => d.min !== undefined || d.max !== undefined;

const SPECIAL = { NaN, Infinity, '-Infinity': -Infinity, '-0': -0 };

function floatToJson(x) {
  if (typeof x !== 'number') return x;
  if (Number.isFinite(x) && !Object.is(x, -0)) return x;
  return Object.is(x, -0) ? '-0' : String(x);
}

function floatFromJson(j) {
  return typeof j === 'string' && Object.hasOwn(SPECIAL, j) ? SPECIAL[j] : j;
}

// The compiler's reading of the descriptor (src/types/float.rs, `constrained`: lib/schema-rules.js).
function floatRules(name) {
  return (d, cx) => {
    const bound = (key) => {
      const x = cx.number(d, key);
      if (x !== undefined && !Number.isFinite(x)) throw cx.fail(`${key} of a ${name} must be a finite number`);
      return x;
    };
    const min = bound('min');
    const max = bound('max');
    if (min === undefined && max === undefined) return { k: name };
    const [lo, hi] = [min ?? -Infinity, max ?? Infinity];
    if (lo > hi) throw cx.fail(`min ${cx.shown(lo)} of a ${name} is greater than its max ${cx.shown(hi)}`);
    return cx.checked({ k: name });
  };
}

function floatType(name) {
  const round = name === 'float32' ? Math.fround : (x) => x;
  function satisfies(d, x) {
    const y = round(x);
    return (d.min === undefined || y >= d.min) && (d.max === undefined || y <= d.max);
  }
  return {
    name,
    members: ['min', 'max'],
    rules: floatRules(name),
    build: (options) => buildFloat(name, options),
    constraints: ['min', 'max'],
    expected: () => `number (${name})`,
    slots: () => 1,
    test: (d, x) => typeof x === 'number' && (!boundsOf(d) || satisfies(d, x)),
    satisfies,
    // A NaN is reported against the bound there is, the minimum first.
    violations(d, x) {
      const y = round(x);
      const found = y === x || Number.isNaN(x) ? describe(x) : `${describe(x)} (${y} as a float32)`;
      if (d.min !== undefined && !(y >= d.min)) return [{ issue: 'too_small', expected: `${name} of at least ${d.min}`, found }];
      if (d.max !== undefined && !(y <= d.max)) return [{ issue: 'too_big', expected: `${name} of at most ${d.max}`, found }];
      return [];
    },
    put(c, d, x, shown) {
      if (typeof x !== 'number') throw c.fail(shown, x);
      if (boundsOf(d) && !satisfies(d, x)) throw c.violated(d, x);
      c.write(x);
    },
    // JSON form: a number; NaN, the infinities and -0 as the strings "NaN", "Infinity",
    // "-Infinity" and "-0", which JSON cannot spell as numbers.
    toJson: (d, x) => floatToJson(x),
    fromJson: (d, j) => floatFromJson(j),
    kinds: 'number',
    lower: () => ({ op: name }),
    minBytes: () => (name === 'float32' ? 4 : 8),
  };
}

module.exports = [floatType('float32'), floatType('float64')];
module.exports.boundsOf = boundsOf;
module.exports.floatToJson = floatToJson;
module.exports.floatFromJson = floatFromJson;
