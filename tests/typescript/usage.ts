// Type-level tests of index.d.ts, checked by `tsc -p tests/typescript` (npm test runs it).
// Each `@ts-expect-error` line must fail to type-check, or tsc reports it.
import { t, compile, encode, decode, ShornError, type Infer, type Codec } from '../../index.js';

const Person = t.object({
  id: t.uint32(),
  name: t.string(),
  age: t.uint8(),
  active: t.bool(),
  nick: t.optional(t.string()),
  tags: t.array(t.enum(['a', 'b'])),
  avatar: t.nullable(t.bytes()),
});
type Person = Infer<typeof Person>;

const codec: Codec<typeof Person> = compile(Person, { maxStringBytes: 1024, codegen: 'auto' });
// The back end, chosen and reported.
const onJs = compile(Person, { backend: 'js' });
const backend: 'native' | 'js' = onJs.backend;
void backend;
// @ts-expect-error: no such back end
compile(Person, { backend: 'wasm' });
const value: Person = { id: 1, name: 'Ada', age: 36, active: true, tags: ['a'], avatar: null };
const buf: Buffer = codec.encode(value);
const back: Person = codec.decode(buf);
const n: number = codec.encodeInto(value, new Uint8Array(64), 0);
const nick: string | undefined = back.nick;
const tag: 'a' | 'b' | undefined = back.tags[0];
const avatar: Uint8Array | null = back.avatar;
void [n, nick, tag, avatar];

encode(Person, value);
const again: Person = decode(Person, new Uint8Array(buf));
void again;

// @ts-expect-error: name must be a string
codec.encode({ ...value, name: 1 });
// @ts-expect-error: id is required
codec.encode({ name: 'Ada', age: 36, active: true, tags: [], avatar: null });
// @ts-expect-error: 'c' is not one of the enum's values
codec.encode({ ...value, tags: ['c'] });
// @ts-expect-error: a number is not bytes
compile(t.bytes()).encode(1);

try {
  codec.decode(new Uint8Array(0));
} catch (e) {
  if (e instanceof ShornError) {
    const code: 'ERR_SHORN_TRUNCATED' | string = e.code;
    const offset: number | undefined = e.offset;
    const path: string | undefined = e.path;
    void [code, offset, path];
  }
}

// Descriptors are JSON: the same after a round trip still compiles.
const stored = JSON.parse(JSON.stringify(Person)) as typeof Person;
compile(stored);

// An enum from a runtime list (not a literal) still compiles, with `string` values.
const kinds: string[] = ['click', 'view'];
const Kind = compile(t.enum(kinds));
const kind: string = Kind.decode(Kind.encode('click'));
void kind;

// Schema evolution, fingerprints and registries.
import { compatibility, createRegistry, type Reader, type CompatibilityProblem } from '../../index.js';
const PersonV2 = t.object({
  id: t.uint32(),
  name: t.string(),
  email: t.default(t.string(), ''),
  color: t.enum(['red', 'other'], { default: 'other' }),
});
const v2 = compile(PersonV2);
const fingerprint: string = v2.fingerprint;
const readsV1: Reader<typeof PersonV2> = v2.reader(Person);
const fromV1: { id: number; name: string; email: string; color: 'red' | 'other' } = readsV1.decode(buf);
const problems: CompatibilityProblem[] = compatibility(PersonV2, codec);
const registry = createRegistry([Person, PersonV2], { maxDepth: 32 });
const envelope: Buffer = registry.encode(PersonV2, { id: 1, name: 'x', color: 'red' });
const viaRegistry: Infer<typeof PersonV2> = registry.decode(envelope, PersonV2);
const writerFingerprint: string = registry.fingerprintOf(envelope);
void [fingerprint, fromV1, problems, viaRegistry, writerFingerprint];
// @ts-expect-error: the enum default must be one of its values
t.enum(['a', 'b'], { default: 'c' });
