'use strict';
// optional (an object field whose key may be missing or undefined) and nullable (a value
// that may be null): one presence byte, then the value (src/types/optional.rs). Tape: one
// slot, 0 or 1, then the value's slots.

function presence(name, absent) {
  return {
    name,
    members: ['of'],
    // src/types/optional.rs: lib/schema-rules.js.
    rules(d, cx) {
      const inner = cx.node(cx.member(d, 'of'));
      if (inner.k === 'optional') throw cx.fail(`${name} of optional: optional must be outermost`);
      if (inner.k === 'nullable' && name === 'nullable') throw cx.fail('nullable of nullable');
      return { k: name, inner };
    },
    build: (of) => ({ type: name, of }),
    children: (d) => [[d.of, '']],
    expected: (d, g) => (name === 'nullable' ? `${g.expected(d.of)} or null` : g.expected(d.of)),
    slots: (d, g) => 1 + g.slots(d.of),
    test: (d, x, c) => x === (name === 'nullable' ? null : undefined) || c.test(d.of, x),
    put(c, d, x) {
      if (x === (name === 'nullable' ? null : undefined)) {
        c.write(0);
      } else {
        c.write(1);
        c.put(d.of, x, name === 'nullable' ? d : undefined);
      }
    },
    toJson: (d, x, c) => (x === (name === 'nullable' ? null : undefined) ? x : c.toJson(d.of, x)),
    fromJson: (d, j, c) => (j === (name === 'nullable' ? null : undefined) ? j : c.fromJson(d.of, j)),
    kinds: (d, K) => K.kind(name === 'nullable' ? 'null' : 'undefined') | K.kinds(d.of),
    lower: (d, L) => ({ op: 'presence', absent: name === 'nullable' ? null : undefined, of: L.node(d.of), cost: L.cost(d.of) }),
    minBytes: () => 1,
  };
}

module.exports = [presence('optional', 'undefined'), presence('nullable', 'null')];
