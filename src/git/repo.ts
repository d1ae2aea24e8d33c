// Where a folder is in git's eyes: the top of its working tree, its git dirs. Small and on its own:
// the launcher (dist/cli.js) asks it on git's pre-push before the program loads.
import { git, orNull } from './run.js';

/** The top of the working tree containing dir, or null outside a repository. */
export function repoRoot(dir: string): string | null {
  return orNull(() => git(['rev-parse', '--show-toplevel'], { cwd: dir }).trim()) || null;
}

export interface RepoInfo {
  root: string;
  gitDir: string;
  commonDir: string;
  isLinkedWorktree: boolean;
}

export function repoInfo(dir: string): RepoInfo | null {
  const out = orNull(() => git(['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir', '--git-common-dir'], { cwd: dir }));
  if (out === null) return null;
  const [root, gitDir, commonDir] = out.trim().split('\n');
  if (!root || !gitDir || !commonDir) return null;
  return { root, gitDir, commonDir, isLinkedWorktree: gitDir !== commonDir };
}
