'use strict';
// Turns the raw results of run.js into the markdown report: throughput and bytes like the
// table in BENCHMARKS.md, shorn against the best peer, ratios for every codec, MB/s, cold
// setup, memory, and the reasons behind every FAIL.

const OP_LABEL = { encode: 'enc', decode: 'dec' };
const SHORN = 'shorn';
const JSON_BYTES = 'json-bytes';

// 3 significant digits with a K/M suffix: 12.3M, 25.3K, 896K, 7.84.
function formatCount(x) {
  const rounded = Number(x.toPrecision(3));
  if (rounded >= 1e6) return `${(rounded / 1e6).toPrecision(3)}M`;
  if (rounded >= 1e3) return `${(rounded / 1e3).toPrecision(3)}K`;
  return rounded.toPrecision(3);
}

const formatRatio = (x) => `${x.toFixed(2)}x`;
const formatMB = (x) => x.toFixed(1);
// Rounded first, so 999.7 µs prints as 1.00 ms, not 1.00e+3 µs.
const formatMicros = (us) => (Number(us.toPrecision(3)) >= 1000 ? `${(us / 1000).toPrecision(3)} ms` : `${us.toPrecision(3)} µs`);

function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  const align = header.map((_, i) => (i === 0 ? '---' : '--:'));
  return [line(header), line(align), ...rows.map(line)].join('\n');
}

// Collects failure reasons as numbered notes; cells with the same codec and reason share one.
class Notes {
  constructor() {
    this.byKey = new Map();
  }

  // Only the first line of the reason: a require stack or a backtrace would break the list;
  // latest.json keeps the whole text.
  fail(codec, where, error) {
    const key = `${codec}: ${error.split('\n', 1)[0]}`;
    if (!this.byKey.has(key)) this.byKey.set(key, { number: this.byKey.size + 1, where: [] });
    const note = this.byKey.get(key);
    if (!note.where.includes(where)) note.where.push(where);
    return `FAIL [${note.number}]`;
  }

  render() {
    return [...this.byKey].map(([key, { number, where }]) => `${number}. ${key} (${where.join(', ')})`).join('\n');
  }
}

// Indexes the speed cells: lookup(fixture, op, codec) -> cell or undefined.
function indexSpeed(speed) {
  const cells = new Map(speed.map((cell) => [`${cell.fixture}|${cell.op}|${cell.codec}`, cell]));
  return (fixture, op, codec) => cells.get(`${fixture}|${op}|${codec}`);
}

// Encoded size from whichever operation of the fixture succeeded (both encode the same value);
// `key` 'gzipBytes' gives the size after gzip (corpora only).
function bytesOf(lookup, fixture, codec, key = 'bytes') {
  const cell = ['encode', 'decode'].map((op) => lookup(fixture, op, codec)).find((c) => c && c.ok);
  return cell ? cell[key] : undefined;
}

// Per row, the best of the peers: every codec but shorn (the JSON baselines included).
function bestPeer(entries, better) {
  let best;
  for (const [codec, value] of entries) {
    if (codec === SHORN || value === undefined) continue;
    if (!best || better(value, best.value)) best = { codec, value };
  }
  return best;
}

// The rows every comparison table shares: per fixture an enc row, a dec row, a bytes row.
// `values` maps codec -> number (or undefined when the cell failed).
function comparisonRows(meta, lookup) {
  const rows = [];
  for (const fixture of meta.fixtures) {
    for (const op of ['encode', 'decode']) {
      const values = new Map(meta.codecs.map((codec) => {
        const cell = lookup(fixture, op, codec);
        return [codec, cell && cell.ok ? cell.opsPerSec : undefined];
      }));
      rows.push({ label: `${fixture} ${OP_LABEL[op]}`, fixture, op, values, best: bestPeer(values, (a, b) => a > b) });
    }
    const values = new Map(meta.codecs.map((codec) => [codec, bytesOf(lookup, fixture, codec)]));
    rows.push({ label: `${fixture} bytes`, fixture, op: 'bytes', values, best: bestPeer(values, (a, b) => a < b) });
  }
  return rows;
}

// One enc or dec row: a cell per codec, rendered by `render(cell)`, '-' where none ran.
function opRow(meta, lookup, fixture, op, render) {
  return [`${fixture} ${OP_LABEL[op]}`, ...meta.codecs.map((codec) => {
    const cell = lookup(fixture, op, codec);
    return cell ? render(cell) : '-';
  })];
}

