'use strict';
// A string's `pattern` (docs/FORMAT.md, "Patterns"), run in time linear in the string.
//
// A pattern is the source of a JS RegExp tested without flags, as Zod tests it, so the
// contract is V8's answer to `new RegExp(source).test(s)`. V8 answers by backtracking,
// which takes exponential time on `^(a+)+$` against 'aaa…a!' (1.05 s for 27 characters,
// issue 37), and a decoder must not hang on the bytes it is sent. Here V8 judges the
// syntax, and runs only what it provably runs in linear time (`linearByBacktracking`);
// the pattern is parsed again with the same (non-unicode, Annex B) grammar and compiled
// to an NFA over UTF-16 code units, which a lazily built DFA runs: O(n·m) for a string of
// n units and an NFA of m nodes, and one cached table step per unit once the DFA states
// a string visits are built. `test` needs no captures, so greedy or lazy quantifiers and
// the order of alternatives change nothing.
//
// Lookarounds are position predicates when nothing refers back into them: `(?=R)` holds
// at i when R matches some s[i..j), which one backward scan of reversed R (started at
// every position) finds for every i at once; `(?<=R)` likewise forward. Each lookaround
// costs one such scan per test, before the main one. Backreferences (`\1`, `\k<name>`)
// make the language non-regular and are refused, as are patterns past the caps below.

// Sizes past which a pattern is refused when its schema is built: NFA nodes, since a
// unit of text costs at worst a step of every node (~25 µs a unit at 2,000 nodes:
// an unanchored `[a-z]{1,999}!` against 'aaa…a-aaa…a-', which no cache helps) and a
// counted repetition copies its body (`[a-z]{1,999}` is ~2,000 nodes; Zod's largest
// expressions, domain and hostname, ~900 and ~800); nesting of groups (each level is
// recursion in the parser); and lookarounds (one bit each of a per-position word).
const MAX_NODES = 2_000;
const MAX_DEPTH = 1_000;
const MAX_LOOKAROUNDS = 30;
// Bytes of DFA states and transitions cached per pattern (estimated: a state's object,
// key and edge map, 12 bytes a node id in its key and array, a Map entry and its edge;
// within 1% of the heap measured), past which the cache starts again. Small, since
// hostile strings can fill the cache of every pattern of a schema and it stays; and a
// larger one measured slower where states keep changing (1 MB of ids: 60 MB of heap,
// which every scavenge copied). A DFA of a thousand states of 20 nodes fits.
const CACHE_BUDGET = 512 << 10;
const STATE_COST = 300;
const ID_COST = 12;
const EDGE_COST = 60;
const MAX_CACHED_NODES = 256;
// Backtracking steps a unit of text past which a pattern runs on the DFA, though V8 would
// run it in linear time (`linearByBacktracking`): the DFA's own worst case is a step of
// each NFA node (MAX_NODES) a unit, ~10 ns each; a step of V8's backtracking costs ~1 ns.
const MAX_BACKTRACK_STEPS = 256;

/** A pattern V8 accepts that cannot run in linear time, or is too large. */
class PatternRefused extends Error {}

// Sets of UTF-16 code units, as sorted, disjoint, non-adjacent [lo, hi] pairs, flat.
function normalize(pairs) {
  const order = [];
  for (let k = 0; k < pairs.length; k += 2) order.push([pairs[k], pairs[k + 1]]);
  order.sort((a, b) => a[0] - b[0]);
  const out = [];
  for (const [lo, hi] of order) {
    if (out.length > 0 && lo <= out[out.length - 1] + 1) out[out.length - 1] = Math.max(out[out.length - 1], hi);
    else out.push(lo, hi);
  }
  return out;
}

function complement(set) {
  const out = [];
  let from = 0;
  for (let k = 0; k < set.length; k += 2) {
    if (set[k] > from) out.push(from, set[k] - 1);
    from = set[k + 1] + 1;
  }
  if (from <= 0xffff) out.push(from, 0xffff);
  return out;
}

