'use strict';
// Stream decode: 100,000 events of the nestedEvent shape (events100k's, docs/BENCHMARKS.md)
// as one byte stream, fed to each codec's stream decoder in 64 KiB chunks (write() with
// backpressure) and read with `for await`, as an application reads a socket. Against
// NDJSON (a line splitter, then JSON.parse per line) and msgpackr's stream decoders. One
// process per measurement, rounds alternating the order; every decoded value checked once
// before timing (count, ids, and each value deep-equal to the event sent).
//
//   node benchmark/streams.js [--rounds 3]      (npm run bench runs it after the fixtures)
//   node benchmark/streams.js --child <decoder>  (one measurement, a JSON line)

const { spawnSync } = require('node:child_process');
const { once } = require('node:events');
const { Transform } = require('node:stream');
const { StringDecoder } = require('node:string_decoder');
const { parseArgs, isDeepStrictEqual } = require('node:util');
const { performance } = require('node:perf_hooks');
const { loadFixture } = require('./fixtures');
const { median, spreadPercent } = require('./stats');

const CHUNK_BYTES = 64 * 1024;
const SAMPLES = 5;

// NDJSON as the ndjson/split2 packages read it: text decoded per chunk (a StringDecoder
// keeps split UTF-8 sequences whole), split at '\n', each line through JSON.parse.
class LineParser extends Transform {
  constructor() {
    super({ readableObjectMode: true });
    this.text = new StringDecoder('utf8');
    this.rest = '';
  }
  _transform(chunk, _encoding, callback) {
    const text = this.rest + this.text.write(chunk);
    let start = 0;
    let end;
    try {
      while ((end = text.indexOf('\n', start)) !== -1) {
        this.push(JSON.parse(text.slice(start, end)));
        start = end + 1;
      }
    } catch (e) {
      callback(e);
      return;
    }
    this.rest = text.slice(start);
    callback();
  }
  _flush(callback) {
    const rest = this.rest + this.text.end();
    if (rest.length > 0) this.push(JSON.parse(rest));
    callback();
  }
}

// Each decoder: `setup(events)` gives the stream's bytes and `open()`, which returns an
// async iterable of values after `feed(chunks)` is called (a Transform is fed by write();
// msgpackr's unpackIter takes an async iterable of chunks instead).
const DECODERS = {
  shorn: {
    label: 'shorn `codec.decoder()`',
    setup(events) {
      const { t, compile } = require('..');
      const codec = compile(loadFixture('nestedEvent').schemas.shorn(t));
      return { bytes: codec.encodeFrames(events), open: () => transform(codec.decoder()) };
    },
  },
  'shorn-checksum': {
    label: 'shorn `codec.decoder({ checksum: true })`',
    setup(events) {
      const { t, compile } = require('..');
      const codec = compile(loadFixture('nestedEvent').schemas.shorn(t));
      return { bytes: codec.encodeFrames(events, { checksum: true }), open: () => transform(codec.decoder({ checksum: true })) };
    },
  },
  ndjson: {
    label: 'NDJSON (line splitter + `JSON.parse`)',
    setup(events) {
      return { bytes: Buffer.from(events.map((e) => `${JSON.stringify(e)}\n`).join('')), open: () => transform(new LineParser()) };
    },
  },
  'msgpackr-stream': {
    label: 'msgpackr `UnpackrStream`',
    setup(events) {
      const { Unpackr, UnpackrStream } = require('msgpackr');
      const { bytes, structures } = msgpackBytes(events);
      return {
        bytes,
        open: () => transform(new UnpackrStream({ unpackr: new Unpackr({ useRecords: true, structures: copy(structures) }) })),
      };
    },
  },
  'msgpackr-iter': {
    label: 'msgpackr `decodeIter` (unpackIter)',
    setup(events) {
      const { decodeIter } = require('msgpackr');
      const { bytes, structures } = msgpackBytes(events);
      return {
        bytes,
        open: () => {
          let chunks;
          const source = {
            async *[Symbol.asyncIterator]() {
              yield* chunks;
            },
          };
          return {
            feed: (list) => {
              chunks = list;
            },
            values: () => decodeIter(source, { useRecords: true, structures: copy(structures) }),
          };
        },
      };
    },
  },
  'msgpackr-multiple': {
    label: 'msgpackr `unpackMultiple` in a Transform',
    setup(events) {
      const { Unpackr } = require('msgpackr');
      const { bytes, structures } = msgpackBytes(events);
      return {
        bytes,
        open: () => {
          const unpackr = new Unpackr({ useRecords: true, structures: copy(structures) });
          let rest = null;
          return transform(
            new Transform({
              readableObjectMode: true,
              transform(chunk, _encoding, callback) {
                const source = rest === null ? chunk : Buffer.concat([rest, chunk]);
                rest = null;
                try {
                  unpackr.unpackMultiple(source, (value) => {
                    this.push(value);
                  });
                } catch (e) {
                  if (!e.incomplete) {
                    callback(e);
                    return;
                  }
                  rest = source.subarray(e.lastPosition);
                }
                callback();
              },
            }),
          );
        },
      };
    },
  },
};

