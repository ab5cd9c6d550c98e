'use strict';
// Depth and size rules of the types that nest at run time (issue 6): recursive types and
// json nest at most `maxDepth` levels, deeper (a cyclic value included) is
// ERR_SHORN_INVALID on encode and ERR_SHORN_LIMIT on decode, never a stack overflow; and
// items that take no bytes cannot be counted by the million.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { shorn, MODES, compileMode, assertShornError, fromHex, toHex, concatBytes, varint, marshallerOf } = require('./helpers');

const { t, compile } = shorn;

const Tree = t.recursive('Tree', (self) => t.object({ v: t.uint8(), kids: t.array(self) }));

// A chain of `n` nested trees.
function chain(n) {
  let node = { v: 0, kids: [] };
  for (let k = 1; k < n; k++) node = { v: k % 256, kids: [node] };
  return node;
}

// The bytes of a chain of `n` trees: each level is v, then a count of 1 (the last: 0).
function chainBytes(n) {
  const parts = [];
  for (let k = n - 1; k >= 1; k--) parts.push([k % 256, 1]);
  parts.push([0, 0]);
  return concatBytes(...parts);
}

function nestedArrays(n) {
  let v = [];
  for (let k = 1; k < n; k++) v = [v];
  return v;
}

for (const mode of MODES) {
  describe(`maxDepth (${mode.name} marshaller)`, () => {
    test('a recursive value of exactly maxDepth levels round-trips; one more is an error at its path', () => {
      const codec = compileMode(Tree, mode, { maxDepth: 20 });
      assert.deepStrictEqual(codec.decode(codec.encode(chain(20))), chain(20));
      const e = assertShornError(() => codec.encode(chain(21)), { code: 'ERR_SHORN_INVALID' });
      assert.equal(e.path, `$${'.kids[0]'.repeat(20)}`);
      assert.match(e.message, /nested deeper than maxDepth \(20\)/);
    });

    test('the default maxDepth is 128', () => {
      const codec = compileMode(Tree, mode);
      codec.encode(chain(128));
      assertShornError(() => codec.encode(chain(129)), { code: 'ERR_SHORN_INVALID', path: `$${'.kids[0]'.repeat(128)}` });
    });

    test('decoding a message nested past maxDepth is ERR_SHORN_LIMIT at the level too deep', () => {
      const codec = compileMode(Tree, mode, { maxDepth: 20 });
      assert.deepStrictEqual(codec.decode(chainBytes(20)), chain(20));
      assertShornError(() => codec.decode(chainBytes(21)), {
        code: 'ERR_SHORN_LIMIT',
        offset: 40,
        path: `$${'.kids[0]'.repeat(20)}`,
        message: `nesting depth 21 at offset 40 ($${'.kids[0]'.repeat(20)}) is over the limit of 20 (maxDepth)`,
      });
    });

    test('a cyclic value is an error, never a stack overflow', () => {
      const codec = compileMode(Tree, mode);
      const a = { v: 1, kids: [] };
      a.kids.push(a);
      const e = assertShornError(() => codec.encode(a), { code: 'ERR_SHORN_INVALID' });
      assert.match(e.message, /nested deeper than maxDepth \(128\); is the value cyclic\?/);
      const j = compileMode(t.json(), mode);
      const o = { x: [1] };
      o.x.push(o);
      assertShornError(() => j.encode(o), { code: 'ERR_SHORN_INVALID' });
      const list = compileMode(t.object({ data: t.json() }), mode);
      const arr = [];
      arr.push(arr);
      assertShornError(() => list.encode({ data: arr }), { code: 'ERR_SHORN_INVALID', path: `$.data${'[0]'.repeat(128)}` });
    });

    test('json nests at most maxDepth arrays and objects, both ways', () => {
      const codec = compileMode(t.json(), mode, { maxDepth: 1000 });
      assert.deepStrictEqual(codec.decode(codec.encode(nestedArrays(1000))), nestedArrays(1000));
      assertShornError(() => codec.encode(nestedArrays(1001)), { code: 'ERR_SHORN_INVALID' });
      // 1001 nested arrays of one item, the innermost empty: c1 c1 ... c0.
      const deep = concatBytes(new Uint8Array(1000).fill(0xc1), [0xc0]);
      assertShornError(() => codec.decode(deep), { code: 'ERR_SHORN_LIMIT', offset: 1000 });
      const shallow = compileMode(t.json(), mode, { maxDepth: 3 });
      assertShornError(() => shallow.decode(fromHex('c1c1c1c0')), { code: 'ERR_SHORN_LIMIT', offset: 3, path: '$[0][0][0]' });
      assert.deepStrictEqual(shallow.decode(fromHex('c1c1c0')), [[[]]]);
    });

    test('a hostile message of 100,000 nested levels fails fast without a RangeError', () => {
      const codec = compileMode(t.json(), mode);
      const deep = new Uint8Array(100_000).fill(0xc1);
      const started = Date.now();
      assertShornError(() => codec.decode(deep), { code: 'ERR_SHORN_LIMIT', offset: 128 });
      const trees = compileMode(Tree, mode);
      const bytes = new Uint8Array(200_000).fill(1);
      assertShornError(() => trees.decode(bytes), { code: 'ERR_SHORN_LIMIT' });
      assert.ok(Date.now() - started < 2000);
    });
  });
}

