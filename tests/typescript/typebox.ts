// Type-level tests of fromJsonSchema: Infer of a converted TypeBox 1.x schema is TypeBox's
// Static, and a plain JSON Schema written `as const` gives the values it describes.
// Checked with tsconfig.zod.json (typebox's own declarations are not checked: that took
// ~30 s of CPU; index.d.ts is checked by tsconfig.json).
import { Type, type Static, type TSchema } from 'typebox';
import { fromJsonSchema, compile, type Infer, type InferInput, type JsonValue, type JsonSchemaValue } from '../../index.js';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

// What fromJsonSchema gives for S, and Infer of it.
type Converted<S> = ReturnType<typeof fromJsonSchema<S>>;
type Same<S extends TSchema> = Equal<Infer<Converted<S>>, Static<S>>;

const Scalars = Type.Object({
  s: Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z]+$' }),
  n: Type.Number({ minimum: 0 }),
  i: Type.Integer({ minimum: 0, maximum: 255 }),
  b: Type.Boolean(),
  z: Type.Null(),
  at: Type.String({ format: 'date-time' }),
});
assertType<Same<typeof Scalars>>();
assertType<Equal<Infer<Converted<typeof Scalars>>, { s: string; n: number; i: number; b: boolean; z: null; at: string }>>();

const Order = Type.Object(
  {
    id: Type.Integer(),
    note: Type.Optional(Type.String()),
    tags: Type.Array(Type.String(), { maxItems: 10 }),
    lines: Type.Array(Type.Object({ sku: Type.String(), qty: Type.Integer({ minimum: 1 }), sizes: Type.Array(Type.Array(Type.Number())) })),
    status: Type.Union([Type.Literal('open'), Type.Literal('shipped')]),
    code: Type.Union([Type.Literal('a'), Type.Literal(1), Type.Literal(true)]),
    kind: Type.Enum(['x', 'y']),
    owner: Type.Union([Type.String(), Type.Null()]),
    attrs: Type.Record(Type.String(), Type.Integer()),
    point: Type.Tuple([Type.Number(), Type.Number(), Type.String()]),
    empty: Type.Object({}),
    ro: Type.Readonly(Type.String()),
    both: Type.Readonly(Type.Optional(Type.Number())),
    anything: Type.Unknown(),
  },
  { additionalProperties: false },
);
assertType<Same<typeof Order>>();

const Shape = Type.Union([
  Type.Object({ kind: Type.Literal('circle'), r: Type.Number() }),
  Type.Object({ kind: Type.Literal('square'), side: Type.Number() }),
]);
assertType<Same<typeof Shape>>();
assertType<Equal<Infer<Converted<typeof Shape>>, { kind: 'circle'; r: number } | { kind: 'square'; side: number }>>();

// Type.Cyclic: $defs and a $ref by $id.
const Tree = Type.Cyclic({ Node: Type.Object({ name: Type.String(), kids: Type.Array(Type.Ref('Node')) }) }, 'Node');
assertType<Same<typeof Tree>>();
const tree = compile(fromJsonSchema(Tree)).decode(new Uint8Array());
const kidName: string | undefined = tree.kids[0]?.kids[0]?.name;
void kidName;

const Mutual = Type.Cyclic(
  { A: Type.Object({ b: Type.Optional(Type.Ref('B')) }), B: Type.Object({ a: Type.Ref('A'), n: Type.Integer() }) },
  'A',
);
assertType<Same<typeof Mutual>>();

// The codec's encode and decode use the same type.
const orders = compile(fromJsonSchema(Order));
type OrderValue = Static<typeof Order>;
assertType<Equal<ReturnType<typeof orders.decode>, OrderValue>>();
assertType<Equal<InferInput<Converted<typeof Order>>, OrderValue>>();

// A plain JSON Schema known as literals: inline (const S) or `as const`.
const user = fromJsonSchema({
  type: 'object',
  properties: {
    name: { type: 'string' },
    age: { type: 'integer', minimum: 0 },
    email: { type: ['string', 'null'], format: 'email' },
    role: { enum: ['admin', 'user'], default: 'user' },
    tags: { type: 'array', items: { type: 'string' } },
    pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'boolean' }], items: false, minItems: 2 },
    extra: { type: 'object', additionalProperties: { type: 'number' } },
    any: {},
  },
  required: ['name', 'email'],
  additionalProperties: false,
});
assertType<
  Equal<
    Infer<typeof user>,
    {
      name: string;
      email: string | null;
      role: 'admin' | 'user';
      age?: number;
      tags?: string[];
      pair?: [string, boolean];
      extra?: { [key: string]: number };
      any?: JsonValue;
    }
  >
>();

const List = {
  $defs: { Node: { type: 'object', properties: { value: { type: 'number' }, next: { $ref: '#/$defs/Node' } }, required: ['value'] } },
  $ref: '#/$defs/Node',
} as const;
type ListValue = JsonSchemaValue<typeof List>;
const list: ListValue = { value: 1, next: { value: 2, next: { value: 3 } } };
void list;

// A schema whose keywords TypeScript knows only as strings says nothing of its values.
const loose: { type: string } = { type: 'string' };
assertType<Equal<Infer<ReturnType<typeof fromJsonSchema<typeof loose>>>, unknown>>();
