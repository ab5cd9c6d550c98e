'use strict';
// The string formats (lib/formats.js) accept exactly what Zod v4's checks of the same
// name accept: each is compared with zod itself on edge cases and on a few thousand
// strings made by mutating valid ones (seeded, so a failure repeats), through the
// format functions and through a compiled codec of both marshallers.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { FORMATS } = require('../lib/formats');

// Node 20 and 22's optimized URL.canParse misreads one-byte strings with characters from
// U+0080 to U+00FF (false for `https://ü.example` once a caller is optimized), so zod's
// own answer for those changes during a run. zod is given a canParse that is never a fast
// API call, so it is compared with the parser's true answer, which shorn gives.
URL.canParse = function canParseSlowly(input) {
  try {
    new URL(input); // eslint-disable-line no-new
    return true;
  } catch {
    return false;
  }
};
const { z } = require('zod');
const { shorn, MODES, compileMode, mulberry32: random } = require('./helpers');

const { t } = shorn;

const ZOD = {
  email: z.email(),
  uuid: z.uuid(),
  url: z.url(),
  datetime: z.iso.datetime({ offset: true }),
  ipv4: z.ipv4(),
  ipv6: z.ipv6(),
};


// Valid examples and near misses per format, then characters mutations draw from.
const SEEDS = {
  email: {
    strings: [
      'ada@example.com', 'a@b.co', "o'brien@mail.ie", 'first.last+tag@sub.example.org', 'x_y-z@a-b.c-d.museum',
      'a.b.c@d.ef', '1@2.ab', "a'@b.cd", '.a@b.cd', 'a.@b.cd', 'a..b@c.de', 'a@b.c', 'a@-b.cd', 'a@b-.cd', 'a@b..cd',
      'a@.b.cd', 'a@b.cd.', 'a@b.c1', 'a@@b.cd', 'a@b@c.de', '@b.cd', 'a@', '', 'a b@c.de', 'ä@b.cd', 'a@b.cde\n',
      '\na@b.cd', 'a@B.CD', "'@b.cd", "a'b@c.de", '+@b.cd', '-@b.cd', '_@b.cd', 'a@1.cd', 'a@b.cd ', 'A@B.C-D.EF',
      'a@b.co.uk', 'a.b@c', 'a"b@c.de', 'a@b.c_d.ef', 'a@b_c.de',
    ],
    alphabet: "abcXYZ019._'+-@ \"é\n",
  },
  uuid: {
    strings: [
      '123e4567-e89b-12d3-a456-426614174000', '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', 'A987FBC9-4BED-3078-CF07-9141BA07C9F3',
      'a987fbc9-4bed-4078-8f07-9141ba07c9f3', 'a987fbc9-4bed-9078-8f07-9141ba07c9f3', 'a987fbc9-4bed-0078-8f07-9141ba07c9f3',
      'a987fbc9-4bed-8078-bf07-9141ba07c9f3', 'a987fbc9-4bed-8078-Bf07-9141ba07c9f3', 'a987fbc9-4bed-8078-cf07-9141ba07c9f3',
      'a987fbc94bed8078bf079141ba07c9f3', '{a987fbc9-4bed-4078-8f07-9141ba07c9f3}', 'g987fbc9-4bed-4078-8f07-9141ba07c9f3',
      'a987fbc9-4bed-4078-8f07-9141ba07c9f', 'a987fbc9-4bed-4078-8f07-9141ba07c9f33',
    ],
    alphabet: '0123456789abcdefABCDEFg-{}',
  },
  url: {
    strings: [
      'https://example.com', 'http://a.b/c?d=e#f', ' https://example.com ', 'mailto:ada@example.com', 'ftp://x',
      'https://exa\nmple.com', 'http:example.com', 'https:/path', 'example.com', '//example.com', 'https://', 'a:',
      'https://[::1]/', 'https://[::1', 'http://exa mple.com', 'file:///etc/hosts', 'https://ü.example', '\u00a0https://a.b',
      'https://a.b\u3000', 'https://a b', 'javascript:alert(1)', 'urn:isbn:0451450523', 'http://256.256.256.256', '',
      'https://user:pass@host:8080/p', 'https://host:99999', 'data:,hi', '\thttp://a.b\t',
    ],
    alphabet: 'ahtps:/.[]@?#%:1 \t\n\u00a0é',
  },
  datetime: {
    strings: [
      '2024-06-10T14:53:54Z', '2024-06-10T14:53:54.123Z', '2024-06-10T14:53:54+02:00', '2024-06-10T14:53:54.5-23:59',
      '2024-02-29T00:00:00Z', '2023-02-29T00:00:00Z', '2000-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '0000-02-29T00:00:00Z',
      '2024-04-31T00:00:00Z', '2024-04-30T23:59:59Z', '2024-13-01T00:00:00Z', '2024-00-01T00:00:00Z', '2024-01-00T00:00:00Z',
      '2024-06-10T24:00:00Z', '2024-06-10T23:60:00Z', '2024-06-10T23:00:60Z', '2024-06-10T14:53Z', '2024-06-10 14:53:54Z',
      '2024-06-10t14:53:54Z', '2024-06-10T14:53:54z', '2024-06-10T14:53:54', '2024-06-10T14:53:54.Z', '2024-06-10T14:53:54+0200',
      '2024-06-10T14:53:54+24:00', '2024-06-10T14:53:54+02:60', '+2024-06-10T14:53:54Z', '24-06-10T14:53:54Z',
      '2024-06-10T14:53:54.123456789Z', '2024-06-10T14:53:54Z ', '2096-02-29T00:00:00Z', '2100-02-29T00:00:00Z',
      '2400-02-29T00:00:00-00:00', '١٢٣٤-06-10T14:53:54Z',
    ],
    alphabet: '0123456789-T:Z+.zt ',
  },
  ipv4: {
    strings: [
      '0.0.0.0', '255.255.255.255', '192.168.1.1', '256.1.1.1', '1.1.1', '1.1.1.1.1', '01.1.1.1', '1.1.1.01', '1..1.1',
      '.1.1.1', '1.1.1.', '1.1.1.1 ', '1.1.1.1\n', '249.250.199.100', '1e1.1.1.1', '-1.1.1.1', '١.1.1.1', '', '1234.1.1.1',
    ],
    alphabet: '0123456789.5 x',
  },
  ipv6: {
    strings: [
      '::', '::1', '1::', '2001:db8::ff00:42:8329', '2001:0db8:0000:0000:0000:ff00:0042:8329', '::ffff:192.0.2.128',
      '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7', ':::', '1::2::3', '12345::', 'g::', '::1\n', '::@1\\',
      '[::1]', '::1%eth0', '1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:7:1.2.3.4', '::1.2.3', '::256.1.1.1', 'fe80::1', 'FE80::1',
      '', ':', '1:', ':1', '::ffff:1.2.3.4.5', 'a:b:c:d:e:f:a:b',
    ],
    alphabet: '0123456789abcdefABCDEF:.g%[] ',
  },
};

