// What the launcher learnt is passed down as a value (src/commands/given.ts), never through a
// global: the program's main() hands it to the command, which uses it instead of asking git again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { git, writeFiles } from '../helpers/repo.js';
import { cleanRepo, topic } from './setup.js';

const home = process.cwd();
afterEach(() => {
  process.chdir(home);
  vi.restoreAllMocks();
});

/** Run main() in-process from `cwd`, returning its exit code and what it printed on stdout. */
async function inProcess(cwd: string, argv: string[], given?: Parameters<typeof main>[1]): Promise<{ code: number; stdout: string }> {
  process.chdir(cwd);
  let stdout = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const code = await main(argv, given);
  vi.restoreAllMocks();
  return { code, stdout };
}

describe('values the launcher hands down', () => {
  it('--staged lints the staged paths it is given, and asks git itself when given nothing', async () => {
    const { repo, memdir } = cleanRepo();
    writeFiles(memdir, { 'project_old.md': topic('Old', 'preference') });
    git(repo, 'add', '-A');
    const asked = await inProcess(repo, ['--staged', '--format', 'json']);
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain('frontmatter-type');
    // Given: nothing staged is Markdown (facts unknown): the program believes the value.
    const given = await inProcess(repo, ['--staged', '--format', 'json'], { staged: { paths: ['src/a.ts'], facts: Promise.resolve(null) } });
    expect(given).toEqual({ code: 0, stdout: '[]\n' });
    expect((globalThis as Record<string, unknown>).__memlintStaged).toBeUndefined();
  });

  it('consolidate --pre-push reads the stdin it is given, not its own', async () => {
    const { repo } = cleanRepo();
    // Nothing pushed (an empty pre-push input): nothing to do, at once.
    expect(await inProcess(repo, ['consolidate', '--pre-push'], { prePushStdin: '' })).toEqual({ code: 0, stdout: '' });
    expect((globalThis as Record<string, unknown>).__memlintPrePushStdin).toBeUndefined();
  });
});
