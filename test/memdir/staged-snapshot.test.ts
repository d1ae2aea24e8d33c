// The index as --staged reads it (src/memdir/staged-snapshot.ts): the memdir reader reads a folder
// from it as from the working tree, and the index as `git add` would make it is the same value with
// some files' bytes in place of the staged ones, under their own paths.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMemdir } from '../../src/memdir/read.js';
import { stagedSnapshot } from '../../src/memdir/staged-snapshot.js';
import { commitFiles, git, gitAt, initRepo, tempDir, writeFiles } from '../helpers/repo.js';

const textOf = (files: Array<{ rel: string; text: string }>) => Object.fromEntries(files.map((f) => [f.rel, f.text]));

describe('the staged snapshot', () => {
  it('is read as a folder is read: staged bytes, not the working tree; withFiles puts files in by path', () => {
    const repo = initRepo(tempDir('memlint-snapshot-'));
    const dir = join(repo, 'mem');
    commitFiles(repo, { 'mem/MEMORY.md': '- [A](a.md) — a\n- [B](b.md) — b\n', 'mem/a.md': 'a at HEAD\n', 'mem/b.md': 'b at HEAD\n' });
    writeFiles(dir, { 'a.md': 'a staged\n' });
    git(repo, 'add', 'mem/a.md');
    writeFiles(dir, { 'a.md': 'a in the working tree\n', 'b.md': 'b in the working tree\n' });

    const snapshot = stagedSnapshot(gitAt(repo));
    const staged = loadMemdir(dir, { source: { kind: 'staged', snapshot } });
    expect(textOf(staged.model.files)).toEqual({ 'MEMORY.md': '- [A](a.md) — a\n- [B](b.md) — b\n', 'a.md': 'a staged\n', 'b.md': 'b at HEAD\n' });

    const added = snapshot.withFiles(new Map([['mem/b.md', Buffer.from('b in the working tree\n')]]));
    expect(textOf(loadMemdir(dir, { source: { kind: 'staged', snapshot: added } }).model.files)['b.md']).toBe('b in the working tree\n');
    // The snapshot it came from is unchanged, and both list the index's entries under their own ids.
    expect(textOf(loadMemdir(dir, { source: { kind: 'staged', snapshot } }).model.files)['b.md']).toBe('b at HEAD\n');
    expect(added.listing('mem').map((e) => e.object)).toEqual(snapshot.listing('mem').map((e) => e.object));
    expect(snapshot.listing('mem').every((e) => /^[0-9a-f]{40,64}$/.test(e.object))).toBe(true);
  });

  it('starts from what is already read: a listing and blobs given are not asked of git again', () => {
    const repo = initRepo(tempDir('memlint-snapshot-'));
    commitFiles(repo, { 'mem/MEMORY.md': '- [A](a.md) — a\n', 'mem/a.md': 'a\n' });
    const listing = stagedSnapshot(gitAt(repo)).listing('mem');
    // Given bytes under the entries' ids: what the launcher read is what the reader sees.
    const blobs = new Map(listing.map((e) => [e.object, Buffer.from(`known ${e.path}\n`)]));
    const known = stagedSnapshot(gitAt(repo), { listings: new Map([['mem', listing]]), blobs });
    expect(textOf(loadMemdir(join(repo, 'mem'), { source: { kind: 'staged', snapshot: known } }).model.files)).toEqual({ 'MEMORY.md': 'known mem/MEMORY.md\n', 'a.md': 'known mem/a.md\n' });
  });
});
