'use strict';
// Recursive types against the same schema unrolled by hand (issue 41): twitter.json with
// `Tweet` as `t.recursive` (a tweet's retweeted_status is a Tweet) against the corpus's own
// two-level schema, and a comment thread (60 roots, replies 4 deep) as `t.recursive`
// against five explicit levels. Each measurement runs in a process of its own, the two
// forms alternating, and every decode is checked against the input.
//
//   node benchmark/recursion.js [--rounds 5] [--ms 400]

const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { isDeepStrictEqual } = require('node:util');
const { parseArgs } = require('node:util');
const { median } = require('./stats');
const { opsPerSecond } = require('./child-common');

const ROOT = path.join(__dirname, '..');

// The tweet object of the corpus's unrolled schema, made recursive: its retweeted_status
// (an optional tweet without one) becomes an optional ref to the definition itself.
function recursiveTwitter(unrolled) {
  const status = JSON.parse(JSON.stringify(unrolled.fields.find((f) => f.name === 'statuses').schema.items));
  const field = status.fields.find((f) => f.name === 'retweeted_status');
  field.schema = { type: 'optional', of: { type: 'ref', name: 'Tweet' } };
  const root = JSON.parse(JSON.stringify(unrolled));
  root.fields.find((f) => f.name === 'statuses').schema.items = { type: 'recursive', name: 'Tweet', schema: status };
  return root;
}

function comment(t, replies) {
  return t.object({ id: t.uint32(), author: t.string(), text: t.string(), score: t.int32(), replies });
}

function threadSchemas(t) {
  const recursive = t.array(t.recursive('Comment', (self) => comment(t, t.array(self))));
  // The deepest level's replies are always empty: an array of anything.
  let level = comment(t, t.array(t.uint8()));
  for (let k = 0; k < 4; k++) level = comment(t, t.array(level));
  return { recursive, unrolled: t.array(level) };
}

// `roots` roots, each with replies 4 levels deep (2 replies a level, the last level none);
// `lorem`: longer texts.
function threadValue(roots = 60, lorem = true) {
  let id = 0;
  const make = (depth) => ({
    id: id++,
    author: `user${id % 37}`,
    text: lorem ? `comment ${id}: ${'lorem ipsum '.repeat(1 + (id % 4))}` : `comment ${id}`,
    score: (id * 7919) % 200 - 100,
    replies: depth === 4 ? [] : [make(depth + 1), make(depth + 1)],
  });
  return Array.from({ length: roots }, () => make(0));
}

function cases() {
  const { t } = require(ROOT);
  const { corpus, loadCorpus } = require('./corpora');
  const value = loadCorpus('twitter');
  const unrolled = corpus('twitter').shorn(t);
  const thread = threadSchemas(t);
  return {
    twitter: { value, recursive: recursiveTwitter(unrolled), unrolled },
    thread: { value: threadValue(), recursive: thread.recursive, unrolled: thread.unrolled },
  };
}

// In a child: ops/s of one form, one op, for `ms` after a warm-up.
function child(name, form, op, ms) {
  const { compile } = require(ROOT);
  const c = cases()[name];
  const codec = compile(c[form]);
  const bytes = codec.encode(c.value);
  if (!isDeepStrictEqual(codec.decode(bytes), c.value)) throw new Error(`${name} ${form}: the round trip changed the value`);
  const run = op === 'encode' ? () => codec.encode(c.value).length : () => codec.decode(bytes);
  return { opsPerSec: opsPerSecond(run, ms), bytes: bytes.length };
}

// The report: each schema and op, `rounds` rounds of one process per form, the forms
// alternating; a ratio over 1.3x (issue 41's floor) is flagged.
function run(rounds = 3, ms = 400) {
  const lines = ['| schema | op | recursive (ops/s) | unrolled (ops/s) | recursive time / unrolled time |', '|---|---|--:|--:|--:|'];
  for (const name of ['twitter', 'thread']) {
    for (const op of ['decode', 'encode']) {
      const got = { recursive: [], unrolled: [] };
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 === 0 ? ['recursive', 'unrolled'] : ['unrolled', 'recursive'];
        for (const form of order) {
          const out = spawnSync(process.execPath, [__filename, '--child', `${name},${form},${op}`, '--ms', String(ms)], { encoding: 'utf8' });
          if (out.status !== 0) throw new Error(`${name} ${form} ${op}: ${out.stderr}`);
          got[form].push(JSON.parse(out.stdout).opsPerSec);
        }
      }
      const [a, b] = [median(got.recursive), median(got.unrolled)];
      const ratio = b / a;
      lines.push(`| ${name} | ${op} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${ratio.toFixed(2)}x${ratio > 1.3 ? ' **over**' : ''} |`);
      process.stderr.write(`${lines[lines.length - 1]}\n`);
    }
  }
  return [
    '## Recursive types against the same schema unrolled',
    '',
    `twitter.json with \`Tweet\` as \`t.recursive\` (its retweeted_status a Tweet) against the corpus's own two-level schema, and a comment thread (60 roots, replies 4 deep) as \`t.recursive\` against five explicit levels; ops/s, medians of ${rounds} rounds of one process per form, the forms alternating, every decode checked against the input. Over 1.3x is flagged. \`node benchmark/recursion.js\`.`,
    '',
    ...lines,
    '',
  ].join('\n');
}

function main() {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, ms: { type: 'string', default: '400' }, child: { type: 'string' } } });
  if (values.child) {
    const [name, form, op] = values.child.split(',');
    process.stdout.write(JSON.stringify(child(name, form, op, Number(values.ms))));
    return;
  }
  console.log(run(Number(values.rounds), Number(values.ms)));
}

if (require.main === module) main();

module.exports = { run, cases, recursiveTwitter, threadSchemas, threadValue };
