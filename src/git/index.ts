// Repository facts from the git CLI, batched (one call per kind of fact per run): listings, blobs,
// history, attributes, merges. src/git is the one place that talks to git (branch.ts: branch-level
// calls; commits.ts: consolidation's history and commits; staged.ts: --staged; config.ts; all run
// through run.ts). Every function takes the directory it works in explicitly, so tests can point
// it anywhere.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import './hook-env.js';
import { git, gitSync, orNull } from './run.js';
export { mergeFile } from './merge-file.js';
import { parseCatFileBatch, parseCheckAttr, parseLogRecords, parseStageEntries, parseStatusPaths, splitZ, type IndexEntry } from './parse.js';

export { GitError } from './run.js';
export { repoInfo, repoRoot, type RepoInfo } from './repo.js';
export { addLocalConfig, configValue, configValueAsync, localConfigReader, localConfigValues, setLocalConfig } from './config.js';
export { parseCatFileBatch, parseStageEntries, type IndexEntry } from './parse.js';

/** Tracked files plus untracked files that are not ignored, relative to root. */
export function listFiles(root: string, opts: { untracked?: boolean; pathspec?: string[] } = {}): string[] {
  const args = ['ls-files', '-z', '--cached'];
  if (opts.untracked !== false) args.push('--others', '--exclude-standard');
  if (opts.pathspec?.length) args.push('--', ...opts.pathspec);
  const files = splitZ(git(args, { cwd: root }));
  return [...new Set(files)];
}

/** Tracked files only (the index), relative to root. */
export function trackedFiles(root: string): string[] {
  return splitZ(git(['ls-files', '-z', '--cached'], { cwd: root }));
}

/**
 * Read many objects in one `git cat-file --batch` call. Specs are object names such as
 * ":path" (the staged blob) or "HEAD:path". Missing objects come back as null.
 */
export function readBlobs(root: string, specs: string[]): Map<string, Buffer | null> {
  if (specs.length === 0) return new Map();
  // cat-file reads one name a line: a path with a line break in it is named by its object id
  // instead, which rev-parse finds from its argument (the null id, which git reports missing, when
  // there is none).
  const names = specs.map((spec) => (spec.includes('\n') ? (orNull(() => git(['rev-parse', '-q', '--verify', spec], { cwd: root }).trim()) ?? NULL_ID) : spec));
  const { stdout } = gitSync(['cat-file', '--batch'], { cwd: root, input: names.join('\n') + '\n' });
  const byName = parseCatFileBatch(stdout, names);
  return new Map(specs.map((spec, i) => [spec, byName.get(names[i]!) ?? null]));
}

const NULL_ID = '0'.repeat(40);

/** Whether each path is ignored by git (one call). */
export function ignoredPaths(root: string, paths: string[], opts: { noIndex?: boolean } = {}): Set<string> {
  if (paths.length === 0) return new Set();
  // --no-index: what the ignore rules say, tracked or not.
  const args = ['check-ignore', '-z', '--stdin', ...(opts.noIndex ? ['--no-index'] : [])];
  const { stdout } = gitSync(args, { cwd: root, input: paths.join('\0') + '\0', okCodes: [0, 1] });
  return new Set(splitZ(stdout.toString('utf8')));
}

export function headCommit(root: string): string | null {
  return orNull(() => git(['rev-parse', '--verify', '-q', 'HEAD'], { cwd: root }).trim());
}

/** Which of these object names resolve to commits (one `git cat-file --batch-check` call). */
export function existingCommits(root: string, names: string[]): Set<string> {
  const found = new Set<string>();
  const unique = [...new Set(names)];
  if (unique.length === 0) return found;
  const { stdout } = gitSync(['cat-file', '--batch-check=%(objecttype)'], { cwd: root, input: unique.map((n) => `${n}^{commit}`).join('\n') + '\n' });
  const lines = stdout.toString('utf8').split('\n');
  unique.forEach((n, i) => {
    if (lines[i] === 'commit') found.add(n);
  });
  return found;
}

/**
 * Which of these strings occur in a tracked file of the working tree outside `excludeDir`
 * (repository-relative; '' for none): one `git grep -F -o` for all of them.
 */
