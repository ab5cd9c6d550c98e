'use strict';
// shorn's public API but `createRegistry` (index.js adds it). A schema is compiled once
// into a native handle (the Rust `Schema`) plus per-schema JS that marshals values to and
// from it, or into the JS back end's functions alone (lib/js-backend.js); see README.md and
// docs/FORMAT.md.

const { t } = require('./types');
const { ShornError, ISSUE, issueOf } = require('./errors');
const { walk, analyze } = require('./walk');
const rt = require('#runtime');
const host = require('#host');
const nativeBackend = require('#native');
const jsBackend = require('./js-backend');
const genericMarshaller = require('./generic');
const { TYPES } = require('./types');
const { fromZod, fromZodReport } = require('#zod');
const { fromJsonSchema } = require('#json-schema');
const { fingerprint } = require('./fingerprint');
const evolve = require('./evolve');
const { unconstrained } = require('./constraints');
const { checkSchema } = require('./schema-rules');

const LIMITS = ['maxStringBytes', 'maxBytesLength', 'maxArrayLength', 'maxDepth'];
const BUDGET = 'maxDecodedBytes';
const OPTIONS = new Set([...LIMITS, BUDGET, 'codegen', 'maxIssues', 'backend']);
// How many issues `check` and `safeDecode` list at most (issue 37, finding 6: a 1 MB
// message listed 1M, 287 MB in 15 s). Zod-like callers show the first few.
const DEFAULT_MAX_ISSUES = 100;
// src/program.rs: DEFAULT_MAX_DEPTH and MAX_MAX_DEPTH.
const DEFAULT_MAX_DEPTH = 128;
const MAX_MAX_DEPTH = 1000;
// The default decode budget: 256 MiB of decoded values (src/program.rs,
// DEFAULT_MAX_DECODED_BYTES), or an eighth of V8's heap limit where that is less, so no
// one message can take a process near its heap limit.
const DEFAULT_MAX_DECODED_BYTES = Math.min(256 * 1024 * 1024, Math.floor(host.heapLimit() / 8));

// SHORN_BACKEND=js makes every codec compiled without a `backend` option run on the JS
// back end (for testing it; docs/README "Runtimes").
const FORCED_BACKEND = typeof process === 'object' && process.env ? process.env.SHORN_BACKEND : undefined;

function optionError(message) {
  return new ShornError('ERR_SHORN_SCHEMA', `invalid compile option: ${message}`);
}

/**
 * A compiled schema: `encode`, `encodeInto` and `decode` for values of one shape, and
 * `check` and `safeDecode`, which report failures as values instead of throwing.
 * Made by `compile`; each codec has functions of its own, so V8 keeps its property
 * accesses monomorphic.
 */
class Codec {
  constructor(schema, functions, codegenUsed, settings) {
    /** The descriptor this codec was compiled from (a plain JSON value). */
    this.schema = schema;
    /** Which back end encodes and decodes: 'native' (the addon) or 'js' (lib/js-backend.js). */
    this.backend = settings.backend;
    /** Whether the marshalling code was generated (false: the no-`eval` path). */
    this.generated = codegenUsed;
    /** 16 hex digits naming the schema (lib/fingerprint.js, docs/FORMAT.md "Fingerprints"). */
    this.fingerprint = fingerprint(schema);
    this.encode = functions.encode;
    this.encodeInto = functions.encodeInto;
    this.decode = functions.decode;
    this.check = functions.check;
    this.safeDecode = functions.safeDecode;
    SETTINGS.set(this, settings);
    rt.frameDecoders.set(this, functions.decodeFrames);
    Object.freeze(this);
  }

  /** A Transform from values to framed bytes (docs/FORMAT.md, "Framing"): `{ checksum }`. */
  encoder(options) {
    return new (require('#stream').FrameEncoder)(this, options);
  }

  /** A Transform from framed bytes to values: `{ maxFrameBytes, checksum }`. */
  decoder(options) {
    return new (require('#stream').FrameDecoder)(this, options);
  }

  /** Frames every value of `values` into one Buffer: `{ checksum }`. */
  encodeFrames(values, options) {
    return require('./framing').encodeFrames(this, values, options);
  }

