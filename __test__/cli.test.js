'use strict';
// The `shorn` command line (issue 11): the real bin/shorn.js in child processes, on small
// files and on the six corpora; the inspect walk against the native decoder on the golden
// vectors; the source printer on every type. Times are reported, never asserted.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const { shorn, golden, fromHex, ROOT, cliRunner } = require('./helpers');
const { CORPORA, corpus, loadCorpus } = require('../benchmark/corpora');
const { TYPES } = require('../lib/types');
const { inspectBytes, render } = require('../lib/cli/inspect');
const { toSource } = require('../lib/cli/source');
const { parse } = require('../lib/cli/json');

const { t } = shorn;
const BIN = path.join(ROOT, 'bin', 'shorn.js');
const DATA = path.join(ROOT, 'benchmark', 'data');

let dir;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-cli-'));
});
after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});
// `shorn ...args` in `dir` (helpers.js, cliRunner).
const { shornCli, ok, file } = cliRunner(() => dir);

/** Runs `shorn ...args`; `input` goes to stdin. stdout is a Buffer, stderr a string. */
describe('help and usage', () => {
  test('shorn --help lists every command, the exit codes and examples', () => {
    const { out } = ok(['--help']);
    for (const command of ['infer', 'encode', 'decode', 'inspect', 'size', 'help']) assert.match(out, new RegExp(`^  ${command} `, 'm'));
    assert.match(out, /Exit codes: 0 ok; 1 the data is wrong/);
    assert.match(out, /shorn infer samples\.ndjson > schema\.json/);
  });

  test('each command has --help listing its options, the same as shorn help <command>', () => {
    const expected = {
      infer: ['--ts', '--js', '--enum-max N', '--literal-min N', '--typed-min N', '--tuple-max N', '--record-min N', '--tag NAME', '--each', '--ndjson'],
      encode: ['--schema FILE', '--hex', '--base64', '--output FILE', '--stream', '--each', '--checksum'],
      decode: ['--schema FILE', '--hex', '--base64', '--pretty', '--int64-as-string', '--stream', '--checksum', '--max-frame-bytes N'],
      inspect: ['--schema FILE', '--json', '--all', '--hex', '--stream', '--checksum', '--frame N'],
      size: ['--schema FILE', '--json', '--time-budget MS', '--brotli-quality Q', '--times'],
    };
    for (const [command, options] of Object.entries(expected)) {
      const { out } = ok([command, '--help']);
      assert.match(out, new RegExp(`^Usage: shorn ${command} `));
      for (const o of [...options, '--help', '--progress']) assert.ok(out.includes(o), `${command} --help lacks ${o}`);
      assert.equal(ok(['help', command]).out, out);
    }
  });

  test('shorn with no command prints the help and exits 2; --version prints the version', () => {
    const r = shornCli([]);
    assert.equal(r.status, 2);
    assert.match(r.out, /^shorn \d+\.\d+\.\d+/);
    assert.equal(ok(['--version']).out.trim(), require('../package.json').version);
  });

  test('an unknown command or option, or a bad value, is a usage error (exit 2) that says which', () => {
    const cases = [
      [['frobnicate'], /unknown command "frobnicate"/],
      [['encode', '--schem', 'x'], /unknown option --schem\nshorn: did you mean --schema\?/],
      [['infer', '--enum-max', 'many'], /--enum-max takes a whole number, not "many"/],
      [['infer', '--ts', '--js'], /--ts and --js cannot both be given/],
      [['infer', '--hex'], /unknown option --hex/],
      [['decode', '--schema'], /--schema needs a value/],
      [['encode', '--schema', '{"type":"uint8"}', 'missing.json'], /cannot read missing\.json: no such file/],
      [['encode', 'x.json'], /--schema is required/],
    ];
    for (const [args, message] of cases) {
      const r = shornCli(args);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  });
});

describe('infer', () => {
  const inferJson = (lines, args = []) => JSON.parse(ok(['infer', ...args, file('samples.ndjson', lines.map((l) => JSON.stringify(l)).join('\n'))]).out);

  test('finds optional keys, nullable and always-null fields, integer kinds, floats, enums and literals', () => {
    const samples = [];
    const langs = ['en', 'ja', 'fr'];
    for (let k = 0; k < 12; k++) {
      samples.push({
        id: k * 1000,
        delta: k - 6,
        big: 2 ** 40 + k,
        ratio: k / 7,
        lang: langs[k % 3],
        version: 'v1',
        note: k % 2 ? `n${k}` : null,
        gone: null,
        ...(k % 3 === 0 ? { extra: true } : {}),
        name: `user ${k}`,
      });
    }
    const d = inferJson(samples);
    assert.deepEqual(
      d,
      t.object({
        id: t.uint32(),
        delta: t.int32(),
        big: t.int(),
        ratio: t.float64(),
        lang: t.enum(['en', 'ja', 'fr']),
        version: t.literal('v1'),
        note: t.nullable(t.string()),
        gone: t.null(),
        extra: t.optional(t.bool()),
        name: t.string(),
      }),
    );
  });

  test('finds records for id-keyed objects, tuples, typed arrays, dates, empty containers and t.json() for deep values', () => {
    const samples = [];
    for (let k = 0; k < 6; k++) {
      samples.push({
        byId: { [String(100 + k)]: { n: k }, [String(200 + k)]: { n: k + 1 } },
        point: [k * 1.5, k * 2.5],
        pair: [`l${k}`, k],
        samples: Array.from({ length: 80 }, (_, i) => (i * k) % 1000),
        at: new Date(Date.UTC(2024, 0, k + 1)).toISOString(),
        empty: [],
        none: {},
        deep: [[[[[k]]]]],
      });
    }
    const d = inferJson(samples, ['--max-depth', '4']);
    assert.deepEqual(
      d,
      t.object({
        byId: t.record(t.object({ n: t.uint32() })),
        point: t.tuple([t.float64(), t.float64()]),
        pair: t.tuple([t.string(), t.uint32()]),
        samples: t.uint16Array(),
        at: t.date(),
        empty: t.array(t.json()),
        none: t.record(t.json()),
        deep: t.array(t.array(t.array(t.array(t.json())))),
      }),
    );
  });

  test('finds a discriminated union where a type field splits the shapes', () => {
    const events = [
      { type: 'push', size: 3, ref: 'main' },
      { type: 'watch', action: 'started' },
      { type: 'push', size: 1, ref: 'dev' },
      { type: 'fork', forkee: { id: 7 } },
      { type: 'watch', action: 'started' },
    ];
    const d = inferJson([events]);
    assert.deepEqual(
      d,
      t.array(
        t.discriminatedUnion('type', [
          t.object({ type: t.literal('push'), size: t.uint32(), ref: t.string() }),
          t.object({ type: t.literal('watch'), action: t.string() }),
          t.object({ type: t.literal('fork'), forkee: t.object({ id: t.uint32() }) }),
        ]),
      ),
    );
    // Without unions: one object, the keys only some have optional.
    assert.equal(inferJson([events], ['--no-unions']).items.type, 'object');
  });

  test('mixed values become a union of their kinds; always-null array items take a byte (t.json())', () => {
    const d = inferJson([{ v: 1, items: [null] }, { v: 'one', items: [null, null] }, { v: [2], items: [] }]);
    assert.deepEqual(d, t.object({ v: t.union([t.uint32(), t.string(), t.array(t.uint32())]), items: t.array(t.json()) }));
  });

  test('options steer it: --no-enums, --enum-max, --no-literals, --literal-min, --no-typed-arrays, --typed-min, --no-tuples, --tuple-max, --no-records, --no-int64, --no-dates, --float32, --tag', () => {
    const samples = Array.from({ length: 8 }, (_, k) => ({
      kind: ['a', 'b'][k >> 2], // not the kind of shape: no union on it
      c: 'same',
      xs: Array.from({ length: k + 1 }, (_, i) => i + k),
      p: [k, -k],
      m: { [`${k}`]: k },
      big: 2 ** 60 + 2 ** 12 * k,
      at: new Date(Date.UTC(2024, 0, k + 1)).toISOString(),
      f: k + 0.5,
      shape: k % 2 ? { circle: 1 } : { square: 2 },
      form: k % 2 ? 'circle' : 'square',
    }));
    const field = (d, name) => d.fields.find((f) => f.name === name).schema;
    const base = inferJson(samples);
    assert.deepEqual(field(base, 'kind'), t.enum(['a', 'b']));
    assert.deepEqual(field(base, 'c'), t.literal('same'));
    assert.deepEqual(field(base, 'xs'), t.array(t.uint32()));
    assert.deepEqual(field(base, 'p'), t.tuple([t.uint32(), t.int32()]));
    assert.deepEqual(field(base, 'm'), t.record(t.uint32()));
    assert.deepEqual(field(base, 'big'), t.uint64());
    assert.deepEqual(field(base, 'at'), t.date());
    assert.deepEqual(field(base, 'f'), t.float64());
    assert.equal(base.type, 'object', 'form is no tag name: no union');

    const d = inferJson(samples, ['--no-enums', '--no-literals', '--typed-min', '4', '--no-tuples', '--no-records', '--no-int64', '--no-dates', '--float32', '--tag', 'form']);
    assert.deepEqual(d.type, 'discriminatedUnion');
    assert.equal(d.key, 'form');
    const v = d.variants[0];
    assert.deepEqual(field(v, 'kind'), t.string());
    assert.deepEqual(field(v, 'c'), t.string());
    assert.deepEqual(field(v, 'xs'), t.int8Array());
    assert.deepEqual(field(v, 'p'), t.array(t.int32()));
    assert.deepEqual(field(v, 'm').type, 'object');
    assert.deepEqual(field(v, 'big'), t.float64());
    assert.deepEqual(field(v, 'at'), t.string());
    assert.deepEqual(field(v, 'f'), t.float32());

    const narrow = inferJson(samples, ['--enum-max', '1', '--literal-min', '9', '--tuple-max', '1', '--no-typed-arrays', '--typed-min', '1']);
    assert.deepEqual(field(narrow, 'kind'), t.string());
    assert.deepEqual(field(narrow, 'c'), t.string());
    assert.deepEqual(field(narrow, 'p'), t.array(t.int32()));
    assert.deepEqual(field(narrow, 'xs'), t.array(t.uint32()));
  });

  test('--each takes a JSON array as a list of samples; several files and stdin are samples together', () => {
    const list = file('list.json', JSON.stringify([{ a: 1 }, { a: 2, b: 'x' }]));
    assert.deepEqual(JSON.parse(ok(['infer', '--each', list]).out), t.object({ a: t.uint32(), b: t.optional(t.string()) }));
    const one = file('one.json', '{"a": 1}');
    assert.deepEqual(JSON.parse(ok(['infer', one, '-'], { input: '{"a": -1}' }).out), t.object({ a: t.int32() }));
  });

  test('--ts prints TypeScript and --js CommonJS that build the same descriptor, shared shapes as constants', () => {
    const user = { id: 1, name: 'ada', email: 'ada@example.com', roles: ['admin'] };
    const samples = [{ type: 'comment', author: user, editor: { ...user, id: 2 }, body: 'hi', tags: [] }];
    const json = JSON.parse(ok(['infer', file('c.json', JSON.stringify(samples[0]))]).out);
    const js = ok(['infer', '--js', '--name', 'Comment', path.join(dir, 'c.json')]).out;
    assert.match(js, /^\/\/ Inferred by `shorn infer` from 1 sample \(.*c\.json\)/);
    assert.match(js, /^const author = t\.object\(\{/m, 'a shape used twice is a constant');
    assert.match(js, /^ {2}author,$/m);
    assert.match(js, /^ {2}editor: author,$/m);
    assert.match(js, /tags: t\.array\(t\.json\(\)\), \/\/ always empty/);
    const load = (source) => {
      const module = { exports: {} };
      new Function('require', 'module', 'exports', source)((id) => (id === 'shorn' ? shorn : require(id)), module, module.exports);
      return module.exports;
    };
    assert.deepEqual(JSON.parse(JSON.stringify(load(js).Comment)), json);
    const ts = ok(['infer', '--ts', path.join(dir, 'c.json')]).out;
    assert.match(ts, /^import \{ t, type Infer \} from 'shorn';$/m);
    assert.match(ts, /^export type Schema = Infer<typeof Schema>;$/m);
    const transpiled = require('typescript').transpileModule(ts, { compilerOptions: { module: 1 /* CommonJS */, target: 9 } }).outputText;
    assert.deepEqual(JSON.parse(JSON.stringify(load(transpiled).Schema)), json);
  });

  test('bad JSON names the file, line and column (exit 1); NDJSON names the line', () => {
    const bad = file('bad.json', '{\n  "id": 1,\n  "name": "x",\n}\n');
    let r = shornCli(['infer', bad]);
    assert.equal(r.status, 1);
    assert.equal(r.stderr, `shorn: ${bad}:4:1: invalid JSON: Expected a double-quoted property name\n`);
    r = shornCli(['infer', file('bad.ndjson', '{"a":1}\n{"a":2}\n{"a":tru}\n')]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /bad\.ndjson:3:6: invalid JSON: Unexpected character "t"\n/);
    r = shornCli(['infer'], { input: '' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /stdin:1:1: invalid JSON: Unexpected end of input/);
  });
});

describe('encode and decode', () => {
  // Every kind of JSON form: bigints beyond 2^53 as integer literals (and digit strings),
  // dates, bytes in base64, typed arrays, maps, special floats, unions, records.
  const Everything = t.object({
    id: t.uint64(),
    small: t.int64(),
    at: t.date(),
    blob: t.bytes(),
    xs: t.float64Array(),
    counts: t.map(t.string(), t.uint32()),
    nan: t.float64(),
    kind: t.enum(['a', 'b']),
    maybe: t.optional(t.nullable(t.string())),
    either: t.union([t.string(), t.uint32()]),
    byName: t.record(t.int16()),
    any: t.json(),
  });
  const written = {
    id: '18446744073709551615',
    small: -5,
    at: '2024-06-10T12:00:00.000Z',
    blob: 'AQL/',
    xs: [1.5, '-0', 'Infinity'],
    counts: [
      ['x', 1],
      ['y', 2],
    ],
    nan: 'NaN',
    kind: 'b',
    maybe: null,
    either: 300,
    byName: { 2: -2, a: 1 },
    any: { deep: [1, 'two', null] },
  };

  test('decode writes the JSON forms, and encode takes them back: any file survives encode | decode', () => {
    const schema = file('everything.schema.json', JSON.stringify(Everything));
    const input = file('everything.json', JSON.stringify(written));
    const bytes = ok(['encode', '--schema', schema, input]).stdout;
    const { value } = { value: shorn.decode(Everything, bytes) };
    assert.equal(value.id, 18446744073709551615n);
    assert.ok(value.xs instanceof Float64Array && Object.is(value.xs[1], -0));
    // decode writes the uint64 as the integer literal it is and the float -0 as the literal
    // -0 (issue 42), the rest as written.
    const literalText = JSON.stringify(written).replace('"18446744073709551615"', '18446744073709551615').replace('"-0"', '-0');
    const back = ok(['decode', '--schema', schema], { input: bytes }).out;
    assert.equal(back, `${literalText}\n`);
    assert.deepEqual(parse(back, { exactIntegers: true }), { ...written, id: 18446744073709551615n, xs: [1.5, -0, 'Infinity'] });
    // Integers beyond 2^53 written as number literals are read exactly, not rounded.
    const literal = file('literal.json', literalText);
    assert.deepEqual(ok(['encode', '--schema', schema, literal]).stdout, bytes);
    // --int64-as-string: every int64 and uint64 a string of digits, which encode reads back.
    const strings = ok(['decode', '--int64-as-string', '--schema', schema], { input: bytes }).out;
    assert.deepEqual(JSON.parse(strings), { ...written, small: '-5', xs: [1.5, -0, 'Infinity'] });
    assert.deepEqual(ok(['encode', '--schema', schema], { input: strings }).stdout, bytes);
    // Dates also read from epoch ms, bytes from an array of byte values.
    const other = file('other.json', JSON.stringify({ ...written, at: Date.parse(written.at), blob: [1, 2, 255] }));
    assert.deepEqual(ok(['encode', '--schema', schema, other]).stdout, bytes);
    assert.equal(ok(['decode', '--pretty', '--schema', schema], { input: bytes }).out, `${JSON.stringify(written, null, 2).replace('"id": "18446744073709551615"', '"id": 18446744073709551615').replace('"-0"', '-0')}\n`);
  });

  test('--hex and --base64 write and read text; -o writes a file; stdin is the default input', () => {
    const schema = JSON.stringify(t.object({ id: t.uint32(), name: t.string() }));
    const hex = ok(['encode', '--schema', schema, '--hex'], { input: '{"id": 1234, "name": "Ada"}' }).out;
    assert.equal(hex, 'd20903416461\n');
    const b64 = ok(['encode', '--schema', schema, '--base64'], { input: '{"id": 1234, "name": "Ada"}' }).out;
    assert.equal(b64, `${Buffer.from('d20903416461', 'hex').toString('base64')}\n`);
    assert.equal(ok(['decode', '--schema', schema, '--hex'], { input: 'd2 09\n03 41 64 61\n' }).out, '{"id":1234,"name":"Ada"}\n');
    assert.equal(ok(['decode', '--schema', schema, '--base64'], { input: b64 }).out, '{"id":1234,"name":"Ada"}\n');
    const out = path.join(dir, 'person.bin');
    ok(['encode', '--schema', schema, '-o', out], { input: '{"id": 1234, "name": "Ada"}' });
    assert.equal(fs.readFileSync(out).toString('hex'), 'd20903416461');
    const r = shornCli(['decode', '--schema', schema, '--hex'], { input: 'd2 0g' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /stdin is not hex text/);
  });

  test('a schema from a JS module (CommonJS or ESM, or one named export)', () => {
    fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    const link = path.join(dir, 'node_modules', 'shorn');
    if (!fs.existsSync(link)) fs.symlinkSync(ROOT, link, 'dir');
    const cjs = file('schema.cjs', "const { t } = require('shorn');\nmodule.exports = { Person: t.object({ id: t.uint32() }), Other: t.string() };\n");
    const mjs = file('schema.mjs', "import { t } from 'shorn';\nexport default t.object({ id: t.uint32() });\n");
    assert.equal(ok(['encode', '--schema', `${cjs}#Person`, '--hex'], { input: '{"id":5}' }).out, '05\n');
    assert.equal(ok(['encode', '--schema', mjs, '--hex'], { input: '{"id":5}' }).out, '05\n');
    const r = shornCli(['encode', '--schema', cjs, '--hex'], { input: '{"id":5}' });
    assert.equal(r.status, 3);
    assert.match(r.stderr, /exports several schemas \(Person, Other\): pick one with .*schema\.cjs#Person/);
  });

  test('a value that does not fit shows its path (exit 1); bad JSON its line and column', () => {
    const schema = JSON.stringify(t.object({ user: t.object({ tags: t.array(t.string()) }) }));
    let r = shornCli(['encode', '--schema', schema, '--hex'], { input: '{"user": {"tags": ["a", 3]}}' });
    assert.equal(r.status, 1);
    assert.equal(r.stderr, 'shorn: the value does not fit the schema: $.user.tags[1]: expected string, found number 3\n');
    r = shornCli(['encode', '--schema', schema, '--hex'], { input: '{"user":\n  {"tags": ["a" "b"]}}' });
    assert.equal(r.status, 1);
    assert.equal(r.stderr, "shorn: stdin:2:17: invalid JSON: Expected ',' or ']' after an array item\n");
    r = shornCli(['encode', '--schema', schema, '--hex'], { input: '{"user":{"tags":[]}}\n{"user":{"tags":[]}}\n' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /stdin:2:1: invalid JSON: Unexpected data after the JSON value\nshorn: the input looks like NDJSON \(its line 1 is a JSON value\): shorn encode --stream reads NDJSON/);
  });

  test('bytes that do not decode are exit 1 with the code, offset and path; a bad schema is exit 3', () => {
    const schema = JSON.stringify(t.object({ id: t.uint32(), name: t.string() }));
    const cases = [
      ['d209054164', /does not decode: truncated input: 3 more byte\(s\) needed at offset 3 \(\$\.name\) \(ERR_SHORN_TRUNCATED\)/],
      ['d2090341646100', /trailing bytes after the message, from offset 6 \(ERR_SHORN_TRAILING\)/],
      ['d20902c328', /malformed input at offset 3 \(\$\.name\): invalid UTF-8 in a string \(ERR_SHORN_MALFORMED\)/],
    ];
    for (const [hex, message] of cases) {
      const r = shornCli(['decode', '--schema', schema, '--hex'], { input: hex });
      assert.equal(r.status, 1, hex);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /shorn inspect, with the same --schema, shows the bytes around it/);
    }
    let r = shornCli(['decode', '--schema', '{"type":"strng"}', '--hex'], { input: '00' });
    assert.equal(r.status, 3);
    assert.match(r.stderr, /the schema is not valid: invalid schema at \$: unknown type "strng"/);
    r = shornCli(['decode', '--schema', file('bad.schema.json', '{"type": "uint8",,}'), '--hex'], { input: '00' });
    assert.equal(r.status, 3);
    assert.match(r.stderr, /bad\.schema\.json:1:18: invalid JSON/);
  });

  test('--progress reports the phases on stderr; without a terminal there is none by default', () => {
    const schema = JSON.stringify(t.array(t.uint32()));
    const r = ok(['encode', '--schema', schema, '--hex', '--progress'], { input: '[1,2,3]' });
    assert.match(r.stderr, /^shorn: parsing/m);
    assert.match(r.stderr, /^shorn: encoding/m);
    assert.equal(ok(['encode', '--schema', schema, '--hex'], { input: '[1,2,3]' }).stderr, '');
  });
});

describe('progress on a terminal', () => {
  // script(1) gives the command a terminal (util-linux; the test needs Linux).
  const hasScript = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;
  test('an input over 4 MB shows its phases on stderr when it is a terminal, rewritten in place and cleared at the end', { skip: !hasScript && 'needs script(1) on Linux' }, () => {
    const input = file('large.ndjson', Array.from({ length: 80000 }, (_, k) => JSON.stringify({ id: k, name: `user ${k}`, tags: ['a', 'b'], at: new Date(k * 1000).toISOString() })).join('\n'));
    assert.ok(fs.statSync(input).size > 4 * 1024 * 1024);
    const small = file('small.ndjson', '{"id":1}\n');
    const onTerminal = (args) => {
      const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
      const r = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: dir, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    };
    const shown = onTerminal(['infer', input, '-o', path.join(dir, 'large.schema.json')]);
    assert.match(shown, /\r\x1b\[2Kshorn: reading [\d.]+ MB…/);
    assert.match(shown, /\r\x1b\[2Kshorn: parsing \d+% \([\d.]+ MB of [\d.]+ MB\)/);
    assert.match(shown, /\r\x1b\[2Kshorn: inferring [\d.]+ MB…/);
    assert.ok(shown.endsWith('\r\x1b[2K'), JSON.stringify(shown.slice(-40)));
    assert.equal(onTerminal(['infer', small, '-o', path.join(dir, 'small.schema.json')]), '', 'nothing for a small input');
    assert.equal(onTerminal(['infer', '--no-progress', input, '-o', path.join(dir, 'large.schema.json')]), '');
  });
});

describe('encode --stream and decode --stream', () => {
  const Event = t.nullable(t.object({ id: t.uint64(), kind: t.enum(['a', 'b']), at: t.date(), text: t.string(), xs: t.optional(t.int16Array()) }));
  const codec = shorn.compile(Event);
  const schema = () => file('event.schema.json', JSON.stringify(Event));
  const forms = require('../lib/cli/forms').formsFor(codec.schema);
  const event = (k) =>
    k % 97 === 13
      ? null
      : {
          id: k === 5 ? '18446744073709551615' : k * 1000,
          kind: k % 3 ? 'a' : 'b',
          at: new Date(Date.UTC(2024, 0, 1, 0, 0, k)).toISOString(),
          text: k === 7 ? 'x'.repeat(200000) : `event ${k} \u00e9\u{1F600}`,
          ...(k % 4 ? {} : { xs: [k, -k, 3] }),
        };
  const events = Array.from({ length: 3000 }, (_, k) => event(k));
  const values = events.map((e) => forms.fromJson(e));
  // NDJSON as people have it: a byte order mark, CRLF line ends, blank lines, no final
  // newline; one line of 200 KB (several input chunks), 64-bit integers as number literals.
  // What decode --stream writes for an event: the uint64 beyond 2^53 as an integer literal.
  const line = (e) => JSON.stringify(e).replace('"18446744073709551615"', '18446744073709551615');
  const ndjson = `\ufeff${events.map((e, k) => (k === 5 ? line(e) : JSON.stringify(e))).join('\r\n\n')}`;

  test('NDJSON in, the frames of codec.encodeFrames out, and back to the same NDJSON; stdin to stdout or files', () => {
    const s = schema();
    const input = file('events.ndjson', ndjson);
    const frames = ok(['encode', '--stream', '--schema', s, input]).stdout;
    assert.ok(frames.length > 3 * 65536, 'several input chunks');
    assert.deepEqual(frames, codec.encodeFrames(values));
    assert.deepStrictEqual(codec.decodeFrames(frames), values);
    assert.deepEqual(ok(['encode', '--stream', '--schema', s], { input: ndjson }).stdout, frames);
    const back = ok(['decode', '--stream', '--schema', s], { input: frames }).out;
    assert.equal(back, `${events.map(line).join('\n')}\n`);
    const out = path.join(dir, 'events.frames');
    ok(['encode', '--stream', '--schema', s, '-o', out, input]);
    assert.deepEqual(fs.readFileSync(out), frames);
    ok(['decode', '--stream', '--schema', s, '-o', path.join(dir, 'back.ndjson'), out]);
    assert.equal(fs.readFileSync(path.join(dir, 'back.ndjson'), 'utf8'), back);
    // With --checksum, each frame ends with its CRC-32C.
    const checked = ok(['encode', '--stream', '--checksum', '--schema', s, input]).stdout;
    assert.deepEqual(checked, codec.encodeFrames(values, { checksum: true }));
    assert.equal(ok(['decode', '--stream', '--checksum', '--schema', s], { input: checked }).out, back);
    // No input is no frames, and no frames no lines.
    assert.equal(ok(['encode', '--stream', '--schema', s], { input: '' }).stdout.length, 0);
    assert.equal(ok(['decode', '--stream', '--schema', s], { input: '' }).out, '');
  });

  test('a line that is not JSON, or does not fit, stops the stream: the frames before it are written, the error names the line and the frame', () => {
    const s = schema();
    const lines = events.slice(0, 4).map((e) => JSON.stringify(e));
    let r = shornCli(['encode', '--stream', '--schema', s], { input: [...lines.slice(0, 2), '', '{"id": 1,', ...lines.slice(2)].join('\n') });
    assert.equal(r.status, 1);
    assert.equal(r.stderr, 'shorn: stdin:4:10: invalid JSON: Unexpected end of input (frame 2)\nshorn: the 2 frames before it were written\n');
    assert.deepStrictEqual(codec.decodeFrames(r.stdout), values.slice(0, 2));
    r = shornCli(['encode', '--stream', '--schema', s], { input: [lines[0], '{"id":1,"kind":"c","at":0,"text":""}', lines[1]].join('\n') });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^shorn: stdin:2: frame 1: the value does not fit the schema: \$\.kind: expected one of "a", "b"/);
    assert.match(r.stderr, /\nshorn: the 1 frame before it was written\n$/);
    assert.deepStrictEqual(codec.decodeFrames(r.stdout), values.slice(0, 1));
    r = shornCli(['encode', '--stream', '--schema', s], { input: '{"id":-1,"kind":"a","at":0,"text":""}\n' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /frame 0: the value does not fit the schema: \$\.id: .*\nshorn: nothing was written: it is the first value\n$/);
    assert.equal(r.stdout.length, 0);
  });

  test('frames that do not decode stop the stream after the values before them, with the frame index, code and offset', () => {
    const s = schema();
    const some = values.slice(0, 4);
    const frames = codec.encodeFrames(some);
    const checked = codec.encodeFrames(some, { checksum: true });
    const lengths = some.map((v) => codec.encodeFrames([v]).length);
    const third = lengths[0] + lengths[1]; // where frame 2 starts
    const flipped = Buffer.from(checked);
    flipped[third + 2 * 4 + 3] ^= 0x10; // in frame 2's message (each frame before it has 4 checksum bytes)
    const badMessage = Buffer.from(frames);
    badMessage[third + 1] = 0x7f; // frame 2's first message byte: the union index of the nullable
    // Frame 2 holds 4 KB of text (the input fits a pipe's buffer: the command stops reading
    // at the fault, and a larger input would be cut short with EPIPE).
    const long = codec.encodeFrames([values[0], values[1], { ...values[1], text: 'y'.repeat(4000) }]);
    const cases = [
      [frames.subarray(0, third + 3), [], /frame 2: the bytes ended after 3 of the frame's \d+ bytes \(stream offset \d+\) \(ERR_SHORN_TRUNCATED\)/],
      [flipped, ['--checksum'], /frame 2: checksum mismatch: .* \(ERR_SHORN_MALFORMED\)/],
      [badMessage, [], /frame 2: malformed input at offset 0 \(\$\): .* \(ERR_SHORN_MALFORMED\)/],
      [long, ['--max-frame-bytes', '1000'], /frame 2: the frame length \d+ is over maxFrameBytes \(\d+\) .*\(ERR_SHORN_LIMIT\)/],
    ];
    for (const [input, args, message] of cases) {
      const r = shornCli(['decode', '--stream', '--schema', s, ...args], { input });
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, message);
      const flags = args.includes('--checksum') ? '--stream --checksum' : '--stream';
      assert.ok(r.stderr.endsWith(`\nshorn: the values of the 2 frames before it were written; shorn inspect ${flags} --frame 2, with the same --schema, shows its bytes\n`), r.stderr);
      assert.equal(r.out, `${events.slice(0, 2).map((e) => JSON.stringify(e)).join('\n')}\n`);
    }
    const first = shornCli(['decode', '--stream', '--schema', s], { input: frames.subarray(0, 1) });
    assert.equal(first.status, 1);
    assert.match(first.stderr, /frame 0: .*\nshorn: nothing was written: it is the first frame; shorn inspect --stream --frame 0, with the same --schema, shows its bytes\n$/);
  });

  test('options: --hex, --base64 and --pretty are not for --stream; --checksum and --max-frame-bytes are only for it', () => {
    const s = JSON.stringify(t.uint8());
    const cases = [
      [['encode', '--stream', '--hex'], /--hex cannot be given with --stream/],
      [['decode', '--stream', '--base64'], /--base64 cannot be given with --stream/],
      [['decode', '--stream', '--pretty'], /--pretty cannot be given with --stream/],
      [['encode', '--checksum'], /--checksum is for --stream/],
      [['decode', '--max-frame-bytes', '10'], /--max-frame-bytes is for --stream/],
      [['decode', '--stream', '--max-frame-bytes', '4294967296'], /--max-frame-bytes is at most 4294967295/],
      [['encode', '--stream', 'missing.ndjson'], /cannot read missing\.ndjson: no such file/],
    ];
    for (const [args, message] of cases) {
      const r = shornCli([...args, '--schema', s]);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  });

  // A child that streams writes its first frames (lines) before its input ends, and its
  // memory does not grow with the input: the peak RSS (reported by a preloaded module) for 32 MB of NDJSON is within 24 MB of that for 4 MB (V8's heap
  // grows to its working size over the first few MB; on this machine 4 MB to 64 MB adds
  // 5 to 13 MB, where holding the input would add its size several times over).
  // On Linux the peak is VmHWM: getrusage's maxRSS survives exec, so it would count the
  // pages of this (large) test process that the child was forked from.
  const rssProbe = () =>
    file(
      'rss-probe.js',
      `const fs = require('node:fs');
process.on('exit', () => {
  let kb = process.resourceUsage().maxRSS;
  try {
    kb = Number(/^VmHWM:\\s*(\\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);
  } catch {}
  fs.writeSync(2, \`maxRSS \${kb}\\n\`);
});
`,
    );

  /** Runs `shorn ...args` with `chunks` (an array of Buffers) written in turn once the one before has given output, when `lockstep`. */
  function streamCli(args, chunks, { lockstep = false } = {}) {
    const { spawn } = require('node:child_process');
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--require', rssProbe(), BIN, ...args], { cwd: dir });
      const out = [];
      let outBytes = 0;
      let stderr = '';
      let outputBeforeEnd = false;
      let next = 0;
      const feed = () => {
        if (next === chunks.length) {
          child.stdin.end();
          return;
        }
        const chunk = chunks[next++];
        if (lockstep) child.stdin.write(chunk);
        else if (child.stdin.write(chunk)) setImmediate(feed);
        else child.stdin.once('drain', feed);
      };
      child.stdout.on('data', (b) => {
        out.push(b);
        outBytes += b.length;
        if (next < chunks.length) outputBeforeEnd = true;
        if (lockstep) feed();
      });
      child.stderr.on('data', (b) => (stderr += b));
      child.on('error', reject);
      child.on('close', (status) => {
        const rss = Number(/maxRSS (\d+)/.exec(stderr)?.[1]);
        resolve({ status, stdout: Buffer.concat(out, outBytes), stderr, maxRssKb: rss, outputBeforeEnd });
      });
      feed();
    });
  }

  test('streams: the first frames and lines come out before the input ends', async () => {
    const s = schema();
    const lines = events.slice(0, 50).map((e) => Buffer.from(`${JSON.stringify(e)}\n`));
    // One line at a time: the next is written only once the frame of the one before is out.
    const enc = await streamCli(['encode', '--stream', '--schema', s], lines, { lockstep: true });
    assert.equal(enc.status, 0, enc.stderr);
    assert.ok(enc.outputBeforeEnd);
    assert.deepStrictEqual(codec.decodeFrames(enc.stdout), values.slice(0, 50));
    const frames = values.slice(0, 50).map((v) => codec.encodeFrames([v]));
    const dec = await streamCli(['decode', '--stream', '--schema', s], frames, { lockstep: true });
    assert.equal(dec.status, 0, dec.stderr);
    assert.ok(dec.outputBeforeEnd);
    assert.equal(dec.stdout.toString(), events.slice(0, 50).map((e) => `${line(e)}\n`).join(''));
  });

  test('constant memory: the peak RSS does not grow with the input (64 MB of NDJSON against 4 MB)', async (context) => {
    const s = JSON.stringify(t.object({ id: t.uint32(), text: t.string() }));
    const line = (k) => Buffer.from(`${JSON.stringify({ id: k, text: `${k} ${'lorem ipsum '.repeat(80)}` })}\n`);
    const chunksOf = (megabytes) => {
      const chunks = [];
      let k = 0;
      for (let total = 0; total < megabytes * 1e6; ) {
        const group = Buffer.concat(Array.from({ length: 64 }, () => line(k++)));
        chunks.push(group);
        total += group.length;
      }
      return { chunks, lines: k };
    };
    const small = chunksOf(4);
    // 60 MB more input: a stream that kept its input (or its output) would take 60 MB or
    // more; the bound, 32 MB, leaves room for a loaded machine's GC (95 MB against 62 once,
    // on Node 24, with the fuzzers and the suite running beside it).
    const large = chunksOf(64);
    const run = async (input) => {
      const r = await streamCli(['encode', '--stream', '--schema', s], input.chunks);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(shorn.compile(JSON.parse(s)).decodeFrames(r.stdout).length, input.lines);
      // And back: the frames in 1 MB chunks.
      const chunks = [];
      for (let at = 0; at < r.stdout.length; at += 1 << 20) chunks.push(r.stdout.subarray(at, at + (1 << 20)));
      const back = await streamCli(['decode', '--stream', '--schema', s], chunks);
      assert.equal(back.status, 0, back.stderr);
      assert.equal(back.stdout.length, Buffer.concat(input.chunks).length);
      return { encode: r.maxRssKb, decode: back.maxRssKb };
    };
    const a = await run(small);
    const b = await run(large);
    const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
    context.diagnostic(`peak RSS: encode ${mb(a.encode)} for 4 MB, ${mb(b.encode)} for 64 MB; decode ${mb(a.decode)} and ${mb(b.decode)}`);
    assert.ok(b.encode < a.encode + 32 * 1024, `encode: ${mb(b.encode)} against ${mb(a.encode)}`);
    assert.ok(b.decode < a.decode + 32 * 1024, `decode: ${mb(b.decode)} against ${mb(a.decode)}`);
  });
});

describe('inspect --stream', () => {
  const Person = t.object({ id: t.uint32(), name: t.string(), nick: t.optional(t.string()) });
  const codec = shorn.compile(Person);
  const people = [
    { id: 1234, name: 'Ada' },
    { id: 7, name: 'Bob', nick: 'b' },
    { id: 300, name: 'Cy' },
  ];
  const frames = codec.encodeFrames(people);
  const schema = JSON.stringify(Person);
  const inspectOne = (value) => shornCli(['inspect', '--schema', schema], { input: codec.encode(value) }).out.trimEnd().split('\n').slice(0, -1);

  test('each frame: a line with its stream offset and length, then its message as inspect shows one', () => {
    const r = shornCli(['inspect', '--stream', '--schema', schema], { input: frames });
    assert.equal(r.status, 0, r.stderr);
    const expected = [];
    let offset = 0;
    people.forEach((p, k) => {
      const length = codec.encode(p).length;
      expected.push(`# frame ${k} at stream offset ${offset}: ${length} bytes (a 1-byte length; ${length + 1} in all)`, ...inspectOne(p));
      offset += length + 1;
    });
    expected.push(`# ${frames.length} bytes, 3 frames; all decode`);
    assert.equal(r.out, `${expected.join('\n')}\n`);
    // --frame picks one; --checksum shows each frame's CRC-32C.
    const second = ok(['inspect', '--stream', '--frame', '1', '--schema', schema], { input: frames }).out.split('\n');
    assert.equal(second[0], `# frame 1 at stream offset ${codec.encode(people[0]).length + 1}: 8 bytes (a 1-byte length; 9 in all)`);
    assert.deepEqual(second.slice(1, -2), inspectOne(people[1]));
    const checked = codec.encodeFrames(people, { checksum: true });
    const crc = checked.readUInt32LE(1 + 7).toString(16).padStart(8, '0');
    assert.match(ok(['inspect', '--stream', '--checksum', '--schema', schema], { input: checked }).out, new RegExp(`^# frame 0 at stream offset 0: 7 bytes \\(a 1-byte length, crc32c ${crc}; 12 in all\\)$`, 'm'));
    const none = shornCli(['inspect', '--stream', '--frame', '3', '--schema', schema], { input: frames });
    assert.equal(none.status, 1);
    assert.match(none.stderr, /there is no frame 3: the stream has 3 frames \(from 0\)/);
  });

  test('stops at the frame that does not decode, with the error decode --stream gives, at its offset in the message or the frame', () => {
    const bad = Buffer.from(frames);
    const second = codec.encode(people[0]).length + 1; // frame 1's first byte
    bad[second + 1 + 2] = 0x80; // the first byte of "Bob": not UTF-8
    let r = shornCli(['inspect', '--stream', '--schema', schema], { input: bad });
    assert.equal(r.status, 1);
    const decoded = shornCli(['decode', '--stream', '--schema', schema], { input: bad });
    const message = /frame 1: malformed input at offset 2 \(\$\.name\): invalid UTF-8 in a string/;
    assert.match(decoded.stderr, message);
    assert.match(decoded.stderr, /shorn inspect --stream --frame 1, with the same --schema, shows its bytes/);
    const lines = r.out.trimEnd().split('\n');
    assert.equal(lines.at(-3), '0001  03                                               $.name: (read before the error)');
    assert.match(lines.at(-2), /^0002  80 6f 62 01 01 62 +\^ ERR_SHORN_MALFORMED: /);
    assert.match(lines.at(-2), message);
    assert.equal(lines.at(-1), `# ${bad.length} bytes; frame 1 does not decode: ERR_SHORN_MALFORMED at offset 2 of its message (the 1 frame before it decodes)`);
    // A fault of the framing itself: the bytes from the frame's first, and the reader's error.
    r = shornCli(['inspect', '--stream', '--frame', '2', '--schema', schema], { input: frames.subarray(0, frames.length - 2) });
    assert.equal(r.status, 1);
    const third = frames.length - codec.encode(people[2]).length - 1;
    assert.equal(
      r.out,
      [
        `# frame 2 at stream offset ${third}`,
        `0000  ${'06 ac 02 02 43'.padEnd(47)}  ^ ERR_SHORN_TRUNCATED: frame 2: the bytes ended after 5 of the frame's 7 bytes (stream offset ${third})`,
        `# ${frames.length - 2} bytes; frame 2 does not decode: ERR_SHORN_TRUNCATED (the 2 frames before it decode)`,
        '',
      ].join('\n'),
    );
    r = shornCli(['inspect', '--stream', '--frame', '2', '--schema', schema], { input: bad });
    assert.match(r.out, /^# the stream fails before frame 2, at frame 1:\n# frame 1 at stream offset 8: /);
    const json = JSON.parse(ok(['inspect', '--stream', '--json', '--schema', schema], { input: frames }).out);
    assert.equal(json.frames.length, 3);
    assert.deepEqual(json.frames[1].rows[1], { offset: 1, length: 4, path: '$.name', value: 'Bob' });
    assert.deepEqual(Object.keys(json.frames[0]), ['frame', 'offset', 'headerBytes', 'length', 'rows', 'error']);
    assert.equal(json.error, null);
  });

  test('agrees with decodeFrames on every truncation and flipped bits of a stream of the golden vectors', (context) => {
    const { inspectFrames } = require('../lib/cli/frames');
    let cases = 0;
    // Messages of 1 to 8 bytes, two frames of each with checksums, read with and without.
    for (const v of golden.vectors.filter((x) => x.hex.length > 0 && x.hex.length <= 16)) {
      const c = shorn.compile(v.schema);
      const value = c.decode(fromHex(v.hex));
      if (value === null) continue;
      const bytes = c.encodeFrames([value, value], { checksum: true });
      const variants = [];
      for (let n = 0; n < bytes.length; n++) variants.push(bytes.subarray(0, n));
      for (let i = 0; i < bytes.length; i++) {
        for (const bit of [0, 3, 7]) {
          const b = Buffer.from(bytes);
          b[i] ^= 1 << bit;
          variants.push(b);
        }
      }
      for (const b of variants) {
        for (const checksum of [true, false]) {
          let expected = null;
          let values = [];
          try {
            values = c.decodeFrames(b, { checksum });
          } catch (e) {
            expected = e;
          }
          const { frames, error } = inspectFrames(c, b, { checksum });
          cases++;
          assert.equal(error?.message, expected?.message, `${v.name}: ${b.toString('hex')}`);
          const good = frames.filter((f) => f.error === null);
          if (expected === null) assert.equal(good.length, values.length);
          for (const f of good) assert.deepStrictEqual(f.result.value, values[f.frame] ?? c.decode(f.message), v.name);
          const failed = frames.find((f) => f.error !== null);
          if (failed?.result) assert.deepEqual([failed.result.error?.code, failed.result.error?.offset], [expected.code, expected.offset], `${v.name}: the walk stops where the decoder does`);
        }
      }
    }
    assert.ok(cases > 5000, `${cases} cases`);
    context.diagnostic(`${cases} streams`);
  });
});

describe('inspect', () => {
  const Person = t.object({ id: t.uint32(), name: t.string(), age: t.uint8(), active: t.bool(), nick: t.optional(t.string()) });

  test('prints each byte range with its path and value', () => {
    const { out, status } = shornCli(['inspect', '--schema', JSON.stringify(Person), '--hex'], { input: 'd209 03416461 24 01 00' });
    assert.equal(status, 0);
    const pad = (hex) => hex.padEnd(47);
    assert.equal(
      out,
      [
        `0000  ${pad('d2 09')}  $.id = 1234`,
        `0002  ${pad('03 41 64 61')}  $.name = "Ada"`,
        `0006  ${pad('24')}  $.age = 36`,
        `0007  ${pad('01')}  $.active = true`,
        `0008  ${pad('00')}  $.nick: absent`,
        '# 9 bytes; decodes',
        '',
      ].join('\n'),
    );
  });

  test('shows the decode error at its offset, and exits 1', () => {
    const { out, status } = shornCli(['inspect', '--schema', JSON.stringify(Person), '--hex'], { input: 'd209 03416461 24 07 00' });
    assert.equal(status, 1);
    const lines = out.trimEnd().split('\n');
    assert.match(lines[3], /^0007  07 00 +\^ ERR_SHORN_MALFORMED: malformed input at offset 7 \(\$\.active\): bool byte 0x07/);
    assert.equal(lines[4], '# 9 bytes; does not decode: ERR_SHORN_MALFORMED at offset 7');
  });

  test('--json gives the ranges as data; long values are cut unless --all', () => {
    const schema = JSON.stringify(t.object({ text: t.string(), n: t.uint32() }));
    const long = 'x'.repeat(100);
    const bytes = shorn.encode(JSON.parse(schema), { text: long, n: 1 });
    const r = shornCli(['inspect', '--schema', schema, '--json', '--hex'], { input: bytes.toString('hex') });
    assert.equal(r.status, 0);
    assert.deepEqual(JSON.parse(r.out), {
      bytes: 102,
      rows: [
        { offset: 0, length: 101, path: '$.text', value: long },
        { offset: 101, length: 1, path: '$.n', value: 1 },
      ],
      error: null,
    });
    const cut = shornCli(['inspect', '--schema', schema, '--hex'], { input: bytes.toString('hex') }).out;
    assert.match(cut, /… 69 more byte\(s\) of this value/);
    const all = shornCli(['inspect', '--schema', schema, '--all', '--hex'], { input: bytes.toString('hex') }).out;
    assert.equal(all.split('\n').length, 10); // 7 lines of 16 bytes for text, n, the summary, ''
  });

  test('every type has a minBytes member (its byte walk, by operation, is lib/inspect.js INSPECT)', () => {
    for (const [name, def] of TYPES) assert.equal(typeof def.minBytes, 'function', `${name}.minBytes`);
  });

  test('agrees with the native decoder on every golden vector: all bytes read, the same value', () => {
    for (const v of golden.vectors) {
      const codec = shorn.compile(v.schema);
      const bytes = fromHex(v.hex);
      const result = inspectBytes(codec.schema, bytes);
      assert.equal(result.error, null, `${v.name}: ${result.error && result.error.message}`);
      assert.equal(result.end, bytes.length, v.name);
      assert.deepStrictEqual(result.value, codec.decode(bytes), v.name);
      // The ranges are in order and cover every byte once.
      let at = 0;
      for (const row of result.rows) {
        assert.ok(row.offset === at || row.offset === row.end, `${v.name}: a gap or overlap at ${row.offset}`);
        at = Math.max(at, row.end);
      }
      assert.equal(at, bytes.length, v.name);
      assert.doesNotThrow(() => render(codec.schema, bytes, result));
    }
  });

  test('agrees with the native decoder on every golden reject, and every truncation of every vector: same code, offset and path', () => {
    const cases = [];
    for (const v of golden.rejects) cases.push([v.name, v.schema, fromHex(v.hex), v.limits]);
    for (const v of golden.vectors) {
      const bytes = fromHex(v.hex);
      for (let n = 0; n < bytes.length; n++) cases.push([`${v.name} cut to ${n}`, v.schema, bytes.subarray(0, n)]);
    }
    for (const [name, schema, bytes, limits] of cases) {
      const codec = shorn.compile(schema, limits || {});
      let native;
      try {
        codec.decode(bytes);
      } catch (e) {
        native = e;
      }
      assert.ok(native, `${name}: the native decoder accepts it`);
      const { error } = inspectBytes(codec.schema, bytes, limits);
      assert.ok(error, `${name}: inspect found no error (native: ${native.message})`);
      assert.deepEqual({ code: error.code, offset: error.offset, path: error.path }, { code: native.code, offset: native.offset, path: native.path }, name);
      // A limit is worded alike by both (what, the counts, the option that sets it).
      if (native.code === 'ERR_SHORN_LIMIT') assert.equal(error.message, native.message, name);
    }
  });

  test('agrees with the native decoder on every corpus through its hand-written schema', () => {
    for (const { name, shorn: schema } of CORPORA) {
      const codec = shorn.compile(schema(t));
      const bytes = codec.encode(loadCorpus(name));
      const result = inspectBytes(codec.schema, bytes);
      assert.equal(result.error, null, name);
      assert.deepStrictEqual(result.value, codec.decode(bytes), name);
    }
  });
});

describe('the source printer', () => {
  test('prints every golden vector schema as JS that builds the same descriptor', () => {
    const load = (source) => {
      const module = { exports: {} };
      new Function('require', 'module', source)(() => shorn, module);
      return module.exports.Schema;
    };
    for (const v of golden.vectors) {
      const descriptor = shorn.compile(v.schema).schema;
      const built = load(toSource(descriptor, { format: 'js' }));
      assert.deepEqual(JSON.parse(JSON.stringify(built)), descriptor, v.name);
    }
  });
});

describe('size', () => {
  test('prints bytes of JSON, shorn, gzip and brotli of both, msgpackr and avsc, with times', () => {
    const input = file('events.ndjson', Array.from({ length: 20 }, (_, k) => JSON.stringify({ id: k, kind: ['a', 'b'][k % 2], at: k * 1.5 })).join('\n'));
    const r = ok(['size', '--json', '--time-budget', '5', input]);
    const table = JSON.parse(r.out);
    assert.equal(table.messages, 20);
    assert.equal(table.schema, 'inferred');
    assert.deepEqual(
      table.rows.map((row) => row.format),
      ['JSON', 'JSON + gzip', 'JSON + brotli', 'shorn', 'shorn + gzip', 'shorn + brotli', 'msgpackr', 'avsc (Type.forValue)'],
    );
    const bytes = Object.fromEntries(table.rows.map((row) => [row.format, row.bytes]));
    assert.equal(bytes.shorn, 20 * 10, 'id (uint32, 1 byte), kind (enum, 1 byte), at (float64, 8 bytes) each');
    assert.ok(bytes.shorn < bytes.JSON && bytes.msgpackr < bytes.JSON);
    for (const row of table.rows.filter((x) => ['JSON', 'shorn', 'msgpackr'].includes(x.format))) {
      assert.ok(row.encodeMs > 0 && row.decodeMs > 0, row.format);
      assert.equal(row.roundTrip, true, row.format);
    }
    const text = ok(['size', '--no-times', '--schema', JSON.stringify(t.object({ id: t.uint32(), kind: t.string(), at: t.float64() })), input]).out;
    assert.match(text, /^format +bytes +of JSON +encode +decode$/m);
    assert.match(text, /^shorn +220 +/m);
    assert.match(text, /^JSON \+ brotli q6 /m);
    // From stdin, with 64-bit integers read exactly (stdin is read once, parsed twice).
    const big = JSON.parse(ok(['size', '--json', '--no-times', '--ndjson', '-'], { input: '{"id":18446744073709551615,"v":1}\n{"id":5,"v":2.5}\n' }).out);
    assert.equal(big.messages, 2);
    assert.equal(big.rows.find((row) => row.format === 'shorn').bytes, 10 + 8 + 1 + 8, 'uint64 (10 bytes, then 1) and float64');
  });
});

// The floor of issue 11: each corpus through the schema `shorn infer` gives, with the real
// CLI: encode gives bytes that decode to the input (the library's decode here; the CLI's
// `encode | decode` round trip, numbers compared exactly, is __test__/cli-roundtrip.test.js),
// in fewer bytes than msgpackr and within 10% of the hand-written schema's bytes.
describe('the six corpora through infer and encode', () => {
  const { Packr } = require('msgpackr');
  const { formsFor } = require('../lib/cli/forms');
  for (const { name, file: fileName } of CORPORA) {
    test(`${name}: infer, encode give the input's bytes, in fewer bytes than msgpackr and within 10% of the hand-written schema`, (context) => {
      const input = path.join(DATA, fileName);
      const schemaFile = path.join(dir, `${name}.schema.json`);
      const started = performance.now();
      ok(['infer', '-o', schemaFile, input]);
      const inferMs = performance.now() - started;
      const bytes = ok(['encode', '--schema', schemaFile, input]).stdout;
      const codec = shorn.compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));
      const forms = formsFor(codec.schema);
      assert.deepStrictEqual(codec.decode(bytes), forms.fromJson(parse(fs.readFileSync(input, 'utf8'), { exactIntegers: forms.exact })));
      const value = loadCorpus(name);
      const hand = shorn.compile(corpus(name).shorn(t)).encode(value).length;
      const msgpackr = new Packr({ useRecords: true, structures: [] }).pack(value).length;
      context.diagnostic(
        `${name}: inferred ${bytes.length} bytes, hand-written ${hand} (${((100 * bytes.length) / hand - 100).toFixed(1)}%), msgpackr ${msgpackr}; ` +
          `shorn infer ${inferMs.toFixed(0)} ms (process start included)`,
      );
      assert.ok(bytes.length < msgpackr, `${bytes.length} bytes, msgpackr ${msgpackr}`);
      assert.ok(bytes.length <= hand * 1.1, `${bytes.length} bytes, hand-written ${hand}`);
    });
  }
});
