'use strict';
// Decoded text: small messages come back as one string JS slices; from 4,096 input bytes
// (src/engine.rs, SPLIT_TEXT_MIN_INPUT) Latin-1 strings and wide ones travel as two texts,
// a wide string's tape slot negated (src/codec/text.rs). Every kind of string a schema can
// hold must come back right on both sides of that size, in both marshallers.
const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { shorn, MODES, compileMode, runIsolated, marshallerOf } = require('./helpers');

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

  // A string with no char above U+00FF goes to the Latin-1 text (64 bytes at a time with
  // AVX-512, src/codec/utf16_avx512.rs `latin1`): its malformed forms, at every position
  // around a 64-byte window's end, in a small message and a split large one.
  test('malformed UTF-8 in a string without wide chars is refused at its offset, small or large', () => {
    const codec = shorn.compile(t.object({ a: t.string(), b: t.string(), n: t.uint8() }));
    const fatal = new TextDecoder('utf-8', { fatal: true });
    const faults = [
      [0xc0, 0x80], // overlong
      [0xc1, 0xbf], // overlong
      [0x80], // a stray continuation byte (where a lead was)
      [0xc3, 0x41], // a lead without its continuation byte
      [0xc3, 0xc3], // a lead followed by a lead
      [0xe9], // Latin-1 itself, not UTF-8
      [0x41, 0xc3], // a lead at the end (of the string, when at the last byte)
    ];
    let refused = 0;
    for (const prefix of ['', 'a'.repeat(5000)]) {
      for (const good of ['é'.repeat(70), `x${'é'.repeat(69)}y`]) {
        const bytes = Buffer.from(codec.encode({ a: prefix, b: good, n: 7 }));
        const start = bytes.length - 1 - Buffer.byteLength(good);
        for (let at = 0; at < Buffer.byteLength(good); at++) {
          for (const fault of faults) {
            const m = Buffer.from(bytes);
            for (let k = 0; k < fault.length && at + k < Buffer.byteLength(good); k++) m[start + at + k] = fault[k];
            let want;
            try {
              want = fatal.decode(m.subarray(start, bytes.length - 1));
            } catch {
              refused++;
              assert.throws(() => codec.decode(m), (e) => e.code === 'ERR_SHORN_MALFORMED' && e.path === '$.b', `${prefix.length} ${at} ${fault}`);
              continue;
            }
            assert.deepEqual(codec.decode(m), { a: prefix, b: want, n: 7 });
          }
        }
      }
    }
    assert.ok(refused > 1000, `${refused} refused`);
    // And the valid forms around the same positions decode exactly.
    for (const prefix of ['', 'a'.repeat(5000)]) {
      for (let k = 0; k < 140; k++) {
        const b = `${'x'.repeat(k)}ÿ\u0080é${'Ü'.repeat(k % 40)}`;
        assert.deepEqual(codec.decode(codec.encode({ a: prefix, b, n: 1 })), { a: prefix, b, n: 1 });
      }
    }
  });
});

// A message of at most 255 bytes (lib/base.js, SMALL_INPUT and SET_INPUT) is copied into
// the input area; when its text is at most 8 Latin-1 characters it comes back there, and
// JS makes the string (lib/runtime.js, areaText): every length, every Latin-1 code, each
// side of every limit.
describe('text of a small message, made in JS when short', () => {
  const texts = [];
  for (let n = 0; n <= 10; n++) texts.push('abcdefghij'.slice(0, n));
  texts.push('\u0000', '\u007f\u0080', 'ÿéÿéÿéÿé', 'ÿéÿéÿéÿéÿ', '数', 'a数', '🚀', 'é'.repeat(9));
  const latin1 = Array.from({ length: 256 }, (_, c) => String.fromCharCode(c));

  for (const mode of MODES) {
    test(`one string, two strings, strings in an array, and none (${mode.name})`, () => {
      const one = compileMode(t.object({ id: t.uint8(), s: t.string(), ok: t.bool() }), mode);
      const two = compileMode(t.object({ a: t.string(), n: t.uint8(), b: t.string() }), mode);
      const list = compileMode(t.array(t.string()), mode);
      const none = compileMode(t.object({ a: t.uint8(), b: t.bool() }), mode);
      for (const s of texts) {
        const v = { id: 3, s, ok: true };
        assert.deepEqual(one.decode(one.encode(v)), v);
        for (const u of texts) {
          const w = { a: s, n: 9, b: u };
          const bytes = two.encode(w);
          if (bytes.length <= 24) assert.deepEqual(two.decode(bytes), w);
        }
        const l = [s, 'q', ''];
        assert.deepEqual(list.decode(list.encode(l)), l);
        // A decode with no text after one with text.
        assert.deepEqual(none.decode(none.encode({ a: 1, b: false })), { a: 1, b: false });
      }
      for (let c = 0; c < 256; c += 8) {
        const chars = latin1.slice(c, c + 8);
        for (let k = 1; k <= 8; k++) {
          const s = chars.slice(0, k).join('');
          assert.equal(one.decode(one.encode({ id: 0, s, ok: false })).s, s);
        }
        assert.deepEqual(list.decode(list.encode(chars)), chars);
      }
    });
  }

  test('messages each side of the copied sizes (24 and 255 bytes), from every kind of view', () => {
    const { SMALL_INPUT, SET_INPUT } = require('../lib/runtime');
    const { inputViews } = require('./helpers');
    for (const mode of MODES) {
      const codec = compileMode(t.object({ pad: t.bytes(), s: t.string(), n: t.uint8() }), mode);
      for (const s of ['', 'Ada', 'abcdefgh', 'abcdefghi', 'é', '数数', '🚀'.repeat(3)]) {
        const probe = codec.encode({ pad: new Uint8Array(0), s, n: 7 });
        for (const size of [SMALL_INPUT, SMALL_INPUT + 1, SET_INPUT, SET_INPUT + 1]) {
          const room = size - probe.length;
          if (room < 0) continue;
          // The pad's count takes a second byte from 128 on (no room of 128 is needed here).
          const padLength = room > 128 ? room - 1 : room;
          const v = { pad: new Uint8Array(padLength).fill(0x5a), s, n: 7 };
          const bytes = codec.encode(v);
          assert.equal(bytes.length, size, `${JSON.stringify(s)}: ${bytes.length} bytes`);
          for (const [kind, input] of inputViews(bytes)) {
            assert.deepEqual(codec.decode(input), v, `${JSON.stringify(s)}, ${size} bytes, ${kind}`);
          }
          const torn = Buffer.from(bytes);
          torn[torn.length - 2] = 0xff; // the string's last byte, or the count of an empty one
          assert.throws(() => codec.decode(torn), (e) => e.code.startsWith('ERR_SHORN_'), `${JSON.stringify(s)}, ${size} bytes`);
        }
      }
    }
  });

  test('a decode of another schema, or of a large message, in between', () => {
    const a = shorn.compile(t.object({ s: t.string() }));
    const b = shorn.compile(t.array(t.string()));
    const big = ['x'.repeat(40), 'ab'];
    for (const s of texts) {
      const bytes = a.encode({ s });
      assert.deepEqual(b.decode(b.encode(big)), big);
      assert.deepEqual(a.decode(bytes), { s });
      assert.deepEqual(b.decode(b.encode([s])), [s]);
      assert.deepEqual(a.decode(bytes), { s });
    }
  });
});

