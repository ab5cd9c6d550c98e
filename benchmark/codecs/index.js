'use strict';
// The codec registry: names in table-column order, and the one way children build a codec.

const CODEC_NAMES = ['json-string', 'json-bytes', 'avsc', 'msgpackr', 'schemapack', 'protobufjs', 'shorn'];
// Codecs with nothing to construct, left out of the cold-setup table.
const SCHEMALESS = new Set(['json-string', 'json-bytes']);
const hasSchema = (name) => !SCHEMALESS.has(name);

// Codecs a child can run that no column of run.js's tables has (benchmark/json-mode.js,
// benchmark/backends.js).
const EXTRA_CODECS = ['shorn-json', 'msgpackr-plain', 'shorn-js', 'msgpackr-js'];

function loadAdapter(name) {
  if (!CODEC_NAMES.includes(name) && !EXTRA_CODECS.includes(name)) {
    throw new Error(`unknown codec '${name}' (known: ${[...CODEC_NAMES, ...EXTRA_CODECS].join(', ')})`);
  }
  return require(`./${name}`);
}

const identity = (value) => value;

// Builds the codec a child times: the adapter's own, plus zod on both sides for fixtures that
// ask for validation (unless the codec validates with its own schema), plus defaults for the
// optional `size`, `prepare` (the fixture value as this codec takes it, made before anything is
// timed) and `normalize` (the decoded value as the round-trip check compares it, untimed).
function buildCodec(adapter, fixture, savedState) {
  const codec = adapter.setup(fixture, savedState);
  const built = {
    encode: codec.encode,
    decode: codec.decode,
    size: codec.size || ((encoded) => encoded.length),
    prepare: codec.prepare || identity,
    normalize: codec.normalize || identity,
    exportState: codec.exportState,
    // Encode without validation, for the messages a validating decode must refuse (untimed).
    encodeUnchecked: codec.encodeUnchecked || codec.encode,
  };
  if (fixture.zod && !adapter.validatesItself) {
    const schema = fixture.zod(require('zod').z);
    built.encode = (value) => codec.encode(schema.parse(value));
    built.decode = (encoded) => schema.parse(codec.decode(encoded));
  }
  return built;
}

module.exports = { CODEC_NAMES, hasSchema, loadAdapter, buildCodec };
