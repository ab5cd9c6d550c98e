'use strict';
// A string's `pattern` (docs/FORMAT.md, "Patterns"): the source of a JS RegExp tested
// without flags, as Zod tests it, run by lib/pattern.js in time linear in the string.
// The contract is V8's answer: hand-picked cases and generated patterns and strings are
// compared with `new RegExp(source).test(s)`. Issue 37, finding 12.

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

// Runs `script` in a child process so that a hang fails the test instead of the test run.
function runChild(script, timeout = 30_000) {
  const result = spawnSync(process.execPath, ['-e', script], { cwd: path.join(__dirname, '..'), encoding: 'utf8', timeout });
  assert.equal(result.error?.code, undefined, `the child was stopped after ${timeout} ms (${result.error?.code}): a pattern backtracked`);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

describe('a hostile string takes time linear in its size (issue 37, finding 12)', () => {
  test("'^(a+)+$' on 28 bytes and on 100 KB: decode, safeDecode, decodeFrames, encode and check each well under a second", () => {
    const times = runChild(`
      const { t, compile } = require('.');
      const schema = t.string({ pattern: '^(a+)+$' });
      const plain = compile(t.string());
      const times = {};
      const time = (name, f) => {
        const start = process.hrtime.bigint();
        f();
        times[name] = Math.max(times[name] ?? 0, Number(process.hrtime.bigint() - start) / 1e6);
      };
      for (const codegen of [true, false]) {
        const codec = compile(schema, { codegen });
        for (const length of [27, 100_000]) {
          const hostile = 'a'.repeat(length) + '!';
          const bytes = plain.encode(hostile);
          const frames = plain.encodeFrames([hostile, hostile]);
          const label = (what) => what + ' of ' + bytes.length + ' bytes, codegen ' + codegen;
          time(label('decode'), () => { try { codec.decode(bytes); throw new Error('decoded'); } catch (e) { if (e.code !== 'ERR_SHORN_INVALID') throw e; } });
          time(label('safeDecode'), () => { if (codec.safeDecode(bytes).ok) throw new Error('decoded'); });
          time(label('decodeFrames'), () => { try { codec.decodeFrames(frames); throw new Error('decoded'); } catch (e) { if (e.code !== 'ERR_SHORN_INVALID') throw e; } });
          time(label('encode'), () => { try { codec.encode(hostile); throw new Error('encoded'); } catch (e) { if (e.code !== 'ERR_SHORN_INVALID') throw e; } });
          time(label('check'), () => { if (codec.check(hostile).ok) throw new Error('passed'); });
        }
      }
      console.log(JSON.stringify(times));
    `);
    assert.equal(Object.keys(times).length, 20);
    for (const [what, ms] of Object.entries(times)) assert.ok(ms < 2000, `${what} took ${ms.toFixed(0)} ms`);
  });

  test('classic catastrophic patterns, lookarounds, a pattern near the node cap and a DFA past its cache on 100 KB strings', () => {
    const times = runChild(`
      const { compilePattern } = require('./lib/pattern');
      const times = {};
      // [source, what the string repeats, whether it matches 'unit…unit!\\u2028', its length]:
      // 100 KB, but 5 KB for the worst case of the node cap, every node live at every unit
      // (~2,000 node steps a unit: ~20 µs, docs/FORMAT.md, "Patterns").
      const cases = [
        ['(a|a)*b', 'a', false], ['(a|aa)+$', 'a', false], ['(x+x+)+y', 'x', false], ['^(\\w+\\s?)*$', 'a ', false],
        ['([a-z]+)*[0-9]', 'ab', false], ['^(?=(a+)+$)a', 'a', false], ['(?<=(a+)+b)c', 'a', false],
        ['(a|b)*a(a|b){12}c', 'ab', false], ['[a-z]{1,200}!', 'a', true], ['[a-z]{1,999}!', 'a'.repeat(998) + '-', false, 5_000],
        ['(a|b)*a(a|b){60}c', 'aabbbabbabababbbaaabbaabab', false],
        // Run by V8, which is linear on them (lib/pattern.js, \`linearByBacktracking\`).
        ['^[a-z0-9_-]{3,16}$', 'a', false], ['^\\\\d+(\\\\.\\\\d{1,2})?$', '1', false], ['a{2}b', 'a', false],
      ];
      for (const [source, unit, expected, length = 100_000] of cases) {
        const p = compilePattern(source);
        const hostile = unit.repeat(Math.ceil(length / unit.length)) + '!\\u2028';
        const start = process.hrtime.bigint();
        if (p.test(hostile) !== expected) throw new Error(source);
        times[source] = Number(process.hrtime.bigint() - start) / 1e6;
      }
      console.log(JSON.stringify(times));
    `);
    for (const [source, ms] of Object.entries(times)) assert.ok(ms < 2000, `/${source}/ took ${ms.toFixed(0)} ms`);
  });
});

const fc = require('fast-check');
const { compilePattern, PatternRefused, MAX_NODES, MAX_DEPTH, MAX_LOOKAROUNDS } = require('../lib/pattern');

// Strings with what patterns tell apart: word and non-word ASCII, line terminators, the
// other white space, a surrogate pair and lone halves, Latin-1 and BMP letters.
const UNITS = ['a', 'b', 'c', 'A', 'Z', '0', '1', '7', '8', '_', '-', ' ', '.', '{', '}', ']', '\\', '/', '\t', '\n', '\r', '\v', '\f', '\0', '\x01', '\x11', '\u00a0', '\u00e9', '\u2028', '\u2029', '\ufeff', '\u3000', '\ud83d', '\ude00', '\uffff'];
const strings = fc.array(fc.constantFrom(...UNITS), { maxLength: 12 }).map((units) => units.join(''));

// Pattern sources from the whole grammar V8 accepts without flags, Annex B included; what
// V8 refuses (`a{2,1}`, `*a`) is drawn too, and must be refused alike.
const LITERALS = ['a', 'b', 'c', '0', '_', '-', ' ', 'é', '{', '}', ']', ',', '/', '\u2028', '\ud83d', '\ude00'];
const ESCAPES = ['\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\t', '\\n', '\\v', '\\f', '\\r', '\\0', '\\00', '\\1', '\\12', '\\101', '\\377', '\\400', '\\7', '\\8', '\\9', '\\x41', '\\x4', '\\xg1', '\\u00e9', '\\u2028', '\\u12', '\\u{41}', '\\cA', '\\cj', '\\c1', '\\c_', '\\c', '\\a', '\\-', '\\.', '\\k', '\\p', '\\/', '\\]', '\\{', '\\ud83d'];
const CLASS_ITEMS = ['a', 'b', 'c-e', 'A-Z', '0-9', '-', '^', ']', '[', '.', '\\]', '\\-', '\\b', '\\B', '\\d', '\\w', '\\s', '\\S', '\\W', '\\D', '\\cA', '\\c1', '\\c_', '\\c*', '\\0', '\\12', '\\8', '\\x41', '\\u00e9', '\\d-z', 'a-\\d', '\\n-\\r', '\u00a0-\uffff', '\ud800-\udbff', 'z-a'];
const ASSERTIONS = ['^', '$', '\\b', '\\B'];
const QUANTIFIERS = ['*', '+', '?', '{0}', '{1}', '{2}', '{0,1}', '{1,3}', '{2,}', '{0,}', '{3,2}', '{,2}', '{', '{1', '{1,', '{a}', '*?', '+?', '??', '{1,2}?'];

const sources = fc.letrec((tie) => ({
  atom: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...LITERALS) },
    { weight: 1, arbitrary: fc.constant('.') },
    { weight: 3, arbitrary: fc.constantFrom(...ESCAPES) },
    { weight: 2, arbitrary: fc.tuple(fc.boolean(), fc.array(fc.constantFrom(...CLASS_ITEMS), { maxLength: 3 })).map(([not, items]) => `[${not ? '^' : ''}${items.join('')}]`) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('(', '(?:', '(?<n>', '(?=', '(?!', '(?<=', '(?<!'), tie('disjunction')).map(([open, body]) => `${open}${body})`) },
  ),
  term: fc.oneof(
    { weight: 5, arbitrary: fc.tuple(tie('atom'), fc.option(fc.constantFrom(...QUANTIFIERS), { freq: 2 })).map(([atom, q]) => atom + (q ?? '')) },
    { weight: 1, arbitrary: fc.constantFrom(...ASSERTIONS) },
  ),
  alternative: fc.array(tie('term'), { maxLength: 4 }).map((terms) => terms.join('')),
  disjunction: fc.array(tie('alternative'), { minLength: 1, maxLength: 3 }).map((alts) => alts.join('|')),
})).disjunction;

