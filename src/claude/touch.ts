// Touch planning: the mtime each memory file deserves. Claude Code ranks memories by mtime (only
// the 200 newest are recall candidates) and tells the agent "this memory is N days old" from it,
// but clone, checkout and merge stamp every file with the current time. `memlint touch` prints
// what planTouch and applyTouch decide.
import { closeSync, lstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { lastCommitTimesUnder } from '../git/history.js';
import { gitOperation, type GitOperation } from '../git/progress.js';
import type { GitContext, Repository } from '../git/repo.js';
import { repositoryHolding } from '../memdir/discover.js';
import { uncommittedPaths } from '../git/status.js';
import { refreshGitIndex } from '../git/write.js';
import { listMarkdown } from './recall.js';
import { parseTopic } from '../memdir/topic.js';
import { FRONTMATTER_MAX_LINES } from '../memdir/limits.js';
import { checkInsideRepo, setTimesInsideRepo } from '../fs/inside.js';
import { slashRelative } from '../fs/paths.js';

export type TimeSource = 'modified' | 'commit';

export interface TouchPlanItem {
  abs: string;
  /** The top of the repository holding it (null outside git). */
  root: string | null;
  /** The folder it may be changed in (src/fs/inside.ts): the repository, else its memdir. */
  bound: string;
  /** Path shown to people (relative to the working directory when possible). */
  shown: string;
  /** Target mtime in ms, or null when the file keeps its mtime. */
  targetMs: number | null;
  source: TimeSource | null;
  /** Why it is skipped, when targetMs is null. */
  skip: string | null;
  /** Skipped because the path goes through a symlink or out of the repository: always reported. */
  refused?: boolean;
  currentMs: number;
}

/** A `modified` value as a time in ms, or null when it is not a date. */
export function parseModified(value: string | undefined): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  // ISO 8601 date or date-time only: Date.parse accepts much looser text than that.
  if (!/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(v)) return null;
  const ms = Date.parse(v.includes(' ') && !v.includes('T') ? v.replace(' ', 'T') : v);
  return Number.isNaN(ms) ? null : ms;
}

/** Whether two mtimes are the same to the second (what "already right" means for touch). */
export function sameSecond(a: number, b: number): boolean {
  return Math.floor(a / 1000) === Math.floor(b / 1000);
}

