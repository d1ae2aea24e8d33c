// What is in progress in a worktree: a merge, rebase, cherry-pick, revert or bisect, read by one
// function (`gitOperation`) from the state files git keeps in the worktree's git dir, with whether
// git still has work to do. `worktreeState` finds the git dir for a folder, with HEAD and its
// branch, in one git call, and asks it (update-branch and pre-push, before they change anything).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitEnv, type GitContext, type Repository } from './repo.js';
import { git, gitSync, orNull } from './run.js';

export interface GitOperation {
  kind: 'rebase' | 'merge' | 'cherry-pick' | 'revert' | 'bisect';
  /**
   * Whether the git process running it still has work to do with the index it holds in memory:
   * a rebase with commits left to replay, a merge, cherry-pick or revert not yet concluded. A
   * rebase whose commits are all replayed (its post-rewrite hook runs then) has none left.
   */
  pending: boolean;
}

function readState(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Whether HEAD is already the merge commit of MERGE_HEAD: git's post-merge hook runs after the
 * merge commit is made but before git removes MERGE_HEAD, so the file alone does not mean a merge
 * is still under way.
 */
function mergeCommitted(from: GitContext, gitDir: string, mergeHead: string): boolean {
  const out = orNull(() => git(['--git-dir', gitDir, 'rev-list', '--parents', '-n', '1', 'HEAD'], from));
  if (out === null) return false;
  const parents = out.trim().split(/\s+/).slice(1);
  const merged = mergeHead.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return merged.length > 0 && merged.every((id) => parents.includes(id));
}

/**
 * What git is in the middle of in a worktree, from the state files in that worktree's git dir
 * (`git rev-parse --git-dir`), or null when nothing is under way.
 */
export function gitOperation(from: GitContext, gitDir: string): GitOperation | null {
  const merge = join(gitDir, 'rebase-merge');
  if (existsSync(merge)) {
    const todo = readState(join(merge, 'git-rebase-todo')) ?? '';
    const left = todo.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#'));
    return { kind: 'rebase', pending: left };
  }
  const apply = join(gitDir, 'rebase-apply');
  if (existsSync(apply)) {
    const next = Number(readState(join(apply, 'next')));
    const last = Number(readState(join(apply, 'last')));
    return { kind: 'rebase', pending: !(Number.isInteger(next) && Number.isInteger(last) && next > last) };
  }
  const mergeHead = readState(join(gitDir, 'MERGE_HEAD'));
  if (mergeHead !== null) return { kind: 'merge', pending: !mergeCommitted(from, gitDir, mergeHead) };
  if (existsSync(join(gitDir, 'CHERRY_PICK_HEAD'))) return { kind: 'cherry-pick', pending: true };
  if (existsSync(join(gitDir, 'REVERT_HEAD'))) return { kind: 'revert', pending: true };
  const sequencer = readState(join(gitDir, 'sequencer', 'todo'));
  if (sequencer !== null) return { kind: /^\s*revert /m.test(sequencer) ? 'revert' : 'cherry-pick', pending: true };
  // Each bisect step is a checkout of its own process, which is done with the index when its
  // post-checkout hook runs.
  if (existsSync(join(gitDir, 'BISECT_LOG'))) return { kind: 'bisect', pending: false };
  return null;
}

/** The repository (where it is, as `repository` says) and the state of the worktree's HEAD. */
export interface WorktreeState extends Repository {
  /** What is in progress there (gitOperation), or null. */
  operation: GitOperation | null;
  /** HEAD's commit, or null before the first commit. */
  head: string | null;
  /** The branch HEAD is on (short name), or null when detached. */
  branch: string | null;
  /** Absolute path of MERGE_HEAD: whether a merge is in progress can be read from disk later. */
  mergeHeadPath: string;
}

/**
 * The repository holding dir, what is in progress in its worktree, HEAD and its branch, from one
 * git call; null outside a repository. `from`: where memlint runs, for git's hook environment
 * (src/git/repo.ts).
 */
export function worktreeState(from: GitContext, dir = from.cwd): WorktreeState | null {
  const env = gitEnv(from, dir);
  const r = gitSync(['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir', '--git-common-dir', 'HEAD', '--symbolic-full-name', 'HEAD'], { cwd: dir, env, okCodes: [0, 128] });
  const [root, gitDir, commonDir, head, ref] = r.stdout.toString('utf8').split('\n');
  if (!root || !gitDir || !commonDir) return null;
  const full = r.code === 0 ? (ref ?? '').trim() : '';
  return {
    root,
    gitDir,
    commonDir,
    isLinkedWorktree: gitDir !== commonDir,
    operation: gitOperation({ cwd: dir, env }, gitDir),
    head: r.code === 0 ? (head ?? '').trim() || null : null,
    branch: full.startsWith('refs/heads/') ? full.slice(11) : null,
    mergeHeadPath: join(gitDir, 'MERGE_HEAD'),
  };
}
