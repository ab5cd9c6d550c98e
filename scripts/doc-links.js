'use strict';
// The links of the markdown files the npm package ships (README.md and the docs in
// package.json "files"): each relative link must lead to a file in the package (and to a
// heading there, for #anchors); a link to a file the package does not ship goes to this
// repository by an absolute URL, and must name a file the repository has.
// __test__/readme.test.js runs `problems()`; `node scripts/doc-links.js --fix` rewrites
// relative links to unshipped files as absolute ones.

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..');
const REPO = 'https://github.com/shorn-codec/shorn/blob/main/';
const REPO_TREE = 'https://github.com/shorn-codec/shorn/tree/main/';

/** The files `npm pack` puts in the package (no scripts run). */
function packedFiles() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack --dry-run failed: ${r.stderr}`);
  const [info] = JSON.parse(r.stdout);
  return new Set(info.files.map((f) => f.path));
}

/** GitHub's anchor for each heading of a markdown text. */
function anchors(markdown) {
  const seen = new Map();
  const out = new Set();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*_~]/g, (c) => (c === '_' ? '_' : ''));
    let slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) || 0;
    seen.set(slug, n + 1);
    if (n > 0) slug = `${slug}-${n}`;
    out.add(slug);
  }
  return out;
}

/** `[text](target)` links of a markdown text, outside code. */
function links(markdown) {
  const out = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push(m[1]);
  }
  return out;
}


function resolve(file, target) {
  return target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(target)));
}

/** What is wrong with the links of the packed markdown files: one line each. */
function problems(files = packedFiles()) {
  const markdown = [...files].filter((f) => f.endsWith('.md'));
  const out = [];
  if (!markdown.includes('README.md')) out.push('the package has no README.md');
  for (const file of markdown) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const link of links(text)) {
      if (/^mailto:/.test(link)) continue;
      if (link.startsWith(REPO) || link.startsWith(REPO_TREE)) {
        const target = decodeURIComponent(link.slice(link.startsWith(REPO) ? REPO.length : REPO_TREE.length).split('#')[0]);
        if (!fs.existsSync(path.join(ROOT, target))) out.push(`${file}: ${link} names ${target}, which the repository does not have`);
        continue;
      }
      if (/^[a-z]+:/i.test(link)) continue; // another site
      const [target, anchor] = link.split('#');
      const resolved = resolve(file, target);
      const isDir = [...files].some((f) => f.startsWith(`${resolved.replace(/\/$/, '')}/`));
      if (!files.has(resolved) && !isDir) {
        out.push(`${file}: ${link} is not in the package (link to ${REPO}${resolved} instead, or ship it)`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md')) {
        const headings = anchors(fs.readFileSync(path.join(ROOT, resolved), 'utf8'));
        if (!headings.has(anchor)) out.push(`${file}: ${link}: ${resolved} has no heading #${anchor}`);
      }
    }
  }
  return out;
}

/** Rewrites, in the packed markdown files, each relative link to a file not shipped as an absolute link into the repository. */
function fix(files = packedFiles()) {
  const changed = [];
  for (const file of [...files].filter((f) => f.endsWith('.md'))) {
    const full = path.join(ROOT, file);
    const text = fs.readFileSync(full, 'utf8');
    let fenced = false;
    const next = text
      .split('\n')
      .map((line) => {
        if (/^\s*```/.test(line)) fenced = !fenced;
        if (fenced) return line;
        return line.replace(/\]\(([^)\s#:]+)(#[^)\s]*)?\)/g, (whole, target, anchor = '') => {
          const resolved = resolve(file, target);
          if (files.has(resolved) || [...files].some((f) => f.startsWith(`${resolved.replace(/\/$/, '')}/`))) return whole;
          if (!fs.existsSync(path.join(ROOT, resolved))) return whole;
          const dir = fs.statSync(path.join(ROOT, resolved)).isDirectory();
          return `](${dir ? REPO_TREE : REPO}${resolved}${anchor})`;
        });
      })
      .join('\n');
    if (next !== text) {
      fs.writeFileSync(full, next);
      changed.push(file);
    }
  }
  return changed;
}

module.exports = { packedFiles, anchors, links, problems, fix, REPO, REPO_TREE };

if (require.main === module) {
  if (process.argv.includes('--fix')) {
    const changed = fix();
    console.log(changed.length ? `rewrote links in ${changed.join(', ')}` : 'no link to rewrite');
  }
  const found = problems();
  for (const p of found) console.error(p);
  process.exitCode = found.length ? 1 : 0;
}
