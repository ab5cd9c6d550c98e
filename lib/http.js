'use strict';
// shorn over HTTP, for clients and the server integrations alike (docs/INTEGRATIONS.md):
// the media types, an RFC 9110 parser of Content-Type and Accept, the choice of a reader by
// fingerprint, the JSON forms of a schema's values, and `send` / `receive` around `fetch`.
//
// Runtime-neutral: nothing here requires a Node built-in at load time, and bodies are
// Uint8Arrays and text read with TextDecoder, so the module runs wherever fetch does
// (browsers, Deno, Bun, Node). The modules it needs for errors and JSON forms are required
// on first use: they come with the codec a caller passes in, which has loaded them already.
// node:zlib (for Content-Encoding) is required on first use too, and only where it exists:
// without it, gzip and deflate bodies are undone with DecompressionStream if the runtime has
// one, and anything else is a clear error.

const MEDIA_TYPE = 'application/x-shorn';
const FRAMES_MEDIA_TYPE = 'application/x-shorn-frames';
const JSON_MEDIA_TYPE = 'application/json';
// What `send` asks for: shorn first, JSON for a server that does not speak it (yet).
const ACCEPT = `${MEDIA_TYPE}, ${JSON_MEDIA_TYPE};q=0.5`;

let modules;
function shorn() {
  if (modules === undefined) {
    const index = require('../index.js');
    modules = {
      compile: index.compile,
      Codec: index.Codec,
      ShornError: index.ShornError,
      formsFor: require('./cli/forms').formsFor,
      json: require('./cli/json'),
    };
  }
  return modules;
}

// ---- media types (RFC 9110, sections 5.6 and 8.3.1) ----

// tchar: "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|"
// / "~" / DIGIT / ALPHA.
const TCHAR = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") TCHAR[c.charCodeAt(0)] = 1;

const SPACE = 0x20;
const TAB = 0x09;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SEMICOLON = 0x3b;
const EQUALS = 0x3d;
const SLASH = 0x2f;
const COMMA = 0x2c;

function skipSpace(s, i) {
  while (i < s.length && (s.charCodeAt(i) === SPACE || s.charCodeAt(i) === TAB)) i++;
  return i;
}

function tokenEnd(s, i) {
  while (i < s.length && TCHAR[s.charCodeAt(i)] === 1) i++;
  return i;
}

// qdtext and the second char of a quoted-pair: HTAB, SP, visible ASCII, obs-text.
function quotable(c) {
  return c === TAB || (c >= SPACE && c !== 0x7f && c <= 0xff);
}

/**
 * One media type from `s` at `i`: `type "/" subtype *( OWS ";" OWS [ name "=" value ] )`,
 * values tokens or quoted strings with backslash escapes. Stops at the end, or before
 * `stop` (a comma, in a list). Names and the type are lowercased; values are kept as sent.
 * `{ type, params, end }`, or null when malformed (a repeated parameter included: which
 * one a peer would use is unknowable).
 */
function mediaTypeAt(s, i, stop) {
  i = skipSpace(s, i);
  let j = tokenEnd(s, i);
  if (j === i || s.charCodeAt(j) !== SLASH) return null;
  const k = tokenEnd(s, j + 1);
  if (k === j + 1) return null;
  const type = s.slice(i, k).toLowerCase();
  const params = Object.create(null);
  i = k;
  for (;;) {
    i = skipSpace(s, i);
    if (i === s.length || s.charCodeAt(i) === stop) break;
    if (s.charCodeAt(i) !== SEMICOLON) return null;
    i = skipSpace(s, i + 1);
    // An empty parameter (`a/b;;c=d`, or a trailing `;`) is allowed.
    if (i === s.length || s.charCodeAt(i) === SEMICOLON || s.charCodeAt(i) === stop) continue;
    j = tokenEnd(s, i);
    if (j === i || s.charCodeAt(j) !== EQUALS) return null;
    const name = s.slice(i, j).toLowerCase();
    i = j + 1;
    let value;
    if (s.charCodeAt(i) === QUOTE) {
      value = '';
      let from = ++i;
      for (;;) {
        if (i === s.length) return null;
        const c = s.charCodeAt(i);
        if (c === QUOTE) break;
        if (c === BACKSLASH) {
          if (i + 1 === s.length || !quotable(s.charCodeAt(i + 1))) return null;
          value += s.slice(from, i);
          from = ++i;
        } else if (!quotable(c)) return null;
        i++;
      }
      value += s.slice(from, i);
      i++;
    } else {
      j = tokenEnd(s, i);
      if (j === i) return null;
      value = s.slice(i, j);
      i = j;
    }
    if (name in params) return null;
    params[name] = value;
  }
  return { type, params, end: i };
}

