// What a name resolves to: a commit and the ref it stands for (`resolveRef`), which names are
// commits, merge bases, a commit's tree, and the branch questions (HEAD's branch, its upstream,
// the remote's default branch). Every function takes the folder it works in and the environment
// git runs with (a GitContext).
import { configValueAsync } from './config.js';
import { gitAsync, gitSync, orNull, type GitResult } from './run.js';
import type { GitContext } from './repo.js';

export interface Resolved {
  commit: string;
  /** The full ref the name stands for (refs/heads/main), or null for a commit id or a detached HEAD. */
  fullRef: string | null;
}

// A name never starts with '-' (rev-parse would read an option); --symbolic-full-name takes no
// --end-of-options, so such a name is refused before git runs.
const resolveArgs = (name: string) => ['rev-parse', `${name}^{commit}`, '--symbolic-full-name', name, '--'];

function parseResolved(r: GitResult): Resolved | null {
  if (r.code !== 0) return null;
  const [commit, full] = r.stdout.toString('utf8').split('\n');
  return commit?.trim() ? { commit: commit.trim(), fullRef: full?.startsWith('refs/') ? full.trim() : null } : null;
}

/** The commit a name (HEAD, MERGE_HEAD, a branch, a tag, an id) resolves to and the ref it stands for; null when it names no commit. */
export function resolveRef(at: GitContext, name: string): Resolved | null {
  if (name.startsWith('-')) return null;
  return orNull(() => parseResolved(gitSync(resolveArgs(name), { cwd: at.cwd, env: at.env, okCodes: [0, 128] })));
}

/** resolveRef, without blocking: update-branch and diff resolve names beside other git calls. */
export async function resolveRefAsync(at: GitContext, name: string): Promise<Resolved | null> {
  if (name.startsWith('-')) return null;
  return gitAsync(resolveArgs(name), { cwd: at.cwd, env: at.env, okCodes: [0, 128] }).then(parseResolved, () => null);
}

/** The commit each of these object names resolves to (a tag is peeled); names that resolve to none are absent. One `git cat-file --batch-check`. */
export function commitIds(at: GitContext, names: string[]): Map<string, string> {
  const found = new Map<string, string>();
  const unique = [...new Set(names)].filter((n) => !/[\r\n]/.test(n));
  if (unique.length === 0) return found;
  const { stdout } = gitSync(['cat-file', '--batch-check=%(objecttype) %(objectname)'], { cwd: at.cwd, env: at.env, input: unique.map((n) => `${n}^{commit}`).join('\n') + '\n' });
  const lines = stdout.toString('utf8').split('\n');
  unique.forEach((n, i) => {
    const [type, id] = lines[i]!.split(' ');
    if (type === 'commit' && id) found.set(n, id);
  });
  return found;
}

const mergeBaseArgs = (a: string, b: string) => ['merge-base', '--all', a, b];
const parseMergeBases = (r: GitResult) => r.stdout.toString('utf8').split('\n').filter(Boolean);

/** All merge bases of two commits, the best first (`git merge-base` alone names that one); none for unrelated histories. */
export function mergeBases(at: GitContext, a: string, b: string): string[] {
  return parseMergeBases(gitSync(mergeBaseArgs(a, b), { cwd: at.cwd, env: at.env, okCodes: [0, 1] }));
}

/** mergeBases, without blocking. */
export async function mergeBasesAsync(at: GitContext, a: string, b: string): Promise<string[]> {
  return parseMergeBases(await gitAsync(mergeBaseArgs(a, b), { cwd: at.cwd, env: at.env, okCodes: [0, 1] }));
}

/** Whether the repository is a shallow clone (`git rev-parse --is-shallow-repository`): its history stops at a boundary. */
export async function isShallowAsync(at: GitContext): Promise<boolean> {
  const r = await gitAsync(['rev-parse', '--is-shallow-repository'], { cwd: at.cwd, env: at.env, okCodes: 'any' });
  return r.code === 0 && r.stdout.toString('utf8').trim() === 'true';
}

/** The tree a commit, or the index (null), holds: `git write-tree` for the index. */
export async function treeOf(at: GitContext, commit: string | null): Promise<string> {
  const r = await gitAsync(commit === null ? ['write-tree'] : ['rev-parse', '--verify', '--end-of-options', `${commit}^{tree}`], at);
  return r.stdout.toString('utf8').trim();
}

/** The branch HEAD is on (short name), or null when HEAD is detached. */
export async function currentBranch(at: GitContext): Promise<string | null> {
  const r = await gitAsync(['symbolic-ref', '-q', '--short', 'HEAD'], { cwd: at.cwd, env: at.env, okCodes: [0, 1] });
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

export interface Upstream {
  /** The remote's name (or URL), from branch.<name>.remote. */
  remote: string;
  /** The branch on the remote, e.g. refs/heads/feature (branch.<name>.merge). */
  ref: string;
}

/** A branch's upstream, or null when it has none. */
export async function upstreamOf(at: GitContext, branch: string): Promise<Upstream | null> {
  const [remote, ref] = await Promise.all([configValueAsync(at, `branch.${branch}.remote`), configValueAsync(at, `branch.${branch}.merge`)]);
  return remote && ref ? { remote, ref } : null;
}

/** The full name of a branch's upstream (refs/remotes/origin/main, or refs/heads/x for a local one), or null. */
export async function upstreamRef(at: GitContext, branch: string): Promise<string | null> {
  // A branch name never starts with '-'; rev-parse takes no --end-of-options with --symbolic-full-name.
  const r = await gitAsync(['rev-parse', '--symbolic-full-name', `${branch}@{upstream}`], { cwd: at.cwd, env: at.env, okCodes: [0, 128] });
  const ref = r.code === 0 ? r.stdout.toString('utf8').trim() : '';
  return ref.startsWith('refs/') ? ref : null;
}

/** The remote whose default branch update-branch and diff measure against: the upstream's, else origin. */
export async function defaultRemote(at: GitContext): Promise<string> {
  const branch = await currentBranch(at);
  const up = branch ? await upstreamOf(at, branch) : null;
  return up && up.remote !== '.' && !up.remote.includes('/') ? up.remote : 'origin';
}

/**
 * `<remote>/HEAD` as a short name (e.g. origin/main). When git has not recorded it (a clone of an
 * empty remote, made before the first push), the one of `<remote>/main` and `<remote>/master`
 * that exists; null when neither or both do.
 */
export async function remoteDefaultBranch(at: GitContext, remote: string): Promise<string | null> {
  const r = await gitAsync(['symbolic-ref', '-q', '--short', `refs/remotes/${remote}/HEAD`], { cwd: at.cwd, env: at.env, okCodes: [0, 1, 128] });
  if (r.code === 0) return r.stdout.toString('utf8').trim();
  const known = await gitAsync(['for-each-ref', '--format=%(refname:short)', `refs/remotes/${remote}/main`, `refs/remotes/${remote}/master`], { cwd: at.cwd, env: at.env, okCodes: [0, 128] });
  const names = known.code === 0 ? known.stdout.toString('utf8').split('\n').filter(Boolean) : [];
  return names.length === 1 ? names[0]! : null;
}
