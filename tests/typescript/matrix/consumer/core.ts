// A user's code against shorn's main entry, as installed from the packed package. The
// matrix (scripts/types-matrix.js) checks it as a CommonJS file (core.cts), an ES module
// (core.mts) and a bundler's module (core.ts), with skipLibCheck off, so the declarations
// of shorn, @types/node and fastify are checked too. Every `@ts-expect-error` line must
// fail, or tsc reports it.
import {
  t,
  compile,
  encode,
  decode,
  createRegistry,
  compatibility,
  ShornError,
  type Codec,
  type Infer,
  type InferInput,
  type FrameDecoder,
  type FrameEncoder,
  type Value,
} from 'shorn';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

const Order = t.object({
  id: t.int64(),
  customer: t.string({ maxLength: 100 }),
  status: t.enum(['open', 'shipped']),
  note: t.optional(t.string()),
  currency: t.default(t.string(), 'EUR'),
  lines: t.array(t.object({ sku: t.string(), qty: t.uint16({ min: 1 }) })),
  placed: t.date(),
  tags: t.record(t.string()),
  total: t.nullable(t.float64()),
});

// Infer: what decode gives; a defaulted field is always there. InferInput: what encode
// takes; a defaulted field may be missing (its default is encoded then).
type Order = Infer<typeof Order>;
type OrderInput = InferInput<typeof Order>;
type Line = { sku: string; qty: number };
assertType<
  Equal<
    Order,
    {
      id: bigint;
      customer: string;
      status: 'open' | 'shipped';
      note?: string;
      currency: string;
      lines: Line[];
      placed: Date;
      tags: { [key: string]: string };
      total: number | null;
    }
  >
>();
assertType<
  Equal<
    OrderInput,
    {
      id: bigint;
      customer: string;
      status: 'open' | 'shipped';
      note?: string;
      currency?: string;
      lines: Line[];
      placed: Date;
      tags: { [key: string]: string };
      total: number | null;
    }
  >
>();

const input: OrderInput = { id: 1n, customer: 'Ada', status: 'open', lines: [{ sku: 'a-1', qty: 2 }], placed: new Date(), tags: {}, total: null };
// @ts-expect-error: Infer makes the defaulted field required: an input without currency is no Order
const notAnOrder: Order = { id: 1n, customer: 'Ada', status: 'open', lines: [], placed: new Date(), tags: {}, total: null };
const full: Order = { ...input, currency: 'USD' };
// An Order is an input too.
const alsoInput: OrderInput = full;
void [notAnOrder, alsoInput];

// compile + encode/decode with inferred types.
const codec: Codec<typeof Order> = compile(Order, { maxStringBytes: 1 << 16, codegen: 'auto' });
const bytes: Buffer = codec.encode(input);
codec.encode({ id: 2n, customer: 'Bob', status: 'shipped', lines: [], placed: new Date(0), tags: { vip: 'yes' }, total: 9.5 });
// @ts-expect-error: a number is no int64 (bigint)
codec.encode({ ...input, id: 1 });
// @ts-expect-error: 'lost' is not one of the enum's values
codec.encode({ ...input, status: 'lost' });
// @ts-expect-error: customer is required
codec.encode({ id: 1n, status: 'open', lines: [], placed: new Date(), tags: {}, total: null });
const back = codec.decode(bytes);
const currency: string = back.currency;
const id: bigint = back.id;
const qty: number | undefined = back.lines[0]?.qty;
// @ts-expect-error: note may be missing on decode
const note: string = back.note;
// @ts-expect-error: the decoded value is typed (not any): placed is a Date
const placed: string = back.placed;
void [currency, id, qty, note, placed];

const written: number = codec.encodeInto(input, new Uint8Array(256), 0);
const viaFunctions: Order = decode(Order, encode(Order, input));
const checked = codec.check({});
const ok: boolean = checked.ok;
const safe = codec.safeDecode(bytes);
if (safe.ok) {
  const customer: string = safe.value.customer;
  void customer;
}
void [written, viaFunctions, ok];

// A descriptor known only as JSON: values are Value, inputs unknown.
const stored = JSON.parse('{"type":"string"}') as Parameters<typeof compile>[0];
const anyValue: Value = compile(stored).decode(bytes);
void anyValue;

// Evolution and registries.
const OrderV2 = t.object({ id: t.int64(), customer: t.string(), priority: t.default(t.uint8(), 0) });
const readsV1 = compile(OrderV2).reader(Order);
const fromV1: { id: bigint; customer: string; priority: number } = readsV1.decode(bytes);
const problems: { path: string; message: string }[] = compatibility(OrderV2, codec);
const registry = createRegistry([Order, OrderV2]);
const envelope: Buffer = registry.encode(OrderV2, { id: 1n, customer: 'Ada' });
const fromEnvelope: Infer<typeof OrderV2> = registry.decode(envelope, OrderV2);
void [fromV1, problems, fromEnvelope];

// Streams: a FrameDecoder fed by pipeline() and read with for await, a FrameEncoder as
// pipeline()'s source (the README's "Frames and streams").
async function serve(socket: Readable, handle: (order: Order) => void): Promise<bigint> {
  const decoder: FrameDecoder<Order> = codec.decoder({ maxFrameBytes: 1 << 20, checksum: true });
  const done = pipeline(socket, decoder);
  for await (const order of decoder) handle(order);
  await done;
  const again = codec.decoder();
  socket.pipe(again);
  let sum = 0n;
  for await (const order of again) {
    sum += order.id;
    // @ts-expect-error: the values are typed (not any): customer is a string
    const wrong: number = order.customer;
    void wrong;
  }
  const iterable: AsyncIterable<Order> = again;
  const first: IteratorResult<Order> = await again[Symbol.asyncIterator]().next();
  const held: number = again.bufferedBytes + again.frame;
  void [iterable, first, held];
  return sum;
}
function send(socket: NodeJS.WritableStream): FrameEncoder<OrderInput> {
  const encoder: FrameEncoder<OrderInput> = codec.encoder({ checksum: true });
  pipeline(encoder, socket).catch((e: unknown) => console.error(e));
  const more: boolean = encoder.write(input);
  // @ts-expect-error: the encoder takes orders
  encoder.write({ id: 1n });
  void more;
  return encoder;
}
void [serve, send];

const batch: Buffer = codec.encodeFrames([input, full], { checksum: false });
const orders: Order[] = codec.decodeFrames(batch, { maxFrames: 10 });
void orders;

try {
  codec.decode(new Uint8Array(0));
} catch (e) {
  if (e instanceof ShornError) {
    const code: 'ERR_SHORN_TRUNCATED' | (string & {}) = e.code;
    const where: [string | undefined, number | undefined, number | undefined] = [e.path, e.offset, e.frame];
    void [code, where];
  }
}
