// Topic bodies (src/merge/topic.ts mergeBody): lines both sides add at the same place are all kept,
// ours' then theirs', prose and list items alike; only lines both sides changed conflict, and the
// label says whether each side added or edited them (contract §10).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mergeBody } from '../../src/merge/topic.js';
import type { Conflict, Line } from '../../src/merge/text.js';

const lines = (texts: string[]): Line[] => texts.map((text) => ({ text, eol: '\n' }));

function merge(a: string[], o: string[], b: string[]): { out: string[]; conflicts: Conflict[] } {
  const conflicts: Conflict[] = [];
  const out = mergeBody(lines(a), lines(o), lines(b), 7, 'topic.md', conflicts).map((l) => l.text);
  return { out, conflicts };
}

/** A side that only inserts: for each gap of the base (0..n), the lines it adds there. */
const insertions = (side: string, n: number) =>
  fc.array(fc.array(fc.tuple(fc.boolean(), fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '' && !s.includes('\n') && !s.includes('\r'))), { maxLength: 3 }), { minLength: n + 1, maxLength: n + 1 }).map((gaps) =>
    // Prose or a list item; each line unique to its side, so the expected result is unambiguous.
    gaps.map((gap, g) => gap.map(([item, words], k) => `${item ? '- ' : ''}${side} ${g}.${k} ${words.trim()}`)),
  );

const weave = (base: string[], gaps: string[][]) => gaps.flatMap((g, i) => [...g, ...(i < base.length ? [base[i]!] : [])]);

describe('topic merge: additions on both sides', () => {
  it('keeps every line both sides insert, ours then theirs at each place, with no conflict', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }).chain((n) => fc.tuple(fc.constant(Array.from({ length: n }, (_, i) => `Base line ${i}.`)), insertions('ours', n), insertions('theirs', n))),
        ([base, ours, theirs]) => {
          const { out, conflicts } = merge(weave(base, ours), base, weave(base, theirs));
          expect(conflicts).toEqual([]);
          const both = ours.map((g, i) => [...g, ...theirs[i]!]);
          expect(out).toEqual(weave(base, both));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the most common case: each branch appends a sentence (or an item) to one topic', () => {
    const base = ['Deploys run from CI.', ''];
    expect(merge([...base, 'Staging deploys need a green build.'], base, [...base, 'Prod deploys wait for the freeze to end.'])).toEqual({
      out: [...base, 'Staging deploys need a green build.', 'Prod deploys wait for the freeze to end.'],
      conflicts: [],
    });
    // A new paragraph on each side stays a paragraph of its own; items of one list stay one list.
    expect(merge([...base, '', 'Ours.'], base, [...base, '', 'Theirs.']).out).toEqual([...base, '', 'Ours.', '', 'Theirs.']);
    const list = ['- one'];
    expect(merge([...list, '', '- ours'], list, [...list, '', '- theirs']).out).toEqual([...list, '', '- ours', '- theirs']);
    // The same line added on both sides is there once.
    expect(merge([...base, 'Same.'], base, [...base, 'Same.']).out).toEqual([...base, 'Same.']);
  });

  it('only lines both sides changed conflict, labelled as each side changed them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.nat(), (n, pick) => {
        const base = Array.from({ length: n }, (_, i) => `Base line ${i}.`);
        const i = pick % n;
        const ours = base.map((l, k) => (k === i ? `${l} Ours.` : l));
        const theirs = base.map((l, k) => (k === i ? `${l} Theirs.` : l));
        const { out, conflicts } = merge(ours, base, theirs);
        expect(conflicts).toEqual([{ label: `topic.md line ${i + 1}`, reason: 'edited on both sides' }]);
        // Every other line is there, once, outside the block.
        for (const [k, l] of base.entries()) if (k !== i) expect(out.filter((x) => x === l)).toHaveLength(1);
      }),
      { numRuns: 100 },
    );
    // One side edits a line, the other replaces it with more lines than it had (an edit too) or adds beside it.
    const base = ['A.', 'B.', 'C.'];
    const edited = merge(['A.', 'B, edited.', 'C.'], base, ['A.', 'B.', 'B2.', 'C.']);
    expect(edited.conflicts.map((c) => c.reason)).toEqual(['edited in ours, added in theirs']);
  });
});
