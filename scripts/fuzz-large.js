#!/usr/bin/env node
'use strict';
// Differential fuzzing of large messages (docs/FUZZING.md, "Large messages"): the JS back
// end against the native one on messages of 32 KiB and more, which scripts/fuzz.js seldom
// makes. Such messages take paths small ones never do: on the JS back end, arrays of
// strings keep their repeated short strings in a table (lib/closures.js, `keptStrings`,
// from 32 KiB), and natively the text is split and its repeats kept (src/codec/text.rs).
// Deterministic for a seed.
//
//   node scripts/fuzz-large.js [--runs N] [--seed S] [--verbose] [--build node|browser|no-addon]
//   --build browser: the JS back end is the package's browser build, whose text paths are
//     not Node's; no-addon: a copy of the package where no addon loads (scripts/fuzz-common.js,
//     otherBuild)
//
// Each run draws a schema (arrays of strings, in objects, nested, beside enums, literals
// and strings outside arrays; some with length constraints), a pool of words (empty,
// ASCII, Latin-1, wide, 4-byte and control chars, 0 to 14 chars, some sharing their first
// two chars, last char and length), and a large value from the pool. Then, against the
// native back end, for the JS back end with and without generated code:
// - encode gives the same bytes, or the same error, for the value, another of its size and
//   the value again on one codec, and a result is the same after the encodes after it;
// - decode gives the same value or the same error (code, offset, path and message), twice
//   on one codec (the second time from a full table), under no budget, and under budgets
//   at and around the native edge of `maxDecodedBytes`;
// - so do the message with bytes changed, and the message cut short.

const { isDeepStrictEqual } = require('node:util');
const { t, compile, ShornError } = require('..');
const { options, seeded, leastBudget, otherBuild } = require('./fuzz-common');

const argv = process.argv.slice(2);
const option = options(argv);
const RUNS = Number(option('--runs', 200));
const SEED = Number(option('--seed', 1));
const BUILD = option('--build', 'node');
if (!['node', 'browser', 'no-addon'].includes(BUILD)) throw new Error('--build is node, browser or no-addon');
// The JS back end's build: this package's, or its browser build (errors of a class of its own).
const jsBuild = BUILD === 'node' ? { compile, ShornError } : otherBuild(BUILD);
const compileJs = (schema, options) => jsBuild.compile(schema, options);
const VERBOSE = argv.includes('--verbose');
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs takes a positive integer');
if (!Number.isInteger(SEED)) throw new Error('--seed takes an integer');

const { random, below, pick: pickOf } = seeded(SEED);

const LARGE = 32 << 10;
const CHARS = ['a', 'b', 'c', 'x', 'é', 'ÿ', '李', 'я', '🚀', '0', ' ', '\u0000', '\u007f', '\u0080'];

function word() {
  const n = below(15);
  const common = random() < 0.8;
  let s = '';
  while (s.length < n) s += CHARS[below(common ? 4 : CHARS.length)];
  return s;
}

// A pool of words, with some that share a hash of `keptStrings` (first two chars, last
// char, length) but differ between.
function pool() {
  const words = Array.from({ length: 1 + below(40) }, word);
  for (let k = 0; k < below(6); k++) {
    const len = 4 + below(8);
    const middle = () => Array.from({ length: len - 3 }, () => pickOf(['a', 'b', 'c'])).join('');
    words.push(`ab${middle()}z`, `ab${middle()}z`);
  }
  return words;
}

const ENUM = ['p', 'q', 'r', 'ß'];
// Schemas by what a value of each looks like: [name, schema, make(pick, count)].
function schemaOf() {
  const maxLength = 3 + below(10);
  const item = random() < 0.2 ? t.string({ maxLength }) : t.string();
  const kinds = [
    ['events', t.array(t.object({ id: t.uint32(), name: t.string(), tags: t.array(item), kind: t.enum(ENUM) })), (pick, n) => Array.from({ length: n }, (_, k) => ({ id: k, name: pick(), tags: Array.from({ length: below(6) }, pick), kind: pickOf(ENUM) }))],
    ['nested', t.array(t.array(item)), (pick, n) => Array.from({ length: n }, () => Array.from({ length: below(7) }, pick))],
    ['flat', t.object({ xs: t.array(item), ys: t.array(t.enum(ENUM)), k: t.literal('constant'), n: t.uint8() }), (pick, n) => ({ xs: Array.from({ length: 3 * n }, pick), ys: Array.from({ length: below(5) }, () => pickOf(ENUM)), k: 'constant', n: below(256) })],
    ['optional', t.array(t.object({ a: t.optional(t.array(item)), b: t.nullable(t.string()) })), (pick, n) => Array.from({ length: n }, () => (random() < 0.3 ? { b: random() < 0.3 ? null : pick() } : { a: Array.from({ length: below(5) }, pick), b: random() < 0.3 ? null : pick() }))],
  ];
  return pickOf(kinds);
}

// The outcome of `fn`: the value, or a ShornError's code, offset, path and message.
function outcome(fn) {
  try {
    return { value: fn() };
  } catch (e) {
    if (!(e instanceof ShornError || e instanceof jsBuild.ShornError)) return { thrown: String(e && e.stack) };
    return { code: e.code, offset: e.offset, path: e.path, message: e.message };
  }
}

const counts = new Map();
const count = (key) => counts.set(key, (counts.get(key) || 0) + 1);
let failed = 0;
let passed = 0;

function same(a, b) {
  return isDeepStrictEqual(a, b);
}

