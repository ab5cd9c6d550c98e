#!/usr/bin/env node
'use strict';
// Soak (docs/FUZZING.md): 8 worker_threads sharing nothing but the addon, each compiling
// schemas of every type (fuzz/schemas.json) in both marshallers, encoding and decoding
// values for --seconds (default 60), while the main thread runs a tight loop of 100,000
// compiles. RSS is sampled every second and reported: start, max, end, and whether it is
// flat (the last half's max within 10% + 16 MiB of the first half's max). Exit 1 if a
// worker sees a wrong result or an error, or RSS is not flat.
//
//   node scripts/soak.js [--seconds 60] [--workers 8] [--compiles 100000]

const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

const schemas = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fuzz', 'schemas.json'), 'utf8')).schemas;

if (!isMainThread) {
  const { compile } = require('..');
  const { seconds, id } = workerData;
  const end = Date.now() + seconds * 1000;
  let ops = 0;
  let compiles = 0;
  let errors = 0;
  let refused = 0;
  const hex = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
  let k = id;
  while (Date.now() < end) {
    const s = schemas[k++ % schemas.length];
    const codecs = [true, false].map((codegen) => compile(s.schema, { ...(s.limits || {}), codegen }));
    compiles += 2;
    for (let round = 0; round < 20; round++) {
      for (const seed of s.seeds) {
        const bytes = Buffer.from(seed, 'hex');
        for (const c of codecs) {
          let v;
          try {
            v = c.decode(bytes);
          } catch (e) {
            // A seed over a fixed schema's own limits (its decode budget, say) is refused:
            // that, and only that, is right for it.
            if (!s.limits || e.code !== 'ERR_SHORN_LIMIT') throw e;
            refused++;
            ops += 1;
            continue;
          }
          const again = c.encode(v);
          // Sample messages are canonical except the union and NaN ones: then a second
          // round must be stable.
          const back = c.decode(again);
          const third = c.encode(back);
          if (hex(third) !== hex(again)) {
            errors++;
            parentPort.postMessage({ error: `${s.name}: ${seed} -> ${hex(again)} -> ${hex(third)}` });
          }
          ops += 4;
        }
      }
    }
  }
  parentPort.postMessage({ done: true, ops, compiles, errors, refused });
} else {
  const seconds = arg('--seconds', 60);
  const workers = arg('--workers', 8);
  const compilesInMain = arg('--compiles', 100000);
  const { compile, t } = require('..');
  const rss = [];
  const sample = () => rss.push(process.memoryUsage.rss());
  sample();
  const timer = setInterval(sample, 1000);
  const started = Date.now();
  let failed = 0;
  let totalOps = 0;
  let totalCompiles = 0;
  let totalRefused = 0;
  const results = [];
  for (let id = 0; id < workers; id++) {
    results.push(
      new Promise((resolve) => {
        const w = new Worker(__filename, { workerData: { seconds, id } });
        w.on('message', (m) => {
          if (m.error) {
            failed++;
            if (failed < 10) console.error(`worker ${id}: ${m.error}`);
          }
          if (m.done) {
            totalOps += m.ops;
            totalCompiles += m.compiles;
            totalRefused += m.refused;
            failed += m.errors ? 0 : 0;
          }
        });
        w.on('error', (e) => {
          failed++;
          console.error(`worker ${id} threw: ${e && e.stack}`);
          resolve();
        });
        w.on('exit', () => resolve());
      }),
    );
  }
  // The main thread: a tight loop of compiles, in slices so the RSS timer runs.
  const person = t.object({ id: t.uint32(), name: t.string(), tags: t.array(t.string()), m: t.map(t.string(), t.json()) });
  let done = 0;
  const mainStarted = Date.now();
  const slice = () => {
    for (let i = 0; i < 1000 && done < compilesInMain; i++, done++) {
      const c = compile(person, { codegen: done % 2 === 0 });
      if (c.decode(c.encode({ id: done, name: 'x', tags: [], m: new Map() })).id !== done) failed++;
    }
    if (done < compilesInMain) setImmediate(slice);
  };
  slice();
  Promise.all(results).then(async () => {
    while (done < compilesInMain) await new Promise((r) => setTimeout(r, 100));
    const mainMs = Date.now() - mainStarted;
    clearInterval(timer);
    sample();
    const mib = (b) => (b / 2 ** 20).toFixed(1);
    const half = Math.floor(rss.length / 2);
    const firstMax = Math.max(...rss.slice(0, half));
    const lastMax = Math.max(...rss.slice(half));
    const flat = lastMax <= firstMax * 1.1 + 16 * 2 ** 20;
    console.log(`soak: ${workers} workers for ${seconds} s: ${totalOps} encodes and decodes (${totalRefused} decodes refused over a schema's limits, as they must be), ${totalCompiles} compiles; main thread ${compilesInMain} compiles in ${(mainMs / 1000).toFixed(1)} s`);
    console.log(`rss (MiB): start ${mib(rss[0])}, max ${mib(Math.max(...rss))}, end ${mib(rss[rss.length - 1])}; first half max ${mib(firstMax)}, last half max ${mib(lastMax)}: ${flat ? 'flat' : 'GROWING'}; ${rss.length} samples`);
    console.log(`rss samples (MiB): ${rss.map(mib).join(' ')}`);
    console.log(`${failed ? 0 : 1} passed, ${failed ? 1 : 0} failed (${failed} wrong results or errors) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    process.exit(failed || !flat ? 1 : 0);
  });
}
