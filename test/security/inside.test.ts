// The safe-path layer itself (src/fs/inside.ts), on real folders and real symlinks.
import { existsSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInsideRepo, mkdirInsideRepo, moveInsideRepo, readInsideRepo, removeInsideRepo, removeTreeInsideRepo, resolveInsideRepo, setTimesInsideRepo, UnsafePathError, writeInsideRepo } from '../../src/fs/inside.js';
import { initRepo, tempDir, writeFiles } from '../helpers/repo.js';
import { sentinel } from './helpers.js';

function layout() {
  const outside = sentinel({ 'MEMORY.md': 'outside\n', 'memory/MEMORY.md': 'outside\n' });
  const repo = initRepo();
  writeFiles(repo, { '.claude/memory/MEMORY.md': '# Memory\n', 'notes/MEMORY.md': '# Notes\n', 'file.txt': 'x\n' });
  symlinkSync(outside.dir, join(repo, 'out'));
  symlinkSync('notes', join(repo, 'in'));
  symlinkSync(join(outside.dir, 'MEMORY.md'), join(repo, '.claude', 'memory', 'linked.md'));
  return { repo, outside };
}

describe('checkInsideRepo', () => {
  it('accepts paths inside the working tree, existing or not', () => {
    const { repo } = layout();
    for (const p of ['.claude/memory/MEMORY.md', '.claude/memory/new.md', '.claude/memory-archive/x/y.md', '.claude', '.']) {
      expect(checkInsideRepo(repo, join(repo, p)), p).toEqual({ ok: true, path: join(repo, p) });
    }
  });

  it('refuses outside the working tree: absolute, ../, and .git', () => {
    const { repo, outside } = layout();
    expect(checkInsideRepo(repo, join(outside.dir, 'MEMORY.md'))).toMatchObject({ ok: false, reason: expect.stringMatching(/is outside the repository/) });
    expect(checkInsideRepo(repo, join(repo, '..', 'elsewhere.md'))).toMatchObject({ ok: false, reason: expect.stringMatching(/is outside the repository/) });
    expect(checkInsideRepo(repo, join(repo, '.git', 'hooks', 'pre-commit'))).toMatchObject({ ok: false, reason: expect.stringMatching(/is inside \.git/) });
  });

  it('refuses a symlink at any level, pointing out or in', () => {
    const { repo } = layout();
    for (const [p, at] of [
      ['out/MEMORY.md', 'out'],
      ['out/memory/new.md', 'out'],
      ['in/MEMORY.md', 'in'],
      ['in', 'in'],
      ['.claude/memory/linked.md', '.claude/memory/linked.md'],
    ]) {
      expect(checkInsideRepo(repo, join(repo, p!)), p).toEqual({ ok: false, path: join(repo, p!), reason: `${join(repo, at!)} is a symlink; memlint does not write or read through it` });
    }
    expect(checkInsideRepo(repo, join(repo, 'file.txt', 'x.md'))).toMatchObject({ ok: false, reason: expect.stringMatching(/file\.txt is not a folder/) });
  });

  it('accepts the repository reached through a symlink above it', () => {
    const { repo } = layout();
    const alias = join(tempDir(), 'alias');
    symlinkSync(repo, alias);
    expect(checkInsideRepo(repo, join(alias, '.claude', 'memory', 'MEMORY.md')).ok).toBe(true);
    expect(checkInsideRepo(alias, join(repo, '.claude', 'memory', 'MEMORY.md')).ok).toBe(true);
    expect(checkInsideRepo(alias, join(alias, 'out', 'MEMORY.md')).ok).toBe(false);
  });
});

describe('the writers refuse, changing nothing', () => {
  it('write, mkdir, remove, move, re-time and read through a symlink all throw UnsafePathError', () => {
    const { repo, outside } = layout();
    const before = outside.state();
    const attempts: Array<() => unknown> = [
      () => writeInsideRepo(repo, join(repo, 'out', 'MEMORY.md'), 'pwned\n'),
      () => writeInsideRepo(repo, join(repo, 'out', 'memory', 'new.md'), 'pwned\n', { mkdir: true }),
      () => writeInsideRepo(repo, join(repo, '.claude', 'memory', 'linked.md'), 'pwned\n'),
      () => mkdirInsideRepo(repo, join(repo, 'out', 'made')),
      () => removeInsideRepo(repo, join(repo, 'out', 'MEMORY.md')),
      () => removeInsideRepo(repo, join(repo, '.claude', 'memory', 'linked.md')),
      () => removeTreeInsideRepo(repo, join(repo, 'out', 'memory')),
      () => moveInsideRepo(repo, join(repo, '.claude', 'memory', 'MEMORY.md'), join(repo, 'out', 'moved.md')),
      () => moveInsideRepo(repo, join(repo, 'out', 'MEMORY.md'), join(repo, 'moved.md')),
      () => setTimesInsideRepo(repo, join(repo, 'out', 'MEMORY.md'), 0, 0),
      () => readInsideRepo(repo, join(repo, 'out', 'MEMORY.md')),
      () => resolveInsideRepo(repo, join(repo, 'in', 'MEMORY.md')),
    ];
    for (const attempt of attempts) expect(attempt).toThrow(UnsafePathError);
    expect(outside.state()).toEqual(before);
    expect(lstatSync(join(repo, '.claude', 'memory', 'linked.md')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(repo, '.claude', 'memory', 'MEMORY.md'))).toBe(true);
  });

  it('write, move, re-time and remove inside the repository', () => {
    const { repo } = layout();
    const mem = join(repo, '.claude', 'memory');
    writeInsideRepo(repo, join(mem, 'a', 'b.md'), 'b\n', { mkdir: true });
    expect(readInsideRepo(repo, join(mem, 'a', 'b.md'))?.toString()).toBe('b\n');
    moveInsideRepo(repo, join(mem, 'a', 'b.md'), join(repo, '.claude', 'memory-archive', 'b.md'));
    expect(readFileSync(join(repo, '.claude', 'memory-archive', 'b.md'), 'utf8')).toBe('b\n');
    setTimesInsideRepo(repo, join(repo, '.claude', 'memory-archive', 'b.md'), 1_000_000, 1_000_000);
    expect(statSync(join(repo, '.claude', 'memory-archive', 'b.md')).mtimeMs).toBe(1_000_000_000);
    removeInsideRepo(repo, join(repo, '.claude', 'memory-archive', 'b.md'));
    expect(readInsideRepo(repo, join(repo, '.claude', 'memory-archive', 'b.md'))).toBeNull();
    mkdirInsideRepo(repo, join(repo, 'x', 'y'));
    writeFileSync(join(repo, 'x', 'y', 'z'), 'z');
    removeTreeInsideRepo(repo, join(repo, 'x'));
    expect(existsSync(join(repo, 'x'))).toBe(false);
  });
});
