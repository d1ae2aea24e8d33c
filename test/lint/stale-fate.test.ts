// What left a folder a memory names: found through an index of the folders history lost
// (src/lint/stale.ts lossesUnder), held to the search of every event it replaced, on generated histories.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fateOf, indexLosses, lossesUnder, type LossIndex } from '../../src/lint/stale.js';
import type { LossEvent } from '../../src/git/lost-paths.js';

/** The search the index replaced: every path's newest event read for each folder asked. */
function searched(folder: string, losses: LossIndex): { under: LossEvent[]; newest: LossEvent } | undefined {
  const prefix = `${folder}/`;
  const under = [...losses.newest.values()].filter((e) => e.from.startsWith(prefix));
  return under.length === 0 ? undefined : { under, newest: losses.all.find((e) => e.from.startsWith(prefix))! };
}

const segment = fc.constantFrom('a', 'b', 'src', 'lib', 'a b', 'x.md');
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
const event = fc.record({
  from: path,
  status: fc.constantFrom<'D' | 'R'>('D', 'R'),
  to: path,
  commit: fc.constantFrom('c1', 'c2', 'c3', null),
  date: fc.constantFrom('2026-01-01', '2026-02-01', undefined),
}).map((e): LossEvent => ({ from: e.from, status: e.status, commit: e.commit, ...(e.status === 'R' ? { to: e.to } : {}), ...(e.date && e.commit ? { date: e.date } : {}) }));

describe('a folder\'s fate, from the index of the folders history lost', () => {
  it('is what a search of every event finds, for every folder asked, in any order of asking', () => {
    let asked = 0;
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), fc.array(path, { minLength: 1, maxLength: 8 }), fc.array(path, { maxLength: 10 }), (events, folders, onDisk) => {
        const present = (p: string, folder: boolean) => (folder ? onDisk.some((d) => d === p || d.startsWith(`${p}/`)) : onDisk.includes(p));
        const losses = indexLosses(events);
        for (const folder of folders) {
          expect(lossesUnder(losses, folder)).toEqual(searched(folder, losses));
          // And a fate is told from it (the index is made on the first folder asked).
          fateOf({ path: folder, folder: true }, losses, present);
          asked++;
        }
      }),
      { numRuns: 2000 },
    );
    expect(asked).toBeGreaterThan(2000);
  });
});
