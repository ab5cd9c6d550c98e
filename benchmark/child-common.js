'use strict';
// What every child process shares: failure reasons named by stage, and the one JSON line it
// prints for run.js.

// Runs one stage of a measurement; a throw becomes an Error naming the stage, which ends up
// as the cell's reason in the report ("load failed: Cannot find module ...").
function step(stage, fn) {
  try {
    return fn();
  } catch (error) {
    throw new Error(`${stage} failed: ${error.message}`);
  }
}

// Runs the child's measurement and prints its result, or {ok: false, error}, as one line.
function printResult(cell, measure) {
  let result;
  try {
    result = { ...cell, ok: true, ...measure() };
  } catch (error) {
    result = { ...cell, ok: false, error: error.message };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

// Ops per second of `run` over `ms` milliseconds, after `ms / 2` of warm-up (the children
// of constructs.js and recursion.js).
function opsPerSecond(run, ms) {
  const { performance } = require('node:perf_hooks');
  const until = (end) => {
    let n = 0;
    while (performance.now() < end) {
      run();
      n++;
    }
    return n;
  };
  until(performance.now() + ms / 2);
  const start = performance.now();
  const n = until(start + ms);
  return (n * 1000) / (performance.now() - start);
}

module.exports = { step, printResult, opsPerSecond };
