'use strict';
// The construct matrix (issue 41): for each construct of the schema language, the same
// data encoded and decoded with a schema that uses it and with its plain form, one
// process per measurement, the two forms alternating over rounds; the report flags any
// construct that costs more than 1.3x its plain form, so that the next cliff shows here
// before a user finds it. Every decoded value is checked against the input.
//
//   node benchmark/constructs.js [--rounds 5] [--ms 300] [--only union,map]
//   node benchmark/constructs.js --child <construct>,<form>,<op>     (one measurement, a JSON line)
//
// `npm run bench` runs it after the fixtures (benchmark/run.js).

const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { parseArgs, isDeepStrictEqual } = require('node:util');
const { median } = require('./stats');
const { opsPerSecond } = require('./child-common');
const { threadSchemas, threadValue } = require('./recursion');

const ROOT = path.join(__dirname, '..');
const ITEMS = 200;
// Rounds at least (npm run bench asks for 3): a construct and its plain form are often
// within 10-20%, which 3 processes each do not settle.
const MIN_ROUNDS = 5;
// A construct over this many times its plain form's time is flagged.
const CLIFF = 1.3;

// A batch of ITEMS records; `shape(t, k)` gives the k-th record's schema parts.
function records(make) {
  return Array.from({ length: ITEMS }, (_, k) => make(k));
}

function base(k) {
  return { id: 100000 + k * 7, name: `user${k % 50}`, score: (k * 37) % 1000 / 8, active: k % 3 !== 0 };
}

