'use strict';
// What the JS fuzz scripts share (scripts/fuzz.js, fuzz-readers.js, fuzz-large.js): their
// command line's options, and a seeded PRNG (mulberry32: the same seed, the same run).

/** `option(name, fallback)` over `argv`: the value after `name`, or `fallback`. */
function options(argv) {
  return function option(name, fallback) {
    const i = argv.indexOf(name);
    if (i < 0) return fallback;
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
    return v;
  };
}

/** `{ random, below, chance, pick }` drawn from `seed`. */
function seeded(seed) {
  let state = seed >>> 0;
  function random() {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  }
  const below = (n) => Math.floor(random() * n);
  return { random, below, chance: (p) => random() < p, pick: (list) => list[below(list.length)] };
}

module.exports = { options, seeded };
