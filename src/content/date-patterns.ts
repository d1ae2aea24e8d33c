// What a relative date looks like, without the date arithmetic: the patterns findRelativeDates
// scans for, and a test built from exactly those patterns, so a file that cannot hold one never
// loads chrono-node (src/content/dates.ts).

export const WEEKDAY = '(monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
export const NUM_WORD = '(?:\\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\\s+couple\\s+of|a\\s+few|several)';

// English, in priority order: an earlier pattern's match hides later ones at the same place.
// A word's start is written (?<!\w), not \b (src/content/dates.ts says why).
// `need`: words every match of a rare pattern holds (same flags, so the same case folding), found
// by a scan many times faster than the pattern's own: a text without them is not scanned by it.
export const EN_PATTERNS: Array<{ kind: 'chrono' | 'period' | 'weekday'; re: RegExp; need?: RegExp }> = [
  { kind: 'chrono', re: /(?<!\w)the\s+day\s+(?:after\s+tomorrow|before\s+yesterday)\b/giu, need: /day\s+(?:after|before)/iu },
  { kind: 'chrono', re: /(?<!\w)(?:this\s+(?:morning|afternoon|evening)|last\s+night)\b/giu, need: /morning|afternoon|evening|night/iu },
  { kind: 'chrono', re: /(?<!\w)(?:today|tonight|tomorrow|yesterday)\b/giu },
  // "Friday next week" is one day: before the weekday and the period patterns, which would read it as two.
  { kind: 'chrono', re: new RegExp(`(?<!\\w)${WEEKDAY}[ \\t]+(?:of[ \\t]+)?(?:this|next|last)[ \\t]+week\\b`, 'giu'), need: /week/iu },
  { kind: 'chrono', re: new RegExp(`(?<!\\w)(?:this|next|last|coming|past)[ \\t]+${WEEKDAY}\\b(?!s\\b)`, 'giu') },
  { kind: 'chrono', re: new RegExp(`(?<!\\w)${NUM_WORD}[ \\t]+(?:days?|weeks?|months?|years?)[ \\t]+(?:ago|from[ \\t]+(?:now|today))\\b`, 'giu') },
  // "due in three weeks" is a date; "tokens expire in 30 days" is a policy: only after words that name an event (EVENT_BEFORE_IN).
  { kind: 'chrono', re: new RegExp(`(?<!\\w)in[ \\t]+${NUM_WORD}[ \\t]+(?:days?|weeks?|months?)\\b`, 'giu') },
  { kind: 'period', re: /(?<!\w)(?:the[ \t]+)?(this|next|last|coming|past|previous)[ \t]+(week|weekend|month|quarter|year)\b(?![ \t]+of\b)/giu },
  { kind: 'weekday', re: new RegExp(`(?<!\\w)${WEEKDAY}\\b(?!s\\b|'s\\b)`, 'giu') },
];

export const ZH_PATTERNS: Array<{ kind: 'zhDay' | 'zhWeek' | 'zhMonth' | 'zhYear' | 'zhQuarter' | 'zhFewDays' | 'zhCount' | 'zhWeekday'; re: RegExp }> = [
  { kind: 'zhDay', re: /大后天|大前天|后天|明天|今天|昨天|前天|今晚|昨晚|明晚|今早|明早|昨日|今日|明日/gu },
  { kind: 'zhWeek', re: /(?<![以如])(上上|下下|上|下|这|本)(个)?(?:周|星期|礼拜)(?!期|年|刊|报)([一二三四五六日天末])?/gu },
  { kind: 'zhMonth', re: /(?<![以如])(上|下|这|本)(个)?月(?!份)(初|底|末)?/gu },
  { kind: 'zhYear', re: /去年|今年|明年|前年|后年/gu },
  { kind: 'zhQuarter', re: /(?<![以如])(上|下|这|本)(个)?季度/gu },
  { kind: 'zhFewDays', re: /前几天|前两天|这几天|过几天|过两天/gu },
  { kind: 'zhCount', re: /(?<!每)(\d{1,3}|[一二两三四五六七八九十几半]{1,3})[ \t]?(个)?(天|日|周|星期|礼拜|月|年)(以前|之前|前|以后|之后|后)(?!过期|失效|自动|删除|清理|重试|再)/gu },
  // A bare 周四 is a date only with a deadline or event after it ("周四前", "周四上线"); "周五不发布" is a policy.
  { kind: 'zhWeekday', re: /(?<![每上下这本个到至~、\-—和或及与])(?:周|星期|礼拜)([一二三四五六日天])(?=[ \t]?(?:之前|以前|前|截止|到期|上线|发布|交付|完成|见|开会|提测|演示|评审))/gu },
];

// Every English pattern above holds one of these words and every Chinese one one of these
// characters. One scan for them spares a text without any of the sixteen pattern scans (and,
// on a cold start, their compilation).
const EN_WORDS = /day|night|morning|afternoon|evening|tomorrow|week|month|year|quarter/iu;
const ZH_WORDS = /[天晚早日周月年]|星期|礼拜|季度/u;

