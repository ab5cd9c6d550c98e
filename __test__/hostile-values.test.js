'use strict';
// Issue 37 (the second hostile-input review), the findings about values and schemas:
// shared defaults (2), unbounded issue lists (6), RangeError from spreads of user-sized
// arrays (7), a compatible reader failing valid messages (9) and the smaller ones (13).
// Each test failed before its fix.

const { test, describe } = require('node:test');
const assert = require('node:assert/strict');
const { shorn, MODES } = require('./helpers');

const { t, compile, createRegistry, compatibility, ShornError } = shorn;

describe('issue 37, finding 2: a default is a fresh value per decode, and descriptors are immune', () => {
  const V1 = t.object({ id: t.uint32() });
  const shapes = {
    'json': () => t.default(t.json(), { roles: ['user'] }),
    'json in an object': () => t.default(t.object({ extra: t.json() }), { extra: { roles: ['user'] } }),
    'json in an array': () => t.default(t.array(t.json()), [{ roles: ['user'] }]),
    'json in a record': () => t.default(t.record(t.json()), { a: { roles: ['user'] } }),
  };
  // The roles array of each shape's decoded default.
  const roles = {
    'json': (v) => v.roles,
    'json in an object': (v) => v.extra.roles,
    'json in an array': (v) => v[0].roles,
    'json in a record': (v) => v.a.roles,
  };

  for (const [name, make] of Object.entries(shapes)) {
    for (const mode of MODES) {
      test(`${name} (${mode.name}): reader.decode, registry.decode and decodeFrames`, () => {
        const V2 = t.object({ id: t.uint32(), meta: make() });
        const w = compile(V1, { codegen: mode.codegen });
        const c2 = compile(V2, { codegen: mode.codegen });
        const before = JSON.stringify(c2.schema);
        const fingerprint = c2.fingerprint;
        const r = c2.reader(V1);
        const registry = createRegistry([V1, V2], { codegen: mode.codegen });
        const decodes = {
          'reader.decode': () => r.decode(w.encode({ id: 1 })),
          'reader.decodeFrames': () => r.decodeFrames(w.encodeFrames([{ id: 1 }]))[0],
          'registry.decode': () => registry.decode(registry.encode(V1, { id: 1 }), V2),
        };
        for (const [how, decode] of Object.entries(decodes)) {
          const a = decode();
          roles[name](a.meta).push('admin');
          a.meta.added = true;
          const b = decode();
          assert.deepEqual(roles[name](b.meta), ['user'], `${how}: the next decode's default is unchanged`);
          assert.notEqual(b.meta, a.meta, `${how}: a new default per decode`);
        }
        assert.equal(JSON.stringify(c2.schema), before, 'codec.schema is unchanged');
        assert.equal(compile(c2.schema).fingerprint, fingerprint, 'its fingerprint is unchanged');
        assert.deepEqual(roles[name](c2.decode(c2.encode({ id: 3 })).meta), ['user'], 'encode({}) writes the default as given');
      });
    }
  }

  test("the builder's argument is copied: changing it later changes no schema", () => {
    const value = { roles: ['user'] };
    const V2 = t.object({ id: t.uint32(), meta: t.default(t.json(), value) });
    const before = JSON.stringify(V2);
    value.roles.push('admin');
    assert.equal(JSON.stringify(V2), before);
    const c = compile(V2);
    assert.deepEqual(c.decode(c.encode({ id: 1 })).meta, { roles: ['user'] });
  });

  test('a cyclic default is refused at build time with a ShornError, not a stack overflow', () => {
    const cyclic = { a: 1 };
    cyclic.self = cyclic;
    assert.throws(() => t.default(t.json(), cyclic), (e) => e instanceof ShornError && /deeper|cyclic/.test(e.message));
  });

  test('a __proto__ key in a json default stays an own key in every copy', () => {
    const value = JSON.parse('{"__proto__": {"polluted": 1}, "a": 2}');
    const V2 = t.object({ id: t.uint32(), meta: t.default(t.json(), value) });
    for (const mode of MODES) {
      const c2 = compile(V2, { codegen: mode.codegen });
      const v = c2.reader(V1).decode(compile(V1).encode({ id: 1 }));
      assert.ok(Object.prototype.hasOwnProperty.call(v.meta, '__proto__'));
      assert.equal(Object.getPrototypeOf(v.meta), Object.prototype);
      assert.equal({}.polluted, undefined);
    }
  });

  test('compatibility() still sees the default (no copy hides it)', () => {
    const V2 = t.object({ id: t.uint32(), meta: t.default(t.json(), { roles: [] }) });
    assert.deepEqual(compatibility(V2, V1), []);
  });
});
