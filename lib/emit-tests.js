'use strict';
// Each type's `test` (lib/types/*.js) as generated source, for the native back end's
// generated code (lib/codegen.js `test`, lib/put.js): an expression of value `x` that is
// true where the type's `test(d, x)` is. `g` is the generator (its `test` for a child,
// `predicate` for a loop, `constant`, `fresh`). By type name. Node only, as lib/codegen.js:
// a browser or worker build generates no code of this kind (package.json "imports").

const { emitCount } = require('./types/array');
const integer = require('./types/integer');
const float = require('./types/float');
const string = require('./types/string');
const { readField, isObjectJs } = require('./types/object');
const { tagSwitch } = require('./types/union');

// Whether an array, bytes or string descriptor has a constraint.
const counted = (d, min, max) => d[min] !== undefined || d[max] !== undefined;

// The integer types' own check of `x` (no constraints): also what lib/put.js emits before
// a bound.
const KIND = {
  int: (x) => `typeof ${x} === 'number' && Number.isSafeInteger(${x})`,
};
for (const [name, , , emitCheck] of integer.RANGES) KIND[name] = (x) => `typeof ${x} === 'number' && ${emitCheck(x)}`;
for (const [name, lo, hi] of [
  ['int64', '-9223372036854775808', '9223372036854775807'],
  ['uint64', '0', '18446744073709551615'],
]) {
  KIND[name] = (x) => `(typeof ${x} === 'bigint' && ${lo}n <= ${x} && ${x} <= ${hi}n)`;
}

const literalValue = (d) => (d.type === 'null' ? null : d.value);
const bigint = (v) => `${v}n`;

const TESTS = {
  array: (g, d, x) =>
    g.predicate(d, x, (y, fail) => {
      const k = g.fresh('k');
      const n = g.fresh('n');
      return [
        `if (!Array.isArray(${y})) ${fail}`,
        `const ${n} = ${y}.length;`,
        ...(counted(d, 'minItems', 'maxItems') ? [`if (!(${emitCount(n, d.minItems, d.maxItems)})) ${fail}`] : []),
        `for (let ${k} = 0; ${k} < ${n}; ${k}++) if (!(${g.test(d.items, `${y}[${k}]`)})) ${fail}`,
      ];
    }),
  bool: (g, d, x) => `typeof ${x} === 'boolean'`,
  bytes: (g, d, x) =>
    counted(d, 'minLength', 'maxLength')
      ? `(rt.typedKind(${x}) === 'Uint8Array' && ${emitCount(`rt.inputLength(${x})`, d.minLength, d.maxLength)})`
      : `rt.typedKind(${x}) === 'Uint8Array'`,
  date: (g, d, x) => `rt.dateTime(${x}) === rt.dateTime(${x})`,
  default: (g, d, x) => `(${x} === undefined || ${g.test(d.of, x)})`,
  enum: (g, d, x) => `(typeof ${x} === 'string' && ${g.constant(new Set(d.values))}.has(${x}))`,
  json: (g, d, x) => `G.test(${g.constant(d)}, ${x})`,
  literal: (g, d, x) => (typeof literalValue(d) === 'number' ? `Object.is(${x}, ${JSON.stringify(literalValue(d))})` : `${x} === ${JSON.stringify(literalValue(d))}`),
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
    const c = string.constrained(d) ? string.emitSatisfies(g, d, x) : '';
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
  const big = name === 'int64' || name === 'uint64';
  TESTS[name] = (g, d, x) => (integer.boundsOf(d) ? `(${KIND[name](x)} && ${integer.emitSatisfies(d, x, big ? bigint : String)})` : big ? KIND[name](x) : `(${KIND[name](x)})`);
}
for (const name of ['float32', 'float64']) {
  TESTS[name] = (g, d, x) => (float.boundsOf(d) ? `(typeof ${x} === 'number' && ${float.emitSatisfies(d, x)})` : `typeof ${x} === 'number'`);
}
for (const Class of [Float64Array, Float32Array, Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array]) {
  const name = Class.name[0].toLowerCase() + Class.name.slice(1);
  TESTS[name] = (g, d, x) => `rt.typedKind(${x}) === '${Class.name}'`;
}

/** Type `d`'s test of `x` as an expression. */
const emitTest = (g, d, x) => TESTS[d.type](g, d, x);

/** An integer type's own check of `x` (no constraints) as an expression. */
const emitKind = (d, x) => KIND[d.type](x);

module.exports = { emitTest, emitKind, TESTS };
