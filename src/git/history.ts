// What history says: the commits that changed paths, when, and how (`git log`, `git diff`,
// `git diff-tree`, `git blame`): consolidation's counts and dates, the files a push or a range
// changes, each line's date. The renames and deletions of history are in lost-paths.ts. Every
// function takes the folder it works in and the environment git runs with (a GitContext).
import { commonFolder, parseLogRecords, splitZ } from './parse.js';
import { resolveRef } from './refs.js';
import { git, gitAsync, GitError } from './run.js';
import type { GitContext } from './repo.js';

const text = async (at: GitContext, args: string[], input?: string) => (await gitAsync(args, { cwd: at.cwd, env: at.env, ...(input === undefined ? {} : { input }) })).stdout.toString('utf8');

/** Commits reachable from HEAD touching these paths with a commit time after `sinceMs` (0: all). */
export function countCommitsSince(at: GitContext, sinceMs: number, pathspec: string[]): number {
  const args = ['rev-list', '--count'];
  if (sinceMs > 0) args.push(`--max-age=${Math.floor(sinceMs / 1000) + 1}`);
  args.push('HEAD', '--', ...pathspec);
  try {
    return Number(git(args, at).trim()) || 0;
  } catch {
    return 0; // no commits yet
  }
}

function logNames(at: GitContext, format: string, extra: string[], pathspec: string[]): Array<{ fields: string; paths: string[] }> {
  try {
    return parseLogRecords(git(['log', `--format=%x01${format}`, '--name-only', '-z', '--no-renames', ...extra, '--', ...pathspec], at));
  } catch (err) {
    if (err instanceof GitError) return [];
    throw err;
  }
}

/** First-commit time (ms) of each file under these paths (repository-relative keys). */
export function firstCommitTimes(at: GitContext, pathspec: string[]): Map<string, number> {
  const times = new Map<string, number>();
  for (const r of logNames(at, '%ct', ['--diff-filter=A'], pathspec)) for (const p of r.paths) times.set(p, Number(r.fields) * 1000);
  return times;
}

/**
 * Last-commit date (YYYY-MM-DD, committer's) of each file under these paths. A file last changed
 * at or past a shallow clone's boundary (the oldest commit fetched, which git decorates "grafted"
 * and which stands for all history below it) has no known date: it is left out.
 */
export function lastCommitDates(at: GitContext, pathspec: string[]): Map<string, string> {
  const dates = new Map<string, string>();
  const unknown = new Set<string>();
  for (const r of logNames(at, '%cs%x02%D', ['--decorate-refs-exclude=*'], pathspec)) {
    const [day = '', refs = ''] = r.fields.split('\x02');
    const grafted = refs.split(', ').includes('grafted');
    for (const p of r.paths) {
      if (dates.has(p) || unknown.has(p)) continue;
      if (grafted) unknown.add(p);
      else dates.set(p, day);
    }
  }
  return dates;
}

// git matches each file a commit changes against every pathspec in turn: tens of thousands of
// paths asked against a commit that deleted as many took minutes. Past this many, the folder that
// holds them all is walked instead and its deletions kept for the paths asked. (History is then
// simplified for the folder rather than for each path: the same commits, unless a file was
// deleted on two branches that were merged, when the other branch's commit may be named.)
const MANY_PATHS = 512;

/**
 * For each path (taken literally), the newest commit that deleted it. The paths go to git on its
 * standard input (on the command line, tens of thousands of them passed the system's limit on
 * arguments and git never ran); a name holding a line break or a carriage return cannot be a line
 * of input, and stays an argument.
 */
export function deletionCommits(at: GitContext, paths: string[]): Map<string, { commit: string; date: string }> {
  const found = new Map<string, { commit: string; date: string }>();
  if (paths.length === 0) return found;
  const wanted = new Set(paths);
  const folder = paths.length > MANY_PATHS ? commonFolder(paths) : null;
  const [lines, args] = folder !== null ? [[], [folder === '' ? '.' : folder]] : [paths.filter((p) => !/[\r\n]/.test(p)), paths.filter((p) => /[\r\n]/.test(p))];
  let out: string;
  try {
    out = git(['--literal-pathspecs', 'log', '--stdin', '--format=%x01%H %cs', '--name-only', '-z', '--no-renames', '--diff-filter=D', '--', ...args], { ...at, input: `--\n${lines.map((p) => `${p}\n`).join('')}` });
  } catch (err) {
    if (err instanceof GitError) return found; // no commits yet
    throw err;
  }
  for (const r of parseLogRecords(out)) {
    const [commit, date] = r.fields.split(' ');
    for (const p of r.paths) if (wanted.has(p) && !found.has(p)) found.set(p, { commit: commit!, date: date! });
  }
  return found;
}

