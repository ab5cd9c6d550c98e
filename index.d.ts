/// <reference types="node" />
import type { Transform } from 'node:stream';
// Types for shorn. Descriptors are plain JSON values (docs/FORMAT.md, "Descriptors");
// `Infer<typeof schema>` gives the JS type a schema encodes and decodes.

// Constraints (docs/FORMAT.md, "Constraints"): part of a descriptor, checked on encode
// and on decode; a value that breaks one is ERR_SHORN_INVALID.

/** Constraints of an integer type: inclusive bounds and a divisor. */
export interface IntegerConstraints {
  readonly min?: number;
  readonly max?: number;
  readonly multipleOf?: number;
}
/** Constraints of `int64` and `uint64`: as for the other integers, in bigints. */
export interface BigIntConstraints {
  readonly min?: bigint;
  readonly max?: bigint;
  readonly multipleOf?: bigint;
}
/** The same in a descriptor: decimal digits (JSON numbers lose precision past 2^53). */
export interface BigIntBounds {
  readonly min?: string;
  readonly max?: string;
  readonly multipleOf?: string;
}
/** Constraints of a float: inclusive bounds (NaN is within none; a float32 is compared rounded). */
export interface FloatConstraints {
  readonly min?: number;
  readonly max?: number;
}
/** The string formats: each accepts exactly what the Zod v4 check of that name accepts. */
export type StringFormat = 'email' | 'uuid' | 'url' | 'datetime' | 'ipv4' | 'ipv6';
/** Constraints of a string: lengths in code points, a pattern (a JS RegExp, no flags), a format. */
export interface StringConstraints {
  readonly minLength?: number;
  readonly maxLength?: number;
  /** A RegExp (without flags, `g` and `d` aside) or its source. */
  readonly pattern?: string | RegExp;
  readonly format?: StringFormat;
}
/** Constraints of `bytes`: its length in bytes. */
export interface BytesConstraints {
  readonly minLength?: number;
  readonly maxLength?: number;
}
export interface ArrayConstraints {
  readonly minItems?: number;
  readonly maxItems?: number;
}
/** Constraints of a record or a map: how many entries it may have. */
export interface EntriesConstraints {
  readonly maxEntries?: number;
}

