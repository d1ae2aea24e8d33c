// `memlint resolve`: settles memory files left in conflict without the driver (a hosted merge, a
// clone without the install, a missing binary), with the same merges as the driver. Reads the
// index stages 1-3 when git has them, else the conflict markers in the file.
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, posix } from 'node:path';
import { readBlobs } from '../git/blobs.js';
import { firstParentChangesOf } from '../git/history.js';
import { mergeFile } from '../git/merge-file.js';
import { mergeBases, resolveRef } from '../git/refs.js';
import { conflictMarkerSizes, listFiles, trackedAmong, unmergedPaths } from '../git/status.js';
import { addPaths } from '../git/write.js';
import { limitWarning, lineMergeOutcome, maskOutcome, mergeMemoryFile, type LineMergeResult, type MergeInput, type MergeOutcome } from './driver.js';
import { hasConflictMarkers, markerLines, pushAll, splitConflictMarkers, type MarkedSides } from './text.js';
import { bothRefused, markedBlocks, settleBlocks, type Choice, type MarkedBlock } from './choose.js';
import { checkInsideRepo, writeInsideRepo } from '../fs/inside.js';
import { maskSecrets } from '../content/secret-patterns.js';
import { dominantEol } from '../memdir/lines.js';
import { INDEX_FILE, pathKind } from '../memdir/kinds.js';
import type { GitContext } from '../git/repo.js';

export interface ResolveReport {
  /** Settled and staged. */
  resolved: string[];
  /** Still in conflict, each with why, and the conflict blocks left in the file (when it was written). */
  remaining: Array<{ path: string; reason: string; blocks?: LeftBlock[] }>;
  warnings: string[];
  /** Conflict blocks the choice applied to, settled or refused (with `--entry`, those whose label names it). */
  chosen: number;
}

/** A conflict block left in a file: where, what the driver's label names, and whether `--both` can settle it. */
export interface LeftBlock {
  line: number;
  what: string | null;
  reason: string | null;
  both: boolean;
  /** Why the choice asked for could not be made here, when one was asked for. */
  why: string | null;
}

/** A person's choice for the true conflicts (`resolve --ours|--theirs|--both`), for every block or one entry's. */
export interface ResolveChoice {
  choice: Choice;
  /** Only the blocks whose label names this (an index entry's target, a frontmatter key, a topic's lines). */
  entry?: string;
}

/**
 * The last line (1-based) of a topic's frontmatter: `---` on the first line opens it, the next
 * `---` line closes it; 0 when none opens, Infinity when none closes. A block that starts at or
 * above it lies in the frontmatter: a key holds one value, so no `--both`.
 */
export function frontmatterEnd(text: string): number {
  const lines = text.split(/\r?\n/);
  if (lines[0] !== '---') return 0;
  const close = lines.indexOf('---', 1);
  return close < 0 ? Infinity : close + 1;
}

/**
 * A repository path that resolve settles as memory: an index (MEMORY.md, ARCHIVE.md), a daily log,
 * or a topic file beside a MEMORY.md (in the working tree, or among `stagedIndexDirs`). Not the
 * memdir's view of its own files (src/memdir/kinds.ts's isMemoryPath): git gives a path alone.
 */
export function isMemoryInRepo(root: string, path: string, stagedIndexDirs: Set<string> = new Set()): boolean {
  const kind = pathKind(path);
  if (kind === 'index' || kind === 'log') return true;
  if (kind !== 'topic') return false;
  const dir = posix.dirname(path);
  return existsSync(join(root, dir, INDEX_FILE)) || stagedIndexDirs.has(dir);
}

/** The commits a merge, rebase or cherry-pick in progress merges (those that exist). */
const MERGED_HEADS = ['HEAD', 'MERGE_HEAD', 'REBASE_HEAD', 'CHERRY_PICK_HEAD'];

/**
 * The driver's merge of three blobs, git merge-file on temporary copies when it declines. sides:
 * the commits merged (for an entry deleted on one side and edited on the other, whose topic file
 * this merge may have deleted), when known.
 */
