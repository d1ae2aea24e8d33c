// What making the merges linear changed besides their speed: resolve finds a topic's frontmatter
// end once, where it is found by splitting the text up to each block's line (equal, by a
// property), and large inputs merge instead of overflowing the stack (a spread of a large array
// as arguments) and falling back to git. (That the linear index and frontmatter merges give the
// quadratic ones' results byte for byte was checked against copies of those when they were
// replaced: 5,000 runs of each property and the large shapes; the merge's own properties hold
// what it guarantees.)
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeMemoryFile } from '../../src/merge/driver.js';
import { frontmatterEnd } from '../../src/merge/resolve.js';

const RUNS = { numRuns: Number(process.env.MEMLINT_PROP_RUNS ?? 300) };

// ---- resolve: blocks in the frontmatter --------------------------------------------------------

/** resolve's test before: split the text up to the block's line each time. */
function inFrontmatterBefore(text: string, line: number): boolean {
  const lines = text.split(/\r?\n/, line);
  return lines[0] === '---' && lines.slice(1, line - 1).every((l) => l !== '---');
}

describe("resolve's frontmatter end", () => {
  it('puts a block in the frontmatter exactly where splitting the text up to its line did', () => {
    const texts = fc.tuple(fc.array(fc.constantFrom('---', '---\r', 'a: b', '', '<<<<<<< ours', '...', ' ---'), { maxLength: 12 }), fc.constantFrom('\n', '\r\n', '\r')).map(([ls, eol]) => ls.join(eol));
    fc.assert(
      fc.property(texts, (text) => {
        const end = frontmatterEnd(text);
        for (let line = 1; line <= text.split('\n').length + 2; line++) expect(line <= end).toBe(inFrontmatterBefore(text, line));
      }),
      RUNS,
    );
  });
});

// ---- large arrays ------------------------------------------------------------------------------

describe('large inputs merge without overflowing the stack', () => {
  const utf8 = (s: string) => Buffer.from(s, 'utf8');
  const merge = (path: string, base: string, ours: string, theirs: string) => mergeMemoryFile({ base: utf8(base), ours: utf8(ours), theirs: utf8(theirs), path, markerSize: 7 });

  it('a daily log with a 300k-line entry: the union, never a conflict', () => {
    const base = '# 2026-01-05\n\n- 09:00 started\n';
    const ours = `${base}- 10:00 giant\n${'x\n'.repeat(300_000)}`;
    const theirs = `${base}- 11:00 theirs\n`;
    const r = merge('.claude/memory/logs/2026/01/2026-01-05.md', base, ours, theirs);
    expect(r).toMatchObject({ method: 'semantic', conflicts: [] });
    expect('output' in r && r.output!.toString('utf8')).toBe(`${ours}- 11:00 theirs\n`);
  });

  it('a topic body of 300k tiny lines both sides append to: both kept', () => {
    const base = `---\nname: big\ndescription: d\ntype: project\n---\n${'x\n'.repeat(300_000)}`;
    const r = merge('.claude/memory/topic.md', base, `${base}ours\n`, `${base}theirs\n`);
    expect(r).toMatchObject({ method: 'semantic', conflicts: [] });
    expect('output' in r && r.output!.toString('utf8')).toBe(`${base}ours\ntheirs\n`);
  });

  it('an index whose 300k prose lines both sides change: one conflict block, from the structured merge', () => {
    const prose = (w: string) => `${w}\n`.repeat(300_000);
    const index = (p: string) => `# Memory\n\n- [A](a.md) — a\n\n${p}`;
    const r = merge('.claude/memory/MEMORY.md', index(prose('x')), index(prose('o')), index(prose('t')));
    expect(r).toMatchObject({ method: 'semantic', conflicts: ['non-entry lines: edited on both sides'] });
  });
});
