'use strict';
// The benchmark fixtures of docs/BENCHMARKS.md, and per fixture the schema each codec
// needs; then the six real-world corpora of benchmark/data, whose schemas live in
// corpora.js. Values are built lazily: events100k takes ~0.3 s and ~100 MB of heap, and the
// cold-setup and memory children must not pay for values they never touch.

const { CORPORA, loadCorpus } = require('./corpora');

// Factories, not constants: each load gets its own objects (built by literals, as an
// application would build them), so the round-trip check can compare against a copy that the
// codec never touched.
const person = () => ({ id: 1234, name: 'Ada', age: 36, active: true });

// person with an email, under real constraints (issue 10): name 1-100 code points, age
// 0-150, email a Zod v4 email.
const personValidated = () => ({ id: 1234, name: 'Ada', age: 36, email: 'ada@example.com', active: true });

const unicodePerson = () => ({
  id: 1234,
  name: 'Zoë Łukasz 李小龍 🚀 Ñuño',
  age: 36,
  active: true,
  bio: 'Программистка и поэтесса — 数学者、詩人の娘。Αναλυτική μηχανή ✓ Ünïcødé ßüß 🚀🌍',
});

// unicodePerson's fields with Latin-1 text (accented letters among ASCII, every char at
// most U+00FF): decoded into one-byte strings, not transcoded to UTF-16. Not in the full
// run's default list (EXTRA_FIXTURES); `--fixtures latin1Person`, fixture-ab.js and
// peer-pair.js take it by name.
const latin1Person = () => ({
  id: 1234,
  name: 'Zoë Müller-Lüdenscheidt',
  age: 36,
  active: true,
  bio: "Née à Besançon, elle a étudié à l'Université de Genève. Ça lui a plu énormément; später Übersetzerin für Spanisch (año, niño, señor).",
});

const nestedEvent = () => ({
  id: 2874519301,
  ts: 1718031234567,
  kind: 'purchase',
  user: { id: 912345, name: 'grace_h', tags: ['beta', 'eu', 'ios'] },
  geo: { lat: 51.507351, lon: -0.127758 },
  payload: { count: 4096, ratio: Math.fround(0.618034), ok: true },
});

const KINDS = ['click', 'view', 'purchase', 'signup', 'logout'];
// ASCII and non-ASCII names, so varied events exercise both string paths of every codec.
const USER_NAMES = ['ada', 'grace', 'linus', 'margaret', 'ken', 'barbara',
  'zoë', 'łukasz', 'søren', 'ñuño', '李小龍', 'ярослава'];
const TAGS = ['beta', 'eu', 'us', 'ios', 'android', 'web', 'pro', 'free', 'new', 'vip', 'apac', 'dev'];
// One seed for every array fixture: batch100 is then the first 100 events of events100k.
const EVENTS_SEED = 0x5eed;
const FIRST_TS = 1718031234567;

// mulberry32: a tiny deterministic PRNG, so every run and every child sees the same events.
function mulberry32(seed) {
  let a = seed >>> 0;
  return function random() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round6 = (x) => Math.round(x * 1e6) / 1e6;

function makeEvents(count) {
  const random = mulberry32(EVENTS_SEED);
  const below = (n) => Math.floor(random() * n);
  const pick = (list) => list[below(list.length)];
  const events = new Array(count);
  let ts = FIRST_TS;
  for (let i = 0; i < count; i++) {
    ts += 1 + below(1000);
    // Keys in the same order as nestedEvent: msgpackr's record structures depend on it.
    events[i] = {
      id: below(2 ** 32),
      ts,
      kind: pick(KINDS),
      user: { id: below(1e6), name: `${pick(USER_NAMES)}_${below(1000)}`, tags: [pick(TAGS), pick(TAGS), pick(TAGS)] },
      geo: { lat: round6(random() * 180 - 90), lon: round6(random() * 360 - 180) },
      // Scaled below 1 - 2^-24 (the largest float32 under 1) so that fround cannot round up to 1.
      payload: { count: below(65536), ratio: Math.fround(random() * (1 - 2 ** -24)), ok: random() < 0.5 },
    };
  }
  return events;
}

// ---- schemas, one set per shape ------------------------------------------------------------

const AVRO_PERSON_FIELDS = [
  { name: 'id', type: 'long' }, // uint32 does not fit Avro int (signed 32-bit)
  { name: 'name', type: 'string' },
  { name: 'age', type: 'int' },
  { name: 'active', type: 'boolean' },
];

const AVRO_EVENT = {
  type: 'record',
  name: 'Event',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'ts', type: 'double' },
    { name: 'kind', type: { type: 'enum', name: 'Kind', symbols: KINDS } },
    {
      name: 'user',
      type: {
        type: 'record',
        name: 'User',
        fields: [
          { name: 'id', type: 'long' },
          { name: 'name', type: 'string' },
          { name: 'tags', type: { type: 'array', items: 'string' } },
        ],
      },
    },
    {
      name: 'geo',
      type: { type: 'record', name: 'Geo', fields: [{ name: 'lat', type: 'double' }, { name: 'lon', type: 'double' }] },
    },
    {
      name: 'payload',
      type: {
        type: 'record',
        name: 'Payload',
        fields: [{ name: 'count', type: 'int' }, { name: 'ratio', type: 'float' }, { name: 'ok', type: 'boolean' }],
      },
    },
  ],
};

