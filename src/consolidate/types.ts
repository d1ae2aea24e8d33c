// The consolidation plan's data: a memdir snapshot (texts) flows through pure steps, each returning
// the next snapshot and what it did; one writer applies the difference under the lock.
import type { PathFate } from '../lint/stale.js';
import type { LineDate } from '../git/line-dates.js';

/** What a step sees and produces. Maps are never mutated in place: a step returns new ones. */
export interface MemState {
  /** Memory files of the memdir (Markdown), by memdir-relative path with '/' separators. */
  files: Map<string, string>;
  /** Archive files this run creates or changes (ARCHIVE.md included), by archive-relative path. */
  archive: Map<string, string>;
  /** Memdir files moved into the archive this run (never deleted). */
  moves: Array<{ from: string; to: string }>;
}

/** Facts about the repository, asked for lazily (each is one git call at most, and only when needed). */
export interface ConsolidateFacts {
  /** The day of the run, YYYY-MM-DD. */
  today: string;
  /** Committer date (YYYY-MM-DD) of each line of a memdir file, 1-based; undefined when not committed; a ShallowDate past a shallow clone's boundary. */
  lineDates(rel: string, text: string): Array<LineDate | undefined>;
  /** When each memdir file was first committed (ms); absent when never committed. */
  firstCommitTimes(): Map<string, number>;
  /** Date (YYYY-MM-DD) of the last commit touching each memdir file; absent when never committed, or when that commit is a shallow clone's boundary (its date is not the file's). */
  lastCommitDates(): Map<string, string>;
  /** For memdir-relative paths missing from the tree: the commit that deleted each (newest), when any. */
  deletions(rels: string[]): Map<string, { commit: string; date: string }>;
  /**
   * What became of the repository paths a memory names that the working tree no longer holds
   * (no-stale-reference's facts: one git log over history, asked only when a path is missing).
   */
  lostPaths(refs: Array<{ path: string; folder: boolean }>): Map<string, PathFate>;
  /**
   * Memdir-relative paths of committed files a sparse checkout leaves out (skip-worktree: in the
   * repository, not on disk), among those asked.
   */
  notCheckedOut(rels: string[]): Set<string>;
  /** Whether the memdir is inside a git repository (reasons say "never committed" only then). */
  inGit: boolean;
}

export interface StepContext {
  facts: ConsolidateFacts;
  /** Relative paths of every file in the memdir (Markdown or not) at the start of the run. */
  allPaths: Set<string>;
  /** Relative paths of the files already in the archive folder. */
  archivePaths: Set<string>;
  /** The text of a file already in the archive (read on demand). */
  archiveText?: (rel: string) => string | undefined;
  /** How the memdir is named in the archive index (path relative to the archive folder). */
  memdirLabel: string;
  /** The memdir's path from the repository root, when it is inside one (an index may name a topic by it). */
  fromRoot?: string;
  staleDays: number;
  prune: boolean;
  /**
   * The secrets no-secrets reports in the memdir's files (value -> kind, allowed ones left out):
   * text holding one is never copied or moved by a step, only reported (contract §9).
   */
  secrets?: ReadonlyMap<string, string>;
}

export interface StepResult<R> {
  state: MemState;
  report: R;
}
