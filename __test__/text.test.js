'use strict';
// Decoded text: small messages come back as one string JS slices; from 4,096 input bytes
// (src/engine.rs, SPLIT_TEXT_MIN_INPUT) Latin-1 strings and wide ones travel as two texts,
// a wide string's tape slot negated (src/codec/text.rs). Every kind of string a schema can
// hold must come back right on both sides of that size, in both marshallers.
const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { shorn, MODES, compileMode } = require('./helpers');

const { t } = shorn;
const WORDS = ['plain', 'café', '数学者', '', 'ÿé', 'a🚀b', 'Łukasz', 'x'.repeat(300), 'Программистка'];

function schema() {
  const node = t.recursive('Node', (self) => t.object({ name: t.string(), kids: t.array(self) }));
  return t.object({
    id: t.uint32(),
    title: t.string(),
    tags: t.array(t.string()),
    byName: t.record(t.string()),
    byKey: t.map(t.string(), t.uint8()),
    doc: t.json(),
    tree: node,
    note: t.optional(t.string()),
    choice: t.union([t.uint8(), t.string()]),
  });
}

function value(n, offset) {
  const w = (k) => WORDS[(k + offset) % WORDS.length];
  const tags = Array.from({ length: n }, (_, k) => w(k));
  const byName = {};
  const byKey = new Map();
  for (let k = 0; k < n; k++) {
    byName[`${w(k)}${k}`] = w(k + 1);
    byKey.set(`${w(k + 2)}${k}`, k % 256);
  }
  return {
    id: 7,
    title: w(3),
    tags,
    byName,
    byKey,
    doc: { [w(4)]: [w(5), 1, { [w(6)]: w(7) }], list: tags.slice(0, 5) },
    tree: { name: w(1), kids: [{ name: w(2), kids: [] }, { name: w(8), kids: [{ name: w(0), kids: [] }] }] },
    note: w(6),
    choice: w(2),
  };
}

describe('text of small and large messages', () => {
  for (const mode of MODES) {
    const codec = compileMode(schema(), mode);
    for (const n of [1, 3, 20, 200]) {
      for (let offset = 0; offset < WORDS.length; offset += 2) {
        test(`${n} strings of each kind, words from ${offset} (${mode.name})`, () => {
          const v = value(n, offset);
          const bytes = codec.encode(v);
          if (n === 200) assert.ok(bytes.length >= 4096, `${bytes.length} bytes: a large message`);
          if (n === 1) assert.ok(bytes.length < 4096, `${bytes.length} bytes: a small message`);
          assert.deepEqual(codec.decode(bytes), v);
          // Decodes after it do not see its second text.
          assert.deepEqual(codec.decode(codec.encode(value(1, 1))), value(1, 1));
        });
      }
    }
  }

  test('a large message of one wide string, one Latin-1 string, or none', () => {
    for (const mode of MODES) {
      const lone = compileMode(t.object({ s: t.string() }), mode);
      const two = compileMode(t.object({ a: t.string(), b: t.string() }), mode);
      for (const s of ['数'.repeat(3000), 'é'.repeat(5000), 'a'.repeat(5000)]) {
        assert.equal(lone.decode(lone.encode({ s })).s, s);
        for (const other of ['', 'plain', '数学']) {
          assert.deepEqual(two.decode(two.encode({ a: s, b: other })), { a: s, b: other });
          assert.deepEqual(two.decode(two.encode({ a: other, b: s })), { a: other, b: s });
        }
      }
    }
  });

  test('a large message with malformed UTF-8 in a wide string is refused at its offset', () => {
    const codec = shorn.compile(t.array(t.string()));
    const bytes = Buffer.from(codec.encode(['a'.repeat(5000), '数学']));
    bytes[bytes.length - 1] = 0xff;
    assert.throws(() => codec.decode(bytes), (e) => e.code === 'ERR_SHORN_MALFORMED' && e.path === '$[1]');
  });
});
