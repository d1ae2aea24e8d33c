// Branch-level git for `memlint update-branch` and `memlint diff`: the state of a worktree
// (an operation in progress, uncommitted changes), upstreams and default branches, a merge that
// can be taken back, the merge commit, and a push that is never forced. Every function takes the
// directory it works in.
import { existsSync } from 'node:fs';
import { git, gitRaw } from './index.js';

/** Config for one git command only (`git -c key=value ...`). */
export type GitConfig = Array<[key: string, value: string]>;

const withConfig = (config: GitConfig, args: string[]) => [...config.flatMap(([k, v]) => ['-c', `${k}=${v}`]), ...args];

// Hooks never run inside update-branch's own git commands: a merge commit of two reviewed states
// is not memlint's to lint twice, a pre-push consolidation would refuse the push, and in CI a
// hook comes from the branch being merged.
const NO_HOOKS: GitConfig = [['core.hooksPath', '/dev/null']];

/** The commit a name resolves to, or null. */
export function resolveCommit(root: string, name: string): string | null {
  const r = gitRaw(['rev-parse', '--verify', '-q', '--end-of-options', `${name}^{commit}`], { cwd: root, okCodes: [0, 1, 128] });
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

/** The operation a worktree is in the middle of (merge, rebase, cherry-pick, revert), or null. */
export function operationInProgress(root: string): string | null {
  const names = ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'rebase-merge', 'rebase-apply'];
  const paths = git(['rev-parse', '--path-format=absolute', ...names.flatMap((n) => ['--git-path', n])], { cwd: root }).trim().split('\n');
  const labels = ['a merge', 'a cherry-pick', 'a revert', 'a rebase', 'a rebase'];
  for (let i = 0; i < names.length; i++) if (paths[i] && existsSync(paths[i])) return labels[i]!;
  return null;
}

/** Tracked paths with staged or unstaged changes, and unmerged paths (untracked files are not counted). */
export function uncommittedTracked(root: string): string[] {
  const out = git(['--no-optional-locks', 'status', '--porcelain=v1', '-z', '--untracked-files=no', '--no-renames'], { cwd: root });
  return out.split('\0').filter((e) => e.length > 3).map((e) => e.slice(3));
}

