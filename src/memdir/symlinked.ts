// Memory folders memlint leaves alone because they are symlinks out of the repository (contract
// §9: reported, nothing read through them). Kept light: the launcher's --staged path uses it.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { isWithin, realOrResolved } from '../fs/paths.js';

// Where Claude Code itself keeps memory inside a repository: always a memdir, even when empty.
// A repository that backs up `~/.claude` holds Claude Code's own stores as `projects/<slug>/memory/`.
const CLAUDE_LOCATION_RE = /(?:^|\/)\.claude\/(?:memory|agent-memory\/[^/]+|agent-memory-local\/[^/]+|agent-memory-snapshots\/[^/]+)$|(?:^|\/)projects\/[^/]+\/memory$/;

export function isClaudeLocation(relDir: string): boolean {
  return CLAUDE_LOCATION_RE.test(relDir);
}

/** Where memory would be but for a symlink: a Claude location (not a local-scope one), or a `.claude` folder above one. */
export function watchedForSymlink(rel: string): boolean {
  if (rel.split('/').includes('node_modules') || /(?:^|\/)\.claude\/agent-memory-local\//.test(rel)) return false;
  return isClaudeLocation(rel) || /(?:^|\/)\.claude$/.test(rel);
}

export function symlinkedMemdirMessage(rel: string): string {
  return `${rel} is a symlink out of the repository; memlint does not follow it (a memory folder there is not linted, fixed or consolidated: put the folder itself in its place)`;
}

/** A memory folder left alone because it is a symlink out of the repository (src/memdir/discover.ts). */
export class SymlinkedMemdirError extends UsageError {
  constructor(readonly rel: string) {
    super(symlinkedMemdirMessage(rel));
  }
}

/**
 * Whether the path (relative to root) exists and its real path lies outside root: a symlink on the
 * way leads out (only the links are resolved: nothing is read through them).
 */
export function symlinkOut(root: string, rel: string): boolean {
  const abs = join(root, rel);
  try {
    lstatSync(abs);
  } catch {
    return false;
  }
  // Inside the repository with no symlink on the way, the real path stays inside.
  return !isWithin(realOrResolved(abs), realOrResolved(root));
}
