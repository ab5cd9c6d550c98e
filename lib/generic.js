'use strict';
// The marshaller for places where `new Function` is forbidden (strict CSP): it walks the
// descriptor per value instead of running generated code. It writes the same tape and the
// same native arguments as lib/codegen.js, so the bytes are identical (the tests check it).

const { isInteger, expected, INHERITED } = require('./plan');
const { pathKey } = require('./errors');

// The state of one encode call, so a call made from inside another (a getter that
// encodes with the same codec) has its own.
class Call {
  constructor(tape, grow) {
    this.T = tape;
    this.grow = grow;
    this.i = 0;
    this.strings = [];
    this.blobs = [];
    // The path so far, rendered only on error.
    this.segments = [];
  }

  // Checked on every slot: simple, and this path is not the fast one.
  write(value) {
    if (this.i >= this.T.length) this.T = this.grow(this.T, this.i + 1);
    this.T[this.i++] = value;
  }

  path() {
    return `$${this.segments.join('')}`;
  }
}

function build(descriptor, layout, nat, rt) {
  const st = rt.state;

  // `shown` is the type named in an error: a nullable's value that fails is reported
  // against "T or null".
  function put(c, d, x, shown = d) {
    const fail = () => rt.invalid(c.path(), expected(shown), x);
    switch (d.type) {
      case 'bool':
        if (typeof x !== 'boolean') throw fail();
        c.write(x ? 1 : 0);
        return;
      case 'float32':
      case 'float64':
        if (typeof x !== 'number') throw fail();
        c.write(x);
        return;
      case 'string':
        if (typeof x !== 'string') throw fail();
        c.strings.push(x);
        c.write(x.length);
        return;
      case 'bytes':
        if (!(x instanceof Uint8Array)) throw fail();
        c.blobs.push(x);
        return;
      case 'enum': {
        const k = typeof x === 'string' ? d.values.indexOf(x) : -1;
        if (k < 0) throw fail();
        c.write(k);
        return;
      }
      case 'array': {
        if (!Array.isArray(x)) throw fail();
        const n = x.length;
        c.write(n);
        for (let k = 0; k < n; k++) {
          c.segments.push(`[${k}]`);
          put(c, d.items, x[k]);
          c.segments.pop();
        }
        return;
      }
      case 'object': {
        if (typeof x !== 'object' || x === null || Array.isArray(x)) throw fail();
        for (const f of d.fields) {
          const y = INHERITED.has(f.name) && !Object.hasOwn(x, f.name) ? undefined : x[f.name];
          c.segments.push(pathKey(f.name));
          put(c, f.schema, y);
          c.segments.pop();
        }
        if (d.strict) rt.checkStrict(x, new Set(d.fields.map((f) => f.name)), c.path());
        return;
      }
      case 'optional':
        if (x === undefined) {
          c.write(0);
        } else {
          c.write(1);
          put(c, d.of, x);
        }
        return;
      case 'nullable':
        if (x === null) {
          c.write(0);
        } else {
          c.write(1);
          put(c, d.of, x, d);
        }
        return;
      default:
        if (!isInteger[d.type](x)) throw fail();
        c.write(x);
    }
  }

  function marshal(v) {
    if (st.busy) return rt.reenter(marshal, v);
    st.busy = true;
    const c = new Call(st.tape, rt.grow);
    try {
      put(c, descriptor, v);
      if (!layout.positional) return nat.encode(c.strings.join(''), c.blobs);
      // Positional calls take every string and byte-array argument the schema has. An
      // absent one is "" (adds no text) or undefined (skipped), so padding at the end
      // gives the native side the same text and blobs as the generated code's arguments.
      while (c.strings.length < layout.strings) c.strings.push('');
      while (c.blobs.length < layout.blobs) c.blobs.push(undefined);
      return nat.encode(...c.strings, ...c.blobs);
    } finally {
      st.busy = false;
      if (c.T.length > rt.KEEP_TAPE_SLOTS && c.i * 4 < c.T.length) rt.shrink();
    }
  }

  return {
    encode: (v) => rt.output(marshal(v)),
    encodeInto(v, target, offset) {
      const at = rt.targetOffset(target, offset);
      return rt.outputInto(marshal(v), target, at);
    },
    decode: makeDecoder(),
  };

  function makeDecoder() {
    // Per call; a decode runs no user code, so no call can start inside another.
    let T;
    let i;
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
        // A loop, not `set`: `set` throws on a detached view, where the native side
        // reports the empty input as truncated like every other.
        const I = st.input;
        I[0] = n;
        for (let j = 0; j < n; j++) I[j + 1] = bytes[j];
        S = nat.decodeInput();
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
      }
    };
  }
}

module.exports = { build };
