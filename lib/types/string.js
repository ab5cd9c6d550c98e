'use strict';
// string: a JS string without lone surrogates, as UTF-8 (src/types/string.rs). Tape: one
// slot, the length in UTF-16 units; the string itself travels as a call argument (or in
// one concatenated string), and decoded text comes back as one string JS slices.

module.exports = [
  {
    name: 'string',
    build: () => ({ type: 'string' }),
    expected: () => 'string',
    slots: () => 1,
    strings: 1,
    emitTest: (g, d, x) => `typeof ${x} === 'string'`,
    emitPut(g, d, x, path, room, shown) {
      g.enc.push(`if (typeof ${x} !== 'string') ${g.fail(path, shown, x)}`);
      g.string(x);
    },
    emitTake: (g) => g.text(),
    test: (d, x) => typeof x === 'string',
    put(c, d, x, shown) {
      if (typeof x !== 'string') throw c.fail(shown, x);
      c.string(x);
    },
    take: (c) => c.text(),
    toJson: (d, x) => x,
    fromJson: (d, j) => j,
    // `shorn inspect` (lib/cli/inspect.js): a length within maxStringBytes, valid UTF-8.
    inspect(r, d) {
      const at = r.offset;
      const n = r.length('string');
      return r.leaf(at, d, r.utf8(n));
    },
    minBytes: () => 1,
  },
];
