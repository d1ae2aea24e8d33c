// The contract between the lint engine and its rules. A rule is one module exporting a `Rule`:
// unified-lint-rule's shape (an id, docs with ok/not-ok examples, one check function) with
// markdownlint's surgical fixes (text edits, never a re-serialized file). Rules never do I/O of
// their own: the engine hands them the file, the memdir model and the repository facts.
import type { Root } from 'mdast';
import type { LineDate } from '../git/line-dates.js';

export type Severity = 'off' | 'warn' | 'error';

import type { MemoryFile, MemdirModel } from '../memdir/types.js';
import type { FileKind } from '../memdir/kinds.js';
import type { BlockModel } from '../memdir/blocks.js';
import type { ClaudeFormat } from '../memdir/format.js';
import type { PathFate } from './stale.js';
import type { NameFate } from './stale-links.js';

/** Facts about the repository, gathered once per run and only when a rule asks for them. */
export interface RepoFacts {
  root: string;
  /** Tracked files, repository-relative with '/' separators. */
  trackedFiles(): Set<string>;
  /** Tracked files a sparse checkout leaves out (skip-worktree: committed, not on disk); the same git call as trackedFiles. */
  notCheckedOut(): Set<string>;
  /** Which of these hex strings (7-40 chars) name commits in the repository (one git call). */
  existingCommits(candidates: string[]): Set<string>;
  /**
   * The date (YYYY-MM-DD, committer's local date) each line of a file was last committed, 1-based;
   * undefined for lines not committed yet; a ShallowDate for a line past a shallow clone's boundary
   * (its day unknown). One `git log` per memory folder and run (src/git/line-dates.ts).
   */
  lineDates(file: MemoryFile): Array<LineDate | undefined>;
  /**
   * Which of these strings (whole lines of code, trimmed) occur in a tracked file outside the
   * memory folder (one git call). `others`: the strings the memdir's other files would ask,
   * asked with these from the second question of a run on.
   */
  stringsInTrackedFiles(needles: string[], others?: () => string[]): Set<string>;
  /** Text of the CLAUDE.md files in scope for the memdir (CLAUDE.md, .claude/CLAUDE.md, .claude/rules/*.md, CLAUDE.local.md). */
  claudeMdTexts(): Array<{ path: string; text: string }>;
  /** git's conflict marker size for a file (its `conflict-marker-size` attribute, 7 when unset): one `git check-attr`, cached. */
  conflictMarkerSize(file: MemoryFile): number;
  /**
   * What became of each of these paths that the revision checked (the working tree; the staged
   * tree with --staged) no longer holds, keyed by path (a folder's with a final '/'): renamed or
   * deleted, from history (one `git log`, once per run) and the change not committed yet (one
   * `git diff`). A path it holds, or never held, is absent.
   */
  lostPaths(refs: Array<{ path: string; folder: boolean }>): Map<string, PathFate>;
  /** Which of these hex strings name commits that no branch, tag or remote ref reaches any more (two git calls). */
  lostCommits(candidates: string[]): Set<string>;
  /**
   * What became of each of these `[[name]]` link targets that no memory of the memdir holds now:
   * renamed or removed by a commit of HEAD's history (one `git log` per memdir and run). A name
   * history never saw leave, or one a memory at HEAD still holds, is absent.
   */
  lostMemoryNames(names: string[], resolves: (name: string) => boolean): Map<string, NameFate>;
  /** What messages call the change not committed yet: "the staged change" or "an uncommitted change". */
  uncommitted: string;
}

/** What a staged change does to the memdir (--staged only): the facts no-memory-loss compares. */
export interface MemdirHistory {
  /** Memdir-relative paths of the Markdown files the staged change adds, modifies or deletes. */
  changed: string[];
  /** Those the change deletes. */
  deleted: string[];
  /** A memdir file's text at HEAD, or null when HEAD has none. */
  headText(rel: string): string | null;
  /** The text of every Markdown file the memdir and its archive folder will hold once committed. */
  keptTexts(): Array<{ where: string; text: string }>;
}

import type { TextEdit } from '../memdir/types.js';
export type { TextEdit };

export interface Fix {
  edits: TextEdit[];
}

