'use strict';
// shorn/http on the client: send() makes fetch's body and headers, receive() reads the
// answer whether the server wrote shorn or JSON, and turns a refusal into a ShornError.
// The server here is node:http with shorn/express's middleware, which needs no Express.
// Run: node examples/fetch-client.js

const http = require('node:http');
const { t, compile } = require('shorn');
const { send, receive } = require('shorn/http');
const shorn = require('shorn/express');

const Query = t.object({ id: t.int64(), since: t.date() });
const Result = t.object({ id: t.int64(), at: t.date(), tags: t.map(t.string(), t.uint8()) });

const middleware = shorn({ body: Query, response: Result });
const server = http.createServer((req, res) => {
  middleware(req, res, () => res.shorn({ id: req.body.id, at: req.body.since, tags: new Map([['a', 1]]) }));
});

server.listen(0, '127.0.0.1', async () => {
  const url = `http://127.0.0.1:${server.address().port}`;
  const query = compile(Query);
  try {
    // shorn both ways: the Accept that send() sets prefers shorn.
    const reply = await fetch(url, { method: 'POST', ...send(query, { id: 7n, since: new Date('2024-06-10T14:53:54.567Z') }) });
    console.log('shorn reply:', await receive(Result, reply));
    // A JSON server, or a JSON answer, reads into the same values (bigint, Date, Map).
    const json = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{"id":7,"since":"2024-06-10T14:53:54.567Z"}' });
    console.log('JSON reply:', await receive(Result, json));
    const bad = await fetch(url, { method: 'POST', ...send(query, { id: 7n, since: new Date(0) }), body: new Uint8Array([14]) });
    await receive(Result, bad).catch((e) => console.log(`refused: ${e.status} ${e.code} (${e.message})`));
  } finally {
    server.close();
  }
});