  /**
   * Decodes every frame of `bytes`, which must end between frames:
   * `{ maxFrameBytes, maxFrames, maxDecodedBytes, checksum }` (`maxDecodedBytes`: the
   * estimated heap of all the values, by default this codec's own `maxDecodedBytes`).
   */
  decodeFrames(bytes, options) {
    return require('./framing').decodeFrames(this, bytes, options, SETTINGS.get(this).budget);
  }

  /**
   * A reader of bytes written with `writer` (a descriptor or a Codec), as values of this
   * codec's schema: `{ decode(bytes) }`. Throws ERR_SHORN_SCHEMA, listing every problem,
   * when the writer's messages cannot all be read (see `compatibility`).
   */
  reader(writer) {
    return readerOf(this, writer);
  }
}

const OK = Object.freeze({ ok: true });

// An issue as `check` and `safeDecode` report it (docs/FORMAT.md, "Constraints").
function issueOfError(e, withOffset) {
  const issue = { path: typeof e.path === 'string' ? e.path : '$', code: issueOf(e), message: e.message };
  if (withOffset && e.offset !== undefined) issue.offset = e.offset;
  return issue;
}

// `check(value)`: `{ ok: true }`, or `{ ok: false, issues }` with every issue encode would
// find in `value`, in the order it would meet them (the first is the error encode throws).
// `safeDecode(bytes)`: `{ ok: true, value }`, or `{ ok: false, issues }`: the error decode
// throws (with its `offset`) and, when that is a broken constraint, every other constraint
// the message's value breaks (see `decodeIssues`). `unconstrained()` gives the decode of
// the schema without its constraints, made on first need.
// At most `maxIssues` are listed, in that order; when there were more, the result has
// `moreIssues: true`.
function reporting(m, decode, unconstrainedDecode, maxIssues) {
  return {
    check(value) {
      const issues = m.issues(value, undefined, false, maxIssues);
      if (issues.length === 0) return OK;
      return failed(issues.map((e) => issueOfError(e, false)), issues.cut === true);
    },
    safeDecode(bytes) {
      let value;
      try {
        value = decode(bytes);
      } catch (e) {
        if (!(e instanceof ShornError)) throw e;
        const issues = decodeIssues(m, e, bytes, unconstrainedDecode, maxIssues);
        return failed(issues, issues.cut === true);
      }
      return { ok: true, value };
    },
  };
}

function failed(issues, more) {
  return more ? { ok: false, issues, moreIssues: true } : { ok: false, issues };
}

// The issues of a message whose decode threw `e`. A malformed, truncated or over-limit
// message has that one: the bytes after the fault mean nothing. A well-formed message whose
// value breaks a constraint has every constraint its value breaks, as Zod's safeParse
// lists them: the bytes are decoded again without constraints (a failure is rare, so only
// failures pay) and the value is checked as `check` checks it. Each issue is in schema
// order; the one decode stopped at has its `offset`; the others name their path (a value
// built from several places of a message has no single offset) and read
// "invalid value ($.path): ...". (If the second decode finds the message malformed further
// on, that is the second issue; if the check finds nothing, as when a union's bytes name a
// variant that the value breaks though another would take it, decode's issue is the one.)
function decodeIssues(m, e, bytes, unconstrainedDecode, maxIssues) {
  const first = issueOfError(e, true);
  if (e.code !== 'ERR_SHORN_INVALID' || e.offset === undefined || maxIssues === 1) return [first];
  let value;
  try {
    value = unconstrainedDecode()(bytes);
  } catch (again) {
    if (!(again instanceof ShornError)) throw again;
    return [first, issueOfError(again, true)];
  }
  const found = m.issues(value, undefined, true, maxIssues);
  const issues = found.map((x) => {
    const issue = issueOfError(x, false);
    const prefix = `${issue.path}: `;
    if (issue.message.startsWith(prefix)) issue.message = `invalid value (${issue.path}): ${issue.message.slice(prefix.length)}`;
    return issue;
  });
  let cut = found.cut === true;
  const at = issues.findIndex((i) => i.path === first.path && i.code === first.code);
  if (at >= 0) issues[at] = first;
  else {
    // Decode's issue was not among the listed ones: it goes first, and the list keeps
    // its length.
    issues.unshift(first);
    if (issues.length > maxIssues) {
      issues.length = maxIssues;
      cut = true;
    }
  }
  if (cut) issues.cut = true;
  return issues;
}

