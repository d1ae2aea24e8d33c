// Step 4: relative dates made absolute everywhere in the memdir, daily logs included, in place,
// but only where the fix is certain (see `isCertain`): the phrase names one day, week, month or
// year (not a bare weekday, not "a few days ago"), and the text says for sure when it was written
// (a daily log's date, a dated section heading or paragraph label, a note's own date line). Everything else is left
// for `memlint --fix`, which a person runs and reviews. The fix keeps the phrase and writes the date
// beside it ("next Friday (2026-10-09)"). The finding of dates is the absolute-dates rule's (one parser).
import type { MemState, StepContext, StepResult } from './types.js';
import { lineOf } from '../lint/content-scan.js';
import { chooseAnchor, textDateAnchors, type ChosenAnchor } from '../content/date-anchors.js';
import { findFrontmatter } from '../memdir/topic.js';
import { splitLines } from '../memdir/lines.js';
import { fileKind } from '../memdir/kinds.js';

/** A relative date found in a text and what it becomes, as UTF-16 offsets into that text. */
export interface DateFix {
  start: number;
  end: number;
  replacement: string;
  /** The phrase names one day, week, month or year (not a bare weekday, not a vague count). */
  exact: boolean;
}

/** Finds relative dates in a text and their absolute form, given the day (YYYY-MM-DD) each offset was written. */
export type RelativeDateFinder = (text: string, anchorAt: (offset: number) => string) => DateFix[];

export interface DatesReport {
  fixed: Array<{ file: string; line: number; from: string; to: string; anchor: string }>;
  /** Relative dates left as they are: the fix would not be certain (lint reports them). */
  left: number;
}

/** A fix consolidation may apply without a person: an exact phrase counted from a sure anchor. */
export function isCertain(fix: Pick<DateFix, 'exact'>, anchor: Pick<ChosenAnchor, 'sure'>): boolean {
  return fix.exact && anchor.sure;
}

function applyFixes(text: string, fixes: DateFix[]): string {
  let out = text;
  for (const f of [...fixes].sort((a, b) => b.start - a.start)) out = out.slice(0, f.start) + f.replacement + out.slice(f.end);
  return out;
}

export function absoluteDates(state: MemState, ctx: StepContext, find: RelativeDateFinder): StepResult<DatesReport> {
  const report: DatesReport = { fixed: [], left: 0 };
  let files: Map<string, string> | null = null;
  for (const [rel, text] of state.files) {
    const probe = find(text, () => ctx.facts.today);
    if (probe.length === 0) continue;
    const logDate = fileKind(rel).logDate;
    const offsets = [0, ...splitLines(text).map((l) => l.offset)]; // 1-based, as lineOf reads them
    const dates = logDate ? [] : ctx.facts.lineDates(rel, text);
    const fromText = textDateAnchors(text, rel, findFrontmatter(text)?.endOffset ?? 0);
    const anchorOf = (offset: number) => chooseAnchor({ logDate, text: fromText(offset), commitDate: dates[lineOf(offsets, offset)], today: ctx.facts.today });
    const found = find(text, (offset) => anchorOf(offset).date).filter((f) => text.slice(f.start, f.end) !== f.replacement);
    const fixes = found.filter((f) => isCertain(f, anchorOf(f.start)));
    report.left += found.length - fixes.length;
    if (fixes.length === 0) continue;
    for (const f of fixes) report.fixed.push({ file: rel, line: lineOf(offsets, f.start), from: text.slice(f.start, f.end), to: f.replacement, anchor: anchorOf(f.start).date });
    files ??= new Map(state.files);
    files.set(rel, applyFixes(text, fixes));
  }
  return { state: files ? { ...state, files } : state, report };
}
