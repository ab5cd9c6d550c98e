'use strict';
// Shared by every test file: the golden vectors, both marshallers, exact error checks, and
// the few reference encoders (varint, zigzag) that let tests state expected bytes without
// asking shorn for them.

const assert = require('node:assert/strict');
const path = require('node:path');
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const { types } = require('node:util');
const shorn = require('..');

const { compile, ShornError } = shorn;

const GOLDEN_PATH = path.join(__dirname, '..', 'tests', 'golden.json');
const golden = JSON.parse(fs.readFileSync(GOLDEN_PATH, 'utf8'));

// ERR_SHORN_INVALID: a decoded value that breaks a constraint of its schema.
const DECODE_CODES = ['ERR_SHORN_TRUNCATED', 'ERR_SHORN_TRAILING', 'ERR_SHORN_MALFORMED', 'ERR_SHORN_LIMIT', 'ERR_SHORN_INVALID'];

// Both marshallers: every behaviour test runs against each, since they must agree byte for byte.
const MODES = [
  { name: 'codegen', codegen: true },
  { name: 'generic', codegen: false },
  // The JS back end (lib/js-backend.js): no native encode or decode; its closures alone
  // (as under a strict CSP), and with objects generated.
  { name: 'js back end', codegen: false, backend: 'js' },
  { name: 'js back end, generated', codegen: true, backend: 'js' },
];

/** Compiles `schema` in one mode and checks the codec really uses that marshaller. */
function compileMode(schema, mode, options = {}) {
  const codec = compile(schema, mode.backend === undefined ? { ...options, codegen: mode.codegen } : { ...options, codegen: mode.codegen, backend: mode.backend });
  assert.equal(codec.generated, mode.codegen, `codec.generated for the ${mode.name} marshaller`);
  assert.equal(codec.backend, mode.backend ?? 'native', `codec.backend for the ${mode.name} marshaller`);
  return codec;
}

/** `[{ mode, codec }]` for `codegen: true` and `codegen: false`. */
function compileBoth(schema, options = {}) {
  return MODES.map((mode) => ({ mode, codec: compileMode(schema, mode, options) }));
}

function fromHex(hex) {
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

function toHex(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

const SPECIAL_NUMBERS = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };

// Sets an own data property whatever the key (`__proto__` included).
function defineOwn(o, key, value) {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Turns a golden.json value into the JS value: `{"$bytes": hex}`, `{"$number": "NaN"}`. */
function fromGolden(v) {
  if (Array.isArray(v)) return v.map(fromGolden);
  if (v === null || typeof v !== 'object') return v;
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0] === '$bytes') return fromHex(v.$bytes);
  if (keys.length === 1 && keys[0] === '$number') {
    assert.ok(Object.hasOwn(SPECIAL_NUMBERS, v.$number), `unknown $number ${v.$number}`);
    return SPECIAL_NUMBERS[v.$number];
  }
  if (keys.length === 1 && keys[0] === '$bigint') return BigInt(v.$bigint);
  if (keys.length === 1 && keys[0] === '$date') return new Date(v.$date);
  if (keys.length === 1 && keys[0] === '$map') return new Map(v.$map.map(([k, x]) => [fromGolden(k), fromGolden(x)]));
  if (keys.length === 1 && keys[0].startsWith('$') && TYPED_CLASSES[keys[0].slice(1)]) {
    return new TYPED_CLASSES[keys[0].slice(1)](v[keys[0]].map(fromGolden));
  }
  const out = {};
  for (const k of keys) defineOwn(out, k, fromGolden(v[k]));
  return out;
}

/**
 * Calls `fn`, which must throw a ShornError; checks `code`, and `path`, `offset` and
 * `message` exactly when given (a RegExp `message` is matched). Returns the error.
 */
function assertShornError(fn, expected) {
  let error;
  let threw = false;
  try {
    fn();
  } catch (e) {
    threw = true;
    error = e;
  }
  assert.ok(threw, `expected a ShornError ${expected.code}, but nothing was thrown`);
  assert.ok(error instanceof ShornError, `expected a ShornError, got ${error && error.stack}`);
  assert.ok(error instanceof Error, 'a ShornError is an Error');
  assert.equal(error.name, 'ShornError');
  assert.equal(error.code, expected.code, `code (message: ${error.message})`);
  if ('path' in expected) assert.equal(error.path, expected.path, `path (message: ${error.message})`);
  if ('offset' in expected) assert.equal(error.offset, expected.offset, `offset (message: ${error.message})`);
  if ('message' in expected) {
    if (expected.message instanceof RegExp) assert.match(error.message, expected.message);
    else assert.equal(error.message, expected.message);
  }
  return error;
}