// V8's answer, or 'syntax' for a source V8 refuses.
function v8(source, s) {
  try {
    return new RegExp(source).test(s);
  } catch (e) {
    if (e instanceof SyntaxError) return 'syntax';
    throw e;
  }
}

// The automaton, even where V8 would run the pattern: the DFA is what is compared.
function compiled(source) {
  try {
    return compilePattern(source, { automaton: true });
  } catch (e) {
    if (e instanceof SyntaxError) return 'syntax';
    if (e instanceof PatternRefused) return 'refused';
    throw e;
  }
}

function assertSame(source, samples) {
  const p = compiled(source);
  if (p === 'refused') return false;
  for (const s of samples) assert.equal(p === 'syntax' ? 'syntax' : p.test(s), v8(source, s), `/${source}/.test(${JSON.stringify(s)})`);
  return true;
}

describe('a pattern matches what V8 matches', () => {
  test('on generated patterns and strings', () => {
    fc.assert(
      fc.property(sources, fc.array(strings, { minLength: 1, maxLength: 12 }), (source, samples) => {
        const refused = !assertSame(source, samples);
        // Only a backreference is refused among these.
        if (refused) assert.match(source, /\\[1-9k]/);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('a pattern matches what V8 matches', () => {
  // Each row: a source and strings; the answer expected is V8's. Annex B first.
  const TRICKY = [
    [']', '{', '}', 'a{', 'a{1', 'a{1,', 'a{,5}', '{,5}', 'a{a}', 'x{1}}'].map((source) => [source, [']', '{', '}', 'a{', 'a{1', 'a{1,', 'a{,5}', '{,5}', 'aaaaa', 'a{a}', 'x}']]),
    ['\\8', '\\9', '\\1', '(a)\\2', '(a)\\12', '\\0', '\\08', '\\07', '\\377', '\\400', '\\1000', '[\\1]', '[\\8]', '[\\0]'].map((source) => [source, ['8', '9', '\x01', 'a\x02', 'a\n', '\0', '\x008', '\x07', '\xff', ' 0', '@0', '\x01', '\x08']]),
    ['\\k', '\\p{L}', '\\P', '\\a', '\\u{41}', '\\u12', '\\x4', '\\xg1', '\\-', '\\/'].map((source) => [source, ['k', 'p{L}', 'P', 'a', 'u'.repeat(41), 'u'.repeat(40), 'u12', 'x4', 'xg1', '-', '/', 'A']]),
    ['\\cA', '\\ca', '\\cJ', '\\c1', '\\c_', '\\c', 'a\\c', '[\\c1]', '[\\c_]', '[\\c*]', '[\\c]', '[\\cz]', '\\c*', '[\\c-e]'].map((source) => [source, ['\x01', '\n', '\\c1', '\\c_', '\\c', 'a\\c', '\x11', '\x1f', '*', '\\', 'c', '\x1a', '\\ccc', '-', 'd']]),
    ['[^]', '[]', '[]a', '[^]*', 'a[]*b', '[-a]', '[a-]', '[\\d-z]', '[a-\\d]', '[\\b]', '[--0]', '[\\B]', '[\\s-\\w]', '[.]', '[^\\W\\d]'].map((source) => [source, ['', 'a', 'ab', '-', 'z', '5', 'y', '\b', '/', 'B', '.', ' ', '_', '\n']]),
    ['\\b', '\\B', '^\\b', '\\b$', '\\B$', '^\\B$', 'a\\b', '\\ba', 'é\\b', '\\b\\B'].map((source) => [source, ['', 'a', ' ', 'a ', ' a', 'é', 'éa', 'aé', '_']]),
    ['|', 'a|', '|a', '(|a)b', '(?:)', '()*', '(a*)*b', '(a|b?)+c', '(?:a?)*?$', '^(a+)+$', '(a{2}){3}', 'a{0}', '^(?:a|aa){2,3}$', '^(a|)+$', '(?:(?:a*)*)*b'].map((source) => [source, ['', 'a', 'b', 'c', 'ab', 'aab', 'aaaaaa', 'aaaaaaa', 'aaaa']]),
    ['(?=a)*b', '(?=a){2}a', '(?!a)*a', '(?=a)+', '(?<=^|,)x', 'a(?=b)', '(?<!a)b', '(?=(?<=a)b)', '(?=a(?!b))', '(?<=\\b)a', '(?<=$)', '(?=^)', '(?<=a(?=b))b', '^(?=.*\\d)(?=.*[a-z]).{8,}$', '(?<=(?<!a)b)c'].map((source) => [source, ['', 'a', 'b', 'ab', 'ac', 'x', ',x', 'yx', 'bc', 'abc', 'password1', 'pass1', 'PASSWORD1']]),
    ['.', '^.$', '^..$', '^$', 'a$', '^a', '\\ud83d', '^[\\ud800-\\udbff][\\udc00-\\udfff]$', '[^\\ud83d]', '\\s', '\\S', '^\\s+$'].map((source) => [source, ['', '\n', '\r', '\u2028', '\u2029', '\u0085', 'a\n', '\na', '😀', '\ud83d', '\ude00', '\u00a0\ufeff', '\u180e', '\u200b']]),
    [['a{1000}', ['a'.repeat(999), 'a'.repeat(1000), 'b' + 'a'.repeat(1000)]], ['^.{1,999}$', ['', 'a'.repeat(999), 'a'.repeat(1000)]], ['^(?:ab){2,}$', ['ab', 'abab', 'ababa']], ['a{2147483647,}', ['', 'a']]],
  ].flat();

  test('on hand-picked cases: Annex B, \\b at the edges, empty alternatives, nested quantifiers, lookarounds, line terminators, surrogates', () => {
    for (const [source, samples] of TRICKY) assertSame(source, samples);
  });

  test('refuses what V8 refuses', () => {
    for (const source of ['a{2,1}', '*', 'a**', '(', ')', '[z-a]', '{1}', 'a|*', '^*', '\\b+', '(?<=a)*', '\\', '(?<n>a)(?<n>b)', '(?<n>a)\\k<m>', '[\\d-\\w']) {
      assert.equal(compiled(source), 'syntax', source);
    }
  });

  test('\\s, \\w, \\d, . and [^] take exactly the code units V8 takes', () => {
    const sources = ['\\s', '\\S', '\\w', '\\W', '\\d', '\\D', '.', '[^]', '[^\\s\\w]', '\\b'];
    const ours = sources.map((source) => compilePattern(source, { automaton: true }));
    const v8s = sources.map((source) => new RegExp(source));
    for (let c = 0; c <= 0xffff; c++) {
      const s = String.fromCharCode(c);
      for (let k = 0; k < sources.length; k++) if (ours[k].test(s) !== v8s[k].test(s)) assert.fail(`/${sources[k]}/ on U+${c.toString(16)}`);
    }
  });

  test("on Zod's own regular expressions, none refused", () => {
    const z = require('zod');
    const samples = ['', 'a', 'example.com', 'a.b-c.de', '-a.com', 'a'.repeat(64) + '.com', 'P1Y2M3DT4H5M6S', 'P1W', 'PT', 'P', '-P1D', '2024-02-29', '2023-02-29', '2024-02-29T12:00:00Z', '12:00:00.123', 'ada@example.com', 'a..b@c.de', '::1', '2001:db8::1', '1.2.3.4', '256.1.1.1', '10.0.0.0/8', 'aGVsbG8=', 'aGVsbG8', 'GB82WEST12345698765432', 'GB00WEST12345698765432', '+14155552671', '4111 1111 1111 1111', 'USD', '550e8400-e29b-41d4-a716-446655440000', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'true', '-12.5', '12n', 'AB:CD:EF:01:23:45'];
    let count = 0;
    for (const [name, made] of Object.entries(z.regexes)) {
      // Some are functions of options (z.regexes.time); those of no option are kept.
      let regex = made;
      try {
        if (typeof made === 'function') regex = made({});
      } catch {
        continue;
      }
      if (!(regex instanceof RegExp) || regex.flags !== '' || /undefined/.test(regex.source)) continue;
      const p = compiled(regex.source);
      assert.ok(typeof p === 'object', `z.regexes.${name} is ${p}`);
      for (const s of samples) assert.equal(p.test(s), regex.test(s), `z.regexes.${name} on ${JSON.stringify(s)}`);
      count++;
    }
    assert.ok(count > 40, `${count} regular expressions`);
  });

  test('fromZod keeps .regex() as a pattern that accepts what zod accepts, lookarounds included', () => {
    const z = require('zod');
    const { fromZod, compile } = require('..');
    const samples = ['', 'abc', 'abc1', 'Abc1def', 'abcdefg1', 'a1', 'x-y', '1abcdefgh', 'ABCDEFGH1'];
    for (const regex of [/^(?=.*\d)(?=.*[a-z])[a-z\d]{4,}$/, /^(?!-)[a-z-]+(?<!-)$/, /\b[a-z]+\d\b/, /^(a+)+$/]) {
      const schema = z.string().regex(regex);
      const codec = compile(fromZod(schema));
      for (const s of samples) assert.equal(codec.check(s).ok, schema.safeParse(s).success, `${regex} on ${JSON.stringify(s)}`);
    }
  });
});

describe('a pattern of one set of code units, anchored, runs as a loop over the units', () => {
  // `^set$`, `^set+$`, `^set{m,n}$`: lib/pattern.js, `Units` (the default path, not the
  // automaton), against V8 on every kind of unit and at the length bounds.
  const SETS = ['[a-z0-9]', '[a-z0-9_-]', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '.', '[^]', '[^,]', '[\\u00a0-\\uffff]', '[\\ud800-\\udbff]', '[^a-z]', 'a', '\\u2028', '[]', '[é\\ude00]'];
  const QUANTIFIERS = ['', '+', '*', '?', '+?', '{2}', '{0,3}', '{2,}', '{1,300}', '{0}'];
  const longs = ['a'.repeat(299), 'a'.repeat(300), 'a'.repeat(301), '1'.repeat(300) + '\n'];

  test('on generated strings', () => {
    for (const set of SETS) {
      for (const q of QUANTIFIERS) {
        const source = `^${set}${q}$`;
        const p = compilePattern(source);
        assert.notEqual(p.units, null, source);
        fc.assert(
          fc.property(fc.array(strings, { minLength: 1, maxLength: 8 }), (samples) => {
            for (const s of [...samples, ...longs]) assert.equal(p.test(s), new RegExp(source).test(s), `/${source}/.test(${JSON.stringify(s)})`);
          }),
          { numRuns: 60 },
        );
      }
    }
  });

  test('and only such patterns', () => {
    for (const source of ['[a-z]+', '^[a-z]+', '[a-z]+$', '^(?:a|b)+$', '^[a-z]+\\.$', '^a|b$', '^(?:a|bc)+$']) {
      const p = compilePattern(source);
      if (p.units !== null) assert.fail(`${source} took the loop`);
      for (const s of ['', 'a', 'ab', 'a.', 'b', 'A']) assert.equal(p.test(s), new RegExp(source).test(s), `/${source}/.test(${JSON.stringify(s)})`);
    }
  });
});

describe('V8 runs a pattern only where its backtracking is provably linear', () => {
  test('no loop but over one set, at most one along a path, anchored if it has one, and few paths', () => {
    for (const [source, byV8] of [
      ['^[a-z0-9_-]{3,16}$', true],
      ['^[a-z0-9_-]{3,32}$', true],
      ['^\\d+(\\.\\d{1,2})?$', true],
      ['^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}$', true],
      ['abc|d', true],
      ['^a*|^b+c', true],
      // Three loops along a path: past what the rule proves (V8 happens to be linear here).
      ['^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$', false],
      // A loop, unanchored: V8 took 6.8 s on 'a'.repeat(40_000) + '!'.
      ['[a-z]+$', false],
      ['^a*|b*$', false],
      ['^a*b*$', false],
      ['^(a+)+$', false],
      ['^(a|b)*$', false],
      ['^(a|a){1,20}$', false],
      ['^.{1,300}$', false],
      ['^(?=a)a', false],
      ['(?:)*', false],
    ]) {
      assert.equal(compilePattern(source).regexp !== null, byV8, source);
    }
  });
});

describe('patterns that cannot run in linear time, or are too large, are refused when the schema is built', () => {
  const { t, compile, fromZod } = require('..');
  const { assertShornError } = require('./helpers');
  const BACKREFERENCE = 'matches what a group captured, which no linear-time matcher can follow (the language is not regular)';

  test('a backreference: t.string, compile of a descriptor, fromZod', () => {
    assertShornError(() => t.string({ pattern: '(a)\\1' }), {
      code: 'ERR_SHORN_SCHEMA',
      message: `invalid schema: t.string: pattern "(a)\\\\1" is refused: its backreference \\1 (at offset 3) ${BACKREFERENCE}`,
    });
    assertShornError(() => t.string({ pattern: /(?<x>a)\k<x>/ }), {
      code: 'ERR_SHORN_SCHEMA',
      message: `invalid schema: t.string: pattern "(?<x>a)\\\\k<x>" is refused: its backreference \\k<x> (at offset 7) ${BACKREFERENCE}`,
    });
    for (const codegen of [true, false]) {
      assertShornError(() => compile({ type: 'object', fields: [{ name: 's', schema: { type: 'string', pattern: '(a)(b)\\2' } }] }, { codegen }), {
        code: 'ERR_SHORN_SCHEMA',
        message: `invalid schema at $.s: pattern "(a)(b)\\\\2" is refused: its backreference \\2 (at offset 6) ${BACKREFERENCE}`,
      });
    }
    const z = require('zod');
    assertShornError(() => fromZod(z.object({ s: z.string().regex(/(a)\1/) })), { code: 'ERR_SHORN_SCHEMA', message: /pattern "\(a\)\\\\1" is refused: its backreference \\1/ });
    // Without a group to refer to, \1 is an octal escape and \k a letter (Annex B).
    assert.equal(compile(t.string({ pattern: '^\\1\\k$' })).check('\x01k').ok, true);
  });

  test(`past the caps: ${MAX_NODES} NFA nodes, groups ${MAX_DEPTH} deep, ${MAX_LOOKAROUNDS} lookarounds`, () => {
    const nested = (depth) => '('.repeat(depth) + 'a' + ')'.repeat(depth);
    for (const [ok, refused, why] of [
      [`a{${MAX_NODES}}`, `a{${MAX_NODES + 1}}`, `its automaton has more than ${MAX_NODES} nodes (counted repetitions copy what they repeat)`],
      ['(a{100}){20}', '(a{100}){21}', `its automaton has more than ${MAX_NODES} nodes (counted repetitions copy what they repeat)`],
      [nested(MAX_DEPTH), nested(MAX_DEPTH + 1), `its groups (at offset ${MAX_DEPTH}) nest more than ${MAX_DEPTH} deep`],
      ['(?=a)'.repeat(MAX_LOOKAROUNDS), '(?=a)'.repeat(MAX_LOOKAROUNDS + 1), `it has more than ${MAX_LOOKAROUNDS} lookarounds`],
    ]) {
      t.string({ pattern: ok });
      assertShornError(() => t.string({ pattern: refused }), { code: 'ERR_SHORN_SCHEMA', message: `invalid schema: t.string: pattern ${JSON.stringify(refused)} is refused: ${why}` });
    }
    // A lookaround a repetition copies is one lookaround.
    t.string({ pattern: '(?:(?=a).){100}' });
  });

  test('a modifier group sets a flag: refused, by V8 or by shorn', () => {
    assertShornError(() => t.string({ pattern: '(?i:a)' }), { code: 'ERR_SHORN_SCHEMA', message: /pattern "\(\?i:a\)" is (not a valid RegExp|refused: its modifier group \(\?i: \(at offset 0\) sets a flag)/ });
  });
});
