'use strict';
// Loads the native addon (the Rust core and N-API layer); the one place that does. It tries,
// in the order napi-rs's generated loaders use:
//
//   1. `shorn.node` at the package root: a local build, made in a git clone by `npm install`
//      or `npm run build` (scripts/build.js). Published packages never contain it.
//   2. The platform package for this process, `@shorn/<platform>-<arch>[-<abi>]` (npm/*/):
//      one prebuilt binary each, listed as optionalDependencies of the published package,
//      so npm installs only the one whose `os`, `cpu` and `libc` match (docs/PACKAGING.md).
//   3. Otherwise it throws one Error that names the platform, the package it looked for
//      and how to build from source.

const fs = require('node:fs');
const path = require('node:path');

// The platforms a package is published for: npm/<name>/, and their Rust targets in
// package.json "napi.targets" (__test__/loader.test.js checks the three agree). Windows's is
// built with the GNU toolchain (x86_64-pc-windows-gnu), and loads into the MSVC-built node.exe
// like any DLL.
const PLATFORMS = [
  'linux-x64-gnu',
  'linux-arm64-gnu',
  'linux-x64-musl',
  'linux-arm64-musl',
  'darwin-x64',
  'darwin-arm64',
  'win32-x64-gnu',
];
// The npm scope of the platform packages: @shorn/linux-x64-gnu and so on (docs/PACKAGING.md).
const SCOPE = '@shorn';
const SOURCE = 'https://github.com/shorn-codec/shorn';

// glibc or musl, detected as napi-rs's loaders do. Reading /usr/bin/ldd (a shell script that
// names glibc, or on Alpine a link to the musl loader) costs ~0.6 ms in a cold process here;
// process.report.getReport() costs ~6 ms, a fifth of the 30 ms cold-start budget, so it is
// asked only where there is no ldd (distroless images).
function isMusl() {
  try {
    return fs.readFileSync('/usr/bin/ldd').includes('musl');
  } catch {
    // No ldd (a distroless image): ask Node which libc it runs on.
  }
  // Without the report's network section (Node 20.13+), as napi-rs asks; the user's setting is
  // put back after.
  const excludeNetwork = process.report?.excludeNetwork;
  let report;
  try {
    if (process.report) process.report.excludeNetwork = true;
    report = process.report?.getReport?.();
  } finally {
    if (process.report) process.report.excludeNetwork = excludeNetwork;
  }
  if (report?.header?.glibcVersionRuntime) return false;
  const objects = Array.isArray(report?.sharedObjects) ? report.sharedObjects : [];
  return objects.some((f) => f.includes('libc.musl-') || f.includes('ld-musl-'));
}

// This process's platform as the packages name it: linux-arm64-musl, darwin-arm64, win32-x64-gnu.
function platformName() {
  const { platform, arch } = process;
  if (platform === 'linux') return `${platform}-${arch}-${isMusl() ? 'musl' : 'gnu'}`;
  if (platform === 'win32') return `${platform}-${arch}-gnu`;
  return `${platform}-${arch}`;
}

function notInstalled(e, request) {
  return e?.code === 'MODULE_NOT_FOUND' && String(e.message).includes(`'${request}'`);
}

function load() {
  const local = path.join(__dirname, '..', 'shorn.node');
  const failures = [];
  let cause;
  if (fs.existsSync(local)) {
    try {
      return require(local);
    } catch (e) {
      cause = e;
      failures.push(`${local} exists but failed to load: ${e.message}`);
    }
  }

  const name = platformName();
  const pkg = `${SCOPE}/${name}`;
  if (PLATFORMS.includes(name)) {
    try {
      return require(pkg);
    } catch (e) {
      if (!notInstalled(e, pkg)) {
        cause = e;
        failures.push(`${pkg} is installed but failed to load: ${e.message}`);
      } else {
        failures.push(
          `${pkg} is not installed. It is an optional dependency of shorn; npm skips it when ` +
            'optional dependencies are omitted (--omit=optional) or when the lockfile was made on ' +
            'another platform: reinstall shorn on this machine.',
        );
      }
    }
  } else {
    failures.push(
      `shorn publishes no ${pkg} package: prebuilt binaries exist for ${PLATFORMS.join(', ')} (${SCOPE}/<platform>).`,
    );
  }

  const error = new Error(
    `shorn: no native addon for ${name} (process.platform '${process.platform}', ` +
      `process.arch '${process.arch}'). Looked for the platform package ${pkg} and a local build at ${local}.\n` +
      failures.map((f) => `  - ${f}\n`).join('') +
      `To build from source (needs Rust's cargo, https://rustup.rs): git clone ${SOURCE}, then in the clone ` +
      '`npm install` (which runs `npm run build`); use it from your app with `npm install <path-to-clone>`.',
    cause ? { cause } : undefined,
  );
  error.code = 'ERR_SHORN_NO_ADDON';
  error.platform = name;
  error.package = pkg;
  throw error;
}

module.exports = load();