// Each construct: `plain(t)` and `with(t)` schemas of an array of records, and the values
// each takes (`value`, or `plainValue` / `withValue` where the JS forms differ).
const CONSTRUCTS = {
  recursive: {
    what: 'a comment thread: t.recursive against five levels unrolled',
    plain: (t) => threadSchemas(t).unrolled,
    with: (t) => threadSchemas(t).recursive,
    value: () => threadValue(12, false),
  },
  union: {
    what: 'score: t.union([t.float64(), t.string()]) against t.float64()',
    plain: (t) => t.array(t.object({ id: t.uint32(), name: t.string(), score: t.float64(), active: t.bool() })),
    with: (t) => t.array(t.object({ id: t.uint32(), name: t.string(), score: t.union([t.float64(), t.string()]), active: t.bool() })),
    value: () => records(base),
    why:
      "the plain form is an array of objects of four leaves, which the native side encodes and decodes in one loop over the leaves (src/engine.rs, the arrays of leaves); a union is a branch, so each record with one runs its block of steps instead (the variant's index, then its step), and carries the index on the tape and a byte on the wire. Measured 1.14x-1.32x across full runs on 2026-12-04 and 2026-12-05, 1.22x / 1.27x pinned over 7 rounds.",
  },
  discriminatedUnion: {
    what: "records of t.discriminatedUnion('kind', [a, b]) against one object with kind: t.enum",
    plain: (t) => t.array(t.object({ kind: t.enum(['a', 'b']), id: t.uint32(), name: t.string(), score: t.float64(), active: t.bool() })),
    with: (t) =>
      t.array(
        t.discriminatedUnion('kind', [
          t.object({ kind: t.literal('a'), id: t.uint32(), name: t.string(), score: t.float64(), active: t.bool() }),
          t.object({ kind: t.literal('b'), id: t.uint32(), name: t.string(), score: t.float64(), active: t.bool() }),
        ]),
      ),
    value: () => records((k) => ({ kind: k % 2 ? 'a' : 'b', ...base(k) })),
    why:
      "encode reads the tag, switches on it, and then checks the variant's object and its tag again as a literal field (a getter may give another value the second time), where the plain form reads kind once as an enum; on the wire the two are the same bytes. Generated code switches on the tag's literals (up to 16 variants), not through a Map: 1.47x -> 1.25-1.31x on 2026-12-04.",
  },
  optional: {
    what: 'name: t.optional(t.string()), always present, against t.string()',
    plain: (t) => t.array(t.object({ id: t.uint32(), name: t.string(), score: t.float64(), active: t.bool() })),
    with: (t) => t.array(t.object({ id: t.uint32(), name: t.optional(t.string()), score: t.float64(), active: t.bool() })),
    value: () => records(base),
  },
  nullable: {
    what: 'name: t.nullable(t.string()), never null, against t.string()',
    plain: (t) => t.array(t.object({ id: t.uint32(), name: t.string(), score: t.float64(), active: t.bool() })),
    with: (t) => t.array(t.object({ id: t.uint32(), name: t.nullable(t.string()), score: t.float64(), active: t.bool() })),
    value: () => records(base),
  },
  default: {
    what: "name: t.default(t.string(), ''), always present, against t.string()",
    plain: (t) => t.array(t.object({ id: t.uint32(), name: t.string(), score: t.float64(), active: t.bool() })),
    with: (t) => t.array(t.object({ id: t.uint32(), name: t.default(t.string(), ''), score: t.float64(), active: t.bool() })),
    value: () => records(base),
  },
  record: {
    what: 'counts: t.record(t.uint32()) of 4 keys against t.object of the same 4 fields',
    plain: (t) => t.array(t.object({ id: t.uint32(), counts: t.object({ views: t.uint32(), likes: t.uint32(), shares: t.uint32(), saves: t.uint32() }) })),
    with: (t) => t.array(t.object({ id: t.uint32(), counts: t.record(t.uint32()) })),
    value: () => records((k) => ({ id: k, counts: { views: k * 3, likes: k, shares: k % 7, saves: k % 11 } })),
  },
  map: {
    what: 'counts: t.map(t.string(), t.uint32()) (a Map) against t.record(t.uint32()) (an object)',
    plain: (t) => t.array(t.object({ id: t.uint32(), counts: t.record(t.uint32()) })),
    with: (t) => t.array(t.object({ id: t.uint32(), counts: t.map(t.string(), t.uint32()) })),
    plainValue: () => records((k) => ({ id: k, counts: { views: k * 3, likes: k, shares: k % 7, saves: k % 11 } })),
    withValue: () => records((k) => ({ id: k, counts: new Map([['views', k * 3], ['likes', k], ['shares', k % 7], ['saves', k % 11]]) })),
    why:
      "a Map is a hash table: decode inserts each entry (a hash of its key), and reads each key from the message as a string of its own, where a record's keys come from the message's key table and a record of keys met before is one object literal; encode walks the Map through its iterator, entry by entry, where a record's keys are one Object.keys. The bytes are the same.",
  },
  tuple: {
    what: 'at: t.tuple([t.float64(), t.float64()]) against t.array(t.float64())',
    plain: (t) => t.array(t.object({ id: t.uint32(), at: t.array(t.float64()) })),
    with: (t) => t.array(t.object({ id: t.uint32(), at: t.tuple([t.float64(), t.float64()]) })),
    value: () => records((k) => ({ id: k, at: [k / 3, -k / 7] })),
  },
  mixedRecord: {
    what: 'records of t.record(t.union([t.uint32(), t.string(), t.bool(), t.array(t.string())])) against t.object of the same 5 fields',
    plain: (t) => t.array(t.object({ id: t.uint32(), name: t.string(), score: t.uint32(), ok: t.bool(), tags: t.array(t.string()) })),
    with: (t) => t.array(t.record(t.union([t.uint32(), t.string(), t.bool(), t.array(t.string())]))),
    value: () => records((k) => ({ id: (k * 7919) % 100000, name: `user${k}`, score: k * 3, ok: k % 3 === 0, tags: ['red', `blue${k % 5}`, 'g'] })),
  },
  json: {
    what: 'each record as t.json() against its schema',
    plain: (t) => t.array(t.object({ id: t.uint32(), name: t.string(), score: t.float64(), active: t.bool() })),
    with: (t) => t.array(t.json()),
    value: () => records(base),
  },
  typedArray: {
    what: 'samples: t.float64Array() (a Float64Array) against t.array(t.float64())',
    plain: (t) => t.array(t.object({ id: t.uint32(), samples: t.array(t.float64()) })),
    with: (t) => t.array(t.object({ id: t.uint32(), samples: t.float64Array() })),
    plainValue: () => records((k) => ({ id: k, samples: Array.from({ length: 16 }, (_, j) => k + j / 16) })),
    withValue: () => records((k) => ({ id: k, samples: Float64Array.from({ length: 16 }, (_, j) => k + j / 16) })),
    why:
      "a typed array of more than 64 bytes keeps its elements outside V8's heap, in memory allocated and tracked for each array (~0.4 µs an array, measured), where an array of 16 numbers is one allocation in the heap. So for many short arrays t.array(t.float64()) is the faster form; a typed array gains where it is long (its bytes copied at once), and one of at most 64 bytes, which V8 keeps in the heap, is filled in place (smallTypedArray).",
  },
  smallTypedArray: {
    what: 'at: t.float64Array() of 4 (32 bytes, kept in V8\'s heap) against t.array(t.float64())',
    plain: (t) => t.array(t.object({ id: t.uint32(), at: t.array(t.float64()) })),
    with: (t) => t.array(t.object({ id: t.uint32(), at: t.float64Array() })),
    plainValue: () => records((k) => ({ id: k, at: [k, k / 2, k / 4, 1] })),
    withValue: () => records((k) => ({ id: k, at: Float64Array.of(k, k / 2, k / 4, 1) })),
    why:
      "encode hands each typed array to the native side as a value of its own, whose memory N-API looks up (~0.1 µs an array), where an array's numbers go on the tape with the rest; decode makes the typed array and its storage, where an array of 4 numbers is one small allocation. Filled in place rather than through its buffer, it decodes ~3x faster than before 2026-12-04 (200 records of 4 float64s: 78 -> 24 µs).",
  },
  constraints: {
    what: 'name: minLength, maxLength and pattern; id and score: min and max; against none',
    plain: (t) => t.array(t.object({ id: t.uint32(), name: t.string(), score: t.float64(), active: t.bool() })),
    with: (t) =>
      t.array(
        t.object({
          id: t.uint32({ min: 1, max: 1e9 }),
          name: t.string({ minLength: 1, maxLength: 64, pattern: /^[a-z0-9]+$/ }),
          score: t.float64({ min: 0, max: 1e6 }),
          active: t.bool(),
        }),
      ),
    value: () => records(base),
    why:
      "every constrained value is checked: on encode JS checks the ranges and lengths (in code points) as it writes the tape; on decode the native side checks them as it reads, a checked value taking the general path rather than the loop over an object of plain leaves; and JS tests each string's pattern both ways (a loop over its units for a pattern of one character set, as here). The plain form does none of it. personValidated in the fixtures sets such checks against zod's parse before or after each peer.",
  },
  enum: {
    what: "status: t.enum(['new', 'open', 'closed']) against t.string()",
    plain: (t) => t.array(t.object({ id: t.uint32(), status: t.string() })),
    with: (t) => t.array(t.object({ id: t.uint32(), status: t.enum(['new', 'open', 'closed']) })),
    value: () => records((k) => ({ id: k, status: ['new', 'open', 'closed'][k % 3] })),
  },
  literal: {
    what: "version: t.literal('v2') against t.string()",
    plain: (t) => t.array(t.object({ id: t.uint32(), version: t.string(), name: t.string() })),
    with: (t) => t.array(t.object({ id: t.uint32(), version: t.literal('v2'), name: t.string() })),
    value: () => records((k) => ({ id: k, version: 'v2', name: `n${k}` })),
  },
  jsonValue: {
    what: 'records as the JSON value schema (t.recursive of a union of float64, string, bool, null, an array and a record of itself: what fromZod makes of Zod\'s JSON type) against t.json()',
    plain: (t) => t.json(),
    with: (t) => t.recursive('Json', (self) => t.union([t.float64(), t.string(), t.bool(), t.null(), t.array(self), t.record(self)])),
    value: () => records((k) => ({ ...base(k), tags: ['a', `b${k % 7}`], at: { x: k / 4, y: null } })),
    why: 'a union is a branch at every value, and its variant index a byte on the wire: t.json() writes its type in the same byte as the value where it can (a small integer, a short string)',
  },
  reader: {
    what: 'decode by a reader of an older writer (the reader adds a defaulted field) against the writer decoding its own bytes',
    plain: (t) => t.array(t.object({ id: t.uint32(), name: t.string(), score: t.float64(), active: t.bool() })),
    with: (t) => t.array(t.object({ id: t.uint32(), name: t.string(), score: t.float64(), active: t.bool(), tier: t.default(t.uint8(), 0) })),
    value: () => records(base),
    decodeOnly: true,
  },
};

