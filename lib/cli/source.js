'use strict';
// Printing a descriptor: as JSON laid out for reading (`shorn infer`), and as the source a
// person would write with `t` (`shorn infer --ts` / `--js`). Subschemas used more than once
// become constants, named after the first field that holds them.
//
// The source is code that people require, and every name and value in it comes from the
// samples (issue 37, finding 1: a key holding U+2028 ended a `//` comment, and the rest of
// the key ran on require). So nothing from a descriptor, a note or the header reaches the
// source except through the four printers below, one per context: `comment` (a `//`
// comment), `stringLiteral`, `propertyKey` and `valueSource` (a JSON value as an
// expression); constant names are made of [A-Za-z0-9] only (`identifierFrom`).

const { TYPES } = require('../types');
const { constraintsOf } = require('../constraints');

// What must not appear as it is in the source: line terminators (\n, \r, U+2028, U+2029
// end a `//` comment in JS and TS), other control characters, and the bidirectional
// controls that make a comment or string display as something else ("Trojan Source",
// CVE-2021-42574). Lone surrogates too, which a UTF-8 file cannot hold.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const escapeUnit = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Text as the body of a `//` comment: one line, whatever `text` holds. */
function comment(text) {
  return String(text).replace(UNSAFE, escapeUnit);
}

/** A string literal (double-quoted) of `s`, with every unsafe character escaped. */
function stringLiteral(s) {
  // JSON.stringify escapes quotes, backslashes, C0 controls and lone surrogates; the rest
  // of UNSAFE it leaves as it is (U+2028 is legal in a string literal since ES2019, but
  // not in older parsers, and not where a reader can see it).
  return JSON.stringify(s).replace(UNSAFE, escapeUnit);
}

