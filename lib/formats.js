'use strict';
// The string formats of `t.string({ format })` (docs/FORMAT.md, "Constraints"). Each
// accepts exactly what the Zod v4 check of the same name accepts (`z.email()`,
// `z.uuid()`, `z.url()`, `z.iso.datetime({ offset: true })`, `z.ipv4()`, `z.ipv6()`), which
// __test__/formats.test.js checks against zod itself on generated and edge-case strings.
// email, uuid, datetime and ipv4 are Zod's regular expressions written out as loops over
// char codes: the same language, in a few nanoseconds where the email regex took ~60-120
// ns (it backtracks over the local part). url and ipv6 are what Zod asks of the WHATWG URL
// parser, asked of the same parser (a Node bug aside: see `url`).

const { canParse } = URL;

const isDigit = (c) => c >= 48 && c <= 57;
const isLetter = (c) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAlphanumeric = (c) => isDigit(c) || isLetter(c);
const isHex = (c) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
// The local part's characters: letters, digits, _ ' + -.
const isLocal = (c) => isAlphanumeric(c) || c === 95 || c === 39 || c === 43 || c === 45;

const DOT = 46;

/**
 * Zod's "practical" email: a local part of dot-separated, non-empty runs of letters,
 * digits and `_ ' + -` whose last character is not `'`; one `@`; then two or more
 * dot-separated labels, each starting with a letter or digit and going on with letters,
 * digits and `-`, the last one two or more letters only. ASCII only.
 */
function email(s) {
  const at = s.indexOf('@');
  if (at < 1) return false;
  let start = 0;
  for (let k = 0; k < at; k++) {
    const c = s.charCodeAt(k);
    if (c === DOT) {
      if (k === start) return false;
      start = k + 1;
    } else if (!isLocal(c)) {
      return false;
    }
  }
  if (start === at || s.charCodeAt(at - 1) === 39) return false;
  const n = s.length;
  let label = at + 1;
  let dots = 0;
  for (let k = at + 1; k < n; k++) {
    const c = s.charCodeAt(k);
    if (c === DOT) {
      if (k === label) return false;
      dots++;
      label = k + 1;
    } else if (k === label ? !isAlphanumeric(c) : !(isAlphanumeric(c) || c === 45)) {
      // A second `@` ends here too.
      return false;
    }
  }
  if (dots === 0 || n - label < 2) return false;
  for (let k = label; k < n; k++) if (!isLetter(s.charCodeAt(k))) return false;
  return true;
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const MAX_UUID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/**
 * An RFC 9562 UUID as Zod's `z.uuid()` takes it: 8-4-4-4-12 hex digits (either case)
 * with a version digit 1 to 8 and a variant digit 8, 9, a or b (either case); or the nil
 * UUID, or the max UUID in lower case.
 */
function uuid(s) {
  if (s.length !== 36) return false;
  if (s === NIL_UUID || s === MAX_UUID) return true;
  for (let k = 0; k < 36; k++) {
    const c = s.charCodeAt(k);
    if (k === 8 || k === 13 || k === 18 || k === 23) {
      if (c !== 45) return false;
    } else if (!isHex(c)) {
      return false;
    }
  }
  const version = s.charCodeAt(14);
  const variant = s.charCodeAt(19) | 32; // lower case
  return version >= 49 && version <= 56 && (variant === 56 || variant === 57 || variant === 97 || variant === 98);
}

// Two digits at `k` as a number, or -1.
function twoDigits(s, k) {
  const a = s.charCodeAt(k);
  const b = s.charCodeAt(k + 1);
  return isDigit(a) && isDigit(b) ? (a - 48) * 10 + (b - 48) : -1;
}

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * `z.iso.datetime({ offset: true })`: `YYYY-MM-DDTHH:MM:SS`, a real calendar date (29
 * February in Gregorian leap years only; four-digit years, 0000 included), hours 00-23,
 * minutes and seconds 00-59; optional `.` and one or more fraction digits; then `Z` or an
 * offset `+HH:MM` / `-HH:MM` (hours 00-23). Upper-case `T` and `Z` only.
 */
function datetime(s) {
  const n = s.length;
  if (n < 20) return false;
  const hi = twoDigits(s, 0);
  const lo = twoDigits(s, 2);
  if (hi < 0 || lo < 0 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84) return false;
  const year = hi * 100 + lo;
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS[month])) return false;
  if (!clock(s, 11) || s.charCodeAt(16) !== 58 || !(twoDigits(s, 17) >= 0 && twoDigits(s, 17) <= 59)) return false;
  let k = 19;
  if (s.charCodeAt(k) === DOT) {
    k++;
    const first = k;
    while (k < n && isDigit(s.charCodeAt(k))) k++;
    if (k === first) return false;
  }
  const c = s.charCodeAt(k);
  if (c === 90) return k + 1 === n; // Z
  return (c === 43 || c === 45) && k + 6 === n && clock(s, k + 1);
}

// `HH:MM` at `k`: hours 00-23, minutes 00-59.
function clock(s, k) {
  const h = twoDigits(s, k);
  const m = twoDigits(s, k + 3);
  return h >= 0 && h <= 23 && s.charCodeAt(k + 2) === 58 && m >= 0 && m <= 59;
}

/** Dotted-quad IPv4: four decimal numbers 0-255, without leading zeros (`0` itself aside). */
function ipv4(s) {
  const n = s.length;
  let parts = 0;
  let k = 0;
  while (k <= n) {
    const start = k;
    let value = 0;
    while (k < n && isDigit(s.charCodeAt(k))) {
      value = value * 10 + (s.charCodeAt(k) - 48);
      k++;
    }
    const digits = k - start;
    if (digits === 0 || digits > 3 || value > 255 || (digits > 1 && s.charCodeAt(start) === 48)) return false;
    parts++;
    if (k === n) return parts === 4;
    if (s.charCodeAt(k) !== DOT || parts === 4) return false;
    k++;
  }
  return false;
}

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

/**
 * An IPv6 address: only hex digits, `:` and `.` (so nothing re-delimits the URL below),
 * and a host the WHATWG URL parser reads as an IPv6 address (embedded IPv4 included).
 */
function ipv6(s) {
  const n = s.length;
  if (n === 0) return false;
  for (let k = 0; k < n; k++) {
    const c = s.charCodeAt(k);
    if (!(isHex(c) || c === 58 || c === DOT)) return false;
  }
  return canParse(`http://[${s}]`);
}

const FORMATS = { email, uuid, url, datetime, ipv4, ipv6 };

module.exports = { FORMATS };