// Inputs chosen to sit on the edges of each rule (look-alike and full-width characters,
// zero-width and control characters, leap days, zone ids, embedded IPv4, percent-escapes,
// IDNs): each must be judged as zod judges it.
const TRICKY = {
  email: [
    'а@b.co', 'a＠b.co', 'A@B.COM', 'a@b.c0m', 'a@b.co\u200b', 'a+b@c.io', 'a--b@c.io', 'a@b--c.io', 'a@b.c-d', 'a@123.45',
    '"a"@b.co', 'a@[1.2.3.4]', 'a.b.c.d.e@f.g.h.ij', 'x@y.zz.', '_@_.co', 'a@b_.co', "a''@b.co", 'a@localhost', 'a@b.co.', 'a@b.co@c.de',
  ],
  uuid: [
    'ffffffff-ffff-ffff-ffff-FFFFFFFFFFFF', '00000000-0000-0000-0000-00000000000O', 'a987fbc9-4bed-8078-9f07-9141ba07c9f3',
    'A987FBC9-4BED-1078-AF07-9141BA07C9F3', 'a987fbc9-4bed-4078-8f07-9141ba07c9f3\n', ' a987fbc9-4bed-4078-8f07-9141ba07c9f3',
    'a987fbc9_4bed_4078_8f07_9141ba07c9f3', 'a987fbc9-4bed-4078-8f07-9141ba07c9g3', '００000000-0000-0000-0000-000000000000',
  ],
  url: [
    'HTTP://EXAMPLE.COM', 'http://[fe80::1%25eth0]', 'http://exa%20mple.com', 'https://例え.jp', 'https://xn--r8jz45g.jp', 'blob:https://a.b/x',
    'http://1.2.3.4.5', 'http://0x7f.1', 'http://[::1]:80', 'https:\\\\a.b', 'http://user@:80', 'http://a:b@c', '//', 'http://', 'http:/a', 'a',
    '1http://a.b', '\u0000http://a.b', 'http://a.b/\u0000', 'http://a.b\u2028', '  \t http://a.b \n ', 'http://ü.example', 'https://a.b/ü?x=ü#ü',
    'ws://a', 'web+foo:bar', 'http://%41.com', 'http://a..b', 'http://[1:2:3:4:5:6:7:8:9]', 'http://256.0.0.0', 'http://-a.b', 'http://a.b:65536',
  ],
  datetime: [
    '2024-06-10T14:53:54.123+02:00', '2024-06-10T14:53:54,5Z', '2024-06-10T14:53:54.-1Z', '9999-12-31T23:59:59.999999999999Z',
    '1600-02-29T00:00:00Z', '1700-02-29T00:00:00Z', '2000-02-29T00:00:00Z', '2024-06-10T14:53:54+00:00', '2024-06-10T14:53:54-00:00',
    '2024-06-10T14:53:54+23:59', '2024-06-10T14:53:54.1234Z', '2024-06-10T14:53:54.123+0200', '2024-06-10T14:53:54.123+02',
    '2024-06-10T14:53:54.123 +02:00', '2024-6-10T14:53:54Z', '2024-06-10T4:53:54Z', '2024-06-31T00:00:00Z', '2024-11-31T00:00:00Z',
    '2024-12-31T00:00:00Z', '0000-01-01T00:00:00Z', '2024-06-10T14:53:54.１Z', '２024-06-10T14:53:54Z', '2024-06-10T14:53:54.123456789+14:00',
  ],
  ipv4: ['0.0.0.00', '00.0.0.0', '255.255.255.256', '192.168.001.1', '1.2.3.4\u0000', '1.2.3.-4', '+1.2.3.4', '1.2.3.4.', '０.0.0.0', '127.1', '0x7f.0.0.1', '1.2.3.04', '10.0.0.255', '199.200.201.202'],
  ipv6: [
    '::ffff:0.0.0.0', '1::2:3:4:5:6:7', '1:2:3:4:5:6:7::', '::2:3:4:5:6:7:8', 'fe80::1%25eth0', '::1/64', '0:0:0:0:0:0:0:0', '1:2:3:4:5:6:7:8.1',
    '::ffff:01.2.3.4', '::ffff:1.2.3.04', '1:2:3:4:5::1.2.3.4', '1:2:3:4:5:6::1.2.3.4', 'ffff::ffff:255.255.255.255', '00000::', '0000::',
    '::0000:1', '1:::2', '::1::', 'FFFF:ffff::', '::1 ', '１::', ':::1', '1.2.3.4', '::1.2.3.4', '[::1]',
  ],
};

