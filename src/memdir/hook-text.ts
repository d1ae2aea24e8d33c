// An index entry's hook as text: cut at a word, and moved out of the index into its topic file
// (nothing an index fix, consolidation or resolve --both removes is dropped).
import { codePointLength, withinRecall } from './limits.js';
import { dominantEol, inlineCodeRanges, splitLines } from './lines.js';
import type { TextEdit } from './types.js';
import type { IndexEntry } from './memory-index.js';

/**
 * Cut text to at most `max` code points at a word boundary. Returns the head (trimmed at its end)
 * and the tail (what was cut off, trimmed at its start). Never cuts inside a surrogate pair, a
 * word, a number or a date: with no boundary within the limit, the head is empty.
 */
export function cutAtWord(text: string, max: number): { head: string; tail: string } {
  if (codePointLength(text) <= max) return { head: text, tail: '' };
  const cps = Array.from(text);
  // The latest boundary within the limit: before a space, or after a CJK (or ASCII) comma or
  // semicolon, since CJK text runs without spaces and may hold a lone one early on. Failing
  // both, the limit itself.
  let cut = 0;
  for (let k = max; k > 0; k--) {
    // An ASCII comma or semicolon ends a clause only before a space ("1,000", "a;b" are one token).
    if (/\s/.test(cps[k]!) || /[，。；、！？]/.test(cps[k - 1]!) || (/[,;]/.test(cps[k - 1]!) && /\s/.test(cps[k] ?? ' '))) {
      cut = k;
      break;
    }
  }
  // No such boundary: between two characters that do not make one token (CJK text runs without
  // spaces), never inside a word, a number, a date or a path ("2026-0" would be a different date).
  if (cut === 0) {
    for (let k = max; k > 0; k--) {
      if (!(TOKEN.test(cps[k - 1]!) && TOKEN.test(cps[k]!))) {
        cut = k;
        break;
      }
    }
    if (cut === 0) return { head: '', tail: text };
  } else cut = withoutDanglingWords(cps, cut);
  // Never inside inline code: "use `git show" reads as a whole command. The cut moves back to
  // before the span opens; with no words before it, there is no cut.
  const open = openCodeSpan(cps, cut);
  if (open >= 0) {
    let k = open;
    while (k > 0 && /\s/.test(cps[k - 1]!)) k--;
    if (k === 0) return { head: '', tail: text };
    cut = /\s/.test(cps[k] ?? '') ? withoutDanglingWords(cps, k) : k;
  }
  cut = beforeUnclosedBracket(cps, cut);
  // A clause's comma or a dash left at the end reads as a slip: the head ends on its last word.
  const head = cps.slice(0, cut).join('').replace(/[\s,;:，；、—–-]+$/u, '');
  const tail = cps.slice(cut).join('').trimStart();
  return { head, tail };
}

const OPENERS: Record<string, string> = { '(': ')', '（': '）' };

/**
 * A cut inside a parenthesis ("deploys wait for the freeze (until the audit") leaves it open: the
 * cut moves back to before it when words stand before it. Parentheses in inline code do not count.
 */
function beforeUnclosedBracket(cps: string[], cut: number): number {
  const text = cps.slice(0, cut).join('');
  const code = inlineCodeRanges(text);
  const open: number[] = [];
  let offset = 0;
  for (let k = 0; k < cut; k++) {
    const c = cps[k]!;
    if (!code.some(([start, end]) => start <= offset && offset < end)) {
      if (OPENERS[c]) open.push(k);
      else if (open.length > 0 && OPENERS[cps[open[open.length - 1]!]!] === c) open.pop();
    }
    offset += c.length;
  }
  if (open.length === 0) return cut;
  let k = open[0]!;
  while (k > 0 && /\s/.test(cps[k - 1]!)) k--;
  return k > 0 ? k : cut;
}

