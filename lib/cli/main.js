'use strict';
// The `shorn` command line (bin/shorn.js): infer, encode, decode, inspect, size. Every
// command, option and exit code is in docs/CLI.md; `shorn <command> --help` prints them.
// The library is loaded only by the commands that use it, so --help works anywhere.

const fs = require('node:fs');
const path = require('node:path');
const { Progress } = require('./progress');

/** Exit codes (docs/CLI.md, "Exit codes"). */
const EXIT = { OK: 0, DATA: 1, USAGE: 2, SCHEMA: 3, INTERNAL: 70 };

/** An error the command line reports in one line (no stack) and exits with. */
class CliError extends Error {
  constructor(exitCode, message, hint) {
    super(message);
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

const usage = (message, hint) => new CliError(EXIT.USAGE, message, hint);
const dataError = (message, hint) => new CliError(EXIT.DATA, message, hint);

// Every error the library throws is a ShornError, and its code says whose fault it is
// (docs/FORMAT.md, "Errors"): the schema's (exit 3) or the data's (exit 1, every other
// code: a value that does not fit, bytes that do not decode, a limit). So no ShornError
// is an internal error (issue 37, finding 10: a decoded value that broke a constraint,
// ERR_SHORN_INVALID, came out as exit 70 with a stack trace); only an error that is no
// ShornError is a bug of shorn's.
const SCHEMA_CODES = new Set(['ERR_SHORN_SCHEMA', 'ERR_SHORN_UNKNOWN_SCHEMA']);

function isShornError(e) {
  // lib/errors.js loads no addon, so this works where the library cannot load.
  return e instanceof require('../errors').ShornError;
}

/** A library error `e` as the one-line error the command reports: `what` comes first. */
function libraryError(e, what, hint) {
  return new CliError(SCHEMA_CODES.has(e.code) ? EXIT.SCHEMA : EXIT.DATA, `${what}${e.message} (${e.code})`, hint);
}

// ---- options ------------------------------------------------------------------------------

// Options every command takes.
const COMMON = {
  help: { type: 'boolean', short: 'h', help: 'print this help' },
  progress: { type: 'boolean', help: 'progress on stderr (default: when stderr is a terminal and the input is over 4 MB)' },
};
const SCHEMA = { schema: { type: 'string', arg: 'FILE', help: 'the schema: a descriptor in JSON (what `shorn infer` prints), a .js/.cjs/.mjs module exporting one (FILE#name picks an export), or inline JSON' } };
const OUTPUT = { output: { type: 'string', short: 'o', arg: 'FILE', help: 'write to FILE instead of stdout' } };
const BYTES_IN = {
  hex: { type: 'boolean', help: 'the input is hex text (whitespace ignored), not raw bytes' },
  base64: { type: 'boolean', help: 'the input is base64 text, not raw bytes' },
};
const NDJSON = { ndjson: { type: 'boolean', help: 'the input is NDJSON, one JSON value per line (default: detected)' } };
const CHECKSUM = { checksum: { type: 'boolean', help: 'with --stream: each frame ends with the CRC-32C of its message (both sides must agree)' } };

const COMMANDS = {
  infer: {
    summary: 'print a schema that fits JSON or NDJSON samples',
    usage: 'shorn infer [options] [FILE...]',
    about: [
      'Reads every FILE (stdin without one, or "-"): a JSON value, or NDJSON with one sample',
      'a line. Prints the descriptor (JSON) that fits every sample, or with --ts / --js the',
      'source using `t`. The rules are in docs/CLI.md; the options below steer them.',
    ],
    options: {
      ts: { type: 'boolean', help: 'print TypeScript source using t (an ES module exporting the schema and its type)' },
      js: { type: 'boolean', help: 'print CommonJS source using t' },
      name: { type: 'string', arg: 'NAME', help: 'the exported constant in --ts / --js output (default: Schema)' },
      ...NDJSON,
      each: { type: 'boolean', help: 'a file holding a JSON array is a list of samples, not one sample' },
      enums: { type: 'boolean', help: 'low-cardinality strings become enums (default: on; --no-enums)' },
      'enum-max': { type: 'number', arg: 'N', help: 'most distinct values of an enum (default: 16)' },
      literals: { type: 'boolean', help: 'a string the same in every sample becomes a literal (default: on; --no-literals)' },
      'literal-min': { type: 'number', arg: 'N', help: 'samples that must agree for a literal (default: 3)' },
      dates: { type: 'boolean', help: 'strings that are all ISO dates (toISOString) become t.date() (default: on; --no-dates)' },
      int64: { type: 'boolean', help: 'integers beyond 2^53 become int64/uint64, read exactly (default: on; --no-int64: float64)' },
      float32: { type: 'boolean', help: 'numbers that are all exact float32 values become float32 (default: off)' },
      tuples: { type: 'boolean', help: 'fixed-length arrays become tuples (default: on; --no-tuples)' },
      'tuple-max': { type: 'number', arg: 'N', help: 'longest array that becomes a tuple (default: 8)' },
      'typed-arrays': { type: 'boolean', help: 'long all-number arrays become typed arrays (default: on; --no-typed-arrays)' },
      'typed-min': { type: 'number', arg: 'N', help: 'mean length from which such arrays are typed (default: 64)' },
      records: { type: 'boolean', help: 'objects keyed by ids become records (default: on; --no-records)' },
      'record-min': { type: 'number', arg: 'N', help: 'distinct keys that make any object a record (default: 256)' },
      unions: { type: 'boolean', help: 'objects told apart by a tag field become discriminated unions (default: on; --no-unions)' },
      tag: { type: 'string', multiple: true, arg: 'NAME', help: 'also try field NAME as a union tag (repeatable)' },
      'max-depth': { type: 'number', arg: 'N', help: 'values nested deeper become t.json() (default: 32)' },
      ...OUTPUT,
    },
    run: runInfer,
  },
  encode: {
    summary: 'JSON in, shorn bytes out',
    usage: 'shorn encode --schema FILE [options] [FILE]',
    about: [
      'Reads one JSON value (stdin without FILE) in the JSON forms of docs/FORMAT.md, the forms',
      '`shorn decode` writes: int64 as integer literals (exactly) or strings of digits, dates as ISO strings or',
      'epoch ms, typed arrays as arrays, bytes as base64. Writes the message. With --stream,',
      'reads NDJSON and writes one frame per line (docs/FORMAT.md, "Framing"), as it goes;',
      'with --stream --each, reads a JSON array and writes one frame per item.',
    ],
    options: {
      ...SCHEMA,
      stream: { type: 'boolean', help: 'NDJSON in, framed messages out (length-prefixed, as codec.encoder() writes), in constant memory' },
      each: { type: 'boolean', help: 'with --stream: the input is one JSON array, and each item is a frame (read whole, not in constant memory)' },
      ...CHECKSUM,
      hex: { type: 'boolean', help: 'write hex text instead of raw bytes' },
      base64: { type: 'boolean', help: 'write base64 text instead of raw bytes' },
      ...OUTPUT,
    },
    run: runEncode,
  },
  decode: {
    summary: 'shorn bytes in, JSON out',
    usage: 'shorn decode --schema FILE [options] [FILE]',
    about: [
      'Reads one message (stdin without FILE) and writes its value as JSON, in the JSON forms',
      'that `shorn encode` reads back: int64 and uint64 as integer literals, exactly (or with',
      '--int64-as-string as strings of digits), object keys in schema order. With --stream,',
      'reads framed messages (what `shorn encode --stream` and codec.encoder() write) and',
      'writes NDJSON, one line a frame.',
    ],
    options: {
      ...SCHEMA,
      stream: { type: 'boolean', help: 'framed messages in (as codec.decoder() reads), NDJSON out, in constant memory' },
      ...CHECKSUM,
      'max-frame-bytes': { type: 'number', arg: 'N', help: 'with --stream: refuse a frame longer than N bytes (default: 16777216, 16 MiB)' },
      ...BYTES_IN,
      pretty: { type: 'boolean', help: 'indent the JSON' },
      'int64-as-string': { type: 'boolean', help: 'write every int64 and uint64 as a string of digits (default: an integer literal, exactly, whatever its size)' },
      ...OUTPUT,
    },
    run: runDecode,
  },
  inspect: {
    summary: 'an annotated hex dump of a message, with its decode error',
    usage: 'shorn inspect --schema FILE [options] [FILE]',
    about: [
      'Prints each byte range of the message with its path and value, and the decode error,',
      'if any, at its offset. Exit code 1 when the message does not decode. With --stream,',
      'the same for each frame of a stream of frames, up to the first that does not decode.',
    ],
    options: {
      ...SCHEMA,
      ...BYTES_IN,
      stream: { type: 'boolean', help: 'the input is a stream of frames (what `shorn encode --stream` and codec.encoder() write)' },
      ...CHECKSUM,
      'max-frame-bytes': { type: 'number', arg: 'N', help: 'with --stream: a frame longer than N bytes is an error (default: 16777216)' },
      frame: { type: 'number', arg: 'N', help: 'with --stream: show frame N only (from 0)' },
      json: { type: 'boolean', help: 'print the ranges as JSON: { bytes, rows: [{ offset, length, path, value | note }], error }' },
      all: { type: 'boolean', help: 'show every byte of long values (default: the first 32)' },
      'int64-as-string': { type: 'boolean', help: 'show int64 and uint64 values as strings of digits (default: integer literals, as decode writes them)' },
      ...OUTPUT,
    },
    run: runInspect,
  },
  size: {
    summary: 'bytes and times on your data: JSON, shorn, gzip, brotli, msgpackr, avsc',
    usage: 'shorn size [--schema FILE] [options] FILE',
    about: [
      'Encodes the JSON or NDJSON in FILE (each NDJSON line a message) and prints a table of',
      'sizes and encode/decode times: JSON, shorn, both after gzip and brotli, and msgpackr',
      'and avsc where they are installed. Without --schema, the schema `shorn infer` gives.',
    ],
    options: {
      ...SCHEMA,
      ...NDJSON,
      json: { type: 'boolean', help: 'print the table as JSON' },
      times: { type: 'boolean', help: 'time encode and decode (default: on; --no-times)' },
      'time-budget': { type: 'number', arg: 'MS', help: 'warm-up and least sampling time of each timed operation, in CPU ms (default: 100)' },
      'brotli-quality': { type: 'number', arg: 'Q', help: 'brotli quality, 0 to 11 (default: 6; 11 takes seconds a megabyte)' },
      ...OUTPUT,
    },
    run: runSize,
  },
};

function parseArgs(argv, spec) {
  const options = {};
  const positionals = [];
  const shorts = {};
  for (const [name, o] of Object.entries(spec)) if (o.short) shorts[o.short] = name;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      for (let k = i + 1; k < argv.length; k++) positionals.push(argv[k]);
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    let name;
    let value;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      if (eq >= 0) value = arg.slice(eq + 1);
    } else {
      name = shorts[arg.slice(1, 2)];
      if (name === undefined) throw usage(`unknown option ${arg}`);
      if (arg.length > 2) value = arg.slice(2);
    }
    let o = spec[name];
    let negated = false;
    if (o === undefined && name.startsWith('no-') && spec[name.slice(3)]?.type === 'boolean') {
      o = spec[name.slice(3)];
      name = name.slice(3);
      negated = true;
    }
    if (o === undefined) {
      const near = Object.keys(spec).filter((k) => k.startsWith(name.slice(0, 3)) || name.startsWith(k));
      throw usage(`unknown option --${name}`, near.length ? `did you mean ${near.map((k) => `--${k}`).join(' or ')}?` : undefined);
    }
    if (o.type === 'boolean') {
      if (value !== undefined) throw usage(`--${name} takes no value`);
      options[name] = !negated;
      continue;
    }
    if (negated) throw usage(`unknown option --no-${name}`);
    if (value === undefined) {
      if (i + 1 >= argv.length) throw usage(`--${name} needs a value (${o.arg})`);
      value = argv[++i];
    }
    if (o.type === 'number') {
      const n = Number(value);
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw usage(`--${name} takes a whole number, not ${JSON.stringify(value)}`);
      value = n;
    }
    if (o.multiple) (options[name] ??= []).push(value);
    else options[name] = value;
  }
  return { options, positionals };
}

