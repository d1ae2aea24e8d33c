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
});
