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

// CPU ticks used by this process and its waited-for children (the benchmark's own work), from
// /proc/self/stat: utime, stime, cutime, cstime, in the same clock ticks as /proc/stat.
function readOwnTicks() {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name, which sits in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.slice(11, 15).reduce((sum, n) => sum + Number(n), 0);
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

// Measures how busy other processes kept the CPUs while the benchmark ran: all busy time minus
// the benchmark's own. A 1 s sample before and after misses a build that starts mid-run.
function startOtherLoadWindow() {
  const start = readCpuJiffies();
  if (!start) return () => null;
  const ownStart = readOwnTicks();
  return function otherBusyPercent() {
    const end = readCpuJiffies();
    const own = readOwnTicks() - ownStart;
    const total = end[1] - start[1];
    return total > 0 ? Math.max(0, (100 * (end[0] - start[0] - own)) / total) : null;
  };
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

module.exports = { describeMachine, loadSnapshot, startOtherLoadWindow };