/**
 * The media type of a Content-Type header: `{ type, params }` with `type` lowercased
 * (`application/x-shorn`) and `params` by lowercased name, values unquoted; null when the
 * header is missing or malformed.
 */
function parseContentType(header) {
  if (typeof header !== 'string') return null;
  const parsed = mediaTypeAt(header, 0, -1);
  if (parsed === null || skipSpace(header, parsed.end) !== header.length) return null;
  return { type: parsed.type, params: parsed.params };
}

// A weight: "0" to "1" with at most three decimals (RFC 9110, 12.4.2).
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The media ranges of an Accept header, in the order sent: `{ type, params, q }` with `q`
 * taken out of `params` (1 when absent). A malformed range is left out, as a proxy would
 * leave out a range it cannot read; a missing header is `[]`.
 */
function parseAccept(header) {
  const ranges = [];
  if (typeof header !== 'string') return ranges;
  let i = 0;
  while (i < header.length) {
    i = skipSpace(header, i);
    if (header.charCodeAt(i) === COMMA) {
      i++;
      continue;
    }
    if (i === header.length) break;
    const range = mediaTypeAt(header, i, COMMA);
    if (range === null) {
      i = nextListItem(header, i);
      continue;
    }
    i = range.end;
    let q = 1;
    if (range.params.q !== undefined) {
      if (!QVALUE.test(range.params.q)) continue;
      q = Number(range.params.q);
      delete range.params.q;
    }
    ranges.push({ type: range.type, params: range.params, q });
  }
  return ranges;
}

// The index after the comma that ends the list item at `i` (commas in quotes skipped).
function nextListItem(s, i) {
  let quoted = false;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (quoted && c === BACKSLASH) i++;
    else if (c === QUOTE) quoted = !quoted;
    else if (c === COMMA && !quoted) return i + 1;
  }
  return i;
}

/** `media; fingerprint=<16 hex>` for `codec`. */
function contentType(media, codec) {
  return `${media}; fingerprint=${codec.fingerprint}`;
}

// ---- readers by fingerprint ----

function optionError(message) {
  return new (shorn().ShornError)('ERR_SHORN_SCHEMA', message);
}

function isRegistry(x) {
  return x !== null && typeof x === 'object' && typeof x.fingerprintOf === 'function' && x.byFingerprint instanceof Map;
}

function asCodec(schema, what) {
  const { Codec, compile } = shorn();
  if (schema instanceof Codec) return schema;
  if (schema !== null && typeof schema === 'object' && typeof schema.type === 'string') return compile(schema);
  throw optionError(`${what}: expected a codec or a descriptor, found ${schema === null ? 'null' : typeof schema}`);
}

/**
 * What a body may be read as: `current` (the codec values are read as, and JSON is
 * checked against) and `readers`, the reader of each writer fingerprint known. `spec` is a
 * codec (or a descriptor), an array of versions `[V1, V2, ...]` read as the last one, or a
 * registry from `createRegistry` (its schemas in the order added, read as the last).
 */
function readerTable(spec, what = 'body') {
  let versions;
  if (Array.isArray(spec)) {
    if (spec.length === 0) throw optionError(`${what}: an array of versions needs at least one schema`);
    versions = spec;
  } else if (isRegistry(spec)) {
    versions = [...spec.byFingerprint.values()];
    if (versions.length === 0) throw optionError(`${what}: the registry has no schemas`);
  } else {
    versions = [spec];
  }
  const current = asCodec(versions[versions.length - 1], what);
  const readers = new Map();
  for (const version of versions) {
    const reader = current.reader(version === versions[versions.length - 1] ? current : version);
    readers.set(reader.writerFingerprint, reader);
  }
  return { current, readers, fingerprints: [...readers.keys()] };
}

