'use strict';
// The source of the golden vectors' value forms (tests/golden.json's `about`: $bytes,
// $number, $bigint, $date, $map and the typed arrays), as the programs that run outside
// this process take it in: the page of tests/browser/browser.test.js and the probe
// tests/package/package.test.js runs on Node, Deno and Bun. Defines fromHex, toHex and
// from(value). (In-process tests have __test__/helpers.js's fromGolden.)

const GOLDEN_VALUES_SOURCE = `const fromHex = (h) => new Uint8Array((h.match(/../g) || []).map((x) => parseInt(x, 16)));
const toHex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const SPECIAL = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };
const TYPED = { $float64Array: Float64Array, $float32Array: Float32Array, $int32Array: Int32Array, $uint32Array: Uint32Array, $int16Array: Int16Array, $uint16Array: Uint16Array, $int8Array: Int8Array };
function from(v) {
  if (Array.isArray(v)) return v.map(from);
  if (v === null || typeof v !== 'object') return v;
  if ('$bytes' in v) return fromHex(v.$bytes);
  if ('$number' in v) return SPECIAL[v.$number];
  if ('$bigint' in v) return BigInt(v.$bigint);
  if ('$date' in v) return new Date(v.$date);
  if ('$map' in v) return new Map(v.$map.map(([k, x]) => [from(k), from(x)]));
  for (const [k, C] of Object.entries(TYPED)) if (k in v) return C.from(v[k].map(from));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, from(x)]));
}`;

module.exports = { GOLDEN_VALUES_SOURCE };
