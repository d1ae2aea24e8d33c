// Time grows linearly with input (docs/security.md); the last step of `npm run bench`, not of
// `npm test` (it compares times). Generated pathological inputs (long runs of
// one character or token where the index, a topic, its frontmatter or a daily log holds text) are
// linted, fixed and consolidated in process at 10 KB and at 100 KB; ten times the input must not
// take thirty times as long (a quadratic pattern takes about a hundred times). A ratio, measured
// after a warm-up, never an absolute time. Every run's text is new (a numbered last line): the
// block model keeps the last few files it read, and a repeated text would time the memo.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintMemdirs, resolveRules } from '../../src/lint/engine.js';
import { planFor } from '../../src/consolidate/run.js';
import { resolveSettings } from '../../src/consolidate/settings.js';
import { loadDateFinder } from '../../src/consolidate/date-finder.js';
import { blockModel } from '../../src/memdir/blocks.js';
import { lintDocument, locateDocument } from '../../src/lsp/lint-document.js';
import { fitLines } from '../../src/claude/hook-report.js';
import { mergeMemoryFile } from '../../src/merge/driver.js';
import { findLoss } from '../../src/lint/rules/no-memory-loss.js';
import { tempDir } from '../../test/helpers/repo.js';

const SMALL = 10 * 1024;
const LARGE = 100 * 1024;
const MAX_RATIO = 30;

// What the audit found quadratic (a run of spaces in a hook, a repeated `ghp_`, `- [` and `[`
// runs), and the characters and tokens regexes stop at or repeat on.
// Not a token: runs of 1, 2, 3 … backticks, each after a letter (runOf builds them).
const GROWING_RUNS = '`, ``, ``` …';
const TOKENS = [' ', '\t', '[', ']', '(', ')', '-', '*', '_', '`', '<', '>', '#', ':', '/', '@', '\\', '"', "'", '.', '!', 'a', '0', '\n',
  'ghp_', '- [', '[a](', '](', '://a:', '<!--', '-->', '**', '---', '- ', '1. ', 'password: ', 'api_key= ', 'http://', 'tomorrow ', 'no Thursday ', '下周四', '```', '    ', 'Why: ',
  // micromark reads on to the end of the paragraph from each of these when it never closes.
  '<?', '<![CDATA[', '<!', '*a', 'a*', '_a', '`a', '&#', '![',
  // Comments in code spans, thousands on a line (no-prompt-injection looked up each one's line).
  '`<!--x-->` ', '<!--x--> ', '](<',
  // Backtick runs of growing length, none closed: micromark read on from each (see GROWING_RUNS).
  GROWING_RUNS];
const CONTEXTS: Record<string, (run: string) => Record<string, string>> = {
  hook: (r) => ({ 'MEMORY.md': `- [A](a.md) — hook${r}x\n` }),
  'index line': (r) => ({ 'MEMORY.md': `- [A](a.md) — h\n${r}\n` }),
  title: (r) => ({ 'MEMORY.md': `- [${r}](a.md) — h\n` }),
  target: (r) => ({ 'MEMORY.md': `- [A](a${r}.md) — h\n` }),
  'topic body': (r) => ({ 'a.md': `---\nname: a\ndescription: a d\ntype: project\n---\nsome ${r} text\n` }),
  description: (r) => ({ 'a.md': `---\nname: a\ndescription: a ${r} d\ntype: project\n---\nBody\n` }),
  'daily log': (r) => ({ 'logs/2026/01/2026-01-02.md': `# 2026-01-02\n\n- [a] 10:00 ${r} x\n` }),
};
const BASE = { 'MEMORY.md': '- [A](a.md) — h\n', 'a.md': '---\nname: a\ndescription: a d\ntype: project\n---\nBody\n' };
// With a real secret signal beside it, secretlint's preset runs on the text too.
// Spelt in pieces, so that this file itself holds no live-looking secret (test/security/docs-secrets).
const SIGNAL = `\ntoken ${'ghp'}_wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx and ${'postgres'}://u:${'p4ssw0rd9'}@db.example.com/x\n`;

const rules = resolveRules({});
let findDates: Awaited<ReturnType<typeof loadDateFinder>>;

type Mode = 'lint' | 'fix' | 'consolidate';
const MODES: Mode[] = (process.env.LINEAR_MODES?.split(',') as Mode[] | undefined) ?? ['lint'];

function memdir(files: Record<string, string>): string {
  const dir = join(tempDir('memlint-linear-'), 'memory');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

let runNumber = 0;
const fresh = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([rel, text]) => [rel, `${text}\nrun ${++runNumber}\n`]));

