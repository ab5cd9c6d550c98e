'use strict';
// shorn's browser build in Chromium (Debian's /usr/bin/chromium, driven by puppeteer-core)
// against the peers' browser builds and JSON, on person, nestedEvent and batch100, encode
// and decode (issue 39's browser floor). shorn and msgpackr are bundled by esbuild for the
// browser with nothing but an entry point (shorn through its package.json "browser" field,
// msgpackr through its "browser" export). avsc is bundled by esbuild in a build of its own,
// configured as a user would for it: its browser entry for the Type API
// (avsc/etc/browser/avsc-types.js) requires Node's `buffer` and `util`, which esbuild does
// not polyfill, so `buffer` resolves to the npm package (feross/buffer, a devDependency) and
// `util` is aliased to a shim of the four functions avsc calls (UTIL_SHIM); that bundle
// loads as a classic script before the page's. One page measures all codecs, alternating:
// per round each codec x fixture x op runs ~200 ms after a warm-up, the codec order
// reversed every other round; the round trip is checked deep-equal first (avsc's decoded
// records, instances of its generated classes, compared as plain data, as in the Node
// benchmark).
// Reports ops/s medians and shorn / the fastest other. `npm run bench` runs it when
// Chromium is there (a section of its report); alone:
//
//   node benchmark/browser.js [--rounds 3] [--fixtures person,nestedEvent,batch100]
//                             [--browser chromium|firefox] [--csp]
//
// `--browser firefox`: the same page in Debian's Firefox ESR (SpiderMonkey), driven by the
// same puppeteer-core over WebDriver BiDi (issue 39's floor names Chromium alone).
// `--csp`: the page under `Content-Security-Policy: script-src 'self'`, which forbids
// eval: shorn runs its closures, and each peer whatever it runs without `new Function`
// (a codec that fails there shows n/a).
//
// Other fixtures and the corpora run too (`--fixtures canada`): avsc where its schema alone
// takes the fixture's value (not twitter, github_events and gsoc-2018, whose values it
// takes converted by functions of benchmark/corpora.js: n/a there). Each in a page of its
// own gives figures apart from the heap the others leave in a page.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const { parseArgs } = require('node:util');
const { loadFixture } = require('./fixtures');

const ROOT = path.join(__dirname, '..');
const browsers = require('../scripts/browsers');

const { BROWSERS } = browsers;
const FIXTURES = ['person', 'nestedEvent', 'batch100'];
const CODECS = ['shorn', 'msgpackr', 'avsc', 'json'];
const LABELS = { shorn: 'shorn', msgpackr: 'msgpackr', avsc: 'avsc', json: 'JSON' };

// What avsc's browser bundle gets for Node's `util`: the four functions avsc's types.js and
// utils.js call (inherits for its type classes, format for error messages, deprecate,
// debuglog), as Node defines them, without the rest of util.
const UTIL_SHIM = `export function inherits(ctor, superCtor) {
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}
export function format(fmt, ...args) {
  let i = 0;
  const out = String(fmt).replace(/%[sdj%]/g, (m) => {
    if (m === '%%') return '%';
    if (i >= args.length) return m;
    const a = args[i++];
    return m === '%j' ? JSON.stringify(a) : m === '%d' ? String(Number(a)) : String(a);
  });
  return [out, ...args.slice(i).map(String)].join(' ');
}
export function deprecate(fn) {
  return fn;
}
export function debuglog() {
  return () => {};
}
`;