export function stringsInTrackedFiles(root: string, needles: string[], excludeDir = ''): Set<string> {
  const unique = [...new Set(needles.filter((n) => n !== '' && !n.includes('\n')))];
  const found = new Set<string>();
  if (unique.length === 0) return found;
  const args = ['grep', '-F', '-o', '-h', '-I', '--no-color', '-f', '-', '--', '.'];
  if (excludeDir) args.push(`:(exclude)${excludeDir}`);
  let out: string;
  try {
    out = gitSync(args, { cwd: root, input: unique.join('\n') + '\n', okCodes: [0, 1] }).stdout.toString('utf8');
  } catch {
    return found;
  }
  const wanted = new Set(unique);
  for (const line of out.split('\n')) if (wanted.has(line)) found.add(line);
  return found;
}

/**
 * Unix time (seconds) of the last commit touching each file under the given pathspecs, keyed by
 * path relative to root (one `git log` call however many files there are). Files never committed
 * are absent. Before the first commit the map is empty.
 */
export function lastCommitTimesUnder(root: string, pathspecs: string[]): Map<string, number> {
  const times = new Map<string, number>();
  if (pathspecs.length === 0 || headCommit(root) === null) return times;
  // -c: a merge commit lists the files it left different from every parent (a driver merge of
  // MEMORY.md), and is then their last change; a file taken from one side keeps that side's commit.
  const out = git(['log', '--format=%x01%ct', '--name-only', '-c', '-z', '--no-renames', '--', ...pathspecs], { cwd: root });
  for (const r of parseLogRecords(out)) for (const p of r.paths) if (!times.has(p)) times.set(p, Number(r.fields));
  return times;
}

/**
 * Paths under the pathspecs whose working-tree content is not what the last commit holds:
 * modified, added, or untracked (not ignored). Relative to root; one `git status` call.
 */
