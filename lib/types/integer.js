'use strict';
// The integers JS holds as numbers (src/types/integer.rs): uint8, int8 (one byte), uint16,
// uint32 (varint), int16, int32 (zigzag varint), and int, any safe integer (zigzag varint
// of up to 64 bits). Tape: one slot, the number. No coercion: only numbers that are
// integers in range; -0 is accepted as 0.

// `x` is an integer of the type's range, written as one bit operation the way V8 inlines
// best. The bit operation alone also rejects non-numbers (`'5' >>> 0 !== '5'`); the typeof
// guard keeps valueOf() of objects from running.
const RANGES = [
  ['uint8', 0, 255, (x) => `(${x} & 255) === ${x}`, (x) => (x & 255) === x],
  ['uint16', 0, 65535, (x) => `(${x} & 65535) === ${x}`, (x) => (x & 65535) === x],
  ['uint32', 0, 4294967295, (x) => `(${x} >>> 0) === ${x}`, (x) => x >>> 0 === x],
  ['int8', -128, 127, (x) => `((${x} << 24) >> 24) === ${x}`, (x) => (x << 24) >> 24 === x],
  ['int16', -32768, 32767, (x) => `((${x} << 16) >> 16) === ${x}`, (x) => (x << 16) >> 16 === x],
  ['int32', -2147483648, 2147483647, (x) => `(${x} | 0) === ${x}`, (x) => (x | 0) === x],
];

function integerType(name, expected, emitCheck, check) {
  return {
    name,
    build: () => ({ type: name }),
    expected: () => expected,
    slots: () => 1,
    emitTest: (g, d, x) => `(typeof ${x} === 'number' && ${emitCheck(x)})`,
    emitPut(g, d, x, path, room, shown) {
      g.enc.push(`if (!(typeof ${x} === 'number' && ${emitCheck(x)})) ${g.fail(path, shown, x)}`, `T[i++] = ${x};`);
    },
    emitTake: () => 'T[i++]',
    test: (d, x) => typeof x === 'number' && check(x),
    put(c, d, x, shown) {
      if (!(typeof x === 'number' && check(x))) throw c.fail(shown, x);
      c.write(x);
    },
    take: (c) => c.T[c.i++],
    toJson: (d, x) => x,
    fromJson: (d, j) => j,
    // `shorn inspect` (lib/cli/inspect.js): the bytes as src/types/integer.rs reads them.
    inspect(r, d) {
      const at = r.offset;
      return r.leaf(at, d, READ[name](r, at));
    },
    minBytes: () => 1,
  };
}

// How `shorn inspect` reads each integer, with the range checks of decode.
const OUT_OF_RANGE = 'varint out of range for its type';
const unzigzag = (u) => (u >>> 1) ^ -(u & 1);
const READ = {
  uint8: (r) => r.u8(),
  int8: (r) => (r.u8() << 24) >> 24,
  uint16(r, at) {
    const v = r.varint();
    if (v > 65535) throw r.malformed(at, OUT_OF_RANGE);
    return v;
  },
  uint32: (r) => r.varint(),
  int16(r, at) {
    const v = unzigzag(r.varint());
    if (v < -32768 || v > 32767) throw r.malformed(at, OUT_OF_RANGE);
    return v;
  },
  int32: (r) => unzigzag(r.varint()),
  int(r, at) {
    const u = r.varint64();
    const v = (u >> 1n) ^ -(u & 1n);
    if (v > 9007199254740991n || v < -9007199254740991n) throw r.malformed(at, OUT_OF_RANGE);
    return Number(v);
  },
};

module.exports = [
  ...RANGES.map(([name, lo, hi, emitCheck, check]) => integerType(name, `${name} (integer ${lo} to ${hi})`, emitCheck, check)),
  integerType(
    'int',
    'int (safe integer)',
    (x) => `Number.isSafeInteger(${x})`,
    (x) => Number.isSafeInteger(x),
  ),
];
