'use strict';
// The browser bundle of `t`, `compile` and `ShornError` (issue 39's size floor) in four
// forms, to weigh what bundler-level changes would save (docs/DESIGN.md, "Where the 30 KB
// floor stands"): lib/ as it ships (CommonJS), bundled by esbuild; the same minified by
// terser instead; lib/ converted mechanically to ES modules (scope hoisting, shaken
// exports), bundled by esbuild; and that by terser. The conversion is for measuring only:
// its bundle is never run (its lazy requires become imports, its module objects
// namespaces), so it says what ES modules would weigh, not that they would work. Then
// the anchors issue 39 names (msgpackr, protobufjs's light and minimal builds), bundled
// alike, for comparison; and the bundle as it ships without each of its optional parts.
//
//   node benchmark/bundle-forms.js

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const esbuild = require('esbuild');
const acorn = require('acorn');
const { minify } = require('terser');

const ROOT = path.join(__dirname, '..');
const LIB = path.join(ROOT, 'lib');
// What package.json's "imports" give a browser build (the `browser` condition).
const BROWSER = Object.fromEntries(Object.entries(require('../package.json').imports).map(([spec, to]) => [spec, path.join(ROOT, to.browser)]));

const gz = (code) => zlib.gzipSync(code, { level: 9 }).length;

// `empty`: modules of lib/ (paths relative to the package) bundled as empty ones, to weigh
// what each part of the bundle costs (the table of parts).
async function bundle(entryFile, empty = []) {
  const plugins = [{ name: 'empty', setup: (b) => b.onLoad({ filter: /\.js$/ }, (a) => (empty.includes(path.relative(ROOT, a.path).split(path.sep).join('/')) ? { contents: 'module.exports = {};', loader: 'js' } : undefined)) }];
  const r = await esbuild.build({ entryPoints: [entryFile], bundle: true, format: 'esm', minify: true, write: false, platform: 'browser', logLevel: 'silent', nodePaths: [path.join(ROOT, 'node_modules')], plugins });
  return r.outputFiles[0].text;
}

// The parts of the bundle weighed by leaving them out (docs/DESIGN.md, "Where the 30 KB
// floor stands"): the Codec's features, the native compiler's rules, the exact-error walks.
const PARTS = [
  ['the Codec\'s features: readers, patterns, framing (lib/evolve.js, lib/pattern.js, lib/framing.js)', ['lib/evolve.js', 'lib/pattern.js', 'lib/framing.js']],
  ['the native compiler\'s rules (lib/schema-rules.js)', ['lib/schema-rules.js']],
  ['the exact-error walks (lib/inspect.js, lib/generic.js)', ['lib/inspect.js', 'lib/generic.js']],
];

async function terse(code) {
  const m = await minify(code, { module: true, toplevel: true, compress: { passes: 3, pure_getters: true }, mangle: true });
  return m.code;
}

// ---- lib/ as ES modules ---------------------------------------------------------------

function sourcesOf(dir, out = []) {
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    if (fs.statSync(p).isDirectory()) {
      if (name !== 'cli') sourcesOf(p, out);
    } else if (name.endsWith('.js')) out.push(p);
  }
  return out;
}

function resolve(from, spec) {
  if (BROWSER[spec] !== undefined) return BROWSER[spec];
  if (!spec.startsWith('.')) return null;
  const p = path.resolve(path.dirname(from), spec);
  for (const c of [`${p}.js`, path.join(p, 'index.js'), p]) if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  throw new Error(`bundle-forms: cannot resolve ${spec} from ${from}`);
}

const isModuleExports = (n) => n.type === 'MemberExpression' && n.object.name === 'module' && n.property.name === 'exports';

