// Type-level tests of fromZod, constraints and descriptors loaded from JSON, checked by
// `tsc -p tests/typescript` (npm test runs it).
import { z } from 'zod';
import {
  t,
  compile,
  fromZod,
  fromZodReport,
  type FromZodOptions,
  type ZodLeftOut,
  type ZodLeftOutKind,
  type Infer,
  type InferInput,
  type Descriptor,
  type Value,
  type ArrayType,
  type ObjectType,
  type RecordType,
  type MapType,
  type Codec,
  type CheckResult,
  type Issue,
} from '../../index.js';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

// Infer of fromZod(Z) is z.infer of Z, and InferInput is z.input, for every Zod type
// fromZod takes.
const Kind = z.enum(['click', 'view']);
const Everything = z.object({
  text: z.string().min(1).max(100).regex(/^[a-z]+$/),
  email: z.email(),
  also: z.string().email(),
  id: z.uuid(),
  link: z.url(),
  at: z.iso.datetime({ offset: true }),
  v4: z.ipv4(),
  v6: z.ipv6(),
  n: z.number().min(0).max(1),
  i: z.int(),
  i32: z.int32(),
  u32: z.uint32(),
  f32: z.float32(),
  f64: z.float64(),
  big: z.int64(),
  ubig: z.uint64().max(10n),
  ok: z.boolean(),
  when: z.date(),
  kind: Kind,
  one: z.literal('one'),
  few: z.literal(['a', 1, true]),
  none: z.null(),
  list: z.array(z.string()).min(1),
  pair: z.tuple([z.string(), z.int()]),
  scores: z.record(z.string(), z.number()),
  byId: z.map(z.int(), z.string()).max(3),
  either: z.union([z.string(), z.int()]),
  event: z.discriminatedUnion('type', [
    z.object({ type: z.literal('push'), size: z.uint32() }),
    z.object({ type: z.literal('watch'), by: z.string() }),
  ]),
  maybe: z.string().optional(),
  orNull: z.string().nullable(),
  withDefault: z.string().default('anon'),
  strict: z.strictObject({ a: z.boolean() }),
});
const EverythingD = fromZod(Everything);
assertType<Equal<Infer<typeof EverythingD>, z.infer<typeof Everything>>>();
assertType<Equal<InferInput<typeof EverythingD>, z.input<typeof Everything>>>();

for (const schema of [z.string(), z.int(), z.int64(), z.boolean(), z.date(), Kind, z.literal(7), z.null(), z.array(z.boolean())] as const) {
  const d = fromZod(schema);
  assertType<Equal<Infer<typeof d>, z.infer<typeof schema>>>();
}
const Tuple = z.tuple([z.string(), z.float32()]);
const TupleD = fromZod(Tuple);
assertType<Equal<Infer<typeof TupleD>, [string, number]>>();
const Rec = z.record(z.string(), z.uint32());
const RecD = fromZod(Rec);
assertType<Equal<Infer<typeof RecD>, z.infer<typeof Rec>>>();
const M = z.map(z.string(), z.date());
const MD = fromZod(M);
assertType<Equal<Infer<typeof MD>, Map<string, Date>>>();

// A fromZod descriptor inside t builders keeps its Zod types.
const UserZ = z.object({ name: z.string(), role: z.enum(['admin', 'user']).default('user') });
const Wrapped = t.object({ id: t.uint32(), user: fromZod(UserZ), friends: t.array(fromZod(UserZ)), maybe: t.optional(fromZod(UserZ)) });
assertType<Equal<Infer<typeof Wrapped>, { id: number; user: z.infer<typeof UserZ>; friends: z.infer<typeof UserZ>[]; maybe?: z.infer<typeof UserZ> }>>();
assertType<Equal<InferInput<typeof Wrapped>, { id: number; user: z.input<typeof UserZ>; friends: z.input<typeof UserZ>[]; maybe?: z.input<typeof UserZ> }>>();
compile(Wrapped).encode({ id: 1, user: { name: 'a' }, friends: [] });

