'use strict';
// `shorn size`: what a user's own data costs as JSON, as shorn, both after gzip and
// brotli, and with msgpackr and avsc when they are installed (optional peers, never
// required), plus encode and decode times. Times are medians of short timed loops: a
// guide to the order of magnitude on this machine, not a benchmark (npm run bench is).

const zlib = require('node:zlib');
const path = require('node:path');
const { createRequire } = require('node:module');
const { isDeepStrictEqual } = require('node:util');

// Each timing: a warm-up of `budgetMs`, then blocks of samples (at least MIN_SAMPLES, and
// `budgetMs` long) until a block's median is within 10% of the one before, or until
// MAX_BUDGETS budgets have passed. A sample repeats the operation until it takes
// SAMPLE_MS, so fast operations are timed in bulk.
//
// Time is the CPU time of this process (every thread: the garbage collector's and the
// compiler's too), not wall time. V8 optimizes a large schema's generated code late, on a
// background thread: twitter's decode took 2 to 30 ms a call for its first 40 calls, then
// 1 ms. On a machine busy with other work (or a process pinned to one core), a wall-clock
// warm-up ended before that, and a sample of a few ms was stretched by every wait for the
// core: with 100 ms of wall clock, twitter's shorn decode was reported at 25 ms and its
// encode at 43 ms (load 8 on 2 cores; 1 ms and 2 ms in CPU time). On an idle machine the
// two clocks agree for single-threaded work. Windows advances process times in 15.6 ms
// ticks, too coarse for a sample, so there the clock is the wall clock.
const MIN_SAMPLES = 5;
const SAMPLE_MS = 5;
const MAX_BUDGETS = 8;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** CPU time of this process (every thread), in milliseconds. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const clock = process.platform === 'win32' ? () => performance.now() : cpuMs;

/** The median time of one call of `fn` in milliseconds (`clock`), once it is steady. */
function time(fn, budgetMs) {
  const begin = clock();
  let last = 0;
  let calls = 0;
  while (clock() - begin < budgetMs || calls === 0) {
    const t0 = clock();
    fn();
    last = clock() - t0;
    calls++;
  }
  // The warm-up's calls say how many make a sample (a call may read 0 on a coarse clock).
  const each = Math.max(last, (clock() - begin) / calls, 0.001);
  const reps = each >= SAMPLE_MS ? 1 : Math.min(10000, Math.ceil(SAMPLE_MS / each));
  let previous = Infinity;
  for (;;) {
    const samples = [];
    const start = clock();
    while (samples.length < MIN_SAMPLES || clock() - start < budgetMs) {
      const t0 = clock();
      for (let k = 0; k < reps; k++) fn();
      samples.push((clock() - t0) / reps);
    }
    const m = median(samples);
    if (m >= previous * 0.9 || clock() - begin > MAX_BUDGETS * budgetMs) return Math.min(m, previous);
    previous = m;
  }
}

/** An optional peer: from the user's project (the working directory) first, else beside shorn. */
function optional(name) {
  for (const base of [path.join(process.cwd(), 'package.json'), __filename]) {
    try {
      return createRequire(base)(name);
    } catch {
      // not there
    }
  }
  return null;
}

const sum = (xs, f) => xs.reduce((n, x) => n + f(x), 0);

/**
 * The table's rows for `messages` (each `{ json, value }`: what JSON.parse gives, and the
 * value shorn encodes) with `codec`. Options: `brotliQuality`, `times` (false: no timing),
 * `budgetMs` per timed operation. Returns `{ rows, notes }`; a row is `{ format, bytes,
 * encodeMs, decodeMs, roundTrip }`.
 */
