'use strict';
// What both marshallers (generated and generic) need to know about a descriptor that the
// native compiler has already validated: value checks, tape sizes, argument layout.

const INTEGER_RANGES = {
  uint8: [0, 255],
  uint16: [0, 65535],
  uint32: [0, 4294967295],
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
};

// `x` is an integer of `type`'s range, written as one bit operation the way V8 inlines
// best. The bit operation alone also rejects non-numbers (`'5' >>> 0 !== '5'`); the typeof
// guard keeps valueOf() of objects from running.
const INTEGER_TEST = {
  uint8: (x) => `(typeof ${x} === 'number' && (${x} & 255) === ${x})`,
  uint16: (x) => `(typeof ${x} === 'number' && (${x} & 65535) === ${x})`,
  uint32: (x) => `(typeof ${x} === 'number' && (${x} >>> 0) === ${x})`,
  int8: (x) => `(typeof ${x} === 'number' && ((${x} << 24) >> 24) === ${x})`,
  int16: (x) => `(typeof ${x} === 'number' && ((${x} << 16) >> 16) === ${x})`,
  int32: (x) => `(typeof ${x} === 'number' && (${x} | 0) === ${x})`,
};

const isInteger = {
  uint8: (x) => typeof x === 'number' && (x & 255) === x,
  uint16: (x) => typeof x === 'number' && (x & 65535) === x,
  uint32: (x) => typeof x === 'number' && x >>> 0 === x,
  int8: (x) => typeof x === 'number' && (x << 24) >> 24 === x,
  int16: (x) => typeof x === 'number' && (x << 16) >> 16 === x,
  int32: (x) => typeof x === 'number' && (x | 0) === x,
};

function expected(d) {
  switch (d.type) {
    case 'bool':
      return 'boolean';
    case 'float32':
    case 'float64':
      return `number (${d.type})`;
    case 'string':
      return 'string';
    case 'bytes':
      return 'Uint8Array';
    case 'enum':
      return `one of ${d.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'array':
      return 'array';
    case 'object':
      return 'object';
    case 'nullable':
      return `${expected(d.of)} or null`;
    default: {
      const [lo, hi] = INTEGER_RANGES[d.type];
      return `${d.type} (integer ${lo} to ${hi})`;
    }
  }
}

// Tape slots a value of `d` writes on encode, not counting the items of nested arrays
// (each array reserves room for its own items before its loop).
function staticSlots(d) {
  switch (d.type) {
    case 'bytes':
      return 0;
    case 'object':
      return d.fields.reduce((n, f) => n + staticSlots(f.schema), 0);
    case 'optional':
    case 'nullable':
      return 1 + staticSlots(d.of);
    default:
      return 1;
  }
}

// The most arguments one native call carries; the native side has the same constant.
const MAX_ARGS = 16;

// Strings and byte arrays travel as call arguments when their number is fixed (none sits
// inside an array) and small; otherwise as one concatenated string and one array.
function argumentLayout(d) {
  let strings = 0;
  let blobs = 0;
  let fixed = true;
  (function walk(node, inArray) {
    switch (node.type) {
      case 'string':
        if (inArray) fixed = false;
        strings++;
        break;
      case 'bytes':
        if (inArray) fixed = false;
        blobs++;
        break;
      case 'array':
        walk(node.items, true);
        break;
      case 'object':
        for (const f of node.fields) walk(f.schema, inArray);
        break;
      case 'optional':
      case 'nullable':
        walk(node.of, inArray);
        break;
      default:
    }
  })(d, false);
  const positional = fixed && strings + blobs <= MAX_ARGS;
  return { positional, strings, blobs };
}

// Inputs up to this many bytes are copied by JS into the native input area for
// `decodeInput`: a JS copy of a few dozen bytes is cheaper than the ~20 ns it takes native
// code to look into a caller's Uint8Array.
const SMALL_INPUT = 24;

// A tape grown past this many slots (2 MiB) is given back once a call needs less than a
// quarter of it, so one huge message does not pin its tape for the life of the process,
// while a stream of huge messages does not reallocate it every time. Same value as
// KEEP_TAPE_SLOTS in src/binding.rs.
const KEEP_TAPE_SLOTS = 1 << 18;

// Names that plain objects inherit from Object.prototype: a field with one of these names
// is read only as an own property, so a missing optional `toString` is absent, not a
// function, and `__proto__` never reaches the prototype.
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

module.exports = { INTEGER_TEST, isInteger, expected, staticSlots, argumentLayout, INHERITED, MAX_ARGS, SMALL_INPUT, KEEP_TAPE_SLOTS };