// Recursion through z.lazy and through a getter.
interface Tree {
  value: number;
  kids: Tree[];
}
const TreeZ: z.ZodType<Tree> = z.lazy(() => z.object({ value: z.int(), kids: z.array(TreeZ) }));
const TreeD = fromZod(TreeZ);
assertType<Equal<Infer<typeof TreeD>, Tree>>();
const Category = z.object({
  name: z.string(),
  get subs(): z.ZodArray<typeof Category> {
    return z.array(Category);
  },
});
const CategoryD = fromZod(Category);
assertType<Equal<Infer<typeof CategoryD>, z.infer<typeof Category>>>();

// The codec of a Zod descriptor speaks Zod's types: defaults optional on encode, present
// on decode.
const codec: Codec<typeof EverythingD> = compile(EverythingD);
const decoded = codec.decode(new Uint8Array(0));
const name: string = decoded.withDefault;
const big: bigint = decoded.big;
void [name, big];
const User = fromZod(z.object({ id: z.uint32(), name: z.string().default('anon') }));
compile(User).encode({ id: 1 });
// @ts-expect-error: id is required
compile(User).encode({ name: 'x' });
// @ts-expect-error: a number is not a string
compile(User).encode({ id: 1, name: 2 });

// The options (issue 42, item 8). unknown: 'json' and unknownKeys: 'strip' keep z.infer;
// effects: 'leave-to-zod' types decoded values as z.input (the value before Zod's parse:
// a transform's input, a default maybe missing), and encoded ones as z.input too.
const Signup = z
  .object({
    email: z.string().trim().toLowerCase().pipe(z.email()),
    born: z.iso.date().transform((s) => new Date(s)),
    plan: z.enum(['free', 'pro']).catch('free'),
    tags: z.array(z.string().trim()).default([]),
    meta: z.unknown(),
  })
  .refine((v) => v.tags.length < 10);
const SignupD = fromZod(Signup, { effects: 'leave-to-zod', unknown: 'json' });
assertType<Equal<Infer<typeof SignupD>, z.input<typeof Signup>>>();
assertType<Equal<InferInput<typeof SignupD>, z.input<typeof Signup>>>();
assertType<Equal<Infer<typeof SignupD>, { email: string; born: string; plan: 'free' | 'pro'; tags?: string[] | undefined; meta: unknown }>>();
const signups = compile(SignupD);
const wire: { born: string } = signups.decode(new Uint8Array(0));
const parsed: Date = Signup.parse(wire).born;
void parsed;
signups.encode({ email: ' Ada@Example.com ', born: '1990-01-02', plan: 'pro', meta: { any: ['json'] } });
// @ts-expect-error: the wire has the transform's input, a string, not a Date
signups.encode({ email: 'a@b.co', born: new Date(), plan: 'pro', meta: null });
// effects: 'error' (or no options) keeps z.infer.
const Plain = z.object({ at: z.date(), n: z.int().default(1) });
const plain0 = fromZod(Plain);
const plain1 = fromZod(Plain, {});
const plain2 = fromZod(Plain, { effects: 'error' });
const plain3 = fromZod(Plain, { unknown: 'json', unknownKeys: 'strip' });
assertType<Equal<Infer<typeof plain0>, z.infer<typeof Plain>>>();
assertType<Equal<Infer<typeof plain1>, z.infer<typeof Plain>>>();
assertType<Equal<Infer<typeof plain2>, z.infer<typeof Plain>>>();
assertType<Equal<Infer<typeof plain3>, z.infer<typeof Plain>>>();
assertType<Equal<InferInput<typeof plain3>, z.input<typeof Plain>>>();
// Options known only as FromZodOptions: either.
const someOptions: FromZodOptions = JSON.parse('{}');
const either = fromZod(z.string().transform((s) => s.length), someOptions);
assertType<Equal<Infer<typeof either>, string | number>>();
// fromZodReport: the same descriptor, and what was left out.
const reported = fromZodReport(Signup, { effects: 'leave-to-zod', unknown: 'json' });
assertType<Equal<typeof reported.descriptor, typeof SignupD>>();
assertType<Equal<typeof reported.leftOut, readonly ZodLeftOut[]>>();
const firstLeftOut = reported.leftOut[0];
if (firstLeftOut !== undefined) {
  const where: string = firstLeftOut.path;
  const kind: ZodLeftOutKind = firstLeftOut.kind;
  const what: string = firstLeftOut.what;
  void [where, kind, what];
}
assertType<Equal<ZodLeftOutKind, 'refine' | 'check' | 'transform' | 'pipe' | 'catch' | 'coerce' | 'default' | 'unknown-keys'>>();
const noOptions = fromZodReport(Plain);
assertType<Equal<Infer<typeof noOptions.descriptor>, z.infer<typeof Plain>>>();
// @ts-expect-error: not an option value
fromZod(Plain, { effects: 'skip' });
// @ts-expect-error: not an option
fromZod(Plain, { refinements: 'skip' });
// @ts-expect-error: unknown takes 'json' (or 'error')
fromZod(Plain, { unknown: 'any' });

