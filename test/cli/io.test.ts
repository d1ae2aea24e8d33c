// A command runs with the folder, environment and outputs it is handed (src/io.ts), not the
// process's: runs from different folders with different environments overlap in one process, each
// seeing its own, and the process's working folder, environment and streams are left alone.
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { Io } from '../../src/io.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';
import { CLEAN_INDEX, cleanRepo, topic } from './setup.js';

describe('a command runs with the context it is handed', () => {
  it('overlapping runs each read their own folder and environment, and the process keeps its own', async () => {
    const a = cleanRepo();
    const b = cleanRepo({ 'project_a.md': topic('A', 'nonsense') });
    const configA = tempDir('memlint-config-a-');
    const configB = tempDir('memlint-config-b-');
    const cwd = process.cwd();
    const env = { ...process.env };
    const [whereA, whereB, lintA, lintB] = await Promise.all([
      memlintInProcess(a.repo, ['where', '--json'], { env: { CLAUDE_CONFIG_DIR: configA } }),
      memlintInProcess(b.repo, ['where', '--json'], { env: { CLAUDE_CONFIG_DIR: configB } }),
      memlintInProcess(a.repo, ['--format', 'json']),
      memlintInProcess(b.repo, ['--format', 'json']),
    ]);
    expect((JSON.parse(whereA.stdout) as { resolved: string }).resolved.startsWith(join(configA, 'projects') + '/')).toBe(true);
    expect((JSON.parse(whereB.stdout) as { resolved: string }).resolved.startsWith(join(configB, 'projects') + '/')).toBe(true);
    expect(lintA.code).toBe(0);
    expect((JSON.parse(lintA.stdout) as Array<{ filePath: string }>).map((r) => r.filePath).sort()).toEqual([join(a.memdir, 'MEMORY.md'), join(a.memdir, 'project_deploys.md')]);
    expect(lintB.code).toBe(1);
    expect(lintB.stdout).toContain(join(b.memdir, 'project_a.md'));
    expect(lintB.stdout).not.toContain(a.repo);
    expect(process.cwd()).toBe(cwd);
    expect(process.env).toEqual(env);
  });

  it('main() writes to the outputs it is given, and throws a usage error for its caller to report', async () => {
    const { repo } = cleanRepo();
    const out: string[] = [];
    const err: string[] = [];
    const sink = (to: string[]) => ({ write: (c: string | Uint8Array) => (to.push(String(c)), true), once: () => undefined });
    const io: Io = { cwd: repo, env: { ...process.env, NO_COLOR: '1' }, stdout: sink(out), stderr: sink(err) };
    expect(await main(['--list-memdirs'], {}, io)).toBe(0);
    expect(out.join('')).toBe('.claude/memory\tclaude-location\n');
    await expect(main(['instal'], {}, io)).rejects.toThrow(/did you mean "memlint install"/);
    expect(await main(['show', '--budget', '.claude/memory'], {}, io)).toBe(0);
    expect(out.join('')).toContain('MEMORY.md');
    expect(err).toEqual([]);
  });

  it("names a memlint.config.mjs it does not read on the run's own stderr, once a run", async () => {
    const { repo } = cleanRepo({ 'project_a.md': topic('A', 'nonsense') });
    writeFileSync(join(repo, 'memlint.config.mjs'), "export default { rules: { 'frontmatter-type': 'off' } };\n");
    const notice = `memlint: ${join(repo, 'memlint.config.mjs')} is not read: memlint runs no code from the repository; put its settings in .memlintrc.json, .memlintrc.yaml or package.json "memlint"\n`;
    // Each run is told, on its own stderr, however many times it looks for config.
    for (const argv of [['--format', 'json'], ['--format', 'json'], ['consolidate', '--check']]) {
      const r = await memlintInProcess(repo, argv);
      expect(r.stderr.split(notice)).toHaveLength(2);
    }
  });

  it("finds the repository with the run's environment, not the process's", async () => {
    // GIT_CEILING_DIRECTORIES at the repository's top: git, asked from a folder inside it, does not
    // go up to it, so for this run there is no repository here and discovery walks the folder only.
    const { repo } = cleanRepo();
    const sub = join(repo, 'sub');
    mkdirSync(sub);
    const own = await memlintInProcess(sub, ['--list-memdirs']);
    const ceiled = await memlintInProcess(sub, ['--list-memdirs'], { env: { GIT_CEILING_DIRECTORIES: repo } });
    expect(own.stdout).toBe('.claude/memory\tclaude-location\n');
    expect(ceiled.stdout).toBe('');
    expect(process.env.GIT_CEILING_DIRECTORIES).toBeUndefined();
  });
});