export function uncommittedPaths(root: string, pathspecs: string[]): Set<string> {
  // No optional locks: this runs from hooks, while git itself may hold the index lock.
  const out = git(['--no-optional-locks', 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', ...pathspecs], { cwd: root });
  return new Set(parseStatusPaths(out));
}


export interface UnmergedPath {
  path: string;
  /** Blob ids of stages 1 (base), 2 (ours) and 3 (theirs); absent when that side has no file. */
  stages: { 1?: string; 2?: string; 3?: string };
  mode: string;
}

/** Paths with unmerged index stages (`git ls-files -u`), relative to root. */
export function unmergedPaths(root: string, pathspec: string[] = []): UnmergedPath[] {
  const args = ['ls-files', '-u', '-z'];
  if (pathspec.length) args.push('--', ...pathspec);
  const byPath = new Map<string, UnmergedPath>();
  for (const rec of splitZ(git(args, { cwd: root }))) {
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

/** Stage paths (`git add`), relative to root. */
export function addPaths(root: string, paths: string[]): void {
  if (paths.length === 0) return;
  git(['add', '--', ...paths], { cwd: root });
}

/** Stage-0 index entries (`git ls-files -s`). */
export function indexEntries(root: string, pathspec: string[] = []): IndexEntry[] {
  const args = ['ls-files', '-s', '-z'];
  if (pathspec.length) args.push('--', ...pathspec);
  return parseStageEntries(git(args, { cwd: root }));
}

export interface CommitParents {
  commit: string;
  parents: string[];
}

/**
 * The commits along HEAD's first-parent line that changed path, newest first, each with its
 * parents (`git log --first-parent`): between two of them the file is the same. Empty when there
 * is no commit yet.
 */
export function firstParentChanges(root: string, path: string, max = 100): CommitParents[] {
  if (!headCommit(root)) return [];
  const out = git(['log', '--first-parent', `-n${max}`, '--format=%H %P', '--', `:(literal)${path}`], { cwd: root });
  return out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [commit, ...parents] = l.trim().split(' ');
      return { commit: commit!, parents };
    });
}

/** The best common ancestor of two commits (`git merge-base`), or null when they share none. */
export function mergeBase(root: string, a: string, b: string): string | null {
  const { stdout, code } = gitSync(['merge-base', a, b], { cwd: root, okCodes: [0, 1] });
  return code === 0 ? stdout.toString('utf8').trim() || null : null;
}

/** A ref such as MERGE_HEAD resolved to its commit, or null when it does not exist. */
export function resolveRef(root: string, ref: string): string | null {
  return orNull(() => git(['rev-parse', '--verify', '-q', `${ref}^{commit}`], { cwd: root }).trim()) || null;
}

/** Every worktree of the repository holding dir (`git worktree list --porcelain`): the main one first. */
export function worktreeList(dir: string): Array<{ path: string; bare: boolean; prunable: boolean }> {
  const r = gitSync(['worktree', 'list', '--porcelain', '-z'], { cwd: dir, okCodes: [0, 128, 129] });
  if (r.code !== 0) return [];
  const out: Array<{ path: string; bare: boolean; prunable: boolean }> = [];
  for (const field of r.stdout.toString('utf8').split('\0')) {
    if (field.startsWith('worktree ')) out.push({ path: field.slice('worktree '.length), bare: false, prunable: false });
    else if (field === 'bare' && out.length) out[out.length - 1]!.bare = true;
    else if (field.startsWith('prunable') && out.length) out[out.length - 1]!.prunable = true;
  }
  return out;
}

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
function mergeCommitted(gitDir: string, mergeHead: string): boolean {
  const out = orNull(() => git(['--git-dir', gitDir, 'rev-list', '--parents', '-n', '1', 'HEAD']));
  if (out === null) return false;
  const parents = out.trim().split(/\s+/).slice(1);
  const merged = mergeHead.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return merged.length > 0 && merged.every((id) => parents.includes(id));
}

/**
 * What git is in the middle of in a worktree, from the state files in that worktree's git dir
 * (`git rev-parse --git-dir`), or null when nothing is under way.
 */
export function gitOperation(gitDir: string): GitOperation | null {
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
  if (mergeHead !== null) return { kind: 'merge', pending: !mergeCommitted(gitDir, mergeHead) };
  if (existsSync(join(gitDir, 'CHERRY_PICK_HEAD'))) return { kind: 'cherry-pick', pending: true };
  if (existsSync(join(gitDir, 'REVERT_HEAD'))) return { kind: 'revert', pending: true };
  const sequencer = readState(join(gitDir, 'sequencer', 'todo'));
  if (sequencer !== null) return { kind: /^\s*revert /m.test(sequencer) ? 'revert' : 'cherry-pick', pending: true };
  // Each bisect step is a checkout of its own process, which is done with the index when its
  // post-checkout hook runs.
  if (existsSync(join(gitDir, 'BISECT_LOG'))) return { kind: 'bisect', pending: false };
  return null;
}

/**
 * Refresh the index's cached stat data (`git update-index -q --refresh`) after memlint changed
 * mtimes, so git does not take those files for modified. Returns false when git could not (the
 * index is locked by another git process): nothing is changed then.
 */
export function refreshIndex(root: string): boolean {
  // 1: some entries need an update (content really changed): the rest was still refreshed.
  return orNull(() => gitSync(['update-index', '-q', '--refresh'], { cwd: root, okCodes: [0, 1] })) !== null;
}

/** Each path's value of a git attribute: 'unspecified', 'unset', 'set' or its value (one `git check-attr` call). */
export function attributeValues(root: string, attribute: string, paths: string[]): Map<string, string> {
  if (paths.length === 0) return new Map();
  return parseCheckAttr(git(['check-attr', '-z', '--stdin', attribute], { cwd: root, input: paths.join('\0') + '\0' }));
}

/**
 * git's conflict marker size for each path (the `conflict-marker-size` attribute, 7 when unset),
 * in one `git check-attr` call.
 */
export function conflictMarkerSizes(root: string, paths: string[]): Map<string, number> {
  const sizes = new Map<string, number>();
  if (paths.length === 0) return sizes;
  for (const [path, value] of attributeValues(root, 'conflict-marker-size', paths)) {
    const n = Number(value);
    sizes.set(path, /^\d+$/.test(value) && n >= 1 ? n : 7);
  }
  return sizes;
}
