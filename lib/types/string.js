'use strict';
// string: a JS string without lone surrogates, as UTF-8 (src/types/string.rs). Tape: one
// slot, the length in UTF-16 units; the string itself travels as a call argument (or in
// one concatenated string), and decoded text comes back as one string JS slices.
//
// Constraints (docs/FORMAT.md, "string"): `minLength` and `maxLength` in code points,
// `pattern` (the source of a JS RegExp, tested without flags as Zod tests a RegExp) and
// `format` (lib/formats.js). The formats email, uuid, ipv4 and datetime are checked by the
// native side, on encode (when the string has no pattern, after everything JS checks:
// docs/FORMAT.md, "Issues") and on decode; JS checks the rest: the lengths on encode (the
// native side on decode), and the pattern and the url and ipv6 formats, on encode and once
// a decoded string exists. `test` (a union's choice of variant) and `check` check all.
// A pattern runs on lib/pattern.js, in time linear in the string, never on V8's
// backtracking RegExp (issue 37: `^(a+)+$` took 1.05 s on 27 characters).

const { ShornError, describe, violation } = require('../errors');
const { FORMATS } = require('../formats');
const { compilePattern, PatternRefused } = require('../pattern');

const OPTIONS = new Set(['minLength', 'maxLength', 'pattern', 'format']);

function schemaError(message) {
  return new ShornError('ERR_SHORN_SCHEMA', `invalid schema: ${message}`);
}

// A pattern given as a RegExp keeps only its source: flags that change what `test` finds
// cannot be kept in a descriptor (`g` and `d` change nothing here, so they are allowed).
function patternSource(pattern) {
  if (typeof pattern === 'string') return pattern;
  if (pattern instanceof RegExp && /^[gd]*$/.test(pattern.flags)) return pattern.source;
  if (pattern instanceof RegExp) {
    throw schemaError(`t.string: a pattern's flags are not kept in a descriptor (${pattern}); write the pattern without them`);
  }
  throw schemaError('t.string: pattern must be a RegExp or its source string');
}

function build(options) {
  if (options === undefined) return { type: 'string' };
  if (typeof options !== 'object' || options === null) throw schemaError('t.string takes an object of constraints');
  const d = { type: 'string' };
  for (const key of Object.keys(options)) {
    if (!OPTIONS.has(key)) throw schemaError(`t.string has no constraint ${JSON.stringify(key)}`);
    if (options[key] !== undefined) d[key] = key === 'pattern' ? patternSource(options[key]) : options[key];
  }
  if (d.pattern !== undefined) {
    const fault = patternFault(d);
    if (fault !== undefined) throw schemaError(`t.string: ${fault}`);
  }
  return d;
}

// Each descriptor's compiled pattern, made once.
const patterns = new WeakMap();
function patternOf(d) {
  let p = patterns.get(d);
  if (p === undefined) patterns.set(d, (p = compilePattern(d.pattern)));
  return p;
}

// Why the pattern of `d` is refused, if it is: V8 refuses its syntax, or it cannot run in
// linear time (a backreference) or is past a cap (docs/FORMAT.md, "Patterns").
function patternFault(d) {
  try {
    patternOf(d);
  } catch (e) {
    if (e instanceof SyntaxError) return `pattern ${JSON.stringify(d.pattern)} is not a valid RegExp (${e.message})`;
    if (e instanceof PatternRefused) return `pattern ${JSON.stringify(d.pattern)} is refused: ${e.message}`;
    throw e;
  }
}

/** The code points of `x` (a lone surrogate counts as one). */
function codePoints(x) {
  let n = x.length;
  for (let k = 0; k < x.length - 1; k++) {
    if ((x.charCodeAt(k) & 0xfc00) === 0xd800 && (x.charCodeAt(k + 1) & 0xfc00) === 0xdc00) {
      n--;
      k++;
    }
  }
  return n;
}

// Whether `x` has from `min` to `max` code points: counted only near the bounds, since a
// code point is one or two UTF-16 units.
function lengthWithin(x, min, max) {
  const n = x.length;
  if (n <= max && n >= 2 * min) return true;
  if (n < min) return false;
  const points = codePoints(x);
  return points >= min && points <= max;
}

const constrained = (d) => d.minLength !== undefined || d.maxLength !== undefined || d.pattern !== undefined || d.format !== undefined;

// On decode the Rust core checks lengths and these formats (src/types/formats.rs: the same
// languages as zod's expressions, without a JS call per string); JS checks the rest.
const NATIVE_FORMATS = new Set(['email', 'uuid', 'ipv4', 'datetime']);
const jsFormat = (d) => d.format !== undefined && !NATIVE_FORMATS.has(d.format);
const checkedByJs = (d) => d.pattern !== undefined || jsFormat(d);
// Whether the native side checks the format of `d` on encode (src/types/mod.rs,
// `verify_encoded`): a native format, with no pattern to check beside it in JS (so that
// one string's issues keep their order: lengths, format, pattern).
const coreFormat = (d) => d.pattern === undefined && NATIVE_FORMATS.has(d.format);