for (const name of Object.keys(FORMATS)) {
  test(`format ${name} judges tricky inputs as zod does`, () => {
    let accepted = 0;
    for (const s of TRICKY[name]) {
      const expected = ZOD[name].safeParse(s).success;
      assert.equal(FORMATS[name](s), expected, `${name} of ${JSON.stringify(s)}: zod says ${expected}`);
      if (expected) accepted++;
    }
    assert.ok(accepted > 0 && accepted < TRICKY[name].length, `${accepted} of ${TRICKY[name].length} accepted: both sides exercised`);
  });
}

// Strings to try for one format: the seeds, then random edits of them (insert, delete,
// replace a character; swap two; cut), a few of them piled up.
function cases(name, count) {
  const { strings, alphabet } = SEEDS[name];
  const next = random(0x5eed ^ name.length ^ (name.charCodeAt(0) << 8));
  const pick = (s) => s[Math.floor(next() * s.length)];
  const out = [...strings];
  while (out.length < count) {
    let s = pick(strings);
    const edits = 1 + Math.floor(next() * 3);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(next() * (s.length + 1));
      const kind = Math.floor(next() * 5);
      if (kind === 0) s = s.slice(0, at) + pick(alphabet) + s.slice(at);
      else if (kind === 1) s = s.slice(0, at) + s.slice(at + 1);
      else if (kind === 2) s = s.slice(0, at) + pick(alphabet) + s.slice(at + 1);
      else if (kind === 3 && s.length > 1) {
        const b = Math.floor(next() * s.length);
        const chars = [...s];
        [chars[at % chars.length], chars[b]] = [chars[b], chars[at % chars.length]];
        s = chars.join('');
      } else s = s.slice(0, at);
    }
    out.push(s);
  }
  return out;
}