// Codec -> the compile settings it was made with (a reader of another writer's bytes is
// compiled with the same limits).
const SETTINGS = new WeakMap();
// Codec -> its generic marshaller (a reader checks values with it).
const MARSHALLERS = new WeakMap();

// A builder passed uncalled (`t.string` for `t.string()`) would vanish in JSON.stringify
// and leave a confusing "missing schema" error; name it instead.
function findFunction(schema) {
  walk(schema, (d, path) => {
    if (typeof d === 'function') {
      const name = Object.keys(t).find((k) => t[k] === d);
      const hint = name ? ` (did you mean t.${name}()?)` : '';
      throw new ShornError('ERR_SHORN_SCHEMA', `invalid schema at ${path}: found a function${hint}`);
    }
  });
}

// What only JS can check of a descriptor the native compiler took (a pattern is a JS
// RegExp); and each default, read back from its JSON form, must be a value of its type
// that meets its constraints.
function checkDescriptor(descriptor, m) {
  walk(descriptor, (d, path) => {
    const fault = d && TYPES.get(d.type).validate?.(d);
    if (fault !== undefined) throw new ShornError('ERR_SHORN_SCHEMA', `invalid schema at ${path}: ${fault}`, { path });
  });
  walk(descriptor, (d, path) => {
    if (d && d.type === 'default') {
      const value = m.defaultValue(d);
      if (!m.test(d.of, value)) {
        const [why] = m.issues(value, d.of, true, 1);
        const detail = why === undefined ? `expected ${m.expected(d.of)}` : why.path === '$' ? why.message.slice(3) : why.message;
        throw new ShornError('ERR_SHORN_SCHEMA', `invalid schema at ${path}: the default does not fit its type (${detail})`, { path });
      }
      // The value in its one JSON form, so that its spellings (a date as epoch ms or an
      // ISO string, bytes as an array or base64) give the schema one fingerprint.
      d.value = m.toJson(d.of, value);
    }
  });
}

/**
 * Compiles a descriptor (built with `t`, or the same after a JSON round trip).
 * Options: `maxStringBytes`, `maxBytesLength`, `maxArrayLength` (decode limits; a larger
 * declared size is ERR_SHORN_LIMIT), `maxDepth` (how deep recursive types and `json`
 * values nest, default 128, at most 1000), `maxDecodedBytes` (the estimated JS memory the
 * values of one decoded message may take, default 256 MiB or an eighth of the heap limit)
 * `codegen` (`true`, `false`, or `'auto'`: generate code unless `new Function` is
 * forbidden) and `backend` (`'auto'`, `'native'` or `'js'`: the addon, or the JS back end,
 * lib/js-backend.js, which `'auto'` takes where no addon loaded or SHORN_BACKEND=js).
 */
function compile(schema, options = {}) {
  const settings = settingsOf(options);
  const { descriptor, text } = descriptorOf(schema);
  const { functions, generated, marshaller } = assemble(descriptor, text, settings, null);
  const codec = new Codec(descriptor, functions, generated, settings);
  MARSHALLERS.set(codec, marshaller);
  return codec;
}

function settingsOf(options) {
  if (typeof options !== 'object' || options === null) throw optionError('options must be an object');
  for (const key of Object.keys(options)) {
    if (!OPTIONS.has(key)) throw optionError(`unknown option ${JSON.stringify(key)}`);
  }
  const limits = LIMITS.map((name) => {
    const v = options[name];
    if (v === undefined) return -1;
    const [min, max] = name === 'maxDepth' ? [1, MAX_MAX_DEPTH] : [0, 4294967295];
    if (!Number.isInteger(v) || v < min || v > max) {
      throw optionError(`${name} must be an integer from ${min} to ${max}`);
    }
    return v;
  });
  const maxDepth = options.maxDepth === undefined ? DEFAULT_MAX_DEPTH : options.maxDepth;
  let budget = options[BUDGET];
  if (budget === undefined) budget = DEFAULT_MAX_DECODED_BYTES;
  else if (!Number.isSafeInteger(budget) || budget < 0) throw optionError(`${BUDGET} must be a safe integer of at least 0`);
  const mode = options.codegen === undefined ? 'auto' : options.codegen;
  if (mode !== true && mode !== false && mode !== 'auto') throw optionError("codegen must be true, false or 'auto'");
  const maxIssues = options.maxIssues === undefined ? DEFAULT_MAX_ISSUES : options.maxIssues;
  if (!Number.isSafeInteger(maxIssues) || maxIssues < 1) throw optionError('maxIssues must be a safe integer of at least 1');
  return { limits, maxDepth, budget, mode, maxIssues, backend: backendOf(options.backend) };
}