// receive() is called per response, often with a fresh array literal (`[V1, V2]`): tables
// are cached by the last version, then checked against the others, so a reader (its
// generated code) is made once per set of versions, not once per call.
const tables = new WeakMap();
function cachedTable(spec) {
  if (!Array.isArray(spec)) {
    let table = tables.get(spec);
    if (table === undefined) tables.set(spec, (table = readerTable(spec, 'receive')));
    return table;
  }
  const last = spec[spec.length - 1];
  if (last === null || typeof last !== 'object') return readerTable(spec, 'receive');
  let held = tables.get(last);
  if (held === undefined || !Array.isArray(held.versions)) tables.set(last, (held = { versions: [], table: undefined }));
  if (held.table === undefined || held.versions.length !== spec.length || held.versions.some((v, k) => v !== spec[k])) {
    held.table = readerTable(spec, 'receive');
    held.versions = spec.slice();
  }
  return held.table;
}

/**
 * The reader for `fingerprint` (a Content-Type parameter, any case; none: the current
 * version), or undefined when the table knows no such writer.
 */
function readerFor(table, fingerprint) {
  if (fingerprint === undefined) return table.readers.get(table.current.fingerprint);
  return table.readers.get(fingerprint.toLowerCase());
}

// ---- JSON forms ----

// Per codec: JSON text to a checked value, and a value to JSON text, in the JSON forms of
// docs/FORMAT.md (bigints beyond 2^53 as digit strings, dates as ISO strings, maps as
// pairs, typed arrays as arrays, bytes as base64), the ones the command line reads.
const jsonByCodec = new WeakMap();

// Types whose values differ from their JSON forms (a bigint, a Date, a Map, a typed array,
// bytes): a schema without them has values that are their own JSON form, floats aside
// (NaN, ±Infinity and -0 are strings in JSON forms).
const CONVERTED = new Set(['int64', 'uint64', 'date', 'bytes', 'map', 'float64Array', 'float32Array', 'int32Array', 'uint32Array', 'int16Array', 'uint16Array', 'int8Array']);
const FLOATS = new Set(['float32', 'float64']);

// Every `type` named anywhere in a descriptor (a default's or literal's value that happens
// to hold a `type` key only makes the answer more cautious).
function typesIn(node, into = new Set(), depth = 0) {
  if (node === null || typeof node !== 'object' || depth > 256) return into;
  if (typeof node.type === 'string') into.add(node.type);
  for (const key of Object.keys(node)) typesIn(node[key], into, depth + 1);
  return into;
}

function jsonForms(codec) {
  let forms = jsonByCodec.get(codec);
  if (forms === undefined) {
    const { formsFor, json, ShornError } = shorn();
    const { exact, toJson, fromJson } = formsFor(codec.schema);
    const types = typesIn(codec.schema);
    // Where values are their own JSON form, a JSON value goes through the codec itself:
    // encode checks it as `check` would and decode gives exactly what a shorn client's
    // bytes give (defaults filled, unknown keys dropped, float32 rounded), in ~40 us for
    // batch100 against ~670 us for the generic fromJson and check. What the codec refuses
    // (an error, or a float's "NaN") takes the JSON forms' path, which says why.
    const direct = ![...types].some((type) => CONVERTED.has(type));
    const floats = [...types].some((type) => FLOATS.has(type));
    const roundTrip = (value) => {
      try {
        return codec.decode(codec.encode(value));
      } catch (e) {
        if (e instanceof ShornError) return undefined;
        throw e;
      }
    };
    const invalid = (result) => {
      const [first] = result.issues;
      const error = new ShornError('ERR_SHORN_INVALID', first.message, { path: first.path });
      error.issues = result.issues;
      return error;
    };
    forms = {
      /** The value JSON `text` stands for, checked against the schema. */
      parse(text) {
        let parsed;
        try {
          // An int64 or uint64 field needs its integers exact, which JSON.parse rounds.
          parsed = exact ? json.parse(text, { exactIntegers: true }) : JSON.parse(text);
        } catch (e) {
          // JSON.parse's message often has no position (Node 20); the parser of the
          // command line says where, and is only run for a body that failed.
          const where = e instanceof json.JsonSyntaxError ? e : json.syntaxError(text);
          const reason = where === null ? e.message : where.message;
          throw new ShornError('ERR_SHORN_MALFORMED', `invalid JSON: ${reason}`, { offset: where === null ? undefined : where.offset });
        }
        return this.fromJson(parsed);
      },
      /** The value a parsed JSON value stands for, checked against the schema. */
      fromJson(parsed) {
        if (direct) {
          const same = roundTrip(parsed);
          if (same !== undefined) return same;
        }
        const value = fromJson(parsed);
        const result = codec.check(value);
        if (!result.ok) throw invalid(result);
        return value;
      },
      /** `value` as JSON text; ERR_SHORN_INVALID with its path if it breaks the schema. */
      stringify(value) {
        if (direct) {
          // The schema's fields only, as toJson writes them. JSON.stringify writes NaN and
          // ±Infinity as null, so a text with a null of a schema with floats is written
          // by toJson instead; -0 is written 0, as JSON.stringify (and Fastify) write it.
          const same = roundTrip(value);
          if (same !== undefined) {
            const text = JSON.stringify(same);
            if (!floats || !text.includes('null')) return text;
          }
        }
        const result = codec.check(value);
        if (!result.ok) throw invalid(result);
        return JSON.stringify(toJson(value));
      },
    };
    jsonByCodec.set(codec, forms);
  }
  return forms;
}

