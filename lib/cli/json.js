'use strict';
// JSON text in, for the command line. JSON.parse where it serves (it is the fastest), and
// a parser of our own where it cannot: to say where a syntax error is (Node 20's messages
// often give no position: `Unexpected token '<', "<html>..." is not valid JSON`), and to
// keep integers beyond 2^53 exact (as bigints, for int64 and uint64 fields), which
// JSON.parse rounds. The parser accepts exactly what JSON.parse accepts (RFC 8259) and
// builds the same values (a `__proto__` key is an own property; a repeated key keeps its
// first place and its last value); it is iterative, so depth costs no stack.
//
// JSON text out: JSON.stringify, except that a bigint is written as the integer literal it
// is (JSON.stringify throws on one) and -0 as -0 (JSON.stringify writes 0): `decode` writes
// an int64 or uint64 beyond 2^53 as a number, exactly, which `encode` reads back exactly
// (docs/CLI.md, "JSON in and out"), and a float's -0 as the number it is.

class JsonSyntaxError extends Error {
  constructor(message, offset, line, column) {
    super(`${message} at line ${line}, column ${column}`);
    this.reason = message;
    this.offset = offset;
    this.line = line;
    this.column = column;
  }

  get name() {
    return 'JsonSyntaxError';
  }
}

/** 1-based line and column (in UTF-16 units) of `offset` in `text`. */
function lineColumn(text, offset) {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

const ESCAPES = { 34: '"', 92: '\\', 47: '/', 98: '\b', 102: '\f', 110: '\n', 114: '\r', 116: '\t' };

function isDigit(c) {
  return c >= 48 && c <= 57;
}

/**
 * The integer a number literal with a fraction or an exponent stands for, exactly, as a
 * bigint (`1.8446744073709551615e19` is 18446744073709551615n), or null when it is no
 * integer (`1.00000000000000000001e19`). Only asked for literals whose double is a whole
 * number beyond the safe integers, so the exponent is at most about 308.
 */
function exactInteger(literal) {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(literal);
  if (m === null) return null;
  const fraction = m[3] ?? '';
  let digits = m[2] + fraction;
  let scale = Number(m[4] ?? 0) - fraction.length;
  if (scale < 0) {
    // The digits below the point must all be zeros.
    const cut = digits.length + scale;
    if (cut < 0 || !/^0*$/.test(digits.slice(cut))) return null;
    digits = digits.slice(0, cut);
    scale = 0;
  }
  const value = BigInt(digits || '0') * 10n ** BigInt(scale);
  return m[1] === '-' ? -value : value;
}

function describeAt(text, i) {
  if (i >= text.length) return 'Unexpected end of input';
  const c = text.codePointAt(i);
  return `Unexpected character ${c < 0x20 || c === 0x7f ? `U+${c.toString(16).padStart(4, '0')}` : JSON.stringify(String.fromCodePoint(c))}`;
}

class Parser {
  constructor(text, exactIntegers, start, end) {
    this.text = text;
    this.i = start;
    this.end = end;
    this.exactIntegers = exactIntegers;
  }

  fail(message, at = this.i) {
    const { line, column } = lineColumn(this.text, at);
    return new JsonSyntaxError(message, at, line, column);
  }

  space() {
    const { text, end } = this;
    let i = this.i;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
      i++;
    }
    this.i = i;
  }

  // At the opening quote.
  string() {
    const { text, end } = this;
    const open = this.i;
    let i = open + 1;
    let out = '';
    let from = i;
    for (;;) {
      if (i >= end) throw this.fail('Unterminated string', open);
      const c = text.charCodeAt(i);
      if (c === 34) {
        this.i = i + 1;
        return out + text.slice(from, i);
      }
      if (c === 92) {
        out += text.slice(from, i);
        const e = i + 1 < end ? text.charCodeAt(i + 1) : -1;
        if (e === 117) {
          const hex = text.slice(i + 2, i + 6);
          if (i + 6 > end || !/^[0-9a-fA-F]{4}$/.test(hex)) throw this.fail('Bad \\u escape in string', i);
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else if (e !== -1 && Object.hasOwn(ESCAPES, e)) {
          out += ESCAPES[e];
          i += 2;
        } else {
          throw e === -1 ? this.fail('Unterminated string', open) : this.fail('Bad escape in string', i);
        }
        from = i;
        continue;
      }
      if (c < 0x20) throw this.fail('Bad control character in string', i);
      i++;
    }
  }

  number() {
    const { text } = this;
    const from = this.i;
    let i = from;
    let integer = true;
    if (text.charCodeAt(i) === 45) i++;
    if (text.charCodeAt(i) === 48) i++;
    else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
    else throw this.fail('No number after a minus sign', i);
    if (text.charCodeAt(i) === 46) {
      i++;
      integer = false;
      if (!isDigit(text.charCodeAt(i))) throw this.fail('Unterminated fractional number', i);
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const e = text.charCodeAt(i);
    if (e === 101 || e === 69) {
      i++;
      integer = false;
      const s = text.charCodeAt(i);
      if (s === 43 || s === 45) i++;
      if (!isDigit(text.charCodeAt(i))) throw this.fail('Exponent part is missing a number', i);
      while (isDigit(text.charCodeAt(i))) i++;
    }
    this.i = i;
    const literal = text.slice(from, i);
    const n = Number(literal);
    if (!this.exactIntegers || Number.isSafeInteger(n)) return n;
    if (integer) return BigInt(literal);
    // A fraction or an exponent: exact too where its value is an integer (1.8e19), which
    // its double, a whole number beyond the safe integers, may have rounded.
    return Number.isInteger(n) ? (exactInteger(literal) ?? n) : n;
  }

  word(w, value) {
    if (this.text.startsWith(w, this.i) && this.i + w.length <= this.end) {
      this.i += w.length;
      return value;
    }
    throw this.fail(describeAt(this.text, this.i));
  }

  key() {
    this.space();
    if (this.text.charCodeAt(this.i) !== 34) throw this.fail(this.i >= this.end ? 'Unexpected end of input' : 'Expected a double-quoted property name');
    const k = this.string();
    this.space();
    if (this.text.charCodeAt(this.i) !== 58) throw this.fail(this.i >= this.end ? 'Unexpected end of input' : "Expected ':' after a property name");
    this.i++;
    return k;
  }

  value() {
    const { text, end } = this;
    // The containers being filled, innermost last: { array } or { object, key }.
    const stack = [];
    let value;
    for (;;) {
      // A value starts here.
      this.space();
      if (this.i >= end) throw this.fail('Unexpected end of input');
      const c = text.charCodeAt(this.i);
      if (c === 123) {
        this.i++;
        this.space();
        if (text.charCodeAt(this.i) === 125) {
          this.i++;
          value = {};
        } else {
          stack.push({ array: null, object: {}, key: this.key() });
          continue;
        }
      } else if (c === 91) {
        this.i++;
        this.space();
        if (text.charCodeAt(this.i) === 93) {
          this.i++;
          value = [];
        } else {
          stack.push({ array: [], object: null, key: null });
          continue;
        }
      } else if (c === 34) value = this.string();
      else if (c === 45 || isDigit(c)) value = this.number();
      else if (c === 116) value = this.word('true', true);
      else if (c === 102) value = this.word('false', false);
      else if (c === 110) value = this.word('null', null);
      else throw this.fail(describeAt(text, this.i));

      // A value is complete: put it in its container, and close those that end here.
      for (;;) {
        const top = stack.length === 0 ? undefined : stack[stack.length - 1];
        this.space();
        if (top === undefined) {
          if (this.i < end) throw this.fail('Unexpected data after the JSON value');
          return value;
        }
        const next = this.i < end ? text.charCodeAt(this.i) : -1;
        if (top.array !== null) {
          top.array.push(value);
          if (next === 44) {
            this.i++;
            break;
          }
          if (next !== 93) throw this.fail(next === -1 ? 'Unexpected end of input' : "Expected ',' or ']' after an array item");
          this.i++;
          value = top.array;
        } else {
          const o = top.object;
          // A `__proto__` key is an own property, as JSON.parse makes it.
          if (top.key === '__proto__') Object.defineProperty(o, '__proto__', { value, writable: true, enumerable: true, configurable: true });
          else o[top.key] = value;
          if (next === 44) {
            this.i++;
            top.key = this.key();
            break;
          }
          if (next !== 125) throw this.fail(next === -1 ? 'Unexpected end of input' : "Expected ',' or '}' after a property value");
          this.i++;
          value = o;
        }
        stack.pop();
      }
    }
  }
}

/**
 * Parses `text` (from `start` to `end`). With `exactIntegers`, a number literal whose value
 * is an integer beyond the safe integers becomes that bigint, exactly (an integer literal,
 * or one with a fraction or exponent that is a whole number: 1.8e19). Throws a
 * JsonSyntaxError with the offset, line and column of the first fault.
 */
function parse(text, { exactIntegers = false, start = 0, end = text.length } = {}) {
  return new Parser(text, exactIntegers, start, end).value();
}

/** The position of the first syntax error in `text` (which JSON.parse refused). */
function syntaxError(text, options) {
  try {
    parse(text, options);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return e;
    throw e;
  }
  // JSON.parse and this parser disagree: report JSON.parse's own words.
  try {
    JSON.parse(text);
  } catch (e) {
    return new JsonSyntaxError(e.message, 0, 1, 1);
  }
  return null;
}

/**
 * The JSON values of a text: one JSON value, or NDJSON (one value per line; blank lines
 * skipped) when `ndjson` is true, or when it is 'auto' and the text is not one value but
 * its first line is. Returns `[{ value, line }]`. A leading byte order mark is ignored.
 * Throws a JsonSyntaxError naming the line and column.
 */
function parseValues(text, { ndjson = 'auto', exactIntegers = false, onLine } = {}) {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (ndjson !== true) {
    let error = null;
    if (!exactIntegers) {
      try {
        return [{ value: JSON.parse(text), line: 1 }];
      } catch {
        error = syntaxError(text);
      }
    } else {
      try {
        return [{ value: parse(text, { exactIntegers }), line: 1 }];
      } catch (e) {
        if (!(e instanceof JsonSyntaxError)) throw e;
        error = e;
      }
    }
    const newline = text.indexOf('\n');
    const looksNd = ndjson === 'auto' && newline !== -1 && error.offset > newline && firstLineParses(text, newline);
    if (!looksNd) throw error;
  }
  const values = [];
  let line = 1;
  for (let from = 0; from < text.length; line++) {
    let to = text.indexOf('\n', from);
    if (to === -1) to = text.length;
    if (onLine && (line & 1023) === 0) onLine(from, text.length);
    const lineText = text.slice(from, to);
    if (lineText.trim() !== '') values.push({ value: parseLine(lineText, { line, from, exactIntegers }), line });
    from = to + 1;
  }
  return values;
}

/**
 * One NDJSON line (not blank), line number `line` of its text, starting at offset `from`:
 * its value, or a JsonSyntaxError naming that line and the column in it.
 */
function parseLine(lineText, { line, from = 0, exactIntegers = false }) {
  try {
    return exactIntegers ? parse(lineText, { exactIntegers }) : JSON.parse(lineText);
  } catch (e) {
    const found = e instanceof JsonSyntaxError ? e : syntaxError(lineText);
    if (found === null) throw e;
    throw new JsonSyntaxError(found.reason, from + found.offset, line, found.column);
  }
}

function firstLineParses(text, newline) {
  try {
    JSON.parse(text.slice(0, newline));
    return true;
  } catch {
    return false;
  }
}

/**
 * `JSON.stringify(value, null, indent)`, with bigints written as integer literals and -0
 * as the literal -0 (JSON.stringify writes 0). The same text as JSON.stringify for every
 * other value (`toJSON` called, undefined, functions and symbols left out of objects and
 * null in arrays, non-finite numbers null).
 */
function stringify(value, indent = 0) {
  const gap = typeof indent === 'number' ? ' '.repeat(Math.min(10, Math.max(0, indent))) : '';
  return write(value, '', gap, '');
}

// Recursive, as JSON.stringify is: the depth is the value's, which a decode bounds
// (maxDepth, 128 by default).
function write(value, key, gap, indent) {
  if (value !== null && typeof value === 'object' && typeof value.toJSON === 'function') value = value.toJSON(key);
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'string':
      return JSON.stringify(value);
    case 'number':
      // -0 as the literal -0 (JSON.stringify writes 0), which JSON.parse reads as -0.
      return Number.isFinite(value) ? (Object.is(value, -0) ? '-0' : JSON.stringify(value)) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return undefined; // undefined, a function, a symbol
  }
  if (value === null) return 'null';
  const inner = indent + gap;
  const open = gap === '' ? '' : `\n${inner}`;
  const comma = gap === '' ? ',' : `,\n${inner}`;
  const close = gap === '' ? '' : `\n${indent}`;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    let out = '[';
    for (let k = 0; k < value.length; k++) {
      const v = value[k];
      // Numbers inline: arrays of them are the long ones (coordinates, typed arrays).
      const item = typeof v === 'number' ? (Number.isFinite(v) ? (Object.is(v, -0) ? '-0' : String(v)) : 'null') : write(v, String(k), gap, inner);
      out += (k === 0 ? open : comma) + (item === undefined ? 'null' : item);
    }
    return `${out + close}]`;
  }
  let out = '';
  for (const k of Object.keys(value)) {
    const item = write(value[k], k, gap, inner);
    if (item === undefined) continue;
    out += (out === '' ? open : comma) + JSON.stringify(k) + (gap === '' ? ':' : ': ') + item;
  }
  return out === '' ? '{}' : `{${out}${close}}`;
}

module.exports = { parse, parseValues, parseLine, syntaxError, lineColumn, stringify, JsonSyntaxError };
