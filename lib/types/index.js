'use strict';
// The registry of types: one module per type (or family) in this folder, each holding
// everything the JS side knows of it: its builder (`t.<name>`), its children (for the one
// walker, lib/walk.js), the native compiler's rules for its descriptor (`members` and
// `rules`, for where no addon loads: lib/schema-rules.js), the message naming what it
// expects, its tape slots, its check (`test`) and the kinds of JS value it may take
// (`kinds`, by which a union of different kinds finds its variant: lib/lower.js), the
// generic marshaller's walk (`put`, lib/generic.js), and its one lowering (`lower`,
// lib/lower.js) that the back ends run over. What only the native back end does with a type is in that back end's modules:
// its tape read (lib/native.js, `TAPE_READS`), its check as generated code (lib/emit-tests.js)
// and its generated reads and writes (lib/take.js, lib/put.js, lib/small.js). The Rust
// side mirrors this layout in src/types/.

const MODULES = [
  require('./boolean'),
  require('./integer'),
  require('./int64'),
  require('./float'),
  require('./date'),
  require('./string'),
  require('./bytes'),
  require('./enum'),
  require('./literal'),
  require('./array'),
  require('./tuple'),
  require('./object'),
  require('./optional'),
  require('./default'),
  require('./record'),
  require('./map'),
  require('./union'),
  require('./recursive'),
  require('./json'),
  require('./typed-array'),
];

const TYPES = new Map();
for (const list of MODULES) {
  for (const def of list) {
    if (TYPES.has(def.name)) throw new Error(`shorn: type ${def.name} is defined twice`);
    // `constraints`: the descriptor members that constrain the type's values (lib/constraints.js).
    // `members`: what its descriptor may hold besides `type`; `rules(d, cx)`, how the native
    // compiler reads it (lib/schema-rules.js): a leaf with neither has none.
    TYPES.set(def.name, { children: () => [], constraints: [], members: [], ...def });
  }
}

// The builders, one per type: each returns a plain JSON-serialisable descriptor
// (docs/FORMAT.md, "Descriptors"), so a schema can be stored, sent and compiled again
// after JSON.parse(JSON.stringify(d)).
const t = {};
for (const [name, def] of TYPES) t[name] = def.build;

module.exports = { TYPES, t };