function throughputTable(meta, lookup, notes) {
  const render = (cell) => {
    if (!cell.ok) return notes.fail(cell.codec, `${cell.fixture} ${OP_LABEL[cell.op]}`, cell.error);
    const spread = meta.plan.rounds > 1 ? ` (${Math.round(cell.spreadPercent)}%)` : '';
    return `${formatCount(cell.opsPerSec)}${spread}`;
  };
  const rows = [];
  for (const fixture of meta.fixtures) {
    rows.push(opRow(meta, lookup, fixture, 'encode', render), opRow(meta, lookup, fixture, 'decode', render));
    rows.push([`${fixture} bytes`, ...meta.codecs.map((codec) => {
      const bytes = bytesOf(lookup, fixture, codec);
      return bytes === undefined ? 'FAIL' : String(bytes);
    })]);
  }
  return table(['fixture', ...meta.codecs], rows);
}

function mbPerSecTable(meta, lookup) {
  const render = (cell) => (cell.ok ? cell.mbPerSec.toFixed(0) : '-');
  const rows = meta.fixtures.flatMap((fixture) => [
    opRow(meta, lookup, fixture, 'encode', render),
    opRow(meta, lookup, fixture, 'decode', render),
  ]);
  return table(['fixture', ...meta.codecs], rows);
}

// For bytes rows a ratio is size / reference (lower is smaller); for enc/dec rows it is
// ops/s / reference (higher is faster).
function ratioTable(meta, rows, referenceOf, extraColumn) {
  const body = rows.map((row) => {
    const reference = referenceOf(row);
    const cells = meta.codecs.map((codec) => {
      const value = row.values.get(codec);
      return value === undefined || reference === undefined ? '-' : formatRatio(value / reference);
    });
    return extraColumn ? [row.label, extraColumn(row), ...cells] : [row.label, ...cells];
  });
  const header = extraColumn ? ['fixture', 'best peer', ...meta.codecs] : ['fixture', ...meta.codecs];
  return table(header, body);
}

// Issue 10's floor: on personValidated (constraints checked on both sides), shorn's encode
// and decode each at least FLOOR x the fastest peer, every peer running zod's parse
// before encode and after decode. One row per operation; '-' where a cell failed.
const FLOOR = 3;
const FLOOR_FIXTURE = 'personValidated';

function floorTable(rows) {
  const body = rows
    .filter((row) => row.fixture === FLOOR_FIXTURE && row.op !== 'bytes')
    .map((row) => {
      const shorn = row.values.get(SHORN);
      if (shorn === undefined || !row.best) return [row.label, '-', '-', '-', 'FAIL'];
      const ratio = shorn / row.best.value;
      return [row.label, formatCount(shorn), `zod + ${row.best.codec} ${formatCount(row.best.value)}`, formatRatio(ratio), ratio >= FLOOR ? 'met' : 'NOT met'];
    });
  return table(['fixture', 'shorn', 'fastest peer (zod parse + codec)', 'shorn / it', `floor ${FLOOR.toFixed(2)}x`], body);
}

function shornTable(rows) {
  const body = rows.map((row) => {
    const shorn = row.values.get(SHORN);
    const json = row.values.get(JSON_BYTES);
    const show = (v) => (v === undefined ? '-' : row.op === 'bytes' ? String(v) : formatCount(v));
    const ratio = (reference) => (shorn === undefined || reference === undefined ? '-' : formatRatio(shorn / reference));
    return [
      row.label,
      shorn === undefined ? 'FAIL' : show(shorn),
      row.best ? row.best.codec : '-',
      row.best ? show(row.best.value) : '-',
      ratio(row.best && row.best.value),
      ratio(json),
    ];
  });
  return table(['fixture', 'shorn', 'best peer', 'best peer value', 'shorn / best peer', 'shorn / json-bytes'], body);
}

