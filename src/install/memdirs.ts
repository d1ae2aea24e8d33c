// The memdirs install and doctor cover: every memdir of the repository (repository-relative),
// or Claude Code's usual .claude/memory when there is none yet.
import { loadConfig } from '../config.js';
import { discoverMemdirs } from '../memdir/discover.js';
import { slashRelative } from '../fs/paths.js';
import type { Output } from '../io.js';
import type { Repository } from '../git/repo.js';

export const DEFAULT_MEMDIR = '.claude/memory';

export async function repoMemdirs(repository: Repository, env: NodeJS.ProcessEnv, configFile: string | undefined, stderr: Output): Promise<string[]> {
  const { root } = repository;
  const { config, dir } = await loadConfig({ cwd: root, file: configFile, stderr });
  const found = discoverMemdirs({ cwd: root, env, memoryDirs: config.memoryDirs, configDir: dir, repository })
    .map((d) => slashRelative(root, d.dir) || '.')
    .filter((d) => !d.startsWith('..'));
  return found.length > 0 ? [...new Set(found)].sort() : [DEFAULT_MEMDIR];
}
