'use strict';
// V8 optimizes no function of more than ~60 KB of bytecode (`--max-optimized-bytecode-size`):
// such a function runs in the interpreter or Sparkplug for ever. Generated code must stay
// under it for every schema, however large: big schemas are split into a function per
// object shape (lib/codegen.js, `helps`), and the JS read and write of small messages
// (`fastTake`, `fastPut`), which are not split, are left out where they would be large
// (FAST_SOURCE_MAX). github_events' decode had been 177 KB of source, 135 KB of bytecode,
// by its JS read alone, and was never optimized.
//
// A child process with `--allow-natives-syntax` compiles each schema, runs its functions,
// asks V8 to optimize them (`%OptimizeFunctionOnNextCall`, at once with
// `--no-concurrent-recompilation`) and reports, through `--trace-opt`, any it refused as
// too big.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..');

// Run in the child: every corpus schema, every fixture schema, and a union of many small
// message types (a WebSocket protocol's shape: more descriptors than SPLIT_NODES, and small
// messages the JS read would take).
const CHILD = `
const shorn = require(${JSON.stringify(ROOT)});
const { t } = shorn;
const { CORPORA, loadCorpus } = require(${JSON.stringify(path.join(ROOT, 'benchmark', 'corpora'))});
const { FIXTURE_NAMES, CORPUS_NAMES, loadFixture } = require(${JSON.stringify(path.join(ROOT, 'benchmark', 'fixtures'))});
const cases = [];
for (const c of CORPORA) cases.push([c.name, c.shorn(t), loadCorpus(c.name)]);
// (events100k has batch100's schema.)
for (const name of FIXTURE_NAMES.filter((n) => !CORPUS_NAMES.includes(n) && n !== 'events100k')) {
  const f = loadFixture(name);
  cases.push([name, f.schemas.shorn(t), f.value]);
}
const variants = [];
for (let k = 0; k < 40; k++) {
  variants.push(t.object({
    type: t.literal('message' + k), id: t.uint32(), room: t.string(), from: t.string(),
    text: t.optional(t.string()), at: t.float64(), seen: t.bool(),
  }));
}
cases.push(['union of 40 message types', t.array(t.discriminatedUnion('type', variants)),
  [{ type: 'message7', id: 1, room: 'r', from: 'f', at: 1.5, seen: true }]]);
for (const [name, schema, value] of cases) {
  const codec = shorn.compile(schema);
  const bytes = Uint8Array.from(codec.encode(value));
  const target = new Uint8Array(bytes.length);
  for (const [fn, call] of [
    ['decode', () => codec.decode(bytes)],
    ['encode', () => codec.encode(value)],
    ['encodeInto', () => codec.encodeInto(value, target)],
  ]) {
    const f = codec[fn];
    console.log('== ' + name + ' ' + fn);
    %PrepareFunctionForOptimization(f);
    call();
    call();
    %OptimizeFunctionOnNextCall(f);
    call();
  }
}
console.log('== done');
`;

test('V8 optimizes every generated decode and encode: none is too big', () => {
  const run = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--no-concurrent-recompilation', '--trace-opt', '-e', CHILD],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^== done$/m, 'the child ran every case');
  // The case each refusal came under.
  const refused = [];
  let current = '';
  for (const line of run.stdout.split('\n')) {
    if (line.startsWith('== ')) current = line.slice(3);
    else if (/too big/i.test(line)) refused.push(`${current}: ${line}`);
  }
  assert.deepEqual(refused, []);
});