function mergeBlobs(at: GitContext, input: MergeInput, sides?: string[]): MergeOutcome {
  let outcome = mergeMemoryFile(input);
  if (!('lineMerge' in outcome) && outcome.deletedEdited && sides) {
    // An entry deleted on one side and edited on the other stays only with its topic file: the
    // merge is done, so the file is there (tracked or on disk), or it is gone though a side of
    // the merge held it (this merge deleted it), as the driver asks.
    const dir = posix.dirname(input.path);
    const byKey = new Map(outcome.deletedEdited.map((e) => [e.key, posix.normalize(dir === '.' ? e.key : `${dir}/${e.key}`)] as const));
    const asked = [...byKey.values()].filter((p) => !p.startsWith('../') && !p.startsWith('/'));
    const tracked = trackedAmong(at, asked);
    const held = readBlobs(at, sides.flatMap((c) => asked.map((p) => `${c}:${p}`)));
    const topicGone = new Map<string, boolean>();
    const askedSet = new Set(asked);
    for (const [key, p] of byKey) {
      if (!askedSet.has(p)) continue;
      const there = tracked.has(p) || existsSync(join(at.cwd, p));
      topicGone.set(key, !there && sides.some((c) => held.get(`${c}:${p}`) != null));
    }
    const again = mergeMemoryFile({ ...input, topicGone });
    if (!('lineMerge' in again)) outcome = again;
  }
  if (!('lineMerge' in outcome)) return outcome;
  let r: LineMergeResult;
  try {
    r = withTempFiles(input, (files) => mergeFile(at, files, { markerSize: input.markerSize }));
  } catch {
    r = null;
  }
  return lineMergeOutcome(r, outcome.reason, input.path);
}

/** Why memlint may not write (or read) this file, or null: a symlink at any level, outside the repository (src/fs/inside.ts). */
function refusal(root: string, file: string): string | null {
  const c = checkInsideRepo(root, file);
  return c.ok ? null : c.reason;
}

/**
 * paths: repository-relative files or folders (empty: every memory file in conflict, and every
 * tracked memory file holding conflict markers). Markers are each path's conflict-marker-size
 * attribute (7 when unset), as git's own merge and the driver write them; markerSize overrides it.
 */