/**
 * The repository's git dir moved out of its working tree, so that only the run's GIT_DIR and
 * GIT_WORK_TREE name it (as git names them to the hooks it runs): a git call made in this
 * process's environment finds no repository there.
 */
function separated(repo: string): Record<string, string> {
  const gitDir = join(tempDir('memlint-gitdir-'), 'repo.git');
  renameSync(join(repo, '.git'), gitDir);
  return { GIT_DIR: gitDir, GIT_WORK_TREE: repo };
}

const gitWith = (env: Record<string, string>, repo: string, ...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, ...env }, encoding: 'utf8' });

describe("every git call runs in the run's environment", () => {
  it('lint --staged reads the index the environment names', async () => {
    const { repo, memdir } = cleanRepo();
    writeFileSync(join(memdir, 'project_bad.md'), topic('Bad', 'nonsense'));
    git(repo, 'add', '-A');
    const env = separated(repo);
    const r = await memlintInProcess(repo, ['--staged', '--format', 'json'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const flagged = (JSON.parse(r.stdout) as Array<{ filePath: string; messages: unknown[] }>).filter((f) => f.messages.length > 0).map((f) => f.filePath);
    expect(flagged).toEqual([join(memdir, 'project_bad.md')]);
  });

  it('resolve settles and stages a conflict in the repository the environment names', async () => {
    const { repo, memdir } = cleanRepo();
    git(repo, 'checkout', '-q', '-b', 'theirs');
    writeFiles(memdir, { 'MEMORY.md': `${CLEAN_INDEX}- [B](project_b.md) — b\n`, 'project_b.md': topic('B') });
    git(repo, 'commit', '-qam', 'b');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'b file');
    git(repo, 'checkout', '-q', 'main');
    writeFiles(memdir, { 'MEMORY.md': `${CLEAN_INDEX}- [A](project_a.md) — a\n`, 'project_a.md': topic('A') });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'a');
    expect(() => git(repo, 'merge', '-q', 'theirs')).toThrow();
    const env = separated(repo);
    const r = await memlintInProcess(repo, ['resolve'], { env });
    expect(r).toMatchObject({ code: 0, stdout: 'resolved  .claude/memory/MEMORY.md\n' });
    expect(gitWith(env, repo, 'ls-files', '-u')).toBe('');
    expect(gitWith(env, repo, 'show', ':.claude/memory/MEMORY.md')).toBe(`${CLEAN_INDEX}- [A](project_a.md) — a\n- [B](project_b.md) — b\n`);
  });

  it('consolidate --post-commit reads and commits in the repository the environment names', async () => {
    const repo = initRepo();
    const mem = '.claude/memory';
    writeFiles(repo, { [`${mem}/MEMORY.md`]: '- [Role](user_role.md) — Backend lead\n', [`${mem}/user_role.md`]: topic('Role', 'user') });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'memory');
    for (let i = 0; i < 4; i++) {
      writeFiles(repo, { [`${mem}/logs/2026/11/2026-11-2${i}.md`]: `- 09:00 — paired on the retry job ${i} [user_role]\n` });
      git(repo, 'add', '-A');
      git(repo, 'commit', '-qm', `log ${i}`);
    }
    const env = separated(repo);
    const r = await memlintInProcess(repo, ['consolidate', '--post-commit'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^memlint: the memory was due, so memlint committed "memory: consolidate" [0-9a-f]{7} \(\.claude\/memory\) after your commit\n$/);
    expect(gitWith(env, repo, 'log', '-1', '--format=%s')).toBe('memory: consolidate\n');
  });

  it('install writes the local config of the repository the environment names', async () => {
    const { repo } = cleanRepo();
    const env = separated(repo);
    const r = await memlintInProcess(repo, ['install', '--quiet'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(gitWith(env, repo, 'config', '--local', 'core.hooksPath')).toBe('.husky/_\n');
    expect(gitWith(env, repo, 'config', '--local', 'merge.memlint.driver')).toMatch(/memlint|cli\.js/);
  });
});
