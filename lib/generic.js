'use strict';
// The marshaller for places where `new Function` is forbidden (strict CSP): it walks the
// descriptor per value instead of running generated code. It writes the same tape and the
// same native arguments as lib/codegen.js, so the bytes are identical (the tests check it).

const { isInteger, expected, INHERITED } = require('./plan');
const { pathKey } = require('./errors');

function build(descriptor, layout, nat, rt) {
  const st = rt.state;
  // Per call: tape, index, strings, blobs; `segments` is the path, rendered only on error.
  let T;
  let i;
  let strings;
  let blobs;
  const segments = [];
  const pathNow = () => `$${segments.join('')}`;
  const fail = (d, x) => rt.invalid(pathNow(), expected(d), x);

  // Checked on every slot: simple, and this path is not the fast one.
  function write(value) {
    if (i >= T.length) T = rt.grow(T, i + 1);
    T[i++] = value;
  }

  function put(d, x) {
    switch (d.type) {
      case 'bool':
        if (typeof x !== 'boolean') throw fail(d, x);
        write(x ? 1 : 0);
        return;
      case 'float32':
      case 'float64':
        if (typeof x !== 'number') throw fail(d, x);
        write(x);
        return;
      case 'string':
        if (typeof x !== 'string') throw fail(d, x);
        strings.push(x);
        write(x.length);
        return;
      case 'bytes':
        if (!(x instanceof Uint8Array)) throw fail(d, x);
        blobs.push(x);
        return;
      case 'enum': {
        const k = d.values.indexOf(x);
        if (k < 0 || typeof x !== 'string') throw fail(d, x);
        write(k);
        return;
      }
      case 'array': {
        if (!Array.isArray(x)) throw fail(d, x);
        const n = x.length;
        write(n);
        for (let k = 0; k < n; k++) {
          segments.push(`[${k}]`);
          put(d.items, x[k]);
          segments.pop();
        }
        return;
      }
      case 'object': {
        if (typeof x !== 'object' || x === null || Array.isArray(x)) throw fail(d, x);
        for (const f of d.fields) {
          const y = INHERITED.has(f.name) && !Object.hasOwn(x, f.name) ? undefined : x[f.name];
          segments.push(pathKey(f.name));
          put(f.schema, y);
          segments.pop();
        }
        if (d.strict) rt.checkStrict(x, new Set(d.fields.map((f) => f.name)), pathNow());
        return;
      }
      case 'optional':
      case 'nullable':
        if (x === (d.type === 'optional' ? undefined : null)) {
          write(0);
        } else {
          write(1);
          put(d.of, x);
        }
        return;
      default:
        if (!isInteger[d.type](x)) throw fail(d, x);
        write(x);
    }
  }

  function marshal(v) {
    if (st.busy) return rt.reenter(marshal, v);
    st.busy = true;
    try {
      T = st.tape;
      i = 0;
      strings = [];
      blobs = [];
      segments.length = 0;
      put(descriptor, v);
      if (!layout.positional) return nat.encode(strings.join(''), blobs);
      // Positional calls take every string and byte-array argument the schema has. An
      // absent one is "" (adds no text) or undefined (skipped), so padding at the end
      // gives the native side the same text and blobs as the generated code's arguments.
      while (strings.length < layout.strings) strings.push('');
      while (blobs.length < layout.blobs) blobs.push(undefined);
      return nat.encode(...strings, ...blobs);
    } finally {
      st.busy = false;
      if (T.length > rt.KEEP_TAPE_SLOTS) rt.shrink();
    }
  }

  return {
    encode: (v) => rt.output(marshal(v)),
    encodeInto: (v, target, offset) => rt.outputInto(marshal(v), target, offset),
    decode: makeDecoder(),
  };

  function makeDecoder() {
    let S;
    let p;
    let bytesIn;
    function take(d) {
      switch (d.type) {
        case 'bool':
          return T[i++] !== 0;
        case 'string':
          return S.slice(p, (p += T[i++]));
        case 'bytes':
          return rt.copyBytes(bytesIn, T[i++], T[i++]);
        case 'enum':
          return d.values[T[i++]];
        case 'array': {
          const n = T[i++];
          const a = [];
          for (let k = 0; k < n; k++) a.push(take(d.items));
          return a;
        }
        case 'object': {
          const o = {};
          for (const f of d.fields) {
            if (f.schema.type === 'optional') {
              if (T[i++] !== 0) rt.defineOwn(o, f.name, take(f.schema.of));
            } else {
              rt.defineOwn(o, f.name, take(f.schema));
            }
          }
          return o;
        }
        case 'nullable':
          return T[i++] !== 0 ? take(d.of) : null;
        default:
          return T[i++];
      }
    }
    return function decode(bytes) {
      if (!(bytes instanceof Uint8Array)) throw rt.notBytes(bytes);
      if (st.busy) return rt.reenter(decode, bytes);
      const n = bytes.length;
      if (n <= rt.SMALL_INPUT) {
        st.input.set(bytes);
        S = nat.decodeInput(n);
      } else {
        S = nat.decode(bytes);
      }
      T = st.tape;
      i = 0;
      p = 0;
      bytesIn = bytes;
      try {
        return take(descriptor);
      } finally {
        bytesIn = undefined;
        S = undefined;
        if (T.length > rt.KEEP_TAPE_SLOTS) rt.shrink();
      }
    };
  }
}

module.exports = { build };