describe('maxDepth option', () => {
  test('is an integer from 1 to 1000', () => {
    for (const bad of [0, 1001, 1.5, '5', -1]) {
      assertShornError(() => compile(Tree, { maxDepth: bad }), {
        code: 'ERR_SHORN_SCHEMA',
        message: 'invalid compile option: maxDepth must be an integer from 1 to 1000',
      });
    }
    compile(Tree, { maxDepth: 1 });
    compile(Tree, { maxDepth: 1000 });
  });
});

describe('items that take no bytes', () => {
  const NONE = [
    ['null', t.null()],
    ['a literal', t.literal('x')],
    ['an empty object', t.object({})],
    ['an empty tuple', t.tuple([])],
    ['an object of literals', t.object({ a: t.literal(1), b: t.null() })],
  ];
  for (const [name, items] of NONE) {
    test(`an array of ${name} is a schema error`, () => {
      assertShornError(() => compile(t.array(items)), {
        code: 'ERR_SHORN_SCHEMA',
        message: 'invalid schema at $: array items must take at least one byte; a null, a literal or an empty object or tuple takes none',
      });
    });
    test(`a map from ${name} to ${name} is a schema error`, () => {
      assertShornError(() => compile(t.object({ m: t.map(items, items) })), {
        code: 'ERR_SHORN_SCHEMA',
        message:
          'invalid schema at $.m: map entries must take at least one byte; a key and a value that take none would let a few bytes make millions of entries',
      });
    });
  }

  test('records, maps with a sized key or value, and unions of sizeless variants are fine', () => {
    const codec = compile(t.object({ r: t.record(t.null()), m: t.map(t.string(), t.null()), a: t.array(t.union([t.null(), t.literal(1)])) }));
    const value = { r: { a: null, b: null }, m: new Map([['x', null]]), a: [null, 1, null] };
    const bytes = codec.encode(value);
    assert.equal(toHex(bytes), '020161016201017803000100');
    assert.deepStrictEqual(codec.decode(bytes), value);
  });

  test('a record of nulls declares at most one entry per byte that remains', () => {
    const codec = compile(t.record(t.null()));
    // A count of 2^26 with two bytes after it.
    assertShornError(() => codec.decode(concatBytes(varint(2 ** 26), [1, 0x61])), { code: 'ERR_SHORN_TRUNCATED', offset: 4 });
  });
});

