'use strict';
// The request and reply rules of shorn's server integrations (shorn/fastify, shorn/express),
// in one place: which routes' configs are valid, which reader a request's Content-Type
// names, which Content-Encodings are undone and within what limit, how a body becomes a
// value, what a refusal looks like, and how Accept picks the reply's form.
// docs/INTEGRATIONS.md has them as a table. The frameworks' modules only wire these into
// their hooks.

const zlib = require('node:zlib');
const { Transform } = require('node:stream');
const { ShornError } = require('./errors');
const http = require('./http');

const { MEDIA_TYPE, FRAMES_MEDIA_TYPE, JSON_MEDIA_TYPE } = http;
const JSON_REPLY_TYPE = 'application/json; charset=utf-8';
// Fastify's default bodyLimit, for Express too: the most bytes a body may take, after
// decompression.
const DEFAULT_BODY_LIMIT = 1024 * 1024;
// How many Content-Type and Accept headers a route or codec keeps its answer for.
const MAX_PREFERENCES = 64;

/**
 * A request or reply the rules refuse: the status and the JSON body to answer with
 * (`{ error, code, ... }`), and for a 500 the error behind it, to log.
 */
class Refusal {
  constructor(status, body, error) {
    this.status = status;
    this.body = body;
    this.error = error;
  }
}

/**
 * A route's shorn config, checked once when the route is made: `body` (a codec or
 * descriptor, versions `[V1, V2]` read as the last, or a registry) and `response` (a codec
 * or descriptor). Anything else is ERR_SHORN_SCHEMA naming `where`.
 */
function routeSpec(config, where) {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new ShornError('ERR_SHORN_SCHEMA', `${where}: expected { body, response }, found ${config === null ? 'null' : typeof config}`);
  }
  for (const key of Object.keys(config)) {
    if (key !== 'body' && key !== 'response') throw new ShornError('ERR_SHORN_SCHEMA', `${where}: unknown key ${JSON.stringify(key)} (expected body, response)`);
  }
  const body = config.body === undefined ? null : http.readerTable(config.body, `${where}.body`);
  const response = config.response === undefined ? null : http.readerTable(config.response, `${where}.response`).current;
  if (body === null && response === null) throw new ShornError('ERR_SHORN_SCHEMA', `${where}: give a body schema, a response schema, or both`);
  return { body, response, accepted: body === null ? [] : acceptedTypes(body), kinds: new Map() };
}

// The Content-Types a body route reads, as a 415 lists them.
function acceptedTypes(table) {
  const types = [];
  for (const media of [MEDIA_TYPE, FRAMES_MEDIA_TYPE]) {
    for (const fingerprint of table.fingerprints) types.push(`${media}; fingerprint=${fingerprint}`);
  }
  types.push(JSON_MEDIA_TYPE);
  return types;
}

function unsupported(spec, code, message, extra) {
  return new Refusal(415, { error: message, code, ...extra, accept: spec.accepted });
}

