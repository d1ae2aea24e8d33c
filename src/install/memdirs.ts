// The memdirs install and doctor cover: every memdir of the repository (repository-relative),
// or Claude Code's usual .claude/memory when there is none yet.
import { loadConfig } from '../config.js';
import { discoverMemdirs, type DiscoveredMemdir } from '../memdir/discover.js';
import { slashRelative } from '../fs/paths.js';
import type { Output } from '../io.js';
import type { Repository } from '../git/repo.js';

export const DEFAULT_MEMDIR = '.claude/memory';

/** Every memdir of the repository, as discovery finds them with the config's memoryDirs. */
export async function findRepoMemdirs(repository: Repository, env: NodeJS.ProcessEnv, configFile: string | undefined, stderr: Output, onSymlinked?: (rel: string) => void): Promise<DiscoveredMemdir[]> {
  const { root } = repository;
  const { config, dir } = await loadConfig({ cwd: root, file: configFile, stderr });
  // A memory folder a sparse checkout leaves out is still the repository's: its route stays.
  return discoverMemdirs({ cwd: root, env, memoryDirs: config.memoryDirs, configDir: dir, repository, link: config.link, notCheckedOut: { include: true }, ...(onSymlinked ? { onSymlinked } : {}) });
}

/** The memdirs covered, from what findRepoMemdirs found. */
export function coveredMemdirs(root: string, found: DiscoveredMemdir[]): string[] {
  const covered = found.map((d) => slashRelative(root, d.dir) || '.').filter((d) => !d.startsWith('..'));
  return covered.length > 0 ? [...new Set(covered)].sort() : [DEFAULT_MEMDIR];
}

export async function repoMemdirs(repository: Repository, env: NodeJS.ProcessEnv, configFile: string | undefined, stderr: Output, onSymlinked?: (rel: string) => void): Promise<string[]> {
  return coveredMemdirs(repository.root, await findRepoMemdirs(repository, env, configFile, stderr, onSymlinked));
}
