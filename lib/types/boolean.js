'use strict';
// bool: `true` or `false`; one byte (src/types/boolean.rs). Tape: one slot, 0 or 1.

module.exports = [
  {
    name: 'bool',
    build: () => ({ type: 'bool' }),
    expected: () => 'boolean',
    slots: () => 1,
    test: (d, x) => typeof x === 'boolean',
    put(c, d, x, shown) {
      if (typeof x !== 'boolean') throw c.fail(shown, x);
      c.write(x ? 1 : 0);
    },
    toJson: (d, x) => x,
    fromJson: (d, j) => j,
    kinds: 'boolean',
    lower: () => ({ op: 'bool' }),
    minBytes: () => 1,
  },
];
