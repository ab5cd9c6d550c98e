'use strict';
// The self-identifying envelope (docs/FORMAT.md, "Envelope"): a magic byte (0xF5, never a
// byte of UTF-8 text, so JSON or text sent by mistake is told apart at its first byte), a
// format version (1), the writer schema's fingerprint as 8 bytes, then the message as
// `codec.encode` writes it. `createRegistry` knows the writer schemas a transport may
// carry and decodes an envelope of any of them into the shape a reader asks for.

const { ShornError, describe } = require('./errors');
const rt = require('#runtime');
const host = require('#host');

const MAGIC = 0xf5;
const VERSION = 1;
const HEADER = 10;

function malformed(message, offset) {
  return new ShornError('ERR_SHORN_MALFORMED', message, { offset });
}

// Fingerprint -> the 8 bytes' two 32-bit halves.
function halves(fp) {
  return [parseInt(fp.slice(0, 8), 16), parseInt(fp.slice(8), 16)];
}

function hex(hi, lo) {
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

// Envelope offsets are the message's plus the header: an error from the message's decode
// is moved onto the envelope's bytes.
function shift(e) {
  if (e instanceof ShornError && typeof e.offset === 'number') {
    const old = e.message;
    // Only the offset the error is about: the first "at offset N" naming it. Quoted data
    // and paths come after it and may say "offset" too (issue 37, finding 13).
    const said = `at offset ${e.offset}`;
    e.offset += HEADER;
    e.message = old.replace(said, `at offset ${e.offset}`);
    if (typeof e.stack === 'string') e.stack = e.stack.replace(old, e.message);
  }
  return e;
}

// `v` big-endian at `at` of `out`, byte by byte: a Buffer in Node, a Uint8Array in a
// browser or worker build (lib/host-browser.js `alloc`), which has no writeUInt32BE.
function putUint32(out, at, v) {
  out[at] = v >>> 24;
  out[at + 1] = (v >>> 16) & 255;
  out[at + 2] = (v >>> 8) & 255;
  out[at + 3] = v & 255;
}

/**
 * Makes registries; `api` is the package's own exports (compile, Codec, and `optionsOf`, a
 * codec's compile options by name), passed in to keep this module free of a require cycle.
 */
function registries(api) {
  const { compile, Codec, optionsOf } = api;

  // The first compile option in which codecs `a` and `b` differ (`name a vs b`), or null.
  function differentOptions(a, b) {
    const [p, q] = [optionsOf(a), optionsOf(b)];
    const shown = (v) => (v === -1 ? 'the default' : String(v));
    for (const key of Object.keys(p)) if (p[key] !== q[key]) return `${key} ${shown(p[key])} vs ${shown(q[key])}`;
    return null;
  }

  class Registry {
    constructor(schemas, options) {
      if (!Array.isArray(schemas)) throw new ShornError('ERR_SHORN_SCHEMA', 'createRegistry takes an array of schemas (descriptors or codecs)');
      this.options = options;
      // Fingerprint halves -> codec, for the decode path (no string made per message).
      this.byHalves = new Map();
      // Descriptor or codec object -> codec, for encode and for readers named by object.
      this.byObject = new WeakMap();
      this.byFingerprint = new Map();
      // Reader codec -> (writer fingerprint -> decode).
      this.readers = new WeakMap();
      for (const s of schemas) this.add(s);
      Object.freeze(this);
    }

    /** Adds a writer schema (a descriptor or a Codec); returns its codec. */
    add(schema) {
      const known = this.codec(schema);
      if (known !== undefined) return known;
      const codec = schema instanceof Codec ? schema : compile(schema, this.options);
      const have = this.byFingerprint.get(codec.fingerprint);
      if (have !== undefined) {
        // One fingerprint, one codec: two compiled with other limits would make the
        // registry's behaviour depend on their order (issue 37, finding 13).
        const differs = differentOptions(have, codec);
        if (differs !== null) {
          throw new ShornError('ERR_SHORN_SCHEMA', `createRegistry: two codecs of schema ${codec.fingerprint} were compiled with different options (${differs}); give one codec per schema`);
        }
        this.byObject.set(schema, have);
        return have;
      }
      const [hi, lo] = halves(codec.fingerprint);
      let inner = this.byHalves.get(hi);
      if (inner === undefined) this.byHalves.set(hi, (inner = new Map()));
      inner.set(lo, codec);
      this.byFingerprint.set(codec.fingerprint, codec);
      this.byObject.set(schema, codec);
      return codec;
    }

    codec(schema) {
      if (typeof schema !== 'object' || schema === null) {
        throw new ShornError('ERR_SHORN_SCHEMA', `expected a schema (a descriptor or a Codec), found ${describe(schema)}`);
      }
      return this.byObject.get(schema);
    }

    /** The fingerprints of the schemas it knows. */
    get fingerprints() {
      return [...this.byFingerprint.keys()];
    }

    /** `value` encoded with `schema` (one the registry knows), in an envelope. */
    encode(schema, value) {
      let codec = this.codec(schema);
      if (codec === undefined) {
        // The same schema as a known one, as another object (rebuilt or parsed again).
        const fp = schema instanceof Codec ? schema.fingerprint : compile(schema, this.options).fingerprint;
        codec = this.byFingerprint.get(fp);
        if (codec === undefined) throw unknown(fp, 'encode: the schema is not in this registry');
        this.byObject.set(schema, codec);
      }
      const body = codec.encode(value);
      const out = host.alloc(HEADER + body.length);
      out[0] = MAGIC;
      out[1] = VERSION;
      const [hi, lo] = halves(codec.fingerprint);
      putUint32(out, 2, hi);
      putUint32(out, 6, lo);
      out.set(body, HEADER);
      return out;
    }

    /** The writer fingerprint of envelope `bytes` (checks the header only). */
    fingerprintOf(bytes) {
      const [hi, lo] = header(bytes);
      return hex(hi, lo);
    }

    /**
     * Decodes envelope `bytes`, written with any schema the registry knows, as a value of
     * `reader` (a descriptor or a Codec; default: the writer's own schema).
     */
    decode(bytes, reader) {
      const [hi, lo] = header(bytes);
      const inner = this.byHalves.get(hi);
      const writer = inner === undefined ? undefined : inner.get(lo);
      if (writer === undefined) throw unknown(hex(hi, lo), 'decode: the envelope was written with a schema this registry does not know');
      const decode = reader === undefined ? writer.decode : this.readerFor(reader, writer);
      const n = rt.inputLength(bytes);
      try {
        return decode(rt.inputView(bytes, HEADER, n - HEADER));
      } catch (e) {
        throw shift(e);
      }
    }

    readerFor(reader, writer) {
      let codec = reader instanceof Codec ? reader : this.codec(reader);
      if (codec === undefined) {
        codec = compile(reader, this.options);
        this.byObject.set(reader, codec);
      }
      let perWriter = this.readers.get(codec);
      if (perWriter === undefined) this.readers.set(codec, (perWriter = new Map()));
      let decode = perWriter.get(writer.fingerprint);
      if (decode === undefined) {
        decode = codec.reader(writer).decode;
        perWriter.set(writer.fingerprint, decode);
      }
      return decode;
    }
  }

  // The header's fingerprint halves; any fault is ERR_SHORN_MALFORMED at its offset.
  function header(bytes) {
    const n = rt.inputLength(bytes);
    if (n < 0) throw rt.notBytes(bytes);
    if (n === 0 || rt.inputView(bytes, 0, 1)[0] !== MAGIC) {
      const first = n === 0 ? 'no bytes' : `its first byte is 0x${rt.inputView(bytes, 0, 1)[0].toString(16).padStart(2, '0')}${guess(bytes)}`;
      throw malformed(`not a shorn envelope: ${first}${n === 0 ? '' : ', not the magic byte 0xf5'}`, 0);
    }
    if (n < HEADER) throw new ShornError('ERR_SHORN_TRUNCATED', `truncated shorn envelope: ${n} bytes, the header alone is ${HEADER}`, { offset: n });
    const h = rt.inputView(bytes, 0, HEADER);
    if (h[1] !== VERSION) throw malformed(`shorn envelope version ${h[1]}: this shorn reads version ${VERSION}`, 1);
    return [((h[2] << 24) | (h[3] << 16) | (h[4] << 8) | h[5]) >>> 0, ((h[6] << 24) | (h[7] << 16) | (h[8] << 8) | h[9]) >>> 0];
  }

  function guess(bytes) {
    const c = rt.inputView(bytes, 0, 1)[0];
    if (c === 0x7b || c === 0x5b) return ` ('${String.fromCharCode(c)}': JSON?)`;
    if (c >= 0x20 && c < 0x7f) return ` ('${String.fromCharCode(c)}': text?)`;
    return '';
  }

  function unknown(fp, message) {
    const e = new ShornError('ERR_SHORN_UNKNOWN_SCHEMA', `${message} (fingerprint ${fp})`);
    e.fingerprint = fp;
    return e;
  }

  /** A registry of the writer schemas a transport may carry (descriptors or codecs). */
  function createRegistry(schemas, options = {}) {
    return new Registry(schemas, options);
  }

  return { createRegistry, Registry };
}

module.exports = { registries, MAGIC, VERSION, HEADER };
