// The history consolidation reads (commit counts and dates of the files under a pathspec, each
// one git call) and the commit it makes of a memdir, with nothing else of the worktree.
import './hook-env.js';
import { parseLogRecords, parseStatusPaths, splitZ } from './parse.js';
import { git, gitSync, GitError } from './run.js';

/** Commits reachable from HEAD touching these paths with a commit time after `sinceMs` (0: all). */
export function countCommitsSince(root: string, sinceMs: number, pathspec: string[]): number {
  const args = ['rev-list', '--count'];
  if (sinceMs > 0) args.push(`--max-age=${Math.floor(sinceMs / 1000) + 1}`);
  args.push('HEAD', '--', ...pathspec);
  try {
    return Number(git(args, { cwd: root }).trim()) || 0;
  } catch {
    return 0; // no commits yet
  }
}

function logNames(root: string, format: string, extra: string[], pathspec: string[]): Array<{ fields: string; paths: string[] }> {
  try {
    return parseLogRecords(git(['log', `--format=%x01${format}`, '--name-only', '-z', '--no-renames', ...extra, '--', ...pathspec], { cwd: root }));
  } catch (err) {
    if (err instanceof GitError) return [];
    throw err;
  }
}

/** First-commit time (ms) of each file under these paths (repository-relative keys). */
export function firstCommitTimes(root: string, pathspec: string[]): Map<string, number> {
  const times = new Map<string, number>();
  for (const r of logNames(root, '%ct', ['--diff-filter=A'], pathspec)) for (const p of r.paths) times.set(p, Number(r.fields) * 1000);
  return times;
}

/** Last-commit date (YYYY-MM-DD, committer's) of each file under these paths. */
export function lastCommitDates(root: string, pathspec: string[]): Map<string, string> {
  const dates = new Map<string, string>();
  for (const r of logNames(root, '%cs', [], pathspec)) for (const p of r.paths) if (!dates.has(p)) dates.set(p, r.fields);
  return dates;
}

/** For each path, the newest commit that deleted it. */
export function deletionCommits(root: string, paths: string[]): Map<string, { commit: string; date: string }> {
  const found = new Map<string, { commit: string; date: string }>();
  if (paths.length === 0) return found;
  for (const r of logNames(root, '%H %cs', ['--diff-filter=D'], paths)) {
    const [commit, date] = r.fields.split(' ');
    for (const p of r.paths) if (!found.has(p)) found.set(p, { commit: commit!, date: date! });
  }
  return found;
}

/** Files that live in a memdir but are never committed: the lock, snapshot state. */
export const LOCAL_STATE = [':(exclude,glob)**/.consolidate-lock', ':(exclude,glob)**/.snapshot-synced.json'];

/** Paths under these pathspecs with uncommitted changes (staged, unstaged or untracked), local state aside. */
export function dirtyPaths(root: string, pathspec: string[]): string[] {
  return parseStatusPaths(git(['status', '--porcelain', '-z', '--untracked-files=all', '--no-renames', '--', ...pathspec, ...LOCAL_STATE], { cwd: root }));
}

/** Stage these paths (additions, changes and removals; never the lock) and commit only them. Returns the new commit id. */
export function commitPaths(root: string, message: string, pathspec: string[]): string {
  git(['add', '-A', '--', ...pathspec, ...LOCAL_STATE], { cwd: root });
  // No hook runs for it: the pre-commit lint is memlint's own, and a post-commit hook would see a
  // memory-changing commit and start memlint again.
  git(['-c', 'core.hooksPath=/dev/null', 'commit', '--no-verify', '-q', '-m', message, '--', ...pathspec, ...LOCAL_STATE], { cwd: root });
  return git(['rev-parse', 'HEAD'], { cwd: root }).trim();
}

/** Put these paths back as HEAD has them (index and worktree), removing untracked files under them. */
export function restorePaths(root: string, pathspec: string[]): void {
  gitSync(['restore', '--source=HEAD', '--staged', '--worktree', '--', ...pathspec, ...LOCAL_STATE], { cwd: root, okCodes: [0, 1] });
  gitSync(['clean', '-fdq', '--', ...pathspec, ...LOCAL_STATE], { cwd: root, okCodes: [0, 1] });
}

/** Files whose content differs between two commits' trees (`git diff-tree`: two trees compared, no walk). */
export function filesChangedBetween(root: string, from: string, to: string): string[] {
  return [...new Set(splitZ(git(['diff-tree', '-r', '--name-only', '-z', '--no-renames', from, to], { cwd: root })))];
}

/** Files one commit changes against its first parent (all its files for a root commit). */
export function filesOfCommit(root: string, rev: string): string[] {
  return splitZ(git(['diff-tree', '-r', '--root', '--no-commit-id', '--name-only', '-z', '--no-renames', rev], { cwd: root }));
}

/** Files changed by the commits of a revision range, e.g. [tip, '^base'] or [tip, '--not', '--remotes'] (`git log`). */
export function filesChangedIn(root: string, revisions: string[]): string[] {
  const out = git(['log', '--format=', '--name-only', '-z', '--no-renames', ...revisions], { cwd: root });
  return [...new Set(out.split('\0').map((p) => p.replace(/^\n+/, '')).filter(Boolean))];
}

/** A file as one commit of a range left it: the commit, the repository-relative path, its blob. */
export interface CommitFile {
  commit: string;
  path: string;
  blob: string;
}

/**
 * The files each commit of a revision range adds or changes, with the blob it left (`git log
 * --raw`), oldest commit first. A merge commit is compared with its first parent, so what a merge
 * brought in (a conflict settled by hand and committed) is listed too.
 */
export function filesAddedIn(root: string, revisions: string[]): CommitFile[] {
  const out = git(['log', '--reverse', '--format=%x01%H', '--raw', '-z', '--no-abbrev', '--no-renames', '--diff-merges=first-parent', '--diff-filter=AMT', ...revisions], { cwd: root });
  const files: CommitFile[] = [];
  for (const record of out.split('\x01')) {
    if (record === '') continue;
    const parts = record.split('\0');
    const commit = parts[0]!.trim();
    // After the commit id: `:<mode> <mode> <blob> <blob> <status>` then the path, each NUL-ended.
    for (let i = 1; i + 1 < parts.length; i += 2) {
      const meta = parts[i]!.replace(/^\n+/, '');
      if (!meta.startsWith(':')) break;
      const [, newMode, , blob] = meta.slice(1).split(' ');
      if (newMode === '160000' || newMode === '120000') continue; // a submodule or a symlink: no text of its own
      files.push({ commit, path: parts[i + 1]!, blob: blob! });
    }
  }
  return files;
}