/**
 * The same bytes as differently made inputs: Buffer, plain Uint8Array, and views with a
 * non-zero byteOffset into a larger ArrayBuffer whose other bytes are garbage, so a
 * decoder that reads outside its view sees wrong data.
 */
function inputViews(bytes) {
  const n = bytes.length;
  const pad = 13;
  const backing = new ArrayBuffer(n + 2 * pad + 3);
  new Uint8Array(backing).fill(0xa5);
  const middle = new Uint8Array(backing, pad, n);
  middle.set(bytes);
  const backing2 = new ArrayBuffer(n + 2 * pad);
  new Uint8Array(backing2).fill(0xff);
  const bufferView = Buffer.from(backing2, pad + 1, n);
  bufferView.set(bytes);
  const sub = new Uint8Array(n + 10).fill(0x80);
  sub.set(bytes, 5);
  const shared = new Uint8Array(new SharedArrayBuffer(n + 6), 3, n);
  shared.set(bytes);
  return [
    ['Buffer', Buffer.from(bytes)],
    ['Uint8Array', new Uint8Array(bytes)],
    ['Uint8Array view at byteOffset 13', middle],
    ['Buffer view at byteOffset 14', bufferView],
    ['subarray at byteOffset 5', sub.subarray(5, 5 + n)],
    ['SharedArrayBuffer view at byteOffset 3', shared],
  ];
}

// ---- reference encoders, written from docs/FORMAT.md ----

function varint(n) {
  assert.ok(Number.isInteger(n) && n >= 0 && n <= 0xffffffff, `varint ${n}`);
  const out = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

function zigzag(n) {
  return ((n << 1) ^ (n >> 31)) >>> 0;
}

function concatBytes(...parts) {
  const flat = [];
  for (const p of parts) for (const b of p) flat.push(b);
  return new Uint8Array(flat);
}

const INTEGER_RANGES = {
  uint8: [0, 255],
  uint16: [0, 65535],
  uint32: [0, 4294967295],
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
  int: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};
const BIG_RANGES = { int64: [-(2n ** 63n), 2n ** 63n - 1n], uint64: [0n, 2n ** 64n - 1n] };
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));
const field = (o, name) => (INHERITED.has(name) && !Object.hasOwn(o, name) ? undefined : o[name]);
const isPlain = (x) => typeof x === 'object' && x !== null && [Object.prototype, null].includes(Object.getPrototypeOf(x));

/**
 * Whether `schema` accepts `value`: docs/FORMAT.md's value rules written again, apart
 * from shorn's own checks (the union rule is "the first variant that accepts").
 */
