'use strict';
// Generates one schema's marshalling code: `marshal(value)` walks the value in schema order,
// checks each field and writes the tape (see src/codec/message.rs), then calls the native
// encoder; `decode(bytes)` calls the native decoder and builds the result from the tape.
// Each schema gets its own functions, so V8 sees one object shape per property access.

const { INTEGER_TEST, expected, staticSlots, INHERITED, SMALL_INPUT, KEEP_TAPE_SLOTS } = require('./plan');
const { pathKey } = require('./errors');

// A path as generated code: static text and loop variables, rendered as a JS expression
// only inside `throw` statements, so the happy path never builds a path string.
class PathExpr {
  constructor(parts) {
    this.parts = parts;
  }
  field(name) {
    return new PathExpr([...this.parts, pathKey(name)]);
  }
  index(variable) {
    return new PathExpr([...this.parts, '[', { variable }, ']']);
  }
  code() {
    const out = [];
    for (const p of this.parts) {
      if (typeof p === 'string' && typeof out[out.length - 1] === 'string') out[out.length - 1] += p;
      else out.push(p);
    }
    return out.map((p) => (typeof p === 'string' ? JSON.stringify(p) : p.variable)).join(' + ');
  }
}

// Reads field `name` of `x` as JS source; own-property only for names Object.prototype has.
function readField(x, name) {
  const key = JSON.stringify(name);
  return INHERITED.has(name) ? `(Object.hasOwn(${x}, ${key}) ? ${x}[${key}] : undefined)` : `${x}[${key}]`;
}

// Object-literal key: `__proto__` must be computed, or the literal sets the prototype.
function literalKey(name) {
  return name === '__proto__' ? '["__proto__"]' : JSON.stringify(name);
}