const SCHEMAPACK_PERSON = { id: 'uint32', name: 'string', age: 'uint8', active: 'bool' };
const SCHEMAPACK_PERSON_VALIDATED = { id: 'uint32', name: 'string', age: 'uint8', email: 'string', active: 'bool' };
const SCHEMAPACK_EVENT = {
  id: 'uint32',
  ts: 'float64',
  kind: 'string', // schemapack has no enum type
  user: { id: 'uint32', name: 'string', tags: ['string'] },
  geo: { lat: 'float64', lon: 'float64' },
  payload: { count: 'uint16', ratio: 'float32', ok: 'bool' },
};

const PROTO_PERSON = 'uint32 id = 1; string name = 2; uint32 age = 3; bool active = 4;';
const PROTO_PERSON_VALIDATED = 'uint32 id = 1; string name = 2; uint32 age = 3; string email = 4; bool active = 5;';
// proto3 enums must start at 0; the value names are the fixture's strings so `enums: String`
// gives them back unchanged.
const PROTO_EVENT = `
enum Kind { click = 0; view = 1; purchase = 2; signup = 3; logout = 4; }
message User { uint32 id = 1; string name = 2; repeated string tags = 3; }
message Geo { double lat = 1; double lon = 2; }
message Payload { uint32 count = 1; float ratio = 2; bool ok = 3; }
message Event { uint32 id = 1; double ts = 2; Kind kind = 3; User user = 4; Geo geo = 5; Payload payload = 6; }`;
const proto3 = (body) => `syntax = "proto3";\n${body}\n`;

function shornEvent(t) {
  return t.object({
    id: t.uint32(),
    ts: t.float64(),
    kind: t.enum(KINDS),
    user: t.object({ id: t.uint32(), name: t.string(), tags: t.array(t.string()) }),
    geo: t.object({ lat: t.float64(), lon: t.float64() }),
    payload: t.object({ count: t.uint16(), ratio: t.float32(), ok: t.bool() }),
  });
}

// Each shape: `label` names it in the cold-setup table; `probe` reads one cheap number from a
// decoded value, so the timed loop consumes its result without walking it. `avsc` is
// { schema } plus, for some corpora, what corpora.js says avsc needs besides.
const SHAPES = {
  person: {
    label: 'person',
    probe: (v) => v.id,
    avsc: { schema: { type: 'record', name: 'Person', fields: AVRO_PERSON_FIELDS } },
    schemapack: SCHEMAPACK_PERSON,
    protobuf: { source: proto3(`message Person { ${PROTO_PERSON} }`), type: 'Person' },
    shorn: (t) => t.object({ id: t.uint32(), name: t.string(), age: t.uint8(), active: t.bool() }),
  },
  // The peers' schemas say only the types: zod (fixtures below) checks the constraints for
  // them; shorn's schema has the constraints themselves.
  personValidated: {
    label: 'personValidated',
    probe: (v) => v.id,
    avsc: {
      schema: {
        type: 'record',
        name: 'PersonValidated',
        fields: [...AVRO_PERSON_FIELDS.slice(0, 3), { name: 'email', type: 'string' }, AVRO_PERSON_FIELDS[3]],
      },
    },
    schemapack: SCHEMAPACK_PERSON_VALIDATED,
    protobuf: { source: proto3(`message PersonValidated { ${PROTO_PERSON_VALIDATED} }`), type: 'PersonValidated' },
    shorn: (t) =>
      t.object({
        id: t.uint32(),
        name: t.string({ minLength: 1, maxLength: 100 }),
        age: t.uint8({ min: 0, max: 150 }),
        email: t.string({ format: 'email' }),
        active: t.bool(),
      }),
  },
  unicodePerson: {
    label: 'unicodePerson',
    probe: (v) => v.id,
    avsc: {
      schema: { type: 'record', name: 'UnicodePerson', fields: [...AVRO_PERSON_FIELDS, { name: 'bio', type: 'string' }] },
    },
    schemapack: { ...SCHEMAPACK_PERSON, bio: 'string' },
    protobuf: { source: proto3(`message UnicodePerson { ${PROTO_PERSON} string bio = 5; }`), type: 'UnicodePerson' },
    shorn: (t) => t.object({ id: t.uint32(), name: t.string(), age: t.uint8(), active: t.bool(), bio: t.string() }),
  },
  event: {
    label: 'nestedEvent',
    probe: (v) => v.id,
    avsc: { schema: AVRO_EVENT },
    schemapack: SCHEMAPACK_EVENT,
    protobuf: { source: proto3(PROTO_EVENT), type: 'Event' },
    shorn: shornEvent,
  },
  eventArray: {
    label: 'batch100 / events100k',
    probe: (v) => v.length,
    avsc: { schema: { type: 'array', items: AVRO_EVENT } },
    schemapack: [SCHEMAPACK_EVENT],
    // proto3 has no top-level repeated type: the array travels in a wrapper message.
    protobuf: {
      source: proto3(`${PROTO_EVENT}\nmessage Batch { repeated Event events = 1; }`),
      type: 'Batch',
      wrapperField: 'events',
    },
    shorn: (t) => t.array(shornEvent(t)),
  },
};

