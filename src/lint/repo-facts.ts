// Repository facts for rules, gathered lazily and at most once per run (one git call per kind).
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringsInTrackedFiles } from '../git/blobs.js';
import { committedLines, datesForText, type CommittedLines, type LineDate } from '../git/line-dates.js';
import { commitIds } from '../git/refs.js';
import { conflictMarkerSizes, ignoredPaths, listFilesTagged } from '../git/status.js';
import { isWithin, realOrResolved, slashRelative } from '../fs/paths.js';
import { walkFiles } from '../fs/walk.js';
import { historyLosses, linkLineChanges, memoryNameChanges, settleRenames, uncommittedLosses, unreachableCommits, type CommitLines, type LossEvent } from '../git/lost-paths.js';
import { mergedFate, nameFate, nameHistory, type NameFate, type NameHistory } from './stale-links.js';
import { fateOf, indexLosses, type LossIndex, type PathFate } from './stale.js';
import type { RepoFacts } from './types.js';
import type { MemoryFile } from '../memdir/types.js';
import type { GitContext } from '../git/repo.js';

/** Facts one run shares between its memdirs (and --fix passes): history is read once per run. */
export interface SharedRepoFacts {
  losses?: LossIndex;
  /** The committed lines of each memory folder's files with their dates, by folder. */
  committed?: Map<string, Map<string, CommittedLines>>;
  /** The `name:` history of each memdir (by its repository-relative path). */
  names?: Map<string, NameHistory>;
  /** The commit each hex string a memory holds names (null: none). */
  commits?: Map<string, string | null>;
  /** Whether a ref reaches each commit asked about. */
  reached?: Map<string, boolean>;
  /** By memory folder (repository-relative): the lines with `[[links]]` each commit removing a memory changed. */
  linkLines?: Map<string, Map<string, CommitLines[]>>;
  /** By memory folder (repository-relative): whether each line of code asked about is in a tracked file outside it. */
  inTracked?: Map<string, Map<string, boolean>>;
}

export interface RepoFactsOptions {
  /** The revision checked: the working tree (default) or the staged tree. */
  revision?: 'worktree' | 'staged';
  /** One per run and repository. */
  shared?: SharedRepoFacts;
  /** The texts of the memdir's files the run reads: a question rules ask file by file is asked for all of them at once. */
  texts?: () => string[];
}