export function resolveConflicts(at: GitContext, paths: string[], markerSize?: number, chosen?: ResolveChoice): ResolveReport {
  const root = at.cwd;
  const report: ResolveReport = { resolved: [], remaining: [], warnings: [], chosen: 0 };
  const explicit = paths.length > 0;
  const unmerged = unmergedPaths(at, paths);
  const indexDirs = new Set(unmerged.filter((u) => basename(u.path) === INDEX_FILE).map((u) => posix.dirname(u.path)));
  const staged = unmerged.filter((u) => (explicit ? pathKind(u.path) !== 'other' : isMemoryInRepo(root, u.path, indexDirs)));
  const stagedSet = new Set(unmerged.map((u) => u.path));
  const settled: string[] = [];
  /** Topic files that received a hook from `--both`: staged with what was settled. */
  const receivers: string[] = [];

  const sizes = markerSize === undefined ? conflictMarkerSizes(at, staged.map((u) => u.path)) : new Map<string, number>();
  const sizeOf = (path: string) => markerSize ?? sizes.get(path) ?? 7;
  const specs = staged.flatMap((u) => ([1, 2, 3] as const).filter((s) => u.stages[s]).map((s) => `:${s}:${u.path}`));
  const blobs = readBlobs(at, specs);
  const finish = (path: string, merged: MergeOutcome) => {
    const outcome = maskOutcome(merged);
    // The limit warning comes last, about the text written (settling blocks below changes it).
    pushAll(report.warnings, outcome.warnings.filter((w) => w !== outcome.limitWarning));
    let limit = outcome.limitWarning ?? null;
    const file = join(root, path);
    if (outcome.output === null) {
      report.remaining.push({ path, reason: outcome.conflicts.join('; ') || 'could not merge' });
      return;
    }
    const refused = refusal(root, file);
    if (refused) {
      if (limit) report.warnings.push(limit);
      report.remaining.push({ path, reason: `not written: ${refused}` });
      return;
    }
    let output = outcome.output;
    let left: LeftBlock[] = [];
    if (outcome.conflicts.length > 0) {
      const size = sizeOf(path);
      const text = output.toString('utf8');
      const blocks = markedBlocks(text, size) ?? markedBlocks(text, Math.min(7, size));
      if (blocks) {
        const index = pathKind(path) === 'index';
        let fmEnd: number | undefined;
        const inFrontmatter = (b: MarkedBlock) => b.line <= (fmEnd ??= frontmatterEnd(text));
        const topicOf = (key: string) => {
          const rel = posix.join(posix.dirname(path), key);
          const abs = join(root, rel);
          if (refusal(root, abs) || !existsSync(abs)) return null;
          // A topic still in conflict cannot take theirs' hook: settling it from its stages would
          // overwrite the hook, and staging it would end its conflict with its markers in it.
          const busy = `${rel} is in conflict itself: settle it first, then this entry`;
          if (stagedSet.has(rel) && !settled.includes(rel)) return busy;
          const text = readFileSync(abs, 'utf8');
          if (hasConflictMarkers(text, Math.min(7, sizeOf(rel)))) return busy;
          return { rel, text };
        };
        const pick = (b: MarkedBlock) => (chosen && (chosen.entry === undefined || b.what === chosen.entry) && !(chosen.choice === 'both' && !index && inFrontmatter(b)) ? chosen.choice : null);
        const r = settleBlocks(text, blocks, pick, { index, topicOf });
        // The blocks the choice named: settled, or refused with the reason (`--both` that cannot be).
        report.chosen += r.settled.length + r.left.filter((l) => l.why !== null).length;
        // `--both` is offered where it can settle the block: not a frontmatter key, nor an index
        // entry whose topic file the merge deletes.
        const both = (b: MarkedBlock) => (index ? bothRefused(b, topicOf) === null : !inFrontmatter(b));
        left = r.left.map(({ block: b, why, line, noBoth }) => ({ line, what: b.what, reason: b.reason, both: both(b) && !noBoth, why: why ?? (chosen?.choice === 'both' && !both(b) && (chosen.entry === undefined || b.what === chosen.entry) ? 'a frontmatter key holds one value: choose --ours or --theirs' : null) }));
        // Files that receive text are written before the file that gives it up (contract §14).
        for (const [rel, t] of r.topics) {
          writeInsideRepo(root, join(root, rel), t);
          receivers.push(rel);
        }
        output = Buffer.from(r.text, 'utf8');
        if (index && r.settled.length > 0) {
          const w = limitWarning(r.text, path);
          limit = w && maskSecrets(w);
        }
      }
    }
    const current = existsSync(file) ? readFileSync(file) : null;
    // The stages are blobs, LF where git converts line endings on checkout (core.autocrlf, eol):
    // the file keeps the CRLF the working tree had, as git's own checkout of it would write.
    if (current && dominantEol(current.toString('utf8')) === '\r\n' && !output.includes('\r')) output = Buffer.from(output.toString('utf8').replace(/\n/g, '\r\n'), 'utf8');
    if (!current || !current.equals(output)) writeInsideRepo(root, file, output);
    if (outcome.conflicts.length > 0 && (left.length > 0 || hasConflictMarkers(output.toString('utf8'), Math.min(7, sizeOf(path))))) {
      report.remaining.push({ path, reason: outcome.conflicts.join('; '), blocks: left });
    } else settled.push(path);
    if (limit) report.warnings.push(limit);
  };

  // Topics before indexes: `--both` moves theirs' hook from an index entry into its topic, which
  // must be settled by then (a topic settled after it would be written over from its stages).
  const indexLast = (a: string, b: string) => Number(pathKind(a) === 'index') - Number(pathKind(b) === 'index');
  // The report keeps git's order of the paths.
  const order = new Map(staged.map((u, i) => [u.path, i]));
  staged.sort((a, b) => indexLast(a.path, b.path));
  for (const u of staged) {
    const ours = u.stages[2] ? blobs.get(`:2:${u.path}`) : null;
    const theirs = u.stages[3] ? blobs.get(`:3:${u.path}`) : null;
    if (!ours || !theirs) {
      report.remaining.push({ path: u.path, reason: `${!ours ? 'deleted in ours' : 'deleted in theirs'}, changed on the other side: keep or remove it, then git add/rm` });
      continue;
    }
    const base = (u.stages[1] ? blobs.get(`:1:${u.path}`) : null) ?? Buffer.alloc(0);
    const input = { base, ours, theirs, path: u.path, markerSize: sizeOf(u.path) };
    const merged = mergeBlobs(at, input, MERGED_HEADS);
    const file = join(root, u.path);
    if (!existsSync(file)) {
      // The person deleted it while it was in conflict: theirs to finish, never written back.
      report.remaining.push({ path: u.path, reason: `deleted in the working tree while in conflict: "git rm" it to delete it, or "git checkout -m -- ${u.path}" to bring the conflict back` });
      continue;
    }
    const edited = refusal(root, file) === null ? readFileSync(file, 'utf8') : null;
    // The file as the person left it, when they worked on it since the conflict (a block settled
    // by hand, a line added, one block chosen by an earlier `resolve --entry`): the stages would
    // merge again what they already settled, and lose what they wrote.
    if (edited !== null && !asLeftByMerge(at, edited, merged, input)) {
      const state = readEdited(edited, sizeOf(u.path), [base, ours, theirs]);
      if (state.kind === 'settled') settled.push(u.path); // settled by hand: staged as it is
      else if (state.kind === 'left') report.remaining.push({ path: u.path, reason: state.reason });
      else {
        // Against the file's own base (git's stage 1), whatever made the conflict: a merge, a
        // rebase, a cherry-pick, a revert, a stash.
        const utf8 = (t: string) => Buffer.from(t, 'utf8');
        finish(u.path, mergeBlobs(at, { base, ours: utf8(state.sides.ours), theirs: utf8(state.sides.theirs), path: u.path, markerSize: sizeOf(u.path) }, MERGED_HEADS));
      }
      continue;
    }
    finish(u.path, merged);
  }

  // Files whose conflict markers were committed or written without index stages.
  const listed = explicit ? expandPaths(at, paths) : listFiles(at, { untracked: false }).filter((p) => isMemoryInRepo(root, p));
  for (const p of listed) if (!order.has(p)) order.set(p, order.size);
  const candidates = [...listed].sort(indexLast);
  if (markerSize === undefined) for (const [p, n] of conflictMarkerSizes(at, candidates.filter((p) => !stagedSet.has(p)))) sizes.set(p, n);
  // What git says of the files holding markers now, asked for all of them at once; each file is
  // read again at its turn (settling one may write another: --both moves a hook into its topic).
  const holdsMarkers = (path: string) => {
    const file = join(root, path);
    return !stagedSet.has(path) && pathKind(path) !== 'other' && existsSync(file) && refusal(root, file) === null && hasConflictMarkers(readFileSync(file, 'utf8'), Math.min(7, sizeOf(path)));
  };
  const facts = markedFacts(at, candidates.filter(holdsMarkers).map((path) => ({ path, markerSize: sizeOf(path) })));
  for (const path of candidates) {
    if (stagedSet.has(path) || pathKind(path) === 'other') continue;
    const file = join(root, path);
    if (!existsSync(file)) continue;
    const refused = refusal(root, file);
    if (refused) {
      if (explicit) report.remaining.push({ path, reason: `not written: ${refused}` });
      continue;
    }
    const raw = readFileSync(file);
    const text = raw.toString('utf8');
    const size = sizeOf(path);
    // git's markers are of the path's size; memlint's own 7 stay recognised beside a smaller one.
    if (!hasConflictMarkers(text, Math.min(7, size))) continue;
    const sides = splitConflictMarkers(text, Math.min(7, size));
    if (!sides) {
      report.remaining.push({ path, reason: 'conflict markers that are not well formed: resolve by hand' });
      continue;
    }
    const input = markedInput(at, path, text, sides, size, facts.get(path));
    finish(path, mergeBlobs(at, input, input.commits));
  }

  addPaths(at, [...new Set([...receivers, ...settled])]);
  pushAll(report.resolved, settled);
  const byOrder = (a: string, b: string) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity);
  report.resolved.sort(byOrder);
  report.remaining.sort((a, b) => byOrder(a.path, b.path));
  return report;
}