function accepts(schema, value, scope = new Map(), depth = 0) {
  const is = (d, x) => accepts(d, x, scope, depth);
  switch (schema.type) {
    case 'bool':
      return typeof value === 'boolean';
    case 'float32':
    case 'float64':
      return typeof value === 'number';
    case 'string':
      return typeof value === 'string' && value.isWellFormed();
    case 'bytes':
      return types.isUint8Array(value);
    case 'enum':
      return schema.values.includes(value);
    case 'int64':
    case 'uint64':
      return typeof value === 'bigint' && value >= BIG_RANGES[schema.type][0] && value <= BIG_RANGES[schema.type][1];
    case 'date':
      return types.isDate(value) && !Number.isNaN(value.getTime());
    case 'literal':
      return Object.is(value, schema.value);
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value) && Array.from(value).every((x) => is(schema.items, x));
    case 'tuple':
      return Array.isArray(value) && value.length === schema.items.length && schema.items.every((d, k) => is(d, value[k]));
    case 'object':
      return (
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        schema.fields.every((f) => {
          const v = field(value, f.name);
          return f.schema.type === 'optional' ? v === undefined || is(f.schema.of, v) : is(f.schema, v);
        }) &&
        (!schema.strict || Object.keys(value).every((k) => schema.fields.some((f) => f.name === k)))
      );
    case 'nullable':
      return value === null || is(schema.of, value);
    case 'record':
      return isPlain(value) && Object.keys(value).every((k) => is(schema.values, value[k]));
    case 'map':
      return types.isMap(value) && [...value].every(([k, v]) => is(schema.keys, k) && is(schema.values, v));
    case 'union':
      return schema.variants.some((v) => is(v, value));
    case 'discriminatedUnion': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
      const tag = field(value, schema.key);
      const variant = schema.variants.find((v) => v.fields.some((f) => f.name === schema.key && Object.is(f.schema.value, tag)));
      return variant !== undefined && is(variant, value);
    }
    case 'recursive':
      return depth < 128 && accepts(schema.schema, value, new Map(scope).set(schema.name, schema), depth + 1);
    case 'ref':
      return depth < 128 && accepts(scope.get(schema.name).schema, value, scope, depth + 1);
    case 'json':
      return isJsonValue(value, 0);
    default:
      if (INTEGER_RANGES[schema.type]) {
        const [lo, hi] = INTEGER_RANGES[schema.type];
        return typeof value === 'number' && Number.isInteger(value) && value >= lo && value <= hi;
      }
      if (TYPED_CLASSES[schema.type]) return Object.prototype.toString.call(value) === `[object ${TYPED_CLASSES[schema.type].name}]`;
      throw new Error(`accepts: unknown type ${schema.type}`);
  }
}

function isJsonValue(x, depth) {
  if (x === null || typeof x === 'string' || typeof x === 'boolean') return true;
  if (typeof x === 'number') return Number.isFinite(x);
  if (depth >= 128) return false;
  if (Array.isArray(x)) return Array.from(x).every((y) => isJsonValue(y, depth + 1));
  return isPlain(x) && Object.keys(x).every((k) => isJsonValue(x[k], depth + 1));
}

const TYPED_CLASSES = {
  float64Array: Float64Array,
  float32Array: Float32Array,
  int32Array: Int32Array,
  uint32Array: Uint32Array,
  int16Array: Int16Array,
  uint16Array: Uint16Array,
  int8Array: Int8Array,
};

// A deep copy of a JSON value that keeps -0 and every key as an own data property.
function copyJson(value) {
  if (Array.isArray(value)) return value.map(copyJson);
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const k of Object.keys(value)) defineOwn(out, k, copyJson(value[k]));
  return out;
}

/**
 * What decoding `value` encoded with `schema` must give: float32 rounded by Math.fround,
 * integer -0 as 0, bytes as a plain Uint8Array, objects with only the schema's fields in
 * schema order and absent optionals left out, the variant of a union that accepts it.
 * `scope` holds the recursive definitions around `schema`.
 */
function expectedDecoded(schema, value, scope = new Map()) {
  switch (schema.type) {
    case 'float32':
      return Math.fround(value);
    case 'uint8':
    case 'uint16':
    case 'uint32':
    case 'int8':
    case 'int16':
    case 'int32':
    case 'int':
      return value === 0 ? 0 : value;
    case 'bytes':
      return new Uint8Array(value);
    case 'date':
      return new Date(value.getTime());
    case 'literal':
    case 'null':
    case 'json':
      return copyJson(value);
    case 'tuple':
      return schema.items.map((item, k) => expectedDecoded(item, value[k], scope));
    case 'record': {
      const out = {};
      for (const k of Object.keys(value)) defineOwn(out, k, expectedDecoded(schema.values, value[k], scope));
      return out;
    }
    case 'map':
      return new Map([...value].map(([k, v]) => [expectedDecoded(schema.keys, k, scope), expectedDecoded(schema.values, v, scope)]));
    case 'union': {
      const variant = schema.variants.find((v) => accepts(v, value, scope));
      return expectedDecoded(variant, value, scope);
    }
    case 'discriminatedUnion': {
      const variant = schema.variants.find((v) => v.fields.some((f) => f.name === schema.key && Object.is(f.schema.value, value[schema.key])));
      return expectedDecoded(variant, value, scope);
    }
    case 'recursive':
      return expectedDecoded(schema.schema, value, new Map(scope).set(schema.name, schema));
    case 'ref':
      return expectedDecoded(scope.get(schema.name).schema, value, scope);
    case 'array':
      return Array.from(value, (item) => expectedDecoded(schema.items, item, scope));
    case 'object': {
      const out = {};
      for (const f of schema.fields) {
        const inherited = f.name in Object.prototype && !Object.hasOwn(value, f.name);
        const v = inherited ? undefined : value[f.name];
        if (f.schema.type === 'optional') {
          if (v !== undefined) defineOwn(out, f.name, expectedDecoded(f.schema.of, v, scope));
        } else {
          defineOwn(out, f.name, expectedDecoded(f.schema, v, scope));
        }
      }
      return out;
    }
    case 'nullable':
      return value === null ? null : expectedDecoded(schema.of, value, scope);
    default:
      if (TYPED_CLASSES[schema.type]) return new TYPED_CLASSES[schema.type](value);
      return value;
  }
}