export function createRepoFacts(at: GitContext, memdir: string, opts: RepoFactsOptions = {}): RepoFacts {
  const root = at.cwd;
  const revision = opts.revision ?? 'worktree';
  const shared = opts.shared ?? {};
  let tracked: Set<string> | undefined;
  let notCheckedOut: Set<string> | undefined;
  let commitAsks = 0;
  let grepAsks = 0;
  let reachAsks = 0;
  const reached = (shared.reached ??= new Map());
  const lineDates = new Map<string, Array<LineDate | undefined>>();
  let claudeMd: Array<{ path: string; text: string }> | undefined;
  // Whether each line of code is in the repository outside this memory folder, for every pass of the run.
  const memdirKey = slashRelative(root, memdir);
  shared.inTracked ??= new Map();
  const inTracked = shared.inTracked.get(memdirKey) ?? shared.inTracked.set(memdirKey, new Map()).get(memdirKey)!;
  const markerSizes = new Map<string, number>();
  const repoRel = (path: string) => slashRelative(root, path);
  const trackedSet = () => {
    if (!tracked) {
      const listed = listFilesTagged(at, { untracked: false });
      tracked = new Set(listed.files);
      notCheckedOut = listed.notCheckedOut;
    }
    return tracked;
  };
  let indexDirs: Set<string> | undefined;
  // Whether the revision checked holds a path: the working tree as it is on disk (nothing is read,
  // a symlink is not followed), or the index.
  const present = (path: string, folder: boolean): boolean => {
    // A committed symlink inside the repository (`.claude/hooks` -> `../hooks/scripts`) leads to a
    // path the repository holds: what lies past it is judged where it leads, in either revision.
    const through = throughSymlink(root, path);
    if (through !== null) return through === 'lost' ? false : through === 'file' ? !folder : folder;
    if (revision === 'staged') {
      if (!folder) return trackedSet().has(path);
      if (!indexDirs) {
        indexDirs = new Set();
        for (const f of trackedSet()) for (let i = f.indexOf('/'); i >= 0; i = f.indexOf('/', i + 1)) indexDirs.add(f.slice(0, i));
      }
      return indexDirs.has(path);
    }
    try {
      const abs = join(root, ...path.split('/'));
      const st = lstatSync(abs);
      // git leaves a folder it emptied on disk: an empty folder holds nothing a memory could mean.
      return folder ? st.isDirectory() && readdirSync(abs).length > 0 : true;
    } catch {
      return outsideSparseCheckout(path, folder);
    }
  };
  // Committed but left out of a sparse checkout (skip-worktree): held by the revision, not on disk.
  const outsideSparseCheckout = (path: string, folder: boolean): boolean => {
    trackedSet();
    if (notCheckedOut!.size === 0) return false;
    if (!folder) return notCheckedOut!.has(path);
    for (const f of notCheckedOut!) if (f.startsWith(`${path}/`)) return true;
    return false;
  };
  const pathFates = new Map<string, PathFate | null>();
  // Which lost paths git ignores, asked with `git check-ignore`: the first memory's alone, then,
  // as more memories ask (lint calls for one memory at a time), every path history lost and its
  // folders at once, so a run makes at most two calls however many memories name lost paths.
  const ignoreKnown = new Map<string, boolean>();
  let ignoreAsks = 0;
  const ignoredAmong = (keys: string[], losses: LossIndex | undefined): Set<string> => {
    let ask = keys.filter((key) => !ignoreKnown.has(key));
    if (ask.length > 0) {
      if (++ignoreAsks > 1 && losses) ask = [...new Set([...ask, ...lostKeys(losses)])];
      // git refuses to answer for a path past a symlink (the whole call fails); such a path is not ignored.
      const askable = ask.filter((key) => throughSymlink(root, key.replace(/\/$/, '')) === null);
      const ignored = askable.length > 0 ? ignoredPaths(at, askable, { noIndex: true }) : new Set<string>();
      for (const key of ask) ignoreKnown.set(key, ignored.has(key));
    }
    return new Set(keys.filter((key) => ignoreKnown.get(key)));
  };
  const facts: RepoFacts = {
    root,
    uncommitted: revision === 'staged' ? 'the staged change' : 'an uncommitted change',
    lostPaths(refs) {
      const fresh = new Map<string, PathFate>();
      const missing = new Map<string, { path: string; folder: boolean }>();
      for (const ref of refs) {
        const key = ref.folder ? `${ref.path}/` : ref.path;
        if (pathFates.has(key) || missing.has(key)) continue;
        if (present(ref.path, ref.folder)) pathFates.set(key, null);
        else missing.set(key, ref);
      }
      if (missing.size > 0) {
        const losses = (shared.losses ??= indexLosses([...uncommittedLosses(at, revision), ...historyLosses(at)]));
        // The loose renames these paths lead through are settled together (one git call), then asked again.
        const unsettled: LossEvent[] = [];
        for (const ref of missing.values()) fateOf(ref, losses, present, unsettled);
        if (unsettled.length > 0) settleRenames(at, unsettled);
        for (const [key, ref] of missing) {
          const fate = fateOf(ref, losses, present);
          if (fate) fresh.set(key, fate);
          else pathFates.set(key, null);
        }
      }
      // A path git ignores now (a folder of downloads once committed, then kept local) was given up
      // on purpose and may well be there on the reader's machine.
      const ignored = ignoredAmong([...fresh.keys()], shared.losses);
      for (const [key, fate] of fresh) pathFates.set(key, ignored.has(key) ? null : fate);
      const out = new Map<string, PathFate>();
      for (const ref of refs) {
        const key = ref.folder ? `${ref.path}/` : ref.path;
        const fate = pathFates.get(key);
        if (fate) out.set(key, fate);
      }
      return out;
    },
    lostMemoryNames(names, resolves) {
      const out = new Map<string, NameFate>();
      if (names.length === 0) return out;
      const rel = repoRel(memdir);
      if (rel.startsWith('..')) return out;
      shared.names ??= new Map();
      let history = shared.names.get(rel);
      if (!history) {
        history = nameHistory(memoryNameChanges(at, rel), rel);
        shared.names.set(rel, history);
      }
      for (const n of names) {
        const fate = nameFate(n, history, resolves);
        if (fate) out.set(n, fate);
      }
      // A removal that rewrote links to another memory in the same commit was a merge: one git
      // call for all such commits, only when some link names a removed memory.
      // Each commit's lines are kept for the run: memories whose links one commit removed ask once.
      const removed = [...new Set([...out.values()].flatMap((f) => (f.kind === 'removed' ? [f.commit] : [])))];
      if (removed.length > 0) {
        shared.linkLines ??= new Map();
        const known = shared.linkLines.get(rel) ?? shared.linkLines.set(rel, new Map()).get(rel)!;
        const missing = removed.filter((c) => !known.has(c));
        if (missing.length > 0) {
          for (const c of missing) known.set(c, []);
          for (const change of linkLineChanges(at, missing, rel)) known.get(change.commit)?.push(change);
        }
        const lines = removed.flatMap((c) => known.get(c)!);
        for (const [n, fate] of out) out.set(n, mergedFate(n, fate, lines));
      }
      return out;
    },
    lostCommits(candidates) {
      const existing = [...facts.existingCommits(candidates)];
      const commitOf = shared.commits!;
      const unknown = [...new Set(existing.map((c) => commitOf.get(c)!))].filter((id) => !reached.has(id));
      if (unknown.length > 0) {
        // From the second question on, every commit the memdir's texts name is asked with these.
        const asked = ++reachAsks > 1 ? [...new Set([...unknown, ...[...commitOf.values()].filter((id): id is string => id !== null && !reached.has(id))])] : unknown;
        const gone = unreachableCommits(at, asked);
        for (const id of asked) reached.set(id, !gone.has(id));
      }
      return new Set(existing.filter((c) => !reached.get(commitOf.get(c)!)));
    },
    trackedFiles: trackedSet,
    notCheckedOut() {
      trackedSet();
      return notCheckedOut!;
    },
    existingCommits(candidates) {
      const commitOf = (shared.commits ??= new Map());
      let unknown = candidates.filter((c) => !commitOf.has(c));
      if (unknown.length > 0) {
        // Rules ask for one file at a time: from the second question on, every hex string the
        // memdir's texts hold is asked with these, in the same call.
        if (++commitAsks > 1 && opts.texts) unknown = [...new Set([...unknown, ...hexStrings(opts.texts())])].filter((c) => !commitOf.has(c));
        const found = commitIds(at, unknown);
        for (const c of unknown) commitOf.set(c, found.get(c) ?? null);
      }
      return new Set(candidates.filter((c) => commitOf.get(c)));
    },
    lineDates(file: MemoryFile) {
      let d = lineDates.get(file.path);
      if (!d) {
        // A file git does not track has no commit dates (one `git ls-files` for the run answers
        // for every file). The others' come from one `git log` over the memory folder's history,
        // read once per run for all its files (src/git/line-dates.ts).
        const rel = repoRel(file.path);
        if (!this.trackedFiles().has(rel)) d = [];
        else {
          const folder = slashRelative(root, memdir);
          const spec = folder.startsWith('..') ? rel : folder === '' ? '.' : folder;
          shared.committed ??= new Map();
          let lines = shared.committed.get(spec);
          // A daily or session log counts from the date in its path and never asks: its history is left out.
          const logs = `${spec === '.' ? '' : `${spec.replace(/[*?[\]\\]/g, '\\$&')}/`}logs/[0-9][0-9][0-9][0-9]/[0-9][0-9]/**`;
          if (!lines) shared.committed.set(spec, (lines = committedLines(at, [`:(literal)${spec}`, `:(exclude,glob)${logs}`])));
          d = datesForText(lines.get(rel), file.text);
        }
        lineDates.set(file.path, d);
      }
      return d;
    },
    stringsInTrackedFiles(needles, others) {
      let unknown = [...new Set(needles)].filter((n) => !inTracked.has(n));
      if (unknown.length > 0) {
        if (++grepAsks > 1 && others) unknown = [...new Set([...unknown, ...others()])].filter((n) => !inTracked.has(n));
        const found = stringsInTrackedFiles(at, unknown, memdirKey.startsWith('..') ? '' : memdirKey);
        for (const n of unknown) inTracked.set(n, found.has(n));
      }
      return new Set(needles.filter((n) => inTracked.get(n)));
    },
    claudeMdTexts() {
      claudeMd ??= readClaudeMd(root, memdir);
      return claudeMd;
    },
    conflictMarkerSize(file: MemoryFile) {
      let n = markerSizes.get(file.path);
      if (n === undefined) {
        // The first file alone; from the second on, every Markdown file of its folder in the same
        // `git check-attr` call (lint asks for one file at a time): one call per folder, not per file.
        const ask = (paths: string[]) => {
          try {
            return conflictMarkerSizes(at, paths.map(repoRel));
          } catch {
            return null; // git could not say (a path it refuses)
          }
        };
        let asked = markerSizes.size === 0 ? [file.path] : [file.path, ...markdownBeside(file.path).filter((p) => p !== file.path && !markerSizes.has(p))];
        let sizes = ask(asked);
        if (!sizes && asked.length > 1) sizes = ask((asked = [file.path]));
        // git's default where it could not say
        for (const p of asked) markerSizes.set(p, sizes?.get(repoRel(p)) ?? 7);
        n = markerSizes.get(file.path)!;
      }
      return n;
    },
  };
  return facts;
}