// ---- the client ----

// The most bytes `receive` takes of a body, after decompression: the same default as
// decodeFrames' maxFrameBytes.
const DEFAULT_RECEIVE_LIMIT = 16 * 1024 * 1024;
// Content-Encodings `send` writes and `receive` undoes.
const CODINGS = ['gzip', 'deflate', 'br'];

let zlibModule;
// node:zlib where the runtime has it (Node, Deno, Bun), else null: found on first use,
// through process.getBuiltinModule where there is one, so that loading this module needs no
// Node built-in and a bundler sees no require of one.
function nodeZlib() {
  if (zlibModule === undefined) {
    zlibModule = null;
    try {
      if (typeof process === 'object' && process !== null && typeof process.getBuiltinModule === 'function') {
        zlibModule = process.getBuiltinModule('node:zlib') || null;
      } else if (typeof require === 'function') {
        zlibModule = require(['node', 'zlib'].join(':'));
      }
    } catch {
      zlibModule = null;
    }
    if (zlibModule !== null && typeof zlibModule.gzipSync !== 'function') zlibModule = null;
  }
  return zlibModule;
}

/**
 * `{ body, headers }` to spread into fetch's init: `value` encoded with `codec` (with
 * `frames`, `value` is an iterable of values, framed), its Content-Type with the codec's
 * fingerprint, and an Accept that prefers shorn and takes JSON. With `compress` ('gzip',
 * 'deflate' or 'br'), the body is compressed with node:zlib (gzip level 6, brotli quality
 * 4) and Content-Encoding says so; where there is no node:zlib (a browser) that is an error
 * naming CompressionStream, the way to compress there.
 */
function send(codec, value, options = {}) {
  if (options === null || typeof options !== 'object') throw optionError('send: options must be an object');
  for (const key of Object.keys(options)) {
    if (key !== 'frames' && key !== 'compress') throw optionError(`send: unknown option ${JSON.stringify(key)} (expected frames, compress)`);
  }
  const compress = options.compress;
  if (compress !== undefined && compress !== false && !CODINGS.includes(compress)) {
    throw optionError(`send: compress must be 'gzip', 'deflate' or 'br', found ${typeof compress === 'string' ? JSON.stringify(compress) : String(compress)}`);
  }
  const frames = options.frames === true;
  let body = frames ? codec.encodeFrames(value) : codec.encode(value);
  const headers = { 'content-type': contentType(frames ? FRAMES_MEDIA_TYPE : MEDIA_TYPE, codec), accept: ACCEPT };
  if (compress !== undefined && compress !== false) {
    const zlib = nodeZlib();
    if (zlib === null) {
      throw optionError(
        `send: compress: '${compress}' needs node:zlib (Node, Deno, Bun), which this runtime does not have; in a browser, compress the body yourself ` +
          `(new Response(new Blob([body]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer()) and set Content-Encoding: gzip`,
      );
    }
    if (compress === 'gzip') body = zlib.gzipSync(body, { level: 6 });
    else if (compress === 'deflate') body = zlib.deflateSync(body, { level: 6 });
    else body = zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
    headers['content-encoding'] = compress;
  }
  return { body, headers };
}

