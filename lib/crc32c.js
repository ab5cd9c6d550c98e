'use strict';
// CRC-32C (Castagnoli), the checksum of a checked frame (docs/FORMAT.md, "Framing"):
// reflected polynomial 0x82f63b78, initial value and final xor 0xffffffff, the CRC of
// iSCSI, ext4 and SSE4.2's `crc32` instruction. Check value: crc32c("123456789") is
// 0xe3069283.
//
// Slicing-by-8 in JS: eight 256-entry tables, eight bytes per step. The encoder and a
// frame read alone (lib/framing.js) use this one; frames decoded in a batch are checked
// natively, with SSE4.2's crc32 where the CPU has it (src/codec/crc32c.rs), in the same
// call that decodes them.

const POLYNOMIAL = 0x82f63b78;

// TABLES[k * 256 + b]: the CRC of byte b followed by k zero bytes.
const TABLES = new Int32Array(8 * 256);
for (let b = 0; b < 256; b++) {
  let c = b;
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLYNOMIAL : c >>> 1;
  TABLES[b] = c;
}
for (let b = 0; b < 256; b++) {
  for (let k = 1; k < 8; k++) {
    const previous = TABLES[(k - 1) * 256 + b];
    TABLES[k * 256 + b] = (previous >>> 8) ^ TABLES[previous & 0xff];
  }
}

/** The CRC-32C of `bytes[start..end)` as an unsigned 32-bit number. */
function crc32c(bytes, start = 0, end = bytes.length) {
  const T = TABLES;
  let c = -1;
  let i = start;
  for (const stop = end - 7; i < stop; i += 8) {
    const low = c ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
    c =
      T[1792 + (low & 0xff)] ^
      T[1536 + ((low >>> 8) & 0xff)] ^
      T[1280 + ((low >>> 16) & 0xff)] ^
      T[1024 + (low >>> 24)] ^
      T[768 + bytes[i + 4]] ^
      T[512 + bytes[i + 5]] ^
      T[256 + bytes[i + 6]] ^
      T[bytes[i + 7]];
  }
  for (; i < end; i++) c = (c >>> 8) ^ T[(c ^ bytes[i]) & 0xff];
  return ~c >>> 0;
}

module.exports = { crc32c };