const ROOT = path.join(__dirname, '..');

/**
 * Runs `body` (the body of an async function that returns a JSON value) in a fresh Node
 * process with `shorn`, `t`, `compile`, `encode`, `decode`, `ShornError` in scope, and
 * returns what it returned. For tests that need a process of their own: a code-generation
 * ban, or a state that must not leak into other tests. `nodeArgs` go before the script.
 */
// `timeout` in ms: a child that works for long (on a loaded machine) gets more.
function runIsolated(body, nodeArgs = [], { timeout = 30_000 } = {}) {
  const script = `'use strict';
const ROOT = ${JSON.stringify(ROOT)};
const shorn = require(ROOT);
const { t, compile, encode, decode, ShornError } = shorn;
(async () => {
${body}
})().then(
  (result) => { process.stdout.write(JSON.stringify(result)); },
  (error) => { process.stderr.write(String(error && error.stack)); process.exitCode = 1; },
);
`;
  const child = spawnSync(process.execPath, [...nodeArgs, '-e', script], { encoding: 'utf8', timeout });
  assert.equal(child.error, undefined, `child process: ${child.error}`);
  assert.equal(child.status, 0, `child process failed:\n${child.stderr}`);
  return JSON.parse(child.stdout);
}

// mulberry32 (as benchmark/fixtures.js): deterministic values in [0, 1) from a seed.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The `shorn` command (bin/shorn.js) run in child processes, in the folder `dir()` gives
 * (a test file's temporary folder): `shornCli(args, { input, cwd, node })` gives `{ status,
 * stdout (a Buffer), out (its text), stderr }` (`node`: options for node itself), `ok` the
 * same for a command that must succeed, and `file(name, content)` writes a file there and
 * gives its path.
 */
function cliRunner(dir) {
  const bin = path.join(ROOT, 'bin', 'shorn.js');
  function shornCli(args, { input, cwd, node = [] } = {}) {
    const r = spawnSync(process.execPath, [...node, bin, ...args], { input: input ?? '', cwd: cwd ?? dir(), maxBuffer: 256 * 1024 * 1024 });
    assert.equal(r.error, undefined, r.error && r.error.message);
    return { status: r.status, stdout: r.stdout, out: r.stdout.toString(), stderr: r.stderr.toString() };
  }
  function ok(args, options) {
    const r = shornCli(args, options);
    assert.equal(r.status, 0, `shorn ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return r;
  }
  function file(name, content) {
    const f = path.join(dir(), name);
    fs.writeFileSync(f, content);
    return f;
  }
  return { shornCli, ok, file };
}

// The generic marshaller of `descriptor`, as compile makes it: lib/codegen.js takes it to
// generate code (enum indexes, variant tags, recursive definitions, defaults).
function marshallerOf(descriptor, info = require('../lib/walk').analyze(descriptor)) {
  return require('../lib/generic').marshaller(descriptor, info, 128);
}

module.exports = {
  marshallerOf,
  cliRunner,
  mulberry32,
  shorn,
  golden,
  DECODE_CODES,
  MODES,
  compileMode,
  compileBoth,
  fromHex,
  toHex,
  fromGolden,
  defineOwn,
  assertShornError,
  inputViews,
  varint,
  zigzag,
  concatBytes,
  expectedDecoded,
  accepts,
  runIsolated,
  ROOT,
};
