'use strict';
// The schema builders. Each returns a plain JSON-serialisable descriptor (docs/FORMAT.md,
// "Descriptors"), so a schema can be stored, sent and compiled again after
// JSON.parse(JSON.stringify(d)).

const { ShornError } = require('./errors');

function schemaError(message) {
  return new ShornError('ERR_SHORN_SCHEMA', `invalid schema: ${message}`);
}

const scalar = (type) => () => ({ type });

const t = {
  bool: scalar('bool'),
  uint8: scalar('uint8'),
  uint16: scalar('uint16'),
  uint32: scalar('uint32'),
  int8: scalar('int8'),
  int16: scalar('int16'),
  int32: scalar('int32'),
  float32: scalar('float32'),
  float64: scalar('float64'),
  string: scalar('string'),
  bytes: scalar('bytes'),
  enum(values) {
    if (!Array.isArray(values)) throw schemaError('t.enum takes an array of strings');
    return { type: 'enum', values: [...values] };
  },
  array(items) {
    return { type: 'array', items };
  },
  object(fields, options = {}) {
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
      throw schemaError('t.object takes an object of { name: type }');
    }
    // Own keys in JS order: that order is the field order on the wire.
    const list = Object.keys(fields).map((name) => ({ name, schema: fields[name] }));
    return { type: 'object', fields: list, strict: options.strict === true };
  },
  optional(of) {
    return { type: 'optional', of };
  },
  nullable(of) {
    return { type: 'nullable', of };
  },
};

module.exports = { t };