/** Where the conflict markers of a file with no index stages came from. */
export type MarkerOrigin =
  /** A merge commit brought them: they settle against the merge base of its parents. */
  | { kind: 'merge'; commit: string; ours: string; theirs: string; mergeBase: string | null }
  /** A commit with one parent brought them (a squash, a commit of a hand-made conflict): no base. */
  | { kind: 'commit'; commit: string }
  /** Not committed, a merge in progress: the merge base of HEAD and MERGE_HEAD (a rebase or cherry-pick: HEAD, the picked commit and its parent). */
  | { kind: 'merging'; ours: string; theirs: string; mergeBase: string | null }
  /** Not committed, no merge in progress: only the text outside the blocks is common ground. */
  | { kind: 'uncommitted' };

/**
 * The commit that brought the conflict markers in path (docs/merge.md, "memlint resolve"): the oldest commit of the
 * unbroken run, along HEAD's first-parent line, whose version of the file holds markers.
 */
export function markerOrigin(at: GitContext, path: string, markerSize = 7): MarkerOrigin {
  return markedFacts(at, [{ path, markerSize }]).get(path)!.origin;
}

/** What markedInput reads from git about one file: where its markers came from, and the file at the merge's sides. */
export interface MarkedFacts {
  origin: MarkerOrigin;
  /** The file at `<commit>:<path>` for the merge's ours, base and theirs (absent: no such file). */
  sides: Map<string, Buffer | null>;
}

