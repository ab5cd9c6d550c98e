'use strict';
// The native back end's reads of a reader's overridden nodes (lib/evolve.js, `plan`): what
// its generated take code emits for each (lib/codegen.js, `take`) and what its tape decoder
// reads (lib/native.js, ResolvingDecoder), from the override's data. The JS back end
// builds the same values from the same data (lib/closures.js, `readAs`). Not in a browser
// build, which has no native back end (package.json "browser").

/** The generated take of writer node `d`'s value as the reader's, by override `o`. */
function emitOverride(o, g, d) {
  switch (o.kind) {
    case 'constant':
      return g.constant(o.value);
    case 'symbols':
      return `${g.constant(o.symbols)}[T[i++]]`;
    case 'bigint':
      return `BigInt(${g.takeOwn(d)})`;
    case 'object':
      return emitObject(o, g, d);
    default:
      throw new Error(`shorn: internal error: no override ${o.kind}`);
  }
}

/** The tape decoder `c`'s read of writer node `d`'s value as the reader's, by override `o`. */
function takeOverride(o, c, d) {
  switch (o.kind) {
    case 'constant':
      return o.value;
    case 'symbols':
      return o.symbols[c.T[c.i++]];
    case 'bigint':
      return BigInt(c.takeOwn(d));
    case 'object':
      return o.fromFields(d.fields.map((f) => c.take(f.schema)));
    default:
      throw new Error(`shorn: internal error: no override ${o.kind}`);
  }
}

// Writer object `w` read as the reader's: every writer field taken in order (one no
// reader field takes is read and dropped), then the reader's object as one literal up to
// its first field that may be absent, and the rest defined.
function emitObject(o, g, w) {
  const locals = w.fields.map((f, k) => {
    const v = g.take(f.schema);
    return o.keep[k] ? v : null;
  });
  const entries = o.fields.map((f) => {
    const dflt = f.dflt === null ? null : 'constant' in f.dflt ? g.constant(f.dflt.constant) : `${g.constant(f.dflt.make)}()`;
    const v = f.how === 'default' ? null : locals[f.from];
    if (f.how === 'value') return { name: f.name, value: v };
    if (f.how === 'default') return { name: f.name, value: dflt };
    if (f.how === 'either') return { name: f.name, value: `(${v} === undefined ? ${dflt} : ${v})` };
    return { name: f.name, value: v, when: `${v} !== undefined` };
  });
  const first = entries.findIndex((e) => e.when);
  const literal = first < 0 ? entries : entries.slice(0, first);
  const out = g.fresh('o');
  g.dec.push(`const ${out} = ${g.construct(literal.map((e) => e.name), literal.map((e) => e.value))};`);
  for (const e of first < 0 ? [] : entries.slice(first)) {
    const set = `rt.defineOwn(${out}, ${JSON.stringify(e.name)}, ${e.value});`;
    g.dec.push(e.when ? `if (${e.when}) { ${set} }` : set);
  }
  return out;
}

module.exports = { emitOverride, takeOverride };
