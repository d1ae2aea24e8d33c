// `memlint resolve`: settles memory files left in conflict without the driver (a hosted merge, a
// clone without the install, a missing binary), with the same merges as the driver. Reads the
// index stages 1-3 when git has them, else the conflict markers in the file.
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, posix } from 'node:path';
import { addPaths, mergeFile, readBlobs, trackedFiles, unmergedPaths } from '../git/index.js';
import { fileKind, lineMergeOutcome, mergeMemoryFile, writeAtomic, type LineMergeResult, type MergeInput, type MergeOutcome } from './driver.js';
import { hasConflictMarkers, splitConflictMarkers } from './text.js';

export interface ResolveReport {
  /** Settled and staged. */
  resolved: string[];
  /** Still in conflict, each with why. */
  remaining: Array<{ path: string; reason: string }>;
  warnings: string[];
}

/** A memory file: an index, a daily log, or a topic file beside a MEMORY.md. */
export function isMemoryPath(root: string, path: string, stagedIndexDirs: Set<string> = new Set()): boolean {
  const kind = fileKind(path);
  if (kind === 'index' || kind === 'log') return kind === 'log' || basename(path) === 'MEMORY.md' || basename(path) === 'ARCHIVE.md';
  if (kind !== 'topic') return false;
  const dir = posix.dirname(path);
  return existsSync(join(root, dir, 'MEMORY.md')) || stagedIndexDirs.has(dir);
}

/** The driver's merge of three blobs, git merge-file on temporary copies when it declines. */
function mergeBlobs(root: string, input: MergeInput): MergeOutcome {
  const outcome = mergeMemoryFile(input);
  if (!('lineMerge' in outcome)) return outcome;
  const dir = mkdtempSync(join(tmpdir(), 'memlint-resolve-'));
  let r: LineMergeResult;
  try {
    const files = { base: join(dir, 'base'), ours: join(dir, 'ours'), theirs: join(dir, 'theirs') };
    writeFileSync(files.base, input.base);
    writeFileSync(files.ours, input.ours);
    writeFileSync(files.theirs, input.theirs);
    r = mergeFile(root, files, { markerSize: input.markerSize });
  } catch {
    r = null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lineMergeOutcome(r, outcome.reason, input.path);
}

function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * paths: repository-relative files or folders (empty: every memory file in conflict, and every
 * tracked memory file holding conflict markers).
 */
export function resolveConflicts(root: string, paths: string[], markerSize = 7): ResolveReport {
  const report: ResolveReport = { resolved: [], remaining: [], warnings: [] };
  const explicit = paths.length > 0;
  const unmerged = unmergedPaths(root, paths);
  const indexDirs = new Set(unmerged.filter((u) => basename(u.path) === 'MEMORY.md').map((u) => posix.dirname(u.path)));
  const staged = unmerged.filter((u) => (explicit ? fileKind(u.path) !== 'other' : isMemoryPath(root, u.path, indexDirs)));
  const stagedSet = new Set(unmerged.map((u) => u.path));
  const settled: string[] = [];

  const specs = staged.flatMap((u) => ([1, 2, 3] as const).filter((s) => u.stages[s]).map((s) => `:${s}:${u.path}`));
  const blobs = readBlobs(root, specs);
  const finish = (path: string, outcome: MergeOutcome) => {
    report.warnings.push(...outcome.warnings);
    const file = join(root, path);
    if (outcome.output === null) {
      report.remaining.push({ path, reason: outcome.conflicts.join('; ') || 'could not merge' });
      return;
    }
    if (isSymlink(file)) {
      report.remaining.push({ path, reason: 'is a symbolic link: not written' });
      return;
    }
    const current = existsSync(file) ? readFileSync(file) : null;
    if (!current || !current.equals(outcome.output)) writeAtomic(file, outcome.output);
    if (outcome.conflicts.length > 0) report.remaining.push({ path, reason: outcome.conflicts.join('; ') });
    else settled.push(path);
  };

  for (const u of staged) {
    const ours = u.stages[2] ? blobs.get(`:2:${u.path}`) : null;
    const theirs = u.stages[3] ? blobs.get(`:3:${u.path}`) : null;
    if (!ours || !theirs) {
      report.remaining.push({ path: u.path, reason: `${!ours ? 'deleted in ours' : 'deleted in theirs'}, changed on the other side: keep or remove it, then git add/rm` });
      continue;
    }
    const base = (u.stages[1] ? blobs.get(`:1:${u.path}`) : null) ?? Buffer.alloc(0);
    finish(u.path, mergeBlobs(root, { base, ours, theirs, path: u.path, markerSize }));
  }

  // Files whose conflict markers were committed or written without index stages.
  const candidates = explicit ? expandPaths(root, paths) : trackedFiles(root).filter((p) => isMemoryPath(root, p));
  for (const path of candidates) {
    if (stagedSet.has(path) || fileKind(path) === 'other') continue;
    const file = join(root, path);
    if (!existsSync(file) || isSymlink(file)) continue;
    const raw = readFileSync(file);
    const text = raw.toString('utf8');
    if (!hasConflictMarkers(text)) continue;
    const sides = splitConflictMarkers(text);
    if (!sides) {
      report.remaining.push({ path, reason: 'conflict markers that are not well formed: resolve by hand' });
      continue;
    }
    const [base, ours, theirs] = [sides.base ?? sides.outside, sides.ours, sides.theirs].map((s) => Buffer.from(s, 'utf8')) as [Buffer, Buffer, Buffer];
    finish(path, mergeBlobs(root, { base, ours, theirs, path, markerSize }));
  }

  addPaths(root, settled);
  report.resolved.push(...settled);
  return report;
}

/** Explicit paths: files as given, folders expanded to the tracked files under them. */
function expandPaths(root: string, paths: string[]): string[] {
  const tracked = trackedFiles(root);
  const out = new Set<string>();
  for (const p of paths) {
    const norm = p.replace(/\\/g, '/').replace(/\/+$/, '');
    if (norm === '' || norm === '.') tracked.forEach((t) => out.add(t));
    else if (tracked.includes(norm) || (existsSync(join(root, norm)) && !lstatSync(join(root, norm)).isDirectory())) out.add(norm);
    else for (const t of tracked) if (t.startsWith(`${norm}/`)) out.add(t);
  }
  return [...out];
}
