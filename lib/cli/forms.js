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

const { Marshaller } = require('../generic');
const { analyze } = require('../walk');
const { TYPES } = require('../types');

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
 * The JSON forms of `descriptor`'s values: `{ toJson(value), fromJson(json), exact }`.
 * `exact` says whether the schema has int64 or uint64 fields, whose JSON should be read
 * with exact integers (lib/cli/json.js, `exactIntegers`).
 */
function formsFor(descriptor, maxDepth = MAX_DEPTH) {
  const info = analyze(descriptor);
  const m = info.uses64 ? new ExactForms(descriptor, info, maxDepth) : new Marshaller(descriptor, info, maxDepth);
  return {
    exact: info.uses64,
    toJson: (value) => m.toJson(descriptor, value),
    fromJson: (json) => m.fromJson(descriptor, json),
  };
}

module.exports = { formsFor, numbersOnly };
