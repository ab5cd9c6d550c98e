// Type-level tests of shorn/http, shorn/fastify and shorn/express (lib/*.d.ts), through the
// package's own exports, checked by `tsc -p tests/typescript` (npm test runs it).
import { t, compile, type Infer } from 'shorn';
import { send, receive, parseContentType, parseAccept, MEDIA_TYPE, FRAMES_MEDIA_TYPE, type HttpError } from 'shorn/http';
import shornPlugin = require('shorn/fastify');
import shorn = require('shorn/express');
import Fastify from 'fastify';

const V1 = t.object({ id: t.uint32(), name: t.string() });
const V2 = t.object({ id: t.int64(), name: t.string(), email: t.default(t.string(), '') });
const Receipt = t.object({ id: t.int64(), at: t.date() });
const v1 = compile(V1);
const receipt = compile(Receipt);

const media: 'application/x-shorn' = MEDIA_TYPE;
const frames: 'application/x-shorn-frames' = FRAMES_MEDIA_TYPE;
const parsed = parseContentType('application/x-shorn; fingerprint="00"');
const fingerprint: string | undefined = parsed === null ? undefined : parsed.params.fingerprint;
const q: number = parseAccept('application/json;q=0.5')[0].q;

async function client(url: string): Promise<bigint> {
  const init = send(v1, { id: 1, name: 'Ada' });
  const body: Uint8Array = init.body;
  const type: string = init.headers['content-type'];
  // @ts-expect-error: name must be a string
  send(v1, { id: 1, name: 2 });
  send(v1, [{ id: 1, name: 'a' }], { frames: true });
  const res = await fetch(url, { method: 'POST', ...init });
  const r: Infer<typeof Receipt> = await receive(receipt, res);
  const at: Date = r.at;
  // Versions: read as the last one.
  const v: { id: bigint; name: string; email: string } = await receive([V1, V2], res);
  try {
    await receive(Receipt, res);
  } catch (e) {
    const status: number = (e as HttpError).status;
    const code: string = (e as HttpError).code;
    void [status, code];
  }
  void [body, type, at, media, frames, fingerprint, q];
  return r.id + v.id;
}

const app = Fastify();
app.register(shornPlugin, { jsonSchema: false });
// @ts-expect-error: jsonSchema is a boolean
app.register(shornPlugin, { jsonSchema: 'yes' });
app.post('/orders', { config: { shorn: { body: [V1, V2], response: receipt } } }, async () => ({ id: 1n, at: new Date() }));
app.get('/plain', { config: { shorn: false } }, async () => 'served by Fastify alone');
// @ts-expect-error: body must be a schema, versions or a registry
app.post('/bad', { config: { shorn: { body: 42 } } }, async () => null);

const middleware = shorn({ body: [V1, V2], response: Receipt });
type Handler = Parameters<typeof middleware>;
const handle = (req: Handler[0], res: Handler[1]): void => {
  const id: bigint = req.body.id;
  res.shorn({ id, at: new Date() });
  // @ts-expect-error: at must be a Date
  res.shorn({ id, at: 'now' });
};

void [client, handle];
