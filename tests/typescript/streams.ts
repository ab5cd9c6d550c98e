// Framing and streams: the value types flow through encoder/decoder and the batch functions.
import { t, compile, ShornError, type Infer, type FrameDecoder, type FrameEncoder } from '../../index.js';
import { pipeline } from 'node:stream/promises';

const Event = t.object({ id: t.uint32(), kind: t.enum(['a', 'b']), note: t.optional(t.string()) });
type Event = Infer<typeof Event>;
const codec = compile(Event);

const encoder: FrameEncoder<{ id: number; kind: 'a' | 'b'; note?: string }> = codec.encoder({ checksum: true });
encoder.write({ id: 1, kind: 'a' });
// @ts-expect-error: kind must be 'a' or 'b'
encoder.write({ id: 1, kind: 'c' });

const decoder: FrameDecoder<Event> = codec.decoder({ maxFrameBytes: 1 << 20, checksum: true });
const held: number = decoder.bufferedBytes + decoder.frame;

async function read(): Promise<number> {
  let sum = held;
  for await (const event of decoder) {
    const id: number = event.id;
    const kind: 'a' | 'b' = event.kind;
    // @ts-expect-error the values are typed (not any): id is a number
    const wrong: string = event.id;
    void wrong;
    sum += id + kind.length;
  }
  return sum;
}
void read;
void pipeline(encoder, decoder);

const batch: Buffer = codec.encodeFrames([{ id: 1, kind: 'a' }], { checksum: false });
const events: Event[] = codec.decodeFrames(batch, { maxFrameBytes: 100 });
void events;
// @ts-expect-error: maxFrameBytes is a decode option
codec.encodeFrames([], { maxFrameBytes: 1 });

try {
  codec.decodeFrames(new Uint8Array([1]));
} catch (e) {
  if (e instanceof ShornError) {
    const frame: number | undefined = e.frame;
    void frame;
  }
}

// A reader of an older writer's frames, as the reader's values.
const Old = t.object({ id: t.uint32(), kind: t.enum(['a', 'b']) });
const fromOld = codec.reader(Old);
const olds: Event[] = fromOld.decodeFrames(compile(Old).encodeFrames([{ id: 1, kind: 'b' }]));
const oldStream: FrameDecoder<Event> = fromOld.decoder({ checksum: false });
void olds;
void oldStream;