/** A JSON value (what a descriptor holds: a default, an enum's options) as an expression. */
function valueSource(v) {
  if (typeof v === 'string') return stringLiteral(v);
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v); // NaN, Infinity: the globals
  if (typeof v === 'bigint') return `${v}n`;
  if (v === null || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueSource).join(', ')}]`;
  if (typeof v === 'object') {
    const members = Object.keys(v).map((k) => `${propertyKey(k)}: ${valueSource(v[k])}`);
    return members.length ? `{ ${members.join(', ')} }` : '{}';
  }
  throw new TypeError(`a descriptor holds a ${typeof v}, which is not JSON`);
}

// A node's constraints (docs/FORMAT.md, "Constraints") as the options argument of its
// builder (`, { max: 150 }`), or ''; int64 and uint64 bounds are bigints in `t`.
function constraintOptions(d) {
  const members = constraintsOf(d);
  if (members.length === 0) return '';
  const big = d.type === 'int64' || d.type === 'uint64';
  // BigInt() refuses anything but an integer, so a bound prints as digits or not at all.
  return `{ ${members.map(([k, v]) => `${propertyKey(k)}: ${big && typeof v !== 'object' ? `${BigInt(v)}n` : valueSource(v)}`).join(', ')} }`;
}

const WIDTH = 100;

/** JSON with short arrays and objects on one line, the rest indented by two spaces. */
function formatJson(value, indent = '') {
  const flat = JSON.stringify(value);
  if (flat === undefined || value === null || typeof value !== 'object' || indent.length + flat.length <= WIDTH) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((v) => inner + formatJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  const members = Object.keys(value).map((k) => `${inner}${JSON.stringify(k)}: ${formatJson(value[k], inner)}`);
  return `{\n${members.join(',\n')}\n${indent}}`;
}

// Names a constant cannot take: reserved words, `t`, the names a CommonJS module has in
// scope (a `const require` would break the module), and globals a constant would hide.
const RESERVED = new Set(
  ('break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'import in instanceof new null return super switch this throw true try typeof var void while with yield let static ' +
    'implements interface package private protected public await t ' +
    'require module exports __filename __dirname arguments eval undefined NaN Infinity globalThis Infer').split(' '),
);
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function propertyKey(name) {
  if (name === '__proto__') return '["__proto__"]'; // a literal key would set the prototype
  return IDENTIFIER.test(name) ? name : stringLiteral(name);
}

// Whether an object literal with these keys keeps them in this order: JS puts array-index
// keys ("0", "17") first, ascending, so `t.object({ b, 1 })` has the fields 1, b.
function literalKeepsOrder(names) {
  const o = {};
  for (const name of names) Object.defineProperty(o, name, { value: 0, enumerable: true, configurable: true, writable: true });
  const keys = Object.keys(o);
  return keys.length === names.length && keys.every((k, i) => k === names[i]);
}

/** Whether `name` can be the exported constant (`--name`). */
function isConstantName(name) {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

// A constant's name from a field name: camelCase letters and digits.
function identifierFrom(name) {
  const words = String(name)
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  let id = words.map((w, k) => (k === 0 ? w[0].toLowerCase() + w.slice(1) : w[0].toUpperCase() + w.slice(1))).join('');
  if (!id || /^[0-9]/.test(id)) id = `type${id}`;
  return RESERVED.has(id) ? `${id}Type` : id;
}

// The types worth a constant of their own when used twice (an optional or an array of a
// shared object names that object instead).
const HOISTED = new Set(['object', 'tuple', 'union', 'discriminatedUnion', 'enum', 'record', 'map']);

function singular(name) {
  if (/ies$/.test(name)) return `${name.slice(0, -3)}y`;
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return `${name}Item`;
}

class Printer {
  constructor(notes) {
    this.notes = notes || new Map();
    this.hoisted = new Map(); // canonical JSON -> { name, d }
    this.order = []; // constants in the order they must be declared
    this.used = new Set(['Schema']);
    this.scopes = []; // recursive types being printed: [{ name, id }]
  }

  // Which subschemas appear twice or more (and are long enough to be worth a name).
  plan(root) {
    const counts = new Map();
    const names = new Map();
    const visit = (d, fieldName) => {
      if (d === null || typeof d !== 'object') return;
      const def = TYPES.get(d.type);
      if (def === undefined) return;
      if (d.type === 'recursive' || d.type === 'ref') return; // printed in place
      const children = def.children(d);
      if (HOISTED.has(d.type)) {
        const key = JSON.stringify(d);
        counts.set(key, (counts.get(key) || 0) + 1);
        if (!names.has(key) && fieldName) names.set(key, fieldName);
        if (counts.get(key) > 1) return; // its insides are counted once
      }
      if (d.type === 'object') for (const f of d.fields) visit(f.schema, f.name);
      else for (const [child] of children) visit(child, fieldName && (d.type === 'array' || d.type === 'record') ? singular(fieldName) : fieldName);
    };
    visit(root, null);
    this.shared = new Map();
    for (const [key, n] of counts) {
      if (n >= 2 && key.length >= 60) this.shared.set(key, names.get(key) || 'shared');
    }
  }

  name(base) {
    let name = identifierFrom(base);
    for (let k = 2; this.used.has(name); k++) name = `${identifierFrom(base)}${k}`;
    this.used.add(name);
    return name;
  }

  /** The source of `d`, at indentation `indent`. */
  print(d, indent = '') {
    if (this.shared && this.scopes.length === 0) {
      const key = JSON.stringify(d);
      if (this.shared.has(key)) {
        let entry = this.hoisted.get(key);
        if (entry === undefined) {
          entry = { name: null, source: null };
          this.hoisted.set(key, entry);
          entry.source = this.inline(d, '');
          entry.name = this.name(this.shared.get(key));
          this.order.push(entry);
        }
        return entry.name;
      }
    }
    return this.inline(d, indent);
  }

  list(items, indent, open, close) {
    const flat = `${open}${items.map((s) => s.replace(/\n\s*/g, ' ')).join(', ')}${close}`;
    if (!flat.includes('//') && indent.length + flat.length <= WIDTH) return flat;
    return `${open}\n${items.map((s) => `${indent}  ${s},`).join('\n')}\n${indent}${close}`;
  }

  comment(d) {
    const note = this.notes.get(d);
    return note ? ` // ${comment(note)}` : '';
  }

  inline(d, indent) {
    const inner = `${indent}  `;
    switch (d.type) {
      case 'object': {
        const options = d.strict ? ', { strict: true }' : '';
        if (d.fields.length === 0) return `t.object({}${options})`;
        const fields = d.fields.map((f) => {
          const s = f.schema;
          const note = this.comment(s) || (s.type === 'optional' || s.type === 'nullable' ? this.comment(s.of) : '');
          const key = propertyKey(f.name);
          const source = this.print(s, inner);
          return { member: source === key ? key : `${key}: ${source}`, source, note };
        });
        if (!literalKeepsOrder(d.fields.map((f) => f.name))) {
          // An object literal would move its array-index names first (`shorn infer` keeps
          // the order fields were first seen in, which the bytes follow): the descriptor
          // itself, its fields in a list.
          const list = d.fields.map((f, k) => `${inner}{ name: ${stringLiteral(f.name)}, schema: ${fields[k].source} },${fields[k].note}`);
          return `{ type: 'object', fields: [\n${list.join('\n')}\n${indent}], strict: ${d.strict === true} }`;
        }
        const flat = `t.object({ ${fields.map((f) => f.member).join(', ')} }${options})`;
        if (!fields.some((f) => f.note) && indent.length + flat.length <= WIDTH && !flat.includes('\n')) return flat;
        return `t.object({\n${fields.map((f) => `${inner}${f.member},${f.note}`).join('\n')}\n${indent}}${options})`;
      }
      case 'array':
      case 'record': {
        const options = constraintOptions(d);
        return `t.${d.type}(${this.print(d.items ?? d.values, indent)}${options && `, ${options}`})`;
      }
      case 'optional':
      case 'nullable':
        return `t.${d.type}(${this.print(d.of, indent)})`;
      case 'map': {
        const options = constraintOptions(d);
        return `t.map(${this.print(d.keys, indent)}, ${this.print(d.values, indent)}${options && `, ${options}`})`;
      }
      case 'tuple':
        return `t.tuple(${this.list(d.items.map((x) => this.print(x, inner)), indent, '[', ']')})`;
      case 'union':
        return `t.union(${this.list(d.variants.map((x) => this.print(x, inner)), indent, '[', ']')})`;
      case 'discriminatedUnion': {
        const variants = d.variants.map((x) => this.print(x, inner));
        return `t.discriminatedUnion(${stringLiteral(d.key)}, [\n${variants.map((v, k) => `${inner}${v},${this.comment(d.variants[k])}`).join('\n')}\n${indent}])`;
      }
      case 'enum': {
        // The options a newer t.enum takes (a `default` for schema evolution), kept.
        const options = Object.keys(d).filter((k) => k !== 'type' && k !== 'values');
        const rest = options.length ? `, { ${options.map((k) => `${propertyKey(k)}: ${valueSource(d[k])}`).join(', ')} }` : '';
        return `t.enum(${this.list(d.values.map(valueSource), indent, '[', ']')}${rest})`;
      }
      case 'literal':
        return `t.literal(${valueSource(d.value)})`;
      case 'default':
        return `{ type: 'default', of: ${this.print(d.of, indent)}, value: ${valueSource(d.value)} }`;
      case 'recursive': {
        const id = this.name(d.name === 'Schema' ? 'self' : d.name);
        this.scopes.push({ name: d.name, id });
        const body = this.print(d.schema, indent);
        this.scopes.pop();
        return `t.recursive(${stringLiteral(d.name)}, (${id}) => ${body})`;
      }
      case 'ref': {
        for (let k = this.scopes.length - 1; k >= 0; k--) if (this.scopes[k].name === d.name) return this.scopes[k].id;
        return `t.ref(${stringLiteral(d.name)})`;
      }
      default: {
        // Types with nothing but their name (bool, string, json, typed arrays, ...), and
        // their constraints.
        const members = Object.keys(d).filter((k) => k !== 'type');
        const constraints = constraintsOf(d);
        if (members.length === constraints.length && TYPES.has(d.type) && IDENTIFIER.test(d.type)) return `t.${d.type}(${constraintOptions(d)})`;
        return valueSource(d);
      }
    }
  }
}