// The corpora: per corpus an enc, a dec, a bytes and a gzip bytes row, every codec that ran
// them, the best peer and shorn against it.
function corporaTable(meta, lookup, notes) {
  const ran = (codec) => meta.corpora.some((corpus) => lookup(corpus, 'encode', codec) || lookup(corpus, 'decode', codec));
  const codecs = meta.codecs.filter(ran);
  const spread = (cell) => (meta.plan.rounds > 1 ? ` (${Math.round(cell.spreadPercent)}%)` : '');
  const rows = [];
  const row = (label, values, render, faster) => {
    const best = bestPeer(values, faster ? (a, b) => a > b : (a, b) => a < b);
    const shorn = values.get(SHORN);
    const ratio = shorn === undefined || !best ? '-' : formatRatio(shorn / best.value);
    rows.push([label, ...codecs.map(render), best ? best.codec : '-', ratio]);
  };
  for (const corpus of meta.corpora) {
    for (const op of ['encode', 'decode']) {
      const cells = new Map(codecs.map((codec) => [codec, lookup(corpus, op, codec)]));
      const values = new Map([...cells].map(([codec, cell]) => [codec, cell && cell.ok ? cell.opsPerSec : undefined]));
      const render = (codec) => {
        const cell = cells.get(codec);
        if (!cell) return '-';
        if (!cell.ok) return notes.fail(codec, `${corpus} ${OP_LABEL[op]}`, cell.error);
        return `${formatCount(cell.opsPerSec)}${spread(cell)}`;
      };
      row(`${corpus} ${OP_LABEL[op]}`, values, render, true);
    }
    for (const [label, key] of [['bytes', 'bytes'], ['gzip bytes', 'gzipBytes']]) {
      const values = new Map(codecs.map((codec) => [codec, bytesOf(lookup, corpus, codec, key)]));
      const render = (codec) => (values.get(codec) === undefined ? 'FAIL' : String(values.get(codec)));
      row(`${corpus} ${label}`, values, render, false);
    }
  }
  return table(['corpus', ...codecs, 'best peer', 'shorn / best peer'], rows);
}

function setupTable(meta, setup, notes) {
  const codecs = meta.codecs.filter((codec) => setup.some((cell) => cell.codec === codec));
  const shapes = [...new Set(setup.map((cell) => cell.label))];
  const find = (label, codec) => setup.find((cell) => cell.label === label && cell.codec === codec);
  const rows = [];
  const loadRow = codecs.map((codec) => {
    const ok = setup.filter((cell) => cell.codec === codec && cell.ok).map((cell) => cell.loadMs);
    return ok.length ? `${Math.min(...ok).toFixed(1)} ms` : 'FAIL';
  });
  rows.push(['library load (require), fastest', ...loadRow]);
  const metrics = [
    ['first construct', 'firstSetupUs'],
    ['first enc+dec', 'firstRoundTripUs'],
    ['next construct (median)', 'nextSetupUs'],
  ];
  for (const label of shapes) {
    for (const [name, key] of metrics) {
      rows.push([`${label}: ${name}`, ...codecs.map((codec) => {
        const cell = find(label, codec);
        if (!cell) return '-';
        return cell.ok ? formatMicros(cell[key]) : notes.fail(codec, `setup ${label}`, cell.error);
      })]);
    }
  }
  return table(['schema', ...codecs], rows);
}

function memoryTable(memory, notes) {
  const rows = memory.map((cell) => {
    const label = [cell.codec, OP_LABEL[cell.op]];
    if (!cell.ok) return [...label, notes.fail(cell.codec, `memory ${OP_LABEL[cell.op]}`, cell.error), '', '', ''];
    const figures = [cell.peakRssMB, cell.rssBeforeMB, cell.heapGrowthMB, cell.retainedMB];
    return [...label, ...figures.map(formatMB)];
  });
  return table(['codec', 'op', 'peak RSS', 'RSS before op', 'heap growth', 'held after op'], rows);
}

function header(meta) {
  const percent = (x) => (x === null ? 'n/a' : `${x.toFixed(0)}%`);
  const load = (snap) =>
    `load average ${snap.loadavg.map((x) => x.toFixed(2)).join(' ')}, CPU busy ${percent(snap.busyPercent)} (1 s sample)`;
  const { machine, plan } = meta;
  return [
    `# shorn benchmark (${meta.quick ? 'quick' : 'full'} run)`,
    '',
    `- Date: ${meta.date}`,
    `- Node ${machine.node}, ${machine.cpu}, ${machine.cores} cores, ${machine.platform}; ` +
      `msgpackr native string extraction ${machine.msgpackrNative ? 'on' : 'OFF'}`,
    `- Before: ${load(meta.before)}`,
    `- During: other processes kept the CPUs ${percent(meta.otherBusyDuringRun)} busy ` +
      "(all CPU time minus the benchmark's own; above a few percent, distrust the figures)",
    `- After: ${load(meta.after)}`,
    `- ${plan.rounds} round(s), codec order alternating forward and reverse; one process per ` +
      `codec x fixture x op; warm-up ${plan.warmupMs} ms, then ${plan.samples} samples of ${plan.sampleMs} ms ` +
      `(an op longer than a sample counts one op per sample); run took ${meta.durationS.toFixed(0)} s`,
  ].join('\n');
}