// The back end a codec runs on: `backend` 'native' or 'js', or by default ('auto') the
// native addon where it loaded and SHORN_BACKEND is not 'js', else the JS back end.
function backendOf(option) {
  const chosen = option === undefined ? 'auto' : option;
  if (chosen !== 'auto' && chosen !== 'native' && chosen !== 'js') throw optionError("backend must be 'auto', 'native' or 'js'");
  if (chosen === 'js') return 'js';
  if (rt.native === null) {
    if (chosen === 'native') throw rt.noAddon();
    return 'js';
  }
  if (chosen === 'auto' && FORCED_BACKEND === 'js') return 'js';
  return 'native';
}

// The descriptor as JSON text, and parsed back: the one copy compile works on.
function descriptorOf(schema) {
  findFunction(schema);
  let text;
  try {
    text = JSON.stringify(schema);
  } catch (e) {
    throw new ShornError('ERR_SHORN_SCHEMA', `invalid schema: not JSON-serialisable (${e.message})`);
  }
  if (typeof text !== 'string') throw new ShornError('ERR_SHORN_SCHEMA', 'invalid schema: expected a descriptor object');
  return { descriptor: JSON.parse(text), text };
}

// The marshalling functions of `descriptor`, on the native back end (lib/native.js) or the
// JS one (lib/js-backend.js). With `overrides` (lib/evolve.js), decode builds another
// schema's values from this one's bytes.
function assemble(descriptor, text, settings, overrides) {
  const { limits, maxDepth, budget } = settings;
  let info;
  let walkError;
  try {
    info = analyze(descriptor);
  } catch (e) {
    walkError = e; // a descriptor the native compiler will name the fault of
    info = { layout: { positional: false, strings: 0, blobs: 0 } };
  }
  const { layout } = info;
  const js = settings.backend === 'js';
  // The schema is checked by the native compiler where there is one (the native back
  // end's handle), else by its rules in JS.
  let nat = null;
  if (rt.native === null) checkSchema(descriptor, text);
  else if (js) rt.native.compile(text, ...limits, -1, 0, budget);
  else nat = rt.native.compile(text, ...limits, layout.positional ? layout.strings : -1, layout.blobs, budget);
  if (walkError) throw walkError;
  const m = genericMarshaller.marshaller(descriptor, info, maxDepth, overrides);
  checkDescriptor(descriptor, m);
  const { functions, generated } = js ? assembleJs(descriptor, m, settings, info) : nativeBackend.build(descriptor, info, nat, m, overrides, settings);
  const reports = reporting(m, functions.decode, unconstrainedOnce(descriptor, settings), settings.maxIssues);
  return { functions: { ...functions, ...reports }, generated, marshaller: m };
}

// safeDecode's second decode, without constraints, made on first need (only a message
// that breaks one needs it).
function unconstrainedOnce(descriptor, settings) {
  let unconstrainedDecode = null;
  return () => {
    if (unconstrainedDecode === null) {
      const bare = unconstrained(descriptor);
      unconstrainedDecode = assemble(bare, JSON.stringify(bare), settings, null).functions.decode;
    }
    return unconstrainedDecode;
  };
}

// An encode's result on the JS back end: a Buffer of its own, of the class the native
// back end's result of that size has (lib/base.js, OutBuffer, up to 8 KiB; above, a
// Buffer: src/binding/mod.rs, SLAB_MAX_MESSAGE), so results compare deep-equal.
// In Node, a message of up to 8 KiB is copied into a shared slab and handed out as a view
// of it, as the native back end's are (an ArrayBuffer per message cost ~150 ns of a ~500 ns
// person encode); in a browser, a Uint8Array of its own (a caller may transfer it).
// A larger message is handed out in the buffer it was written in (`largeOutput`).
const JS_SLAB_BYTES = 64 * 1024;
const jsSlab = { buf: null, U: null, pos: JS_SLAB_BYTES };
const jsOutput =
  host.Buffer === null
    ? (sink) => (sink.o > 8192 ? largeOutput(sink) : sink.U.slice(0, sink.o))
    : (sink) => {
        const n = sink.o;
        if (n > 8192) return largeOutput(sink);
        let at = jsSlab.pos;
        if (at + n > JS_SLAB_BYTES || rt.inputLength(jsSlab.U) === 0) {
          jsSlab.buf = new ArrayBuffer(JS_SLAB_BYTES);
          host.markAsUntransferable(jsSlab.buf);
          jsSlab.U = new Uint8Array(jsSlab.buf);
          at = 0;
        }
        const U = jsSlab.U;
        const from = sink.U;
        if (n <= 64) for (let j = 0; j < n; j++) U[at + j] = from[j];
        else U.set(from.subarray(0, n), at);
        jsSlab.pos = (at + n + 7) & ~7;
        return new rt.OutBuffer(jsSlab.buf, at, n);
      };

