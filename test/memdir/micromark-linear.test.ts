// micromark's join of a paragraph's adjacent pieces of text, written in one pass
// (scripts/micromark-linear.mjs): it gives the events micromark's own gives, the micromark these
// tests load is the one-pass one, and so is every bundle.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINEAR, ORIGINAL, linearCodeText, linearText, linkedStack, tailMoveDocument } from '../../scripts/micromark-linear.mjs';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../helpers/repo.js';

type Token = { type: string; start: { offset: number }; end: { offset: number } };
type Event = ['enter' | 'exit', Token, null];
type Resolve = (events: Event[], context: null) => Event[];
const original = new Function('events', 'context', `${ORIGINAL}\nreturn events;`) as Resolve;
const linear = new Function('events', 'context', `${LINEAR}\nreturn events;`) as Resolve;

// A text's events: tokens one after another, each an enter and its exit, data or not, some
// holding others (a link around its text).
type Shape = { data: boolean; kids: Shape[] };
const shape: fc.Arbitrary<Shape[]> = fc.letrec<{ list: Shape[]; node: Shape }>((tie) => ({
  node: fc.record({ data: fc.boolean(), kids: fc.oneof({ depthSize: 'small' }, fc.constant<Shape[]>([]), tie('list')) }).map((n) => (n.data ? { data: true, kids: [] } : n)),
  list: fc.array(tie('node'), { maxLength: 8 }),
})).list;

function events(shapes: Shape[]): Event[] {
  let offset = 0;
  const out: Event[] = [];
  const emit = (s: Shape) => {
    const token: Token = { type: s.data ? 'data' : 'other', start: { offset }, end: { offset } };
    out.push(['enter', token, null]);
    offset += 1;
    for (const k of s.kids) emit(k);
    token.end = { offset };
    out.push(['exit', token, null]);
  };
  for (const s of shapes) emit(s);
  return out;
}
const view = (evs: Event[]) => evs.map(([kind, t]) => `${kind} ${t.type} ${t.start.offset}-${t.end.offset}`);

describe('one-pass join of text pieces', () => {
  it('gives the events micromark\'s own join gives (property)', () => {
    fc.assert(
      fc.property(shape, (shapes) => {
        expect(view(linear(events(shapes), null))).toEqual(view(original(events(shapes), null)));
      }),
      { numRuns: 2000, seed: 7 },
    );
  });

  it('is the join of the micromark the tests load, and it never splices', async () => {
    const file = join(createRequire(import.meta.url).resolve('micromark'), '..', 'lib', 'initialize', 'text.js');
    const { resolver } = (await import(file)) as { resolver: { resolveAll: Resolve } };
    const evs = events(Array.from({ length: 300 }, (_, i) => ({ data: i % 3 !== 2, kids: [] })));
    let splices = 0;
    const watched = new Proxy(evs, { get: (t, k) => (k === 'splice' ? (...a: [number, number]) => (splices++, t.splice(...a)) : Reflect.get(t, k)) });
    expect(view(resolver.resolveAll(watched, null))).toEqual(view(original(events(Array.from({ length: 300 }, (_, i) => ({ data: i % 3 !== 2, kids: [] }))), null)));
    expect(splices).toBe(0);
  });

  it('is in every bundle that holds micromark', () => {
    const dist = join(ROOT, 'dist');
    const files = ['remark.mjs', 'lint-lazy/markdown.cjs', ...readdirSync(join(dist, 'chunks')).map((f) => `chunks/${f}`)];
    const holding = files.filter((f) => readFileSync(join(dist, f), 'utf8').includes('function resolveAllText('));
    expect(holding.length).toBeGreaterThanOrEqual(2);
    for (const f of holding) expect({ f, linear: readFileSync(join(dist, f), 'utf8').includes('events.length = write') }).toEqual({ f, linear: true });
  });

  it('stops the build when micromark\'s function is not the one it replaces', () => {
    const source = readFileSync(join(createRequire(import.meta.url).resolve('micromark'), '..', 'lib', 'initialize', 'text.js'), 'utf8');
    expect(() => linearText(source.replace('index = enter + 2', 'index = enter + 3'))).toThrow(/not the one scripts\/micromark-linear\.mjs replaces/);
  });
});