// An encode's strings go to the native side as one concatenated string, which V8 flattens
// to read; past TEXT_CHUNK units (lib/runtime.js) the text goes in chunks instead, each
// read in turn. Chunks must change no byte, whatever crosses their edges.
describe('text of a large message to encode, in chunks', () => {
  const { TEXT_CHUNK } = require('../lib/runtime');
  const [generated, generic] = MODES.map((mode) => compileMode(schema(), mode));

  test('the generated and the generic marshaller write the same bytes, and they decode to the value', () => {
    for (const offset of [0, 1, 4]) {
      const v = value(3000, offset);
      const bytes = generated.encode(v);
      assert.ok(bytes.length > 4 * TEXT_CHUNK, `${bytes.length} bytes: several chunks`);
      assert.deepEqual(generic.encode(v), bytes);
      assert.deepEqual(generated.decode(bytes), v);
    }
  });

  test('strings ending at, just before and just after a chunk edge, and longer than a chunk', () => {
    for (const mode of MODES) {
      const codec = compileMode(t.array(t.string()), mode);
      const plain = compileMode(t.array(t.string()), MODES[1]);
      for (const unit of ['a', 'é', '数', '🚀']) {
        const n = Math.floor(TEXT_CHUNK / unit.length);
        const strings = [unit.repeat(n), unit, unit.repeat(n - 1), 'b', unit.repeat(n + 1), unit.repeat(5 * n), '', 'end'];
        const bytes = codec.encode(strings);
        assert.deepEqual(codec.decode(bytes), strings);
        assert.deepEqual(bytes, plain.encode(strings));
      }
      // A lone surrogate in a later chunk is found at its own string.
      const bad = ['x'.repeat(TEXT_CHUNK), 'y'.repeat(TEXT_CHUNK), 'ok', 'a\ud800'];
      assert.throws(() => codec.encode(bad), (e) => e.code === 'ERR_SHORN_INVALID' && e.path === '$[3]');
    }
  });

  // A string of LONG_STRING units or more is a chunk of its own, the chunk before it cut
  // where it stands; in a message whose chunks are handed over as they are cut too.
  test('strings each side of LONG_STRING, first, between short ones, and after many', () => {
    const { LONG_STRING, PUSH_SLOTS } = require('../lib/runtime');
    assert.ok(LONG_STRING > 0 && PUSH_SLOTS > 0);
    const plain = compileMode(t.array(t.string()), MODES[1]);
    for (const mode of MODES) {
      const codec = compileMode(t.array(t.string()), mode);
      for (const unit of ['a', 'é', '数', '🚀']) {
        const n = Math.floor(LONG_STRING / unit.length);
        const long = [unit.repeat(n - 1), unit.repeat(n), unit.repeat(n + 1), `${unit.repeat(n)}x`];
        for (const lead of [[], ['s', ''], Array.from({ length: PUSH_SLOTS + 10 }, (_, k) => `w${k}`)]) {
          const strings = [...lead, long[1], long[2], 'mid', long[0], long[3], long[1], '', 'end', long[2]];
          const bytes = codec.encode(strings);
          assert.deepEqual(codec.decode(bytes), strings);
          assert.deepEqual(bytes, plain.encode(strings));
        }
      }
      // A lone surrogate in a long string is found at its own string, and the next encode
      // carries none of the chunks of the one that threw.
      const bad = ['a', 'x'.repeat(LONG_STRING), 'b', `${'y'.repeat(LONG_STRING)}\ud800`];
      assert.throws(() => codec.encode(bad), (e) => e.code === 'ERR_SHORN_INVALID' && e.path === '$[3]');
      const next = ['c', 'z'.repeat(LONG_STRING)];
      assert.deepEqual(codec.decode(codec.encode(next)), next);
    }
  });

  // A long string whose chars all fit a byte goes to the native side in a list of its
  // own, read one byte a char (lib/runtime.js, longText; src/codec/tape.rs, LATIN1_SLOT).
  // The bytes must be the JS back end's (which writes every string itself), wherever such
  // strings stand: schema strings, json values and keys, record keys and values, map keys,
  // between the text's chunks, with chunks handed over or kept.
  describe('long one-byte strings, in a list of their own', () => {
    const { LONG_STRING, PUSH_SLOTS, state } = require('../lib/runtime');
    const all = Array.from({ length: 256 }, (_, k) => String.fromCharCode(k)).join('');
    // One-byte strings: every char from U+0000 to U+00FF; ASCII; Latin-1 text. A
    // two-byte string of such chars (a slice of a wide one: V8 keeps its two bytes a
    // char). Wide ones: a wide char first, last, or alone among Latin-1 chars.
    const latin1 = [all, 'x'.repeat(LONG_STRING), `${'é'.repeat(LONG_STRING)}ÿ`, ('数' + 'àbc'.repeat(LONG_STRING)).slice(1)];
    const wide = [`数${'é'.repeat(LONG_STRING)}`, `${'a'.repeat(LONG_STRING)}🚀`, `${'ÿ'.repeat(300)}\u0100${'ÿ'.repeat(300)}`];
    const schema = t.object({
      s: t.string(),
      list: t.array(t.string()),
      doc: t.json(),
      byName: t.record(t.string()),
      byKey: t.map(t.string(), t.uint8()),
      maybe: t.optional(t.union([t.uint8(), t.string()])),
    });
    const js = shorn.compile(schema, { backend: 'js' });
    const value = (lead, k) => {
      const strings = [...latin1, ...wide];
      const at = (j) => strings[(j + k) % strings.length];
      return {
        s: at(0),
        list: [...lead, at(1), 'short', at(2), at(3), '', at(4), at(5), at(6)],
        doc: { [at(1)]: [at(2), 1, { [at(3)]: at(4), k: at(5) }], [at(6)]: null, list: strings },
        byName: { [at(2)]: at(3), short: at(4), [at(5)]: 'v' },
        byKey: new Map([[at(3), 1], [at(6), 2]]),
        maybe: at(0),
      };
    };
    const leads = [[], ['s', ''], Array.from({ length: PUSH_SLOTS + 10 }, (_, k) => `w${k}`), ['c'.repeat(40000)]];

    test('write the bytes the JS back end writes, and decode to the value', () => {
      for (const mode of MODES) {
        const codec = compileMode(schema, mode);
        for (const lead of leads) {
          for (let k = 0; k < 7; k++) {
            const v = value(lead, k);
            const bytes = codec.encode(v);
            assert.deepEqual(bytes, js.encode(v), `${mode.name}, lead ${lead.length}, ${k}`);
            assert.deepEqual(codec.decode(bytes), v);
            assert.equal(state.latin1, null);
          }
        }
      }
    });

    test('an encode that throws after some leaves none to the next one; one from a getter keeps its own', () => {
      for (const mode of MODES) {
        const codec = compileMode(schema, mode);
        const v = value(leads[2], 1);
        assert.throws(() => codec.encode({ ...v, maybe: null }), { code: 'ERR_SHORN_INVALID', path: '$.maybe' });
        assert.throws(() => codec.encode({ ...v, list: [latin1[0], `${latin1[1]}\ud800`] }), (e) => e.code === 'ERR_SHORN_INVALID' && e.path === '$.list[1]');
        assert.equal(state.latin1, null);
        assert.deepEqual(codec.encode(value([], 2)), js.encode(value([], 2)));
        const inner = value(leads[1], 3);
        let nested = null;
        const outer = { ...v };
        Object.defineProperty(outer, 'maybe', {
          enumerable: true,
          get() {
            nested = codec.encode(inner);
            return v.maybe;
          },
        });
        assert.deepEqual(codec.encode(outer), js.encode(v));
        assert.deepEqual(nested, js.encode(inner));
        assert.equal(state.latin1, null);
      }
    });
  });

  test('chunks made by the generic marshaller, handed a json value by generated code, keep their place', () => {
    const [gen, gener] = MODES.map((mode) => compileMode(t.object({ a: t.string(), doc: t.json(), z: t.array(t.string()) }), mode));
    const doc = { list: Array.from({ length: 400 }, (_, k) => `${WORDS[k % WORDS.length]}-${k}`.repeat(20)), n: 1 };
    const v = { a: 'x'.repeat(TEXT_CHUNK - 5), doc, z: ['after', '数'.repeat(TEXT_CHUNK)] };
    const bytes = gen.encode(v);
    assert.deepEqual(bytes, gener.encode(v));
    assert.deepEqual(gen.decode(bytes), v);
  });

  test('an encode that throws after some chunks leaves none to the next one', () => {
    for (const codec of [generated, generic]) {
      const v = value(3000, 2);
      const expected = codec.encode(v);
      assert.throws(() => codec.encode({ ...v, choice: null }), { code: 'ERR_SHORN_INVALID', path: '$.choice' });
      assert.deepEqual(codec.encode(value(1, 1)), generic.encode(value(1, 1)));
      assert.deepEqual(codec.encode(v), expected);
    }
  });

  test('an encode from a getter, in the middle of a large message, has chunks of its own', () => {
    for (const codec of [generated, generic]) {
      const outer = value(3000, 3);
      const inner = value(2000, 5);
      let nested = null;
      const v = { ...outer };
      // `note` comes after tags, byName and byKey: the outer text has chunks by then.
      Object.defineProperty(v, 'note', {
        enumerable: true,
        get() {
          nested = codec.encode(inner);
          return outer.note;
        },
      });
      const bytes = codec.encode(v);
      assert.deepEqual(bytes, generic.encode(outer));
      assert.deepEqual(nested, generic.encode(inner));
      assert.deepEqual(codec.decode(nested), inner);
    }
  });

  // A message of short strings hands its chunks to the native side as they are cut; one of
  // long strings keeps them to the encode call (lib/runtime.js, cutText and PUSH_SLOTS).
  // Both ways must write the same bytes, and a call that throws, or an encode made from a
  // getter meanwhile, must leave every other call its own text.
  describe('chunks handed over as they are cut, or kept', () => {
    const { state } = require('../lib/runtime');
    const list = t.object({ head: t.string(), items: t.array(t.string()), tail: t.string() });
    const [gen, gener] = MODES.map((mode) => compileMode(list, mode));
    // Short strings: the first chunk takes far more than PUSH_SLOTS slots.
    const short = (n, seed) => ({ head: `h${seed}`, items: Array.from({ length: n }, (_, k) => WORDS[(k + seed) % WORDS.length].slice(0, 3) + (k % 10)), tail: `t${seed}` });
    // Long strings: a chunk every few strings.
    const long = (n, seed) => ({ head: 'é'.repeat(seed), items: Array.from({ length: n }, (_, k) => `${WORDS[(k + seed) % WORDS.length]}${k}`.repeat(2000)), tail: '数' });
    // The way a message's chunks went, seen from a getter on its `tail` (after every item).
    function modeOf(codec, v) {
      let seen = null;
      const probe = { ...v };
      Object.defineProperty(probe, 'tail', { enumerable: true, get: () => ((seen = state.textBase >= 0 ? 'handed' : state.chunks.length > 0 ? 'kept' : 'none'), v.tail) });
      codec.encode(probe);
      return seen;
    }

    test('both ways write the bytes of an uncut text, in both marshallers', () => {
      for (const [make, way] of [[short, 'handed'], [long, 'kept']]) {
        const v = make(way === 'handed' ? 60000 : 40, 3);
        assert.equal(modeOf(gen, v), way);
        assert.equal(modeOf(gener, v), way);
        const bytes = gen.encode(v);
        assert.deepEqual(gener.encode(v), bytes);
        assert.deepEqual(gen.decode(bytes), v);
        assert.deepEqual(gener.decode(bytes), v);
        assert.equal(state.textBase, -1);
        assert.equal(state.chunks.length, 0);
      }
    });

    test('an encode that throws after handing chunks over leaves none to the next one', () => {
      for (const codec of [gen, gener]) {
        const v = short(60000, 1);
        const expected = codec.encode(v);
        const bad = { ...v, items: [...v.items, 'a\ud800'] };
        assert.throws(() => codec.encode(bad), (e) => e.code === 'ERR_SHORN_INVALID' && e.path === `$.items[${v.items.length}]`);
        const badTail = { ...v, tail: 7 };
        assert.throws(() => codec.encode(badTail), { code: 'ERR_SHORN_INVALID', path: '$.tail' });
        assert.equal(state.textBase, -1);
        assert.deepEqual(codec.encode(short(2, 9)), gener.encode(short(2, 9)));
        assert.deepEqual(codec.encode(v), expected);
        assert.deepEqual(codec.decode(codec.encode(long(30, 2))), long(30, 2));
      }
    });

    test('encodes from a getter, either way inside either way, keep their own text', () => {
      for (const codec of [gen, gener]) {
        for (const [outerMake, outerN] of [[short, 60000], [long, 40]]) {
          for (const [innerMake, innerN] of [[short, 50000], [long, 30]]) {
            const outer = outerMake(outerN, 4);
            const inner = innerMake(innerN, 6);
            const v = { ...outer };
            let nested = null;
            // `tail` comes after the items: the outer text has chunks by then.
            Object.defineProperty(v, 'tail', {
              enumerable: true,
              get() {
                nested = codec.encode(inner);
                // A nested encode that throws after its own chunks changes nothing either.
                assert.throws(() => codec.encode({ ...inner, tail: null }), { code: 'ERR_SHORN_INVALID' });
                return outer.tail;
              },
            });
            const bytes = codec.encode(v);
            assert.deepEqual(bytes, gener.encode(outer));
            assert.deepEqual(nested, gener.encode(inner));
            assert.deepEqual(codec.decode(nested), inner);
            assert.equal(state.textBase, -1);
          }
        }
      }
    });
  });
});