function measure(codec, messages, { brotliQuality = 6, gzipLevel = 6, times = true, budgetMs = 100 } = {}) {
  const rows = [];
  const notes = [];
  const json = messages.map((m) => m.json);
  const values = messages.map((m) => m.value);
  const jsonBytes = json.map((v) => Buffer.from(JSON.stringify(v)));
  const shornBytes = values.map((v) => codec.encode(v));
  const gzip = (b) => zlib.gzipSync(b, { level: gzipLevel }).length;
  const brotli = (b) =>
    zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: b.length } }).length;
  const timed = (encode, decode) =>
    times ? { encodeMs: time(encode, budgetMs), decodeMs: time(decode, budgetMs) } : { encodeMs: null, decodeMs: null };

  rows.push({
    format: 'JSON',
    bytes: sum(jsonBytes, (b) => b.length),
    ...timed(
      () => json.map((v) => Buffer.from(JSON.stringify(v))),
      () => jsonBytes.map((b) => JSON.parse(b.toString())),
    ),
    roundTrip: true,
  });
  rows.push({ format: 'JSON + gzip', bytes: sum(jsonBytes, gzip) });
  rows.push({ format: `JSON + brotli`, bytes: sum(jsonBytes, brotli) });
  const decoded = shornBytes.map((b) => codec.decode(b));
  rows.push({
    format: 'shorn',
    bytes: sum(shornBytes, (b) => b.length),
    ...timed(
      () => values.map((v) => codec.encode(v)),
      () => shornBytes.map((b) => codec.decode(b)),
    ),
    roundTrip: isDeepStrictEqual(decoded, values),
  });
  rows.push({ format: 'shorn + gzip', bytes: sum(shornBytes, gzip) });
  rows.push({ format: 'shorn + brotli', bytes: sum(shornBytes, brotli) });

  const msgpackr = optional('msgpackr');
  if (msgpackr && typeof msgpackr.Packr === 'function') {
    // Records (msgpackr's structures), shared out of band as the benchmark has them.
    const packr = new msgpackr.Packr({ useRecords: true, structures: [] });
    const packed = json.map((v) => packr.pack(v));
    rows.push({
      format: 'msgpackr',
      bytes: sum(packed, (b) => b.length),
      ...timed(
        () => json.map((v) => packr.pack(v)),
        () => packed.map((b) => packr.unpack(b)),
      ),
      roundTrip: isDeepStrictEqual(
        packed.map((b) => packr.unpack(b)),
        json,
      ),
    });
  } else {
    notes.push('msgpackr: not installed (npm install msgpackr to compare)');
  }

  const avsc = optional('avsc');
  if (avsc && avsc.Type && typeof avsc.Type.forValue === 'function') {
    try {
      // One Avro type for every message: avsc's own inference, combined over them all.
      const types = json.slice(0, 1000).map((v) => avsc.Type.forValue(v));
      const type = types.length === 1 ? types[0] : avsc.Type.forTypes(types);
      const encoded = json.map((v) => type.toBuffer(v));
      const back = encoded.map((b) => type.fromBuffer(b));
      rows.push({
        format: 'avsc (Type.forValue)',
        bytes: sum(encoded, (b) => b.length),
        ...timed(
          () => json.map((v) => type.toBuffer(v)),
          () => encoded.map((b) => type.fromBuffer(b)),
        ),
        roundTrip: isDeepStrictEqual(JSON.parse(JSON.stringify(back)), json),
      });
    } catch (e) {
      notes.push(`avsc: Type.forValue cannot describe this data (${e.message.split('\n')[0]})`);
    }
  } else {
    notes.push('avsc: not installed (npm install avsc to compare)');
  }
  return { rows, notes };
}

function formatMs(ms) {
  if (ms === null || ms === undefined) return '';
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
}

/** The table as text. */
function renderTable({ rows, notes }, { brotliQuality = 6 } = {}) {
  const json = rows[0].bytes;
  const cells = rows.map((r) => [
    r.format.replace('brotli', `brotli q${brotliQuality}`) + (r.roundTrip === false ? ' *' : ''),
    r.bytes.toLocaleString('en-US'),
    `${((100 * r.bytes) / json).toFixed(1)}%`,
    formatMs(r.encodeMs),
    formatMs(r.decodeMs),
  ]);
  const head = ['format', 'bytes', 'of JSON', 'encode', 'decode'];
  const widths = head.map((h, k) => Math.max(h.length, ...cells.map((c) => c[k].length)));
  const line = (c) => c.map((x, k) => (k === 0 ? x.padEnd(widths[k]) : x.padStart(widths[k]))).join('  ').trimEnd();
  const out = [line(head), ...cells.map(line)];
  if (rows.some((r) => r.roundTrip === false)) out.push('', '* decodes to a value that differs from the input (the format lost something)');
  if (notes.length) out.push('', ...notes);
  return out.join('\n');
}

module.exports = { measure, renderTable, time, optional, cpuMs };
