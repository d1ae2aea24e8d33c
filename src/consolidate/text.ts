// Small text helpers shared by the steps: line handling that keeps a file's own line endings,
// and the normalisation under which two list items count as "the same content".
import { dominantEol, splitLines } from '../memdir/lines.js';
import { FROM_INDEX_RE } from '../memdir/hook-text.js';
import { weak } from '../content/secret-patterns.js';

export const LIST_ITEM_RE = /^(\s*)(?:[-*+]|\d{1,9}[.)])[ \t]+/;
const TIMESTAMP_RE = /^(?:\*\*|__)?\[?\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?\]?(?:\*\*|__)?\s*(?:[-—–:|]\s*)?/i;
const ISO_PREFIX_RE = /^\[?\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?\]?\s*(?:[-—–:|]\s*)?/;
const DATE_SUFFIX_RE = /\s*\((?:log |from )?\d{4}-\d{2}-\d{2}\)\s*$/;

/** The content of a list item or log entry, for matching: no bullet, timestamp or date stamp, case or spacing. */
export function normalizeContent(s: string): string {
  let t = s.replace(LIST_ITEM_RE, '').trim();
  t = t.replace(ISO_PREFIX_RE, '').replace(TIMESTAMP_RE, '').replace(DATE_SUFFIX_RE, '');
  return t
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.;,!]+$/, '')
    .trim();
}

export function isListItem(line: string): boolean {
  return LIST_ITEM_RE.test(line);
}

/**
 * Append lines at the end of a text: right after a closing list when the text ends with one,
 * else after a blank line. The text's own line ending is used and a final newline kept.
 */
export function appendLines(text: string, added: string[], separateFromList = false): string {
  if (added.length === 0) return text;
  const eol = dominantEol(text);
  const trimmed = text.replace(/(?:\r\n|\r|\n|[ \t])+$/, '');
  if (trimmed === '') return added.join(eol) + eol;
  const lines = splitLines(trimmed);
  const last = lines[lines.length - 1]!.text;
  const inList = !separateFromList && isListItem(last) || (!separateFromList && /^\s+\S/.test(last) && lines.some((l) => isListItem(l.text)));
  const gap = inList && isListItem(added[0]!) ? eol : eol + eol;
  return trimmed + gap + added.join(eol) + eol;
}

/**
 * appendLines, but into a topic's own text: when the file ends with memlint's "## From the index"
 * section (hooks moved out of the index), the lines go before it, so they are not read as that
 * section's (nor dated as index lines).
 */
export function appendToTopic(text: string, added: string[]): string {
  if (added.length === 0) return text;
  const lines = splitLines(text);
  const at = lines.findIndex((l) => FROM_INDEX_RE.test(l.text));
  if (at < 0 || lines.some((l, i) => i > at && /^#{1,2}[ \t]/.test(l.text))) return appendLines(text, added);
  const offset = lines[at]!.offset;
  return `${appendLines(text.slice(0, offset), added)}${dominantEol(text)}${text.slice(offset)}`;
}

/** The YYYY-MM-DD of an ISO-like date string, or undefined. */
export function isoDay(s: string | undefined): string | undefined {
  if (!s) return undefined;
  const m = /(\d{4}-\d{2}-\d{2})/.exec(s);
  return m ? m[1] : undefined;
}

/** YYYY-MM-DD minus n days. */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export function localDay(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The kind of a secret (from `secrets`, value -> kind: what no-secrets reports) the text holds, or undefined. */
export function secretIn(text: string, secrets: ReadonlyMap<string, string> | undefined): string | undefined {
  if (!secrets) return undefined;
  for (const [value, kind] of secrets) if (holds(text, value)) return kind;
  return undefined;
}

/** Whether the text holds the value; a weak one (masked only as a word of its own) as a word of its own. */
function holds(text: string, value: string): boolean {
  if (!weak(value)) return text.includes(value);
  for (let i = text.indexOf(value); i >= 0; i = text.indexOf(value, i + 1)) {
    if (!WORD.test(text[i - 1] ?? '') && !WORD.test(text[i + value.length] ?? '')) return true;
  }
  return false;
}
const WORD = /[\p{L}\p{N}_]/u;
