'use strict';
// What the native back end's generated code checks and reads of each type, as source:
// each type's `test` (lib/types/*.js) as an expression of value `x` that is true where
// `test(d, x)` is (`TESTS`, for lib/codegen.js `test` and lib/put.js), the constraints
// and counts such code checks (`integerSatisfies`, ..., `emitCount`), the dispatch on a
// discriminated union's tag (`tagSwitch`), and the reads and writes of an object's fields
// (`readField`, `literalKey`, `assignField`). `g` is the generator (its `test` for a child,
// `predicate` for a loop, `constant`, `fresh`). Node only, as lib/codegen.js: a browser or
// worker build generates no code of this kind (package.json "imports").

const { FORMATS } = require('./formats');
const integer = require('./types/integer');
const float = require('./types/float');
const string = require('./types/string');
const { INHERITED } = require('./types/object');
const { tagIndex, tagOf } = require('./types/union');
const { CLASSES } = require('./types/typed-array');
const { RANGES64 } = require('./types/int64');
const array = require('./types/array');
const bytes = require('./types/bytes');
const literal = require('./types/literal');

// ---- constraints and counts ----------------------------------------------------------------

// Count `n` within `min` and `max` (either may be undefined).
function emitCount(n, min, max) {
  const parts = [];
  if (min !== undefined) parts.push(`${n} >= ${min}`);
  if (max !== undefined) parts.push(`${n} <= ${max}`);
  return parts.join(' && ');
}

// An integer's constraints on `x` ('' if none); `literal` writes a bound.
function integerSatisfies(d, x, literal = String) {
  const parts = [];
  if (d.min !== undefined) parts.push(`${x} >= ${literal(d.min)}`);
  if (d.max !== undefined) parts.push(`${x} <= ${literal(d.max)}`);
  if (d.multipleOf !== undefined) parts.push(`${x} % ${literal(d.multipleOf)} === ${literal(0)}`);
  return parts.join(' && ');
}

// A float's bounds on `x` ('' if none): a float32 compared as it is rounded.
function floatSatisfies(d, x) {
  const y = d.type === 'float32' ? `Math.fround(${x})` : x;
  const parts = [];
  if (d.min !== undefined) parts.push(`${y} >= ${d.min}`);
  if (d.max !== undefined) parts.push(`${y} <= ${d.max}`);
  return parts.join(' && ');
}

// A string's lengths, format and pattern on `x` ('' if none); on encode (`put`), without
// a format the native side checks.
function stringSatisfies(g, d, x, put = false) {
  const parts = [];
  if (d.minLength !== undefined || d.maxLength !== undefined) {
    const min = d.minLength === undefined ? 0 : d.minLength;
    const max = d.maxLength === undefined ? Infinity : d.maxLength;
    const fast = [];
    if (max !== Infinity) fast.push(`${x}.length <= ${max}`);
    if (min > 0) fast.push(`${x}.length >= ${2 * min}`);
    parts.push(`(${fast.join(' && ')} || ${g.constant(string.lengthWithin)}(${x}, ${min}, ${max}))`);
  }
  parts.push(...stringFormed(g, d, x, !put || !string.coreFormat(d)));
  return parts.join(' && ');
}

// A string's format (when `format`) and pattern on `x`, as a list of conditions.
function stringFormed(g, d, x, format) {
  const parts = [];
  if (format && d.format !== undefined) parts.push(`${g.constant(FORMATS[d.format])}(${x})`);
  if (d.pattern !== undefined) parts.push(`${g.constant(string.patternOf(d))}.test(${x})`);
  return parts;
}

// ---- a discriminated union's tag -----------------------------------------------------------

// The switch that dispatches on tag expression `tag`: `open`, then a case per variant
// (`label(k)`). Up to TAG_SWITCH_MAX variants it switches on the tag itself, each
// variant's tag a case label: a switch of literals runs as a few compares, where a Map#get
// of the tag hashed it (~15% of a discriminated union's encode). `===` is the Map's
// SameValueZero for every tag a variant may have (a string or a finite number but -0), and
// a union's tags are distinct (its schema is refused otherwise); a string tag is escaped
// by JSON.stringify, a JS string literal. More variants switch on the variant's index,
// from the Map (`tagIndex`, which the paths without generated code use).
const TAG_SWITCH_MAX = 16;

