'use strict';
// Resolved decodes (schema evolution) against plain ones: reading nestedEvent and batch100
// bytes with `compile(Reader).reader(Writer)` where the schemas are one (the reader's own
// decode), where the reader drops fields the writer has, and where it fills in defaults
// for fields the writer lacks; each against the writer's plain decode of the same bytes.
// One process per measurement, rounds alternating the order; every decoded value checked.
//
//   node benchmark/evolve.js [--rounds 3]        (npm run bench runs it after the fixtures)
//   node benchmark/evolve.js --backend js [--codegen false]   (the JS back end; without
//        generated code, closures alone, as in a page under a CSP)
//   node benchmark/evolve.js --child <case> --fixture <f> --how plain|reader   (one measurement, a JSON line)

const { spawnSync } = require('node:child_process');
const { parseArgs, isDeepStrictEqual } = require('node:util');
const { performance } = require('node:perf_hooks');
const { t, compile } = require('..');
const { loadFixture } = require('./fixtures');
const { median } = require('./stats');

const event = loadFixture('nestedEvent').schemas.shorn;

// Schema pairs: [writer, reader, (writer value) -> the value the reader must give].
const CASES = {
  same: { label: 'reader, same schema', pair: () => [event(t), event(t), (v) => v] },
  skip: {
    label: 'reader drops 3 fields',
    pair: () => {
      const w = event(t);
      const extra = { name: 'session', schema: t.string() };
      const writer = { ...w, fields: [...w.fields, extra, { name: 'seq', schema: t.uint32() }] };
      const user = writer.fields.find((f) => f.name === 'user');
      user.schema = { ...user.schema, fields: [...user.schema.fields, { name: 'locale', schema: t.string() }] };
      const strip = (v) => {
        const { session, seq, ...rest } = v;
        const { locale, ...user } = v.user;
        void [session, seq, locale];
        return { ...rest, user };
      };
      return [writer, event(t), strip, (v) => ({ ...v, session: 'a1b2c3d4e5f6', seq: 17, user: { ...v.user, locale: 'en-GB' } })];
    },
  },
  defaults: {
    label: 'reader defaults 2 fields',
    pair: () => {
      const r = event(t);
      const writer = { ...r, fields: r.fields.filter((f) => f.name !== 'kind') };
      const payload = writer.fields.findIndex((f) => f.name === 'payload');
      const p = writer.fields[payload].schema;
      writer.fields[payload] = { name: 'payload', schema: { ...p, fields: p.fields.filter((f) => f.name !== 'ok') } };
      const reader = { ...r, fields: r.fields.map((f) => (f.name === 'kind' ? { name: 'kind', schema: t.default(f.schema, 'view') } : f)) };
      const rp = reader.fields.findIndex((f) => f.name === 'payload');
      const q = reader.fields[rp].schema;
      reader.fields[rp] = { name: 'payload', schema: { ...q, fields: q.fields.map((f) => (f.name === 'ok' ? { name: 'ok', schema: t.default(t.bool(), false) } : f)) } };
      const fill = (v) => ({ ...v, kind: 'view', payload: { ...v.payload, ok: false } });
      const toWriter = (v) => {
        const { kind, ...rest } = v;
        const { ok, ...payload } = v.payload;
        void [kind, ok];
        return { ...rest, payload };
      };
      return [writer, reader, fill, toWriter];
    },
  },
};
const FIXTURES = ['nestedEvent', 'batch100'];

