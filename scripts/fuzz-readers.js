#!/usr/bin/env node
'use strict';
// JS-level fuzzing of schema evolution (docs/FUZZING.md, "Readers"): a random writer
// schema, a reader made from it by random changes (fields added with defaults, json ones
// among them, dropped, reordered, made optional; integers widened; enum symbols added,
// dropped and given a default; map keys of such enums; recursive objects), and random
// writer values. Readers
// are resolved in JS only (lib/evolve.js), so this is their fuzzer; cargo-fuzz has nothing
// of them to reach. Deterministic for a seed.
//
//   node scripts/fuzz-readers.js [--runs N] [--seed S] [--verbose] [--build node|browser|no-addon]
//
// Every pair runs on both marshallers of the native back end and on the JS back end
// (lib/js-backend.js), with generated code and without (closures alone, as under a CSP;
// with `--build browser`, the package's browser build, bundled by esbuild and loaded
// here; with `--build no-addon`, a copy of the package where no addon loads:
// scripts/fuzz-common.js, otherBuild).
//
// Checks, for every pair:
// - `compatibility(reader, writer)` is [] exactly when `reader(writer)` is made, and a
//   refusal is ERR_SHORN_SCHEMA listing the same problems;
// - when compatible, every valid writer message decodes through the reader, in both
//   marshallers, to one value (issue 37, finding 9: `[]` means every message decodes),
//   through `decode`, `decodeFrames` and a registry alike; the value is one the reader's
//   codec checks as valid and encodes;
// - what a caller does with a decoded value changes nothing after it: the decoded value is
//   changed deeply (arrays pushed to, members set and deleted, json defaults among them),
//   and the next decode of the same bytes gives the first value again; `codec.schema` and
//   the fingerprint are unchanged, and so is what `encode` writes for a missing default
//   (issue 37, finding 2);
// - mutated writer bytes decode through the reader to a value or a ShornError, never
//   another error, and every codec agrees on which (the error's code, path and offset).

const { isDeepStrictEqual } = require('node:util');
const shorn = require('..');
const { options, seeded, otherBuild } = require('./fuzz-common');

const { t, compile, compatibility, createRegistry, ShornError } = shorn;

const argv = process.argv.slice(2);
const option = options(argv);
const RUNS = Number(option('--runs', 2000));
const SEED = Number(option('--seed', 7));
const VERBOSE = argv.includes('--verbose');
const BUILD = option('--build', 'node');
if (!['node', 'browser', 'no-addon'].includes(BUILD)) throw new Error('--build is node, browser or no-addon');
// The JS back end's build: this package's, or its browser build (errors of a class of its own).
const jsBuild = BUILD === 'node' ? shorn : otherBuild(BUILD);
const isShorn = (e) => e instanceof ShornError || e instanceof jsBuild.ShornError;
// The codecs each pair runs on: the native back end's two marshallers, and the JS back end.
const KINDS = [
  { name: 'codegen', compile: (schema) => compile(schema, { codegen: true }), registry: (schemas) => createRegistry(schemas, { codegen: true }) },
  { name: 'generic', compile: (schema) => compile(schema, { codegen: false }), registry: (schemas) => createRegistry(schemas, { codegen: false }) },
  { name: 'js', compile: (schema) => jsBuild.compile(schema, { backend: 'js' }), registry: (schemas) => jsBuild.createRegistry(schemas, { backend: 'js' }) },
  // The JS back end where no code may be generated (a page under a CSP): closures alone.
  { name: 'js-closures', compile: (schema) => jsBuild.compile(schema, { backend: 'js', codegen: false }), registry: (schemas) => jsBuild.createRegistry(schemas, { backend: 'js', codegen: false }) },
];
if (!Number.isSafeInteger(RUNS) || RUNS < 1) throw new Error('--runs must be a positive integer');

// A seeded PRNG: the same seed, the same run.
const { random, below, chance, pick } = seeded(SEED);

