// Whether a memdir may be consolidated and whether it is due, asked before anything of it is read:
// the refusals (a symlink, a path outside the repository) and the gates (gates.ts) on the lock's
// time and the commits since. Light on purpose: the post-commit hook asks it after every memory
// commit and loads the consolidation itself only for a memdir that is due or refused.
import { join, relative } from 'node:path';
import { checkInsideRepo } from '../fs/inside.js';
import { withSlashes } from '../fs/paths.js';
import { countCommitsSince } from '../git/history.js';
import { INDEX_FILE } from '../memdir/kinds.js';
import { checkGates, type GateResult } from './gates.js';
import { lockIsUnsafe, lockPath, readLastConsolidatedAt } from './lock.js';
import { consolidationBound, type Settings } from './settings.js';

export interface MemdirRef {
  dir: string;
  repoRoot: string | null;
}

/**
 * Why this memdir must be left alone, or null: the memdir, its archive folder or its lock is
 * reached through a symlink, or lies outside the repository (src/fs/inside.ts). Asked before
 * anything of the memdir is read, in every mode.
 */
export function refusalFor(m: MemdirRef, settings: Settings): string | null {
  const bound = consolidationBound(m.dir, m.repoRoot);
  for (const p of [m.dir, join(m.dir, INDEX_FILE), lockPath(m.dir), settings.archiveDir]) {
    const c = checkInsideRepo(bound, p);
    if (!c.ok) return `${c.reason}; not consolidated`;
  }
  if (lockIsUnsafe(m.dir)) return `${lockPath(m.dir)} is not a regular file; not consolidated`;
  return null;
}

export function gatesFor(m: MemdirRef, settings: Settings, now: number, env: NodeJS.ProcessEnv): GateResult {
  const last = readLastConsolidatedAt(m.dir);
  const spec = m.repoRoot ? withSlashes(relative(m.repoRoot, m.dir)) || '.' : '.';
  return checkGates(last, now, settings, (since) => (m.repoRoot ? countCommitsSince({ cwd: m.repoRoot, env }, since, [spec]) : Number.MAX_SAFE_INTEGER));
}
