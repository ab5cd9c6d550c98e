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

// The most descriptors that one generated function may put or take (not counting those in
// the helper functions it calls): more would pass V8's limits. V8 gives every local of a
// function its own 8-byte register in the frame, for the whole call: an object of 10,000
// uint8 fields had a decode frame of 160 KB, and 62,800 overflowed Node's ~984 KB stack on
// use; at 65,535 fields, the constructor of its decoded objects (lib/codegen.js,
// `construct`) took more than V8's 65,534 parameters (a SyntaxError at compile). Frames
// measured up to ~20 bytes a descriptor (an object of 2,000 fields of arrays of uint8,
// 4,001 descriptors: 80 KB), so 2,048 keep one within ~40 KB; the benchmark's schemas
// have at most ~700 descriptors in all (github_events), split into functions of far
// fewer. A part of a schema past it is handed to the generic marshaller (`handedOff`).
const MAX_FUNCTION_NODES = 2048;

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
 * `uses64` (int64/uint64 present), `handsOff` (recursive, json or a part handed off
 * present), `split` (a large schema, generated as one function per object shape),
 * `handedOff` (the nodes generated code hands to the generic marshaller as it hands
 * recursive and json values: each smallest part whose descriptors would be more than
 * MAX_FUNCTION_NODES in one generated function), `json` (a json value present: the
 * native back end's encode gives a lone surrogate in one its own path, Marshaller#lonePath).
 */
function analyze(descriptor) {
  const paths = new Map();
  const refs = new Map();
  let strings = 0;
  let blobs = 0;
  let fixed = true;
  let uses64 = false;
  let handsOff = false;
  let recursive = false;
  let json = false;
  let nodes = 0;
  const scopes = [];
  const handedOff = new Set();
  // Returns how many descriptors `d` puts in its parent's generated function: 1 for a
  // hand-off or a call of a helper function (an object of 3 or more fields below the
  // root, but not under a nullable, which generates it inline: lib/codegen.js, `helps`;
  // a schema with any part over MAX_FUNCTION_NODES is split), else its own and those
  // of its children.
  (function visit(d, path, inVariable, depth, underNullable) {
    if (depth > MAX_DEPTH) return 1;
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
    if (d.type === 'recursive') recursive = true;
    if (d.type === 'json') json = true;
    if (d.type === 'ref') {
      for (let k = scopes.length - 1; k >= 0; k--) {
        if (scopes[k].name === d.name) {
          refs.set(d, scopes[k]);
          break;
        }
      }
      return 1;
    }
    if (d.type === 'recursive') scopes.push(d);
    let inline = 1;
    for (const [child, segment] of def.children(d)) {
      inline += visit(child, path + segment, inVariable || def.variable === true, depth + 1, d.type === 'nullable');
    }
    if (d.type === 'recursive') {
      scopes.pop();
      return 1;
    }
    // A nullable's own error names its inner type with null (`expected object or null`),
    // which the generic marshaller says only when handed the nullable.
    if (inline > MAX_FUNCTION_NODES || (d.type === 'nullable' && handedOff.delete(d.of))) {
      handedOff.add(d);
      return 1;
    }
    return depth > 0 && !underNullable && d.type === 'object' && d.fields.length >= 3 ? 1 : inline;
  })(descriptor, '$', false, 0, false);
  if (handedOff.size > 0) {
    handsOff = true;
    fixed = false;
  }
  // A recursive definition's values are taken by a function of its own, which reads the
  // cursors helper functions share (lib/codegen.js, `takeDefinition`).
  const split = nodes > SPLIT_NODES || recursive;
  // Helper functions pass strings on in one concatenated string.
  const positional = fixed && strings + blobs <= MAX_ARGS && !split;
  return { paths, refs, layout: { positional, strings, blobs }, uses64, handsOff, split, handedOff, json };
}

module.exports = { walk, analyze, tooDeep, MAX_ARGS, MAX_SCHEMA_DEPTH: MAX_DEPTH, MAX_FUNCTION_NODES };
