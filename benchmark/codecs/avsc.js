'use strict';
// avsc: Avro with generated code; uint32 as Avro long, enums as Avro enums (see fixtures.js).
const avro = require('avsc');

// fromBuffer returns instances of generated Record classes; the round-trip check compares them
// as plain data, which is what the caller gets to read.
function toPlain(value) {
  if (Array.isArray(value)) return value.map(toPlain);
  if (value === null || typeof value !== 'object') return value;
  const plain = {};
  for (const key of Object.keys(value)) plain[key] = toPlain(value[key]);
  return plain;
}

module.exports = {
  name: 'avsc',
  // `logicalTypes`, `toAvro` and `fromAvro` come from corpora.js, for what Avro cannot express
  // (names that are not Avro names, absent keys, a union of records told apart by a field).
  setup(fixture) {
    const { schema, logicalTypes, toAvro, fromAvro } = fixture.schemas.avsc;
    const type = avro.Type.forSchema(schema, logicalTypes ? { logicalTypes: logicalTypes(avro) } : undefined);
    return {
      encode: (value) => type.toBuffer(value),
      decode: (bytes) => type.fromBuffer(bytes),
      prepare: toAvro,
      normalize: fromAvro ? (decoded) => fromAvro(toPlain(decoded)) : toPlain,
    };
  },
};