/** Writes each module of lib/ as an ES module under `out`; returns where compile.js went. */
function convert(out) {
  const files = sourcesOf(LIB);
  const parsed = new Map();
  // 'named': `module.exports = { ... }` alone (named exports); else a default export.
  const kind = new Map();
  for (const f of files) {
    const src = fs.readFileSync(f, 'utf8');
    const ast = acorn.parse(src, { ecmaVersion: 'latest', sourceType: 'script' });
    parsed.set(f, { src, ast });
    let object = false;
    let other = false;
    for (const st of ast.body) {
      if (st.type !== 'ExpressionStatement' || st.expression.type !== 'AssignmentExpression') continue;
      const left = st.expression.left;
      if (isModuleExports(left)) {
        if (st.expression.right.type === 'ObjectExpression') object = true;
        else other = true;
      } else if (left.type === 'MemberExpression' && isModuleExports(left.object)) other = true;
    }
    kind.set(f, object && !other ? 'named' : 'default');
  }
  for (const f of files) {
    const { src, ast } = parsed.get(f);
    const edits = [];
    const head = [];
    let n = 0;
    const rel = (target) => {
      const r = path.relative(path.dirname(f), target).split(path.sep).join('/');
      return JSON.stringify(r.startsWith('.') ? r : `./${r}`);
    };
    // `const x = require(s)`, `const { a, b: c } = require(s)`, `const x = require(s).p`.
    const done = new Set();
    for (const st of ast.body) {
      if (st.type !== 'VariableDeclaration' || st.declarations.length !== 1) continue;
      const d = st.declarations[0];
      let call = d.init;
      let prop = null;
      if (call && call.type === 'MemberExpression' && call.object.type === 'CallExpression' && call.object.callee.name === 'require') {
        prop = call.property.name;
        call = call.object;
      }
      if (!call || call.type !== 'CallExpression' || call.callee.name !== 'require') continue;
      const target = resolve(f, call.arguments[0].value);
      if (target === null) continue;
      done.add(call);
      if (kind.get(target) === 'named' && (prop !== null || d.id.type === 'Identifier' || d.id.properties.every((p) => p.type === 'Property' && p.value.type === 'Identifier'))) {
        if (prop !== null) edits.push([st.start, st.end, `import { ${prop} as ${d.id.name} } from ${rel(target)};`]);
        else if (d.id.type === 'Identifier') edits.push([st.start, st.end, `import * as ${d.id.name} from ${rel(target)};`]);
        else edits.push([st.start, st.end, `import { ${d.id.properties.map((p) => (p.key.name === p.value.name ? p.key.name : `${p.key.name} as ${p.value.name}`)).join(', ')} } from ${rel(target)};`]);
      } else {
        const id = `__m${n++}`;
        head.push(kind.get(target) === 'named' ? `import * as ${id} from ${rel(target)};` : `import ${id} from ${rel(target)};`);
        edits.push([call.start, d.init.end, prop === null ? id : `${id}.${prop}`]);
      }
    }
    // Any other require (inside a function): an import at the top.
    (function walk(node) {
      if (!node || typeof node.type !== 'string') return;
      if (node.type === 'CallExpression' && node.callee.name === 'require' && !done.has(node) && node.arguments[0]?.type === 'Literal') {
        const target = resolve(f, node.arguments[0].value);
        if (target !== null) {
          const id = `__m${n++}`;
          head.push(kind.get(target) === 'named' ? `import * as ${id} from ${rel(target)};` : `import ${id} from ${rel(target)};`);
          edits.push([node.start, node.end, id]);
          return;
        }
      }
      for (const key of Object.keys(node)) {
        const v = node[key];
        if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v.type === 'string') walk(v);
      }
    })(ast);
    // `module.exports = ...` and `module.exports.x = ...`.
    for (const st of ast.body) {
      if (st.type !== 'ExpressionStatement' || st.expression.type !== 'AssignmentExpression') continue;
      const { left, right } = st.expression;
      if (isModuleExports(left)) {
        if (kind.get(f) === 'named') {
          const names = [];
          const consts = [];
          for (const p of right.properties) {
            const key = p.key.name ?? p.key.value;
            if (p.value.type === 'Identifier') names.push(p.value.name === key ? key : `${p.value.name} as ${key}`);
            else {
              consts.push(`const __x_${key} = ${src.slice(p.value.start, p.value.end)};`);
              names.push(`__x_${key} as ${key}`);
            }
          }
          edits.push([st.start, st.end, `${consts.join('\n')}\nexport { ${names.join(', ')} };`]);
        } else edits.push([st.start, st.end, `const __default = ${src.slice(right.start, right.end)};\nexport default __default;`]);
      } else if (left.type === 'MemberExpression' && isModuleExports(left.object)) {
        edits.push([left.object.start, left.object.end, '__default']);
      }
    }
    // Applied from the end; an edit inside one already made (a require in a converted
    // declaration) is dropped.
    edits.sort((a, b) => b[0] - a[0]);
    let text = src;
    let before = Infinity;
    for (const [start, end, code] of edits) {
      if (end > before) continue;
      text = text.slice(0, start) + code + text.slice(end);
      before = start;
    }
    const dest = path.join(out, path.relative(LIB, f));
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.writeFileSync(dest, `${head.join('\n')}\n${text.replace(/^'use strict';/, '')}`);
  }
  return path.join(out, 'compile.js');
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shorn-bundle-forms-'));
  try {
    const entry = (compileJs) => {
      const file = path.join(dir, `entry-${path.basename(path.dirname(compileJs))}.mjs`);
      fs.writeFileSync(file, `import { t, compile, ShornError } from ${JSON.stringify(compileJs)};\nglobalThis.shorn = { t, compile, ShornError };\n`);
      return file;
    };
    const cjsEntry = entry(path.join(LIB, 'compile.js'));
    const cjs = await bundle(cjsEntry);
    const esm = await bundle(entry(convert(path.join(dir, 'esm'))));
    const rows = [
      ['lib/ as it ships (CommonJS), esbuild', cjs],
      ['the same, terser', await terse(cjs)],
      ['lib/ as ES modules (converted, not run), esbuild', esm],
      ['the same, terser', await terse(esm)],
    ];
    console.log('The browser bundle of t, compile and ShornError (gzip -9):\n');
    console.log('| form | minified | gzipped |\n|---|--:|--:|');
    for (const [name, code] of rows) console.log(`| ${name} | ${Buffer.byteLength(code).toLocaleString('en-US')} | ${gz(code).toLocaleString('en-US')} |`);
    // Each part left out (its modules bundled as empty ones: the bundle is never run), then
    // all of them: what is left is the core.
    console.log('\nThe same (lib/ as it ships, esbuild) without each part:\n');
    console.log('| left out | minified | gzipped | saved, gzipped |\n|---|--:|--:|--:|');
    for (const [name, files] of [...PARTS, ['all three', PARTS.flatMap(([, f]) => f)]]) {
      const code = await bundle(cjsEntry, files);
      console.log(`| ${name} | ${Buffer.byteLength(code).toLocaleString('en-US')} | ${gz(code).toLocaleString('en-US')} | ${(gz(cjs) - gz(code)).toLocaleString('en-US')} |`);
    }
    // The anchors issue 39 names, bundled the same way (esbuild, minified, for the browser).
    const peers = [
      ['msgpackr: pack, unpack', `import { pack, unpack } from 'msgpackr';\nglobalThis.x = [pack, unpack];\n`],
      ['protobufjs/light: Root.fromJSON, a Type\'s encode, decode, verify', `import protobuf from 'protobufjs/light.js';\nglobalThis.x = protobuf;\n`],
      ['protobufjs/minimal: the runtime of pbjs-generated code (not counted: the code)', `import protobuf from 'protobufjs/minimal.js';\nglobalThis.x = protobuf;\n`],
    ];
    console.log('\nThe anchors, bundled alike:\n');
    console.log('| bundle | minified | gzipped |\n|---|--:|--:|');
    for (const [name, source] of peers) {
      const file = path.join(dir, 'peer.mjs');
      fs.writeFileSync(file, source);
      const code = await bundle(file);
      console.log(`| ${name} | ${Buffer.byteLength(code).toLocaleString('en-US')} | ${gz(code).toLocaleString('en-US')} |`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
