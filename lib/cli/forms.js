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

const { randomBytes } = require('node:crypto');

// The JSON forms as the command line writes them. An int64 or uint64 is its bigint, or with
// `asString` its digits; a float's -0 is the number -0, not the string "-0". JSON.stringify
// writes neither a bigint nor -0 as such, and lib/cli/json.js `stringify` does but at ~1.5
// times the cost, so `text` has this marshaller give them as marker strings instead, the
// marker followed by the literal ("<marker>18446744073709551615", "<marker>-0"), counted in
// `marked`; JSON.stringify writes the rest, and the quoted markers are then replaced by
// their literals. The marker is random, and a marker that the data itself holds is found
// (more quoted markers than were made) and the value written by `stringify` instead, so the
// text is exact either way. With `marker` null, bigints and -0 are given as they are, for
// `stringify` (inspect, and that fallback).
class Writing extends Marshaller {
  constructor(descriptor, info, maxDepth, { asString = false, marker = null } = {}) {
    super(descriptor, info, maxDepth);
    this.asString = asString;
    this.marker = marker;
    this.marked = 0;
  }

  literal(text, value) {
    if (this.marker === null) return value;
    this.marked++;
    return this.marker + text;
  }

  // -0 anywhere in a t.json() value (a fresh copy, made by its toJson).
  zeros(j, depth = 0) {
    if (typeof j === 'number') return Object.is(j, -0) ? this.literal('-0', -0) : j;
    if (j === null || typeof j !== 'object' || depth > MAX_DEPTH) return j;
    if (Array.isArray(j)) {
      for (let k = 0; k < j.length; k++) j[k] = this.zeros(j[k], depth + 1);
      return j;
    }
    const proto = Object.getPrototypeOf(j);
    if (proto !== Object.prototype && proto !== null) return j;
    for (const k of Object.keys(j)) {
      const v = j[k];
      if (typeof v === 'object' || Object.is(v, -0)) Object.defineProperty(j, k, { value: this.zeros(v, depth + 1), writable: true, enumerable: true, configurable: true });
    }
    return j;
  }

  toJson(d, x) {
    switch (d.type) {
      case 'int64':
      case 'uint64':
        if (typeof x !== 'bigint') return x;
        return this.asString ? String(x) : this.literal(String(x), x);
      case 'float32':
      case 'float64':
        // A finite number as it is, -0 as -0; NaN and the infinities as their strings.
        if (typeof x !== 'number') return x;
        if (!Number.isFinite(x)) return String(x);
        return Object.is(x, -0) ? this.literal('-0', -0) : x;
      case 'float32Array':
      case 'float64Array': {
        const j = super.toJson(d, x);
        if (!Array.isArray(j)) return j;
        for (let k = 0; k < j.length; k++) if (j[k] === '-0') j[k] = this.literal('-0', -0);
        return j;
      }
      case 'json':
        return this.zeros(super.toJson(d, x));
      default:
        return super.toJson(d, x);
    }
  }
}

/** `text` of forms: the JSON text of `value` as the command line writes it (see Writing). */
function writer(descriptor, info, maxDepth, asString, marker = `shorn${randomBytes(9).toString('hex')}:`) {
  const fast = new Writing(descriptor, info, maxDepth, { asString, marker });
  const exact = new Writing(descriptor, info, maxDepth, { asString });
  // Characters JSON.stringify writes as they are, so that each marker made is in the text.
  if (!/^[\x20-\x7e]+$/.test(marker) || /["\\]/.test(marker)) throw new TypeError(`a marker of printable ASCII without " or \\, not ${JSON.stringify(marker)}`);
  const quoted = `"${marker}`;
  const literals = new RegExp(`"${marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(-?[0-9]+)"`, 'g');
  return (value, indent) => {
    fast.marked = 0;
    const out = JSON.stringify(fast.toJson(descriptor, value), null, indent);
    if (fast.marked === 0) return out;
    let seen = 0;
    for (let i = out.indexOf(quoted); i !== -1; i = out.indexOf(quoted, i + quoted.length)) seen++;
    if (seen === fast.marked) {
      let replaced = 0;
      const text = out.replace(literals, (_, literal) => {
        replaced++;
        return literal;
      });
      if (replaced === seen) return text;
    }
    // The data holds the marker itself: written the slower way, which needs none.
    return stringify(exact.toJson(descriptor, value), indent);
  };
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
 * string of digits, and a float's -0 the literal -0. `exact` says whether the schema has
 * int64 or uint64 fields, whose JSON should be read with exact integers (lib/cli/json.js,
 * `exactIntegers`). `marker` sets the marker of `text` (random by default; the tests set
 * one that the data holds).
 */
function formsFor(descriptor, { maxDepth = MAX_DEPTH, int64AsString = false, marker } = {}) {
  const info = analyze(descriptor);
  const m = info.uses64 ? new ExactForms(descriptor, info, maxDepth) : new Marshaller(descriptor, info, maxDepth);
  const text = writer(descriptor, info, maxDepth, int64AsString, marker);
  return {
    exact: info.uses64,
    toJson: (value) => m.toJson(descriptor, value),
    fromJson: (json) => m.fromJson(descriptor, json),
    text,
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
  return new Writing(descriptor, info, MAX_DEPTH, { asString: int64AsString });
}

module.exports = { formsFor, valueForms, numbersOnly };
