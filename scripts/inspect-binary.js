'use strict';
// Reads a built platform binary (ELF, Mach-O or PE) and checks what can be checked without
// running it: its format and CPU, that it is a shared library exporting the N-API
// registration symbol (napi_register_module_v1, which Node looks up after dlopen), the
// libraries it needs and the symbol versions it asks of them (no GLIBC_ newer than the
// baseline for gnu; no glibc at all for musl), a Mach-O's minimum macOS and its code
// signature (recomputed page by page, as macOS checks it before running a page), and a DLL's
// imports (system DLLs only: nothing from node.exe, whose N-API functions napi-rs looks up at
// run time). No binutils needed; scripts/build-platform.js runs it after every build, and
// tests/package/platforms.test.js on every binary.
//
//   node scripts/inspect-binary.js <file> [<platform>]     prints the facts, and the problems

const crypto = require('node:crypto');
const fs = require('node:fs');
const { versionsNeeded, compareVersions } = require('./elf');

const REGISTER = 'napi_register_module_v1';

// What each platform's binary must be. glibc: the newest GLIBC_ symbol version it may need.
// minos: the macOS its LC_BUILD_VERSION (or LC_VERSION_MIN_MACOSX) must name.
const EXPECTED = {
  'linux-x64-gnu': { format: 'elf', arch: 'x86_64', libc: 'glibc', glibc: '2.17' },
  'linux-arm64-gnu': { format: 'elf', arch: 'aarch64', libc: 'glibc', glibc: '2.17' },
  'linux-x64-musl': { format: 'elf', arch: 'x86_64', libc: 'musl' },
  'linux-arm64-musl': { format: 'elf', arch: 'aarch64', libc: 'musl' },
  'darwin-x64': { format: 'macho', arch: 'x86_64', minos: '10.13' },
  'darwin-arm64': { format: 'macho', arch: 'arm64', minos: '11.0', signed: true },
  'win32-x64-gnu': { format: 'pe', arch: 'x86_64' },
};

// Libraries a Linux binary may need: those of glibc itself (gnu) or musl's one libc.so.
const GLIBC_LIBRARIES = /^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libgcc_s\.so\.1|ld-linux-(x86-64|aarch64)\.so\.[12])$/;
const MUSL_LIBRARIES = /^(libc\.so|libc\.musl-(x86_64|aarch64)\.so\.1|libgcc_s\.so\.1)$/;
// DLLs every Windows 10 (Node 20's floor) has: the kernel, Winsock, the user profile API,
// the CNG primitives and the Universal CRT (api-ms-win-crt-*), with its API sets.
const WINDOWS_SYSTEM_DLLS = /^(kernel32|ntdll|ws2_32|userenv|bcrypt|bcryptprimitives|advapi32|msvcrt|ucrtbase|api-ms-win-[a-z0-9-]+)\.dll$/i;
// macOS's own libraries: the system library and what ships with it.
const DARWIN_SYSTEM_DYLIB = /^\/usr\/lib\/lib[\w.+-]+\.dylib$|^\/System\/Library\/Frameworks\//;

function cString(buf, at, limit = buf.length) {
  const end = buf.indexOf(0, at);
  return buf.toString('latin1', at, end < 0 || end > limit ? limit : end);
}

// ---- ELF ------------------------------------------------------------------------------

const ELF_MACHINES = { 0x3e: 'x86_64', 0xb7: 'aarch64' };

