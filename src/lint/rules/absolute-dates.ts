import { bodyStart, lineOf } from '../content-scan.js';
import type { RelativeDate } from '../dates.js';
import { mayHoldRelativeDate } from '../date-patterns.js';
import { chooseAnchor, textDateAnchors } from '../date-anchors.js';
import type { Rule, RuleContext } from '../types.js';
import { positionAt } from '../positions.js';
import { spansOf } from '../../memdir/blocks.js';

/** A date in frontmatter or code (fenced or indented) is not a relative date of the text. */
const NOT_PROSE = ['frontmatter', 'code'] as const;

/**
 * absolute-dates: memory outlives the day it was written, so "tomorrow" or "next Thursday" soon
 * means nothing, or the wrong day. Claude Code's own guidance: "Always convert relative dates in
 * user messages to absolute dates when saving (e.g., "Thursday" → "2026-03-05")". Flags relative
 * dates in English and Chinese ("tomorrow", "next Thursday", "last week", "下周四", "明天") and
 * gives the absolute date in the message; --fix writes it beside the word ("next Friday
 * (2026-10-09)"), which the rule accepts, so a wrong anchor stays visible and undoable. The date is
 * counted from the day the text was written: the date in a daily log's path, else the date the
 * text gives for itself when not later than the commit date (a dated section heading, a note's
 * date line, `modified`, a date in the file name: src/lint/date-anchors.ts), else the commit date
 * of that line (git blame), else today for lines not committed yet. Quoted speech, schedules,
 * headings used as names and figurative uses are not relative dates.
 *
 * The frontmatter's one-line `description` is checked (and fixed) as the body is: Claude Code's
 * recall reads it to choose memories.
 *
 * Not flagged: times ("10:02"), recurring phrases ("every Monday", "on Mondays", "每周一"),
 * weekday ranges, durations and policies ("within 2 days"), "now", other frontmatter keys, code, URLs,
 * and a phrase already paired with a date ("Thursday (2026-03-05)").
 *
 * Certainty: high for day words and modified weekdays; medium for a bare weekday ("by Friday").
 */
export const absoluteDates: Rule = {
  id: 'absolute-dates',
  description: 'Dates are absolute (2026-04-30), not relative (next Thursday)',
  defaultSeverity: 'error',
  fixable: true,
  appliesTo: ['index', 'topic', 'log'],
  certainty: 'high',
  docs: {
    ok: 'The release freeze starts 2026-04-30.\n',
    notOk: 'The release freeze starts next Thursday.\n',
    notOkOutput: '6:27: relative date "next Thursday": write "next Thursday (2026-04-30)" (counted from today, 2026-04-27)',
  },
  async check(ctx) {
    const text = ctx.file.text;
    if (!mayHoldRelativeDate(text)) return;
    const { findRelativeDates } = await import('../dates.js');
    const from = bodyStart(text);
    // The frontmatter's description is prose too: Claude Code's recall picks memories by it.
    const desc = descriptionSpan(text, from);
    const skip = spansOf(ctx.blocks(), text, NOT_PROSE).flatMap(([a, b]): Array<[number, number]> => (desc && a <= desc[0] && desc[1] <= b ? [[a, desc[0]], [desc[1], b]] : [[a, b]]));
    const checked = (h: RelativeDate) => h.start >= from || (desc !== null && h.start >= desc[0] && h.end <= desc[1]);
    const todayHits = findRelativeDates(text, ctx.today, skip).filter(checked);
    if (todayHits.length === 0) return;
    const anchorOf = anchorFor(ctx);
    const hits = findRelativeDates(text, anchorOf.at, skip).filter(checked);
    for (const h of hits) report(ctx, h, anchorOf.describe(h.start));
  },
};

/** The value of a one-line `description:` in the frontmatter (inside its quotes, if any), as offsets; null when there is none. */
export function descriptionSpan(text: string, frontmatterEnd: number): [number, number] | null {
  if (frontmatterEnd === 0) return null;
  const m = /^description:[ \t]*(["']?)(.*?)\1[ \t]*\r?$/m.exec(text.slice(0, frontmatterEnd));
  if (!m || m[2] === '' || /^[|>]/.test(m[2]!)) return null;
  const start = m.index + m[0].indexOf(m[2]!, 'description:'.length);
  return [start, start + m[2]!.length];
}

function ymdDate(ymd: string): Date {
  const [y, m, d] = ymd.split('-').map(Number);
  return new Date(y!, m! - 1, d!, 12);
}

function iso(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function anchorFor(ctx: RuleContext): { kind: 'log' | 'text'; at: (offset: number) => Date; describe: (offset: number) => string } {
  const today = iso(ctx.today);
  if (ctx.file.logDate) {
    const d = ymdDate(ctx.file.logDate);
    return { kind: 'log', at: () => d, describe: () => `the log's date, ${ctx.file.logDate}` };
  }
  const dates = ctx.repo?.lineDates(ctx.file) ?? [];
  const offsets = ctx.lineOffsets();
  const fromText = textDateAnchors(ctx.file.text, ctx.file.rel, bodyStart(ctx.file.text));
  const chosen = (offset: number) => chooseAnchor({ text: fromText(offset), commitDate: dates[lineOf(offsets, offset)], today });
  return { kind: 'text', at: (offset) => ymdDate(chosen(offset).date), describe: (offset) => chosen(offset).describe };
}

function report(ctx: RuleContext, h: RelativeDate, from: string) {
  const at = positionAt(ctx, h.start);
  ctx.report({
    message: `relative date "${h.text}": write "${h.replacement}" (counted from ${from})`,
    line: at.line,
    column: at.column,
    fix: { edits: [{ start: h.start, end: h.end, text: h.replacement }] },
  });
}