const SYMBOLS = ['red', 'green', 'blue', 'cyan', 'other', 'none'];
const WIDER = { uint8: ['uint16', 'uint32', 'int', 'float64'], uint16: ['uint32', 'int'], int8: ['int16', 'int32'], int32: ['int', 'float64'] };

// ---------------------------------------------------------------- writer schemas and values

function randomLeaf() {
  switch (below(8)) {
    case 0:
      return t[pick(Object.keys(WIDER))]();
    case 1:
      return t.string();
    case 2:
      return t.bool();
    case 3:
      return t.enum(SYMBOLS.slice(0, 2 + below(3)));
    case 4:
      return t.json();
    case 5:
      return t.float32();
    case 6:
      return t.literal(pick([0.1, 1, 'v1', true]));
    default:
      return t.nullable(t.string());
  }
}

// Each recursive definition's name, new per definition: a reader's definitions pair with
// the writer's by position, not by name.
let definitions = 0;

function randomType(depth) {
  if (depth >= 3 || chance(0.45)) return randomLeaf();
  switch (below(6)) {
    case 5: {
      // A recursive object: its next level optional, so that values end.
      const name = `R${definitions++}`;
      const body = randomObject(depth + 1);
      body.fields.push({ name: 'next', schema: t.optional({ type: 'ref', name }) });
      return { type: 'recursive', name, schema: body };
    }
    case 0:
      return t.array(randomType(depth + 1));
    case 1:
      return t.record(randomType(depth + 1));
    case 2:
      return t.map(chance(0.6) ? t.enum(SYMBOLS.slice(0, 2 + below(4))) : t.string(), randomType(depth + 1));
    case 3:
      return t.union([t.string(), t.object({ u: randomType(depth + 1) })]);
    default:
      return randomObject(depth + 1);
  }
}

// Field names that generated code must escape or keep apart from Object.prototype's
// (lib/closures.js builds a reader's objects by generated code).
const ODD_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'a"b', 'c\\d', '\u2028', '${x}', '', 'x-y z'];

function randomObject(depth) {
  const n = 1 + below(4);
  const names = new Set();
  while (names.size < n) names.add(chance(0.1) ? pick(ODD_NAMES) : `f${names.size}`);
  // A descriptor, not t.object's object of fields: `__proto__` would not be a key of that.
  return { type: 'object', fields: [...names].map((name) => ({ name, schema: randomType(depth) })), strict: false };
}

function randomString() {
  return pick(['', 'a', 'héllo', 'x'.repeat(below(40)), '🚀', 'at offset 3']);
}

function jsonValue(depth) {
  const k = below(depth > 2 ? 4 : 6);
  if (k === 0) return null;
  if (k === 1) return chance(0.5);
  if (k === 2) return pick([0, -1, 1.5, 2 ** 40, 63]);
  if (k === 3) return randomString();
  if (k === 4) return Array.from({ length: below(4) }, () => jsonValue(depth + 1));
  const o = {};
  for (let i = below(5); i > 0; i--) {
    // An own `__proto__` key, as JSON.parse makes it, not a prototype.
    Object.defineProperty(o, pick(['a', 'b', 'roles', '__proto__', 'constructor']), { value: jsonValue(depth + 1), writable: true, enumerable: true, configurable: true });
  }
  return o;
}

/** A random value of writer node `d` (a compiled descriptor). */
// The recursive definitions met so far by `valueOf`, and how deep in them it is.
const recursions = new Map();
let levels = 0;