function readElf(buf, file) {
  if (buf[4] !== 2 || buf[5] !== 1) throw new Error(`${file} is not a little-endian 64-bit ELF file`);
  const type = buf.readUInt16LE(0x10);
  const machine = buf.readUInt16LE(0x12);
  const phoff = Number(buf.readBigUInt64LE(0x20));
  const shoff = Number(buf.readBigUInt64LE(0x28));
  const phentsize = buf.readUInt16LE(0x36);
  const phnum = buf.readUInt16LE(0x38);
  const shentsize = buf.readUInt16LE(0x3a);
  const shnum = buf.readUInt16LE(0x3c);
  const sections = Array.from({ length: shnum }, (_, i) => {
    const at = shoff + i * shentsize;
    return {
      type: buf.readUInt32LE(at + 4),
      offset: Number(buf.readBigUInt64LE(at + 24)),
      size: Number(buf.readBigUInt64LE(at + 32)),
      link: buf.readUInt32LE(at + 40),
      entsize: Number(buf.readBigUInt64LE(at + 56)),
    };
  });
  let interpreter = null;
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    if (buf.readUInt32LE(at) === 3 /* PT_INTERP */) {
      interpreter = cString(buf, Number(buf.readBigUInt64LE(at + 8)));
    }
  }
  // The dynamic symbol table (what dlsym sees) and the dynamic section's DT_NEEDED.
  const exported = [];
  const needed = [];
  for (const s of sections) {
    if (s.type === 11 /* SHT_DYNSYM */) {
      const strings = sections[s.link].offset;
      for (let at = s.offset + 24; at < s.offset + s.size; at += 24) {
        const info = buf[at + 4];
        const visibility = buf[at + 5] & 3;
        const shndx = buf.readUInt16LE(at + 6);
        const binding = info >> 4;
        const defined = shndx !== 0;
        if (defined && (binding === 1 || binding === 2) && visibility === 0) {
          exported.push({ name: cString(buf, strings + buf.readUInt32LE(at)), function: (info & 0xf) === 2 });
        }
      }
    }
    if (s.type === 6 /* SHT_DYNAMIC */) {
      const strings = sections[s.link].offset;
      for (let at = s.offset; at < s.offset + s.size; at += 16) {
        const tag = buf.readBigInt64LE(at);
        if (tag === 0n) break;
        if (tag === 1n /* DT_NEEDED */) needed.push(cString(buf, strings + Number(buf.readBigUInt64LE(at + 8))));
      }
    }
  }
  return {
    format: 'elf',
    arch: ELF_MACHINES[machine] ?? `machine 0x${machine.toString(16)}`,
    sharedLibrary: type === 3 /* ET_DYN */ && interpreter === null,
    interpreter,
    exports: exported.filter((e) => e.function).map((e) => e.name),
    needed,
    versions: versionsNeeded(file),
  };
}

// ---- Mach-O ---------------------------------------------------------------------------

const MACHO_CPUS = { 0x01000007: 'x86_64', 0x0100000c: 'arm64' };
const LC = {
  SYMTAB: 0x2,
  LOAD_DYLIB: 0xc,
  ID_DYLIB: 0xd,
  CODE_SIGNATURE: 0x1d,
  VERSION_MIN_MACOSX: 0x24,
  BUILD_VERSION: 0x32,
  LOAD_WEAK_DYLIB: 0x80000018,
  REEXPORT_DYLIB: 0x8000001f,
  DYLD_INFO_ONLY: 0x80000022,
  DYLD_EXPORTS_TRIE: 0x80000033,
};

// A packed version (xxxx.yy.zz in nibbles) as '11.0' or '10.13.2'.
function machoVersion(v) {
  const parts = [v >>> 16, (v >> 8) & 0xff];
  if (v & 0xff) parts.push(v & 0xff);
  return parts.join('.');
}

