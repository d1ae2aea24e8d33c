import { describe, expect, it } from 'vitest';
import { addArchiveLine, archiveName, moveToArchive } from '../../src/consolidate/archive.js';
import { draftOf } from '../../src/consolidate/draft.js';
import { ctx, state } from './helpers.js';

describe('the archive', () => {
  it('names a moved file by its own path, else name-2.md, reusing a name that holds the same text', () => {
    const taken = new Set(['a.md', 'a-2.md']);
    expect(archiveName('b.md', (p) => taken.has(p))).toBe('b.md');
    expect(archiveName('a.md', (p) => taken.has(p))).toBe('a-3.md');
    expect(archiveName('a.md', (p) => taken.has(p), (p) => p === 'a-2.md')).toBe('a-2.md');
  });

  it('moves a file out of the memdir into the archive, never deleting it', () => {
    const s = state({ 'a.md': 'A\n', 'MEMORY.md': '' });
    const draft = draftOf(s);
    expect(moveToArchive(draft, ctx({ archivePaths: new Set(['a.md']), archiveText: () => 'older A\n' }), 'a.md')).toBe('a-2.md');
    expect(draft.files.has('a.md')).toBe(false);
    expect(draft.archive.get('a-2.md')).toBe('A\n');
    expect(draft.moves).toEqual([{ from: 'a.md', to: 'a-2.md' }]);
    // The state a step is given is never changed: the step edits its own copy.
    expect(s.files.has('a.md')).toBe(true);
    // The copy an interrupted run left behind is taken as the move's destination.
    expect(moveToArchive(draftOf(s), ctx({ archivePaths: new Set(['a.md']), archiveText: () => 'A\n' }), 'a.md')).toBe('a.md');
  });

  it('creates ARCHIVE.md with its header and adds a line once', () => {
    const c = ctx();
    const draft = draftOf(state({}));
    addArchiveLine(draft, c, '- [X](x.md) (archived on 2026-11-29: stale)');
    const text = draft.archive.get('ARCHIVE.md')!;
    expect(text.startsWith('# Memory archive\n')).toBe(true);
    expect(text.endsWith('\n- [X](x.md) (archived on 2026-11-29: stale)\n')).toBe(true);
    // Once, whatever its date.
    addArchiveLine(draft, c, '- [X](x.md) (archived on 2026-12-01: stale)');
    expect(draft.archive.get('ARCHIVE.md')).toBe(text);
  });
});