function limitError(limit) {
  return new (shorn().ShornError)('ERR_SHORN_LIMIT', `receive: the body is larger than bodyLimit, ${limit} bytes (after decompression)`);
}

// The codings of a Content-Encoding header in the order they are undone (the last applied
// first); identity is none. One this module cannot undo is ERR_SHORN_MEDIA_TYPE.
function codingsOf(header) {
  if (Array.isArray(header)) header = header.join(',');
  if (header === undefined || header === null || header === '') return [];
  const codings = [];
  for (const raw of String(header).split(',')) {
    const coding = raw.trim().toLowerCase();
    if (coding === '' || coding === 'identity') continue;
    if (coding === 'x-gzip') codings.push('gzip');
    else if (CODINGS.includes(coding)) codings.push(coding);
    else throw new (shorn().ShornError)('ERR_SHORN_MEDIA_TYPE', `receive: the body has Content-Encoding ${coding}; receive undoes gzip, x-gzip, deflate and br`);
  }
  return codings.reverse();
}

// The chunks of `source` (an async iterable of Uint8Arrays) with `coding` undone, as they
// come: node:zlib's stream where there is one, else DecompressionStream (gzip and deflate).
// The consumer stops pulling when it has had enough; the inflater then stops too.
function inflate(source, coding) {
  const zlib = nodeZlib();
  if (zlib !== null) return inflateWithZlib(zlib, source, coding);
  const format = coding === 'gzip' ? 'gzip' : coding === 'deflate' ? 'deflate' : null;
  if (format !== null && typeof DecompressionStream === 'function') return inflateWithStreams(source, format, coding);
  throw new (shorn().ShornError)(
    'ERR_SHORN_MEDIA_TYPE',
    `receive: the body has Content-Encoding ${coding}, and this runtime has neither node:zlib nor a DecompressionStream for it; read it with fetch (which decodes it)`,
  );
}

function malformed(coding, e) {
  return new (shorn().ShornError)('ERR_SHORN_MALFORMED', `receive: the body does not decompress as ${coding}: ${e && e.message ? e.message : String(e)}`);
}

async function* inflateWithZlib(zlib, source, coding) {
  const stream = coding === 'gzip' ? zlib.createGunzip() : coding === 'deflate' ? zlib.createInflate() : zlib.createBrotliDecompress();
  let failure = null;
  stream.on('error', (e) => {
    failure = e;
  });
  // The input is written as the output is read: write() waits for 'drain', so the inflater
  // holds at most its buffers, whatever the ratio. An error of the input itself (the
  // connection cut, the limit passed) is the caller's error as it is, not a bad coding.
  let stopped = false;
  let sourceFailure = null;
  let given = 0;
  const feed = (async () => {
    try {
      for await (const chunk of source) {
        given += chunk.length;
        if (stopped || failure !== null) return;
        if (!stream.write(chunk)) await new Promise((resolve) => {
          const done = () => {
            stream.removeListener('drain', done);
            stream.removeListener('close', done);
            resolve();
          };
          stream.on('drain', done);
          stream.on('close', done);
        });
      }
      if (!stopped && failure === null) stream.end();
    } catch (e) {
      sourceFailure = e;
      stream.destroy(e);
    }
  })();
  try {
    for await (const chunk of stream) yield chunk;
    if (failure !== null) throw failure;
  } catch (e) {
    if (sourceFailure !== null) throw sourceFailure;
    // No bytes at all is an empty body (a 204 or 404 sent with the header), as fetch reads it.
    if (given === 0) return;
    throw malformed(coding, failure !== null ? failure : e);
  } finally {
    // The feed is not awaited: it may wait for a chunk the caller is about to cut off.
    stopped = true;
    stream.destroy();
    feed.catch(() => {});
  }
}

