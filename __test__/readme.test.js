'use strict';
// The README and the docs a user gets (issue 42): the README's performance tables are the
// ones the latest full benchmark run gives (benchmark/readme-table.js), and every link in
// the markdown files of the packed package leads somewhere (scripts/doc-links.js): a
// relative link to a file the package ships (and a heading there, for #anchors), an
// absolute link into this repository to a file it has.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const table = require('../benchmark/readme-table');
const docLinks = require('../scripts/doc-links');

const ROOT = path.join(__dirname, '..');

test("README.md's performance tables are what benchmark/results/latest-full.json gives", () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const results = table.readResults();
  assert.equal(results.meta.quick, false);
  assert.equal(table.withBlock(readme, table.render(results)), readme, 'run `node benchmark/readme-table.js` (or a full `npm run bench`)');
});

test('every link in the markdown files of the packed package leads somewhere', () => {
  assert.deepEqual(docLinks.problems(), [], 'fix with `node scripts/doc-links.js --fix`, or ship the file');
});

test('the link check reads headings and links as GitHub does, outside code', () => {
  const text = '# Hello, world\n## `t.json()` and records\n# Hello, world\n```\n# not a heading\n```\n### Fastify, Express and fetch';
  assert.deepEqual([...docLinks.anchors(text)], ['hello-world', 'tjson-and-records', 'hello-world-1', 'fastify-express-and-fetch']);
  const prose = 'see [a](x.md#y) and `[b](no.md)`\n```\n[c](no.md)\n```\n[d](https://e.org "t") [e](../docs/F.md)';
  assert.deepEqual(docLinks.links(prose), ['x.md#y', 'https://e.org', '../docs/F.md']);
  // Were docs/FORMAT.md left out of the package, the README's links to it would be reported.
  const found = docLinks.problems(new Set(['README.md']));
  assert.ok(
    found.some((line) => /^README\.md: docs\/FORMAT\.md(#[^ ]*)? is not in the package/.test(line)),
    found.join('\n'),
  );
});

test("the README's two commands for a newcomer are the ones package.json runs", () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.match(readme, /^npm install && npm run demo\b/m);
  assert.match(readme, /^npm test\b/m);
  assert.equal(typeof pkg.scripts.demo, 'string');
  assert.equal(pkg.scripts.test, 'node scripts/check.js');
});

test('a plain npm pack at the root is refused, since it would leave out the platform packages', () => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['pack', '--dry-run'], { cwd: ROOT, encoding: 'utf8', shell: process.platform === 'win32' });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /refusing `npm pack` from the repository root: its package\.json has no optionalDependencies/);
  assert.match(r.stderr, /npm run pack:packages/);
});
