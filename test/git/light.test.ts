// gitLight: the launcher's synchronous git call without node:child_process. It must give what
// git gives, fail as git fails, and never print a deprecation warning.
import { describe, expect, it } from 'vitest';
import { gitLight, viaBinding } from '../../src/git/light.js';
import { git, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';

describe('gitLight', () => {
  it('returns what git prints, NUL-separated output included', () => {
    const repo = initRepo(tempDir('memlint-light-'));
    writeFiles(repo, { 'a b.md': 'x\n', 'dir/ü.md': 'y\n' });
    git(repo, 'add', '-A');
    const r = gitLight(['diff', '--cached', '--name-only', '-z', '--no-renames'], { cwd: repo });
    expect(r).toEqual({ ok: true, stdout: git(repo, 'diff', '--cached', '--name-only', '-z', '--no-renames') });
    expect(r.stdout.split('\0').filter(Boolean)).toEqual(['a b.md', 'dir/ü.md']);
    // ...and on this Node it got there without child_process
    expect(viaBinding(['diff', '--cached', '--name-only', '-z', '--no-renames'], { cwd: repo })).toEqual(r);
  });

  it('reports a failing git as not ok (outside a repository)', () => {
    expect(gitLight(['diff', '--cached', '--name-only'], { cwd: tempDir('memlint-norepo-') }).ok).toBe(false);
  });

  it('the launcher prints no deprecation warning, even under --pending-deprecation', () => {
    const repo = initRepo(tempDir('memlint-light-'));
    writeFiles(repo, { 'src/a.ts': 'x\n' });
    git(repo, 'add', '-A');
    for (const env of [{ NODE_OPTIONS: '--pending-deprecation' }, { NODE_PENDING_DEPRECATION: '1' }, {}]) {
      expect(memlint(repo, ['--staged'], { env })).toEqual({ code: 0, stdout: '', stderr: '' });
    }
  });
});
