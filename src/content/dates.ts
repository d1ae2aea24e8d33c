// Relative dates ("tomorrow", "next Thursday", "last week", "下周四", "明天") found in memory text,
// with the absolute date each one stands for, counted from the day the text was written.
//
// Pure and synchronous: the lint rule loads this module lazily (it pulls in chrono-node); the
// consolidation step calls it to make dates absolute in place. Which phrases count is decided by
// the patterns below (what a relative date looks like in a memory); English day phrases are
// computed here as chrono-node reads them (englishReading; chrono itself reads "this morning" and
// "last night"). Chinese phrases are computed here too: chrono's zh locale misses 上周, 下个月,
// 两周后 and reads 本周五 as 周五.
//
// Not relative dates: times of day ("10:02"), recurring phrases ("every Monday", "on Mondays",
// "each Friday", "a Friday", "每周一", "周一到周五"), weekday ranges ("Monday to Friday"),
// durations and policies ("within 2 days", "tokens expire in 30 days", "30天后过期"), "now", and
// a phrase already followed by an absolute date ("Thursday (2026-03-05)"). Text in frontmatter,
// code blocks (the ranges the caller gives from the block model), inline code and URLs is skipped.
//
// Where a word starts, the patterns say (?<!\w), not \b: the same test there (every alternative
// after it opens with a word character; the i and u flags count ſ and the Kelvin sign as word
// characters either way). Under those flags V8 turns \b into a lookaround both ways, tried at every
// position of the text, where (?<!\w) lets the scan skip to the pattern's first letters.
import { Spans } from './spans.js';
import * as chrono from 'chrono-node';
import { findFrontmatter } from '../memdir/topic.js';
import { DEFAULT_WORD, EN_PATTERNS, PRESENT_VERB_MORE, WEEKDAY, ZH_PATTERNS, isDateTemplate, mayHoldRelativeDate, namesNoDay } from './date-patterns.js';

export { mayHoldRelativeDate };

export interface RelativeDate {
  /** UTF-16 offsets of the phrase in the text. */
  start: number;
  end: number;
  /** The phrase as written. */
  text: string;
  /** The day it stands for (for a week, its Monday; a month, its first day; a year, 1 January). */
  absolute: string;
  /** The absolute form alone ("2026-04-30", "the week of 2026-04-27", "2026-05", "2026-04-13 那一周"). */
  absoluteForm: string;
  /**
   * What the fix writes: the phrase as written with its date beside it ("next Friday
   * (2026-10-09)", "下周四（2026-04-30）"), so a reader sees both and can undo a wrong anchor. The
   * rule accepts that form.
   */
  replacement: string;
  /**
   * Whether the phrase names one day, week, month or year for sure: a day word ("tomorrow",
   * "明天"), a modified weekday or period ("next Friday", "last week", "下周四"), a count ("three
   * days ago"). Not: a bare weekday ("by Friday": which one?), a vague count ("a few days ago",
   * "前几天").
   */
  exact: boolean;
  /**
   * Whether a date may be written beside the phrase: not when it stands in a link's text (a title,
   * a name: a date written there renames the link, and a fix must never edit what a link says).
   * A phrase that is not fixable is still reported, with the date as a suggestion.
   */
  fixable: boolean;
  /**
   * A "today" in a sentence that tells no event, past or future ("the feed is served from the
   * replica today", "zero analytics today", "the only caller today"): it means "at present". In a
   * text with its own date (a daily log, a dated section or note, a dated file name) it is that
   * day's record; counted from a commit date alone it is a statement of how things are, which the
   * rule does not report (checked on real memory: 0 of 33 such findings were one-off dates).
   */
  present: boolean;
  /**
   * The sentence tells a one-off event, past or future, or a schedule ("shipped", "will", "due",
   * "starts", "as of"), or the phrase points into the past ("yesterday", "last week", "three days
   * ago"). Without one, a phrase counted from a commit date alone is how things are or a general
   * statement (checked on real memory: none of the commit-dated findings without one was a
   * one-off date), and the rule does not report it.
   */
  told: boolean;
  /**
   * The sentence's own words tell a one-off event, past or future: a verb of one ("shipped", "will",
   * "due"), a deadline or time ("by", "as of"), a meeting beside the phrase, or an instruction's
   * label. Not the phrase alone: "previous month" or "today" in a heading, a table cell, a formula
   * or a spec's step ("Compute previous month", "date = today") is as often a product's notion of
   * the day it runs as a day meant. Only a narrated phrase is written without a person (--fix,
   * consolidate); the others are suggestions (checked on real memory: docs/rules-content.md,
   * "Dates written only where the sentence tells an event").
   */
  narrated: boolean;
  /**
   * For "next Thursday" said while a Thursday still comes this week: the phrase with the date a
   * week later, the other day it may mean (the finding suggests both; neither is written by --fix).
   */
  otherReplacement?: string;
}

export type DateAnchor = Date | ((offset: number) => Date);

/** A calendar day. */
export interface Ymd {
  y: number;
  m: number;
  d: number;
}