/** Whether a request has a body: a Content-Type, a Content-Length above 0, or chunks. */
function hasBody(headers) {
  if (headers['content-type'] !== undefined || headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * How a request's body is read, from its Content-Type: `{ kind, reader }` with kind
 * 'message', 'frames' or 'json'. A shorn type names its writer by `fingerprint` (any case,
 * quoted or not; none: the current version). A type or fingerprint the route does not
 * read is a 415 Refusal listing what it reads.
 */
function requestKind(spec, headers) {
  const header = headers['content-type'];
  // Clients send the same Content-Type every time: a route keeps the choice for the last
  // few it read (bounded, as prefersShorn's). Refusals are not kept.
  let choice = spec.kinds.get(header);
  if (choice === undefined) {
    choice = chooseKind(spec, header);
    if (spec.kinds.size >= MAX_PREFERENCES) spec.kinds.clear();
    spec.kinds.set(header, choice);
  }
  return choice;
}

function chooseKind(spec, header) {
  const parsed = http.parseContentType(header);
  if (parsed === null) {
    const found = header === undefined ? 'no Content-Type' : `a malformed Content-Type ${JSON.stringify(header)}`;
    throw unsupported(spec, 'ERR_SHORN_MEDIA_TYPE', `this route reads ${MEDIA_TYPE}, ${FRAMES_MEDIA_TYPE} or ${JSON_MEDIA_TYPE}; the request has ${found}`);
  }
  if (parsed.type === MEDIA_TYPE || parsed.type === FRAMES_MEDIA_TYPE) {
    const fingerprint = parsed.params.fingerprint;
    const reader = http.readerFor(spec.body, fingerprint);
    if (reader === undefined) {
      return raise(unsupported(spec, 'ERR_SHORN_UNKNOWN_SCHEMA', `this route does not read schema ${fingerprint}; it reads ${spec.body.fingerprints.join(', ')}`, { fingerprint }));
    }
    return { kind: parsed.type === MEDIA_TYPE ? 'message' : 'frames', reader };
  }
  if (parsed.type === JSON_MEDIA_TYPE) {
    const charset = parsed.params.charset;
    if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
      throw unsupported(spec, 'ERR_SHORN_MEDIA_TYPE', `JSON bodies are read as UTF-8, not ${charset}`);
    }
    return { kind: 'json', reader: null };
  }
  throw unsupported(spec, 'ERR_SHORN_MEDIA_TYPE', `this route does not read ${parsed.type}; it reads ${MEDIA_TYPE}, ${FRAMES_MEDIA_TYPE} and ${JSON_MEDIA_TYPE}`);
}

function raise(refusal) {
  throw refusal;
}

// Content-Encoding tokens and the zlib stream that undoes each.
const DECODERS = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * The codings of a request's Content-Encoding, in the order they are undone (the last
 * applied first); `identity` is none. Any other coding is a 415 Refusal (RFC 9110,
 * 8.4: a server that cannot decode a coding answers 415).
 */
function contentCodings(spec, headers) {
  const header = headers['content-encoding'];
  if (header === undefined || header === '') return [];
  const codings = [];
  for (const raw of header.split(',')) {
    const coding = raw.trim().toLowerCase();
    if (coding === '' || coding === 'identity') continue;
    if (!Object.hasOwn(DECODERS, coding)) {
      throw unsupported(spec, 'ERR_SHORN_MEDIA_TYPE', `this route does not read a body with Content-Encoding ${coding}; it reads gzip, deflate and br`);
    }
    codings.push(coding);
  }
  return codings.reverse();
}

function tooLarge(limit) {
  return new Refusal(413, { error: `the body is larger than this route's bodyLimit of ${limit} bytes (after decompression)`, code: 'ERR_SHORN_LIMIT', limit });
}

// Holds a Refusal as a stream error, for whoever reads the stream.
function refusalError(refusal) {
  const error = new ShornError(refusal.body.code, refusal.body.error);
  error.statusCode = refusal.status;
  error.refusal = refusal;
  return error;
}

/**
 * `raw` with `codings` undone, as a stream that fails (with a 413 Refusal in `.refusal`)
 * as soon as it would give more than `limit` bytes: a compression bomb is stopped after
 * `limit` bytes of output, not inflated. A body that does not decompress fails with a 400
 * Refusal. `receivedEncodedLength` counts the bytes read from `raw`, as Fastify expects of
 * a stream that a preParsing hook makes.
 */
function decodedStream(raw, codings, limit) {
  const stages = codings.map((coding) => DECODERS[coding]());
  let given = 0;
  const capped = new Transform({
    transform(chunk, encoding, callback) {
      given += chunk.length;
      if (given > limit) return callback(refusalError(tooLarge(limit)));
      callback(null, chunk);
    },
  });
  capped.receivedEncodedLength = 0;
  const onData = (chunk) => {
    capped.receivedEncodedLength += chunk.length;
    // The encoded bytes are held to the limit too: a body that compresses badly is no
    // excuse to take more than the route allows.
    if (capped.receivedEncodedLength > limit) fail(refusalError(tooLarge(limit)));
  };
  raw.on('data', onData);
  let failed = false;
  const fail = (error) => {
    if (failed) return;
    failed = true;
    raw.removeListener('data', onData);
    for (const stage of stages) stage.destroy();
    raw.unpipe();
    raw.resume();
    capped.destroy(error);
  };
  stages.forEach((stage, k) => {
    const coding = codings[k];
    stage.on('error', (e) => {
      const refusal = new Refusal(400, { error: `the body does not decompress as ${coding}: ${e.message}`, code: 'ERR_SHORN_MALFORMED' });
      fail(refusalError(refusal));
    });
  });
  raw.on('error', (e) => fail(e));
  capped.on('error', () => fail(null));
  let from = raw;
  for (const stage of stages) from = from.pipe(stage);
  from.pipe(capped);
  return capped;
}

