'use strict';
// float32 (4 bytes, rounded as by Math.fround) and float64 (8 bytes; NaN, the infinities
// and -0 kept): any number (src/types/float.rs). Tape: one slot, the number.

const SPECIAL = { NaN, Infinity, '-Infinity': -Infinity, '-0': -0 };

function floatToJson(x) {
  if (typeof x !== 'number') return x;
  if (Number.isFinite(x) && !Object.is(x, -0)) return x;
  return Object.is(x, -0) ? '-0' : String(x);
}

function floatFromJson(j) {
  return typeof j === 'string' && Object.hasOwn(SPECIAL, j) ? SPECIAL[j] : j;
}

function floatType(name) {
  return {
    name,
    build: () => ({ type: name }),
    expected: () => `number (${name})`,
    slots: () => 1,
    emitTest: (g, d, x) => `typeof ${x} === 'number'`,
    emitPut(g, d, x, path, room, shown) {
      g.enc.push(`if (typeof ${x} !== 'number') ${g.fail(path, shown, x)}`, `T[i++] = ${x};`);
    },
    emitTake: () => 'T[i++]',
    test: (d, x) => typeof x === 'number',
    put(c, d, x, shown) {
      if (typeof x !== 'number') throw c.fail(shown, x);
      c.write(x);
    },
    take: (c) => c.T[c.i++],
    // JSON form: a number; NaN, the infinities and -0 as the strings "NaN", "Infinity",
    // "-Infinity" and "-0", which JSON cannot spell as numbers.
    toJson: (d, x) => floatToJson(x),
    fromJson: (d, j) => floatFromJson(j),
    // `shorn inspect` (lib/cli/inspect.js).
    inspect(r, d) {
      const at = r.offset;
      return r.leaf(at, d, name === 'float32' ? r.float32() : r.float64());
    },
    minBytes: () => (name === 'float32' ? 4 : 8),
  };
}

module.exports = [floatType('float32'), floatType('float64')];
module.exports.floatToJson = floatToJson;
module.exports.floatFromJson = floatFromJson;
