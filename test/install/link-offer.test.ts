// install offers `memlint link`: a hint by default, the link itself with --link (install run in
// this process: test/helpers/in-process.ts, the same main()).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memlintInProcess } from '../helpers/in-process.js';
import { tempDir } from '../helpers/repo.js';
import { project } from './helpers.js';

const hermetic = () => {
  const home = tempDir('memlint-home-');
  return { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'), CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: '', CLAUDE_CODE_DISABLE_AUTO_MEMORY: '' };
};

describe('install and link', () => {
  it('suggests memlint link when Claude Code is not pointed at the repository', async () => {
    const dir = project();
    const r = await memlintInProcess(dir, ['install'], { env: hermetic() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"memlint link"');
  });

  it('--link writes autoMemoryDirectory into the git-ignored local settings', async () => {
    const dir = project();
    const r = await memlintInProcess(dir, ['install', '--link'], { env: hermetic() });
    expect(r.code).toBe(0);
    const settings = JSON.parse(readFileSync(join(dir, '.claude', 'settings.local.json'), 'utf8')) as { autoMemoryDirectory: string };
    expect(settings.autoMemoryDirectory).toBe(join(dir, '.claude', 'memory'));
    const again = await memlintInProcess(dir, ['install'], { env: hermetic() });
    expect(again.stdout).not.toContain('"memlint link"');
  });
});