export interface BoolType { readonly type: 'bool' }
export interface Uint8Type extends IntegerConstraints { readonly type: 'uint8' }
export interface Uint16Type extends IntegerConstraints { readonly type: 'uint16' }
export interface Uint32Type extends IntegerConstraints { readonly type: 'uint32' }
export interface Int8Type extends IntegerConstraints { readonly type: 'int8' }
export interface Int16Type extends IntegerConstraints { readonly type: 'int16' }
export interface Int32Type extends IntegerConstraints { readonly type: 'int32' }
/** A safe integer (`Number.isSafeInteger`). */
export interface IntType extends IntegerConstraints { readonly type: 'int' }
/** A bigint from -2^63 to 2^63 - 1. */
export interface Int64Type extends BigIntBounds { readonly type: 'int64' }
/** A bigint from 0 to 2^64 - 1. */
export interface Uint64Type extends BigIntBounds { readonly type: 'uint64' }
export interface Float32Type extends FloatConstraints { readonly type: 'float32' }
export interface Float64Type extends FloatConstraints { readonly type: 'float64' }
/** A valid Date. */
export interface DateType { readonly type: 'date' }
export interface StringType {
  readonly type: 'string';
  readonly minLength?: number;
  readonly maxLength?: number;
  /** A JS RegExp's source, tested without flags. */
  readonly pattern?: string;
  readonly format?: StringFormat;
}
export interface BytesType extends BytesConstraints { readonly type: 'bytes' }
export interface EnumType<V extends string = string> {
  readonly type: 'enum';
  readonly values: readonly V[];
  /** What a reader reads a newer writer's unknown symbols as (schema evolution). */
  readonly default?: V;
}
export interface EnumOptions<V extends string> {
  /** The symbol a reader reads the symbols of a newer writer it does not know as. */
  default?: V;
}
export type LiteralValue = string | number | boolean | null;
/** One value, zero bytes. */
export interface LiteralType<V extends LiteralValue = LiteralValue> {
  readonly type: 'literal';
  readonly value: V;
}
export interface NullType { readonly type: 'null' }
export interface ArrayType<I extends Descriptor = Descriptor> extends ArrayConstraints {
  readonly type: 'array';
  readonly items: I;
}
/** An array of exactly these item types. */
export interface TupleType<I extends readonly Descriptor[] = readonly Descriptor[]> {
  readonly type: 'tuple';
  readonly items: I;
}
export interface FieldDescriptor {
  readonly name: string;
  readonly schema: Descriptor | OptionalType | DefaultType;
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
/**
 * A field that may be missing or `undefined` on encode (its default is encoded then), and
 * is always present on decode. Only as an object field.
 */
export interface DefaultType<T extends Descriptor = Descriptor> {
  readonly type: 'default';
  readonly of: T;
  /** The default in its type's JSON form (docs/FORMAT.md, "JSON forms"). */
  readonly value: unknown;
}
/** A plain object with any string keys, every value of one type. */
export interface RecordType<V extends Descriptor = Descriptor> extends EntriesConstraints {
  readonly type: 'record';
  readonly values: V;
}
/** A JS Map. */
export interface MapType<K extends Descriptor = Descriptor, V extends Descriptor = Descriptor> extends EntriesConstraints {
  readonly type: 'map';
  readonly keys: K;
  readonly values: V;
}
/** The first variant, in order, that accepts the value. */
export interface UnionType<V extends readonly Descriptor[] = readonly Descriptor[]> {
  readonly type: 'union';
  readonly variants: V;
}
/** Objects told apart by the literal of field `key`. */
export interface DiscriminatedUnionType<
  K extends string = string,
  V extends readonly ObjectType<any>[] = readonly ObjectType<any>[],
> {
  readonly type: 'discriminatedUnion';
  readonly key: K;
  readonly variants: V;
}
/** A reference to the enclosing recursive type named `N`. */
export interface RefType<N extends string = string> {
  readonly type: 'ref';
  readonly name: N;
}
/** A named type whose schema refers to itself through `RefType<N>`. */
export interface RecursiveType<N extends string = string, S extends Descriptor = Descriptor> {
  readonly type: 'recursive';
  readonly name: N;
  readonly schema: S;
}
/** Any value JSON.parse can return. */
export interface JsonType { readonly type: 'json' }
export interface Float64ArrayType { readonly type: 'float64Array' }
export interface Float32ArrayType { readonly type: 'float32Array' }
export interface Int32ArrayType { readonly type: 'int32Array' }
export interface Uint32ArrayType { readonly type: 'uint32Array' }
export interface Int16ArrayType { readonly type: 'int16Array' }
export interface Uint16ArrayType { readonly type: 'uint16Array' }
export interface Int8ArrayType { readonly type: 'int8Array' }

export type NumberType =
  | Uint8Type
  | Uint16Type
  | Uint32Type
  | Int8Type
  | Int16Type
  | Int32Type
  | IntType
  | Float32Type
  | Float64Type;

export type TypedArrayType =
  | Float64ArrayType
  | Float32ArrayType
  | Int32ArrayType
  | Uint32ArrayType
  | Int16ArrayType
  | Uint16ArrayType
  | Int8ArrayType;

/** Any type descriptor (what `t.*` returns, or the same after a JSON round trip). */
export type Descriptor =
  | BoolType
  | NumberType
  | Int64Type
  | Uint64Type
  | DateType
  | StringType
  | BytesType
  | EnumType
  | LiteralType
  | NullType
  | ArrayType<any>
  | TupleType<any>
  | ObjectType<any>
  | NullableType<any>
  | DefaultType<any>
  | RecordType<any>
  | MapType<any, any>
  | UnionType<any>
  | DiscriminatedUnionType<any, any>
  | RefType<any>
  | RecursiveType<any, any>
  | JsonType
  | TypedArrayType;

export type Fields = { readonly [name: string]: Descriptor | OptionalType<any> | DefaultType<any> };

/** The JS values `t.json()` takes and gives: what JSON.parse returns. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Any value a descriptor of unknown shape decodes to: what `Infer` gives for one known
 * only as `Descriptor` (loaded from JSON, say).
 */
export type Value =
  | null
  | boolean
  | number
  | bigint
  | string
  | Date
  | Uint8Array
  | Float64Array
  | Float32Array
  | Int32Array
  | Uint32Array
  | Int16Array
  | Uint16Array
  | Int8Array
  | Value[]
  | { [key: string]: Value }
  | Map<Value, Value>;

/**
 * Type-level only, never present at run time: the value types of the Zod schema a
 * descriptor was made from (`fromZod`), which `Infer` and `InferInput` give.
 */
export interface FromZodTypes<Output, Input> {
  readonly '~zodTypes': { readonly output: Output; readonly input: Input };
}

/** A descriptor made by `fromZod` from a Zod schema of these output and input types. */
export type ZodDescriptor<Output = unknown, Input = Output> = Descriptor & FromZodTypes<Output, Input>;

/** What `fromZod` reads of a Zod v4 schema (its types, as `z.infer` and `z.input` do). */
export interface ZodSchemaLike {
  readonly _zod: { readonly output: unknown; readonly input: unknown };
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type OptionalKeys<F extends Fields> = { [K in keyof F]: F[K] extends OptionalType<any> ? K : never }[keyof F];
type RequiredKeys<F extends Fields> = Exclude<keyof F, OptionalKeys<F>>;
// On encode, a default field may be missing too.
type InputOptionalKeys<F extends Fields> = {
  [K in keyof F]: F[K] extends OptionalType<any> | DefaultType<any> ? K : never;
}[keyof F];
type InputRequiredKeys<F extends Fields> = Exclude<keyof F, InputOptionalKeys<F>>;

// The value types of the recursive definitions around a descriptor, by name. A recursive
// type's value is an interface (`Rec`), so TypeScript defers it instead of expanding it
// forever.
type Env = { readonly [name: string]: unknown };
interface Rec<N extends string, S, E extends Env, In extends boolean> {
  value: InferIn<S, E & { readonly [K in N]: Rec<N, S, E, In>['value'] }, In>;
}

type TypedArrayOf<D> = D extends Float64ArrayType
  ? Float64Array
  : D extends Float32ArrayType
    ? Float32Array
    : D extends Int32ArrayType
      ? Int32Array
      : D extends Uint32ArrayType
        ? Uint32Array
        : D extends Int16ArrayType
          ? Int16Array
          : D extends Uint16ArrayType
            ? Uint16Array
            : Int8Array;

type InferObject<F extends Fields, E extends Env> = Fields extends F
  ? Record<string, unknown>
  : Simplify<
      { -readonly [K in RequiredKeys<F>]: InferIn<F[K], E> } & {
        -readonly [K in OptionalKeys<F>]?: F[K] extends OptionalType<infer T> ? InferIn<T, E> : never;
      }
    >;

type InferInputObject<F extends Fields, E extends Env> = Fields extends F
  ? Record<string, unknown>
  : Simplify<
      { -readonly [K in InputRequiredKeys<F>]: InferIn<F[K], E, true> } & {
        -readonly [K in InputOptionalKeys<F>]?: F[K] extends OptionalType<infer T> | DefaultType<infer T>
          ? InferIn<T, E, true>
          : never;
      }
    >;

/**
 * `Infer` inside recursive definitions `E`. A part made by `fromZod` gives its Zod types
 * (`z.infer`, or `z.input` on encode), wherever it stands. A part known only as `Descriptor`
 * (an array of items loaded from JSON) gives `Value` (`unknown` on encode), tested before
 * the union is taken apart member by member, which would go deeper than TypeScript allows
 * (TS2589).
 */
export type InferIn<D, E extends Env, In extends boolean = false> = [D] extends [FromZodTypes<infer O, infer I>]
  ? In extends true
    ? I
    : O
  : Descriptor extends D
    ? In extends true
      ? unknown
      : Value
    : InferOne<D, E, In>;

type InferOne<D, E extends Env, In extends boolean> = D extends BoolType
  ? boolean
  : D extends NumberType
    ? number
    : D extends Int64Type | Uint64Type
      ? bigint
      : D extends DateType
        ? Date
        : D extends StringType
          ? string
          : D extends BytesType
            ? Uint8Array
            : D extends EnumType<infer V>
              ? V
              : D extends LiteralType<infer V>
                ? V
                : D extends NullType
                  ? null
                  : D extends ArrayType<infer I>
                    ? InferIn<I, E, In>[]
                    : D extends TupleType<infer I>
                      ? { -readonly [K in keyof I]: InferIn<I[K], E, In> }
                      : D extends NullableType<infer T>
                        ? InferIn<T, E, In> | null
                        : D extends OptionalType<infer T>
                          ? InferIn<T, E, In> | undefined
                          : D extends DefaultType<infer T>
                            ? InferIn<T, E, In>
                          : D extends ObjectType<infer F>
                            ? In extends true
                              ? InferInputObject<F, E>
                              : InferObject<F, E>
                            : D extends RecordType<infer V>
                              ? { [key: string]: InferIn<V, E, In> }
                              : D extends MapType<infer K, infer V>
                                ? Map<InferIn<K, E, In>, InferIn<V, E, In>>
                                : D extends UnionType<infer V>
                                  ? InferIn<V[number], E, In>
                                  : D extends DiscriminatedUnionType<any, infer V>
                                    ? InferIn<V[number], E, In>
                                    : D extends RecursiveType<infer N, infer S>
                                      ? Rec<N, S, E, In>['value']
                                      : D extends RefType<infer N>
                                        ? N extends keyof E
                                          ? E[N]
                                          : unknown
                                        : D extends JsonType
                                          ? JsonValue
                                          : D extends TypedArrayType
                                            ? TypedArrayOf<D>
                                            : unknown;

/**
 * The JS value of a descriptor: what `encode` takes and `decode` returns. For a
 * descriptor made by `fromZod`, `z.infer` of its Zod schema. A descriptor known only as
 * `Descriptor` (one loaded from JSON, say) gives `Value`, any value a descriptor can
 * describe, without expanding the union of every descriptor (the tests are on `[D]`, not
 * `D`: a conditional on a bare `D` would run once per member of that union, deeper than
 * TypeScript allows, TS2589).
 */
export type Infer<D> = [D] extends [FromZodTypes<infer O, any>] ? O : Descriptor extends D ? Value : InferIn<D, {}>;

/**
 * What `encode` takes for a descriptor: `Infer`, except that fields with a default may be
 * missing (`z.input` for one made by `fromZod`). `unknown` for a descriptor known only as
 * `Descriptor`: encode checks whatever it is given.
 */
export type InferInput<D> = [D] extends [FromZodTypes<any, infer I>] ? I : Descriptor extends D ? unknown : InferIn<D, {}, true>;

export interface ObjectOptions {
  /** Reject own enumerable keys the schema does not name (default: ignore them). */
  strict?: boolean;
}

/** Builders of schema descriptors. */
export declare const t: {
  bool(): BoolType;
  uint8(constraints?: IntegerConstraints): Uint8Type;
  uint16(constraints?: IntegerConstraints): Uint16Type;
  uint32(constraints?: IntegerConstraints): Uint32Type;
  int8(constraints?: IntegerConstraints): Int8Type;
  int16(constraints?: IntegerConstraints): Int16Type;
  int32(constraints?: IntegerConstraints): Int32Type;
  /** A safe integer (`Number.isSafeInteger`), zigzag varint. */
  int(constraints?: IntegerConstraints): IntType;
  /** A bigint from -2^63 to 2^63 - 1; numbers are rejected. */
  int64(constraints?: BigIntConstraints): Int64Type;
  /** A bigint from 0 to 2^64 - 1; numbers are rejected. */
  uint64(constraints?: BigIntConstraints): Uint64Type;
  float32(constraints?: FloatConstraints): Float32Type;
  float64(constraints?: FloatConstraints): Float64Type;
  /** A valid Date; decodes to a new Date. */
  date(): DateType;
  /** A string; lengths count code points. */
  string(constraints?: StringConstraints): StringType;
  bytes(constraints?: BytesConstraints): BytesType;
  enum<const V extends readonly string[]>(values: V, options?: EnumOptions<V[number]>): EnumType<V[number]>;
  /** Exactly this value (`Object.is`); takes no bytes. */
  literal<const V extends LiteralValue>(value: V): LiteralType<V>;
  null(): NullType;
  array<I extends Descriptor>(items: I, constraints?: ArrayConstraints): ArrayType<I>;
  tuple<const I extends readonly Descriptor[]>(items: I): TupleType<I>;
  object<F extends Fields>(fields: F, options?: ObjectOptions): ObjectType<F>;
  optional<T extends Descriptor>(of: T): OptionalType<T>;
  nullable<T extends Descriptor>(of: T): NullableType<T>;
  /** An object field that may be missing on encode (`value` is encoded then), present on decode. */
  default<T extends Descriptor>(of: T, value: Infer<T>): DefaultType<T>;
  record<V extends Descriptor>(values: V, constraints?: EntriesConstraints): RecordType<V>;
  map<K extends Descriptor, V extends Descriptor>(keys: K, values: V, constraints?: EntriesConstraints): MapType<K, V>;
  union<const V extends readonly Descriptor[]>(variants: V): UnionType<V>;
  discriminatedUnion<const K extends string, const V extends readonly ObjectType<any>[]>(
    key: K,
    variants: V,
  ): DiscriminatedUnionType<K, V>;
  /** A type that refers to itself: `t.recursive('Tree', (self) => t.object({ kids: t.array(self) }))`. */
  recursive<const N extends string, S extends Descriptor>(name: N, body: (self: RefType<N>) => S): RecursiveType<N, S>;
  /** A reference to the enclosing `t.recursive` named `name` (what `self` is). */
  ref<const N extends string>(name: N): RefType<N>;
  /** Any value JSON.parse can return, self-described on the wire. */
  json(): JsonType;
  float64Array(): Float64ArrayType;
  float32Array(): Float32ArrayType;
  int32Array(): Int32ArrayType;
  uint32Array(): Uint32ArrayType;
  int16Array(): Int16ArrayType;
  uint16Array(): Uint16ArrayType;
  int8Array(): Int8ArrayType;
};

export interface CompileOptions {
  /** Decode limit on one string's UTF-8 length (default 536,870,888, V8's longest string). */
  maxStringBytes?: number;
  /** Decode limit on one `bytes` value's length (default 2^31 - 1). */
  maxBytesLength?: number;
  /** Decode limit on one array's (or record's, map's, typed array's) count (default 134,217,727). */
  maxArrayLength?: number;
  /**
   * How deep recursive types and `json` values may nest (default 128, at most 1000). The
   * descriptor itself nests at most 64 levels (deeper is ERR_SHORN_SCHEMA).
   */
  maxDepth?: number;
  /**
   * Decode limit on the estimated JS heap the values of one message take (default 256 MiB,
   * or an eighth of V8's heap limit where that is less); over it is ERR_SHORN_LIMIT before
   * any value is built.
   */
  maxDecodedBytes?: number;
  /**
   * How many issues `check` and `safeDecode` list at most (default 100); the result of a
   * value with more has `moreIssues: true`, and finding them stops there.
   */
  maxIssues?: number;
  /**
   * `'auto'` (default): generate per-schema JS with `new Function`, or use the generic
   * marshaller where code generation is forbidden (strict CSP). `false` forces the generic
   * path, `true` requires generation. Both give identical bytes. A part of a schema too
   * wide for one generated function (more than 2,048 descriptors: an object of over ~2,000
   * fields, a union of over ~2,000 variants) is marshalled by the generic marshaller from
   * the generated code, as recursive and `json` values are.
   */
  codegen?: boolean | 'auto';
  /**
   * What encodes and decodes: `'native'`, the Rust addon; `'js'`, the JS back end (no
   * addon, no code generation: a CSP-safe path, and what browsers, workers and a Node
   * without a binary run); `'auto'` (default): the addon where it loaded and the
   * environment variable SHORN_BACKEND is not `js`, else the JS back end. Both give the
   * same bytes, values and errors. `'native'` where no addon loaded throws
   * ERR_SHORN_NO_ADDON.
   */
  backend?: 'auto' | 'native' | 'js';
}

/** A compiled schema. Compile once at start-up; encode and decode many times. */
export declare class Codec<D extends Descriptor = Descriptor> {
  private constructor();
  /** The descriptor this codec was compiled from. */
  readonly schema: D;
  /** Whether per-schema JS was generated (false: the no-`eval` path). */
  readonly generated: boolean;
  /** The back end this codec runs on (CompileOptions.backend). */
  readonly backend: 'native' | 'js';
  /** Encodes `value`; the Buffer has exactly the encoded length (a Uint8Array in a browser bundle). */
  encode(value: InferInput<D>): Buffer;
  /**
   * Encodes `value` into `target` at `offset` (default 0) and returns the number of bytes
   * written; throws ERR_SHORN_BUFFER if they do not fit.
   */
  encodeInto(value: InferInput<D>, target: Uint8Array, offset?: number): number;
  /** Decodes one whole message (any Uint8Array view, Buffers included). */
  decode(bytes: Uint8Array): Infer<D>;
  /**
   * Checks `value` as `encode` would, without encoding it: `{ ok: true }`, or every issue
   * (the first one is the error `encode` throws).
   */
  check(value: unknown): CheckResult;
  /**
   * `decode` that returns its failure instead of throwing: for bytes that are no message,
   * the one issue decode stops at; for a message whose value breaks constraints, every
   * constraint it breaks, in schema order (the one decode stopped at with its `offset`).
   */
  safeDecode(bytes: Uint8Array): SafeDecodeResult<Infer<D>>;
  /**
   * 16 lowercase hex digits naming the schema: the first 8 bytes of the SHA-256 of its
   * canonical descriptor (docs/FORMAT.md, "Fingerprints").
   */
  readonly fingerprint: string;
  /**
   * A reader of bytes written with `writer` (an older or newer version of this schema), as
   * values of this one (docs/FORMAT.md, "Schema evolution"). Throws ERR_SHORN_SCHEMA with
   * `problems` when some of the writer's messages cannot be read.
   */
  reader(writer: Descriptor | Codec<any>): Reader<D>;
  /**
   * A Transform from values to framed bytes (docs/FORMAT.md, "Framing"). A value that does
   * not match is a ShornError on the stream with `frame`.
   */
  encoder(options?: FrameOptions): FrameEncoder<InferInput<D>>;
  /**
   * A Transform from framed bytes, in chunks of any size, to values; read it with
   * `for await`. A bad frame is a ShornError on the stream with `frame`, after the values
   * of the frames before it.
   */
  decoder(options?: DecodeFrameOptions): FrameDecoder<Infer<D>>;
  /** Frames every value into one Buffer. */
  encodeFrames(values: Iterable<InferInput<D>>, options?: FrameOptions): Buffer;
  /**
   * Decodes every frame of `bytes`, which must end between frames; at most `maxFrames`
   * frames (a byte of one more is ERR_SHORN_LIMIT with `frame`), whose values take at most
   * `maxDecodedBytes` of estimated heap in all (the frame that passes it is
   * ERR_SHORN_LIMIT with `frame`).
   */
  decodeFrames(bytes: Uint8Array, options?: DecodeFramesOptions): Infer<D>[];
}

export interface FrameOptions {
  /** Each message is followed by its CRC-32C, checked before it is decoded (default false). */
  checksum?: boolean;
}

export interface DecodeFrameOptions extends FrameOptions {
  /**
   * The longest message a frame may declare (default 16 MiB, at most 2^32 - 1); a longer
   * one is ERR_SHORN_LIMIT as soon as its length is read.
   */
  maxFrameBytes?: number;
}

export interface DecodeFramesOptions extends DecodeFrameOptions {
  /**
   * The most frames one `decodeFrames` call decodes (default 1,048,576, or V8's heap limit
   * / 2,048 where that is less); a byte of one more is ERR_SHORN_LIMIT with `frame` set to
   * `maxFrames`. The stream decoder has none: it waits for its reader instead.
   */
  maxFrames?: number;
  /**
   * The estimated JS heap all the values of one `decodeFrames` call may take, summed over
   * its frames (the estimate the compile option `maxDecodedBytes` bounds for one message);
   * default: the codec's (or the reader's) own `maxDecodedBytes`. The frame whose value
   * would pass it is ERR_SHORN_LIMIT with `frame`, before any later frame is decoded. The
   * stream decoder has none: it holds one batch of values at a time.
   */
  maxDecodedBytes?: number;
}

/** Values in (object mode), framed bytes out. */
export interface FrameEncoder<T> extends Transform {
  /** The index of the next frame. */
  readonly frame: number;
  write(value: T, callback?: (error: Error | null | undefined) => void): boolean;
  write(value: T, encoding: BufferEncoding, callback?: (error: Error | null | undefined) => void): boolean;
}

/**
 * What a FrameDecoder's `for await` iterates with: values of T, and whatever else the
 * installed @types/node gives a Readable's iterator (`[Symbol.asyncDispose]` from
 * @types/node 24 on, which AsyncIterableIterator<T> alone lacks: TS2430 there).
 */
export type FrameIterator<T> = Omit<ReturnType<Transform[typeof Symbol.asyncIterator]>, 'next' | 'return' | 'throw' | typeof Symbol.asyncIterator> &
  AsyncIterator<T> & { [Symbol.asyncIterator](): FrameIterator<T> };

/** Framed bytes in, values out (object mode). */
export interface FrameDecoder<T> extends Transform {
  /** The index of the next frame. */
  readonly frame: number;
  /** The bytes held for a frame not yet complete (0 after an error or destroy). */
  readonly bufferedBytes: number;
  read(size?: number): T | null;
  [Symbol.asyncIterator](): FrameIterator<T>;
}

/**
 * What an issue is about: a value of the wrong type or shape, a broken constraint, or
 * (`safeDecode`) bytes that are no message.
 */
export type IssueCode =
  | 'invalid_type'
  | 'invalid_union'
  | 'unrecognized_keys'
  | 'too_deep'
  | 'too_small'
  | 'too_big'
  | 'not_multiple_of'
  | 'invalid_format'
  | 'truncated'
  | 'trailing'
  | 'malformed'
  | 'limit';

export interface Issue {
  /** Where in the value: `$.user.tags[2]`. */
  readonly path: string;
  readonly code: IssueCode;
  /** The message of the ShornError `encode` or `decode` throws for it. */
  readonly message: string;
  /** For the issue `decode` stops at (`safeDecode`): its byte offset in the input. */
  readonly offset?: number;
}

/** `moreIssues`: there were more than `maxIssues` issues; the first ones are listed. */
export type CheckResult = { readonly ok: true } | { readonly ok: false; readonly issues: readonly Issue[]; readonly moreIssues?: true };
export type SafeDecodeResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly Issue[]; readonly moreIssues?: true };

/**
 * Options of `fromZod` and `fromZodReport`, each an explicit opt-in (docs/ZOD.md); the
 * default of each is `'error'`: what it would take is ERR_SHORN_SCHEMA naming the option.
 */
export interface FromZodOptions {
  /** `'json'`: `z.any()`, `z.unknown()` and `z.json()` are `t.json()`, any JSON value. */
  readonly unknown?: 'error' | 'json';
  /**
   * `'leave-to-zod'`: refinements, transforms (`.transform()`, `.trim()`, `.toLowerCase()`,
   * and the checks after them), `.catch()`, `z.coerce`, `.pipe()`, `z.codec()` and checks
   * shorn has no constraint for keep their wire type (the input side, what a sender has
   * before Zod's parse); shorn checks the rest, and the app runs `Z.parse` on what it
   * decodes. The values are then typed `z.input` both ways.
   */
  readonly effects?: 'error' | 'leave-to-zod';
  /** `'strip'`: `z.looseObject()`, `.passthrough()` and `.catchall()` keep the named fields; other keys are dropped on encode. */
  readonly unknownKeys?: 'error' | 'strip';
}

/** What of a Zod schema shorn does not check or keep, by kind (docs/ZOD.md). */
export type ZodLeftOutKind = 'refine' | 'check' | 'transform' | 'pipe' | 'catch' | 'coerce' | 'default' | 'unknown-keys';

/** One part of a Zod schema left out: where (`$.a[]`), what kind, and the Zod method or type. */
export interface ZodLeftOut {
  readonly path: string;
  readonly kind: ZodLeftOutKind;
  readonly what: string;
}

// Whether options `O` leave effects to Zod: true, false, or boolean when not known.
type EffectsOption<O> = [O] extends [undefined] ? undefined : 'effects' extends keyof O ? O['effects' & keyof O] : undefined;
type LeavesToZod<O> = [EffectsOption<O>] extends ['leave-to-zod'] ? true : [EffectsOption<O>] extends ['error' | undefined] ? false : boolean;

/**
 * The descriptor `fromZod` makes of `Z` with options `O`: decoded values are `z.infer` of
 * `Z`, or `z.input` of it with `effects: 'leave-to-zod'` (the value before Zod's parse);
 * encoded values are `z.input`.
 */
export type FromZodDescriptor<Z extends ZodSchemaLike, O = {}> = ZodDescriptor<
  LeavesToZod<O> extends true ? Z['_zod']['input'] : LeavesToZod<O> extends false ? Z['_zod']['output'] : Z['_zod']['output'] | Z['_zod']['input'],
  Z['_zod']['input']
>;

/**
 * The shorn descriptor of a Zod v4 schema (zod is an optional peer dependency): objects,
 * strings with their lengths, patterns and formats, numbers and bigints with their formats
 * and bounds, booleans, dates, enums, literals, null, arrays, tuples, records, maps,
 * unions, discriminated unions, optional, nullable, default and lazy. Anything else (a
 * transform, a refinement with a function) is ERR_SHORN_SCHEMA naming it, and the option
 * that would take it. `Infer` of the result is `z.infer` of the schema (`z.input` with
 * `effects: 'leave-to-zod'`). `fromZodReport` lists what the options left out.
 */
export declare function fromZod<Z extends ZodSchemaLike, O extends FromZodOptions = {}>(schema: Z, options?: O): FromZodDescriptor<Z, O>;

/**
 * `fromZod`'s descriptor, and what of the schema shorn leaves out (each part with its path
 * and kind, in the order met; empty when nothing is).
 */
export declare function fromZodReport<Z extends ZodSchemaLike, O extends FromZodOptions = {}>(
  schema: Z,
  options?: O,
): { readonly descriptor: FromZodDescriptor<Z, O>; readonly leftOut: readonly ZodLeftOut[] };

/** Options of `fromJsonSchema`. */
export interface FromJsonSchemaOptions {
  /**
   * Schemas a `$ref` may name by `$id` outside the schema converted (Fastify's
   * `app.addSchema`): an array of schemas with an `$id`, or an object of them by id.
   */
  readonly schemas?: ReadonlyArray<object> | { readonly [id: string]: unknown };
  /** `'error'` (the default): a `format` shorn does not check is ERR_SHORN_SCHEMA; `'ignore'`: any string. */
  readonly unknownFormats?: 'error' | 'ignore';
}

/**
 * A descriptor made by `fromJsonSchema` from a JSON Schema of values `Output`: `Infer`
 * gives `Output`, as it gives `z.infer` for `fromZod`.
 */
export type JsonSchemaDescriptor<Output = unknown> = Descriptor & FromZodTypes<Output, Output>;

// The value type of a JSON Schema, read from its type: for a TypeBox 1.x schema it is
// TypeBox's `Static` (each TypeBox type is the JSON Schema it emits, with a `~kind`, and
// `~optional` and `~readonly` on properties); for one written `as const` (or passed inline,
// which `const S` reads as literals), the same mapping; for one whose keywords TypeScript
// knows only as `string`, `unknown`. `Defs`: the definitions `$ref` names (a TypeBox
// Cyclic's `$defs`, or the root's `$defs` / `definitions`); `Root`: what `#` names.
type JsonSchemaValueIn<S, Defs, Root> = S extends true
  ? JsonValue
  : S extends { readonly '~kind': 'Any' }
    ? any
    : S extends { readonly '~kind': 'Unknown' }
      ? unknown
      : S extends { readonly $defs: infer D; readonly $ref: infer R extends string }
        ? R extends keyof D
          ? JsonSchemaValueIn<D[R], D, Root>
          : JsonSchemaRef<R, Defs, Root>
        : S extends { readonly $ref: infer R extends string }
          ? JsonSchemaRef<R, Defs, Root>
          : S extends { readonly const: infer C }
            ? C
            : S extends { readonly enum: ReadonlyArray<infer E> }
              ? E
              : S extends { readonly anyOf: ReadonlyArray<infer V> }
                ? JsonSchemaValueIn<V, Defs, Root>
                : S extends { readonly oneOf: ReadonlyArray<infer V> }
                  ? JsonSchemaValueIn<V, Defs, Root>
                  : S extends { readonly allOf: readonly [infer V] }
                    ? JsonSchemaValueIn<V, Defs, Root>
                    : S extends { readonly type: infer T }
                      ? JsonSchemaTyped<T extends ReadonlyArray<infer U> ? U : T, S, Defs, Root> | (S extends { readonly nullable: true } ? null : never)
                      : S extends object
                        ? keyof S extends never
                          ? JsonValue
                          : unknown
                        : unknown;

type JsonSchemaRef<R extends string, Defs, Root> = R extends '#'
  ? JsonSchemaValueIn<Root, Defs, Root>
  : R extends keyof Defs
    ? JsonSchemaValueIn<Defs[R], Defs, Root>
    : R extends `#/$defs/${infer N}` | `#/definitions/${infer N}`
      ? N extends keyof Defs
        ? JsonSchemaValueIn<Defs[N], Defs, Root>
        : unknown
      : unknown;

type JsonSchemaTyped<T, S, Defs, Root> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'object'
          ? JsonSchemaObject<S, Defs, Root>
          : T extends 'array'
            ? JsonSchemaArray<S, Defs, Root>
            : unknown;

type JsonSchemaArray<S, Defs, Root> = S extends { readonly prefixItems: infer P extends readonly unknown[] }
  ? { -readonly [K in keyof P]: JsonSchemaValueIn<P[K], Defs, Root> }
  : S extends { readonly items: infer P extends readonly unknown[] }
    ? { -readonly [K in keyof P]: JsonSchemaValueIn<P[K], Defs, Root> }
    : S extends { readonly items: false }
      ? []
      : S extends { readonly items: infer I }
        ? JsonSchemaValueIn<I, Defs, Root>[]
        : JsonValue[];

// TypeBox marks a property optional with `~optional` (its `required` is computed from
// that); a plain schema leaves it out of `required`. A property with a `default` may be
// missing too (shorn fills it in), though it is always there after decode.
type JsonSchemaRequired<S> = S extends { readonly required: ReadonlyArray<infer R> } ? R : never;
type JsonSchemaOptionalKeys<S, P> = {
  [K in keyof P]: P[K] extends { readonly '~optional': true }
    ? K
    : S extends { readonly '~kind': string }
      ? never
      : K extends JsonSchemaRequired<S>
        ? never
        : P[K] extends { readonly default: unknown }
          ? never
          : K;
}[keyof P];
type JsonSchemaReadonlyKeys<P> = { [K in keyof P]: P[K] extends { readonly '~readonly': true } ? K : never }[keyof P];

type JsonSchemaObject<S, Defs, Root> = S extends { readonly patternProperties: infer P }
  ? { [key: string]: JsonSchemaValueIn<P[keyof P], Defs, Root> }
  : S extends { readonly properties: infer P }
    ? keyof P extends never
      ? object
      : JsonSchemaFields<P, JsonSchemaOptionalKeys<S, P>, JsonSchemaReadonlyKeys<P>, Defs, Root>
    : S extends { readonly additionalProperties: infer A extends object }
      ? { [key: string]: JsonSchemaValueIn<A, Defs, Root> }
      : { [key: string]: JsonValue };

type JsonSchemaFields<P, O extends keyof P, R extends keyof P, Defs, Root> = Simplify<
  { -readonly [K in Exclude<keyof P, O | R>]: JsonSchemaValueIn<P[K], Defs, Root> } & {
    -readonly [K in Exclude<O, R>]?: JsonSchemaValueIn<P[K], Defs, Root>;
  } & { readonly [K in Exclude<R, O>]: JsonSchemaValueIn<P[K], Defs, Root> } & {
    readonly [K in R & O]?: JsonSchemaValueIn<P[K], Defs, Root>;
  }
>;

/**
 * The value type of JSON Schema `S`, as `fromJsonSchema` reads it: TypeBox's `Static<S>`
 * for a TypeBox 1.x schema; for a plain schema known as literals (`as const`), what it
 * describes; `unknown` where TypeScript does not know the keywords.
 */
export type JsonSchemaValue<S> = JsonSchemaValueIn<
  S,
  (S extends { readonly $defs: infer D } ? D : {}) & (S extends { readonly definitions: infer D } ? D : {}),
  S
>;

/**
 * The shorn descriptor of a JSON Schema (draft 2020-12 or draft-07, the subset Fastify and
 * TypeBox 1.x produce; docs/JSON-SCHEMA.md): objects, strings with their lengths,
 * patterns and formats, integers (the narrowest shorn integer that holds the bounds),
 * numbers, booleans, null, nullable types, enums, consts, arrays, tuples, records, unions,
 * discriminated unions, `$ref` (recursion included) and defaults. Anything else is
 * ERR_SHORN_SCHEMA naming the keyword and its JSON Pointer. `Infer` of the result is
 * TypeBox's `Static` of a TypeBox schema.
 */
export declare function fromJsonSchema<const S>(schema: S, options?: FromJsonSchemaOptions): JsonSchemaDescriptor<JsonSchemaValue<S>>;

/** Reads one writer schema's bytes as values of the reader's schema. */
export interface Reader<D extends Descriptor = Descriptor> {
  decode(bytes: Uint8Array): Infer<D>;
  /** A Transform from framed bytes of the writer's messages to the reader's values. */
  decoder(options?: DecodeFrameOptions): FrameDecoder<Infer<D>>;
  /** Decodes every frame of `bytes` (the writer's messages) as the reader's values. */
  decodeFrames(bytes: Uint8Array, options?: DecodeFramesOptions): Infer<D>[];
  readonly readerFingerprint: string;
  readonly writerFingerprint: string;
}

/** One reason a reader cannot read every message of a writer; `path` in the reader's terms. */
export interface CompatibilityProblem {
  readonly path: string;
  readonly message: string;
}

/** The problems that stop `reader` reading every message written with `writer`; empty when none. */
export declare function compatibility(reader: Descriptor | Codec<any>, writer: Descriptor | Codec<any>): CompatibilityProblem[];

/** The writer schemas a transport may carry; encodes and decodes self-identifying envelopes. */
export interface Registry {
  /** `value` encoded with `schema` (one the registry knows) after a 10-byte envelope header. */
  encode<D extends Descriptor>(schema: D | Codec<D>, value: InferInput<D>): Buffer;
  /** An envelope of any known writer, decoded as `reader`'s values (default: the writer's own). */
  decode<D extends Descriptor>(bytes: Uint8Array, reader: D | Codec<D>): Infer<D>;
  decode(bytes: Uint8Array): unknown;
  /** The writer fingerprint in an envelope's header. */
  fingerprintOf(bytes: Uint8Array): string;
  /** Adds a writer schema; returns its codec. */
  add<D extends Descriptor>(schema: D | Codec<D>): Codec<D>;
  readonly fingerprints: string[];
}

/** A registry of writer schemas (descriptors or codecs), compiled with `options`. */
export declare function createRegistry(schemas: ReadonlyArray<Descriptor | Codec<any>>, options?: CompileOptions): Registry;

/** Compiles a descriptor into a native handle with its marshalling code. */
export declare function compile<D extends Descriptor>(schema: D, options?: CompileOptions): Codec<D>;

/** Encodes with `schema`, compiling it on first use (cached per schema object). */
export declare function encode<D extends Descriptor>(schema: D, value: InferInput<D>): Buffer;

/** Decodes with `schema`, compiling it on first use (cached per schema object). */
export declare function decode<D extends Descriptor>(schema: D, bytes: Uint8Array): Infer<D>;

export type ShornErrorCode =
  | 'ERR_SHORN_SCHEMA'
  | 'ERR_SHORN_INVALID'
  | 'ERR_SHORN_TRUNCATED'
  | 'ERR_SHORN_TRAILING'
  | 'ERR_SHORN_MALFORMED'
  | 'ERR_SHORN_LIMIT'
  | 'ERR_SHORN_BUFFER'
  | 'ERR_SHORN_UNKNOWN_SCHEMA';

/** Every error shorn throws. */
export declare class ShornError extends Error {
  constructor(code: ShornErrorCode, message: string, details?: { path?: string; offset?: number });
  readonly name: 'ShornError';
  readonly code: ShornErrorCode;
  /** Where in the value (encode) or the message (decode): `$.user.tags[2]`. */
  readonly path?: string;
  /** Byte offset into the input, for decode errors. */
  readonly offset?: number;
  /** The index of the frame (from 0), for errors of framed streams and batches. */
  readonly frame?: number;
}
