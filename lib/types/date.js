'use strict';
// date: a valid Date (an invalid one is rejected), as the zigzag varint of its epoch
// milliseconds (src/types/date.rs); decodes to a new Date. Tape: one slot, the ms.
// Dates are recognised by their internal slot (util.types.isDate), not by instanceof, and
// read with the Date.prototype.getTime captured at load, so no user code runs.

const rt = require('#runtime');

module.exports = [
  {
    name: 'date',
    build: () => ({ type: 'date' }),
    expected: () => 'valid Date',
    slots: () => 1,
    test: (d, x) => !Number.isNaN(rt.dateTime(x)),
    put(c, d, x, shown) {
      const ms = rt.dateTime(x);
      if (ms !== ms) throw c.fail(shown, x);
      c.write(ms);
    },
    // JSON form: the ISO string (Date#toISOString); read back from it or from epoch ms.
    toJson: (d, x) => (rt.dateTime(x) === rt.dateTime(x) ? new Date(rt.dateTime(x)).toISOString() : x),
    fromJson(d, j) {
      if (typeof j === 'number') return new Date(j);
      if (typeof j === 'string') {
        const ms = Date.parse(j);
        return Number.isNaN(ms) ? j : new Date(ms);
      }
      return j;
    },
    kinds: 'object',
    lower: () => ({ op: 'date' }),
    minBytes: () => 1,
  },
];
