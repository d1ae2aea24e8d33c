// gitLight: the launcher's synchronous git call, through node:child_process. It must give what git
// gives, fail as git fails, run git once whether or not git fails, and never print a deprecation
// warning (it uses no internal binding).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitLight } from '../../src/git/light.js';
import { git, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';

/** How many git processes started while `run` ran, from git's own trace (GIT_TRACE2_EVENT). */
function gitStarts(run: (env: Record<string, string>) => void): number {
  const trace = join(tempDir('memlint-trace-'), 'trace.json');
  run({ GIT_TRACE2_EVENT: trace });
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"event":"start"')).length;
}

describe('gitLight', () => {
  it('returns what git prints, NUL-separated output included', () => {
    const repo = initRepo(tempDir('memlint-light-'));
    writeFiles(repo, { 'a b.md': 'x\n', 'dir/ü.md': 'y\n' });
    git(repo, 'add', '-A');
    const r = gitLight(['diff', '--cached', '--name-only', '-z', '--no-renames'], { cwd: repo });
    expect(r).toEqual({ ok: true, stdout: git(repo, 'diff', '--cached', '--name-only', '-z', '--no-renames') });
    expect(r.stdout.split('\0').filter(Boolean)).toEqual(['a b.md', 'dir/ü.md']);
  });

  it('reports a failing git as not ok (outside a repository)', () => {
    expect(gitLight(['diff', '--cached', '--name-only'], { cwd: tempDir('memlint-norepo-') }).ok).toBe(false);
  });

  it('runs git once, when it fails as when it succeeds', () => {
    const repo = initRepo(tempDir('memlint-light-'));
    const outside = tempDir('memlint-norepo-');
    let failed: boolean | undefined;
    expect(gitStarts((env) => (failed = !gitLight(['diff', '--cached', '--name-only'], { cwd: outside, env }).ok))).toBe(1);
    expect(failed).toBe(true);
    let ok: boolean | undefined;
    expect(gitStarts((env) => (ok = gitLight(['diff', '--cached', '--name-only'], { cwd: repo, env }).ok))).toBe(1);
    expect(ok).toBe(true);
    expect(gitStarts((env) => (failed = !gitLight(['rev-parse', '--verify', '-q', 'no-such-ref'], { cwd: repo, env }).ok))).toBe(1);
    expect(failed).toBe(true);
  });

  it('the launcher prints no deprecation warning, even under --pending-deprecation', () => {
    const repo = initRepo(tempDir('memlint-light-'));
    writeFiles(repo, { 'src/a.ts': 'x\n' });
    git(repo, 'add', '-A');
    for (const env of [{ NODE_OPTIONS: '--pending-deprecation' }, { NODE_PENDING_DEPRECATION: '1' }, {}]) {
      expect(memlint(repo, ['--staged'], { env })).toEqual({ code: 0, stdout: '', stderr: '' });
    }
  });

  it('--staged with nothing memory-related staged runs git once', () => {
    const repo = initRepo(tempDir('memlint-light-'));
    writeFiles(repo, { 'src/a.ts': 'x\n' });
    git(repo, 'add', '-A');
    expect(gitStarts((env) => expect(memlint(repo, ['--staged'], { env })).toEqual({ code: 0, stdout: '', stderr: '' }))).toBe(1);
  });
});
