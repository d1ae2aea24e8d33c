import { describe, expect, it } from 'vitest';
import { addArchiveLine, archiveName, moveToArchive } from '../../src/consolidate/archive.js';
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
    const r = moveToArchive(s, ctx({ archivePaths: new Set(['a.md']), archiveText: () => 'older A\n' }), 'a.md');
    expect(r.to).toBe('a-2.md');
    expect(r.state.files.has('a.md')).toBe(false);
    expect(r.state.archive.get('a-2.md')).toBe('A\n');
    expect(r.state.moves).toEqual([{ from: 'a.md', to: 'a-2.md' }]);
    // The copy an interrupted run left behind is taken as the move's destination.
    expect(moveToArchive(s, ctx({ archivePaths: new Set(['a.md']), archiveText: () => 'A\n' }), 'a.md').to).toBe('a.md');
  });

  it('creates ARCHIVE.md with its header and adds a line once', () => {
    const c = ctx();
    const once = addArchiveLine(state({}), c, '- [X](x.md) (archived on 2026-11-29: stale)');
    const text = once.archive.get('ARCHIVE.md')!;
    expect(text.startsWith('# Memory archive\n')).toBe(true);
    expect(text.endsWith('\n- [X](x.md) (archived on 2026-11-29: stale)\n')).toBe(true);
    expect(addArchiveLine(once, c, '- [X](x.md) (archived on 2026-11-29: stale)')).toBe(once);
  });
});
