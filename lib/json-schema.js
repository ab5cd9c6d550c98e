'use strict';
// fromJsonSchema: the shorn descriptor of a JSON Schema (draft 2020-12 or draft-07, the
// subset Fastify routes and TypeBox 1.x produce), so a server that already describes its
// bodies with JSON Schema need not write them again (issue 40; docs/JSON-SCHEMA.md). A
// keyword with no exact shorn counterpart (`not`, `if`, `allOf` of several schemas,
// `uniqueItems`, a float `multipleOf`, a format shorn does not check, ...) is
// ERR_SHORN_SCHEMA naming the keyword and its JSON Pointer, never dropped: a dropped
// keyword would let values through that the route's validator refuses. Annotations
// (`title`, `description`, `examples`, ...) change no value and are skipped.
//
// Plain JS over plain JSON: no Node built-in, so it can run in a browser.

const { ShornError } = require('./errors');
const { t } = require('./types');
const { walk, tooDeep, MAX_SCHEMA_DEPTH } = require('./walk');

// Keywords that describe a schema without constraining its values.
const ANNOTATIONS = new Set([
  'title',
  'description',
  '$id',
  '$schema',
  'examples',
  'example',
  '$comment',
  'readOnly',
  'writeOnly',
  'deprecated',
  // Containers of schemas that `$ref` reaches; nothing in place.
  '$defs',
  'definitions',
]);