function valueOf(d) {
  switch (d.type) {
    case 'uint8':
    case 'uint16':
      return below(200);
    case 'int8':
      return below(200) - 100;
    case 'int32':
    case 'int':
      return below(1e6) - 5e5;
    case 'float64':
      return random() * 100;
    case 'float32':
      return Math.fround(random() * 100);
    case 'string':
      return randomString();
    case 'bool':
      return chance(0.5);
    case 'enum':
      return pick(d.values);
    case 'json':
      return jsonValue(0);
    case 'literal':
      return d.value;
    case 'nullable':
      return chance(0.3) ? null : valueOf(d.of);
    case 'optional':
      return chance(0.3) ? undefined : valueOf(d.of);
    case 'default':
      return chance(0.5) ? undefined : valueOf(d.of);
    case 'array':
      return Array.from({ length: below(4) }, () => valueOf(d.items));
    case 'record': {
      const o = {};
      for (let i = below(4); i > 0; i--) o[`k${below(6)}`] = valueOf(d.values);
      return o;
    }
    case 'map': {
      const m = new Map();
      for (let i = below(4); i > 0; i--) m.set(valueOf(d.keys), valueOf(d.values));
      return m;
    }
    case 'union':
      return chance(0.5) ? randomString() : valueOf(d.variants[1]);
    case 'recursive':
      recursions.set(d.name, d.schema);
      return valueOf(d.schema);
    case 'ref': {
      // Under an optional: undefined (absent) past three levels.
      if (levels >= 3) return undefined;
      levels++;
      try {
        return valueOf(recursions.get(d.name));
      } finally {
        levels--;
      }
    }
    case 'object': {
      const o = {};
      for (const f of d.fields) {
        const v = valueOf(f.schema);
        // An own key, `__proto__` too.
        if (v !== undefined) Object.defineProperty(o, f.name, { value: v, writable: true, enumerable: true, configurable: true });
      }
      return o;
    }
    default:
      throw new Error(`fuzz-readers: no values for ${d.type}`);
  }
}

// ---------------------------------------------------------------- readers from writers

/** A default value for a new reader field of type `d` (a builder's descriptor). */
function defaultFor(d) {
  if (d.type === 'literal') return d.value;
  if (d.type === 'json') return pick([{ roles: ['user'], meta: { n: 1 } }, [1, [2]], 'x', null]);
  return valueOf(d);
}

/** A reader of writer node `d`: the same, or changed by one of the evolution rules. */
function evolve(d) {
  switch (d.type) {
    case 'object': {
      let fields = d.fields.map((f) => ({ name: f.name, schema: evolve(f.schema) }));
      if (chance(0.3) && fields.length > 1) fields.splice(below(fields.length), 1);
      if (chance(0.4)) {
        const type = chance(0.5) ? t.json() : randomType(2);
        const value = defaultFor(JSON.parse(JSON.stringify(type)));
        fields.push({ name: `n${below(1000)}`, schema: value === undefined ? t.optional(type) : t.default(type, value) });
      }
      if (chance(0.2)) fields = fields.reverse();
      if (chance(0.2)) fields = fields.map((f) => (f.schema.type === 'optional' || f.schema.type === 'default' ? f : { ...f, schema: t.optional(f.schema) }));
      if (chance(0.05)) fields.push({ name: 'required', schema: t.string() }); // incompatible
      return { type: 'object', fields, strict: false };
    }
    case 'array':
      return { ...d, items: evolve(d.items) };
    case 'record':
      return { ...d, values: evolve(d.values) };
    case 'map':
      return { ...d, keys: evolve(d.keys), values: evolve(d.values) };
    case 'union':
      return { ...d, variants: d.variants.map(evolve) };
    case 'recursive':
      return { ...d, schema: evolve(d.schema) };
    case 'nullable':
      return { ...d, of: evolve(d.of) };
    case 'enum': {
      if (chance(0.5)) return d;
      // Symbols dropped and added; a default among the reader's, most of the time.
      const kept = d.values.filter(() => chance(0.6));
      const values = [...new Set([...kept, ...SYMBOLS.filter(() => chance(0.3))])];
      if (values.length === 0) values.push('other');
      return chance(0.8) ? t.enum(values, { default: pick(values) }) : t.enum(values);
    }
    default:
      if (WIDER[d.type] && chance(0.4)) return { type: pick(WIDER[d.type]) };
      if (d.type === 'literal' && typeof d.value === 'number' && chance(0.5)) return t.float32();
      return d;
  }
}

// ---------------------------------------------------------------- checks

