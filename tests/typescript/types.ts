// Type-level tests of the types added with the type registry: Infer of every type,
// recursive types, and descriptors known only as `Descriptor`.
import { t, compile, type Infer, type Descriptor, type JsonValue } from '../../index.js';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

const Event = t.object({
  id: t.int(),
  big: t.int64(),
  ubig: t.uint64(),
  at: t.date(),
  kind: t.literal('click'),
  nothing: t.null(),
  pos: t.tuple([t.float64(), t.float64(), t.string()]),
  scores: t.record(t.uint8()),
  byId: t.map(t.int(), t.string()),
  either: t.union([t.string(), t.uint32(), t.array(t.bool())]),
  payload: t.discriminatedUnion('type', [
    t.object({ type: t.literal('push'), size: t.uint32() }),
    t.object({ type: t.literal('watch'), action: t.enum(['started']) }),
  ]),
  extra: t.json(),
  mesh: t.float64Array(),
  indices: t.uint16Array(),
  bytes: t.int8Array(),
});
type Event = Infer<typeof Event>;
assertType<Equal<Event['id'], number>>();
assertType<Equal<Event['big'], bigint>>();
assertType<Equal<Event['ubig'], bigint>>();
assertType<Equal<Event['at'], Date>>();
assertType<Equal<Event['kind'], 'click'>>();
assertType<Equal<Event['nothing'], null>>();
assertType<Equal<Event['pos'], [number, number, string]>>();
assertType<Equal<Event['scores'], { [key: string]: number }>>();
assertType<Equal<Event['byId'], Map<number, string>>>();
assertType<Equal<Event['either'], string | number | boolean[]>>();
assertType<Equal<Event['payload'], { type: 'push'; size: number } | { type: 'watch'; action: 'started' }>>();
assertType<Equal<Event['extra'], JsonValue>>();
assertType<Equal<Event['mesh'], Float64Array>>();
assertType<Equal<Event['indices'], Uint16Array>>();
assertType<Equal<Event['bytes'], Int8Array>>();

const codec = compile(Event);
const e: Event = codec.decode(new Uint8Array(0));
if (e.payload.type === 'push') {
  const size: number = e.payload.size;
  void size;
}
// @ts-expect-error: int64 takes bigints, not numbers
codec.encode({ ...e, big: 5 });
// @ts-expect-error: the literal is 'click'
codec.encode({ ...e, kind: 'view' });
// @ts-expect-error: a tuple of three
codec.encode({ ...e, pos: [1, 2] });
// @ts-expect-error: an unknown tag
codec.encode({ ...e, payload: { type: 'fork' } });

// Recursive types infer to recursive value types.
const Tree = t.recursive('Tree', (self) => t.object({ value: t.uint8(), kids: t.array(self) }));
type Tree = Infer<typeof Tree>;
const tree: Tree = { value: 1, kids: [{ value: 2, kids: [{ value: 3, kids: [] }] }] };
const deep: number = tree.kids[0].kids[0].value;
void deep;
compile(Tree).encode(tree);
// @ts-expect-error: kids of kids must be trees too
const bad: Tree = { value: 1, kids: [{ value: 2, kids: [{ value: 'x', kids: [] }] }] };
void bad;

const List = t.recursive('List', (self) => t.object({ head: t.string(), tail: t.nullable(self) }));
const list: Infer<typeof List> = { head: 'a', tail: { head: 'b', tail: null } };
void list;

// A descriptor known only as Descriptor (loaded from JSON) gives unknown, not TS2589.
const loaded: Descriptor = JSON.parse('{"type":"uint8"}');
const anyCodec = compile(loaded);
const v: unknown = anyCodec.decode(new Uint8Array(1));
anyCodec.encode(v);
void v;

// The checker is on: this line must fail, or tsc reports the unused directive.
// @ts-expect-error: a string is not a number
const notANumber: number = 'x';
void notANumber;

// A default field may be missing on encode and is always there on decode.
const WithDefault = t.object({ id: t.uint32(), name: t.default(t.string(), 'anon'), tags: t.default(t.array(t.string()), []) });
const wd = compile(WithDefault);
wd.encode({ id: 1 });
wd.encode({ id: 1, name: 'x', tags: ['a'] });
const decodedDefault = wd.decode(new Uint8Array(0));
assertType<Equal<typeof decodedDefault, { id: number; name: string; tags: string[] }>>();
// @ts-expect-error: id has no default
wd.encode({ name: 'x' });
// @ts-expect-error: the default must be a value of the type
t.default(t.uint8(), 'x');