function renderReport(results) {
  const corpora = results.meta.corpora || [];
  // The fixture tables cover the fixtures; the corpora have a section of their own.
  const meta = { ...results.meta, corpora, fixtures: results.meta.fixtures.filter((name) => !corpora.includes(name)) };
  const lookup = indexSpeed(results.speed);
  const notes = new Notes();
  const sections = [header(meta)];
  if (meta.fixtures.length) fixtureSections(meta, lookup, notes, sections);
  if (corpora.length) {
    sections.push(
      '## Corpora',
      'The real-world documents of benchmark/data (see its README), each exactly as JSON.parse gives it, ' +
        'through the schemas of benchmark/corpora.js; one op is the whole document. ' +
        `ops/s, median across rounds${meta.plan.rounds > 1 ? ' (spread)' : ''}; bytes: the encoded size; gzip bytes: ` +
        'the encoded output through zlib.gzipSync at its default level. Every cell round-tripped its corpus to a ' +
        'deep-equal value before it was timed. Best peer: the fastest (or smallest) codec but shorn; shorn / best ' +
        'peer above 1 is faster, and on bytes rows below 1 is smaller.',
      corporaTable(meta, lookup, notes),
    );
  }
  if (results.setup.length) {
    sections.push(
      '## Cold setup',
      'Each codec and schema in a fresh process. "first construct" builds the codec (compile, ' +
        'forSchema, parse + lookupType, build, new Packr) the first time; "first enc+dec" is its first ' +
        'round trip, where lazy code generation lands; "next construct" is the median of ' +
        `${meta.plan.setupRepeats} further constructions, which V8 and the library may have warmed. ` +
        'JSON has no schema and is left out.',
      setupTable(meta, results.setup, notes),
    );
  }
  if (results.memory.length) {
    sections.push(
      '## Memory, events100k (MB)',
      `Each op in a fresh process with --expose-gc, run ${meta.plan.memoryRuns} times from a collected ` +
        "heap. Peak RSS is the process's maxRSS: for encode it includes the fixture's 100k events; decode " +
        'reads its input from a file, so no encode inflates it. Heap growth: heapUsed right after the op minus ' +
        'before (a lower bound, since scavenges run inside the op). Held after op: heap + external memory ' +
        'still in use after a full GC, that is the result plus whatever the codec keeps between calls ' +
        '(a scratch buffer, say).',
      memoryTable(results.memory, notes),
    );
  }
  const failures = notes.render();
  if (failures) sections.push('## Failures', failures);
  return `${sections.join('\n\n')}\n`;
}

// The sections of the fixtures (not the corpora): throughput, shorn vs peers, ratios, MB/s.
function fixtureSections(meta, lookup, notes, sections) {
  const rows = comparisonRows(meta, lookup);
  sections.push(
    '## Throughput (ops/s) and encoded bytes',
    `Median across rounds${meta.plan.rounds > 1 ? '; (n%) is their spread, (max - min) / median' : ''}. ` +
      'One op on events100k is the whole array (arrays/s). Every cell round-tripped its fixture to a ' +
      'deep-equal value before it was timed.',
    throughputTable(meta, lookup, notes),
  );
  if (meta.codecs.includes(SHORN) && meta.fixtures.includes(FLOOR_FIXTURE)) {
    sections.push(
      '## Floor: validated messages',
      `personValidated (name 1-100 code points, age 0-150, an email) validated on both sides: shorn checks its ` +
        `schema's constraints on encode and decode; every peer runs zod's parse before encode and after decode. ` +
        `The floor: shorn at least ${FLOOR.toFixed(2)}x the fastest of them in each direction.`,
      floorTable(rows),
    );
  }
  if (meta.codecs.includes(SHORN)) {
    sections.push(
      '## shorn vs peers',
      'Best peer: the fastest (or, for bytes, smallest) of every codec except shorn, JSON included. ' +
        'Ratios above 1 mean shorn is faster; on bytes rows, below 1 means shorn is smaller.',
      shornTable(rows),
    );
  }
  if (meta.codecs.includes(JSON_BYTES)) {
    sections.push(
      '## Every codec relative to json-bytes',
      'ops/s / json-bytes ops/s (higher is faster); bytes rows: size / JSON size (lower is smaller).',
      ratioTable(meta, rows, (row) => row.values.get(JSON_BYTES)),
    );
  }
  sections.push(
    '## Every codec relative to the best peer',
    'Value / best peer value for the row (the best peer shows 1.00x).',
    ratioTable(meta, rows, (row) => row.best && row.best.value, (row) => (row.best ? row.best.codec : '-')),
    '## Throughput in MB/s',
    'Encoded bytes x ops/s (for json-string, the UTF-8 length of the string).',
    mbPerSecTable(meta, lookup),
  );
}

module.exports = { renderReport, formatCount };
