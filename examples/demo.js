'use strict';
// The main job in one page: compile a schema once, encode plain objects to compact bytes,
// decode them back, and see what happens to bad input. Run: npm run demo

const { t, compile, ShornError } = require('..');

const Event = t.object({
  id: t.uint32(),
  ts: t.float64(),
  kind: t.enum(['click', 'view', 'purchase', 'signup', 'logout']),
  user: t.object({ id: t.uint32(), name: t.string(), tags: t.array(t.string()) }),
  geo: t.object({ lat: t.float64(), lon: t.float64() }),
  payload: t.object({ count: t.uint16(), ratio: t.float32(), ok: t.bool() }),
  note: t.optional(t.string()),
});

const codec = compile(Event); // once, at start-up

const event = {
  id: 2874519301,
  ts: 1718031234567,
  kind: 'purchase',
  user: { id: 912345, name: 'grace_h', tags: ['beta', 'eu', 'ios'] },
  geo: { lat: 51.507351, lon: -0.127758 },
  payload: { count: 4096, ratio: Math.fround(0.618034), ok: true },
};

const bytes = codec.encode(event);
const json = Buffer.from(JSON.stringify(event));
console.log(`encoded: ${bytes.length} bytes (JSON: ${json.length} bytes, ${(json.length / bytes.length).toFixed(1)}x larger)`);
console.log(`hex:     ${bytes.toString('hex')}`);
console.log('decoded:', codec.decode(bytes));

const rounds = 200_000;
let started = process.hrtime.bigint();
for (let i = 0; i < rounds; i++) codec.encode(event);
const encodeNs = Number(process.hrtime.bigint() - started) / rounds;
started = process.hrtime.bigint();
for (let i = 0; i < rounds; i++) codec.decode(bytes);
const decodeNs = Number(process.hrtime.bigint() - started) / rounds;
console.log(`speed:   encode ${encodeNs.toFixed(0)} ns, decode ${decodeNs.toFixed(0)} ns per event (rough; see npm run bench)`);

console.log('\nBad input gets a clear error:');
const attempts = [
  ['a wrong value', () => codec.encode({ ...event, user: { ...event.user, tags: ['beta', 'eu', 42] } })],
  ['an unknown enum value', () => codec.encode({ ...event, kind: 'refund' })],
  ['truncated bytes', () => codec.decode(bytes.subarray(0, 20))],
  ['an extra byte', () => codec.decode(Buffer.concat([bytes, Buffer.from([0])]))],
  ['a schema typo', () => compile(t.object({ id: { type: 'uint33' } }))],
];
for (const [what, attempt] of attempts) {
  try {
    attempt();
    console.log(`  ${what}: no error?`);
    process.exitCode = 1;
  } catch (e) {
    if (!(e instanceof ShornError)) throw e;
    console.log(`  ${what}: ${e.code}: ${e.message}`);
  }
}