class Failure extends Error {
  constructor(kind, message, details) {
    super(message);
    this.kind = kind;
    this.details = details;
  }
}

function sameOutcome(a, b) {
  if (a.error || b.error) return a.error && b.error && a.error.code === b.error.code && a.error.path === b.error.path && a.error.offset === b.error.offset;
  return isDeepStrictEqual(a.value, b.value);
}
const sameOutcomes = (list) => list.every((o) => sameOutcome(list[0], o));

function attempt(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    if (!isShorn(error)) throw new Failure('not-a-shorn-error', `${error && error.name}: ${error && error.message}`);
    return { error };
  }
}

/** Changes `v` deeply, as a caller may: arrays pushed to, members set and deleted. */
function vandalize(v, depth = 0) {
  if (depth > 8 || typeof v !== 'object' || v === null) return;
  if (Array.isArray(v)) {
    for (const x of v) vandalize(x, depth + 1);
    v.push('vandal');
    return;
  }
  if (v instanceof Map) {
    for (const x of v.values()) vandalize(x, depth + 1);
    v.set('vandal', 1);
    return;
  }
  if (ArrayBuffer.isView(v) || v instanceof Date) return;
  for (const key of Object.keys(v)) vandalize(v[key], depth + 1);
  const keys = Object.keys(v);
  if (keys.length > 0) delete v[keys[0]];
  v.vandal = true;
}

function mutate(bytes) {
  const out = Buffer.from(bytes);
  if (out.length === 0 || chance(0.2)) return Buffer.concat([out, Buffer.from([below(256)])]);
  if (chance(0.2)) return out.subarray(0, below(out.length));
  for (let i = 1 + below(3); i > 0; i--) out[below(out.length)] = below(256);
  return out;
}

const counts = {};
const count = (key) => (counts[key] = (counts[key] || 0) + 1);