// A large message's decoded text comes in chunks just under 128 KiB (src/codec/text.rs,
// LATIN1_CHUNK_UNITS, UTF16_CHUNK_UNITS), cut at string boundaries, so V8 makes each in new
// space; the first string of a new chunk has a slot that moves the reader to it
// (lib/codegen.js, `text()`). Every reader of a tape must follow those moves: both
// marshallers, helper functions of a large schema, hand-offs to the generic marshaller,
// batches of frames and readers of another schema's bytes.
describe('text of a large message to decode, in chunks', () => {
  const LATIN1 = (1 << 17) - 64;
  const UTF16 = (1 << 16) - 32;
  // Strings around both texts' chunk edges, interleaved so that moves to the next
  // Latin-1 and the next UTF-16 chunk alternate.
  function edges() {
    const out = [];
    for (const [unit, limit] of [['a', LATIN1], ['é', LATIN1], ['数', UTF16], ['🚀', UTF16]]) {
      const n = Math.floor(limit / unit.length);
      const other = unit === '数' || unit === '🚀' ? 'x' : '学';
      out.push(unit.repeat(n), other, unit, unit.repeat(n - 1), '', unit.repeat(n + 1), '', other.repeat(3), unit.repeat(3 * n), unit);
    }
    return out;
  }

  test('strings ending at, just before and just after a chunk edge, and longer than a chunk', () => {
    for (const mode of MODES) {
      const codec = compileMode(t.array(t.string()), mode);
      const strings = edges();
      assert.deepEqual(codec.decode(codec.encode(strings)), strings);
      // Many short strings: one move per chunk, at an edge no string lands on exactly.
      const many = Array.from({ length: 40000 }, (_, k) => [...WORDS[k % WORDS.length]].slice(0, 1 + (k % 7)).join(''));
      assert.deepEqual(codec.decode(codec.encode(many)), many);
      // The next decode starts from a text of its own.
      assert.deepEqual(codec.decode(codec.encode(['b', '数'])), ['b', '数']);
    }
  });

  test('objects, records, maps, unions, json and recursive values across chunk edges', () => {
    for (const mode of MODES) {
      const codec = compileMode(schema(), mode);
      for (const offset of [0, 3]) {
        const v = value(6000, offset);
        assert.deepEqual(codec.decode(codec.encode(v)), v);
      }
    }
  });

  test('helper functions of a large schema, and a hand-off from one, follow the moves', () => {
    // Over 120 descriptors: the generated code gets a function per object shape
    // (lib/walk.js, SPLIT_NODES), each with the text cursors of its own.
    const shape = t.object({ a: t.string(), b: t.string(), doc: t.json(), n: t.uint8() });
    const fields = Object.fromEntries(Array.from({ length: 40 }, (_, k) => [`f${k}`, shape]));
    for (const mode of MODES) {
      const codec = compileMode(t.array(t.object({ ...fields, tail: t.string() })), mode);
      const rows = Array.from({ length: 8 }, (_, r) => {
        const row = { tail: `${WORDS[r]}-end` };
        for (let k = 0; k < 40; k++) {
          const w = (j) => WORDS[(r + k + j) % WORDS.length];
          row[`f${k}`] = { a: w(0).repeat(50), b: w(1).repeat(40), doc: { [w(2)]: [w(3).repeat(30), k] }, n: k };
        }
        return row;
      });
      assert.deepEqual(codec.decode(codec.encode(rows)), rows);
    }
  });

  test('a batch of frames with a frame larger than a chunk', () => {
    for (const mode of MODES) {
      const codec = compileMode(t.object({ s: t.array(t.string()), n: t.uint8() }), mode);
      const values = [{ s: ['small'], n: 1 }, { s: edges(), n: 2 }, { s: ['数', 'after'], n: 3 }];
      assert.deepEqual(codec.decodeFrames(codec.encodeFrames(values)), values);
      const out = [];
      const decoder = codec.decoder();
      decoder.on('data', (v) => out.push(v));
      decoder.end(codec.encodeFrames(values));
      assert.deepEqual(out, values);
    }
  });

  test("a reader of another schema's bytes", () => {
    const V1 = t.object({ id: t.uint32(), names: t.array(t.string()) });
    const V2 = t.object({ id: t.uint32(), names: t.array(t.string()), extra: t.default(t.string(), 'none') });
    for (const mode of MODES) {
      const reader = compileMode(V2, mode).reader(V1);
      const names = edges();
      assert.deepEqual(reader.decode(shorn.compile(V1).encode({ id: 1, names })), { id: 1, names, extra: 'none' });
    }
  });

  // A large message that is mostly text has its objects built by constructors whose
  // prototype is Object.prototype (lib/codegen.js, `construct`): they must be the plain
  // objects a literal makes, and never assign through a polluted Object.prototype.
  describe('objects of a message mostly of text', () => {
    // (`who` has keys Object.prototype has: it keeps its literal, the rows still change.)
    const row = t.object({ title: t.string(), body: t.string(), n: t.uint16(), who: t.object({ name: t.string(), constructor: t.uint8(), ['__proto__']: t.string() }) });
    const rows = () =>
      Array.from({ length: 1500 }, (_, k) => ({
        title: `${WORDS[k % WORDS.length]}-${k}`,
        body: WORDS[(k + 3) % WORDS.length].repeat(60),
        n: k,
        who: JSON.parse(JSON.stringify({ name: WORDS[(k + 5) % WORDS.length], constructor: k % 200 }).replace('}', ',"__proto__":"p"}')),
      }));

    test('are plain objects with own data properties, in schema order', () => {
      for (const mode of MODES) {
        for (const schema of [t.array(row), t.record(row)]) {
          const codec = compileMode(schema, mode);
          const v = schema.type === 'array' ? rows() : Object.fromEntries(rows().map((r, k) => [`id${k}`, r]));
          const { back, asked } = decodeAsking(codec, codec.encode(v));
          assert.deepStrictEqual(asked, mode.codegen && mode.backend === undefined ? [true] : []);
          assert.deepStrictEqual(back, v);
          assert.equal(JSON.stringify(back), JSON.stringify(v));
          const objects = Object.values(back);
          for (const o of [...(Array.isArray(back) ? [] : [back]), ...objects.slice(0, 3), objects[7].who]) {
            assert.equal(Object.getPrototypeOf(o), Object.prototype);
            if (!Object.hasOwn(o, 'constructor')) assert.equal(o.constructor, Object);
          }
          const one = Object.values(back)[11];
          assert.deepStrictEqual(Object.keys(one), ['title', 'body', 'n', 'who']);
          assert.deepStrictEqual(Object.keys(one.who), ['name', 'constructor', '__proto__']);
          assert.equal(Object.getPrototypeOf(one.who), Object.prototype);
          assert.deepStrictEqual(Object.getOwnPropertyDescriptor(one, 'body'), { value: one.body, writable: true, enumerable: true, configurable: true });
          // The next message, small, still decodes right.
          assert.deepStrictEqual(codec.decode(codec.encode(v)), v);
        }
      }
    });

    // Decodes `bytes`; `asked`: what the generated decoder's question, whether the message
    // is mostly text, was answered (the generic marshaller builds objects its own way).
    function decodeAsking(codec, bytes) {
      const rt = require('../lib/runtime');
      const denseText = rt.denseText;
      const asked = [];
      rt.denseText = (...args) => {
        asked.push(denseText(...args));
        return asked.at(-1);
      };
      try {
        return { back: codec.decode(bytes), asked };
      } finally {
        rt.denseText = denseText;
      }
    }

    test("a reader of another schema's bytes builds the same plain objects", () => {
      const V2 = t.object({ title: t.string(), body: t.string(), n: t.uint16(), who: row.fields.find((f) => f.name === 'who').schema, extra: t.default(t.string(), 'none') });
      for (const mode of MODES) {
        const reader = compileMode(t.array(V2), mode).reader(t.array(row));
        const v = rows();
        const { back, asked } = decodeAsking(reader, shorn.compile(t.array(row)).encode(v));
        assert.deepStrictEqual(asked, mode.codegen && mode.backend === undefined ? [true] : []);
        assert.deepStrictEqual(back, v.map((r) => ({ ...r, extra: 'none' })));
        assert.equal(Object.getPrototypeOf(back[3]), Object.prototype);
        assert.deepStrictEqual(Object.keys(back[3]), ['title', 'body', 'n', 'who', 'extra']);
      }
    });

    test('a setter or a read-only value on Object.prototype, added after compile, changes nothing', () => {
      for (const mode of MODES) {
        const result = runIsolated(`
          const row = t.object({ title: t.string(), body: t.string(), n: t.uint16() });
          const codec = compile(t.array(row), { codegen: ${mode.codegen} });
          // ~600K units of text, about one byte each: in chunks, and mostly text.
          const v = Array.from({ length: 1500 }, (_, k) => ({ title: 't' + k, body: 'ab'.repeat(200) + 'é' + k, n: k }));
          const bytes = codec.encode(v);
          let calls = 0;
          Object.defineProperty(Object.prototype, 'body', { configurable: true, set() { calls++; } });
          Object.defineProperty(Object.prototype, 'n', { configurable: true, value: -1, writable: false });
          let back;
          let error = null;
          try { back = codec.decode(bytes); } catch (e) { error = String(e); }
          delete Object.prototype.body;
          delete Object.prototype.n;
          return {
            calls,
            error,
            same: back !== undefined && back.length === v.length && back.every((o, k) =>
              Object.getOwnPropertyDescriptor(o, 'body').value === v[k].body && Object.getOwnPropertyDescriptor(o, 'n').value === k),
          };
        `);
        assert.deepStrictEqual(result, { calls: 0, error: null, same: true }, mode.name);
      }
    });
  });
});

