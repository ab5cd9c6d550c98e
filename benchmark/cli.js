'use strict';
// The floors of issue 11 for the `shorn` command line, on the six corpora of
// benchmark/data, with the real bin/shorn.js in child processes:
//
// - `shorn infer FILE` (the largest corpus under 2 s) and `shorn size FILE` (any corpus
//   under 10 s): wall time and CPU time (every thread of the child) of each run, medians
//   of --runs runs (default 5), the child pinned to one core with taskset where there is
//   one (on a machine shared with other work, the CPU time is what the same run takes on
//   an idle core; both are printed).
// - with the inferred schema, `shorn encode` then `shorn decode` gives the input back, and
//   the bytes against the hand-written schema's and msgpackr's (__test__/cli.test.js
//   asserts the same; this prints them).
//
//   node benchmark/cli.js [--runs N] [--no-pin] [--only NAME]

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { isDeepStrictEqual } = require('node:util');
const shorn = require('..');
const { CORPORA, corpus, loadCorpus } = require('./corpora');
const { parse } = require('../lib/cli/json');

const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'shorn.js');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const k = args.indexOf(name);
  return k < 0 ? fallback : args[k + 1];
};
const RUNS = Number(option('--runs', 5));
const ONLY = option('--only', undefined);
const PIN = !args.includes('--no-pin') && process.platform === 'linux' && spawnSync('taskset', ['--version']).status === 0;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-cli-bench-'));
// Preloaded into each child: its CPU time (user + system, every thread) at exit, on stderr.
const probe = path.join(dir, 'cpu-probe.js');
fs.writeFileSync(probe, "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeSync(2, `\\ncpu-ms ${(u.user + u.system) / 1000}\\n`); });\n");

/** Runs `shorn ...argv`: `{ stdout, wallMs, cpuMs }`; throws if it fails. */
function run(argv, input) {
  const command = [process.execPath, '--require', probe, BIN, ...argv];
  const [file, ...rest] = PIN ? ['taskset', '-c', '0', ...command] : command;
  const started = process.hrtime.bigint();
  const r = spawnSync(file, rest, { input, maxBuffer: 256 * 1024 * 1024 });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const stderr = r.stderr.toString();
  if (r.status !== 0) throw new Error(`shorn ${argv.join(' ')} exited ${r.status}: ${stderr}`);
  return { stdout: r.stdout, wallMs, cpuMs: Number(/cpu-ms ([\d.]+)/.exec(stderr)[1]) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

function timed(argv, runs) {
  const results = Array.from({ length: runs }, () => run(argv));
  return { wall: median(results.map((r) => r.wallMs)), cpu: median(results.map((r) => r.cpuMs)), last: results.at(-1) };
}

const rows = [];
for (const { name, file } of CORPORA) {
  if (ONLY && name !== ONLY) continue;
  const input = path.join(ROOT, 'benchmark', 'data', file);
  const schemaFile = path.join(dir, `${name}.schema.json`);
  const infer = timed(['infer', input, '-o', schemaFile], RUNS);
  const size = timed(['size', input], RUNS);

  const bytes = run(['encode', '--schema', schemaFile, input]).stdout;
  // decode writes an int64 beyond 2^53 as its integer literal (issue 42): both sides are read
  // with exact integers, so twitter's ids are compared exactly.
  const back = parse(run(['decode', '--schema', schemaFile], bytes).stdout.toString(), { exactIntegers: true });
  const expected = parse(fs.readFileSync(input, 'utf8'), { exactIntegers: true });
  const value = loadCorpus(name);
  const hand = shorn.compile(corpus(name).shorn(shorn.t)).encode(value).length;
  const { Packr } = require('msgpackr');
  const msgpackr = new Packr({ useRecords: true, structures: [] }).pack(value).length;
  rows.push({
    name,
    mb: (fs.statSync(input).size / 1e6).toFixed(2),
    inferWall: infer.wall,
    inferCpu: infer.cpu,
    sizeWall: size.wall,
    sizeCpu: size.cpu,
    bytes: bytes.length,
    hand,
    msgpackr,
    same: isDeepStrictEqual(back, expected),
  });
  const r = rows.at(-1);
  console.error(`${name}: infer ${seconds(r.inferWall)} (cpu ${seconds(r.inferCpu)}), size ${seconds(r.sizeWall)} (cpu ${seconds(r.sizeCpu)}), ${r.bytes} bytes`);
}
fs.rmSync(dir, { recursive: true, force: true });

const pct = (a, b) => `${a > b ? '+' : ''}${((100 * a) / b - 100).toFixed(1)}%`;
console.log(`node ${process.version}, ${os.cpus()[0].model}, ${PIN ? 'pinned to core 0 (taskset -c 0)' : 'not pinned'}; medians of ${RUNS} runs; load average ${os.loadavg()[0].toFixed(1)} at the end`);
console.log('');
console.log('| corpus | MB | `shorn infer` wall (CPU) | `shorn size` wall (CPU) | encode → decode | inferred bytes | vs hand-written | vs msgpackr |');
console.log('|---|---:|---:|---:|---|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${r.mb} | ${seconds(r.inferWall)} (${seconds(r.inferCpu)}) | ${seconds(r.sizeWall)} (${seconds(r.sizeCpu)}) | ${r.same ? 'deep-equal' : '**differs**'} | ${r.bytes.toLocaleString('en-US')} | ${pct(r.bytes, r.hand)} | ${pct(r.bytes, r.msgpackr)} |`,
  );
}
if (rows.some((r) => !r.same || r.bytes >= r.msgpackr || r.bytes > r.hand * 1.1)) process.exitCode = 1;
