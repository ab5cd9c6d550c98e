'use strict';
// Shared by every test file: the golden vectors, both marshallers, exact error checks, and
// the few reference encoders (varint, zigzag) that let tests state expected bytes without
// asking shorn for them.

const assert = require('node:assert/strict');
const path = require('node:path');
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const shorn = require('..');

const { compile, ShornError } = shorn;

const GOLDEN_PATH = path.join(__dirname, '..', 'tests', 'golden.json');
const golden = JSON.parse(fs.readFileSync(GOLDEN_PATH, 'utf8'));

const DECODE_CODES = ['ERR_SHORN_TRUNCATED', 'ERR_SHORN_TRAILING', 'ERR_SHORN_MALFORMED', 'ERR_SHORN_LIMIT'];

// Both marshallers: every behaviour test runs against each, since they must agree byte for byte.
const MODES = [
  { name: 'codegen', codegen: true },
  { name: 'generic', codegen: false },
];

/** Compiles `schema` in one mode and checks the codec really uses that marshaller. */
function compileMode(schema, mode, options = {}) {
  const codec = compile(schema, { ...options, codegen: mode.codegen });
  assert.equal(codec.generated, mode.codegen, `codec.generated for the ${mode.name} marshaller`);
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
  return [
    ['Buffer', Buffer.from(bytes)],
    ['Uint8Array', new Uint8Array(bytes)],
    ['Uint8Array view at byteOffset 13', middle],
    ['Buffer view at byteOffset 14', bufferView],
    ['subarray at byteOffset 5', sub.subarray(5, 5 + n)],
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

/**
 * What decoding `value` encoded with `schema` must give: float32 rounded by Math.fround,
 * integer -0 as 0, bytes as a plain Uint8Array, objects with only the schema's fields in
 * schema order and absent optionals left out.
 */
function expectedDecoded(schema, value) {
  switch (schema.type) {
    case 'float32':
      return Math.fround(value);
    case 'uint8':
    case 'uint16':
    case 'uint32':
    case 'int8':
    case 'int16':
    case 'int32':
      return value === 0 ? 0 : value;
    case 'bytes':
      return new Uint8Array(value);
    case 'array':
      return Array.from(value, (item) => expectedDecoded(schema.items, item));
    case 'object': {
      const out = {};
      for (const f of schema.fields) {
        const inherited = f.name in Object.prototype && !Object.hasOwn(value, f.name);
        const v = inherited ? undefined : value[f.name];
        if (f.schema.type === 'optional') {
          if (v !== undefined) defineOwn(out, f.name, expectedDecoded(f.schema.of, v));
        } else {
          defineOwn(out, f.name, expectedDecoded(f.schema, v));
        }
      }
      return out;
    }
    case 'nullable':
      return value === null ? null : expectedDecoded(schema.of, value);
    default:
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
function runIsolated(body, nodeArgs = []) {
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
  const child = spawnSync(process.execPath, [...nodeArgs, '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(child.error, undefined, `child process: ${child.error}`);
  assert.equal(child.status, 0, `child process failed:\n${child.stderr}`);
  return JSON.parse(child.stdout);
}

module.exports = {
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
  runIsolated,
  ROOT,
};
