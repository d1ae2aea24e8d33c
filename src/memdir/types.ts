// The memory directory as the rest of memlint sees it: its files and the parses they share.
import type { BlockModel } from './blocks.js';
import type { ParsedIndex } from './memory-index.js';
import type { ParsedTopic } from './topic.js';

/** index: the memdir's MEMORY.md; topic: any other .md; log: logs/YYYY/MM/YYYY-MM-DD.md or logs/YYYY/MM/DD/<id>-<title>.md (src/memdir/kinds.ts decides which). */
export type FileKind = 'index' | 'topic' | 'log';

/** Claude Code's memory types (its MEMORY_TYPES). */
export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export function isMemoryType(v: unknown): v is MemoryType {
  return typeof v === 'string' && (MEMORY_TYPES as readonly string[]).includes(v);
}

/** Whether a frontmatter `type` value names this type, as a person may write it ("Feedback ", "feedback"). */
export function typeIs(v: unknown, type: MemoryType): boolean {
  return typeof v === 'string' && v.trim().toLowerCase() === type;
}

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
  /** The block model of a file of the memdir, made once. */
  blocks(file: MemoryFile): BlockModel;
  parsedTopic(file: MemoryFile): ParsedTopic;
  /** The topic an index entry's key (pathKey) names, if the memdir holds it. */
  topicAt(key: string): MemoryFile | undefined;
}

/** A text edit, as --fix, consolidation and the language server apply it. */
export interface TextEdit {
  /** Absolute path of the file to edit; the file being linted when omitted. */
  path?: string;
  /** UTF-16 offsets into the file's current text. start === end inserts. */
  start: number;
  end: number;
  text: string;
}