function report(run, what, native, js, mode) {
  failed++;
  if (failed <= 10 || VERBOSE) {
    console.log(`run ${run}: ${what} (${JSON.stringify(mode)})`);
    console.log(`  native: ${JSON.stringify(native).slice(0, 400)}`);
    console.log(`  js:     ${JSON.stringify(js).slice(0, 400)}`);
  }
}

const MODES = [
  { backend: 'js', codegen: true },
  { backend: 'js', codegen: false },
];

// Decodes `bytes` natively and on both JS modes (twice each on one codec): the same
// outcome. Returns the native outcome, or null where they differ.
function decodeAgrees(run, what, schema, options, bytes) {
  const native = outcome(() => compile(schema, options).decode(bytes));
  if (native.thrown !== undefined) {
    report(run, `${what}: the native decode threw a non-ShornError`, native, null, options);
    return null;
  }
  for (const mode of MODES) {
    const codec = compileJs(schema, { ...options, ...mode });
    for (let k = 0; k < 2; k++) {
      const js = outcome(() => codec.decode(bytes));
      if (!same(js, native)) {
        report(run, `${what}, decode ${k + 1}`, native, js, { ...options, ...mode });
        return null;
      }
    }
  }
  return native;
}

// The least `maxDecodedBytes` the native decode of `bytes` takes.
const edgeOf = (schema, bytes) => leastBudget((maxDecodedBytes) => !('code' in outcome(() => compile(schema, { maxDecodedBytes }).decode(bytes))));

for (let run = 0; run < RUNS; run++) {
  const [name, schema, make] = schemaOf();
  const words = pool();
  const pick = () => pickOf(words);
  let value = make(pick, 1000);
  const native = compile(schema);
  // Grown until its message is large.
  let bytes = outcome(() => native.encode(value));
  let size = 1000;
  for (let n = 2000; bytes.value !== undefined && bytes.value.length < LARGE && n <= 64000; n *= 2) {
    value = make(pick, n);
    size = n;
    bytes = outcome(() => native.encode(value));
  }
  count(`schema.${name}`);
  let ok = true;
  const hexOf = (r) => (r.value !== undefined ? { hex: Buffer.from(r.value).toString('hex') } : r);
  // The value, then on the same codec another of about its size and the value again: from
  // the second large message on, the JS back end hands a message out in the buffer it was
  // written in (lib/compile.js, largeOutput), so every result is checked again at the end.
  const others = [value, make(pick, size), value];
  const expected = others.map((v) => hexOf(outcome(() => native.encode(v))));
  for (const mode of MODES) {
    const codec = compileJs(schema, mode);
    const results = [];
    others.forEach((v, k) => {
      const js = outcome(() => codec.encode(v));
      results.push(js);
      const b = hexOf(js);
      if (!same(expected[k], b)) {
        report(run, `encode ${k + 1} of 3`, expected[k].code ?? `${expected[k].hex.length / 2} bytes`, b.code ?? `${js.value.length} bytes`, mode);
        ok = false;
      }
    });
    if (ok && results.some((r, k) => !same(expected[k], hexOf(r)))) {
      report(run, 'an encode result changed by a later encode', null, null, mode);
      ok = false;
    }
    count(results.filter((r) => r.value !== undefined && r.value.buffer.byteLength !== r.value.length).length > 0 ? 'encode.handedOut' : 'encode.copied');
  }
  if (bytes.value === undefined) {
    count('value.refused');
    if (ok) passed++;
    continue;
  }
  const message = bytes.value;
  if (message.length < LARGE) count('value.small');
  const decoded = decodeAgrees(run, 'the message', schema, {}, message);
  if (decoded === null) ok = false;
  else if (decoded.value !== undefined) {
    count('value.decoded');
    if (!same(decoded.value, value)) {
      report(run, 'the decoded value is not the value encoded', null, null, {});
      ok = false;
    }
  }
  if (ok && decoded.value !== undefined) {
    const edge = edgeOf(schema, message);
    for (const maxDecodedBytes of [edge - 2, edge - 1, edge, edge + 1, Math.floor(edge / 2), 1 + below(edge)]) {
      if (maxDecodedBytes < 1) continue;
      const r = decodeAgrees(run, `budget ${maxDecodedBytes} (edge ${edge})`, schema, { maxDecodedBytes }, message);
      if (r === null) ok = false;
      else count(r.code === undefined ? 'budget.decoded' : 'budget.refused');
    }
  }
  for (let m = 0; m < 4; m++) {
    const changed = Uint8Array.from(message);
    for (let k = 0; k <= below(4); k++) changed[below(changed.length)] = below(256);
    const r = decodeAgrees(run, `bytes changed (${m})`, schema, random() < 0.3 ? { maxDecodedBytes: 1 + below(4 * message.length) } : {}, changed);
    if (r === null) ok = false;
    else count(r.code === undefined ? 'mutated.decoded' : `mutated.${r.code}`);
  }
  const cut = decodeAgrees(run, 'cut short', schema, {}, message.subarray(0, below(message.length)));
  if (cut === null) ok = false;
  else count(cut.code === undefined ? 'cut.decoded' : `cut.${cut.code}`);
  if (ok) passed++;
}

console.log(`${passed} passed, ${failed} failed${BUILD === 'node' ? '' : ` (the JS back end as the ${BUILD} build)`}`);
for (const [key, n] of [...counts].sort()) console.log(`  ${key.padEnd(40)} ${n}`);
process.exitCode = failed === 0 ? 0 : 1;
