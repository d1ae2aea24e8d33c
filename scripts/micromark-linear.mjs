// micromark joins the adjacent pieces of text a paragraph breaks into (`resolveAllText` in
// micromark/lib/initialize/text.js) with one `events.splice` per group of pieces, so a paragraph
// of thousands of groups (thousands of lines each holding a `<`, `[`, `&` or backslash, or
// thousands of unmatched brackets) took time quadratic in its length: 100 KB of `[a]` in one
// index entry about 2 s, 4 MB (the largest memory file memlint reads) most of an hour. The
// same join, written in one pass that compacts the array in place, replaces it in every bundle
// (scripts/build.mjs) and in the tests (vitest.config.ts). It gives the same events:
// test/memdir/micromark-linear.test.ts holds the two to each other, and the build stops if
// micromark's function ever reads differently from the one replaced here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** micromark 4's function body (either build: lib/ or dev/lib/), formatting aside. */
export const ORIGINAL = `
    let index = -1;
    let enter;
    while (++index <= events.length) {
      if (enter === undefined) {
        if (events[index] && events[index][1].type === "data") {
          enter = index;
          index++;
        }
      } else if (!events[index] || events[index][1].type !== "data") {
        if (index !== enter + 2) {
          events[enter][1].end = events[index - 1][1].end;
          events.splice(enter + 2, index - enter - 2);
          index = enter + 2;
        }
        enter = undefined;
      }
    }
`;

export const LINEAR = `
    let index = -1;
    let enter;
    let write = 0;
    while (++index <= events.length) {
      if (enter === undefined) {
        if (events[index] && events[index][1].type === "data") {
          enter = index;
          index++;
        }
      } else if (!events[index] || events[index][1].type !== "data") {
        // One data token for the whole group: the first one, reaching to the last one's end.
        if (index !== enter + 2) events[enter][1].end = events[index - 1][1].end;
        events[write++] = events[enter];
        events[write++] = events[enter + 1];
        enter = undefined;
      }
      if (enter === undefined && index < events.length) events[write++] = events[index];
    }
    events.length = write;
`;

const BODY = /(function resolveAllText\(events, context\) \{)([\s\S]*?)(\n\s*return extraResolver \? extraResolver\(events, context\) : events)/;
const normal = (code) => code.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '').replace(/types\.data/g, '"data"').replace(/[\s;]+/g, '');

/** micromark's text initializer with the one-pass join; throws when the original is not there. */
export function linearText(source, file = 'micromark/lib/initialize/text.js') {
  const m = BODY.exec(source);
  if (!m || normal(m[2]) !== normal(ORIGINAL)) throw new Error(`${file}: resolveAllText is not the one scripts/micromark-linear.mjs replaces (micromark changed?)`);
  return source.slice(0, m.index) + m[1] + LINEAR + m[3] + source.slice(m.index + m[0].length);
}

const TEXT_JS = /[\\/]micromark[\\/](?:dev[\\/])?lib[\\/]initialize[\\/]text\.js$/;

// micromark's document tokenizer moves the exits of closed containers before the last flow chunk
// (when a lazy line turns out to start a new block, and when flow closes) with an EditMap, whose
// consume() copies the whole event list of the document each time: a document whose blocks
// alternate (a fence or a list item, then a block quote, thousands of times) took time quadratic
// in its length (256 KB of them about 30 s). The same move, made on the tail after that chunk
// only, replaces it in both places; it gives the same events (test/memdir/micromark-linear.test.ts).
export const ORIGINAL_MOVE = `
      const editMap = new EditMap()
      editMap.add(indexBeforeFlow + 1, 0, self.events.slice(indexBeforeExits))
      editMap.add(indexBeforeExits, index - indexBeforeExits, [])
      editMap.consume(self.events)
`;

export const TAIL_MOVE = `
      const exits = self.events.slice(indexBeforeExits);
      const flow = self.events.slice(indexBeforeFlow + 1, indexBeforeExits);
      self.events.length = indexBeforeFlow + 1;
      for (const e of exits) self.events.push(e);
      for (const e of flow) self.events.push(e);
`;

const MOVE = /\n(\s*)const editMap = new EditMap\(\);?\n[^\n]*\n\s*editMap\.add\(indexBeforeFlow \+ 1, 0, self\.events\.slice\(indexBeforeExits\)\);?\n[^\n]*\n\s*editMap\.add\(indexBeforeExits, index - indexBeforeExits, \[\]\);?\n\s*editMap\.consume\(self\.events\);?\n/g;

