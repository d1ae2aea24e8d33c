// The memory folders consolidation works on: one selection for `memlint consolidate` and for its
// hook modes (--pre-push, --post-commit), which take from it the folders their commits changed.
import { join } from 'node:path';
import type { LoadedConfig } from '../config.js';
import { discoverMemdirs, nearestMemdir, type DiscoveredMemdir } from '../memdir/discover.js';
import { excludedMemdir } from './exclude.js';
import type { GitContext, Repository } from '../git/repo.js';

/**
 * The memdirs `consolidate` works on: those named in `paths` (even when config excludes them), else
 * every memdir discovery finds (src/memdir/discover.ts) that config consolidate.exclude does not name.
 */
export function consolidationMemdirs(at: GitContext, loaded: LoadedConfig, paths: string[] = []): DiscoveredMemdir[] {
  return discoverMemdirs({ ...at, paths, memoryDirs: loaded.config.memoryDirs, configDir: loaded.dir }).filter((d) => paths.length > 0 || !excluded(d.dir, loaded));
}

/** Whether config consolidate.exclude leaves this memdir alone (unless it is named). */
export function excluded(dir: string, loaded: LoadedConfig): boolean {
  return excludedMemdir(dir, loaded.config.consolidate, loaded.dir);
}

/**
 * The folders (absolute, sorted) holding the MEMORY.md nearest above each changed Markdown file
 * (repository-relative): where a commit's change to memory can lie. Read from the working tree,
 * with no git call: a hook with none of them has nothing to do.
 */
export function foldersOfChanged(root: string, changed: string[]): string[] {
  const dirs = new Set<string>();
  for (const p of changed) {
    if (!p.endsWith('.md') || p.split('/').includes('node_modules')) continue;
    const dir = nearestMemdir(join(root, p), root);
    if (dir) dirs.add(dir);
  }
  return [...dirs].sort();
}

/**
 * The memdirs a hook looks at: those discovery finds (as `consolidate` does; never local-scope agent
 * memory) that the commits changed (`folders`, from foldersOfChanged), excluded ones too: their
 * pushed memory is checked, though not consolidated. `repository`: the one holding `at.cwd`, which
 * the hook has found already.
 */
export function hookMemdirs(at: GitContext, folders: string[], loaded: LoadedConfig, repository: Repository): DiscoveredMemdir[] {
  const changed = new Set(folders);
  return discoverMemdirs({ ...at, memoryDirs: loaded.config.memoryDirs, configDir: loaded.dir, repository, within: folders }).filter((d) => changed.has(d.dir));
}