/** The branch HEAD is on (short name), or null when HEAD is detached. */
export function currentBranch(root: string): string | null {
  const r = gitRaw(['symbolic-ref', '-q', '--short', 'HEAD'], { cwd: root, okCodes: [0, 1] });
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

export interface Upstream {
  /** The remote's name (or URL), from branch.<name>.remote. */
  remote: string;
  /** The branch on the remote, e.g. refs/heads/feature (branch.<name>.merge). */
  ref: string;
}

function configValue(root: string, key: string): string | null {
  const r = gitRaw(['config', '--get', key], { cwd: root, okCodes: [0, 1] });
  return r.code === 0 ? r.stdout.toString('utf8').replace(/\n$/, '') : null;
}

/** A branch's upstream, or null when it has none. */
export function upstreamOf(root: string, branch: string): Upstream | null {
  const remote = configValue(root, `branch.${branch}.remote`);
  const ref = configValue(root, `branch.${branch}.merge`);
  return remote && ref ? { remote, ref } : null;
}

/** The remote whose default branch update-branch and diff measure against: the upstream's, else origin. */
export function defaultRemote(root: string): string {
  const branch = currentBranch(root);
  const up = branch ? upstreamOf(root, branch) : null;
  return up && up.remote !== '.' && !up.remote.includes('/') ? up.remote : 'origin';
}

/** `<remote>/HEAD` as a short name (e.g. origin/main), or null when git has not recorded it. */
export function remoteDefaultBranch(root: string, remote: string): string | null {
  const r = gitRaw(['symbolic-ref', '-q', '--short', `refs/remotes/${remote}/HEAD`], { cwd: root, okCodes: [0, 1, 128] });
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

export function isAncestor(root: string, ancestor: string, of: string): boolean {
  return gitRaw(['merge-base', '--is-ancestor', ancestor, of], { cwd: root, okCodes: [0, 1] }).code === 0;
}

/** All merge bases of two commits (none for unrelated histories). */
export function mergeBases(root: string, a: string, b: string): string[] {
  const r = gitRaw(['merge-base', '--all', a, b], { cwd: root, okCodes: [0, 1] });
  return r.stdout.toString('utf8').split('\n').filter(Boolean);
}

export interface ChangedPath {
  /** A, M, D, T, or R (renamed) / C (copied) with the old path in `from`. */
  status: string;
  path: string;
  from?: string;
  /** Similarity for renames and copies (0-100). */
  score?: number;
}

/** What changed between two commits (`git diff --name-status`), optionally with rename detection, under pathspecs. */
export function changedPaths(root: string, from: string, to: string, opts: { renames?: boolean; pathspec?: string[] } = {}): ChangedPath[] {
  const args = ['diff', '--name-status', '-z', '--no-ext-diff', '--no-textconv', opts.renames ? '-M' : '--no-renames', from, to];
  if (opts.pathspec?.length) args.push('--', ...opts.pathspec);
  const parts = git(args, { cwd: root }).split('\0');
  const out: ChangedPath[] = [];
  for (let i = 0; i + 1 < parts.length; ) {
    const status = parts[i++]!;
    if (status === '') break;
    if (status.startsWith('R') || status.startsWith('C')) {
      out.push({ status: status[0]!, from: parts[i++]!, path: parts[i++]!, score: Number(status.slice(1)) || 0 });
    } else out.push({ status, path: parts[i++]! });
  }
  return out;
}

/** Every file of a commit's tree, repository-relative. */
export function treeFiles(root: string, commit: string): string[] {
  return git(['ls-tree', '-r', '-z', '--name-only', '--full-tree', commit], { cwd: root }).split('\0').filter(Boolean);
}

/** The value of the `merge` attribute for each path (unset paths absent), in one call. */
export function mergeAttributes(root: string, paths: string[]): Map<string, string> {
  const found = new Map<string, string>();
  if (paths.length === 0) return found;
  const out = gitRaw(['check-attr', '-z', '--stdin', 'merge'], { cwd: root, input: paths.join('\0') + '\0' }).stdout.toString('utf8').split('\0');
  for (let i = 0; i + 2 < out.length; i += 3) {
    const value = out[i + 2]!;
    if (value !== 'unspecified' && value !== 'unset') found.set(out[i]!, value);
  }
  return found;
}

export interface MergeStart {
  /** git's exit code. */
  code: number;
  /** Whether git left a merge in progress (MERGE_HEAD): conflicts to settle, or a clean merge not yet committed. */
  inProgress: boolean;
  stderr: string;
  stdout: string;
}

/** `git merge --no-ff --no-commit REF` with extra config for this command (the driver). Never commits. */
export function startMerge(root: string, ref: string, config: GitConfig): MergeStart {
  const args = withConfig([...NO_HOOKS, ...config], ['merge', '--no-ff', '--no-commit', '--no-edit', '--no-autostash', '--no-stat', '--end-of-options', ref]);
  const r = gitRaw(args, { cwd: root, okCodes: Array.from({ length: 256 }, (_, i) => i), env: { ...process.env, GIT_MERGE_AUTOEDIT: 'no', LC_ALL: 'C' } });
  return { code: r.code, inProgress: operationInProgress(root) === 'a merge', stderr: r.stderr, stdout: r.stdout.toString('utf8') };
}

/** Take back a merge in progress: index and working tree as HEAD has them (`git merge --abort`). */
export function abortMerge(root: string): void {
  git(['merge', '--abort'], { cwd: root });
}

/** The full ref a name stands for (refs/heads/x, refs/remotes/origin/x, ...), or null for a commit id or an ambiguous name. */
export function fullRefName(root: string, name: string): string | null {
  if (name.startsWith('-')) return null;
  const r = gitRaw(['rev-parse', '--symbolic-full-name', name], { cwd: root, okCodes: [0, 1, 128] });
  const out = r.stdout.toString('utf8').trim();
  return r.code === 0 && out.startsWith('refs/') ? out : null;
}

/** Commit the merge in progress with this message (hooks off); the new commit's id. */
export function commitMerge(root: string, message: string): string {
  git(withConfig(NO_HOOKS, ['commit', '-q', '--no-edit', '--cleanup=verbatim', '-F', '-']), { cwd: root, input: message });
  return git(['rev-parse', 'HEAD'], { cwd: root }).trim();
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
export function pushCommit(root: string, remote: string, commit: string, ref: string): PushOutcome {
  const args = withConfig(NO_HOOKS, ['push', '--porcelain', '--no-verify', remote, `${commit}:${ref}`]);
  const r = gitRaw(args, { cwd: root, okCodes: Array.from({ length: 256 }, (_, i) => i), env: { ...process.env, LC_ALL: 'C' } });
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
