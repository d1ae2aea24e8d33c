// Issue 28: an add/add of an index (both branches created MEMORY.md) whose headings and prose
// come in different orders gave a clean result one way and a conflict (`# Memory` twice) the
// other. The add/add base is what both sides share; it must not depend on which side is OURS.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeMemoryFile } from '../../src/merge/driver.js';

const PATH = '.claude/memory/MEMORY.md';
const line = fc.constantFrom('# Memory', '## User', '## Project', 'Some prose.', 'Other prose.', '', '- [A](a.md) — a', '- [B](b.md) — b', '- [C](c.md) — c', '<!-- note -->');
const index = fc.array(line, { minLength: 1, maxLength: 8 }).map((ls) => ls.join('\n') + '\n');

function merged(ours: string, theirs: string) {
  const r = mergeMemoryFile({ path: PATH, markerSize: 7, base: Buffer.alloc(0), ours: Buffer.from(ours), theirs: Buffer.from(theirs) });
  if ('lineMerge' in r) return { conflict: true, lines: [] as string[] };
  return { conflict: r.conflicts.length > 0, lines: r.output === null ? [] : r.output.toString('utf8').split('\n').sort() };
}

describe('add/add of an index: the same result whichever side is OURS', () => {
  it('headings and prose in different orders', () => {
    const r1 = merged('# Memory\n\nSome prose.\n', 'Some prose.\n\n# Memory\n');
    const r2 = merged('Some prose.\n\n# Memory\n', '# Memory\n\nSome prose.\n');
    expect(r1).toEqual(r2);
  });

  it('any two indexes: conflict both ways or neither, and the same lines when clean', () => {
    fc.assert(
      fc.property(index, index, (a, b) => {
        expect(merged(a, b)).toEqual(merged(b, a));
      }),
      { numRuns: 2000, seed: 28 },
    );
  }, 120_000);

  it('a line each side wrote once is there once, wherever each side put it', () => {
    const ours = '# Memory\n\nShared notes for the team.\nRead before deploying.\n\n- [A](a.md) — a hook\n';
    const theirs = '# Memory\n\nRead before deploying.\nShared notes for the team.\n\n- [B](b.md) — b hook\n';
    for (const [a, b] of [[ours, theirs], [theirs, ours]] as const) {
      const r = mergeMemoryFile({ path: PATH, markerSize: 7, base: Buffer.alloc(0), ours: Buffer.from(a), theirs: Buffer.from(b) });
      if ('lineMerge' in r) throw new Error(r.reason);
      expect(r.conflicts).toEqual([]);
      const text = r.output!.toString('utf8');
      expect(text.split('\n').filter((l) => l === 'Shared notes for the team.')).toHaveLength(1);
      expect(text.split('\n').filter((l) => l === 'Read before deploying.')).toHaveLength(1);
    }
  });

  it('any two indexes or topics, merged clean: every line is there, and one each side wrote once is there once (property)', () => {
    const topic = fc.array(fc.constantFrom('Some prose.', 'Other prose.', '', '- a point', '- another point', '## Notes', '```', 'code line'), { minLength: 1, maxLength: 8 }).map((ls) => `---\nname: T\ndescription: t\ntype: project\n---\n${ls.join('\n')}\n`);
    const count = (text: string) => {
      const n = new Map<string, number>();
      for (const l of text.split('\n')) n.set(l, (n.get(l) ?? 0) + 1);
      return n;
    };
    for (const [path, gen] of [[PATH, index], ['.claude/memory/topic.md', topic]] as const) {
      fc.assert(
        fc.property(gen, gen, (a, b) => {
          const r = mergeMemoryFile({ path, markerSize: 7, base: Buffer.alloc(0), ours: Buffer.from(a), theirs: Buffer.from(b) });
          if ('lineMerge' in r || r.conflicts.length > 0 || r.output === null) return;
          const out = count(r.output.toString('utf8'));
          const [na, nb] = [count(a), count(b)];
          for (const l of new Set([...na.keys(), ...nb.keys()])) {
            if (l.trim() === '') continue;
            // Never lost (a line one side repeats is only said to be there); a line each side
            // holds once is not repeated.
            expect(out.get(l) ?? 0, l).toBeGreaterThanOrEqual(1);
            // (Fenced code is merged as it is: a line may be prose on one side and code on the other.)
            if (na.get(l) === 1 && nb.get(l) === 1 && !a.includes('```') && !b.includes('```')) expect(out.get(l), l).toBe(1);
          }
        }),
        { numRuns: 1500, seed: 29 },
      );
    }
  }, 120_000);
});
