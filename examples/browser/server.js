'use strict';
// A page and its server sharing one schema module (examples/browser/schema.js).
//
//   npm install --no-save esbuild && node examples/browser/server.js   (then open the URL)
//
// The page is bundled on first request by esbuild, with nothing but an entry point: the
// package's "browser" field points the bundle at the build with no Node built-ins.
const http = require('node:http');
const path = require('node:path');
const { compile } = require('shorn');
const { Message } = require('./schema');

const messages = compile(Message);
let bundle;

const server = http.createServer((req, res) => {
  if (req.url === '/') {
    res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': "script-src 'self'" });
    res.end('<!doctype html><meta charset="utf-8"><title>shorn in the browser</title><pre id="log"></pre><script type="module" src="/page.js"></script>');
  } else if (req.url === '/page.js') {
    bundle ??= require('esbuild').buildSync({ entryPoints: [path.join(__dirname, 'page.mjs')], bundle: true, format: 'esm', write: false }).outputFiles[0].contents;
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(bundle);
  } else if (req.url === '/message' && req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/x-shorn' });
    res.end(messages.encode({ id: 1, from: 'server', text: 'hi from Node', at: new Date(), tags: ['info'] }));
  } else if (req.url === '/message') {
    const parts = [];
    req.on('data', (c) => parts.push(c));
    req.on('end', () => {
      const m = messages.decode(Buffer.concat(parts));
      res.end(`decoded #${m.id} from ${m.from}: ${m.text}`);
    });
  } else {
    res.writeHead(404);
    res.end();
  }
});

server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => console.log(`open http://127.0.0.1:${server.address().port}/`));
