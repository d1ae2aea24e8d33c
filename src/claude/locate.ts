// Which memory folder Claude Code's side of memlint is about: the one a file the agent wrote
// belongs to (the hook), the one `memlint show` prints when none is named.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { loadConfig } from '../config.js';
import { discoverMemdirs, isClaudeLocation, isLocalScope, nearestMemdir } from '../memdir/discover.js';
import { isAgentMemdir } from '../memdir/limits.js';
import { findGitRoot, homeOf, resolveAutoMemoryPath } from './auto-memory.js';
import { isWithin, realOrResolved, slashRelative } from '../fs/paths.js';
import { INDEX_FILE, neverFoundAsMemory } from '../memdir/kinds.js';

export interface LocatedMemdir {
  dir: string;
  repoRoot: string | null;
  /** The folder counts as memory only if its index links to a file beside it (decided by the engine). */
  confirmLinks: boolean;
}

/**
 * The memdir a written file belongs to: the nearest MEMORY.md folder above it inside the
 * repository (Claude Code's locations and config memoryDirs always count, any other folder when
 * its index links to a file beside it), or the auto memory directory `where` resolves.
 */
export async function locateMemdir(file: string, projectDir: string, env: NodeJS.ProcessEnv, home: string, memoryDirs: string[]): Promise<LocatedMemdir | null> {
  const realFile = realOrResolved(file);
  const root = findGitRoot(realOrResolved(projectDir));
  if (root && isWithin(realFile, realOrResolved(root))) {
    const realRoot = realOrResolved(root);
    const dir = nearestMemdir(realFile, realRoot);
    if (!dir) return null;
    const rel = slashRelative(realRoot, dir);
    if (neverFoundAsMemory(rel) || isLocalScope(rel)) return null;
    const configured = memoryDirs.some((d) => realOrResolved(d) === dir);
    return { dir, repoRoot: realRoot, confirmLinks: !isClaudeLocation(rel) && !configured };
  }
  const resolved = resolveAutoMemoryPath({ cwd: projectDir, env, home }).resolved;
  const autoDir = realOrResolved(resolved.replace(/[/\\]+$/, ''));
  if (!isWithin(realFile, autoDir)) return null;
  return { dir: autoDir, repoRoot: root && isWithin(autoDir, realOrResolved(root)) ? realOrResolved(root) : null, confirmLinks: false };
}

/**
 * The memdir `memlint show` prints when none is named: the one Claude Code loads when started in
 * cwd, else the repository's only one (or its .claude/memory/), with a note when that is not the
 * one Claude Code loads.
 */
export async function chooseMemdir(cwd: string, env: NodeJS.ProcessEnv): Promise<{ dir: string; note: string | null }> {
  const loaded = await loadConfig({ cwd, stderr: null });
  const discovered = discoverMemdirs({ cwd, env, memoryDirs: loaded.config.memoryDirs, configDir: loaded.dir });
  const found = discovered.map((d) => d.dir);
  const resolved = resolveAutoMemoryPath({ cwd, env, home: homeOf(env) }).resolved;
  const autoDir = realOrResolved(resolved.replace(/[/\\]+$/, ''));
  const match = found.find((d) => realOrResolved(d) === autoDir);
  if (match) return { dir: match, note: null };
  if (found.length === 0) {
    if (existsSync(path.join(autoDir, INDEX_FILE))) return { dir: autoDir, note: null };
    throw new UsageError('no memory folder (a folder with MEMORY.md) found here; name one: memlint show MEMDIR');
  }
  const nonAgent = found.filter((d) => !isAgentMemdir(d));
  // Claude Code's own location in the repository wins over other memory folders (examples, docs).
  const conventional = discovered.find((d) => d.repoRoot && d.dir === path.join(d.repoRoot, '.claude', 'memory'))?.dir;
  const pick = found.length === 1 ? found[0]! : nonAgent.length === 1 ? nonAgent[0]! : (conventional ?? null);
  if (!pick) throw new UsageError(`several memory folders here (${found.map((d) => path.relative(cwd, d) || '.').join(', ')}); name one: memlint show MEMDIR`);
  return {
    dir: pick,
    note: `note: Claude Code started here loads ${resolved}, not ${pick} ("memlint where" explains, "memlint link" changes it)`,
  };
}