const EVENT_BEFORE_IN = /(?:(?<!\w)(?:will|going to|gonna)|(?<=\w)'ll)\b[^.;\n]{0,40}$|(?<!\w)(?:due|deadline|ships?|shipping|launch(?:es|ing)?|lands?|starts?|begins?|ends?|closes?|opens?|live|back|returns?|renews?|happens?|is|are|arrives?|scheduled|planned|expected)[ \t]+$/iu;
// A line that states a recurrence makes its bare weekdays recurring too ("a two-week train; the cut happens Wednesday").
const RECURRING_LINE = /(?<!\w)(?:every|each|trains?|weekly|biweekly|bi-weekly|fortnightly|two-week|per week|cadence|rotation|usually|always|typically|normally|recurring)\b/iu;
const NOT_BEFORE_WEEKDAY = /(?<!\w)(?:every|each|a|any|no|other|alternate|black|good|cyber|easter|from|between)[ \t]+$|(?<!\w)(?:no|never|don't|do not|avoid)\b[^.;\n]*\bon[ \t]+$|(?<!\w)only[ \t]+on[ \t]+$/iu;
const WEEKDAY_CUE_BEFORE = /(?<!\w)(?:by|until|till|before|due|on|since|from|after|coming|(?:mov|push|postpon|delay|reschedul|slipp?|shift)\w*[ \t]+(?:it[ \t]+|them[ \t]+)?to)[ \t]+$/iu;
// "No deploys after Thursday noon", "never merge past Friday 15:00": a prohibition's cut-off hour
// on a weekday is a standing rule, any week's, not one day.
const CUTOFF_BEFORE_WEEKDAY = /(?<!\w)(?:no|never|don't|do not|doesn't|does not|can't|cannot|must not|mustn't|avoid)\b[^.;\n]*\b(?:after|before|past)[ \t]+$/iu;
const HOUR_AFTER_WEEKDAY = /^[ \t]+(?:(?:at|by)[ \t]+)?(?:noon|midday|midnight|morning|afternoon|evening|night|eod|cob|end[ \t]+of[ \t]+(?:the[ \t]+)?day|close[ \t]+of[ \t]+business|\d{1,2}(?::\d{2})?[ \t]*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2})(?![\w:])/iu;
const RANGE_AFTER_WEEKDAY = new RegExp(`^[ \\t]*(?:-|–|—|to|through|thru|and|or)[ \\t]*${WEEKDAY}`, 'iu');
const RANGE_BEFORE_WEEKDAY = new RegExp(`${WEEKDAY}s?[ \\t]*(?:-|–|—|to|through|thru|and|or|,)[ \\t]*$`, 'iu');
const MEETING_AFTER_WEEKDAY = /^[ \t]+(?:deploys|deployments|releases|merges|builds|jobs|runs|batches|freezes|standups?|stand-ups?|meetings?|syncs?|retros?|reviews?|calls?|check-ins?|1:1s?|release train|mornings|afternoons|evenings|nights|slots?|shifts?|columns?|rows?|rota)\b/iu;
// A phrase already paired with an absolute date: "Thursday (2026-03-05)", "Friday, March 5",
// "this week = 06-19→06-25" (a month and day: the year is the text's), "2026-03-05 (tomorrow)".
const ABSOLUTE_AFTER = /^[ \t]*(?:[,(（=:：]|→|->|=>)?[ \t]*(?:\d{4}-\d{2}-\d{2}|(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?!\d)|\d{1,2}\/\d{1,2}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?[ \t]+\d{1,2}\b|\d{1,2}[ \t]+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))/iu;
const ABSOLUTE_BEFORE = /\d{4}-\d{2}-\d{2}[ \t]*[,(（]?[ \t]*$/u;

// The fix's own form: the phrase, then its date in parentheses ("next Friday (2026-10-09)",
// "last week (the week of 2026-04-13)", "next month (2026-05)", "下周四（2026-04-30）").
const PAIRED_AFTER = /^[ \t]*[(（][ \t]*(?:(?:the[ \t]+)?(?:week|weekend)[ \t]+of[ \t]+|around[ \t]+|約|约)?\d{4}(?:-\d{2}(?:-\d{2})?|-Q[1-4])?(?:[ \t]*(?:那一周|那个周末|月初|月底|前后|年))?[ \t]*[)）]/u;

const PERIOD_AS_NAME = /^['’]?[ \t-]+(?:contracts?|options?|futures?|expiry|expiries|series|issues?|editions?|cohorts?|batch(?:es)?|slots?|prices?|rates?|view|tab|column|bucket|filter)\b/iu;
const EN_WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
// A phrase twoWeeksMeant can say yes to holds one of these (its words are split at whitespace).
const WEEKDAY_IN = /monday|tuesday|wednesday|thursday|friday|saturday|sunday/u;
// A weekday leading a line, list item, table cell or bold label, then a separator: a schedule
// ("Monday: run the digest", "| Tuesday | grants |", "**Friday** — hygiene").
const SCHEDULE_LEAD = /^[ \t]*(?:>[ \t]*)*(?:(?:[-*+]|\d+[.)])[ \t]+)?(?:#{1,6}[ \t]+)?(?:\|[ \t]*)?(?:\*\*|__)?$/u;
const SCHEDULE_SEPARATOR = /^(?:s)?(?:\*\*|__)?[ \t]*(?:[:：|—–]|-[ \t]|\([^)]*\)[ \t]*[:：—–-])|^[ \t]+(?:is|are)[ \t]+(?:the[ \t]+|a[ \t]+)?(?:only[ \t]+|main[ \t]+)?(?:day|days)\b/iu;
const ZH_SCHEDULE = /^[ \t]*(?:[-*+]|\d+[.)])?[ \t]*(?:\|[ \t]*)?(?:\*\*)?(?:周|星期|礼拜)[一二三四五六日天](?:\*\*)?[ \t]*[:：|—–-]/u;
// "today" that means "at present": "safe today", "not a bottleneck today", "no caller today", "not
// ready today", "not reachable today", "the only one in the repo today" (not "available today",
// which may announce a launch).
const PRESENT_STATE_TODAY = /(?<!\w)(?:safe|fine|ok|okay|works?|working|bugs?|bottlenecks?|problems?|issues?|true|the case|possible|supported|needed|used|exists?|matters?|relevant|enough|correct|valid|broken|(?:un)?reachable|exploitable|latent|dormant|not[ \t]+(?:yet[ \t]+)?ready|callers?|users?|nobody|no one|none|(?:only|no|nothing)\b[^.;!?\n]{0,40}\bin[ \t]+the[ \t]+(?:repo|repository|codebase|code|tree|schema))\b[^.;!?\n]{0,40}\btoday\b/iu;
// "today's fashion is tomorrow's standard", "a key that works today may be dead tomorrow": a
// saying or a contrast that holds on any day.
const FIGURATIVE = /(?<!\w)today['’]s\b[^.;\n]{0,60}\b(?:is|are|becomes?)\b[^.;\n]{0,20}\btomorrow['’]s\b|(?<!\w)today\b[^.;\n]{0,60}\b(?:may|might|could|can)\b[^.;\n]{0,40}\b(?:tomorrow|next[ \t]+(?:week|month))\b|(?<!\w)(?:none|nothing|nobody|no one)\b[^.;\n]{0,40}\b(?:tomorrow|today)\b|(?<!\w)(?:not|never)\s+(?:built|made|done|won|paid)\s+(?:in\s+a\s+day|overnight)|(?<!\w)(?:as\s+if\s+there\s+were\s+no|like\s+there'?s\s+no)\s+tomorrow\b/iu;
// Every FIGURATIVE match holds one of these: most lines are spared its scan.
const FIGURATIVE_WORD = /today|tomorrow|next\s+(?:week|month)|in\s+a\s+day|overnight/iu;

// Habitual, generic and recurring uses: "it usually happened yesterday", "whenever we ship on a
// Friday", "by default the job runs tomorrow". Looked for in the sentence around the phrase.
// Plain words every match of HABITUAL and of EVENT_NOUN_NEAR holds (each begins with a lookbehind,
// which V8 tries at every character: where none of these words is, the long patterns are not run).
// test/content/dates-told.test.ts holds each hint to its pattern.
const HABITUAL_HINT = /usually|always|typically|normally|generally|often|sometimes|frequently|routinely|habitually|tend|whenever|every[ \t]|each[ \t]|default|rule|通常|一般|总是|往往|经常|每次/iu;
const MEETING_HINT = /meeting|call|standup|review|demo|sync|interview/iu;
const HABITUAL = /(?<!\w)(?:usually|always|typically|normally|generally|often|sometimes|frequently|routinely|habitually|tends?[ \t]+to|whenever|every[ \t]+time|each[ \t]+time|by[ \t]+default|as[ \t]+a[ \t]+rule|would[ \t]+always)\b|通常|一般|总是|往往|经常|每次/iu;
// A word before a weekday that makes it a name or a recurrence: "the Sunday post", "the 3rd Friday",
// "the first Monday", "its Friday", "Fridays".
const GENERIC_BEFORE_WEEKDAY = /(?<!\w)(?:the|that|whichever|same|its|their|our|your|his|her)[ \t]+$|(?:(?<!\w)\d{1,2}(?:st|nd|rd|th)|(?<!\w)(?:first|second|third|fourth|fifth|penultimate|final))[ \t]+$/iu;
// "the last Friday of the month", "the first Monday of each quarter": a recurrence.
const OF_PERIOD_AFTER = /^[ \t]+(?:of|in)[ \t]+(?:the|each|every|a|any)[ \t]+(?:month|quarter|year|sprint|cycle|release|week)\b/iu;
// Interface labels listed together: "Today / Yesterday / 1 week ago", "today | this week".
const LABEL_WORD = '(?:today|yesterday|tomorrow|tonight|this[ \\t]+(?:week|month|year)|last[ \\t]+(?:week|month|year|7[ \\t]+days)|next[ \\t]+(?:week|month)|\\d+[ \\t]+\\w+[ \\t]+ago|older|earlier|never|now|just[ \\t]+now|今天|昨天|明天|本周|上周)';
const LABEL_BEFORE = new RegExp(`${LABEL_WORD}[ \\t]*[/|·•][ \\t]*$`, 'iu');
const LABEL_AFTER = new RegExp(`^[ \\t]*[/|·•][ \\t]*${LABEL_WORD}`, 'iu');
// Options listed in Title Case with commas: "(Yesterday, Last Week, Custom)", a picker's choices.
const LABEL_COMMA_BEFORE = new RegExp(`(${LABEL_WORD})[ \\t]*,[ \\t]*$`, 'iu');
const LABEL_COMMA_AFTER = new RegExp(`^[ \\t]*,[ \\t]*(${LABEL_WORD})`, 'iu');
// An article or a count right before a day word used as a noun: "the today badge", "1 today marker".
const NOUN_DETERMINER_BEFORE = /(?:^|[^\p{L}\p{N}:.])(?:a|an|the|\d+)[ \t]+$/iu;
const DAY_WORD = /^(?:today|yesterday|tomorrow|tonight)$/u;
const WORD_AFTER = /^[ \t]+\p{L}/u;
const NOT_A_NOUN_AFTER = /^[ \t]+(?:at|in|on|by|and|or|to|is|was|we|i|it|the|a)\b/iu;

/** The phrase and a neighbour it is listed with by a comma are both Title Case interface labels. */
const TITLE_START = /^\p{Lu}/u;
const TITLE_PART = /^(?:\p{Lu}|\d)/u;
const BLANKS = /[ \t]+/u;

function titleCase(w: string): boolean {
  return TITLE_START.test(w) && w.split(BLANKS).every((p) => TITLE_PART.test(p));
}

function titleCaseOptions(line: string, start: number, end: number): boolean {
  if (!titleCase(line.slice(start, end))) return false;
  const before = LABEL_COMMA_BEFORE.exec(behind(line, start));
  const after = LABEL_COMMA_AFTER.exec(line.slice(end));
  return (before !== null && titleCase(before[1]!)) || (after !== null && titleCase(after[1]!));
}
// "today" meaning "at present": a present-tense statement of how things are ("today the API
// returns 404", "the job runs on one node today"), with no past or future event in the sentence.
const PRESENT_VERB = /(?<!\w)(?:is|are|isn't|aren't|uses|use|has|have|hasn't|haven't|holds|supports|lives|points|stores|depends|requires|needs|lacks|exists|means|returns|runs|works|contains|calls|reads|writes|sits|stands|remains|stays|lets|allows|handles|owns|covers|serves|relies|expects|matches|knows|does|doesn't|don't|can|cannot|can't)\b/iu;
const EVENT_VERB = /(?:(?<!\w)(?:was|were|did|didn't|had|will|won't|shall|going[ \t]+to|gonna|plan(?:s|ned)?|scheduled|due|deadline|broke|went|came|found|got|made|ran|saw|told|said|took|left|sent|wrote|shipped|deployed|merged|landed|fixed|released|failed|started|finished|happened|asked|decided|agreed|announced|reported|noticed|discovered|learned|added|removed|changed|moved|reverted|rolled|turned|closed|opened|migrated|upgraded|updated|completed|starts?|begins?|ends?|ships?|lands?|launch(?:es)?|expires?|freezes?|until|since)|(?<=\w)'ll)\b/iu;
// "by", "before" and "after" date an event only before a time ("by Friday", "before 15:45", "after
// the launch"), not in "by hand" or "side by side".
// EVENT_VERB's words that TOLD does not have (see tellsEventBeyondTold).
const EVENT_VERB_NOT_TOLD = /(?<!\w)(?:starts?|begins?|ends?|ships?|lands?|launch(?:es)?|expires?|freezes?|since)\b/iu;
const TIME_PREPOSITION = /(?<!\w)(?:by|after)[ \t]+\u0000|(?<!\w)(?:by|before|after)[ \t]+(?:the[ \t]+)?(?:\d|today|tonight|tomorrow|yesterday|now|then|noon|midnight|eod|eow|end\b|next\b|this\b|last\b|mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may\b|jun|jul|aug|sep|oct|nov|dec|launch|release|deploy|merge|lunch|morning|evening|tonight)/iu;
// A meeting or demo names an event only next to the phrase ("the demo today", "today's call"), not
// as the subject of a statement about a page ("the demo is above the video today").
// After "can" the word is a verb of what is possible at present ("Can demo today with any folder"), no event.
const EVENT_NOUN_NEAR = /(?<!\w)(?<!(?:can|could|cannot|can't|can’t)[ \t]+)(?:meetings?|calls?|standups?|reviews?|demos?|sync|interview)\b(?:[ \t]+\S+){0,2}[ \t]*\u0000|\u0000(?:['’]s)?(?:[ \t]+\S+){0,2}?[ \t]+(?:meetings?|calls?|standups?|reviews?|demos?|sync|interview)\b/iu;
// A participle after a determiner or joined by a hyphen is an adjective, not an event: "the
// shipped proxy", "an already-scheduled follow-up", "the merged branch".
const ADJECTIVE_PARTICIPLE = /(?:(?<!\w)(?:the|a|an|its|their|our|your|this|that|these|those)[ \t]+|-)[a-z]+ed\b/giu;
// A sentence that tells an event, past or future, or dates a state ("as of", "until"): a "today" in
// it is that day. Without one, "today" states how things are at present.
const TOLD = /(?<!\w)(?:was|wasn't|were|weren't|did|didn't|had|hadn't|will|won't|shall|going[ \t]+to|gonna|plan(?:s|ned)?|scheduled|due|deadline|ago|as[ \t]+of|until|so[ \t]+far|broke|went|came|found|got|made|ran|saw|told|said|took|left|sent|wrote|shipped|deployed|merged|landed|fixed|released|failed|started|finished|happened|asked|decided|agreed|announced|reported|noticed|discovered|learned|added|removed|changed|moved|reverted|rolled|turned|closed|opened|migrated|upgraded|updated|completed|overwrote|rewrote|chose|drew|drove|fell|forgot|froze|gave|grew|knew|rode|rose|spoke|stole|threw|woke|wore|began|ate)\b|['’]ll\b/iu;
// A feedback memory's reason ("**Why:**") holds whenever it is read: a date word there is general
// ("6 months from now, you need to know why") unless it tells a past incident. (Its "**How to
// apply:**" may well say "this week".)
const RATIONALE_LABEL = /^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(?:why|reason|rationale)(?:\*\*|__)?[ \t]*(?:[:：—–-]|\*\*[ \t]*[:：])/iu;
const PAST_TENSE = /(?<!\w)(?:was|wasn't|were|weren't|did|didn't|had|hadn't|broke|went|came|found|got|made|ran|saw|told|said|took|left|sent|wrote|chose|began|fell|forgot|gave|grew|knew|lost|paid|spent|(?!(?:indeed|speed|proceed|exceed|succeed|need|feed|seed|embed|shared|red)\b)[a-z]{2,}ed)\b/iu;
// Reported speech: what someone was asked or told to do is in their words, as a quotation is
// ("asked it to fetch today's weather"): its date words count from when they spoke.
const REQUEST_BEFORE = /(?<!\w)(?:asked|told|instructed|prompted|requested|ordered|tasked)\b(?:[ \t\n]+\S+){0,3}?[ \t\n]+to[ \t\n]+[^.;:!?]{0,60}$/iu;
// Inside a condition or a possibility, a date word is any such day, not one ("if a task fired at
// 23:00 on a Friday", "when he just wants to ship one thing tonight", "could grade yesterday's
// decisions as today's").
const CONDITION_BEFORE = /(?<!\w)(?:if|when|whenever|unless)\b[^.;:!?—–]{0,80}$|(?<!\w)(?:could|would|might)\b[^.;:!?—–,]{0,40}$/iu;
// "anything we could build this month", "any fix that might land tomorrow": a hypothetical, not a day.
const HYPOTHETICAL_BEFORE = /(?<!\w)(?:any|anything|anyone|anybody|whatever|whichever)\b[^.;!?\n]{0,60}\b(?:could|would|might)\b[^.;!?\n]{0,40}$/iu;

// The word used as the name of a thing, not as a date: "the Today view", "a Yesterday tab".
const NAMED_AFTER = /^(?:\*{1,2}|_{1,2})?['’]?[ \t]+(?:view|tab|page|screen|button|label|filter|column|section|widget|panel|badge|list|folder|board|feed|header|menu|chip|pill|link|card|preset|option|toggle|shortcut)s?\b/iu;

// A line that ends a paragraph (blank, a heading, a table row) and one that starts a block (a list
// item, a heading, a quote, a table row): a sentence runs across the other line breaks.
const TODAY_OR_YESTERDAY = /(?<!\w)(?:today|yesterday)[ \t]+(?:or|and\/or|\/)[ \t]+(?:today|yesterday)\b|(?:今天|昨天)(?:或|或者|或是)(?:今天|昨天)/iu;
const ZH_DAY_ITEM_AFTER = /^(?:的)?(?:文件|数据|日志|记录|报告|日报|内容)/u;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]/u;
// The line that opens a list with a recurrence: "Every Monday:", "Each sprint:", "每周一：".
// A heading that names a recurring ritual ("### Daily Review (3-Part, 20 min)", "## Weekly
// checklist"), with no date of its own: the list under it is the ritual's steps, asked on any day
// ("1. What did I do today?"). A dated heading ("## Daily log 2026-03-05") tells that day.
const RITUAL_HEADING = /^ {0,3}#{1,6}[ \t]+(?:\*\*|__)?(?:(?:every|each)[ \t]+(?:day|morning|evening|night|week|weekday|month|sprint)|daily|nightly|weekly|monthly)[ \t]+(?:review|retro(?:spective)?|routine|checklist|ritual|habits?|questions|check-?in|reflection|planning)\b(?![^\n]*\d{4}-\d{2}-\d{2})[^\n]*$/iu;
const RECURRENCE_LEAD = /^[ \t]*(?:\*\*|__)?(?:(?:(?:every|each)[ \t]+(?:day|morning|evening|night|week|weekday|month|sprint|quarter|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|daily|weekly|monthly)\b|每(?:天|日|周|星期|月))[^:：\n]{0,40}[:：](?:\*\*|__)?[ \t]*$/iu;
// A table row with a cell that is only a command: the row documents what the command does.
const COMMAND_ROW = /^[ \t]*\|.*\|[ \t]*`(?:\/|--|(?:npm|npx|pnpm|yarn|git|make|python3?|node|bun|cargo|go|uv|docker)[ \t])[^`]*`[ \t]*(?:\||$)/u;
const BREAK_LINE = /^[ \t]*$|^[ \t]{0,3}#{1,6}(?:[ \t]|$)|^[ \t]*\|/u;
const BLOCK_START = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]|^[ \t]{0,3}#{1,6}(?:[ \t]|$)|^[ \t]*>|^[ \t]*\|/u;
const PARAGRAPH_LINES = 30;
const KANA = /[\u3041-\u309f\u30a0-\u30ff]/u;
// A label that introduces what is to be done: "**How to apply:**", "Next steps:", "**Action:**".
const INSTRUCTION_LABEL = /^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(?:how[ \t]+to[ \t]+apply|next[ \t]+steps?|to-?do|action(?:[ \t]+items?)?|plan)(?:\*\*|__)?[ \t]*(?:[:：—–-]|\*\*[ \t]*[:：])/iu;
const HOW_TO_APPLY_LABEL = /^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?how[ \t]+to[ \t]+apply\b/iu;
const FEEDBACK_TYPE = /^type:[ \t]*(["']?)feedback\1[ \t]*$/mu;

/** Whether the text is a topic whose frontmatter says `type: feedback`. */
function isFeedbackMemory(text: string): boolean {
  const fm = findFrontmatter(text);
  return fm !== null && FEEDBACK_TYPE.test(fm.yaml);
}
// What follows such a label is an instruction when it opens with a verb, not with a determiner, a
// pronoun or a condition ("prioritise X this week", not "any code that reads it (today: …)").
const IMPERATIVE_START = /^[ \t*_]*(?!(?:any|all|every|each|the|a|an|this|that|these|those|when|whenever|if|for|in|on|at|to|no|never|always|only|it|its|we|you|they|he|she|our|your|their)\b)[a-z]+\b/u;
// A line opened by a bold label ("**What:**", "**Decision** —").
const BOLD_LABEL = /^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)[^*_\n]{1,40}(?:(?:\*\*|__)[ \t]*[:：—–]|[:：](?:\*\*|__))/u;
export const SENTENCE_END = /[.!?;。！？；](?=\s|$)|[。！？；]/gu;

/**
 * Whether SENTENCE_END matches at `p` of `s` read up to `limit` (its `$`): a full-width stop, or
 * a stop followed by whitespace (\s) or by that end. test/content/dates-sentence-end.test.ts holds
 * it to the pattern.
 */
export function sentenceEndAt(s: string, p: number, limit: number): boolean {
  const c = s.charCodeAt(p);
  if (c === 0x3002 || c === 0xff01 || c === 0xff1f || c === 0xff1b) return true;
  if (c !== 0x2e && c !== 0x21 && c !== 0x3f && c !== 0x3b) return false;
  return p + 1 >= limit || isRegExpSpace(s.charCodeAt(p + 1));
}

/**
 * Where sentences may end, for `stopBounds`: every p where `sentenceEndAt(s, p, limit)` holds
 * for any limit past p + 1 (a full-width stop, or a stop followed by whitespace), in order.
 */
export function sentenceEnds(s: string): Int32Array {
  const out: number[] = [];
  for (let p = 0; p < s.length; p++) if (sentenceEndAt(s, p, s.length + 1)) out.push(p);
  return Int32Array.from(out);
}

/**
 * What the character loops of `sentenceAt` give, found in `ends` (sentenceEnds of `s`) by binary
 * search: `from`, one past the last p in [lo, start) where sentenceEndAt(s, p, start) holds (else
 * lo), and `to`, one past the first p in [end, hi) where sentenceEndAt(s, p, hi) holds (else hi).
 * A stop right before `start` ends a sentence whatever follows it (the limit is its `$`); right
 * before `hi` it gives `hi` either way.
 */
export function stopBounds(s: string, ends: Int32Array, lo: number, start: number, end: number, hi: number): { from: number; to: number } {
  let from = lo;
  if (start - 1 >= lo && sentenceEndAt(s, start - 1, start)) from = start;
  else {
    const k = countBelow(ends, start - 1) - 1;
    if (k >= 0 && ends[k]! >= lo) from = ends[k]! + 1;
  }
  let to = hi;
  const j = countBelow(ends, end);
  if (j < ends.length && ends[j]! < hi) to = ends[j]! + 1;
  return { from, to };
}

/** A UTF-16 unit \s matches: ECMAScript's WhiteSpace and LineTerminator. */
function isRegExpSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

// How far back the checks of the words before a phrase look. They read a few words; bounding them
// keeps a line of any length linear (contract §9), where reading the whole line before each phrase
// made one long line quadratic.
const LOOK_BEHIND = 400;

/** The text before `at` on the line, as far back as the checks look (one more character, so `\b` reads right). */
function behind(line: string, at: number): string {
  return line.slice(Math.max(0, at - LOOK_BEHIND - 1), at);
}

/** Sorted positions in `line` of the characters `re` (global) matches. */
function positions(line: string, re: RegExp): number[] {
  const out: number[] = [];
  re.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = re.exec(line)); ) out.push(m.index);
  return out;
}

/** Sorted positions in `line` of the character `ch` (one UTF-16 unit). */
function places(line: string, ch: string): number[] {
  const out: number[] = [];
  for (let i = line.indexOf(ch); i >= 0; i = line.indexOf(ch, i + 1)) out.push(i);
  return out;
}

/** How many of the sorted `xs` are below `at`. */
function countBelow(xs: ArrayLike<number>, at: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The sentence of the line that holds [start, end): from the previous sentence end to the next. */
function sentenceBounds(line: string, start: number, end: number, memo: LineMemo): [number, number] {
  const stops = (memo.stops ??= positions(line, /[.!?;。！？；]/gu));
  const ends = (memo.ends ??= positions(line, /[.!?;。！？；](?:[ \t]|$)|[。！？；]/gu));
  const i = countBelow(stops, start);
  const b = i > 0 ? stops[i - 1]! + 1 : 0;
  const j = countBelow(ends, end);
  return [b, j < ends.length ? ends[j]! : line.length];
}

const QUOTE_MARK = /["“”「」『』‘’]/u;
const QUOTE_PAIRS = [['"', '"'], ['“', '”'], ['「', '」'], ['『', '』'], ['‘', '’']] as const;

/** Inside a quotation on the line: speech or an example question, not the writer's own date. */
function inQuotation(line: string, start: number, end: number, memo: LineMemo): boolean {
  if (!(memo.quoted ??= QUOTE_MARK.test(line))) return false;
  const marks = (memo.quotes ??= new Map());
  const at = (ch: string) => {
    let xs = marks.get(ch);
    if (!xs) marks.set(ch, (xs = places(line, ch)));
    return xs;
  };
  for (const [o, c] of QUOTE_PAIRS) {
    const opens = at(o);
    const n = countBelow(opens, start);
    if (n === 0) continue;
    const closes = at(c);
    if (o === c ? n % 2 === 0 : countBelow(closes, start) > countBelow(closes, opens[n - 1]! + 1)) continue;
    if (countBelow(closes, end) < closes.length) return true;
  }
  return false;
}

/**
 * Quoted across a soft line break: a double quotation mark opens before the phrase in its sentence
 * (on an earlier line of the paragraph) and closes after it ("claims \"anyone re-running it gets" /
 * "the same counts, today and next month.\""). The line-level check sees only one mark.
 */
function quotedAcrossLines(sent: Sentence): boolean {
  if (!sent.text.includes('\n')) return false;
  const before = sent.text.slice(0, sent.at);
  const after = sent.text.slice(sent.end);
  const straight = (before.match(/"/gu)?.length ?? 0) % 2 === 1 && after.includes('"');
  const curly = (before.match(/“/gu)?.length ?? 0) > (before.match(/”/gu)?.length ?? 0) && after.includes('”');
  return straight || curly;
}

/**
 * Uses of a date word that are not a relative date: quoted speech and example questions, a
 * recurring schedule (a weekday leading a line or a table cell), a heading that uses the word as a
 * name ("## Today's facts"), a figurative "today" ("safe today") or "tomorrow" ("none pay
 * tomorrow"), a weekday whose own date stands on the same line. `line` is masked (code blanked).
 */
/** What notADate works out once per line, whatever the number of phrases on it. */
interface LineMemo {
  figurative?: RegExpExecArray | null;
  /** The last sentence looked at ([from, to) on the line, as one number), and what was found in it. */
  sentence?: number;
  facts?: SentenceFacts;
  /** Positions on the line: sentence punctuation, sentence ends, each quotation mark, brackets. */
  stops?: number[];
  ends?: number[];
  /** Whether the line holds a quotation mark at all. */
  quoted?: boolean;
  quotes?: Map<string, number[]>;
  opens?: number[];
  closes?: number[];
  /** The weekdays (1 = Monday) of the ISO dates on the line. */
  isoWeekdays?: Set<number>;
  /** The line states a recurrence; it tells of a past event (for "since/last/on <weekday>"). */
  recurring?: boolean;
  pastEvent?: boolean;
  /** The line holds a label separator (LABEL_BEFORE, LABEL_AFTER); a DEFAULT_WORD. Without one, those checks cannot match. */
  separated?: boolean;
  defaults?: boolean;
}

/**
 * The sentence a phrase stands in, read across the soft line breaks of its paragraph or list item
 * (a wrapped line ends mid-sentence: "so today the" / "tile shows both"), and what it says.
 * `at` and `end` are the phrase's offsets in `text`.
 */
export interface Sentence {
  text: string;
  at: number;
  end: number;
  /** The nearest line label above the phrase in its paragraph is a feedback memory's reason ("**Why:**"). */
  rationale: boolean;
  /** That label is a feedback memory's **How to apply:**, which says when standing guidance applies. */
  standing?: boolean;
  /** The sentence opens with a label of instructions or a plan ("**How to apply:**", "**Next steps:**"): what it says is to be done. */
  instruction?: boolean;
  facts: SentenceFacts;
}

interface SentenceFacts {
  habitual?: boolean;
  /**
   * The sentence holds a word every match of CONDITION_BEFORE (and HYPOTHETICAL_BEFORE) holds; one
   * HYPOTHETICAL_BEFORE needs too; one REQUEST_BEFORE needs. A lead before a phrase is part of its
   * sentence, so without the word the pattern cannot match there, and its scan is spared.
   */
  condition?: boolean;
  hypothetical?: boolean;
  request?: boolean;
}

// A word each match of the pattern named holds (same flags, so the same case folding).
const CONDITION_WORD = /if|when|unless|could|would|might/iu;
const HYPOTHETICAL_WORD = /any|whatever|whichever/iu;
const REQUEST_WORD = /asked|told|instructed|prompted|requested|ordered|tasked/iu;
const LABEL_SEPARATOR = /[/|·•]/u;

/** Facts with every field present from the start (one shape for V8, as lineMemo). */
function sentenceFacts(): SentenceFacts {
  return { habitual: undefined, condition: undefined, hypothetical: undefined, request: undefined };
}

/** The sentence of the line alone, for a caller that has no paragraph. */
function lineSentence(line: string, start: number, end: number, memo: LineMemo): Sentence {
  const [from, to] = sentenceBounds(line, start, end, memo);
  const key = from * (line.length + 1) + to;
  if (memo.sentence !== key || !memo.facts) {
    memo.sentence = key;
    memo.facts = sentenceFacts();
  }
  return { text: line.slice(from, to), at: start - from, end: end - from, rationale: RATIONALE_LABEL.test(line), instruction: undefined, facts: memo.facts };
}

/** The chunk of the sentence around its phrase (chunkOf), read in eventText's form. */
function phraseClause(sent: Sentence): string {
  const marked = eventText(sent);
  const mark = marked.indexOf('\u0000');
  return chunkOf(marked, mark, mark + 1);
}

/** The sentence with the phrase replaced by a mark, other "today"s and adjectival participles ("the shipped proxy") removed. */
function eventText(sent: Sentence): string {
  return (sent.text.slice(0, sent.at) + '\u0000' + sent.text.slice(sent.end)).replace(TODAY_WORD, '').replace(ADJECTIVE_PARTICIPLE, ' ');
}

/**
 * Whether `re` (case-insensitive) finds a verb in `text`: a Title-case word is a name ("Sends
 * Follower", "Ships Monthly"), not a verb; lower case and the capitals of emphasis ("IS live") are.
 */
// The global copy of each verb pattern, made once. Read with exec, not matchAll: matchAll clones
// its pattern on every call, a new RegExp per phrase checked.
const GLOBAL_VERBS = new Map<RegExp, RegExp>();

function hasVerb(re: RegExp, text: string): boolean {
  let g = GLOBAL_VERBS.get(re);
  if (!g) GLOBAL_VERBS.set(re, (g = new RegExp(re.source, 'giu')));
  g.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = g.exec(text)); ) {
    const w = m[0];
    if (w === w.toLowerCase() || w === w.toUpperCase()) {
      g.lastIndex = 0;
      return true;
    }
  }
  return false;
}

/** The sentence tells an event, past or future, or a schedule (besides the phrase itself). */
export function tellsEvent(text: string): boolean {
  return hasVerb(EVENT_VERB, text.replace(CAUSAL_SINCE, ' ')) || TIME_PREPOSITION.test(text) || (MEETING_HINT.test(text) && EVENT_NOUN_NEAR.test(text));
}

/**
 * `tellsEvent` of a text in which `hasVerb(TOLD, text)` is false: EVENT_VERB's words that TOLD
 * also has (and its `'ll`) cannot be found there, so only its others are looked for. Two scans
 * of a long sentence per phrase were one more than needed.
 */
export function tellsEventBeyondTold(text: string): boolean {
  return hasVerb(EVENT_VERB_NOT_TOLD, text.replace(CAUSAL_SINCE, ' ')) || TIME_PREPOSITION.test(text) || (MEETING_HINT.test(text) && EVENT_NOUN_NEAR.test(text));
}
// For test/content/dates-told.test.ts, which holds the two to each other, and the hints to their patterns.
export { TOLD as TOLD_VERB, hasVerb };
export const HINTED: ReadonlyArray<readonly [hint: RegExp, pattern: RegExp]> = [
  [HABITUAL_HINT, HABITUAL],
  [MEETING_HINT, EVENT_NOUN_NEAR],
];

// "since" before a clause in the present tense gives a reason ("not deterministic today, since the
// seed is drawn per call"), not a point in time ("since the reset", "since it was moved").
const CAUSAL_SINCE = /(?<!\w)since(?=[ \t]+(?:\S+[ \t]+){0,4}?(?:is|are|isn't|aren't|does|doesn't|do|don't|can|cannot|can't)\b)/giu;

/**
 * The clause says how something behaves: a verb of action in the present tense ("keeps",
 * "serves", "makes"; "is" or "has" alone may state one day's fact), none in the past, no event.
 */
function describesBehaviour(clause: string): boolean {
  const acts = hasVerb(PRESENT_VERB_MORE, clause) || hasVerb(PRESENT_VERB, clause.replace(COPULA, ' '));
  return acts && !hasVerb(PAST_TENSE, clause) && !tellsEvent(clause);
}
const COPULA = /(?<!\w)(?:is|are|isn't|aren't|has|have|hasn't|haven't)\b/giu;

const WEEKDAY_NAMED = new RegExp(`(?<!\\w)${WEEKDAY}(?!\\w)`, 'iu');
// A person doing something ("we cut the branch", "I merged it"), not what they can or usually do.
const PERSON_ACTS = /(?<!\w)(?:we|i|he|she|they)[ \t]+(?!(?:can|could|should|would|might|may|must|need|want|always|usually|often|never|typically|normally|generally)\b)\p{L}+/iu;
// A copula right before the phrase: a one-off's day ("triage is next Thursday", "the audit is on Friday next week").
const SCHEDULED_AS = /(?<!\w)(?:is|are|was|were)(?:[ \t]+(?:on|at|for))?[ \t]+\u0000/iu;
// Something done to a thing on a day ahead ("the rest are retried tomorrow").
const DONE_TO = /(?<!\w)(?:is|are|gets?|will[ \t]+be)[ \t]+\p{Ll}{2,}ed\b/iu;

/**
 * The clause around a phrase (phraseClause) tells a one-off event in its own words: a verb of one,
 * a time or a meeting (tellsEvent), a person acting, a copula giving the day, or a day ahead with
 * a verb in the present tense ("the owner sends the table tomorrow"). A phrase alone in a heading,
 * a table cell, a formula or a spec's step ("Compute previous month", "date = today") tells none.
 */
function narratesEvent(phrase: string, clause: string): boolean {
  // A named weekday ("Thursday next week", "last Monday") is one day someone meant; "today",
  // "this month" or "previous month" may be whatever day a product runs.
  if (WEEKDAY_NAMED.test(phrase)) return true;
  const opened = openingInLowerCase(clause);
  if (hasVerb(TOLD, opened) || tellsEventBeyondTold(opened) || PERSON_ACTS.test(clause)) return true;
  // A day ahead: a schedule in the present tense. Not "is today" or "can book tomorrow": a
  // product's default or what it allows on any day.
  return FUTURE_POINTING.test(phrase) && (SCHEDULED_AS.test(clause) || DONE_TO.test(clause) || hasVerb(PRESENT_VERB_MORE, opened) || hasVerb(PRESENT_VERB, opened.replace(NO_ACTION, ' ')));
}
const NO_ACTION = /(?<!\w)(?:is|are|isn't|aren't|has|have|hasn't|haven't|can|cannot|can't|does|doesn't|don't)\b/giu;

/** A sentence's first word in Title case is capitalised for opening it ("Can it run today?"), not a name. */
function openingInLowerCase(clause: string): string {
  const m = OPENING_CAPITAL.exec(clause);
  return m ? m[1]! + m[2]!.toLowerCase() + clause.slice(m[0].length) : clause;
}
const OPENING_CAPITAL = /^([^\p{L}]*)(\p{Lu})(?=\p{Ll}*(?!\w))/u;

const CLAUSE_CUT = /(?:[ \t\n][—–][ \t\n]|[ \t\n]--[ \t\n]|[:：()（）;；])/gu;
const CHUNK_CUT = /(?:[ \t\n][—–][ \t\n]|[ \t\n]--[ \t\n]|[,，:：()（）;；])/gu;

/** The stretch of `text` around [at, end) between two matches of the global pattern `cut`. */
function between(cut: RegExp, text: string, at: number, end: number): string {
  let from = 0;
  const head = text.slice(0, at);
  cut.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = cut.exec(head)); ) from = m.index + m[0].length;
  cut.lastIndex = end;
  const after = cut.exec(text);
  return text.slice(from, after ? after.index : text.length);
}

/** The clause of `text` that holds [at, end): between dashes, colons, parentheses and semicolons. */
function clauseOf(text: string, at: number, end: number): string {
  return between(CLAUSE_CUT, text, at, end);
}
/** The stretch of `text` around [at, end) between commas, dashes, colons, parentheses and semicolons. */
function chunkOf(text: string, at: number, end: number): string {
  return between(CHUNK_CUT, text, at, end);
}

// Phrases that point ahead: a schedule told in the present tense is still one ("settlement moves
// to the new ledger next Thursday", "the endpoint opens the day after tomorrow").
const FUTURE_POINTING = /^(?:tomorrow|tonight|next[ \t]|coming[ \t]|the[ \t]+(?:next|coming)[ \t]|the[ \t]+day[ \t]+after|in[ \t])|[ \t]from[ \t]+(?:now|today)$/iu;
// Phrases that point into the past: an incident told ("yesterday", "last week", "three days ago").
const PAST_POINTING = /^(?:yesterday|last[ \t]|past[ \t]|previous[ \t]|the[ \t]+(?:last|past|previous)[ \t]|the[ \t]+day[ \t]+before|this[ \t]+morning)|[ \t]ago$|^(?:昨|前天|大前天|上|去年|前年|前几天|前两天)|前$/iu;

/**
 * A memo with every field present from the start: filled in whatever order the checks ask, memos
 * made empty took a dozen shapes, and V8 threw away and compiled again the finder's optimised code
 * each time a new one reached it (a large share of a run's CPU on a topic of dated lines).
 */
function lineMemo(): LineMemo {
  return {
    figurative: undefined, sentence: undefined, facts: undefined, stops: undefined, ends: undefined,
    quoted: undefined, quotes: undefined, opens: undefined, closes: undefined, isoWeekdays: undefined, recurring: undefined, pastEvent: undefined,
    separated: undefined, defaults: undefined,
  };
}

// Patterns the finder reads for every phrase, made once (a literal in a function is a new RegExp each time it runs).
const ZH_WEEKDAY_WORD = /^(?:周|星期|礼拜)/u;
const LEADING_SPACE = /^\s+/u;
const TODAY_WORD = /(?<!\w)today\b/giu;
const HEADING_LINE = /^[ \t]*#{1,6}[ \t]/u;
const POSSESSIVE_AFTER = /^['’]s\b/u;
// "today's WOD card", "yesterday's summary tile": what a day names in an interface (any day's card),
// at most one word before the element's noun ("today's release broke the tabs" is an event).
const UI_ELEMENT_AFTER = /^['’]s[ \t]+(?:[\p{L}\p{N}-]+[ \t]+)?(?:cards?|screens?|widgets?|tabs?|views?|pages?|panels?|panes?|tiles?|banners?|badges?|cells?|chips?|modals?|dialogs?|buttons?|headers?|rows?|columns?|feeds?|sections?)\b/iu;
// "today's engine", "today's static behavior", "today's SHIPPED fundingPerStrike", "today's h_τ":
// the code as it stands, at present, whatever day it is read (not "today's code review", an event).
const CODE_STATE_AFTER = /^['’]s[ \t]+(?:[\p{L}\p{N}-]+[ \t]+)?(?:(?:engine|code|codebase|behaviou?r|implementation|definition|formula|logic|schema|semantics|architecture|fields|defaults|algorithm)\b(?![ \t]+(?:reviews?|changes?|push(?:es)?|deploy(?:s|ment)?|merges?|fix(?:es)?|runs?|sessions?|meetings?|freeze|drop|cut)\b)|\p{Ll}+\p{Lu}[\p{L}\p{N}]*|[\p{L}\p{N}]+_[\p{L}\p{N}_]+)/u;
// "今日は控えめに強調", "今天高亮显示": how a calendar draws its current day, whichever day it shows.
const CJK_DRAWN_AFTER = /^[はをの]?[^。．！？!?\n]{0,6}?(?:強調|ハイライト|高亮|突出显示|突出顯示|加粗|太字|枠|ドット|色付け|着色)/u;
// "Today's Plan": a capitalised possessive before a capitalised word names a card, a feature, a list.
const TITLE_AFTER_POSSESSIVE = /^['’]s[ \t]+\p{Lu}/u;
// "`endOfMonth` returns the first day of next month": what code computes from its argument, any day.
const DATED_FORM = /\d{4}-\d{2}/u;
const AT_SENTENCE_START = /^[\s]*(?:[-*+>#|]+[ \t]*)*(?:\*\*|__)?$/u;
const CODE_COMPUTES_BEFORE = /`[^`\n]+`[ \t]+(?:returns?|yields?|computes?|produces?|gives)\b[^.;!?`\n]*$/iu;
const CAPITAL = /^[A-Z]/u;
const CAPITALISED_WORD_BEFORE = /(?:^|[^\p{L}\p{N}])\p{Lu}[\p{L}\p{N}]*[ \t]+$/u;
// Words a title leaves in lower case ("Into a Daily Standup").
const TITLE_SMALL_WORD = /^(?:a|an|the|of|to|in|on|for|and|or|nor|but|into|onto|with|at|by|from|vs\.?|as|per)$/u;

/** How many of the (up to) four words after a phrase, small words aside, are capitalised. */
function titleWordsAfter(ahead: string): number {
  const words = ahead.replace(/^['’]s\b/u, '').split(/[ \t]+/u).filter((w) => w !== '' && !TITLE_SMALL_WORD.test(w));
  return words.slice(0, 4).filter((w) => /^\p{Lu}/u.test(w)).length;
}
/** How many of the (up to) four words before a phrase, small words aside, are capitalised, up to the first that is not. */
function titleWordsBefore(before: string): number {
  const words = before.split(/[ \t]+/u).filter((w) => w !== '' && !TITLE_SMALL_WORD.test(w)).slice(-4).reverse();
  let n = 0;
  for (const w of words) {
    if (!/^\p{Lu}[\p{L}\p{N}'’-]*$/u.test(w)) break;
    n++;
  }
  return n;
}
// Every word of the phrase capitalised ("Previous Month", "Next Week").
const TITLE_CASE_PHRASE = /^\p{Lu}[\p{L}'’]*(?:[ \t]+\p{Lu}[\p{L}'’]*)+$/u;
// An operand: right after `=`, `<`, `>` that follow another ("date = today"; a `>` opening a
// line is a block quote's), or after a count of days to years counted from it ("= exactly 30 days
// from today", "= 10 years ago today").
const OPERAND_BEFORE = /[\p{L}\p{N}_)\]`'"][ \t]*(?:==?|<=?|>=?|≤|≥)[ \t]*(?:(?:exactly[ \t]+)?\d+[ \t]+(?:days?|weeks?|months?|years?)[ \t]+(?:from|before|after|ago)[ \t]+)?$/iu;
const OPERAND_AFTER = /^[ \t]*(?:[+\-−][ \t]*\d|(?:→|->)[ \t]*\d)/u;
const BOUND_BEFORE = /(?<!\w)(?:(?:more|less|fewer|older|newer|earlier|later)[ \t]+than|at[ \t]+(?:most|least)|up[ \t]+to)[ \t]+$/iu;
const UI_QUALIFIER_BEFORE = /(?<!\w)(?:panel|view|tab|widget|card|chart|graph|column|filter|section|tile|table|report|summary|button|badge|label)s?(?:\*\*|__)?[ \t]*\($/iu;
const TITLE_WORD_BEFORE = /(?:^|[\p{L}\p{N},)][ \t]+)\p{Lu}[\p{L}\p{N}]*[ \t]+$/u;
const SENTENCE_OPENING_WORD = /^[\s]*(?:[-*+>#|]+[ \t]*)*(?:\*\*|__)?\p{Lu}[\p{L}\p{N}]*[ \t]+$/u;
const ORDINAL_MODIFIER = /^(?:last|first|next)[ \t]/iu;
const DATING_PREPOSITION_BEFORE = /(?<!\w)(?:as of|since|until|from)[ \t]+$/iu;
const JOINED_BEFORE = /[\p{L}\p{N}_][-_./@\\]$/u;
const JOINED_AFTER = /^[-_./@\\][\p{L}\p{N}_]/u;
const LETTERS_ONLY = /^[a-z]+$/iu;
const REGEX_ESCAPE = /\\[*?+.()[\]{}|^$]/u;
const CJK = /[\u3400-\u9fff]/u;
// A Chinese or Japanese sentence that tells an event: an aspect or modal marker of one ("了", "已",
// "将", "会", "要", "した"), or a verb of planning, shipping or fixing.
const ZH_EVENT = /了|已|将|將|会|會|要|计划|計劃|预计|預計|截止|到期|上线|上線|发布|發布|修复|修復|完成|部署|合并|合併|开始|開始|结束|結束|した|しました|する予定|予定/u;
const VAGUE_COUNT_ZH = /\b(?:few|several|couple)\b|几/u;
const AROUND_FORM = /^around /u;
const ZH_AROUND_FORM = / 前后$/u;
const TODAY_ALONE = /^today$/iu;
const INDENTED_LINE = /^[ \t]{2,}\S/u;
const ARROW_BEFORE = /(?:→|->)[ \t]*$/u;
const ARROW_AFTER = /^[ \t]*(?:→|->)/u;
const SINCE_LAST_ON_BEFORE = /(?<!\w)(?:since|last|on)[ \t]+$/iu;
const PAST_EVENT_WORD = /(?<!\w)(?:was|were|did|had|broke|shipped|landed|failed|merged|went)\b/iu;
const SINCE_BEFORE = /(?<!\w)since[ \t]+$/iu;
const THE_LEAD = /^the\b/iu;
const OF_BEFORE = /(?<!\w)of[ \t]+$/iu;
const THIS_OR_LAST_WEEK = /^(?:this|last)[ \t]+week$/iu;
const THE_NEXT_OR_COMING = /^the[ \t]+(?:next|coming)\b/iu;
const FORWARD_PHRASE = /^(?:next|coming|this)\b|from[ \t]+(?:now|today)$/u;
const THIS_PART_OF_DAY = /^this\s+(?:morning|afternoon|evening)$/u;
const VAGUE_COUNT = /\b(?:few|several|couple)\b/u;

const ISO_DAY = /\b(\d{4})-(\d{2})-(\d{2})\b/gu;
const DIGIT_FIRST = /^\d/u;
const CLOSING_PAREN_AFTER = /^[ \t]*\)/u;
const MODIFIER_WORD = /(?:next|last|this|coming|past)[ \t]+(\w+)/iu;

export function notADate(line: string, start: number, end: number, memo: LineMemo = lineMemo(), sentence?: Sentence): boolean {
  const written = line.slice(start, end);
  const phrase = written.toLowerCase();
  if (inQuotation(line, start, end, memo) || namesNoDay(line, start, end, (memo.defaults ??= DEFAULT_WORD.test(line)))) return true;
  if (sentence && quotedAcrossLines(sentence)) return true;
  const wd = EN_WEEKDAYS.indexOf(phrase);
  if (wd >= 0 && SCHEDULE_LEAD.test(line.slice(0, start)) && SCHEDULE_SEPARATOR.test(line.slice(end))) return true;
  if (ZH_WEEKDAY_WORD.test(phrase) && ZH_SCHEDULE.test(line)) return true;
  if (HEADING_LINE.test(line) && POSSESSIVE_AFTER.test(line.slice(end))) return true;
  if (DAY_WORD.test(phrase) && (UI_ELEMENT_AFTER.test(line.slice(end)) || CODE_STATE_AFTER.test(line.slice(end)))) return true;
  if ((phrase === '今日' || phrase === '今天') && CJK_DRAWN_AFTER.test(line.slice(end, end + 16))) return true;
  const sent = sentence ?? lineSentence(line, start, end, memo);
  if (DAY_WORD.test(phrase) && CAPITAL.test(line.slice(start, end)) && TITLE_AFTER_POSSESSIVE.test(line.slice(end)) && !AT_SENTENCE_START.test(sent.text.slice(0, sent.at))) return true;
  const facts = sent.facts;
  if ((facts.habitual ??= HABITUAL_HINT.test(sent.text) && HABITUAL.test(sent.text))) return true;
  const ahead = line.slice(end);
  const back = behind(line, start);
  if ((memo.separated ??= LABEL_SEPARATOR.test(line)) && (LABEL_BEFORE.test(back) || LABEL_AFTER.test(ahead))) return true;
  if (titleCaseOptions(line, start, end)) return true;
  // "the today badge", "2 today lines": a day word after an article or a count, before a noun, names a thing.
  if (DAY_WORD.test(phrase) && WORD_AFTER.test(ahead) && !NOT_A_NOUN_AFTER.test(ahead) && NOUN_DETERMINER_BEFORE.test(back)) return true;
  if (NAMED_AFTER.test(ahead) && CAPITAL.test(written)) return true;
  // "OneUp Today", "Price Today": a capitalised "Today" after a capitalised word that does not
  // open the sentence is part of a name or a title.
  if (written === 'Today' && TITLE_WORD_BEFORE.test(back) && !SENTENCE_OPENING_WORD.test(sent.text.slice(0, sent.at))) return true;
  // "Turn Yesterday's Commits Into a Daily Standup": a capitalised phrase inside a run of
  // capitalised words, one before it and most of those after it, is part of a title.
  if (CAPITAL.test(written) && CAPITALISED_WORD_BEFORE.test(back) && titleWordsAfter(ahead) >= 3) return true;
  // "Budget Copy from Previous Month", "Copy Previous Month Budgets": a phrase in Title Case after
  // two capitalised words, or after one and before two, names a feature, a screen or a helper.
  if (TITLE_CASE_PHRASE.test(written)) {
    const before = titleWordsBefore(back);
    if (before >= 2 || (before === 1 && titleWordsAfter(ahead) >= 2)) return true;
  }
  // A run-time value in a formula, a rule or a test input: "min = today - 10 years", "date = 11
  // years ago", "today → 201", "not more than 10 years ago", "Cash Flow panel (this month)".
  if (OPERAND_BEFORE.test(back) || OPERAND_AFTER.test(ahead) || (DIGIT_FIRST.test(phrase) && BOUND_BEFORE.test(back))) return true;
  if (UI_QUALIFIER_BEFORE.test(back) && CLOSING_PAREN_AFTER.test(ahead)) return true;
  if (wd >= 0 && (GENERIC_BEFORE_WEEKDAY.test(back) || OF_PERIOD_AFTER.test(ahead))) return true;
  if (ORDINAL_MODIFIER.test(phrase) && EN_WEEKDAYS.some((w) => phrase.endsWith(w)) && OF_PERIOD_AFTER.test(ahead)) return true;
  if (phrase === 'today') {
    // The clause that holds "today" states how things are, and tells no event: "so today the tile
    // shows both", not "(NL, $39, today)" after "this is the best candidate".
    const marked = eventText(sent);
    const mark = marked.indexOf('\u0000');
    const opening = clauseOf(marked, mark, mark + 1);
    const clause = marked.startsWith(opening) ? openingInLowerCase(opening) : opening;
    if ((hasVerb(PRESENT_VERB, clause) || hasVerb(PRESENT_VERB_MORE, clause)) && !tellsEvent(clause)) return true;
  }
  if (phrase === 'today' && PRESENT_STATE_TODAY.test(behind(line, end)) && !DATING_PREPOSITION_BEFORE.test(back)) return true;
  if (memo.figurative === undefined) memo.figurative = FIGURATIVE_WORD.test(line) ? FIGURATIVE.exec(line) : null;
  const m = memo.figurative;
  if (m && m.index <= start && m.index + m[0].length >= end) return true;
  // A hypothetical ("anything we could build this month") and a standing reason or rule ("**Why:**
  // 6 months from now, you need to know why") name no day, unless the reason tells a past incident.
  const condition = (facts.condition ??= CONDITION_WORD.test(sent.text));
  const hypothetical = condition && (facts.hypothetical ??= HYPOTHETICAL_WORD.test(sent.text));
  const request = (facts.request ??= REQUEST_WORD.test(sent.text));
  if (condition || request) {
    const lead = sent.text.slice(Math.max(0, sent.at - LOOK_BEHIND), sent.at);
    if ((hypothetical && HYPOTHETICAL_BEFORE.test(lead)) || (request && REQUEST_BEFORE.test(lead)) || (condition && CONDITION_BEFORE.test(lead))) return true;
  }
  // "**How to apply:** merge Friday work on Monday" in a feedback memory: guidance for every week.
  // A deictic phrase there ("merge the two caches this week", "by tomorrow") is still one week's plan.
  if (wd >= 0 && sent.standing) return true;
  if (sent.rationale && !PAST_POINTING.test(phrase) && !hasVerb(PAST_TENSE, chunkOf(sent.text, sent.at, sent.end).replace(ADJECTIVE_PARTICIPLE, ' '))) return true;
  const modified = wd >= 0 ? null : MODIFIER_WORD.exec(phrase);
  const weekday = wd >= 0 ? wd + 1 : modified ? EN_WEEKDAYS.indexOf(modified[1]!.toLowerCase()) + 1 : 0;
  if (weekday > 0) {
    if (memo.isoWeekdays === undefined) {
      const days = new Set<number>();
      ISO_DAY.lastIndex = 0;
      for (let m: RegExpExecArray | null; (m = ISO_DAY.exec(line)); ) days.add(((new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12).getDay() + 6) % 7) + 1);
      memo.isoWeekdays = days;
    }
    if (memo.isoWeekdays.has(weekday)) return true;
  }
  return false;
}

const ZH_DIGIT: Record<string, number> = { 零: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const ZH_WEEKDAY: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 日: 7, 天: 7 };

type PatternKind = (typeof EN_PATTERNS)[number]['kind'] | (typeof ZH_PATTERNS)[number]['kind'];

/** A pattern read through the text: its next match, and its matches on the lines being read. */
interface Scan {
  kind: PatternKind;
  re: RegExp;
  next: RegExpExecArray | null;
  held: RegExpExecArray[];
}

/**
 * Every relative date in `text`, in order, with its absolute replacement. `anchor` is the day the
 * text was written, or a function giving it for an offset (e.g. the commit date of that line).
 * `skip`: the ranges that are not prose (frontmatter and code, from the block model: `spansOf`).
 */
export function findRelativeDates(text: string, anchor: DateAnchor, skip: ReadonlyArray<readonly [number, number]> = []): RelativeDate[] {
  // A template's dates are examples, counted from no day (its example sections are dated too).
  if (!mayHoldRelativeDate(text) || isDateTemplate(text)) return [];
  return new Finder(text, maskSkipped(text, skip), typeof anchor === 'function' ? anchor : () => anchor).find();
}

/**
 * One text's search: the text, its masked copy and what the checks work out once, with the checks
 * as methods. Methods, not closures made per call: the optimised code of a closure is bound to the
 * closure it met, and a new text (--fix reads the fixed text again) made V8 throw the finder's
 * code away and compile it again, a large share of a run's CPU. Every field is set in the
 * constructor, in one order: one shape.
 */
class Finder {
  readonly text: string;
  readonly masked: string;
  readonly anchorAt: (offset: number) => Date;
  // The day of each Date the anchor hands back (one per day, as a rule's anchor gives them), worked
  // out once, with the readings counted from it: a phrase reads the same way each time from the
  // same day, so each written form is read once per day (thousands of phrases, a few forms).
  readonly days = new Map<Date, Day>();
  readonly taken: Spans;
  // Where each line starts: a phrase finds its line by a binary search, not by scanning back.
  readonly lineStarts: number[];
  // Where sentences may end (sentenceEnds), found at the first phrase's sentence.
  ends: Int32Array | undefined;
  readonly lines: number;
  // What the checks work out once per line: the memo of the line read last (a batch of lines is
  // mostly one line); a phrase written across a line break reads both lines, and has its own memo
  // (by the first line's start and the last line's end), kept for the lines find() is reading. A
  // memo kept for every line of a large text was copied by each young-generation collection until
  // promoted; one made again gives the same answers.
  lineMemoAt = -1;
  currentMemo: LineMemo = lineMemo();
  readonly spanMemos = new Map<number, Map<number, LineMemo>>();
  readonly out: RelativeDate[] = [];
  readonly replacements = new Map<string, Map<string, string>>();
  readonly phrases = new Map<string, string>();
  // Per line, 0 until worked out, then 1 (no) or 2 (yes): whether a list led by a recurrence holds
  // it; whether it continues a list upward (a list item or an indented line, not a break). Each
  // line's answer is read by every phrase on it and by the 30 lines below it.
  readonly ledByRecurrence: Uint8Array;
  readonly continues: Uint8Array;
  // The paragraph (or list item) around a line: its soft-wrapped lines, at most PARAGRAPH_LINES
  // each way, as its first and last line (-1: not worked out yet).
  readonly paragraphFirst: Int32Array;
  readonly paragraphLast: Int32Array;
  // What a sentence says, by where it starts (then where it ends): worked out for its first
  // phrase, shared by the others; a sentence that ends before the lines being read is dropped.
  sentences = new Map<number, SentenceSaid>();
  // Per line, 0 until worked out: whether the nearest label above it in its paragraph is a reason
  // ("**Why:** …"), 2, a feedback memory's How to apply, 3, or neither, 1.
  readonly rationales: Uint8Array;
  // A week the text defines by its days ("this week = 06-19→06-25", "last week 06-12→06-18") is
  // that text's own window in its section: a report's Friday-to-Thursday week is not the calendar
  // week a count from the anchor gives. Sections run from heading to heading.
  readonly definedWeeks: Array<{ word: string; from: number; to: number }>;
  // A feedback memory is standing guidance (Claude Code's format: the rule, **Why:**, **How to
  // apply:** "when/where this guidance kicks in"): a bare weekday in its How to apply is any week's.
  readonly feedback: boolean;

  constructor(text: string, masked: string, anchorAt: (offset: number) => Date) {
    this.text = text;
    this.masked = masked;
    this.anchorAt = anchorAt;
    this.feedback = isFeedbackMemory(text);
    this.taken = new Spans(masked.length);
    const starts = [0];
    for (let i = masked.indexOf('\n'); i >= 0; i = masked.indexOf('\n', i + 1)) starts.push(i + 1);
    this.lineStarts = starts;
    this.lines = starts.length;
    this.ledByRecurrence = new Uint8Array(this.lines);
    this.continues = new Uint8Array(this.lines);
    this.paragraphFirst = new Int32Array(this.lines).fill(-1);
    this.paragraphLast = new Int32Array(this.lines);
    this.rationales = new Uint8Array(this.lines);
    this.definedWeeks = weekDefinitions(masked);
  }

  find(): RelativeDate[] {
    const masked = this.masked;
    const all: Scan[] = [];
    for (const { kind, re, need } of EN_PATTERNS) if (!need || need.test(masked)) all.push({ kind, re, next: null, held: [] });
    for (const { kind, re } of ZH_PATTERNS) all.push({ kind, re, next: null, held: [] });
    for (const scan of all) {
      scan.re.lastIndex = 0;
      scan.next = scan.re.exec(masked);
    }
    // A pattern that finds nothing in the text is not asked again at each batch of lines.
    const scans = all.filter((scan) => scan.next !== null);
    // The patterns are read together, a few lines at a time, each in its order of priority there:
    // an earlier pattern's phrase hides a later one's only where they overlap, and no match runs
    // past the lines read. Every kind of phrase is then met in the text's first lines, before V8
    // optimises the checks (read pattern after pattern, each new kind threw that code away).
    for (;;) {
      let from = masked.length;
      for (const scan of scans) if (scan.next && scan.next.index < from) from = scan.next.index;
      if (from === masked.length) break;
      let to = this.lineEnd(this.lineIndex(from)) + 1;
      for (let grown = true; grown; ) {
        grown = false;
        for (const scan of scans) {
          for (let m = scan.next; m && m.index < to; m = scan.next) {
            scan.held.push(m);
            const end = m.index + m[0].length;
            if (end > to) {
              to = this.lineEnd(this.lineIndex(end - 1)) + 1;
              grown = true;
            }
            scan.next = scan.re.exec(masked);
          }
        }
      }
      for (const scan of scans) {
        // Most patterns hold nothing here: setting an array's length is a call into the runtime.
        if (scan.held.length === 0) continue;
        for (const m of scan.held) this.read(scan.kind, m);
        scan.held.length = 0;
      }
      this.forgetBefore(to);
    }
    return this.out.sort((a, b) => a.start - b.start);
  }

  /** One match of a pattern, unless an earlier pattern's phrase took its place. */
  read(kind: PatternKind, m: RegExpExecArray) {
    const start = m.index;
    const end = start + m[0].length;
    if (this.overlaps(start, end)) return;
    // Each kind of English phrase is read by its own method: one body for all of them left V8's
    // optimised code without the feedback of the kinds it had not met yet.
    if (kind === 'weekday') this.weekday(m, start, end);
    else if (kind === 'period') this.period(m, start, end);
    else if (kind === 'chrono') this.dayPhrase(m, start, end);
    else if (kind === 'zhYear' && m[0] === '前年' && this.previousYearOfContext(start, end)) return;
    else if (kind === 'zhCount' && m[3] === '年') {
      const res = zhResult(kind, m, this.dayAt(start).ymd);
      // 約 20 年前 ("about 20 years ago"): the year is as rough as the count, said with the text's own word.
      const about = ZH_ABOUT_BEFORE.exec(this.masked.slice(Math.max(0, start - 4), start))?.[1];
      this.push(start, end, res && { absolute: yearOf(res).absolute, replacement: `${about ? (about.includes('約') ? '約' : '约') : ''}${yearOf(res).replacement}年` }, false);
    } else this.push(start, end, zhResult(kind, m, this.dayAt(start).ymd), kind !== 'zhWeekday');
  }

  /**
   * 前年 as the year before another the text names, not the year before last: in Japanese it is
   * "the previous year" (a line holding kana), and 前年比 / 前年度 (year on year, the previous fiscal
   * year) count from the year the text speaks of in either language.
   */
  previousYearOfContext(start: number, end: number): boolean {
    const after = this.masked[end];
    if (after === '比' || after === '度' || after === '同') return true;
    const line = this.lineIndex(start);
    return KANA.test(this.masked.slice(this.lineStarts[line]!, this.lineEnd(line)));
  }

  dayAt(offset: number): Day {
    const date = this.anchorAt(offset);
    let day = this.days.get(date);
    if (!day) this.days.set(date, (day = { ymd: toYmd(date), forward: new Map(), backward: new Map(), periods: new Map(), weekdays: [] }));
    return day;
  }

  lineIndex(at: number) {
    return countBelow(this.lineStarts, at + 1) - 1;
  }

  // A line ends before its `\n`, and before the `\r` of a `\r\n`: a blank line of a CRLF file is
  // blank (it ends a paragraph) and no line's text ends in a CR.
  lineEnd(i: number) {
    if (i + 1 >= this.lines) return this.masked.length;
    const nl = this.lineStarts[i + 1]! - 1;
    return nl > this.lineStarts[i]! && this.masked.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
  }

  lineText(i: number) {
    return this.masked.slice(this.lineStarts[i]!, this.lineEnd(i));
  }

  /** The text before `at` on line `i`, as far back as the checks look: behind() of the line, without cutting the line. */
  lineBehind(i: number, at: number) {
    return this.masked.slice(Math.max(this.lineStarts[i]!, at - LOOK_BEHIND - 1), at);
  }

  /**
   * The phrase with its date beside it, one string for each phrase and date written alike: a text
   * holds thousands of phrases and few such pairs, and every finding is kept to the end of a run.
   */
  /** One string for each phrase as written (a short one is a copy of its characters each time it is cut from the text). */
  phraseAs(phrase: string): string {
    let out = this.phrases.get(phrase);
    if (out === undefined) this.phrases.set(phrase, (out = phrase));
    return out;
  }

  replacementOf(phrase: string, form: string, zh: boolean): string {
    let byPhrase = this.replacements.get(form);
    if (!byPhrase) this.replacements.set(form, (byPhrase = new Map()));
    let out = byPhrase.get(phrase);
    if (out === undefined) byPhrase.set(phrase, (out = zh ? `${phrase}（${form}）` : `${phrase} (${form})`));
    return out;
  }

  /** Drop what was worked out for lines and sentences that end at or before `at`: no match read from there on reads them. */
  forgetBefore(at: number) {
    if (this.spanMemos.size > 0) this.spanMemos.clear();
    if (this.sentences.size < 64) return;
    const kept = new Map<number, SentenceSaid>();
    for (const [from, said] of this.sentences) {
      for (let s: SentenceSaid | undefined = said; s; s = s.next) {
        if (s.to > at) {
          kept.set(from, said);
          break;
        }
      }
    }
    this.sentences = kept;
  }

  memoOf(first: number, last: number): LineMemo {
    if (first === last) {
      if (this.lineMemoAt !== first) {
        this.lineMemoAt = first;
        this.currentMemo = lineMemo();
      }
      return this.currentMemo;
    }
    const ls = this.lineStarts[first]!;
    const le = this.lineEnd(last);
    let byEnd = this.spanMemos.get(ls);
    if (!byEnd) this.spanMemos.set(ls, (byEnd = new Map()));
    let memo = byEnd.get(le);
    if (!memo) byEnd.set(le, (memo = lineMemo()));
    return memo;
  }

  overlaps(s: number, e: number) {
    return this.taken.overlaps(s, e);
  }

  /** What is glued to a phrase with no space between, up to 24 characters each side. */
  gluedAround(start: number, end: number): string {
    let from = start;
    while (from > 0 && start - from < 24 && this.masked.charCodeAt(from - 1) > 32) from--;
    let to = end;
    while (to < this.masked.length && to - end < 24 && this.masked.charCodeAt(to) > 32) to++;
    return this.masked.slice(from, start) + this.masked.slice(end, to);
  }

  push(start: number, end: number, res: Reading | null, exact = true, other?: string) {
    if (!res || this.overlaps(start, end)) return;
    const before = this.masked.slice(Math.max(0, start - 16), start);
    const after = this.masked.slice(end, end + 40);
    this.taken.add(start, end);
    // A phrase already paired with a date is absolute (asked first: the text --fix wrote holds a
    // date beside every phrase it fixed).
    if (ABSOLUTE_AFTER.test(after) || PAIRED_AFTER.test(after) || ABSOLUTE_BEFORE.test(before)) return;
    // Part of a name made of joined parts: a file name `monday-api.md`, a product `Monday.com`, a
    // path or an address (not a sentence's full stop: what follows the dot is a letter or digit).
    if (JOINED_BEFORE.test(this.masked.slice(Math.max(0, start - 2), start)) || JOINED_AFTER.test(this.masked.slice(end, end + 2))) return;
    // Part of a pattern written out in prose: a regular expression escapes its metacharacters next
    // to the words (`\*?Released today\*?`), matching whatever day it is read on.
    if (REGEX_ESCAPE.test(this.gluedAround(start, end))) return;
    const phrase = this.text.slice(start, end);
    // A name called or declared: "today(actual day) and reference_date(…) kept apart" names a parameter.
    if (this.masked[end] === '(' && LETTERS_ONLY.test(phrase)) return;
    // A phrase quoted on its own ("tomorrow", “明天”) is named, not used.
    if (isQuotedAlone(this.masked, start, end)) return;
    const first = this.lineIndex(start);
    const last = end <= this.lineEnd(first) ? first : this.lineIndex(end);
    const ls = this.lineStarts[first]!;
    const le = this.lineEnd(last);
    const memo = this.memoOf(first, last);
    const sent = this.sentenceAt(start, end, first);
    const line = this.masked.slice(ls, le);
    if (notADate(line, start - ls, end - ls, memo, sent)) return;
    const form = res.replacement;
    // The sentence already gives the date the phrase means ("today's date when this was built,
    // 2026-07-11"): nothing to write.
    if (DATED_FORM.test(form) && sent.text.slice(Math.max(0, sent.at - LOOK_BEHIND), sent.end + LOOK_BEHIND).includes(form)) return;
    if (CODE_COMPUTES_BEFORE.test(this.text.slice(Math.max(ls, start - LOOK_BEHIND), start))) return;
    const zh = CJK.test(phrase);
    const vague = VAGUE_COUNT_ZH.test(phrase) || AROUND_FORM.test(form) || ZH_AROUND_FORM.test(form);
    const inLink = inLinkText(line, start - ls, end - ls, memo);
    // A bare weekday in a link's text is part of a title ("[Friday notes](…)").
    if (inLink && !exact) return;
    // "today's build": a date written after "today" would split the possessive; a person places it.
    // 昨日文件 ("yesterday's file"): a Chinese day word straight before a document or data noun names
    // that day's item in a step any day repeats as often as a one-off day: a person places the date.
    const fixable = !inLink && !POSSESSIVE_AFTER.test(after) && !(zh && ZH_DAY_ITEM_AFTER.test(after));
    const today = TODAY_ALONE.test(phrase);
    // The clause around the phrase is worked out only when a check reads it: most phrases point
    // ahead or back by themselves, and are told without it.
    let clause: string | null = null;
    // Chinese phrases are not read for tense here (the verbs looked for are English): counted as told.
    // "a streak ending today or yesterday": a window of days a rule or a piece of code accepts on
    // any day, unless the clause tells what happened ("it broke yesterday or today").
    if (TODAY_OR_YESTERDAY.test(this.masked.slice(Math.max(0, start - 20), end + 20)) && !hasVerb(TOLD, (clause = phraseClause(sent)))) return;
    // A list led by a recurrence ("Every Monday:" / "1. what moved last week?") is a ritual's steps.
    if (this.listLedByRecurrence(first)) return;
    // A table row that documents a command ("| run today's batch | `/batch` |") describes any day's run.
    if (COMMAND_ROW.test(this.text.slice(ls, le))) return;
    // "keeps serving yesterday's values": data named by its day, in a sentence that says how a
    // system behaves, is stale data of any day, not the day before the text was written.
    const staleData = phrase.toLowerCase() === 'yesterday' && POSSESSIVE_AFTER.test(after) && describesBehaviour((clause ??= phraseClause(sent)));
    const told = !staleData && (zh || sent.instruction === true || PAST_POINTING.test(phrase) || FUTURE_POINTING.test(phrase) || EN_WEEKDAYS.includes(phrase.toLowerCase()) || hasVerb(TOLD, (clause ??= phraseClause(sent))) || (!today && tellsEventBeyondTold(clause)));
    const narrated = !staleData && (zh ? ZH_EVENT.test(eventText(sent)) : sent.instruction === true || narratesEvent(phrase, (clause ??= phraseClause(sent))));
    // Built, then given its other reading: a spread into the literal made each a slow copy.
    const found: RelativeDate = { start, end, text: this.phraseAs(phrase), absolute: res.absolute, absoluteForm: form, replacement: this.replacementOf(phrase, form, zh), exact: exact && !vague, fixable, present: today && !told, told, narrated };
    if (other) found.otherReplacement = `${phrase} (${other})`;
    this.out.push(found);
  }

  continuesList(k: number): boolean {
    let c = this.continues[k]!;
    if (c === 0) {
      const t = this.lineText(k);
      c = this.continues[k] = (LIST_ITEM.test(t) || INDENTED_LINE.test(t)) && !BREAK_LINE.test(t) ? 2 : 1;
    }
    return c === 2;
  }

  listLedByRecurrence(i: number): boolean {
    let r = this.ledByRecurrence[i]!;
    if (r === 0) {
      r = 1;
      if (LIST_ITEM.test(this.lineText(i))) {
        let k = i;
        while (k > 0 && i - k < PARAGRAPH_LINES && this.continuesList(k)) k--;
        if (k < i && (RECURRENCE_LEAD.test(this.lineText(k)) || RITUAL_HEADING.test(this.lineText(k)))) r = 2;
      }
      this.ledByRecurrence[i] = r;
    }
    return r === 2;
  }

  paragraphOf(i: number): void {
    let k = i;
    let j = i;
    if (!BREAK_LINE.test(this.lineText(i))) {
      while (k > 0 && i - k < PARAGRAPH_LINES && !BLOCK_START.test(this.lineText(k)) && !BREAK_LINE.test(this.lineText(k - 1))) k--;
      while (j + 1 < this.lines && j - i < PARAGRAPH_LINES && !BREAK_LINE.test(this.lineText(j + 1)) && !BLOCK_START.test(this.lineText(j + 1))) j++;
    }
    this.paragraphFirst[i] = k;
    this.paragraphLast[i] = j;
  }

  // The sentence around [start, end) in its paragraph, within LOOK_BEHIND characters each way. `line`: the line `start` is on.
  sentenceAt(start: number, end: number, line: number): Sentence {
    if (this.paragraphFirst[line]! < 0) this.paragraphOf(line);
    const k = this.paragraphFirst[line]!;
    const pStart = this.lineStarts[k]!;
    const pEnd = this.lineEnd(this.paragraphLast[line]!);
    const lo = Math.max(pStart, start - LOOK_BEHIND);
    const hi = Math.min(pEnd, end + LOOK_BEHIND);
    // SENTENCE_END's last match in [lo, start) and its first in [end, hi), each stretch read as a
    // text of its own (its end is the pattern's `$`), found without cutting them out: by binary
    // search in the text's possible ends, found once (a line of thousands of phrases and no stop
    // was read 800 characters a phrase).
    const { from, to } = stopBounds(this.masked, (this.ends ??= sentenceEnds(this.masked)), lo, start, end, hi);
    let said = this.sentences.get(from);
    while (said && said.to !== to) said = said.next;
    if (!said) {
      // An instruction the label opens in the same sentence ("**How to apply:** prioritise X this week"),
      // not a rule further on in a list of them.
      const opening = this.masked.slice(from, to).replace(LEADING_SPACE, '');
      const label = INSTRUCTION_LABEL.exec(opening);
      said = { to, instruction: label !== null && IMPERATIVE_START.test(opening.slice(label[0].length)), facts: sentenceFacts(), next: this.sentences.get(from) };
      this.sentences.set(from, said);
    }
    // The nearest label opening a line of the paragraph, up to the phrase's line: "**Why:** …".
    let rationale = this.rationales[line]!;
    if (rationale === 0) {
      rationale = 1;
      for (let t = line; t >= k; t--) {
        const l = this.lineText(t);
        if (RATIONALE_LABEL.test(l) || BOLD_LABEL.test(l) || INSTRUCTION_LABEL.test(l)) {
          rationale = RATIONALE_LABEL.test(l) ? 2 : this.feedback && HOW_TO_APPLY_LABEL.test(l) ? 3 : 1;
          break;
        }
      }
      this.rationales[line] = rationale;
    }
    return { text: this.masked.slice(from, to), at: start - from, end: end - from, rationale: rationale === 2, standing: rationale === 3, instruction: said.instruction, facts: said.facts };
  }

  weekday(m: RegExpExecArray, start: number, end: number) {
    const i = this.lineIndex(start);
    const before = this.lineBehind(i, start);
    const after = this.masked.slice(end, end + 40);
    // "Coming-Soon→Friday→Tuesday mailer": a step of a cycle written as a chain of arrows, not a day.
    if ((ARROW_BEFORE.test(before) || ARROW_AFTER.test(after)) && (this.lineText(i).match(/→|->/gu)?.length ?? 0) >= 2) return;
    // A bare weekday names one day only as a deadline or the day of an event ("by Friday", "on
    // Tuesday", "since Monday"), as a bare 周四 does before 前 or 上线. Alone it is a name, a
    // recurrence or a list of days ("the Sunday recap", "off-season Sunday digest", "0=Sunday,
    // 1=Monday"): on real memory none of them was a one-off date.
    if (!WEEKDAY_CUE_BEFORE.test(before) || (CUTOFF_BEFORE_WEEKDAY.test(before) && HOUR_AFTER_WEEKDAY.test(after))) return;
    const memo = this.memoOf(i, i);
    if ((memo.recurring ??= RECURRING_LINE.test(this.lineText(i))) || NOT_BEFORE_WEEKDAY.test(before) || RANGE_AFTER_WEEKDAY.test(after) || RANGE_BEFORE_WEEKDAY.test(before) || MEETING_AFTER_WEEKDAY.test(after)) return;
    const past = SINCE_LAST_ON_BEFORE.test(before) && (memo.pastEvent ??= PAST_EVENT_WORD.test(this.lineText(i)));
    const wd = weekdayNumber(m[0].toLowerCase())!;
    const since = past || SINCE_BEFORE.test(before);
    // The day is read only for a phrase the checks above keep: it may come from git.
    const day = this.dayAt(start);
    const slot = wd * 2 + (since ? 1 : 0);
    this.push(start, end, (day.weekdays[slot] ??= dayResult(since ? weekdayBefore(day.ymd, wd) : weekdayFrom(day.ymd, wd))), false);
  }

  period(m: RegExpExecArray, start: number, end: number) {
    const before = this.lineBehind(this.lineIndex(start), start);
    const after = this.masked.slice(end, end + 40);
    // "the first days of the next quarter" counts from another period, not from today.
    if (THE_LEAD.test(m[0]) && OF_BEFORE.test(before)) return;
    if (this.definedWeeks.length > 0 && THIS_OR_LAST_WEEK.test(m[0]) && this.definedWeeks.some((w) => w.word === m[0].split(/[ \t]+/u)[0]!.toLowerCase() && w.from <= start && start < w.to)) return;
    // "the next week" counts from the story's own moment ("the next week we rewrote it"), and
    // "the next month contract" names a kind of thing: neither is counted from the writing.
    if (THE_NEXT_OR_COMING.test(m[0]) || PERIOD_AS_NAME.test(after)) return;
    // The captures, and so the reading, follow from the words matched.
    const day = this.dayAt(start);
    let res = day.periods.get(m[0]);
    if (!res) day.periods.set(m[0], (res = periodResult(m[1]!.toLowerCase(), m[2]!.toLowerCase(), day.ymd)));
    this.push(start, end, res, !THE_LEAD.test(m[0]));
  }

  dayPhrase(m: RegExpExecArray, start: number, end: number) {
    const written = m[0];
    const phrase = written.toLowerCase();
    if (phrase.startsWith('in') && !EVENT_BEFORE_IN.test(this.lineBehind(this.lineIndex(start), start))) return;
    // "this morning" is the morning of the day it is counted from, not the next one, which chrono
    // reads forward from that day's noon.
    const forward = FORWARD_PHRASE.test(phrase) && !THIS_PART_OF_DAY.test(phrase);
    const day = this.dayAt(start);
    const readings = forward ? day.forward : day.backward;
    let res = readings.get(written);
    const years = YEARS_COUNT.test(phrase);
    if (res === undefined) {
      const own = englishReading(written, day.ymd);
      res = dayResult(own === undefined ? viaChrono(written, day.ymd, forward) : own);
      if (res && years) res = yearOf(res);
      if (res && VAGUE_COUNT.test(phrase)) res.replacement = `around ${res.replacement}`;
      readings.set(written, res);
    }
    // "about 20 years ago": the year is as rough as the count.
    if (res && years && EN_ABOUT_BEFORE.test(this.lineBehind(this.lineIndex(start), start))) res = { ...res, replacement: `around ${res.replacement}` };
    const either = WEEKDAY_IN.test(phrase) && twoWeeksMeant(phrase, day.ymd);
    let other: string | undefined;
    if (either && res && phrase.startsWith('next')) {
      const [y, mo, d] = res.absolute.split('-').map(Number);
      other = iso(shift({ y: y!, m: mo!, d: d! }, 7));
    }
    this.push(start, end, res, !either && !years, other);
  }
}

/**
 * Whether a weekday phrase may mean either of two days, so that its date is a suggestion and never
 * written by itself: "next Thursday" said on a Wednesday is tomorrow to some and Thursday of next
 * week to others (and chrono reads the latter). Said when that weekday still comes this week, in
 * weeks from Monday or from Sunday, it may mean either. A Sunday of this, next or last week
 * depends on which day the week starts.
 */
export function twoWeeksMeant(phrase: string, at: Ymd): boolean {
  const words = phrase.toLowerCase().split(/\s+/u);
  const wd = EN_WEEKDAYS.indexOf(words.find((w) => EN_WEEKDAYS.includes(w)) ?? '') + 1;
  if (wd === 0) return false;
  if (words[words.length - 1] === 'week') return wd === 7;
  if (words[0] !== 'next') return false;
  const ahead = (wd - isoWeekday(at) + 7) % 7 || 7;
  const mondayWeek = isoWeekday(at) + ahead <= 7;
  const sundayWeek = (isoWeekday(at) % 7) + ahead <= 6;
  return mondayWeek || sundayWeek;
}


const QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’', '「': '」', '『': '』' };

function isQuotedAlone(text: string, start: number, end: number): boolean {
  const open = text[start - 1];
  return open !== undefined && open in QUOTES && text[end] === QUOTES[open];
}

/** Apply the replacements of `findRelativeDates` to the text. */
export function makeDatesAbsolute(text: string, anchor: DateAnchor, skip: ReadonlyArray<readonly [number, number]> = []): string {
  let out = '';
  let pos = 0;
  for (const r of findRelativeDates(text, anchor, skip)) {
    out += text.slice(pos, r.start) + r.replacement;
    pos = r.end;
  }
  return out + text.slice(pos);
}

/**
 * Blank out (same length in UTF-16 code units, newlines kept) what is not prose: the ranges the
 * block model gives (frontmatter and code, fenced or indented), then inline code, URLs, link
 * destinations and wiki links.
 */
/**
 * `s` with every UTF-16 unit but \r and \n as a space (what `s.replace(/[^\r\n]/g, ' ')` gives),
 * built from runs of spaces: the frontmatter and code of a topic are thousands of such stretches.
 */
function blankOut(s: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) {
      out += spaces(i - from) + s[i];
      from = i + 1;
    }
  }
  return out + spaces(s.length - from);
}

const SPACES = ' '.repeat(256);

function spaces(n: number): string {
  return n <= SPACES.length ? SPACES.slice(0, n) : ' '.repeat(n);
}

function maskSkipped(text: string, skip: ReadonlyArray<readonly [number, number]>): string {
  // Without the u flag: one space per UTF-16 code unit, so an emoji keeps its two (offsets into
  // the masked text are offsets into the text).
  const blank = blankOut;
  let out = text;
  if (skip.length > 0) {
    const parts: string[] = [];
    let pos = 0;
    for (const [a, b] of skip) {
      parts.push(text.slice(pos, a), blank(text.slice(a, b)));
      pos = b;
    }
    parts.push(text.slice(pos));
    out = parts.join('');
  }
  // Inline code, also across a line break inside a paragraph (`--today --group-by` wrapped onto
  // the next line), not into a blank line or the next list item, heading, quote or table row.
  if (out.includes('`')) out = out.replace(/(`+)(?:[^`\n]|\n(?![ \t]*(?:\n|[-*+][ \t]|\d+[.)][ \t]|#|>|\|)))+?\1/g, (s) => blank(s));
  if (out.includes('://')) out = out.replace(/\bhttps?:\/\/[^\s)>\]]+/g, (s) => blank(s));
  // Link destinations and autolinks: `](target "title")`, `<file.md>`, `[ref]: target`.
  if (out.includes('](')) out = out.replace(/\]\((?:<[^>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'))?\)/g, (s) => `](${blank(s.slice(2, -1))})`);
  out = out.replace(/^([ \t]{0,3}\[[^\]\n]+\]:[ \t]*)(\S+)/gm, (_s, a: string, b: string) => a + blank(b));
  // Wiki links name a memory: `[[next-week-plan]]`.
  if (out.includes('[[')) out = out.replace(/\[\[[^\]\n]*\]\]/g, (s) => blank(s));
  return out;
}

/** The weeks a text defines by their days, each with the section (heading to heading) it holds for. */
function weekDefinitions(masked: string): Array<{ word: string; from: number; to: number }> {
  if (!/(?:week|sprint)[^\n]{0,40}?\d{2}-\d{2}/iu.test(masked)) return [];
  const headings = [...masked.matchAll(/^[ \t]{0,3}#{1,6}[ \t]/gmu)].map((h) => h.index!);
  const out: Array<{ word: string; from: number; to: number }> = [];
  const day = '(?:\\d{4}-)?(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])';
  const re = new RegExp(`(?<!\\w)(this|last|prev(?:ious)?)[ \\t]+week\\b[ \\t*_]*[=:]?[ \\t*_]*${day}[ \\t]*(?:→|->|–|—|-|to)[ \\t]*${day}`, 'giu');
  for (const m of masked.matchAll(re)) {
    const i = countBelow(headings, m.index! + 1);
    const word = m[1]!.toLowerCase() === 'this' ? 'this' : 'last';
    out.push({ word, from: i > 0 ? headings[i - 1]! : 0, to: i < headings.length ? headings[i]! : masked.length });
  }
  // A heading that names a week by its days ("## Week of 2026-03-25 to 2026-03-31", "## Sprint 12
  // (03-25 → 03-31)") defines "this week" for its section, subsections included.
  const span = new RegExp(`^([ \\t]{0,3}(#{1,6})[ \\t][^\\n]*?\\b(?:week|sprint)\\b[^\\n]*?${day}[ \\t]*(?:→|->|–|—|-|to)[ \\t]*${day})`, 'gimu');
  for (const m of masked.matchAll(span)) {
    const level = m[2]!.length;
    const next = new RegExp(`^[ \\t]{0,3}#{1,${level}}[ \\t]`, 'gmu');
    next.lastIndex = m.index! + m[0].length;
    const end = next.exec(masked);
    out.push({ word: 'this', from: m.index!, to: end ? end.index : masked.length });
  }
  return out;
}

/** Whether [start, end) of a line stands in the text of a link (`[the plan for tomorrow](plan.md)`). */
function inLinkText(line: string, start: number, end: number, memo: LineMemo): boolean {
  const opens = (memo.opens ??= places(line, '['));
  const closes = (memo.closes ??= places(line, ']'));
  // The last '[' at or before start, with no ']' between it and start.
  const n = countBelow(opens, start + 1);
  if (n === 0) return false;
  const open = opens[n - 1]!;
  if (countBelow(closes, start) > countBelow(closes, open)) return false;
  // The first ']' from end on, with no '[' between end and it.
  const k = countBelow(closes, end);
  if (k === closes.length) return false;
  const close = closes[k]!;
  return countBelow(opens, close) === countBelow(opens, end) && /^\](?:\(|\[)/u.test(line.slice(close));
}

function toYmd(d: Date): Ymd {
  return { y: d.getFullYear(), m: d.getMonth() + 1, d: d.getDate() };
}

function localNoon(x: Ymd, addDays = 0): Date {
  return new Date(x.y, x.m - 1, x.d + addDays, 12);
}

function iso(x: Ymd): string {
  return `${x.y}-${String(x.m).padStart(2, '0')}-${String(x.d).padStart(2, '0')}`;
}

function shift(x: Ymd, days: number): Ymd {
  return toYmd(localNoon(x, days));
}

/** ISO weekday, Monday = 1 ... Sunday = 7. */
function isoWeekday(x: Ymd): number {
  return ((localNoon(x).getDay() + 6) % 7) + 1;
}

function mondayOf(x: Ymd): Ymd {
  return shift(x, 1 - isoWeekday(x));
}

/**
 * chrono's casual English configuration, cut down to the parsers that read "this morning",
 * "this afternoon", "this evening" and "last night" (the phrases englishReading leaves to it).
 * The full configuration runs all 18 of its patterns on every phrase, and V8 compiles a pattern
 * to machine code on its second use. test/content/dates-chrono.test.ts holds the reader to the
 * full configuration over every phrase the patterns allow.
 */
export const CHRONO_READERS: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/^(?:this\s+(?:morning|afternoon|evening)|last\s+night)$/iu, ['ENCasualTimeParser', 'ENCasualDateParser']],
];

const readers = new Map<readonly string[], chrono.Chrono>();

/** chrono, cut down to the parsers for this phrase; the full casual configuration for any other phrase, or when a parser is not found by name. */
export function chronoFor(phrase: string): chrono.Chrono {
  const names = CHRONO_READERS.find(([re]) => re.test(phrase))?.[1];
  if (!names) return chrono.en.casual;
  let reader = readers.get(names);
  if (!reader) {
    const parsers = chrono.en.casual.parsers.filter((p) => names.includes(p.constructor.name));
    reader = parsers.length === names.length ? new chrono.Chrono({ parsers, refiners: chrono.en.casual.refiners }) : chrono.en.casual;
    readers.set(names, reader);
  }
  return reader;
}

function viaChrono(phrase: string, at: Ymd, forwardDate: boolean): Ymd | null {
  const results = chronoFor(phrase).parse(phrase, { instant: localNoon(at) }, { forwardDate });
  const r = results[0];
  return r && r.index === 0 ? toYmd(r.start.date()) : null;
}

const DAY_WORDS = new Map([['today', 0], ['tonight', 0], ['tomorrow', 1], ['yesterday', -1], ['the day after tomorrow', 2], ['the day before yesterday', -2]]);
const MODIFIED_WEEKDAY = new RegExp(`^(this|next|last|coming|past) ${WEEKDAY}$`, 'u');
const WEEKDAY_OF_WEEK = new RegExp(`^${WEEKDAY} (?:of )?(this|next|last) week$`, 'u');
// A count of days, weeks, months or years, back ("two days ago") or ahead ("in three weeks", "a
// few days from now"): the phrases the 'chrono' patterns find with a number (NUM_WORD).
const COUNT = /^(?:in )?(\d{1,3}|[a-z]+(?: couple of| few)?) (day|week|month|year)s?(?: (ago|from now|from today))?$/u;
const COUNT_WORDS = new Map([['a', 1], ['an', 1], ['one', 1], ['two', 2], ['three', 3], ['four', 4], ['five', 5], ['six', 6], ['seven', 7], ['eight', 8], ['nine', 9], ['ten', 10], ['eleven', 11], ['twelve', 12], ['a couple of', 2], ['a few', 3], ['several', 7]]);

/**
 * The day an English phrase of the 'chrono' patterns stands for, as chrono-node's casual
 * configuration reads it in the direction the finder gives (forward for this, next, coming and
 * "from now"): a day word; a weekday after this (the first on or after the day), last or past
 * (the latest before it: the finder's reading, not chrono's) or next (the first after it, also
 * the finder's); a count, with chrono's numbers ("a couple of" 2, "a few" 3, "several" 7) and the
 * Date's own month arithmetic (a month from 31 January runs into March). null where chrono reads
 * no date at the phrase's start ("coming Friday": chrono knows no "coming"; the bare "Friday" is
 * then found as a weekday). undefined for the phrases left to chrono ("this morning", "last
 * night"). Worked out here, not by chrono: V8 compiles its patterns for counts on the first
 * such phrase of every run (0.8 G instructions, a fifth of a 256 KB lint).
 * test/content/dates-chrono.test.ts holds every phrase shape, on days of every weekday and
 * across month and year ends, to chrono.
 */
export function englishReading(written: string, at: Ymd): Ymd | null | undefined {
  const phrase = written.toLowerCase().replace(/\s+/gu, ' ');
  const day = DAY_WORDS.get(phrase);
  if (day !== undefined) return shift(at, day);
  const w = MODIFIED_WEEKDAY.exec(phrase);
  if (w) {
    const wd = EN_WEEKDAYS.indexOf(w[2]!) + 1;
    if (w[1] === 'last' || w[1] === 'past') return weekdayBefore(at, wd);
    if (w[1] === 'next') return weekdayFrom(shift(at, 1), wd);
    if (w[1] === 'this') return weekdayFrom(at, wd);
    return null;
  }
  const ww = WEEKDAY_OF_WEEK.exec(phrase);
  if (ww) {
    // The weekday of the week (Monday to Sunday) before, of or after the day's.
    return shift(mondayOf(at), (ww[2] === 'next' ? 7 : ww[2] === 'last' ? -7 : 0) + EN_WEEKDAYS.indexOf(ww[1]!));
  }
  const c = COUNT.exec(phrase);
  const n = c ? (/^\d/u.test(c[1]!) ? Number(c[1]) : COUNT_WORDS.get(c[1]!)) : undefined;
  if (n === undefined) return undefined;
  const k = c![3] === 'ago' ? -n : n;
  const unit = c![2]!;
  return toYmd(new Date(at.y + (unit === 'year' ? k : 0), at.m - 1 + (unit === 'month' ? k : 0), at.d + (unit === 'day' ? k : unit === 'week' ? 7 * k : 0), 12));
}

function weekdayNumber(phrase: string): number | null {
  const m = /\b(mon|tue|wed|thu|fri|sat|sun)/u.exec(phrase);
  return m ? ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].indexOf(m[1]!) + 1 : null;
}

/** The latest given weekday strictly before the day. */
function weekdayBefore(at: Ymd, wd: number): Ymd {
  const diff = (isoWeekday(at) - wd + 7) % 7 || 7;
  return shift(at, -diff);
}

/** The first given weekday on or after the day. */
function weekdayFrom(at: Ymd, wd: number): Ymd {
  return shift(at, (wd - isoWeekday(at) + 7) % 7);
}

/** A phrase's date: the day it stands for and the form written beside it. */
interface Reading {
  absolute: string;
  replacement: string;
}

/** A day phrases are counted from, and what they read from it: by form written (forward or back), period phrase, weekday slot. */
interface Day {
  ymd: Ymd;
  forward: Map<string, Reading | null>;
  backward: Map<string, Reading | null>;
  periods: Map<string, Reading>;
  weekdays: Array<Reading | null>;
}

/** What a sentence says, one per sentence start and end; `next`: another sentence starting at the same place. */
interface SentenceSaid {
  to: number;
  instruction: boolean;
  facts: SentenceFacts;
  next: SentenceSaid | undefined;
}

function dayResult(x: Ymd | null): Reading | null {
  return x ? { absolute: iso(x), replacement: iso(x) } : null;
}

// A count of years ("20 years ago", "in two years", "5 年前") names a year, and loosely: people
// round years ("about twenty"), and the day a count lands on is no day anyone meant. Its year is
// proposed, never written by --fix.
const YEARS_COUNT = /\byears?\b/u;
const EN_ABOUT_BEFORE = /\b(?:about|around|roughly|approximately|some|nearly|almost)[ \t]+$/iu;
const ZH_ABOUT_BEFORE = /(約|约|大約|大约|大概)[ \t]*$/u;

/** The year of a reading: its 1 January, written as the year alone. */
function yearOf(r: Reading): Reading {
  const y = r.absolute.slice(0, 4);
  return { absolute: `${y}-01-01`, replacement: y };
}

function addUnits(at: Ymd, unit: string, n: number): Ymd {
  if (unit === 'day') return shift(at, n);
  if (unit === 'week') return shift(at, 7 * n);
  if (unit === 'month') return toYmd(new Date(at.y, at.m - 1 + n, Math.min(at.d, 28), 12));
  return { y: at.y + n, m: at.m, d: at.d };
}

function periodResult(mod: string, unit: string, at: Ymd): { absolute: string; replacement: string } {
  const step = mod === 'next' || mod === 'coming' ? 1 : mod === 'this' ? 0 : -1;
  if (unit === 'week' || unit === 'weekend') {
    const monday = shift(mondayOf(at), 7 * step);
    if (unit === 'weekend') {
      const saturday = shift(monday, 5);
      return { absolute: iso(saturday), replacement: `the weekend of ${iso(saturday)}` };
    }
    return { absolute: iso(monday), replacement: `the week of ${iso(monday)}` };
  }
  if (unit === 'month') {
    const first = toYmd(new Date(at.y, at.m - 1 + step, 1, 12));
    return { absolute: iso(first), replacement: `${first.y}-${String(first.m).padStart(2, '0')}` };
  }
  if (unit === 'quarter') {
    const q0 = Math.floor((at.m - 1) / 3) + step;
    const y = at.y + Math.floor(q0 / 4);
    const q = ((q0 % 4) + 4) % 4;
    return { absolute: iso({ y, m: q * 3 + 1, d: 1 }), replacement: `${y}-Q${q + 1}` };
  }
  const y = at.y + step;
  return { absolute: `${y}-01-01`, replacement: String(y) };
}

function zhNumber(s: string): number | null {
  if (/^\d+$/u.test(s)) return Number(s);
  if (s === '半') return 0.5;
  if (s.includes('几')) return 3;
  if (s === '十') return 10;
  const m = /^([一二两三四五六七八九])?十([一二三四五六七八九])?$/u.exec(s);
  if (m) return (m[1] ? ZH_DIGIT[m[1]]! : 1) * 10 + (m[2] ? ZH_DIGIT[m[2]]! : 0);
  if (s.length === 1 && s in ZH_DIGIT) return ZH_DIGIT[s]!;
  return null;
}

function zhResult(kind: string, m: RegExpExecArray, at: Ymd): { absolute: string; replacement: string } | null {
  const text = m[0];
  if (kind === 'zhDay') {
    const offsets: Record<string, number> = {
      大前天: -3, 前天: -2, 昨天: -1, 昨晚: -1, 昨日: -1, 今天: 0, 今晚: 0, 今早: 0, 今日: 0, 明天: 1, 明晚: 1, 明早: 1, 明日: 1, 后天: 2, 大后天: 3,
    };
    return dayResult(shift(at, offsets[text] ?? 0));
  }
  if (kind === 'zhWeek') {
    const step = { 上上: -2, 下下: 2, 上: -1, 下: 1, 这: 0, 本: 0 }[m[1]!] ?? 0;
    const monday = shift(mondayOf(at), 7 * step);
    const day = m[3];
    if (day && day !== '末') return dayResult(shift(monday, ZH_WEEKDAY[day]! - 1));
    if (day === '末') {
      const saturday = shift(monday, 5);
      return { absolute: iso(saturday), replacement: `${iso(saturday)} 那个周末` };
    }
    return { absolute: iso(monday), replacement: `${iso(monday)} 那一周` };
  }
  if (kind === 'zhMonth') {
    const step = { 上: -1, 下: 1, 这: 0, 本: 0 }[m[1]!] ?? 0;
    const first = toYmd(new Date(at.y, at.m - 1 + step, 1, 12));
    const ym = `${first.y}-${String(first.m).padStart(2, '0')}`;
    return { absolute: iso(first), replacement: m[3] ? `${ym} ${m[3] === '初' ? '月初' : '月底'}` : ym };
  }
  if (kind === 'zhYear') {
    const step = { 前年: -2, 去年: -1, 今年: 0, 明年: 1, 后年: 2 }[text] ?? 0;
    return { absolute: `${at.y + step}-01-01`, replacement: `${at.y + step}年` };
  }
  if (kind === 'zhQuarter') {
    const r = periodResult({ 上: 'last', 下: 'next', 这: 'this', 本: 'this' }[m[1]!] ?? 'this', 'quarter', at);
    return r;
  }
  if (kind === 'zhFewDays') {
    const days = { 前几天: -3, 前两天: -2, 这几天: 0, 过几天: 3, 过两天: 2 }[text] ?? 0;
    const x = shift(at, days);
    return { absolute: iso(x), replacement: `${iso(x)} 前后` };
  }
  if (kind === 'zhCount') {
    const n = zhNumber(m[1]!);
    if (n === null) return null;
    const unit = m[3]!;
    if ((unit === '月' && !m[2]) || (unit === '年' && m[2])) return null;
    const sign = /前/u.test(m[4]!) ? -1 : 1;
    const u = unit === '天' || unit === '日' ? 'day' : unit === '月' ? 'month' : unit === '年' ? 'year' : 'week';
    const days = u === 'day' ? n : u === 'week' ? n * 7 : u === 'month' && n === 0.5 ? 15 : null;
    const x = days !== null ? shift(at, Math.round(sign * days)) : n === 0.5 ? addUnits(at, 'month', sign * 6) : addUnits(at, u, sign * n);
    const vague = m[1]!.includes('几');
    return { absolute: iso(x), replacement: vague ? `${iso(x)} 前后` : iso(x) };
  }
  // zhWeekday: a bare 周四 means the coming one.
  return dayResult(weekdayFrom(at, ZH_WEEKDAY[m[1]!]!));
}
