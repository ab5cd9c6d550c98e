'use strict';
// Constraints as parts of a descriptor (docs/FORMAT.md, "Constraints"): which members of a
// node constrain its values (each type module lists its own, `constraints`), a copy of a
// descriptor without them, and whether a descriptor has any. The bytes of a value never
// depend on them, so a descriptor and its unconstrained copy read the same messages.

const { TYPES } = require('./types');
const { walk } = require('./walk');

/** The constraint members `d` has, as `[name, value]` pairs in its type's order. */
function constraintsOf(d) {
  const def = d !== null && typeof d === 'object' ? TYPES.get(d.type) : undefined;
  if (def === undefined) return [];
  return def.constraints.filter((name) => d[name] !== undefined).map((name) => [name, d[name]]);
}

/** Whether any node of `descriptor` has a constraint. */
function hasConstraints(descriptor) {
  let found = false;
  walk(descriptor, (d) => {
    if (!found && constraintsOf(d).length > 0) found = true;
  });
  return found;
}

/**
 * A copy of `descriptor` (a JSON value) with every constraint removed. Only descriptor
 * nodes lose members: a default's or a literal's value is data, whatever keys it has.
 */
function unconstrained(descriptor) {
  const copy = JSON.parse(JSON.stringify(descriptor));
  walk(copy, (d) => {
    for (const [name] of constraintsOf(d)) delete d[name];
  });
  return copy;
}

module.exports = { constraintsOf, hasConstraints, unconstrained };
