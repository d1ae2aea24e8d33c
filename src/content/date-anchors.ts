// The day a piece of memory text was written, as the text itself says it: a dated section heading
// ("## 2026-03-23 (pass 13)"), a paragraph opened by a dated bold label ("**Seeded (2026-07-22):**"),
// a handoff note's own date ("Date: 2026-03-25" near the top), the
// file's `modified` frontmatter (Claude Code's write time), a date in the file's name
// ("project_session_2026-03-25.md"). Real memory is often committed days after it was written, so
// these come before the commit date when they are not later than it. Pure: text in, dates out.

import type { LineDate } from '../git/line-dates.js';

export type TextAnchorSource = 'heading' | 'paragraph' | 'item' | 'note' | 'modified' | 'name' | 'moved';

export interface TextAnchor {
  /** YYYY-MM-DD. */
  date: string;
  source: TextAnchorSource;
  /**
   * A heading's date only: the heading opens with it ("## 2026-06-10 — first post", "# Day log:
   * 2026-06-22", "## Update 2026-07-13"), as a dated entry of a log does. A heading that names a
   * date further on ("## Page order (confirmed from code, 2026-06-19)", "# Refactor record
   * (shipped 2026-06-27)") titles a topic: its text is not sure to have been written that day.
   */
  entry?: boolean;
}

