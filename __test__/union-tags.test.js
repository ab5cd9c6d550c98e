'use strict';
// A discriminated union's generated code switches on the tag itself, each variant's tag a
// case label in the source (lib/types/union.js, `tagLabel`): every kind of tag a variant
// may have (a string or a number), strings that need escaping among them, must pick the
// variant the paths without generated code pick (by a Map of the tags), and a tag no
// variant has must be refused with the same error, by encode, check and decode alike.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { t, compile, ShornError } = require('..');

const TAGS = ['a', 'a"b', "it's", 'back\\slash', '\u2028\u2029', '</script>', '${x}', '', '\ud83d\ude00', '__proto__', 'constructor', 0, 1.5, -3, 1e21, 2 ** 53, 'x', 42];

function outcome(fn) {
  try {
    const r = fn();
    return { value: r instanceof Uint8Array ? Buffer.from(r).toString('hex') : r };
  } catch (e) {
    assert.ok(e instanceof ShornError, String(e));
    return { code: e.code, path: e.path, message: e.message };
  }
}

test('every kind of tag, escaped where it lands, picks the variant the Map picks', () => {
  // 17 tags and more: past lib/types/union.js's TAG_SWITCH_MAX, by the Map; then 8, by a
  // switch on the tags.
  for (const tags of [TAGS, TAGS.slice(0, 8), TAGS.slice(8)]) sameVariants(tags);
});

function sameVariants(TAGS) {
  const schema = t.array(t.discriminatedUnion('kind', TAGS.map((tag, k) => t.object({ kind: t.literal(tag), [`f${k}`]: t.uint8() }))));
  const value = TAGS.map((tag, k) => ({ kind: tag, [`f${k}`]: k }));
  const modes = [{ codegen: true }, { codegen: false }, { backend: 'js' }];
  const want = outcome(() => compile(schema, { codegen: false }).encode(value));
  assert.ok(want.value, JSON.stringify(want));
  for (const options of modes) {
    const codec = compile(schema, options);
    assert.deepStrictEqual(outcome(() => codec.encode(value)), want, JSON.stringify(options));
    assert.deepStrictEqual(codec.decode(Buffer.from(want.value, 'hex')), value, JSON.stringify(options));
    assert.equal(codec.check(value).ok, true);
  }
  // Tags no variant has, and near misses of those it has: -0 is 0's variant (SameValueZero
  // and === agree on it).
  for (const bad of ['A', 'a"', '\u2028', 'proto', '0', 1, -0, NaN, 1.5000001, 'true', 'null', undefined, {}, []]) {
    const one = [{ kind: bad, f0: 0 }];
    const expected = outcome(() => compile(schema, { codegen: false }).encode(one));
    for (const options of modes) {
      assert.deepStrictEqual(outcome(() => compile(schema, options).encode(one)), expected, `${String(bad)} ${JSON.stringify(options)}`);
      assert.equal(compile(schema, options).check(one).ok, expected.value !== undefined, `${String(bad)} check ${JSON.stringify(options)}`);
    }
  }
}
