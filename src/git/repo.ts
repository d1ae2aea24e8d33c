// Where is the repository: the top of a folder's working tree, its git dir and common dir
// (`repository`), the environment git must run in to answer that as git means it (`gitEnv`), and
// the repository's worktrees. Small and on its own: the launcher (dist/cli.js) asks it on git's
// pre-push and on --staged before the program loads.
import { parseConfigGet } from './parse.js';
import { gitAsync, gitSync, orNull, type GitResult } from './run.js';

/**
 * Where a git question is asked: the folder git runs in and the whole environment it runs with,
 * both a command's (its `Io`'s `cwd` and `env`, or the folder it works on in that environment),
 * never read from the process. Every question in src/git takes one first.
 */
export interface GitContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The environment git runs in for memlint, from the one memlint was given. git exports GIT_DIR to
 * the hooks it runs in a linked worktree; with GIT_DIR set and no work tree named, git takes the
 * folder it runs in for the top of the working tree, and memlint asks git from memory folders too.
 * So the work tree is named as git meant it, the folder memlint started in (where git runs hooks),
 * unless core.worktree names one. Otherwise the environment as it is; so too for git run in `dir`
 * when that is the folder memlint started in, where git's own reading is the one meant.
 */
export function gitEnv(from: GitContext, dir?: string): NodeJS.ProcessEnv {
  const { env } = from;
  if (!env.GIT_DIR || env.GIT_WORK_TREE || dir === from.cwd) return env;
  const worktree = orNull(() => parseConfigGet(gitSync(['config', '--get', 'core.worktree'], { cwd: from.cwd, env, okCodes: 'any' })));
  return worktree === null ? { ...env, GIT_WORK_TREE: from.cwd } : env;
}

export interface Repository {
  /** The top of the working tree. */
  root: string;
  /** This worktree's git dir (`.git`, or `.git/worktrees/<name>` for a linked worktree). */
  gitDir: string;
  /** The git dir the worktrees share (`.git`). */
  commonDir: string;
  isLinkedWorktree: boolean;
}

const WHERE = ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir', '--git-common-dir'];

function parseWhere(r: GitResult): Repository | null {
  const [root, gitDir, commonDir] = r.stdout.toString('utf8').trim().split('\n');
  if (!root || !gitDir || !commonDir) return null;
  return { root, gitDir, commonDir, isLinkedWorktree: gitDir !== commonDir };
}

/**
 * The repository holding dir (absolute paths; the folder memlint runs in when not given), or null
 * outside a working tree. `from`: where memlint runs and its environment (the command's), for
 * git's hook environment (gitEnv).
 */
export function repository(from: GitContext, dir = from.cwd): Repository | null {
  return orNull(() => parseWhere(gitSync(WHERE, { cwd: dir, env: gitEnv(from, dir) })));
}

/** repository, without blocking: the launcher asks it while other git calls run. */
export function repositoryAsync(from: GitContext, dir = from.cwd): Promise<Repository | null> {
  return gitAsync(WHERE, { cwd: dir, env: gitEnv(from, dir) }).then(parseWhere, () => null);
}

/** Every worktree of the repository holding dir (`git worktree list --porcelain`): the main one first. */
export function worktreeList(from: GitContext, dir = from.cwd): Array<{ path: string; bare: boolean; prunable: boolean }> {
  const r = gitSync(['worktree', 'list', '--porcelain', '-z'], { cwd: dir, env: gitEnv(from, dir), okCodes: [0, 128, 129] });
  if (r.code !== 0) return [];
  const out: Array<{ path: string; bare: boolean; prunable: boolean }> = [];
  for (const field of r.stdout.toString('utf8').split('\0')) {
    if (field.startsWith('worktree ')) out.push({ path: field.slice('worktree '.length), bare: false, prunable: false });
    else if (field === 'bare' && out.length) out[out.length - 1]!.bare = true;
    else if (field.startsWith('prunable') && out.length) out[out.length - 1]!.prunable = true;
  }
  return out;
}