async function* inflateWithStreams(source, format, coding) {
  const decompressor = new DecompressionStream(format);
  const writer = decompressor.writable.getWriter();
  const reader = decompressor.readable.getReader();
  let stopped = false;
  let sourceFailure = null;
  let given = 0;
  const feed = (async () => {
    const input = source[Symbol.asyncIterator]();
    for (;;) {
      let step;
      try {
        step = await input.next();
      } catch (e) {
        // The input failed (the connection cut, the limit passed): the caller's error.
        sourceFailure = e;
        await writer.abort(e).catch(() => {});
        return;
      }
      if (step.done) break;
      if (stopped) {
        if (typeof input.return === 'function') await input.return().catch(() => {});
        return;
      }
      given += step.value.length;
      try {
        await writer.ready;
        await writer.write(step.value);
      } catch {
        // A bad coding: the reader reports it.
        return;
      }
    }
    await writer.close().catch(() => {});
  })();
  try {
    for (;;) {
      let step;
      try {
        step = await reader.read();
      } catch (e) {
        if (sourceFailure !== null) throw sourceFailure;
        if (given === 0) return;
        throw malformed(coding, e);
      }
      if (step.done) break;
      yield step.value;
    }
  } finally {
    stopped = true;
    reader.cancel().catch(() => {});
    feed.catch(() => {});
  }
}

