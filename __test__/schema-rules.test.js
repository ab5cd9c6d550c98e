'use strict';
// Where no addon loads (browsers, workers, Node without a binary), descriptors are checked
// by lib/schema-rules.js, the native compiler's rules in JS: each descriptor below, and
// thousands of changed ones, compile or fail alike on the native build and on a copy of
// the package where no addon loads (the same code, path and message). Before it, 36 of the
// 42 listed descriptors the native compiler refuses compiled there, or failed with a
// TypeError.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const shorn = require('..');
const { otherBuild, seeded } = require('../scripts/fuzz-common');
const { CORPORA } = require('../benchmark/corpora');

const noAddon = otherBuild('no-addon');
const browser = otherBuild('browser');

function outcome(build, schema) {
  try {
    build.compile(schema);
    return 'ok';
  } catch (e) {
    return `${e instanceof build.ShornError ? 'ShornError' : e.constructor.name} ${e.code} ${e.path} ${e.message}`;
  }
}

// Nested `depth` levels: arrays, or objects (three levels of JSON each).
const nested = (depth, object) => {
  let d = { type: 'uint8' };
  for (let k = 0; k < depth; k++) d = object ? { type: 'object', fields: [{ name: 'é', schema: d }] } : { type: 'array', items: d };
  return d;
};

// 64 levels of arrays: the most the native compiler takes (src/types/mod.rs, MAX_SCHEMA_DEPTH).
const DEEPEST = nested(64, false);