function contains(set, c) {
  let lo = 0;
  let hi = set.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (c < set[2 * mid]) hi = mid - 1;
    else if (c > set[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

const DIGIT = [0x30, 0x39];
const WORD = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
// WhiteSpace and LineTerminator of ECMA-262 (Unicode 15's Zs included), what `\s` matches.
const SPACE = [0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff];
const DOT = complement([0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029]);
const CLASS_ESCAPES = { d: DIGIT, D: complement(DIGIT), w: WORD, W: complement(WORD), s: SPACE, S: complement(SPACE) };
const CONTROL_ESCAPES = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };

const isDigit = (ch) => ch >= '0' && ch <= '9';
const isOctal = (ch) => ch >= '0' && ch <= '7';
const isHex = (ch) => /^[0-9a-fA-F]$/.test(ch);
const isLetter = (ch) => /^[A-Za-z]$/.test(ch);

const BACKREFERENCE = 'matches what a group captured, which no linear-time matcher can follow (the language is not regular)';

// `{n}`, `{n,}` or `{n,m}`; anything else after an atom is a literal `{` (Annex B).
const INTERVAL = /\{(\d+)(?:(,)(\d*))?\}/y;
// V8 reads a count of 2^31 - 1 or more as "no bound".
const count = (digits) => (Number(digits) >= 2 ** 31 - 1 ? Infinity : Number(digits));

// The parser, for sources V8 has already accepted (so it reports no syntax of its own).
// AST: { set }, { seq: [...] }, { alt: [...] }, { repeat, min, max }, { assert: '^' | '$'
// | 'b' | 'B' }, { look: ast, ahead, negate }.
class Parser {
  constructor(source) {
    this.src = source;
    this.pos = 0;
    this.depth = 0;
    // Whether `\N` is a backreference depends on the captures of the whole pattern, and
    // `\k` is one only when the pattern has a named group.
    this.captures = 0;
    this.named = false;
    this.scanCaptures();
  }

  scanCaptures() {
    const s = this.src;
    for (let k = 0; k < s.length; k++) {
      if (s[k] === '\\') k++;
      else if (s[k] === '[') {
        for (k++; k < s.length && s[k] !== ']'; k++) if (s[k] === '\\') k++;
      } else if (s[k] === '(') {
        if (s[k + 1] !== '?') this.captures++;
        else if (s[k + 2] === '<' && s[k + 3] !== '=' && s[k + 3] !== '!') {
          this.captures++;
          this.named = true;
        }
      }
    }
  }

  refuse(what, why) {
    return new PatternRefused(`${what} (at offset ${this.pos}) ${why}`);
  }

  parse() {
    const ast = this.disjunction();
    if (this.pos !== this.src.length) throw this.refuse(`its "${this.src[this.pos]}"`, 'ends no group');
    return ast;
  }

  disjunction() {
    const alt = [this.alternative()];
    while (this.src[this.pos] === '|') {
      this.pos++;
      alt.push(this.alternative());
    }
    return alt.length === 1 ? alt[0] : { alt };
  }

  alternative() {
    const seq = [];
    while (this.pos < this.src.length && this.src[this.pos] !== '|' && this.src[this.pos] !== ')') seq.push(this.quantified(this.term()));
    return seq.length === 1 ? seq[0] : { seq };
  }

  quantified(atom) {
    const s = this.src;
    let min;
    let max;
    const ch = s[this.pos];
    if (ch === '*' || ch === '+' || ch === '?') {
      [min, max] = ch === '*' ? [0, Infinity] : ch === '+' ? [1, Infinity] : [0, 1];
      this.pos++;
    } else if (ch === '{') {
      INTERVAL.lastIndex = this.pos;
      const m = INTERVAL.exec(s);
      if (m === null) return atom;
      min = count(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : count(m[3]);
      this.pos = INTERVAL.lastIndex;
    } else {
      return atom;
    }
    if (s[this.pos] === '?') this.pos++; // lazy: the same language
    return { repeat: atom, min, max };
  }

  term() {
    const s = this.src;
    const ch = s[this.pos];
    if (ch === '^' || ch === '$') {
      this.pos++;
      return { assert: ch };
    }
    if (ch === '(') return this.group();
    if (ch === '.') {
      this.pos++;
      return { set: DOT };
    }
    if (ch === '[') return { set: this.characterClass() };
    if (ch === '\\') {
      const e = s[this.pos + 1];
      if (e === 'b' || e === 'B') {
        this.pos += 2;
        return { assert: e };
      }
      return this.atomEscape();
    }
    this.pos++;
    return { set: [s.charCodeAt(this.pos - 1), s.charCodeAt(this.pos - 1)] };
  }

  group() {
    const s = this.src;
    if (++this.depth > MAX_DEPTH) throw this.refuse('its groups', `nest more than ${MAX_DEPTH} deep`);
    let look = null;
    if (s.startsWith('(?=', this.pos) || s.startsWith('(?!', this.pos)) {
      look = { ahead: true, negate: s[this.pos + 2] === '!' };
      this.pos += 3;
    } else if (s.startsWith('(?<=', this.pos) || s.startsWith('(?<!', this.pos)) {
      look = { ahead: false, negate: s[this.pos + 3] === '!' };
      this.pos += 4;
    } else if (s.startsWith('(?:', this.pos)) {
      this.pos += 3;
    } else if (s.startsWith('(?<', this.pos)) {
      this.pos = s.indexOf('>', this.pos) + 1;
    } else if (s[this.pos + 1] === '?') {
      throw this.refuse(`its modifier group ${s.slice(this.pos, s.indexOf(':', this.pos) + 1)}`, 'sets a flag, and a pattern is tested without flags');
    } else {
      this.pos++;
    }
    const body = this.disjunction();
    this.pos++; // ')'
    this.depth--;
    return look === null ? body : { look: body, ...look };
  }

  atomEscape() {
    const s = this.src;
    const start = this.pos;
    this.pos++;
    const e = s[this.pos];
    if (CLASS_ESCAPES[e] !== undefined) {
      this.pos++;
      return { set: CLASS_ESCAPES[e] };
    }
    if (e >= '1' && e <= '9') {
      let end = this.pos;
      while (isDigit(s[end])) end++;
      if (Number(s.slice(this.pos, end)) <= this.captures) {
        this.pos = start;
        throw this.refuse(`its backreference ${s.slice(start, end)}`, BACKREFERENCE);
      }
      // Not a backreference (Annex B): `\8` and `\9` are the digits, others octal.
      if (e === '8' || e === '9') {
        this.pos++;
        return { set: [e.charCodeAt(0), e.charCodeAt(0)] };
      }
    }
    if (e === 'k' && this.named) {
      this.pos = start;
      throw this.refuse(`its backreference ${s.slice(start, s.indexOf('>', start) + 1)}`, BACKREFERENCE);
    }
    const c = this.characterEscape(false);
    return { set: [c, c] };
  }

  // The code unit of the escape at `pos` (after its backslash); Annex B forms included.
  characterEscape(inClass) {
    const s = this.src;
    const e = s[this.pos];
    if (CONTROL_ESCAPES[e] !== undefined) {
      this.pos++;
      return CONTROL_ESCAPES[e];
    }
    if (e === 'c') {
      const letter = s[this.pos + 1];
      if (letter !== undefined && (isLetter(letter) || (inClass && (isDigit(letter) || letter === '_')))) {
        this.pos += 2;
        return letter.charCodeAt(0) & 0x1f;
      }
      // `\c` before anything else is a backslash, and the `c` is read next.
      return 0x5c;
    }
    if (e === 'x' && isHex(s[this.pos + 1] ?? '') && isHex(s[this.pos + 2] ?? '')) {
      this.pos += 3;
      return parseInt(s.slice(this.pos - 2, this.pos), 16);
    }
    if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(this.pos + 1, this.pos + 5))) {
      this.pos += 5;
      return parseInt(s.slice(this.pos - 4, this.pos), 16);
    }
    if (isOctal(e)) {
      // A legacy octal escape: up to three digits, below 0o400.
      let c = e.charCodeAt(0) - 0x30;
      this.pos++;
      if (isOctal(s[this.pos] ?? '')) {
        c = c * 8 + s.charCodeAt(this.pos++) - 0x30;
        if (c < 32 && isOctal(s[this.pos] ?? '')) c = c * 8 + s.charCodeAt(this.pos++) - 0x30;
      }
      return c;
    }
    // An identity escape: the code unit itself.
    this.pos++;
    return s.charCodeAt(this.pos - 1);
  }

  characterClass() {
    const s = this.src;
    this.pos++;
    const negate = s[this.pos] === '^';
    if (negate) this.pos++;
    const pairs = [];
    const add = (atom) => (typeof atom === 'number' ? pairs.push(atom, atom) : pairs.push(...atom));
    while (s[this.pos] !== ']') {
      const a = this.classAtom();
      if (s[this.pos] === '-' && s[this.pos + 1] !== ']') {
        this.pos++;
        const b = this.classAtom();
        // A class escape at either end makes the `-` a literal (Annex B).
        if (typeof a === 'number' && typeof b === 'number') {
          pairs.push(a, b);
        } else {
          add(a);
          add(0x2d);
          add(b);
        }
      } else {
        add(a);
      }
    }
    this.pos++;
    const set = normalize(pairs);
    return negate ? complement(set) : set;
  }

  // A code unit, or the set of a class escape.
  classAtom() {
    const s = this.src;
    if (s[this.pos] !== '\\') return s.charCodeAt(this.pos++);
    this.pos++;
    const e = s[this.pos];
    if (CLASS_ESCAPES[e] !== undefined) {
      this.pos++;
      return CLASS_ESCAPES[e];
    }
    if (e === 'b') {
      this.pos++;
      return 0x08;
    }
    return this.characterEscape(true);
  }
}

// Whether every match must start at position 0, so the DFA need not start one anywhere
// else and can stop once no thread is left.
function anchored(ast) {
  if (ast.assert !== undefined) return ast.assert === '^';
  if (ast.seq !== undefined) return ast.seq.length > 0 && anchored(ast.seq[0]);
  if (ast.alt !== undefined) return ast.alt.every(anchored);
  if (ast.repeat !== undefined) return ast.min > 0 && anchored(ast.repeat);
  return false;
}

// V8's backtracking runs a pattern in linear time, at most `work` steps a unit of text,
// when its NFA has no cycle but loops over one character set, no path goes through two
// loops, and the pattern is anchored at the start if it has a loop (`^[a-z0-9_-]{3,16}$`,
// `^\d+(\.\d{1,2})?$`). Proof: without loops, a backtracker explores from each start
// position a tree whose nodes are prefixes of paths through the NFA: `work` counts them
// (a sequence explores its second part once per path through its first; alternatives
// add; a repeat is its copies in a row, each optional one beside stopping). A loop over
// one set consumes k units in one way only, so a path takes it at most n + 1 ways, which
// multiply `work` once, from start position 0 only (the others fail at `^` in a step).
// Returns `paths`, `work` and `loops` (the most loops along a path); `work` is Infinity
// for a lookaround, a loop over more than a set, or past MAX_BACKTRACK_STEPS.
function backtracking(ast) {
  if (ast.set !== undefined || ast.assert !== undefined) return { paths: 1, work: 1, loops: 0 };
  if (ast.seq !== undefined) {
    return ast.seq.map(backtracking).reduce((a, b) => ({ paths: a.paths * b.paths, work: a.work + a.paths * b.work, loops: a.loops + b.loops }), { paths: 1, work: 0, loops: 0 });
  }
  if (ast.alt !== undefined) {
    return ast.alt.map(backtracking).reduce((a, b) => ({ paths: a.paths + b.paths, work: a.work + b.work, loops: Math.max(a.loops, b.loops) }));
  }
  if (ast.repeat === undefined || (ast.max === Infinity && ast.repeat.set === undefined)) return { paths: 1, work: Infinity, loops: 0 };
  if (ast.max === Infinity) return { paths: 1, work: ast.min + 1, loops: 1 };
  const body = backtracking(ast.repeat);
  let paths = ast.min === 0 ? 1 : 0;
  let work = 0;
  for (let k = 1, before = 1; k <= ast.max && work <= MAX_BACKTRACK_STEPS; k++, before *= body.paths) {
    work += before * body.work;
    if (k >= ast.min) paths += before * body.paths;
  }
  return work > MAX_BACKTRACK_STEPS ? { paths: 1, work: Infinity, loops: 0 } : { paths, work, loops: ast.max * body.loops };
}

function linearByBacktracking(ast) {
  const { work, loops } = backtracking(ast);
  return work <= MAX_BACKTRACK_STEPS && (loops === 0 || (loops === 1 && anchored(ast)));
}

// A pattern that is one set of code units, repeated or not, anchored at both ends
// (`^[a-z0-9_-]+$`, `^\d{4}$`, `^[^,]*$`, `^.{1,300}$`): its set and how many units, or
// null. Such a pattern holds exactly when the string's length is in range and each of its
// code units is in the set (`^` and `$` without flags are the string's ends; without the
// u flag V8 reads a pattern, and the string, as UTF-16 code units).
function oneSet(ast) {
  if (ast.seq === undefined || ast.seq.length !== 3) return null;
  const [first, body, last] = ast.seq;
  if (first.assert !== '^' || last.assert !== '$') return null;
  if (body.set !== undefined) return { set: body.set, min: 1, max: 1 };
  if (body.repeat !== undefined && body.repeat.set !== undefined) return { set: body.repeat.set, min: body.min, max: body.max };
  return null;
}

// `oneSet`'s test: the length, then each unit, below 128 by a table. On short strings
// ~5x the speed of V8's RegExp#test, which also records its last match for RegExp.$1
// (the constraints construct's decode: a third of its time was the RegExp).
class Units {
  constructor({ set, min, max }) {
    this.set = set;
    this.min = min;
    this.max = max;
    this.ascii = new Uint8Array(128).map((_, c) => (contains(set, c) ? 1 : 0));
    this.wide = set.length > 0 && set[set.length - 1] >= 128;
  }

  test(s) {
    const n = s.length;
    if (n < this.min || n > this.max) return false;
    const ascii = this.ascii;
    for (let k = 0; k < n; k++) {
      const c = s.charCodeAt(k);
      if (c < 128 ? ascii[c] === 0 : !this.wide || !contains(this.set, c)) return false;
    }
    return true;
  }
}

// Where `find` stops: a match ends at this unit, or none can.
const ACCEPT = Object.freeze({ edges: null });
const DEAD = Object.freeze({ edges: null });

const CHAR = 0;
const SPLIT = 1;
const ASSERT = 2;
const MATCH = 3;

// One automaton: the NFA of the main pattern or of a lookaround's body, read forward or,
// for a lookahead, backward (its body compiled in reverse). Nodes: `op`, `next`, `alt`
// (typed arrays, for the closure loop) and `data` ({ set } of a CHAR, { assert, look,
// negate } of an ASSERT). `everywhere`: a match may start at every position.
class Program {
  constructor(pattern, ast, forward, everywhere) {
    this.pattern = pattern;
    this.forward = forward;
    this.everywhere = everywhere;
    this.nodes = [{ op: MATCH }];
    this.start = this.emit(ast, 0);
    const m = this.nodes.length;
    this.op = Uint8Array.from(this.nodes, (node) => node.op);
    this.setOf = Int32Array.from(this.nodes, (node) => (node.op === CHAR ? pattern.setIndex(node.set) : -1));
    this.next = Int32Array.from(this.nodes, (node) => node.next ?? -1);
    this.alt = Int32Array.from(this.nodes, (node) => node.alt ?? -1);
    this.data = this.nodes;
    this.nodes = null;
    // Scratch of `step`: a node is marked when pushed, so the stack holds each once.
    this.stack = new Int32Array(m);
    this.mark = new Int32Array(m);
    this.seen = new Int32Array(m);
    // The nodes a step reaches, in one of two buffers: a state too large to cache keeps
    // its buffer only until the step after next, which reads it before then.
    this.reached = [new Int32Array(m), new Int32Array(m)];
    this.generation = 0;
    this.forget();
  }

  forget() {
    this.states = new Map();
    this.initial = this.state(Int32Array.of(this.start), true, false);
  }

  add(node) {
    if (++this.pattern.size > MAX_NODES) {
      throw new PatternRefused(`its automaton has more than ${MAX_NODES} nodes (counted repetitions copy what they repeat)`);
    }
    this.nodes.push(node);
    return this.nodes.length - 1;
  }

  // The nodes of `ast`, going on to node `next`; returns the first.
  emit(ast, next) {
    if (ast.set !== undefined) return this.add({ op: CHAR, set: ast.set, next });
    if (ast.seq !== undefined) {
      const seq = this.forward ? ast.seq : [...ast.seq].reverse();
      for (let k = seq.length - 1; k >= 0; k--) next = this.emit(seq[k], next);
      return next;
    }
    if (ast.alt !== undefined) {
      let first = this.emit(ast.alt[ast.alt.length - 1], next);
      for (let k = ast.alt.length - 2; k >= 0; k--) first = this.add({ op: SPLIT, next: this.emit(ast.alt[k], next), alt: first });
      return first;
    }
    if (ast.repeat !== undefined) {
      let first = next;
      if (ast.max === Infinity) {
        const loop = this.add({ op: SPLIT, next: -1, alt: next });
        this.nodes[loop].next = this.emit(ast.repeat, loop);
        first = loop;
      } else {
        // (x(x(x)?)?)?: each optional copy goes on to the next or leaves.
        for (let k = ast.min; k < ast.max; k++) first = this.add({ op: SPLIT, next: this.emit(ast.repeat, first), alt: next });
      }
      for (let k = 0; k < ast.min; k++) first = this.emit(ast.repeat, first);
      return first;
    }
    if (ast.assert !== undefined) return this.add({ op: ASSERT, assert: ast.assert, next });
    // A lookaround: a predicate of the position, its own program (`Pattern` numbers them).
    const look = this.pattern.lookaround(ast);
    return this.add({ op: ASSERT, assert: 'look', look, negate: ast.negate, next });
  }

  // The DFA state for the NFA nodes `ids` (a sorted set, not yet followed through
  // epsilon edges): whether it is the first position of the scan (`edge`), and whether
  // the unit last read was a word character. Cached; when the cache is full, every state
  // is forgotten and the cache starts again (as RE2 does), so the states a string keeps
  // coming back to are soon cached again.
  state(ids, edge, word) {
    const p = this.pattern;
    const dead = ids.length === 0 && !this.everywhere;
    // A state of many nodes costs as much to find in the cache (sorting them, hashing
    // the key) as to step from; and there are few such states a string keeps to.
    if (ids.length > MAX_CACHED_NODES || p.thrashing) return { ids, edge, word, dead, edges: null, epoch: -1 };
    // Sorted in place (`ids` is a step's scratch); node ids are below MAX_NODES < 2^16,
    // one UTF-16 unit each in the key, and one more for the flags.
    ids.sort();
    const key = String.fromCharCode.apply(null, ids) + String.fromCharCode((edge ? 2 : 0) + (word ? 1 : 0));
    let state = this.states.get(key);
    if (state === undefined) {
      const cost = STATE_COST + ids.length * ID_COST;
      if (p.budget < cost) p.forget();
      p.budget -= cost;
      state = { ids: Array.prototype.slice.call(ids), edge, word, dead, edges: null, epoch: p.epoch };
      this.states.set(key, state);
    }
    return state;
  }

  // Where `state` goes on reading a unit of class `cls` (`p.end`: none, the scan is at its
  // last position), the lookarounds holding as `bits` say: { to, accept }, where `accept`
  // says a match ends (a forward scan) or starts (backward) at the current position.
  step(state, cls, bits) {
    const p = this.pattern;
    const atLast = cls === p.end;
    const wordNext = !atLast && p.wordClass[cls] === 1;
    const atStart = this.forward ? state.edge : atLast;
    const atEnd = this.forward ? atLast : state.edge;
    const wordBefore = this.forward ? state.word : wordNext;
    const wordAfter = this.forward ? wordNext : state.word;
    const unit = atLast ? -1 : p.bounds[cls];
    const { op, next, alt, setOf, data, stack, mark, seen } = this;
    // Whether set k holds `unit`: p.hits[k] is `gen` if so, `-gen` if not, asked once a step.
    const hits = p.hits;
    const gen = ++this.generation;
    const hit = ++p.generation;
    let top = 0;
    for (const id of state.ids) {
      mark[id] = gen;
      stack[top++] = id;
    }
    if (this.everywhere && !state.edge && mark[this.start] !== gen) {
      mark[this.start] = gen;
      stack[top++] = this.start;
    }
    const out = this.reached[gen & 1];
    let count = 0;
    let accept = false;
    while (top > 0) {
      const id = stack[--top];
      const to = next[id];
      switch (op[id]) {
        case CHAR: {
          const k = setOf[id];
          if (unit < 0 || seen[to] === gen) continue;
          if (hits[k] !== hit && hits[k] !== -hit) hits[k] = contains(data[id].set, unit) ? hit : -hit;
          if (hits[k] === hit) {
            seen[to] = gen;
            out[count++] = to;
          }
          continue;
        }
        case SPLIT:
          if (mark[alt[id]] !== gen) {
            mark[alt[id]] = gen;
            stack[top++] = alt[id];
          }
          break;
        case MATCH:
          accept = true;
          continue;
        default:
          if (!holds(data[id], atStart, atEnd, wordBefore, wordAfter, bits)) continue;
      }
      if (mark[to] !== gen) {
        mark[to] = gen;
        stack[top++] = to;
      }
    }
    return { to: this.state(out.subarray(0, count), false, wordNext), accept };
  }

  // Where `find` goes from `state` on a unit of class `cls`: the next state, or ACCEPT (a
  // match ends here) or DEAD (none can start or go on), kept in the state's array of
  // edges unless `step` made room by forgetting every state, `state` among them.
  follow(state, cls) {
    const p = this.pattern;
    const { to, accept } = this.step(state, cls, 0);
    const next = accept ? ACCEPT : to.dead ? DEAD : to;
    if (state.epoch === p.epoch && (next !== to || to.epoch === p.epoch)) {
      p.budget -= EDGE_COST;
      if (state.edges === null) state.edges = new Array(p.stride);
      state.edges[cls] = next;
    }
    return next;
  }

  // Whether `s` has a match: the main program of a pattern without lookarounds (most of
  // them), so forward, with no lookaround bits, and edges in arrays. Apart from `scan`
  // since this loop is the cost of a pattern (a Map lookup a unit cost ~3 times it).
  find(s) {
    const p = this.pattern;
    const { end, ascii } = p;
    const n = s.length;
    let state = this.initial;
    for (let i = 0; i <= n; i++) {
      const c = i === n ? -1 : s.charCodeAt(i);
      const cls = c < 0 ? end : c < 128 ? ascii[c] : p.search(c);
      let next = state.edges === null ? undefined : state.edges[cls];
      if (next === undefined) next = this.follow(state, cls);
      if (next === ACCEPT) return true;
      if (next === DEAD) return false;
      state = next;
    }
    return false;
  }

  // The edge `scan` takes from `state` by `key` (class, and lookarounds held): { to,
  // accept }, kept in the state's Map of edges as `follow` keeps its own.
  edge(state, key, cls, held) {
    const p = this.pattern;
    const edge = this.step(state, cls, held);
    if (state.epoch === p.epoch && edge.to.epoch === p.epoch) {
      p.budget -= EDGE_COST;
      if (state.edges === null) state.edges = new Map();
      state.edges.set(key, edge);
    }
    return edge;
  }

  // Runs over `s` with lookarounds: for the main program, whether a match is found; for a
  // lookaround's, sets `bit` in `bits` at every position where its body matches.
  scan(s, bits, bit) {
    const p = this.pattern;
    const n = s.length;
    let state = this.initial;
    for (let k = 0; k <= n; k++) {
      const i = this.forward ? k : n - k;
      const c = k === n ? -1 : s.charCodeAt(this.forward ? i : i - 1);
      const cls = c < 0 ? p.end : c < 128 ? p.ascii[c] : p.search(c);
      const key = cls + p.stride * bits[i];
      let edge = state.edges === null ? undefined : state.edges.get(key);
      if (edge === undefined) edge = this.edge(state, key, cls, bits[i]);
      if (edge.accept) {
        if (bit === 0) return true;
        bits[i] |= bit;
      }
      state = edge.to;
      if (state.dead) return false;
    }
    return false;
  }
}

function holds(node, atStart, atEnd, wordBefore, wordAfter, bits) {
  switch (node.assert) {
    case '^':
      return atStart;
    case '$':
      return atEnd;
    case 'b':
      return wordBefore !== wordAfter;
    case 'B':
      return wordBefore === wordAfter;
    default:
      return ((bits >> node.look) & 1) === (node.negate ? 0 : 1);
  }
}

/** A compiled pattern: `test(s)`, as `new RegExp(source).test(s)` answers, in linear time. */
class Pattern {
  constructor(source, automaton) {
    // V8 judges the syntax: a SyntaxError here is the one `new RegExp` throws.
    const regexp = new RegExp(source);
    this.size = 0;
    this.budget = CACHE_BUDGET;
    this.epoch = 0;
    this.forgotten = 0;
    this.thrashing = false;
    this.sets = new Map();
    this.looks = [];
    this.lookIndex = new Map();
    const ast = new Parser(source).parse();
    this.main = new Program(this, ast, true, !anchored(ast));
    // V8 runs what it provably runs in linear time, ~3x faster than the DFA on a short
    // string (docs/FORMAT.md, "Patterns"); the automaton is built all the same, so that
    // the caps refuse the same patterns either way.
    this.regexp = !automaton && linearByBacktracking(ast) ? regexp : null;
    // One set, anchored: a loop over the units (`Units`), faster still.
    const units = automaton ? null : oneSet(ast);
    this.units = units === null ? null : new Units(units);
    // Character classes: runs of code units no set tells apart, and \b neither.
    const cuts = new Set([0, ...WORD.map((c, k) => c + (k & 1))]);
    for (const set of this.sets.keys()) for (let k = 0; k < set.length; k++) cuts.add(set[k] + (k & 1));
    cuts.delete(0x10000);
    this.bounds = Int32Array.from(cuts).sort();
    this.end = this.bounds.length;
    this.stride = this.end + 1;
    this.dense = this.looks.length === 0;
    this.wordClass = this.bounds.map((c) => (contains(WORD, c) ? 1 : 0));
    this.ascii = new Int32Array(128).map((_, c) => this.search(c));
    this.hits = new Int32Array(this.sets.size);
    this.generation = 0;
    this.sets = null;
  }

  // The number of a set of code units (a repetition's copies share theirs).
  setIndex(set) {
    if (!this.sets.has(set)) this.sets.set(set, this.sets.size);
    return this.sets.get(set);
  }

  // Makes room in the DFA cache. A string that fills it twice in one test visits a new
  // state at almost every unit (the cache holds thousands), and keying those costs more
  // than stepping the NFA without them, which the test then does (as RE2 does): 100 KB
  // of random a and b against `(a|b)*a(a|b){60}c` took 755 ms caching, 426 ms not.
  forget() {
    if (++this.forgotten === 2) this.thrashing = true;
    this.budget = CACHE_BUDGET;
    this.epoch++;
    for (const program of [this.main, ...this.looks]) program.forget();
  }

  // The number of lookaround `ast`'s program, made once however often a repetition copies
  // it, and after those it holds (its scan reads theirs).
  lookaround(ast) {
    let index = this.lookIndex.get(ast);
    if (index === undefined) {
      const program = new Program(this, ast.look, !ast.ahead, true);
      if (this.looks.length === MAX_LOOKAROUNDS) throw new PatternRefused(`it has more than ${MAX_LOOKAROUNDS} lookarounds`);
      index = this.looks.push(program) - 1;
      this.lookIndex.set(ast, index);
    }
    return index;
  }

  search(c) {
    const b = this.bounds;
    let lo = 0;
    let hi = b.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (b[mid] <= c) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }


  test(s) {
    if (this.units !== null) return this.units.test(s);
    if (this.regexp !== null) return this.regexp.test(s);
    this.forgotten = 0;
    this.thrashing = false;
    if (this.dense) return this.main.find(s);
    const bits = new Int32Array(s.length + 1);
    for (let j = 0; j < this.looks.length; j++) this.looks[j].scan(s, bits, 1 << j);
    return this.main.scan(s, bits, 0);
  }
}

/**
 * Compiles a pattern's source. Throws V8's SyntaxError for what `new RegExp` refuses, and
 * `PatternRefused` for a backreference, a modifier group or a pattern past the caps.
 * `{ automaton: true }` runs it on the DFA even where V8 would be linear (for tests).
 */
function compilePattern(source, { automaton = false } = {}) {
  return new Pattern(source, automaton);
}

module.exports = { compilePattern, PatternRefused, MAX_NODES, MAX_DEPTH, MAX_LOOKAROUNDS, MAX_BACKTRACK_STEPS };
