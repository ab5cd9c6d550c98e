// shorn/http: sending and receiving shorn (or JSON) bodies with fetch.
import type { Codec, Descriptor, Infer, InferInput, Registry, ShornError, ShornErrorCode } from '../index.js';

/** `application/x-shorn`: a body that is one message. */
export declare const MEDIA_TYPE: 'application/x-shorn';
/** `application/x-shorn-frames`: a body of framed messages. */
export declare const FRAMES_MEDIA_TYPE: 'application/x-shorn-frames';
export declare const JSON_MEDIA_TYPE: 'application/json';
/** The Accept `send` sets: `application/x-shorn, application/json;q=0.5`. */
export declare const ACCEPT: string;

export interface MediaType {
  /** Lowercased `type/subtype`. */
  readonly type: string;
  /** Parameters by lowercased name; quoted values unquoted. */
  readonly params: Readonly<Record<string, string>>;
}

export interface MediaRange extends MediaType {
  /** The weight, 0 to 1 (1 when absent); `q` is not in `params`. */
  readonly q: number;
}

/** A Content-Type header as RFC 9110 reads it; null when missing or malformed. */
export declare function parseContentType(header: string | null | undefined): MediaType | null;
/** The media ranges of an Accept header, in order; malformed ranges are left out. */
export declare function parseAccept(header: string | null | undefined): MediaRange[];
/** `media; fingerprint=<codec.fingerprint>`. */
export declare function contentType(media: string, codec: Codec<any>): string;

/** The Content-Encodings `send` writes and `receive` undoes (`x-gzip` is read as gzip). */
export type ContentCoding = 'gzip' | 'deflate' | 'br';

export interface SendOptions {
  /** `value` is an iterable of values, sent as frames (`application/x-shorn-frames`). */
  frames?: boolean;
  /**
   * Compress the body (gzip level 6, brotli quality 4) with node:zlib and set
   * Content-Encoding. Node, Deno and Bun; in a browser it throws (use CompressionStream).
   */
  compress?: ContentCoding | false;
}

export interface Sent {
  readonly body: Uint8Array<ArrayBuffer>;
  readonly headers: { readonly 'content-type': string; readonly accept: string; readonly 'content-encoding'?: ContentCoding };
}

/** `{ body, headers }` to spread into fetch's init. */
export declare function send<D extends Descriptor>(codec: Codec<D>, value: InferInput<D>, options?: { frames?: false; compress?: ContentCoding | false }): Sent;
export declare function send<D extends Descriptor>(codec: Codec<D>, values: Iterable<InferInput<D>>, options: { frames: true; compress?: ContentCoding | false }): Sent;

/** The default of `receive`'s bodyLimit: 16 MiB. */
export declare const DEFAULT_RECEIVE_LIMIT: number;

export interface ReceiveOptions {
  /**
   * The most bytes a body may take after decompression (default 16 MiB); past it,
   * ERR_SHORN_LIMIT, found as the body streams in (a compression bomb is not inflated).
   */
  bodyLimit?: number;
}

/** What receive reads: a fetch Response, or a Node IncomingMessage. */
export interface ResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  arrayBuffer(): Promise<ArrayBuffer>;
}
export interface IncomingMessageLike extends AsyncIterable<Uint8Array | string> {
  readonly statusCode?: number;
  readonly headers: Record<string, string | string[] | undefined>;
}

type Last<T extends readonly unknown[]> = T extends readonly [...unknown[], infer L] ? L : T[number];
type DescriptorOf<S> = S extends Codec<infer D> ? D : S extends Descriptor ? S : never;

/**
 * The value of a response: shorn (read by the reader its fingerprint names), frames (an
 * array), or JSON (in the schema's JSON forms, checked). With versions `[V1, V2]`, any of
 * them is read as the last. A non-2xx answer rejects with an HttpError. A Node
 * IncomingMessage's Content-Encoding (gzip, x-gzip, deflate, br) is undone, within
 * `bodyLimit`; fetch undoes it itself.
 */
export declare function receive<D extends Descriptor>(codec: Codec<D> | D, response: ResponseLike | IncomingMessageLike, options?: ReceiveOptions): Promise<Infer<D>>;
export declare function receive<const V extends readonly [Descriptor | Codec<any>, ...(Descriptor | Codec<any>)[]]>(
  versions: V,
  response: ResponseLike | IncomingMessageLike,
  options?: ReceiveOptions,
): Promise<Infer<DescriptorOf<Last<V>>>>;
export declare function receive(registry: Registry, response: ResponseLike | IncomingMessageLike, options?: ReceiveOptions): Promise<unknown>;

/**
 * The codes an HTTP answer or body may carry besides ShornErrorCode: a type or Content-Encoding
 * the other side does not read, and a non-2xx answer without a shorn error body.
 */
export type HttpErrorCode = ShornErrorCode | 'ERR_SHORN_MEDIA_TYPE' | 'ERR_SHORN_HTTP';

/** The ShornError `receive` rejects with for a non-2xx answer. */
export interface HttpError extends Omit<ShornError, 'code'> {
  /** The server's code (shorn's answers: an ERR_SHORN_* code; Fastify's: FST_ERR_*), else ERR_SHORN_HTTP. */
  readonly code: HttpErrorCode | (string & {});
  readonly status: number;
  /** For a 415: the Content-Types the route reads. */
  readonly accept?: readonly string[];
  /** The server's JSON answer, when it sent one. */
  readonly body: unknown;
}
