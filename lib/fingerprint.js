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

const crypto = require('node:crypto');

const VALUE_TYPES = new Set(['literal', 'default']);

function canonical(d) {
  if (Array.isArray(d)) return `[${d.map(canonical).join(',')}]`;
  if (d === null || typeof d !== 'object') return JSON.stringify(d);
  const keys = Object.keys(d)
    .filter((k) => !(k === 'strict' && d[k] === false && d.type === 'object'))
    .sort();
  const valueIsData = VALUE_TYPES.has(d.type);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${k === 'value' && valueIsData ? JSON.stringify(d[k]) : canonical(d[k])}`).join(',')}}`;
}

/** The fingerprint of a (JSON-parsed, compiled) descriptor. */
function fingerprint(d) {
  return crypto.createHash('sha256').update(canonical(d), 'utf8').digest('hex').slice(0, 16);
}

module.exports = { canonical, fingerprint };
