'use strict';
// What the reader needs to judge the noise: the machine, and how busy it was around the run.
const fs = require('node:fs');
const os = require('node:os');

// Aggregate CPU jiffies from /proc/stat: [busy, total]. Linux only; elsewhere null.
function readCpuJiffies() {
  let line;
  try {
    line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  } catch {
    return null;
  }
  // cpu user nice system idle iowait irq softirq steal ...
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = fields.reduce((sum, n) => sum + n, 0);
  const idle = fields[3] + fields[4];
  return [total - idle, total];
}

function sleepMs(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

// Percent of all cores busy over `ms`, sampled while this process sleeps: what else is running.
function busyPercent(ms) {
  const before = readCpuJiffies();
  sleepMs(ms);
  const after = readCpuJiffies();
  if (!before || !after || after[1] === before[1]) return null;
  return (100 * (after[0] - before[0])) / (after[1] - before[1]);
}

function loadSnapshot() {
  return { loadavg: os.loadavg(), busyPercent: busyPercent(1000) };
}

function describeMachine() {
  const cpus = os.cpus();
  return {
    node: process.version,
    cpu: cpus[0] ? cpus[0].model.trim() : 'unknown',
    cores: cpus.length,
    platform: `${process.platform} ${process.arch}`,
    msgpackrNative: require('msgpackr').isNativeAccelerationEnabled,
  };
}

module.exports = { describeMachine, loadSnapshot };
