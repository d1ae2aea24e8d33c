// Properties of adopt's plan over generated memory folders and stores (fast-check): every entry and
// topic file of a store ends up in the memory folder (or in a marked conflict), nothing the memory
// folder held is lost, and adopting again plans nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planAdopt, type StoreFiles } from '../../src/claude/adopt.js';
import { entries, parseIndex } from '../../src/memdir/memory-index.js';

const NAMES = Array.from({ length: 8 }, (_, i) => `topic_${i}.md`);
const FACTS = ['runs on Mondays', 'needs the staging lock', 'owned by the payments team', 'uses half-even rounding', 'ships behind a flag'];

const topic = (name: string, fact: string, items: string[]) =>
  `---\nname: ${name}\ndescription: ${name} ${fact}\ntype: project\n---\n${name} ${fact}.\n${items.map((i) => `\n- ${i}`).join('')}\n`;

interface Memory {
  files: Map<string, string>;
}

const memoryArb: fc.Arbitrary<Memory> = fc
  .record({
    names: fc.shuffledSubarray(NAMES, { minLength: 0, maxLength: 5 }),
    fact: fc.constantFrom(...FACTS),
    items: fc.shuffledSubarray(['checked on 2026-11-02', 'confirmed by Anna', 'see the runbook', 'also applies to staging'], { maxLength: 3 }),
  })
  .map(({ names, fact, items }) => {
    const files = new Map<string, string>();
    for (const n of names) files.set(n, topic(n.replace('.md', ''), fact, items));
    files.set('MEMORY.md', names.map((n) => `- [${n.replace('.md', '')}](${n}) — ${fact}`).join('\n') + (names.length ? '\n' : ''));
    return { files };
  });

function apply(memdir: Map<string, string>, stores: StoreFiles[]) {
  const plan = planAdopt(stores, (rel) => memdir.get(rel) ?? null);
  const after = new Map(memdir);
  for (const op of plan.ops) after.set(op.rel, op.after);
  return { plan, after };
}

const keys = (index: string | undefined) => new Set(entries(parseIndex(index ?? '')).map((l) => l.entry.key));

describe('adopt properties', () => {
  it('nothing is lost, every store file arrives, and a second adopt plans nothing', () => {
    fc.assert(
      fc.property(memoryArb, fc.array(memoryArb, { minLength: 1, maxLength: 3 }), (ours, theirs) => {
        const stores = theirs.map((t, i) => ({ dir: `/stores/s${i}`, files: t.files, unreadable: [] }));
        const { plan, after } = apply(ours.files, stores);
        const conflicted = new Set(plan.ops.filter((o) => o.conflicts.length).map((o) => o.rel));
        for (const [rel, text] of ours.files) {
          // The memory folder's own files stay, with their lines (a merge adds, never drops).
          expect(after.has(rel)).toBe(true);
          const result = after.get(rel)!;
          for (const line of text.split('\n').filter((l) => l.trim() !== '' && l !== '---')) expect(result).toContain(line);
        }
        for (const s of stores) {
          for (const [rel, text] of s.files) {
            expect(after.has(rel)).toBe(true);
            if (rel === 'MEMORY.md') {
              const got = keys(after.get(rel));
              for (const k of keys(text)) expect(got.has(k) || conflicted.has(rel)).toBe(true);
            } else if (!conflicted.has(rel)) {
              for (const line of text.split('\n').filter((l) => l.startsWith('- '))) expect(after.get(rel)).toContain(line);
            }
          }
        }
        // Files with conflict markers need a person; everything else adopts to a fixed point.
        const again = planAdopt(stores, (rel) => after.get(rel) ?? null);
        expect(again.ops).toEqual([]);
        expect(again.skipped.map((s) => s.rel).every((r) => conflicted.has(r))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
