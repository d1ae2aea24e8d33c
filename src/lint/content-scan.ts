// Text helpers shared by the content rules: where the body starts, inline code and quotes in a
// line, offsets to positions. Which lines are code is the block model's word (memdir/blocks.ts).
import { findFrontmatter } from '../memdir/topic.js';

/** UTF-16 offset where the body starts (after the frontmatter block, if any). */
export function bodyStart(text: string): number {
  const fm = findFrontmatter(text);
  return fm ? fm.endOffset : 0;
}

/** 0, then the offset of each line as splitLines cuts them (after \n, \r\n or a lone \r; no line after a final ending). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  if (text === '') return starts;
  starts.push(0);
  // Without a carriage return every ending is a \n, found by indexOf: the pattern's scan made a
  // match object per line.
  if (!text.includes('\r')) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) if (i + 1 < text.length) starts.push(i + 1);
    return starts;
  }
  // One scan for the endings: splitLines made an object and a string per line, for each rule run.
  const eol = /\r\n?|\n/g;
  for (let m: RegExpExecArray | null; (m = eol.exec(text)); ) {
    const next = m.index + m[0].length;
    if (next < text.length) starts.push(next);
  }
  return starts;
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


/** Whether [start, end) lies inside one of `ranges`, sorted and apart (as inlineCodeRanges gives them). */
export function inRanges(ranges: Array<[number, number]>, start: number, end = start + 1): boolean {
  // The last range that starts at or before `start`: a line may hold thousands of each.
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ranges[mid]![0] <= start) lo = mid;
    else hi = mid - 1;
  }
  const range = ranges[lo];
  return range !== undefined && range[0] <= start && end <= range[1];
}

/** Is the span [start, end) of a line wrapped in quotes ("…", “…”, '…', 「…」, «…»)? */
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
    ['«', '»'],
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

/** The value of a one-line `description:` in the frontmatter (inside its quotes, if any), as offsets; null when there is none. */
export function descriptionSpan(text: string, frontmatterEnd: number): [number, number] | null {
  if (frontmatterEnd === 0) return null;
  const m = /^description:[ \t]*(["']?)(.*?)\1[ \t]*\r?$/m.exec(text.slice(0, frontmatterEnd));
  if (!m || m[2] === '' || /^[|>]/.test(m[2]!)) return null;
  const start = m.index + m[0].indexOf(m[2]!, 'description:'.length);
  return [start, start + m[2]!.length];
}
