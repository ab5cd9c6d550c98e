'use strict';
// Builds the binaries of the platform packages (npm/<platform>/shorn.<platform>.node) for
// publishing, all on this one Linux x64 machine: Rust's standard library for each target
// (`rustup target add`), linked by zig through cargo-zigbuild, then checked without being run
// (scripts/inspect-binary.js) before it is copied into npm/<platform>/.
//
//   linux-x64-gnu, linux-arm64-gnu   against glibc 2.17 (`--target <triple>.2.17`), the baseline
//                                    napi-rs uses: a plain cargo build here needs GLIBC_2.34
//   linux-x64-musl, linux-arm64-musl with `-C target-feature=-crt-static`: a musl cdylib must
//                                    link musl's libc.so dynamically to be dlopen()ed by Node
//   darwin-x64, darwin-arm64         MACOSX_DEPLOYMENT_TARGET 10.13 / 11.0 (otherwise the
//                                    binary asks for the SDK's macOS); zig's linker signs the
//                                    arm64 binary ad hoc, as Apple's does
//   win32-x64-gnu                    x86_64-pc-windows-gnu (MSVC's libraries are not to be had
//                                    here), against an import library for node.exe that zig's
//                                    dlltool makes from a one-line .def: napi-build asks for
//                                    one, but napi-rs finds N-API at run time, so the DLL
//                                    imports nothing from it (checked)
//
// Every binary is stripped of symbols (CARGO_PROFILE_RELEASE_STRIP=symbols; the darwin ones
// exceed 2 MB otherwise). Each platform has its own cargo target folder under
// target/platforms/, kept between runs (a second run with no change takes seconds); two
// platforms build at a time at -j1 each, since the LTO step of each is single-threaded.
// Nothing is written to npm/ before every platform's prerequisites are found, and a binary
// that fails its checks is not copied.
//
//   node scripts/build-platform.js [platform...]   (npm run build:platform: linux-x64-gnu)
//   node scripts/build-platform.js --all           (npm run build:platforms: all seven)
//
// SHORN_PLATFORM_JOBS sets how many platforms build at once (default 2).

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const tools = require('./tools');
const { check, summary, EXPECTED } = require('./inspect-binary');

const root = path.join(__dirname, '..');
const GLIBC_BASELINE = EXPECTED['linux-x64-gnu'].glibc;
const MAX_BYTES = 2 * 1024 * 1024;
const targetRoot = path.join(root, 'target', 'platforms');

const PLATFORMS = {
  'linux-x64-gnu': { triple: 'x86_64-unknown-linux-gnu', glibc: GLIBC_BASELINE, output: 'libshorn.so' },
  'linux-arm64-gnu': { triple: 'aarch64-unknown-linux-gnu', glibc: EXPECTED['linux-arm64-gnu'].glibc, output: 'libshorn.so' },
  'linux-x64-musl': { triple: 'x86_64-unknown-linux-musl', rustflags: ['-C', 'target-feature=-crt-static'], output: 'libshorn.so' },
  'linux-arm64-musl': { triple: 'aarch64-unknown-linux-musl', rustflags: ['-C', 'target-feature=-crt-static'], output: 'libshorn.so' },
  'darwin-x64': { triple: 'x86_64-apple-darwin', macos: EXPECTED['darwin-x64'].minos, output: 'libshorn.dylib' },
  'darwin-arm64': { triple: 'aarch64-apple-darwin', macos: EXPECTED['darwin-arm64'].minos, output: 'libshorn.dylib' },
  'win32-x64-gnu': { triple: 'x86_64-pc-windows-gnu', libnode: true, output: 'shorn.dll' },
};

// The Rust targets whose standard library is missing from the active toolchain.
function missingTargets(triples) {
  const sysroot = spawnSync('rustc', ['--print', 'sysroot'], { encoding: 'utf8' });
  if (sysroot.error || sysroot.status !== 0) throw new Error(`cannot run rustc (${sysroot.error?.message ?? sysroot.stderr.trim()}); install Rust with rustup (https://rustup.rs)`);
  const lib = (triple) => path.join(sysroot.stdout.trim(), 'lib', 'rustlib', triple, 'lib');
  return triples.filter((triple) => !fs.existsSync(lib(triple)) || !fs.readdirSync(lib(triple)).some((f) => f.startsWith('libstd-')));
}

