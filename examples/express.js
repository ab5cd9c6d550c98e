'use strict';
// shorn/express: middleware that reads shorn and JSON bodies into the same values, and
// res.shorn(value), which answers in the form the client's Accept prefers.
// Run: node examples/express.js

const express = require('express');
const { t, compile } = require('shorn');
const shorn = require('shorn/express');
const { send, receive } = require('shorn/http');

const Order = t.object({ id: t.int64(), item: t.string(), qty: t.uint32(), note: t.default(t.string(), '') });
const Receipt = t.object({ id: t.int64(), total: t.float64(), note: t.string() });

const app = express();
app.post('/orders', shorn({ body: Order, response: Receipt }), (req, res) => {
  res.shorn({ id: req.body.id, total: req.body.qty * 2.5, note: req.body.note });
});

const server = app.listen(0, '127.0.0.1', async () => {
  const url = `http://127.0.0.1:${server.address().port}/orders`;
  const post = (init) => fetch(url, { method: 'POST', ...init });
  try {
    console.log('shorn client:', await receive(Receipt, await post(send(compile(Order), { id: 1n, item: 'tea', qty: 4 }))));
    const json = await post({ headers: { 'content-type': 'application/json' }, body: '{"id":2,"item":"jam","qty":2,"note":"from JSON"}' });
    console.log('JSON client:', await receive(Receipt, json));
    await receive(Receipt, await post({ headers: { 'content-type': 'text/plain' }, body: 'tea' })).catch((e) => console.log(`text/plain: ${e.status} ${e.code}`));
  } finally {
    server.close();
  }
});
