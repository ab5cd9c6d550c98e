'use strict';
// `shorn inspect`'s output: a message's byte ranges as a hex dump with the path and value
// each holds, or as JSON rows. The walk that finds them is lib/inspect.js (shared with the
// JS back end's exact decode, so the browser build carries the walk without this file);
// `inspectBytes`, the walk as `shorn inspect` runs it (rows kept, a stop), is here.

const { ShornError } = require('../errors');
const { walkError, Inspector, DEFAULT_LIMITS } = require('../inspect');
const { jsonForms } = require('../generic');
const { stringify } = require('./json');

// Thrown by the walk's row callback to end the walk at `stopAt` (caught in inspectBytes).
const STOP = Symbol('inspect: stop the walk');

/**
 * Walks `bytes` as one message of `descriptor`. Returns `{ rows, value, error, end }`:
 * `rows` in byte order ({ offset, end, path, d, value, note }), the decoded `value` when
 * the walk succeeds, else `error` (a ShornError with code, offset and path), and `end`,
 * where the walk stopped.
 *
 * With `onRow`, each row is handed to it as the walk finds it and none is kept (`rows` is
 * empty), so a dump holds one row at a time. With `stopAt`, the walk ends at the first row
 * of one byte or more that starts there or later (where a dump of an error at `stopAt`
 * stops), with `stopped` true and no `error`: a message the native decoder refused (over
 * its decode budget, which the walk does not estimate) is not walked to its end.
 */