function runPair() {
  const writer = randomObject(0);
  let wSchema;
  try {
    wSchema = compile(writer).schema;
  } catch (e) {
    if (isShorn(e) && e.code === 'ERR_SHORN_SCHEMA') {
      count('pair.invalid-schema');
      return;
    }
    throw e;
  }
  const reader = evolve(wSchema);
  let problems;
  try {
    problems = compatibility(reader, writer);
  } catch (e) {
    if (isShorn(e) && e.code === 'ERR_SHORN_SCHEMA') {
      count('reader.invalid-schema');
      return; // a reader the generator made invalid (a default that does not fit, say)
    }
    throw e;
  }
  let codecs;
  try {
    codecs = KINDS.map((kind) => ({ r: kind.compile(reader), w: kind.compile(writer), kind }));
  } catch (e) {
    if (isShorn(e) && e.code === 'ERR_SHORN_SCHEMA') {
      count('pair.invalid-schema');
      return; // a schema compile refuses (array items of no bytes, say): not a pair
    }
    throw e;
  }
  if (problems.length > 0) {
    count('pair.incompatible');
    for (const { r, w } of codecs) {
      const made = attempt(() => r.reader(w));
      if (!made.error) throw new Failure('reader-made-despite-problems', `compatibility() listed ${problems.length} problem(s), reader() was made`, { problems });
      if (made.error.code !== 'ERR_SHORN_SCHEMA') throw new Failure('reader-refused-wrongly', made.error.code);
    }
    return;
  }
  count('pair.compatible');
  if (JSON.stringify(writer).includes('"type":"recursive"')) count('pair.compatible.recursive');
  const schemaText = JSON.stringify(codecs[0].r.schema);
  const fingerprint = codecs[0].r.fingerprint;
  const readers = codecs.map(({ r, w }) => ({ r, w, reader: r.reader(w) }));
  const registries = codecs.map(({ kind }) => kind.registry([writer, reader]));
  for (let k = 0; k < 4; k++) {
    const value = valueOf(wSchema);
    const bytes = codecs[0].w.encode(value);
    const outcomes = readers.map(({ reader }) => attempt(() => reader.decode(bytes)));
    for (const o of outcomes) {
      if (o.error) throw new Failure('compatible-reader-failed', `${o.error.code} ${o.error.path}: ${o.error.message}`, { value: String(JSON.stringify(value)) });
    }
    if (!sameOutcomes(outcomes)) throw new Failure('codecs-disagree-on-read', 'the readers of the native marshallers and the JS back end read different values');
    // The value to expect, from a codec of its own: what the codecs under test share
    // with it is nothing a caller can reach.
    const first = compile(reader).reader(writer).decode(bytes);
    if (!isDeepStrictEqual(outcomes[0].value, first)) throw new Failure('codecs-disagree', 'two codecs of one reader read different values');
    readers.forEach(({ r, reader }, m) => {
      const framed = reader.decodeFrames(codecs[m].w.encodeFrames([value, value]));
      if (!isDeepStrictEqual(framed, [first, first])) throw new Failure('frames-differ', 'decodeFrames read another value', { framed: require('node:util').inspect(framed, { depth: 9 }).slice(0, 300), first: require('node:util').inspect(first, { depth: 9 }).slice(0, 300) });
      const viaRegistry = registries[m].decode(registries[m].encode(writer, value), r);
      if (!isDeepStrictEqual(viaRegistry, first)) throw new Failure('registry-differs', 'registry.decode read another value');
      const verdict = r.check(first);
      if (!verdict.ok) throw new Failure('reader-value-invalid', `the reader's own check refuses what it read: ${verdict.issues[0].message}`);
      if (!isDeepStrictEqual(r.decode(r.encode(first)), first)) throw new Failure('reader-value-changes', "the reader's value changes when it encodes and decodes it");
      // A caller changes what it got; the next decodes are as before.
      vandalize(outcomes[m].value);
      vandalize(framed);
      vandalize(viaRegistry);
      const again = reader.decode(bytes);
      if (!isDeepStrictEqual(again, first)) throw new Failure('decoded-value-shared', 'a decode gave a value changed by what a caller did with an earlier one');
    });
    count('value.read');
    const bad = mutate(bytes);
    const mutated = readers.map(({ reader }) => attempt(() => reader.decode(bad)));
    if (!sameOutcomes(mutated)) {
      const shown = mutated.map((o, m) => `${KINDS[m].name}: ${o.error ? `${o.error.code} ${o.error.path} @${o.error.offset}` : 'ok'}`).join('; ');
      throw new Failure('codecs-disagree-mutated', `the readers disagree on mutated bytes (${shown})`);
    }
    count(mutated[0].error ? `mutated.${mutated[0].error.code}` : 'mutated.ok');
  }
  for (const { r } of codecs) {
    if (JSON.stringify(r.schema) !== schemaText) throw new Failure('schema-changed', 'codec.schema changed after decodes');
    if (compile(r.schema).fingerprint !== fingerprint) throw new Failure('fingerprint-changed', 'the fingerprint of codec.schema changed');
  }
}

let failures = 0;
const started = Date.now();
console.log(`shorn fuzz-readers: ${RUNS} writer/reader pairs, seed ${SEED}, both marshallers and the JS back end${BUILD === 'node' ? '' : ` (the ${BUILD} build)`}`);
for (let i = 1; i <= RUNS; i++) {
  try {
    runPair();
  } catch (e) {
    failures++;
    const kind = e instanceof Failure ? e.kind : 'harness-threw';
    count(`FAIL:${kind}`);
    if (VERBOSE || counts[`FAIL:${kind}`] === 1) console.error(`FAIL at pair ${i}: ${kind}: ${e.message}${e.details ? ` ${JSON.stringify(e.details).slice(0, 400)}` : ''}${e instanceof Failure ? '' : `\n${e.stack}`}`);
  }
}
const seconds = (Date.now() - started) / 1000;
console.log(`shorn fuzz-readers summary (seed ${SEED}, ${seconds.toFixed(1)} s):`);
for (const key of Object.keys(counts).sort()) console.log(`  ${key.padEnd(36)} ${counts[key]}`);
console.log(`${RUNS - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
