'use strict';

const { types, Buffer } = require('#host');

// Intrinsics, so describing a value runs none of its own code.
const typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
const typedArrayLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'length').get;
const dateGetTime = Date.prototype.getTime;
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, 'size').get;

/**
 * Every error shorn throws. `code` says which kind (see docs/FORMAT.md, "Errors");
 * encode errors carry `path` (like `$.user.tags[2]`), decode errors `offset` and `path`.
 */
class ShornError extends Error {
  constructor(code, message, details) {
    super(message);
    this.code = code;
    if (details !== undefined) {
      if (details.path !== undefined) this.path = details.path;
      if (details.offset !== undefined) this.offset = details.offset;
    }
  }

  get name() {
    return 'ShornError';
  }
}

// The issue code of an error (what `codec.check` and `codec.safeDecode` report: `too_big`,
// `invalid_format`, ...), kept off the error's visible properties.
const ISSUE = Symbol('shorn.issue');

// Called by the native layer (and the JS layer) to build every error, so all of them are
// ShornError instances whatever side found the fault. `issue` comes with a constraint a
// decoded value breaks.
function makeError(code, message, offset, path, issue) {
  const error = new ShornError(code, message, { offset, path });
  if (issue !== undefined) error[ISSUE] = issue;
  return error;
}

// The issue code of ShornError `e` (docs/FORMAT.md, "Constraints"): the constraint's for a
// value that breaks one; else by what failed.
const ISSUE_OF_CODE = {
  ERR_SHORN_TRUNCATED: 'truncated',
  ERR_SHORN_TRAILING: 'trailing',
  ERR_SHORN_MALFORMED: 'malformed',
  ERR_SHORN_LIMIT: 'limit',
};
function issueOf(e) {
  return e[ISSUE] || ISSUE_OF_CODE[e.code] || 'invalid_type';
}

// A short description of what was found, for ERR_SHORN_INVALID messages.
/**
 * The name of the class of object `value` (not a Proxy), read without running any of its
 * code: its prototype's own `constructor`, a function, and that function's own `name`, a
 * non-empty string; else null. (`value.constructor.name` ran getters on the way and coerced
 * a name that was not a string, whose toString could run or throw.)
 */
function className(value) {
  const proto = Object.getPrototypeOf(value);
  if (proto === null) return null;
  const c = Object.getOwnPropertyDescriptor(proto, 'constructor');
  if (c === undefined || typeof c.value !== 'function' || types.isProxy(c.value)) return null;
  const name = Object.getOwnPropertyDescriptor(c.value, 'name');
  return name !== undefined && typeof name.value === 'string' && name.value !== '' ? name.value : null;
}

function describe(value) {
  if (value === null) return 'null';
  // A Proxy is named as one: looking further would run its traps.
  if (types.isProxy(value)) return 'Proxy';
  if (Array.isArray(value)) return `array (length ${value.length})`;
  if (types.isTypedArray(value)) {
    const tag = typedArrayTag.call(value);
    return `${tag === 'Uint8Array' && Buffer !== null && value instanceof Buffer ? 'Buffer' : tag} (length ${typedArrayLength.call(value)})`;
  }
  if (types.isDate(value)) {
    const ms = dateGetTime.call(value);
    return ms === ms ? `Date ${new Date(ms).toISOString()}` : 'Date (invalid)';
  }
  if (types.isMap(value)) return `Map (size ${mapSize.call(value)})`;
  switch (typeof value) {
    case 'number':
      return `number ${Object.is(value, -0) ? '-0' : value}`;
    case 'string':
      return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'boolean':
      return `boolean ${value}`;
    case 'bigint':
      return `bigint ${value}n`;
    case 'undefined':
      return 'undefined';
    case 'object': {
      const name = className(value);
      return name !== null && name !== 'Object' ? `object (${name})` : 'object';
    }
    default:
      return typeof value;
  }
}

function invalid(path, expected, found) {
  return new ShornError('ERR_SHORN_INVALID', `${path}: expected ${expected}, found ${describe(found)}`, { path });
}

// A value that breaks a constraint of its type: `broken` is what the type's `violation`
// said ({ issue, expected, found }).
function violation(path, broken) {
  const error = new ShornError('ERR_SHORN_INVALID', `${path}: expected ${broken.expected}, found ${broken.found}`, { path });
  error[ISSUE] = broken.issue;
  return error;
}

// The path syntax shared with the Rust core (src/codec/error.rs): `.name` for identifier
// names, `["any name"]` otherwise, `[index]` for array items.
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
function pathKey(name) {
  return IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

module.exports = { ShornError, ISSUE, makeError, issueOf, invalid, violation, describe, pathKey };
