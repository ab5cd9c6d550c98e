#!/usr/bin/env node
'use strict';
// JS-level fuzzing of the real addon through both marshallers (docs/FUZZING.md): random
// bytes, mutated valid messages (golden vectors, fuzz/schemas.json samples, encodings of
// random values) and hostile values on encode (wrong types, throwing getters, getters that
// encode and decode re-entrantly with other codecs, Proxies, huge sparse arrays, cycles,
// `__proto__` keys, Symbol.toPrimitive traps, mutation during encode, detached and
// resizable buffers, prototype pollution). Deterministic for a seed.
//
//   node scripts/fuzz.js [--runs N] [--quick] [--seed S] [--out FILE] [--verbose]
//                        [--target all|library|cli|frames] [--cli-runs N]
//                        [--build node|browser|no-addon] [--emit FILE]
//   --target frames: random frame streams instead of messages (see runFrames), no CLI
//   --build browser: the JS back end held to the native one is the package's browser build
//     (lib/host-browser.js, lib/base.js), bundled by esbuild and loaded here, not this one;
//     no-addon: a copy of the package where no addon loads, as a Node without a binary has
//     it (scripts/fuzz-common.js, otherBuild)
//   --emit FILE: also writes the plain inputs (random bytes, mutated messages, random
//     values; not the hostile ones, which need this process) with the native back end's
//     answer to each, as JSON lines, for scripts/fuzz-page.js to hold a browser to
//
// Checks, for every input:
// - every throw is a ShornError with a valid code (decode: TRUNCATED, TRAILING, MALFORMED,
//   LIMIT with an integer offset and a path; encode: INVALID with a path; encodeInto
//   BUFFER), or the very error a user getter or trap threw, unchanged;
// - the two marshallers agree (same bytes, or the same code and path), and the JS back end
//   with them (same bytes, values, or the same code, offset, path and message);
// - `check` (a fifth of the values): ok where encode wrote bytes, else its first issue is
//   encode's error, path and message, on each codec; `safeDecode` (a quarter of the
//   messages) reports alike on both back ends;
// - an accepted message encodes back to the same bytes (a NaN's payload and a union's
//   variant excepted: then the value must come back, and a second round must be stable);
//   an encoded value decodes, to a value that encodes to the same bytes;
// - after every hostile or re-entrant input, `{ id: 7, name: 'fine' }` still encodes to
//   07 04 66 69 6e 65 and decodes back, in both marshallers (no state corruption);
// - no single input takes more than 2 s.
// The CLI target (`--target cli`, and --cli-runs inputs after the library's in every run)
// runs `shorn` itself (lib/cli/main.js, in this process) on such inputs: decode, decode
// --stream, encode, inspect, inspect --stream and infer --js, and holds its exit code to
// the library's verdict on the same input (a ShornError: exit 1, or 3 for the schema, in
// one line; no error: exit 0 and the output the library's value gives); never exit 70.
// Findings already known (issue 7's list, and fuzz/findings/) are counted as "known:<id>"
// and do not fail the run. Exit status 1 on any other failure; the failing inputs are
// written to --out (JSON lines) with a reproducer.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const { types } = require('node:util');

const shorn = require('..');
const { options, otherBuild, toForm, fromForm } = require('./fuzz-common');

const { t, compile, ShornError } = shorn;
const root = path.join(__dirname, '..');

// ---------------------------------------------------------------- options

const argv = process.argv.slice(2);
const option = options(argv);
const QUICK = argv.includes('--quick');
const RUNS = Number(option('--runs', QUICK ? 30000 : 1000000));
const SEED = Number(option('--seed', 7));
const VERBOSE = argv.includes('--verbose');
const CHECK_EVERY = argv.includes('--check-every');
const OUT = option('--out', path.join(os.tmpdir(), `shorn-fuzz-${SEED}.jsonl`));
if (!Number.isSafeInteger(RUNS) || RUNS < 1) throw new Error('--runs must be a positive integer');
const TARGET = option('--target', 'all');
if (!['all', 'library', 'cli', 'frames'].includes(TARGET)) throw new Error('--target is all, library, cli or frames');
// A CLI input costs ~1-3 ms (files, a compile per schema), about ten library inputs:
// __test__/fuzz.test.js's quick run takes the quick default.
const CLI_RUNS = TARGET === 'library' || TARGET === 'frames' ? 0 : Number(option('--cli-runs', QUICK ? 200 : 5000));
if (!Number.isSafeInteger(CLI_RUNS) || CLI_RUNS < 0) throw new Error('--cli-runs must be a whole number');
const BUILD = option('--build', 'node');
if (!['node', 'browser', 'no-addon'].includes(BUILD)) throw new Error('--build is node, browser or no-addon');
// The JS back end's build: Node's (this package as required), or the browser build's, whose
// errors are of its own ShornError class.
const jsBuild = BUILD === 'node' ? shorn : otherBuild(BUILD);
const isShorn = (e) => e instanceof ShornError || e instanceof jsBuild.ShornError;
const EMIT = option('--emit', null);
const emitFd = EMIT === null ? null : fs.openSync(EMIT, 'w');

// The engine, where it is not Node's V8: Bun runs this on JavaScriptCore (Safari's engine),
// Deno on V8 under a Node layer of its own (tests/browser/engines.test.js runs both).
const ENGINE = process.versions.bun ? `; on Bun ${process.versions.bun}, JavaScriptCore` : process.versions.deno ? `; on Deno ${process.versions.deno}` : '';

// ---------------------------------------------------------------- a seeded PRNG (sfc32)

let sa = 0x9e3779b9;
let sb = 0x243f6a88;
let sc = 0xb7e15162;
let sd = SEED >>> 0;
function next() {
  sa >>>= 0;
  sb >>>= 0;
  sc >>>= 0;
  sd >>>= 0;
  let x = (sa + sb) | 0;
  sa = sb ^ (sb >>> 9);
  sb = (sc + (sc << 3)) | 0;
  sc = (sc << 21) | (sc >>> 11);
  sd = (sd + 1) | 0;
  x = (x + sd) | 0;
  sc = (sc + x) | 0;
  return x >>> 0;
}
for (let i = 0; i < 20; i++) next();
// Runs `fn` on a PRNG of its own seeded with `seed`, leaving the main sequence as it was:
// a hostile value's `make` builds the same value for each marshaller.
function withRng(seed, fn) {
  const saved = [sa, sb, sc, sd];
  sa = 0x9e3779b9;
  sb = seed >>> 0;
  sc = 0xb7e15162;
  sd = 1;
  for (let i = 0; i < 8; i++) next();
  try {
    return fn();
  } finally {
    [sa, sb, sc, sd] = saved;
  }
}
const below = (n) => (n <= 1 ? 0 : next() % n);
const chance = (p) => next() / 4294967296 < p;
const pick = (list) => list[below(list.length)];
const real = () => next() / 4294967296;

// ---------------------------------------------------------------- outcomes

const counts = Object.create(null);
const count = (key) => {
  counts[key] = (counts[key] || 0) + 1;
};
let failures = 0;
const failureKinds = new Set();
fs.writeFileSync(OUT, '');

class Failure extends Error {
  constructor(kind, message, details) {
    super(`${kind}: ${message}`);
    this.kind = kind;
    this.details = details;
  }
}

// ERR_SHORN_INVALID: a decoded value that breaks a constraint (the golden schemas have some).
const DECODE_CODES = new Set(['ERR_SHORN_TRUNCATED', 'ERR_SHORN_TRAILING', 'ERR_SHORN_MALFORMED', 'ERR_SHORN_LIMIT', 'ERR_SHORN_INVALID']);

// Errors user code throws on purpose; shorn must let them through unchanged.
const USER_ERROR = Symbol('fuzz user error');
function userError(what) {
  const e = new Error(`user error from ${what}`);
  e[USER_ERROR] = true;
  return e;
}
// A coercion trap: shorn must never call it (no value is coerced).
const COERCED = Symbol('fuzz coerced');
// Finding J6's TypeError (see encodeBoth), as V8 words it and as JavaScriptCore (Bun) does.
const PROXY_RECEIVER = /called on incompatible receiver|Receiver should be a typed array view/;
function coercionError() {
  const e = new Error('shorn coerced a value (called Symbol.toPrimitive / valueOf / toString)');
  e[COERCED] = true;
  return e;
}

function describeError(e) {
  if (isShorn(e)) return `${e.code} at ${e.path} offset ${e.offset}: ${e.message}`;
  return e && e.stack ? e.stack.split('\n').slice(0, 6).join('\n') : String(e);
}

// ---------------------------------------------------------------- schemas

function hasType(d, pred, scope = new Set()) {
  let found = false;
  const walk = (x) => {
    if (found || !x || typeof x !== 'object') return;
    if (pred(x)) found = true;
    for (const v of Object.values(x)) walk(v);
  };
  walk(d);
  return found;
}

// Schemas where one value would have two encodings are schema errors since findings 001
// and 002 were fixed: nullable(T) where T admits null itself (null, literal null, json, a
// nullable, a union with such a variant, a ref to such a type), and map keys that float32
// rounding can make equal (float32, or a nullable or union with it). The generator mostly
// avoids them and now and then writes one on purpose: compile must refuse it.
function admitsNull(d, defs) {
  switch (d.type) {
    case 'null':
    case 'json':
    case 'nullable':
      return true;
    case 'literal':
      return d.value === null;
    case 'union':
      return d.variants.some((v) => admitsNull(v, defs));
    case 'recursive':
      return admitsNull(d.schema, defs);
    case 'ref': {
      const body = defs.get(d.name);
      if (!body || body.seen) return false;
      body.seen = true;
      const r = admitsNull(body.d, defs);
      body.seen = false;
      return r;
    }
    default:
      return false;
  }
}
function roundsKeys(d) {
  switch (d.type) {
    case 'float32':
      return true;
    case 'nullable':
      return roundsKeys(d.of);
    case 'union':
      return d.variants.some(roundsKeys);
    default:
      return false;
  }
}
// What in `schema` compile must refuse, as far as can be told without following refs.
function twoEncodings(schema) {
  if (hasType(schema, (x) => x.type === 'nullable' && x.of && admitsNull(x.of, new Map()))) return 'nullable of a type that already takes null';
  if (hasType(schema, (x) => x.type === 'map' && x.keys && roundsKeys(x.keys))) return 'float32 map keys';
  return undefined;
}

const golden = JSON.parse(fs.readFileSync(path.join(root, 'tests', 'golden.json'), 'utf8'));
const fixed = JSON.parse(fs.readFileSync(path.join(root, 'fuzz', 'schemas.json'), 'utf8')).schemas;

function makeEntry(name, schema, limits = {}, messages = []) {
  const gen = compile(schema, { ...limits, codegen: true });
  const generic = compile(schema, { ...limits, codegen: false });
  // The JS back end (lib/js-backend.js), held to the native one: same bytes, values and
  // errors (code, offset, path).
  const js = jsBuild.compile(schema, { ...limits, backend: 'js' });
  const defs = new Map();
  hasType(schema, (x) => {
    if (x.type === 'recursive') defs.set(x.name, x.schema);
    return false;
  });
  return {
    name,
    schema,
    limits,
    gen,
    generic,
    js,
    defs,
    union: hasType(schema, (x) => x.type === 'union'),
    messages: messages.map((hex) => Uint8Array.from(Buffer.from(hex, 'hex'))),
  };
}

const entries = fixed.map((f) => makeEntry(f.name, f.schema, f.limits, f.seeds));
for (const v of golden.vectors) {
  const e = entries.find((x) => JSON.stringify(x.schema) === JSON.stringify(v.schema) && !Object.keys(x.limits).length);
  if (e && !e.messages.some((m) => Buffer.from(m).toString('hex') === v.hex)) e.messages.push(Uint8Array.from(Buffer.from(v.hex, 'hex')));
}

