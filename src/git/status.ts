// What git says about paths: which are tracked (`listFiles`, `trackedAmong`, `gitIndexEntries`),
// changed and not committed (`uncommittedPaths`), unmerged, ignored, and their attributes. Paths
// are repository-relative; every function takes the folder it works in (the top of the working
// tree; the git index questions answer from any folder of it) and the environment git runs with, a
// GitContext. Small and on its own: the launcher (dist/cli.js) asks the git index questions for
// --staged before the program loads.
import { parseCheckAttr, parseStageEntries, parseStatusPaths, splitZ, type GitIndexEntry } from './parse.js';
import { argumentGroups, git, gitAsync, gitSync } from './run.js';
import type { GitContext } from './repo.js';

/**
 * Tracked files plus untracked files that are not ignored (`untracked: false`: tracked only), each
 * once; `folder`: only those under this repository-relative folder (taken literally); `checkedOut`:
 * not those a sparse checkout leaves out (skip-worktree: tracked, not on disk).
 */
export function listFiles(at: GitContext, opts: { untracked?: boolean; pathspec?: string[]; folder?: string; checkedOut?: boolean } = {}): string[] {
  if (opts.checkedOut) {
    const tagged = listFilesTagged(at, opts);
    return tagged.files.filter((f) => !tagged.notCheckedOut.has(f));
  }
  const args = ['ls-files', '-z', '--cached'];
  if (opts.untracked !== false) args.push('--others', '--exclude-standard');
  const pathspec = [...(opts.pathspec ?? []), ...(opts.folder !== undefined ? [folderSpec(opts.folder)] : [])];
  if (pathspec.length) args.push('--', ...pathspec);
  return [...new Set(splitZ(git(args, at)))];
}

/**
 * listFiles, and which of the tracked files git does not check out: those the index marks
 * skip-worktree (`git ls-files -t` tag S), as a sparse checkout leaves out what is outside it.
 * They are in the repository (committed, in the index) but not on disk. One `git ls-files -t`.
 */
export function listFilesTagged(at: GitContext, opts: { untracked?: boolean; pathspec?: string[]; folder?: string } = {}): { files: string[]; notCheckedOut: Set<string> } {
  const args = ['ls-files', '-z', '-t', '--cached'];
  if (opts.untracked !== false) args.push('--others', '--exclude-standard');
  const pathspec = [...(opts.pathspec ?? []), ...(opts.folder !== undefined ? [folderSpec(opts.folder)] : [])];
  if (pathspec.length) args.push('--', ...pathspec);
  const files = new Set<string>();
  const notCheckedOut = new Set<string>();
  for (const entry of splitZ(git(args, at))) {
    // "<tag> <path>": H cached, S skip-worktree, ? untracked, and the others (R, C, K, M).
    const path = entry.slice(2);
    files.add(path);
    if (entry.startsWith('S ')) notCheckedOut.add(path);
  }
  return { files: [...files], notCheckedOut };
}

// Literal pathspecs from the top: a folder named "a[1]" is that folder, not a pattern, wherever git runs.
const literal = (path: string) => `:(top,literal)${path}`;
const folderSpec = (folder: string) => (folder === '' ? ':/' : literal(folder));

const trackedArgs = (specs: string[]) => ['ls-files', '--full-name', '-z', '--', ...specs];

/** Which of these repository-relative paths the index tracks (one `git ls-files` per command line of paths, from any folder). */
export function trackedAmong(at: GitContext, paths: string[]): Set<string> {
  return new Set(argumentGroups(paths.map(literal)).flatMap((specs) => splitZ(git(trackedArgs(specs), at))));
}

/** trackedAmong, without blocking. */
export async function trackedAmongAsync(at: GitContext, paths: string[]): Promise<Set<string>> {
  const outs = await Promise.all(argumentGroups(paths.map(literal)).map((specs) => gitAsync(trackedArgs(specs), at)));
  return new Set(outs.flatMap((r) => splitZ(r.stdout.toString('utf8'))));
}

/** What of the git index to list: these files, and everything under these folders ('' = the top); all repository-relative. */
export interface IndexScope {
  files?: string[];
  folders?: string[];
}

// One `ls-files -s` per command line of pathspecs.
const indexEntriesArgs = (scope: IndexScope) =>
  argumentGroups([...(scope.files ?? []).map(literal), ...(scope.folders ?? []).map(folderSpec)]).map((specs) => ['ls-files', '-s', '-z', '--full-name', '--', ...specs]);

/** The entries of several `ls-files -s`, each path once (a file may be named and be under a folder named). */
function uniqueEntries(outs: string[]): GitIndexEntry[] {
  if (outs.length === 1) return parseStageEntries(outs[0]!);
  const byPath = new Map<string, GitIndexEntry>();
  for (const out of outs) for (const e of parseStageEntries(out)) if (!byPath.has(e.path)) byPath.set(e.path, e);
  return [...byPath.values()];
}