// t.json() objects: decode makes each key string once per json value and refers to it by
// id after that (src/types/json.rs, KeyIds); up to 256 keys of up to 64 bytes are kept.
// In a large message, an item of an array of strings of 2 to 12 ASCII bytes met twice in a
// decode call is kept: its later repeats take the string JS kept instead of a new slice
// (src/codec/text.rs, KEPT_SLOT; lib/runtime.js). Values, errors and budgets must be what they are without it,
// and what the JS back end (which keeps nothing) gives.
describe('short strings that repeat in a large message, kept once per decode call', () => {
  const { state } = require('../lib/runtime');
  const WORDS12 = ['ios', 'eu', 'web', 'twelve bytes', 'thirteen byte', 'x', '', 'é!', 'ab'];
  const schema = t.object({
    kind: t.string(),
    items: t.array(
      t.object({
        tag: t.string(),
        tags: t.array(t.string()),
        maybe: t.optional(t.string()),
        either: t.union([t.uint8(), t.string()]),
        note: t.string(),
      }),
    ),
    byKey: t.map(t.string(), t.string()),
    byName: t.record(t.string()),
  });
  const js = shorn.compile(schema, { backend: 'js' });
  const value = (n, note) => {
    const w = (k) => WORDS12[k % WORDS12.length];
    return {
      kind: 'ios',
      items: Array.from({ length: n }, (_, k) => ({
        tag: w(k),
        tags: [w(k * 3), w(k + 1), `n${k % 50}`],
        ...(k % 3 === 0 ? { maybe: w(k + 2) } : {}),
        either: k % 2 ? k % 200 : w(k + 4),
        note: note(k),
      })),
      byKey: new Map(Array.from({ length: Math.min(n, 40) }, (_, k) => [`k${k}`, w(k)])),
      byName: Object.fromEntries(Array.from({ length: Math.min(n, 40) }, (_, k) => [`r${k}`, w(k + 5)])),
    };
  };
  const cases = [
    ['a small message', value(3, (k) => `s${k}`)],
    ['a large one', value(600, (k) => `note ${k}`)],
    // ~300K units of text: in chunks, the kept strings in several.
    ['one in chunks', value(1000, (k) => 'y'.repeat(250) + k)],
    ['one with wide strings', value(600, (k) => `数${k}`)],
  ];

  test('decode to the value in both marshallers, as the JS back end does', () => {
    for (const mode of MODES) {
      const codec = compileMode(schema, mode);
      for (const [name, v] of cases) {
        const bytes = codec.encode(v);
        state.kept = null;
        assert.deepEqual(codec.decode(bytes), v, `${mode.name}, ${name}`);
        // Kept strings were used where the message is large.
        assert.equal(state.kept !== null, mode.backend === undefined && bytes.length >= 4096, `${mode.name}, ${name}`);
        assert.deepEqual(js.decode(bytes), v);
      }
    }
  });

  test('in batches of frames, and where a batch stops at its budget or at a bad frame', () => {
    // A batch's text is always split, so its strings are kept whatever the frames' size;
    // ~40 frames of ~2K units each make several batches (FRAMES_TEXT_UNITS).
    const values = Array.from({ length: 40 }, (_, k) => value(30 + k, (j) => `f${j % 7}`));
    const frames = js.encodeFrames(values);
    const fault = (codec, bytes, options) => {
      try {
        codec.decodeFrames(bytes, options);
        return null;
      } catch (e) {
        return { code: e.code, frame: e.frame, message: e.message };
      }
    };
    const bad = Uint8Array.from(frames);
    bad[Math.floor(bad.length * 0.6)] = 0xff;
    const wantBudget = fault(js, frames, { maxDecodedBytes: 150_000 });
    const wantBad = fault(js, bad);
    assert.equal(wantBudget.code, 'ERR_SHORN_LIMIT');
    assert.notEqual(wantBad, null);
    for (const mode of MODES) {
      const codec = compileMode(schema, mode);
      assert.deepEqual(codec.encodeFrames(values), frames);
      assert.deepEqual(codec.decodeFrames(frames), values, mode.name);
      assert.deepEqual(fault(codec, frames, { maxDecodedBytes: 150_000 }), wantBudget, mode.name);
      assert.deepEqual(fault(codec, bad), wantBad, mode.name);
    }
  });

  test('a pattern broken by a repeated string is found at its own path', () => {
    const words = t.array(t.string({ pattern: '^[a-z]+$' }));
    const v = Array.from({ length: 2000 }, (_, k) => ['ios', 'eu', 'web'][k % 3]);
    const bad = Uint8Array.from(compileMode(t.array(t.string()), MODES[0]).encode(v.map((x, k) => (k === 1500 ? 'ab1' : k === 1800 ? 'ab1' : x))));
    const expected = shorn.compile(words, { backend: 'js' });
    const want = (() => {
      try {
        expected.decode(bad);
      } catch (e) {
        return { code: e.code, path: e.path, offset: e.offset };
      }
    })();
    assert.equal(want.path, '$[1500]');
    for (const mode of MODES) {
      const codec = compileMode(words, mode);
      assert.deepEqual(codec.decode(compileMode(words, mode).encode(v)), v);
      assert.throws(() => codec.decode(bad), (e) => e.code === want.code && e.path === want.path && e.offset === want.offset, mode.name);
    }
  });

  test('maxDecodedBytes counts a repeat as the string it stands for, as the JS back end does', () => {
    const v = value(600, (k) => `note ${k}`);
    const bytes = compileMode(schema, MODES[0]).encode(v);
    const about = (codec) => {
      try {
        codec.decode(bytes);
        return 'ok';
      } catch (e) {
        return e.message;
      }
    };
    const estimate = Number(/about (\d+) bytes/.exec(about(shorn.compile(schema, { backend: 'js', maxDecodedBytes: 1 })))[1]);
    for (const limit of [1, estimate - 1, estimate, estimate + 1]) {
      const want = about(shorn.compile(schema, { backend: 'js', maxDecodedBytes: limit }));
      for (const mode of MODES) assert.equal(about(compileMode(schema, mode, { maxDecodedBytes: limit })), want, `${mode.name}, ${limit}`);
    }
  });

  test('a decode from user code in the middle of another keeps each its own strings', () => {
    for (const mode of MODES) {
      const result = runIsolated(`
        const schema = t.array(t.object({ tag: t.string(), tags: t.array(t.string()) }));
        const codec = compile(schema, { codegen: ${mode.codegen} });
        const words = ['ios', 'eu', 'web', 'pro', 'ab'];
        const outer = Array.from({ length: 800 }, (_, k) => ({ tag: words[k % 5], tags: [words[(k + 1) % 5], 'x' + (k % 9)] }));
        const inner = Array.from({ length: 800 }, (_, k) => ({ tag: 'in' + (k % 3), tags: ['zz', words[k % 2]] }));
        const outerBytes = codec.encode(outer);
        const innerBytes = codec.encode(inner);
        // An accessor at index 1 of Object.prototype: storing the second item of an array
        // calls it, in the middle of the decode (that item is lost to the setter).
        let nested = null;
        let calls = 0;
        Object.defineProperty(Object.prototype, '1', { configurable: true, set() { if (calls++ === 0) nested = codec.decode(innerBytes); } });
        let back;
        try { back = codec.decode(outerBytes); } finally { delete Object.prototype[1]; }
        const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
        return {
          called: calls > 0,
          nested: nested !== null && nested.every((o, k) => k === 1 || (o.tag === inner[k].tag && o.tags[0] === inner[k].tags[0])),
          // Every item but those at index 1 of an array (the top array's, each tags array's).
          items: back.every((o, k) => k === 1 || (o.tag === outer[k].tag && Object.hasOwn(o.tags, 0) && o.tags[0] === outer[k].tags[0])),
        };
      `);
      assert.deepStrictEqual(result, { called: true, nested: true, items: true }, mode.name);
    }
  });
});