/** Files whose content differs between two commits' trees (`git diff-tree`: two trees compared, no walk). */
export function filesChangedBetween(at: GitContext, from: string, to: string): string[] {
  return [...new Set(splitZ(git(['diff-tree', '-r', '--name-only', '-z', '--no-renames', from, to], at)))];
}

/** Files one commit changes against its first parent (all its files for a root commit). */
export function filesOfCommit(at: GitContext, rev: string): string[] {
  return splitZ(git(['diff-tree', '-r', '--root', '--no-commit-id', '--name-only', '-z', '--no-renames', rev], at));
}

/** Files changed by the commits of a revision range, e.g. [tip, '^base'] or [tip, '--not', '--remotes'] (`git log`). */
export function filesChangedIn(at: GitContext, revisions: string[]): string[] {
  const out = git(['log', '--format=', '--name-only', '-z', '--no-renames', ...revisions], at);
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
export function filesAddedIn(at: GitContext, revisions: string[]): CommitFile[] {
  const out = git(['log', '--reverse', '--format=%x01%H', '--raw', '-z', '--no-abbrev', '--no-renames', '--diff-merges=first-parent', '--diff-filter=AMT', ...revisions], at);
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

/**
 * Unix time (seconds) of the last commit touching each file under the given pathspecs, keyed by
 * path relative to root (one `git log` call however many files there are). Files never committed
 * are absent. Before the first commit the map is empty.
 */
export function lastCommitTimesUnder(at: GitContext, pathspecs: string[]): Map<string, number> {
  const times = new Map<string, number>();
  if (pathspecs.length === 0 || resolveRef(at, 'HEAD') === null) return times;
  // -c: a merge commit lists the files it left different from every parent (a driver merge of
  // MEMORY.md), and is then their last change; a file taken from one side keeps that side's commit.
  const out = git(['log', '--format=%x01%ct', '--name-only', '-c', '-z', '--no-renames', '--', ...pathspecs], at);
  for (const r of parseLogRecords(out)) for (const p of r.paths) if (!times.has(p)) times.set(p, Number(r.fields));
  return times;
}

export interface CommitParents {
  commit: string;
  parents: string[];
}

/**
 * For each path, the commits along HEAD's first-parent line that changed it, newest first, each
 * with its parents (at most `max`): between two of them the file is the same. Empty before the
 * first commit. One walk for every path (`git log --stdin`, the paths literal on its input, each
 * commit's changes against its first parent): asking git once a path walked the history once a
 * file (resolve of a thousand files with committed markers took minutes).
 */
export function firstParentChangesOf(at: GitContext, paths: string[], max = 100): Map<string, CommitParents[]> {
  const out = new Map<string, CommitParents[]>(paths.map((p) => [p, []]));
  if (paths.length === 0 || !resolveRef(at, 'HEAD')) return out;
  const [lines, args] = [paths.filter((p) => !/[\r\n]/.test(p)), paths.filter((p) => /[\r\n]/.test(p))];
  // -m: a merge's changes against its first parent are listed too (git 2.31 on does so with
  // --first-parent alone; --diff-merges, which says it, is unknown before 2.31).
  const log = git(['--literal-pathspecs', 'log', '--first-parent', '-m', '--stdin', '--format=%x01%H %P', '--name-only', '-z', '--no-renames', '--', ...args], { ...at, input: `--\n${lines.map((p) => `${p}\n`).join('')}` });
  for (const r of parseLogRecords(log)) {
    const [commit, ...parents] = r.fields.trim().split(' ');
    for (const p of new Set(r.paths)) {
      const list = out.get(p);
      if (list && list.length < max) list.push({ commit: commit!, parents });
    }
  }
  return out;
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
export async function changedPaths(at: GitContext, from: string, to: string, opts: { renames?: boolean; pathspec?: string[] } = {}): Promise<ChangedPath[]> {
  const args = ['diff', '--name-status', '-z', '--no-ext-diff', '--no-textconv', opts.renames ? '-M' : '--no-renames', from, to];
  if (opts.pathspec?.length) args.push('--', ...opts.pathspec);
  const parts = (await text(at, args)).split('\0');
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
export async function changedBlobs(at: GitContext, pairs: Array<[from: string, to: string]>): Promise<Array<Map<string, string | null>>> {
  if (pairs.length === 0) return [];
  // A line "<commit> <parent>" diffs the parent against the commit: from -> to.
  const input = pairs.map(([from, to]) => `${to} ${from}`).join('\n') + '\n';
  const parts = (await text(at, ['diff-tree', '--stdin', '-r', '-z', '--raw', '--no-renames', '--no-abbrev', '--no-ext-diff', '--no-textconv'], input)).split('\0');
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
  if (out.length !== pairs.length) return pairs.length === 1 ? [new Map()] : Promise.all(pairs.map(async (pair) => (await changedBlobs(at, [pair]))[0]!));
  return out;
}

