/// <reference types="node" />
// Types for shorn. Descriptors are plain JSON values (docs/FORMAT.md, "Descriptors");
// `Infer<typeof schema>` gives the JS type a schema encodes and decodes.

export interface BoolType { readonly type: 'bool' }
export interface Uint8Type { readonly type: 'uint8' }
export interface Uint16Type { readonly type: 'uint16' }
export interface Uint32Type { readonly type: 'uint32' }
export interface Int8Type { readonly type: 'int8' }
export interface Int16Type { readonly type: 'int16' }
export interface Int32Type { readonly type: 'int32' }
export interface Float32Type { readonly type: 'float32' }
export interface Float64Type { readonly type: 'float64' }
export interface StringType { readonly type: 'string' }
export interface BytesType { readonly type: 'bytes' }
export interface EnumType<V extends string = string> {
  readonly type: 'enum';
  readonly values: readonly V[];
}
export interface ArrayType<I extends Descriptor = Descriptor> {
  readonly type: 'array';
  readonly items: I;
}
export interface FieldDescriptor {
  readonly name: string;
  readonly schema: Descriptor | OptionalType;
}
export interface ObjectType<F extends Fields = Fields> {
  readonly type: 'object';
  readonly fields: readonly FieldDescriptor[];
  readonly strict?: boolean;
  /** Type-level only: the field types, for `Infer`. Never present at run time. */
  readonly __fields?: F;
}
/** A field that may be absent (a missing key or `undefined`). Only as an object field. */
export interface OptionalType<T extends Descriptor = Descriptor> {
  readonly type: 'optional';
  readonly of: T;
}
export interface NullableType<T extends Descriptor = Descriptor> {
  readonly type: 'nullable';
  readonly of: T;
}

export type NumberType =
  | Uint8Type
  | Uint16Type
  | Uint32Type
  | Int8Type
  | Int16Type
  | Int32Type
  | Float32Type
  | Float64Type;

/** Any type descriptor (what `t.*` returns, or the same after a JSON round trip). */
export type Descriptor =
  | BoolType
  | NumberType
  | StringType
  | BytesType
  | EnumType
  | ArrayType<any>
  | ObjectType<any>
  | NullableType<any>;

export type Fields = { readonly [name: string]: Descriptor | OptionalType<any> };

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type OptionalKeys<F extends Fields> = { [K in keyof F]: F[K] extends OptionalType<any> ? K : never }[keyof F];
type RequiredKeys<F extends Fields> = Exclude<keyof F, OptionalKeys<F>>;

/** The JS value of a descriptor: what `encode` takes and `decode` returns. */
export type Infer<D> = D extends BoolType
  ? boolean
  : D extends NumberType
    ? number
    : D extends StringType
      ? string
      : D extends BytesType
        ? Uint8Array
        : D extends EnumType<infer V>
          ? V
          : D extends ArrayType<infer I>
            ? Infer<I>[]
            : D extends NullableType<infer T>
              ? Infer<T> | null
              : D extends OptionalType<infer T>
                ? Infer<T> | undefined
                : D extends ObjectType<infer F>
                  ? Fields extends F
                    ? Record<string, unknown>
                    : Simplify<
                        { -readonly [K in RequiredKeys<F>]: Infer<F[K]> } & {
                          -readonly [K in OptionalKeys<F>]?: F[K] extends OptionalType<infer T> ? Infer<T> : never;
                        }
                      >
                  : unknown;

export interface ObjectOptions {
  /** Reject own enumerable keys the schema does not name (default: ignore them). */
  strict?: boolean;
}

/** Builders of schema descriptors. */
export declare const t: {
  bool(): BoolType;
  uint8(): Uint8Type;
  uint16(): Uint16Type;
  uint32(): Uint32Type;
  int8(): Int8Type;
  int16(): Int16Type;
  int32(): Int32Type;
  float32(): Float32Type;
  float64(): Float64Type;
  string(): StringType;
  bytes(): BytesType;
  enum<const V extends readonly string[]>(values: V): EnumType<V[number]>;
  array<I extends Descriptor>(items: I): ArrayType<I>;
  object<F extends Fields>(fields: F, options?: ObjectOptions): ObjectType<F>;
  optional<T extends Descriptor>(of: T): OptionalType<T>;
  nullable<T extends Descriptor>(of: T): NullableType<T>;
};

export interface CompileOptions {
  /** Decode limit on one string's UTF-8 length (default 536,870,888, V8's longest string). */
  maxStringBytes?: number;
  /** Decode limit on one `bytes` value's length (default 2^31 - 1). */
  maxBytesLength?: number;
  /** Decode limit on one array's item count (default 134,217,727). */
  maxArrayLength?: number;
  /**
   * `'auto'` (default): generate per-schema JS with `new Function`, or use the generic
   * marshaller where code generation is forbidden (strict CSP). `false` forces the generic
   * path, `true` requires generation. Both give identical bytes.
   */
  codegen?: boolean | 'auto';
}

/** A compiled schema. Compile once at start-up; encode and decode many times. */
export declare class Codec<D extends Descriptor = Descriptor> {
  private constructor();
  /** The descriptor this codec was compiled from. */
  readonly schema: D;
  /** Whether per-schema JS was generated (false: the no-`eval` path). */
  readonly generated: boolean;
  /** Encodes `value`; the Buffer has exactly the encoded length. */
  encode(value: Infer<D>): Buffer;
  /**
   * Encodes `value` into `target` at `offset` (default 0) and returns the number of bytes
   * written; throws ERR_SHORN_BUFFER if they do not fit.
   */
  encodeInto(value: Infer<D>, target: Uint8Array, offset?: number): number;
  /** Decodes one whole message (any Uint8Array view, Buffers included). */
  decode(bytes: Uint8Array): Infer<D>;
}

/** Compiles a descriptor into a native handle with its marshalling code. */
export declare function compile<D extends Descriptor>(schema: D, options?: CompileOptions): Codec<D>;

/** Encodes with `schema`, compiling it on first use (cached per schema object). */
export declare function encode<D extends Descriptor>(schema: D, value: Infer<D>): Buffer;

/** Decodes with `schema`, compiling it on first use (cached per schema object). */
export declare function decode<D extends Descriptor>(schema: D, bytes: Uint8Array): Infer<D>;

export type ShornErrorCode =
  | 'ERR_SHORN_SCHEMA'
  | 'ERR_SHORN_INVALID'
  | 'ERR_SHORN_TRUNCATED'
  | 'ERR_SHORN_TRAILING'
  | 'ERR_SHORN_MALFORMED'
  | 'ERR_SHORN_LIMIT'
  | 'ERR_SHORN_BUFFER';

/** Every error shorn throws. */
export declare class ShornError extends Error {
  constructor(code: ShornErrorCode, message: string, details?: { path?: string; offset?: number });
  readonly name: 'ShornError';
  readonly code: ShornErrorCode;
  /** Where in the value (encode) or the message (decode): `$.user.tags[2]`. */
  readonly path?: string;
  /** Byte offset into the input, for decode errors. */
  readonly offset?: number;
}
