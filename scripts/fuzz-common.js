'use strict';
// What the JS fuzz scripts share (scripts/fuzz.js, fuzz-readers.js, fuzz-large.js): their
// command line's options, a seeded PRNG (mulberry32: the same seed, the same run), and the
// search for a decode's budget edge (which __test__/js-backend.test.js uses too).

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

/**
 * The least budget (1 to 2^30) at which `decodes(budget)` holds, where it holds for every
 * budget from some point up (a decode under `maxDecodedBytes`), by binary search.
 */
function leastBudget(decodes) {
  let lo = 0;
  let hi = 1 << 30;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (decodes(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * A build of the package other than this one, bundled by esbuild and loaded in this process,
 * for the fuzzers to hold its JS back end to the native one (`--build`). Its ShornError is
 * a class of its own.
 * - 'browser': as a browser or worker bundle has it (package.json's `browser` field and
 *   `imports` conditions: lib/host-browser.js, lib/base.js, no addon, no Node built-in);
 * - 'no-addon': Node's, where no addon loads (lib/addon.js throws ERR_SHORN_NO_ADDON, as
 *   on a platform with no binary or after `--omit=optional`).
 */
function otherBuild(kind) {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  if (kind !== 'browser' && kind !== 'no-addon') throw new Error(`no build ${kind}`);
  const root = path.join(__dirname, '..');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `shorn-${kind}-build-`));
  if (kind === 'no-addon') {
    // The package's files as installed, in a folder of their own: no shorn.node beside
    // them and no platform package on their module path.
    for (const file of ['index.js', 'index.mjs', 'package.json']) fs.copyFileSync(path.join(root, file), path.join(dir, file));
    fs.cpSync(path.join(root, 'lib'), path.join(dir, 'lib'), { recursive: true });
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    return require(dir);
  }
  const file = path.join(dir, 'shorn.cjs');
  require('esbuild').buildSync({ entryPoints: [path.join(root, 'index.mjs')], bundle: true, format: 'cjs', platform: 'browser', outfile: file, logLevel: 'silent' });
  try {
    return require(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { otherBuild, options, seeded, leastBudget };
