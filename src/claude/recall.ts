// What Claude Code's recall scanner sees in a memdir: every `.md` file except MEMORY.md, at any
// depth, ranked newest first by mtime; only the 200 newest are offered to the selector, each by
// the `description` found in its first 30 lines. The ranking is pure; the scan is thin I/O.
import * as fs from 'node:fs';
import path from 'node:path';
import { isWithin } from '../fs/paths.js';
import { FRONTMATTER_MAX_LINES, MAX_TOPIC_FILES } from '../memdir/limits.js';
import { parseTopic } from '../memdir/topic.js';
import { walkEntries } from '../fs/walk.js';
import { INDEX_FILE } from '../memdir/kinds.js';


export interface ScannedFile {
  /** Path relative to the memdir, with '/' separators. */
  rel: string;
  abs: string;
  mtimeMs: number;
  /** The description Claude Code would read, or null. */
  description: string | null;
  type: unknown;
}

export interface RecallRanking {
  /** In the 200 newest and with a description: offered to the selector by what they say. */
  candidates: Array<ScannedFile & { rank: number }>;
  /** Not offered, or offered without a description; with the reason. */
  excluded: Array<ScannedFile & { rank: number; reason: string }>;
  total: number;
}

/** The first `count` lines of a text, as Claude Code's scanner reads them. */
export function firstLines(text: string, count: number): string {
  let pos = 0;
  for (let i = 0; i < count; i++) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0) return text;
    pos = nl + 1;
  }
  return text.slice(0, pos);
}

/** The description as Claude Code's scanner finds it: frontmatter closed within the first 30 lines, non-empty. */
export function scannedDescription(text: string): { description: string | null; type: unknown } {
  const head = firstLines(text, FRONTMATTER_MAX_LINES);
  const topic = parseTopic(head);
  if (!topic.frontmatter || topic.frontmatter.closeLine === 0 || !topic.frontmatter.data) return { description: null, type: undefined };
  const d = topic.description;
  return { description: d ? d : null, type: topic.type };
}

/** Rank scanned files the way Claude Code does: newest mtime first, then keep 200. */
export function rankForRecall(files: ScannedFile[], limit: number = MAX_TOPIC_FILES): RecallRanking {
  const sorted = [...files].sort((a, b) => b.mtimeMs - a.mtimeMs || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const candidates: RecallRanking['candidates'] = [];
  const excluded: RecallRanking['excluded'] = [];
  sorted.forEach((f, i) => {
    const rank = i + 1;
    if (rank > limit) excluded.push({ ...f, rank, reason: `not among the ${limit} newest by mtime (rank ${rank})` });
    else if (f.description === null) excluded.push({ ...f, rank, reason: `no description in the first ${FRONTMATTER_MAX_LINES} lines: listed without one, so the selector can hardly pick it` });
    else candidates.push({ ...f, rank });
  });
  return { candidates, excluded, total: files.length };
}

const SKIP_DIRS = new Set(['.git', 'node_modules']);

/**
 * Every `.md` path under dir (relative, '/'-separated), MEMORY.md at any depth excluded, the way
 * a recursive readdir lists them: symlinked directories are not entered.
 */
export function listMarkdown(dir: string, opts: { includeEntrypoint?: boolean } = {}): string[] {
  const skip = (_rel: string, e: fs.Dirent) => e.isDirectory() && SKIP_DIRS.has(e.name);
  const out: string[] = [];
  for (const { rel, entry } of walkEntries(dir, { skip })) if (entry.name.endsWith('.md') && (opts.includeEntrypoint || entry.name !== INDEX_FILE)) out.push(rel);
  return out.sort();
}

/**
 * Read what the scanner reads for each topic file of a memdir (files it cannot read are skipped, as
 * Claude Code does); with `bound`, a file whose real path is not inside it (a symlink out of the
 * repository) is not read.
 */
export function scanMemdir(dir: string, bound?: string): ScannedFile[] {
  const files: ScannedFile[] = [];
  for (const rel of listMarkdown(dir)) {
    const abs = path.join(dir, rel);
    try {
      if (bound !== undefined && !isWithin(fs.realpathSync(abs), bound)) continue;
      const st = fs.statSync(abs);
      if (!st.isFile()) continue;
      const fd = fs.openSync(abs, 'r');
      let head: string;
      try {
        const buf = Buffer.alloc(Math.min(st.size, 64 * 1024));
        const n = fs.readSync(fd, buf, 0, buf.length, 0);
        head = buf.subarray(0, n).toString('utf8');
      } finally {
        fs.closeSync(fd);
      }
      const { description, type } = scannedDescription(head);
      files.push({ rel, abs, mtimeMs: st.mtimeMs, description, type });
    } catch {
      // unreadable: Claude Code drops it from the scan too
    }
  }
  return files;
}

