import { bodyStart, descriptionSpan, lineOf } from '../content-scan.js';
import type { RelativeDate } from '../../content/dates.js';
import { mayHoldRelativeDate, namedByFile } from '../../content/date-patterns.js';
import { chooseAnchor, firstCommitDate, textAnchors, type ChosenAnchor } from '../../content/date-anchors.js';
import type { Rule, RuleContext, RuleMessage } from '../types.js';
import { positionAt } from '../positions.js';
import { spansOf } from '../../memdir/blocks.js';
import { MAX_ENTRY_CHARS, MAX_INDEX_UNITS, codePointLength, measureIndex } from '../../memdir/limits.js';
import { isSessionLog } from '../../memdir/kinds.js';

/** A date in frontmatter or code (fenced or indented) is not a relative date of the text. */
const NOT_PROSE = ['frontmatter', 'code'] as const;

/**
 * absolute-dates: memory outlives the day it was written, so "tomorrow" or "next Thursday" soon
 * means nothing, or the wrong day. Claude Code's own guidance: "Always convert relative dates in
 * user messages to absolute dates when saving (e.g., "Thursday" → "2026-03-05")". Flags relative
 * dates in English and Chinese ("tomorrow", "next Thursday", "last week", "下周四", "明天") and
 * gives the absolute date in the message. The date is counted from the day the text was written:
 * the date in a daily log's path, else the date the text gives for itself when not later than the
 * commit date (a dated section heading, a dated paragraph label, a note's date line, `modified`, a date in the file name:
 * src/content/date-anchors.ts), else the commit date of that line (src/git/line-dates.ts), else today for lines
 * not committed yet. In a shallow clone a line the clone's history does not reach (git blame's
 * `boundary`) has no known commit date: it is reported as a warning with no date suggested.
 *
 * --fix writes the date beside the word ("next Friday (2026-10-09)"), which the rule accepts, only
 * when that is certain: the phrase names one day, week, month or year; it is not in a link's text;
 * its sentence tells a one-off event in its own words (a verb of one, a deadline, a person acting:
 * "we moved the call to tomorrow"), not the phrase alone as in a heading, a table cell, a formula or
 * a spec's step ("Compute previous month", "date = today"); and the day it counts from is the text's own: a daily log's, a heading that opens with its date,
 * a dated paragraph label, a note's date line, the file name's, `modified`. Never the line's commit
 * date (a commit often comes days after the writing: docs/rules-content.md), a date a topic's
 * heading only names further on, or the day of the run. Otherwise the date is offered as a
 * suggestion (an editor's quick fix), not written. Dated only by a commit, a phrase about the
 * present ("today", "this week") is reported only in a sentence that tells an event.
 *
 * An error where memlint knows the day the text was written: the text's own date, or today for a
 * line being written (not committed yet: the agent's edit, the staged change). A warning in a
 * session log (a transcript: nothing is written into it) and where
 * only the line's commit dates committed text: read later, such a phrase was a one-off relative
 * date in about one finding of eight on real memory (docs/rules-content.md, "absolute-dates:
 * severity by anchor"), and old lines must not stop a commit that does not touch them.

 * The frontmatter's one-line `description` is checked (and fixed) as the body is: Claude Code's
 * recall reads it to choose memories.
 *
 * Not flagged: times ("10:02"), recurring and habitual phrases ("every Monday", "on Mondays",
 * "每周一", "it usually happened yesterday", "the Sunday post", "the 3rd Friday", "the last Friday
 * of the month", "no deploys after Thursday noon"), a bare weekday without a deadline or event cue ("Sunday digest", "0=Sunday"),
 * weekday ranges, durations and policies ("within 2 days"), "now", "today" meaning "at present"
 * ("so today the tile shows both", read across wrapped lines), a condition or possibility ("if a
 * task fired Friday", "could grade yesterday's decisions"), a feedback memory's **Why:**, a
 * hypothetical ("anything we could ship this month"), a reported request ("asked it to fetch
 * today's weather"), interface labels ("Today / Yesterday / 1 week ago", "the Today preset"),
 * stale data named by its day in a sentence about how a system behaves ("keeps serving
 * yesterday's prices", when only a commit dates the line), a product spec's run-time values
 * ("min = today - 10 years", "date = 11 years ago", "not more than 10 years ago", "Cash Flow panel
 * (this month)"), a feature's name (in Title Case after capitalised words, "Budget Copy from
 * Previous Month", or in the file's own name, `copy-from-previous-month.md`), "the next month" of a
 * story or a product ("the next month contract"), names and file names (`Monday.com`,
 * `monday-api.md`, link targets, `[[next-week]]`), a day in an interface's names ("today's workout
 * card", "Today's Plan"), what code computes ("`endOfMonth` returns the first day of next month"), a
 * phrase whose sentence already gives its date, quoted speech, schedules, headings used as
 * names, figurative uses, other frontmatter keys, code, URLs, and a phrase already paired with a
 * date ("Thursday (2026-03-05)").
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
    notOkOutput: '6:27: relative date "next Thursday": write "next Thursday (2026-04-30)", or "next Thursday (2026-05-07)" if next week\'s is meant (counted from today, 2026-04-27)',
  },
  async check(ctx) {
    const text = ctx.file.text;
    if (!mayHoldRelativeDate(text)) return;
    const { findRelativeDates } = await import('../../content/dates.js');
    const from = bodyStart(text);
    // The frontmatter's description is prose too: Claude Code's recall picks memories by it.
    const desc = descriptionSpan(text, from);
    const skip = spansOf(ctx.blocks(), text, NOT_PROSE).flatMap(([a, b]): Array<[number, number]> => (desc && a <= desc[0] && desc[1] <= b ? [[a, desc[0]], [desc[1], b]] : [[a, b]]));
    const checked = (h: RelativeDate) => h.start >= from || (desc !== null && h.start >= desc[0] && h.end <= desc[1]);
    // One pass over the text: the anchors (the line dates from git among them) are read when the
    // first phrase asks for its day, never for a text without one.
    let anchorOf: ReturnType<typeof anchorFor> | undefined;
    const anchors = () => (anchorOf ??= anchorFor(ctx));
    // The file's name is asked about each phrase as written once, not about each finding.
    const named = new Map<string, boolean>();
    const byName = (phrase: string) => {
      let n = named.get(phrase);
      if (n === undefined) named.set(phrase, (n = namedByFile(phrase, ctx.file.rel)));
      return n;
    };
    const hits = findRelativeDates(text, (offset) => anchors().at(offset), skip).filter((h) => checked(h) && !byName(h.text));
    if (hits.length === 0) return;
    const room = indexRoom(ctx);
    const words = wording();
    for (const h of hits) {
      const anchor = anchors().chosen(h.start);
      // Only a commit dates the text: a phrase in a sentence that tells no event is how things are
      // or a general statement ("today" as "at present"), not a date (see RelativeDate.told).
      if (!anchor.own && !h.told) continue;
      report(ctx, h, anchor, room, words);
    }
  },
};

function ymdDate(ymd: string): Date {
  const [y, m, d] = ymd.split('-').map(Number);
  return new Date(y!, m! - 1, d!, 12);
}

function iso(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function anchorFor(ctx: RuleContext): { at: (offset: number) => Date; chosen: (offset: number) => ChosenAnchor } {
  const today = iso(ctx.today);
  const logDate = ctx.file.logDate;
  if (logDate) {
    const d = ymdDate(logDate);
    const chosen = chooseAnchor({ logDate, today });
    return { at: () => d, chosen: () => chosen };
  }
  const dates = ctx.repo?.lineDates(ctx.file) ?? [];
  const offsets = ctx.lineOffsets();
  const chosen = textAnchors(ctx.file.text, ctx.file.rel, bodyStart(ctx.file.text), (offset) => dates[lineOf(offsets, offset)], today, firstCommitDate(dates));
  const days = new Map<string, Date>();
  const day = (ymd: string) => days.get(ymd) ?? days.set(ymd, ymdDate(ymd)).get(ymd)!;
  return { at: (offset) => day(chosen(offset).date), chosen };
}

/**
 * A date is written by --fix only when it is certain: the phrase names one day, week, month or
 * year, it stands where a date may be written (not in a link's text), its sentence tells an event
 * (RelativeDate.narrated), and the day it counts from is the text's own (ChosenAnchor.known), not
 * a commit's or the run's. Otherwise the date is a suggestion the person chooses.
 */
