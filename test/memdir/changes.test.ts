// The pure core of `memlint diff`: entries keep their link target as written.
import { describe, expect, it } from 'vitest';
import { memdirChanges, type MemdirSide } from '../../src/memdir/changes.js';

const side = (index: string): MemdirSide => ({ index, files: new Map(), archive: new Map() });

describe('memdirChanges', () => {
  it('names an entry by its link target as written: a URL keeps its //, a ./ stays', () => {
    const before = side('# Memory\n\n- [Deploys](./project_deploys.md) — Tuesdays\n');
    const after = side('# Memory\n\n- [Deploys](./project_deploys.md) — Tuesdays and Thursdays\n- [DB](postgres://db.internal:5432/app) — the database\n');
    const c = memdirChanges(before, after, { strip: true });
    expect(c.entries.map((e) => [e.verb, e.target])).toEqual([
      ['added', 'postgres://db.internal:5432/app'],
      ['edited', './project_deploys.md'],
    ]);
  });

  it('still matches the same entry written two ways (./x.md and x.md) as one entry', () => {
    const c = memdirChanges(side('- [X](./x.md) — a\n'), side('- [X](x.md) — b\n'), { strip: true });
    expect(c.entries).toEqual([{ verb: 'edited', target: 'x.md', before: { title: 'X', hook: 'a' }, after: { title: 'X', hook: 'b' } }]);
  });
});
