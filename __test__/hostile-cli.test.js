'use strict';
// Hostile input on the command line (issue 37, the CLI's findings 1, 7, 10, 11 and 13):
// generated source that must run nothing from the samples, inputs large enough to break a
// spread into arguments, exit codes that must follow the library's errors, inspect within
// a small heap, and samples deeper than any codec reads. The real bin/shorn.js runs in
// child processes; the JS fuzzer's CLI target runs at the end.

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const ts = require('typescript');
const { shorn, ROOT, cliRunner } = require('./helpers');
const { toSource } = require('../lib/cli/source');
const { infer } = require('../lib/cli/infer');

const { t, compile } = shorn;
const BIN = path.join(ROOT, 'bin', 'shorn.js');

let dir;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-hostile-cli-'));
  // So that generated source's require('shorn') finds this package.
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'shorn'), 'dir');
});
after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});
// `shorn ...args` in `dir` (helpers.js, cliRunner).
const { shornCli, ok, file } = cliRunner(() => dir);

/** An error as the CLI must report a library error: exit `status`, one line (and a hint), no stack. */
function assertCleanError(r, status, pattern) {
  assert.equal(r.status, status, `exit ${r.status}, not ${status}: ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /internal error|^\s+at /m, 'no internal error, no stack trace');
  const lines = r.stderr.trimEnd().split('\n');
  assert.ok(lines.length <= 2 && lines.every((l) => l.startsWith('shorn: ')), `one line and a hint:\n${r.stderr}`);
  if (pattern) assert.match(lines[0], pattern);
}

// ---- finding 1: generated source runs nothing from the data --------------------------

// What ends a `//` comment, and what ends a string literal or template.
const LINE_BREAKS = ['\u2028', '\u2029', '\n', '\r', '\r\n'];
const QUOTES = ['"', "'", '`', '\\', '\\"', '*/'];

/** Strings that would run `statement` if pasted into a comment or a string literal. */
function payloads(statement) {
  return [
    ...LINE_BREAKS.map((b) => `${b}pwned: ${statement}, //`),
    ...LINE_BREAKS.map((b) => `${b}${statement}; //`),
    ...QUOTES.map((q) => `${q} + ${statement} + ${q}`),
    '${' + statement + '}', // eslint-disable-line no-template-curly-in-string
    `*/ ${statement}; /*`,
    `\u202e${statement}`, // a right-to-left override
  ];
}

/**
 * Parses `source` with the TypeScript compiler: its syntax errors, the kinds of its
 * top-level statements, and the callee of every call in it.
 */
const STATEMENT_KINDS = [
  ['ImportDeclaration', ts.isImportDeclaration],
  ['VariableStatement', ts.isVariableStatement],
  ['TypeAliasDeclaration', ts.isTypeAliasDeclaration],
  ['ExpressionStatement', ts.isExpressionStatement],
];

function parseSource(source, fileName) {
  const { diagnostics } = ts.transpileModule(source, { fileName, reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.CommonJS } });
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const calls = [];
  const visit = (node) => {
    if (ts.isCallExpression(node)) calls.push(node.expression.getText(sf));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const statements = sf.statements.map((s) => (STATEMENT_KINDS.find(([, is]) => is(s)) ?? [ts.SyntaxKind[s.kind]])[0]);
  return { errors: diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), statements, calls };
}

/** Checks a --js or --ts module: no syntax error, only the statements the printer writes, only calls of t. */
function assertOneModule(source, format) {
  const { errors, statements, calls } = parseSource(source, format === 'ts' ? 'schema.ts' : 'schema.js');
  assert.deepEqual(errors, [], 'TypeScript finds no syntax error');
  const foreign = calls.filter((c) => !/^t\.[A-Za-z0-9]+$/.test(c));
  if (format === 'ts') {
    assert.deepEqual(foreign, [], 'no call but t.*()');
    assert.equal(statements[0], 'ImportDeclaration');
    assert.equal(statements.at(-1), 'TypeAliasDeclaration');
    assert.ok(statements.slice(1, -1).every((s) => s === 'VariableStatement'), statements.join());
  } else {
    assert.deepEqual(foreign, ['require'], "no call but t.*() and require('shorn')");
    assert.equal(statements.at(-1), 'ExpressionStatement');
    assert.ok(statements.slice(0, -1).every((s) => s === 'VariableStatement'), statements.join());
    assert.match(source, /\nmodule\.exports = \{ Schema \};\n$/);
  }
}

/** Requires `source` (CommonJS) in a child process in `dir`; returns its Schema as JSON. */
function requireInChild(source, name) {
  fs.writeFileSync(path.join(dir, name), source);
  const r = spawnSync(process.execPath, ['-e', `process.stdout.write(JSON.stringify(require('./${name}').Schema))`], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, `requiring the generated ${name} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

describe('generated source (issue 37, finding 1)', () => {
  const sentinel = () => path.join(dir, 'PWNED');
  const sentinelOfFileName = () => path.join(dir, 'PWNED-file');
  let inputs;
  let expected;

  // Samples whose keys, tag field names and literal values are payloads, in files whose
  // names are payloads too (without '/', which a file name cannot hold).
  before(() => {
    // Single quotes: JSON.stringify, which writes the notes, leaves them as they are.
    const statement = `require('fs').writeFileSync('${sentinel()}', 'pwned')`;
    const list = payloads(statement);
    const samples = [];
    for (let k = 0; k < 4; k++) {
      const fields = {};
      const literals = {};
      const records = {};
      const events = {};
      list.forEach((p, i) => {
        if ((k + i) % 4 !== 0) fields[p] = i; // optional: a note "in 3 of 4"
        literals[`l${i}`] = p; // the same in every sample: t.literal(p)
        // 301 keys, the payload first: a record, with a note "such as <the first 3 keys>".
        const record = { [p]: 1 };
        for (let j = 0; j < 300; j++) record[`k${j}`] = j;
        records[`r${i}`] = record;
      });
      // A discriminated union on a field whose name ends in _type: "told apart by <name>".
      LINE_BREAKS.forEach((b, i) => {
        const tag = `${b}pwned: ${statement}, //_type`;
        events[`e${i}`] = k % 2 ? { [tag]: 'b', b1: 'x', b2: 'y', b3: 'z' } : { [tag]: 'a', a1: 1, a2: 2, a3: 3 };
      });
      samples.push({ fields, literals, records, events });
    }
    // A file name holds no '/': a `-->` at the start of a line (an HTML-like comment,
    // which CommonJS code takes) comments out the rest of the header instead.
    const named = `require('fs').writeFileSync('PWNED-file', 'pwned')`;
    inputs = [
      file('samples.ndjson', samples.map((s) => JSON.stringify(s)).join('\n')),
      ...LINE_BREAKS.map((b, i) => file(`f${i}${b}${named}${b}--> .json`, JSON.stringify(samples[0]))),
    ].map((f) => path.basename(f));
    expected = JSON.parse(ok(['infer', ...inputs]).out);
  });

  test("the issue's sample: a key starting with U+2028 among 300 keys does not run when the --js schema is required", () => {
    // Single quotes: JSON.stringify, which wrote the note, leaves them as they are.
    const record = { [`\u2028pwned: require('fs').writeFileSync('${sentinel()}', 'pwned'),//`]: 1 };
    for (let k = 0; k < 300; k++) record[`k${k}`] = k;
    const sample = file('issue.json', JSON.stringify({ data: record }));
    const js = ok(['infer', '--js', sample]).out;
    const exported = requireInChild(js, 'issue.js');
    assert.equal(fs.existsSync(sentinel()), false, 'requiring the schema ran the code in the key');
    assert.deepEqual(exported, JSON.parse(ok(['infer', sample]).out));
    assert.match(js, /\/\/ 301 keys, such as "\\u2028pwned: require\('fs'\)/);
  });

  test('infer --js of hostile keys, tag fields, literals and file names: one module that runs nothing of them and exports the inferred schema', () => {
    const js = ok(['infer', '--js', ...inputs]).out;
    // The payloads reached the comments and literals, escaped.
    assert.match(js, /such as "\\u2028pwned: require/);
    assert.match(js, /told apart by "\\u2029pwned: require/);
    assert.match(js, /^\/\/ Inferred by `shorn infer` from 9 samples \(samples\.ndjson, f0\\u2028require\('fs'\)/);
    assert.match(js, /t\.literal\("\\u202erequire/);
    assert.doesNotMatch(js, /[\u2028\u2029\u202e\r]/, 'no raw line or paragraph separator, CR or bidi control');
    assertOneModule(js, 'js');
    assert.deepEqual(requireInChild(js, 'schema.js'), expected);
    assert.equal(fs.existsSync(sentinel()), false, 'the sample ran code');
    assert.equal(fs.existsSync(sentinelOfFileName()), false, 'the file name ran code');
  });

  test('infer --ts of the same: TypeScript parses one module, with no syntax error and no statement of the data; it exports the inferred schema', () => {
    const source = ok(['infer', '--ts', ...inputs]).out;
    assertOneModule(source, 'ts');
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    assert.deepEqual(requireInChild(js, 'schema-ts.js'), expected);
    assert.equal(fs.existsSync(sentinel()), false, 'the sample ran code');
    assert.equal(fs.existsSync(sentinelOfFileName()), false, 'the file name ran code');
  });

  test('toSource escapes enum values, literals, tags, recursive names, defaults, patterns, notes and the header for where each lands', () => {
    const statement = 'globalThis.__shornPwned = true';
    const list = payloads(statement);
    const tag = `\u2028${statement}, //`;
    const descriptor = compile(
      t.object({
        choice: t.enum(list, { default: list[0] }),
        ...Object.fromEntries(list.map((p, i) => [`l${i}`, t.literal(p)])),
        [list[1]]: t.string({ pattern: '\u2028|\\*/|`|\\$\\{' }),
        tagged: t.discriminatedUnion(tag, list.slice(0, 4).map((p, i) => t.object({ [tag]: t.literal(p), [`v${i}`]: t.uint8() }))),
        tree: t.recursive(list[0], (self) => t.object({ kids: t.array(self) })),
        other: t.recursive(list[6], () => t.object({ loop: t.optional(t.ref(list[6])) })),
        withDefault: t.default(t.json(), JSON.parse(`{"__proto__": {"polluted": 1}, ${JSON.stringify(list[2])}: [${JSON.stringify(list[3])}]}`)),
      }),
    ).schema;
    const notes = new Map();
    descriptor.fields.forEach((f, i) => notes.set(f.schema, list[i % list.length]));
    const load = (source) => {
      const module = { exports: {} };
      new Function('require', 'module', 'exports', source)(() => shorn, module, module.exports);
      return module.exports.Schema;
    };
    for (const format of ['js', 'ts']) {
      const source = toSource(descriptor, { format, notes, header: list.join(' ') });
      assert.doesNotMatch(source, /[\u2028\u2029\u202e\r]/);
      assertOneModule(source, format);
      const js = format === 'js' ? source : ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
      const built = load(js);
      assert.equal(globalThis.__shornPwned, undefined, `${format}: the descriptor ran code`);
      assert.equal({}.polluted, undefined);
      assert.deepEqual(JSON.parse(JSON.stringify(built)), descriptor, format);
      // A default's `__proto__` key stays an own key, as JSON.parse made it.
      assert.ok(Object.hasOwn(built.fields.at(-1).schema.value, '__proto__'));
    }
  });

  test('--name refuses reserved words and names the module needs (require, t, Infer)', () => {
    const sample = file('one.json', '{"a": 1}');
    for (const name of ['class', 'require', 't', 'Infer', 'module', 'a-b']) {
      const r = shornCli(['infer', '--js', '--name', name, sample]);
      assert.equal(r.status, 2, name);
      assert.match(r.stderr, /--name must be a JavaScript identifier and no reserved word/);
    }
  });

  test('a shared shape under a field named require or module is a constant that does not clash with the module', () => {
    const shape = { alpha: 1, beta: 'two', gamma: [1, 2], delta: { x: 1, y: 2 }, epsilon: true };
    const sample = file('clash.json', JSON.stringify({ require: shape, module: shape, exports: shape }));
    const js = ok(['infer', '--js', sample]).out;
    assert.match(js, /^const requireType = t\.object/m);
    assertOneModule(js, 'js');
    assert.deepEqual(requireInChild(js, 'clash.js'), JSON.parse(ok(['infer', sample]).out));
  });
});

// ---- finding 7: no spread of input-sized arrays into arguments ------------------------

describe('large inputs (issue 37, finding 7)', () => {
  test('infer --each takes a JSON array of 200,000 samples', () => {
    const list = file('many.json', JSON.stringify(Array.from({ length: 200000 }, (_, k) => ({ id: k }))));
    assert.deepEqual(JSON.parse(ok(['infer', '--each', list]).out), t.object({ id: t.uint32() }));
  });

  test('inspect --stream of a frame holding a 200,000-item array shows every item', () => {
    const codec = compile(t.array(t.uint8()));
    const frames = file('wide.frames', codec.encodeFrames([Array.from({ length: 200000 }, (_, k) => k & 0x7f)]));
    const { out } = ok(['inspect', '--stream', '--schema', '{"type":"array","items":{"type":"uint8"}}', frames]);
    const lines = out.trimEnd().split('\n');
    assert.equal(lines.length, 200003); // the frame's line, the count's, the items, the summary
    assert.match(lines[2], /\$\[0\] = 0$/);
    assert.match(lines.at(-2), /\$\[199999\] = 63$/);
    assert.equal(lines.at(-1), `# ${fs.statSync(frames).size} bytes, 1 frame; all decode`);
  });
});

// ---- finding 10: every library error is a documented exit code --------------------------

describe('exit codes follow the library (issue 37, finding 10)', () => {
  const schema = JSON.stringify(t.object({ n: t.uint8({ max: 5 }), s: t.string({ maxLength: 3 }) }));

  test('decode, decode --stream and inspect of bytes that break a constraint exit 1 with one line naming ERR_SHORN_INVALID', () => {
    const codec = compile(t.object({ n: t.uint8(), s: t.string() }));
    const bytes = codec.encode({ n: 9, s: 'ok' });
    const bin = file('over.bin', bytes);
    assertCleanError(shornCli(['decode', '--schema', schema, bin]), 1, /^shorn: \S*over\.bin does not decode: invalid value at offset 0 \(\$\.n\): expected uint8 of at most 5, found 9 \(ERR_SHORN_INVALID\)$/);
    const frames = file('over.frames', codec.encodeFrames([{ n: 1, s: 'a' }, { n: 2, s: 'long' }]));
    const r = shornCli(['decode', '--stream', '--schema', schema, frames]);
    assertCleanError(r, 1, /^shorn: \S*over\.frames does not decode: frame 1: invalid value at offset 1 \(\$\.s\): expected string of at most 3 code points, found 4 code points \(ERR_SHORN_INVALID\)$/);
    assert.equal(r.out, '{"n":1,"s":"a"}\n', 'the frame before it is written');
    const inspected = shornCli(['inspect', '--schema', schema, bin]);
    assert.equal(inspected.status, 1);
    assert.match(inspected.out, /# 4 bytes; does not decode: ERR_SHORN_INVALID at offset 0\n$/);
  });

  test('each kind of library error is exit 1 (data) or 3 (schema), in one line with its code', () => {
    const deep = Buffer.concat([Buffer.alloc(129, 0xc1), Buffer.from([0x40])]); // json arrays of one item, 129 deep
    const cases = [
      [['decode', '--schema', '{"type":"uint32"}', '--hex'], '80', 1, /\(ERR_SHORN_TRUNCATED\)$/],
      [['decode', '--schema', '{"type":"uint8"}', '--hex'], '0101', 1, /\(ERR_SHORN_TRAILING\)$/],
      [['decode', '--schema', '{"type":"string"}', '--hex'], '01ff', 1, /\(ERR_SHORN_MALFORMED\)$/],
      [['decode', '--schema', '{"type":"json"}'], deep, 1, /\(ERR_SHORN_LIMIT\)$/],
      [['decode', '--stream', '--max-frame-bytes', '2', '--schema', '{"type":"string"}'], Buffer.from('0461626364', 'hex'), 1, /\(ERR_SHORN_LIMIT\)$/],
      [['encode', '--hex', '--schema', schema], '{"n": 6, "s": "x"}', 1, /the value does not fit the schema: .*at most 5/],
      [['encode', '--stream', '--schema', schema], '{"n": 1, "s": "abcd"}\n', 1, /frame 0: the value does not fit the schema: .*at most 3 code points/],
      [['decode', '--schema', '{"type":"uint8","max":"x"}', '--hex'], '00', 3, /the schema is not valid/],
      [['inspect', '--stream', '--schema', schema], Buffer.from('0206', 'hex'), 1, null],
    ];
    for (const [args, input, status, pattern] of cases) {
      const r = shornCli(args, { input });
      assert.doesNotMatch(r.stderr, /internal error|^\s+at /m, `${args.join(' ')}: ${r.stderr}`);
      if (pattern === null) assert.equal(r.status, status, `${args.join(' ')}: ${r.stderr}`);
      else assertCleanError(r, status, pattern);
    }
  });

  test("the JS fuzzer's CLI target: exit codes and output against the library's verdict on the same input", () => {
    const out = path.join(dir, 'fuzz-cli.jsonl');
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'fuzz.js'), '--target', 'cli', '--quick', '--cli-runs', '300', '--seed', '11', '--out', out], { encoding: 'utf8', timeout: 120000 });
    assert.equal(r.status, 0, `fuzz.js --target cli failed:\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
    assert.match(r.stdout, /^cli: 300 passed, 0 failed/m);
    const keys = ['cli.decode.exit-0', 'cli.decode.exit-1', 'cli.decode.ERR_SHORN_INVALID', 'cli.decode-stream.ERR_SHORN_INVALID', 'cli.encode.exit-0', 'cli.encode.exit-1', 'cli.inspect.exit-1', 'cli.inspect-stream.exit-1', 'cli.infer.exit-0'];
    for (const key of keys) {
      assert.match(r.stdout, new RegExp(`^  ${key.replace(/[.]/g, '\\.')} +[1-9]`, 'm'), `summary counts ${key}`);
    }
  });
});

// ---- finding 11: inspect streams its dump, in a small heap --------------------------------

/**
 * Runs `shorn ...args` in node with a heap of `heapMb`, counting its output's lines as they
 * come (the dump of a few MB is hundreds of MB) and keeping the last one.
 */
function runCounting(args, heapMb) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, BIN, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let bytes = 0;
    let tail = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      tail = (tail + chunk.toString('latin1')).slice(-400);
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const started = process.hrtime.bigint();
    child.on('error', reject);
    child.on('close', (status, signal) => {
      resolve({ status, signal, lines, bytes, last: tail.trimEnd().split('\n').at(-1), stderr, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    });
  });
}

describe('inspect in a small heap (issue 37, finding 11)', () => {
  const HEAP_MB = 64;

  test('inspect --stream of 2 MB of zero bytes (2 million empty frames) writes its dump as it goes, within a 64 MB heap', async (context) => {
    const zeros = file('zeros.bin', Buffer.alloc(2_000_000));
    const r = await runCounting(['inspect', '--stream', '--schema', '{"type":"null"}', zeros], HEAP_MB);
    context.diagnostic(`${r.seconds.toFixed(1)} s, ${(r.bytes / 1e6).toFixed(0)} MB of dump`);
    assert.equal(r.status, 0, `exit ${r.status} (${r.signal}): ${r.stderr.slice(0, 2000)}`);
    assert.equal(r.lines, 2 * 2_000_000 + 1); // a line per frame and its null, then the summary
    assert.equal(r.last, '# 2000000 bytes, 2000000 frames; all decode');
  });

  test('plain inspect of a message of 3 million items within a 64 MB heap (over its decode budget), of one of 500,000 items within 128 MB, and of 3 MB of zero bytes', async (context) => {
    const items = file('items.bin', compile(t.array(t.uint8())).encode(new Array(3_000_000).fill(1)));
    let r = await runCounting(['inspect', '--all', '--schema', '{"type":"array","items":{"type":"uint8"}}', items], HEAP_MB);
    context.diagnostic(`items: ${r.seconds.toFixed(1)} s, exit ${r.status}, ${r.lines} lines`);
    // Its decoded value is over the decode budget a 64 MB heap gives on Node 20 and 22 (an
    // eighth of V8's heap limit): refused at its first byte, with the error that names the
    // budget. Node 24's V8 reports a larger heap limit for the same flag, so the budget
    // takes it and the whole dump is written: either way, within the heap.
    assert.equal(r.signal, null, r.stderr);
    if (r.status === 1) assert.match(r.last, /^# 3000004 bytes; does not decode: ERR_SHORN_LIMIT at offset 0$/);
    else {
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.lines, 3_000_000 + 2);
      assert.equal(r.last, '# 3000004 bytes; decodes');
    }
    // 500,000 items are within the decode budget of a 128 MB heap (16 MB; their value
    // about 5.5 MB): each is a line of the dump, written as the walk goes.
    const half = file('half-million.bin', compile(t.array(t.uint8())).encode(new Array(500_000).fill(1)));
    const full = await runCounting(['inspect', '--schema', '{"type":"array","items":{"type":"uint8"}}', half], 128);
    context.diagnostic(`500,000 items in 128 MB: ${full.seconds.toFixed(1)} s, exit ${full.status}, ${full.lines} lines`);
    assert.equal(full.status, 0, full.stderr);
    assert.equal(full.lines, 500_000 + 2);
    assert.equal(full.last, '# 500003 bytes; decodes');
    const zeros = file('zeros-message.bin', Buffer.alloc(3_000_000));
    r = await runCounting(['inspect', '--schema', '{"type":"json"}', zeros], HEAP_MB);
    assert.equal(r.status, 1);
    assert.match(r.last, /^# 3000000 bytes; does not decode: ERR_SHORN_TRAILING at offset 1$/);
  });

  test('inspect --stream --json of 500 KB of empty frames, and inspect --stream of frames of json nested 100 deep, within a 64 MB heap', async () => {
    const zeros = file('zeros-500k.bin', Buffer.alloc(500_000));
    let r = await runCounting(['inspect', '--stream', '--json', '--schema', '{"type":"null"}', zeros], HEAP_MB);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.lines, 1);
    assert.match(r.last, /\{"frame":499999,"offset":499999,"headerBytes":1,"length":0,"rows":\[\{"offset":0,"length":0,"path":"\$","value":null\}\],"error":null\}\],"error":null\}$/);
    // Frames of json arrays nested 100 deep, 306,000 bytes of them.
    const frame = Buffer.concat([Buffer.from([101]), Buffer.alloc(100, 0xc1), Buffer.from([0x40])]);
    const deep = file('deep.frames', Buffer.concat(Array.from({ length: 3000 }, () => frame)));
    r = await runCounting(['inspect', '--stream', '--schema', '{"type":"json"}', deep], HEAP_MB);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.lines, 3000 * 102 + 1); // a frame's line, 100 arrays and the 0 in them; the summary
    assert.equal(r.last, `# ${3000 * 102} bytes, 3000 frames; all decode`);
  });
});

// ---- finding 13: infer gives a schema that takes its samples, or refuses -----------------

describe('deep samples (issue 37, finding 13)', () => {
  test('infer refuses a sample nested 100,000 deep: exit 1 naming the depth and the limit', () => {
    const n = 100000;
    const deep = file('deep.json', `${'['.repeat(n)}1${']'.repeat(n)}`);
    for (const args of [[], ['--max-depth', '100000'], ['--ts']]) {
      const r = shornCli(['infer', ...args, deep]);
      assertCleanError(r, 1, /^shorn: cannot infer a schema: a sample nests arrays and objects 99,9\d\d levels deep where the schema must be t\.json\(\), and a codec reads t\.json\(\) values at most 128 levels deep \(compile's maxDepth\)/);
      assert.match(r.stderr, /\nshorn: .*--max-depth/);
      assert.equal(r.out, '');
    }
  });

  test('every schema infer gives takes its samples, or infer refuses them: depths around the limits, with --max-depth up to 1000', () => {
    const nest = (n, leaf, wrap) => {
      let v = leaf;
      for (let k = 0; k < n; k++) v = wrap(v, k);
      return v;
    };
    const cases = [];
    for (const n of [100, 150, 160, 161, 162, 200]) cases.push({ name: `arrays ${n} deep`, samples: [nest(n, 1, (v) => [v])], options: {} });
    for (const n of [60, 64, 70, 200]) cases.push({ name: `objects ${n} deep, --max-depth 1000`, samples: [nest(n, 'x', (v) => ({ a: v }))], options: { maxDepth: 1000 } });
    // At every level an optional, nullable union of an object and a number: four
    // descriptors a level, so compile's 64 levels of schema come first.
    const mixed = [];
    for (let k = 0; k < 90; k++) {
      mixed.push(nest(k, null, (v) => ({ a: v })), nest(k, 5, (v) => ({ a: v })), nest(k, {}, (v) => ({ a: v })));
    }
    cases.push({ name: 'optional nullable unions 90 deep, --max-depth 1000', samples: mixed, options: { maxDepth: 1000 } });
    cases.push({ name: 'optional nullable unions 90 deep', samples: mixed, options: {} });
    const refused = [];
    for (const { name, samples, options } of cases) {
      let schema;
      try {
        ({ schema } = infer(samples, options));
      } catch (e) {
        assert.equal(e.name, 'InferError', e.stack);
        refused.push(name);
        continue;
      }
      const codec = compile(schema);
      for (const s of samples) assert.deepEqual(codec.decode(codec.encode(s)), s, name);
    }
    // Arrays: 33 levels of schema (--max-depth 32), then at most 128 of json. Objects:
    // fewer than 64 levels of schema, then 128 of json.
    assert.deepEqual(refused, ['arrays 162 deep', 'arrays 200 deep', 'objects 200 deep, --max-depth 1000']);
  });
});

describe('issue 37, finding 12 in the CLI: inspect tests patterns in linear time', () => {
  test("inspect of a string against '^(a+)+$' ends at once, naming the broken pattern", () => {
    const schema = file('backtrack.json', JSON.stringify(t.object({ s: t.string({ pattern: '^(a+)+$' }) })));
    // 40 a's and a '!': a backtracking RegExp takes ~2^40 steps on it.
    const message = file('backtrack.bin', compile(t.object({ s: t.string() })).encode({ s: `${'a'.repeat(40)}!` }));
    const r = spawnSync(process.execPath, [BIN, 'inspect', '--schema', schema, message], { cwd: dir, timeout: 20000, encoding: 'utf8' });
    assert.equal(r.signal, null, 'not killed by the timeout');
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /expected string matching \/\^\(a\+\)\+\$\//);
  });
});