function tagSwitch(g, d, tag) {
  if (d.variants.length > TAG_SWITCH_MAX) return { open: `switch (${g.constant(tagIndex(d))}.get(${tag})) {`, label: (k) => String(k) };
  return {
    open: `switch (${tag}) {`,
    label: (k) => {
      const value = tagOf(d.variants[k], d.key);
      return typeof value === 'string' ? JSON.stringify(value) : String(value);
    },
  };
}

// ---- an object's fields ----------------------------------------------------------------------

// Reads field `name` of `x`; own-property only for names Object.prototype has
// (lib/types/object.js, INHERITED).
function readField(x, name) {
  const key = JSON.stringify(name);
  return INHERITED.has(name) ? `(Object.hasOwn(${x}, ${key}) ? ${x}[${key}] : undefined)` : `${x}[${key}]`;
}

// Object-literal key: `__proto__` must be computed, or the literal sets the prototype.
function literalKey(name) {
  return name === '__proto__' ? '["__proto__"]' : JSON.stringify(name);
}

// The statement that gives new object `o` its field `name` after the literal part (see
// lib/take.js and lib/small.js), when `has` (an expression, or undefined for always).
function assignField(o, name, value, has) {
  const key = JSON.stringify(name);
  const set =
    name === '__proto__'
      ? `rt.defineOwn(${o}, "__proto__", ${value});`
      : `if (${key} in rt.ObjectPrototype) rt.defineOwn(${o}, ${key}, ${value}); else ${o}[${key}] = ${value};`;
  return has ? `if (${has}) { ${set} }` : set;
}

const isObjectJs = (x) => `(typeof ${x} === 'object' && ${x} !== null && !Array.isArray(${x}))`;

// ---- each type's test ------------------------------------------------------------------------

// The integer types' own check of `x` (no constraints): also what lib/put.js emits before
// a bound.
const KIND = {
  int: (x) => `typeof ${x} === 'number' && Number.isSafeInteger(${x})`,
};
for (const [name, , , emitCheck] of integer.RANGES) KIND[name] = (x) => `typeof ${x} === 'number' && ${emitCheck(x)}`;
for (const [name, lo, hi] of RANGES64) KIND[name] = (x) => `(typeof ${x} === 'bigint' && ${lo}n <= ${x} && ${x} <= ${hi}n)`;

const bigint = (v) => `${v}n`;