/**
 * `descriptor` as source using `t`: `format` 'ts' (an ES module with the type) or 'js'
 * (CommonJS). `name` is the exported constant; `notes` (descriptor -> text) become
 * comments; `header` is a first comment line.
 */
function toSource(descriptor, { format = 'ts', name = 'Schema', notes, header } = {}) {
  if (!isConstantName(name)) throw new TypeError(`the exported constant's name must be an identifier and no reserved word, not ${stringLiteral(name)}`);
  const p = new Printer(notes);
  p.used.add(name);
  p.plan(descriptor);
  const body = p.print(descriptor);
  const constants = p.order.map((e) => `const ${e.name} = ${e.source};\n`).join('');
  const lines = [];
  if (header) lines.push(`// ${comment(header)}`);
  if (format === 'ts') {
    lines.push("import { t, type Infer } from 'shorn';", '');
    if (constants) lines.push(constants);
    lines.push(`export const ${name} = ${body};`, `export type ${name} = Infer<typeof ${name}>;`);
  } else {
    lines.push("const { t } = require('shorn');", '');
    if (constants) lines.push(constants);
    lines.push(`const ${name} = ${body};`, '', `module.exports = { ${name} };`);
  }
  return `${lines.join('\n')}\n`;
}

module.exports = { toSource, formatJson, identifierFrom, isConstantName, comment, stringLiteral };
