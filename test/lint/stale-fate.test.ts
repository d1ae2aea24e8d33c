// What became of a folder a memory names: found through an index of the folders history lost
// (src/lint/stale.ts), held to the search of every event it replaced, on generated histories.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fateOf, indexLosses, type PathFate } from '../../src/lint/stale.js';
import type { LossEvent } from '../../src/git/lost-paths.js';

/** The search the index replaced: every path's newest event read for each folder asked. */
function searchedFolderFate(folder: string, events: LossEvent[], present: (path: string, folder: boolean) => boolean): PathFate | null {
  const newestByPath = new Map<string, LossEvent>();
  for (const e of events) if (!newestByPath.has(e.from)) newestByPath.set(e.from, e);
  const prefix = `${folder}/`;
  const under = [...newestByPath.values()].filter((e) => e.from.startsWith(prefix));
  if (under.length === 0) return null;
  const newest = events.find((e) => e.from.startsWith(prefix))!;
  const stamp = { commit: newest.commit, ...(newest.date ? { date: newest.date } : {}) };
  let target: string | null = null;
  const unpaired: string[] = [];
  for (const e of under) {
    const rest = e.from.slice(prefix.length);
    if (e.status !== 'R') {
      unpaired.push(rest);
      continue;
    }
    if (!e.to!.endsWith(`/${rest}`)) return { kind: 'deleted', ...stamp };
    const to = e.to!.slice(0, -rest.length - 1);
    if (target !== null && to !== target) return { kind: 'deleted', ...stamp };
    target = to;
  }
  if (target === null || !present(target, true) || unpaired.some((rest) => !present(`${target}/${rest}`, false))) return { kind: 'deleted', ...stamp };
  return { kind: 'renamed', to: target, certain: unpaired.length === 0, ...stamp };
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
  it('is the fate a search of every event gives, for every folder asked, in any order of asking', () => {
    let asked = 0;
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), fc.array(path, { minLength: 1, maxLength: 8 }), fc.array(path, { maxLength: 10 }), (events, folders, onDisk) => {
        const present = (p: string, folder: boolean) => (folder ? onDisk.some((d) => d === p || d.startsWith(`${p}/`)) : onDisk.includes(p));
        const losses = indexLosses(events);
        for (const folder of folders) {
          expect(fateOf({ path: folder, folder: true }, losses, present)).toEqual(searchedFolderFate(folder, events, present));
          asked++;
        }
      }),
      { numRuns: 2000 },
    );
    expect(asked).toBeGreaterThan(2000);
  });
});
