// Where things are in the file a rule checks: offsets to 1-based lines and columns, and the spans
// of whole lines (for fixes that remove one).
import { lineOf } from './content-scan.js';
import type { RuleContext } from './types.js';

/**
 * 1-based line and column of a UTF-16 offset in the file. A byte order mark is not a column
 * (editors do not show it): line 1 of a file with one is counted as in the same file without it.
 */
export function positionAt(ctx: RuleContext, offset: number): { line: number; column: number } {
  const starts = ctx.lineOffsets();
  const line = lineOf(starts, offset);
  const bom = line === 1 && ctx.file.text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return { line, column: Math.max(1, offset - (starts[line] ?? 0) + 1 - bom) };
}

/** Offset of the start of a 1-based line, and of the end of it including its line ending. */
export function lineSpan(ctx: RuleContext, line: number): { start: number; end: number } {
  const starts = ctx.lineOffsets();
  const start = starts[line] ?? ctx.file.text.length;
  const end = line + 1 < starts.length ? starts[line + 1]! : ctx.file.text.length;
  return { start, end };
}

/**
 * The span that removes a whole line. A last line without a final newline takes the line ending
 * before it instead, so the file still ends without one (and keeps every other byte).
 */
export function lineRemovalSpan(ctx: RuleContext, line: number): { start: number; end: number } {
  const span = lineSpan(ctx, line);
  const text = ctx.lines()[line - 1] ?? '';
  const hasEol = span.end > span.start + text.length;
  if (hasEol || line === 1) return span;
  const prevEnd = (ctx.lineOffsets()[line - 1] ?? 0) + (ctx.lines()[line - 2] ?? '').length;
  return { start: prevEnd, end: span.end };
}