const TESTS = {
  array: (g, d, x) =>
    g.predicate(d, x, (y, fail) => {
      const k = g.fresh('k');
      const n = g.fresh('n');
      return [
        `if (!Array.isArray(${y})) ${fail}`,
        `const ${n} = ${y}.length;`,
        ...(array.constrained(d) ? [`if (!(${emitCount(n, d.minItems, d.maxItems)})) ${fail}`] : []),
        `for (let ${k} = 0; ${k} < ${n}; ${k}++) if (!(${g.test(d.items, `${y}[${k}]`)})) ${fail}`,
      ];
    }),
  bool: (g, d, x) => `typeof ${x} === 'boolean'`,
  bytes: (g, d, x) =>
    bytes.constrained(d)
      ? `(rt.typedKind(${x}) === 'Uint8Array' && ${emitCount(`rt.inputLength(${x})`, d.minLength, d.maxLength)})`
      : `rt.typedKind(${x}) === 'Uint8Array'`,
  date: (g, d, x) => `rt.dateTime(${x}) === rt.dateTime(${x})`,
  default: (g, d, x) => `(${x} === undefined || ${g.test(d.of, x)})`,
  enum: (g, d, x) => `(typeof ${x} === 'string' && ${g.constant(new Set(d.values))}.has(${x}))`,
  json: (g, d, x) => `G.test(${g.constant(d)}, ${x})`,
  literal: (g, d, x) => (typeof literal.value(d) === 'number' ? `Object.is(${x}, ${JSON.stringify(literal.value(d))})` : `${x} === ${JSON.stringify(literal.value(d))}`),
  map: (g, d, x) =>
    g.predicate(d, x, (y, fail) => {
      const e = g.fresh('e');
      return [
        `if (!rt.isMap(${y})) ${fail}`,
        ...(d.maxEntries === undefined ? [] : [`if (${y}.size > ${d.maxEntries}) ${fail}`]),
        `for (const ${e} of ${y}) if (!(${g.test(d.keys, `${e}[0]`)}) || !(${g.test(d.values, `${e}[1]`)})) ${fail}`,
      ];
    }),
  object: (g, d, x) =>
    g.predicate(d, x, (y, fail) => {
      const lines = [`if (!${isObjectJs(y)}) ${fail}`];
      for (const f of d.fields) {
        const v = g.fresh('f');
        lines.push(`const ${v} = ${readField(y, f.name)};`);
        if (f.schema.type === 'optional') lines.push(`if (${v} !== undefined && !(${g.test(f.schema.of, v)})) ${fail}`);
        else lines.push(`if (!(${g.test(f.schema, v)})) ${fail}`);
      }
      if (d.strict) lines.push(`if (!rt.onlyKeys(${y}, ${g.constant(new Set(d.fields.map((f) => f.name)))})) ${fail}`);
      return lines;
    }),
  optional: (g, d, x) => `(${x} === undefined || ${g.test(d.of, x)})`,
  nullable: (g, d, x) => `(${x} === null || ${g.test(d.of, x)})`,
  record: (g, d, x) =>
    g.predicate(d, x, (y, fail) => {
      const k = g.fresh('k');
      const count = d.maxEntries === undefined ? [] : [`if (!(${emitCount(`Object.keys(${y}).length`, undefined, d.maxEntries)})) ${fail}`];
      return [`if (!rt.isPlainObject(${y})) ${fail}`, ...count, `for (const ${k} of Object.keys(${y})) if (!(${g.test(d.values, `${y}[${k}]`)})) ${fail}`];
    }),
  recursive: (g, d, x) => `G.test(${g.constant(d)}, ${x})`,
  ref: (g, d, x) => `G.test(${g.constant(d)}, ${x})`,
  string(g, d, x) {
    const c = string.constrained(d) ? stringSatisfies(g, d, x) : '';
    return c ? `(typeof ${x} === 'string' && ${c})` : `typeof ${x} === 'string'`;
  },
  tuple: (g, d, x) =>
    g.predicate(d, x, (y, fail) => [
      `if (!Array.isArray(${y}) || ${y}.length !== ${d.items.length}) ${fail}`,
      ...d.items.map((item, k) => `if (!(${g.test(item, `${y}[${k}]`)})) ${fail}`),
    ]),
  union: (g, d, x) => `(${d.variants.map((v) => g.test(v, x)).join(' || ')})`,
  discriminatedUnion: (g, d, x) =>
    g.predicate(d, x, (y, fail) => {
      const k = g.fresh('k');
      const tags = tagSwitch(g, d, k);
      return [
        `if (typeof ${y} !== 'object' || ${y} === null || Array.isArray(${y})) ${fail}`,
        `const ${k} = ${readField(y, d.key)};`,
        tags.open,
        ...d.variants.map((v, n) => `case ${tags.label(n)}: if (!(${g.test(v, y)})) ${fail} break;`),
        `default: ${fail}`,
        '}',
      ];
    }),
};
TESTS.null = TESTS.literal;
for (const name of Object.keys(KIND)) {
  const big = RANGES64.some(([n]) => n === name);
  TESTS[name] = (g, d, x) => (integer.boundsOf(d) ? `(${KIND[name](x)} && ${integerSatisfies(d, x, big ? bigint : String)})` : big ? KIND[name](x) : `(${KIND[name](x)})`);
}
for (const name of ['float32', 'float64']) {
  TESTS[name] = (g, d, x) => (float.boundsOf(d) ? `(typeof ${x} === 'number' && ${floatSatisfies(d, x)})` : `typeof ${x} === 'number'`);
}
for (const [name, Class] of CLASSES) TESTS[name] = (g, d, x) => `rt.typedKind(${x}) === '${Class.name}'`;

/** Type `d`'s test of `x` as an expression. */
const emitTest = (g, d, x) => TESTS[d.type](g, d, x);

/** An integer type's own check of `x` (no constraints) as an expression. */
const emitKind = (d, x) => KIND[d.type](x);

module.exports = { emitTest, emitKind, TESTS, emitCount, integerSatisfies, floatSatisfies, stringSatisfies, stringFormed, tagSwitch, readField, literalKey, assignField, isObjectJs };
