'use strict';
// The one walker over descriptors, and what the drivers learn from one walk: the static
// path of every node, the definition each ref names, and how strings and byte arrays
// travel to the native side. Each type says what its children are (lib/types/).

const { TYPES } = require('./types');
const { ShornError } = require('./errors');

// How deep descriptors may nest (src/types/mod.rs, MAX_SCHEMA_DEPTH): the root is at depth
// 0, and a descriptor at depth 65 is refused. Every layer that recurses over a descriptor
// (the compilers, the marshallers, fingerprints, lib/evolve.js, fromZod) is bounded by it.
// JSON.stringify alone overflowed the stack at ~5,000 levels of arrays (a ShornError that
// read "Maximum call stack size exceeded"), fromZod at ~5,000 levels of z.array().
const MAX_DEPTH = 64;

/** The error for a descriptor at `path` deeper than MAX_DEPTH, as the native compiler words it. */
function tooDeep(path) {
  return new ShornError('ERR_SHORN_SCHEMA', `invalid schema at ${path}: nested deeper than ${MAX_DEPTH} levels`, { path });
}

// The most arguments one native call carries (src/binding/mod.rs, MAX_ARGS).
const MAX_ARGS = 16;

// Schemas of more descriptors than this get their generated code split into a function
// per object shape (lib/codegen.js, `helps`): twitter's statuses (~300 descriptors) and
// github_events (~700) made functions V8 optimized late or never; nestedEvent has 16.
const SPLIT_NODES = 120;

/**
 * Calls `visit(d, path, def)` for `d` and every descriptor under it, parents first. A
 * descriptor deeper than MAX_DEPTH is ERR_SHORN_SCHEMA; one met again inside itself (a
 * circular descriptor) is not walked again, and JSON.stringify names it.
 */
function walk(d, visit, path = '$', depth = 0, open = new Set()) {
  if (typeof d !== 'object' || d === null) {
    visit(d, path, undefined);
    return;
  }
  if (open.has(d)) return;
  if (depth > MAX_DEPTH) throw tooDeep(path);
  const def = TYPES.get(d.type);
  visit(d, path, def);
  if (def === undefined) return;
  open.add(d);
  for (const [child, segment] of def.children(d)) walk(child, visit, path + segment, depth + 1, open);
  open.delete(d);
}

/**
 * What the marshallers need to know of a descriptor the native compiler has validated:
 * `paths` (node -> its static path, `[]` for any item), `refs` (ref node -> the
 * recursive node it names), `layout` (strings and byte arrays as positional arguments
 * when their number is fixed and small, else one concatenated string and one array),
 * `uses64` (int64/uint64 present), `handsOff` (recursive or json present), `split` (a
 * large schema, generated as one function per object shape).
 */
function analyze(descriptor) {
  const paths = new Map();
  const refs = new Map();
  let strings = 0;
  let blobs = 0;
  let fixed = true;
  let uses64 = false;
  let handsOff = false;
  let nodes = 0;
  const scopes = [];
  (function visit(d, path, inVariable, depth) {
    if (depth > MAX_DEPTH) return;
    const def = TYPES.get(d.type);
    nodes++;
    paths.set(d, path);
    if (def.strings || def.blobs) {
      strings += def.strings || 0;
      blobs += def.blobs || 0;
      if (inVariable) fixed = false;
    }
    if (def.uses64) uses64 = true;
    if (d.type === 'record' || d.type === 'json' || d.type === 'recursive') fixed = false;
    if (d.type === 'json' || d.type === 'recursive') handsOff = true;
    if (d.type === 'ref') {
      for (let k = scopes.length - 1; k >= 0; k--) {
        if (scopes[k].name === d.name) {
          refs.set(d, scopes[k]);
          break;
        }
      }
      return;
    }
    if (d.type === 'recursive') scopes.push(d);
    for (const [child, segment] of def.children(d)) visit(child, path + segment, inVariable || def.variable === true, depth + 1);
    if (d.type === 'recursive') scopes.pop();
  })(descriptor, '$', false, 0);
  const split = nodes > SPLIT_NODES;
  // Helper functions pass strings on in one concatenated string.
  const positional = fixed && strings + blobs <= MAX_ARGS && !split;
  return { paths, refs, layout: { positional, strings, blobs }, uses64, handsOff, split };
}

module.exports = { walk, analyze, tooDeep, MAX_ARGS, MAX_SCHEMA_DEPTH: MAX_DEPTH };
