'use strict';
// Memory of one operation on a large fixture (events100k), in a fresh process run with
// --expose-gc. Prints one JSON line with:
//   peakRssMB      process peak RSS (resourceUsage().maxRSS), whole life of the process
//   rssBeforeMB    RSS after setup and a full GC, just before the first operation
//   heapGrowthMB   largest heapUsed right after an operation minus heapUsed before it
//                  (a lower bound of the true peak: scavenges run inside the operation)
//   retainedMB     heap + external memory still in use after a full GC: the result plus
//                  whatever the codec keeps between calls
//
// The encode run writes its output (and any out-of-band codec state, msgpackr's structures)
// to two files named from --handoff; the decode run reads them instead of encoding itself, so
// that its peak RSS is not the peak of an encode done during its own setup.
//
//   node --expose-gc benchmark/memory-child.js --codec avsc --fixture events100k --op encode --handoff PATH_PREFIX

const fs = require('node:fs');
const { parseArgs } = require('node:util');
const { loadFixture } = require('./fixtures');
const { loadAdapter, buildCodec } = require('./codecs');
const { step, printResult } = require('./child-common');

const { values: args } = parseArgs({
  options: {
    codec: { type: 'string' },
    fixture: { type: 'string' },
    op: { type: 'string' },
    handoff: { type: 'string' },
    runs: { type: 'string', default: '3' },
  },
});

const MB = 1024 * 1024;
// Both end in .tmp, which .gitignore keeps out of the repository.
const dataPath = `${args.handoff}.data.tmp`;
const sidecarPath = `${args.handoff}.meta.tmp`;

// Builds the operation to measure, with everything it reads already in memory.
function prepareEncode(adapter, fixture) {
  const codec = buildCodec(adapter, fixture);
  const value = codec.prepare(fixture.value);
  return {
    operation: () => codec.encode(value),
    finish(encoded) {
      fs.writeFileSync(dataPath, encoded);
      const sidecar = {
        isString: typeof encoded === 'string',
        probe: fixture.probe(value), // the decode run checks its result against this
        state: codec.exportState && codec.exportState(),
      };
      fs.writeFileSync(sidecarPath, JSON.stringify(sidecar));
    },
  };
}

function prepareDecode(adapter, fixture) {
  if (!fs.existsSync(sidecarPath)) throw new Error('no encoded input: the encode run failed');
  const { isString, probe, state } = JSON.parse(fs.readFileSync(sidecarPath, 'utf8'));
  const codec = buildCodec(adapter, fixture, state);
  const encoded = isString ? fs.readFileSync(dataPath, 'utf8') : fs.readFileSync(dataPath);
  return {
    operation: () => codec.decode(encoded),
    // The speed children check the full round trip; this only catches a truncated result.
    finish(decoded) {
      const found = fixture.probe(decoded);
      if (found !== probe) throw new Error(`decoded value probes ${found}, expected ${probe}`);
    },
  };
}

const held = (usage) => usage.heapUsed + usage.external;

function measureCell() {
  const fixture = loadFixture(args.fixture);
  const adapter = step('load', () => loadAdapter(args.codec));
  const prepare = args.op === 'encode' ? prepareEncode : prepareDecode;
  const { operation, finish } = step('setup', () => prepare(adapter, fixture));
  global.gc();
  const rssBefore = process.memoryUsage().rss;
  let heapGrowth = 0;
  let retained = 0;
  let result;
  for (let run = 0; run < Number(args.runs); run++) {
    result = undefined; // drop the previous result, so each run starts from the same heap
    global.gc();
    const before = process.memoryUsage();
    result = step(args.op, operation);
    heapGrowth = Math.max(heapGrowth, process.memoryUsage().heapUsed - before.heapUsed);
    global.gc();
    retained = Math.max(retained, held(process.memoryUsage()) - held(before));
  }
  finish(result);
  return {
    peakRssMB: (process.resourceUsage().maxRSS * 1024) / MB,
    rssBeforeMB: rssBefore / MB,
    heapGrowthMB: heapGrowth / MB,
    retainedMB: retained / MB,
  };
}

printResult({ codec: args.codec, fixture: args.fixture, op: args.op }, measureCell);