// A message of over 8 KiB (`jsOutput`), as the native back end hands one out
// (docs/DESIGN.md, "Large messages written in place"): where it leaves at most an eighth
// of the buffer it was written in unused, a view of that buffer, which the encoder gives
// away (its next one is new: this message's length, a sixteenth more and 64 bytes,
// zeroed); else a copy of its own size, and a buffer grown loose for it (by doubling) is
// replaced too, so that the next message of that size is handed out. The copy into a new
// buffer was a third of a gsoc-2018 encode (2.76 MB; docs/DESIGN.md, "Large messages
// handed out on the JS back end"). What `result.buffer` shows past the message is zeros,
// or bytes this encode wrote and moved.
function largeOutput(sink) {
  const n = sink.o;
  const U = sink.U;
  const given = U.length - n <= U.length >>> 3;
  let out;
  if (given) out = host.Buffer === null ? new Uint8Array(U.buffer, 0, n) : host.Buffer.from(U.buffer, 0, n);
  else if (host.Buffer === null) out = U.slice(0, n);
  else {
    // Not Buffer.from(view): Node 24 makes that a Buffer over a buffer the size of the
    // view's whole buffer (64 KiB under a 10 KB message). Every byte is written by `set`.
    out = host.Buffer.allocUnsafeSlow(n);
    out.set(U.subarray(0, n));
  }
  if (given || sink.grown) sink.renew(n + (n >>> 4) + 64);
  return out;
}

// The functions of the JS back end (lib/js-backend.js): the generic marshaller checks
// values, and closures (generated where `codegen` and the runtime allow it) write bytes.
function assembleJs(descriptor, m, settings, info) {
  const generate = settings.mode !== false && jsBackend.canGenerate();
  if (settings.mode === true && !generate) {
    throw new ShornError('ERR_SHORN_SCHEMA', "codegen: true, but code generation is not allowed here; use codegen: 'auto' or false");
  }
  return { functions: jsBackend.build(descriptor, m, settings, jsOutput, generate, info), generated: generate };
}

/** What `codec.reader(writer)` returns: decodes the writer's bytes as the reader's values. */
class Reader {
  constructor(reader, writer, decode, decodeFrames) {
    /** The reader's fingerprint. */
    this.readerFingerprint = reader.fingerprint;
    /** The fingerprint of the schema the bytes were written with. */
    this.writerFingerprint = writer.fingerprint;
    this.decode = decode;
    rt.frameDecoders.set(this, decodeFrames);
    // The reader's limits, its decodeFrames' default budget among them.
    SETTINGS.set(this, SETTINGS.get(reader));
    Object.freeze(this);
  }

  /** A Transform from framed bytes of the writer's messages to the reader's values. */
  decoder(options) {
    return new (require('#stream').FrameDecoder)(this, options);
  }

  /** Decodes every frame of `bytes` (the writer's messages) as the reader's values. */
  decodeFrames(bytes, options) {
    return require('./framing').decodeFrames(this, bytes, options, SETTINGS.get(this).budget);
  }
}

function codecOf(schema) {
  return schema instanceof Codec ? schema : codecFor(schema);
}

