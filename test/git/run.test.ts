// gitSync and gitAsync: the two ways memlint runs git (the launcher too), through node:child_process.
// They must give what git gives, fail as git fails, run git once whether or not git fails, and
// never print a deprecation warning (no internal binding).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitError, gitAsync, gitSync, orNull } from '../../src/git/run.js';
import { git, initRepo, memlint, tempDir, writeFiles } from '../helpers/repo.js';

/** How many git processes started while `run` ran, from git's own trace (GIT_TRACE2_EVENT). */
function gitStarts(run: (env: Record<string, string>) => void): number {
  const trace = join(tempDir('memlint-trace-'), 'trace.json');
  run({ GIT_TRACE2_EVENT: trace });
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"event":"start"')).length;
}

/** gitSync's stdout as text, or null when git failed. */
const light = (args: string[], opts: { cwd: string; env?: Record<string, string> }) => orNull(() => gitSync(args, { cwd: opts.cwd, env: { ...process.env, ...opts.env } }).stdout.toString('utf8'));

describe('gitSync and gitAsync', () => {
  it('return what git prints, NUL-separated output included', async () => {
    const repo = initRepo(tempDir('memlint-light-'));
    writeFiles(repo, { 'a b.md': 'x\n', 'dir/ü.md': 'y\n' });
    git(repo, 'add', '-A');
    const args = ['diff', '--cached', '--name-only', '-z', '--no-renames'];
    const out = light(args, { cwd: repo });
    expect(out).toEqual(git(repo, ...args));
    expect(out!.split('\0').filter(Boolean)).toEqual(['a b.md', 'dir/ü.md']);
    expect((await gitAsync(args, { cwd: repo, env: process.env })).stdout.toString('utf8')).toEqual(out);
  });

  it('fail as git fails (outside a repository): a GitError with its exit code and first line', async () => {
    const outside = tempDir('memlint-norepo-');
    expect(light(['diff', '--cached', '--name-only'], { cwd: outside })).toBeNull();
    let sync: unknown;
    try {
      gitSync(['diff', '--cached', '--name-only'], { cwd: outside, env: process.env });
    } catch (err) {
      sync = err;
    }
    expect(sync).toBeInstanceOf(GitError);
    expect((sync as GitError).code).toBeGreaterThan(0);
    expect((sync as GitError).message).toMatch(/^git diff failed: /);
    const async = await gitAsync(['diff', '--cached', '--name-only'], { cwd: outside, env: process.env }).catch((err: unknown) => err);
    expect(async).toBeInstanceOf(GitError);
    expect((async as GitError).message).toBe((sync as GitError).message);
    // An exit code named as an answer is not a failure.
    expect(gitSync(['rev-parse', '--verify', '-q', 'no-such-ref'], { cwd: outside, env: process.env, okCodes: 'any' }).code).not.toBe(0);
  });

  it('runs git once, when it fails as when it succeeds', () => {
    const repo = initRepo(tempDir('memlint-light-'));
    const outside = tempDir('memlint-norepo-');
    let failed: boolean | undefined;
    expect(gitStarts((env) => (failed = light(['diff', '--cached', '--name-only'], { cwd: outside, env }) === null))).toBe(1);
    expect(failed).toBe(true);
    let ok: boolean | undefined;
    expect(gitStarts((env) => (ok = light(['diff', '--cached', '--name-only'], { cwd: repo, env }) !== null))).toBe(1);
    expect(ok).toBe(true);
    expect(gitStarts((env) => (failed = light(['rev-parse', '--verify', '-q', 'no-such-ref'], { cwd: repo, env }) === null))).toBe(1);
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
