// Step 4: relative dates made absolute everywhere in the memdir, daily logs included, in place,
// anchored at the day the text was written: a log's own date, else the line's commit date (today
// for lines not committed yet). The finding of dates is the absolute-dates rule's (one parser).
import type { MemState, StepContext, StepResult } from './types.js';
import { lineOf } from '../lint/content-scan.js';
import { logDateOf, splitLines } from './text.js';

/** A relative date found in a text and what it becomes, as UTF-16 offsets into that text. */
export interface DateFix {
  start: number;
  end: number;
  replacement: string;
}

/** Finds relative dates in a text and their absolute form, given the day (YYYY-MM-DD) each offset was written. */
export type RelativeDateFinder = (text: string, anchorAt: (offset: number) => string) => DateFix[];

export interface DatesReport {
  fixed: Array<{ file: string; line: number; from: string; to: string; anchor: string }>;
}

function applyFixes(text: string, fixes: DateFix[]): string {
  let out = text;
  for (const f of [...fixes].sort((a, b) => b.start - a.start)) out = out.slice(0, f.start) + f.replacement + out.slice(f.end);
  return out;
}

export function absoluteDates(state: MemState, ctx: StepContext, find: RelativeDateFinder): StepResult<DatesReport> {
  const report: DatesReport = { fixed: [] };
  let files: Map<string, string> | null = null;
  for (const [rel, text] of state.files) {
    const probe = find(text, () => ctx.facts.today);
    if (probe.length === 0) continue;
    const logDate = logDateOf(rel);
    const offsets = [0, ...splitLines(text).map((l) => l.offset)]; // 1-based, as lineOf reads them
    let anchorAt: (offset: number) => string;
    if (logDate) anchorAt = () => logDate;
    else {
      const dates = ctx.facts.lineDates(rel, text);
      anchorAt = (offset) => dates[lineOf(offsets, offset)] ?? ctx.facts.today;
    }
    let fixes = find(text, anchorAt).map((f) => ({ ...f, anchor: anchorAt(f.start) }));
    fixes = fixes.filter((f) => text.slice(f.start, f.end) !== f.replacement);
    if (fixes.length === 0) continue;
    for (const f of fixes) report.fixed.push({ file: rel, line: lineOf(offsets, f.start), from: text.slice(f.start, f.end), to: f.replacement, anchor: f.anchor });
    files ??= new Map(state.files);
    files.set(rel, applyFixes(text, fixes));
  }
  return { state: files ? { ...state, files } : state, report };
}