// Random schemas, like __test__/random.test.js's, with every type.
const LEAVES = [
  'bool', 'uint8', 'uint16', 'uint32', 'int8', 'int16', 'int32', 'int', 'int64', 'uint64', 'float32', 'float64',
  'date', 'string', 'bytes', 'json', 'null', 'float64Array', 'float32Array', 'int32Array', 'uint32Array',
  'int16Array', 'uint16Array', 'int8Array',
];
const FIELD_NAMES = ['a', 'b', 'id', 'name', 'type', '__proto__', 'constructor', 'toString', 'valueOf', 'a b', '1', '0', 'é', '', 'then', 'length'];

function randomSchema(depth, scope) {
  const r = depth >= 4 ? below(4) : below(16);
  switch (r) {
    case 0:
    case 1:
    case 2:
      return { type: pick(LEAVES) };
    case 3:
      return chance(0.5)
        ? { type: 'enum', values: [...new Set(Array.from({ length: 1 + below(5) }, () => pick(FIELD_NAMES)))] }
        : { type: 'literal', value: pick(['x', 7, -0.5, true, false, null, '']) };
    case 4:
      return { type: 'array', items: sized(randomSchema(depth + 1, scope)) };
    case 5:
    case 6: {
      const names = [...new Set(Array.from({ length: below(5) }, () => pick(FIELD_NAMES)))];
      return {
        type: 'object',
        fields: names.map((name) => {
          const s = randomSchema(depth + 1, scope);
          return { name, schema: chance(0.3) ? { type: 'optional', of: s } : s };
        }),
        strict: chance(0.3),
      };
    }
    case 7: {
      const of = randomSchema(depth + 1, scope);
      // nullable(T) where T takes null is a schema error (finding 001): mostly T alone.
      return admitsNull(of, new Map()) && !chance(0.1) ? of : { type: 'nullable', of };
    }
    case 8:
      return { type: 'tuple', items: Array.from({ length: below(4) }, () => randomSchema(depth + 1, scope)) };
    case 9:
      return { type: 'record', values: randomSchema(depth + 1, scope) };
    case 10: {
      // float32 keys are a schema error (finding 002): mostly float64 keys.
      let keys = randomSchema(depth + 1, scope);
      if (roundsKeys(keys) && !chance(0.1)) keys = { type: 'float64' };
      return { type: 'map', keys, values: sized(randomSchema(depth + 1, scope)) };
    }
    case 11:
      return { type: 'union', variants: Array.from({ length: 1 + below(3) }, () => randomSchema(depth + 1, scope)) };
    case 12: {
      const n = 1 + below(3);
      return {
        type: 'discriminatedUnion',
        key: 'type',
        variants: Array.from({ length: n }, (_, k) => ({
          type: 'object',
          fields: [
            { name: 'type', schema: { type: 'literal', value: pick([`v${k}`, k]) === k ? k : `v${k}` } },
            ...[...new Set(Array.from({ length: below(3) }, () => pick(['a', 'b', 'c'])))].map((name) => ({
              name,
              schema: randomSchema(depth + 1, scope),
            })),
          ],
          strict: false,
        })),
      };
    }
    case 13: {
      const name = pick(['A', 'B', 'T']);
      // A recursive type needs a way to end: put the ref behind a nullable, an array or a union.
      const inner = scope.concat(name);
      const body = {
        type: 'object',
        fields: [
          { name: 'v', schema: randomSchema(depth + 1, inner) },
          { name: 'next', schema: pick([{ type: 'nullable', of: { type: 'ref', name } }, { type: 'array', items: { type: 'ref', name } }, { type: 'union', variants: [{ type: 'uint8' }, { type: 'ref', name }] }]) },
        ],
        strict: false,
      };
      return { type: 'recursive', name, schema: body };
    }
    case 14:
      return scope.length ? { type: 'nullable', of: { type: 'ref', name: pick(scope) } } : { type: 'json' };
    default:
      return { type: pick(LEAVES) };
  }
}
// Array items and map entries must take a byte.
function sized(d) {
  const zero = (x) =>
    x.type === 'null' ||
    x.type === 'literal' ||
    (x.type === 'object' && x.fields.every((f) => zero(f.schema))) ||
    (x.type === 'tuple' && x.items.every(zero));
  return zero(d) ? { type: 'tuple', items: [d, { type: 'uint8' }] } : d;
}

const RANDOM_SCHEMAS = QUICK ? 60 : 400;
for (let k = 0; entries.length < fixed.length + RANDOM_SCHEMAS && k < RANDOM_SCHEMAS * 4; k++) {
  const schema = randomSchema(0, []);
  const refused = twoEncodings(schema);
  const limits = chance(0.2) ? { maxDepth: 1 + below(6), maxArrayLength: below(6), maxStringBytes: below(12) } : {};
  // A small decode budget: a message over it is ERR_SHORN_LIMIT (maxDecodedBytes).
  if (chance(0.1)) limits.maxDecodedBytes = pick([0, 8, 64, below(1024), below(65536)]);
  try {
    entries.push(makeEntry(`random ${k}`, schema, limits));
  } catch (e) {
    if (!(isShorn(e) && e.code === 'ERR_SHORN_SCHEMA')) throw new Failure('compile-threw', describeError(e), { schema });
    count(refused && e.message.includes(refused) ? 'compile.ERR_SHORN_SCHEMA (two encodings)' : 'compile.ERR_SHORN_SCHEMA');
    continue;
  }
  if (refused) throw new Failure('compile-accepted-two-encodings', `a schema with a ${refused} compiled`, { schema });
}

// Codecs a re-entrant getter uses: other schemas, and the sentinel's own.
const SENTINEL_SCHEMA = t.object({ id: t.uint32(), name: t.string() });
const SENTINEL = { id: 7, name: 'fine' };
const SENTINEL_HEX = '070466696e65';
const sentinels = [compile(SENTINEL_SCHEMA, { codegen: true }), compile(SENTINEL_SCHEMA, { codegen: false })];
const other = [
  compile(t.array(t.string()), { codegen: true }),
  compile(t.object({ a: t.int(), b: t.nullable(t.bytes()), c: t.map(t.string(), t.json()) }), { codegen: false }),
  compile(t.recursive('R', (self) => t.object({ v: t.float64(), k: t.array(self) })), { codegen: true }),
];
const otherValues = [['x', 'yé', ''], { a: -5, b: new Uint8Array([1, 2]), c: new Map([['k', [1, { z: null }]]]) }, { v: 1.5, k: [{ v: 2, k: [] }] }];
const otherHex = other.map((c, i) => Buffer.from(c.encode(otherValues[i])).toString('hex'));

// Larger messages too: every golden vector of a few schemas decodes to its value.
const bigChecks = golden.vectors
  .filter((v) => /nested event|recursive tree|json nested|map of|union|discriminatedUnion/.test(v.name))
  .map((v) => {
    const codecs = [compile(v.schema, { codegen: true }), compile(v.schema, { codegen: false })];
    const bytes = Uint8Array.from(Buffer.from(v.hex, 'hex'));
    return { name: v.name, codecs, bytes, value: codecs[0].decode(bytes) };
  });

function checkSentinel(afterWhat) {
  for (const b of bigChecks) {
    for (const c of b.codecs) {
      let got;
      try {
        got = c.decode(b.bytes);
      } catch (e) {
        throw new Failure('state-corrupted', `after ${afterWhat}, golden "${b.name}" does not decode: ${describeError(e)}`);
      }
      if (!same(got, b.value)) throw new Failure('state-corrupted', `after ${afterWhat}, golden "${b.name}" decodes to another value`);
      if (hex(c.encode(b.value)) !== hex(b.bytes)) throw new Failure('state-corrupted', `after ${afterWhat}, golden "${b.name}" encodes differently`);
    }
  }
  for (const codec of sentinels) {
    let hex;
    let back;
    try {
      hex = Buffer.from(codec.encode(SENTINEL)).toString('hex');
      back = codec.decode(Buffer.from(SENTINEL_HEX, 'hex'));
    } catch (e) {
      throw new Failure('state-corrupted', `after ${afterWhat}, the sentinel throws: ${describeError(e)}`);
    }
    if (hex !== SENTINEL_HEX || back.id !== 7 || back.name !== 'fine' || Object.keys(back).length !== 2) {
      throw new Failure('state-corrupted', `after ${afterWhat}, { id: 7, name: 'fine' } encodes as ${hex} and decodes as ${JSON.stringify(back)}`);
    }
  }
  for (let i = 0; i < other.length; i++) {
    const hex = Buffer.from(other[i].encode(otherValues[i])).toString('hex');
    if (hex !== otherHex[i]) throw new Failure('state-corrupted', `after ${afterWhat}, another codec encodes as ${hex}, not ${otherHex[i]}`);
  }
}

// ---------------------------------------------------------------- values

const CHARS = ['a', 'z', '0', ' ', '"', '\\', '\u0000', 'é', 'ÿ', 'Ā', '中', '\u2028', '\ufeff', '😀', '\u{10ffff}'];
function randomString() {
  if (chance(0.05)) return pick(CHARS).repeat(30 + below(60));
  if (chance(0.2)) return pick(FIELD_NAMES);
  let s = '';
  for (let n = below(10); n > 0; n--) s += pick(CHARS);
  return s;
}
const RANGES = {
  uint8: [0, 255],
  uint16: [0, 65535],
  uint32: [0, 4294967295],
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
  int: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};
function randomInt([min, max]) {
  if (chance(0.2)) return pick([min, max, 0, -0, 1, min + 1, max - 1]);
  return Math.max(min, Math.min(max, Math.floor(min + real() * (max - min + 1))));
}
const FLOATS = [0, -0, NaN, Infinity, -Infinity, Number.MIN_VALUE, Number.MAX_VALUE, 1e-50, 0.1, 1.5, -2.5, 2 ** 53, 3.4e38, 1e39];
function randomFloat() {
  if (chance(0.3)) return pick(FLOATS);
  if (chance(0.3)) return below(200) - 100;
  const f = new Float64Array(1);
  new Uint32Array(f.buffer).set([next(), next()]);
  return f[0];
}
const TYPED = {
  float64Array: Float64Array,
  float32Array: Float32Array,
  int32Array: Int32Array,
  uint32Array: Uint32Array,
  int16Array: Int16Array,
  uint16Array: Uint16Array,
  int8Array: Int8Array,
};
function randomTyped(Class) {
  const a = new Class(below(8));
  const bytes = new Uint8Array(a.buffer);
  for (let i = 0; i < bytes.length; i++) bytes[i] = next();
  return a;
}
function defineOwn(o, key, value) {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}
function jsonValue(depth) {
  const deep = depth > 3;
  switch (below(deep ? 4 : 6)) {
    case 0:
      return pick([null, true, false]);
    case 1:
      return chance(0.5) ? below(128) - 10 : pick([1.5, -0, 2 ** 53, -(2 ** 60), 1e300, Number.MAX_SAFE_INTEGER]);
    case 2:
    case 3:
      return randomString();
    case 4:
      return Array.from({ length: chance(0.1) ? 32 + below(3) : below(4) }, () => jsonValue(depth + 1));
    default: {
      const o = {};
      for (let n = chance(0.1) ? 32 + below(3) : below(4); n > 0; n--) defineOwn(o, chance(0.3) ? String(below(40)) : randomString(), jsonValue(depth + 1));
      return o;
    }
  }
}

