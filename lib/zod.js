'use strict';
// fromZod: the shorn descriptor of a Zod v4 schema, so one schema serves both (README,
// "Zod"). It reads the schema's definition (`schema._zod.def`, the part of Zod v4 that
// libraries build on) and never loads zod itself: zod is a peer dependency only for those
// who call this. What has no exact shorn counterpart (a transform, a refinement with a
// function, a check shorn has no constraint for) is ERR_SHORN_SCHEMA naming the Zod type
// and where it is, never silently left out: a dropped check would let values through that
// Zod refuses. Three options opt in, each by name (docs/ZOD.md): `unknown: 'json'`
// (z.any(), z.unknown() and z.json() as t.json()), `effects: 'leave-to-zod'` (the wire
// type of a refinement, transform, catch, coercion or unmapped check, the rest left to
// Zod's parse) and `unknownKeys: 'strip'` (z.looseObject(), .catchall(): the named fields
// only). What they leave out is listed, with its path and kind, by fromZodReport.

const { ShornError, pathKey } = require('./errors');
const { t } = require('./types');
const { SOURCES } = require('./formats');
const { tooDeep, MAX_SCHEMA_DEPTH } = require('./walk');

// The largest float32; z.float32() refuses anything beyond, and NaN, as a float32 with
// these bounds does (likewise Number.MAX_VALUE for z.number()).
const FLOAT32_MAX = 3.4028234663852886e38;

// How a Zod string format is recognised as one of shorn's: by the source of the regular
// expression its check tests, which for email, uuid, ipv4 and datetime is the one shorn's
// format tests (lib/formats.js: zod 4.6.7's own; __test__/zod.test.js checks they are still
// the installed zod's). A format whose check is that regular expression and nothing else,
// but with another one (`z.email({ pattern })`, a UUID version, `z.iso.datetime()` without
// offsets, another zod version's email), keeps its regular expression as the string's
// `pattern`: the same test, exactly.
const ZOD_SOURCES = SOURCES;

// Method names for the messages, by check.
const CHECK_NAMES = {
  min_length: '.min()',
  max_length: '.max()',
  length_equals: '.length()',
  greater_than: '.min() / .gt()',
  less_than: '.max() / .lt()',
  multiple_of: '.multipleOf()',
  min_size: '.min()',
  max_size: '.max()',
  size_equals: '.size()',
  custom: '.refine() (a refinement with a function)',
  overwrite: '.overwrite() / .trim() / .toLowerCase() (a transform)',
  starts_with: '.startsWith()',
  ends_with: '.endsWith()',
  includes: '.includes()',
  mime_type: '.mime()',
  property: '.check(z.property())',
};
// String checks Zod makes as formats, by method name.
const FORMAT_METHODS = {
  starts_with: '.startsWith()',
  ends_with: '.endsWith()',
  includes: '.includes()',
  lowercase: '.lowercase()',
  uppercase: '.uppercase()',
  regex: '.regex()',
};

// The options, each value accepted (the first the default).
const OPTIONS = {
  unknown: ['error', 'json'],
  effects: ['error', 'leave-to-zod'],
  unknownKeys: ['error', 'strip'],
};
// What an error says of the option that would take the construct.
const HINT = {
  effects: "the option effects: 'leave-to-zod' keeps the wire type and leaves it to Zod's parse",
  unknown: "the option unknown: 'json' takes it as t.json(), any JSON value",
  unknownKeys: "the option unknownKeys: 'strip' keeps the named fields and drops the other keys",
  anyInput: "the options effects: 'leave-to-zod' and unknown: 'json' send its input as t.json() and leave the rest to Zod's parse",
};

function readOptions(options, fn) {
  if (options === undefined) options = {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new ShornError('ERR_SHORN_SCHEMA', `${fn}: options must be an object`);
  const opts = {};
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(OPTIONS, key)) throw new ShornError('ERR_SHORN_SCHEMA', `${fn}: unknown option ${JSON.stringify(key)} (the options are ${Object.keys(OPTIONS).join(', ')})`);
  }
  for (const [key, values] of Object.entries(OPTIONS)) {
    const v = options[key] === undefined ? values[0] : options[key];
    if (!values.includes(v)) throw new ShornError('ERR_SHORN_SCHEMA', `${fn}: ${key} must be ${values.map((x) => `'${x}'`).join(' or ')}`);
    opts[key] = v;
  }
  return opts;
}