// The keywords that apply to each JSON type (a keyword of one type is ignored by a value of
// another, so without `type` it cannot be mapped, and beside another `type` it is a slip).
const FAMILIES = {
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  object: ['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties'],
  array: ['items', 'prefixItems', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems'],
};
const FAMILY_OF = new Map();
for (const [family, keys] of Object.entries(FAMILIES)) for (const key of keys) FAMILY_OF.set(key, family);
const familyOfType = (type) => (type === 'integer' ? 'number' : type);

// Keywords that stand on their own, whatever the type.
const GENERAL = new Set(['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf', 'discriminator', 'nullable', 'default']);

// Why the keywords shorn most often meets without a counterpart are refused.
const WHY = {
  not: 'shorn has no negation of a type',
  if: 'shorn has no conditional types',
  then: 'shorn has no conditional types',
  else: 'shorn has no conditional types',
  allOf: 'shorn has no intersection of types (a single schema in allOf is taken)',
  contains: 'shorn has no constraint on some items of an array',
  minContains: 'shorn has no constraint on some items of an array',
  maxContains: 'shorn has no constraint on some items of an array',
  propertyNames: 'a shorn record has any string keys',
  dependentRequired: 'shorn has no fields that depend on others',
  dependentSchemas: 'shorn has no fields that depend on others',
  dependencies: 'shorn has no fields that depend on others',
  unevaluatedProperties: 'use additionalProperties: false for a strict object',
  unevaluatedItems: 'use items: false (or additionalItems: false) for a closed tuple',
  $dynamicRef: 'dynamic references are not resolved; use $ref',
  $recursiveRef: 'dynamic references are not resolved; use $ref',
  $dynamicAnchor: 'dynamic references are not resolved; use $ref',
  $recursiveAnchor: 'dynamic references are not resolved; use $ref',
  $anchor: 'anchors are not resolved; use $id or a JSON Pointer',
  contentEncoding: 'shorn does not check encoded content',
  contentMediaType: 'shorn does not check encoded content',
  contentSchema: 'shorn does not check encoded content',
};

// The JSON Schema formats shorn checks, by their shorn name (lib/formats.js). Each accepts
// what Zod v4's check of that name accepts, which differs from Ajv's ajv-formats at the
// edges (docs/JSON-SCHEMA.md, "Formats"): shorn's date-time is RFC 3339 with an upper-case
// `T` and `Z` and an offset with a colon, what `Date.prototype.toISOString` writes.
const FORMATS = {
  'date-time': 'datetime',
  email: 'email',
  uuid: 'uuid',
  uri: 'url',
  url: 'url',
  ipv4: 'ipv4',
  ipv6: 'ipv6',
};

// Patterns any string key matches: TypeBox 1.x writes `Type.Record(Type.String(), V)` as
// `patternProperties: { '^.*$': V }`; the others are the hand-written spellings.
const ANY_KEY = new Set(['^.*$', '.*', '^.*', '^(.*)$', '']);

// Descriptors made from one schema at most: `$ref`s to shared definitions are inlined, so
// a chain of definitions each using the next twice would double at every link (40 links
// made 2^40 nodes); the largest schema of the corpora is ~700.
const MAX_NODES = 100_000;

const INTEGERS = [
  ['uint8', 0, 255],
  ['int8', -128, 127],
  ['uint16', 0, 65535],
  ['int16', -32768, 32767],
  ['uint32', 0, 4294967295],
  ['int32', -2147483648, 2147483647],
  ['int', -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
];

const OPTIONS = new Set(['schemas', 'unknownFormats']);

/** A JSON Pointer segment (RFC 6901). */
const segment = (name) => `/${String(name).replace(/~/g, '~0').replace(/\//g, '~1')}`;

function refuse(pointer, what, why, keyword) {
  const where = pointer === '' ? 'the root' : pointer;
  const error = new ShornError('ERR_SHORN_SCHEMA', `invalid JSON Schema at ${where}: fromJsonSchema cannot map ${what}${why ? `: ${why}` : ''}`, {
    path: pointer,
  });
  if (keyword !== undefined) error.keyword = keyword;
  return error;
}

// A keyword refused where it stands.
const refuseKeyword = (pointer, keyword, why) => refuse(pointer + segment(keyword), `"${keyword}"`, why, keyword);

const isObject = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);
const has = (o, key) => Object.prototype.hasOwnProperty.call(o, key);

/**
 * The shorn descriptor of JSON Schema `schema`. Options: `schemas` (the schemas a `$ref`
 * may name by `$id` outside `schema`: an array, or an object of them by id, as Fastify's
 * `getSchemas()` returns) and `unknownFormats` (`'error'`, the default, or `'ignore'`: a
 * string with a format shorn does not check is a string).
 */
function fromJsonSchema(schema, options = {}) {
  if (!isObject(options)) throw new ShornError('ERR_SHORN_SCHEMA', 'fromJsonSchema: options must be an object');
  for (const key of Object.keys(options)) {
    if (!OPTIONS.has(key)) throw new ShornError('ERR_SHORN_SCHEMA', `fromJsonSchema: unknown option ${JSON.stringify(key)}`);
  }
  const unknownFormats = options.unknownFormats === undefined ? 'error' : options.unknownFormats;
  if (unknownFormats !== 'error' && unknownFormats !== 'ignore') {
    throw new ShornError('ERR_SHORN_SCHEMA', "fromJsonSchema: unknownFormats must be 'error' or 'ignore'");
  }
  const root = { schema, pointer: '' };
  const cx = {
    ids: indexIds(schema, options.schemas),
    open: new Map(),
    names: new Set(),
    depth: 0,
    refs: 0,
    nodes: 0,
    unknownFormats,
  };
  const descriptor = convert(schema, '', root, cx);
  // What the count above cannot see exactly (wrappers such as optional add levels): the
  // one walker refuses a descriptor deeper than compile takes, as compile would.
  walk(descriptor, () => {});
  return descriptor;
}

// Every schema that has an `$id`, by id (without a trailing `#`), with its pointer: the
// root document's, then `extra`'s (pointers `id#/...`). Iterative, so a deep document is
// no stack overflow; values of `const`, `enum`, `default` and `examples` are data, not
// schemas, and are not looked into.
function indexIds(schema, extra) {
  const ids = new Map();
  const resources = [[schema, '']];
  if (extra !== undefined) {
    const list = Array.isArray(extra) ? extra.map((s) => [s, undefined]) : isObject(extra) ? Object.entries(extra).map(([id, s]) => [s, id]) : null;
    if (list === null) throw new ShornError('ERR_SHORN_SCHEMA', 'fromJsonSchema: options.schemas must be an array of schemas or an object of them by $id');
    for (const [s, key] of list) {
      const id = key !== undefined ? key : isObject(s) && typeof s.$id === 'string' ? s.$id : undefined;
      if (id === undefined) throw new ShornError('ERR_SHORN_SCHEMA', 'fromJsonSchema: each of options.schemas needs an $id');
      const name = id.replace(/#$/, '');
      ids.set(name, { schema: s, pointer: `${name}#` });
      resources.push([s, `${name}#`]);
    }
  }
  const seen = new Set();
  for (const [start, pointer] of resources) {
    const stack = [[start, pointer]];
    while (stack.length > 0) {
      const [s, at] = stack.pop();
      if (typeof s !== 'object' || s === null || seen.has(s)) continue;
      seen.add(s);
      if (!Array.isArray(s) && typeof s.$id === 'string' && at !== pointer) {
        const id = s.$id.replace(/#$/, '');
        if (!ids.has(id)) ids.set(id, { schema: s, pointer: at });
      }
      for (const key of Object.keys(s)) {
        if (!Array.isArray(s) && (key === 'const' || key === 'enum' || key === 'default' || key === 'examples')) continue;
        stack.push([s[key], at + segment(key)]);
      }
    }
  }
  return ids;
}

// `base`: the schema resource that `#...` references within `schema` are relative to
// (`{ schema, pointer }`): the root, a schema of `options.schemas`, or one with an `$id`.
function convert(schema, pointer, base, cx) {
  if (schema === true) return t.json();
  if (schema === false) throw refuse(pointer, 'the schema false', 'no value is valid');
  if (!isObject(schema)) throw refuse(pointer, Array.isArray(schema) ? 'an array' : `a ${schema === null ? 'null' : typeof schema}`, 'expected a JSON Schema (an object or a boolean)');
  // A schema met again inside itself is recursion (through `$ref`).
  const open = cx.open.get(schema);
  if (open !== undefined) {
    if (open.name === null) open.name = recursionName(cx, schema, pointer);
    return t.ref(open.name);
  }
  if (++cx.nodes > MAX_NODES) throw refuse(pointer, 'a schema this large', `more than ${MAX_NODES} types once every $ref is expanded`);
  if (typeof schema.$id === 'string' && schema !== base.schema) base = { schema, pointer };
  // A `$ref` adds no level of its own (its target does), but a chain of them is bounded
  // too: each is a frame of this recursion.
  const ref = has(schema, '$ref');
  if (ref ? cx.refs >= MAX_SCHEMA_DEPTH : cx.depth > MAX_SCHEMA_DEPTH) throw tooDeep(pointer);
  const entry = { name: null };
  cx.open.set(schema, entry);
  if (ref) cx.refs++;
  else cx.depth++;
  let d;
  try {
    d = convertSchema(schema, pointer, base, cx);
  } finally {
    cx.open.delete(schema);
    if (ref) cx.refs--;
    else cx.depth--;
  }
  if (entry.name === null) return d;
  if (d.type === 'ref') throw refuse(pointer, 'a $ref that leads back to itself', 'no type stands between the references');
  return { type: 'recursive', name: entry.name, schema: d };
}

// The name of a recursive type: its `$id`, or the last segment of its pointer (a `$defs`
// key), made unique.
function recursionName(cx, schema, pointer) {
  let base = typeof schema.$id === 'string' && schema.$id !== '' ? schema.$id : pointer.slice(pointer.lastIndexOf('/') + 1).replace(/~1/g, '/').replace(/~0/g, '~');
  if (base === '' || base.endsWith('#')) base = base.replace(/#$/, '') || 'Root';
  let name = base;
  for (let k = 2; cx.names.has(name); k++) name = `${base}${k}`;
  cx.names.add(name);
  return name;
}

function convertSchema(schema, pointer, base, cx) {
  const keys = Object.keys(schema);
  for (const key of keys) {
    if (!ANNOTATIONS.has(key) && !GENERAL.has(key) && !FAMILY_OF.has(key)) {
      throw refuseKeyword(pointer, key, WHY[key] || 'shorn has no such type or constraint');
    }
  }
  let nullable = false;
  if (has(schema, 'nullable')) {
    // OpenAPI 3.0's `nullable: true`, which Ajv (and so Fastify) also reads.
    if (typeof schema.nullable !== 'boolean') throw refuseKeyword(pointer, 'nullable', 'expected true or false');
    nullable = schema.nullable;
  }
  let types;
  let declared;
  if (has(schema, 'type')) {
    const list = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (list.length === 0 || !list.every((x) => typeof x === 'string')) throw refuseKeyword(pointer, 'type', 'expected a type name or an array of them');
    types = [...new Set(list)];
    declared = types;
    if (types.includes('null')) {
      nullable = true;
      types = types.filter((x) => x !== 'null');
      if (types.length === 0) types = ['null'];
    }
    // Every integer is a number.
    if (types.includes('number')) types = types.filter((x) => x !== 'integer');
  }
  if (has(schema, 'discriminator') && !has(schema, 'oneOf') && !has(schema, 'anyOf')) {
    throw refuseKeyword(pointer, 'discriminator', 'it tells the schemas of oneOf or anyOf apart, and there are none');
  }
  const d = valueOf(schema, keys, types, declared, pointer, base, cx);
  return nullable ? nullableOf(d) : d;
}

// The descriptor of a schema apart from its `null` (from `type` or `nullable`).
// `declared`: the types `type` names, null among them (what enum and const values must be).
function valueOf(schema, keys, types, declared, pointer, base, cx) {
  const composed = ['$ref', 'enum', 'const', 'anyOf', 'oneOf', 'allOf'].filter((k) => has(schema, k));
  if (composed.length > 1) {
    throw refuseKeyword(pointer, composed[1], `beside "${composed[0]}": shorn maps one of $ref, enum, const, anyOf, oneOf and allOf in a schema`);
  }
  const [kind] = composed;
  if (kind !== undefined) {
    // Beside these, only annotations and `type` (which enum and const values are checked
    // against); a keyword of a type family would narrow them in a way shorn cannot keep.
    for (const key of keys) {
      if (FAMILY_OF.has(key) || (key === 'type' && (kind !== 'enum' && kind !== 'const'))) {
        throw refuseKeyword(pointer, key, `beside "${kind}": give it to the schemas in "${kind}" instead`);
      }
    }
  }
  switch (kind) {
    case '$ref':
      return reference(schema.$ref, pointer, base, cx);
    case 'enum':
      return enumeration(schema.enum, declared, pointer + segment('enum'));
    case 'const':
      return enumeration([schema.const], declared, pointer + segment('const'));
    case 'anyOf':
    case 'oneOf':
      return union(schema, kind, pointer, base, cx);
    case 'allOf':
      if (!Array.isArray(schema.allOf) || schema.allOf.length !== 1) throw refuseKeyword(pointer, 'allOf', WHY.allOf);
      return convert(schema.allOf[0], `${pointer}/allOf/0`, base, cx);
    default:
      break;
  }
  if (types === undefined) {
    // No `type`: `{}` is any JSON value; keywords of one type alone say nothing of others.
    const key = keys.find((k) => FAMILY_OF.has(k));
    if (key !== undefined) throw refuseKeyword(pointer, key, `without "type": it constrains ${FAMILY_OF.get(key)}s only, and any other value is valid`);
    return t.json();
  }
  for (const key of keys) {
    if (FAMILY_OF.has(key) && !types.some((x) => familyOfType(x) === FAMILY_OF.get(key))) {
      throw refuseKeyword(pointer, key, `it applies to ${FAMILY_OF.get(key)}s, and the type is ${types.join(' or ')}`);
    }
  }
  const variants = types.map((type) => typed(type, schema, pointer, base, cx));
  return variants.length === 1 ? variants[0] : t.union(variants);
}

function typed(type, schema, pointer, base, cx) {
  switch (type) {
    case 'string':
      return string(schema, pointer, cx);
    case 'integer':
      return integer(schema, pointer);
    case 'number':
      return number(schema, pointer);
    case 'boolean':
      return t.bool();
    case 'null':
      return t.null();
    case 'object':
      return object(schema, pointer, base, cx);
    case 'array':
      return array(schema, pointer, base, cx);
    default:
      throw refuse(pointer + segment('type'), `the type ${JSON.stringify(type)}`, 'JSON Schema types are string, number, integer, boolean, null, object and array', 'type');
  }
}

// A builder's ShornError ("invalid schema: t.string: ...") with the pointer it comes from.
function build(pointer, make) {
  try {
    return make();
  } catch (e) {
    if (!(e instanceof ShornError)) throw e;
    throw refuse(pointer, 'this schema', e.message.replace(/^invalid schema: /, ''));
  }
}

function nonNegativeInteger(schema, key, pointer) {
  const v = schema[key];
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || v < 0) throw refuseKeyword(pointer, key, 'expected an integer of at least 0');
  return v;
}

function string(schema, pointer, cx) {
  const options = {};
  const minLength = nonNegativeInteger(schema, 'minLength', pointer);
  const maxLength = nonNegativeInteger(schema, 'maxLength', pointer);
  if (minLength !== undefined && minLength > 0) options.minLength = minLength;
  if (maxLength !== undefined) options.maxLength = maxLength;
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) throw refuseKeyword(pointer, 'minLength', 'over maxLength: no string is valid');
  if (has(schema, 'pattern')) {
    const p = schema.pattern;
    if (typeof p !== 'string') throw refuseKeyword(pointer, 'pattern', 'expected a string');
    // Ajv tests a pattern with the `u` flag, shorn without (lib/pattern.js): the same for
    // text in the Basic Multilingual Plane, except for what only `u` reads as an escape.
    if (/\\[pP]\{|\\u\{/.test(p)) throw refuseKeyword(pointer, 'pattern', 'shorn tests patterns without the u flag, and \\p{...} and \\u{...} need it');
    options.pattern = p;
  }
  if (has(schema, 'format')) {
    const format = FORMATS[schema.format];
    if (format !== undefined) options.format = format;
    else if (cx.unknownFormats === 'error') {
      throw refuseKeyword(
        pointer,
        'format',
        `shorn checks the formats ${Object.keys(FORMATS).join(', ')}; ${JSON.stringify(schema.format)} is none of them (the option unknownFormats: 'ignore' takes it as any string)`,
      );
    }
  }
  return build(pointer, () => t.string(Object.keys(options).length > 0 ? options : undefined));
}

// The lower and upper bounds of a number schema, `exclusive` bounds as they are:
// `{ lo, loExclusive, hi, hiExclusive }`. Draft-06 and later write an exclusive bound as a
// number; draft-04 as `exclusiveMinimum: true` beside `minimum`.
function bounds(schema, pointer) {
  const num = (key) => {
    const v = schema[key];
    if (v === undefined || typeof v === 'boolean') return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw refuseKeyword(pointer, key, 'expected a number');
    return v;
  };
  let lo = -Infinity;
  let hi = Infinity;
  let loExclusive = false;
  let hiExclusive = false;
  const minimum = num('minimum');
  const maximum = num('maximum');
  const exMin = num('exclusiveMinimum');
  const exMax = num('exclusiveMaximum');
  if (minimum !== undefined) {
    lo = minimum;
    loExclusive = schema.exclusiveMinimum === true;
  } else if (typeof schema.exclusiveMinimum === 'boolean') throw refuseKeyword(pointer, 'exclusiveMinimum', 'a draft-04 exclusiveMinimum needs a minimum');
  if (maximum !== undefined) {
    hi = maximum;
    hiExclusive = schema.exclusiveMaximum === true;
  } else if (typeof schema.exclusiveMaximum === 'boolean') throw refuseKeyword(pointer, 'exclusiveMaximum', 'a draft-04 exclusiveMaximum needs a maximum');
  if (exMin !== undefined && (exMin > lo || (exMin === lo && !loExclusive))) {
    lo = exMin;
    loExclusive = true;
  }
  if (exMax !== undefined && (exMax < hi || (exMax === hi && !hiExclusive))) {
    hi = exMax;
    hiExclusive = true;
  }
  return { lo, loExclusive, hi, hiExclusive };
}

function integer(schema, pointer) {
  const b = bounds(schema, pointer);
  const lo = b.lo === -Infinity ? -Infinity : b.loExclusive ? Math.floor(b.lo) + 1 : Math.ceil(b.lo);
  const hi = b.hi === Infinity ? Infinity : b.hiExclusive ? Math.ceil(b.hi) - 1 : Math.floor(b.hi);
  if (lo > hi) throw refuse(pointer, 'an integer with these bounds', `no integer is from ${lo} to ${hi}`);
  // The narrowest type that holds the bounds, uint8 to int32, else int: a JSON number
  // beyond 2^53 has lost its digits already, so int64 (bigints, which JSON.parse never
  // gives) would refuse every value the schema takes.
  const [type, min, max] = INTEGERS.find(([, a, z]) => lo >= a && hi <= z) || INTEGERS[INTEGERS.length - 1];
  if (lo > max || hi < min) throw refuse(pointer, 'an integer with these bounds', `shorn holds integers of at most 2^53 - 1 in magnitude (Number.isSafeInteger)`);
  const options = {};
  if (lo > min) options.min = lo;
  if (hi < max) options.max = hi;
  if (has(schema, 'multipleOf')) {
    const m = schema.multipleOf;
    if (!Number.isSafeInteger(m) || m <= 0) throw refuseKeyword(pointer, 'multipleOf', 'shorn takes an integer divisor of at least 1 on integers');
    if (m !== 1) options.multipleOf = m;
  }
  return build(pointer, () => t[type](Object.keys(options).length > 0 ? options : undefined));
}

// The next float64 above `x` (an exclusive lower bound made inclusive).
function nextUp(x) {
  if (x === 0) return Number.MIN_VALUE;
  const f = new Float64Array([x]);
  const u = new BigInt64Array(f.buffer);
  u[0] += x > 0 ? 1n : -1n;
  return f[0];
}
const nextDown = (x) => -nextUp(-x);

function number(schema, pointer) {
  if (has(schema, 'multipleOf')) {
    throw refuseKeyword(pointer, 'multipleOf', 'shorn has multipleOf on integers only (type: "integer"), and a float multiple is not exact in binary');
  }
  const b = bounds(schema, pointer);
  // A JSON number is finite, and Ajv refuses NaN and the infinities, so a float64 has both
  // bounds always, as fromZod gives z.number().
  const min = b.lo === -Infinity ? -Number.MAX_VALUE : b.loExclusive ? nextUp(b.lo) : b.lo;
  const max = b.hi === Infinity ? Number.MAX_VALUE : b.hiExclusive ? nextDown(b.hi) : b.hi;
  if (min > max) throw refuse(pointer, 'a number with these bounds', `no number is from ${min} to ${max}`);
  return t.float64({ min: Object.is(min, -0) ? 0 : min, max: Object.is(max, -0) ? 0 : max });
}

// A descriptor that takes null as well: nullable, unless it takes null already (compile
// refuses a nullable of those: null would have two encodings).
function nullableOf(d) {
  return takesNull(d) ? d : t.nullable(d);
}

function takesNull(d) {
  switch (d.type) {
    case 'null':
    case 'json':
    case 'nullable':
      return true;
    case 'literal':
      return d.value === null;
    case 'union':
      return d.variants.some(takesNull);
    case 'recursive':
      return takesNull(d.schema);
    default:
      return false;
  }
}

const JSON_TYPE_TESTS = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
};

// enum (and const, an enum of one value): strings are an enum, other values literals.
function enumeration(values, types, pointer) {
  if (!Array.isArray(values) || values.length === 0) throw refuse(pointer, 'this enum', 'expected an array of at least one value', 'enum');
  const keyword = pointer.slice(pointer.lastIndexOf('/') + 1);
  const kept = [];
  let hasNull = false;
  values.forEach((v, k) => {
    const at = keyword === 'enum' ? `${pointer}/${k}` : pointer;
    if (!(typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v)))) {
      throw refuse(at, `the ${keyword} value ${JSON.stringify(v)}`, 'a shorn literal is a string, a number, a boolean or null', keyword);
    }
    if (types !== undefined && !types.some((type) => JSON_TYPE_TESTS[type]?.(v))) {
      throw refuse(at, `the ${keyword} value ${JSON.stringify(v)}`, `it is not of the type ${types.join(' or ')}, so no value is it`, keyword);
    }
    const value = Object.is(v, -0) ? 0 : v;
    if (value === null) hasNull = true;
    else if (!kept.includes(value)) kept.push(value);
  });
  let d;
  if (kept.length === 0) return t.null();
  if (kept.length === 1) d = t.literal(kept[0]);
  else if (kept.every((v) => typeof v === 'string')) d = t.enum(kept);
  else d = t.union(kept.map((v) => t.literal(v)));
  return hasNull ? t.nullable(d) : d;
}

function union(schema, kind, pointer, base, cx) {
  const list = schema[kind];
  const at = pointer + segment(kind);
  if (!Array.isArray(list) || list.length === 0) throw refuse(at, `this ${kind}`, 'expected an array of at least one schema', kind);
  const converted = list.map((s, k) => convert(s, `${at}/${k}`, base, cx));
  // `[T, { type: 'null' }]`, TypeBox's Union([T, Null()]), is a nullable T.
  const nulls = converted.filter((d) => d.type === 'null' || (d.type === 'literal' && d.value === null));
  const variants = converted.filter((d) => !nulls.includes(d));
  if (variants.length === 0) return t.null();
  let d;
  const key = discriminator(schema, variants, pointer);
  if (key !== undefined) d = t.discriminatedUnion(key, variants);
  else if (variants.length === 1) [d] = variants;
  else if (variants.every((v) => v.type === 'literal' && typeof v.value === 'string') && new Set(variants.map((v) => v.value)).size === variants.length) {
    // TypeBox spells an enum of strings as a Union of Literals: the same bytes as a union
    // (a varint index), one descriptor.
    d = t.enum(variants.map((v) => v.value));
  } else d = t.union(variants);
  return nulls.length > 0 ? nullableOf(d) : d;
}

// The literal of field `key` in object descriptor `d`, if it is a required string or
// number literal (what a discriminatedUnion dispatches on).
function tagOf(d, key) {
  if (d.type !== 'object') return undefined;
  const field = d.fields.find((f) => f.name === key);
  if (field === undefined || field.schema.type !== 'literal') return undefined;
  const v = field.schema.value;
  return typeof v === 'string' || typeof v === 'number' ? v : undefined;
}

const tagsApart = (variants, key) => {
  const tags = variants.map((v) => tagOf(v, key));
  return tags.every((x) => x !== undefined) && new Set(tags).size === tags.length;
};

// The key of a discriminated union of `variants`: OpenAPI's `discriminator.propertyName`,
// which every variant must carry as a distinct literal; else the first field of the first
// variant that is such a literal in every variant; else none.
function discriminator(schema, variants, pointer) {
  if (has(schema, 'discriminator')) {
    const at = pointer + segment('discriminator');
    const disc = schema.discriminator;
    if (!isObject(disc) || typeof disc.propertyName !== 'string') throw refuse(at, '"discriminator"', 'expected { propertyName }', 'discriminator');
    for (const key of Object.keys(disc)) {
      if (key !== 'propertyName') {
        throw refuse(at + segment(key), `"discriminator.${key}"`, 'shorn tells the variants apart by a const property in each (propertyName) only', 'discriminator');
      }
    }
    if (!tagsApart(variants, disc.propertyName)) {
      throw refuse(at, '"discriminator"', `each variant must be an object whose required property ${JSON.stringify(disc.propertyName)} is a distinct string or number const`, 'discriminator');
    }
    return disc.propertyName;
  }
  if (variants.length < 2 || variants[0].type !== 'object') return undefined;
  const candidate = variants[0].fields.find((f) => tagsApart(variants, f.name));
  return candidate === undefined ? undefined : candidate.name;
}

function reference(ref, pointer, base, cx) {
  const at = pointer + segment('$ref');
  if (typeof ref !== 'string') throw refuse(at, '"$ref"', 'expected a string', '$ref');
  const hash = ref.indexOf('#');
  const uri = hash < 0 ? ref : ref.slice(0, hash);
  const fragment = hash < 0 ? '' : ref.slice(hash + 1);
  let resource;
  if (uri === '') resource = base;
  else {
    resource = cx.ids.get(uri);
    if (resource === undefined) {
      throw refuse(at, `the $ref ${JSON.stringify(ref)}`, 'no schema has that $id (pass the schemas it names in options.schemas)', '$ref');
    }
  }
  if (fragment === '') return convert(resource.schema, resource.pointer, resource, cx);
  if (fragment[0] !== '/') throw refuse(at, `the $ref ${JSON.stringify(ref)}`, WHY.$anchor, '$ref');
  let target = resource.schema;
  let targetPointer = resource.pointer;
  for (const raw of fragment.slice(1).split('/')) {
    let name;
    try {
      name = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      throw refuse(at, `the $ref ${JSON.stringify(ref)}`, 'its pointer is not valid percent-encoding', '$ref');
    }
    if (typeof target !== 'object' || target === null || !has(target, name)) {
      throw refuse(at, `the $ref ${JSON.stringify(ref)}`, 'it points at nothing', '$ref');
    }
    target = target[name];
    targetPointer += segment(name);
  }
  return convert(target, targetPointer, resource, cx);
}

function object(schema, pointer, base, cx) {
  const props = schema.properties;
  const extra = schema.additionalProperties;
  const patterns = schema.patternProperties;
  const required = schema.required === undefined ? [] : schema.required;
  if (props !== undefined && !isObject(props)) throw refuseKeyword(pointer, 'properties', 'expected an object of schemas');
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) throw refuseKeyword(pointer, 'required', 'expected an array of property names');
  if (extra !== undefined && typeof extra !== 'boolean' && !isObject(extra)) throw refuseKeyword(pointer, 'additionalProperties', 'expected a schema');
  const minProperties = nonNegativeInteger(schema, 'minProperties', pointer);
  const maxProperties = nonNegativeInteger(schema, 'maxProperties', pointer);
  // Additional properties of any value: what `additionalProperties` says when it is absent.
  const anyExtra = extra === undefined || extra === true || (isObject(extra) && Object.keys(extra).every((k) => ANNOTATIONS.has(k)));
  let values;
  let valuesPointer;
  if (patterns !== undefined) {
    if (!isObject(patterns)) throw refuseKeyword(pointer, 'patternProperties', 'expected an object of schemas');
    const keys = Object.keys(patterns);
    if (keys.length !== 1 || !ANY_KEY.has(keys[0])) {
      const bad = keys.find((k) => !ANY_KEY.has(k)) ?? keys[1];
      throw refuse(
        pointer + segment('patternProperties') + (bad === undefined ? '' : segment(bad)),
        `"patternProperties"${bad === undefined ? '' : ` ${JSON.stringify(bad)}`}`,
        'a shorn record has any string keys, so only one pattern that every key matches ("^.*$") maps',
        'patternProperties',
      );
    }
    if (props !== undefined && Object.keys(props).length > 0) throw refuseKeyword(pointer, 'patternProperties', 'beside "properties": a shorn object has named fields or any keys, not both');
    // Every key matches the pattern, so additionalProperties judges none.
    values = patterns[keys[0]];
    valuesPointer = pointer + segment('patternProperties') + segment(keys[0]);
  } else if (props === undefined && !anyExtra && extra !== false) {
    values = extra;
    valuesPointer = pointer + segment('additionalProperties');
  } else if (props === undefined && anyExtra) {
    // `{ type: 'object' }`: any object, kept whole.
    values = true;
    valuesPointer = pointer;
  }
  if (values !== undefined) {
    if (required.length > 0) throw refuseKeyword(pointer, 'required', 'a shorn record has no required keys');
    if (minProperties !== undefined && minProperties > 0) throw refuseKeyword(pointer, 'minProperties', 'a shorn record has maxEntries only');
    const of = convert(values, valuesPointer, base, cx);
    return t.record(of, maxProperties === undefined ? undefined : { maxEntries: maxProperties });
  }
  if (minProperties !== undefined || maxProperties !== undefined) {
    throw refuseKeyword(pointer, minProperties !== undefined ? 'minProperties' : 'maxProperties', 'a shorn object has named fields, not a count of them');
  }
  if (!anyExtra && extra !== false) {
    throw refuseKeyword(pointer, 'additionalProperties', 'a schema beside "properties": a shorn object has named fields or a record of any keys, not both');
  }
  const named = props === undefined ? {} : props;
  for (const name of required) {
    if (!has(named, name)) throw refuse(pointer + segment('required'), `the required property ${JSON.stringify(name)}`, 'it is not in "properties"', 'required');
  }
  const fields = {};
  for (const name of Object.keys(named)) {
    const at = `${pointer}/properties${segment(name)}`;
    const sub = named[name];
    let d = convert(sub, at, base, cx);
    if (isObject(sub) && has(sub, 'default')) {
      // Fastify's Ajv fills a missing property with its default (useDefaults) before it
      // checks `required`, so a property with a default may be missing either way.
      const value = sub.default;
      d = build(at + segment('default'), () => t.default(d, value));
    } else if (!required.includes(name)) d = t.optional(d);
    // defineProperty: a property named __proto__ is a field like any other.
    Object.defineProperty(fields, name, { value: d, enumerable: true, writable: true, configurable: true });
  }
  return t.object(fields, { strict: extra === false });
}

