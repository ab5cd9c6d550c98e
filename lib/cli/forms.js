'use strict';
// The JSON forms of a schema's values (docs/FORMAT.md, "JSON forms"), as the command line
// reads and writes them: each type's own `toJson` and `fromJson` (lib/types/), driven by
// the generic marshaller's walk. `decode` writes `toJson` of what it decodes, and `encode`
// reads with `fromJson`, so whatever decode writes, encode takes back.
//
// One addition: JSON.parse rounds integers beyond 2^53, which an int64 or uint64 field
// needs exactly. For a schema with such fields the command line reads JSON with
// lib/cli/json.js, which gives those integer literals as bigints; here an int64 or uint64
// takes the bigint as it is, and every other type sees the number JSON.parse would give.
//
// And the other way: the library's JSON form of an int64 or uint64 beyond 2^53 is a string
// of digits (what JSON.parse keeps exactly), but JSON has integer literals of any size and
// a string changes the document's type. So what the command line writes (`text`) has
// every int64 and uint64 as the integer literal it is, exactly (lib/cli/json.js,
// `stringify`), or with `int64AsString` (`--int64-as-string`) every one as a string of
// digits, safe or not, so that a consumer finds one type in a field. Likewise a float's -0,
// whose library JSON form is the string "-0" (JSON.stringify writes the number -0 as 0):
// JSON has the literal -0, which JSON.parse reads back as -0, so `text` writes that. NaN and
// the infinities have no literal and stay the strings "NaN", "Infinity", "-Infinity".

const { Marshaller } = require('../generic');
const { analyze } = require('../walk');
const { TYPES } = require('../types');
const { stringify } = require('./json');

// The deepest a JSON value is walked for its bigints (deeper ones stay bigints and fail
// encode with their path), matching the default maxDepth.
const MAX_DEPTH = 128;

function numbersOnly(j, depth = 0) {
  if (typeof j === 'bigint') return Number(j);
  if (j === null || typeof j !== 'object' || depth > MAX_DEPTH) return j;
  if (Array.isArray(j)) return j.map((x) => numbersOnly(x, depth + 1));
  const o = {};
  for (const k of Object.keys(j)) {
    Object.defineProperty(o, k, { value: numbersOnly(j[k], depth + 1), writable: true, enumerable: true, configurable: true });
  }
  return o;
}

const is64 = (d) => d.type === 'int64' || d.type === 'uint64';
const FLOATS = new Set(['float32', 'float64']);
const FLOAT_ARRAYS = new Set(['float32Array', 'float64Array']);
const negativeZero = (j) => (j === '-0' ? -0 : j);

// The JSON forms as the command line writes them (with lib/cli/json.js `stringify`): an
// int64 or uint64 is its bigint (written as a literal) or, with `asString`, its digits; a
// float's -0 is the number -0 (written as the literal -0), not the string "-0".
class Writing extends Marshaller {
  toJson(d, x) {
    if (typeof x === 'bigint' && is64(d)) return this.asString ? String(x) : x;
    const j = super.toJson(d, x);
    if (FLOATS.has(d.type)) return negativeZero(j);
    if (FLOAT_ARRAYS.has(d.type) && Array.isArray(j)) return j.map(negativeZero);
    return j;
  }
}

class ExactForms extends Marshaller {
  fromJson(d, j) {
    // A type with members (and a ref, through its definition) hands each part to
    // fromJson again; every other type reads its whole JSON value itself, so its bigints
    // become numbers here, except for int64 and uint64, which take them as they are.
    if ((typeof j === 'bigint' || (j !== null && typeof j === 'object')) && this.cached('numbersOnly', d, (n) => wholeJson(n, this.refs))) j = numbersOnly(j);
    return super.fromJson(d, j);
  }
}

// Whether type `d` reads its whole JSON value itself (no members, no ref) and is no
// 64-bit integer: its bigints are made numbers. Cached per node (it is asked per value).
function wholeJson(d, refs) {
  const def = TYPES.get(d.type);
  return !def.uses64 && def.children(d).length === 0 && !refs.has(d);
}

/**
 * The JSON forms of `descriptor`'s values: `{ toJson(value), fromJson(json), text(value,
 * indent), exact }`. `toJson` is the library's JSON form (an int64 beyond 2^53 as a string
 * of digits, which JSON.stringify can write); `text` is the JSON text the command line
 * writes: every int64 and uint64 an integer literal, exactly, or with `int64AsString` a
 * string of digits, and a float's -0 the literal -0. `exact` says whether the schema has int64 or uint64 fields, whose JSON
 * should be read with exact integers (lib/cli/json.js, `exactIntegers`).
 */
function formsFor(descriptor, { maxDepth = MAX_DEPTH, int64AsString = false } = {}) {
  const info = analyze(descriptor);
  const m = info.uses64 ? new ExactForms(descriptor, info, maxDepth) : new Marshaller(descriptor, info, maxDepth);
  const w = new Writing(descriptor, info, maxDepth);
  w.asString = int64AsString;
  return {
    exact: info.uses64,
    toJson: (value) => m.toJson(descriptor, value),
    fromJson: (json) => m.fromJson(descriptor, json),
    text: (value, indent) => stringify(w.toJson(descriptor, value), indent),
  };
}

/**
 * The JSON forms `shorn inspect` shows values in, by type: `toJson(d, x)` of any node `d`,
 * as decode writes them (for lib/cli/json.js `stringify`): int64 and uint64 as bigints, or
 * with `int64AsString` strings of digits. A descriptor that does not analyze (a dump of a
 * bad schema never gets here, but the walk's own callers may) gets no refs.
 */
function valueForms(descriptor, { int64AsString = false } = {}) {
  let info;
  try {
    info = analyze(descriptor);
  } catch {
    info = { refs: new Map(), paths: new Map() };
  }
  const w = new Writing(descriptor, info, MAX_DEPTH);
  w.asString = int64AsString;
  return w;
}

module.exports = { formsFor, valueForms, numbersOnly };