async function timeOnce(mode: Mode, files: Record<string, string>): Promise<number> {
  const dir = memdir(fresh(files));
  const t0 = performance.now();
  if (mode === 'consolidate') await planFor({ dir, repoRoot: null }, resolveSettings({}, dir, undefined, join(dir, '..')), { prune: false, findDates, day: '2026-01-10', env: process.env });
  else await lintMemdirs({ memdirs: [{ dir, repoRoot: null, reason: 'path' }], env: process.env, rules, fix: mode === 'fix' });
  const t = performance.now() - t0;
  rmSync(join(dir, '..'), { recursive: true, force: true });
  return t;
}

/** The fastest of a few runs: the machine's other work only ever adds time. */
async function time(mode: Mode, files: Record<string, string>, runs: number): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) best = Math.min(best, await timeOnce(mode, files));
  return best;
}

async function ratio(mode: Mode, make: (size: number) => Record<string, string>, [smallSize, largeSize] = [SMALL, LARGE]): Promise<{ small: number; large: number; ratio: number }> {
  await timeOnce(mode, make(smallSize)); // warm-up: compile the code paths this input takes
  const small = await time(mode, make(smallSize), 3);
  const large = await time(mode, make(largeSize), 2);
  // A floor of 5 ms for the small run: below it the ratio measures timer noise, not growth.
  return { small, large, ratio: large / Math.max(small, 5) };
}

function runOf(token: string, size: number): string {
  if (token !== GROWING_RUNS) return token.repeat(Math.ceil(size / token.length));
  let out = '';
  for (let n = 1; out.length < size; n++) out += `a${'`'.repeat(n)}`;
  return out;
}

/** The fastest of a few block models of a text, each run's text new (the model keeps the last few). */
function timeModel(text: string, runs: number): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    blockModel(`${text}\nrun ${++runNumber}\n`);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

