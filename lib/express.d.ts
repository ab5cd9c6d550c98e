// shorn/express: middleware for Express 5 and 4.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Codec, Descriptor, Infer, Registry } from '../index.js';

type DescriptorOf<S> = S extends Codec<infer D> ? D : S extends Descriptor ? S : never;
type Last<T extends readonly unknown[]> = T extends readonly [...unknown[], infer L] ? L : T[number];

interface ShornFactory {
  <const B extends shorn.ShornBody | undefined = undefined, R extends Codec<any> | Descriptor | undefined = undefined>(
    options: shorn.ShornOptions<B, R>,
  ): shorn.ShornMiddleware<B extends undefined ? undefined : shorn.BodyValue<B>, R extends undefined ? never : Infer<DescriptorOf<R>>>;
}

declare namespace shorn {
  /** A route's body: a codec or descriptor, versions `[V1, V2]` read as the last, or a registry. */
  export type ShornBody = Codec<any> | Descriptor | readonly (Codec<any> | Descriptor)[] | Registry;

  /** The type of `req.body` for a body option. */
  export type BodyValue<B> = B extends readonly unknown[] ? Infer<DescriptorOf<Last<B>>> : B extends Registry ? unknown : Infer<DescriptorOf<B>>;

  export interface ShornOptions<B extends ShornBody | undefined, R extends Codec<any> | Descriptor | undefined> {
    body?: B;
    response?: R;
    /** The most bytes a body may take after decompression (default 1 MiB); more is a 413. */
    bodyLimit?: number;
    /** Where a reply that breaks its schema is reported (default `console`). */
    logger?: { error(message: string): void };
    /**
     * Compress `res.shorn` replies as Accept-Encoding allows: `true` is
     * `{ threshold: 1024, encodings: ['br', 'gzip'] }`. Off by default.
     */
    compress?: boolean | CompressOptions;
  }

  export interface CompressOptions {
    /** Replies under this many bytes are sent as they are (default 1024). */
    threshold?: number;
    /** The codings to use, in the server's order of preference (default `['br', 'gzip']`). */
    encodings?: readonly ('br' | 'gzip' | 'deflate')[];
  }

  export interface ShornRequest<T> extends IncomingMessage {
    body: T;
  }

  export interface ShornResponse<T> extends ServerResponse {
    /** Answers with `value`: shorn when Accept prefers it, else its JSON form; a 500 if it breaks the schema. */
    shorn(value: T): void;
  }

  /** Express middleware: `req.body` is the body's value; `res.shorn(value)` replies. */
  export type ShornMiddleware<Body, Reply> = (req: ShornRequest<Body>, res: ShornResponse<Reply>, next: (error?: unknown) => void) => void;

  export const shorn: ShornFactory;
  export { shorn as default };
}

/** The middleware of a route: `shorn({ body, response, bodyLimit, logger, compress })`. */
declare function shorn<const B extends shorn.ShornBody | undefined = undefined, R extends Codec<any> | Descriptor | undefined = undefined>(
  options: shorn.ShornOptions<B, R>,
): shorn.ShornMiddleware<B extends undefined ? undefined : shorn.BodyValue<B>, R extends undefined ? never : Infer<DescriptorOf<R>>>;
export = shorn;