// check and safeDecode report failures as values.
const checked: CheckResult = codec.check({});
if (!checked.ok) {
  const first: Issue = checked.issues[0];
  const where: string = first.path;
  void where;
}
const safe = compile(User).safeDecode(new Uint8Array([1, 0]));
if (safe.ok) {
  assertType<Equal<typeof safe.value, { id: number; name: string }>>();
} else {
  const offset: number | undefined = safe.issues[0].offset;
  void offset;
}

// Constraints on t types keep their value types; their options are typed.
const Constrained = t.object({
  name: t.string({ minLength: 1, maxLength: 100, format: 'email', pattern: /^a/ }),
  age: t.uint8({ min: 0, max: 150 }),
  big: t.int64({ min: 0n, multipleOf: 5n }),
  ratio: t.float32({ min: 0, max: 1 }),
  tags: t.array(t.string(), { minItems: 1, maxItems: 3 }),
  blob: t.bytes({ maxLength: 16 }),
  scores: t.record(t.uint8(), { maxEntries: 10 }),
  byId: t.map(t.int(), t.string(), { maxEntries: 10 }),
});
assertType<
  Equal<
    Infer<typeof Constrained>,
    { name: string; age: number; big: bigint; ratio: number; tags: string[]; blob: Uint8Array; scores: { [key: string]: number }; byId: Map<number, string> }
  >
>();
// @ts-expect-error: int64 bounds are bigints
t.int64({ min: 0 });
// @ts-expect-error: not a format
t.string({ format: 'phone' });
// @ts-expect-error: floats have no multipleOf
t.float64({ multipleOf: 2 });

// Descriptors loaded from JSON: no TS2589, and a usable value type.
const text = '{"type":"uint8"}';
const fromText = compile(JSON.parse(text));
const anything = fromText.decode(new Uint8Array(1));
void anything;
const loaded = JSON.parse(text) as Descriptor;
const loadedCodec = compile(loaded);
const value: Value = loadedCodec.decode(new Uint8Array(1));
loadedCodec.encode(value);
loadedCodec.encode(JSON.parse('1'));
assertType<Equal<Infer<Descriptor>, Value>>();
assertType<Equal<Infer<typeof loaded>, Value>>();
assertType<Equal<InferInput<Descriptor>, unknown>>();
if (typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map) && !ArrayBuffer.isView(value) && !(value instanceof Date)) {
  const field: Value = value.anyField;
  void field;
}
// Descriptors known in part: the known part is typed, the rest is Value.
const loadedArray = { type: 'array', items: loaded } as const satisfies ArrayType<Descriptor>;
const items: Value[] = compile(loadedArray).decode(new Uint8Array(1));
void items;
type PartObject = Infer<ObjectType>;
type PartRecord = Infer<RecordType<Descriptor>>;
type PartMap = Infer<MapType<Descriptor, Descriptor>>;
const partObject: PartObject = {};
const partRecord: PartRecord = { a: 1 };
const partMap: PartMap = new Map<Value, Value>();
void [partObject, partRecord, partMap];
function loadCodec(json: string): Codec {
  return compile(JSON.parse(json) as Descriptor);
}
const generic: Value = loadCodec(text).decode(new Uint8Array(1));
void generic;