function copy(structures) {
  return structures.map((keys) => [...keys]);
}

// msgpackr with records, as in the fixtures (docs/BENCHMARKS.md, Peers): the structures
// travel out of band, like a schema; each event packed on its own, one after another.
function msgpackBytes(events) {
  const { Packr } = require('msgpackr');
  const packr = new Packr({ useRecords: true, structures: [] });
  const parts = events.map((e) => packr.pack(e));
  return { bytes: Buffer.concat(parts), structures: copy(packr.structures) };
}

// A Transform read with for await, fed with write() and backpressure.
function transform(stream) {
  let chunks;
  return {
    feed: (list) => {
      chunks = list;
    },
    values: () => {
      const feeding = (async () => {
        for (const chunk of chunks) if (!stream.write(chunk)) await once(stream, 'drain');
        stream.end();
      })();
      feeding.catch((e) => stream.destroy(e));
      return stream;
    },
  };
}

function chunksOf(bytes) {
  const chunks = [];
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) chunks.push(bytes.subarray(at, at + CHUNK_BYTES));
  return chunks;
}

// One whole decode of the stream: the number of values and the sum of their ids; with
// `check`, every value compared with the event sent.
async function decodeAll(decoder, chunks, expected) {
  const reader = decoder.open();
  reader.feed(chunks);
  let count = 0;
  let ids = 0;
  for await (const value of reader.values()) {
    if (expected !== undefined && !isDeepStrictEqual(value, expected[count])) {
      throw new Error(`value ${count} differs: ${JSON.stringify(value)}`);
    }
    ids += value.id;
    count++;
  }
  return { count, ids };
}

async function child(name) {
  const events = loadFixture('events100k').value;
  const expected = loadFixture('events100k').value;
  const decoder = DECODERS[name].setup(events);
  const chunks = chunksOf(decoder.bytes);
  const want = { count: expected.length, ids: expected.reduce((s, e) => s + e.id, 0) };
  const checked = await decodeAll(decoder, chunks, expected);
  if (!isDeepStrictEqual(checked, want)) throw new Error(`decoded ${JSON.stringify(checked)}, expected ${JSON.stringify(want)}`);
  // Warm-up: two whole decodes (each ~0.1-0.7 s), then one sample per whole decode.
  for (let k = 0; k < 2; k++) await decodeAll(decoder, chunks);
  const rates = [];
  const cpuRates = [];
  for (let k = 0; k < SAMPLES; k++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const got = await decodeAll(decoder, chunks);
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpu);
    if (got.count !== want.count || got.ids !== want.ids) throw new Error('a timed decode gave other values');
    rates.push(want.count / (ms / 1000));
    cpuRates.push(want.count / ((used.user + used.system) / 1e6));
  }
  return {
    ok: true,
    messagesPerSec: median(rates),
    cpuMessagesPerSec: median(cpuRates),
    bytes: decoder.bytes.length,
    chunks: chunks.length,
  };
}