// The chunks of a fetch body (a ReadableStream), as an async iterable that cancels the
// stream when the consumer stops early.
async function* readableChunks(body) {
  const reader = body.getReader();
  try {
    for (;;) {
      const step = await reader.read();
      if (step.done) return;
      yield step.value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

// A fetch Response, or a Node IncomingMessage (http.request's, or a server's request):
// its status, Content-Type, the codings to undo, and its body's chunks.
function responseParts(response) {
  if (response !== null && typeof response === 'object') {
    if (typeof response.arrayBuffer === 'function' && response.headers !== null && typeof response.headers.get === 'function') {
      const body = response.body;
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        // fetch has undone the Content-Encoding already (its header stays).
        codings: [],
        chunks: () =>
          body !== null && body !== undefined && typeof body.getReader === 'function'
            ? readableChunks(body)
            : (async function* whole() {
                yield new Uint8Array(await response.arrayBuffer());
              })(),
        stop: () => {},
      };
    }
    if (typeof response.statusCode === 'number' && typeof response[Symbol.asyncIterator] === 'function') {
      let codings;
      try {
        codings = codingsOf(response.headers['content-encoding']);
      } catch (e) {
        // A body that cannot be read is not left to hold the connection.
        if (typeof response.destroy === 'function') response.destroy();
        throw e;
      }
      return {
        status: response.statusCode,
        type: response.headers['content-type'],
        codings,
        chunks: () => response,
        // The rest of a body over the limit is not read: the connection goes.
        stop: () => {
          if (typeof response.destroy === 'function') response.destroy();
        },
      };
    }
  }
  throw optionError('receive: expected a fetch Response or a Node IncomingMessage');
}

/**
 * All the bytes of `parts`' body with its codings undone, at most `limit` of them: more is
 * ERR_SHORN_LIMIT, found as the bytes stream in (a compression bomb is stopped after
 * `limit` bytes of output, not inflated whole). The encoded bytes are held to the limit too.
 */
async function collect(parts, limit) {
  let source = parts.chunks();
  if (parts.codings.length > 0) {
    let encoded = 0;
    const raw = source;
    source = (async function* counted() {
      for await (const chunk of raw) {
        const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
        encoded += bytes.length;
        if (encoded > limit) throw limitError(limit);
        yield bytes;
      }
    })();
    for (const coding of parts.codings) source = inflate(source, coding);
  }
  const chunks = [];
  let length = 0;
  try {
    for await (const chunk of source) {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      length += bytes.length;
      if (length > limit) throw limitError(limit);
      chunks.push(bytes);
    }
  } catch (e) {
    parts.stop();
    throw e;
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function textOf(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new (shorn().ShornError)('ERR_SHORN_MALFORMED', 'invalid JSON: the body is not UTF-8');
  }
}

// The error for a non-2xx answer: the server's `{ error, code, path, offset, frame }` when
// it sent one (shorn's integrations and Fastify do), else ERR_SHORN_HTTP.
function answerError(status, type, bytes) {
  const { ShornError } = shorn();
  let answer = null;
  const parsed = parseContentType(type);
  if (parsed !== null && (parsed.type === JSON_MEDIA_TYPE || parsed.type.endsWith('+json'))) {
    try {
      answer = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      answer = null;
    }
  }
  const said = answer !== null && typeof answer === 'object' ? answer : {};
  const text = typeof said.error === 'string' ? said.error : typeof said.message === 'string' ? said.message : new TextDecoder().decode(bytes.subarray(0, 200));
  const code = typeof said.code === 'string' ? said.code : 'ERR_SHORN_HTTP';
  const error = new ShornError(code, `HTTP ${status}${text === '' ? '' : `: ${text}`}`, {
    path: typeof said.path === 'string' ? said.path : undefined,
    offset: typeof said.offset === 'number' ? said.offset : undefined,
  });
  error.status = status;
  if (typeof said.frame === 'number') error.frame = said.frame;
  if (Array.isArray(said.accept)) error.accept = said.accept;
  error.body = answer;
  return error;
}

/**
 * The value of `response` (a fetch Response or a Node IncomingMessage), read with
 * `codecOrVersions` (a codec, or versions `[V1, V2]` of which any is read as the last):
 * a shorn body by the reader of its fingerprint, frames as an array of values, JSON in its
 * JSON forms, checked. A non-2xx answer is a ShornError with `status` and the server's
 * `code`, `path`, `offset` and `frame`. A Node IncomingMessage's Content-Encoding (gzip,
 * x-gzip, deflate, br) is undone here (fetch undoes it itself); `options.bodyLimit` (default
 * 16 MiB) bounds the body's bytes after decompression: past it, ERR_SHORN_LIMIT.
 */
async function receive(codecOrVersions, response, options = {}) {
  if (options === null || typeof options !== 'object') throw optionError('receive: options must be an object');
  for (const key of Object.keys(options)) {
    if (key !== 'bodyLimit') throw optionError(`receive: unknown option ${JSON.stringify(key)} (expected bodyLimit)`);
  }
  const limit = options.bodyLimit === undefined ? DEFAULT_RECEIVE_LIMIT : options.bodyLimit;
  if (!Number.isSafeInteger(limit) || limit < 0) throw optionError(`receive: bodyLimit must be a whole number of bytes, found ${String(limit)}`);
  const parts = responseParts(response);
  const table = cachedTable(codecOrVersions);
  const { ShornError } = shorn();
  const bytes = await collect(parts, limit);
  if (parts.status < 200 || parts.status > 299) throw answerError(parts.status, parts.type, bytes);
  const parsed = parseContentType(parts.type);
  const type = parsed === null ? null : parsed.type;
  if (type === MEDIA_TYPE || type === FRAMES_MEDIA_TYPE) {
    const reader = readerFor(table, parsed.params.fingerprint);
    if (reader === undefined) {
      const error = new ShornError('ERR_SHORN_UNKNOWN_SCHEMA', `receive: the body was written with schema ${parsed.params.fingerprint}, not one of ${table.fingerprints.join(', ')}`);
      error.fingerprint = parsed.params.fingerprint;
      throw error;
    }
    return type === MEDIA_TYPE ? reader.decode(bytes) : reader.decodeFrames(bytes);
  }
  if (type === JSON_MEDIA_TYPE) return jsonForms(table.current).parse(textOf(bytes));
  throw new ShornError('ERR_SHORN_MEDIA_TYPE', `receive: expected ${MEDIA_TYPE}, ${FRAMES_MEDIA_TYPE} or ${JSON_MEDIA_TYPE}, found ${parts.type === undefined || parts.type === null ? 'no Content-Type' : JSON.stringify(parts.type)}`);
}

module.exports = {
  MEDIA_TYPE,
  FRAMES_MEDIA_TYPE,
  JSON_MEDIA_TYPE,
  ACCEPT,
  DEFAULT_RECEIVE_LIMIT,
  parseContentType,
  parseAccept,
  contentType,
  send,
  receive,
  readerTable,
  readerFor,
  jsonForms,
};
