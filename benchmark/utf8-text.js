'use strict';
// Non-ASCII UTF-8 made a string on the JS back end in Node, two ways: the JS loop of
// lib/host.js (`unitsText.utf8`: decoded into a scratch, one copy by ucs2Slice or
// latin1Slice) and Buffer#utf8Slice. Which is the faster depends on the runtime and the
// length (lib/host.js, `nativeUtf8From`; docs/DESIGN.md, "Non-ASCII text on Node 24"), so
// run it on each Node that decision covers:
//
//   taskset -c 1 node benchmark/utf8-text.js [--lengths 25,32,48,100,400,2000]
//
// ns a string, the best of two timed runs; each pair checked to give the same string.

const host = require('../lib/host.js');

const argv = process.argv.slice(2);
const at = argv.indexOf('--lengths');
const LENGTHS = at >= 0 ? argv[at + 1].split(',').map(Number) : [25, 28, 32, 40, 48, 100, 400, 2000];

const SAMPLES = {
  latin1: "Née à Besançon, elle a étudié à l'Université de Genève. Ça lui a plu énormément; später",
  cyrillic: 'Программистка и поэтесса, которая написала первую программу для машины',
  cjk: '数学者、詩人の娘。数学者、詩人の娘。数学者、詩人の娘。数学者、詩人の娘。',
  mixed: 'Программистка и поэтесса — 数学者、詩人の娘。Αναλυτική μηχανή ✓ Ünïcødé ßüß 🚀🌍',
};

const units = host.unitsText;
if (units === null) {
  console.log('this runtime has no ucs2Slice/latin1Slice (host.unitsText is null): nothing to compare');
  process.exit(0);
}
console.log(`node ${process.versions.node}: unitsText.below = ${units.below} (text of that many bytes or more goes to utf8Slice)`);
console.log('| text | bytes | JS loop ns | utf8Slice ns | loop / utf8Slice |');
console.log('|---|--:|--:|--:|--:|');

// A decode's state as `unitsText.utf8` reads it (lib/closures.js, In).
const r = { b: null, at: 0, later: false, wide: false };
for (const [name, sample] of Object.entries(SAMPLES)) {
  for (const length of LENGTHS) {
    let s = sample;
    while (Buffer.byteLength(s) < length) s += sample;
    let b = Buffer.from(s);
    let cut = length;
    while (cut < b.length && (b[cut] & 0xc0) === 0x80) cut++;
    b = b.subarray(0, cut);
    r.b = b;
    const loop = () => {
      r.at = 0;
      return units.utf8(r, 0, b.length);
    };
    const slice = () => b.utf8Slice(0, b.length);
    if (loop() !== slice()) throw new Error(`the two ways differ on ${name} text of ${b.length} bytes`);
    const calls = Math.max(2000, Math.round(4e6 / b.length));
    const time = (f) => {
      let x = 0;
      for (let i = 0; i < calls / 4; i++) x += f().length;
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) x += f().length;
      const ns = Number(process.hrtime.bigint() - t0) / calls;
      if (x === 0) throw new Error('no text');
      return ns;
    };
    const tl = Math.min(time(loop), time(loop));
    const ts = Math.min(time(slice), time(slice));
    console.log(`| ${name} | ${b.length} | ${tl.toFixed(0)} | ${ts.toFixed(0)} | ${(tl / ts).toFixed(2)} |`);
  }
}