const REFUSED = [
  { type: 'nullable', of: { type: 'null' } },
  { type: 'nullable', of: { type: 'json' } },
  { type: 'nullable', of: { type: 'union', variants: [{ type: 'uint8' }, { type: 'recursive', name: 'N', schema: { type: 'nullable', of: { type: 'uint8' } } }] } },
  { type: 'nullable', of: { type: 'optional', of: { type: 'uint8' } } },
  { type: 'nullable', of: { type: 'nullable', of: { type: 'uint8' } } },
  { type: 'map', keys: { type: 'float32' }, values: { type: 'uint8' } },
  { type: 'map', keys: { type: 'nullable', of: { type: 'float32', min: 0 } }, values: { type: 'uint8' } },
  { type: 'map', keys: { type: 'null' }, values: { type: 'null' } },
  { type: 'array', items: { type: 'null' } },
  { type: 'array', items: { type: 'literal', value: 5 } },
  { type: 'array', items: { type: 'tuple', items: [] } },
  { type: 'array', items: { type: 'object', fields: [{ name: 'a', schema: { type: 'default', of: { type: 'literal', value: 1 }, value: 1 } }] } },
  { type: 'recursive', name: 'T', schema: { type: 'ref', name: 'T' } },
  { type: 'recursive', name: 'T', schema: { type: 'object', fields: [{ name: 'n', schema: { type: 'ref', name: 'T' } }], strict: false } },
  { type: 'recursive', name: 'T', schema: { type: 'object', fields: [{ name: 'n', schema: { type: 'optional', of: { type: 'ref', name: 'T' } } }, { name: 'm', schema: { type: 'nullable', of: { type: 'null' } } }] } },
  { type: 'ref', name: 'X' },
  { type: 'recursive', name: '', schema: { type: 'uint8' } },
  { type: 'string', pattern: 5 },
  { type: 'string', minLength: 5, maxLength: 2 },
  { type: 'string', format: 'nope' },
  { type: 'string', format: 7 },
  { type: 'uint8', min: 300 },
  { type: 'uint8', min: 5, max: 2 },
  { type: 'int8', min: 'x' },
  { type: 'int', min: 1.5 },
  { type: 'uint16', min: 3, max: 4, multipleOf: 5 },
  { type: 'uint32', multipleOf: 0 },
  { type: 'int64', min: '1.5' },
  { type: 'int64', min: 5 },
  { type: 'uint64', max: '18446744073709551616' },
  { type: 'int64', min: '-0' },
  { type: 'int64', min: '10', max: '12', multipleOf: '7' },
  { type: 'uint64', multipleOf: 3 },
  { type: 'float64', multipleOf: 0 },
  { type: 'float32', min: 2, max: 1.5 },
  { type: 'float64', min: null },
  { type: 'enum', values: [] },
  { type: 'enum', values: ['a', 'a'] },
  { type: 'enum', values: ['a', 1] },
  { type: 'enum', values: 'a' },
  { type: 'enum', values: ['a'], default: 'b' },
  { type: 'enum', values: ['a'], default: 1 },
  { type: 'union', variants: [] },
  { type: 'union', variants: {} },
  { type: 'union', variants: [{ type: 'uint8' }, { type: 'optional', of: { type: 'uint8' } }] },
  { type: 'discriminatedUnion', key: 'k', variants: [{ type: 'object', fields: [{ name: 'k', schema: { type: 'literal', value: 'a' } }] }, { type: 'object', fields: [{ name: 'k', schema: { type: 'literal', value: 'a' } }] }] },
  { type: 'discriminatedUnion', key: 'k', variants: [{ type: 'uint8' }] },
  { type: 'discriminatedUnion', key: 'k', variants: [{ type: 'object', fields: [{ name: 'k', schema: { type: 'literal', value: true } }] }] },
  { type: 'discriminatedUnion', key: 5, variants: [] },
  { type: 'object', fields: [{ name: 'a', schema: { type: 'uint8' } }, { name: 'a', schema: { type: 'uint8' } }] },
  { type: 'object', fields: [{ schema: { type: 'uint8' } }] },
  { type: 'object', fields: [{ name: 'a' }] },
  { type: 'object', fields: {} },
  { type: 'object', fields: [], strict: 'yes' },
  { type: 'default', of: { type: 'uint8' }, value: 300 },
  { type: 'object', fields: [{ name: 'a', schema: { type: 'default', of: { type: 'optional', of: { type: 'uint8' } }, value: 1 } }] },
  { type: 'object', fields: [{ name: 'a', schema: { type: 'default', of: { type: 'uint8' } } }] },
  { type: 'array', items: { type: 'uint8' }, minItems: -1 },
  { type: 'bytes', maxLength: 1.5 },
  { type: 'record', values: { type: 'uint8' }, maxEntries: -1 },
  { type: 'tuple', items: [{ type: 'optional', of: { type: 'uint8' } }] },
  { type: 'tuple', items: 'x' },
  { type: 'optional', of: { type: 'uint8' } },
  { type: 'object', fields: [{ name: 'a', schema: { type: 'optional', of: { type: 'optional', of: { type: 'uint8' } } } }] },
  { type: 'map', keys: { type: 'optional', of: { type: 'uint8' } }, values: { type: 'uint8' } },
  { type: 'map', values: { type: 'uint8' } },
  { type: 'array' },
  { type: 'float32Array', maxLength: 3 },
  { type: 'literal', value: {} },
  { type: 'literal' },
  { type: 'nope' },
  { type: 5 },
  { kind: 'uint8' },
  [{ type: 'uint8' }],
  'uint8',
  { type: 'string', maxLenght: 3 },
  DEEPEST,
  nested(65, false),
  nested(70, true),
  nested(90, true),
  { type: 'object', fields: [{ name: 'a', schema: { type: 'recursive', name: 'T', schema: { type: 'object', fields: [{ name: 'x', schema: { type: 'nullable', of: { type: 'null' } } }] } } }] },
];

test('every descriptor the native compiler refuses is refused where no addon loads, alike', () => {
  for (const schema of REFUSED) {
    const native = outcome(shorn, schema);
    const shown = JSON.stringify(schema).slice(0, 120);
    if (schema === DEEPEST) assert.equal(native, 'ok', shown);
    else assert.match(native, /^ShornError ERR_SHORN_SCHEMA /, shown);
    assert.equal(outcome(noAddon, schema), native, shown);
    assert.equal(outcome(browser, schema), native, shown);
  }
});

// Descriptors the native compiler takes: the golden vectors', the fuzzer's and the corpora's.
const TAKEN = [
  ...JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fuzz', 'schemas.json'), 'utf8')).schemas.map((s) => s.schema),
  ...require('../tests/golden.json').vectors.map((v) => v.schema),
  ...CORPORA.map((c) => JSON.parse(JSON.stringify(c.shorn(shorn.t)))),
];

