'use strict';
// msgpackr with records: the structures array stands in for a schema, shared out of band by
// one Packr used in both directions. Native string extraction (msgpackr-extract) is on when
// installed; the report header says whether it is.
const { Packr } = require('msgpackr');

module.exports = {
  name: 'msgpackr',
  // `saved` is the structures of another process's Packr (see memory-child.js), as a receiver
  // that got them out of band would hold them.
  setup(fixture, saved) {
    const packr = new Packr({ useRecords: true, structures: saved ? saved.structures : [] });
    return {
      encode: (value) => packr.pack(value),
      decode: (bytes) => packr.unpack(bytes),
      // Plain key lists: the array also carries msgpackr's private bookkeeping.
      exportState: () => ({ structures: packr.structures.map((keys) => [...keys]) }),
    };
  },
};
