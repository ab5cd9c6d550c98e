'use strict';
// int64 and uint64: bigints in range (src/types/int64.rs); numbers are rejected (no
// coercion), decode gives a bigint. Tape: one slot holding the 64 bits, written and read
// through BigInt64Array / BigUint64Array views of the tape (TI, TU).

function int64Type(name, lo, hi, view) {
  const inRange = (x) => `(typeof ${x} === 'bigint' && ${lo}n <= ${x} && ${x} <= ${hi}n)`;
  const min = BigInt(lo);
  const max = BigInt(hi);
  return {
    name,
    build: () => ({ type: name }),
    expected: () => `${name} (bigint ${lo} to ${hi})`,
    slots: () => 1,
    uses64: true,
    emitTest: (g, d, x) => inRange(x),
    emitPut(g, d, x, path, room, shown) {
      g.enc.push(`if (!${inRange(x)}) ${g.fail(path, shown, x)}`, `${view}[i++] = ${x};`);
    },
    emitTake: () => `${view}[i++]`,
    test: (d, x) => typeof x === 'bigint' && x >= min && x <= max,
    put(c, d, x, shown) {
      if (!(typeof x === 'bigint' && x >= min && x <= max)) throw c.fail(shown, x);
      c.write64(x, view);
    },
    take: (c) => c.read64(view),
    // JSON form: a number where it is a safe integer, else a string of digits.
    toJson: (d, x) => (x >= -9007199254740991n && x <= 9007199254740991n ? Number(x) : String(x)),
    fromJson(d, j) {
      if (typeof j === 'number' && Number.isSafeInteger(j)) return BigInt(j);
      if (typeof j === 'string' && /^-?[0-9]+$/.test(j)) return BigInt(j);
      return j;
    },
    // `shorn inspect` (lib/cli/inspect.js): a varint64, zigzag for int64.
    inspect(r, d) {
      const at = r.offset;
      const u = r.varint64();
      return r.leaf(at, d, name === 'int64' ? (u >> 1n) ^ -(u & 1n) : u);
    },
    minBytes: () => 1,
  };
}

module.exports = [
  int64Type('int64', '-9223372036854775808', '9223372036854775807', 'TI'),
  int64Type('uint64', '0', '18446744073709551615', 'TU'),
];
