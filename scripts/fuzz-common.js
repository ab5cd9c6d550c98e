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

// The value form of scripts/fuzz-page.js: any value a codec takes or gives, as JSON, for a
// page in a browser to build the same value from and to report what it decoded in. Unlike
// the golden vectors' tags ($bytes, ...), every array and object is tagged too, so no key
// is ever read as a tag: a string, boolean, null or finite number other than -0 stands for
// itself; ['u'] undefined; ['n', 'NaN' | 'Infinity' | '-Infinity' | '-0']; ['b', digits] a
// bigint; ['d', ms] a Date; ['T', class, hex] a typed array or Buffer (by its bytes, so a NaN's
// payload is kept); ['m', key, value, ...] a Map; ['a', item | ['h'] for a hole, ...] an
// array; ['o' | 'O', key, value, ...] an object, 'O' for one of no prototype. A NaN that is a
// number, not in a typed array, loses its payload (engines that box values in NaNs, as
// SpiderMonkey and JavaScriptCore do, keep none). Source, so the page runs the same code.
const VALUE_FORM_SOURCE = `function hexOf(v) {
  const b = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  let s = '';
  for (let i = 0; i < b.length; i++) s += (b[i] < 16 ? '0' : '') + b[i].toString(16);
  return s;
}
function toForm(v) {
  if (v === undefined) return ['u'];
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0) ? v : ['n', Object.is(v, -0) ? '-0' : String(v)];
  if (typeof v === 'bigint') return ['b', String(v)];
  const tag = Object.prototype.toString.call(v).slice(8, -1);
  if (tag === 'Date') return ['d', String(v.getTime())];
  if (ArrayBuffer.isView(v)) return ['T', tag, hexOf(v)];
  if (tag === 'Map') {
    const out = ['m'];
    for (const [k, x] of v) out.push(toForm(k), toForm(x));
    return out;
  }
  if (Array.isArray(v)) {
    const out = ['a'];
    for (let i = 0; i < v.length; i++) out.push(i in v ? toForm(v[i]) : ['h']);
    return out;
  }
  const out = [Object.getPrototypeOf(v) === null ? 'O' : 'o'];
  for (const k of Object.keys(v)) out.push(k, toForm(v[k]));
  return out;
}
function fromForm(f) {
  if (!Array.isArray(f)) return f;
  switch (f[0]) {
    case 'u': return undefined;
    case 'n': return f[1] === '-0' ? -0 : Number(f[1]);
    case 'b': return BigInt(f[1]);
    case 'd': return new Date(Number(f[1]));
    case 'T': {
      const bytes = new Uint8Array(f[2].length / 2);
      for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(f[2].slice(2 * i, 2 * i + 2), 16);
      const C = globalThis[f[1] === 'Buffer' ? 'Uint8Array' : f[1]];
      return new C(bytes.buffer, 0, bytes.length / C.BYTES_PER_ELEMENT);
    }
    case 'm': {
      const m = new Map();
      for (let i = 1; i < f.length; i += 2) m.set(fromForm(f[i]), fromForm(f[i + 1]));
      return m;
    }
    case 'a': {
      const a = new Array(f.length - 1);
      for (let i = 1; i < f.length; i++) if (!(Array.isArray(f[i]) && f[i][0] === 'h')) a[i - 1] = fromForm(f[i]);
      return a;
    }
    default: {
      const o = f[0] === 'O' ? Object.create(null) : {};
      for (let i = 1; i < f.length; i += 2) Object.defineProperty(o, f[i], { value: fromForm(f[i + 1]), writable: true, enumerable: true, configurable: true });
      return o;
    }
  }
}`;
const { toForm, fromForm } = new Function(`${VALUE_FORM_SOURCE}\nreturn { toForm, fromForm };`)();

module.exports = { otherBuild, options, seeded, leastBudget, VALUE_FORM_SOURCE, toForm, fromForm };