test('every descriptor of the golden vectors, the fuzzer and the corpora compiles where no addon loads', () => {
  for (const schema of TAKEN) assert.equal(outcome(noAddon, schema), 'ok', JSON.stringify(schema).slice(0, 120));
});

// Those descriptors, changed at random: a member dropped, added or given another value, a
// type changed, a node wrapped or replaced, a list item repeated, a deep nesting put in.
test('3,000 changed descriptors compile or fail alike on the native build and where no addon loads', () => {
  const { below, chance, pick } = seeded(39);
  const TYPES = ['bool', 'uint8', 'int', 'int64', 'uint64', 'float32', 'float64', 'string', 'bytes', 'enum', 'literal', 'null', 'array', 'tuple', 'object', 'optional', 'nullable', 'default', 'record', 'map', 'union', 'discriminatedUnion', 'recursive', 'ref', 'json', 'int8Array', 'nope'];
  const MEMBERS = ['type', 'items', 'fields', 'of', 'value', 'values', 'keys', 'variants', 'key', 'name', 'schema', 'min', 'max', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'maxEntries', 'pattern', 'format', 'strict', 'default', 'extra'];
  const json = (depth = 0) => {
    const r = below(8);
    if (r === 0) return pick([null, true, false]);
    if (r === 1) return pick([0, 1, -1, 1.5, 255, 256, -129, 4294967295, 4294967296, 9007199254740993, 1e21, -0, 1e300, 5]);
    if (r === 2) return pick(['', 'a', 'email', 'nope', '5', '-0', '01', '18446744073709551616', '-9223372036854775808', 'T']);
    if (r === 3 && depth < 3) return Array.from({ length: below(3) }, () => json(depth + 1));
    if (r === 4) return { type: pick(TYPES) };
    if (r === 5) return pick(TAKEN);
    return pick([{ type: 'uint8' }, { type: 'null' }, { type: 'literal', value: 'a' }, { type: 'object', fields: [] }, { type: 'tuple', items: [] }, 3]);
  };
  const nodes = (d, out = []) => {
    if (d && typeof d === 'object') {
      if (!Array.isArray(d) && typeof d.type === 'string') out.push(d);
      for (const v of Array.isArray(d) ? d : Object.values(d)) nodes(v, out);
    }
    return out;
  };
  const change = (d) => {
    d = JSON.parse(JSON.stringify(d));
    for (let n = 1 + below(3); n > 0; n--) {
      const all = nodes(d);
      if (all.length === 0) break;
      const x = pick(all);
      const keys = Object.keys(x);
      const op = below(8);
      if (op === 0 && keys.length) delete x[pick(keys)];
      else if (op === 1) x[pick(MEMBERS)] = json();
      else if (op === 2) x.type = pick(TYPES);
      else if (op === 3) {
        const inner = { ...x };
        for (const k of keys) delete x[k];
        Object.assign(x, { type: pick(['optional', 'nullable', 'default', 'array', 'recursive']), of: inner, items: inner, schema: inner, name: 'T', value: json() });
        for (const k of Object.keys(x)) if (k !== 'type' && chance(0.4)) delete x[k];
      } else if (op === 4) {
        for (const k of keys) delete x[k];
        Object.assign(x, pick([{ type: 'null' }, { type: 'literal', value: 1 }, { type: 'object', fields: [] }, { type: 'ref', name: 'T' }, { type: 'json' }, { type: 'float32' }]));
      } else if (op === 5) {
        const list = [x.fields, x.values, x.variants].find((l) => Array.isArray(l) && l.length);
        if (list) list.push(pick(list));
      } else if (op === 6 && keys.length) x[pick(keys)] = json();
      else Object.assign(x, nested(55 + below(40), chance(0.5)));
    }
    return d;
  };
  let refused = 0;
  for (let i = 0; i < 3000; i++) {
    const schema = change(pick(TAKEN));
    const native = outcome(shorn, schema);
    if (native !== 'ok') refused++;
    assert.equal(outcome(noAddon, schema), native, JSON.stringify(schema).slice(0, 200));
  }
  assert.ok(refused > 1000 && refused < 2900, `${refused} of 3,000 refused natively`);
});
