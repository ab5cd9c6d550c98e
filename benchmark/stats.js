'use strict';
// Small numeric helpers shared by the children and the orchestrator.

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// Spread: (max - min) as a percent of the median, the noise figure printed beside each cell.
function spreadPercent(values) {
  return (100 * (Math.max(...values) - Math.min(...values))) / median(values);
}

// An ops/s figure as the tables print it.
function formatRate(x) {
  return x >= 100 ? x.toFixed(0) : x.toFixed(1);
}

// A table cell for the ops/s of several processes: `median (min-max)`, or n/a for none.
function medianRangeCell(values) {
  if (!values || values.length === 0) return 'n/a';
  return `${formatRate(median(values))} (${formatRate(Math.min(...values))}-${formatRate(Math.max(...values))})`;
}

module.exports = { median, spreadPercent, formatRate, medianRangeCell };
