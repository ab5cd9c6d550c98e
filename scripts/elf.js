'use strict';
// Reads which symbol versions a Linux shared library needs from its libraries (the ELF
// .gnu.version_r section, what `objdump -p` prints under "Version References"), so the glibc
// baseline of a built binary is checked without binutils. The dynamic loader refuses to load
// a library that needs a GLIBC_x.y newer than the machine's glibc.

const fs = require('node:fs');

const SHT_GNU_VERNEED = 0x6ffffffe;

function cString(buf, at) {
  const end = buf.indexOf(0, at);
  return buf.toString('latin1', at, end < 0 ? buf.length : end);
}

// [{ file: 'libc.so.6', version: 'GLIBC_2.14' }, ...] of a little-endian ELF64 file.
function versionsNeeded(file) {
  const buf = fs.readFileSync(file);
  if (buf.readUInt32BE(0) !== 0x7f454c46) throw new Error(`${file} is not an ELF file`);
  if (buf[4] !== 2 || buf[5] !== 1) throw new Error(`${file} is not a little-endian 64-bit ELF file`);
  const shoff = Number(buf.readBigUInt64LE(0x28));
  const shentsize = buf.readUInt16LE(0x3a);
  const shnum = buf.readUInt16LE(0x3c);
  const section = (i) => {
    const at = shoff + i * shentsize;
    return {
      type: buf.readUInt32LE(at + 4),
      offset: Number(buf.readBigUInt64LE(at + 24)),
      link: buf.readUInt32LE(at + 40),
      info: buf.readUInt32LE(at + 44),
    };
  };
  const needed = [];
  for (let i = 0; i < shnum; i++) {
    const verneed = section(i);
    if (verneed.type !== SHT_GNU_VERNEED) continue;
    const strings = section(verneed.link).offset;
    // sh_info entries of Verneed {vn_version u16, vn_cnt u16, vn_file u32, vn_aux u32,
    // vn_next u32}, each followed (at vn_aux) by vn_cnt Vernaux {vna_hash u32, vna_flags u16,
    // vna_other u16, vna_name u32, vna_next u32}.
    let entry = verneed.offset;
    for (let n = 0; n < verneed.info; n++) {
      const fileName = cString(buf, strings + buf.readUInt32LE(entry + 4));
      let aux = entry + buf.readUInt32LE(entry + 8);
      for (let k = 0; k < buf.readUInt16LE(entry + 2); k++) {
        needed.push({ file: fileName, version: cString(buf, strings + buf.readUInt32LE(aux + 8)) });
        aux += buf.readUInt32LE(aux + 12);
      }
      entry += buf.readUInt32LE(entry + 12);
    }
  }
  return needed;
}

function compareVersions(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  }
  return 0;
}

// The highest glibc version a library needs ('2.14'), or null if it needs none.
function highestGlibc(file) {
  const versions = versionsNeeded(file)
    .map((v) => /^GLIBC_(\d+(?:\.\d+)*)$/.exec(v.version)?.[1])
    .filter(Boolean)
    .sort(compareVersions);
  return versions.length ? versions[versions.length - 1] : null;
}

module.exports = { versionsNeeded, highestGlibc, compareVersions };