// ---- help ---------------------------------------------------------------------------------

function version() {
  return require('../../package.json').version;
}

function mainHelp() {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((n) => n.length));
  return [
    `shorn ${version()}: a schema codec for Node.js (docs/CLI.md has everything below)`,
    '',
    'Usage: shorn <command> [options] [FILE]',
    '',
    'Commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n].summary}`),
    `  ${'help'.padEnd(width)}  help on a command (shorn help encode, or shorn encode --help)`,
    '',
    'Examples:',
    '  shorn infer samples.ndjson > schema.json',
    '  shorn infer --ts data.json > schema.ts',
    '  shorn encode --schema schema.json message.json > message.bin',
    '  shorn decode --schema schema.json message.bin',
    '  shorn encode --stream --schema schema.json events.ndjson > events.frames',
    '  shorn decode --stream --schema schema.json events.frames > events.ndjson',
    '  shorn encode --stream --each --schema item.json items.json > items.frames',
    '  shorn inspect --schema schema.json message.bin',
    '  shorn size data.json',
    '',
    'Options of every command: -h, --help; --progress / --no-progress; --version.',
    '',
    'Exit codes: 0 ok; 1 the data is wrong (bad JSON, a value that does not fit the schema,',
    'bytes that do not decode); 2 usage (unknown option, missing file); 3 the schema is wrong.',
  ].join('\n');
}