/** Stage-0 git index entries (`git ls-files -s`) in scope: each file's mode and blob as staged, repository-relative. */
export function gitIndexEntries(at: GitContext, scope: IndexScope): GitIndexEntry[] {
  return uniqueEntries(indexEntriesArgs(scope).map((args) => git(args, at)));
}

/** gitIndexEntries, without blocking: the launcher asks it beside other git calls. */
export async function gitIndexEntriesAsync(at: GitContext, scope: IndexScope): Promise<GitIndexEntry[]> {
  const outs = await Promise.all(indexEntriesArgs(scope).map((args) => gitAsync(args, at)));
  return uniqueEntries(outs.map((r) => r.stdout.toString('utf8')));
}

export interface StatusScope {
  pathspec?: string[];
  /** Count untracked files that are not ignored (default true). */
  untracked?: boolean;
}

// No optional locks: this runs from hooks, while git itself may hold the index lock.
const statusArgs = (scope: StatusScope) => [
  '--no-optional-locks',
  'status',
  '--porcelain=v1',
  '-z',
  `--untracked-files=${scope.untracked === false ? 'no' : 'all'}`,
  '--no-renames',
  ...(scope.pathspec?.length ? ['--', ...scope.pathspec] : []),
];

/**
 * Paths whose working-tree content is not what HEAD holds: staged or unstaged changes, unmerged
 * paths, and untracked files that are not ignored (unless `untracked: false`). A rename is the
 * two paths it touches. One `git status` call.
 */
export function uncommittedPaths(at: GitContext, scope: StatusScope = {}): string[] {
  return parseStatusPaths(git(statusArgs(scope), at));
}

/** uncommittedPaths, without blocking: update-branch asks it beside other git calls. */
export async function uncommittedPathsAsync(at: GitContext, scope: StatusScope = {}): Promise<string[]> {
  return parseStatusPaths((await gitAsync(statusArgs(scope), at)).stdout.toString('utf8'));
}

export interface UnmergedPath {
  path: string;
  /** Blob ids of stages 1 (base), 2 (ours) and 3 (theirs); absent when that side has no file. */
  stages: { 1?: string; 2?: string; 3?: string };
  mode: string;
}

/** Paths with unmerged index stages (`git ls-files -u`). */
export function unmergedPaths(at: GitContext, pathspec: string[] = []): UnmergedPath[] {
  const args = ['ls-files', '-u', '-z'];
  if (pathspec.length) args.push('--', ...pathspec);
  const byPath = new Map<string, UnmergedPath>();
  for (const rec of splitZ(git(args, at))) {
    const tab = rec.indexOf('\t');
    const [mode, oid, stage] = rec.slice(0, tab).split(' ');
    const path = rec.slice(tab + 1);
    const u = byPath.get(path) ?? { path, stages: {}, mode: mode! };
    u.stages[Number(stage) as 1 | 2 | 3] = oid!;
    if (stage === '2') u.mode = mode!;
    byPath.set(path, u);
  }
  return [...byPath.values()];
}

/** Which of these paths git ignores (one call); `noIndex`: what the ignore rules say, tracked or not. */
export function ignoredPaths(at: GitContext, paths: string[], opts: { noIndex?: boolean } = {}): Set<string> {
  if (paths.length === 0) return new Set();
  const args = ['check-ignore', '-z', '--stdin', ...(opts.noIndex ? ['--no-index'] : [])];
  const { stdout } = gitSync(args, { cwd: at.cwd, env: at.env, input: paths.join('\0') + '\0', okCodes: [0, 1] });
  return new Set(splitZ(stdout.toString('utf8')));
}

const checkAttrArgs = (attribute: string) => ['check-attr', '-z', '--stdin', attribute];
const pathsInput = (paths: string[]) => paths.join('\0') + '\0';

/** Each path's value of a git attribute: 'unspecified', 'unset', 'set' or its value (one `git check-attr` call). */
export function attributeValues(at: GitContext, attribute: string, paths: string[]): Map<string, string> {
  if (paths.length === 0) return new Map();
  return parseCheckAttr(git(checkAttrArgs(attribute), { cwd: at.cwd, env: at.env, input: pathsInput(paths) }));
}

/** attributeValues, without blocking. */
export async function attributeValuesAsync(at: GitContext, attribute: string, paths: string[]): Promise<Map<string, string>> {
  if (paths.length === 0) return new Map();
  return parseCheckAttr((await gitAsync(checkAttrArgs(attribute), { cwd: at.cwd, env: at.env, input: pathsInput(paths) })).stdout.toString('utf8'));
}

/**
 * git's conflict marker size for each path (the `conflict-marker-size` attribute, 7 when unset),
 * in one `git check-attr` call.
 */
export function conflictMarkerSizes(at: GitContext, paths: string[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const [path, value] of attributeValues(at, 'conflict-marker-size', paths)) {
    const n = Number(value);
    sizes.set(path, /^\d+$/.test(value) && n >= 1 ? n : 7);
  }
  return sizes;
}