/** The Markdown files beside a file (its folder's `*.md` entries), as paths. */
function markdownBeside(path: string): string[] {
  const folder = dirname(path);
  try {
    return readdirSync(folder, { withFileTypes: true }).flatMap((e) => (e.isFile() && e.name.endsWith('.md') ? [join(folder, e.name)] : []));
  } catch {
    return [];
  }
}

/** Every string of 7 to 40 hex digits with a letter and a digit (what a commit id looks like), in these texts. */
function hexStrings(texts: string[]): Set<string> {
  const out = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(/(?<![0-9a-f])[0-9a-f]{7,40}(?![0-9a-f])/g)) if (/[a-f]/.test(m[0]) && /\d/.test(m[0])) out.add(m[0]);
  return out;
}

/** Every path history lost, and each of its folders as a memory names one (`dir/`). */
function lostKeys(losses: LossIndex): Set<string> {
  const keys = new Set<string>();
  for (const path of losses.newest.keys()) {
    keys.add(path);
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) keys.add(path.slice(0, i + 1));
  }
  return keys;
}

/** CLAUDE.md files in scope of a folder: from the repository root down to it, as Claude Code loads them. */
function readClaudeMd(root: string, memdir: string): Array<{ path: string; text: string }> {
  const dirs: string[] = [];
  for (let d = memdir; ; d = dirname(d)) {
    dirs.unshift(d);
    if (d === root || dirname(d) === d || !isWithin(d, root)) break;
  }
  const out: Array<{ path: string; text: string }> = [];
  const realRoot = realOrResolved(root);
  // Nothing is read through a symlink that leads out of the repository (docs/security.md).
  const read = (p: string) => {
    try {
      if (existsSync(p) && isWithin(realOrResolved(p), realRoot)) out.push({ path: p, text: readFileSync(p, 'utf8') });
    } catch {
      // unreadable CLAUDE.md: nothing to compare against
    }
  };
  for (const d of dirs) {
    read(join(d, 'CLAUDE.md'));
    read(join(d, '.claude', 'CLAUDE.md'));
    read(join(d, 'CLAUDE.local.md'));
    const rules = join(d, '.claude', 'rules');
    if (isWithin(realOrResolved(rules), realRoot)) for (const f of walkFiles(rules, { withSymlinks: true })) if (f.endsWith('.md')) read(join(rules, f));
  }
  return out;
}

/**
 * What a repository path is when a folder on its way (or the path itself) is a symlink on disk: a
 * 'file' or a non-empty 'folder' where the link leads, inside the repository, or 'lost' (the link
 * leads outside it, or to nothing there). null when no symlink is on the way: the caller decides as
 * for any path. Nothing outside the repository is read.
 */
function throughSymlink(root: string, path: string): 'file' | 'folder' | 'lost' | null {
  const parts = path.split('/');
  let linked = false;
  for (let i = 1; i <= parts.length && !linked; i++) {
    try {
      linked = lstatSync(join(root, ...parts.slice(0, i))).isSymbolicLink();
    } catch {
      return null;
    }
  }
  if (!linked) return null;
  const real = realOrResolved(join(root, ...parts));
  if (!isWithin(real, realOrResolved(root))) return 'lost';
  try {
    const st = lstatSync(real);
    if (!st.isDirectory()) return 'file';
    return readdirSync(real).length > 0 ? 'folder' : 'lost';
  } catch {
    return 'lost';
  }
}