/**
 * markerOrigin and the merge's sides for many files, git asked once for all of them: one walk of
 * the history for every path, the files' versions read in batches, HEAD, MERGE_HEAD and each merge
 * base resolved once. (Asked a file at a time, each of seven git processes read the repository
 * again for every file: a thousand files with committed markers took minutes.)
 */
export function markedFacts(at: GitContext, files: Array<{ path: string; markerSize: number }>): Map<string, MarkedFacts> {
  const histories = firstParentChangesOf(at, files.map((f) => f.path));
  const bases = new Map<string, string | null>();
  const baseOf = (a: string, b: string) => {
    const key = `${a} ${b}`;
    if (!bases.has(key)) bases.set(key, mergeBases(at, a, b)[0] ?? null);
    return bases.get(key)!;
  };
  let inProgress: MarkerOrigin | undefined;
  const notCommitted = (): MarkerOrigin => {
    if (inProgress) return inProgress;
    const head = resolveRef(at, 'HEAD')?.commit;
    const merging = resolveRef(at, 'MERGE_HEAD')?.commit;
    // A rebase or cherry-pick stopped on a conflict merges the commit it picks onto HEAD, with that
    // commit's parent as the base (git add of a file with its markers leaves no stages behind).
    const picked = merging ? undefined : (resolveRef(at, 'REBASE_HEAD') ?? resolveRef(at, 'CHERRY_PICK_HEAD'))?.commit;
    if (head && merging) inProgress = { kind: 'merging', ours: head, theirs: merging, mergeBase: baseOf(head, merging) };
    else if (head && picked) inProgress = { kind: 'merging', ours: head, theirs: picked, mergeBase: resolveRef(at, `${picked}^`)?.commit ?? null };
    else inProgress = { kind: 'uncommitted' };
    return inProgress;
  };
  // The oldest marked version of each file, walked back one commit a round for the files still marked.
  const oldest = new Map<string, number>();
  let walking = files.filter((f) => histories.get(f.path)!.length > 0).map((f) => ({ ...f, at: 0 }));
  while (walking.length > 0) {
    const specs = walking.map((w) => `${histories.get(w.path)![w.at]!.commit}:${w.path}`);
    const blobs = readBlobs(at, specs);
    const next: typeof walking = [];
    walking.forEach((w, k) => {
      const b = blobs.get(specs[k]!);
      if (!(b != null && hasConflictMarkers(b.toString('utf8'), Math.min(7, w.markerSize)))) return;
      oldest.set(w.path, w.at);
      if (w.at + 1 < histories.get(w.path)!.length) next.push({ ...w, at: w.at + 1 });
    });
    walking = next;
  }
  const origins = new Map<string, MarkerOrigin>();
  for (const f of files) {
    const i = oldest.get(f.path);
    if (i === undefined) {
      origins.set(f.path, notCommitted());
      continue;
    }
    const { commit, parents } = histories.get(f.path)![i]!;
    origins.set(f.path, parents.length >= 2 ? { kind: 'merge', commit, ours: parents[0]!, theirs: parents[1]!, mergeBase: baseOf(parents[0]!, parents[1]!) } : { kind: 'commit', commit });
  }
  const specs = files.flatMap((f) => {
    const o = origins.get(f.path)!;
    return o.kind === 'merge' || o.kind === 'merging' ? [o.ours, ...(o.mergeBase === null ? [] : [o.mergeBase]), o.theirs].map((c) => `${c}:${f.path}`) : [];
  });
  const sides = readBlobs(at, specs);
  return new Map(files.map((f) => [f.path, { origin: origins.get(f.path)!, sides }]));
}