const ISO = /(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)/u;
// A paragraph's first line opening with a bold label that holds a date: "**Corpus seeded (2026-07-22 22:00):**",
// after a status symbol as running logs mark their entries ("✅ **FOLDED 2026-06-14:**", "🧭 **ARC 2026-07-02:**").
const DATED_LABEL = /^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?(?:[\p{Extended_Pictographic}\p{So}][\p{Extended_Pictographic}\p{So}\uFE0F\u200D]*[ \t]*)?(\*\*|__)([^*_\n]*?\d{4}-\d{2}-\d{2}[^*_\n]*?)\1/u;
// A heading that opens with its date, after at most a short label: "2026-06-10 — …", "Day log: 2026-06-22", "Update 2026-07-13 —", "Pass 13 (2026-03-23)".
const ENTRY_HEADING = /^[ \t]*(?:[*_]{1,2})?(?:[\p{L}\p{N}#][\p{L}\p{N}'’#-]*[ \t]+){0,3}(?:[\p{L}\p{N}#][\p{L}\p{N}'’#-]*[ \t]*[:：—–-][ \t]*)?(?:[*_]{1,2})?\(?\d{4}-\d{2}-\d{2}/u;
// What may follow a label that stands alone on its line, and the level it takes among headings
// (below every real one: the next heading of any level, or the next such label, ends it).
const LABEL_ALONE = /^[ \t]*[:：]?[ \t]*$/u;
const LABEL_HEADING_LEVEL = 7;
// A body that opens with a date and a time ("2026-07-02 14:00 — design review, minutes: …") was
// written then, as minutes are: the note's own date, without a label.
const OPENING_STAMP = /^[ \t]*(?:\*\*|__)?(\d{4}-\d{2}-\d{2})(?:[ \t]+|T)\d{1,2}:\d{2}(?!\d)/u;
// Read on every line of the body (made once: a literal in the loop is a new RegExp per line).
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/u;
const HEADING_TEXT = /^ {0,3}(#{1,6})[ \t]+(.*)$/u;
const HEADING_LINE = /^ {0,3}#{1,6}[ \t]/u;
const ITEM_LINE = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/u;
// A list item that ends with its day in parentheses, as consolidation writes a log entry into a
// topic: "- The freeze is next Friday, so plan for it (2026-11-24)". Its phrases are counted from
// that day, never written by a fix: a person may have given there the day of the event instead.
const ITEM_STAMP = /[ \t]\((\d{4}-\d{2}-\d{2})\)[ \t]*$/u;
const FROM_THE_INDEX = /^From the index[ \t]*$/u;
const NOTE_DATE = /^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(?:date|dated|written|updated|last updated|as of|session date|handoff date|日期|时间|记录于|更新于)(?:\*\*|__)?[ \t]*[:：]?[ \t]*(?:\*\*|__)?[ \t]*(\d{4}-\d{2}-\d{2})(?:\b|(?=T\d{2}:?\d{2}))/iu;

function validIso(s: string | undefined): string | undefined {
  if (!s) return undefined;
  const m = ISO.exec(s);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(y, mo - 1, d, 12);
  return date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d ? m[0] : undefined;
}

/**
 * The date a file's name gives: `2026-03-25` (or `2026_03_25`, as snake_case names write it) anywhere in it, or a basic ISO 8601 stamp
 * (`20260325T141500Z`: eight digits and a `T` time). Eight digits alone are no date (an id, a build number).
 */
function nameDate(name: string): string | undefined {
  const dashed = validIso(/(\d{4}-\d{2}-\d{2})/u.exec(name)?.[1]);
  if (dashed) return dashed;
  const underscored = /(?<!\d)(\d{4})_(\d{2})_(\d{2})(?![\d_]?\d)/u.exec(name);
  if (underscored) return validIso(`${underscored[1]}-${underscored[2]}-${underscored[3]}`);
  const basic = /(?<!\d)(\d{4})(\d{2})(\d{2})T\d{4}(?:\d{2})?(?:Z|(?!\d))/u.exec(name);
  return basic ? validIso(`${basic[1]}-${basic[2]}-${basic[3]}`) : undefined;
}

// Words of a name that sets text aside ("ARCHIVE_pre-wipe_2026-06-11.md"). Not "snapshot": real memory
// names a day's own record of its state so ("snapshot-2026-08-14.md").
const SET_ASIDE = /(?<![\p{L}])(?:archived?|archives|backups?|bak|pre)(?![\p{Ll}])/iu;

/** How many of `items` (in order of their start) start at or before `at`: a binary search. */
function startedBy<T>(items: readonly T[], at: number, start: (item: T) => number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (start(items[mid]!) <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Asked for every phrase of a text: made once, not a closure per lookup.
const paragraphFrom = (x: { from: number }) => x.from;
const headingOffset = (x: { offset: number }) => x.offset;

/**
 * For an offset into `text`, the nearest date the text gives for when that part was written:
 * the dated label opening its paragraph, else the innermost dated heading above it, else a date line at the top of the body (a handoff
 * note's), else `modified` in the frontmatter, else a date in the file's name. `bodyFrom` is where
 * the body starts (after the frontmatter).
 */
export function textDateAnchors(text: string, rel: string, bodyFrom: number): (offset: number) => TextAnchor | undefined {
  const front = text.slice(0, bodyFrom);
  const modified = validIso(/^[ \t]*modified[ \t]*:[ \t]*['"]?([^\s'"]+)/mu.exec(front)?.[1]);
  const base = rel.split('/').pop() ?? '';
  // An archive's or a backup's name gives the day it was set aside, not the day its lines were written.
  const named = SET_ASIDE.test(base) ? undefined : nameDate(base);
  // Headings with their level and date, in order; the top note's date from the first lines of the body.
  const headings: Array<{ offset: number; level: number; date?: string; entry?: boolean; moved?: boolean }> = [];
  let note: string | undefined;
  // Paragraphs opened by a dated label, as [from, to) offsets, in order.
  const paragraphs: Array<{ from: number; to: number; anchor: TextAnchor }> = [];
  let inParagraph = false;
  let offset = bodyFrom;
  let bodyLine = 0;
  let fence: string | null = null;
  for (const raw of text.slice(bodyFrom).split('\n')) {
    // A CRLF file's lines are read without their CR (a heading's `.*$` stops before it).
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const f = FENCE_LINE.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length) fence = null;
    } else if (f) fence = f[1]!;
    else {
      const h = HEADING_TEXT.exec(line);
      // memlint's "## From the index" holds text moved out of MEMORY.md: it was written with the
      // index line, not under the topic's dated heading, so it takes no date from the headings.
      if (h) {
        const date = validIso(h[2]);
        headings.push({ offset, level: h[1]!.length, date, entry: date !== undefined && ENTRY_HEADING.test(h[2]!), ...(FROM_THE_INDEX.test(h[2]!) ? { moved: true } : {}) });
      }
      else {
        const noted = NOTE_DATE.exec(line);
        if (bodyLine < 12 && note === undefined) note = validIso((noted ?? (bodyLine === 0 ? OPENING_STAMP.exec(line) : null))?.[1]);
        else {
          // A later date line ("Date: 2026-11-25" after "Date: 2026-11-10") dates what follows it,
          // as a dated label alone on its line does: not the note's first date.
          const later = validIso(noted?.[1]);
          if (later) headings.push({ offset, level: LABEL_HEADING_LEVEL, date: later, entry: true });
        }
      }
    }
    // A blank line, a heading, a fence or a new list item ends a labelled paragraph; a line that
    // starts a block may open one.
    const blank = line.trim() === '';
    const item = ITEM_LINE.test(line);
    const heading = !fence && HEADING_LINE.test(line);
    const inText = !fence && !f && !blank && !heading;
    const m = inText ? DATED_LABEL.exec(line) : null;
    const label = validIso(m?.[2]);
    // A line opening with a dated label opens a dated stretch even inside a paragraph: a running
    // log writes its entries line after line, each under its own label, with no blank between.
    const startsBlock = inText && (inParagraph === false || item || label !== undefined);
    const open = paragraphs[paragraphs.length - 1];
    if (open && open.to === text.length && (blank || heading || f || startsBlock)) open.to = offset;
    if (startsBlock) {
      // A dated label alone on its line, not in an item ("**UPDATE 2026-03-25 — funnel live:**"),
      // stands for a heading: it dates what follows up to the next heading or such a label.
      if (label && !item && LABEL_ALONE.test(line.slice(m!.index + m![0].length))) {
        headings.push({ offset, level: LABEL_HEADING_LEVEL, date: label, entry: ENTRY_HEADING.test(m![2]!) });
      } else if (label) paragraphs.push({ from: offset, to: text.length, anchor: { date: label, source: 'paragraph' } });
      else if (item) {
        const stamped = validIso(ITEM_STAMP.exec(line)?.[1]);
        if (stamped) paragraphs.push({ from: offset, to: text.length, anchor: { date: stamped, source: 'item' } });
      }
    }
    inParagraph = !fence && !f && !blank && !heading;
    if (!blank) bodyLine++;
    offset += raw.length + 1;
  }
  // For each heading, the date of the innermost heading enclosing it (itself included) that has
  // one: its own, else its parent's (the nearest heading before it of a higher level). Worked out
  // once, so a lookup is a binary search, whatever the number of headings.
  // Each answer is made once: the same object for every offset it holds for.
  const dated: Array<TextAnchor | undefined> = [];
  // Whether a heading is, or is inside, "## From the index": its text has no date of its own in
  // this file (not the note's, `modified`, nor the file name's either).
  const moved: boolean[] = [];
  const open: number[] = [];
  headings.forEach((h, i) => {
    while (open.length > 0 && headings[open[open.length - 1]!]!.level >= h.level) open.pop();
    const parent = open.length > 0 ? open[open.length - 1]! : -1;
    moved[i] = h.moved === true || (parent >= 0 && moved[parent]!);
    dated[i] = moved[i] ? undefined : h.date ? { date: h.date, source: 'heading', entry: h.entry === true } : parent >= 0 ? dated[parent] : undefined;
    open.push(i);
  });
  const otherwise: TextAnchor | undefined = note ? { date: note, source: 'note' } : modified ? { date: modified, source: 'modified' } : named ? { date: named, source: 'name' } : undefined;
  return (at) => {
    const p = startedBy(paragraphs, at, paragraphFrom);
    const paragraph = p > 0 ? paragraphs[p - 1] : undefined;
    if (paragraph && at < paragraph.to) return paragraph.anchor;
    // The innermost heading above `at` that has a date, among the headings that enclose it.
    const h = startedBy(headings, at, headingOffset);
    if (h > 0 && moved[h - 1]) return MOVED;
    return (h > 0 ? dated[h - 1] : undefined) ?? otherwise;
  };
}

/**
 * Text under memlint's "## From the index": hooks moved out of MEMORY.md, written on the day of
 * their index line, which this file does not give.
 */
const MOVED: TextAnchor = { date: '', source: 'moved' };

/** How a message names where the date came from. */
export function describeAnchor(a: TextAnchor): string {
  switch (a.source) {
    case 'heading':
      return `the date of its section, ${a.date}`;
    case 'paragraph':
      return `the date of its paragraph, ${a.date}`;
    case 'item':
      return `the date its list item ends with, ${a.date}`;
    case 'note':
      return `the note's own date, ${a.date}`;
    case 'modified':
      return `the file's modified date, ${a.date}`;
    case 'name':
      return `the date in the file's name, ${a.date}`;
    case 'moved':
      return MOVED_ANCHOR;
  }
}

export interface ChosenAnchor {
  date: string;
  /** For messages: "the line's commit date, 2026-03-24". */
  describe: string;
  /**
   * The day the text was written for sure: a daily log's date, the date its section's heading
   * opens with, its dated paragraph label, its note's own date line. What consolidation, which
   * runs without a person, counts from.
   */
  sure: boolean;
  /**
   * The day --fix may count from: a sure day, the date in the file's name or `modified`. Not a
   * date a topic's heading merely names, not the line's commit date (on real memory a section
   * committed with its dated heading was committed that day in only about half the cases where
   * it was written within the week before: docs/rules-content.md), never the day of the run.
   */
  known: boolean;
  /** The day is the text's own (a log's, a section's, a note's, `modified`, the file name's), not a commit's or the run's. */
  own: boolean;
  /** The day is the line's commit date: committed text that gives no date of its own. */
  byCommit: boolean;
  /**
   * No day is known: committed text past a shallow clone's boundary, which gives no date of its
   * own, or a hook memlint moved out of MEMORY.md and not committed yet. `date` is then only the
   * latest the line can have been written, never to be stated.
   */
  unknown?: true;
  /** With `unknown`: where the day can be found. */
  findDay?: string;
}

/** How a message says that no day can be counted (the rule says what to do about it). */
export const SHALLOW_ANCHOR = "this clone is shallow and does not hold the commit that wrote the line";
export const MOVED_ANCHOR = 'memlint moved this text here from MEMORY.md and it is not committed yet';
export const MOVED_COMMITTED_ANCHOR = "memlint moved this text here from MEMORY.md, and the commit of the move is not the day it was written";

/**
 * A file's name dates the file, not each of its lines: a line committed after the file's first lines
 * (or written now, when not committed yet) was added later, on a day the name does not give.
 */
function addedLater(o: { commitDate?: LineDate; firstCommitDate?: string; today: string }): boolean {
  if (o.firstCommitDate === undefined) return false;
  const day = typeof o.commitDate === 'string' ? o.commitDate : o.commitDate ? undefined : o.today;
  return day !== undefined && day > o.firstCommitDate;
}

/** The earliest commit date among a file's committed lines (the day its oldest text was committed). */
export function firstCommitDate(dates: ReadonlyArray<LineDate | undefined>): string | undefined {
  let first: string | undefined;
  // Indexed: one pass over a file's lines, too short-lived for V8 to optimise a for-of's iterator away.
  for (let k = 0; k < dates.length; k++) {
    const d = dates[k];
    if (typeof d === 'string' && (first === undefined || d < first)) first = d;
  }
  return first;
}

/**
 * The day to count a relative date from: a daily log's date; else the date the text gives (when
 * not later than the line's commit date, or than today for a line not committed yet: a later one
 * is an event, not the writing; a file name's date only for the lines of the file's first commit,
 * `firstCommitDate`); else the line's commit date; else, for text memlint moved out of the index
 * and not committed yet, no day; else today.
 */
export function chooseAnchor(o: { logDate?: string; text?: TextAnchor; commitDate?: LineDate; firstCommitDate?: string; modifiedCommit?: LineDate; today: string }): ChosenAnchor {
  if (o.logDate) return { date: o.logDate, describe: `the log's date, ${o.logDate}`, sure: true, known: true, own: true, byCommit: false };
  // Past a shallow clone's boundary the line was committed on that commit's date or before: the
  // text's own date is still taken when not later, but that date is not the line's.
  const shallow = typeof o.commitDate === 'object' ? o.commitDate : undefined;
  const limit = (shallow ? shallow.upTo : o.commitDate) ?? o.today;
  // `modified` dates the file's change that set it: a line committed after the `modified:` line was
  // written later, when `modified` was not kept up to date, so it is not that line's day.
  const staleModified = o.text?.source === 'modified' && typeof o.commitDate === 'string' && typeof o.modifiedCommit === 'string' && o.commitDate > o.modifiedCommit;
  if (o.text && o.text.source !== 'moved' && o.text.date <= limit && !(o.text.source === 'name' && addedLater(o)) && !staleModified) {
    const sure = (o.text.source === 'heading' && o.text.entry === true) || o.text.source === 'paragraph' || o.text.source === 'note';
    return { date: o.text.date, describe: describeAnchor(o.text), sure, known: sure || o.text.source === 'name' || o.text.source === 'modified', own: true, byCommit: false };
  }
  if (shallow) return { date: shallow.upTo, describe: SHALLOW_ANCHOR, sure: false, known: false, own: false, byCommit: true, unknown: true, findDay: '"git fetch --unshallow" fetches its history' };
  // A hook moved out of the index is as old as its index line: not today's, nor the day the move
  // was committed (a team commits memlint's rewrite on the day it runs, months after the hook was
  // written: the sixteenth set's moved hooks were dated from that commit).
  if (o.text?.source === 'moved') return { date: typeof o.commitDate === 'string' ? o.commitDate : o.today, describe: o.commitDate === undefined ? MOVED_ANCHOR : MOVED_COMMITTED_ANCHOR, sure: false, known: false, own: false, byCommit: true, unknown: true, findDay: "its index line's commit in MEMORY.md's history dates it" };
  if (typeof o.commitDate === 'string') return { date: o.commitDate, describe: `the line's commit date, ${o.commitDate}`, sure: false, known: false, own: false, byCommit: true };
  return { date: o.today, describe: `today, ${o.today}`, sure: false, known: false, own: false, byCommit: false };
}

/**
 * The anchor of each offset of a text that is not a daily log: chooseAnchor over the text's own
 * dates (textDateAnchors) and each line's commit date. One object per distinct answer, made once:
 * a topic of thousands of dated lines asks for every phrase and gets one of a few answers.
 */
export function textAnchors(text: string, rel: string, bodyFrom: number, commitDate: (offset: number) => LineDate | undefined, today: string, firstCommit?: string): (offset: number) => ChosenAnchor {
  const fromText = textDateAnchors(text, rel, bodyFrom);
  // The commit of the frontmatter's `modified:` line, which says when the value was set.
  const at = /^[ \t]*modified[ \t]*:/mu.exec(text.slice(0, bodyFrom));
  const modifiedCommit = at ? commitDate(at.index) : undefined;
  const made = new Map<TextAnchor | undefined, Map<LineDate | undefined, ChosenAnchor>>();
  return (offset) => {
    const own = fromText(offset);
    const commit = commitDate(offset);
    let byCommit = made.get(own);
    if (!byCommit) made.set(own, (byCommit = new Map()));
    let chosen = byCommit.get(commit);
    if (!chosen) byCommit.set(commit, (chosen = chooseAnchor({ text: own, commitDate: commit, firstCommitDate: firstCommit, ...(modifiedCommit !== undefined ? { modifiedCommit } : {}), today })));
    return chosen;
  };
}
