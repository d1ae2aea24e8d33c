// What the launcher learnt is passed down as a value (src/commands/given.ts), never through a
// global: the program's main() hands it to the command, which uses it instead of asking git again.
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { git, writeFiles } from '../helpers/repo.js';
import { memlintInProcess } from '../helpers/in-process.js';
import { NO_PUSHED_MEMORY, pushSource } from '../../src/consolidate/push-range.js';
import { cleanRepo, topic } from './setup.js';

/** Run main() in this process from `cwd` (test/helpers/in-process.ts), handed `given`. */
async function run(cwd: string, argv: string[], given?: Parameters<typeof main>[1]) {
  return memlintInProcess(cwd, argv, given ? { given } : {});
}

describe('values the launcher hands down', () => {
  it('--staged lints the staged paths it is given, and asks git itself when given nothing', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'project_old.md': topic('Old', 'preference') });
    git(repo, 'add', '-A');
    const asked = await run(repo, ['--staged', '--format', 'json']);
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain('frontmatter-type');
    // Given: nothing staged is Markdown (facts unknown): the program believes the value.
    const given = await run(repo, ['--staged', '--format', 'json'], { staged: { paths: ['src/a.ts'], facts: Promise.resolve(null) } });
    expect(given).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    expect((globalThis as Record<string, unknown>).__memlintStaged).toBeUndefined();
  });

  it('consolidate --pre-push takes the push it is given, and reads no stdin of its own', async () => {
    const { repo, memdir } = cleanRepo();
    for (let i = 0; i < 5; i++) {
      writeFiles(memdir, { [`logs/2026/11/2026-11-2${i}.md`]: `- 09:00 — paired on the retry job ${i} [project_deploys]\n` });
      git(repo, 'add', '-A');
      git(repo, 'commit', '-qm', `log ${i}`);
    }
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    const stdin = `refs/heads/main ${head} refs/heads/main ${'0'.repeat(40)}\n`;
    const push = pushSource({ cwd: repo, env: process.env }, stdin);
    if (push === NO_PUSHED_MEMORY) throw new Error('the push has memory in it');
    // Given a push whose commits change no memory file, the program believes the value (git would
    // say otherwise) and is done at once, without waiting on a stdin no one writes to.
    expect(await run(repo, ['consolidate', '--pre-push'], { push: { ...push, changed: ['src/app.ts'] } })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(git(repo, 'rev-parse', 'HEAD').trim()).toBe(head);
    // Given the push as the launcher reads it: the memdir is due, and it says so (the push goes
    // on), which nothing on this process's own stdin could have asked for.
    const due = await run(repo, ['consolidate', '--pre-push'], { push });
    expect(due).toMatchObject({ code: 0, stdout: '' });
    expect(due.stderr).toMatch(/^memlint: \.claude\/memory is due for consolidation and was pushed as it is/);
    expect(git(repo, 'rev-parse', 'HEAD').trim()).toBe(head);
    expect((globalThis as Record<string, unknown>).__memlintPrePushStdin).toBeUndefined();
  });
});
