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

module.exports = { median, spreadPercent };