// A value of descriptor `d` (valid unless the generator hits a corner it does not model).
function randomValue(d, defs, depth = 0) {
  const deep = depth > 5;
  switch (d.type) {
    case 'bool':
      return chance(0.5);
    case 'float32':
    case 'float64':
      return randomFloat();
    case 'int64':
      return chance(0.3) ? pick([0n, -1n, 2n ** 63n - 1n, -(2n ** 63n)]) : BigInt.asIntN(64, (BigInt(next()) << 32n) | BigInt(next()));
    case 'uint64':
      return chance(0.3) ? pick([0n, 127n, 128n, 2n ** 64n - 1n]) : BigInt.asUintN(64, (BigInt(next()) << 32n) | BigInt(next()));
    case 'date':
      return new Date(chance(0.2) ? pick([0, 8.64e15, -8.64e15, -1]) : Math.floor((real() - 0.5) * 1.7e15));
    case 'string':
      return randomString();
    case 'bytes': {
      const u = new Uint8Array(deep ? 0 : below(20));
      for (let i = 0; i < u.length; i++) u[i] = next();
      return pick([() => u, () => Buffer.from(u), () => {
        const big = new Uint8Array(u.length + 7);
        big.set(u, 3);
        return big.subarray(3, 3 + u.length);
      }])();
    }
    case 'enum':
      return pick(d.values);
    case 'literal':
      return d.value;
    case 'null':
      return null;
    case 'json':
      return deep ? null : jsonValue(0);
    case 'array':
      return deep ? [] : Array.from({ length: below(5) }, () => randomValue(d.items, defs, depth + 1));
    case 'tuple':
      return d.items.map((x) => randomValue(x, defs, depth + 1));
    case 'nullable':
      return deep || chance(0.3) ? null : randomValue(d.of, defs, depth + 1);
    case 'optional':
      return randomValue(d.of, defs, depth + 1);
    case 'record': {
      const o = {};
      if (!deep) for (let n = below(4); n > 0; n--) defineOwn(o, chance(0.3) ? String(below(20)) : randomString(), randomValue(d.values, defs, depth + 1));
      return o;
    }
    case 'map': {
      const m = new Map();
      if (!deep) {
        for (let n = below(4); n > 0; n--) {
          const k = randomValue(d.keys, defs, depth + 1);
          m.set(k, randomValue(d.values, defs, depth + 1));
        }
      }
      return m;
    }
    case 'union':
      return randomValue(deep ? endingVariant(d.variants) : pick(d.variants), defs, depth + 1);
    case 'discriminatedUnion':
      return randomValue(pick(d.variants), defs, depth + 1);
    case 'recursive':
      return randomValue(d.schema, defs, depth + 1);
    case 'ref':
      return depth > 30 ? null : randomValue(defs.get(d.name), defs, depth + 1);
    case 'object': {
      const o = {};
      for (const f of d.fields) {
        if (f.schema.type === 'optional') {
          if (!deep && chance(0.6)) defineOwn(o, f.name, randomValue(f.schema.of, defs, depth + 1));
          else if (chance(0.2)) defineOwn(o, f.name, undefined);
        } else {
          defineOwn(o, f.name, randomValue(f.schema, defs, depth + 1));
        }
      }
      if (!d.strict && chance(0.2)) o.zzExtra = 1;
      return o;
    }
    default:
      if (TYPED[d.type]) return deep ? new TYPED[d.type](0) : randomTyped(TYPED[d.type]);
      if (RANGES[d.type]) return randomInt(RANGES[d.type]);
      throw new Error(`no generator for ${d.type}`);
  }
}
function endingVariant(variants) {
  return variants.find((v) => !hasType(v, (x) => x.type === 'ref')) || variants[0];
}

// ---------------------------------------------------------------- comparisons

// Deep equality that tells -0 from 0 (unless `zero`), holds NaN equal to NaN, compares
// bigints, Dates by time, typed arrays by class and bytes, Maps and objects in order.
function same(a, b, zero = false) {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) || (zero && a === b);
  if (typeof a !== typeof b) return false;
  if (a === null || b === null || typeof a !== 'object') return a === b;
  if (types.isDate(a)) return types.isDate(b) && Object.is(a.getTime(), b.getTime());
  if (ArrayBuffer.isView(a)) {
    return ArrayBuffer.isView(b) && a.constructor === b.constructor && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  }
  if (types.isMap(a)) {
    if (!types.isMap(b) || a.size !== b.size) return false;
    const x = [...a];
    const y = [...b];
    return x.every(([k, v], i) => same(k, y[i][0], zero) && same(v, y[i][1], zero));
  }
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => same(v, b[i], zero));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same(a[k], b[k], zero));
}
function hasNaN(v) {
  if (typeof v === 'number') return Number.isNaN(v);
  if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v) || types.isDate(v)) return false;
  if (types.isMap(v)) return [...v].some(([k, x]) => hasNaN(k) || hasNaN(x));
  return Object.values(v).some(hasNaN);
}
const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

// ---------------------------------------------------------------- the checks

function checkDecodeError(e, codec, bytes) {
  if (!isShorn(e)) throw new Failure('decode-non-shorn-error', describeError(e), { hex: hex(bytes) });
  if (!DECODE_CODES.has(e.code)) throw new Failure('decode-bad-code', describeError(e), { hex: hex(bytes) });
  if (!Number.isInteger(e.offset) || e.offset < 0 || e.offset > bytes.length) throw new Failure('decode-bad-offset', describeError(e), { hex: hex(bytes) });
  if (typeof e.path !== 'string' || !e.path.startsWith('$')) throw new Failure('decode-bad-path', describeError(e), { hex: hex(bytes) });
}

function tryDecode(codec, bytes, input = bytes) {
  try {
    return { value: codec.decode(input) };
  } catch (e) {
    checkDecodeError(e, codec, bytes);
    return { error: e };
  }
}

// Decodes `bytes` with both marshallers and checks the outcome (see the top).
function decodeBoth(entry, bytes) {
  const views = [bytes, Buffer.from(bytes), (() => {
    const big = new Uint8Array(bytes.length + 9).fill(0xa5);
    big.set(bytes, 4);
    return big.subarray(4, 4 + bytes.length);
  })()];
  const a = tryDecode(entry.gen, bytes, pick(views));
  const b = tryDecode(entry.generic, bytes, pick(views));
  const c = tryDecode(entry.js, bytes, pick(views));
  if (a.error || c.error) {
    if (!a.error || !c.error || a.error.code !== c.error.code || a.error.offset !== c.error.offset || a.error.path !== c.error.path || a.error.message !== c.error.message) {
      throw new Failure('back-ends-disagree-on-decode', `native: ${a.error ? describeError(a.error) : 'ok'}; js: ${c.error ? describeError(c.error) : 'ok'}`, { hex: hex(bytes) });
    }
  } else if (!same(a.value, c.value)) throw new Failure('back-ends-disagree-on-decode', 'different values', { hex: hex(bytes) });
  // safeDecode's report, a quarter of the time: the issues (path, code, message, offset:
  // the error and every constraint the value breaks) as natively.
  if (chance(0.25)) {
    const x = entry.gen.safeDecode(bytes);
    const y = entry.js.safeDecode(bytes);
    const shown = (r) => (r.ok ? 'ok' : JSON.stringify({ issues: r.issues, more: r.moreIssues }));
    if (x.ok !== y.ok || (x.ok ? !same(x.value, y.value) : shown(x) !== shown(y))) {
      throw new Failure('back-ends-disagree-on-safeDecode', `native: ${shown(x).slice(0, 300)}; js: ${shown(y).slice(0, 300)}`, { hex: hex(bytes) });
    }
    count(`safeDecode.${x.ok ? 'ok' : 'issues'}`);
  }
  if (a.error || b.error) {
    if (!a.error || !b.error || a.error.code !== b.error.code || a.error.offset !== b.error.offset || a.error.path !== b.error.path) {
      throw new Failure('marshallers-disagree-on-decode', `codegen: ${a.error ? describeError(a.error) : 'ok'}; generic: ${b.error ? describeError(b.error) : 'ok'}`, { hex: hex(bytes) });
    }
    count(`decode.${a.error.code}`);
    return undefined;
  }
  if (!same(a.value, b.value)) throw new Failure('marshallers-disagree-on-decode', 'different values', { hex: hex(bytes) });
  count('decode.ok');
  checkDecoded(entry, bytes, a.value);
  return a.value;
}

// An accepted message: the value encodes (both marshallers alike) back to the bytes.
function checkDecoded(entry, bytes, value) {
  let again;
  try {
    again = entry.gen.encode(value);
  } catch (e) {
    throw new Failure('decoded-value-does-not-encode', describeError(e), { hex: hex(bytes) });
  }
  const generic = entry.generic.encode(value);
  if (hex(generic) !== hex(again)) throw new Failure('marshallers-disagree-on-encode', `${hex(again)} vs ${hex(generic)}`, { hex: hex(bytes) });
  if (hex(again) === hex(bytes)) return;
  if (!entry.union && !hasNaN(value)) {
    throw new Failure('reencode-differs', `decoded to a value that encodes as ${hex(again)}`, { hex: hex(bytes) });
  }
  // A NaN payload or a union variant: the value comes back, and a second round is stable.
  let back;
  try {
    back = entry.gen.decode(again);
  } catch (e) {
    // An earlier variant took the value: its bytes (or its estimated heap) may be over a
    // decode limit the schema sets (encode does not apply decode limits).
    if (entry.union && Object.keys(entry.limits).length && isShorn(e) && e.code === 'ERR_SHORN_LIMIT') {
      count('decode.union-normalised-over-decode-limits');
      return;
    }
    throw new Failure('reencoded-does-not-decode', `re-encoded as ${hex(again)}: ${describeError(e)}`, { hex: hex(bytes) });
  }
  if (!same(back, value, entry.union)) {
    if (entry.union) {
      const third = entry.gen.encode(back);
      if (hex(third) === hex(again) && same(entry.gen.decode(third), back)) {
        count('decode.union-normalised');
        return;
      }
    }
    throw new Failure('reencode-changes-value', `re-encoded as ${hex(again)}, which decodes to another value`, { hex: hex(bytes) });
  }
}

