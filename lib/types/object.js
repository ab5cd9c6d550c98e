'use strict';
// object: each field's value in schema order; nothing else (src/types/object.rs). Fields
// are read as properties (getters run), but a field named like an Object.prototype member
// is read only as an own property; decode builds plain objects with the keys in schema
// order, each an own data property (`__proto__` included).

const { ShornError, pathKey } = require('../errors');
const rt = require('#runtime');

// Names that plain objects inherit from Object.prototype: a field with one of these names
// is read only as an own property, so a missing optional `toString` is absent, not a
// function, and `__proto__` never reaches the prototype.
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

function fieldValue(x, name) {
  return INHERITED.has(name) && !Object.hasOwn(x, name) ? undefined : x[name];
}



module.exports = [
  {
    name: 'object',
    members: ['fields', 'strict'],
    // src/types/object.rs: lib/schema-rules.js.
    rules(d, cx) {
      const list = cx.member(d, 'fields');
      if (!Array.isArray(list)) throw cx.fail('object "fields" must be an array of { name, schema }');
      if (Object.hasOwn(d, 'strict') && typeof d.strict !== 'boolean') throw cx.fail('object "strict" must be a boolean');
      const seen = new Set();
      const fields = list.map((f, i) => {
        const name = f !== null && typeof f === 'object' && !Array.isArray(f) ? f.name : undefined;
        if (typeof name !== 'string') throw cx.fail(`object field ${i} needs a string "name"`);
        if (seen.has(name)) throw cx.fail(`field ${JSON.stringify(name)} appears twice`);
        seen.add(name);
        if (!Object.hasOwn(f, 'schema')) throw cx.fail(`object field ${JSON.stringify(name)} needs a "schema"`);
        return { name, node: cx.within(pathKey(name), () => cx.node(f.schema)) };
      });
      return { k: 'object', fields };
    },
    build(fields, options = {}) {
      if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
        throw new ShornError('ERR_SHORN_SCHEMA', 'invalid schema: t.object takes an object of { name: type }');
      }
      // Own keys in JS order: that order is the field order on the wire.
      const list = Object.keys(fields).map((name) => ({ name, schema: fields[name] }));
      return { type: 'object', fields: list, strict: options.strict === true };
    },
    children: (d) =>
      Array.isArray(d.fields)
        ? d.fields.filter((f) => f && typeof f === 'object').map((f) => [f.schema, pathKey(String(f.name))])
        : [],
    expected: () => 'object',
    slots: (d, g) => d.fields.reduce((n, f) => n + g.slots(f.schema), 0),
    test(d, x, c) {
      if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
      for (const f of d.fields) {
        const y = fieldValue(x, f.name);
        if (f.schema.type === 'optional' ? y !== undefined && !c.test(f.schema.of, y) : !c.test(f.schema, y)) return false;
      }
      return !d.strict || rt.onlyKeys(x, new Set(d.fields.map((f) => f.name)));
    },
    put(c, d, x, shown) {
      if (typeof x !== 'object' || x === null || Array.isArray(x)) throw c.fail(shown, x);
      for (const f of d.fields) {
        c.segments.push(f.name);
        c.put(f.schema, fieldValue(x, f.name));
        c.segments.pop();
      }
      if (d.strict) {
        const names = c.m.cached('strict', d, () => new Set(d.fields.map((f) => f.name)));
        // Collecting (`check`): every unknown key, the first one thrown.
        // As many as the list has room for (`maxIssues`); a loop, not push(...): 250k
        // unknown keys were a RangeError (issue 37, finding 7).
        const [error = null, ...rest] = c.issues === null ? [rt.strictError(x, names, c.path())] : rt.strictError(x, names, c.path(), true, c.room());
        for (const e of rest) c.pending.push(e);
        if (error !== null) throw (c.thrown = error);
      }
    },
    toJson(d, x, c) {
      if (typeof x !== 'object' || x === null || Array.isArray(x)) return x;
      const o = {};
      for (const f of d.fields) {
        const y = fieldValue(x, f.name);
        if (y !== undefined || (f.schema.type !== 'optional' && f.schema.type !== 'default')) rt.defineOwn(o, f.name, c.toJson(f.schema, y));
      }
      return o;
    },
    fromJson(d, j, c) {
      if (typeof j !== 'object' || j === null || Array.isArray(j)) return j;
      const o = {};
      for (const f of d.fields) {
        const y = Object.hasOwn(j, f.name) ? j[f.name] : undefined;
        if (y !== undefined || (f.schema.type !== 'optional' && f.schema.type !== 'default')) rt.defineOwn(o, f.name, c.fromJson(f.schema, y));
      }
      return o;
    },
    // Each field: how it may be missing (`kind`), and whether it is read as an own
    // property only (`own`).
    kinds: 'object',
    lower: (d, L) => ({
      op: 'object',
      strict: d.strict ? new Set(d.fields.map((f) => f.name)) : null,
      fields: d.fields.map((f) => {
        const kind = f.schema.type === 'optional' || f.schema.type === 'default' ? f.schema.type : 'plain';
        return { name: f.name, kind, own: INHERITED.has(f.name), node: L.node(kind === 'plain' ? f.schema : f.schema.of), d: f.schema };
      }),
    }),
    minBytes: (d, r) => d.fields.reduce((n, f) => n + r.minBytes(f.schema), 0),
  },
];

module.exports.INHERITED = INHERITED;
module.exports.fieldValue = fieldValue;
