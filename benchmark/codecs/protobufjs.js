'use strict';
// protobufjs: proto3 messages parsed from .proto text, with fromObject/toObject so it takes and
// returns the same plain values as every other codec.
const protobuf = require('protobufjs');

const TO_OBJECT = {
  enums: String, // enum names, which are the fixture's strings
  longs: Number, // plain numbers should a 64-bit field ever appear
  defaults: true, // proto3 omits 0, '' and false on the wire; give them back
};

module.exports = {
  name: 'protobufjs',
  setup(fixture) {
    const { source, type, wrapperField } = fixture.schemas.protobuf;
    const Message = protobuf.parse(source).root.lookupType(type);
    const encodeMessage = (object) => Message.encode(Message.fromObject(object)).finish();
    const decodeMessage = (bytes) => Message.toObject(Message.decode(bytes), TO_OBJECT);
    if (!wrapperField) return { encode: encodeMessage, decode: decodeMessage };
    // Arrays travel in a wrapper message; wrapping and unwrapping are part of the operation.
    return {
      encode: (array) => encodeMessage({ [wrapperField]: array }),
      decode: (bytes) => decodeMessage(bytes)[wrapperField],
    };
  },
};
