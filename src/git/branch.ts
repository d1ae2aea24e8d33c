// Branch-level git for `memlint update-branch` and `memlint diff`: the state of a worktree
// (an operation in progress, uncommitted changes), upstreams and default branches, a merge that
// can be taken back, the merge commit, and a push that is never forced. Every function takes the
// directory it works in.
import { existsSync } from 'node:fs';
import './hook-env.js';
import { configValueAsync } from './config.js';
import { parseCheckAttr, parseStatusPaths } from './parse.js';
import { gitAsync, type GitOptions } from './run.js';

const text = async (args: string[], opts: GitOptions) => (await gitAsync(args, opts)).stdout.toString('utf8');

/** Config for one git command only (`git -c key=value ...`). */
export type GitConfig = Array<[key: string, value: string]>;

const withConfig = (config: GitConfig, args: string[]) => [...config.flatMap(([k, v]) => ['-c', `${k}=${v}`]), ...args];

// Hooks never run inside update-branch's git commands (nor any other memlint runs: src/git/run.ts):
// a merge commit of two reviewed states is not memlint's to lint twice, a pre-push consolidation
// would refuse the push, and in CI a hook comes from the branch being merged.

/** The commit a name resolves to, or null. */
export async function resolveCommit(root: string, name: string): Promise<string | null> {
  const r = await gitAsync(['rev-parse', '--verify', '-q', '--end-of-options', `${name}^{commit}`], { cwd: root, okCodes: [0, 1, 128] });
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

const OPERATIONS: Array<[file: string, label: string]> = [
  ['MERGE_HEAD', 'a merge'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick'],
  ['REVERT_HEAD', 'a revert'],
  ['rebase-merge', 'a rebase'],
  ['rebase-apply', 'a rebase'],
];

export interface WorktreeState {
  /** The top of the working tree. */
  root: string;
  /** The operation in progress (merge, rebase, cherry-pick, revert), or null. */
  operation: string | null;
  /** HEAD's commit, or null before the first commit. */
  head: string | null;
  /** The branch HEAD is on (short name), or null when detached. */
  branch: string | null;
  /** Absolute path of MERGE_HEAD: whether a merge is in progress can be read from disk later. */
  mergeHeadPath: string;
}

/** The worktree holding dir, the operation in progress, HEAD and its branch, in one git call; null outside a repository. */
export async function worktreeState(dir: string): Promise<WorktreeState | null> {
  const r = await gitAsync(['rev-parse', '--path-format=absolute', '--show-toplevel', ...OPERATIONS.flatMap(([f]) => ['--git-path', f]), 'HEAD', '--symbolic-full-name', 'HEAD'], { cwd: dir, okCodes: [0, 128] });
  const lines = r.stdout.toString('utf8').split('\n');
  const [root, ...paths] = lines.slice(0, OPERATIONS.length + 1);
  if (!root || paths.length < OPERATIONS.length || paths.some((p) => p === '')) return null;
  const operation = OPERATIONS.find((_, i) => existsSync(paths[i]!))?.[1] ?? null;
  const head = r.code === 0 ? lines[OPERATIONS.length + 1]!.trim() : null;
  const ref = r.code === 0 ? lines[OPERATIONS.length + 2]!.trim() : '';
  return { root, operation, head, branch: ref.startsWith('refs/heads/') ? ref.slice(11) : null, mergeHeadPath: paths[0]! };
}

/** The operation a worktree is in the middle of (merge, rebase, cherry-pick, revert), or null. */
export async function operationInProgress(root: string): Promise<string | null> {
  return (await worktreeState(root))?.operation ?? null;
}

/** A name's commit and the full ref it stands for (null for a commit id), in one call; null when it names no commit. */
export async function resolveRef(root: string, name: string): Promise<{ commit: string; fullRef: string | null } | null> {
  if (name.startsWith('-')) return null;
  const r = await gitAsync(['rev-parse', `${name}^{commit}`, '--symbolic-full-name', name, '--'], { cwd: root, okCodes: [0, 128] });
  if (r.code !== 0) return null;
  const [commit, full] = r.stdout.toString('utf8').split('\n');
  return { commit: commit!.trim(), fullRef: full?.startsWith('refs/') ? full.trim() : null };
}

/** Tracked paths with staged or unstaged changes, and unmerged paths (untracked files are not counted). */
export async function uncommittedTracked(root: string): Promise<string[]> {
  const out = await text(['--no-optional-locks', 'status', '--porcelain=v1', '-z', '--untracked-files=no', '--no-renames'], { cwd: root });
  return parseStatusPaths(out);
}

/** The branch HEAD is on (short name), or null when HEAD is detached. */
export async function currentBranch(root: string): Promise<string | null> {
  const r = await gitAsync(['symbolic-ref', '-q', '--short', 'HEAD'], { cwd: root, okCodes: [0, 1] });
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

export interface Upstream {
  /** The remote's name (or URL), from branch.<name>.remote. */
  remote: string;
  /** The branch on the remote, e.g. refs/heads/feature (branch.<name>.merge). */
  ref: string;
}

/** A branch's upstream, or null when it has none. */
export async function upstreamOf(root: string, branch: string): Promise<Upstream | null> {
  const [remote, ref] = await Promise.all([configValueAsync(root, `branch.${branch}.remote`), configValueAsync(root, `branch.${branch}.merge`)]);
  return remote && ref ? { remote, ref } : null;
}

/** The full name of a branch's upstream (refs/remotes/origin/main, or refs/heads/x for a local one), or null. */
export async function upstreamRef(root: string, branch: string): Promise<string | null> {
  // A branch name never starts with '-'; rev-parse takes no --end-of-options with --symbolic-full-name.
  const r = await gitAsync(['rev-parse', '--symbolic-full-name', `${branch}@{upstream}`], { cwd: root, okCodes: [0, 128] });
  const ref = r.code === 0 ? r.stdout.toString('utf8').trim() : '';
  return ref.startsWith('refs/') ? ref : null;
}

/** The tree a commit, or the index (null), holds: `git write-tree` for the index. */
export async function treeOf(root: string, commit: string | null): Promise<string> {
  return (await text(commit === null ? ['write-tree'] : ['rev-parse', '--verify', '--end-of-options', `${commit}^{tree}`], { cwd: root })).trim();
}

/** The remote whose default branch update-branch and diff measure against: the upstream's, else origin. */
export async function defaultRemote(root: string): Promise<string> {
  const branch = await currentBranch(root);
  const up = branch ? await upstreamOf(root, branch) : null;
  return up && up.remote !== '.' && !up.remote.includes('/') ? up.remote : 'origin';
}

/** `<remote>/HEAD` as a short name (e.g. origin/main), or null when git has not recorded it. */
export async function remoteDefaultBranch(root: string, remote: string): Promise<string | null> {
  const r = await gitAsync(['symbolic-ref', '-q', '--short', `refs/remotes/${remote}/HEAD`], { cwd: root, okCodes: [0, 1, 128] });
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

/** All merge bases of two commits (none for unrelated histories). */
export async function mergeBases(root: string, a: string, b: string): Promise<string[]> {
  const r = await gitAsync(['merge-base', '--all', a, b], { cwd: root, okCodes: [0, 1] });
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
export async function changedPaths(root: string, from: string, to: string, opts: { renames?: boolean; pathspec?: string[] } = {}): Promise<ChangedPath[]> {
  const args = ['diff', '--name-status', '-z', '--no-ext-diff', '--no-textconv', opts.renames ? '-M' : '--no-renames', from, to];
  if (opts.pathspec?.length) args.push('--', ...opts.pathspec);
  const parts = (await text(args, { cwd: root })).split('\0');
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

/**
 * For each (from, to) pair of commits, the paths changed between them with the blob each has at
 * `to` (null when deleted), no renames: one `git diff-tree --stdin` for all pairs.
 */
export async function changedBlobs(root: string, pairs: Array<[from: string, to: string]>): Promise<Array<Map<string, string | null>>> {
  if (pairs.length === 0) return [];
  // A line "<commit> <parent>" diffs the parent against the commit: from -> to.
  const input = pairs.map(([from, to]) => `${to} ${from}`).join('\n') + '\n';
  const parts = (await text(['diff-tree', '--stdin', '-r', '-z', '--raw', '--no-renames', '--no-abbrev', '--no-ext-diff', '--no-textconv'], { cwd: root, input })).split('\0');
  const out: Array<Map<string, string | null>> = [];
  let current: Map<string, string | null> | null = null;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!.replace(/^\n+/, '');
    if (part === '') continue;
    if (!part.startsWith(':')) {
      // A header: the commit the next records belong to (one per pair, in order).
      current = new Map();
      out.push(current);
      continue;
    }
    const meta = part.split(' ');
    const path = parts[++i]!;
    current?.set(path, /^0+$/.test(meta[3]!) ? null : meta[3]!);
  }
  // A pair with no change prints no header at all: then ask pair by pair.
  if (out.length !== pairs.length) return pairs.length === 1 ? [new Map()] : Promise.all(pairs.map(async (pair) => (await changedBlobs(root, [pair]))[0]!));
  return out;
}

/** Every file of a commit's tree, repository-relative. */
export async function treeFiles(root: string, commit: string): Promise<string[]> {
  return (await text(['ls-tree', '-r', '-z', '--name-only', '--full-tree', commit], { cwd: root })).split('\0').filter(Boolean);
}

/** The value of the `merge` attribute for each path (unset paths absent), in one call. */
export async function mergeAttributes(root: string, paths: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (paths.length === 0) return found;
  const values = parseCheckAttr(await text(['check-attr', '-z', '--stdin', 'merge'], { cwd: root, input: paths.join('\0') + '\0' }));
  for (const [path, value] of values) if (value !== 'unspecified' && value !== 'unset') found.set(path, value);
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
export async function startMerge(root: string, ref: string, config: GitConfig, mergeHeadPath: string): Promise<MergeStart> {
  const args = withConfig(config, ['merge', '--no-ff', '--no-commit', '--no-edit', '--no-autostash', '--no-stat', '--end-of-options', ref]);
  const r = await gitAsync(args, { cwd: root, okCodes: 'any', env: { ...process.env, GIT_MERGE_AUTOEDIT: 'no', LC_ALL: 'C' } });
  return { code: r.code, inProgress: existsSync(mergeHeadPath), stderr: r.stderr, stdout: r.stdout.toString('utf8') };
}

/** Move the branch forward to a commit that contains HEAD (`git merge --ff-only`): no merge commit. */
export async function fastForward(root: string, commit: string): Promise<void> {
  await text(['merge', '--ff-only', '--no-stat', '--end-of-options', commit], { cwd: root, env: { ...process.env, LC_ALL: 'C' } });
}

/** Which of these repository-relative paths the index tracks. */
export async function trackedAmong(root: string, paths: string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const out = await text(['ls-files', '-z', '--', ...paths.map((p) => `:(literal)${p}`)], { cwd: root });
  return new Set(out.split('\0').filter(Boolean));
}

/** Take back a merge in progress: index and working tree as HEAD has them (`git merge --abort`). */
export async function abortMerge(root: string): Promise<void> {
  await text(['merge', '--abort'], { cwd: root });
}

/** Commit the merge in progress with this message (hooks off); the new commit's id. */
export async function commitMerge(root: string, message: string): Promise<string> {
  // No automatic maintenance either: update-branch is one merge commit, not the time for a repack.
  // Its summary line names the full commit id ("[branch <id>] subject" with core.abbrev=no): no second call.
  const said = await text(withConfig([['maintenance.auto', 'false'], ['gc.auto', '0'], ['core.abbrev', 'no']], ['commit', '--no-edit', '--no-status', '--cleanup=verbatim', '-F', '-']), {
    cwd: root,
    input: message,
    env: { ...process.env, LC_ALL: 'C' },
  });
  const id = /^\[[^\n]*? ([0-9a-f]{40}|[0-9a-f]{64})\]/.exec(said)?.[1];
  return id ?? (await text(['rev-parse', 'HEAD'], { cwd: root })).trim();
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
export async function pushCommit(root: string, remote: string, commit: string, ref: string): Promise<PushOutcome> {
  const args = ['push', '--porcelain', '--no-verify', remote, `${commit}:${ref}`];
  const r = await gitAsync(args, { cwd: root, okCodes: 'any', env: { ...process.env, LC_ALL: 'C' } });
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