describe('recursive types in generated code (issue 41)', () => {
  const { generate } = require('../lib/codegen');
  const { analyze } = require('../lib/walk');
  const Comment = t.recursive('Comment', (self) => t.object({ id: t.uint32(), text: t.string(), replies: t.array(self), parent: t.optional(self) }));

  test('a definition is encoded and decoded by generated functions of its own, not handed to the generic marshaller', () => {
    const descriptor = JSON.parse(JSON.stringify(t.array(Comment)));
    const { source } = generate(descriptor, analyze(descriptor), marshallerOf(descriptor));
    // One take and one put function for the definition, which its refs call.
    assert.match(source, /function take_h\d+\(\)/);
    assert.match(source, /function put_h\d+\(x\)/);
    assert.doesNotMatch(source, /G\.decoder\(|G\.encoder\(/);
    const codec = compile(Comment);
    assert.equal(codec.generated, true);
    const value = { id: 1, text: 'a', replies: [{ id: 2, text: 'b', replies: [], parent: { id: 3, text: 'c', replies: [] } }] };
    assert.deepStrictEqual(codec.decode(codec.encode(value)), value);
    assert.deepStrictEqual(compile(Comment, { codegen: false }).encode(value), codec.encode(value));
  });

  // Found by scripts/fuzz.js (seed 42) while the generated functions were written: a
  // cyclic value under a union or a json value inside a definition must stop at the level
  // the generic marshaller stops at, with its path and message.
  test('a cyclic value stops at the same level in both marshallers: through a union, a nullable, and json inside a definition', () => {
    const cases = [
      [t.recursive('A', (self) => t.object({ v: t.date(), next: t.union([t.uint8(), self]) })), () => { const v = { v: new Date(0) }; v.next = v; return v; }],
      [t.recursive('T', (self) => t.object({ v: t.nullable(self), next: t.union([t.uint8(), self]) })), () => { const v = { next: 1 }; v.v = v; return v; }],
      [t.recursive('L', (self) => t.object({ data: t.json(), next: t.nullable(self) })), () => { const v = { data: {}, next: null }; v.data.x = v.data; return v; }],
      [t.recursive('L', (self) => t.object({ data: t.json(), next: t.nullable(self) })), () => { const v = { data: 1, next: { data: [[[[1]]]], next: null } }; return v; }],
    ];
    for (const [schema, make] of cases) {
      for (const maxDepth of [3, 128]) {
        const errors = MODES.map((mode) => {
          try {
            compileMode(schema, mode, { maxDepth }).encode(make());
            return null;
          } catch (e) {
            return { code: e.code, path: e.path, message: e.message };
          }
        });
        assert.deepStrictEqual(errors[0], errors[1], `${JSON.stringify(schema)} at maxDepth ${maxDepth}`);
      }
    }
    // json's levels count on from the definition's: at maxDepth 3, a definition (1) whose
    // json holds two arrays (2, 3) fits, three do not.
    const L = t.recursive('L', (self) => t.object({ data: t.json(), next: t.nullable(self) }));
    for (const mode of MODES) {
      const codec = compileMode(L, mode, { maxDepth: 3 });
      codec.encode({ data: [[1]], next: null });
      assertShornError(() => codec.encode({ data: [[[1]]], next: null }), { code: 'ERR_SHORN_INVALID', path: '$.data[0][0]' });
    }
  });

  // Found by scripts/fuzz.js (seed 8404, no-addon build): a union tries its variants in
  // turn, each walking the value again, so where two variants recur a cyclic value cost
  // ~2^maxDepth tests and its encode never ended, in every mode; an acyclic chain that two
  // variants fit up to their last field, ~2^length. Now a recursive test's answers for an
  // object are kept while the outermost test runs (lib/generic.js, nestTest). Run in a
  // child with a time limit, so a regression fails instead of hanging the suite.
  test('a union whose variants recur tests a value in time polynomial in its depth: a cyclic value, and a chain two variants fit but for the last field', () => {
    const { spawnSync } = require('node:child_process');
    const path = require('node:path');
    const script = `
      const { t, compile } = require(${JSON.stringify(path.join(__dirname, '..'))});
      const T = t.recursive('T', (self) => t.object({ v: t.union([t.union([t.nullable(self)]), t.nullable(self)]), next: t.union([t.uint8(), self]) }));
      const L = t.recursive('L', (self) => t.union(['w', 'x', 'y', 'z'].map((tag) => t.object({ a: t.nullable(self), b: t.nullable(self), ['t' + tag]: t.literal(tag) }))));
      const chain = (n) => { let v = { a: null, b: null, tz: 'z' }; for (let k = 0; k < n; k++) v = { a: v, b: null, tz: 'z' }; return v; };
      const out = [];
      for (const mode of [{}, { codegen: false }, { backend: 'js' }, { backend: 'js', codegen: false }]) {
        for (const maxDepth of [6, 128]) {
          const cyclic = { next: 1 };
          cyclic.v = cyclic;
          const codec = compile(T, { ...mode, maxDepth });
          try { codec.encode(cyclic); out.push('encoded'); } catch (e) { out.push([e.code, e.path.length, e.message.slice(e.path.length + 2)]); }
          out.push(codec.check(cyclic).issues.map((i) => [i.code, i.path.length]));
        }
        const list = compile(L, mode);
        const value = chain(100);
        out.push(JSON.stringify(list.decode(list.encode(value))) === JSON.stringify(value), list.check(value).ok);
      }
      console.log(JSON.stringify(out));
    `;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
    assert.equal(r.signal, null, 'the encodes did not end within 60 s');
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const tooDeep = (depth) => ['ERR_SHORN_INVALID', 1 + 2 * depth, `nested deeper than maxDepth (${depth}); is the value cyclic?`];
    const expected = [];
    for (let mode = 0; mode < 4; mode++) {
      for (const depth of [6, 128]) expected.push(tooDeep(depth), [['too_deep', 1 + 2 * depth]]);
      expected.push(true, true);
    }
    assert.deepStrictEqual(out, expected);
  });

  // Fuzz seed 9621, finding J10 (scripts/fuzz-findings/README.md): each union by kind on
  // the way out of a value too deep tested it again and looked for its own error, ~maxDepth
  // levels each (maxDepth^3 / 2 reads; ~0.4 s an encode at the default maxDepth, ~22 s at
  // 512). Counted in reads, not timed.
  test('the native back end\'s generated union by kind reads a cyclic value about as often as the generic marshaller does', () => {
    const T = t.recursive('T', (self) => t.object({ v: t.object({}), next: t.union([t.uint8(), self]) }));
    const reads = (mode) => {
      const codec = compile(T, { ...mode, maxDepth: 64 });
      let n = 0;
      const target = { v: {}, next: 1 };
      const value = new Proxy(target, {
        get(o, k, r) {
          if (k === 'next') n++;
          return Reflect.get(o, k, r);
        },
      });
      target.next = value;
      assertShornError(() => codec.encode(value), { code: 'ERR_SHORN_INVALID' });
      return n;
    };
    // The generic marshaller reads `next` ~maxDepth^2 times (4,223); the generated union
    // by kind read it 135,200 times.
    assert.ok(reads({ codegen: true }) <= 2 * reads({ codegen: false }));
  });

  // Finding J11, open: failing as it stands, todo until it is fixed.
  test('a value 999 levels deep checks and encodes at maxDepth 1000 on every back end, without a stack overflow', { todo: 'fuzz seed 9621: check overflows the JS stack on every back end, and the generic marshaller\'s encode (in a fresh process: RangeError, 1000, RangeError x3, 1000, RangeError, 1000)' }, () => {
    const { spawnSync } = require('node:child_process');
    const path = require('node:path');
    const script = `
      const { t, compile } = require(${JSON.stringify(path.join(__dirname, '..'))});
      const T = t.recursive('T', (self) => t.object({ v: t.object({}), next: t.union([t.uint8(), self]) }));
      let value = 1;
      for (let k = 0; k < 999; k++) value = { v: {}, next: value };
      const out = [];
      for (const mode of [{}, { codegen: false }, { backend: 'js' }, { backend: 'js', codegen: false }]) {
        const codec = compile(T, { ...mode, maxDepth: 1000 });
        for (const run of [() => codec.check(value).ok, () => codec.encode(value).length]) {
          try { out.push(run()); } catch (e) { out.push(e.code || e.name); }
        }
      }
      console.log(JSON.stringify(out));
    `;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepStrictEqual(JSON.parse(r.stdout), [true, 1000, true, 1000, true, 1000, true, 1000]);
  });

  test('random comment threads round-trip with the same bytes in both marshallers', () => {
    let seed = 41;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let id = 0;
    const make = (depth) => {
      const c = { id: id++, text: 'x'.repeat(Math.floor(random() * 5)), replies: [] };
      if (depth < 6) for (let k = Math.floor(random() * 3); k > 0; k--) c.replies.push(make(depth + 1));
      if (depth < 6 && random() < 0.2) c.parent = make(depth + 1);
      return c;
    };
    const [gen, plain] = MODES.map((mode) => compileMode(t.array(Comment), mode));
    for (let n = 0; n < 50; n++) {
      const value = Array.from({ length: 1 + Math.floor(random() * 4) }, () => make(0));
      const bytes = gen.encode(value);
      assert.deepStrictEqual(Buffer.from(plain.encode(value)), Buffer.from(bytes));
      assert.deepStrictEqual(gen.decode(bytes), value);
      assert.deepStrictEqual(plain.decode(bytes), value);
      assert.deepStrictEqual(gen.decodeFrames(gen.encodeFrames([value, value])), [value, value]);
    }
  });
});
