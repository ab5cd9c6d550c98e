'use strict';
// What one presence bitmap per object (a bit per optional or nullable field, instead of a
// byte each) would save on the corpora, from the data and the schemas benchmark/corpora.js
// writes: docs/DESIGN.md, "Presence bytes, not bitmaps", quotes its output.
//
//   node benchmark/presence-bitmap.js

const { t, compile } = require('..');
const { CORPORA, loadCorpus } = require('./corpora');

for (const c of CORPORA) {
  const schema = JSON.parse(JSON.stringify(c.shorn(t)));
  const data = loadCorpus(c.name);
  const bytes = compile(schema).encode(data).length;
  let now = 0, bitmap = 0, objects = 0;
  // Walk value along schema; count presence bytes of optional/nullable fields of objects.
  const refs = new Map();
  function walk(d, v) {
    while (d.type === 'default') d = d.of;
    if (d.type === 'recursive') { refs.set(d.name, d); return walk(d.schema, v); }
    if (d.type === 'ref') return walk(refs.get(d.name).schema, v);
    switch (d.type) {
      case 'object': {
        let k = 0;
        for (const f of d.fields) {
          let s = f.schema; const x = v[f.name];
          if (s.type === 'optional') { k++; if (x === undefined) continue; s = s.of; }
          if (s.type === 'nullable') { k++; if (x === null) continue; s = s.of; }
          walk(s, x);
        }
        now += k; bitmap += Math.ceil(k / 8); if (k) objects++;
        return;
      }
      case 'array': return v.forEach((x) => walk(d.items, x));
      case 'record': return Object.values(v).forEach((x) => walk(d.values, x));
      case 'map': return v.forEach((x, key) => { walk(d.keys, key); walk(d.values, x); });
      case 'nullable': case 'optional': if (v == null) return; return walk(d.of, v);
      case 'tuple': return d.items.forEach((s, i) => walk(s, v[i]));
      case 'discriminatedUnion': return walk(d.variants.find((o) => o.fields.find((f) => f.name === d.key).schema.value === v[d.key]), v);
      case 'union': return; // (no corpus schema has optional fields under a plain union)
      default: return;
    }
  }
  walk(schema, data);
  console.log(c.name.padEnd(14), 'bytes', bytes, 'presence bytes now', now, 'with bitmap', bitmap, 'saving', now - bitmap, `(${((now - bitmap) / bytes * 100).toFixed(1)}%)`);
}
