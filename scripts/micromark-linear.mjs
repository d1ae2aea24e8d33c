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

const DOCUMENT_JS = /[\\/]micromark[\\/](?:dev[\\/])?lib[\\/]initialize[\\/]document\.js$/;

/** The patched source of a micromark file, or null when it is not one patched here. */
function patched(path, code) {
  if (TEXT_JS.test(path)) return linearText(code, path);
  if (DOCUMENT_JS.test(path)) return tailMoveDocument(code, path);
  return null;
}

export const esbuildPlugin = {
  name: 'micromark-linear',
  setup(b) {
    b.onLoad({ filter: TEXT_JS }, (args) => ({ contents: linearText(readFileSync(args.path, 'utf8'), args.path), loader: 'js' }));
    b.onLoad({ filter: DOCUMENT_JS }, (args) => ({ contents: tailMoveDocument(readFileSync(args.path, 'utf8'), args.path), loader: 'js' }));
  },
};

// For vitest, which must transform micromark to patch it (vitest.config.ts inlines it): micromark
// resolved as Node resolves it for the CLI (its production build; vite would pick the development
// build, which checks every step and runs several times slower).
export const vitePlugin = {
  name: 'micromark-linear',
  enforce: 'pre',
  resolveId(id) {
    return id === 'micromark' ? createRequire(import.meta.url).resolve('micromark') : null;
  },
  transform(code, id) {
    const out = patched(id.split('?')[0], code);
    return out === null ? null : { code: out, map: null };
  },
};