// The constructs that carry their keys and types on the wire (issue 43), also set against
// the codecs that need no schema, on the same values: msgpackr with records off (which
// writes keys and types as these do) and JSON bytes (stringify to a Buffer, parse from
// one).
const PEERS = ['msgpackr', 'jsonBytes'];
const SELF_DESCRIBING = ['json', 'record', 'mixedRecord'];

function peerCodec(form) {
  if (form === 'msgpackr') {
    const { Packr } = require('msgpackr');
    const packr = new Packr({ useRecords: false });
    return { encode: (v) => packr.pack(v), decode: (b) => packr.unpack(b) };
  }
  return { encode: (v) => Buffer.from(JSON.stringify(v)), decode: (b) => JSON.parse(b.toString()) };
}

// One measurement: ops/s of `form` ('plain' or 'with', or a peer of PEERS on the 'with'
// value) of `name`, for `op`.
function child(name, form, op, ms) {
  const { t, compile } = require(ROOT);
  const c = CONSTRUCTS[name];
  const value = form === 'plain' ? (c.plainValue || c.value)() : (c.withValue || c.value)();
  if (PEERS.includes(form) && !SELF_DESCRIBING.includes(name)) throw new Error(`constructs: no peer form for ${name}`);
  let codec;
  let bytes;
  let decode;
  if (name === 'reader' && form === 'with') {
    const writer = compile(c.plain(t));
    bytes = writer.encode(value);
    const reader = compile(c.with(t)).reader(c.plain(t));
    decode = (b) => reader.decode(b);
    const want = value.map((v) => ({ ...v, tier: 0 }));
    if (!isDeepStrictEqual(decode(bytes), want)) throw new Error('reader: the decoded value is not the writer value with its default');
  } else {
    codec = PEERS.includes(form) ? peerCodec(form) : compile(form === 'plain' ? c.plain(t) : c.with(t));
    bytes = codec.encode(value);
    decode = (b) => codec.decode(b);
    if (!isDeepStrictEqual(decode(bytes), value)) throw new Error(`${name} ${form}: the round trip changed the value`);
  }
  const run = op === 'encode' ? () => codec.encode(value) : () => decode(bytes);
  return { opsPerSec: opsPerSecond(run, ms), bytes: bytes.length };
}

