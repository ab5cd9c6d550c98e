'use strict';
// The text of a small message's strings for the JS read of small messages on the JS back
// end (lib/small.js, `string`, where code is generated: Node, not the browser build):
// what is not ASCII of up to 16 bytes (`rt.asciiText`) is decoded as the closures' `In`
// decodes text (lib/closures.js), or given up where it is not well-formed UTF-8.

const { In, FAULT } = require('./closures');
const { unitsText } = require('#host');

const NO_BYTES = new Uint8Array(0);

// `n` bytes of `b` from `p` as a string, or null where they are not well-formed UTF-8
// (the closures then read the message, and report it). Without it that read gave up on
// such a string, and the closures read the message from its start.
const SCRATCH_IN = new In({ maxStringBytes: -1, maxBytesLength: -1, maxArrayLength: -1, maxDepth: 1 }, Infinity);
function smallText(b, p, n) {
  const r = SCRATCH_IN;
  r.b = b;
  let s = null;
  try {
    s = n <= 24 ? r.shortUtf8(p, p + n) : r.decodeUtf8(p, p + n);
  } catch (e) {
    if (e !== FAULT) throw e;
  }
  r.b = NO_BYTES;
  return s;
}

// The same for a string that is a field of the message's object (lib/small.js, `string`),
// where its text is longer than `shortUtf8` takes and JS decodes it into UTF-16 units
// (host.unitsText.utf8): the units stay in the scratch, after those of the message's other
// such strings, and the read gets a number, which `LATER.take` turns into the string once
// the message is read. Then one `ucs2Slice` call (~80 ns, the most of what a string of
// unicodePerson cost) makes all of them, and each field is a slice of it: the native back
// end's way (lib/runtime.js, `areaText`). Where the text is anything else, its string,
// or null, as `smallText` gives.
const LATER_MAX = 16;
const LATER = {
  // Strings left in the scratch this message, and where each ends there (`ends[0]`: 0).
  n: 0,
  ends: new Int32Array(LATER_MAX + 1),
  /** Forgets what a read given up left. */
  reset() {
    LATER.n = 0;
    SCRATCH_IN.at = 0;
  },
  /** The string of every unit left in the scratch this message (then none are left). */
  text() {
    const s = unitsText.units(0, SCRATCH_IN.at);
    LATER.reset();
    return s;
  },
  /** String `k` of `text`. */
  take: (text, k) => text.slice(LATER.ends[k - 1], LATER.ends[k]),
};
function smallTextLater(b, p, n) {
  if (n <= 24 || LATER.n === LATER_MAX) return smallText(b, p, n);
  const r = SCRATCH_IN;
  const at = r.at;
  r.later = true;
  const s = smallText(b, p, n);
  r.later = false;
  if (r.at === at) return s;
  LATER.ends[++LATER.n] = r.at;
  return LATER.n;
}

module.exports = { smallText, smallTextLater, LATER };