// Documents whose blocks end and begin without a blank line, so that micromark moves container
// exits: lazy lines, fences, quotes, lists, tables and headings in every order and nesting.
const BLOCKS = ['- [Topic](t.md) — moved yesterday', '```', 'code', '> quote "said x"', '> > nested', '| a | b |', '|---|---|', '# Heading', 'plain lazy line', '  - nested item', '1. ordered', '    indented code', '', '~~~'];
const documents: string[] = [];
for (let seed = 1; documents.length < 400; seed++) {
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) % 2147483648), x);
  documents.push(Array.from({ length: 5 + (next() % 40) }, () => BLOCKS[next() % BLOCKS.length]).join('\n') + '\n');
}
// Containers nested deep on one line, which the tokenizer's stack of open tokens holds.
const NESTERS = ['>', '> ', '- ', '* ', '1. ', '> - ', '- > ', '>>- [a](b.md) '];
for (let k = 0; k < 24; k++) documents.push(`${NESTERS[k % NESTERS.length]!.repeat(5 + k * 7)}text\n${k % 2 ? 'lazy line\n' : ''}`);

/** Each document's events as micromark gives them: type and offsets, in order. */
const EVENTS_OF = `import { parse, postprocess, preprocess } from 'micromark';
const docs = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(docs.map((d) => postprocess(parse().document().write(preprocess()(d, undefined, true))).map(([k, t]) => k + ' ' + t.type + ' ' + t.start.offset + '-' + t.end.offset).join('\\n'))));`;