/**
 * The driver's input for a file whose conflict markers have no index stages (docs/merge.md, "memlint resolve").
 * When the markers came from a merge (committed, or one still in progress) and the file is still
 * exactly git's line merge of the two sides, the sides themselves and their merge base: the
 * driver's own merge. Otherwise ours and theirs from the blocks, and as the base a diff3-style
 * base section, else the file at the merge base, else nothing (a single-parent commit: an add/add,
 * merged as sets), else (never committed) the text outside the blocks.
 */
export function markedInput(at: GitContext, path: string, text: string, sides: MarkedSides, markerSize = 7, facts = markedFacts(at, [{ path, markerSize }]).get(path)!): MergeInput & { commits?: string[] } {
  const utf8 = (s: string) => Buffer.from(s, 'utf8');
  const origin = facts.origin;
  // The merged commits, when known: whether the merge deleted a topic file (mergeBlobs).
  const commits = origin.kind === 'merge' || origin.kind === 'merging' ? [origin.ours, origin.theirs] : undefined;
  const fromBlocks = (base: Buffer): MergeInput & { commits?: string[] } => ({ base, ours: utf8(sides.ours), theirs: utf8(sides.theirs), path, markerSize, ...(commits ? { commits } : {}) });
  if (origin.kind === 'merge' || origin.kind === 'merging') {
    const [ours, base, theirs] = [origin.ours, origin.mergeBase, origin.theirs].map((c) => (c === null ? null : (facts.sides.get(`${c}:${path}`) ?? null)));
    const mergeBaseBlob = origin.mergeBase === null ? Buffer.alloc(0) : (base ?? Buffer.alloc(0));
    if (ours && theirs && isLineMergeOf(at, text, { base: mergeBaseBlob, ours, theirs }, sides.base !== null, markerSize)) return { base: mergeBaseBlob, ours, theirs, path, markerSize, commits: [origin.ours, origin.theirs] };
    return fromBlocks(sides.base !== null ? utf8(sides.base) : mergeBaseBlob);
  }
  if (sides.base !== null) return fromBlocks(utf8(sides.base));
  return fromBlocks(origin.kind === 'commit' ? Buffer.alloc(0) : utf8(sides.outside));
}

/** Marker lines without their labels (git names the sides as it likes: HEAD, a branch, a commit). */
const unlabelled = (text: string, size: number) => text.replace(new RegExp(`^(<{${size}}|>{${size}}|\\|{${size}})(?= |$)[^\r\n]*`, 'gm'), '$1');

/** Whether text is git's line merge of the three sides, labels aside. */
function isLineMergeOf(at: GitContext, text: string, blobs: { base: Buffer; ours: Buffer; theirs: Buffer }, withBase: boolean, markerSize: number): boolean {
  const size = new RegExp(`^<{${Math.min(7, markerSize)},}(?= |$)`, 'm').exec(text)?.[0].length ?? markerSize;
  const styles = withBase ? (['diff3', 'zdiff3'] as const) : (['merge'] as const);
  return withTempFiles(blobs, (files) =>
    styles.some((style) => {
      try {
        return unlabelled(mergeFile(at, files, { markerSize: size, style }).output.toString('utf8'), size) === unlabelled(text, size);
      } catch {
        return false;
      }
    }),
  );
}