// Each measurement's process is pinned to one core (the last) where taskset is there: the
// two forms of a construct are a few percent apart, and unpinned processes on a 2-core
// machine moved a pinned 1.15x to 1.61x (recursive decode, 2026-12-05) as the scheduler
// moved them.
// Asked once, by the parent only (a child process has no use for it).
const PIN_CORE = os.cpus().length - 1;
let pin = null;
function pinned() {
  if (pin === null) pin = process.platform === 'linux' && spawnSync('taskset', ['--version']).status === 0;
  return pin;
}

// ops/s of one measurement, in a process of its own.
function measure(name, form, op, ms) {
  const command = [process.execPath, __filename, '--child', `${name},${form},${op}`, '--ms', String(ms)];
  const [file, ...rest] = pinned() ? ['taskset', '-c', String(PIN_CORE), ...command] : command;
  const out = spawnSync(file, rest, { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`constructs: ${name} ${form} ${op}: ${out.stderr}`);
  return JSON.parse(out.stdout).opsPerSec;
}

/** Runs the matrix; returns its markdown. */
function run(rounds = MIN_ROUNDS, ms = 300, only = null) {
  rounds = Math.max(rounds, MIN_ROUNDS);
  const names = Object.keys(CONSTRUCTS).filter((n) => only === null || only.includes(n));
  const lines = [
    '## Constructs: each against its plain form',
    '',
    `The same records (${ITEMS} a message; the thread: 12 roots, 4 levels of replies) with a schema that uses the construct and with its plain form; time of the construct's form / time of the plain form, medians of ${rounds} rounds, one process per measurement${pinned() ? ` (pinned to core ${PIN_CORE})` : ''}. Over ${CLIFF}x is flagged. \`node benchmark/constructs.js\`.`,
    '',
    '| construct | what | encode | decode |',
    '|---|---|--:|--:|',
  ];
  for (const name of names) {
    const c = CONSTRUCTS[name];
    const cells = [];
    for (const op of ['encode', 'decode']) {
      if (op === 'encode' && c.decodeOnly) {
        cells.push('n/a');
        continue;
      }
      const got = { plain: [], with: [] };
      for (let r = 0; r < rounds; r++) {
        for (const form of r % 2 === 0 ? ['plain', 'with'] : ['with', 'plain']) {
          got[form].push(measure(name, form, op, ms));
        }
      }
      const ratio = median(got.plain) / median(got.with);
      cells.push(`${ratio.toFixed(2)}x${ratio > CLIFF ? ' **over**' : ''}`);
    }
    lines.push(`| ${name} | ${c.what} | ${cells[0]} | ${cells[1]} |`);
    process.stderr.write(`constructs: ${lines[lines.length - 1]}\n`);
  }
  for (const name of names) {
    if (CONSTRUCTS[name].why !== undefined) lines.push('', `Why ${name} can stay over ${CLIFF}x: ${CONSTRUCTS[name].why}`);
  }
  const peers = SELF_DESCRIBING.filter((n) => names.includes(n));
  if (peers.length > 0) {
    lines.push(
      '',
      `Why ${peers.join(', ')} cannot come within ${CLIFF}x of their plain forms: they carry every key (\`t.json()\` its types too) on the wire, a few bytes a field against none, and decode reads each key and finds it in the message's key table (a record or object of keys met before is then one literal, as the plain form's always is). Their floor is the codecs that carry the same, below.`,
    );
    lines.push(
      '',
      '## Self-describing constructs against msgpackr and JSON',
      '',
      `The 'with' values above, encoded and decoded by shorn with the construct, by msgpackr with records off (keys and types on the wire, as here) and as JSON bytes; µs per message, medians of ${rounds} rounds, one process per measurement${pinned() ? ` (pinned to core ${PIN_CORE})` : ''}, the codecs alternating. Issue 43's floor: shorn at least as fast as both.`,
      '',
      '| construct | op | shorn | msgpackr | JSON bytes | shorn / fastest peer, time |',
      '|---|---|--:|--:|--:|--:|',
    );
    for (const name of peers) {
      for (const op of ['encode', 'decode']) {
        const forms = ['with', ...PEERS];
        const got = Object.fromEntries(forms.map((f) => [f, []]));
        for (let r = 0; r < rounds; r++) {
          for (const form of r % 2 === 0 ? forms : forms.slice().reverse()) {
            got[form].push(measure(name, form, op, ms));
          }
        }
        const us = (f) => 1e6 / median(got[f]);
        const ratio = us('with') / Math.min(...PEERS.map(us));
        lines.push(`| ${name} | ${op} | ${us('with').toFixed(1)} | ${us('msgpackr').toFixed(1)} | ${us('jsonBytes').toFixed(1)} | ${ratio.toFixed(2)}x${ratio > 1 ? ' **slower**' : ''} |`);
        process.stderr.write(`constructs: ${lines[lines.length - 1]}\n`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

module.exports = { run, CONSTRUCTS };

if (require.main === module) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: String(MIN_ROUNDS) }, ms: { type: 'string', default: '300' }, only: { type: 'string' }, child: { type: 'string' } } });
  if (values.child) {
    const [name, form, op] = values.child.split(',');
    process.stdout.write(JSON.stringify(child(name, form, op, Number(values.ms))));
  } else {
    process.stdout.write(run(Number(values.rounds), Number(values.ms), values.only ? values.only.split(',') : null));
  }
}