function uleb(buf, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = buf[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

// The names in a dyld export trie: each node is a terminal size (and, when it is not 0, the
// export's flags and address), then its edges: a label and the offset of the child node.
function exportTrie(buf, start, size) {
  const names = [];
  const seen = new Set();
  const visit = (offset, prefix) => {
    if (offset >= size || seen.has(offset)) throw new Error('malformed export trie');
    seen.add(offset);
    let [terminal, at] = uleb(buf, start + offset);
    if (terminal > 0) names.push(prefix);
    at += terminal;
    const children = buf[at++];
    for (let i = 0; i < children; i++) {
      const label = cString(buf, at);
      at += Buffer.byteLength(label, 'latin1') + 1;
      const [child, next] = uleb(buf, at);
      at = next;
      visit(child, prefix + label);
    }
  };
  if (size > 0) visit(0, '');
  return names;
}

const CS = { SUPERBLOB: 0xfade0cc0, CODEDIRECTORY: 0xfade0c02, ADHOC: 0x2, LINKER_SIGNED: 0x20000, SIGNATURESLOT: 0x10000 };
const CS_HASHES = { 1: ['sha1', 20], 2: ['sha256', 32], 3: ['sha256', 20] };

// The code signature as macOS checks it: the SuperBlob's CodeDirectory gives a hash for each
// page of the file up to codeLimit, and for each special slot (requirements, entitlements)
// the hash of that blob. { adhoc, identifier, pages, problems: [...] }.
function codeSignature(buf, dataoff, datasize) {
  const problems = [];
  const blob = buf.subarray(dataoff, dataoff + datasize);
  if (blob.length < 12 || blob.readUInt32BE(0) !== CS.SUPERBLOB) return { problems: ['the code signature is not a SuperBlob'] };
  const count = blob.readUInt32BE(8);
  const slots = new Map();
  for (let i = 0; i < count; i++) slots.set(blob.readUInt32BE(12 + i * 8), blob.readUInt32BE(16 + i * 8));
  if (!slots.has(0)) return { problems: ['the code signature has no CodeDirectory'] };
  const cd = blob.subarray(slots.get(0));
  if (cd.readUInt32BE(0) !== CS.CODEDIRECTORY) return { problems: ['slot 0 of the code signature is not a CodeDirectory'] };
  const flags = cd.readUInt32BE(12);
  const hashOffset = cd.readUInt32BE(16);
  const identifier = cString(cd, cd.readUInt32BE(20));
  const nSpecial = cd.readUInt32BE(24);
  const nCode = cd.readUInt32BE(28);
  const codeLimit = cd.readUInt32BE(32);
  const hashSize = cd[36];
  const hashType = cd[37];
  const pageSize = 2 ** cd[39];
  const [algorithm, size] = CS_HASHES[hashType] ?? [];
  if (!algorithm || size !== hashSize) return { problems: [`the CodeDirectory uses hash type ${hashType} of ${hashSize} bytes`] };
  const hash = (bytes) => crypto.createHash(algorithm).update(bytes).digest().subarray(0, hashSize);
  if (codeLimit !== dataoff) problems.push(`the signature covers ${codeLimit} bytes, but the signature data starts at ${dataoff}`);
  if (nCode !== Math.ceil(codeLimit / pageSize)) problems.push(`${nCode} page hashes for ${codeLimit} bytes in pages of ${pageSize}`);
  let bad = 0;
  for (let i = 0; i < nCode; i++) {
    const page = buf.subarray(i * pageSize, Math.min((i + 1) * pageSize, codeLimit));
    if (!hash(page).equals(cd.subarray(hashOffset + i * hashSize, hashOffset + (i + 1) * hashSize))) bad++;
  }
  if (bad) problems.push(`${bad} of ${nCode} pages do not match their hash in the CodeDirectory`);
  // Special slot k (hash at hashOffset - k * hashSize) holds the hash of blob k of the
  // SuperBlob, or zeros where there is none.
  for (let k = 1; k <= nSpecial; k++) {
    const stored = cd.subarray(hashOffset - k * hashSize, hashOffset - (k - 1) * hashSize);
    if (slots.has(k)) {
      const at = slots.get(k);
      if (!hash(blob.subarray(at, at + blob.readUInt32BE(at + 4))).equals(stored)) problems.push(`special slot ${k} does not match its blob`);
    } else if (stored.some((b) => b !== 0)) {
      problems.push(`special slot ${k} has a hash but the signature has no blob ${k}`);
    }
  }
  const adhoc = (flags & CS.ADHOC) !== 0;
  if (!adhoc) problems.push('the signature is not ad hoc');
  // An ad hoc signature carries no CMS blob, or an empty one.
  if (slots.has(CS.SIGNATURESLOT) && blob.readUInt32BE(slots.get(CS.SIGNATURESLOT) + 4) > 8) problems.push('an ad hoc signature with a CMS signature');
  return { adhoc, linkerSigned: (flags & CS.LINKER_SIGNED) !== 0, identifier, pages: nCode, pageSize, algorithm, problems };
}

function readMacho(buf, file) {
  if (buf.readUInt32LE(0) !== 0xfeedfacf) throw new Error(`${file} is not a 64-bit little-endian Mach-O file`);
  const cpu = buf.readUInt32LE(4);
  const filetype = buf.readUInt32LE(12);
  const ncmds = buf.readUInt32LE(16);
  const facts = {
    format: 'macho',
    arch: MACHO_CPUS[cpu] ?? `cputype 0x${cpu.toString(16)}`,
    sharedLibrary: filetype === 6 /* MH_DYLIB */ || filetype === 8 /* MH_BUNDLE */,
    minos: null,
    sdk: null,
    installName: null,
    dylibs: [],
    exports: [],
    signature: null,
  };
  let at = 32;
  for (let i = 0; i < ncmds; i++) {
    const cmd = buf.readUInt32LE(at);
    const size = buf.readUInt32LE(at + 4);
    switch (cmd) {
      case LC.BUILD_VERSION:
        if (buf.readUInt32LE(at + 8) === 1 /* PLATFORM_MACOS */) {
          facts.minos = machoVersion(buf.readUInt32LE(at + 12));
          facts.sdk = machoVersion(buf.readUInt32LE(at + 16));
        }
        break;
      case LC.VERSION_MIN_MACOSX:
        facts.minos = machoVersion(buf.readUInt32LE(at + 8));
        facts.sdk = machoVersion(buf.readUInt32LE(at + 12));
        break;
      case LC.ID_DYLIB:
        facts.installName = cString(buf, at + buf.readUInt32LE(at + 8), at + size);
        break;
      case LC.LOAD_DYLIB:
      case LC.LOAD_WEAK_DYLIB:
      case LC.REEXPORT_DYLIB:
        facts.dylibs.push(cString(buf, at + buf.readUInt32LE(at + 8), at + size));
        break;
      case LC.DYLD_INFO_ONLY:
        facts.exports.push(...exportTrie(buf, buf.readUInt32LE(at + 40), buf.readUInt32LE(at + 44)));
        break;
      case LC.DYLD_EXPORTS_TRIE:
        facts.exports.push(...exportTrie(buf, buf.readUInt32LE(at + 8), buf.readUInt32LE(at + 12)));
        break;
      case LC.CODE_SIGNATURE:
        facts.signature = codeSignature(buf, buf.readUInt32LE(at + 8), buf.readUInt32LE(at + 12));
        break;
      default:
    }
    at += size;
  }
  // C symbols carry a leading underscore in Mach-O.
  facts.exports = facts.exports.map((name) => (name.startsWith('_') ? name.slice(1) : `(no underscore) ${name}`));
  return facts;
}

// ---- PE -------------------------------------------------------------------------------

const PE_MACHINES = { 0x8664: 'x86_64', 0xaa64: 'arm64', 0x14c: 'i386' };

function readPe(buf, file) {
  const pe = buf.readUInt32LE(0x3c);
  if (buf.readUInt32LE(pe) !== 0x00004550) throw new Error(`${file} has an MZ header but no PE signature`);
  const machine = buf.readUInt16LE(pe + 4);
  const nsections = buf.readUInt16LE(pe + 6);
  const optionalSize = buf.readUInt16LE(pe + 20);
  const characteristics = buf.readUInt16LE(pe + 22);
  const optional = pe + 24;
  if (buf.readUInt16LE(optional) !== 0x20b) throw new Error(`${file} is not PE32+`);
  const directory = (i) => ({ rva: buf.readUInt32LE(optional + 112 + i * 8), size: buf.readUInt32LE(optional + 116 + i * 8) });
  const sections = Array.from({ length: nsections }, (_, i) => {
    const at = optional + optionalSize + i * 40;
    return { va: buf.readUInt32LE(at + 12), vsize: buf.readUInt32LE(at + 8), raw: buf.readUInt32LE(at + 20), rawSize: buf.readUInt32LE(at + 16) };
  });
  const offset = (rva) => {
    const s = sections.find((x) => rva >= x.va && rva < x.va + Math.max(x.vsize, x.rawSize));
    if (!s) throw new Error(`${file}: RVA 0x${rva.toString(16)} is in no section`);
    return rva - s.va + s.raw;
  };
  const exports = [];
  const exportDir = directory(0);
  if (exportDir.rva) {
    const at = offset(exportDir.rva);
    const names = buf.readUInt32LE(at + 24);
    const nameTable = offset(buf.readUInt32LE(at + 32));
    for (let i = 0; i < names; i++) exports.push(cString(buf, offset(buf.readUInt32LE(nameTable + i * 4))));
  }
  // { dll, functions: [names] } of the import directory and of the delay-load one.
  const imports = [];
  const importDir = directory(1);
  if (importDir.rva) {
    for (let at = offset(importDir.rva); buf.readUInt32LE(at + 12) !== 0; at += 20) {
      const dll = cString(buf, offset(buf.readUInt32LE(at + 12)));
      const thunks = buf.readUInt32LE(at) || buf.readUInt32LE(at + 16);
      const functions = [];
      for (let t = offset(thunks); ; t += 8) {
        const entry = buf.readBigUInt64LE(t);
        if (entry === 0n) break;
        functions.push(entry >> 63n ? `#${entry & 0xffffn}` : cString(buf, offset(Number(entry & 0x7fffffffn)) + 2));
      }
      imports.push({ dll, functions });
    }
  }
  const delayDir = directory(13);
  if (delayDir.rva) {
    for (let at = offset(delayDir.rva); buf.readUInt32LE(at + 4) !== 0; at += 32) {
      imports.push({ dll: cString(buf, offset(buf.readUInt32LE(at + 4))), functions: ['(delay-loaded)'], delayed: true });
    }
  }
  return {
    format: 'pe',
    arch: PE_MACHINES[machine] ?? `machine 0x${machine.toString(16)}`,
    sharedLibrary: (characteristics & 0x2000) !== 0 /* IMAGE_FILE_DLL */,
    exports,
    imports,
  };
}

// ---- all formats ----------------------------------------------------------------------

// The facts of a binary: { format, arch, sharedLibrary, exports, ... } (see the readers).
function inspect(file) {
  const buf = fs.readFileSync(file);
  if (buf.length >= 4 && buf.readUInt32BE(0) === 0x7f454c46) return readElf(buf, file);
  if (buf.length >= 4 && buf.readUInt32LE(0) === 0xfeedfacf) return readMacho(buf, file);
  if (buf.length >= 0x40 && buf.toString('latin1', 0, 2) === 'MZ') return readPe(buf, file);
  throw new Error(`${file} is neither ELF, 64-bit Mach-O nor PE`);
}

// What is wrong with `file` as the binary of `platform`: [] when nothing is.
function problems(facts, platform) {
  const want = EXPECTED[platform];
  if (!want) throw new Error(`no expectations for platform ${platform}; known: ${Object.keys(EXPECTED).join(', ')}`);
  const found = [];
  if (facts.format !== want.format) return [`a ${facts.format} file, not ${want.format}`];
  if (facts.arch !== want.arch) found.push(`built for ${facts.arch}, not ${want.arch}`);
  if (!facts.sharedLibrary) found.push('not a shared library');
  if (!facts.exports.includes(REGISTER)) found.push(`does not export ${REGISTER}`);
  if (facts.format === 'elf') {
    const glibc = facts.versions.filter((v) => v.version.startsWith('GLIBC_')).map((v) => v.version.slice(6));
    if (want.libc === 'glibc') {
      const newer = glibc.filter((v) => compareVersions(v, want.glibc) > 0);
      if (newer.length) found.push(`needs GLIBC_${[...new Set(newer)].sort(compareVersions).join(', GLIBC_')}, above the ${want.glibc} baseline`);
      if (!facts.needed.includes('libc.so.6')) found.push('does not link against glibc (libc.so.6)');
      for (const lib of facts.needed) if (!GLIBC_LIBRARIES.test(lib)) found.push(`needs ${lib}, which is not part of glibc`);
    } else {
      if (facts.versions.length) found.push(`asks for symbol versions (${facts.versions.map((v) => v.version).join(', ')}), which musl does not have`);
      if (!facts.needed.some((lib) => lib.startsWith('libc.'))) found.push('does not link against a libc (a static musl cdylib cannot be loaded by Node)');
      for (const lib of facts.needed) if (!MUSL_LIBRARIES.test(lib)) found.push(`needs ${lib}, which musl systems do not have`);
    }
  }
  if (facts.format === 'macho') {
    if (facts.minos !== want.minos) found.push(`minimum macOS ${facts.minos}, not ${want.minos}`);
    for (const lib of facts.dylibs) if (!DARWIN_SYSTEM_DYLIB.test(lib)) found.push(`needs ${lib}, which is not a macOS system library`);
    if (facts.signature) found.push(...facts.signature.problems.map((p) => `code signature: ${p}`));
    else if (want.signed) found.push('has no code signature (macOS on arm64 loads no unsigned code)');
  }
  if (facts.format === 'pe') {
    for (const { dll, functions } of facts.imports) {
      if (!WINDOWS_SYSTEM_DLLS.test(dll)) found.push(`imports ${functions.join(', ')} from ${dll}, which is not a Windows system DLL`);
      const napi = functions.filter((f) => f.startsWith('napi_'));
      if (napi.length) found.push(`imports ${napi.join(', ')} from ${dll} (N-API functions are found at run time)`);
    }
  }
  return found;
}

function check(file, platform) {
  const facts = inspect(file);
  return { facts, problems: problems(facts, platform) };
}

// One line of what was found, for build logs and test diagnostics.
function summary(facts) {
  const parts = [facts.format, facts.arch, facts.sharedLibrary ? 'shared library' : 'not a shared library'];
  if (facts.exports.includes(REGISTER)) parts.push(`exports ${REGISTER}`);
  if (facts.format === 'elf') {
    const glibc = facts.versions.filter((v) => v.version.startsWith('GLIBC_')).map((v) => v.version.slice(6)).sort(compareVersions);
    parts.push(glibc.length ? `newest GLIBC_${glibc[glibc.length - 1]}` : 'no glibc symbol versions');
    parts.push(`needs ${facts.needed.join(' ') || 'nothing'}`);
  }
  if (facts.format === 'macho') {
    parts.push(`macOS ${facts.minos}+`);
    parts.push(facts.signature ? `${facts.signature.adhoc ? 'ad hoc' : 'non-ad-hoc'} signature, ${facts.signature.pages} ${facts.signature.algorithm} page hashes` : 'unsigned');
    parts.push(`needs ${facts.dylibs.join(' ')}`);
  }
  if (facts.format === 'pe') parts.push(`imports from ${facts.imports.map((i) => i.dll).join(' ')}`);
  return parts.join('; ');
}

module.exports = { inspect, problems, check, summary, EXPECTED, REGISTER };

if (require.main === module) {
  const [file, platform] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node scripts/inspect-binary.js <file> [<platform>]');
    process.exit(2);
  }
  const facts = inspect(file);
  console.log(summary(facts));
  if (platform) {
    const found = problems(facts, platform);
    for (const p of found) console.log(`problem: ${p}`);
    process.exitCode = found.length ? 1 : 0;
  }
}