/**
 * The texts of one file's findings, each made once: a dated topic has thousands of findings and
 * a few dozen distinct messages, all kept to the end of the run.
 */
interface Wording {
  messages: Map<ChosenAnchor, Map<string, Map<string, string>>>;
  descs: Map<string, string>;
}

function wording(): Wording {
  return { messages: new Map(), descs: new Map() };
}

function worded<K>(map: Map<K, Map<string, string>>, key: K, sub: string, make: () => string): string {
  let inner = map.get(key);
  if (!inner) map.set(key, (inner = new Map()));
  let text = inner.get(sub);
  if (text === undefined) inner.set(sub, (text = make()));
  return text;
}

function report(ctx: RuleContext, h: RelativeDate, anchor: ChosenAnchor, room: (h: RelativeDate, line: number) => boolean, words: Wording) {
  const at = positionAt(ctx, h.start);
  let byAnchor = words.messages.get(anchor);
  if (!byAnchor) words.messages.set(anchor, (byAnchor = new Map()));
  if (anchor.unknown) {
    // A shallow clone cut the line's history off (the only date at hand is the boundary commit's),
    // or memlint moved the text out of the index: not the line's day. Nothing is suggested rather
    // than a wrong day.
    ctx.report({
      message: worded(byAnchor, h.text, '', () => `relative date "${h.text}": write the date it means (no day to count from: ${anchor.describe}; ${anchor.findDay})`),
      line: at.line,
      column: at.column,
      severity: 'warn',
    });
    return;
  }
  const edits = [{ start: h.start, end: h.end, text: h.replacement }];
  // A session log is a transcript (the user's, the agent's and the tools' lines): its words are a
  // record, and its path already dates them. A date there is offered, never written, and stops no
  // commit of a log Claude Code wrote.
  const transcript = isSessionLog(ctx.file.rel);
  const certain = !transcript && h.exact && h.fixable && h.narrated && anchor.known && room(h, at.line);
  const other = h.otherReplacement;
  // Built field by field: spreads into the literal made each finding a slow copy.
  const message: RuleMessage = {
    message: worded(byAnchor, h.replacement, other ?? '', () => `relative date "${h.text}": write "${h.replacement}"${other ? `, or "${other}" if next week's is meant` : ''} (counted from ${anchor.describe})`),
    line: at.line,
    column: at.column,
  };
  if (certain) message.fix = { edits };
  else {
    const suggest = [{ desc: descOf(words, h.replacement), fix: { edits } }];
    if (other) suggest.push({ desc: descOf(words, other), fix: { edits: [{ start: h.start, end: h.end, text: other }] } });
    message.suggest = suggest;
  }
  if (anchor.byCommit || transcript) message.severity = 'warn';
  ctx.report(message);
}

function descOf(words: Wording, replacement: string): string {
  let desc = words.descs.get(replacement);
  if (desc === undefined) words.descs.set(replacement, (desc = `Write the date: ${replacement}`));
  return desc;
}

/**
 * In the index, a date is written only where it keeps the index within Claude Code's limits: the
 * entry line within its 150 characters, the whole within 25,000 UTF-16 units (the dates written in
 * this run counted together). A fix must not make another rule's error.
 */
function indexRoom(ctx: RuleContext): (h: RelativeDate, line: number) => boolean {
  if (ctx.file.kind !== 'index') return () => true;
  let units = measureIndex(ctx.file.text).units;
  const added = new Map<number, number>();
  return (h, line) => {
    const grow = h.replacement.length - h.text.length;
    const text = ctx.lines()[line - 1] ?? '';
    const chars = codePointLength(text) + (added.get(line) ?? 0) + codePointLength(h.replacement) - codePointLength(h.text);
    if (units + grow > MAX_INDEX_UNITS || (/^\s*(?:[-*+]|\d+[.)])\s/u.test(text) && chars > MAX_ENTRY_CHARS)) return false;
    units += grow;
    added.set(line, (added.get(line) ?? 0) + codePointLength(h.replacement) - codePointLength(h.text));
    return true;
  };
}
