// shorn/fastify: a Fastify 5 plugin that serves shorn and JSON bodies on the same routes.
import type { FastifyPluginCallback } from 'fastify';
import type { Codec, Descriptor, Registry } from '../index.js';

type ShornPlugin = FastifyPluginCallback<shornPlugin.ShornPluginOptions>;

declare namespace shornPlugin {
  /** A route's body: a codec or descriptor, versions `[V1, V2]` read as the last, or a registry. */
  export type ShornBody = Codec<any> | Descriptor | readonly (Codec<any> | Descriptor)[] | Registry;

  /** `config: { shorn: { body, response } }` on a route. */
  export interface ShornRouteConfig {
    body?: ShornBody;
    /** The handler's return value: encoded when Accept prefers shorn, else its JSON form. */
    response?: Codec<any> | Descriptor;
  }

  export interface ShornPluginOptions {
    /**
     * Routes with `schema.body` / `schema.response[200]` and no shorn config are served
     * with schemas made from them by `fromJsonSchema`.
     */
    jsonSchema?: boolean;
    /**
     * Compress shorn routes' 2xx replies (shorn and JSON) as Accept-Encoding allows:
     * `true` is `{ threshold: 1024, encodings: ['br', 'gzip'] }`. Off by default. A reply
     * @fastify/compress has compressed already is left as it is.
     */
    compress?: boolean | CompressOptions;
  }

  export interface CompressOptions {
    /** Replies under this many bytes are sent as they are (default 1024). */
    threshold?: number;
    /** The codings to use, in the server's order of preference (default `['br', 'gzip']`). */
    encodings?: readonly ('br' | 'gzip' | 'deflate')[];
  }

  export const shornPlugin: ShornPlugin;
  export { shornPlugin as default };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: not served by shorn, even with `jsonSchema: true`. */
    shorn?: shornPlugin.ShornRouteConfig | false;
  }
}

/** The plugin: `await app.register(shornPlugin, { jsonSchema })`, before the routes it serves. */
declare function shornPlugin(...params: Parameters<ShornPlugin>): ReturnType<ShornPlugin>;
export = shornPlugin;