describe('time grows linearly with input', () => {
  it('lints, fixes and consolidates pathological inputs (10 KB against 100 KB)', async () => {
    findDates = await loadDateFinder();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TOKENS),
        fc.constantFrom(...Object.keys(CONTEXTS)),
        fc.constantFrom<Mode>(...MODES),
        fc.boolean(),
        async (token, context, mode, signal) => {
          const make = (size: number) => {
            const files: Record<string, string> = { ...BASE, ...CONTEXTS[context]!(runOf(token, size)) };
            if (signal) files['a.md'] += SIGNAL;
            return files;
          };
          const r = await ratio(mode, make);
          if (process.env.LINEAR_LOG) console.log(JSON.stringify({ token, context, mode, signal, ...r }));
          expect({ token, context, mode, signal, ratio: r.ratio < MAX_RATIO ? 'linear' : `${r.small.toFixed(0)} ms -> ${r.large.toFixed(0)} ms` }).toEqual({ token, context, mode, signal, ratio: 'linear' });
        },
      ),
      { numRuns: 12, seed: 17, endOnFailure: true },
    );
  }, 600_000);

  it('lints and fixes what the 2026-12 audit found quadratic: comments in code spans, backtick runs, brackets, nesting', async () => {
    findDates ??= await loadDateFinder();
    const slow: string[] = [];
    for (const token of ['`<!--x-->` ', '<!--x--> ', GROWING_RUNS, '[', '](<', '>', '- [']) {
      for (const context of ['hook', 'index line', 'topic body']) {
        const r = await ratio('fix', (size) => ({ ...BASE, ...CONTEXTS[context]!(runOf(token, size)) }));
        if (r.ratio >= MAX_RATIO) slow.push(`${JSON.stringify(token)} in ${context}: ${r.small.toFixed(0)} ms -> ${r.large.toFixed(0)} ms`);
      }
    }
    expect(slow).toEqual([]);
  }, 600_000);

  it('lints and fixes what the 2026-12 language-server trial found quadratic: hidden characters on one line, unclosed directives', async () => {
    findDates ??= await loadDateFinder();
    const slow: string[] = [];
    // Hidden characters whose line names their kind ("zero width": each was read against the whole
    // line), and not; a line of `<!-- memlint-disable ` never closed (each read on to the line's end).
    for (const token of ['a\u200b\u202e', 'word\u200b ', 'zero width \u200b ', '<!-- memlint-disable ', '<!-- memlint-disable x ', '*_']) {
      for (const mode of ['lint', 'fix'] as const) {
        const r = await ratio(mode, (size) => ({ ...BASE, ...CONTEXTS['topic body']!(runOf(token, size)) }));
        if (r.ratio >= MAX_RATIO) slow.push(`${JSON.stringify(token)} (${mode}): ${r.small.toFixed(0)} ms -> ${r.large.toFixed(0)} ms`);
      }
    }
    expect(slow).toEqual([]);
  }, 600_000);

  it('reads files of many definitions and many items whose links the line cannot resolve in linear time', async () => {
    // Each such item's piece is read again with every definition after it: as many definitions as
    // items made that quadratic, so past the text's own size the whole text is read once instead.
    const make = (size: number) => {
      let body = '';
      for (let i = 0; body.length < size; i++) body += `- [a \`x\` ${i}][d${i}] y\n\n[d${i}]: https://x.example/${i}\n\n`;
      return { ...BASE, 'a.md': `---\nname: a\ndescription: a d\ntype: project\n---\n${body}` };
    };
    const r = await ratio('lint', make);
    expect(r.ratio).toBeLessThan(MAX_RATIO);
  }, 600_000);

  it('the language server places thousands of fixable findings in linear time (each fix was placed in a line table of the whole file)', async () => {
    const timeDocument = async (size: number) => {
      const text = `---\nname: a\ndescription: a d\ntype: project\n---\n${runOf('word\u200b ', size)}\nrun ${++runNumber}\n`;
      const dir = memdir({ ...BASE, 'a.md': text });
      const located = await locateDocument(join(dir, 'a.md'), [dir], process.env);
      const t0 = performance.now();
      const linted = await lintDocument(located!, text, new Map(), process.env);
      const fixes = linted?.quickFixes().fixes.length ?? 0;
      const t = performance.now() - t0;
      expect(fixes).toBeGreaterThan(size / 8);
      rmSync(join(dir, '..'), { recursive: true, force: true });
      return t;
    };
    await timeDocument(SMALL);
    const small = Math.min(await timeDocument(SMALL), await timeDocument(SMALL));
    const large = Math.min(await timeDocument(LARGE), await timeDocument(LARGE));
    expect(large / Math.max(small, 5)).toBeLessThan(MAX_RATIO);
  }, 600_000);

  it('the block model does not scan for emphasis or inline HTML (1 KB against 10 KB of each opener)', () => {
    // Each of these made micromark read to the end of the paragraph once per opener (100 KB of
    // `<!--` in an index entry took over a minute): the model's parse turns both constructs off.
    // `<![CDATA[` is left out: its brackets are link and image openers, whose growth is the one
    // micromark still has (docs/security.md).
    const OPENERS = ['<!--', '<?', '<!a', '<a ', '*a', 'a*', '_a', 'a_', '**a', '*', '_'];
    const slow: string[] = [];
    for (const token of OPENERS) {
      for (const [where, make] of [['an entry', (r: string) => `- [${r}](a.md) — h\n`], ['a paragraph', (r: string) => `Some ${r} text\n`]] as const) {
        timeModel(make(runOf(token, 1024)), 1);
        const small = timeModel(make(runOf(token, 1024)), 2);
        const large = timeModel(make(runOf(token, 10 * 1024)), 2);
        if (large / Math.max(small, 5) >= MAX_RATIO) slow.push(`${JSON.stringify(token)} in ${where}: ${small.toFixed(1)} ms -> ${large.toFixed(1)} ms`);
      }
    }
    expect(slow).toEqual([]);
  });

  it('finds thousands of distinct provider tokens in linear time (secretlint\'s duplicate filter, patched as bundled)', async () => {
    const make = (size: number) => {
      let body = '';
      for (let i = 0; body.length < size; i++) body += `token ghp_${(i * 7919).toString(36).padStart(36, 'a')} and AKIA${String(i).padStart(16, '7')}\n`;
      return { ...BASE, 'a.md': `---\nname: a\ndescription: a d\ntype: project\n---\n${body}` };
    };
    // Ten times 40 KB (some 1,300 tokens), not 10 KB: below a few thousand messages the quadratic
    // filter's cost hides under the scan's.
    const r = await ratio('lint', make, [40 * 1024, 400 * 1024]);
    if (process.env.LINEAR_LOG) console.log(JSON.stringify({ tokens: true, ...r }));
    expect(r.ratio).toBeLessThan(MAX_RATIO);
  }, 600_000);

  it('consolidation archives thousands of index lines in linear time (ARCHIVE.md was read again for each)', async () => {
    const make = (size: number) => {
      const lines = ['# Memory'];
      for (let i = 0; lines.join('\n').length < size; i++) lines.push(`- [T${i}](gone-${i}.md) — hook ${i}`, `- [T${i}](gone-${i}.md) — hook ${i} again`);
      return { ...BASE, 'MEMORY.md': `${lines.join('\n')}\n` };
    };
    const r = await ratio('consolidate', make);
    expect(r.ratio).toBeLessThan(MAX_RATIO);
  }, 600_000);

  it('consolidation merges thousands of duplicates named differently, a list linking them all, in linear time (each merge renamed the links in every file)', async () => {
    const make = (size: number) => {
      const files: Record<string, string> = {};
      let index = '# Memory\n- [Links](links.md) — every topic\n';
      let links = '---\nname: links\ndescription: every topic\ntype: reference\n---\n';
      for (let i = 0, bytes = 0; bytes < size; i++) {
        // Ten lines alike: the line each file gets to make it new leaves the pair alike enough.
        const body = Array.from({ length: 10 }, (_, k) => `Fact ${k} of service ${i >> 1}.`).join('\n');
        files[`t${i}.md`] = `---\nname: Topic ${i}\ndescription: service ${i >> 1}\ntype: project\n---\n${body}\n`;
        const line = `- [Topic ${i}](t${i}.md) — service ${i >> 1}\n`;
        index += line;
        links += `- [[Topic ${i}]]\n`;
        bytes += files[`t${i}.md`]!.length + line.length + `- [[Topic ${i}]]\n`.length;
      }
      return { ...files, 'MEMORY.md': index, 'links.md': links };
    };
    const r = await ratio('consolidate', make, [40 * 1024, 400 * 1024]);
    if (process.env.LINEAR_LOG) console.log(JSON.stringify({ renames: true, ...r }));
    expect(r.ratio).toBeLessThan(MAX_RATIO);
  }, 600_000);

  it('consolidation looks for duplicates among thousands of topics of one name, or of lines each body holds, in linear time (each pair was compared)', async () => {
    const common = Array.from({ length: 8 }, (_, k) => `Common rule ${k} of the team.`).join('\n');
    for (const shape of ['one name', 'one line', 'eight lines'] as const) {
      const make = (size: number) => {
        const files: Record<string, string> = {};
        let index = '# Memory\n';
        for (let i = 0, bytes = 0; bytes < size; i++) {
          const name = shape === 'one name' ? 'Notes' : `Notes ${i}`;
          // With the line each file gets to make it new (fresh), a body of two lines, one of them every body's.
          const body = shape === 'one line' ? 'Ask the platform team first.' : shape === 'eight lines' ? `${common}\nOwner ${i} is on call.` : `Service ${i} runs on port ${i}.\nOwner ${i} is on call.`;
          files[`n${i}.md`] = `---\nname: ${name}\ndescription: notes ${i}\ntype: project\n---\n${body}\n`;
          const line = `- [Notes](n${i}.md) — notes ${i}\n`;
          index += line;
          bytes += files[`n${i}.md`]!.length + line.length;
        }
        return { ...files, 'MEMORY.md': index };
      };
      const r = await ratio('consolidate', make, [100 * 1024, 1000 * 1024]);
      if (process.env.LINEAR_LOG) console.log(JSON.stringify({ shape, ...r }));
      expect({ shape, ratio: r.ratio < MAX_RATIO ? 'linear' : `${r.small.toFixed(0)} ms -> ${r.large.toFixed(0)} ms` }).toEqual({ shape, ratio: 'linear' });
    }
  }, 600_000);

  it('consolidation reads a log entry of thousands of tags in linear time (the text before and after each tag was read again)', async () => {
    const make = (size: number) => {
      const files: Record<string, string> = { ...BASE };
      for (let k = 0; k < 20; k++) files[`topic-${k}.md`] = `---\nname: topic-${k}\ndescription: topic ${k}\ntype: project\n---\nBody ${k}\n`;
      let entry = '- ';
      for (let e = 0; entry.length < size; e++) entry += `[[topic-${e % 20}]] `;
      return { ...files, 'logs/2026/01/2026-01-02.md': `# 2026-01-02\n\n${entry}\n` };
    };
    const r = await ratio('consolidate', make);
    expect(r.ratio).toBeLessThan(MAX_RATIO);
  }, 600_000);

  it('the merge driver merges a topic or a daily log both sides added in linear time (node-diff3 scanned its candidates for each line)', () => {
    for (const path of ['.claude/memory/big.md', '.claude/memory/logs/2026/01/2026-01-02.md']) {
      const side = (size: number, keep: (i: number) => boolean) => {
        const lines: string[] = [];
        for (let i = 0, bytes = 0; bytes < size; i++) {
          if (!keep(i)) continue;
          const line = `- note ${i} of ${runNumber}`;
          lines.push(line);
          bytes += line.length + 1;
        }
        return Buffer.from(`${lines.join('\n')}\n`);
      };
      const timeMerge = (size: number) => {
        runNumber++;
        const input = { path, markerSize: 7, base: Buffer.alloc(0), ours: side(size, (i) => i % 5 !== 1), theirs: side(size, (i) => i % 5 !== 3) };
        let best = Infinity;
        for (let k = 0; k < 2; k++) {
          const t0 = performance.now();
          mergeMemoryFile(input);
          best = Math.min(best, performance.now() - t0);
        }
        return best;
      };
      timeMerge(SMALL);
      const small = timeMerge(100 * 1024);
      const large = timeMerge(1000 * 1024);
      if (process.env.LINEAR_LOG) console.log(JSON.stringify({ path, small, large }));
      expect({ path, ratio: large / Math.max(small, 5) < MAX_RATIO ? 'linear' : `${small.toFixed(0)} ms -> ${large.toFixed(0)} ms` }).toEqual({ path, ratio: 'linear' });
    }
  }, 600_000);

  it('no-memory-loss weighs thousands of staged renames in linear time (each removed line was looked for in the whole kept text)', () => {
    const timeLoss = (size: number) => {
      runNumber++;
      const heads = new Map<string, string>();
      const kept: Array<{ where: string; text: string }> = [];
      let index = '# Memory\n';
      for (let i = 0, bytes = 0; bytes < size; i++) {
        const text = `---\nname: t${i}\ndescription: topic ${i} of run ${runNumber}\ntype: project\n---\nThe service ${i} answers on port ${i}.\nIts owner ${i} is on call this week.\n`;
        heads.set(`t${i}.md`, text);
        kept.push({ where: `moved/t${i}-renamed.md`, text });
        index += `- [T${i}](t${i}.md) — topic ${i}\n`;
        bytes += text.length;
      }
      heads.set('MEMORY.md', index);
      const h = { changed: ['MEMORY.md'], deleted: [...heads.keys()].filter((k) => k !== 'MEMORY.md'), headText: (rel: string) => heads.get(rel) ?? null, keptTexts: () => kept };
      const staged = kept.map((k, i) => `- [T${i}](${k.where}) — topic ${i}\n`).join('');
      let best = Infinity;
      for (let k = 0; k < 2; k++) {
        const t0 = performance.now();
        expect(findLoss(h as Parameters<typeof findLoss>[0], `# Memory\n${staged}`)).toBeNull();
        best = Math.min(best, performance.now() - t0);
      }
      return best;
    };
    timeLoss(SMALL);
    const small = timeLoss(100 * 1024);
    const large = timeLoss(1000 * 1024);
    if (process.env.LINEAR_LOG) console.log(JSON.stringify({ renames: 'staged', small, large }));
    expect(large / Math.max(small, 5)).toBeLessThan(MAX_RATIO);
  }, 600_000);

  it('the hook\'s report keeps what fits of thousands of findings in linear time (it was joined again for each line dropped)', () => {
    const timeFit = (n: number) => {
      const lines = ['memlint found problems:', ...Array.from({ length: n }, (_, i) => `- topic-${i}.md:1:1 duplicate entry ${runNumber}`)];
      let best = Infinity;
      for (let k = 0; k < 3; k++) {
        const t0 = performance.now();
        fitLines(lines, ['Fix them.'], 10_000);
        best = Math.min(best, performance.now() - t0);
      }
      return best;
    };
    timeFit(1_000);
    expect(timeFit(20_000) / Math.max(timeFit(2_000), 5)).toBeLessThan(MAX_RATIO);
  });

  it('--fix settles thousands of duplicate entries in linear time', async () => {
    const make = (size: number) => {
      const lines = ['# Memory'];
      for (let i = 0; lines.join('\n').length < size; i++) lines.push(`- [A](a.md) — hook number ${i}`);
      return { ...BASE, 'MEMORY.md': `${lines.join('\n')}\n` };
    };
    const r = await ratio('fix', make);
    expect(r.ratio).toBeLessThan(MAX_RATIO);
  }, 600_000);
});