/** Where the inline code span that `cut` falls inside opens (a code point index), else -1. */
function openCodeSpan(cps: string[], cut: number): number {
  const text = cps.join('');
  let offset = 0;
  for (let k = 0; k < cut; k++) offset += cps[k]!.length;
  const span = inlineCodeRanges(text).find(([start, end]) => start < offset && offset < end);
  return span ? Array.from(text.slice(0, span[0])).length : -1;
}

// A tag or a placeholder alone in angle brackets (`<i>`, `</b>`, `<your-token>`): no link.
const TAG_ALONE = /^\/?[A-Za-z][A-Za-z0-9-]*\/?$/;

/**
 * Where the last link in a text ends (a UTF-16 offset; 0 when it holds none): `[t](x.md)`,
 * `![t](x.png)`, `[t][ref]`, `[[name]]` or `<x.md>`, not begun inside inline code, where
 * `<tag>..main` is a command's argument. Whatever might end a link counts (every `](`, `][` and
 * `]]` after a `[` outside inline code, whatever the label between), since a link taken for text
 * would be cut off its index line. One pass over the text: a regex that looked ahead from every `[` took minutes on a hook
 * of thousands of them.
 */
export function lastLinkEnd(text: string): number {
  const code = inlineCodeRanges(text);
  const after = nextOf(text);
  let last = 0;
  let inCode = 0;
  let firstOpen = -1;
  // The first `[[` since the last `]` and the last line break (a `[[name]]` holds neither).
  let doubleOpen = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') doubleOpen = -1;
    while (inCode < code.length && code[inCode]![1] <= i) inCode++;
    const coded = inCode < code.length && code[inCode]![0] <= i;
    if (c === '[') {
      if (firstOpen < 0 && !coded) firstOpen = i;
      if (text[i + 1] === '[' && !coded && doubleOpen < 0) doubleOpen = i;
      continue;
    }
    if (c === '<' && !coded) {
      const close = after.angle[i + 1]!;
      // An autolink or a file named in brackets (`<https://…>`, `<a.md>`), not a tag or a
      // placeholder (`<i>`, `</b>`, `<your-token>`): a hook may be cut after those.
      if (close > i + 1 && close < after.space[i + 1]! && !TAG_ALONE.test(text.slice(i + 1, close))) last = Math.max(last, close + 1);
      continue;
    }
    if (c !== ']') continue;
    if (text[i + 1] === ']' && doubleOpen >= 0) last = Math.max(last, i + 2);
    doubleOpen = -1;
    // A label's `]` may stand in inline code when its `[` does not.
    if (firstOpen < 0) continue;
    if (text[i + 1] === '[') {
      const close = after.bracket[i + 2]!;
      if (close < text.length && close < after.lineBreak[i + 2]!) last = Math.max(last, close + 1);
    } else if (text[i + 1] === '(') {
      last = Math.max(last, destinationEnd(text, i + 2, after));
    }
  }
  return last;
}

/** For every offset, the first `>`, `]`, white space and line break at or after it (the text's length when none). */
function nextOf(text: string): { angle: Int32Array; bracket: Int32Array; space: Int32Array; lineBreak: Int32Array } {
  const n = text.length;
  const angle = new Int32Array(n + 2).fill(n);
  const bracket = new Int32Array(n + 2).fill(n);
  const space = new Int32Array(n + 2).fill(n);
  const lineBreak = new Int32Array(n + 2).fill(n);
  for (let k = n - 1; k >= 0; k--) {
    const c = text[k]!;
    angle[k] = c === '>' ? k : angle[k + 1]!;
    bracket[k] = c === ']' ? k : bracket[k + 1]!;
    space[k] = /\s/.test(c) ? k : space[k + 1]!;
    lineBreak[k] = c === '\n' ? k : lineBreak[k + 1]!;
  }
  return { angle, bracket, space, lineBreak };
}