export interface Suggestion {
  /** What the change does, in a few words ("Write the date: next Friday (2026-10-09)"). */
  desc: string;
  fix: Fix;
}

export interface RuleMessage {
  message: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units (as remark and ESLint count). */
  column: number;
  endLine?: number;
  endColumn?: number;
  fix?: Fix;
  /**
   * A change the person may choose (an editor's quick fix, ESLint's `suggestions`), never applied
   * by `--fix` or consolidation: a rewrite that could be wrong.
   */
  suggest?: Suggestion[];
  /**
   * 'warn' caps this message at a warning whatever the rule's severity (a rule sure of some of
   * what it reports and not of the rest, e.g. a hidden comment that does not address the agent).
   */
  severity?: 'warn';
}

export interface RuleContext {
  file: MemoryFile;
  memdir: MemdirModel;
  /** null outside a git repository: rules that need git facts skip those checks. */
  repo: RepoFacts | null;
  /** Rule options from config (`[severity, {options}]`), {} when none. */
  options: Record<string, unknown>;
  /** Lines of the file (without line endings), cached. */
  lines(): string[];
  /** UTF-16 offset of the start of each line (1-based index; [0] unused), cached. */
  lineOffsets(): number[];
  /** The file's block model (memdir.blocks(file)): what is code, a heading, an entry. */
  blocks(): BlockModel;
  /** The mdast tree, parsed on first use and cached (rules that need inline structure). */
  tree(): Root;
  /** With --staged: what the change does to the memdir compared with HEAD; absent otherwise. */
  history?: MemdirHistory | null;
  /** Claude Code's memory format for the configured version (config `claudeCode`). */
  format: ClaudeFormat;
  /**
   * With --staged, for a memory file the staged change does not touch (read because it names a path
   * the change renames or deletes): only what the staged change itself makes stale is reported.
   */
  changeOnly?: boolean;
  /** "Today" for the run (overridable in tests through MEMLINT_TODAY=YYYY-MM-DD). */
  today: Date;
  report(message: RuleMessage): void;
}

export interface RuleDocs {
  /** A passing example: one file's text, or a memdir. */
  ok: string | MemdirExample;
  /** A failing example: one file's text, or a memdir. */
  notOk: string | MemdirExample;
  /**
   * What memlint reports on notOk, exactly: one message a line, `line:column[-endLine:endColumn]: message`
   * (remark-lint's `@example` habit), each line led by the file's memdir-relative path for a
   * memdir example (`MEMORY.md:201:1: message`). Run as a test and shown in docs/rules/<rule-id>.md.
   */
  notOkOutput: string;
}

/**
 * An example that is a memdir rather than one file: rules that read several files, or a staged
 * change. What is too long to show (250 index lines, 201 topic files) is made by the example run
 * from a recipe, `{n}` standing for 1, 2, ... count, and shown as that recipe.
 */
export interface MemdirExample {
  /** The memdir's files, memdir-relative path -> text. */
  files: Record<string, string>;
  /** Lines appended to the file `in`: `line` for each n. */
  lines?: { in: string; line: string; count: number };
  /** Files `path`, each holding `text`, for each n. */
  each?: { path: string; text: string; count: number };
  /** For no-memory-loss: the memdir as committed at HEAD; `files` is then the memdir as staged, and the example runs with --staged. */
  head?: Record<string, string>;
  /**
   * For no-stale-reference: repository files (outside the memdir) committed first at each key's
   * path, then renamed to its value (null: deleted) in a second commit. The output names that
   * commit as `{commit}` and its date as `{date}`.
   */
  moves?: Record<string, string | null>;
}

export interface Rule {
  id: string;
  description: string;
  defaultSeverity: 'warn' | 'error';
  fixable: boolean;
  appliesTo: FileKind[];
  /** How sure the rule is of what it reports (agnix's habit): errors only where it is sure. */
  certainty: 'high' | 'medium' | 'low';
  docs: RuleDocs;
  /** The options it reads from config (`[severity, {options}]`); none when absent. Others are reported as unknown. */
  options?: readonly string[];
  check(ctx: RuleContext): void | Promise<void>;
}
