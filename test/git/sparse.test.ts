// A sparse checkout (`git sparse-checkout`): files outside it are committed and in the index, marked
// skip-worktree, but not on disk. A monorepo's CI job checks out the package it builds; memory it
// left out is not missing. Real repositories, cloned with real git over file://; memlint runs
// in this process (test/helpers/in-process.ts: the same main() the CLI runs).
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { commitFiles, git, initRepo, tempDir } from '../helpers/repo.js';

const TOPIC = (name: string) => `---\nname: ${name}\ndescription: ${name} notes\ntype: reference\n---\n${name} body.\n`;

function memoryRepo(): string {
  const repo = initRepo(tempDir('memlint-sparse-'));
  commitFiles(repo, {
    '.memlintrc.json': '{\n  "link": ".claude/memory"\n}\n',
    '.claude/memory/MEMORY.md': '# Memory\n\n- [Dash](reference_dash.md) — dashboards\n- [X](reference_x.md) — x notes\n',
    '.claude/memory/reference_dash.md': TOPIC('Dash'),
    '.claude/memory/reference_x.md': TOPIC('X'),
    'src/app.ts': 'export const app = 1;\n',
  });
  return repo;
}

function clone(repo: string, ...args: string[]): string {
  const dir = join(tempDir('memlint-sparse-clone-'), 'sp');
  expect(spawnSync('git', ['clone', '-q', ...args, pathToFileURL(repo).href, dir]).status).toBe(0);
  return dir;
}

describe('a sparse checkout', () => {
  it('that leaves the memory folder out: not linted, one line says so, exit 0', async () => {
    const sp = clone(memoryRepo(), '--sparse');
    git(sp, 'sparse-checkout', 'set', 'src');
    expect(existsSync(join(sp, '.claude'))).toBe(false);
    expect(git(sp, 'ls-files', '-t', '--', '.claude/memory/MEMORY.md')).toBe('S .claude/memory/MEMORY.md\n');
    const r = await memlintInProcess(sp, []);
    expect(r.stderr).toBe('memlint: .claude/memory is outside this sparse checkout; not linted\n');
    expect(r.stdout).not.toContain('vanished');
    expect(r.code).toBe(0);
    expect((await memlintInProcess(sp, ['--format', 'json'])).stdout.trim()).toBe('[]');
    // Named, it is not there to lint (exit 2), and the line says why rather than "no such file".
    for (const named of ['.claude/memory', '.claude/memory/reference_x.md']) {
      const n = await memlintInProcess(sp, [named]);
      expect([n.code, n.stderr]).toEqual([2, `memlint: ${named} is outside this sparse checkout (committed, not on disk): memlint lints what is checked out; "git sparse-checkout add" brings it in\n`]);
    }
    expect((await memlintInProcess(sp, ['nowhere'])).stderr).toBe('memlint: no such file or folder: nowhere\n');
    // Checked out again, it is linted as before.
    git(sp, 'sparse-checkout', 'disable');
    const back = await memlintInProcess(sp, []);
    expect(back.stderr).toBe('');
    expect(back.code).toBe(0);
  });

  it('that leaves one topic file out: its entry is not a broken link, and consolidate does not call it never committed', async () => {
    const sp = clone(memoryRepo());
    git(sp, 'sparse-checkout', 'set', '--no-cone', '/*', '!/.claude/memory/reference_x.md');
    expect(existsSync(join(sp, '.claude/memory/reference_x.md'))).toBe(false);
    const r = await memlintInProcess(sp, []);
    expect(r.stdout).not.toContain('index-link-target');
    expect(r.code).toBe(0);
    const c = await memlintInProcess(sp, ['consolidate', '--force', '--dry-run']);
    expect(c.code).toBe(0);
    expect(c.stdout + c.stderr).not.toContain('never committed');
    expect(c.stdout + c.stderr).not.toContain('reference_x.md');
    // A topic file deleted from the disk (not left out by the checkout) is still a broken link.
    rmSync(join(sp, '.claude/memory/reference_dash.md'));
    const gone = await memlintInProcess(sp, []);
    expect(gone.stdout).toMatch(/Entry links to reference_dash\.md, which does not exist in the memory folder +index-link-target/);
    expect(gone.stdout).not.toContain('reference_x.md');
    expect(gone.code).toBe(1);
  });

  it('that leaves the code out: a path a memory names that was renamed is still reported, with its new path', async () => {
    const repo = memoryRepo();
    git(repo, 'mv', 'src/app.ts', 'src/main.ts');
    git(repo, 'commit', '-qm', 'rename app');
    commitFiles(repo, { '.claude/memory/reference_dash.md': `${TOPIC('Dash')}The entry point is src/app.ts.\n` });
    const full = await memlintInProcess(clone(repo), ['--format', 'json']);
    const sp = clone(repo);
    git(sp, 'sparse-checkout', 'set', '--no-cone', '/*', '!/src/');
    expect(existsSync(join(sp, 'src/main.ts'))).toBe(false);
    const sparse = await memlintInProcess(sp, ['--format', 'json']);
    const stale = (out: string) => (JSON.parse(out) as Array<{ messages: Array<{ ruleId: string; message: string }> }>).flatMap((f) => f.messages).filter((m) => m.ruleId === 'no-stale-reference').map((m) => m.message);
    expect(stale(full.stdout)).toHaveLength(1);
    expect(stale(full.stdout)[0]).toMatch(/^src\/app\.ts was renamed to src\/main\.ts/);
    expect(stale(sparse.stdout)).toEqual(stale(full.stdout));
  });
});