// Adds the missing standard libraries with rustup, or says which are missing and how to get them.
function ensureTargets(triples) {
  let missing = missingTargets(triples);
  if (!missing.length) return;
  const rustup = spawnSync('rustup', ['target', 'add', ...missing], { stdio: 'inherit' });
  missing = missingTargets(triples);
  if (missing.length) {
    throw new Error(
      `the Rust standard library is missing for ${missing.join(', ')}` +
        (rustup.error ? ' and rustup is not installed' : ' and `rustup target add` did not install it') +
        `: run \`rustup target add ${missing.join(' ')}\` with a rustup-managed toolchain; nothing was built`,
    );
  }
}

// The import library napi-build links win32-x64-gnu against (LIBNODE_PATH): made by zig's
// dlltool from a .def that names node.exe and one N-API function.
function libnode(zig) {
  const dir = path.join(targetRoot, 'libnode');
  const lib = path.join(dir, 'libnode.a');
  if (fs.existsSync(lib)) return dir;
  fs.mkdirSync(dir, { recursive: true });
  const def = path.join(dir, 'node.def');
  fs.writeFileSync(def, 'LIBRARY node.exe\nEXPORTS\n  napi_module_register\n');
  const run = spawnSync(zig, ['dlltool', '-d', def, '-l', `${lib}.tmp`, '-m', 'i386:x86-64'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) throw new Error(`zig dlltool could not make the import library for node.exe: ${run.error?.message ?? run.stderr.trim()}`);
  // napi-build checks that LIBNODE_PATH holds a libnode.dll, then passes -lnode, which zig's
  // linker resolves to libnode.a: both are the import library.
  fs.copyFileSync(`${lib}.tmp`, path.join(dir, 'libnode.dll'));
  fs.renameSync(`${lib}.tmp`, lib);
  return dir;
}

// The cargo command and environment that build `platform`.
function invocation(platform, found) {
  const spec = PLATFORMS[platform];
  const targetDir = path.join(targetRoot, platform);
  const env = {
    ...process.env,
    PATH: `${path.dirname(found.cargoZigbuild)}${path.delimiter}${process.env.PATH}`,
    CARGO_ZIGBUILD_ZIG_PATH: found.zig,
    CARGO_TARGET_DIR: targetDir,
    CARGO_PROFILE_RELEASE_STRIP: 'symbols',
  };
  // The flags below are the target's own (CARGO_TARGET_<TRIPLE>_RUSTFLAGS); a RUSTFLAGS from
  // the caller's environment would replace them, so it is not passed on.
  delete env.RUSTFLAGS;
  delete env.CARGO_ENCODED_RUSTFLAGS;
  const rustflags = [...(spec.rustflags ?? [])];
  if (spec.macos) {
    env.MACOSX_DEPLOYMENT_TARGET = spec.macos;
    // The library's own name, instead of the build folder's path.
    rustflags.push('-C', `link-arg=-Wl,-install_name,@rpath/shorn.${platform}.node`);
  }
  if (spec.libnode) env.LIBNODE_PATH = libnode(found.zig);
  if (rustflags.length) env[`CARGO_TARGET_${spec.triple.toUpperCase().replace(/-/g, '_')}_RUSTFLAGS`] = rustflags.join(' ');
  const zigTarget = spec.glibc ? `${spec.triple}.${spec.glibc}` : spec.triple;
  const args = ['zigbuild', '--release', '--lib', '--locked', '-j', process.env.SHORN_PLATFORM_CARGO_JOBS || '1', '--target', zigTarget];
  return { args, env, built: path.join(targetDir, spec.triple, 'release', spec.output) };
}

// Checks the built file, then copies it into npm/<platform>/ (to a temporary name, renamed,
// so no process ever loads half a file).
function finish(platform, built, started) {
  const { facts, problems } = check(built, platform);
  const bytes = fs.statSync(built).size;
  if (bytes >= MAX_BYTES) problems.push(`${bytes} bytes, over the 2 MB a platform package may weigh`);
  if (problems.length) throw new Error(`${platform}: ${built} fails its checks:\n  - ${problems.join('\n  - ')}`);
  const dest = path.join(root, 'npm', platform, `shorn.${platform}.node`);
  fs.copyFileSync(built, `${dest}.tmp`);
  fs.renameSync(`${dest}.tmp`, dest);
  const seconds = (Date.now() - started) / 1000;
  console.error(`shorn: built ${path.relative(root, dest)} (${(bytes / 1024).toFixed(0)} KiB) in ${seconds.toFixed(1)} s: ${summary(facts)}`);
  return { platform, file: dest, bytes, seconds, facts };
}

function prepare(platforms) {
  for (const platform of platforms) {
    if (!PLATFORMS[platform]) throw new Error(`unknown platform ${platform}; the platforms are ${Object.keys(PLATFORMS).join(', ')}`);
    if (!fs.existsSync(path.join(root, 'npm', platform, 'package.json'))) throw new Error(`npm/${platform}/package.json is missing`);
  }
  const found = tools.ensure();
  ensureTargets(platforms.map((p) => PLATFORMS[p].triple));
  fs.mkdirSync(targetRoot, { recursive: true });
  return found;
}

// Builds one platform, in the foreground: the path of its checked binary in npm/<platform>/.
function build(platform) {
  const found = prepare([platform]);
  const started = Date.now();
  const { args, env, built } = invocation(platform, found);
  console.error(`shorn: ${platform}: cargo ${args.join(' ')}`);
  const run = spawnSync('cargo', args, { cwd: root, stdio: 'inherit', env });
  if (run.error || run.status !== 0) throw new Error(`${platform}: cargo zigbuild failed${run.error ? `: ${run.error.message}` : ''}`);
  return finish(platform, built, started).file;
}

// Builds several platforms, `jobs` at a time, each cargo's output in
// target/platforms/<platform>.log (shown when it fails). Resolves to the results of all,
// or rejects naming every platform that failed, after the others finished.
async function buildMany(platforms, { jobs = Number(process.env.SHORN_PLATFORM_JOBS) || 2 } = {}) {
  const found = prepare(platforms);
  const queue = [...platforms];
  const results = [];
  const failures = [];
  const worker = async () => {
    while (queue.length) {
      const platform = queue.shift();
      const started = Date.now();
      try {
        const { args, env, built } = invocation(platform, found);
        const log = path.join(targetRoot, `${platform}.log`);
        console.error(`shorn: ${platform}: cargo ${args.join(' ')} (log: ${path.relative(root, log)})`);
        const out = fs.openSync(log, 'w');
        const code = await new Promise((resolve) => {
          const child = spawn('cargo', args, { cwd: root, env, stdio: ['ignore', out, out] });
          child.on('error', (e) => resolve(e.message));
          child.on('close', resolve);
        });
        fs.closeSync(out);
        if (code !== 0) {
          const tail = fs.readFileSync(log, 'utf8').split('\n').slice(-30).join('\n');
          throw new Error(`${platform}: cargo zigbuild failed (${code}); the end of ${log}:\n${tail}`);
        }
        results.push(finish(platform, built, started));
      } catch (e) {
        failures.push(e.message);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, platforms.length)) }, worker));
  if (failures.length) throw new Error(`${failures.length} of ${platforms.length} platforms failed:\n${failures.join('\n')}`);
  return platforms.map((p) => results.find((r) => r.platform === p));
}

module.exports = { build, buildMany, PLATFORMS, GLIBC_BASELINE, MAX_BYTES };

if (require.main === module) {
  const argv = process.argv.slice(2);
  const platforms = argv.includes('--all') ? Object.keys(PLATFORMS) : argv.length ? argv : ['linux-x64-gnu'];
  const started = Date.now();
  buildMany(platforms).then(
    (results) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.error(`shorn: ${results.length} platform binaries built and checked in ${seconds} s:`);
      for (const r of results) console.error(`  ${r.platform.padEnd(17)} ${(r.bytes / 1024).toFixed(0).padStart(5)} KiB`);
    },
    (e) => {
      console.error(`shorn: ${e.message}`);
      process.exit(1);
    },
  );
}