function commandHelp(name) {
  const c = COMMANDS[name];
  const spec = { ...c.options, ...COMMON };
  const rows = Object.entries(spec).map(([k, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${k}${o.arg ? ` ${o.arg}` : ''}`;
    return [flag, o.help];
  });
  const width = Math.max(...rows.map(([f]) => f.length));
  return [`Usage: ${c.usage}`, '', ...c.about, '', 'Options:', ...rows.map(([f, h]) => `  ${f.padEnd(width)}  ${h}`)].join('\n');
}

// ---- input and output ---------------------------------------------------------------------

function displayName(file) {
  return file === undefined || file === '-' ? 'stdin' : file;
}

async function readStdin(progress) {
  if (process.stdin.isTTY) throw usage('no input: give a FILE, or pipe the input in');
  const chunks = [];
  let n = 0;
  for await (const chunk of process.stdin) {
    chunks.push(chunk);
    n += chunk.length;
    progress.tick(n, 0);
  }
  return Buffer.concat(chunks, n);
}

async function readBytes(file, progress) {
  if (file === undefined || file === '-') {
    progress.label = 'reading stdin';
    const bytes = await readStdin(progress);
    progress.size(bytes.length);
    return bytes;
  }
  let size;
  try {
    size = fs.statSync(file).size;
  } catch (e) {
    throw usage(`cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
  progress.size(size);
  progress.phase('reading');
  try {
    return fs.readFileSync(file);
  } catch (e) {
    throw usage(`cannot read ${file}: ${e.code === 'EISDIR' ? 'it is a directory' : e.message}`);
  }
}

/** The input bytes of decode and inspect: raw, or from --hex / --base64 text. */
async function readMessage(file, options, progress) {
  const bytes = await readBytes(file, progress);
  if (options.hex && options.base64) throw usage('--hex and --base64 cannot both be given');
  if (options.hex) {
    const text = bytes.toString('latin1').replace(/\s+/g, '');
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) throw dataError(`${displayName(file)} is not hex text (pairs of 0-9, a-f, whitespace ignored)`);
    return new Uint8Array(Buffer.from(text, 'hex'));
  }
  if (options.base64) {
    const text = bytes.toString('latin1').replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) throw dataError(`${displayName(file)} is not base64 text`);
    return new Uint8Array(Buffer.from(text, 'base64'));
  }
  return bytes;
}

function jsonError(file, e, text) {
  const { JsonSyntaxError } = require('./json');
  if (!(e instanceof JsonSyntaxError)) return e;
  let more;
  if (e.reason === 'Unexpected data after the JSON value') {
    // More than one value: NDJSON, when its first line is a value of its own (only encode
    // reads one JSON value; infer and size read NDJSON as well).
    more = looksLikeNdjson(text, e.offset)
      ? 'the input looks like NDJSON (its line 1 is a JSON value): shorn encode --stream reads NDJSON, one value a line, and writes a frame for each'
      : 'this command takes one JSON value (NDJSON is for encode --stream, infer and size)';
  }
  return dataError(`${displayName(file)}:${e.line}:${e.column}: invalid JSON: ${e.reason}`, more);
}

/** Whether `text`, one JSON value up to `offset` and more after it, reads as NDJSON there. */
function looksLikeNdjson(text, offset) {
  if (typeof text !== 'string') return false;
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const newline = text.indexOf('\n');
  if (newline === -1 || newline > offset) return false;
  try {
    JSON.parse(text.slice(bom, newline));
    return true;
  } catch {
    return false;
  }
}

/** The JSON values of a file: `[{ value, line }]`. A .ndjson or .jsonl file is NDJSON. */
async function readJson(file, progress, options = {}) {
  const bytes = await readBytes(file, progress);
  return parseJson(bytes.toString('utf8'), file, progress, options);
}

function parseJson(text, file, progress, { ndjson = 'auto', exactIntegers = false } = {}) {
  if (ndjson === 'auto' && /\.(?:ndjson|jsonl)$/i.test(file || '')) ndjson = true;
  progress.phase('parsing');
  const { parseValues } = require('./json');
  try {
    return parseValues(text, { ndjson, exactIntegers, onLine: (done, total) => progress.tick(done, total) });
  } catch (e) {
    throw jsonError(file, e, text);
  }
}

async function write(options, data) {
  if (options.output !== undefined) {
    try {
      fs.writeFileSync(options.output, data);
    } catch (e) {
      throw usage(`cannot write ${options.output}: ${e.message}`);
    }
    return;
  }
  await new Promise((resolve, reject) => {
    process.stdout.write(data, (e) => (e ? reject(e) : resolve()));
  });
}

// ---- the schema ---------------------------------------------------------------------------

function schemaError(message) {
  return new CliError(EXIT.SCHEMA, message);
}

async function loadDescriptor(spec) {
  if (spec === undefined) throw usage('--schema is required', 'make one with `shorn infer data.json > schema.json`');
  const trimmed = spec.trimStart();
  if (trimmed.startsWith('{')) return parseSchemaJson(spec, 'the --schema text');
  const hash = spec.lastIndexOf('#');
  const file = hash > 0 && /\.[cm]?js#/.test(spec) ? spec.slice(0, hash) : spec;
  const exportName = file === spec ? undefined : spec.slice(hash + 1);
  if (!fs.existsSync(file)) throw usage(`cannot read the schema ${file}: no such file`);
  if (/\.[cm]?js$/.test(file)) {
    let mod;
    try {
      const url = require('node:url').pathToFileURL(path.resolve(file)).href;
      mod = file.endsWith('.mjs') ? await import(url) : require(path.resolve(file));
    } catch (e) {
      throw schemaError(`cannot load the schema module ${file}: ${e.message}`);
    }
    return pickExport(mod, file, exportName);
  }
  return parseSchemaJson(fs.readFileSync(file, 'utf8'), file);
}

function parseSchemaJson(text, name) {
  const { parseValues, JsonSyntaxError } = require('./json');
  try {
    return parseValues(text, { ndjson: false })[0].value;
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw schemaError(`${name}:${e.line}:${e.column}: invalid JSON: ${e.reason}`);
    throw e;
  }
}

const isDescriptor = (x) => x !== null && typeof x === 'object' && typeof x.type === 'string';

function pickExport(mod, file, name) {
  if (name !== undefined) {
    if (!isDescriptor(mod[name])) throw schemaError(`${file} has no schema exported as ${name}`);
    return mod[name];
  }
  if (isDescriptor(mod)) return mod;
  if (isDescriptor(mod.default)) return mod.default;
  const found = Object.keys(mod).filter((k) => isDescriptor(mod[k]));
  if (found.length === 1) return mod[found[0]];
  if (found.length === 0) throw schemaError(`${file} exports no schema (a descriptor built with t)`);
  throw schemaError(`${file} exports several schemas (${found.join(', ')}): pick one with ${file}#${found[0]}`);
}

async function loadSchema(options) {
  const descriptor = await loadDescriptor(options.schema);
  const shorn = require('../..');
  try {
    const codec = shorn.compile(descriptor);
    const { formsFor } = require('./forms');
    return { codec, descriptor: codec.schema, forms: formsFor(codec.schema, { int64AsString: options['int64-as-string'] === true }) };
  } catch (e) {
    if (e instanceof shorn.ShornError) throw schemaError(`the schema is not valid: ${e.message}`);
    throw e;
  }
}

// ---- commands -----------------------------------------------------------------------------

const INFER_OPTIONS = {
  enums: 'enums',
  'enum-max': 'enumMax',
  literals: 'literals',
  'literal-min': 'literalMin',
  dates: 'dates',
  int64: 'int64',
  float32: 'float32',
  tuples: 'tuples',
  'tuple-max': 'tupleMax',
  'typed-arrays': 'typedArrays',
  'typed-min': 'typedMin',
  records: 'records',
  'record-min': 'recordMin',
  unions: 'unions',
  tag: 'tags',
  'max-depth': 'maxDepth',
};

/** `infer` (lib/cli/infer.js), with samples no schema can take as a data error. */
function inferSchema(samples, settings) {
  const { infer, InferError } = require('./infer');
  try {
    return infer(samples, settings);
  } catch (e) {
    if (e instanceof InferError) throw dataError(`cannot infer a schema: ${e.message}`, e.hint);
    throw e;
  }
}

async function runInfer(options, files, progress) {
  if (options.ts && options.js) throw usage('--ts and --js cannot both be given');
  const { toSource, formatJson, isConstantName } = require('./source');
  if (options.name !== undefined && !isConstantName(options.name)) {
    throw usage(`--name must be a JavaScript identifier and no reserved word, not ${JSON.stringify(options.name)}`);
  }
  if (files.length === 0) files = ['-'];
  const samples = [];
  for (const file of files) {
    const values = await readJson(file, progress, { ndjson: options.ndjson ? true : 'auto' });
    for (const { value } of values) {
      // One at a time: spread into push's arguments, 200,000 items threw a RangeError
      // (issue 37, finding 7).
      if (options.each && Array.isArray(value)) for (const item of value) samples.push(item);
      else samples.push(value);
    }
  }
  if (samples.length === 0) throw dataError('no samples: the input holds no JSON value');
  const settings = {};
  for (const [flag, key] of Object.entries(INFER_OPTIONS)) if (options[flag] !== undefined) settings[key] = options[flag];
  progress.phase('inferring');
  const { schema, notes } = inferSchema(samples, settings);
  progress.end();
  let out;
  if (options.ts || options.js) {
    const from = files.map(displayName).join(', ');
    const header = `Inferred by \`shorn infer\` from ${samples.length} sample${samples.length === 1 ? '' : 's'} (${from}); check it against what you know of the data.`;
    out = toSource(schema, { format: options.ts ? 'ts' : 'js', name: options.name || 'Schema', notes, header });
  } else {
    out = `${formatJson(schema)}\n`;
  }
  await write(options, out);
  return EXIT.OK;
}

function encodeError(e, where = '') {
  if (!isShornError(e)) return e;
  if (e.code === 'ERR_SHORN_INVALID') return dataError(`${where}the value does not fit the schema: ${e.message}`);
  return libraryError(e, `${where}cannot encode the value: `);
}

/**
 * The hint for a JSON array the schema refuses whole: when every item fits the schema on
 * its own (checked, not guessed), encode --stream --each is what was meant. Otherwise none.
 */
function arrayHint(codec, forms, list) {
  if (list.length === 0) return undefined;
  for (const item of list) {
    try {
      codec.encode(forms.fromJson(item));
    } catch (e) {
      if (isShornError(e)) return undefined;
      throw e;
    }
  }
  const n = list.length;
  const values = n === 1 ? '1 value that fits' : `${n.toLocaleString('en-US')} values that each fit`;
  return `it is an array of ${values} the schema: shorn encode --stream --each writes a frame for each, or give a schema for the array (t.array of this one)`;
}

/** Usage errors of the options that only --stream takes, and of those it does not. */
function checkStreamOptions(options, command) {
  if (options.stream) {
    for (const o of ['hex', 'base64', 'pretty']) {
      if (options[o]) throw usage(`--${o} cannot be given with --stream`, `${command} --stream ${command === 'encode' ? 'writes' : 'reads'} raw frames; redirect them to or from a file`);
    }
    const max = options['max-frame-bytes'];
    if (max !== undefined && max > 0xffffffff) throw usage('--max-frame-bytes is at most 4294967295');
    return;
  }
  for (const o of ['checksum', 'max-frame-bytes', 'each']) {
    if (options[o] !== undefined) throw usage(`--${o} is for --stream`);
  }
}

async function runEncode(options, files, progress) {
  if (files.length > 1) throw usage('encode takes one input FILE');
  checkStreamOptions(options, 'encode');
  if (options.hex && options.base64) throw usage('--hex and --base64 cannot both be given');
  const binary = !options.hex && !options.base64;
  if (binary && options.output === undefined && process.stdout.isTTY) {
    throw usage('refusing to write binary to a terminal', 'redirect it (> file.bin), or use -o FILE, --hex or --base64');
  }
  const { codec, forms } = await loadSchema(options);
  if (options.stream) return runEncodeStream(options, files[0], codec, forms, progress);
  const values = await readJson(files[0], progress, { ndjson: false, exactIntegers: forms.exact });
  progress.phase('encoding');
  let bytes;
  const json = values[0].value;
  try {
    bytes = codec.encode(forms.fromJson(json));
  } catch (e) {
    const error = encodeError(e);
    if (error instanceof CliError && e.path === '$' && Array.isArray(json)) error.hint = arrayHint(codec, forms, json) ?? error.hint;
    throw error;
  }
  progress.end();
  const out = binary ? bytes : `${Buffer.from(bytes).toString(options.hex ? 'hex' : 'base64')}\n`;
  await write(options, out);
  return EXIT.OK;
}

/**
 * Waits for a stream's work, then for `output` to be flushed, even when the work fails: the
 * lines or frames before a fault are on their way, and are written before the error is
 * reported (the process would write them before it exits, but a caller in the same
 * process, as the fuzzer is, reads the file as soon as the command returns).
 */
async function untilEnd(output, work) {
  try {
    await work;
  } catch (e) {
    await output.end().catch(() => {}); // the stream's own error is the one to report
    throw e;
  }
  await output.end();
}

/** What a stream wrote before a fault: "the 3 frames before it were written". */
function framesWritten(frames, what) {
  if (frames === 0) return `nothing was written: it is the first ${what === 'frame' ? 'frame' : 'value'}`;
  const s = frames === 1 ? '' : 's';
  const were = frames === 1 ? 'was' : 'were';
  return what === 'frame' ? `the value${s} of the ${frames} frame${s} before it ${were} written` : `the ${frames} frame${s} before it ${were} written`;
}

/** A stream's input: a file (checked here, so a missing one is a usage error) or stdin. */
function streamInput(file, progress) {
  const { openInput } = require('./stream');
  if (file !== undefined && file !== '-') {
    let stat;
    try {
      stat = fs.statSync(file);
    } catch (e) {
      throw usage(`cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
    }
    if (stat.isDirectory()) throw usage(`cannot read ${file}: it is a directory`);
    progress.size(stat.size);
  } else if (process.stdin.isTTY) {
    throw usage('no input: give a FILE, or pipe the input in');
  }
  return openInput(file);
}

async function runEncodeStream(options, file, codec, forms, progress) {
  if (options.each) return runEncodeEach(options, file, codec, forms, progress);
  const { encodeStream, Output } = require('./stream');
  const name = displayName(file);
  const input = streamInput(file, progress);
  const output = new Output(options.output);
  progress.phase('encoding');
  await untilEnd(output, encodeStream({
    codec,
    input,
    output,
    checksum: options.checksum === true,
    exactIntegers: forms.exact,
    toValue: forms.fromJson,
    progress,
    onError(kind, e, { line, frame }) {
      const lines = framesWritten(frame, 'value');
      if (kind === 'json') return dataError(`${name}:${line}:${e.column}: invalid JSON: ${e.reason} (frame ${frame})`, lines);
      const error = encodeError(e, `${name}:${line}: frame ${frame}: `);
      if (error instanceof CliError) error.hint = lines;
      return error;
    },
  }));
  progress.end();
  return EXIT.OK;
}

const kindOf = (j) => (j === null ? 'null' : Array.isArray(j) ? 'array' : typeof j === 'bigint' ? 'number' : typeof j);

/**
 * `encode --stream --each`: one JSON array in, a frame per item out (the frames of the
 * items before a fault are written, as `--stream` writes those of the lines before one).
 * The whole input is read and parsed first, as `encode` reads one value.
 */
async function runEncodeEach(options, file, codec, forms, progress) {
  const name = displayName(file);
  const list = (await readJson(file, progress, { ndjson: false, exactIntegers: forms.exact }))[0].value;
  if (!Array.isArray(list)) {
    throw dataError(`${name} is not a JSON array: --each takes an array of values (found ${kindOf(list)})`, 'without --each, encode --stream reads NDJSON, one value a line');
  }
  progress.phase('encoding');
  const { joinFrames } = require('../framing');
  const messages = [];
  let failure = null;
  for (let k = 0; k < list.length; k++) {
    try {
      messages.push(codec.encode(forms.fromJson(list[k])));
    } catch (e) {
      failure = encodeError(e, `${name}: item ${k}: `);
      if (failure instanceof CliError) failure.hint = framesWritten(k, 'value');
      break;
    }
  }
  await write(options, joinFrames(messages, options.checksum === true));
  progress.end();
  if (failure) throw failure;
  return EXIT.OK;
}

async function runDecodeStream(options, file, codec, forms, progress) {
  const { decodeStream, Output } = require('./stream');
  const input = streamInput(file, progress);
  const output = new Output(options.output);
  progress.phase('decoding');
  await untilEnd(output, decodeStream({
    codec,
    input,
    output,
    checksum: options.checksum === true,
    maxFrameBytes: options['max-frame-bytes'],
    toText: forms.text,
    progress,
    onError(e) {
      const error = decodeError(e, file);
      if (error instanceof CliError && Number.isInteger(e.frame)) {
        const flags = `--stream${options.checksum ? ' --checksum' : ''}`;
        error.hint = `${framesWritten(e.frame, 'frame')}; shorn inspect ${flags} --frame ${e.frame}, with the same --schema, shows its bytes`;
      }
      return error;
    },
  }));
  progress.end();
  return EXIT.OK;
}

/**
 * The hint for bytes that do not decode as one message but do, all of them, as a stream
 * of frames (without checksums, or with): `decode --stream` is what was meant. Otherwise
 * none: the hint says what was found, never a guess.
 */
function framesHint(codec, bytes, text) {
  for (const checksum of [false, true]) {
    let count;
    try {
      count = codec.decodeFrames(bytes, { checksum }).length;
    } catch (e) {
      if (isShornError(e)) continue;
      throw e;
    }
    if (count === 0) return undefined;
    const frames = count === 1 ? '1 frame' : `${count.toLocaleString('en-US')} frames`;
    const how = text === null ? 'decodes it' : `decodes its bytes (raw: --stream reads no ${text} text)`;
    return `it reads as a stream of ${frames} (what shorn encode --stream and codec.encoder() write): if it is one, shorn decode --stream${checksum ? ' --checksum' : ''}, with the same --schema, ${how}`;
  }
  return undefined;
}

function decodeError(e, file) {
  if (!isShornError(e)) return e;
  return libraryError(e, `${displayName(file)} does not decode: `, 'shorn inspect, with the same --schema, shows the bytes around it');
}

async function runDecode(options, files, progress) {
  if (files.length > 1) throw usage('decode takes one input FILE');
  checkStreamOptions(options, 'decode');
  const { codec, forms } = await loadSchema(options);
  if (options.stream) return runDecodeStream(options, files[0], codec, forms, progress);
  const bytes = await readMessage(files[0], options, progress);
  progress.phase('decoding');
  let value;
  try {
    value = codec.decode(bytes);
  } catch (e) {
    const error = decodeError(e, files[0]);
    if (error instanceof CliError) error.hint = framesHint(codec, bytes, options.hex ? 'hex' : options.base64 ? 'base64' : null) ?? error.hint;
    throw error;
  }
  const text = forms.text(value, options.pretty ? 2 : 0);
  progress.end();
  await write(options, `${text}\n`);
  return EXIT.OK;
}

// Loaded by the first inspect (the library is loaded only by the commands that use it),
// once: dumpMessage runs per frame, and a require per frame cost 0.27 µs of the ~5 µs
// that an empty frame takes.
let inspectModule = null;

async function runInspect(options, files, progress) {
  if (files.length > 1) throw usage('inspect takes one input FILE');
  if (options.stream) {
    const max = options['max-frame-bytes'];
    if (max !== undefined && max > 0xffffffff) throw usage('--max-frame-bytes is at most 4294967295');
  } else {
    for (const o of ['checksum', 'max-frame-bytes', 'frame']) if (options[o] !== undefined) throw usage(`--${o} is for --stream`);
  }
  const { codec, descriptor } = await loadSchema(options);
  const bytes = await readMessage(files[0], options, progress);
  inspectModule = require('./inspect');
  const { SyncWriter } = require('./writer');
  let out;
  try {
    out = new SyncWriter(options.output);
  } catch (e) {
    throw usage(`cannot write ${options.output}: ${e.message}`);
  }
  progress.phase('inspecting');
  try {
    return options.stream ? inspectStream(options, bytes, codec, descriptor, out) : inspectMessage(options, bytes, codec, descriptor, out);
  } finally {
    progress.end();
    out.close();
  }
}

/**
 * Walks `message` and hands its dump to `out`: text lines, or with --json its rows (the
 * array's members, comma-separated). `error`, the native decoder's, is where the walk
 * stops; returns the error to report (the walk's, if the native decoder had none).
 */
function dumpMessage(options, message, descriptor, forms, error, out) {
  const { inspectBytes, Dump, rowJsonText } = inspectModule;
  const stopAt = error ? error.offset : undefined;
  let result;
  if (options.json) {
    let first = true;
    result = inspectBytes(descriptor, message, undefined, {
      stopAt,
      onRow(row) {
        out.write(first ? rowJsonText(forms, row) : `,${rowJsonText(forms, row)}`);
        first = false;
      },
    });
  } else {
    const dump = new Dump(descriptor, message, { error, forms, maxRowBytes: options.all ? 0 : 32, out: (line) => out.line(line) });
    result = inspectBytes(descriptor, message, undefined, { stopAt, onRow: (row) => dump.row(row) });
    dump.finish(error ?? result.error);
  }
  return error ?? result.error;
}

function inspectMessage(options, bytes, codec, descriptor, out) {
  const { errorAsJson } = require('./inspect');
  const { ShornError } = require('../..');
  const { valueForms } = require('./forms');
  // The native decoder's error is the one that counts, and is known before the walk, so
  // the dump can be written as the walk goes; the walk's agrees with it (the tests check
  // that), except for the decode budget, which only the native side estimates.
  let error = null;
  try {
    codec.decode(bytes);
  } catch (e) {
    if (!(e instanceof ShornError)) throw e;
    error = e;
  }
  const forms = valueForms(descriptor, { int64AsString: options['int64-as-string'] === true });
  if (options.json) out.write(`{"bytes":${bytes.length},"rows":[`);
  error = dumpMessage(options, bytes, descriptor, forms, error, out);
  if (options.json) out.line(`],"error":${JSON.stringify(errorAsJson(error))}}`);
  else out.line(error ? `# ${bytes.length} bytes; does not decode: ${error.code} at offset ${error.offset}` : `# ${bytes.length} bytes; decodes`);
  return error ? EXIT.DATA : EXIT.OK;
}

function inspectStream(options, bytes, codec, descriptor, out) {
  const { eachFrame, frameHeading, framingFault, streamSummary } = require('./frames');
  const { errorAsJson } = require('./inspect');
  const { valueForms } = require('./forms');
  const forms = valueForms(descriptor, { int64AsString: options['int64-as-string'] === true });
  const checksum = options.checksum === true;
  const only = options.frame;
  let opened = false;
  let frames = 0; // frames written (--json)
  let last = null;
  // --json: `{ bytes, frames: [...], error }`, begun with the first frame shown, so that
  // `--frame N` of a stream with no frame N writes nothing before its error.
  const open = () => {
    if (opened) return;
    opened = true;
    if (options.json) out.write(`{"bytes":${bytes.length},"frames":[`);
  };
  const { count, error } = eachFrame(codec, bytes, { checksum, maxFrameBytes: options['max-frame-bytes'] }, (f) => {
    last = f;
    if (only !== undefined && f.frame !== only && f.error === null) return;
    open();
    if (options.json) {
      // `{ frame, offset, headerBytes, length, rows, error }`, written as it goes.
      out.write(`${frames++ === 0 ? '' : ','}{"frame":${f.frame},"offset":${f.offset}`);
      if (f.message !== undefined) {
        out.write(`,"headerBytes":${f.headerBytes},"length":${f.length},"rows":[`);
        dumpMessage(options, f.message, descriptor, forms, f.error, out);
        out.write(']');
      }
      out.write(f.error === null ? ',"error":null}' : `,"error":${JSON.stringify(errorAsJson(f.error))}}`);
      return;
    }
    if (only !== undefined && f.frame !== only) out.line(`# the stream fails before frame ${only}, at frame ${f.frame}:`);
    if (f.message === undefined) {
      for (const line of framingFault(bytes, f)) out.line(line);
      return;
    }
    out.line(frameHeading(bytes, f, checksum));
    dumpMessage(options, f.message, descriptor, forms, f.error, out);
  });
  if (only !== undefined && error === null && only >= count) {
    throw dataError(`there is no frame ${only}: the stream has ${count} frame${count === 1 ? '' : 's'} (from 0)`);
  }
  open();
  if (options.json) out.line(`],"error":${JSON.stringify(errorAsJson(error))}}`);
  else out.line(streamSummary(bytes, { count, error, last }));
  return error ? EXIT.DATA : EXIT.OK;
}

async function runSize(options, files, progress) {
  if (files.length !== 1) throw usage('size takes one input FILE', 'shorn size data.json');
  const quality = options['brotli-quality'] ?? 6;
  if (quality > 11) throw usage('--brotli-quality is 0 to 11');
  const ndjson = options.ndjson ? true : 'auto';
  // Read once (stdin can be read only once), parsed a second time below if exactly.
  const text = (await readBytes(files[0], progress)).toString('utf8');
  const parsed = parseJson(text, files[0], progress, { ndjson });
  let codec;
  let forms;
  let inferred = false;
  if (options.schema !== undefined) ({ codec, forms } = await loadSchema(options));
  else {
    progress.phase('inferring');
    const { formsFor } = require('./forms');
    const { compile } = require('../..');
    codec = compile(inferSchema(parsed.map((p) => p.value)).schema);
    forms = formsFor(codec.schema);
    inferred = true;
  }
  const exact = forms.exact ? parseJson(text, files[0], progress, { ndjson, exactIntegers: true }) : parsed;
  const messages = [];
  for (let k = 0; k < parsed.length; k++) {
    const value = forms.fromJson(exact[k].value);
    messages.push({ json: parsed[k].value, value });
  }
  try {
    for (const m of messages) codec.encode(m.value);
  } catch (e) {
    throw encodeError(e);
  }
  progress.phase('measuring');
  const { measure, renderTable } = require('./size');
  const table = measure(codec, messages, { brotliQuality: quality, times: options.times !== false, budgetMs: options['time-budget'] ?? 100 });
  progress.end();
  const fileBytes = fs.existsSync(files[0]) ? fs.statSync(files[0]).size : null;
  if (options.json) {
    await write(options, `${JSON.stringify({ messages: messages.length, schema: inferred ? 'inferred' : options.schema, brotliQuality: quality, ...table })}\n`);
    return EXIT.OK;
  }
  const head = [
    `${displayName(files[0])}: ${messages.length} message${messages.length === 1 ? '' : 's'}, schema ${inferred ? 'inferred (shorn infer)' : options.schema}`,
    `JSON is the compact JSON.stringify of each message${fileBytes !== null ? ` (the file has ${fileBytes.toLocaleString('en-US')} bytes)` : ''}; times are ${process.platform === 'win32' ? 'wall-clock' : 'CPU-time'} medians on this machine, per run over every message.`,
    '',
  ];
  await write(options, `${head.join('\n')}${renderTable(table, { brotliQuality: quality })}\n`);
  return EXIT.OK;
}

// ---- main ---------------------------------------------------------------------------------

/** Runs the command line with `argv` (without node and the script); resolves to the exit code. */
async function main(argv) {
  const progress = new Progress(undefined);
  try {
    const [first, ...rest] = argv;
    if (first === undefined || first === '--help' || first === '-h') {
      process.stdout.write(`${mainHelp()}\n`);
      return first === undefined ? EXIT.USAGE : EXIT.OK;
    }
    if (first === '--version' || first === '-v') {
      process.stdout.write(`${version()}\n`);
      return EXIT.OK;
    }
    if (first === 'help') {
      if (rest.length === 0) process.stdout.write(`${mainHelp()}\n`);
      else if (COMMANDS[rest[0]]) process.stdout.write(`${commandHelp(rest[0])}\n`);
      else throw usage(`unknown command ${JSON.stringify(rest[0])}`, `the commands are ${Object.keys(COMMANDS).join(', ')}`);
      return EXIT.OK;
    }
    const command = COMMANDS[first];
    if (command === undefined) {
      throw usage(`unknown command ${JSON.stringify(first)}`, `the commands are ${Object.keys(COMMANDS).join(', ')}; shorn --help`);
    }
    const { options, positionals } = parseArgs(rest, { ...command.options, ...COMMON });
    if (options.help) {
      process.stdout.write(`${commandHelp(first)}\n`);
      return EXIT.OK;
    }
    progress.forced = options.progress;
    progress.on = options.progress === true;
    return await command.run(options, positionals, progress);
  } catch (e) {
    progress.end();
    if (e && e.code === 'EPIPE') return EXIT.OK; // the reader went away (shorn decode | head)
    // A library error that no command worded: still the data's or the schema's fault.
    if (isShornError(e)) e = libraryError(e, '');
    if (e instanceof CliError) {
      // One line each, whatever the data in them (a file name, a key) holds.
      const { comment } = require('./source');
      process.stderr.write(`shorn: ${comment(e.message)}\n${e.hint ? `shorn: ${comment(e.hint)}\n` : ''}`);
      if (e.exitCode === EXIT.USAGE && !e.hint) process.stderr.write('shorn: see shorn --help\n');
      return e.exitCode;
    }
    process.stderr.write(`shorn: internal error (please report it): ${e && e.stack ? e.stack : e}\n`);
    return EXIT.INTERNAL;
  }
}

module.exports = { main, parseArgs, EXIT, COMMANDS };
