// Step 4: relative dates made absolute everywhere in the memdir, daily logs included, in place,
// but only where the fix is certain (see `isCertain`): the phrase names one day, week, month or
// year (not a bare weekday, not "a few days ago") in a sentence that tells an event in its own
// words (RelativeDate.narrated), and the text says for sure when it was written
// (a daily log's date, a section heading that opens with its date, a dated paragraph label, a note's own date line). Everything else is left
// for `memlint --fix`, which a person runs and reviews. The fix keeps the phrase and writes the date
// beside it ("next Friday (2026-10-09)"). The finding of dates is the absolute-dates rule's (one parser).
import type { MemState, StepContext, StepResult } from './types.js';
import { lineOf } from '../lint/content-scan.js';
import { chooseAnchor, firstCommitDate, textAnchors, type ChosenAnchor } from '../content/date-anchors.js';
import { applyEdits } from '../lint/engine.js';
import { findFrontmatter } from '../memdir/topic.js';
import { splitLines } from '../memdir/lines.js';
import { fileKind, isSessionLog } from '../memdir/kinds.js';
import { namedByFile } from '../content/date-patterns.js';

/** A relative date found in a text and what it becomes, as UTF-16 offsets into that text. */
export interface DateFix {
  start: number;
  end: number;
  replacement: string;
  /** The phrase names one day, week, month or year (not a bare weekday, not a vague count), where a date may be written, in a sentence that tells an event. */
  exact: boolean;
  /** Its sentence tells an event (RelativeDate.told): without it, a phrase only a commit dates is no date for lint either. */
  told: boolean;
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

export function absoluteDates(state: MemState, ctx: StepContext, find: RelativeDateFinder): StepResult<DatesReport> {
  const report: DatesReport = { fixed: [], left: 0 };
  let files: Map<string, string> | null = null;
  for (const [rel, text] of state.files) {
    // A session log is a transcript: its lines are a record, dated by its path (lint offers dates).
    const transcript = isSessionLog(rel);
    const logDate = fileKind(rel).logDate;
    let offsets: number[] | undefined;
    const lineAt = (offset: number) => lineOf((offsets ??= [0, ...splitLines(text).map((l) => l.offset)]), offset); // 1-based, as lineOf reads them
    // The anchors (the lines' commit dates, from git, among them) are worked out when the first
    // phrase asks for its day, never for a text without one.
    let anchors: ((offset: number) => ChosenAnchor) | undefined;
    const anchorOf = (offset: number): ChosenAnchor => {
      if (!anchors) {
        if (logDate) {
          const chosen = chooseAnchor({ logDate, today: ctx.facts.today });
          anchors = () => chosen;
        } else {
          const dates = ctx.facts.lineDates(rel, text);
          anchors = textAnchors(text, rel, findFrontmatter(text)?.endOffset ?? 0, (at) => dates[lineAt(at)], ctx.facts.today, firstCommitDate(dates));
        }
      }
      return anchors(offset);
    };
    const found = find(text, (offset) => anchorOf(offset).date).filter((f) => text.slice(f.start, f.end) !== f.replacement && !namedByFile(text.slice(f.start, f.end), rel));
    const fixes: DateFix[] = [];
    for (const f of found) {
      if (!transcript && isCertain(f, anchorOf(f.start))) fixes.push(f);
      // Left: what lint reports and this step does not write (a phrase only a commit dates, in a
      // sentence that tells no event, is how things are: lint does not report it, nor is it counted).
      else if (anchorOf(f.start).own || f.told) report.left++;
    }
    if (fixes.length === 0) continue;
    for (const f of fixes) report.fixed.push({ file: rel, line: lineAt(f.start), from: text.slice(f.start, f.end), to: f.replacement, anchor: anchorOf(f.start).date });
    files ??= new Map(state.files);
    // One pass over the text (the fixes are in order and do not overlap): 10,000 fixes each
    // copying the whole text made a topic of relative dates quadratic (contract §9).
    files.set(rel, applyEdits(text, fixes.map((f) => ({ start: f.start, end: f.end, text: f.replacement }))));
  }
  return { state: files ? { ...state, files } : state, report };
}
