// memlint touch: give each memory file the mtime its content deserves. Claude Code ranks memories
// by mtime (only the 200 newest are recall candidates) and tells the agent "this memory is N days
// old" from it, but clone, checkout and merge stamp every file with the current time.
import { closeSync, lstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { parse } from './args.js';
import { UsageError } from '../errors.js';
import { loadConfig } from '../config.js';
import { discoverMemdirs } from '../memdir/discover.js';
import { gitOperation, lastCommitTimesUnder, refreshIndex, repoInfo, uncommittedPaths, type GitOperation } from '../git/index.js';
import { listMarkdown } from '../memdir/recall.js';
import { parseTopic } from '../memdir/topic.js';
import { FRONTMATTER_MAX_LINES } from '../memdir/limits.js';
import { checkInsideRepo, setTimesInsideRepo } from '../fs/inside.js';

const HELP = `Usage: memlint touch [MEMDIR...] [--dry-run] [--verbose]

Sets the modification time of every .md file of each memory folder (MEMORY.md, topic files and
daily logs) from its frontmatter "modified" timestamp (top level or under "metadata:"), else from
the date of the last commit that changed it. Claude Code ranks memories by mtime (only the 200
newest are recall candidates) and tells the agent how old each one is from it; clone, checkout
and merge make every file look new. Files changed since their last commit and without "modified"
keep their mtime. Symlinks are never followed. No file content is written; a second run changes
nothing. Changed mtimes are refreshed in git's index, so git does not take those files for
modified. While a rebase has commits left to replay, or a merge, cherry-pick or revert is not
concluded, it changes nothing (git holds its own view of the index then); the post-rewrite hook
runs it once a rebase has replayed its commits. "memlint install" runs it from the post-checkout, post-merge and
post-rewrite hooks.

With no MEMDIR: every memory folder of the repository.

Options:
  --dry-run   print what would change, change nothing
  --verbose   print every file and where its time comes from
  -h, --help  show this help

Exit codes: 0 done, 2 usage error.
`;

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
  dirs: string[];
}

/** The operation that makes touch wait in this repository, if any (see gitOperation). */
export function waitingFor(root: string): GitOperation | null {
  const info = repoInfo(root);
  const op = info ? gitOperation(info.gitDir) : null;
  return op?.pending ? op : null;
}

export interface TouchPlan {
  items: TouchPlanItem[];
  /** Repositories (their tops) left alone because git is in the middle of an operation there. */
  waiting: Array<{ root: string; operation: GitOperation }>;
}

export function planTouch(memdirs: string[], cwd: string): TouchPlan {
  const groups = new Map<string, MemdirGroup>();
  for (const dir of memdirs) {
    const root = repoInfo(dir)?.root ?? null;
    const key = root ?? '';
    const g = groups.get(key) ?? { root, dirs: [] };
    g.dirs.push(dir);
    groups.set(key, g);
  }
  const plan: TouchPlanItem[] = [];
  const waiting: TouchPlan['waiting'] = [];
  for (const g of groups.values()) {
    const operation = g.root ? waitingFor(g.root) : null;
    if (operation) {
      waiting.push({ root: g.root!, operation });
      continue;
    }
    const files: Array<{ abs: string; rel: string | null; bound: string }> = [];
    for (const dir of g.dirs) {
      for (const rel of listMarkdown(dir, { includeEntrypoint: true })) {
        const abs = path.join(dir, rel);
        files.push({ abs, rel: g.root ? path.relative(g.root, abs).split(path.sep).join('/') : null, bound: g.root ?? dir });
      }
    }
    let commits = new Map<string, number>();
    let dirty = new Set<string>();
    if (g.root) {
      const specs = g.dirs.map((d) => path.relative(g.root!, d).split(path.sep).join('/') || '.');
      commits = lastCommitTimesUnder(g.root, specs);
      dirty = uncommittedPaths(g.root, specs);
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

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, { 'dry-run': { type: 'boolean' }, verbose: { type: 'boolean' } }, 'touch');
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const cwd = process.cwd();
  const loaded = await loadConfig({ cwd });
  const found = discoverMemdirs({ cwd, paths: positionals.length ? positionals : undefined, memoryDirs: loaded.config.memoryDirs, configDir: loaded.dir });
  for (const d of found) if (d.onlyFiles) throw new UsageError(`touch works on memory folders; ${[...d.onlyFiles][0]} is a file`);
  const plan = planTouch(
    found.map((d) => d.dir),
    cwd,
  );
  const dry = !!values['dry-run'];
  let changed = 0;
  const bySource: Record<TimeSource, number> = { modified: 0, commit: 0 };
  const lines: string[] = [];
  for (const w of plan.waiting) {
    lines.push(`memlint touch: a ${w.operation.kind} is under way in ${path.relative(cwd, w.root) || '.'}: mtimes left alone until it ends`);
  }
  const touchedRoots = new Set<string>();
  const told = new Set<string>();
  for (const item of plan.items) {
    if (item.refused && !told.has(item.skip!)) {
      told.add(item.skip!);
      process.stderr.write(`memlint touch: left alone: ${item.skip}\n`);
    }
    if (item.targetMs === null) {
      if (values.verbose) lines.push(`  kept     ${item.shown}: ${item.skip}`);
      continue;
    }
    if (sameSecond(item.currentMs, item.targetMs)) {
      if (values.verbose) lines.push(`  ok       ${item.shown}`);
      continue;
    }
    const when = new Date(item.targetMs).toISOString();
    if (!dry) {
      try {
        // lutimes: should the file have become a symlink since it was planned, its target stays untouched.
        setTimesInsideRepo(item.bound, item.abs, lstatSync(item.abs).atime, new Date(item.targetMs));
      } catch (err) {
        // Gone or not writable: say so, but never fail the checkout that ran this hook.
        process.stderr.write(`memlint touch: cannot set the mtime of ${item.shown}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
        continue;
      }
    }
    changed++;
    if (item.root) touchedRoots.add(item.root);
    bySource[item.source!]++;
    if (values.verbose || dry) lines.push(`  ${dry ? 'would set' : 'set     '} ${item.shown} -> ${when} (${item.source === 'modified' ? 'frontmatter "modified"' : 'last commit'})`);
  }
  // The index's cached stat data of the files whose mtime changed is stale now: without a refresh,
  // git's checkout code (a rebase, a pull) would take them for locally modified.
  if (!dry) for (const root of touchedRoots) refreshIndex(root);
  if (lines.length) process.stdout.write(lines.join('\n') + '\n');
  if (changed > 0 || values.verbose) {
    process.stdout.write(
      `memlint touch: ${dry ? 'would set' : 'set'} ${changed} mtime${changed === 1 ? '' : 's'} (${bySource.modified} from "modified", ${bySource.commit} from commits) in ${found.length} memory folder${found.length === 1 ? '' : 's'}\n`,
    );
  }
  return 0;
}