// The pattern and format.
function formed(d, x) {
  return (d.format === undefined || FORMATS[d.format](x)) && (d.pattern === undefined || patternOf(d).test(x));
}

// What JS checks of a decoded string: its pattern, and its format if the core does not.
function formedOnDecode(d, x) {
  return (!jsFormat(d) || FORMATS[d.format](x)) && (d.pattern === undefined || patternOf(d).test(x));
}

const lengthsWithin = (d, x) => lengthWithin(x, d.minLength === undefined ? 0 : d.minLength, d.maxLength === undefined ? Infinity : d.maxLength);

function satisfies(d, x) {
  return lengthsWithin(d, x) && formed(d, x);
}

const formatViolation = (d, x) => ({ issue: 'invalid_format', expected: `string of format ${d.format}`, found: describe(x) });

const plural = (n) => (n === 1 ? 'code point' : 'code points');

// Every constraint string `x` breaks, in the order encode reports them (without its format
// when `format` is false).
function violations(d, x, format = true) {
  const out = [];
  const found = () => `${describe(x)} (${codePoints(x)} ${plural(codePoints(x))})`;
  if (d.minLength !== undefined && !lengthWithin(x, d.minLength, Infinity)) {
    out.push({ issue: 'too_small', expected: `string of at least ${d.minLength} ${plural(d.minLength)}`, found: found() });
  }
  if (d.maxLength !== undefined && !lengthWithin(x, 0, d.maxLength)) {
    out.push({ issue: 'too_big', expected: `string of at most ${d.maxLength} ${plural(d.maxLength)}`, found: found() });
  }
  if (format && d.format !== undefined && !FORMATS[d.format](x)) out.push(formatViolation(d, x));
  if (d.pattern !== undefined && !patternOf(d).test(x)) {
    out.push({ issue: 'invalid_format', expected: `string matching /${d.pattern}/`, found: describe(x) });
  }
  return out;
}

// The compiler's reading of the descriptor (src/types/string.rs, `constrained`:
// lib/schema-rules.js); its formats in its order, as its message lists them.
const FORMAT_NAMES = ['email', 'uuid', 'url', 'datetime', 'ipv4', 'ipv6'];
function rules(d, cx) {
  const lengths = cx.range(d, 'minLength', 'maxLength');
  let pattern = false;
  if (Object.hasOwn(d, 'pattern')) {
    if (typeof d.pattern !== 'string') throw cx.fail(`pattern must be a string (a RegExp's source), found ${cx.kind(d.pattern)}`);
    pattern = true;
  }
  let format = false;
  if (Object.hasOwn(d, 'format')) {
    const f = d.format;
    if (typeof f !== 'string' || !FORMAT_NAMES.includes(f)) throw cx.fail(`format must be one of ${FORMAT_NAMES.join(', ')}, found ${typeof f === 'string' ? JSON.stringify(f) : cx.kind(f)}`);
    format = true;
  }
  return lengths || pattern || format ? cx.checked({ k: 'string' }) : { k: 'string' };
}

module.exports = [
  {
    name: 'string',
    members: ['minLength', 'maxLength', 'pattern', 'format'],
    rules,
    build,
    constraints: [...OPTIONS],
    expected: () => 'string',
    slots: () => 1,
    strings: 1,
    test: (d, x) => typeof x === 'string' && (!constrained(d) || satisfies(d, x)),
    satisfies,
    violations,
    validate: (d) => (d.pattern === undefined ? undefined : patternFault(d)),
    put(c, d, x, shown) {
      if (typeof x !== 'string') throw c.fail(shown, x);
      if (c.late !== null && coreFormat(d)) {
        // The native side checks the format after everything JS checks; `check` lists it
        // there too (`c.late`, docs/FORMAT.md, "Issues").
        const late = c.issues !== null && !FORMATS[d.format](x) ? violation(c.path(), formatViolation(d, x)) : null;
        if (!lengthsWithin(d, x)) {
          if (late !== null) c.lateIssue(late);
          throw c.violated(d, x, false);
        }
        c.string(x);
        if (late !== null) c.lateIssue(late);
        return;
      }
      if (constrained(d) && !satisfies(d, x)) throw c.violated(d, x);
      c.string(x);
    },
    toJson: (d, x) => x,
    fromJson: (d, j) => j,
    kinds: 'string',
    lower: () => ({ op: 'string' }),
    minBytes: () => 1,
  },
];

module.exports.codePoints = codePoints;
module.exports.constrained = constrained;
module.exports.checkedByJs = checkedByJs;
module.exports.formedOnDecode = formedOnDecode;
module.exports.jsFormat = jsFormat;
// A descriptor's compiled pattern, for what else tests one (`shorn inspect`): never a RegExp
// of the source, which could backtrack for as long as the string makes it.
module.exports.patternOf = patternOf;
module.exports.lengthWithin = lengthWithin;
module.exports.coreFormat = coreFormat;
