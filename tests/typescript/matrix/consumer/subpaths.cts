// A CommonJS user's code against shorn/http, shorn/fastify and shorn/express (the "require"
// types of package.json "exports": lib/*.d.ts), with Fastify 5. subpaths.mts is the same
// for an ES module.
import { t, compile, type Infer } from 'shorn';
import http = require('shorn/http');
import { send, receive, parseContentType, MEDIA_TYPE, FRAMES_MEDIA_TYPE, type HttpError } from 'shorn/http';
import shornPlugin = require('shorn/fastify');
import shorn = require('shorn/express');
import { shornPlugin as namedPlugin, type ShornPluginOptions, type ShornRouteConfig } from 'shorn/fastify';
import { shorn as namedShorn, type ShornOptions, type ShornMiddleware } from 'shorn/express';
import Fastify from 'fastify';

const V1 = t.object({ id: t.uint32(), name: t.string() });
const V2 = t.object({ id: t.int64(), name: t.string(), email: t.default(t.string(), '') });
const Receipt = t.object({ id: t.int64(), at: t.date() });
const v1 = compile(V1);
const receipt = compile(Receipt);

const media: 'application/x-shorn' = MEDIA_TYPE;
const frames: 'application/x-shorn-frames' = http.FRAMES_MEDIA_TYPE;
const parsed = parseContentType(`${media}; fingerprint="${v1.fingerprint}"`);
const fingerprint: string | undefined = parsed?.params['fingerprint'];
void [frames, FRAMES_MEDIA_TYPE, fingerprint];

async function client(url: string): Promise<bigint> {
  const init = send(v1, { id: 1, name: 'Ada' });
  const body: Uint8Array = init.body;
  // @ts-expect-error: name must be a string
  send(v1, { id: 1, name: 2 });
  send(v1, [{ id: 1, name: 'a' }], { frames: true });
  // A defaulted field (email) may be left out of what is sent.
  send(compile(V2), { id: 1n, name: 'Ada' });
  const res = await fetch(url, { method: 'POST', ...init });
  const r: Infer<typeof Receipt> = await receive(receipt, res);
  const at: Date = r.at;
  // Versions: read as the last one, whose defaulted fields are there.
  const v: { id: bigint; name: string; email: string } = await receive([V1, V2], res);
  try {
    await http.receive(Receipt, res);
  } catch (e) {
    const status: number = (e as HttpError).status;
    void status;
  }
  void [body, at];
  return r.id + v.id;
}

const app = Fastify();
app.register(shornPlugin, { jsonSchema: false });
// The named export and the option types, as a user names them.
const pluginOptions: ShornPluginOptions = { jsonSchema: true, compress: { threshold: 1024, encodings: ['br', 'gzip'] } };
app.register(namedPlugin, pluginOptions);
const route: ShornRouteConfig = { body: V1, response: receipt };
app.put('/orders', { config: { shorn: route } }, async () => ({ id: 1n, at: new Date() }));
// @ts-expect-error: zstd is not one of the encodings
app.register(shornPlugin, { compress: { encodings: ['zstd'] } });
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
  const email: string = req.body.email;
  res.shorn({ id, at: new Date() });
  // @ts-expect-error: at must be a Date
  res.shorn({ id, at: 'now' });
  void email;
};

const options: ShornOptions<typeof V1, typeof Receipt> = { body: V1, response: Receipt, bodyLimit: 1 << 20, compress: true };
const typed: ShornMiddleware<Infer<typeof V1>, Infer<typeof Receipt>> = namedShorn(options);

void [client, handle, typed];
