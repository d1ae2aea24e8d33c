// The memdirs install and doctor cover: every memdir of the repository (repository-relative),
// or Claude Code's usual .claude/memory when there is none yet.
import { relative, sep } from 'node:path';
import { loadConfig } from '../config.js';
import { discoverMemdirs } from '../memdir/discover.js';

export const DEFAULT_MEMDIR = '.claude/memory';

export async function repoMemdirs(root: string, configFile?: string): Promise<string[]> {
  const { config, dir } = await loadConfig({ cwd: root, file: configFile });
  const found = discoverMemdirs({ cwd: root, memoryDirs: config.memoryDirs, configDir: dir })
    .map((d) => relative(root, d.dir).split(sep).join('/') || '.')
    .filter((d) => !d.startsWith('..'));
  return found.length > 0 ? [...new Set(found)].sort() : [DEFAULT_MEMDIR];
}