function run(rounds) {
  const names = Object.keys(DECODERS);
  const results = Object.fromEntries(names.map((n) => [n, []]));
  const cpuResults = Object.fromEntries(names.map((n) => [n, []]));
  const bytes = {};
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 1 ? [...names].reverse() : names) {
      const out = spawnSync(process.execPath, [__filename, '--child', name], { encoding: 'utf8', timeout: 300_000 });
      const line = (out.stdout || '').trim().split('\n').pop();
      let r;
      try {
        r = JSON.parse(line);
      } catch {
        r = { ok: false, error: `child failed: ${(out.stderr || '').trim().split('\n').slice(-3).join(' / ')}` };
      }
      if (!r.ok) throw new Error(`streams child ${name}: ${r.error}`);
      results[name].push(r.messagesPerSec);
      cpuResults[name].push(r.cpuMessagesPerSec);
      bytes[name] = r.bytes;
      process.stderr.write(
        `  [streams] ${name}: ${Math.round(r.messagesPerSec).toLocaleString('en-US')} messages/s ` +
          `(${Math.round(r.cpuMessagesPerSec).toLocaleString('en-US')} per CPU second)\n`,
      );
    }
  }
  const rate = (n) => median(results[n]);
  const cpuRate = (n) => median(cpuResults[n]);
  const msgpackrs = names.filter((n) => n.startsWith('msgpackr'));
  const bestMsgpackr = msgpackrs.reduce((a, b) => (rate(b) > rate(a) ? b : a));
  const bestCpuMsgpackr = msgpackrs.reduce((a, b) => (cpuRate(b) > cpuRate(a) ? b : a));
  const f = (x) => Math.round(x).toLocaleString('en-US');
  const lines = [
    '## Stream decode: 100,000 events in 64 KiB chunks',
    '',
    'events100k (nestedEvent shape) as one byte stream, written to each decoder in 64 KiB chunks with',
    `backpressure and read with \`for await\`; messages/s, median of ${rounds} rounds (one process per`,
    'measurement, 5 whole decodes each); every value checked against the event sent first. Beside the',
    "wall-clock rate, messages per CPU second of the process, which other load on the machine disturbs less.",
    '',
    '| decoder | messages/s | spread | per CPU second | spread | stream bytes | shorn / this |',
    '|---|--:|--:|--:|--:|--:|--:|',
  ];
  for (const n of names) {
    const ratio = rate('shorn') / rate(n);
    lines.push(
      `| ${DECODERS[n].label} | ${f(rate(n))} | ${spreadPercent(results[n]).toFixed(0)}% | ${f(cpuRate(n))} | ` +
        `${spreadPercent(cpuResults[n]).toFixed(0)}% | ${f(bytes[n])} | ${ratio.toFixed(2)}x |`,
    );
  }
  const times = (a, b) => `${(a / b).toFixed(2)}x`;
  lines.push(
    '',
    `Floor (issue 8): shorn at least 3x NDJSON: **${times(rate('shorn'), rate('ndjson'))}** ` +
      `(per CPU second ${times(cpuRate('shorn'), cpuRate('ndjson'))}); faster than the fastest msgpackr stream decoder ` +
      `(${DECODERS[bestMsgpackr].label}): **${times(rate('shorn'), rate(bestMsgpackr))}** ` +
      `(per CPU second, against ${DECODERS[bestCpuMsgpackr].label}: ${times(cpuRate('shorn'), cpuRate(bestCpuMsgpackr))}).`,
  );
  return { markdown: `${lines.join('\n')}\n`, results, cpuResults, bytes };
}

if (require.main === module) {
  const { values } = parseArgs({ options: { child: { type: 'string' }, rounds: { type: 'string', default: '3' } } });
  if (values.child) {
    if (!DECODERS[values.child]) throw new Error(`unknown decoder ${values.child}; known: ${Object.keys(DECODERS).join(', ')}`);
    child(values.child).then(
      (r) => process.stdout.write(`${JSON.stringify(r)}\n`),
      (e) => process.stdout.write(`${JSON.stringify({ ok: false, error: e.message })}\n`),
    );
  } else {
    process.stdout.write(run(Number(values.rounds)).markdown);
  }
}

module.exports = { run, DECODERS, decodeAll, chunksOf };