const COUNT = 3000;

for (const name of Object.keys(FORMATS)) {
  test(`format ${name} accepts exactly what zod's check accepts (${COUNT} strings)`, () => {
    const strings = cases(name, COUNT);
    let accepted = 0;
    for (const s of strings) {
      const expected = ZOD[name].safeParse(s).success;
      const codes = [...s].map((c) => c.codePointAt(0).toString(16)).join(' ');
      assert.equal(FORMATS[name](s), expected, `${name} of ${JSON.stringify(s)} (${codes}): zod says ${expected}`);
      if (expected) accepted++;
    }
    // Both sides of the line are exercised.
    assert.ok(accepted >= 50 && accepted <= COUNT - 50, `${accepted} of ${COUNT} accepted`);
  });
}

// On encode and decode the Rust core checks email, uuid, ipv4 and datetime itself
// (src/types/formats.rs) and JS the others: every generated and tricky string is encoded
// and decoded by both marshallers and judged as zod judges it, with the message JS's
// describe would give.
for (const name of Object.keys(FORMATS)) {
  test(`format ${name}: encode and decode judge every string as zod does, in both marshallers`, () => {
    const { describe: show } = require('../lib/errors');
    const strings = [...cases(name, COUNT), ...TRICKY[name]].filter((s) => s.isWellFormed());
    const plain = compileMode(t.string(), MODES[0]);
    for (const mode of MODES) {
      const codec = compileMode(t.string({ format: name }), mode);
      for (const s of strings) {
        const bytes = plain.encode(s);
        if (ZOD[name].safeParse(s).success) {
          assert.deepStrictEqual(codec.encode(s), bytes, `${mode.name} ${name} ${JSON.stringify(s)}`);
          assert.equal(codec.decode(bytes), s, `${mode.name} ${name} ${JSON.stringify(s)}`);
        } else {
          assert.throws(
            () => codec.encode(s),
            (e) => e.code === 'ERR_SHORN_INVALID' && e.path === '$' && e.message === `$: expected string of format ${name}, found ${show(s)}`,
            `${mode.name} encode ${name} ${JSON.stringify(s)}`,
          );
          assert.throws(
            () => codec.decode(bytes),
            (e) => e.code === 'ERR_SHORN_INVALID' && e.offset === 0 && e.path === '$' && e.message === `invalid value at offset 0 ($): expected string of format ${name}, found ${show(s)}`,
            `${mode.name} ${name} ${JSON.stringify(s)}`,
          );
        }
      }
    }
  });
}

test('url: a URL with Latin-1 characters is judged the same after the check is optimized', () => {
  const url = 'https://ü.example/ä';
  for (let k = 0; k < 50_000; k++) assert.equal(FORMATS.url(url), true);
  assert.equal(FORMATS.url('https://ü .example'), false);
});

test('the seed strings of every format are judged as zod judges them, through encode and decode of both marshallers', () => {
  for (const mode of MODES) {
    for (const name of Object.keys(FORMATS)) {
      const codec = compileMode(t.string({ format: name }), mode);
      const plain = compileMode(t.string(), mode);
      for (const s of SEEDS[name].strings) {
        if (!s.isWellFormed()) continue;
        const ok = ZOD[name].safeParse(s).success;
        assert.equal(codec.check(s).ok, ok, `${mode.name} check ${name} ${JSON.stringify(s)}`);
        if (ok) {
          assert.equal(codec.decode(codec.encode(s)), s);
        } else {
          assert.throws(() => codec.encode(s), { code: 'ERR_SHORN_INVALID', path: '$' });
          const bytes = plain.encode(s);
          assert.throws(() => codec.decode(bytes), { code: 'ERR_SHORN_INVALID', path: '$', offset: 0 });
        }
      }
    }
  }
});
