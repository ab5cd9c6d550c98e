'use strict';
// Names the first place two values differ, so a failed round trip says where and how
// (`$.user.tags[2]: expected "ios", got "io"`) instead of only "not equal".
const { isDeepStrictEqual, inspect } = require('node:util');

// inspect names a class instance or a null-prototype object, which deep equality also rejects.
const show = (value) => inspect(value, { depth: 1, breakLength: Infinity, maxStringLength: 60 });

function firstDifference(expected, actual, path = '$') {
  if (isDeepStrictEqual(expected, actual)) return null;
  const bothObjects = expected !== null && actual !== null && typeof expected === 'object' && typeof actual === 'object';
  if (!bothObjects || Object.getPrototypeOf(expected) !== Object.getPrototypeOf(actual)) {
    return `${path}: expected ${show(expected)}, got ${show(actual)}`;
  }
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  for (const key of keys) {
    const childPath = Array.isArray(expected) ? `${path}[${key}]` : `${path}.${key}`;
    if (!(key in actual)) return `${childPath}: missing`;
    if (!(key in expected)) return `${childPath}: unexpected ${show(actual[key])}`;
    const found = firstDifference(expected[key], actual[key], childPath);
    if (found) return found;
  }
  return `${path}: differs (${show(actual)})`;
}

module.exports = { firstDifference };
