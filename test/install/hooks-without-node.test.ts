// The pre-commit hook reads git's list of the staged change with shell builtins and starts Node
// only when it holds something memlint reads: Markdown, a deletion from a folder some Markdown
// names (a memory may name what went), a symbolic link (a memory folder linked out of the
// repository). The post-commit hook starts it
// only for a commit that changed Markdown. Each case is checked as git runs the hooks, and every
// commit the pre-commit hook lets through without Node is one `memlint --staged` has nothing to
// say about.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, git, memlint, tempDir, writeFiles } from '../helpers/repo.js';
import { installedProject, run } from './helpers.js';

/** Replaces the project's memlint with a script that notes each run's arguments and then runs memlint. */
function recordRuns(dir: string): (args: string) => number {
  const log = join(tempDir(), 'starts');
  const bin = join(dir, 'node_modules/.bin/memlint');
  rmSync(bin);
  writeFileSync(bin, `#!/bin/sh\necho "$*" >> '${log}'\nexec node '${CLI}' "$@"\n`, { mode: 0o755 });
  return (args) => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => l === args).length : 0);
}

describe('pre-commit and post-commit: Node starts only for a change memlint reads', () => {
  it('skip a commit of code alone; pre-commit runs for Markdown, deletions, renames and symbolic links, post-commit for Markdown', async () => {
    const dir = await installedProject();
    // docs/notes.md names src/; nothing names lib/.
    writeFiles(dir, { 'src/total.ts': 'export const total = 0;\n', 'src/round.ts': 'export const round = 0;\n', 'lib/old.ts': 'x\n', 'lib/older.ts': 'y\n', 'top.txt': 'z\n', 'docs/notes.md': 'Totals live in src/total.ts.\n' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '-m', 'code');
    const runs = recordRuns(dir);
    const starts = () => runs('--staged');
    const postCommits = () => runs('consolidate --post-commit');
    const commit = (message: string) => run(dir, ['commit', '-q', '-m', message]);

    // `runs`: pre-commit starts memlint; `changesMarkdown`: the commit, when made, changes Markdown,
    // so post-commit starts it too.
    const cases: Array<{ name: string; stage: () => void; runs: boolean; changesMarkdown?: boolean; refused?: string }> = [
      { name: 'code edited', stage: () => { writeFiles(dir, { 'src/total.ts': 'export const total = 1;\n' }); git(dir, 'add', 'src/total.ts'); }, runs: false },
      { name: 'code added, a name with a space and a tab', stage: () => { writeFiles(dir, { 'src/a b\tc.ts': 'x\n' }); git(dir, 'add', '-A'); }, runs: false },
      { name: 'a file named like Markdown but not', stage: () => { writeFiles(dir, { 'notes.md.txt': 'x\n' }); git(dir, 'add', '-A'); }, runs: false },
      { name: 'a README', stage: () => { writeFiles(dir, { 'README.md': '# App\n' }); git(dir, 'add', '-A'); }, runs: true, changesMarkdown: true },
      { name: 'Markdown named outside ASCII (quoted by git)', stage: () => { writeFiles(dir, { 'notes-é.md': 'x\n' }); git(dir, 'add', '-A'); }, runs: true, changesMarkdown: true },
      { name: 'a deletion at the top', stage: () => git(dir, 'rm', '-q', 'top.txt'), runs: false },
      { name: 'a deletion in a folder no Markdown names', stage: () => git(dir, 'rm', '-q', 'lib/old.ts'), runs: false },
      { name: 'a rename in that folder', stage: () => git(dir, 'mv', 'lib/older.ts', 'lib/newer.ts'), runs: false },
      { name: 'a deletion in a folder Markdown names', stage: () => git(dir, 'rm', '-q', 'src/round.ts'), runs: true },
      { name: 'a rename in that folder', stage: () => git(dir, 'mv', 'src/total.ts', 'src/sum.ts'), runs: true },
      { name: 'a symbolic link', stage: () => { symlinkSync('src', join(dir, 'link')); git(dir, 'add', 'link'); }, runs: true },
      {
        name: 'a memory with no frontmatter',
        stage: () => { writeFiles(dir, { '.claude/memory/feedback_x.md': 'no frontmatter\n' }); git(dir, 'add', '-A'); },
        runs: true,
        refused: 'frontmatter',
      },
    ];
    for (const c of cases) {
      const before = starts();
      const postBefore = postCommits();
      c.stage();
      if (!c.runs) {
        // What the hook skips is what memlint --staged would pass in silence.
        const direct = memlint(dir, ['--staged']);
        expect({ name: c.name, code: direct.code, out: direct.stdout + direct.stderr }).toEqual({ name: c.name, code: 0, out: '' });
      }
      const done = commit(c.name);
      expect({ name: c.name, started: starts() - before }).toEqual({ name: c.name, started: c.runs ? 1 : 0 });
      expect({ name: c.name, postCommit: postCommits() - postBefore }).toEqual({ name: c.name, postCommit: c.changesMarkdown ? 1 : 0 });
      if (c.refused) {
        expect(done.code, c.name).not.toBe(0);
        expect(done.out).toContain(c.refused);
      } else expect(done.code, `${c.name}: ${done.out}`).toBe(0);
    }
  });

  it('post-checkout: Node only when the checkout changes Markdown, or is a file checkout', async () => {
    const dir = await installedProject();
    const runs = recordRuns(dir);
    const touches = () => runs('touch');
    const checkout = (...args: string[]) => {
      const before = touches();
      const r = run(dir, ['checkout', '-q', ...args]);
      expect(r.code, r.out).toBe(0);
      return touches() - before;
    };
    writeFiles(dir, { 'src/a.ts': 'export const a = 1;\n' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '-m', 'code');
    git(dir, 'branch', 'code-only');
    writeFiles(dir, { 'src/a.ts': 'export const a = 2;\n' });
    git(dir, 'commit', '-q', '--no-verify', '-am', 'code again');
    git(dir, 'branch', 'memory-too', 'code-only');
    git(dir, 'checkout', '-q', 'memory-too');
    writeFiles(dir, { '.claude/memory/user_role.md': readFileSync(join(dir, '.claude/memory/user_role.md'), 'utf8') + 'Prefers small commits.\n' });
    git(dir, 'commit', '-q', '--no-verify', '-am', 'memory');
    git(dir, 'checkout', '-q', 'main');
    expect({ 'code only': checkout('code-only'), back: checkout('main'), 'a new branch here': checkout('-b', 'same') }).toEqual({ 'code only': 0, back: 0, 'a new branch here': 0 });
    expect({ 'memory changed': checkout('memory-too'), 'and back': checkout('main') }).toEqual({ 'memory changed': 1, 'and back': 1 });
    expect(checkout('--', '.claude/memory/user_role.md')).toBe(1);
  });

  it('post-merge: Node only when the merge changes Markdown, or is a squash', async () => {
    const dir = await installedProject();
    const runs = recordRuns(dir);
    const touches = () => runs('touch');
    const merge = (...args: string[]) => {
      const before = touches();
      const r = run(dir, ['merge', '-q', '--no-edit', ...args]);
      expect(r.code, r.out).toBe(0);
      return touches() - before;
    };
    const branch = (name: string, files: Record<string, string>) => {
      git(dir, 'checkout', '-q', '-b', name, 'main');
      writeFiles(dir, files);
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '--no-verify', '-m', name);
      git(dir, 'checkout', '-q', 'main');
    };
    branch('code', { 'src/a.ts': 'export const a = 1;\n' });
    branch('more-code', { 'src/b.ts': 'export const b = 1;\n' });
    branch('memory', { '.claude/memory/user_role.md': readFileSync(join(dir, '.claude/memory/user_role.md'), 'utf8') + 'Prefers small commits.\n' });
    branch('squashed', { '.claude/memory/MEMORY.md': readFileSync(join(dir, '.claude/memory/MEMORY.md'), 'utf8') + '\n' });
    expect({ 'fast-forward, code': merge('code'), 'merge commit, code': merge('--no-ff', 'more-code'), memory: merge('--no-ff', 'memory') }).toEqual({ 'fast-forward, code': 0, 'merge commit, code': 0, memory: 1 });
    expect(merge('--squash', 'squashed')).toBe(1);
  });

  it('runs memlint when git cannot list the staged change', async () => {
    const dir = await installedProject();
    const runs = recordRuns(dir);
    const hook = readFileSync(join(dir, '.husky/pre-commit'), 'utf8');
    // An index git cannot read: the list fails, and memlint is asked (it says why).
    writeFileSync(join(dir, '.git/index'), 'not an index');
    const r = spawnSync('sh', ['-e', '-c', hook], { cwd: dir, encoding: 'utf8' });
    expect(runs('--staged')).toBe(1);
    expect(r.stderr).toContain('index');
  });
});
