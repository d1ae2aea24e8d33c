// What became of paths the repository no longer holds, for no-stale-reference and `memlint diff`:
// the renames and deletions of history (one `git log`), of the change not committed yet (one
// `git diff`), and which commit ids no branch or tag reaches any more (one `git name-rev`).
// Name-status output only: no textconv, no external diff runs (contract §14).
import { git, GitError } from './run.js';

/** One rename or deletion: `from` left the tree, `to` is where a rename took it. */
export interface LossEvent {
  from: string;
  status: 'D' | 'R';
  to?: string;
  /** The commit that made it, or null for the change not committed yet. */
  commit: string | null;
  /** Its committer date, YYYY-MM-DD (commits only). */
  date?: string;
}

const NO_CONVERSION = ['--no-textconv', '--no-ext-diff'];

/** Parses `--name-status -z` records (status, path[, new path]) into events of one commit. */
function parseNameStatusZ(parts: string[], commit: string | null, date: string | undefined, out: LossEvent[]): void {
  for (let i = 0; i < parts.length; ) {
    const status = parts[i++]!.replace(/^\n+/, '');
    if (status === '') continue;
    if (status.startsWith('R') || status.startsWith('C')) {
      const from = parts[i++]!;
      const to = parts[i++]!;
      if (status.startsWith('R')) out.push({ from, status: 'R', to, commit, ...(date ? { date } : {}) });
    } else {
      const path = parts[i++]!;
      if (status === 'D') out.push({ from: path, status: 'D', commit, ...(date ? { date } : {}) });
    }
  }
}

/**
 * Renames and deletions of the commits `revs` names (default HEAD's history), newest first, with
 * rename detection. A merge commit shows none of its own (its parents' commits do). [] when git
 * cannot say (no commit yet).
 */
export function historyLosses(root: string, revs: string[] = ['HEAD']): LossEvent[] {
  let out: string;
  try {
    out = git(['log', '-M', '--diff-filter=DR', '--name-status', '-z', '--format=%x01%H %cs', ...NO_CONVERSION, ...revs, '--'], { cwd: root });
  } catch (err) {
    if (err instanceof GitError) return [];
    throw err;
  }
  const events: LossEvent[] = [];
  for (const record of out.split('\x01')) {
    if (record === '') continue;
    const parts = record.split('\0');
    const [commit, date] = parts[0]!.trim().split(' ');
    parseNameStatusZ(parts.slice(1), commit!, date, events);
  }
  return events;
}

/**
 * Renames and deletions the change not committed yet makes: the staged change against HEAD
 * (`staged`), or the working tree's tracked files against HEAD. [] without a HEAD.
 */
export function uncommittedLosses(root: string, which: 'staged' | 'worktree'): LossEvent[] {
  const args = ['diff', ...(which === 'staged' ? ['--cached'] : []), '-M', '--diff-filter=DR', '--name-status', '-z', ...NO_CONVERSION, 'HEAD', '--'];
  let out: string;
  try {
    out = git(args, { cwd: root });
  } catch (err) {
    if (err instanceof GitError) return [];
    throw err;
  }
  const events: LossEvent[] = [];
  parseNameStatusZ(out.split('\0'), null, undefined, events);
  return events;
}

/** Of these commit ids (full or abbreviated, each naming a commit), those no branch, tag or remote ref reaches. */
export function unreachableCommits(root: string, ids: string[]): Set<string> {
  const gone = new Set<string>();
  if (ids.length === 0) return gone;
  let out: string;
  try {
    out = git(['name-rev', '--name-only', ...ids.map((id) => `${id}^{commit}`)], { cwd: root });
  } catch (err) {
    if (err instanceof GitError) return gone;
    throw err;
  }
  out.split('\n').forEach((name, i) => {
    if (i < ids.length && name.trim() === 'undefined') gone.add(ids[i]!);
  });
  return gone;
}