// The patterns most texts with a relative date hold come first: a text full of "tomorrow" is
// then not scanned whole by the rare ones ("the day after tomorrow") that find nothing.
const EN_LIKELY_FIRST = [...EN_PATTERNS.slice(2), ...EN_PATTERNS.slice(0, 2)];

/** Whether any of the patterns occurs in the text: a relative date is possible. */
export function mayHoldRelativeDate(text: string): boolean {
  if (EN_WORDS.test(text)) {
    for (const { re } of EN_LIKELY_FIRST) {
      re.lastIndex = 0;
      if (re.test(text)) return true;
    }
  }
  if (ZH_WORDS.test(text)) {
    for (const { re } of ZH_PATTERNS) {
      re.lastIndex = 0;
      if (re.test(text)) return true;
    }
  }
  return false;
}

// Uses of a date word that name no day (issue 29's held-out set, December 2026), checked by
// notADate in src/content/dates.ts:
// - a default value: "the date defaults to today", "默认今天", "默认为本月";
// - a name of a data item: "本月日期变量" (the current-month date variable), "today's date field";
// - more present-tense verbs for "today" meaning "at present" ("the preview skips the scan for
//   every non-MP3 today").
const DEFAULT_BEFORE = /(?:(?<!\w)default(?:s|ed)?(?:[ \t]+(?:to|is|=|:))?|默认(?:为|是|值为|值是)?)[ \t]*$/iu;
const ZH_NAME_AFTER = /^[\u3400-\u9fff]{0,4}(?:变量|参数|字段|常量|函数|选项|占位符)/u;
const EN_NAME_AFTER = /^(?:['’]s)?[ \t]+(?:date[ \t]+)?(?:variable|param(?:eter)?|field|constant|placeholder|macro)s?\b/iu;
export const PRESENT_VERB_MORE = /(?<!\w)(?:exposes|asserts|provides|offers|includes|defines|exports|implements|skips|fires|emits|produces|ignores|rejects|accepts|blocks|triggers|checks|verifies|gates|routes|drops|logs|fails|passes|shows|renders|loads|sends|builds|treats|applies|takes|gets|gives|makes|keeps)\b/iu;

// Every DEFAULT_BEFORE match holds one of these: a line without them is spared its scan.
export const DEFAULT_WORD = /default|默认/iu;

/**
 * A date word that names no day: a default value or part of a data item's name. `mayDefault`:
 * false when the line holds no DEFAULT_WORD (the caller knows it once per line).
 */
export function namesNoDay(line: string, start: number, end: number, mayDefault = true): boolean {
  return (mayDefault && DEFAULT_BEFORE.test(line.slice(Math.max(0, start - 24), start))) || ZH_NAME_AFTER.test(line.slice(end, end + 12)) || EN_NAME_AFTER.test(line.slice(end, end + 40));
}

// A date field left blank ("**Started:** YYYY-MM-DD", "| DD/MM/YYYY |", "[YYYY-MM-DD]"): the mark of
// a template, whose relative dates are example text ("**Next Week:** …", "[Add next week]") that no
// one wrote on a day. A field labelled as a format ("Date format: YYYY-MM-DD") is a convention.
const DATE_BLANK = '(?:YYYY[-/.]MM[-/.]DD|DD[-/.]MM[-/.]YYYY|MM[-/.]DD[-/.]YYYY)';
const BLANK_FIELD = new RegExp(`(?:[:：|]\\**|\\[)[ \\t]*${DATE_BLANK}(?=[ \\t]*(?:$|[|\\]()]|to\\b|[-–—~→]|\\p{Extended_Pictographic}))`, 'gimu');
const FORMAT_LABEL = /format|格式|形式|формат|書式/iu;

/** Whether a text is a template: at least two date fields left blank (see BLANK_FIELD). */
export function isDateTemplate(text: string): boolean {
  if (!/YYYY/i.test(text)) return false;
  let blanks = 0;
  for (const m of text.matchAll(BLANK_FIELD)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (FORMAT_LABEL.test(text.slice(lineStart, m.index))) continue;
    if (++blanks === 2) return true;
  }
  return false;
}


/**
 * The phrase is part of its file's own name ("previous month" in
 * `budget-copy-from-previous-month.md`): there it names what the file is about, a feature or a
 * rule, not a day. Phrases of two words or more, read as the file name's words in a row.
 */
export function namedByFile(phrase: string, rel: string): boolean {
  const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
  const want = words(phrase).filter((w, i) => i > 0 || w !== 'the');
  if (want.length < 2) return false;
  const name = words((rel.split('/').pop() ?? '').replace(/\.md$/iu, ''));
  return name.some((_, i) => want.every((w, j) => name[i + j] === w));
}