// Encodes with both marshallers (`make` builds a fresh value for each); returns the bytes
// or undefined. `agree`: the two must give the same result (the value has no side effects).
function encodeBoth(entry, make, { agree = true, label = 'value', proxyReceiver = false } = {}) {
  const results = [entry.gen, entry.generic, entry.js].map((codec) => {
    const value = make();
    const started = process.hrtime.bigint();
    let r;
    try {
      const viaInto = chance(0.1);
      if (viaInto) {
        const target = new Uint8Array(below(64));
        const offset = below(target.length + 1);
        const n = codec.encodeInto(value, target, offset);
        r = { bytes: target.slice(offset, offset + n) };
      } else {
        r = { bytes: codec.encode(value) };
      }
    } catch (e) {
      if (e instanceof Failure) throw e;
      if (e && e[COERCED]) throw new Failure('coerced', `${label}: ${e.message}`, { schema: entry.schema });
      if (e && e[USER_ERROR]) r = { user: e.message };
      // Finding J6, by design: an object schema's field named like a built-in accessor
      // (length, size, byteLength...) read through a Proxy around that built-in runs V8's
      // getter, which refuses the Proxy as its receiver; shorn passes a getter's error on.
      else if (proxyReceiver && e instanceof TypeError && !isShorn(e) && PROXY_RECEIVER.test(e.message)) r = { user: e.message };
      else if (isShorn(e) && e.code === 'ERR_SHORN_BUFFER') r = { buffer: true };
      else if (isShorn(e) && e.code === 'ERR_SHORN_INVALID' && typeof e.path === 'string' && e.path.startsWith('$')) r = { error: e };
      else throw new Failure('encode-non-shorn-error', `${label}: ${describeError(e)}`, { schema: entry.schema });
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (ms > 2000) throw new Failure('slow', `${label}: encode took ${ms.toFixed(0)} ms`, { schema: entry.schema });
    return r;
  });
  const [a, b, c] = results;
  if (a.buffer || b.buffer || c.buffer) {
    count('encode.ERR_SHORN_BUFFER');
    return undefined;
  }
  if (agree) {
    const key = (r) => (r.bytes ? `bytes ${hex(r.bytes)}` : r.user ? `user ${r.user}` : `${r.error.code} ${r.error.path}`);
    if (key(a) !== key(b)) throw new Failure('marshallers-disagree-on-encode', `${label}: codegen ${key(a)}; generic ${key(b)}`, { schema: entry.schema });
    // The JS back end's error is the native one's to the message; but for the browser
    // build, which cannot tell a Proxy or a Node Buffer (this harness's) from another object,
    // and names them otherwise where it describes a wrong value.
    const said = (r) => (r.error && BUILD !== 'browser' ? `${key(r)}: ${r.error.message}` : key(r));
    if (said(a) !== said(c)) throw new Failure('back-ends-disagree-on-encode', `${label}: native ${said(a)}; js ${said(c)}`, { schema: entry.schema });
    // check: ok where encode wrote bytes, else its first issue is encode's error (path and
    // message), on every codec; a fifth of the time.
    if (chance(0.2) && !a.user) {
      [entry.gen, entry.generic, entry.js].forEach((codec, k) => {
        const wanted = results[k];
        // A user's own error passed through encode: check passes it on too.
        if (wanted.user) return;
        let report;
        try {
          report = codec.check(make());
        } catch (e) {
          // A getter's own error (a re-entrant encode's among them) passes through check
          // as through encode; and finding J6 (see above) where a Proxy is the receiver.
          if (isShorn(e) && e.code === 'ERR_SHORN_INVALID' && /getter/.test(label)) return;
          if (proxyReceiver && e instanceof TypeError && !isShorn(e) && PROXY_RECEIVER.test(e.message)) return;
          throw new Failure('check-threw', `${label}: ${describeError(e)}`, { schema: entry.schema });
        }
        const first = report.ok ? null : report.issues[0];
        const fine = wanted.bytes ? report.ok : !report.ok && first.path === wanted.error.path && first.message === wanted.error.message;
        if (!fine) {
          throw new Failure('check-is-not-encode', `${label}: encode ${wanted.bytes ? 'wrote bytes' : `${wanted.error.path}: ${wanted.error.message}`}; check ${report.ok ? 'ok' : `${first.path}: ${first.message}`}`, { schema: entry.schema });
        }
      });
      count(`check.${a.bytes ? 'ok' : 'issues'}`);
    }
  }
  for (const r of results) {
    if (r.user) count('encode.user-error');
    else if (r.error) count('encode.ERR_SHORN_INVALID');
    else {
      count('encode.ok');
      const got = tryDecode(entry.gen, r.bytes);
      if (got.error) {
        if (Object.keys(entry.limits).length && got.error.code === 'ERR_SHORN_LIMIT') {
          count('encode.ok-over-decode-limits');
          continue;
        }
        throw new Failure('encoded-does-not-decode', `${label}: ${hex(r.bytes)}: ${describeError(got.error)}`, { schema: entry.schema, hex: hex(r.bytes) });
      }
      checkDecoded(entry, r.bytes, got.value);
    }
  }
  return a.bytes;
}

// ---------------------------------------------------------------- operations

function randomBytes() {
  const n = chance(0.8) ? below(24) : below(200);
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = chance(0.5) ? pick([0, 1, 2, 3, 0x7f, 0x80, 0xc3, 0xe0, 0xff, 0x0f, 0x20, 0x40, 0xc0]) : next();
  return b;
}

function mutate(bytes) {
  let b = Array.from(bytes);
  for (let n = 1 + below(3); n > 0; n--) {
    const at = below(b.length + 1);
    switch (below(6)) {
      case 0:
        if (b.length) b[at % b.length] = next() & 0xff;
        break;
      case 1:
        if (b.length) b[at % b.length] ^= 1 << below(8);
        break;
      case 2:
        b.splice(at, 0, pick([0, 1, 0x80, 0xff, next() & 0xff]));
        break;
      case 3:
        if (b.length) b.splice(at % b.length, 1);
        break;
      case 4:
        b = b.slice(0, at);
        break;
      default:
        // A huge length or count where one was.
        b.splice(at, 0, 0xff, 0xff, 0xff, 0xff, 0x07);
    }
  }
  return Uint8Array.from(b);
}

// Paths into a value: [parent, key] pairs of its objects and arrays.
function slots(value, depth = 0, out = []) {
  if (depth > 6 || value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || types.isDate(value) || types.isMap(value)) return out;
  for (const k of Object.keys(value)) {
    out.push([value, k]);
    slots(value[k], depth + 1, out);
  }
  return out;
}
function containers(value, depth = 0, out = []) {
  if (depth > 6 || value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || types.isDate(value)) return out;
  out.push(value);
  if (types.isMap(value)) for (const [k, v] of value) containers(k, depth + 1, out), containers(v, depth + 1, out);
  else for (const k of Object.keys(value)) containers(value[k], depth + 1, out);
  return out;
}

const realm = vm.createContext({});
const WILD = [
  () => undefined,
  () => null,
  () => true,
  () => 0,
  () => -0,
  () => NaN,
  () => Infinity,
  () => 1.5,
  () => 2 ** 53,
  () => -1,
  () => 2 ** 32,
  () => 1n,
  () => 2n ** 64n,
  () => 'str',
  () => '\ud800',
  () => 'a\udc00b',
  () => Symbol('s'),
  () => () => 1,
  () => new Date(NaN),
  () => new Date(8.64e15 + 1),
  () => vm.runInContext('new Date(5)', realm),
  () => vm.runInContext('({ a: 1 })', realm),
  () => vm.runInContext('[1, 2]', realm),
  () => vm.runInContext('new Map([[1, 2]])', realm),
  () => vm.runInContext('new Uint8Array([1, 2])', realm),
  () => [],
  () => [undefined],
  () => [, 1],
  () => ({}),
  () => Object.create(null),
  () => new Map(),
  () => new Set([1]),
  () => new WeakMap(),
  () => new Uint8Array(2),
  () => new Float64Array([NaN]),
  () => new DataView(new ArrayBuffer(2)),
  () => new ArrayBuffer(2),
  () => Buffer.from('ab'),
  () => new (class extends Uint8Array {})(3),
  () => new (class extends Map {})([[1, 2]]),
  () => new (class extends Date {})(0),
  () => new (class extends Array {})(1, 2),
  () => new (class Point { constructor() { this.a = 1; } })(),
  () => Promise.resolve(1),
  () => new Error('x'),
  () => /re/,
  () => new Number(5),
  () => new String('s'),
  () => new Boolean(true),
  () => Object(1n),
  () => JSON.parse('{"__proto__": {"a": 1}, "a": 2}'),
  () => ({ [Symbol.toPrimitive]() { throw coercionError(); }, valueOf() { throw coercionError(); }, toString() { throw coercionError(); } }),
  () => Object.assign([1, 2], { [Symbol.toPrimitive]() { throw coercionError(); } }),
  () => {
    const d = new Date(0);
    for (const k of [Symbol.toPrimitive, 'getTime', 'valueOf']) Object.defineProperty(d, k, { value() { throw coercionError(); } });
    return d;
  },
];

// A detached typed array (its buffer transferred away).
function detached(Class) {
  const a = new Class(4);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}

// Hostile variants of a valid value. Each returns { make, agree, label, pollutes }.
function hostile(entry) {
  const h = hostileOf(entry);
  const seed = next();
  const make = h.make;
  h.make = () => withRng(seed, make);
  return h;
}
function hostileOf(entry) {
  const base = randomValue(entry.schema, entry.defs);
  const clone = () => structuredCloneValue(base);
  const kind = below(16);
  switch (kind) {
    case 0: {
      // A wrong value somewhere.
      const wild = pick(WILD);
      const where = below(1000);
      return {
        label: 'wrong type',
        make: () => {
          const v = clone();
          const s = slots(v);
          if (!s.length || where % 4 === 0) return wild();
          const [parent, key] = s[where % s.length];
          parent[key] = wild();
          return v;
        },
      };
    }
    case 1: {
      // A getter that throws a user error.
      const where = below(1000);
      return {
        label: 'throwing getter',
        agree: false,
        make: () => {
          const v = clone();
          const s = slots(v);
          if (!s.length) return v;
          const [parent, key] = s[where % s.length];
          if (Object.isFrozen(parent)) return v;
          Object.defineProperty(parent, key, { get() { throw userError(`getter ${key}`); }, enumerable: true, configurable: true });
          return v;
        },
      };
    }
    case 2:
    case 3: {
      // A getter that encodes and decodes with other codecs (and with this one) and
      // checks their results, then returns the value: the bytes must be the plain value's.
      const where = below(1000);
      const nested = below(4);
      return {
        label: 're-entrant getter',
        reentrant: true,
        make: () => {
          const v = clone();
          const s = slots(v);
          if (!s.length) return v;
          const [parent, key] = s[where % s.length];
          const inner = parent[key];
          // Built here, from the value's own PRNG: the getter runs during encode, where
          // the main sequence would give each marshaller another value to encode.
          const nestedValue = nested === 1 ? randomValue(entry.schema, entry.defs) : undefined;
          Object.defineProperty(parent, key, {
            get() {
              reentrantWork(entry, nested, nestedValue);
              return inner;
            },
            enumerable: true,
            configurable: true,
          });
          return v;
        },
        expect: base,
      };
    }
    case 4: {
      // Transparent Proxies around objects and arrays (and around some typed arrays, Dates
      // and Maps: where a union tries an object variant with a field named like their
      // accessor, `length`, finding J6 applies; seed 4102 met it, input 152985).
      return { label: 'transparent proxy', proxyReceiver: true, make: () => proxify(clone(), false) };
    }
    case 5: {
      // Proxies whose traps throw a user error (and transparent ones around typed arrays,
      // as above).
      return { label: 'throwing proxy', agree: false, proxyReceiver: true, make: () => proxify(clone(), true) };
    }
    case 6: {
      // Huge sparse arrays where arrays (or anything) are, unions included (finding J1,
      // fixed: a union's variant test walked every index).
      const where = below(1000);
      const make = pick([
        () => new Array(2 ** 32 - 1),
        () => {
          const a = [];
          a.length = 1e9;
          return a;
        },
        () => {
          const a = [1, 2, 3];
          a[5e8] = 1;
          return a;
        },
        () => Object.assign(new Array(1e7), { 0: 1 }),
      ]);
      return {
        label: 'huge sparse array',
        make: () => {
          const v = clone();
          const s = slots(v);
          if (!s.length || where % 3 === 0) return make();
          const [parent, key] = s[where % s.length];
          parent[key] = make();
          return v;
        },
      };
    }
    case 7: {
      // A cycle: an object or array that contains itself (or an ancestor).
      const where = below(1000);
      return {
        label: 'cycle',
        make: () => {
          const v = clone();
          const c = containers(v).filter((x) => !types.isMap(x));
          if (!c.length) return v;
          const target = c[where % c.length];
          const holder = c[(where >> 3) % c.length];
          if (Array.isArray(holder)) holder.push(target);
          else {
            const ks = Object.keys(holder);
            defineOwn(holder, ks.length && where % 2 ? ks[where % ks.length] : 'self', target);
          }
          return v;
        },
      };
    }
    case 8: {
      // __proto__ as an own key, null-prototype objects, inherited fields.
      const where = below(1000);
      return {
        label: '__proto__ keys',
        make: () => {
          const v = clone();
          const c = containers(v).filter((x) => !Array.isArray(x) && !types.isMap(x));
          if (!c.length) return v;
          const o = c[where % c.length];
          switch (where % 4) {
            case 0:
              defineOwn(o, '__proto__', { injected: 1 });
              break;
            case 1:
              Object.setPrototypeOf(o, null);
              break;
            case 2: {
              // Fields moved to the prototype (read as properties: getters run, but
              // fields named like Object.prototype members are read as own only).
              const proto = {};
              for (const k of Object.keys(o)) {
                defineOwn(proto, k, o[k]);
                delete o[k];
              }
              Object.setPrototypeOf(o, proto);
              break;
            }
            default:
              return JSON.parse(JSON.stringify({ __proto__: null, ...Object.fromEntries(Object.keys(o).map((k) => [k, 1])) }));
          }
          return v;
        },
      };
    }
    case 9: {
      // Coercion traps where numbers, strings, bigints and dates are.
      const where = below(1000);
      // A typed array whose own `length` throws: shorn must take its length from the array
      // itself, unless an object schema has a field named `length` (it may then read the
      // field of any object, a typed array included: seed 7, input 444285 of a 1M run).
      const lengthField = hasType(entry.schema, (x) => x.type === 'object' && Array.isArray(x.fields) && x.fields.some((f) => f.name === 'length'));
      const trap = () =>
        pick([
          { [Symbol.toPrimitive]() { throw coercionError(); } },
          { valueOf() { throw coercionError(); }, toString() { throw coercionError(); } },
          Object.assign(Object.create(Date.prototype), { getTime() { throw coercionError(); } }),
          Object.defineProperty(new Uint8Array(2), 'length', { get() { throw lengthField ? userError('typed array length') : coercionError(); } }),
          // What an error says of a wrong value reads its class's name without running code.
          Object.create({ get constructor() { throw coercionError(); } }),
          Object.create({ constructor: { name: { toString() { throw coercionError(); } } } }),
        ]);
      return {
        label: 'coercion trap',
        agree: !lengthField,
        make: () => {
          const v = clone();
          const s = slots(v).filter(([p, k]) => typeof p[k] !== 'object' || p[k] === null || types.isDate(p[k]) || ArrayBuffer.isView(p[k]));
          if (!s.length) return trap();
          const [parent, key] = s[where % s.length];
          parent[key] = trap();
          return v;
        },
      };
    }
    case 10: {
      // Getters that change the value while it is being encoded.
      const where = below(1000);
      return {
        label: 'mutation during encode',
        agree: false,
        make: () => {
          const v = clone();
          const s = slots(v);
          const all = containers(v);
          if (!s.length) return v;
          const [parent, key] = s[where % s.length];
          const inner = parent[key];
          const victim = all[(where >> 2) % all.length];
          let busy = false;
          let added = 0;
          Object.defineProperty(parent, key, {
            get() {
              if (busy) return inner;
              busy = true;
              if (Array.isArray(victim)) {
                if (where % 2) victim.length = 0;
                else {
                  // Each read adds up to 3 items: a walk that fixes the array's length reads
                  // this a few times; one that follows the length never ends (finding J7:
                  // it ran to 2^32 - 1 items, 300 s and 2 GB). Fail fast instead.
                  added += Math.min(3, victim.length);
                  if (added > 30000) {
                    busy = false;
                    throw new Failure('walk-follows-growing-array', `the getter of ${String(key)} added ${added} items to an array being encoded: a walk reads the array's length as it grows (finding J7)`);
                  }
                  victim.push(...victim.slice(0, 3));
                }
              } else if (types.isMap(victim)) {
                if (where % 2) victim.clear();
                else victim.set(Symbol('new key'), 1);
              } else if (victim && typeof victim === 'object') {
                const ks = Object.keys(victim);
                if (ks.length) delete victim[ks[0]];
                victim.added = 1;
              }
              busy = false;
              return inner;
            },
            enumerable: true,
            configurable: true,
          });
          return v;
        },
      };
    }
    case 11: {
      // Detached, resizable, shared and lying byte and typed arrays.
      const where = below(1000);
      const make = pick([
        () => detached(Uint8Array),
        () => detached(Float64Array),
        () => detached(Int16Array),
        () => {
          const rab = new ArrayBuffer(8, { maxByteLength: 64 });
          const u = new Uint8Array(rab);
          rab.resize(2);
          return u;
        },
        () => {
          const rab = new ArrayBuffer(16, { maxByteLength: 64 });
          return new Float64Array(rab);
        },
        () => new Uint8Array(new SharedArrayBuffer(4)),
        () => new Int32Array(new SharedArrayBuffer(8)),
        () => Object.defineProperty(new Uint8Array(3), 'length', { value: 100 }),
        () => new Proxy(new Uint8Array(3), {}),
        () => new Proxy(new Float32Array(2), {}),
      ]);
      return {
        label: 'odd buffers',
        proxyReceiver: true,
        make: () => {
          const v = clone();
          const s = slots(v);
          if (!s.length || where % 3 === 0) return make();
          const [parent, key] = s[where % s.length];
          parent[key] = make();
          return v;
        },
      };
    }
    case 12: {
      // A getter that shrinks a resizable buffer under a typed array encoded later.
      return {
        label: 'buffer resized during encode',
        agree: false,
        make: () => {
          const v = clone();
          const s = slots(v);
          if (s.length < 2) return v;
          const rab = new ArrayBuffer(32, { maxByteLength: 64 });
          const [p1, k1] = s[0];
          const [p2, k2] = s[s.length - 1];
          const inner = p1[k1];
          const kind = TYPED_TYPES[below(TYPED_TYPES.length)];
          p2[k2] = new kind(rab);
          Object.defineProperty(p1, k1, {
            get() {
              rab.resize(below(2) ? 0 : 3);
              return inner;
            },
            enumerable: true,
            configurable: true,
          });
          return v;
        },
      };
    }
    case 13: {
      // Map keys and values that are hostile, and Map subclasses with odd iterators.
      return {
        label: 'odd maps',
        agree: false,
        make: () => {
          const v = clone();
          const maps = containers(v).filter((x) => types.isMap(x));
          if (!maps.length) return v;
          const m = maps[0];
          switch (below(3)) {
            case 0:
              m[Symbol.iterator] = () => {
                throw userError('Map iterator');
              };
              break;
            case 1:
              Object.defineProperty(m, 'size', { get: () => 1e9 });
              break;
            default:
              m.entries = () => [][Symbol.iterator]();
          }
          return v;
        },
      };
    }
    case 14: {
      // Prototype pollution for the length of one encode: accessors on Object.prototype
      // and Array.prototype, some of which encode meanwhile.
      const key = pick(['path', 'code', 'offset', 'message', '0', 'length', 'id', 'a', 'then', 'toJSON', 'x']);
      const reenter = chance(0.5);
      let busy = false;
      const work = () => {
        if (!reenter || busy) return;
        busy = true;
        try {
          reentrantWork(entry, 0);
        } finally {
          busy = false;
        }
      };
      return {
        label: `Object.prototype.${key} accessor`,
        agree: false,
        pollutes: key,
        make: () => clone(),
        around: (fn) => {
          const had = Object.getOwnPropertyDescriptor(Object.prototype, key);
          Object.defineProperty(Object.prototype, key, {
            configurable: true,
            get() {
              work();
              return undefined;
            },
            set(x) {
              work();
              Object.defineProperty(this, key, { value: x, writable: true, enumerable: true, configurable: true });
            },
          });
          try {
            return fn();
          } finally {
            if (had) Object.defineProperty(Object.prototype, key, had);
            else delete Object.prototype[key];
          }
        },
      };
    }
    default: {
      // Values built from another realm (a vm context): plain objects, arrays, Maps,
      // Dates and typed arrays there fail instanceof here.
      return {
        label: 'other realm',
        make: () => {
          try {
            return vm.runInContext(`(${realmSource(base)})`, realm);
          } catch {
            return clone();
          }
        },
      };
    }
  }
}
const TYPED_TYPES = [Uint8Array, Float64Array, Float32Array, Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array];

// Source text that rebuilds `v` in another realm.
function realmSource(v) {
  if (v === undefined) return 'undefined';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (types.isDate(v)) return `new Date(${v.getTime()})`;
  if (ArrayBuffer.isView(v)) return `new ${v.constructor.name === 'Buffer' ? 'Uint8Array' : v.constructor.name}([${Array.from(v, (x) => realmSource(x)).join(',')}])`;
  if (types.isMap(v)) return `new Map([${[...v].map(([k, x]) => `[${realmSource(k)},${realmSource(x)}]`).join(',')}])`;
  if (Array.isArray(v)) return `[${v.map(realmSource).join(',')}]`;
  const parts = Object.keys(v).map((k) => `${k === '__proto__' ? '["__proto__"]' : JSON.stringify(k)}: ${realmSource(v[k])}`);
  return `{${parts.join(',')}}`;
}

// A deep copy keeping classes (Buffers, typed arrays, Dates, Maps), -0 and own __proto__.
function structuredCloneValue(v) {
  if (v === null || typeof v !== 'object') return v;
  if (types.isDate(v)) return new Date(v.getTime());
  if (Buffer.isBuffer(v)) return Buffer.from(v);
  if (ArrayBuffer.isView(v)) return new v.constructor(v);
  if (types.isMap(v)) return new Map([...v].map(([k, x]) => [structuredCloneValue(k), structuredCloneValue(x)]));
  if (Array.isArray(v)) return v.map(structuredCloneValue);
  const o = {};
  for (const k of Object.keys(v)) defineOwn(o, k, structuredCloneValue(v[k]));
  return o;
}

function proxify(v, throwing, depth = 0) {
  if (v === null || typeof v !== 'object' || depth > 5) return v;
  if (ArrayBuffer.isView(v) || types.isDate(v) || types.isMap(v)) return chance(0.3) ? new Proxy(v, {}) : v;
  for (const k of Object.keys(v)) {
    const d = Object.getOwnPropertyDescriptor(v, k);
    if (d && 'value' in d) d.value = proxify(d.value, throwing, depth + 1), Object.defineProperty(v, k, d);
  }
  if (!chance(0.6)) return v;
  const trap = pick(['get', 'ownKeys', 'getOwnPropertyDescriptor', 'has', 'getPrototypeOf']);
  return new Proxy(v, throwing ? {
    [trap]() {
      throw userError(`Proxy ${trap}`);
    },
  } : {});
}

// What a re-entrant getter does: encodes and decodes with other codecs and this one,
// checks each result, and swallows an expected ShornError.
function reentrantWork(entry, nested, nestedValue) {
  for (let i = 0; i < other.length; i++) {
    const bytes = other[i].encode(otherValues[i]);
    if (hex(bytes) !== otherHex[i]) throw new Failure('reentrant-wrong-bytes', `a nested encode gave ${hex(bytes)}, not ${otherHex[i]}`);
    const back = other[i].decode(bytes);
    if (!same(back, other[i].decode(Buffer.from(otherHex[i], 'hex')))) throw new Failure('reentrant-wrong-value', 'a nested decode gave another value');
  }
  for (const s of sentinels) {
    if (hex(s.encode(SENTINEL)) !== SENTINEL_HEX) throw new Failure('reentrant-wrong-bytes', 'the sentinel, encoded inside a getter');
  }
  // A nested call that fails.
  try {
    other[0].encode([1]);
    throw new Failure('reentrant-accepted-invalid', 'a nested encode of [1] as strings succeeded');
  } catch (e) {
    if (!isShorn(e)) throw e;
  }
  try {
    other[1].decode(new Uint8Array([0xff]));
  } catch (e) {
    if (!isShorn(e)) throw e;
  }
  // A random value may not fit (a lone surrogate, say): its ShornError leaves the getter,
  // and both marshallers must pass it on unchanged (finding J4). Its `check`, first, must
  // agree with its encode: the getter may run inside a union's variant test of the outer
  // call, whose depth neither may start from (finding J8).
  if (nested === 1) {
    const verdict = entry.gen.check(nestedValue).ok;
    try {
      entry.gen.encode(nestedValue);
    } catch (e) {
      if (verdict && isShorn(e)) throw new Failure('reentrant-check-disagrees', `check passed a value whose encode threw ${e.code} ${e.path}`);
      throw e;
    }
    if (!verdict) throw new Failure('reentrant-check-disagrees', 'check refused a value that encodes');
  }
  if (nested === 2 && entry.messages.length) {
    try {
      entry.generic.decode(entry.messages[0]);
    } catch (e) {
      if (!isShorn(e)) throw e;
    }
  }
}

// ---------------------------------------------------------------- the loop

const samples = new Map(entries.map((e) => [e, [...e.messages]]));
function remember(entry, bytes) {
  const list = samples.get(entry);
  if (list.length < 16) list.push(bytes);
  else list[below(16)] = bytes;
}

// ---------------------------------------------------------------- frames in batches
//
// With --target frames every input is a random frame stream (issue 37 #3-#5): frames of valid,
// mutated, random and empty messages, now and then a bad checksum, an overlong or
// over-32-bit length, garbage or a cut end; random options (checksum, a small
// maxFrameBytes, a maxFrames below or at the count, a small maxDecodedBytes for the
// call, and the entry's compile limits).
// Each stream is read four ways, which must agree with a reference that reads one frame
// at a time and decodes its message with `codec.decode` (same values, then the same error:
// code, frame, offset, path):
// - decodeFrames (with maxFrames: ERR_SHORN_LIMIT at frame maxFrames, at its first byte;
//   with maxDecodedBytes, by default the codec's own: ERR_SHORN_LIMIT at the first frame
//   whose value brings the heap estimates of the values so far past it, at its start);
// - a FrameReader given random chunks (1-byte ones among them) cut from one Buffer that
//   is refilled with 0x55 once a chunk is taken, whose emit asks it to wait at random;
// - the stream decoder, driven synchronously: chunks written from one reused Buffer once
//   the decoder has called the last one back (writableLength 0), values read in random
//   amounts between writes (so batches pause on backpressure), then end();
// - one stream in 8 has 17 to 516 frames, and one in 50 is over 64 KiB of tiny frames,
//   so batches stop on backpressure and at their window.
const framing = require('../lib/framing');
const { crc32c } = require('../lib/crc32c');
const v8 = require('node:v8');
const rt = require('../lib/runtime');
// lib/compile.js's default maxDecodedBytes (one message's budget; by default one decodeFrames
// call's too).
const DEFAULT_BUDGET = Math.min(256 * 1024 * 1024, Math.floor(v8.getHeapStatistics().heap_size_limit / 8));
const FRAMES = TARGET === 'frames';

function frameHeader(n) {
  const out = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

function frameOf(message, checksum) {
  const parts = [...frameHeader(message.length), ...message];
  if (checksum) {
    const c = crc32c(message, 0, message.length);
    parts.push(c & 0xff, (c >>> 8) & 0xff, (c >>> 16) & 0xff, c >>> 24);
  }
  return parts;
}

function randomMessage(entry, valid) {
  const k = valid ? below(7) : below(10);
  const list = samples.get(entry);
  if (k < 4 && list.length) return pick(list);
  if (k < 7) {
    try {
      return entry.gen.encode(randomValue(entry.schema, entry.defs));
    } catch {
      return randomBytes();
    }
  }
  if (k < 8 && list.length) return mutate(pick(list));
  if (k < 9) return new Uint8Array(0);
  return randomBytes();
}

function randomFrameStream(entry, checksum) {
  let bytes = [];
  if (below(50) === 0) {
    // Over one batch window (64 KiB) of tiny frames: empty and one-byte messages.
    const tiny = [new Uint8Array(0), ...samples.get(entry).filter((m) => m.length <= 2)];
    while (bytes.length < 70_000) bytes.push(...frameOf(pick(tiny), checksum));
  } else {
    // One stream in 8 has more frames than a decoder's readable high-water mark (16), of
    // valid messages (faults come below), so batches stop on backpressure inside a chunk.
    const many = chance(0.125);
    for (let n = many ? 17 + below(500) : below(12); n > 0; n--) bytes.push(...frameOf(randomMessage(entry, many), checksum));
  }
  if (chance(0.15)) {
    // One fault where a frame starts, or anywhere.
    const at = below(bytes.length + 1);
    const fault = pick([
      [0x80, 0x00],
      [0x81, 0x80, 0x00],
      [0xff, 0xff, 0xff, 0xff, 0x1f],
      [0xff, 0xff, 0xff, 0xff, 0x0f],
      [0xe9, 0x07],
      [next() & 0xff],
    ]);
    bytes.splice(at, 0, ...fault);
  }
  if (chance(0.1) && bytes.length) bytes[below(bytes.length)] ^= 1 << below(8);
  if (chance(0.1)) bytes = bytes.slice(0, below(bytes.length + 1));
  return Uint8Array.from(bytes);
}

// The reference: one frame at a time, as docs/FORMAT.md "Framing" reads them. `stream`:
// no maxFrames, and a null value is ERR_SHORN_INVALID (a Node stream cannot carry it).
function referenceFrames(codec, bytes, options, stream) {
  const { checksum, maxFrameBytes, maxFrames } = options;
  const maxHeap = stream || options.maxDecodedBytes === undefined ? Infinity : options.maxDecodedBytes;
  let heap = 0;
  const values = [];
  const at = (code, frame, offset, path) => ({ values, error: { code, frame, offset, path } });
  let pos = 0;
  for (let frame = 0; pos < bytes.length; frame++) {
    if (!stream && frame >= maxFrames) return at('ERR_SHORN_LIMIT', frame, pos);
    let length = 0;
    let k = 0;
    for (;; k++) {
      if (pos + k >= bytes.length) return at('ERR_SHORN_TRUNCATED', frame, pos);
      const b = bytes[pos + k];
      if (k === 4 && b > 0x0f) return at('ERR_SHORN_MALFORMED', frame, pos);
      length += (b & 0x7f) * 2 ** (7 * k);
      if (b < 0x80) {
        if (b === 0 && k > 0) return at('ERR_SHORN_MALFORMED', frame, pos);
        break;
      }
    }
    if (length > maxFrameBytes) return at('ERR_SHORN_LIMIT', frame, pos);
    const start = pos + k + 1;
    const end = start + length;
    const stop = end + (checksum ? 4 : 0);
    if (stop > bytes.length) return at('ERR_SHORN_TRUNCATED', frame, pos);
    if (checksum) {
      const stored = (bytes[end] | (bytes[end + 1] << 8) | (bytes[end + 2] << 16) | (bytes[end + 3] << 24)) >>> 0;
      if (crc32c(bytes, start, end) >>> 0 !== stored) return at('ERR_SHORN_MALFORMED', frame, pos);
    }
    let value;
    // Natively, even a small message (not read in JS), for its heap estimate.
    rt.state.grown = true;
    try {
      value = codec.decode(bytes.slice(start, end));
    } catch (e) {
      if (!isShorn(e)) throw e;
      return at(e.code, frame, e.offset, e.path);
    }
    const cost = rt.native.decodedHeap();
    if (cost < 0) throw new Failure('frames-no-heap', 'a native decode left no heap estimate', { hex: hex(bytes) });
    heap += cost;
    if (heap > maxHeap) {
      count('frames.over-heap-budget');
      return at('ERR_SHORN_LIMIT', frame, pos);
    }
    if (stream && value === null) return at('ERR_SHORN_INVALID', frame, undefined);
    values.push(value);
    pos = stop;
  }
  return { values, error: null };
}

function randomCuts(length) {
  const cuts = [];
  const style = below(4);
  for (let at = 0; at < length; ) {
    const size = style === 0 ? 1 : style === 1 ? 1 + below(8) : style === 2 ? 1 + below(length + 1) : chance(0.5) ? 1 : 1 + below(300);
    cuts.push([at, Math.min(length, at + size)]);
    at += size;
  }
  return cuts;
}

function compareFrames(how, got, want, bytes, options) {
  const details = { hex: bytes.length <= 4096 ? hex(bytes) : `${bytes.length} bytes`, options: { ...options, maxFrames: String(options.maxFrames), maxDecodedBytes: String(options.maxDecodedBytes) } };
  if (got.values.length !== want.values.length || !got.values.every((v, k) => same(v, want.values[k]))) {
    throw new Failure('frames-values-differ', `${how}: ${got.values.length} values, the reference ${want.values.length}`, details);
  }
  const a = got.error;
  const b = want.error;
  if (a === null && b === null) return;
  if (a !== null && !isShorn(a)) throw new Failure('frames-non-shorn-error', `${how}: ${describeError(a)}`, details);
  if (a === null || b === null || a.code !== b.code || a.frame !== b.frame || a.offset !== b.offset || (b.path !== undefined && a.path !== b.path)) {
    const show = (e) => (e === null ? 'no error' : `${e.code} frame ${e.frame} offset ${e.offset} ${e.path || ''}`);
    throw new Failure('frames-errors-differ', `${how}: ${show(a)}, the reference ${show(b)}`, details);
  }
}

function readerFrames(codec, bytes, options) {
  const values = [];
  const reader = new framing.FrameReader(codec, framing.frameOptions('fuzz', { checksum: options.checksum, maxFrameBytes: options.maxFrameBytes }, true), (v) => {
    values.push(v);
    return !chance(0.3);
  });
  const scratch = Buffer.alloc(bytes.length);
  try {
    for (const [from, to] of randomCuts(bytes.length)) {
      scratch.set(bytes.subarray(from, to));
      let taken = reader.push(scratch.subarray(0, to - from));
      while (!taken) taken = reader.proceed();
      scratch.fill(0x55);
    }
    reader.end();
  } catch (error) {
    return { values, error };
  }
  return { values, error: null };
}

function streamFrames(codec, bytes, options) {
  const decoder = codec.decoder({ checksum: options.checksum, maxFrameBytes: options.maxFrameBytes });
  decoder.on('error', () => {});
  const values = [];
  const read = (n) => {
    for (let v; n > 0 && (v = decoder.read()) !== null; n--) values.push(v);
  };
  const scratch = Buffer.alloc(bytes.length);
  for (const [from, to] of randomCuts(bytes.length)) {
    if (decoder.errored) break;
    // The producer refills its Buffer only once the decoder has called the last write back.
    while (decoder.writableLength > 0 && !decoder.errored) {
      const before = values.length;
      read(Infinity);
      if (values.length === before && decoder.writableLength > 0 && !decoder.errored) {
        throw new Failure('frames-stream-stuck', `a chunk is never called back (${decoder.writableLength} bytes)`, { hex: hex(bytes) });
      }
    }
    scratch.fill(0x55);
    scratch.set(bytes.subarray(from, to));
    decoder.write(scratch.subarray(0, to - from));
    if (chance(0.5)) read(below(40));
  }
  if (!decoder.errored) decoder.end();
  read(Infinity);
  return { values, error: decoder.errored || null };
}

function runFrames(entry) {
  currentOp = 'frames';
  const codec = chance(0.5) ? entry.gen : entry.generic;
  const checksum = chance(0.3);
  const bytes = randomFrameStream(entry, checksum);
  const options = { checksum, maxFrameBytes: chance(0.2) ? pick([0, 1, 2, 5, 16, below(300)]) : framing.DEFAULT_MAX_FRAME_BYTES, maxFrames: Infinity };
  const given = { checksum, maxFrameBytes: options.maxFrameBytes };
  if (chance(0.3)) given.maxFrames = options.maxFrames = below(14);
  if (chance(0.3)) given.maxDecodedBytes = pick([0, 1, 64, below(1000), below(20000), below(200000)]);
  const budget = given.maxDecodedBytes !== undefined ? given.maxDecodedBytes : entry.limits.maxDecodedBytes !== undefined ? entry.limits.maxDecodedBytes : DEFAULT_BUDGET;
  const want = referenceFrames(codec, bytes, { ...options, maxFrames: given.maxFrames === undefined ? framing.DEFAULT_MAX_FRAMES : options.maxFrames, maxDecodedBytes: budget }, false);
  let got;
  try {
    got = { values: codec.decodeFrames(bytes, given), error: null };
  } catch (error) {
    got = { values: want.values, error };
  }
  compareFrames('decodeFrames', got, want, bytes, { ...options, maxDecodedBytes: budget });
  // The JS back end's (this build's, or another's: --build), against the
  // same reference.
  let js;
  try {
    js = { values: entry.js.decodeFrames(bytes, given), error: null };
  } catch (error) {
    js = { values: want.values, error };
  }
  compareFrames('decodeFrames (JS back end)', js, want, bytes, { ...options, maxDecodedBytes: budget });
  count(`frames.${want.error ? want.error.code : 'ok'}`);
  const streamWant = referenceFrames(codec, bytes, options, true);
  const readerWant = referenceFrames(codec, bytes, { ...options, maxFrames: Infinity }, false);
  compareFrames('FrameReader', readerFrames(codec, bytes, options), readerWant, bytes, options);
  compareFrames('decoder()', streamFrames(codec, bytes, options), streamWant, bytes, options);
  // And its stream and chunk reader, in Node (this build's JS back end).
  if (BUILD === 'node') {
    compareFrames('FrameReader (JS back end)', readerFrames(entry.js, bytes, options), readerWant, bytes, options);
    compareFrames('decoder() (JS back end)', streamFrames(entry.js, bytes, options), streamWant, bytes, options);
  }
  if (bytes.length > 65536) count('frames.over-one-window');
  checkSentinel('frames');
}

function runOne(i) {
  const entry = pick(entries);
  try {
    if (FRAMES) runFrames(entry);
    else runOn(entry, i);
  } catch (e) {
    if (e instanceof Failure && !(e.details && e.details.schema)) e.details = { schema: entry.schema, limits: entry.limits, ...(e.details || {}) };
    throw e;
  }
}

// --emit: an input and the native back end's answer, a JSON line (scripts/fuzz-page.js
// reads them): `s`, the schema's index in the first line's list; a decode (`hex`) gives
// the value's form (scripts/fuzz-common.js) and the bytes its value form encodes to, or
// the error; an encode (`input`, a value's form) gives the bytes or the error. Values go through
// their form first, as the page has them (a NaN loses its payload there).
function answer(fn) {
  try {
    return fn();
  } catch (e) {
    if (!isShorn(e)) throw e;
    return { error: { code: e.code, message: e.message, path: e.path, offset: e.offset } };
  }
}
function emit(entry, input) {
  if (emitFd === null) return;
  if (emitted === 0) fs.writeSync(emitFd, JSON.stringify({ schemas: entries.map((e) => ({ schema: e.schema, limits: e.limits })) }) + '\n');
  emitted++;
  const s = entries.indexOf(entry);
  if (input.hex !== undefined) {
    const got = answer(() => ({ value: toForm(entry.gen.decode(Buffer.from(input.hex, 'hex'))) }));
    if (got.value !== undefined) got.again = answer(() => ({ hex: hex(entry.gen.encode(fromForm(got.value))) }));
    fs.writeSync(emitFd, JSON.stringify({ s, bytes: input.hex, ...got }) + '\n');
  } else {
    const value = toForm(input.value);
    fs.writeSync(emitFd, JSON.stringify({ s, input: value, ...answer(() => ({ hex: hex(entry.gen.encode(fromForm(value))) })) }) + '\n');
  }
}
let emitted = 0;

let currentOp = '';
function runOn(entry, i) {
  const op = below(100);
  if (op < 20) {
    currentOp = 'random bytes';
    count('op.random-bytes');
    const bytes = randomBytes();
    decodeBoth(entry, bytes);
    emit(entry, { hex: hex(bytes) });
  } else if (op < 45) {
    currentOp = 'mutated message';
    count('op.mutated-message');
    const list = samples.get(entry);
    const base = list.length ? pick(list) : randomBytes();
    const bytes = chance(0.9) ? mutate(base) : base;
    decodeBoth(entry, bytes);
    emit(entry, { hex: hex(bytes) });
  } else if (op < 68) {
    currentOp = 'random value';
    count('op.random-value');
    const value = randomValue(entry.schema, entry.defs);
    const bytes = encodeBoth(entry, () => structuredCloneValue(value));
    if (bytes) remember(entry, bytes);
    emit(entry, { value });
  } else {
    count('op.hostile-value');
    const h = hostile(entry);
    currentOp = `hostile: ${h.label}`;
    const run = () => {
      const bytes = encodeBoth(entry, h.make, { agree: h.agree !== false, label: h.label, proxyReceiver: h.proxyReceiver === true });
      if (h.expect !== undefined && bytes) {
        const plain = entry.gen.encode(structuredCloneValue(h.expect));
        if (hex(plain) !== hex(bytes)) throw new Failure('reentrant-changed-bytes', `${h.label}: ${hex(bytes)}, the plain value gives ${hex(plain)}`, { schema: entry.schema });
      }
    };
    if (h.around) h.around(run);
    else run();
    checkSentinel(h.label);
    count(`hostile.${h.label}`);
  }
  if (i % 1000 === 0 || CHECK_EVERY) checkSentinel(`input ${i} (ordinary)`);
}

// After a state corruption (none is known: issue 7, item 2 is fixed), one large message
// replaces the tape, so the run can go on and report what else it finds.
function recoverFromKnown() {
  const big = compile(t.array(t.float64()), { codegen: true });
  big.encode(Array.from({ length: 70000 }, (_, k) => k));
  big.decode(big.encode(Array.from({ length: 70000 }, (_, k) => k)));
}

// Findings reported and not fixed yet (scripts/fuzz-findings/README.md): counted, not failed.
const KNOWN = [
  // (empty: issue 7's items and J1-J4 are fixed on main; add an entry here, with its
  // finding in scripts/fuzz-findings/README.md, to count a new open finding instead of
  // failing on it)
];

function fail(e, i) {
  const knownAs = KNOWN.find(([, test]) => test(e));
  if (knownAs) {
    count(`known:${knownAs[0]}`);
    fs.appendFileSync(OUT, `${JSON.stringify({ input: i, seed: SEED, op: currentOp, known: knownAs[0], message: e.message, ...(e.details || {}) }, (k, v) => (typeof v === 'bigint' ? `${v}n` : v))}\n`);
    return;
  }
  failures++;
  const kind = e instanceof Failure ? e.kind : 'harness-threw';
  count(`FAIL:${kind}`);
  const record = { input: i, seed: SEED, op: currentOp, kind, message: e.message, stack: e instanceof Failure ? undefined : describeError(e), ...(e.details || {}) };
  fs.appendFileSync(OUT, `${JSON.stringify(record, (k, v) => (typeof v === 'bigint' ? `${v}n` : v))}\n`);
  if (!failureKinds.has(kind) || VERBOSE) {
    failureKinds.add(kind);
    console.error(`FAIL at input ${i} (${currentOp}): ${e.message}${e.details ? `\n  ${JSON.stringify(e.details).slice(0, 600)}` : ''}`);
  }
}

// ---------------------------------------------------------------- the CLI target

const cliDir = CLI_RUNS > 0 ? fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-fuzz-cli-')) : null;
// Removed however the run ends (process.exit, a harness error that escapes).
if (cliDir !== null) process.on('exit', () => fs.rmSync(cliDir, { recursive: true, force: true }));
const cli = CLI_RUNS > 0 ? { main: require('../lib/cli/main').main, comment: require('../lib/cli/source').comment, ...require('../lib/cli/forms'), ...require('../lib/cli/json') } : null;
let cliFailures = 0;

// Schemas with constraints (the golden vectors'), for the CLI target alone: a decoded value
// that breaks one is ERR_SHORN_INVALID, which `shorn decode` reported as an internal error
// (issue 37, finding 10). Their vectors and rejects are the samples to mutate.
const constrained = [];
if (CLI_RUNS > 0) {
  const { hasConstraints } = require('../lib/constraints');
  const bySchema = new Map();
  for (const v of [...golden.vectors, ...golden.rejects]) {
    if (!hasConstraints(v.schema) || typeof v.hex !== 'string') continue;
    const key = JSON.stringify(v.schema);
    if (!bySchema.has(key)) bySchema.set(key, makeEntry(`golden ${v.name}`, v.schema, {}, []));
    bySchema.get(key).messages.push(Uint8Array.from(Buffer.from(v.hex, 'hex')));
  }
  for (const e of bySchema.values()) {
    constrained.push(e);
    samples.set(e, [...e.messages]);
  }
}

// The CLI compiles a --schema file with the default limits; so does its verdict here.
function cliSchema(entry) {
  if (entry.cli === undefined) {
    const file = path.join(cliDir, `schema-${entries.includes(entry) ? entries.indexOf(entry) : `c${constrained.indexOf(entry)}`}.json`);
    fs.writeFileSync(file, JSON.stringify(entry.schema));
    const codec = compile(entry.schema);
    entry.cli = { file, codec, forms: cli.formsFor(codec.schema) };
  }
  return entry.cli;
}

/** Runs `shorn ...args` in this process; resolves to `{ status, stderr }`. */
async function shornCli(args) {
  let stderr = '';
  const write = process.stderr.write;
  process.stderr.write = (chunk, encoding, callback) => {
    stderr += chunk;
    const done = typeof encoding === 'function' ? encoding : callback;
    if (done) done();
    return true;
  };
  let status;
  try {
    status = await cli.main(args);
  } finally {
    process.stderr.write = write;
  }
  return { status, stderr };
}

/** The library's verdict on one input: `{ status, output }` (output null when not compared). */
function verdictOf(fn) {
  try {
    return { status: 0, output: fn() };
  } catch (e) {
    if (e instanceof cli.JsonSyntaxError) return { status: 1, output: null };
    if (!isShorn(e)) throw new Failure('cli-verdict-threw', describeError(e));
    return { status: e.code === 'ERR_SHORN_SCHEMA' ? 3 : 1, output: null, error: e };
  }
}

function checkCli(what, r, expected, outFile, details) {
  const output = fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : '';
  const fail = (kind, message) => new Failure(kind, `${what}: ${message}`, { ...details, stderr: r.stderr.slice(0, 2000) });
  if (r.status === 70) throw fail('cli-internal-error', `exit 70, the library says ${expected.status}`);
  if (r.status !== expected.status) throw fail('cli-exit-code', `exit ${r.status}, the library says ${expected.status}${expected.error ? ` (${expected.error.code})` : ''}`);
  if (what.startsWith('inspect')) {
    // inspect shows the error in its dump, at its offset (checked below), not on stderr.
    if (r.stderr !== '') throw fail('cli-stderr', 'inspect wrote to stderr');
  } else if (r.status !== 0) {
    const lines = r.stderr.trimEnd().split('\n');
    if (lines.length > 2 || !lines.every((l) => l.startsWith('shorn: '))) throw fail('cli-error-not-one-line', 'the error is not one line (and a hint)');
    // The message as the CLI prints it: on one line, control characters escaped.
    if (expected.error && !lines[0].includes(expected.error.code) && !lines[0].includes(cli.comment(expected.error.message))) throw fail('cli-error-other', `the error is not the library's ${expected.error.code}`);
  }
  if (typeof expected.output === 'string' && output !== expected.output) throw fail('cli-output', `wrote ${JSON.stringify(output.slice(0, 300))}, the library gives ${JSON.stringify(expected.output.slice(0, 300))}`);
  if (typeof expected.output === 'function') expected.output(output, fail);
  count(`cli.${what}.exit-${r.status}`);
  if (expected.error) count(`cli.${what}.${expected.error.code}`);
}

// A message for `entry`: a sample, a mutation of one, or random bytes.
function cliMessage(entry) {
  const list = samples.get(entry);
  if (list.length === 0 || chance(0.2)) return randomBytes();
  return chance(0.7) ? mutate(pick(list)) : pick(list);
}

// Frames of a few messages, sometimes with one byte changed.
function cliFrames(entry) {
  const parts = [];
  for (let n = below(5); n > 0; n--) {
    const m = cliMessage(entry);
    let length = m.length;
    const header = [];
    do {
      header.push((length & 0x7f) | (length > 0x7f ? 0x80 : 0));
      length = Math.floor(length / 128);
    } while (length > 0);
    parts.push(Uint8Array.from(header), m);
  }
  const bytes = Buffer.concat(parts);
  return chance(0.3) && bytes.length ? mutate(bytes) : bytes;
}

// JSON text for encode: a value of the schema in its JSON forms, a random JSON value, or
// either with a character changed.
function cliJson(entry, forms) {
  let text;
  try {
    text = JSON.stringify(forms.toJson(randomValue(entry.schema, entry.defs)));
  } catch {
    text = undefined;
  }
  if (text === undefined || chance(0.2)) text = JSON.stringify(jsonValue(0));
  if (chance(0.15) && text.length) {
    const at = below(text.length);
    text = text.slice(0, at) + pick(['', '"', '1', '[', '}', '\u2028', '9999999999999999999999', 'null']) + text.slice(at + 1);
  }
  return text;
}

async function runCliOne(i) {
  const entry = constrained.length && chance(0.25) ? pick(constrained) : pick(entries);
  const { file: schema, codec, forms } = cliSchema(entry);
  const input = path.join(cliDir, 'input');
  const out = path.join(cliDir, 'output');
  fs.rmSync(out, { force: true });
  const op = below(100);
  if (op < 25) {
    currentOp = 'cli decode';
    const bytes = cliMessage(entry);
    const hexText = chance(0.3);
    fs.writeFileSync(input, hexText ? `${hex(bytes)}\n` : bytes);
    const expected = verdictOf(() => `${forms.text(codec.decode(bytes))}\n`);
    const r = await shornCli(['decode', '--schema', schema, input, '-o', out, ...(hexText ? ['--hex'] : [])]);
    checkCli('decode', r, expected, out, { hex: hex(bytes) });
  } else if (op < 40) {
    currentOp = 'cli decode --stream';
    const bytes = cliFrames(entry);
    const maxFrameBytes = chance(0.2) ? below(8) : undefined;
    fs.writeFileSync(input, bytes);
    const options = maxFrameBytes === undefined ? {} : { maxFrameBytes };
    const expected = verdictOf(() => codec.decodeFrames(bytes, options).map((v) => `${forms.text(v)}\n`).join(''));
    // On a fault, the lines of the frames before it are written.
    if (expected.error) expected.output = (output, fail) => {
      const lines = output === '' ? 0 : output.split('\n').length - 1;
      if (lines !== expected.error.frame) throw fail('cli-output', `wrote ${lines} lines before frame ${expected.error.frame}'s fault`);
    };
    const r = await shornCli(['decode', '--stream', '--schema', schema, input, '-o', out, ...(maxFrameBytes === undefined ? [] : ['--max-frame-bytes', String(maxFrameBytes)])]);
    checkCli('decode-stream', r, expected, out, { hex: hex(bytes), maxFrameBytes });
  } else if (op < 65) {
    currentOp = 'cli encode';
    // The text as the file holds it (a lone surrogate is written as U+FFFD).
    fs.writeFileSync(input, cliJson(entry, forms));
    const text = fs.readFileSync(input, 'utf8');
    const expected = verdictOf(() => {
      const [{ value }] = cli.parseValues(text, { ndjson: false, exactIntegers: forms.exact });
      return `${hex(codec.encode(forms.fromJson(value)))}\n`;
    });
    const r = await shornCli(['encode', '--hex', '--schema', schema, input, '-o', out]);
    checkCli('encode', r, expected, out, { json: text });
  } else if (op < 80) {
    currentOp = 'cli inspect';
    const bytes = cliMessage(entry);
    fs.writeFileSync(input, bytes);
    const expected = verdictOf(() => codec.decode(bytes));
    const summary = expected.status === 0 ? `# ${bytes.length} bytes; decodes` : `# ${bytes.length} bytes; does not decode: ${expected.error.code} at offset ${expected.error.offset}`;
    expected.output = (output, fail) => {
      if (!output.endsWith(`\n${summary}\n`) && output !== `${summary}\n`) throw fail('cli-output', `the dump does not end with ${JSON.stringify(summary)}`);
    };
    const r = await shornCli(['inspect', '--schema', schema, input, '-o', out]);
    checkCli('inspect', r, expected, out, { hex: hex(bytes) });
  } else if (op < 90) {
    currentOp = 'cli inspect --stream';
    const bytes = cliFrames(entry);
    fs.writeFileSync(input, bytes);
    const expected = verdictOf(() => codec.decodeFrames(bytes).length);
    const wanted = expected.status === 0 ? `# ${bytes.length} bytes, ${expected.output} frame` : `# ${bytes.length} bytes; frame ${expected.error.frame} does not decode: ${expected.error.code}`;
    expected.output = (output, fail) => {
      const last = output.trimEnd().split('\n').at(-1);
      if (!last.startsWith(wanted)) throw fail('cli-output', `the dump ends ${JSON.stringify(last)}, not ${JSON.stringify(wanted)}`);
    };
    const r = await shornCli(['inspect', '--stream', '--schema', schema, input, '-o', out]);
    checkCli('inspect-stream', r, expected, out, { hex: hex(bytes) });
  } else {
    // infer --js: exit 0 with source that builds the schema infer prints, a schema that
    // compiles and takes every sample; or exit 1 for samples no schema takes.
    currentOp = 'cli infer';
    const values = [];
    for (let n = 1 + below(6); n > 0; n--) {
      let json;
      try {
        json = forms.toJson(randomValue(entry.schema, entry.defs));
        // A value randomValue made that is not one of the schema keeps what JSON has no
        // form for (a bigint): it follows refs by name, and a schema may scope two
        // recursive definitions of one name (the inner one shadows the outer).
        JSON.stringify(json);
      } catch {
        json = jsonValue(0);
      }
      values.push(chance(0.8) && json !== undefined ? json : jsonValue(0));
    }
    fs.writeFileSync(input, values.map((v) => JSON.stringify(v)).join('\n'));
    const text = fs.readFileSync(input, 'utf8');
    const r = await shornCli(['infer', '--js', '--ndjson', input, '-o', out]);
    const expected = { status: r.status === 1 ? 1 : 0, output: null };
    expected.output = (output, fail) => {
      if (r.status !== 0) return;
      const module = { exports: {} };
      new Function('require', 'module', output)(() => shorn, module);
      const schema = JSON.parse(JSON.stringify(module.exports.Schema));
      let inferred;
      try {
        inferred = compile(schema);
      } catch (e) {
        throw fail('cli-infer-schema-refused', describeError(e));
      }
      // Read as `shorn encode` reads them: integers beyond 2^53 exact where it takes them so.
      const inferredForms = cli.formsFor(inferred.schema);
      for (const { value: v } of cli.parseValues(text, { ndjson: true, exactIntegers: inferredForms.exact })) {
        try {
          inferred.encode(inferredForms.fromJson(v));
        } catch (e) {
          throw fail('cli-infer-refuses-sample', `${describeError(e)} for ${JSON.stringify(v).slice(0, 200)}`);
        }
      }
    };
    checkCli('infer', r, expected, out, { samples: values });
  }
}

async function runCliTarget() {
  const started = Date.now();
  let lastProgress = started;
  for (let i = 1; i <= CLI_RUNS; i++) {
    try {
      await runCliOne(i);
    } catch (e) {
      if (e instanceof Failure) e.details = { target: 'cli', ...(e.details || {}) };
      // Counted apart from the library's failures, which `fail` counts.
      const before = failures;
      fail(e, i);
      cliFailures += failures - before;
      failures = before;
    }
    const now = Date.now();
    if (now - lastProgress >= 5000 || i === CLI_RUNS) {
      lastProgress = now;
      const s = (now - started) / 1000;
      process.stderr.write(`shorn fuzz (cli): ${i}/${CLI_RUNS} inputs, ${s.toFixed(1)} s, ${Math.round(i / s)}/s, ${cliFailures} failures\n`);
    }
  }
}

// ---------------------------------------------------------------- main

(async () => {
  const started = Date.now();
  let lastProgress = started;
  if (TARGET !== 'cli') {
    console.log(`shorn fuzz: ${RUNS} inputs, seed ${SEED}, ${entries.length} schemas (${fixed.length} fixed, ${entries.length - fixed.length} random), both marshallers`);
    for (let i = 1; i <= RUNS; i++) {
      try {
        runOne(i);
      } catch (e) {
        fail(e, i);
        try {
          checkSentinel('a failure');
        } catch (e2) {
          fail(e2, i);
          recoverFromKnown();
        }
      }
      // A stream decoder finishes on later ticks (its callbacks and events hold it): with
      // none, 35,000 frame inputs kept 1.6 GB of finished decoders.
      if (FRAMES && i % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
      const now = Date.now();
      if (now - lastProgress >= 5000 || i === RUNS) {
        lastProgress = now;
        const s = (now - started) / 1000;
        process.stderr.write(`shorn fuzz: ${i}/${RUNS} inputs, ${s.toFixed(1)} s, ${Math.round(i / s)}/s, ${failures} failures, rss ${Math.round(process.memoryUsage.rss() / 2 ** 20)} MiB\n`);
      }
    }
  }
  if (CLI_RUNS > 0) {
    console.log(`shorn fuzz (cli): ${CLI_RUNS} inputs, seed ${SEED}, ${entries.length} schemas, lib/cli/main.js in this process`);
    await runCliTarget();
  }
  const seconds = (Date.now() - started) / 1000;
  const known = Object.keys(counts).filter((k) => k.startsWith('known:'));
  console.log(`shorn fuzz summary (seed ${SEED}, ${seconds.toFixed(1)} s${BUILD === 'node' ? '' : `, the JS back end as the ${BUILD} build`}${ENGINE}):`);
  for (const key of Object.keys(counts).sort()) console.log(`  ${key.padEnd(44)} ${counts[key]}`);
  if (TARGET !== 'cli') console.log(`${RUNS - failures} passed, ${failures} failed${known.length ? ` (known findings hit: ${known.map((k) => `${k.slice(6)} ×${counts[k]}`).join(', ')})` : ''}`);
  if (CLI_RUNS > 0) console.log(`cli: ${CLI_RUNS - cliFailures} passed, ${cliFailures} failed`);
  if (failures || cliFailures) console.log(`failing inputs: ${OUT}`);
  process.exit(failures || cliFailures ? 1 : 0);
})();