// The page: the codecs, then the timed loops. Values cross as JSON (no fixture has a value
// JSON cannot carry). avsc is the global `avro` its own bundle sets.
const PAGE = `import { t, compile } from 'shorn';
import { Packr } from 'msgpackr';

const avro = globalThis.avro;

const fixtures = await (await fetch('/fixtures.json')).json();
const encoder = new TextEncoder();
const decoder = new TextDecoder();
// Deep-equal as JSON with each object's keys sorted: a decode gives a schema's fields in
// the schema's order, as in the Node benchmark's deep-equal check.
const canonical = (v) =>
  Array.isArray(v) ? v.map(canonical) : v === null || typeof v !== 'object' ? v : Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
const same = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
// avsc's decoded records are instances of its generated classes: compared as plain data.
const toPlain = (v) =>
  Array.isArray(v) ? v.map(toPlain) : v === null || typeof v !== 'object' ? v : Object.fromEntries(Object.keys(v).map((k) => [k, toPlain(v[k])]));

function codecs(f) {
  const shorn = compile(f.schema);
  const packr = new Packr({ useRecords: true, structures: [] });
  let avsc = null;
  if (f.avsc !== null) {
    try {
      avsc = avro.Type.forSchema(f.avsc);
    } catch (e) {
      // (Under --csp avsc cannot build its types: its records are generated code.)
      avsc = { toBuffer: () => { throw e; }, fromBuffer: () => { throw e; } };
    }
  }
  return {
    shorn: { encode: (v) => shorn.encode(v), decode: (b) => shorn.decode(b), info: shorn.backend + (shorn.generated ? ', generated' : '') },
    msgpackr: { encode: (v) => packr.pack(v), decode: (b) => packr.unpack(b) },
    ...(avsc === null ? {} : { avsc: { encode: (v) => avsc.toBuffer(v), decode: (b) => avsc.fromBuffer(b), normalize: toPlain } }),
    json: { encode: (v) => encoder.encode(JSON.stringify(v)), decode: (b) => JSON.parse(decoder.decode(b)) },
  };
}

let sink = 0;
function rate(fn) {
  let n = 1;
  const warm = performance.now() + 100;
  while (performance.now() < warm) for (let i = 0; i < n; i++) sink += fn() ? 1 : 0;
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < 200) {
    for (let i = 0; i < n; i++) sink += fn() ? 1 : 0;
    ops += n;
    if (n < 1 << 20 && performance.now() - now < 5) n *= 2;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

window.run = (rounds, order) => {
  const out = { rates: {}, info: {}, bytes: {}, refused: {} };
  const made = {};
  for (const name of Object.keys(fixtures)) {
    made[name] = codecs(fixtures[name]);
    for (const [codec, c] of Object.entries(made[name])) {
      let bytes;
      try {
        bytes = c.encode(fixtures[name].value);
        c.decode(bytes);
      } catch (e) {
        // A peer that cannot run here (under --csp, one that needs eval): n/a, and why.
        if (codec === 'shorn') throw e;
        out.refused[codec + ' ' + name] = String(e);
        delete made[name][codec];
        continue;
      }
      if (!same((c.normalize || ((v) => v))(c.decode(bytes)), fixtures[name].value)) throw new Error(codec + ' ' + name + ': the round trip changed the value');
      out.bytes[codec + ' ' + name] = bytes.length;
      if (c.info) out.info[codec] = c.info;
    }
  }
  for (let r = 0; r < rounds; r++) {
    const codecsInOrder = r % 2 === 0 ? order : [...order].reverse();
    for (const name of Object.keys(fixtures)) {
      const value = fixtures[name].value;
      for (const codec of codecsInOrder) {
        const c = made[name][codec];
        if (c === undefined) continue;
        const bytes = c.encode(value);
        for (const [op, fn] of [['encode', () => c.encode(value).length], ['decode', () => c.decode(bytes) !== undefined]]) {
          const key = codec + ' ' + name + ' ' + op;
          (out.rates[key] ||= []).push(rate(fn));
        }
      }
    }
  }
  out.sink = sink;
  return out;
};
window.ready = true;
`;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function measure(rounds, names, which, csp) {
  const esbuild = require('esbuild');
  const page = path.join(__dirname, '.browser-page.mjs');
  const utilShim = path.join(__dirname, '.browser-util-shim.mjs');
  fs.writeFileSync(page, PAGE);
  fs.writeFileSync(utilShim, UTIL_SHIM);
  let bundle;
  let avscBundle;
  try {
    bundle = esbuild.buildSync({ entryPoints: [page], bundle: true, format: 'esm', minify: true, write: false, logLevel: 'silent' }).outputFiles[0].contents;
    // avsc's own build: its Type API entry, `buffer` from node_modules (the npm polyfill),
    // `util` aliased to the shim; an IIFE that sets globalThis.avro.
    avscBundle = esbuild.buildSync({
      entryPoints: [require.resolve('avsc/etc/browser/avsc-types.js')],
      bundle: true,
      format: 'iife',
      globalName: 'avro',
      minify: true,
      write: false,
      logLevel: 'silent',
      alias: { util: utilShim },
    }).outputFiles[0].contents;
  } finally {
    fs.rmSync(page, { force: true });
    fs.rmSync(utilShim, { force: true });
  }
  const fixtures = {};
  for (const name of names) {
    const f = loadFixture(name);
    fixtures[name] = { schema: f.schemas.shorn(require('..').t), avsc: f.schemas.avsc && Object.keys(f.schemas.avsc).length === 1 ? f.schemas.avsc.schema : null, value: f.value };
  }
  const server = http.createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html', ...(csp ? { 'content-security-policy': "script-src 'self'" } : {}) });
      res.end('<!doctype html><meta charset="utf-8"><script src="/avsc.js"></script><script type="module" src="/app.js"></script>');
    } else if (req.url === '/avsc.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(avscBundle);
    } else if (req.url === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(bundle);
    } else if (req.url === '/fixtures.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(fixtures));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await browsers.launch(which, which === 'firefox' ? { protocolTimeout: 0 } : { userDataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-bench-chromium-')) });
  try {
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${server.address().port}/`);
    await tab.waitForFunction('window.ready === true', { timeout: 60000 });
    const version = await browser.version();
    // Run from a task of the page's own, not from the driver's evaluate: a browser may let
    // code run by its driver eval under the page's policy (`--csp`).
    await tab.evaluate((r, order) => {
      setTimeout(() => {
        try {
          window.result = window.run(r, order);
        } catch (e) {
          window.result = { error: String((e && e.stack) || e) };
        }
      }, 0);
    }, rounds, CODECS);
    await tab.waitForFunction('window.result !== undefined', { timeout: 0, polling: 500 });
    const out = await tab.evaluate('window.result');
    if (out.error) throw new Error(`the page threw: ${out.error}`);
    return { ...out, version, avscBytes: avscBundle.length };
  } finally {
    await browser.close();
    server.close();
  }
}

/** The report's section (markdown), or '' with the reason where the browser is missing. */
async function run(rounds, names = FIXTURES, which = 'chromium', csp = false) {
  if (!BROWSERS[which]) throw new Error(`--browser is ${Object.keys(BROWSERS).join(' or ')}`);
  if (!fs.existsSync(BROWSERS[which])) return `\n## In a browser\n\nNot measured: no ${which} at ${BROWSERS[which]}.\n`;
  const out = await measure(rounds, names, which, csp);
  const lines = [
    '## In a browser',
    '',
    `${out.version}${csp ? `, under Content-Security-Policy: script-src 'self' (no eval)` : ''}, one page, the codecs alternating (${rounds} rounds, medians of ops/s); shorn's browser build (${out.info.shorn} back end), msgpackr's browser build (records on), avsc's browser build (its Type API entry, avsc/etc/browser/avsc-types.js, bundled by esbuild with the npm \`buffer\` polyfill for Node's buffer and a shim for the four \`util\` functions it calls; ${Math.round(out.avscBytes / 1024)} kB minified), and JSON.stringify + TextEncoder / TextDecoder + JSON.parse.`,
    '',
    `| fixture, op | ${CODECS.map((c) => LABELS[c]).join(' | ')} | shorn / fastest other |`,
    `|---|${CODECS.map(() => '--:|').join('')}--:|`,
  ];
  for (const name of names) {
    for (const op of ['encode', 'decode']) {
      const m = Object.fromEntries(CODECS.map((c) => [c, out.rates[`${c} ${name} ${op}`] ? median(out.rates[`${c} ${name} ${op}`]) : undefined]));
      const best = Math.max(...CODECS.filter((c) => c !== 'shorn' && m[c] !== undefined).map((c) => m[c]));
      const cell = (v) => (v === undefined ? 'n/a' : v >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toFixed(1));
      lines.push(`| ${name} ${op} | ${CODECS.map((c) => cell(m[c])).join(' | ')} | ${(m.shorn / best).toFixed(2)}x |`);
    }
  }
  const refused = Object.entries(out.refused);
  if (refused.length) lines.push('', `Could not run here (n/a): ${refused.map(([k, why]) => `${k} (${why.slice(0, 160)})`).join('; ')}.`);
  return `\n${lines.join('\n')}\n`;
}

module.exports = { run };

if (require.main === module) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, fixtures: { type: 'string', default: FIXTURES.join(',') }, browser: { type: 'string', default: 'chromium' }, csp: { type: 'boolean', default: false } } });
  run(Number(values.rounds), values.fixtures.split(','), values.browser, values.csp).then((markdown) => process.stdout.write(markdown));
}