describe('json object keys, made once per value', () => {
  // JSON.stringify compares key order too, which deepStrictEqual does not.
  const same = (a, b) => {
    assert.deepStrictEqual(a, b);
    assert.equal(JSON.stringify(a), JSON.stringify(b));
  };
  const row = (keys, k) => Object.fromEntries(keys.map((key, j) => [key, (k + j) % 3 === 0 ? null : `${key}:${k}`]));

  test('keys repeated across objects, past the kept count and the kept length, in order', () => {
    const many = Array.from({ length: 300 }, (_, k) => `k${k}`);
    const long = ['a'.repeat(64), 'b'.repeat(65), 'é'.repeat(40), '10', '2', '数学者'];
    const values = [
      Array.from({ length: 4 }, (_, k) => row(many, k)),
      Array.from({ length: 5 }, (_, k) => row(long, k)),
      { outer: row(long, 1), list: [row(long.slice().reverse(), 2), { nested: row(long, 3) }] },
      Array.from({ length: 3000 }, (_, k) => ({ id: k, name: `n${k}`, tags: [{ id: k }] })),
    ];
    for (const mode of MODES) {
      const codec = compileMode(t.json(), mode);
      for (const v of values) same(codec.decode(codec.encode(v)), v);
    }
  });

  test('each json value of a message has its own keys', () => {
    const shape = t.object({ a: t.json(), list: t.array(t.json()), b: t.json() });
    const v = {
      a: { x: 1, y: { z: 2, x: 3 } },
      list: [{ y: 1, x: 2 }, { q: { y: 3 } }, [{ z: 4 }]],
      b: { z: { y: { x: 'deep' } }, w: 5 },
    };
    for (const mode of MODES) {
      const codec = compileMode(shape, mode);
      same(codec.decode(codec.encode(v)), v);
    }
  });

  test('a repeated __proto__ key is an own property every time, as JSON.parse makes it', () => {
    const text = '[{"__proto__":{"a":1},"b":2},{"__proto__":[3],"b":{"__proto__":null}}]';
    for (const mode of MODES) {
      const codec = compileMode(t.json(), mode);
      const back = codec.decode(codec.encode(JSON.parse(text)));
      same(back, JSON.parse(text));
      for (const o of back) assert.equal(Object.getPrototypeOf(o), Object.prototype);
      assert.ok(Object.hasOwn(back[1].b, '__proto__'));
    }
  });

  // Objects whose keys repeat an earlier object's, in order, are built by a generated
  // object literal of those keys (lib/json-tape.js, `builder`; src/types/json.rs, shapes).
  test('objects of a repeated shape: keys that need escaping, index keys, __proto__, the empty key', () => {
    const odd = ['a"b', 'back\\slash', 'line\nbreak', '\u2028\u2029', '${x}`', "'; throw 1; //", '', '0', '10', '01', '-1', '1.5', '4294967295', '__proto__', 'constructor', 'toString', 'é', '数'];
    const objects = (k) => JSON.parse(`{${odd.map((key, j) => `${JSON.stringify(key)}:${JSON.stringify(j % 2 ? `v${k}` : k + j)}`).join(',')}}`);
    const v = Array.from({ length: 5 }, (_, k) => ({ first: objects(k), second: [objects(k + 1), { again: objects(k + 2) }] }));
    for (const mode of MODES) {
      const codec = compileMode(t.json(), mode);
      const back = codec.decode(codec.encode(v));
      same(back, v);
      for (const o of back) {
        for (const x of [o.first, o.second[0], o.second[1].again]) {
          assert.equal(Object.getPrototypeOf(x), Object.prototype);
          assert.ok(Object.hasOwn(x, '__proto__'));
          assert.deepStrictEqual(Object.keys(x), Object.keys(objects(0)));
        }
      }
    }
  });

  test('an object with the keys of an object inside it, which ends first', () => {
    const values = [
      { a: 1, b: { a: 2, b: null } },
      [{ a: 1, b: { a: 2, b: { a: 3, b: 4 } } }, { a: 5, b: 6 }, { b: 7, a: 8 }],
      { x: [{ x: [{ x: [] }] }], y: { x: 1 } },
    ];
    for (const mode of MODES) {
      const codec = compileMode(t.json(), mode);
      for (const v of values) same(codec.decode(codec.encode(v)), v);
    }
  });

  test('more shapes than one value keeps, and objects of more keys than a shape holds', () => {
    // 40 keys make 780 pairs: past the 256 shapes kept, each pair twice.
    const pool = Array.from({ length: 40 }, (_, k) => `key${k}`);
    const pairs = [];
    for (let a = 0; a < pool.length; a++) for (let b = a + 1; b < pool.length; b++) pairs.push({ [pool[a]]: a, [pool[b]]: `${b}` });
    const wide = (n, k) => Object.fromEntries(Array.from({ length: n }, (_, j) => [`w${j}`, j + k]));
    const values = [
      [...pairs, ...pairs],
      [wide(64, 0), wide(64, 1), wide(65, 2), wide(65, 3), wide(200, 4), wide(200, 5)],
    ];
    for (const mode of MODES) {
      const codec = compileMode(t.json(), mode);
      for (const v of values) same(codec.decode(codec.encode(v)), v);
    }
  });

  test('random values of a few shapes, nested in each other, decode as JSON.parse makes them', () => {
    let seed = 0x5eed;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const pick = (list) => list[Math.floor(random() * list.length)];
    const KEYS = ['id', 'name', '__proto__', '0', '7', 'a"b', 'é', 'x'.repeat(64), 'y'.repeat(65), 'constructor', ''];
    // Key lists of 1 to 8 keys (no repeats), some of them shared by many objects.
    const shapes = Array.from({ length: 12 }, () => [...new Set(Array.from({ length: 1 + Math.floor(random() * 8) }, () => pick(KEYS)))]);
    const value = (depth) => {
      const r = random();
      if (depth > 4 || r < 0.3) return pick([null, true, 1.5, -3, 'text', 'é🚀']);
      if (r < 0.45) return Array.from({ length: Math.floor(random() * 5) }, () => value(depth + 1));
      return JSON.parse(`{${pick(shapes).map((k) => `${JSON.stringify(k)}:${JSON.stringify(value(depth + 1))}`).join(',')}}`);
    };
    for (const mode of MODES) {
      const codec = compileMode(t.json(), mode);
      for (let k = 0; k < 300; k++) {
        const v = value(0);
        const text = JSON.stringify(v);
        const back = codec.decode(codec.encode(JSON.parse(text)));
        assert.equal(JSON.stringify(back), text);
        assert.deepStrictEqual(back, JSON.parse(text));
      }
    }
  });

  test('objects of a repeated shape have fast properties, as JSON.parse makes them', () => {
    const result = runIsolated(
      `
      const codec = compile(t.json());
      const row = (k) => Object.fromEntries(Array.from({ length: 30 }, (_, j) => ['field' + j, k * j]));
      const back = codec.decode(codec.encode(Array.from({ length: 10 }, (_, k) => row(k))));
      return back.slice(1).map((o) => %HasFastProperties(o));
    `,
      ['--allow-natives-syntax'],
    );
    assert.deepStrictEqual(result, Array(9).fill(true));
  });

  test('past the builders kept for the process, objects are still built exactly', () => {
    const result = runIsolated(`
      const codec = compile(t.json());
      let same = 0;
      // 800 shapes of three keys, each used three times, over 4 messages.
      for (let m = 0; m < 4; m++) {
        const v = [];
        for (let k = 0; k < 200; k++) {
          const keys = ['s' + (m * 200 + k), 'x', 'y'];
          for (let r = 0; r < 3; r++) v.push(Object.fromEntries(keys.map((key, j) => [key, r * 10 + j])));
        }
        if (JSON.stringify(codec.decode(codec.encode(v))) === JSON.stringify(v)) same++;
      }
      return same;
    `);
    assert.equal(result, 4);
  });

  test('where code generation is not allowed, json objects are built without it', () => {
    const result = runIsolated(
      `
      const codec = compile(t.json());
      const v = Array.from({ length: 20 }, (_, k) => ({ a: k, b: [k], c: { d: k } }));
      return { generated: codec.generated, same: JSON.stringify(codec.decode(codec.encode(v))) === JSON.stringify(v) };
    `,
      ['--disallow-code-generation-from-strings'],
    );
    assert.deepStrictEqual(result, { generated: false, same: true });
  });

  test('a key with a setter on Object.prototype, repeated, is defined on each object and never calls it', () => {
    for (const mode of MODES) {
      const result = runIsolated(`
        const codec = compile(t.json(), { codegen: ${mode.codegen} });
        const v = Array.from({ length: 20 }, (_, k) => ({ hook: k, plain: k }));
        const bytes = codec.encode(v);
        let calls = 0;
        Object.defineProperty(Object.prototype, 'hook', { configurable: true, set() { calls++; } });
        const back = codec.decode(bytes);
        delete Object.prototype.hook;
        return { calls, same: back.every((o, k) => Object.getOwnPropertyDescriptor(o, 'hook').value === k && o.plain === k) };
      `);
      assert.deepStrictEqual(result, { calls: 0, same: true }, mode.name);
    }
  });
});

