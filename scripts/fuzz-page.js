#!/usr/bin/env node
'use strict';
// The differential fuzz of the browser build in a real browser (docs/FUZZING.md, "In a
// browser"): scripts/fuzz.js makes the inputs and checks them in this process as it always
// does (`--emit`: random bytes, mutated messages, random values, each with the native back
// end's answer), then a page holding the package's browser build, bundled by esbuild,
// decodes and encodes every one of them in Firefox (SpiderMonkey) or Chromium, with or
// without a Content-Security-Policy that forbids eval (then the closures alone), and must
// give the native answer: the decoded value (scripts/fuzz-common.js's value form, to the
// key order and the class) and the bytes it encodes back to, or the same error (code,
// message, path, offset); an encode, the same bytes or error.
//
//   node scripts/fuzz-page.js [--browser firefox|chromium] [--csp] [--runs N] [--seed S]
//                             [--out FILE]
//
// Exit status 1 on any difference; the differing cases are written to --out (JSON lines).

const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { options, VALUE_FORM_SOURCE } = require('./fuzz-common');
const browsers = require('./browsers');

const root = path.join(__dirname, '..');
const argv = process.argv.slice(2);
const option = options(argv);
const BROWSER = option('--browser', 'firefox');
if (!['firefox', 'chromium'].includes(BROWSER)) throw new Error('--browser is firefox or chromium');
const CSP = argv.includes('--csp');
const RUNS = Number(option('--runs', 20000));
if (!Number.isSafeInteger(RUNS) || RUNS < 1) throw new Error('--runs must be a positive integer');
const SEED = Number(option('--seed', 7));
const OUT = option('--out', path.join(os.tmpdir(), `shorn-fuzz-page-${SEED}.jsonl`));
// Cases a page is handed at a time.
const CHUNK = 500;

