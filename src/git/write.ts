// What memlint changes in a repository through git: it stages, commits and restores a memdir's
// files (consolidation), refreshes the index's stat data (touch), and for update-branch merges,
// fast-forwards, commits a merge and pushes, never forced. Every function takes the folder it
// works in and the environment git runs with (a GitContext).
import { existsSync } from 'node:fs';
import { resolveRef, resolveRefAsync } from './refs.js';
import { argumentGroups, git, gitAsync, gitSync, orNull } from './run.js';
import type { GitContext } from './repo.js';

const text = async (at: GitContext, args: string[], opts: { input?: string; set?: NodeJS.ProcessEnv } = {}) => (await gitAsync(args, { cwd: at.cwd, env: at.env, ...opts })).stdout.toString('utf8');

/** Stage paths (`git add`), relative to root: one `git add` per command line of paths. */
export function addPaths(at: GitContext, paths: string[]): void {
  for (const group of argumentGroups(paths)) git(['add', '--', ...group], at);
}

/** Files that live in a memdir but are never committed (the lock, snapshot state), as pathspecs that leave them out. */
export const LOCAL_STATE = [':(exclude,glob)**/.consolidate-lock', ':(exclude,glob)**/.snapshot-synced.json'];

/** Stage these paths (additions, changes and removals; never the lock) and commit only them. Returns the new commit id. */
export function commitPaths(at: GitContext, message: string, pathspec: string[]): string {
  git(['add', '-A', '--', ...pathspec, ...LOCAL_STATE], at);
  // No hook runs for it: the pre-commit lint is memlint's own, and a post-commit hook would see a
  // memory-changing commit and start memlint again.
  git(['-c', 'core.hooksPath=/dev/null', 'commit', '--no-verify', '-q', '-m', message, '--', ...pathspec, ...LOCAL_STATE], at);
  return resolveRef(at, 'HEAD')!.commit;
}

/** Put these paths back as HEAD has them (index and worktree), removing untracked files under them. */
export function restorePaths(at: GitContext, pathspec: string[]): void {
  gitSync(['restore', '--source=HEAD', '--staged', '--worktree', '--', ...pathspec, ...LOCAL_STATE], { cwd: at.cwd, env: at.env, okCodes: [0, 1] });
  gitSync(['clean', '-fdq', '--', ...pathspec, ...LOCAL_STATE], { cwd: at.cwd, env: at.env, okCodes: [0, 1] });
}

/**
 * Refresh the index's cached stat data (`git update-index -q --refresh`) after memlint changed
 * mtimes, so git does not take those files for modified. Returns false when git could not (the
 * index is locked by another git process): nothing is changed then.
 */
export function refreshGitIndex(at: GitContext): boolean {
  // 1: some entries need an update (content really changed): the rest was still refreshed.
  return orNull(() => gitSync(['update-index', '-q', '--refresh'], { cwd: at.cwd, env: at.env, okCodes: [0, 1] })) !== null;
}

/** Config for one git command only (`git -c key=value ...`). */
export type GitConfig = Array<[key: string, value: string]>;

const withConfig = (config: GitConfig, args: string[]) => [...config.flatMap(([k, v]) => ['-c', `${k}=${v}`]), ...args];

// Hooks never run inside update-branch's git commands (nor any other memlint runs: src/git/run.ts):
// a merge commit of two reviewed states is not memlint's to lint twice, a pre-push consolidation
// would refuse the push, and in CI a hook comes from the branch being merged.

export interface MergeStart {
  /** git's exit code. */
  code: number;
  /** Whether git left a merge in progress (MERGE_HEAD): conflicts to settle, or a clean merge not yet committed. */
  inProgress: boolean;
  stderr: string;
  stdout: string;
}

/** `git merge --no-ff --no-commit REF` with extra config for this command (the driver). Never commits. */
export async function startMerge(at: GitContext, ref: string, config: GitConfig, mergeHeadPath: string): Promise<MergeStart> {
  const args = withConfig(config, ['merge', '--no-ff', '--no-commit', '--no-edit', '--no-autostash', '--no-stat', '--end-of-options', ref]);
  const r = await gitAsync(args, { cwd: at.cwd, env: at.env, okCodes: 'any', set: { GIT_MERGE_AUTOEDIT: 'no', LC_ALL: 'C' } });
  return { code: r.code, inProgress: existsSync(mergeHeadPath), stderr: r.stderr, stdout: r.stdout.toString('utf8') };
}

/** Move the branch forward to a commit that contains HEAD (`git merge --ff-only`): no merge commit. */
export async function fastForward(at: GitContext, commit: string): Promise<void> {
  await text(at, ['merge', '--ff-only', '--no-stat', '--end-of-options', commit], { set: { LC_ALL: 'C' } });
}

/** Take back a merge in progress: index and working tree as HEAD has them (`git merge --abort`). */
export async function abortMerge(at: GitContext): Promise<void> {
  await text(at, ['merge', '--abort']);
}

/** Commit the merge in progress with this message (hooks off); the new commit's id. */
export async function commitMerge(at: GitContext, message: string): Promise<string> {
  // No automatic maintenance either: update-branch is one merge commit, not the time for a repack.
  // Its summary line names the full commit id ("[branch <id>] subject" with core.abbrev=no): no second call.
  const said = await text(at, withConfig([['maintenance.auto', 'false'], ['gc.auto', '0'], ['core.abbrev', 'no']], ['commit', '--no-edit', '--no-status', '--cleanup=verbatim', '-F', '-']), {
    input: message,
    set: { LC_ALL: 'C' },
  });
  const id = /^\[[^\n]*? ([0-9a-f]{40}|[0-9a-f]{64})\]/.exec(said)?.[1];
  return id ?? (await resolveRefAsync(at, 'HEAD'))!.commit;
}

export type PushOutcome =
  | { status: 'pushed' | 'up-to-date'; summary: string }
  | { status: 'rejected'; reason: string }
  | { status: 'failed'; reason: string };

/**
 * Push a commit to a branch of a remote, never forced (no `+`, no --force), hooks off. A
 * rejection because the remote branch moved (non-fast-forward, fetch first, stale info) is
 * `rejected`; anything else that stops it (the remote refused, no access, no network) is `failed`.
 */
export async function pushCommit(at: GitContext, remote: string, commit: string, ref: string): Promise<PushOutcome> {
  const args = ['push', '--porcelain', '--no-verify', remote, `${commit}:${ref}`];
  const r = await gitAsync(args, { cwd: at.cwd, env: at.env, okCodes: 'any', set: { LC_ALL: 'C' } });
  const stdout = r.stdout.toString('utf8');
  const line = stdout.split('\n').find((l) => /^[ +\-*!=]\t/.test(l));
  if (r.code === 0 && line) return { status: line.startsWith('=') ? 'up-to-date' : 'pushed', summary: line.split('\t')[2] ?? '' };
  if (line?.startsWith('!')) {
    const reason = line.split('\t')[2] ?? 'rejected';
    if (/^\[rejected\]/.test(reason) && /fetch first|non-fast-forward|stale info/.test(reason)) return { status: 'rejected', reason };
    return { status: 'failed', reason };
  }
  const err = r.stderr.trim().split('\n').find((l) => /fatal|error/.test(l)) ?? r.stderr.trim().split('\n')[0] ?? `exit ${r.code}`;
  return { status: 'failed', reason: err.replace(/^(fatal|error): /, '') };
}
