'use strict';
// The one JS UTF-8 writer (docs/FORMAT.md, "string"): the json value writer of the native
// back end's tape (lib/json-tape.js) and the JS back end's strings (lib/closures.js).

/**
 * Writes `s` as UTF-8 at `o` of `U` (room for 3 bytes a unit); returns where it ends, or
 * -1 at a lone surrogate (nothing after it written).
 */
function writeUtf8(s, U, o) {
  const n = s.length;
  for (let k = 0; k < n; k++) {
    let ch = s.charCodeAt(k);
    if (ch < 0x80) U[o++] = ch;
    else if (ch < 0x800) {
      U[o++] = 0xc0 | (ch >> 6);
      U[o++] = 0x80 | (ch & 63);
    } else if (ch >= 0xd800 && ch <= 0xdfff) {
      const lo = k + 1 < n ? s.charCodeAt(k + 1) : 0;
      if (ch > 0xdbff || lo < 0xdc00 || lo > 0xdfff) return -1;
      k++;
      ch = 0x10000 + ((ch - 0xd800) << 10) + (lo - 0xdc00);
      U[o++] = 0xf0 | (ch >> 18);
      U[o++] = 0x80 | ((ch >> 12) & 63);
      U[o++] = 0x80 | ((ch >> 6) & 63);
      U[o++] = 0x80 | (ch & 63);
    } else {
      U[o++] = 0xe0 | (ch >> 12);
      U[o++] = 0x80 | ((ch >> 6) & 63);
      U[o++] = 0x80 | (ch & 63);
    }
  }
  return o;
}

module.exports = { writeUtf8 };
