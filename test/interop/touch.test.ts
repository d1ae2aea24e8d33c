import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseModified, sameSecond } from '../../src/claude/touch.js';
import { CLI, git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';
import { cliInProcess, hermetic } from './helpers.js';

function commitAt(repo: string, iso: string, message: string): void {
  git(repo, 'add', '-A');
  execFileSync('git', ['commit', '-qm', message], { cwd: repo, env: { ...process.env, GIT_AUTHOR_DATE: iso, GIT_COMMITTER_DATE: iso } });
}

const mtime = (p: string) => statSync(p).mtimeMs;
const secs = (iso: string) => Date.parse(iso);

/** The repository memoryRepo makes: built once and copied for each test (its files get the copy's time, as new files would). */
let made: string | undefined;
function memoryRepo(): string {
  made ??= makeMemoryRepo();
  const repo = tempDir();
  cpSync(made, repo, { recursive: true });
  return repo;
}

function makeMemoryRepo(): string {
  const repo = initRepo();
  writeFiles(repo, {
    '.claude/memory/MEMORY.md': '- [A](a.md) — a\n- [B](b.md) — b\n- [C](c.md) — c\n',
    '.claude/memory/a.md': '---\nname: a\ndescription: a\ntype: user\nmodified: 2024-01-02T03:04:05Z\n---\nA\n',
    '.claude/memory/b.md': '---\nname: b\ndescription: b\nmetadata:\n  type: project\n  modified: "2023-05-06T07:08:09.500Z"\n---\nB\n',
    '.claude/memory/c.md': '---\nname: c\ndescription: c\ntype: reference\n---\nC\n',
    '.claude/memory/logs/2022/01/2022-01-01.md': '- 10:00 did a thing\n',
  });
  commitAt(repo, '2022-01-01T00:00:00Z', 'memory');
  writeFiles(repo, { '.claude/memory/c.md': '---\nname: c\ndescription: c, updated\ntype: reference\n---\nC2\n' });
  commitAt(repo, '2022-06-01T12:00:00Z', 'update c');
  return repo;
}

function makeAllNew(dir: string, files: string[]): void {
  const now = new Date();
  for (const f of files) utimesSync(path.join(dir, f), now, now);
}

const MEM = '.claude/memory';
const FILES = ['MEMORY.md', 'a.md', 'b.md', 'c.md', 'logs/2022/01/2022-01-01.md'].map((f) => `${MEM}/${f}`);

/** A branch `side` whose commit (2022-07-01) adds topic d.md and its entry; leaves main checked out. */
function sideAddsD(repo: string): void {
    git(repo, 'switch', '-q', '-c', 'side');
    writeFiles(repo, { '.claude/memory/MEMORY.md': '- [A](a.md) — a\n- [B](b.md) — b\n- [C](c.md) — c\n- [D](d.md) — d\n', '.claude/memory/d.md': '---\nname: d\ndescription: d\ntype: user\n---\nD\n' });
    commitAt(repo, '2022-07-01T00:00:00Z', 'side adds d');
    git(repo, 'switch', '-q', 'main');
}

describe('memlint touch', () => {
  it('sets mtimes from "modified" (top level and under metadata:), else from the last commit', async () => {
    const h = hermetic();
    const repo = memoryRepo();
    makeAllNew(repo, FILES);
    const r = await cliInProcess(repo, ['touch'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/set 5 mtimes \(2 from "modified", 3 from commits\) in 1 memory folder/);
    expect(mtime(path.join(repo, MEM, 'a.md'))).toBe(secs('2024-01-02T03:04:05Z'));
    expect(mtime(path.join(repo, MEM, 'b.md'))).toBe(secs('2023-05-06T07:08:09.500Z'));
    expect(mtime(path.join(repo, MEM, 'c.md'))).toBe(secs('2022-06-01T12:00:00Z'));
    expect(mtime(path.join(repo, MEM, 'MEMORY.md'))).toBe(secs('2022-01-01T00:00:00Z'));
    expect(mtime(path.join(repo, MEM, 'logs/2022/01/2022-01-01.md'))).toBe(secs('2022-01-01T00:00:00Z'));
  });

  it('a second run changes nothing and prints nothing', async () => {
    const h = hermetic();
    const repo = memoryRepo();
    makeAllNew(repo, FILES);
    expect((await cliInProcess(repo, ['touch'], h)).code).toBe(0);
    const before = FILES.map((f) => mtime(path.join(repo, f)));
    const again = await cliInProcess(repo, ['touch'], h);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('');
    expect(FILES.map((f) => mtime(path.join(repo, f)))).toEqual(before);
  });

  it('after a clone every file gets its own date back', async () => {
    const h = hermetic();
    const repo = memoryRepo();
    const clone = path.join(tempDir(), 'clone');
    git(repo, 'clone', '-q', repo, clone);
    expect(mtime(path.join(clone, MEM, 'c.md'))).toBeGreaterThan(secs('2025-01-01T00:00:00Z'));
    expect((await cliInProcess(clone, ['touch'], h)).code).toBe(0);
    expect(mtime(path.join(clone, MEM, 'c.md'))).toBe(secs('2022-06-01T12:00:00Z'));
    expect(mtime(path.join(clone, MEM, 'a.md'))).toBe(secs('2024-01-02T03:04:05Z'));
  });

  it('keeps the mtime of files changed since their last commit or never committed, unless they say "modified"', async () => {
    const h = hermetic();
    const repo = memoryRepo();
    writeFiles(repo, {
      '.claude/memory/c.md': '---\nname: c\ndescription: c\ntype: reference\n---\nedited now\n',
      '.claude/memory/new.md': '---\nname: n\ndescription: n\ntype: user\n---\nnew\n',
      '.claude/memory/dated.md': '---\nname: d\ndescription: d\ntype: user\nmodified: 2021-03-04\n---\nd\n',
    });
    const edited = mtime(path.join(repo, MEM, 'c.md'));
    const fresh = mtime(path.join(repo, MEM, 'new.md'));
    const r = await cliInProcess(repo, ['touch', '--verbose'], h);
    expect(r.code).toBe(0);
    expect(mtime(path.join(repo, MEM, 'c.md'))).toBe(edited);
    expect(mtime(path.join(repo, MEM, 'new.md'))).toBe(fresh);
    expect(mtime(path.join(repo, MEM, 'dated.md'))).toBe(secs('2021-03-04T00:00:00Z'));
    expect(r.stdout).toMatch(/kept +\.claude\/memory\/c\.md: changed since its last commit/);
    expect(r.stdout).toMatch(/kept +\.claude\/memory\/new\.md: never committed/);
  });

  it('never follows a symlink', async () => {
    const h = hermetic();
    const repo = memoryRepo();
    const outside = path.join(tempDir(), 'outside.md');
    writeFileSync(outside, '---\nmodified: 2001-01-01T00:00:00Z\n---\n');
    symlinkSync(outside, path.join(repo, MEM, 'link.md'));
    const before = mtime(outside);
    const r = await cliInProcess(repo, ['touch', '--verbose'], h);
    expect(r.code).toBe(0);
    expect(mtime(outside)).toBe(before);
    expect(r.stdout).toMatch(/link\.md: a symlink: not followed/);
  });

  it('--dry-run reports and changes nothing', async () => {
    const h = hermetic();
    const repo = memoryRepo();
    makeAllNew(repo, FILES);
    const before = FILES.map((f) => mtime(path.join(repo, f)));
    const r = await cliInProcess(repo, ['touch', '--dry-run'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/would set \.claude\/memory\/a\.md -> 2024-01-02T03:04:05\.000Z \(frontmatter "modified"\)/);
    expect(r.stdout).toMatch(/would set 5 mtimes/);
    expect(FILES.map((f) => mtime(path.join(repo, f)))).toEqual(before);
  });

  it('works in a linked worktree and on agent memory folders', async () => {
    const h = hermetic();
    const repo = memoryRepo();
    writeFiles(repo, { '.claude/agent-memory/reviewer/MEMORY.md': '- [X](x.md) — x\n', '.claude/agent-memory/reviewer/x.md': '---\nname: x\ndescription: x\ntype: user\n---\n' });
    commitAt(repo, '2023-02-02T02:02:02Z', 'agent memory');
    const wt = path.join(tempDir(), 'wt');
    git(repo, 'worktree', 'add', '-q', wt);
    const r = await cliInProcess(wt, ['touch'], h);
    expect(r.code).toBe(0);
    expect(mtime(path.join(wt, MEM, 'c.md'))).toBe(secs('2022-06-01T12:00:00Z'));
    expect(mtime(path.join(wt, '.claude/agent-memory/reviewer/x.md'))).toBe(secs('2023-02-02T02:02:02Z'));
    expect(r.stdout).toMatch(/in 2 memory folders/);
  });

  it("works in a bare repository's worktree", async () => {
    const h = hermetic();
    const repo = memoryRepo();
    const bare = path.join(tempDir(), 'proj.git');
    git(repo, 'clone', '-q', '--bare', repo, bare);
    const wt = path.join(tempDir(), 'main');
    git(bare, 'worktree', 'add', '-q', wt);
    expect((await cliInProcess(wt, ['touch'], h)).code).toBe(0);
    expect(mtime(path.join(wt, MEM, 'c.md'))).toBe(secs('2022-06-01T12:00:00Z'));
    expect(mtime(path.join(wt, MEM, 'b.md'))).toBe(secs('2023-05-06T07:08:09.500Z'));
  });

  it('a named memory folder only; exit 2 for one that does not exist', async () => {
    const h = hermetic();
    const repo = memoryRepo();
    makeAllNew(repo, FILES);
    expect((await cliInProcess(repo, ['touch', MEM], h)).code).toBe(0);
    expect(mtime(path.join(repo, MEM, 'a.md'))).toBe(secs('2024-01-02T03:04:05Z'));
    const r = await cliInProcess(repo, ['touch', 'nope'], h);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^memlint: no such file or folder: nope/);
  });

  it.each([
    ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.000Z'],
    ['2024-01-02T03:04:05.123+02:00', '2024-01-02T01:04:05.123Z'],
    ['2024-01-02', '2024-01-02T00:00:00.000Z'],
    ['2024-01-02 03:04:05Z', '2024-01-02T03:04:05.000Z'],
  ])('parseModified(%j) = %s', (input, iso) => {
    expect(new Date(parseModified(input)!).toISOString()).toBe(iso);
  });

  it.each(['', 'yesterday', 'Jan 2 2024', '2024-13-45', undefined])('parseModified(%j) is not a date', (input) => {
    expect(parseModified(input)).toBeNull();
  });

  it("leaves git's index consistent: no file it touched looks modified to git afterwards", async () => {
    const h = hermetic();
    const repo = memoryRepo();
    // Settled entries: the files' mtimes in the past and the index written after them, so git
    // trusts its stat data instead of comparing content.
    const past = new Date(Date.now() - 60_000);
    for (const f of FILES) utimesSync(path.join(repo, f), past, past);
    git(repo, 'update-index', '-q', '--refresh');
    expect((await cliInProcess(repo, ['touch'], h)).stdout).toMatch(/set 5 mtimes/);
    // diff-files reads the index's stat data without refreshing it.
    expect(git(repo, 'diff-files', '--name-only')).toBe('');
  });

  it('takes a merge commit that changed a file as its last commit', async () => {
    const h = hermetic();
    const repo = memoryRepo();
    sideAddsD(repo);
    writeFiles(repo, { '.claude/memory/MEMORY.md': '# Memory\n\n- [A](a.md) — a\n- [B](b.md) — b\n- [C](c.md) — c\n' });
    commitAt(repo, '2022-08-01T00:00:00Z', 'main adds a heading');
    execFileSync('git', ['merge', '-q', '--no-edit', 'side'], { cwd: repo, env: { ...process.env, GIT_AUTHOR_DATE: '2022-09-01T00:00:00Z', GIT_COMMITTER_DATE: '2022-09-01T00:00:00Z' } });
    makeAllNew(repo, [`${MEM}/MEMORY.md`, `${MEM}/d.md`]);
    expect((await cliInProcess(repo, ['touch'], h)).code).toBe(0);
    expect(mtime(path.join(repo, MEM, 'MEMORY.md'))).toBe(secs('2022-09-01T00:00:00Z'));
    // A file the merge took unchanged from one side keeps the date of the commit that wrote it.
    expect(mtime(path.join(repo, MEM, 'd.md'))).toBe(secs('2022-07-01T00:00:00Z'));
  });

  it('sets the mtimes from post-merge, where git still holds MERGE_HEAD of the merge it just committed', () => {
    const h = hermetic();
    const repo = memoryRepo();
    sideAddsD(repo);
    writeFiles(repo, { '.claude/memory/other.txt': 'x\n' });
    commitAt(repo, '2022-08-01T00:00:00Z', 'main moves');
    const hooks = tempDir('memlint-hooks-');
    writeFileSync(path.join(hooks, 'post-merge'), `#!/bin/sh\n"${process.execPath}" "${CLI}" touch > "${hooks}/out" 2>&1\n`, { mode: 0o755 });
    execFileSync('git', ['-c', `core.hooksPath=${hooks}`, 'merge', '-q', '--no-ff', '--no-edit', 'side'], { cwd: repo, env: { ...h.env, GIT_AUTHOR_DATE: '2022-09-01T00:00:00Z', GIT_COMMITTER_DATE: '2022-09-01T00:00:00Z' } });
    expect(readFileSync(path.join(hooks, 'out'), 'utf8')).toMatch(/^memlint touch: set \d+ mtimes?/);
    expect(mtime(path.join(repo, MEM, 'd.md'))).toBe(secs('2022-07-01T00:00:00Z'));
    expect(git(repo, 'diff-files', '--name-only')).toBe('');
  });

  it('changes nothing while a rebase has commits left to replay, and says so; works again once it ends', async () => {
    const h = hermetic();
    const repo = memoryRepo();
    git(repo, 'switch', '-q', '-c', 'side', 'HEAD~1');
    writeFiles(repo, { '.claude/memory/c.md': '---\nname: c\ndescription: c\ntype: reference\n---\nC on the side\n' });
    commitAt(repo, '2022-03-01T00:00:00Z', 'side edits c');
    writeFiles(repo, { '.claude/memory/logs/2022/03/2022-03-02.md': '- 09:00 a side note\n' });
    commitAt(repo, '2022-03-02T00:00:00Z', 'side logs');
    const stopped = spawnSync('git', ['rebase', 'main'], { cwd: repo, encoding: 'utf8' });
    expect(stopped.status).toBe(1); // c.md conflicts: the rebase stops with a commit left to replay
    makeAllNew(repo, [`${MEM}/a.md`]);
    const before = mtime(path.join(repo, MEM, 'a.md'));
    const r = await cliInProcess(repo, ['touch'], h);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('memlint touch: a rebase is under way in .: mtimes left alone until it ends\n');
    expect(mtime(path.join(repo, MEM, 'a.md'))).toBe(before);
    git(repo, 'rebase', '--abort');
    expect((await cliInProcess(repo, ['touch'], h)).stdout).toMatch(/set \d+ mtimes?/);
    expect(mtime(path.join(repo, MEM, 'a.md'))).toBe(secs('2024-01-02T03:04:05Z'));
  });

  it('does not wait during a bisect: each step is a checkout of its own, done when touch runs', async () => {
    const h = hermetic();
    const repo = memoryRepo();
    git(repo, 'bisect', 'start', 'HEAD', 'HEAD~1');
    makeAllNew(repo, FILES);
    expect((await cliInProcess(repo, ['touch'], h)).stdout).toMatch(/set 5 mtimes/);
    expect(git(repo, 'diff-files', '--name-only')).toBe('');
    git(repo, 'bisect', 'reset');
  });

  it('sameSecond compares to the second', () => {
    expect(sameSecond(1000, 1999)).toBe(true);
    expect(sameSecond(1999, 2000)).toBe(false);
  });
});