// Arrays of 1 to 4 strings are made as literals (an allocation site V8 may pretenure),
// except in a message mostly of text, and arrays of numbers never (lib/types/array.js):
// every length decodes to the packed array it was, in small and large messages and in
// one mostly of text, and the generated decode has each form where it belongs.
describe('small arrays of strings', () => {
  test('decode to packed arrays of every length, in every kind of message', () => {
    const schema = t.object({ tags: t.array(t.string()), kinds: t.array(t.enum(['a', 'b'])), xs: t.array(t.float64()), n: t.uint8() });
    const row = (k) => ({ tags: Array.from({ length: k % 7 }, (_, j) => `${WORDS[(k + j) % WORDS.length]}${j}`), kinds: Array.from({ length: k % 6 }, (_, j) => (j % 2 ? 'a' : 'b')), xs: Array.from({ length: k % 5 }, (_, j) => j / 3), n: k % 256 });
    // Small messages, a large one of short strings, and a large one mostly of text.
    // (The large one of short strings has one-char tags and floats, so that its text is
    // not most of it.)
    const messages = [[row(3)], Array.from({ length: 2000 }, (_, k) => ({ ...row(k), tags: row(k).tags.map((s, j) => String.fromCharCode(97 + j)), xs: [k, k / 3, k / 7, k / 9] })), Array.from({ length: 300 }, (_, k) => ({ ...row(k), tags: row(k).tags.map((s) => s.repeat(40)) }))];
    const rt = require('../lib/runtime');
    const denseText = rt.denseText;
    for (const mode of MODES) {
      const codec = compileMode(t.array(schema), mode);
      const asked = [];
      for (const v of messages) {
        const bytes = codec.encode(v);
        rt.denseText = (...args) => {
          asked.push(denseText(...args));
          return asked.at(-1);
        };
        let back;
        try {
          back = codec.decode(bytes);
        } finally {
          rt.denseText = denseText;
        }
        assert.deepStrictEqual(back, v);
        for (const r of back) {
          for (const a of [r.tags, r.kinds, r.xs]) {
            assert.ok(Array.isArray(a) && Object.getPrototypeOf(a) === Array.prototype);
            assert.equal(Object.keys(a).length, a.length, 'no holes');
          }
        }
      }
      // Where code is generated natively, the last message was asked about, and is mostly
      // text (the one before has a text of one chunk: not asked, not mostly text).
      assert.deepStrictEqual(asked, mode.codegen && mode.backend === undefined ? [true] : []);
    }
  });

  test('the generated decode makes arrays of 1 to 4 strings as literals, but where the text is most of the message, and arrays of numbers by length', () => {
    const { generate } = require('../lib/codegen');
    const { analyze } = require('../lib/walk');
    const strings = t.object({ tags: t.array(t.string()), kinds: t.array(t.enum(['a', 'b'])) });
    const source = generate(strings, analyze(strings), marshallerOf(strings)).source;
    assert.match(source, /DT \? new NewArray\(\w+\) : \w+ === 1 \? \[undefined\] : [\s\S]*=== 4 \? \[undefined, undefined, undefined, undefined\] : new NewArray/);
    assert.match(source, /DT = dense\$;/);
    const numbers = t.object({ xs: t.array(t.float64()), ys: t.array(t.uint32()) });
    const plain = generate(numbers, analyze(numbers), marshallerOf(numbers)).source;
    assert.doesNotMatch(plain, /\[undefined\]|\bDT\b/);
  });

  test("the JS back end's generated array read makes arrays of 1 to 4 strings or enum values as literals, and arrays of numbers by length", () => {
    const closures = require('../lib/closures');
    const { lowering } = require('../lib/lower');
    const readerOf = (schema) => {
      const m = marshallerOf(schema);
      const { Inspector } = require('../lib/inspect');
      const sizes = new Inspector(new Uint8Array(0), schema, {});
      return closures.compile(lowering(m, sizes).node(schema), m, true).decode.toString();
    };
    for (const items of [t.string(), t.enum(['a', 'b']), t.default(t.string(), 'x')]) {
      assert.match(readerOf(t.array(items)), /n === 0 \? \[\] : n === 1 \? \[undefined\] : [\s\S]*n === 4 \? \[undefined, undefined, undefined, undefined\] : new Array\(n\)/);
    }
    for (const items of [t.float64(), t.uint32(), t.object({ a: t.string() })]) {
      const source = readerOf(t.array(items));
      assert.match(source, /const a = new Array\(n\);/);
      assert.doesNotMatch(source, /\[undefined\]/);
    }
  });
});
