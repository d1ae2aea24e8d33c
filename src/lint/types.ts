// The contract between the lint engine and its rules. A rule is one module exporting a `Rule`:
// unified-lint-rule's shape (an id, docs with ok/not-ok examples, one check function) with
// markdownlint's surgical fixes (text edits, never a re-serialized file). Rules never do I/O of
// their own: the engine hands them the file, the memdir model and the repository facts.
import type { Root } from 'mdast';
import type { ParsedIndex } from '../memdir/index.js';
import type { ParsedTopic } from '../memdir/topic.js';

export type Severity = 'off' | 'warn' | 'error';

/** index: the memdir's MEMORY.md; topic: any other .md; log: logs/YYYY/MM/YYYY-MM-DD.md. */
export type FileKind = 'index' | 'topic' | 'log';

export interface MemoryFile {
  /** Absolute path of the file in the working tree (in --staged mode, where it will be committed). */
  path: string;
  /** Path relative to the memdir, with '/' separators. */
  rel: string;
  kind: FileKind;
  text: string;
  /** For daily logs: the date in the path (YYYY-MM-DD). */
  logDate?: string;
  /** --staged reads only the files it reports (and MEMORY.md): the others are listed, text ''. */
  unread?: true;
}

export interface MemdirModel {
  /** Absolute path of the memory directory. */
  dir: string;
  /** All memory files (index, topics, logs) in the memdir, recursively, sorted by rel. */
  files: MemoryFile[];
  index: MemoryFile | null;
  topics: MemoryFile[];
  logs: MemoryFile[];
  /** Relative paths (to the memdir) of every file present, Markdown or not. */
  allPaths: Set<string>;
  /** Cached parses shared by all rules. */
  parsedIndex(): ParsedIndex | null;
  parsedTopic(file: MemoryFile): ParsedTopic;
}

/** Facts about the repository, gathered once per run and only when a rule asks for them. */
export interface RepoFacts {
  root: string;
  /** Tracked files, repository-relative with '/' separators. */
  trackedFiles(): Set<string>;
  /** Which of these hex strings (7-40 chars) name commits in the repository (one git call). */
  existingCommits(candidates: string[]): Set<string>;
  /**
   * The date (YYYY-MM-DD, committer's local date) each line of a file was last committed, 1-based;
   * undefined for lines not committed yet. One `git blame --porcelain` per file, cached.
   */
  lineDates(file: MemoryFile): Array<string | undefined>;
  /** Text of the CLAUDE.md files in scope for the memdir (CLAUDE.md, .claude/CLAUDE.md, .claude/rules/*.md, CLAUDE.local.md). */
  claudeMdTexts(): Array<{ path: string; text: string }>;
}

export interface TextEdit {
  /** Absolute path of the file to edit; the file being linted when omitted. */
  path?: string;
  /** UTF-16 offsets into the file's current text. start === end inserts. */
  start: number;
  end: number;
  text: string;
}

export interface Fix {
  edits: TextEdit[];
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
  /** The mdast tree, parsed on first use and cached: only rules that need structure should ask. */
  tree(): Root;
  /** "Today" for the run (overridable in tests through MEMLINT_TODAY=YYYY-MM-DD). */
  today: Date;
  report(message: RuleMessage): void;
}

export interface RuleDocs {
  /** A passing example. */
  ok: string;
  /** A failing example. */
  notOk: string;
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
  /** The rule calls ctx.tree(): the engine loads the Markdown parser only when an enabled rule needs it. */
  needsTree?: boolean;
  check(ctx: RuleContext): void | Promise<void>;
}