function refuse(path, what, why) {
  return new ShornError('ERR_SHORN_SCHEMA', `invalid schema at ${path}: fromZod cannot map ${what}${why ? `: ${why}` : ''}`, { path });
}

const zodName = (def) => `z.${def.type}()`;

const leaving = (cx) => cx.opts.effects === 'leave-to-zod';

// `what` at `path`, which shorn cannot check: left to Zod's parse (listed as `kind`) with
// effects: 'leave-to-zod', else ERR_SHORN_SCHEMA saying `why` and naming the option.
function leave(cx, path, kind, what, why) {
  if (!leaving(cx)) throw refuse(path, what, `${why} (${HINT.effects})`);
  cx.leftOut.push({ path, kind, what });
}

// The kind of a check left to Zod.
const checkKind = (c) => (c.check === 'custom' ? 'refine' : c.check === 'overwrite' ? 'transform' : 'check');
const checkWhy = (c) => (c.check === 'overwrite' ? 'shorn encodes and decodes values as they are; a transform would be lost' : 'shorn has no such constraint');

// A check of `def` shorn has no constraint for.
function otherCheck(c, def, path, cx, what = `${checkName(c)} on ${zodName(def)}`) {
  leave(cx, path, checkKind(c), what, checkWhy(c));
}

function definition(schema, path) {
  const def = schema !== null && typeof schema === 'object' && schema._zod !== undefined ? schema._zod.def : undefined;
  if (def !== undefined && def !== null && typeof def.type === 'string') return def;
  if (schema !== null && typeof schema === 'object' && schema._def !== undefined) {
    throw refuse(path, 'a Zod 3 schema', 'fromZod reads Zod 4 schemas (`import { z } from "zod"` with zod 4, or "zod/v4")');
  }
  throw refuse(path, typeof schema === 'object' ? 'an object that is not a Zod schema' : `a ${typeof schema}`, 'expected a Zod schema');
}

// The checks of a schema: the schema itself when it is one (`z.int()`, `z.email()`), and
// those added by methods (`.min()`, `.email()`, `.refine()`), as definitions.
function checksOf(def) {
  const list = def.check !== undefined ? [def] : [];
  for (const c of def.checks || []) list.push(c._zod.def);
  return list;
}

// The checks of `def` shorn is to map. Zod runs them in order, and a transform among them
// (.trim(), .toLowerCase(), .overwrite()) changes the value the later ones see: leaving
// to Zod, the transform and every check after it are Zod's (shorn sees the value as
// sent), the ones before it shorn's. Otherwise all of them (the first shorn cannot map
// is the error).
function mappedChecks(def, path, cx) {
  const list = checksOf(def);
  if (!leaving(cx)) return list;
  const k = list.findIndex((c) => c.check === 'overwrite');
  if (k === -1) return list;
  otherCheck(list[k], def, path, cx);
  for (const c of list.slice(k + 1)) otherCheck(c, def, path, cx, `${checkName(c)} on ${zodName(def)} after a transform`);
  return list.slice(0, k);
}

