// Text helpers shared by the content rules: where prose is (not frontmatter, not code), and
// offsets to positions. Pure and cheap: line scans, no Markdown parser.
import { findFrontmatter } from '../memdir/topic.js';

/** UTF-16 offset where the body starts (after the frontmatter block, if any). */
export function bodyStart(text: string): number {
  const fm = findFrontmatter(text);
  return fm ? fm.endOffset : 0;
}

export interface CodeBlock {
  /** 1-based lines of the opening and closing fence (closeLine = last line when unclosed). */
  openLine: number;
  closeLine: number;
  /** The info string's first word, lower-cased ('' when none). */
  lang: string;
  /** The lines between the fences. */
  content: string[];
}

/** Fenced code blocks found by a line scan (``` or ~~~, closed by a fence of the same kind at least as long). */
export function codeBlocks(lines: string[], fromLine = 1): CodeBlock[] {
  const out: CodeBlock[] = [];
  let open: { line: number; fence: string; lang: string; content: string[] } | null = null;
  for (let i = fromLine - 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (!open) {
      const m = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(l);
      if (m) open = { line: i + 1, fence: m[1]!, lang: m[2]!.toLowerCase(), content: [] };
      continue;
    }
    const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(l);
    if (close && close[1]![0] === open.fence[0] && close[1]!.length >= open.fence.length) {
      out.push({ openLine: open.line, closeLine: i + 1, lang: open.lang, content: open.content });
      open = null;
    } else open.content.push(l);
  }
  if (open) out.push({ openLine: open.line, closeLine: lines.length, lang: open.lang, content: open.content });
  return out;
}

/** For each 1-based line, whether it is inside (or a fence of) a fenced code block. */
export function codeLineSet(blocks: CodeBlock[]): Set<number> {
  const s = new Set<number>();
  for (const b of blocks) for (let l = b.openLine; l <= b.closeLine; l++) s.add(l);
  return s;
}

/** The 1-based line holding a UTF-16 offset, given the engine's line offsets ([0] unused). */
export function lineOf(offsets: number[], offset: number): number {
  let lo = 1;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Ranges of inline code spans in a line (start inclusive, end exclusive). */
export function inlineCodeRanges(line: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const re = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
  for (let m: RegExpExecArray | null; (m = re.exec(line)); ) out.push([m.index, m.index + m[0].length]);
  return out;
}

export function inRanges(ranges: Array<[number, number]>, start: number, end = start + 1): boolean {
  return ranges.some(([a, b]) => start >= a && end <= b);
}

/** Is the span [start, end) of a line wrapped in quotes ("…", “…”, '…', 「…」)? */
export function isQuoted(line: string, start: number, end: number): boolean {
  const before = line.slice(0, start);
  const after = line.slice(end);
  const pairs: Array<[string, string]> = [
    ['"', '"'],
    ['“', '”'],
    ["'", "'"],
    ['「', '」'],
    ['『', '』'],
    ['‘', '’'],
  ];
  return pairs.some(([o, c]) => {
    const i = before.lastIndexOf(o);
    if (i < 0) return false;
    // No closing quote between the opening quote and the span.
    if (o !== c && before.slice(i + 1).includes(c)) return false;
    if (o === c && (before.slice(i + 1).split(o).length - 1) % 2 !== 0) return false;
    return after.includes(c);
  });
}