// What the page runs: the codecs of the schemas' list, and each case's answer, in the
// form scripts/fuzz.js's `emit` writes the native one.
const PAGE = `import { compile, ShornError } from ${JSON.stringify(path.join(root, 'index.mjs'))};
${VALUE_FORM_SOURCE}
const fromHex = (h) => { const b = new Uint8Array(h.length / 2); for (let i = 0; i < b.length; i++) b[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16); return b; };
let codecs = [];
function answer(fn) {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof ShornError)) return { thrown: String(e && e.stack || e) };
    return { error: { code: e.code, message: e.message, path: e.path, offset: e.offset } };
  }
}
function run(c) {
  const codec = codecs[c.s];
  if (codec.error || codec.thrown) return JSON.stringify(codec);
  if (c.bytes !== undefined) {
    const got = answer(() => ({ value: toForm(codec.decode(fromHex(c.bytes))) }));
    if (got.value !== undefined) got.again = answer(() => ({ hex: hexOf(codec.encode(fromForm(got.value))) }));
    return JSON.stringify(got);
  }
  return JSON.stringify(answer(() => ({ hex: hexOf(codec.encode(fromForm(c.input))) })));
}
// All from the page's own code (not the driver's evaluate, which a browser may let eval
// under the policy): the schemas, then the cases a chunk at a time, answered by POST.
async function main() {
  const schemas = await (await fetch('/schemas')).json();
  codecs = schemas.map(({ schema, limits }) => answer(() => compile(schema, limits)));
  await fetch('/codecs', { method: 'POST', body: JSON.stringify({ generated: codecs.filter((c) => c.generated === true).length, closures: codecs.filter((c) => c.generated === false).length, backends: [...new Set(codecs.map((c) => c.backend))] }) });
  for (let k = 0; ; k++) {
    const cases = await (await fetch('/cases/' + k)).json();
    if (cases === null) break;
    await fetch('/answers/' + k, { method: 'POST', body: JSON.stringify(cases.map(run)) });
  }
}
main().then(() => { window.done = 'ok'; }, (e) => { window.done = String(e && e.stack || e); });
`;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-fuzz-page-'));
  try {
    // The inputs, checked here on the way (both marshallers and the JS back end).
    const casesFile = path.join(dir, 'cases.jsonl');
    const made = spawnSync(process.execPath, [path.join(__dirname, 'fuzz.js'), '--target', 'library', '--runs', String(RUNS), '--seed', String(SEED), '--emit', casesFile, '--out', path.join(dir, 'fuzz-failures.jsonl')], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (made.status !== 0) {
      process.stdout.write(made.stdout);
      process.stderr.write(made.stderr);
      throw new Error(`scripts/fuzz.js failed (status ${made.status}) on the inputs before the page ran`);
    }
    const lines = fs.readFileSync(casesFile, 'utf8').split('\n').filter(Boolean);
    const { schemas } = JSON.parse(lines[0]);
    const cases = lines.slice(1).map((l) => JSON.parse(l));

    const entry = path.join(dir, 'page.mjs');
    fs.writeFileSync(entry, PAGE);
    const bundle = require('esbuild').buildSync({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' }).outputFiles[0].contents;
    const started = Date.now();
    let failed = 0;
    let codecs;
    const counts = { decode: 0, 'decode error': 0, encode: 0, 'encode error': 0 };
    const out = fs.openSync(OUT, 'w');
    // The page's answers to chunk k, against the native ones.
    function compare(k, got) {
      const chunk = cases.slice(k * CHUNK, (k + 1) * CHUNK);
      if (!Array.isArray(got) || got.length !== chunk.length) throw new Error(`the page answered chunk ${k} with ${JSON.stringify(got).slice(0, 200)}`);
      chunk.forEach((c, i) => {
        const { s, bytes, input, ...native } = c;
        const kind = bytes !== undefined ? 'decode' : 'encode';
        counts[native.error ? `${kind} error` : kind]++;
        const want = JSON.stringify(native);
        if (got[i] === want) return;
        failed++;
        fs.writeSync(out, JSON.stringify({ schema: schemas[s], input: bytes !== undefined ? { hex: bytes } : { value: input }, native, page: JSON.parse(got[i]) }) + '\n');
        if (failed <= 5) console.log(`differs: ${kind} of ${bytes ?? JSON.stringify(input).slice(0, 200)} under ${JSON.stringify(schemas[s].schema).slice(0, 200)}\n  native: ${want.slice(0, 400)}\n  page:   ${got[i].slice(0, 400)}`);
      });
    }
    let answered = 0;
    const server = http.createServer((req, res) => {
      const send = (type, body, headers = {}) => {
        res.writeHead(200, { 'content-type': type, ...headers });
        res.end(body);
      };
      const url = req.url;
      if (url === '/') send('text/html', '<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>', CSP ? { 'content-security-policy': "script-src 'self'" } : {});
      else if (url === '/page.js') send('text/javascript', bundle);
      else if (url === '/schemas') send('application/json', JSON.stringify(schemas));
      else if (url.startsWith('/cases/')) {
        const k = Number(url.slice(7));
        send('application/json', k * CHUNK < cases.length ? JSON.stringify(cases.slice(k * CHUNK, (k + 1) * CHUNK)) : 'null');
      } else if (req.method === 'POST') {
        const parts = [];
        req.on('data', (p) => parts.push(p));
        req.on('end', () => {
          const body = JSON.parse(Buffer.concat(parts).toString('utf8'));
          if (url === '/codecs') codecs = body;
          else {
            compare(Number(url.slice('/answers/'.length)), body);
            answered++;
          }
          send('text/plain', 'ok');
        });
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const browser = await browsers.launch(BROWSER);
    let version;
    try {
      version = await browser.version();
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`http://127.0.0.1:${server.address().port}/`);
      await page.waitForFunction('window.done !== undefined', { timeout: 600000, polling: 200 });
      const done = await page.evaluate('window.done');
      if (done !== 'ok') throw new Error(`the page threw: ${done}`);
      const refused = errors.filter((e) => CSP && /Content-Security-Policy: .* blocked a JavaScript eval/.test(e));
      if (errors.length > refused.length) throw new Error(`page errors: ${errors.filter((e) => !refused.includes(e)).join('; ')}`);
      await page.close();
    } finally {
      await browser.close();
      server.close();
      fs.closeSync(out);
    }
    if (answered * CHUNK < cases.length) throw new Error(`the page answered ${answered} chunks of ${Math.ceil(cases.length / CHUNK)}`);
    if (CSP && codecs.generated > 0) throw new Error(`${codecs.generated} codecs generated code under a policy that forbids eval`);
    const mode = CSP ? "script-src 'self' (no eval)" : 'eval allowed';
    console.log(`shorn fuzz-page (seed ${SEED}, ${RUNS} fuzz inputs): ${cases.length} cases in ${version}, ${mode}, ${((Date.now() - started) / 1000).toFixed(1)} s; ${schemas.length} schemas (${codecs.generated} generated, ${codecs.closures} closures, back end ${codecs.backends.join('/')})`);
    console.log(`  ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    console.log(`${cases.length - failed} passed, ${failed} failed${failed ? `; differing cases: ${OUT}` : ''}`);
    process.exitCode = failed ? 1 : 0;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
