'use strict';
// The lowering of a descriptor into operations, each type's by its own `lower` member
// (lib/types/): a small set, the shape of the Rust core's Program (src/program.rs) —
// leaves (`bool`, the integers, floats, `date`, `string`, `bytes`, `typed`, `enum`,
// `const`, `json`), `array`, `tuple`, `object` (fields, each plain, optional or with a
// default), `presence` (nullable), `default`, `record`, `map` (entries), `union` and
// `tagged` (branches), and `call` (a recursive definition). Each operation also holds its
// descriptor (`d`) and whether it has constraints (`checked`). Back ends run over it:
// lib/closures.js (the JS back end, with or without code generation) and lib/small.js
// (the generated JS read and write of small messages, lib/codegen.js). This is the
// driver; it knows no type.

const { TYPES } = require('./types');
const { constraintsOf } = require('./constraints');

// src/types/*.rs: the estimated JS heap of decoded values (docs/FORMAT.md, "Limits").
const HEAP_NUMBER = 16;
const HEAP = { string: 40, bytes: 216, date: 96, int64: 32, array: 48, item: 11, object: 24, field: 8, record: 64, entry: 56, map: 208, mapEntry: 40 };
const NUMBERS = new Set(['uint8', 'uint16', 'uint32', 'int8', 'int16', 'int32', 'int', 'float32', 'float64']);
const TYPED = new Set(['float64Array', 'float32Array', 'int32Array', 'uint32Array', 'int16Array', 'uint16Array', 'int8Array']);

/** `heap_cost` of src/types/mod.rs: the estimated JS heap one value of `d` takes. */
function heapCost(d) {
  const t = d.type;
  if (NUMBERS.has(t)) return HEAP_NUMBER;
  if (TYPED.has(t) || t === 'bytes') return HEAP.bytes;
  switch (t) {
    case 'int64':
    case 'uint64':
      return HEAP.int64;
    case 'date':
      return HEAP.date;
    case 'string':
      return HEAP.string;
    case 'array':
      return HEAP.array;
    case 'tuple':
      return d.items.reduce((n, item) => n + HEAP.item + elementCost(item), HEAP.array);
    case 'object':
      return d.fields.reduce((n, f) => n + HEAP.field + heapCost(f.schema), HEAP.object);
    case 'record':
      return HEAP.record;
    case 'map':
      return HEAP.map;
    case 'default':
      return heapCost(d.of);
    default:
      return 0;
  }
}

/** `element_cost`: an array's numbers are unboxed. */
function elementCost(d) {
  return NUMBERS.has(d.type) ? 0 : heapCost(d);
}

/** What each item of array `d`, or each entry of record or map `d`, costs (`item_cost`, `entry_cost`). */
function countCost(d) {
  if (d.type === 'array') return HEAP.item + elementCost(d.items);
  if (d.type === 'record') return HEAP.entry + heapCost(d.values);
  return HEAP.mapEntry + heapCost(d.keys) + heapCost(d.values);
}

// The kinds of JS value by `typeof`, with null, and arrays apart from other objects, a
// kind's bit being 1 << its index here. A union whose variants take values of different
// kinds only (each type says which it may take, its `kinds`: a kind's name, or a function
// giving their bits; a type that says nothing may take any) writes a value by the one
// variant of its kind (`kindOf`), instead of testing each variant in turn.
const KINDS = ['number', 'string', 'boolean', 'bigint', 'null', 'undefined', 'object', 'other', 'array'];
const ANY_KIND = 511;
const kindBit = (name) => 1 << KINDS.indexOf(name);
// An array whose prototype is not Array.prototype (a record takes one whose prototype is
// Object.prototype): of no kind here, tested variant by variant.
const EXOTIC = -1;
const isArray = Array.isArray;
const getPrototypeOf = Object.getPrototypeOf;
const ArrayPrototype = Array.prototype;

/** The index of `x`'s kind in KINDS, or EXOTIC. */
function kindOf(x) {
  switch (typeof x) {
    case 'number':
      return 0;
    case 'string':
      return 1;
    case 'boolean':
      return 2;
    case 'bigint':
      return 3;
    case 'object':
      if (x === null) return 4;
      if (!isArray(x)) return 6;
      return getPrototypeOf(x) === ArrayPrototype ? 8 : EXOTIC;
    case 'undefined':
      return 5;
    default:
      return 7;
  }
}

/**
 * For a union of descriptors `ds` whose kinds (`kinds(d)`, bits) do not overlap: the
 * variant index for each kind's index (KINDS), -1 for a kind no variant takes; else null.
 */
function variantsByKind(ds, kinds) {
  const byKind = new Array(KINDS.length).fill(-1);
  let seen = 0;
  for (let k = 0; k < ds.length; k++) {
    const bits = kinds(ds[k]);
    if ((seen & bits) !== 0) return null;
    seen |= bits;
    for (let i = 0; i < KINDS.length; i++) if ((bits & (1 << i)) !== 0) byKind[i] = k;
  }
  return byKind;
}

/**
 * What each type's `kinds` is given: `kinds(d)`, the kinds of a value of `d` (bits of
 * KINDS), `kind(name)`, a kind's bit, and `target(ref)`, a ref's definition.
 */
function kindsOf(target) {
  // The recursive definitions whose kinds are being worked out (one met again may take
  // any kind its body does: any, here).
  const inKinds = new Set();
  const K = {
    kind: kindBit,
    target,
    kinds(d) {
      const of = TYPES.get(d.type).kinds;
      if (of === undefined || inKinds.has(d)) return ANY_KIND;
      if (typeof of === 'string') return kindBit(of);
      inKinds.add(d);
      try {
        return of(d, K);
      } finally {
        inKinds.delete(d);
      }
    },
  };
  return K;
}

/**
 * A lowering: `node(d)` gives descriptor `d`'s operation, made once for each descriptor
 * (a recursive definition's `call` refers to the definition's operation, made once).
 * `m`: the codec's marshaller (enum indexes, variant tests, defaults); `sizes`: what
 * gives the fewest bytes of a value (`minBytes(d)`, as `shorn inspect` computes it).
 */
function lowering(m, sizes) {
  const done = new Map();
  const calls = new Map();
  const K = kindsOf((ref) => m.target(ref));
  const L = {
    m,
    node(d) {
      let op = done.get(d);
      if (op === undefined) {
        op = TYPES.get(d.type).lower(d, L);
        op.d = d;
        op.checked = constraintsOf(d).length > 0;
        done.set(d, op);
      }
      return op;
    },
    /**
     * A recursive definition `def` (its `recursive` descriptor), called: an operation of
     * its own for each descriptor that calls it (so that its `d` is that descriptor), whose
     * `body`, the definition's, is lowered once, and may still be being lowered when a
     * call inside it is made.
     */
    call(def) {
      let made = calls.get(def);
      if (made === undefined) {
        made = { body: null, cost: heapCost(def.schema) };
        calls.set(def, made);
        made.body = L.node(def.schema);
      }
      return {
        op: 'call',
        def,
        get body() {
          return made.body;
        },
        cost: made.cost,
      };
    },
    /** For union variants `ds`, `variantsByKind` by their kinds (`kindsOf`). */
    variantsByKind: (ds) => variantsByKind(ds, K.kinds),
    target: (ref) => m.target(ref),
    minBytes: (d) => sizes.minBytes(d),
    cost: heapCost,
    itemCost: (d) => HEAP.item + elementCost(d),
    entryCost: countCost,
  };
  return L;
}

module.exports = { lowering, heapCost, countCost, kindOf, kindsOf, variantsByKind, EXOTIC, HEAP, HEAP_NUMBER, TYPED };