// `how`: 'reader' (the resolved decode) or 'plain' (the writer's own decode of the same bytes).
function child(name, fixtureName, how, options) {
  const fixture = loadFixture(fixtureName);
  const [writerOne, readerOne, expect, toWriter = (v) => v] = CASES[name].pair();
  const many = Array.isArray(fixture.value);
  const writer = compile(many ? t.array(writerOne) : writerOne, options);
  const value = many ? fixture.value.map(toWriter) : toWriter(fixture.value);
  const bytes = writer.encode(value);
  const plain = how === 'plain';
  const decode = plain ? writer.decode : compile(many ? t.array(readerOne) : readerOne, options).reader(writer).decode;
  const want = plain ? value : many ? value.map(expect) : expect(value);
  if (!isDeepStrictEqual(decode(bytes), want)) throw new Error(`${name} ${fixtureName}: the decoded value is not the expected one`);
  let sink = 0;
  let batch = 1;
  const warm = performance.now() + 300;
  while (performance.now() < warm) {
    const s = performance.now();
    for (let i = 0; i < batch; i++) sink += decode(bytes) === null ? 1 : 0;
    if (performance.now() - s < 1) batch *= 2;
  }
  const rates = [];
  for (let k = 0; k < 5; k++) {
    const s = performance.now();
    let ops = 0;
    let e;
    do {
      for (let i = 0; i < batch; i++) sink += decode(bytes) === null ? 1 : 0;
      ops += batch;
      e = performance.now() - s;
    } while (e < 150);
    rates.push(ops / (e / 1000));
  }
  process.stdout.write(`${JSON.stringify({ ok: true, opsPerSec: median(rates), sink })}\n`);
}

// compile's options for `--backend` and `--codegen`, and the flags that pass them on.
function optionsOf(backend, codegen) {
  if (!['native', 'js'].includes(backend)) throw new Error('--backend is native or js');
  if (!['auto', 'false'].includes(codegen)) throw new Error('--codegen is auto or false');
  return { ...(backend === 'js' ? { backend } : {}), ...(codegen === 'false' ? { codegen: false } : {}) };
}

function run(rounds, backend = 'native', codegen = 'auto') {
  optionsOf(backend, codegen);
  const results = {};
  const runs = [];
  for (const fixture of FIXTURES) for (const name of Object.keys(CASES)) for (const how of ['plain', 'reader']) runs.push([fixture, name, how]);
  for (let round = 0; round < rounds; round++) {
    for (const [fixture, name, how] of round % 2 === 1 ? [...runs].reverse() : runs) {
      const out = spawnSync(process.execPath, [__filename, '--child', name, '--fixture', fixture, '--how', how, '--backend', backend, '--codegen', codegen], { encoding: 'utf8' });
      const line = out.stdout.trim().split('\n').pop();
      let r;
      try {
        r = JSON.parse(line);
      } catch {
        throw new Error(`evolve child ${name} ${fixture} ${how} failed: ${out.stderr}`);
      }
      (((results[fixture] ||= {})[name] ||= {})[how] ||= []).push(r.opsPerSec);
      process.stderr.write(`  [evolve] ${fixture} ${name} ${how}: ${Math.round(r.opsPerSec).toLocaleString('en-US')} decodes/s\n`);
    }
  }
  const lines = [
    `## Schema evolution: resolved decodes${backend === 'js' ? `, the JS back end${codegen === 'false' ? ' without generated code' : ''}` : ''}`,
    '',
    "Each cell: the resolved decode's time as a multiple of the writer's own decode of the same bytes (medians of",
    `${rounds} rounds, one process per measurement; decodes/s of both in brackets).`,
    '',
    `| fixture | ${Object.values(CASES)
      .map((c) => c.label)
      .join(' | ')} |`,
    `|---|${Object.keys(CASES)
      .map(() => '---:')
      .join('|')}|`,
  ];
  const f = (x) => Math.round(x).toLocaleString('en-US');
  for (const fixture of FIXTURES) {
    const cells = Object.keys(CASES).map((name) => {
      const plain = median(results[fixture][name].plain);
      const reader = median(results[fixture][name].reader);
      return `${(plain / reader).toFixed(2)}x (${f(reader)} vs ${f(plain)})`;
    });
    lines.push(`| ${fixture} | ${cells.join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      child: { type: 'string' },
      fixture: { type: 'string' },
      how: { type: 'string' },
      rounds: { type: 'string', default: '3' },
      backend: { type: 'string', default: 'native' },
      codegen: { type: 'string', default: 'auto' },
    },
  });
  if (values.child) child(values.child, values.fixture, values.how, optionsOf(values.backend, values.codegen));
  else process.stdout.write(run(Number(values.rounds), values.backend, values.codegen));
}

module.exports = { run };