const FIXTURES = {
  person: { shape: 'person', makeValue: person },
  unicodePerson: { shape: 'unicodePerson', makeValue: unicodePerson },
  nestedEvent: { shape: 'event', makeValue: nestedEvent },
  batch100: { shape: 'eventArray', makeValue: () => makeEvents(100) },
  events100k: { shape: 'eventArray', makeValue: () => makeEvents(100_000) },
  personValidated: {
    shape: 'personValidated',
    makeValue: personValidated,
    // Peers and JSON run this zod v4 schema before encode and after decode; shorn does not
    // (its schema has the same constraints, checked on encode and on decode).
    zod: (z) =>
      z.object({ id: z.uint32(), name: z.string().min(1).max(100), age: z.int().min(0).max(150), email: z.email(), active: z.boolean() }),
    // Every codec's encode must reject these, or its figure is not one of a validating codec.
    invalidValues: [
      { ...personValidated(), age: 151 },
      { ...personValidated(), id: -1 },
      { ...personValidated(), name: 42 },
      { ...personValidated(), name: '' },
      { ...personValidated(), name: '🚀'.repeat(101) },
      { ...personValidated(), email: 'ada@example' },
      { ...personValidated(), active: 'yes' },
    ],
    // And its decode must reject the bytes of these (written by the codec without its
    // validation), or its decode figure is not one of a validating decode.
    invalidMessages: [
      { ...personValidated(), age: 151 },
      { ...personValidated(), name: '' },
      { ...personValidated(), name: '🚀'.repeat(101) },
      { ...personValidated(), email: 'nope' },
    ],
  },
};

// The corpora run against the JSON baselines, avsc and msgpackr (BENCHMARKS.md's peers that
// take any JSON shape); each is its own shape, one operation the whole document.
const CORPUS_CODECS = ['json-string', 'json-bytes', 'avsc', 'msgpackr', 'shorn'];
for (const corpus of CORPORA) {
  SHAPES[corpus.name] = { label: corpus.name, probe: corpus.probe, avsc: corpus.avsc, shorn: corpus.shorn };
  const makeValue = () => loadCorpus(corpus.name);
  FIXTURES[corpus.name] = { shape: corpus.name, makeValue, corpus: true, codecs: CORPUS_CODECS, vary: corpus.vary };
}

// Fixtures run only when named (`--fixtures`), as unicodePerson's shape with other text.
SHAPES.latin1Person = { ...SHAPES.unicodePerson, label: 'latin1Person' };
const EXTRA_FIXTURES = { latin1Person: { shape: 'latin1Person', makeValue: latin1Person } };

const FIXTURE_NAMES = Object.keys(FIXTURES);
const CORPUS_NAMES = FIXTURE_NAMES.filter((name) => FIXTURES[name].corpus);
const EXTRA_NAMES = Object.keys(EXTRA_FIXTURES);

// A fixture as the children use it: `value` is built on first read (each loadFixture call
// builds its own), `schemas` holds every codec's schema for its shape, `codecs` the codecs
// that run it (undefined: every one).
function loadFixture(name) {
  const spec = FIXTURES[name] ?? EXTRA_FIXTURES[name];
  if (!spec) throw new Error(`unknown fixture '${name}' (known: ${[...FIXTURE_NAMES, ...EXTRA_NAMES].join(', ')})`);
  let value;
  return {
    name,
    shape: spec.shape,
    schemas: SHAPES[spec.shape],
    probe: SHAPES[spec.shape].probe,
    corpus: Boolean(spec.corpus),
    codecs: spec.codecs,
    zod: spec.zod,
    invalidValues: spec.invalidValues || [],
    invalidMessages: spec.invalidMessages || [],
    // (value, k) -> the k-th of several distinct documents like `value` (child.js --variants).
    vary: spec.vary,
    get value() {
      if (value === undefined) value = spec.makeValue();
      return value;
    },
  };
}

module.exports = { FIXTURE_NAMES, EXTRA_NAMES, CORPUS_NAMES, loadFixture };
