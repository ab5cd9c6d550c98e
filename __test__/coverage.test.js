'use strict';
// One place per type, and no type left half-done: every descriptor type the native
// compiler accepts must have a builder in `t`, a module in lib/types (with its lowering),
// a declaration in index.d.ts, a section in docs/FORMAT.md, golden vectors, and a row in the type table.
// Adding a type to src/types/ without the rest fails here, naming what is missing.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { shorn, golden, ROOT } = require('./helpers');
const { ROWS } = require('./type-table');
const { TYPES } = require('../lib/types');
const { walk } = require('../lib/walk');
const rt = require('../lib/runtime');

const compiled = rt.native.types;
const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8');

// The types used anywhere in a descriptor.
function typesIn(descriptor) {
  const found = new Set();
  walk(descriptor, (d) => {
    if (d && typeof d === 'object' && typeof d.type === 'string') found.add(d.type);
  });
  return found;
}

test('the native compiler reports the types it accepts', () => {
  assert.ok(Array.isArray(compiled) && compiled.length >= 30, `${compiled}`);
});

test('every type the compiler accepts has a builder in t and a module in lib/types, and nothing more', () => {
  assert.deepStrictEqual([...TYPES.keys()].sort(), [...compiled].sort());
  for (const name of compiled) assert.equal(typeof shorn.t[name], 'function', `t.${name}`);
  assert.deepStrictEqual(Object.keys(shorn.t).sort(), [...compiled].sort());
});

test('every type module has its lowering and its value checks (the back ends run on them)', () => {
  const { TAPE_READS } = require('../lib/native');
  const { TESTS } = require('../lib/emit-tests');
  for (const [name, def] of TYPES) {
    for (const member of ['lower', 'put', 'test', 'expected', 'minBytes']) {
      assert.equal(typeof def[member], 'function', `lib/types: ${name}.${member}`);
    }
    // What the native back end keeps of each type: its tape read, its test as generated code.
    assert.equal(typeof TAPE_READS[name], 'function', `lib/native.js TAPE_READS: ${name}`);
    assert.equal(typeof TESTS[name], 'function', `lib/emit-tests.js TESTS: ${name}`);
  }
  assert.deepStrictEqual(Object.keys(TAPE_READS).sort(), [...TYPES.keys()].sort());
  assert.deepStrictEqual(Object.keys(TESTS).sort(), [...TYPES.keys()].sort());
});

test('every operation a type lowers to has its byte walk, its tape read and its tape write', () => {
  const { lowering } = require('../lib/lower');
  const { sizesOf, INSPECT } = require('../lib/inspect');
  const { TAKE } = require('../lib/take');
  const { PUT } = require('../lib/put');
  const { analyze } = require('../lib/walk');
  const { marshallerOf } = require('./helpers');
  const seen = new Set();
  for (const row of ROWS) {
    const d = shorn.compile(row.schema).schema;
    const L = lowering(marshallerOf(d), sizesOf(d, analyze(d).refs));
    const done = new Set();
    (function visit(op) {
      if (done.has(op)) return;
      done.add(op);
      seen.add(op.op);
      for (const [back, table] of [['lib/inspect.js INSPECT', INSPECT], ['lib/take.js TAKE', TAKE], ['lib/put.js PUT', PUT]]) {
        assert.equal(typeof table[op.op], 'function', `${row.name}: ${back} has no ${op.op}`);
      }
      // (A field's own operation, as the back ends take it: optional and default ones too.)
      const children = [op.of, op.items, op.values, op.keys, op.body, ...(Array.isArray(op.items) ? op.items : []), ...(op.variants || []), ...(op.fields || []).map((f) => L.node(f.d))];
      for (const c of children) if (c && typeof c === 'object' && typeof c.op === 'string') visit(c);
    })(L.node(d));
  }
  // Every type's row reached its operation: the leaves, and every control operation.
  for (const op of ['bool', 'string', 'bytes', 'typed', 'enum', 'const', 'json', 'array', 'tuple', 'object', 'presence', 'default', 'record', 'map', 'union', 'tagged', 'call']) {
    assert.ok(seen.has(op), `no row lowers to ${op}`);
  }
});

test('every type is declared in index.d.ts', () => {
  const dts = read('index.d.ts');
  const missing = compiled.filter((name) => !dts.includes(`readonly type: '${name}'`) || !new RegExp(`\\b${name}\\b[<(]`).test(dts));
  assert.deepStrictEqual(missing, [], 'types without a descriptor interface or a t builder in index.d.ts');
});

test('every type has a section in docs/FORMAT.md', () => {
  const headings = read('docs/FORMAT.md')
    .split('\n')
    .filter((line) => line.startsWith('### '));
  const missing = compiled.filter((name) => !headings.some((h) => h.includes(`\`${name}\``)));
  assert.deepStrictEqual(missing, [], 'types without a ### heading naming them in docs/FORMAT.md');
});

test('every type has golden vectors, and every type that can be malformed has a reject', () => {
  const inVectors = new Set();
  for (const v of golden.vectors) for (const name of typesIn(v.schema)) inVectors.add(name);
  assert.deepStrictEqual(
    compiled.filter((name) => !inVectors.has(name)),
    [],
    'types in no golden vector',
  );
});

test('every type has a row in the type table (round trips and rejected values)', () => {
  const inRows = new Set();
  for (const row of ROWS) for (const name of typesIn(row.schema)) inRows.add(name);
  assert.deepStrictEqual(
    compiled.filter((name) => !inRows.has(name)),
    [],
    'types in no row of __test__/type-table.js',
  );
});
