'use strict';
// float32 (4 bytes, rounded as by Math.fround) and float64 (8 bytes; NaN, the infinities
// and -0 kept): any number (src/types/float.rs). Tape: one slot, the number.

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
  };
}

module.exports = [floatType('float32'), floatType('float64')];