/** After `](`: a destination (`<…>`, or text with parentheses one deep), an optional "title" and `)`; the index after `)`, or -1. */
function destinationEnd(text: string, start: number, after: ReturnType<typeof nextOf>): number {
  let k = start;
  if (text[k] === '<') {
    const close = after.angle[k + 1]!;
    if (close >= after.lineBreak[k + 1]!) return -1;
    k = close + 1;
  } else {
    let depth = 0;
    for (; k < text.length; k++) {
      const d = text[k]!;
      if (/\s/.test(d)) break;
      if (d === '(') {
        if (depth === 1) return -1;
        depth = 1;
      } else if (d === ')') {
        if (depth === 0) break;
        depth = 0;
      }
    }
    if (depth !== 0) return -1;
  }
  let t = k;
  while (text[t] === ' ' || text[t] === '\t') t++;
  if (t > k && text[t] === '"') {
    const quote = text.indexOf('"', t + 1);
    if (quote > 0 && !text.slice(t + 1, quote).includes('\n')) k = quote + 1;
  }
  return text[k] === ')' ? k + 1 : -1;
}

/**
 * cutAtWord for an index hook that may hold links to other topics: the cut comes after the last
 * link, so every link stays in the index (a link moved out would leave its topic an orphan, and a
 * link cut in two would break). When that does not fit in `max`, the head is empty: no cut.
 */
export function cutHook(hook: string, max: number): { head: string; tail: string } {
  const keep = lastLinkEnd(hook);
  if (keep === 0) return cutAtWord(hook, max);
  if (codePointLength(hook) <= max) return { head: hook, tail: '' };
  const room = max - codePointLength(hook.slice(0, keep));
  if (room < 0) return { head: '', tail: hook };
  const rest = hook.slice(keep);
  const lead = /^\s*/u.exec(rest)![0];
  const { head, tail } = room - codePointLength(lead) > 0 ? cutAtWord(rest.slice(lead.length), room - codePointLength(lead)) : { head: '', tail: rest.trimStart() };
  return { head: (hook.slice(0, keep) + (head ? lead + head : '')).trimEnd(), tail };
}

// A character of a token that must not be split: letters and digits of alphabetic scripts and
// what joins them into one word, number, date, path or address.
const TOKEN = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Hangul}\p{N}_\-./:@#%+'’]/u;

// Words that leave a cut sentence hanging ("...written in", "...because the"): English function
// words, prepositions and articles. A cut that would end on one ends before it.
const DANGLING = new Set(
  ('a an the and or but nor so yet of in on at to for with by from into onto over under about as than that which who whom whose ' +
    'because while when where whether if unless until after before during via per without within between through against among ' +
    'its their our your his her my this these those each every some any no not is are was were be been being has have had do does ' +
    'can could will would should must may might').split(' '),
);

/** The cut moved back past trailing dangling words and the punctuation before them, keeping at least one word. */
function withoutDanglingWords(cps: string[], cut: number): number {
  let end = cut;
  for (;;) {
    let e = end;
    while (e > 0 && /[\s,;:—–-]/.test(cps[e - 1]!)) e--;
    let s = e;
    while (s > 0 && !/\s/.test(cps[s - 1]!)) s--;
    const word = cps.slice(s, e).join('').toLowerCase();
    if (s === 0 || !DANGLING.has(word)) return end === cut ? cut : e;
    end = s;
  }
}

/**
 * Whether a move leaves its topic file whole in what recall shows another session (true when there
 * is nothing to move): text moved out of the index, which every session loads, must not land where
 * no session is shown it.
 */
export function moveKeepsRecall(topic: { text: string }, edit: TextEdit | null): boolean {
  return edit === null || withinRecall(topic.text.slice(0, edit.start) + edit.text + topic.text.slice(edit.end));
}

/** The section of a topic file that receives text the index fixes move out of MEMORY.md. */
export const FROM_INDEX_HEADING = '## From the index';
export const FROM_INDEX_RE = /^##[ \t]+From the index[ \t]*$/;
const SECTION_END_RE = /^#{1,2}[ \t]/;