/**
 * All the bytes of `stream` as one Buffer, at most `limit` of them (more: a 413 Refusal).
 * A stream error carrying a Refusal rejects with it.
 */
function readAll(stream, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let length = 0;
    const done = (error, value) => {
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      if (error === null) resolve(value);
      else reject(error);
    };
    const onData = (chunk) => {
      length += chunk.length;
      if (length > limit) {
        stream.resume();
        return done(tooLarge(limit));
      }
      chunks.push(chunk);
    };
    const onEnd = () => done(null, Buffer.concat(chunks, length));
    const onError = (e) => done(e instanceof ShornError && e.refusal instanceof Refusal ? e.refusal : e);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

/** The 400 Refusal for ShornError `e` from reading a body. */
function badBody(e) {
  const body = { error: e.message, code: e.code };
  if (e.path !== undefined) body.path = e.path;
  if (e.offset !== undefined) body.offset = e.offset;
  if (e.frame !== undefined) body.frame = e.frame;
  if (Array.isArray(e.issues)) body.issues = e.issues;
  return new Refusal(400, body);
}

/**
 * The value of a body of `kind` (from `requestKind`): a message decoded by its reader,
 * frames as an array of values, JSON text in the schema's JSON forms, checked against the
 * current version. A body that does not decode or check is a 400 Refusal with its `code`,
 * `path`, `offset` and `frame`.
 */
function bodyValue(spec, choice, bytes) {
  try {
    if (choice.kind === 'message') return choice.reader.decode(bytes);
    if (choice.kind === 'frames') return choice.reader.decodeFrames(bytes);
    return http.jsonForms(spec.body.current).parse(typeof bytes === 'string' ? bytes : utf8(bytes));
  } catch (e) {
    if (e instanceof ShornError) throw badBody(e);
    throw e;
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
function utf8(bytes) {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new ShornError('ERR_SHORN_MALFORMED', 'invalid JSON: the body is not UTF-8');
  }
}

/**
 * A JSON body that another parser (express.json(), a JSON parser registered after
 * shorn's) has already parsed, converted and checked as `bodyValue` does, so no JSON body
 * reaches a shorn route unchecked.
 */
function parsedJsonValue(spec, parsed) {
  try {
    return http.jsonForms(spec.body.current).fromJson(parsed);
  } catch (e) {
    if (e instanceof ShornError) throw badBody(e);
    throw e;
  }
}

// Accept headers repeat (a client sends the same one every time): each codec keeps its
// answer for the last few it saw. Bounded, so a client sending ever-new headers costs a
// parse each, never memory.
const preferences = new WeakMap();

/**
 * Whether `accept` prefers `application/x-shorn` (with no fingerprint, or `codec`'s) to
 * JSON: its weight is above 0 and at least JSON's, where JSON's is that of the most
 * specific range that matches `application/json` (exact, `application/*`, `*\/*`). Only a
 * range that names shorn counts for it: `*\/*` alone gets JSON, which a browser can show.
 */
function prefersShorn(accept, codec) {
  if (typeof accept !== 'string' || accept === '') return false;
  let seen = preferences.get(codec);
  if (seen === undefined) preferences.set(codec, (seen = new Map()));
  let answer = seen.get(accept);
  if (answer === undefined) {
    let shorn = 0;
    let json = 0;
    let jsonSpecificity = -1;
    for (const range of http.parseAccept(accept)) {
      if (range.type === MEDIA_TYPE) {
        const fingerprint = range.params.fingerprint;
        if (fingerprint === undefined || fingerprint.toLowerCase() === codec.fingerprint) shorn = Math.max(shorn, range.q);
        continue;
      }
      const specificity = range.type === JSON_MEDIA_TYPE ? 2 : range.type === 'application/*' ? 1 : range.type === '*/*' ? 0 : -1;
      if (specificity > jsonSpecificity) {
        jsonSpecificity = specificity;
        json = range.q;
      } else if (specificity === jsonSpecificity && specificity >= 0) json = Math.max(json, range.q);
    }
    answer = shorn > 0 && shorn >= json;
    if (seen.size >= MAX_PREFERENCES) seen.clear();
    seen.set(accept, answer);
  }
  return answer;
}

/**
 * The reply for `value` under response codec `codec`: `{ type, body }`, a shorn message
 * when `accept` prefers it, else the value's JSON form. A value that breaks the schema is a
 * 500 Refusal naming its path, with the error to log.
 */
function replyFor(codec, value, accept) {
  try {
    if (prefersShorn(accept, codec)) return { type: http.contentType(MEDIA_TYPE, codec), body: codec.encode(value) };
    return { type: JSON_REPLY_TYPE, body: http.jsonForms(codec).stringify(value) };
  } catch (e) {
    if (!(e instanceof ShornError)) throw e;
    return raise(new Refusal(500, { error: `the reply does not match its schema: ${e.message}`, code: e.code, path: e.path }, e));
  }
}

/** A Vary header's value with `Accept` added (once). */
function varyWithAccept(current) {
  return varyWith(current, 'Accept');
}

/** A Vary header's value with `name` added (once; `*` covers every name). */
function varyWith(current, name) {
  if (current === undefined || current === '') return name;
  const list = Array.isArray(current) ? current.join(', ') : String(current);
  const names = list.split(',').map((x) => x.trim().toLowerCase());
  return names.includes(name.toLowerCase()) || names.includes('*') ? list : `${list}, ${name}`;
}

// ---- reply compression ----

// The codings a reply may be compressed with, and how: gzip at zlib's default level 6,
// brotli at quality 4 (a dynamic-content setting, @fastify/compress's default too; 11 is
// for static files). benchmark/compression.js measures both.
const REPLY_CODINGS = ['br', 'gzip', 'deflate'];
const GZIP_OPTIONS = { level: 6 };
function brotliOptions(size) {
  return { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size } };
}
const DEFAULT_COMPRESS = Object.freeze({ threshold: 1024, encodings: Object.freeze(['br', 'gzip']) });

/**
 * The `compress` option of an integration: false or undefined (the default: replies are not
 * compressed), true (threshold 1 KiB, br then gzip), or `{ threshold, encodings }`
 * (bytes, and the codings in the server's order of preference, of br, gzip, deflate).
 * `{ threshold, encodings }` or null; anything else is ERR_SHORN_SCHEMA naming `where`.
 */
function compressOption(option, where) {
  if (option === undefined || option === false) return null;
  if (option === true) return DEFAULT_COMPRESS;
  if (option === null || typeof option !== 'object' || Array.isArray(option)) {
    throw new ShornError('ERR_SHORN_SCHEMA', `${where}: compress must be true, false or { threshold, encodings }, found ${option === null ? 'null' : typeof option}`);
  }
  for (const key of Object.keys(option)) {
    if (key !== 'threshold' && key !== 'encodings') throw new ShornError('ERR_SHORN_SCHEMA', `${where}: compress: unknown key ${JSON.stringify(key)} (expected threshold, encodings)`);
  }
  const { threshold = DEFAULT_COMPRESS.threshold, encodings = DEFAULT_COMPRESS.encodings } = option;
  if (!Number.isSafeInteger(threshold) || threshold < 0) throw new ShornError('ERR_SHORN_SCHEMA', `${where}: compress.threshold must be a whole number of bytes, found ${String(threshold)}`);
  if (!Array.isArray(encodings) || encodings.length === 0) throw new ShornError('ERR_SHORN_SCHEMA', `${where}: compress.encodings must be a non-empty array of ${REPLY_CODINGS.join(', ')}`);
  for (const [k, coding] of encodings.entries()) {
    if (!REPLY_CODINGS.includes(coding)) throw new ShornError('ERR_SHORN_SCHEMA', `${where}: compress.encodings: ${JSON.stringify(coding)} is not one of ${REPLY_CODINGS.join(', ')}`);
    if (encodings.indexOf(coding) !== k) throw new ShornError('ERR_SHORN_SCHEMA', `${where}: compress.encodings names ${coding} twice`);
  }
  return Object.freeze({ threshold, encodings: Object.freeze([...encodings]) });
}

// One element of Accept-Encoding: `coding *( OWS ";" OWS name "=" value )`; of the
// parameters only a weight means something (RFC 9110, 12.5.3).
const CODING_ITEM = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)((?:[ \t]*;[ \t]*[!#$%&'*+\-.^_`|~0-9A-Za-z]+=(?:[!#$%&'*+\-.^_`|~0-9A-Za-z]+|"[^"]*"))*)$/;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The codings of an Accept-Encoding header with their weights: a Map from lowercased coding
 * (`x-gzip` read as `gzip` where gzip itself is not named) to q. An element that does not
 * parse, or has a bad weight, is left out, as parseAccept leaves out a bad range; of a coding
 * named twice, the first counts.
 */
function parseAcceptEncoding(header) {
  const weights = new Map();
  if (typeof header !== 'string') return weights;
  let aliasGzip;
  for (const raw of header.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const match = CODING_ITEM.exec(item);
    if (match === null) continue;
    let q = 1;
    let bad = false;
    for (const param of match[2].split(';').slice(1)) {
      const at = param.indexOf('=');
      if (param.slice(0, at).trim().toLowerCase() !== 'q') continue;
      const text = param.slice(at + 1).trim();
      if (!QVALUE.test(text)) bad = true;
      else q = Number(text);
    }
    if (bad) continue;
    const coding = match[1].toLowerCase();
    if (coding === 'x-gzip') {
      if (aliasGzip === undefined) aliasGzip = q;
      continue;
    }
    if (!weights.has(coding)) weights.set(coding, q);
  }
  if (aliasGzip !== undefined && !weights.has('gzip')) weights.set('gzip', aliasGzip);
  return weights;
}

const encodingChoices = new WeakMap();

/**
 * How a reply of `size` bytes is compressed under `compress` ({ threshold, encodings }) for
 * a request's Accept-Encoding: a coding of `compress.encodings`, or null for none.
 * - No Accept-Encoding: none (RFC 9110 allows any coding then; a client that sends none is
 *   not assumed to undo one).
 * - A coding's weight is its own, else that of `*`, else 0; the heaviest coding above 0
 *   wins, ties going to the earlier in `encodings`.
 * - Identity (no coding) is acceptable unless `identity;q=0`, or `*;q=0` with no `identity`
 *   entry. A reply under the threshold is sent as it is when identity is acceptable (small
 *   bodies lose to a compressor's header), and so is one whose client weighs identity above
 *   the best coding. Where no coding is acceptable, the reply goes without one (RFC 9110
 *   12.5.3: the server SHOULD answer without a coding rather than refuse).
 */
function replyEncoding(compress, acceptEncoding, size) {
  if (compress === null || typeof acceptEncoding !== 'string') return null;
  let seen = encodingChoices.get(compress);
  if (seen === undefined) encodingChoices.set(compress, (seen = new Map()));
  let choice = seen.get(acceptEncoding);
  if (choice === undefined) {
    const weights = parseAcceptEncoding(acceptEncoding);
    const star = weights.get('*');
    let best = null;
    let bestQ = 0;
    for (const coding of compress.encodings) {
      const q = weights.has(coding) ? weights.get(coding) : star === undefined ? 0 : star;
      if (q > bestQ) {
        best = coding;
        bestQ = q;
      }
    }
    const identityQ = weights.has('identity') ? weights.get('identity') : star === undefined ? 1 : star;
    const identityNamed = weights.has('identity');
    choice = { best, identityOk: identityQ > 0, identityPreferred: identityNamed && identityQ > bestQ };
    if (seen.size >= MAX_PREFERENCES) seen.clear();
    seen.set(acceptEncoding, choice);
  }
  if (choice.best === null || choice.identityPreferred) return null;
  if (size < compress.threshold && choice.identityOk) return null;
  return choice.best;
}

/** `body` (a string or bytes) compressed with `coding`, to `callback(error, buffer)`, off the main thread (zlib's pool). */
function compressBody(body, coding, callback) {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  if (coding === 'br') return zlib.brotliCompress(bytes, brotliOptions(bytes.length), callback);
  if (coding === 'gzip') return zlib.gzip(bytes, GZIP_OPTIONS, callback);
  return zlib.deflate(bytes, GZIP_OPTIONS, callback);
}

/** The byte length of a reply body (a string or bytes). */
function bodyLength(body) {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.length;
}

module.exports = {
  DEFAULT_BODY_LIMIT,
  JSON_REPLY_TYPE,
  Refusal,
  routeSpec,
  hasBody,
  requestKind,
  contentCodings,
  decodedStream,
  readAll,
  tooLarge,
  bodyValue,
  parsedJsonValue,
  prefersShorn,
  replyFor,
  varyWithAccept,
  varyWith,
  DEFAULT_COMPRESS,
  compressOption,
  parseAcceptEncoding,
  replyEncoding,
  compressBody,
  bodyLength,
};
