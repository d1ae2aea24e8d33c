// Small helpers shared by rules: positions and safe text cuts.
import { codePointLength } from '../../memdir/limits.js';
import { lineOf } from '../content-scan.js';
import type { RuleContext } from '../types.js';

/** 1-based line and column of a UTF-16 offset in the file. */
export function positionAt(ctx: RuleContext, offset: number): { line: number; column: number } {
  const starts = ctx.lineOffsets();
  const line = lineOf(starts, offset);
  return { line, column: offset - (starts[line] ?? 0) + 1 };
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

/**
 * Cut text to at most `max` code points at a word boundary. Returns the head (trimmed at its end)
 * and the tail (what was cut off, trimmed at its start). Never cuts inside a surrogate pair.
 */
export function cutAtWord(text: string, max: number): { head: string; tail: string } {
  if (codePointLength(text) <= max) return { head: text, tail: '' };
  const cps = Array.from(text);
  // The latest boundary within the limit: before a space, or after a CJK (or ASCII) comma or
  // semicolon, since CJK text runs without spaces and may hold a lone one early on. Failing
  // both, the limit itself.
  let cut = 0;
  for (let k = max; k > 0; k--) {
    if (/\s/.test(cps[k]!) || /[，。；、！？,;]/.test(cps[k - 1]!)) {
      cut = k;
      break;
    }
  }
  if (cut === 0) cut = max;
  const head = cps.slice(0, cut).join('').trimEnd();
  const tail = cps.slice(cut).join('').trimStart();
  return { head, tail };
}

const README_RE = /^(readme|runbook|changelog|contributing|license|notes|todo|handoff|session[-_ ]?handoff|agents|claude)(\.[\w-]+)?\.md$/i;

/** Files that look like documentation rather than a memory. */
export function isReadmeLike(rel: string): boolean {
  const base = rel.split('/').pop()!;
  return README_RE.test(base);
}