describe('container exits moved on the tail only', () => {
  it("gives the events micromark's own move and stack give, on 424 documents of blocks without blank lines and deep nesting", async () => {
    // micromark as Node loads it, unpatched, in another process; the patched one in this one.
    const theirs = spawnSync(process.execPath, ['--input-type=module', '-e', `import { createRequire } from 'node:module'; const require = createRequire(${JSON.stringify(join(ROOT, 'package.json'))});\n${EVENTS_OF}`], { cwd: ROOT, input: JSON.stringify(documents), encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(theirs.stderr).toBe('');
    const { parse, postprocess, preprocess } = await import('micromark');
    const ours = documents.map((d) => postprocess(parse().document().write(preprocess()(d, undefined, true))).map(([k, t]) => `${k} ${t.type} ${t.start.offset}-${t.end.offset}`).join('\n'));
    expect(ours).toEqual(JSON.parse(theirs.stdout));
  });

  it('is in every bundle that holds micromark, and stops the build when micromark moves exits another way', () => {
    const dist = join(ROOT, 'dist');
    const files = ['remark.mjs', 'lint-lazy/markdown.cjs', ...readdirSync(join(dist, 'chunks')).map((f) => `chunks/${f}`)];
    const holding = files.filter((f) => readFileSync(join(dist, f), 'utf8').includes('indexBeforeExits'));
    expect(holding.length).toBeGreaterThanOrEqual(2);
    for (const f of holding) {
      const text = readFileSync(join(dist, f), 'utf8');
      // esbuild may rename `self` (self2) in a bundle.
      expect({ f, tail: text.match(/\bself\d*\.events\.length = indexBeforeFlow \+ 1/g)?.length, editMap: /editMap\.consume\(self\d*\.events\)/.test(text) }).toEqual({ f, tail: 2, editMap: false });
    }
    const source = readFileSync(join(createRequire(import.meta.url).resolve('micromark'), '..', 'lib', 'initialize', 'document.js'), 'utf8');
    expect(tailMoveDocument(source)).not.toContain('EditMap()');
    expect(() => tailMoveDocument(source.replace('editMap.add(indexBeforeExits, index - indexBeforeExits, [])', 'editMap.add(indexBeforeExits, 0, [])'))).toThrow(/not moved as scripts\/micromark-linear\.mjs expects/);
  });
});

// Paragraphs of backtick runs that close, never close, or close further on, with escapes, line
// endings, spaces, block quotes and list items around them.
const PIECES = ['`', '``', '```', '````', 'a', ' ', '\n', '\\', '\\`', '> ', '- ', '[x](y)', '\n\n', '    '];
const paragraphs: string[] = [];
for (let seed = 1; paragraphs.length < 600; seed++) {
  let x = seed * 7919;
  const next = () => ((x = (x * 1103515245 + 12345) % 2147483648), x);
  paragraphs.push(Array.from({ length: 3 + (next() % 60) }, () => PIECES[next() % PIECES.length]).join(''));
}
for (let n = 1; n <= 12; n++) paragraphs.push(Array.from({ length: n }, (_, k) => `${'`'.repeat(k + 1)}a`).join('') + '`'.repeat(n % 4 + 1));

describe('code (text) runs remembered', () => {
  it("gives the events micromark's own tokenizer gives, on 612 paragraphs of backtick runs", async () => {
    const theirs = spawnSync(process.execPath, ['--input-type=module', '-e', `import { createRequire } from 'node:module'; const require = createRequire(${JSON.stringify(join(ROOT, 'package.json'))});\n${EVENTS_OF}`], { cwd: ROOT, input: JSON.stringify(paragraphs), encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(theirs.stderr).toBe('');
    const { parse, postprocess, preprocess } = await import('micromark');
    const ours = paragraphs.map((d) => postprocess(parse().document().write(preprocess()(d, undefined, true))).map(([k, t]) => `${k} ${t.type} ${t.start.offset}-${t.end.offset}`).join('\n'));
    expect(ours).toEqual(JSON.parse(theirs.stdout));
  });

  it('is the tokenizer these tests load: runs that never close are read to the end once, not once per run', async () => {
    // 300 runs of growing length (about 45,000 characters): micromark's own tokenizer reads on
    // from each run to the end, about 6.8 million characters. Counted, not timed: every character
    // code (text) consumes, through the tokenizer these tests load.
    const runs = Array.from({ length: 300 }, (_, k) => `${'`'.repeat(k + 1)}a`).join('');
    const { parse, postprocess, preprocess } = await import('micromark');
    const { codeText } = await import('micromark-core-commonmark');
    let consumed = 0;
    const counted = {
      ...codeText,
      name: 'countedCodeText',
      tokenize(this: unknown, effects: { consume: (code: number | null) => void }, ok: unknown, nok: unknown) {
        const counting = { ...effects, consume: (code: number | null) => (consumed++, effects.consume(code)) };
        return (codeText.tokenize as (...a: unknown[]) => unknown).call(this, counting, ok, nok);
      },
    };
    const events = postprocess(parse({ extensions: [{ disable: { null: ['codeText'] } }, { text: { 96: counted } } as never] }).document().write(preprocess()(runs, undefined, true)));
    expect(events.some(([, t]) => t.type === 'codeText')).toBe(false);
    expect(consumed).toBeGreaterThan(runs.length / 2);
    expect(consumed).toBeLessThan(3 * runs.length);
  });

  it('is in every bundle that holds micromark, and stops the build when the tokenizer changes', () => {
    const dist = join(ROOT, 'dist');
    const files = ['remark.mjs', 'lint-lazy/markdown.cjs', ...readdirSync(join(dist, 'chunks')).map((f) => `chunks/${f}`)];
    const holding = files.filter((f) => readFileSync(join(dist, f), 'utf8').includes('function tokenizeCodeText('));
    expect(holding.length).toBeGreaterThanOrEqual(2);
    for (const f of holding) expect({ f, remembered: /\bruns\d*\.toEnd = true/.test(readFileSync(join(dist, f), 'utf8')) }).toEqual({ f, remembered: true });
    for (const build of ['lib', 'dev/lib']) {
      const source = readFileSync(join(ROOT, 'node_modules', 'micromark-core-commonmark', build, 'code-text.js'), 'utf8');
      expect(linearCodeText(source)).toContain('runs.lastEnd.set(size');
      expect(() => linearCodeText(source.replace('sizeOpen++', 'sizeOpen += 2'))).toThrow(/not the one scripts\/micromark-linear\.mjs patches/);
    }
  });
});

describe("the tokenizer's stack of open tokens, a linked list", () => {
  it('is in every bundle that holds micromark, and stops the build when the tokenizer uses its stack another way', () => {
    const dist = join(ROOT, 'dist');
    const files = ['remark.mjs', 'lint-lazy/markdown.cjs', ...readdirSync(join(dist, 'chunks')).map((f) => `chunks/${f}`)];
    const holding = files.filter((f) => readFileSync(join(dist, f), 'utf8').includes('function createTokenizer('));
    expect(holding.length).toBeGreaterThanOrEqual(2);
    for (const f of holding) {
      const text = readFileSync(join(dist, f), 'utf8');
      expect({ f, linked: /\bstack\d* = \{ token\d*, below: stack\d* \}/.test(text), copied: /Array\.from\(stack\d*\)/.test(text) }).toEqual({ f, linked: true, copied: false });
    }
    // And in the micromark these tests load (the events above are compared with micromark's own).
    const file = join(createRequire(import.meta.url).resolve('micromark'), '..', 'lib', 'create-tokenizer.js');
    expect(readFileSync(file, 'utf8')).toContain('Array.from(stack)');
    return import(file).then(({ createTokenizer }: { createTokenizer: () => unknown }) => {
      expect(createTokenizer.toString()).toContain('below: stack');
      for (const build of ['lib', 'dev/lib']) {
        const source = readFileSync(join(ROOT, 'node_modules', 'micromark', build, 'create-tokenizer.js'), 'utf8');
        expect(linkedStack(source)).not.toContain('Array.from(stack)');
        expect(() => linkedStack(source.replace('stack.push(token)', 'stack.unshift(token)'))).toThrow(/not used as scripts\/micromark-linear\.mjs expects/);
      }
    });
  });
});