// Zod's string transforms are all `overwrite` checks; which one, for the messages only,
// from the source of its function (zod 4's own, `(input) => input.trim()`), else all.
const OVERWRITES = /^\(input\) => (?:input\.(trim|toLowerCase|toUpperCase|normalize)|util\.(slugify))\(/;
// Zod's ISO formats, made by z.iso.*().
const ISO_FORMATS = new Set(['date', 'time', 'duration', 'datetime']);

function checkName(c) {
  if (c.check === 'string_format') return FORMAT_METHODS[c.format] || (ISO_FORMATS.has(c.format) ? `z.iso.${c.format}()` : `z.${c.format}()`);
  if (c.check === 'overwrite') {
    const m = typeof c.tx === 'function' ? OVERWRITES.exec(String(c.tx)) : null;
    if (m !== null) return `.${m[1] || m[2]}() (a transform)`;
  }
  return CHECK_NAMES[c.check] || `the check "${c.check}"`;
}

// A type that takes no checks: any check on it is one shorn cannot keep.
function noChecks(def, path, cx) {
  for (const c of checksOf(def)) otherCheck(c, def, path, cx);
}

/**
 * The shorn descriptor of Zod v4 schema `schema`: objects (strip and strict), strings
 * with lengths, a pattern or a format, numbers and their formats, bigint formats,
 * booleans, dates, enums, literals, null, arrays, tuples, records, maps, unions,
 * discriminated unions, optional, nullable, default and lazy (recursion). `options`
 * (`unknown`, `effects`, `unknownKeys`) opt in to more; fromZodReport lists what they left
 * out.
 */
function fromZod(schema, options) {
  return report(schema, readOptions(options, 'fromZod')).descriptor;
}

/**
 * fromZod's descriptor and `leftOut`: what of the schema shorn does not check or keep,
 * each `{ path, kind, what }` in the order met (empty without the options that leave
 * anything out).
 */
function fromZodReport(schema, options) {
  return report(schema, readOptions(options, 'fromZodReport'));
}

function report(schema, opts) {
  // `depth`: the level of the descriptor being made (z.lazy() adds none); `lazies`: the
  // z.lazy() being resolved, which a getter that makes a new one each time never ends;
  // `unsure`: inside a union a variant of which has parts left to Zod.
  const cx = { open: new Map(), names: new Set(), depth: 0, lazies: 0, opts, leftOut: [], unsure: 0 };
  const descriptor = convert(schema, '$', cx, false);
  return { descriptor, leftOut: cx.leftOut };
}

// `field`: the schema is an object field's (where optional and default may stand).
function convert(schema, path, cx, field) {
  const def = definition(schema, path);
  // A schema met again inside itself is recursion (through z.lazy() or a getter).
  const open = cx.open.get(schema);
  if (open !== undefined) {
    if (open.name === null) open.name = recursionName(cx, def);
    return t.ref(open.name);
  }
  // z.json() (or the same union written out), with unknown: 'json': t.json().
  if (cx.opts.unknown === 'json' && isZodJson(schema, def)) return t.json();
  // Deeper than compile takes, refused here as compile would refuse it: a 5,000-deep
  // z.array() overflowed the stack. (A recursive type adds a level this does not count,
  // so what passes here may still be one compile refuses; never the other way.)
  const lazy = def.type === 'lazy';
  if (cx.depth > MAX_SCHEMA_DEPTH || cx.lazies > MAX_SCHEMA_DEPTH) throw tooDeep(path);
  const entry = { name: null };
  cx.open.set(schema, entry);
  if (lazy) cx.lazies++;
  else cx.depth++;
  let d;
  try {
    d = convertDef(def, path, cx, field);
  } finally {
    cx.open.delete(schema);
    if (lazy) cx.lazies--;
    else cx.depth--;
  }
  if (entry.name === null) return d;
  if (d.type === 'optional' || d.type === 'default') throw refuse(path, `a recursive ${zodName(def)}`, 'make the recursive type required and optional where it is used');
  return { type: 'recursive', name: entry.name, schema: d };
}

// Whether `schema` is z.json(): a z.lazy() of the union of z.string(), z.number(),
// z.boolean(), z.null(), z.array() of itself and z.record(z.string(), itself), without
// checks (any order); exactly the values t.json() takes, what JSON.parse returns.
function isZodJson(schema, def) {
  if (def.type !== 'lazy' || checksOf(def).length > 0) return false;
  let u;
  try {
    u = definition(def.getter(), '$');
  } catch {
    return false;
  }
  if (u.type !== 'union' || u.discriminator !== undefined || u.inclusive === false || checksOf(u).length > 0 || u.options.length !== 6) return false;
  const seen = new Set();
  for (const option of u.options) {
    const o = option?._zod?.def;
    if (o === undefined || o === null || checksOf(o).length > 0 || o.coerce) return false;
    const plain = (x) => x?._zod?.def?.type === 'string' && checksOf(x._zod.def).length === 0 && !x._zod.def.coerce;
    if (o.type === 'array' && o.element !== schema) return false;
    if (o.type === 'record' && (o.valueType !== schema || !plain(o.keyType))) return false;
    if (!['string', 'number', 'boolean', 'null', 'array', 'record'].includes(o.type)) return false;
    seen.add(o.type);
  }
  return seen.size === 6;
}

function recursionName(cx, def) {
  const base = typeof def.type === 'string' ? `Zod${def.type[0].toUpperCase()}${def.type.slice(1)}` : 'Zod';
  let name = base;
  for (let k = 2; cx.names.has(name); k++) name = `${base}${k}`;
  cx.names.add(name);
  return name;
}

function convertDef(def, path, cx, field) {
  if (def.coerce) {
    // Coerced, Zod's parse turns any input into the type; over the wire it is of the type
    // already (a number for z.coerce.number()), which coercion gives back unchanged.
    leave(cx, path, 'coerce', `z.coerce.${def.type}()`, 'coercion changes the value; shorn never does');
  }
  switch (def.type) {
    case 'string':
      return string(def, path, cx);
    case 'number':
      return number(def, path, cx);
    case 'bigint':
      return bigint(def, path, cx);
    case 'boolean':
      noChecks(def, path, cx);
      return t.bool();
    case 'date':
      noChecks(def, path, cx);
      return t.date();
    case 'null':
      noChecks(def, path, cx);
      return t.null();
    case 'enum':
      return enumeration(def, path, cx);
    case 'literal':
      return literal(def, path, cx);
    case 'array':
      return t.array(convert(def.element, `${path}[]`, cx, false), counts(def, path, cx, 'minItems', 'maxItems'));
    case 'tuple':
      noChecks(def, path, cx);
      if (def.rest !== null && def.rest !== undefined) throw refuse(path, 'z.tuple() with a rest element', 'shorn tuples have a fixed length');
      return t.tuple(def.items.map((item, k) => convert(item, `${path}[${k}]`, cx, false)));
    case 'record':
      return record(def, path, cx);
    case 'map':
      return t.map(convert(def.keyType, `${path}[][0]`, cx, false), convert(def.valueType, `${path}[][1]`, cx, false), counts(def, path, cx, null, 'maxEntries'));
    case 'union':
      return union(def, path, cx);
    case 'object':
      return object(def, path, cx);
    case 'optional': {
      noChecks(def, path, cx);
      if (!field) throw refuse(path, 'z.optional() outside an object field', 'shorn has no undefined value; only a field may be missing');
      return t.optional(convert(def.innerType, path, cx, false));
    }
    case 'nullable': {
      noChecks(def, path, cx);
      // `.optional().nullable()` on a field: the same values as `.nullable().optional()`,
      // the one shorn spells (a nullable of an optional is not a shorn type).
      const inner = definition(def.innerType, path);
      if (field && inner.type === 'optional') return t.optional(t.nullable(convert(inner.innerType, path, cx, false)));
      return t.nullable(convert(def.innerType, path, cx, false));
    }
    case 'default': {
      noChecks(def, path, cx);
      if (!field) throw refuse(path, '.default() outside an object field', 'a shorn default fills a missing field');
      const mark = cx.leftOut.length;
      const of = convert(def.innerType, path, cx, false);
      // Zod gives the default for a missing field without parsing it: a value of the
      // output type. Over a part left to Zod (a transform's output is not the wire
      // type; a refinement would judge the default where Zod does not), or in a union
      // where shorn's choice of variant may not be Zod's, the field is optional on the
      // wire and Zod's parse fills it in.
      if (cx.leftOut.length > mark || cx.unsure > 0) {
        cx.leftOut.push({ path, kind: 'default', what: cx.leftOut.length > mark ? '.default() of a part left to Zod' : '.default() in a z.union() with parts left to Zod' });
        return t.optional(of);
      }
      return t.default(of, def.defaultValue);
    }
    case 'lazy':
      return convert(def.getter(), path, cx, field);
    case 'pipe':
      return pipe(def, path, cx, field);
    case 'transform':
      return anyInput(path, cx, field, 'z.transform()');
    case 'catch': {
      if (!leaving(cx)) throw refuse(path, '.catch()', `shorn refuses a value its type refuses, and has no fallback value (${HINT.effects}: the inner type on the wire, the fallback Zod's)`);
      const inner = convert(def.innerType, path, cx, field);
      cx.leftOut.push({ path, kind: 'catch', what: '.catch()' });
      noChecks(def, path, cx);
      // The inner type as it is, a field required when it is: Zod's parse gives the
      // fallback for a missing one too, but z.input says it is there, and shorn types
      // decoded values as z.input.
      return inner;
    }
    case 'any':
    case 'unknown':
      noChecks(def, path, cx);
      if (cx.opts.unknown !== 'json') throw refuse(path, zodName(def), `shorn has no such type (${HINT.unknown})`);
      return t.json();
    default:
      throw refuse(path, zodName(def), 'shorn has no such type');
  }
}

// A pipe: `.transform()`, `z.preprocess()`, `z.codec()` or `.pipe()`. The wire type is the
// input side's (what a sender has before Zod's parse); the output side is Zod's.
function pipe(def, path, cx, field) {
  const kind = (side) => definition(def[side], path).type;
  if (kind('in') === 'transform') return anyInput(path, cx, field, 'z.preprocess()');
  const transform = kind('out') === 'transform' || typeof def.transform === 'function';
  const what = typeof def.transform === 'function' ? 'z.codec()' : kind('out') === 'transform' ? '.transform()' : '.pipe()';
  if (!leaving(cx)) {
    throw refuse(path, what, `${transform ? 'shorn encodes and decodes values as they are; a transform would be lost' : 'shorn checks one type'} (${HINT.effects}: the input side on the wire, the rest Zod's)`);
  }
  const d = convert(def.in, path, cx, field);
  cx.leftOut.push({ path, kind: transform ? 'transform' : 'pipe', what });
  noChecks(def, path, cx); // checks of the output: Zod's
  return d;
}

// A transform of any input (z.preprocess(), z.transform()): t.json() on the wire, with
// both effects: 'leave-to-zod' and unknown: 'json'; optional as a field (Zod runs it on a
// missing one too).
function anyInput(path, cx, field, what) {
  if (!leaving(cx) || cx.opts.unknown !== 'json') {
    throw refuse(path, what, `shorn encodes and decodes values as they are; a transform would be lost, and its input is any value (${HINT.anyInput})`);
  }
  cx.leftOut.push({ path, kind: 'transform', what });
  return field ? t.optional(t.json()) : t.json();
}

function string(def, path, cx) {
  const options = {};
  // A check shorn cannot keep: left to Zod (effects: 'leave-to-zod') or the error.
  const skip = (what, why) => leave(cx, path, 'check', what, why);
  for (const c of mappedChecks(def, path, cx)) {
    switch (c.check) {
      case 'min_length':
        options.minLength = Math.max(options.minLength ?? 0, c.minimum);
        break;
      case 'max_length':
        options.maxLength = Math.min(options.maxLength ?? Infinity, c.maximum);
        break;
      case 'length_equals':
        options.minLength = Math.max(options.minLength ?? 0, c.length);
        options.maxLength = Math.min(options.maxLength ?? Infinity, c.length);
        break;
      case 'string_format':
        if (c.format === 'regex') {
          if (options.pattern !== undefined) skip('a second .regex()', 'a shorn string has one pattern');
          else if (!/^[gd]*$/.test(c.pattern.flags)) skip(`.regex(${c.pattern})`, 'a shorn pattern has no flags (g and d aside)');
          else options.pattern = c.pattern.source;
        } else {
          const { format, pattern } = stringFormat(c, path, cx);
          if (pattern !== undefined) {
            if (options.pattern !== undefined) skip(`${checkName(c)} with another pattern`, 'a shorn string has one pattern');
            else options.pattern = pattern;
          } else if (format !== undefined) {
            if (options.format !== undefined && options.format !== format) skip(`${checkName(c)} after z.${options.format}()`, 'a shorn string has one format');
            else options.format = format;
          }
        }
        break;
      default:
        otherCheck(c, def, path, cx);
    }
  }
  if (options.minLength !== undefined && options.maxLength !== undefined && options.minLength > options.maxLength) {
    throw refuse(path, 'z.string() with a minimum length over its maximum', 'no string has it');
  }
  return t.string(Object.keys(options).length > 0 ? options : undefined);
}

// What Zod string format `c` is in shorn: `{ format }`, or `{ pattern }` (see
// ZOD_SOURCES), or `{}` when it is left to Zod.
function stringFormat(c, path, cx) {
  const skip = (what, why) => {
    leave(cx, path, 'check', what, why);
    return {};
  };
  switch (c.format) {
    case 'email':
    case 'uuid':
    case 'ipv4':
    case 'datetime':
      if (c.pattern.source === ZOD_SOURCES[c.format] && c.pattern.flags === '') return { format: c.format };
      if (c.pattern.flags !== '') return skip(`z.${c.format}() with pattern ${c.pattern}`, 'a shorn pattern has no flags');
      return { pattern: c.pattern.source };
    case 'ipv6':
      // Zod checks an IPv6 address with the URL parser whatever else it is given.
      return { format: 'ipv6' };
    case 'url':
      if (c.hostname !== undefined || c.protocol !== undefined || 'normalize' in c) {
        // Zod's check parses the URL first, as shorn's format does: shorn keeps that,
        // Zod the hostname and protocol tests (and the normalized value of its parse).
        skip('z.url() with hostname, protocol or normalize', "shorn's url format is z.url() as it comes");
      }
      return { format: 'url' };
    default:
      if (FORMAT_METHODS[c.format]) return skip(`${FORMAT_METHODS[c.format]} on z.string()`, 'shorn has no such constraint');
      return skip(checkName(c), 'shorn has the string formats email, uuid, url, datetime, ipv4 and ipv6');
  }
}

// The next float64 above `x` (for an exclusive bound).
function nextUp(x) {
  if (x === 0) return Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  view.setBigUint64(0, x > 0 ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}
const nextDown = (x) => -nextUp(-x);

// The next float32 above `x`: the float32 nearest `x` if it is above, else the one after.
function nextUp32(x) {
  const f = Math.fround(x);
  if (f > x) return f;
  const bits = new Float32Array([f === 0 ? 0 : f]);
  const u = new Uint32Array(bits.buffer);
  if (f === 0) u[0] = 1;
  else if (f > 0) u[0]++;
  else u[0]--;
  return bits[0];
}
const nextDown32 = (x) => -nextUp32(-x);

const INT_TYPES = {
  safeint: ['int', -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: ['int32', -2147483648, 2147483647],
  uint32: ['uint32', 0, 4294967295],
};

function number(def, path, cx) {
  const checks = mappedChecks(def, path, cx);
  const skip = (what, why) => leave(cx, path, 'check', what, why);
  const formats = new Set(checks.filter((c) => c.check === 'number_format').map((c) => c.format));
  if (formats.has('int32') && formats.has('uint32')) throw refuse(path, 'z.int32() and z.uint32() together', 'pick one');
  const intFormat = ['int32', 'uint32', 'safeint'].find((f) => formats.has(f));
  if (intFormat !== undefined && formats.has('float32')) throw refuse(path, 'z.float32() with an integer format', 'pick one');
  const float32 = intFormat === undefined && formats.has('float32');
  let min = -Infinity;
  let max = Infinity;
  let multipleOf;
  for (const c of checks) {
    switch (c.check) {
      case 'number_format':
        break;
      case 'greater_than': {
        let bound = c.value;
        if (intFormat !== undefined) bound = c.inclusive ? Math.ceil(bound) : Math.floor(bound) + 1;
        else if (!c.inclusive) bound = float32 ? nextUp32(bound) : nextUp(bound);
        min = Math.max(min, bound);
        break;
      }
      case 'less_than': {
        let bound = c.value;
        if (intFormat !== undefined) bound = c.inclusive ? Math.floor(bound) : Math.ceil(bound) - 1;
        else if (!c.inclusive) bound = float32 ? nextDown32(bound) : nextDown(bound);
        max = Math.min(max, bound);
        break;
      }
      case 'multiple_of':
        if (intFormat === undefined) skip('.multipleOf() on a float', 'shorn has multipleOf for integers (z.int(), z.int32(), z.uint32())');
        else if (!Number.isSafeInteger(c.value) || c.value === 0) skip(`.multipleOf(${c.value})`, 'an integer divisor other than 0');
        else if (multipleOf !== undefined) skip('a second .multipleOf()', 'a shorn integer has one divisor');
        else multipleOf = Math.abs(c.value);
        break;
      default:
        otherCheck(c, def, path, cx);
    }
  }
  let type;
  let lo;
  let hi;
  if (intFormat !== undefined) [type, lo, hi] = INT_TYPES[intFormat];
  else if (float32) [type, lo, hi] = ['float32', -FLOAT32_MAX, FLOAT32_MAX];
  else [type, lo, hi] = ['float64', -Number.MAX_VALUE, Number.MAX_VALUE];
  if (min > hi || max < lo || min > max) throw refuse(path, `z.number() with bounds no ${type} meets`, `from ${min} to ${max}`);
  const options = {};
  // Integers: bounds beyond the type's own range say nothing more. Floats: Zod's number
  // refuses NaN and the infinities, and so do bounds, so a float has both.
  if (min > lo || intFormat === undefined) options.min = Math.max(min, lo);
  if (max < hi || intFormat === undefined) options.max = Math.min(max, hi);
  if (multipleOf !== undefined && multipleOf !== 1) options.multipleOf = multipleOf;
  return t[type](Object.keys(options).length > 0 ? options : undefined);
}

const BIGINT_TYPES = {
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

function bigint(def, path, cx) {
  const checks = mappedChecks(def, path, cx);
  const skip = (what, why) => leave(cx, path, 'check', what, why);
  const formats = new Set(checks.filter((c) => c.check === 'bigint_format').map((c) => c.format));
  if (formats.size !== 1) {
    throw refuse(path, formats.size === 0 ? 'z.bigint() without a 64-bit format' : 'z.int64() and z.uint64() together', 'use z.int64() or z.uint64(): shorn holds 64-bit integers');
  }
  const [type] = formats;
  const [lo, hi] = BIGINT_TYPES[type];
  let min = lo;
  let max = hi;
  let multipleOf;
  for (const c of checks) {
    switch (c.check) {
      case 'bigint_format':
        break;
      case 'greater_than': {
        const bound = c.inclusive ? c.value : c.value + 1n;
        if (bound > min) min = bound;
        break;
      }
      case 'less_than': {
        const bound = c.inclusive ? c.value : c.value - 1n;
        if (bound < max) max = bound;
        break;
      }
      case 'multiple_of':
        if (c.value === 0n) skip('.multipleOf(0n)', 'no bigint is a multiple of 0');
        else if ((c.value < 0n ? -c.value : c.value) > 2n ** 64n - 1n) skip(`.multipleOf(${c.value}n)`, 'a divisor of at most 2^64 - 1');
        else if (multipleOf !== undefined) skip('a second .multipleOf()', 'a shorn integer has one divisor');
        else multipleOf = c.value < 0n ? -c.value : c.value;
        break;
      default:
        otherCheck(c, def, path, cx, `${checkName(c)} on z.${type}()`);
    }
  }
  if (min > max) throw refuse(path, `z.${type}() with bounds no value meets`, `from ${min} to ${max}`);
  const options = {};
  if (min > lo) options.min = min;
  if (max < hi) options.max = max;
  if (multipleOf !== undefined && multipleOf !== 1n) options.multipleOf = multipleOf;
  return t[type](Object.keys(options).length > 0 ? options : undefined);
}

function enumeration(def, path, cx) {
  noChecks(def, path, cx);
  const values = Object.values(def.entries);
  if (!values.every((v) => typeof v === 'string')) throw refuse(path, 'z.enum() of numbers', 'a shorn enum is of strings; use z.literal() values in a z.union()');
  return t.enum(values);
}

function literalOf(v, path) {
  if (typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v))) return t.literal(v);
  throw refuse(path, `z.literal(${typeof v === 'bigint' ? `${v}n` : String(v)})`, 'a shorn literal is a string, a finite number, a boolean or null');
}

function literal(def, path, cx) {
  noChecks(def, path, cx);
  const values = [...def.values];
  if (values.length === 1) return literalOf(values[0], path);
  return t.union(values.map((v) => literalOf(v, path)));
}

// Length or count constraints of an array or map: `minKey` and `maxKey` of shorn, from
// Zod's min/max checks (`exact` the check that sets both).
function counts(def, path, cx, minKey, maxKey) {
  const options = {};
  const set = (key, v, pick) => {
    if (key === null) leave(cx, path, 'check', `a minimum size on ${zodName(def)}`, 'a shorn map has maxEntries only');
    else options[key] = options[key] === undefined ? v : pick(options[key], v);
  };
  for (const c of mappedChecks(def, path, cx)) {
    switch (c.check) {
      case 'min_length':
      case 'min_size':
        set(minKey, c.minimum, Math.max);
        break;
      case 'max_length':
      case 'max_size':
        set(maxKey, c.maximum, Math.min);
        break;
      case 'length_equals':
      case 'size_equals': {
        const n = c.length ?? c.size;
        set(minKey, n, Math.max);
        set(maxKey, n, Math.min);
        break;
      }
      default:
        otherCheck(c, def, path, cx);
    }
  }
  return Object.keys(options).length > 0 ? options : undefined;
}

function record(def, path, cx) {
  noChecks(def, path, cx);
  const key = definition(def.keyType, path);
  const why = 'a shorn record has any string keys: z.record(z.string(), ...)';
  if (key.type !== 'string') throw refuse(path, `z.record() with keys of ${zodName(key)}`, why);
  // Checks of the keys: Zod's, leaving to it (a key is sent as it is).
  if (checksOf(key).length > 0 || key.coerce) {
    if (!leaving(cx)) throw refuse(path, 'z.record() with keys of a constrained z.string()', `${why} (${HINT.effects})`);
    if (key.coerce) cx.leftOut.push({ path, kind: 'coerce', what: 'z.coerce.string() keys of z.record()' });
    for (const c of checksOf(key)) cx.leftOut.push({ path, kind: checkKind(c), what: `${checkName(c)} on the keys of z.record()` });
  }
  return t.record(convert(def.valueType, `${path}[]`, cx, false));
}

function union(def, path, cx) {
  if (def.discriminator === undefined && def.inclusive === false) throw refuse(path, 'z.xor()', 'a shorn union takes the first variant that fits');
  const mark = cx.leftOut.length;
  const names = new Set(cx.names);
  let variants = def.options.map((option) => convert(option, path, cx, false));
  if (def.discriminator !== undefined) {
    noChecks(def, path, cx);
    return t.discriminatedUnion(def.discriminator, variants);
  }
  if (cx.leftOut.length > mark && cx.unsure === 0) {
    // Parts of the variants left to Zod: shorn may take a variant Zod does not, and a
    // default it filled would be the wrong variant's. Again without defaults (Zod's parse
    // fills them in).
    cx.leftOut.length = mark;
    for (const open of cx.open.values()) if (open.name !== null) names.add(open.name);
    cx.names = names;
    cx.unsure++;
    try {
      variants = def.options.map((option) => convert(option, path, cx, false));
    } finally {
      cx.unsure--;
    }
  }
  // Checks of the union (.refine()) after its variants, as Zod runs them.
  noChecks(def, path, cx);
  return t.union(variants);
}

function object(def, path, cx) {
  let strict = false;
  let stripped = null;
  if (def.catchall !== undefined) {
    const rest = definition(def.catchall, path).type;
    if (rest !== 'never') {
      stripped = rest === 'unknown' ? 'z.looseObject() (or .passthrough())' : 'z.object().catchall()';
      if (cx.opts.unknownKeys !== 'strip') throw refuse(path, stripped, `shorn keeps only the fields it names; unknown keys would be lost (${HINT.unknownKeys})`);
    } else strict = true;
  }
  const fields = {};
  // Own keys in order; reading a key runs a getter (Zod's recursive shapes) once.
  for (const name of Object.keys(def.shape)) {
    Object.defineProperty(fields, name, {
      value: convert(def.shape[name], path + pathKey(name), cx, true),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  // The named fields only: other keys are dropped on encode, so Zod's parse never sees
  // them (nor checks them against the catchall).
  if (stripped !== null) cx.leftOut.push({ path, kind: 'unknown-keys', what: stripped });
  // Checks of the object (.refine(), .superRefine()) after its fields, as Zod runs them.
  noChecks(def, path, cx);
  return t.object(fields, { strict });
}

module.exports = { fromZod, fromZodReport };