function array(schema, pointer, base, cx) {
  const minItems = nonNegativeInteger(schema, 'minItems', pointer);
  const maxItems = nonNegativeInteger(schema, 'maxItems', pointer);
  if (has(schema, 'uniqueItems') && schema.uniqueItems !== false) throw refuseKeyword(pointer, 'uniqueItems', 'shorn has no constraint of distinct items');
  if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) throw refuseKeyword(pointer, 'minItems', 'over maxItems: no array is valid');
  // Draft-07 writes a tuple as `items: [...]` (the rest in additionalItems), 2020-12 as
  // `prefixItems: [...]` (the rest in items).
  let prefix;
  let prefixKey;
  let rest;
  let restKey;
  if (Array.isArray(schema.items)) {
    if (has(schema, 'prefixItems')) throw refuseKeyword(pointer, 'prefixItems', 'beside an array of items: use one of them');
    [prefix, prefixKey, rest, restKey] = [schema.items, 'items', schema.additionalItems, 'additionalItems'];
  } else if (has(schema, 'prefixItems')) {
    if (!Array.isArray(schema.prefixItems)) throw refuseKeyword(pointer, 'prefixItems', 'expected an array of schemas');
    if (has(schema, 'additionalItems')) throw refuseKeyword(pointer, 'additionalItems', 'beside prefixItems: draft 2020-12 writes the rest as items');
    [prefix, prefixKey, rest, restKey] = [schema.prefixItems, 'prefixItems', schema.items, 'items'];
  } else if (has(schema, 'additionalItems')) {
    throw refuseKeyword(pointer, 'additionalItems', 'without an array of items it says nothing');
  }
  if (prefix === undefined) {
    if (schema.items === false) {
      // No item at all: the empty array.
      return t.tuple([]);
    }
    const items = convert(schema.items === undefined ? true : schema.items, pointer + (schema.items === undefined ? '' : segment('items')), base, cx);
    const options = {};
    if (minItems !== undefined && minItems > 0) options.minItems = minItems;
    if (maxItems !== undefined) options.maxItems = maxItems;
    return t.array(items, Object.keys(options).length > 0 ? options : undefined);
  }
  const n = prefix.length;
  const closed = rest === false || (maxItems !== undefined && maxItems <= n);
  if (!closed) {
    throw refuse(pointer, 'a tuple that may have more items', `a shorn tuple has exactly its items: add ${restKey}: false`, restKey);
  }
  if ((minItems ?? 0) < n) {
    throw refuse(pointer + (minItems === undefined ? '' : segment('minItems')), 'a tuple whose last items may be missing', `a shorn tuple has every item: add minItems: ${n}`, 'minItems');
  }
  if (minItems !== undefined && minItems > n) throw refuseKeyword(pointer, 'minItems', `over the ${n} items the tuple may have: no array is valid`);
  return t.tuple(prefix.map((s, k) => convert(s, `${pointer}${segment(prefixKey)}/${k}`, base, cx)));
}

module.exports = { fromJsonSchema };
