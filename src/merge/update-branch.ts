// `memlint update-branch` (docs/merge.md, "memlint update-branch"): merge the default branch into the current branch with
// memlint's driver active for this one merge, settle what is left in memory files as `resolve`
// does, and commit; or take the merge back entirely and say what conflicts. Hosted merges (the
// merge button, merge queues, GitLab.com) never run a custom driver, so this is how a pull request
// whose only conflicts are in memory becomes mergeable there.
import { lstatSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { shellQuote } from '../shell.js';
import { changedBlobs } from '../git/history.js';
import { worktreeState } from '../git/progress.js';
import type { GitContext } from '../git/repo.js';
import { defaultRemote, isShallowAsync, mergeBasesAsync, remoteDefaultBranch, resolveRefAsync, treeOf, upstreamOf, upstreamRef, type Upstream } from '../git/refs.js';
import { attributeValuesAsync, trackedAmongAsync, uncommittedPathsAsync, unmergedPaths } from '../git/status.js';
import { abortMerge, commitMerge, fastForward, pushCommit, startMerge, type PushOutcome } from '../git/write.js';
import { DRIVER_DESCRIPTION, DRIVER_NAME, driverCommand } from './command.js';
import { isMemoryInRepo, resolveConflicts } from './resolve.js';
import { INDEX_FILE, pathKind } from '../memdir/kinds.js';

export interface UpdateBranchOptions {
  /** What to merge (default: the upstream's default branch, `<remote>/HEAD`). */
  base?: string;
  push: boolean;
  /** Shell words that start this very memlint for the driver (absolute paths, shell-quoted). */
  memlint: string;
}

export type SettledBy = 'driver' | 'resolve' | 'git';

export interface UpdateBranchReport {
  /**
   * merged: a merge commit made; fast-forward: HEAD was in REF, the branch moved to it (no commit
   * made); up-to-date: REF was in the branch, or merging it would have left the branch identical
   * to REF (no commit); conflict: taken back.
   */
  status: 'merged' | 'fast-forward' | 'up-to-date' | 'conflict';
  /** REF as given (or chosen) and the commit it named. */
  base: string;
  baseCommit: string;
  branch: string | null;
  /** HEAD before the run. */
  head: string;
  /** The merge commit made, or null. */
  commit: string | null;
  /** Memory files merged on both sides and how they were settled. */
  settled: Array<{ path: string; by: SettledBy }>;
  /** What is in conflict (status "conflict"): every file, memory or not, with why. */
  conflicts: Array<{ path: string; memory: boolean; reason: string }>;
  /** The push: not asked, or what became of it. */
  push: { remote: string; ref: string; outcome: PushOutcome } | null;
  warnings: string[];
}

/** The shell words that start the running memlint: this Node and this launcher, absolute. */
export function selfCommand(execPath: string, script: string): string {
  let launcher = script;
  try {
    launcher = realpathSync(script);
  } catch {
    // the path as given: it started this process, so it exists
  }
  return `${shellQuote(execPath)} ${shellQuote(launcher)}`;
}

/** The config that makes memlint's driver (this binary, git merge-file behind it) the one this merge runs. */
export function driverOverride(memlint: string): Array<[string, string]> {
  return [
    [`merge.${DRIVER_NAME}.name`, DRIVER_DESCRIPTION],
    [`merge.${DRIVER_NAME}.driver`, driverCommand({ memlint })],
  ];
}

/** The default REF: `<remote>/HEAD` of the upstream's remote. */
async function defaultBase(at: GitContext): Promise<string> {
  const remote = await defaultRemote(at);
  const name = await remoteDefaultBranch(at, remote);
  if (!name) throw new UsageError(`${remote}/HEAD is not set, so the default branch is unknown: pass --base ${remote}/main, or run "git remote set-head ${remote} --auto"`);
  return name;
}

/** Memory paths (index, topic, log) that both sides changed, to different content, since the merge base(s). */
/** The `merge` attribute of each path that names a driver (set to a value; not unspecified or unset). */
function mergeDrivers(values: Map<string, string>): Map<string, string> {
  return new Map([...values].filter(([, value]) => value !== 'unspecified' && value !== 'unset'));
}

async function mergedOnBothSides(at: GitContext, bases: string[], head: string, base: string): Promise<string[]> {
  const out = new Set<string>();
  const diffs = await changedBlobs(at, bases.flatMap((b): Array<[string, string]> => [[b, head], [b, base]]));
  for (let i = 0; i + 1 < diffs.length; i += 2) {
    const [ours, theirs] = [diffs[i]!, diffs[i + 1]!];
    for (const [path, blob] of theirs) if (ours.has(path) && ours.get(path) !== blob && pathKind(path) !== 'other') out.add(path);
  }
  return [...out].sort();
}

/** git's own first line for a merge of `name` (a ref's full name, or null for a commit). */
export function mergeTitle(name: string, fullRef: string | null, branch: string | null): string {
  const into = branch ? ` into ${branch}` : '';
  if (fullRef?.startsWith('refs/heads/')) return `Merge branch '${fullRef.slice(11)}'${into}`;
  if (fullRef?.startsWith('refs/remotes/')) return `Merge remote-tracking branch '${fullRef.slice(13)}'${into}`;
  if (fullRef?.startsWith('refs/tags/')) return `Merge tag '${fullRef.slice(10)}'${into}`;
  return `Merge commit '${name}'${into}`;
}

/** The commit message: git's kind of first line, then the memory files memlint settled and how. */
export function mergeMessage(title: string, settled: UpdateBranchReport['settled']): string {
  const lines = [title];
  const by = (k: SettledBy) => settled.filter((s) => s.by === k).map((s) => `- ${s.path}`);
  const driver = by('driver');
  const resolved = by('resolve');
  const git = by('git');
  if (driver.length || resolved.length || git.length) lines.push('');
  if (driver.length) lines.push('Memory files merged by the memlint driver:', ...driver);
  if (resolved.length) lines.push('Memory files settled by memlint resolve:', ...resolved);
  if (git.length) lines.push("Memory files merged cleanly by git's line merge (no merge=memlint attribute):", ...git);
  lines.push('', 'Made by memlint update-branch.');
  return lines.join('\n') + '\n';
}

interface Start {
  root: string;
  branch: string | null;
  upstream: Upstream | null;
  head: string;
  mergeHeadPath: string;
  base: { name: string; commit: string; fullRef: string | null };
  bases: string[];
}

/**
 * Everything update-branch needs before it touches anything, the independent git calls at once;
 * throws UsageError (exit 2) when it must not start.
 */
async function preflight(from: GitContext, baseOption: string | undefined, push: boolean): Promise<Start> {
  if (baseOption !== undefined && (baseOption === '' || baseOption.startsWith('-'))) throw new UsageError(`--base needs a branch or commit, got "${baseOption}"`);
  // Without --base the name comes from the upstream's config first; then every check runs at once.
  const name: string | Error = baseOption ?? (await defaultBase(from).catch((err: unknown) => err as Error));
  const nameOrHead = typeof name === 'string' ? name : 'HEAD';
  const state = worktreeState(from);
  const [dirty, ref, bases] = await Promise.all([
    uncommittedPathsAsync(from, { untracked: false }).catch(() => []),
    resolveRefAsync(from, nameOrHead),
    // By name: resolved at the same moment as `ref`.
    mergeBasesAsync(from, 'HEAD', nameOrHead).catch(() => null),
  ]);
  if (!state) throw new UsageError('update-branch works inside a git repository (with a working tree)');
  const { root, operation, head, branch, mergeHeadPath } = state;
  if (operation) throw new UsageError(`a ${operation.kind} is in progress here: finish or abort it first (update-branch touched nothing)`);
  if (!head) throw new UsageError('the branch has no commit yet: nothing to update');
  if (push && !branch) throw new UsageError('--push needs a branch, and HEAD is detached: git checkout -B BRANCH origin/BRANCH');
  if (typeof name !== 'string') throw name;
  const at = { cwd: root, env: from.env };
  const [upstream, upstreamName] = branch ? await Promise.all([upstreamOf(at, branch), upstreamRef(at, branch)]) : [null, null];
  if (dirty.length > 0) throw new UsageError(`uncommitted changes (${dirty[0]}${dirty.length > 1 ? ` and ${dirty.length - 1} more` : ''}): commit or stash them first (update-branch touched nothing)`);
  if (!ref) {
    throw new UsageError(
      baseOption !== undefined ? `--base ${name}: no such branch or commit here (update-branch does not fetch: git fetch first)` : `${name} (the default branch) does not resolve to a commit: git fetch first`,
    );
  }
  // Merging a branch into itself, or into the branch it tracks (main and origin/main), is never a
  // pull request's update: at best a no-op merge commit pushed to the default branch.
  if (branch && ref.fullRef === `refs/heads/${branch}`) throw new UsageError(`${name} is ${branch} itself: update-branch merges the default branch into another branch (update-branch touched nothing)`);
  if (branch && upstreamName && ref.fullRef === upstreamName) throw new UsageError(`${name} is ${branch}'s own upstream: update-branch merges the default branch into another branch; to bring ${branch} up to date, git pull (update-branch touched nothing)`);
  if (push) {
    if (!upstream) throw new UsageError(`--push: ${branch} has no upstream: git branch --set-upstream-to=origin/${branch}`);
    if (upstream.remote === '.') throw new UsageError(`--push: ${branch}'s upstream is a local branch (${upstream.ref}), not a remote one`);
  }
  return { root, branch, upstream, head, mergeHeadPath, base: { name, ...ref }, bases: bases ?? (await mergeBasesAsync(at, head, ref.commit)) };
}

/**
 * git merge overwrites an ignored file that REF adds, and `git merge --abort` then removes it: a
 * local `.claude/settings.local.json` that the default branch starts to commit would be lost. So
 * when REF adds (since the merge base) a path that is here as a file git does not track, refuse
 * before merging (contract §14: update-branch leaves ignored files as they were).
 */
async function refuseOverwritingUntracked(at: GitContext, bases: string[], base: Start['base']): Promise<void> {
  const root = at.cwd;
  const added = new Set<string>();
  for (const changes of await changedBlobs(at, bases.map((b): [string, string] => [b, base.commit]))) for (const [path, blob] of changes) if (blob !== null) added.add(path);
  const present = [...added].filter((path) => {
    // The path itself, or a folder of it that is a file here.
    const parts = path.split('/');
    for (let i = 1; i <= parts.length; i++) {
      try {
        const st = lstatSync(join(root, ...parts.slice(0, i)));
        if (i === parts.length || !st.isDirectory()) return true;
      } catch {
        return false;
      }
    }
    return false;
  });
  if (present.length === 0) return;
  const tracked = await trackedAmongAsync(at, present);
  const inTheWay = present.filter((p) => !tracked.has(p)).sort();
  if (inTheWay.length === 0) return;
  const more = inTheWay.length > 1 ? ` and ${inTheWay.length - 1} more` : '';
  throw new UsageError(`${base.name} adds ${JSON.stringify(inTheWay[0])}${more}, which is here as a file git does not track (ignored or untracked): merging would overwrite it; move it aside, run update-branch, then put it back (update-branch touched nothing)`);
}

/** dir: any folder of the worktree to update. */
export async function updateBranch(from: GitContext, opts: UpdateBranchOptions): Promise<UpdateBranchReport> {
  const { root, branch, upstream, head, mergeHeadPath, base, bases } = await preflight(from, opts.base, opts.push);
  const at = { cwd: root, env: from.env };
  const report: UpdateBranchReport = { status: 'up-to-date', base: base.name, baseCommit: base.commit, branch, head, commit: null, settled: [], conflicts: [], push: null, warnings: [] };
  if (bases.length === 0) {
    // A shallow clone (a CI checkout without fetch-depth: 0) holds too little history to find the
    // merge base: there is something to merge, once the history is fetched.
    if (await isShallowAsync(at)) throw new UsageError(`${base.name} and ${branch ?? 'HEAD'} share no history in this shallow clone: fetch with full history ("git fetch --unshallow", or fetch-depth: 0 in actions/checkout), then run update-branch again (it touched nothing)`);
    throw new UsageError(`${base.name} shares no history with ${branch ?? 'HEAD'}: nothing to merge`);
  }
  // REF is already in the branch exactly when it is the one merge base.
  if (bases.length === 1 && bases[0] === base.commit) return report;
  await refuseOverwritingUntracked(at, bases, base);
  // HEAD is in REF: the branch moves to it, no merge commit (whose tree would be REF's).
  if (bases.length === 1 && bases[0] === head) {
    await fastForward(at, base.commit);
    report.status = 'fast-forward';
    report.commit = base.commit;
    if (opts.push && upstream) report.push = { remote: upstream.remote, ref: upstream.ref, outcome: await pushCommit(at, upstream.remote, base.commit, upstream.ref) };
    return report;
  }

  // What both sides changed, and the attributes of those files, are read while git merges: the
  // trees are objects the merge does not change, and the attributes only label the result.
  const facts = mergedOnBothSides(at, bases, head, base.commit).then(async (both) => ({ both, attributes: mergeDrivers(await attributeValuesAsync(at, 'merge', both)) }));
  facts.catch(() => null);
  // The commit, not the name: the name may move while this runs (a fetch beside it).
  const started = await startMerge(at, base.commit, driverOverride(opts.memlint), mergeHeadPath);
  if (!started.inProgress) {
    await facts.catch(() => null);
    // git refused before merging (an untracked file in the way, say): nothing was touched.
    const why = started.stderr.split('\n').find((l) => /^(error|fatal):/.test(l)) ?? started.stderr.split('\n')[0] ?? `exit ${started.code}`;
    throw new UsageError(`git merge ${base.name} did not start: ${why.replace(/^(error|fatal): /, '')}`);
  }
  for (const line of started.stderr.split('\n')) if (/^memlint: /.test(line)) report.warnings.push(line);

  try {
    // git exits 0 only when everything merged: nothing is unmerged then.
    const unmerged = started.code === 0 ? [] : unmergedPaths(at);
    const indexDirs = new Set(unmerged.filter((u) => u.path === INDEX_FILE || u.path.endsWith(`/${INDEX_FILE}`)).map((u) => (u.path === INDEX_FILE ? '' : u.path.slice(0, -`/${INDEX_FILE}`.length))));
    const memory = unmerged.filter((u) => isMemoryInRepo(root, u.path, indexDirs)).map((u) => u.path);
    const memorySet = new Set(memory);
    for (const u of unmerged) if (!memorySet.has(u.path)) report.conflicts.push({ path: u.path, memory: false, reason: 'not a memory file: git could not merge it' });
    const resolved = memory.length ? resolveConflicts(at, memory) : { resolved: [], remaining: [], warnings: [] };
    for (const w of resolved.warnings) report.warnings.push(w);
    for (const r of resolved.remaining) report.conflicts.push({ path: r.path, memory: true, reason: r.reason });
    // Anything resolve neither settled nor reported is still a conflict.
    const accounted = new Set([...resolved.resolved, ...resolved.remaining.map((r) => r.path)]);
    for (const p of memory) if (!accounted.has(p)) report.conflicts.push({ path: p, memory: true, reason: 'still in conflict' });
    if (report.conflicts.length === 0 && memory.length > 0) {
      for (const u of unmergedPaths(at)) report.conflicts.push({ path: u.path, memory: memorySet.has(u.path), reason: 'still in conflict' });
    }
    if (report.conflicts.length > 0) {
      report.conflicts.sort((a, b) => a.path.localeCompare(b.path));
      report.status = 'conflict';
      await facts.catch(() => null);
      await abortMerge(at);
      return report;
    }
    // A merge that leaves the branch exactly as REF (all of the branch is in REF already) is no
    // update: no merge commit whose tree is REF's.
    if ((await treeOf(at, null)) === (await treeOf(at, base.commit))) {
      await facts.catch(() => null);
      await abortMerge(at);
      report.warnings.push(`memlint: merging ${base.name} would leave ${branch ?? 'HEAD'} identical to it (everything on the branch is in ${base.name} already): no merge commit made`);
      return report;
    }
    const resolvedSet = new Set(resolved.resolved);
    const { both, attributes } = await facts;
    report.settled = [
      ...both.filter((p) => !resolvedSet.has(p) && isMemoryInRepo(root, p, indexDirs)).map((path) => ({ path, by: (attributes.get(path) === DRIVER_NAME ? 'driver' : 'git') as SettledBy })),
      ...resolved.resolved.map((path) => ({ path, by: 'resolve' as SettledBy })),
    ].sort((a, b) => a.path.localeCompare(b.path));
    report.commit = await commitMerge(at, mergeMessage(mergeTitle(base.name, base.fullRef, branch), report.settled));
    report.status = 'merged';
  } catch (err) {
    // Whatever went wrong mid-way, the branch goes back to what it was.
    if (worktreeState(from, root)?.operation?.kind === 'merge') await abortMerge(at);
    throw err;
  }
  if (opts.push && upstream) report.push = { remote: upstream.remote, ref: upstream.ref, outcome: await pushCommit(at, upstream.remote, report.commit!, upstream.ref) };
  return report;
}
