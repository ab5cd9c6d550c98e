'use strict';
// A schema's fingerprint: the first 8 bytes of the SHA-256 of its canonical descriptor, as
// 16 lowercase hex digits (docs/FORMAT.md, "Fingerprints"). The canonical descriptor is the
// descriptor's JSON with no whitespace, every object's keys sorted (by UTF-16 code units),
// except inside the `value` of a literal or a default (a JSON value whose key order is part
// of it), and `"strict": false` left out (it is the default). Array order is kept. So one
// schema has one fingerprint however it was built (t, JSON from a file, keys in any
// order), on every machine; any change to the descriptor that can change the bytes (a
// type, a field, its order, an enum symbol, a literal, a default) or what the schema
// accepts (a constraint: bounds, lengths, a pattern, a format, counts) changes it.
// Constraints are ordinary members of their nodes, so their keys are sorted like any.

const { sha256Hex } = require('#host');

const VALUE_TYPES = new Set(['literal', 'default']);

// `memo` (node -> text), when given, keeps each node's text, so that the texts of every
// node of a tree cost as much as the tree's (lib/evolve.js compares subtrees by text:
// without it, a 1 MB descriptor of nested unions took 6.6 s, issue 37, finding 13).
function canonical(d, memo = null) {
  if (Array.isArray(d)) return `[${d.map((x) => canonical(x, memo)).join(',')}]`;
  if (d === null || typeof d !== 'object') return JSON.stringify(d);
  if (memo !== null) {
    const known = memo.get(d);
    if (known !== undefined) return known;
  }
  const keys = Object.keys(d)
    .filter((k) => !(k === 'strict' && d[k] === false && d.type === 'object'))
    .sort();
  const valueIsData = VALUE_TYPES.has(d.type);
  const text = `{${keys.map((k) => `${JSON.stringify(k)}:${k === 'value' && valueIsData ? JSON.stringify(d[k]) : canonical(d[k], memo)}`).join(',')}}`;
  if (memo !== null) memo.set(d, text);
  return text;
}

/** The fingerprint of a (JSON-parsed, compiled) descriptor. */
function fingerprint(d) {
  return sha256Hex(canonical(d)).slice(0, 16);
}

module.exports = { canonical, fingerprint };