function generate(descriptor, layout) {
  const constants = [];
  const constant = (value) => {
    constants.push(value);
    return `K[${constants.length - 1}]`;
  };
  let counter = 0;
  const fresh = (prefix) => `${prefix}${counter++}`;
  let stringArg = 0;
  let blobArg = 0;

  // ---- encode ----
  const enc = [];
  // Most slots reserved up front for one array; past this, each item makes its own room,
  // so a sparse array of length 2^32 - 1 fails on its first item instead of on memory.
  const UPFRONT = 1 << 20;

  // Tape room: the function starts with room for the root's static slots, an array makes
  // room for its items' static slots, an item that holds arrays makes room for itself on
  // each iteration, and after each array's loop there is room again for whatever static
  // slots can follow in the enclosing item (`room`). Between two checks no code writes
  // more than it reserved.
  // `shown` is the type named in an error: a nullable's value that fails is reported
  // against "T or null".
  function put(d, x, path, room, shown = d) {
    const fail = (p, y) => `throw rt.invalid(${p.code()}, ${constant(expected(shown))}, ${y});`;
    switch (d.type) {
      case 'bool':
        enc.push(`if (typeof ${x} !== 'boolean') ${fail(path, x)}`, `T[i++] = ${x} ? 1 : 0;`);
        return;
      case 'float32':
      case 'float64':
        enc.push(`if (typeof ${x} !== 'number') ${fail(path, x)}`, `T[i++] = ${x};`);
        return;
      case 'string':
        enc.push(`if (typeof ${x} !== 'string') ${fail(path, x)}`);
        enc.push(layout.positional ? `s${stringArg++} = ${x};` : `S += ${x};`);
        enc.push(`T[i++] = ${x}.length;`);
        return;
      case 'bytes':
        enc.push(`if (!(${x} instanceof Uint8Array)) ${fail(path, x)}`);
        enc.push(layout.positional ? `b${blobArg++} = ${x};` : `B.push(${x});`);
        return;
      case 'enum':
        if (d.values.length <= 8) {
          enc.push(`switch (${x}) {`);
          d.values.forEach((v, k) => enc.push(`case ${JSON.stringify(v)}: T[i++] = ${k}; break;`));
          enc.push(`default: ${fail(path, x)}`, '}');
        } else {
          const e = fresh('e');
          const map = constant(new Map(d.values.map((v, k) => [v, k])));
          enc.push(`const ${e} = ${map}.get(${x});`, `if (${e} === undefined) ${fail(path, x)}`, `T[i++] = ${e};`);
        }
        return;
      case 'array': {
        const n = fresh('n');
        const k = fresh('k');
        const y = fresh('y');
        const per = staticSlots(d.items);
        enc.push(
          `if (!Array.isArray(${x})) ${fail(path, x)}`,
          `const ${n} = ${x}.length;`,
          `if (i + 1 + ${n} * ${per} > T.length) T = rt.grow(T, i + 1 + Math.min(${n} * ${per}, ${UPFRONT}));`,
          `T[i++] = ${n};`,
          `for (let ${k} = 0; ${k} < ${n}; ${k}++) {`,
          `if (i + ${per} > T.length) T = rt.grow(T, i + ${per});`,
        );
        enc.push(`const ${y} = ${x}[${k}];`);
        put(d.items, y, path.index(k), per);
        enc.push('}', `if (i + ${room} > T.length) T = rt.grow(T, i + ${room});`);
        return;
      }
      case 'object': {
        enc.push(`if (typeof ${x} !== 'object' || ${x} === null || Array.isArray(${x})) ${fail(path, x)}`);
        for (const f of d.fields) {
          const y = fresh('f');
          enc.push(`const ${y} = ${readField(x, f.name)};`);
          put(f.schema, y, path.field(f.name), room);
        }
        if (d.strict) {
          const names = constant(new Set(d.fields.map((f) => f.name)));
          enc.push(`rt.checkStrict(${x}, ${names}, ${path.code()});`);
        }
        return;
      }
      case 'optional':
        enc.push(`if (${x} === undefined) T[i++] = 0; else {`, 'T[i++] = 1;');
        put(d.of, x, path, room);
        enc.push('}');
        return;
      case 'nullable':
        enc.push(`if (${x} === null) T[i++] = 0; else {`, 'T[i++] = 1;');
        put(d.of, x, path, room, d);
        enc.push('}');
        return;
      default:
        enc.push(`if (!${INTEGER_TEST[d.type](x)}) ${fail(path, x)}`, `T[i++] = ${x};`);
    }
  }

  const minimum = staticSlots(descriptor);
  put(descriptor, 'v', new PathExpr(['$']), minimum);
  const args = [];
  const decls = [];
  if (layout.positional) {
    for (let s = 0; s < layout.strings; s++) args.push(`s${s}`);
    for (let b = 0; b < layout.blobs; b++) args.push(`b${b}`);
    if (layout.strings) decls.push(`let ${args.slice(0, layout.strings).map((a) => `${a} = ''`).join(', ')};`);
    if (layout.blobs) decls.push(`let ${args.slice(layout.strings).join(', ')};`);
  } else {
    // No byte-array fields, no array to allocate per call.
    decls.push("let S = '';");
    args.push('S');
    if (layout.blobs) {
      decls.push('const B = [];');
      args.push('B');
    }
  }

  // ---- decode ----
  const dec = [];
  function take(d) {
    const v = fresh('v');
    switch (d.type) {
      case 'bool':
        dec.push(`const ${v} = T[i++] !== 0;`);
        break;
      case 'string':
        // A message with one string field (outside arrays) gets that string whole: no slice.
        dec.push(
          layout.positional && layout.strings === 1
            ? `const ${v} = S; i++;`
            : `const ${v} = S.slice(p, p += T[i++]);`,
        );
        break;
      case 'bytes':
        dec.push(`const ${v} = rt.copyBytes(bytes, T[i++], T[i++]);`);
        break;
      case 'enum':
        dec.push(`const ${v} = ${constant(d.values)}[T[i++]];`);
        break;
      case 'array': {
        const n = fresh('n');
        const k = fresh('k');
        dec.push(`const ${n} = T[i++];`, `const ${v} = [];`, `for (let ${k} = 0; ${k} < ${n}; ${k}++) {`);
        const item = take(d.items);
        dec.push(`${v}.push(${item});`, '}');
        break;
      }
      case 'object': {
        const values = d.fields.map((f) => {
          if (f.schema.type !== 'optional') return { f, value: take(f.schema) };
          const has = fresh('h');
          dec.push(`const ${has} = T[i++] !== 0;`, `let ${has}v;`, `if (${has}) {`);
          const inner = take(f.schema.of);
          dec.push(`${has}v = ${inner};`, '}');
          return { f, value: `${has}v`, has };
        });
        // Keys in schema order: a literal up to the first optional field, then assignments.
        const first = values.findIndex((x) => x.has);
        const literal = first < 0 ? values : values.slice(0, first);
        dec.push(`const ${v} = { ${literal.map((x) => `${literalKey(x.f.name)}: ${x.value}`).join(', ')} };`);
        for (const x of first < 0 ? [] : values.slice(first)) {
          const set =
            x.f.name === '__proto__'
              ? `rt.defineOwn(${v}, "__proto__", ${x.value});`
              : `${v}[${JSON.stringify(x.f.name)}] = ${x.value};`;
          dec.push(x.has ? `if (${x.has}) ${set}` : set);
        }
        break;
      }
      case 'nullable': {
        dec.push(`let ${v} = null;`, 'if (T[i++] !== 0) {');
        const inner = take(d.of);
        dec.push(`${v} = ${inner};`, '}');
        break;
      }
      default:
        dec.push(`const ${v} = T[i++];`);
    }
    return v;
  }
  const result = take(descriptor);

  // In `marshal`'s finally: a tape grown for a huge message is kept while messages that
  // large keep coming, and given back after the first call that needs less than a quarter
  // of it (decode does the same natively: src/binding.rs, decode_bytes).
  const source = `'use strict';
function marshal(v) {
  if (st.busy) return rt.reenter(marshal, v);
  st.busy = true;
  let T = st.tape;
  let i = 0;
  try {
    if (T.length < ${minimum}) T = rt.grow(T, ${minimum});
    ${decls.join('\n    ')}
    ${enc.join('\n    ')}
    return nat.encode(${args.join(', ')});
  } finally {
    st.busy = false;
    if (T.length > ${KEEP_TAPE_SLOTS} && i * 4 < T.length) rt.shrink();
  }
}
function decode(bytes) {
  if (!(bytes instanceof Uint8Array)) throw rt.notBytes(bytes);
  if (st.busy) return rt.reenter(decode, bytes);
  const n = bytes.length;
  let S;
  if (n <= ${SMALL_INPUT}) {
    const I = st.input;
    I[0] = n;
    for (let j = 0; j < n; j++) I[j + 1] = bytes[j];
    S = nat.decodeInput();
  } else {
    S = nat.decode(bytes);
  }
  const T = st.tape;
  let i = 0;
  let p = 0;
  ${dec.join('\n  ')}
  return ${result};
}
function encode(v) {
  return rt.output(marshal(v));
}
function encodeInto(v, target, offset) {
  const at = rt.targetOffset(target, offset);
  return rt.outputInto(marshal(v), target, at);
}
return { encode, encodeInto, decode };
`;
  return { source, constants };
}

// Builds the functions with `new Function`; throws where code generation is forbidden
// (a strict Content Security Policy, --disallow-code-generation-from-strings).
function build(descriptor, layout, nat, rt) {
  const { source, constants } = generate(descriptor, layout);
  // eslint-disable-next-line no-new-func
  const factory = new Function('nat', 'rt', 'st', 'K', source);
  return factory(nat, rt, rt.state, constants);
}

module.exports = { generate, build };
