'use strict';
// Typed arrays (src/types/typed_array.rs): a varint count, then the elements little-endian.
// Encode passes the caller's array to the native side, which copies its memory once;
// decode copies the elements from the input into a new, aligned array of the class.
// Arrays are recognised by their internal slot (the %TypedArray% toStringTag getter
// captured at load), not by instanceof or anything a Proxy or subclass can fake.

const rt = require('#runtime');
const { floatToJson, floatFromJson } = require('./float');

const CLASSES = [
  ['float64Array', Float64Array],
  ['float32Array', Float32Array],
  ['int32Array', Int32Array],
  ['uint32Array', Uint32Array],
  ['int16Array', Int16Array],
  ['uint16Array', Uint16Array],
  ['int8Array', Int8Array],
];

module.exports = CLASSES.map(([name, Class]) => {
  const tag = Class.name;
  return {
    name,
    build: () => ({ type: name }),
    expected: () => tag,
    slots: () => 0,
    blobs: 1,
    test: (d, x) => rt.typedKind(x) === tag,
    put(c, d, x, shown) {
      if (rt.typedKind(x) !== tag) throw c.fail(shown, x);
      c.blob(x);
    },
    // JSON form: an array of the elements (floats as float32/float64 write them).
    toJson: (d, x) => (rt.typedKind(x) === tag ? Array.from(x, floatToJson) : x),
    fromJson: (d, j) => (Array.isArray(j) && j.every((v) => typeof floatFromJson(v) === 'number') ? Class.from(j, floatFromJson) : j),
    kinds: 'object',
    lower: () => ({ op: 'typed', Class, tag }),
    minBytes: () => 1,
  };
});

module.exports.CLASSES = CLASSES;
