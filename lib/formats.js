'use strict';
// The string formats of `t.string({ format })` (docs/FORMAT.md, "Constraints"). Each
// accepts exactly what the Zod v4 check of the same name accepts (`z.email()`,
// `z.uuid()`, `z.url()`, `z.iso.datetime({ offset: true })`, `z.ipv4()`, `z.ipv6()`), which
// __test__/formats.test.js checks against zod itself on edge cases and generated strings.
//
// email, uuid, datetime and ipv4 are zod's own regular expressions (zod 4.6.7's sources,
// which __test__/zod.test.js checks are still the installed zod's): the same language by
// construction, and the fastest form measured. Hand-written loops over char codes were
// tried first, and V8's compiled regular expressions beat them on every format: 742 vs
// 997 instructions per call for 'ada@example.com' (callgrind), 1026 vs 1533 for a UUID,
// 406 vs 593 for an IPv4 address; in CPU time 1.2x to 1.9x faster. On hostile long inputs
// both are linear (the email regex at ~100-200 ns a character on 'a.a.a...': a 4 MB string
// took ~0.65 s, as it does in zod); a `maxLength`, checked natively before any format,
// bounds that. url and ipv6 are what zod asks of the WHATWG URL parser, asked of the same
// parser (a Node bug aside: see `url`). On encode and decode, the Rust core checks email,
// uuid, ipv4 and datetime itself (src/types/formats.rs), on the bytes, without a JS call
// per string; these expressions are for what JS must judge itself (a union's choice of
// variant, `check`, a format beside a pattern). Native, a personValidated encode runs
// ~590 fewer instructions of JS and RegExp code and ~340 more native ones (callgrind),
// and ~25% more encodes a second (A/B, alternating processes).

// The sources, shared with lib/zod.js (which recognises zod's formats by them).
const SOURCES = {
  email: "^(?:[A-Za-z0-9_'+\\-]+\\.)*[A-Za-z0-9_'+\\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
  uuid: '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$',
  ipv4: '^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$',
  datetime:
    '^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$',
};

// Without flags, as zod tests them (zod resets lastIndex; these have no `g` to need it).
const EMAIL = new RegExp(SOURCES.email);
const UUID = new RegExp(SOURCES.uuid);
const IPV4 = new RegExp(SOURCES.ipv4);
const DATETIME = new RegExp(SOURCES.datetime);

/** Zod's "practical" email. */
const email = (s) => EMAIL.test(s);
/** An RFC 9562 UUID (versions 1-8, variant 10xx), or the nil or the max UUID. */
const uuid = (s) => UUID.test(s);
/** `z.iso.datetime({ offset: true })`: a real date, `T`, a time with seconds, `Z` or an offset. */
const datetime = (s) => DATETIME.test(s);
/** Dotted-quad IPv4 without leading zeros. */
const ipv4 = (s) => IPV4.test(s);

const { canParse } = URL;

const NON_ASCII = /[^\x00-\x7f]/;

/** An absolute URL the WHATWG URL parser takes, after trimming white space at both ends. */
function url(s) {
  const trimmed = s.trim();
  if (!NON_ASCII.test(trimmed)) return canParse(trimmed);
  // Node 20 and 22's optimized URL.canParse (a V8 fast API call) reads a one-byte string
  // as UTF-8, so `https://ü.example` turns false after a few thousand calls (Node 24 is
  // right). A URL object made the slow way gives the parser's true answer every time.
  try {
    new URL(trimmed); // eslint-disable-line no-new
    return true;
  } catch {
    return false;
  }
}

// zod's alphabet check before the parser: hex digits, `:` and `.` only, so nothing in the
// string re-delimits the URL below (`::@1\\` would parse as the host 0.0.0.1).
const IPV6_ALPHABET = /^[0-9a-fA-F:.]+$/;

/** An IPv6 address (embedded IPv4 included), as the WHATWG URL parser reads one. */
function ipv6(s) {
  return IPV6_ALPHABET.test(s) && canParse(`http://[${s}]`);
}

const FORMATS = { email, uuid, url, datetime, ipv4, ipv6 };

module.exports = { FORMATS, SOURCES };
