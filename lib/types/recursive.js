'use strict';
// recursive and ref: a named definition whose body refers to itself, as plain JSON
// (src/types/recursive.rs): `t.recursive('Node', (self) => t.object({ kids: t.array(self)
// }))`. Nothing of it is on the wire or the tape. Each level counts against `maxDepth`
// (a cyclic value is an error, never a stack overflow). Generated code decodes a
// definition in a function of its own, which each ref calls (the native decode has
// checked the depth), and encodes one in a function of its own too, counting the depth;
// tests (of union variants) go to the generic marshaller, which follows refs to their
// definitions.

const { ShornError } = require('../errors');

function schemaError(message) {
  return new ShornError('ERR_SHORN_SCHEMA', `invalid schema: ${message}`);
}

// Generated code for a value the generic marshaller handles (see lib/codegen.js).
const handOff = {
  slots: () => 0,
  variable: true,
};

// The compiler's reading of a definition's or a ref's name (src/types/recursive.rs:
// lib/schema-rules.js).
function defName(d, cx) {
  const name = cx.member(d, 'name');
  if (typeof name !== 'string' || name === '') throw cx.fail('"name" must be a non-empty string');
  return name;
}

module.exports = [
  {
    ...handOff,
    name: 'recursive',
    members: ['name', 'schema'],
    // src/types/recursive.rs, `compile_recursive`: a definition, in scope for its own body.
    rules(d, cx) {
      const name = defName(d, cx);
      const id = cx.defs.length;
      cx.defs.push({ name, node: { k: 'literal', value: null } });
      cx.scopes.push([name, id]);
      try {
        cx.defs[id].node = cx.value(cx.member(d, 'schema'));
      } finally {
        cx.scopes.pop();
      }
      return { k: 'ref', id };
    },
    build(name, body) {
      if (typeof name !== 'string' || name === '' || typeof body !== 'function') {
        throw schemaError('t.recursive takes a name and a function (self) => type');
      }
      return { type: 'recursive', name, schema: body({ type: 'ref', name }) };
    },
    children: (d) => [[d.schema, '']],
    expected: (d, g) => g.expected(d.schema),
    test: (d, x, c) => c.nestTest(d, x, () => c.test(d.schema, x)),
    put(c, d, x) {
      c.enter(x);
      c.put(d.schema, x);
      c.depth--;
    },
    toJson: (d, x, c) => c.nestJson(() => c.toJson(d.schema, x), x),
    fromJson: (d, j, c) => c.nestJson(() => c.fromJson(d.schema, j), j),
    kinds: (d, K) => K.kinds(d.schema),
    lower: (d, L) => L.call(d),
    minBytes: (d, r) => r.defSize(d),
  },
  {
    ...handOff,
    name: 'ref',
    members: ['name'],
    // src/types/recursive.rs, `compile_ref`: the innermost definition of its name.
    rules(d, cx) {
      const name = defName(d, cx);
      for (let k = cx.scopes.length - 1; k >= 0; k--) if (cx.scopes[k][0] === name) return { k: 'ref', id: cx.scopes[k][1] };
      throw cx.fail(`ref ${JSON.stringify(name)} is not inside a recursive type of that name`);
    },
    build(name) {
      if (typeof name !== 'string' || name === '') throw schemaError('t.ref takes the name of an enclosing t.recursive');
      return { type: 'ref', name };
    },
    expected: (d) => d.name,
    // A ref is its definition's schema one level deeper (the definition itself, at the
    // recursive node, counts the first level).
    test: (d, x, c) => {
      const def = c.target(d);
      return c.nestTest(def, x, () => c.test(def.schema, x));
    },
    put(c, d, x) {
      c.enter(x);
      c.put(c.target(d).schema, x);
      c.depth--;
    },
    toJson: (d, x, c) => c.nestJson(() => c.toJson(c.target(d).schema, x), x),
    fromJson: (d, j, c) => c.nestJson(() => c.fromJson(c.target(d).schema, j), j),
    kinds: (d, K) => K.kinds(K.target(d)),
    lower: (d, L) => L.call(L.target(d)),
    minBytes: (d, r) => r.defSize(r.target(d)),
  },
];