function inspectBytes(descriptor, bytes, limits, { onRow, stopAt } = {}) {
  const r = new Inspector(bytes, descriptor, limits);
  if (onRow !== undefined || stopAt !== undefined) {
    const keep = onRow ?? ((row) => r.rows.push(row));
    r.onRow = stopAt === undefined ? keep : (row) => {
      if (row.offset >= stopAt && row.end > row.offset) throw STOP;
      keep(row);
    };
  }
  let value;
  let error = null;
  let stopped = false;
  try {
    value = r.value(descriptor);
    if (r.remaining !== 0) {
      error = walkError('ERR_SHORN_TRAILING', r.pos, '$', `trailing bytes after the message, from offset ${r.pos}`);
    } else if (r.deferred !== null) {
      error = r.deferred;
    }
  } catch (e) {
    if (e === STOP) stopped = true;
    else if (!(e instanceof ShornError)) throw e;
    else error = e;
  }
  return { rows: r.rows, value: error || stopped ? undefined : value, error, end: r.pos, stopped };
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const PER_LINE = 16;

function hexOf(bytes, from, to) {
  const out = [];
  for (let i = from; i < to; i++) out.push(HEX[bytes[i]]);
  return out.join(' ');
}

function shorten(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The JSON form of a row's value as one line, cut to `max` characters. */
function shown(forms, row, max) {
  let json;
  try {
    json = stringify(forms.toJson(row.d, row.value));
  } catch {
    json = String(row.value);
  }
  return shorten(json === undefined ? 'undefined' : json, max);
}

/**
 * The annotated hex dump of one message, a row at a time: one line per byte range (`0005
 * d2 09  $.id = 1234`), ranges over `maxRowBytes` cut with a count of what is left, and
 * the error, if any, at its offset. `error` is the error to show (the native decoder's,
 * when it has one); `out(line)` takes each line as it is made.
 */
class Dump {
  constructor(descriptor, bytes, { error = null, maxRowBytes = 32, maxValue = 72, forms = jsonForms(descriptor), out }) {
    this.bytes = bytes;
    this.forms = forms;
    this.error = error;
    this.maxRowBytes = maxRowBytes;
    this.maxValue = maxValue;
    this.out = out;
    this.width = Math.max(4, bytes.length.toString(16).length);
    this.stop = error ? Math.min(error.offset ?? bytes.length, bytes.length) : bytes.length;
    this.end = 0; // where the rows shown so far end
    this.done = false; // a row past the error was seen: the rest are not shown
  }

  at(offset) {
    return offset.toString(16).padStart(this.width, '0');
  }

  lines(from, to, label) {
    const hexWidth = PER_LINE * 3 - 1;
    if (from === to) {
      this.out(`${' '.repeat(this.width)}  ${''.padEnd(hexWidth)}  ${label}`);
      return;
    }
    const maxRowBytes = this.maxRowBytes;
    const shownTo = maxRowBytes > 0 ? Math.min(to, from + Math.max(PER_LINE, maxRowBytes)) : to;
    for (let p = from; p < shownTo; p += PER_LINE) {
      const q = Math.min(shownTo, p + PER_LINE);
      this.out(`${this.at(p)}  ${hexOf(this.bytes, p, q).padEnd(hexWidth)}${p === from ? `  ${label}` : ''}`.trimEnd());
    }
    if (shownTo < to) this.out(`${' '.repeat(this.width)}  … ${(to - shownTo).toLocaleString('en-US')} more byte(s) of this value`);
  }

  /** One row of the walk (rows come in byte order). */
  row(row) {
    if (this.done || (row.offset >= this.stop && row.end > row.offset)) {
      this.done = true;
      return;
    }
    const label = row.note === null ? `${row.path} = ${shown(this.forms, row, this.maxValue)}` : `${row.path}: ${row.note}`;
    this.lines(row.offset, row.end, label);
    if (row.end > this.end) this.end = row.end;
  }

  /** The error's lines, after the last row; `error` if it was not known at the start. */
  finish(error = this.error) {
    if (!error) return;
    const { bytes } = this;
    const hexWidth = PER_LINE * 3 - 1;
    const offset = Math.min(error.offset ?? this.end, bytes.length);
    if (this.end < offset) this.lines(this.end, offset, `${error.path ?? '$'}: (read before the error)`);
    const to = Math.min(bytes.length, offset + PER_LINE);
    const where = offset < bytes.length ? hexOf(bytes, offset, to) : '(end of input)';
    this.out(`${this.at(offset)}  ${where.padEnd(hexWidth)}  ^ ${error.code}: ${error.message}`);
    if (to < bytes.length) this.out(`${' '.repeat(this.width)}  … ${(bytes.length - to).toLocaleString('en-US')} more byte(s) not decoded`);
  }
}

/** The dump of an inspection's rows as lines (Dump, for a walk that kept its rows). */
function render(descriptor, bytes, result, { error = result.error, maxRowBytes = 32, maxValue = 72 } = {}) {
  const lines = [];
  const dump = new Dump(descriptor, bytes, { error, maxRowBytes, maxValue, out: (line) => lines.push(line) });
  for (const row of result.rows) dump.row(row);
  dump.finish();
  return lines;
}

/** One row as plain JSON (`shorn inspect --json`); `forms` is jsonForms of the schema. */
function rowAsJson(forms, row) {
  const out = { offset: row.offset, length: row.end - row.offset, path: row.path };
  if (row.note === null) out.value = forms.toJson(row.d, row.value);
  else out.note = row.note;
  return out;
}

/**
 * JSON.stringify(rowAsJson(forms, row)), built from its parts: an object's stringify
 * took ~0.9 µs of the ~3 µs a row of `inspect --stream --json` took in all.
 */
function rowJsonText(forms, row) {
  const head = `{"offset":${row.offset},"length":${row.end - row.offset},"path":${JSON.stringify(row.path)}`;
  if (row.note !== null) return `${head},"note":${JSON.stringify(row.note)}}`;
  const value = stringify(forms.toJson(row.d, row.value));
  // A member whose value is undefined is left out, as JSON.stringify leaves it out.
  return value === undefined ? `${head}}` : `${head},"value":${value}}`;
}

/** The rows as plain JSON (`shorn inspect --json`). */
function rowsAsJson(descriptor, result) {
  const forms = jsonForms(descriptor);
  return result.rows.map((row) => rowAsJson(forms, row));
}

/** A decode error as `--json` shows it. */
function errorAsJson(e) {
  return e && { code: e.code, offset: e.offset, path: e.path, message: e.message };
}

module.exports = { inspectBytes, render, Dump, rowsAsJson, rowAsJson, rowJsonText, errorAsJson, Inspector, DEFAULT_LIMITS };