function withTempFiles<T>(blobs: { base: Buffer; ours: Buffer; theirs: Buffer }, use: (files: { base: string; ours: string; theirs: string }) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'memlint-resolve-'));
  try {
    const files = { base: join(dir, 'base'), ours: join(dir, 'ours'), theirs: join(dir, 'theirs') };
    writeFileSync(files.base, blobs.base);
    writeFileSync(files.ours, blobs.ours);
    writeFileSync(files.theirs, blobs.theirs);
    return use(files);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Whether a file in conflict is still as the merge left it: the driver's result from its stages
 * (knowing the merge's commits, or as git ran it), git's own line merge of them (labels and line
 * endings aside), or ours untouched (a merge driver that could not start leaves OURS as it was).
 */
function asLeftByMerge(at: GitContext, text: string, merged: MergeOutcome, blobs: MergeInput): boolean {
  const size = new RegExp(`^<{${Math.min(7, blobs.markerSize)},}(?= |$)`, 'm').exec(text)?.[0].length ?? blobs.markerSize;
  const lf = (t: string) => unlabelled(t.replace(/\r\n/g, '\n'), size);
  const mine = lf(text);
  if (lf(blobs.ours.toString('utf8')) === mine) return true;
  if (merged.output !== null && lf(merged.output.toString('utf8')) === mine) return true;
  // The driver as git ran it, not knowing the merge's commits (a cherry-pick: which is theirs).
  const plain = mergeMemoryFile(blobs);
  if (!('lineMerge' in plain) && plain.output !== null && lf(plain.output.toString('utf8')) === mine) return true;
  return isLineMergeOf(at, text.replace(/\r\n/g, '\n'), blobs, /^\|{7,}(?: |$)/m.test(text), blobs.markerSize);
}

/**
 * What a file the person worked on during the conflict holds (pure): settled by hand (no marker
 * line left), a conflict to leave with the reason, or blocks to settle. Lines that look like
 * markers but are the file's own text (a heading's `=======`, an example of a conflict in a code
 * block) are text as many times as its base or a side (`blobs`) holds them.
 */
function readEdited(edited: string, size: number, blobs: Buffer[]): { kind: 'settled' } | { kind: 'left'; reason: string } | { kind: 'blocks'; sides: MarkedSides } {
  const marks = markerLines(edited, size);
  const own = new Map<string, number>();
  for (const blob of blobs) {
    const n = new Map<string, number>();
    for (const m of markerLines(blob.toString('utf8'), size)) n.set(m.text, (n.get(m.text) ?? 0) + 1);
    for (const [t, k] of n) own.set(t, Math.max(own.get(t) ?? 0, k));
  }
  const seen = new Map<string, number>();
  const extra = marks.filter((m) => {
    const k = (seen.get(m.text) ?? 0) + 1;
    seen.set(m.text, k);
    return k > (own.get(m.text) ?? 0);
  });
  if (extra.length === 0) return { kind: 'settled' };
  if (extra.length < marks.length) return { kind: 'left', reason: `conflict markers (line ${extra[0]!.line}) beside marker lines of its own text (a code example, a heading's underline): settle it by hand` };
  const min = Math.min(7, size);
  const sides = hasConflictMarkers(edited, min) ? splitConflictMarkers(edited, min) : null;
  if (sides && markerLines(sides.outside, size).length === 0) return { kind: 'blocks', sides };
  const line = (sides ? strayLine(edited, size) : null) ?? extra[0]!.line;
  return { kind: 'left', reason: `a conflict marker line is left at line ${line} (a block settled by hand but for a marker): delete it or settle the block by hand, then run resolve again` };
}

/** The line (1-based) of the first marker line outside the well-formed blocks of text, or null. */
function strayLine(text: string, size: number): number | null {
  const blocks = markedBlocks(text, Math.min(7, size)) ?? [];
  const offsets = lineStarts(text);
  const stray = markerLines(text, size).find((m) => !blocks.some((b) => b.start <= offsets[m.line - 1]! && offsets[m.line - 1]! < b.end));
  return stray ? stray.line : null;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Explicit paths: files as given, folders expanded to the tracked files under them. */
function expandPaths(at: GitContext, paths: string[]): string[] {
  const root = at.cwd;
  const tracked = listFiles(at, { untracked: false });
  const out = new Set<string>();
  for (const p of paths) {
    const norm = p.replace(/\\/g, '/').replace(/\/+$/, '');
    if (norm === '' || norm === '.') tracked.forEach((t) => out.add(t));
    else if (tracked.includes(norm) || (existsSync(join(root, norm)) && !lstatSync(join(root, norm)).isDirectory())) out.add(norm);
    else for (const t of tracked) if (t.startsWith(`${norm}/`)) out.add(t);
  }
  return [...out];
}
