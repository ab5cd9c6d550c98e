'use strict';
// The six corpora under schemas written the way `shorn infer` writes them (issue 41): the
// schemas of benchmark/corpora.js were written by hand, by people who knew the codec, and a
// user who runs `shorn infer FILE` gets others (enums, literals, discriminated unions,
// records, tuples, t.json() where the data says nothing). Each corpus's schema is inferred
// from the document itself (lib/cli/infer.js, `AS_PARSED` below), then each
// corpus is encoded and decoded with it, with the hand-written schema, with msgpackr
// (records on, its fastest mode) and as a JSON string, one process per measurement, the
// codecs alternating by round; every decoded value is checked deep-equal to the document
// first. The report gives inferred / hand-written time (over 1.3x flagged: a construct
// `infer` picks that costs what the hand-written one does not) and shorn (inferred) / the
// fastest peer (issue 41's floor: at least 1.5x as fast).
//
//   node benchmark/inferred.js [--rounds 3] [--ms 400] [--only twitter,mesh]
//   node benchmark/inferred.js --child <corpus>,<form>,<op>   (one measurement, a JSON line)
//
// benchmark/constructs.js runs it after the construct matrix (`npm run bench`, full runs).

const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { parseArgs, isDeepStrictEqual } = require('node:util');
const { median } = require('./stats');
const { opsPerSecond } = require('./child-common');
const { CORPUS_NAMES, corpus, loadCorpus } = require('./corpora');

const ROOT = path.join(__dirname, '..');
const CLIFF = 1.3;
const FLOOR = 1.5;
const FORMS = ['inferred', 'handWritten', 'msgpackr', 'jsonString'];
const PEERS = ['msgpackr', 'jsonString'];

// `shorn infer`'s defaults, but for what the CLI converts from JSON before it encodes
// (large integers to BigInt, long number arrays to typed arrays, ISO strings to Dates): a
// program encodes the document as JSON.parse gives it, so these are off
// (`--no-int64 --no-typed-arrays --no-dates`).
const AS_PARSED = { int64: false, typedArrays: false, dates: false };

/** The schema `shorn infer FILE --no-int64 --no-typed-arrays --no-dates` writes for corpus `name`. */
function inferredSchema(name) {
  const { infer } = require('../lib/cli/infer');
  return infer([loadCorpus(name)], AS_PARSED).schema;
}

function codecOf(name, form) {
  if (form === 'msgpackr') {
    const { Packr } = require('msgpackr');
    const packr = new Packr();
    return { encode: (v) => packr.pack(v), decode: (b) => packr.unpack(b) };
  }
  if (form === 'jsonString') return { encode: (v) => JSON.stringify(v), decode: (s) => JSON.parse(s) };
  const { t, compile } = require(ROOT);
  return compile(form === 'inferred' ? inferredSchema(name) : corpus(name).shorn(t));
}

// One measurement: ops/s of `form` on corpus `name` for `op`.
function child(name, form, op, ms) {
  const value = loadCorpus(name);
  const codec = codecOf(name, form);
  const bytes = codec.encode(value);
  if (!isDeepStrictEqual(codec.decode(bytes), value)) throw new Error(`inferred: ${name} ${form}: the round trip changed the value`);
  const probe = corpus(name).probe;
  let sink = 0;
  const run = op === 'encode' ? () => (sink += codec.encode(value).length) : () => (sink += probe(codec.decode(bytes)));
  const opsPerSec = opsPerSecond(run, ms);
  return { opsPerSec, sink: sink > 0 };
}

function run(rounds = 3, ms = 400, only = null) {
  const names = only === null ? CORPUS_NAMES : only;
  const lines = [
    '## The corpora under schemas `shorn infer` writes',
    '',
    `Each corpus under the schema \`shorn infer FILE --no-int64 --no-typed-arrays --no-dates\` writes for it (the document as JSON.parse gives it), against its hand-written schema (benchmark/corpora.js), msgpackr (records on) and a JSON string; time per op, medians of ${rounds} rounds, one process per measurement, the codecs alternating. inferred / hand-written over ${CLIFF}x, and shorn (inferred) under ${FLOOR}x the fastest peer, are flagged. \`node benchmark/inferred.js\`.`,
    '',
    '| corpus | op | inferred (µs) | hand-written (µs) | msgpackr (µs) | JSON string (µs) | inferred / hand-written, time | fastest peer / inferred, speed |',
    '|---|---|--:|--:|--:|--:|--:|--:|',
  ];
  for (const name of names) {
    for (const op of ['encode', 'decode']) {
      const got = Object.fromEntries(FORMS.map((f) => [f, []]));
      for (let r = 0; r < rounds; r++) {
        for (const form of r % 2 === 0 ? FORMS : FORMS.slice().reverse()) {
          const out = spawnSync(process.execPath, [__filename, '--child', `${name},${form},${op}`, '--ms', String(ms)], { encoding: 'utf8' });
          if (out.status !== 0) throw new Error(`inferred: ${name} ${form} ${op}: ${out.stderr}`);
          got[form].push(JSON.parse(out.stdout).opsPerSec);
        }
      }
      const us = (f) => 1e6 / median(got[f]);
      const cost = us('inferred') / us('handWritten');
      const lead = Math.min(...PEERS.map(us)) / us('inferred');
      const cells = FORMS.map((f) => us(f).toFixed(0));
      lines.push(
        `| ${name} | ${op} | ${cells.join(' | ')} | ${cost.toFixed(2)}x${cost > CLIFF ? ' **over**' : ''} | ${lead.toFixed(2)}x${lead < FLOOR ? ' **under**' : ''} |`,
      );
      process.stderr.write(`inferred: ${lines[lines.length - 1]}\n`);
    }
  }
  return `${lines.join('\n')}\n`;
}

module.exports = { run, inferredSchema };

if (require.main === module) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, ms: { type: 'string', default: '400' }, only: { type: 'string' }, child: { type: 'string' } } });
  if (values.child) {
    const [name, form, op] = values.child.split(',');
    process.stdout.write(JSON.stringify(child(name, form, op, Number(values.ms))));
  } else {
    process.stdout.write(run(Number(values.rounds), Number(values.ms), values.only ? values.only.split(',') : null));
  }
}
