'use strict';
// Builds the binary of a platform package (npm/<platform>/shorn.<platform>.node) for
// publishing. linux-x64-gnu is linked by zig against glibc 2.17 (`cargo zigbuild --target
// x86_64-unknown-linux-gnu.2.17`), the baseline napi-rs uses: a plain `cargo build` here
// links against this machine's glibc (Debian 12) and needs GLIBC_2.34, so it would refuse to
// load on Debian 11, Ubuntu 20.04 or RHEL 8 (glibc 2.31, 2.31, 2.28), which all run Node 20. The other declared platforms need their own
// Rust std and SDK, which this machine cannot fetch; they are built on their own hosts.
//
//   node scripts/build-platform.js [linux-x64-gnu]     (npm run build:platform)
//
// zig and cargo-zigbuild come from scripts/tools.js (installed on first use).

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const tools = require('./tools');
const { highestGlibc, compareVersions } = require('./elf');

const root = path.join(__dirname, '..');
const GLIBC_BASELINE = '2.17';
const BUILDS = {
  'linux-x64-gnu': { triple: 'x86_64-unknown-linux-gnu', output: 'libshorn.so', glibc: GLIBC_BASELINE },
};

function build(platform) {
  const spec = BUILDS[platform];
  if (!spec) {
    const declared = fs.readdirSync(path.join(root, 'npm'));
    throw new Error(
      declared.includes(platform)
        ? `${platform} is declared (npm/${platform}) but cannot be built on this machine; build it on a ${platform} host`
        : `unknown platform ${platform}; declared: ${declared.join(', ')}`,
    );
  }
  const { zig, cargoZigbuild } = tools.ensure();
  const started = Date.now();
  const args = ['zigbuild', '--release', '--lib', '--target', `${spec.triple}.${spec.glibc}`];
  console.error(`shorn: cargo ${args.join(' ')}`);
  const run = spawnSync('cargo', args, {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PATH: `${path.dirname(cargoZigbuild)}${path.delimiter}${process.env.PATH}`,
      CARGO_ZIGBUILD_ZIG_PATH: zig,
    },
  });
  if (run.error || run.status !== 0) throw new Error(`cargo zigbuild failed${run.error ? `: ${run.error.message}` : ''}`);

  const targetDir = process.env.CARGO_TARGET_DIR || path.join(root, 'target');
  const built = path.join(targetDir, spec.triple, 'release', spec.output);
  const needs = highestGlibc(built);
  if (needs && compareVersions(needs, spec.glibc) > 0) {
    throw new Error(`${built} needs GLIBC_${needs}, above the ${spec.glibc} baseline`);
  }
  const dest = path.join(root, 'npm', platform, `shorn.${platform}.node`);
  fs.copyFileSync(built, `${dest}.tmp`);
  fs.renameSync(`${dest}.tmp`, dest);
  const kb = (fs.statSync(dest).size / 1024).toFixed(0);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.error(`shorn: built ${path.relative(root, dest)} (${kb} KiB, needs GLIBC_${needs}) in ${seconds} s`);
  return dest;
}

module.exports = { build, GLIBC_BASELINE };

if (require.main === module) {
  try {
    build(process.argv[2] || 'linux-x64-gnu');
  } catch (e) {
    console.error(`shorn: ${e.message}`);
    process.exit(1);
  }
}