function readerOf(codec, writer) {
  const settings = SETTINGS.get(codec);
  let w;
  if (writer instanceof Codec) w = writer;
  else {
    const { descriptor, text } = descriptorOf(writer);
    const { functions, generated } = assemble(descriptor, text, settings, null);
    w = new Codec(descriptor, functions, generated, settings);
  }
  const { problems, overrides, same, checks } = evolve.plan(codec.schema, w.schema, genericMarshaller.jsonForms(codec.schema));
  if (problems.length > 0) {
    const error = new ShornError(
      'ERR_SHORN_SCHEMA',
      `the reader (${codec.fingerprint}) cannot read every message of the writer (${w.fingerprint}):\n${problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`,
    );
    error.problems = problems;
    throw error;
  }
  if (same) return new Reader(codec, w, codec.decode, rt.frameDecoders.get(codec));
  // The writer's program and take code, with the overrides spliced in, compiled with the
  // reader's limits; its own copy of the descriptor, so the overrides' keys are its nodes.
  const { functions } = assemble(w.schema, JSON.stringify(w.schema), settings, overrides);
  if (!checks) return new Reader(codec, w, functions.decode, functions.decodeFrames);
  const m = MARSHALLERS.get(codec);
  return new Reader(codec, w, checkingConstraints(m, functions.decode), functions.decodeFrames === undefined ? undefined : checkingFrames(m, functions.decodeFrames));
}

// A reader's decode that holds the values it reads to the reader's constraints, where the
// writer's decode does not check them all (lib/evolve.js, `checks`): ERR_SHORN_INVALID
// with the path in the reader's value (no offset: a reader's value may be built from
// several places of the writer's message, or from a default).
function checkingConstraints(m, decode) {
  return function readChecked(bytes) {
    const value = decode(bytes);
    if (m.test(m.descriptor, value)) return value;
    throw readerViolation(m, value);
  };
}

// The same for a batch of frames (lib/framing.js): a value that breaks the reader's
// constraints ends the batch before its frame (`out` keeps the values before it), and the
// error makes the frame reader read that frame alone, with the decode above, which reports
// it for that frame.
function checkingFrames(m, decodeFrames) {
  return function readFramesChecked(bytes, start, max, checksum, out, at) {
    const from = out.length;
    if (!decodeFrames(bytes, start, max, checksum, out, at)) return false;
    for (let k = from; k < out.length; k++) {
      if (!m.test(m.descriptor, out[k])) {
        const error = readerViolation(m, out[k]);
        out.length = k;
        throw error;
      }
    }
    return true;
  };
}

function readerViolation(m, value) {
  const [first] = m.issues(value, undefined, true, 1);
  const path = typeof first.path === 'string' ? first.path : '$';
  const prefix = `${path}: `;
  const message = first.message.startsWith(prefix) ? `invalid value (${path}): ${first.message.slice(prefix.length)}` : first.message;
  const error = new ShornError('ERR_SHORN_INVALID', message, { path });
  error[ISSUE] = issueOf(first);
  return error;
}

/**
 * The problems (`{ path, message }`, paths in the reader's terms) that stop a reader of
 * schema `reader` from reading every message written with `writer`; empty when it can.
 * Either may be a descriptor or a Codec.
 */
function compatibility(reader, writer) {
  const r = codecOf(reader);
  const w = codecOf(writer);
  return evolve.plan(r.schema, w.schema, genericMarshaller.jsonForms(r.schema)).problems;
}

// The functional form compiles on first use and caches per schema object.
const cache = new WeakMap();
function codecFor(schema) {
  if (typeof schema !== 'object' || schema === null) {
    throw new ShornError('ERR_SHORN_SCHEMA', 'invalid schema: expected a descriptor object');
  }
  let codec = cache.get(schema);
  if (codec === undefined) {
    codec = compile(schema);
    cache.set(schema, codec);
  }
  return codec;
}

/** Encodes `value` with `schema` (compiled on first use). */
function encode(schema, value) {
  return codecFor(schema).encode(value);
}

/** Decodes `bytes` with `schema` (compiled on first use). */
function decode(schema, bytes) {
  return codecFor(schema).decode(bytes);
}

// A codec's compile options, by name (lib/envelope.js compares two a registry is given).
function optionsOf(codec) {
  const s = SETTINGS.get(codec);
  return { ...Object.fromEntries(LIMITS.map((name, k) => [name, s.limits[k]])), maxDepth: s.maxDepth, [BUDGET]: s.budget, maxIssues: s.maxIssues };
}

// `optionsOf` is for lib/envelope.js's registries, which index.js makes: they are not
// required here, so a bundle that imports only what this module has leaves them out.
module.exports = { t, compile, encode, decode, fromZod, fromZodReport, fromJsonSchema, compatibility, ShornError, Codec, optionsOf };