/** micromark's document initializer with the tail move; throws unless both moves are there as written. */
export function tailMoveDocument(source, file = 'micromark/lib/initialize/document.js') {
  const found = source.match(MOVE) ?? [];
  if (found.length !== 2 || found.some((m) => normal(m.split('\n').filter((l) => !/^\s*\/\//.test(l)).join('\n')) !== normal(ORIGINAL_MOVE))) {
    throw new Error(`${file}: the container exits are not moved as scripts/micromark-linear.mjs expects (micromark changed?)`);
  }
  return source.replace(MOVE, (_m, indent) => `\n${TAIL_MOVE.trim().split('\n').map((l) => indent + l.trim()).join('\n')}\n`);
}


// micromark's code (text) tokenizer reads from every opening run of backticks to the end of the
// paragraph when no run of the same length closes it, so a paragraph of runs that never close
// (1, 2, 3 … backticks) took time quadratic in its length: 1 MB in one entry about 16 s. As
// cmark does, each paragraph's tokenizer now remembers, once a scan has reached the paragraph's
// end, where the last run of each length ends; an opening run with no run of its length after
// it fails at once, as its scan would have. Runs are recorded by every scan, closing or not.
export const ORIGINAL_CODE_TEXT = `
function tokenizeCodeText(effects, ok, nok) {
  const self = this; let sizeOpen = 0; let size; let token; return start;
  function start(code) { effects.enter("codeText"); effects.enter("codeTextSequence"); return sequenceOpen(code); }
  function sequenceOpen(code) {
    if (code === 96) { effects.consume(code); sizeOpen++; return sequenceOpen; }
    effects.exit("codeTextSequence"); return between(code);
  }
  function between(code) {
    if (code === null) { return nok(code); }
    if (code === 32) { effects.enter('space'); effects.consume(code); effects.exit('space'); return between; }
    if (code === 96) { token = effects.enter("codeTextSequence"); size = 0; return sequenceClose(code); }
    if (markdownLineEnding(code)) { effects.enter("lineEnding"); effects.consume(code); effects.exit("lineEnding"); return between; }
    effects.enter("codeTextData"); return data(code);
  }
  function data(code) {
    if (code === null || code === 32 || code === 96 || markdownLineEnding(code)) { effects.exit("codeTextData"); return between(code); }
    effects.consume(code); return data;
  }
  function sequenceClose(code) {
    if (code === 96) { effects.consume(code); size++; return sequenceClose; }
    if (size === sizeOpen) { effects.exit("codeTextSequence"); effects.exit("codeText"); return ok(code); }
    token.type = "codeTextData"; return data(code);
  }
}
`;

/** The development build's spelling (constants, assertions) as the production build's. */
const normalCodeText = (code) =>
  normal(
    code
      .replace(/\n\s*assert\([^\n]*\)(?=\n)/g, '')
      .replace(/codes\.graveAccent/g, '96')
      .replace(/codes\.eof/g, 'null')
      .replace(/codes\.space/g, '32')
      .replace(/types\.(\w+)/g, '"$1"')
      .replace(/'/g, '"'),
  );

const CODE_TEXT_FUNCTION = /function tokenizeCodeText\(effects, ok, nok\) \{[\s\S]*?\n\}(?=\n|$)/;
const CODE_TEXT_EDITS = [
  // Each paragraph's runs: its tokenizer is `this` for every construct tried in it.
  [/(function tokenizeCodeText\(effects, ok, nok\) \{\s*const self = this;?)/, '$1\n  const runs = codeTextRuns(self);'],
  // The opening run is complete: fail now when no run of its length ends after it.
  [/(\n\s*)(effects\.exit\((?:types\.codeTextSequence|"codeTextSequence")\);?\s*return between\(code\);?)/, '$1if (runs.toEnd && !((runs.lastEnd.get(sizeOpen) ?? -1) > self.now().offset)) return nok(code);$1$2'],
  // A scan reached the paragraph's end: every run after its start has been recorded.
  [/(if \(code === (?:codes\.eof|null)\) \{\s*)(return nok\(code\);?)/, '$1runs.toEnd = true;\n      $2'],
  // A run is complete (closing or not): record where it ends.
  [/(\n\s*)(if \(size === sizeOpen\) \{)/, '$1runs.lastEnd.set(size, Math.max(runs.lastEnd.get(size) ?? -1, self.now().offset));$1$2'],
];
const CODE_TEXT_RUNS = `
const codeTextRunsOf = new WeakMap();
function codeTextRuns(context) {
  let runs = codeTextRunsOf.get(context);
  if (!runs) codeTextRunsOf.set(context, (runs = { toEnd: false, lastEnd: new Map() }));
  return runs;
}
`;

/** micromark's code (text) tokenizer that remembers the runs after it; throws unless it is the one expected. */
export function linearCodeText(source, file = 'micromark-core-commonmark/lib/code-text.js') {
  const m = CODE_TEXT_FUNCTION.exec(source);
  if (!m || normalCodeText(m[0]) !== normalCodeText(ORIGINAL_CODE_TEXT)) {
    throw new Error(`${file}: tokenizeCodeText is not the one scripts/micromark-linear.mjs patches (micromark changed?)`);
  }
  let fn = m[0];
  for (const [re, to] of CODE_TEXT_EDITS) {
    if (!re.test(fn)) throw new Error(`${file}: tokenizeCodeText is not the one scripts/micromark-linear.mjs patches (micromark changed?)`);
    fn = fn.replace(re, to);
  }
  return source.slice(0, m.index) + fn + CODE_TEXT_RUNS + source.slice(m.index + m[0].length);
}

const CODE_TEXT_JS = /[\\/]micromark-core-commonmark[\\/](?:dev[\\/])?lib[\\/]code-text\.js$/;


// micromark's tokenizer copies its stack of open tokens each time it tries a construct, to put it
// back if the construct fails, so a line that opens thousands of nested containers (`>` repeated)
// took time quadratic in their number or worse: 32 KB of `>` took 48 s in remark-parse, 1 MB did
// not finish. The stack is a linked list here: pushing, popping and keeping a copy are each one
// step, and putting one back is taking that pointer again. The five places that touch it are the
// only ones (the build stops otherwise).
const STACK_EDITS = [
  [/let stack = \[\];?/, 'let stack;'],
  [/stack\.push\(token\);?/, 'stack = { token, below: stack };'],
  [/const token = stack\.pop\(\);?/, 'const token = stack.token;\n    stack = stack.below;'],
  [/const startStack = Array\.from\(stack\);?/, 'const startStack = stack;'],
  [/stack = startStack;?/, 'stack = startStack;'],
];

/** micromark's tokenizer with its stack of open tokens as a linked list; throws unless it touches the stack only as expected. */
export function linkedStack(source, file = 'micromark/lib/create-tokenizer.js') {
  const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
  const uses = code.split('\n').filter((line) => /\bstack\b/.test(line));
  const expected = uses.length === STACK_EDITS.length && STACK_EDITS.every(([re]) => uses.filter((u) => re.test(u)).length === 1);
  if (!expected) throw new Error(`${file}: the tokenizer's stack is not used as scripts/micromark-linear.mjs expects (micromark changed?)`);
  let out = source;
  for (const [re, to] of STACK_EDITS) out = out.replace(re, to);
  return out;
}

const CREATE_TOKENIZER_JS = /[\\/]micromark[\\/](?:dev[\\/])?lib[\\/]create-tokenizer\.js$/;

const DOCUMENT_JS = /[\\/]micromark[\\/](?:dev[\\/])?lib[\\/]initialize[\\/]document\.js$/;

/** The patched source of a micromark file, or null when it is not one patched here. */
function patched(path, code) {
  if (TEXT_JS.test(path)) return linearText(code, path);
  if (DOCUMENT_JS.test(path)) return tailMoveDocument(code, path);
  if (CODE_TEXT_JS.test(path)) return linearCodeText(code, path);
  if (CREATE_TOKENIZER_JS.test(path)) return linkedStack(code, path);
  return null;
}

export const esbuildPlugin = {
  name: 'micromark-linear',
  setup(b) {
    b.onLoad({ filter: TEXT_JS }, (args) => ({ contents: linearText(readFileSync(args.path, 'utf8'), args.path), loader: 'js' }));
    b.onLoad({ filter: DOCUMENT_JS }, (args) => ({ contents: tailMoveDocument(readFileSync(args.path, 'utf8'), args.path), loader: 'js' }));
    b.onLoad({ filter: CODE_TEXT_JS }, (args) => ({ contents: linearCodeText(readFileSync(args.path, 'utf8'), args.path), loader: 'js' }));
    b.onLoad({ filter: CREATE_TOKENIZER_JS }, (args) => ({ contents: linkedStack(readFileSync(args.path, 'utf8'), args.path), loader: 'js' }));
  },
};

// For vitest, which must transform micromark to patch it (vitest.config.ts inlines it): micromark
// and its constructs resolved as Node resolves them for the CLI (their production builds; vite would
// pick the development builds, which check every step and run several times slower).
export const vitePlugin = {
  name: 'micromark-linear',
  enforce: 'pre',
  resolveId(id) {
    return id === 'micromark' || id === 'micromark-core-commonmark' ? createRequire(import.meta.url).resolve(id) : null;
  },
  transform(code, id) {
    const out = patched(id.split('?')[0], code);
    return out === null ? null : { code: out, map: null };
  },
};