function readHead(abs: string, bytes: number): string {
  const fd = openSync(abs, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function frontmatterModified(abs: string): string | undefined {
  const head = readHead(abs, 64 * 1024);
  const lines = head.split('\n');
  const text = lines.length > FRONTMATTER_MAX_LINES + 1 ? lines.slice(0, FRONTMATTER_MAX_LINES + 1).join('\n') : head;
  return parseTopic(text).modified;
}

interface MemdirGroup {
  root: string | null;
  /** The repository's git folder (rev-parse --git-dir), when there is a repository. */
  gitDir: string | null;
  dirs: string[];
}

/** The operation that makes touch wait in this repository, if any (see gitOperation). */
function waitingFor(from: GitContext, gitDir: string): GitOperation | null {
  const op = gitOperation(from, gitDir);
  return op?.pending ? op : null;
}

export interface TouchPlan {
  items: TouchPlanItem[];
  /** Repositories (their tops) left alone because git is in the middle of an operation there. */
  waiting: Array<{ root: string; operation: GitOperation }>;
}

/** `known`: the repository holding `from.cwd` when the caller has asked git already (memdirs inside it are not asked again). */
export function planTouch(memdirs: string[], from: GitContext, known: Repository | null = null): TouchPlan {
  const { cwd } = from;
  const groups = new Map<string, MemdirGroup>();
  for (const dir of memdirs) {
    const info = repositoryHolding(from, dir, known);
    const root = info?.root ?? null;
    const key = root ?? '';
    const g = groups.get(key) ?? { root, gitDir: info?.gitDir ?? null, dirs: [] };
    g.dirs.push(dir);
    groups.set(key, g);
  }
  const plan: TouchPlanItem[] = [];
  const waiting: TouchPlan['waiting'] = [];
  for (const g of groups.values()) {
    const operation = g.gitDir ? waitingFor(from, g.gitDir) : null;
    if (operation) {
      waiting.push({ root: g.root!, operation });
      continue;
    }
    const files: Array<{ abs: string; rel: string | null; bound: string }> = [];
    for (const dir of g.dirs) {
      for (const rel of listMarkdown(dir, { includeEntrypoint: true })) {
        const abs = path.join(dir, rel);
        files.push({ abs, rel: g.root ? slashRelative(g.root, abs) : null, bound: g.root ?? dir });
      }
    }
    let commits = new Map<string, number>();
    let dirty = new Set<string>();
    if (g.root) {
      const specs = g.dirs.map((d) => slashRelative(g.root!, d) || '.');
      commits = lastCommitTimesUnder({ cwd: g.root, env: from.env }, specs);
      dirty = new Set(uncommittedPaths({ cwd: g.root, env: from.env }, { pathspec: specs }));
    }
    for (const f of files) {
      const shown = path.relative(cwd, f.abs) || f.abs;
      let st;
      try {
        st = lstatSync(f.abs);
      } catch {
        continue; // gone since the listing
      }
      const item: TouchPlanItem = { abs: f.abs, root: g.root, bound: f.bound, shown, targetMs: null, source: null, skip: null, currentMs: st.mtimeMs };
      plan.push(item);
      // A symlinked memdir or parent folder: lutimes would set the mtime of the file it leads to.
      const inside = checkInsideRepo(f.bound, f.abs);
      if (!inside.ok && !st.isSymbolicLink()) {
        item.skip = inside.reason;
        item.refused = true;
        continue;
      }
      if (st.isSymbolicLink()) {
        item.skip = 'a symlink: not followed';
        continue;
      }
      if (!st.isFile()) {
        item.skip = 'not a regular file';
        continue;
      }
      const modified = parseModified(frontmatterModified(f.abs));
      if (modified !== null) {
        item.targetMs = modified;
        item.source = 'modified';
        continue;
      }
      const committed = f.rel !== null ? commits.get(f.rel) : undefined;
      if (committed === undefined) {
        item.skip = g.root ? 'never committed and no "modified"' : 'not in a git repository and no "modified"';
        continue;
      }
      if (f.rel !== null && dirty.has(f.rel)) {
        item.skip = 'changed since its last commit and no "modified": its mtime is the truth';
        continue;
      }
      item.targetMs = committed * 1000;
      item.source = 'commit';
    }
  }
  return { items: plan, waiting };
}


export type TouchOutcome =
  | { item: TouchPlanItem; done: 'kept' | 'ok' }
  | { item: TouchPlanItem; done: 'set' }
  | { item: TouchPlanItem; done: 'failed'; error: string };

/**
 * Set the planned mtimes (with `dry`, only say which would be set): each item kept (no target
 * time), ok (already right to the second), set, or failed (gone or not writable: reported, never
 * thrown, so the checkout that ran the hook goes on). Then git's index is refreshed where mtimes
 * changed: its cached stat data is stale, and git's checkout code (a rebase, a pull) would take
 * those files for locally modified; git runs in `env`, the run's environment.
 */
export function applyTouch(plan: TouchPlan, env: NodeJS.ProcessEnv, dry: boolean): TouchOutcome[] {
  const outcomes: TouchOutcome[] = [];
  const touchedRoots = new Set<string>();
  for (const item of plan.items) {
    if (item.targetMs === null) outcomes.push({ item, done: 'kept' });
    else if (sameSecond(item.currentMs, item.targetMs)) outcomes.push({ item, done: 'ok' });
    else {
      if (!dry) {
        try {
          // lutimes: should the file have become a symlink since it was planned, its target stays untouched.
          setTimesInsideRepo(item.bound, item.abs, lstatSync(item.abs).atime, new Date(item.targetMs));
        } catch (err) {
          outcomes.push({ item, done: 'failed', error: (err as NodeJS.ErrnoException).code ?? (err as Error).message });
          continue;
        }
      }
      outcomes.push({ item, done: 'set' });
      if (item.root) touchedRoots.add(item.root);
    }
  }
  if (!dry) for (const root of touchedRoots) refreshGitIndex({ cwd: root, env });
  return outcomes;
}