/**
 * The edit that moves text out of an index hook into its topic file (index-line-length,
 * index-duplicate), so nothing is dropped: a paragraph at the end of the topic's
 * "## From the index" section, created at the end of the file when it has none. It never reads
 * as part of the section before it (say, `**How to apply:**`). null when the topic already
 * holds the text.
 */
export function moveToTopicEdit(topic: { path: string; text: string }, moved: string): TextEdit | null {
  const body = topic.text;
  if (body.includes(moved)) return null;
  const eol = dominantEol(body);
  const lines = splitLines(body);
  const at = lines.findIndex((l) => FROM_INDEX_RE.test(l.text));
  const blankBefore = (end: number) => (body.slice(0, end).endsWith(eol + eol) || end === 0 ? '' : body.slice(0, end).endsWith(eol) ? eol : eol + eol);
  if (at >= 0) {
    const next = lines.findIndex((l, i) => i > at && SECTION_END_RE.test(l.text));
    if (next < 0) return { path: topic.path, start: body.length, end: body.length, text: `${blankBefore(body.length)}${moved}${eol}` };
    const offset = lines[next]!.offset;
    return { path: topic.path, start: offset, end: offset, text: `${blankBefore(offset)}${moved}${eol}${eol}` };
  }
  // Creating the section replaces the file's last character (with itself), so two fixes that
  // would each create it in one pass overlap: the engine applies one, and the next pass puts the
  // other's text into the section the first created.
  const start = Math.max(0, body.length - 1);
  return { path: topic.path, start, end: body.length, text: `${body.slice(start)}${blankBefore(body.length)}${FROM_INDEX_HEADING}${eol}${eol}${moved}${eol}` };
}

/**
 * A topic's text without its "## From the index" section: what the topic says of its own, not what
 * an index fix moved there. A second entry whose words only that section holds (memlint shortened
 * it there) still says something the first entry does not.
 */
export function ownText(topicText: string): string {
  const lines = splitLines(topicText);
  const at = lines.findIndex((l) => FROM_INDEX_RE.test(l.text));
  if (at < 0) return topicText;
  const next = lines.findIndex((l, i) => i > at && SECTION_END_RE.test(l.text));
  return topicText.slice(0, lines[at]!.offset) + (next < 0 ? '' : topicText.slice(lines[next]!.offset));
}

// A letter or digit of a script written with spaces between words (CJK runs on without them).
const WORD_CHAR = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Hangul}\p{N}_]/u;

/**
 * Whether `text` already says `detail` (case and spacing aside; a trailing "…" of a cut hook
 * ignored), as whole words: a title "Auth" is not said by "author".
 */
export function holdsText(text: string, detail: string): boolean {
  const squash = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  const hay = squash(text);
  const needle = squash(detail).replace(/…$/, '');
  if (needle === '') return true;
  const joins = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && WORD_CHAR.test(a) && WORD_CHAR.test(b);
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    if (!joins(hay[at - 1], needle[0]) && !joins(needle[needle.length - 1], hay[at + needle.length])) return true;
  }
  return false;
}

/**
 * What a second entry for a topic says that the kept one does not: its hook, and its title when
 * the kept entry does not say it ("[Import is schema-driven (#58)](x.md) — …" beside "[YTD
 * convention](x.md) — …"), as "title — hook". '' when the kept entry (or `topicText`) says it all.
 * Merging the two moves this into the topic file: the duplicate line goes, none of its words do.
 */
export function duplicateDetail(kept: IndexEntry, second: IndexEntry, topicText = ''): string {
  const keptWords = `${kept.title} ${kept.hook} ${topicText}`;
  const title = holdsText(keptWords, second.title) ? '' : second.title;
  const hook = second.hook === '' || holdsText(keptWords, second.hook) ? '' : second.hook;
  return title && hook ? `${title} — ${hook}` : title || hook;
}
