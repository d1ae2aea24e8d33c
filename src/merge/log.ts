// Three-way merge of an append-only log (daily logs/YYYY/MM/YYYY-MM-DD.md, session logs/YYYY/MM/DD/<id>-<title>.md): a union of entries,
// never a conflict. Ours as it stands (less what theirs cleanly removed), then theirs' new
// entries in their order, an entry both sides appended once. Pure.
import { fromOurs, fromTheirs, render, stripBom, styleOf, toLines, type Line, type MergeResult, type OutLine } from './text.js';

interface Entry {
  lines: Line[];
  /** Identity: the entry's text without trailing blank lines or trailing spaces. */
  id: string;
}

const START_RE = /^(?:#{1,6}(?:[ \t]|$)|(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$))/;
// A session log's lines are each an entry, prefixed `>` user, `<` assistant, `.` tool call.
const SESSION_START_RE = /^(?:[><.](?:[ \t]|$)|#{1,6}(?:[ \t]|$)|(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$))/;

export interface LogMergeOptions {
  /** A session log (logs/YYYY/MM/DD/<id>-<title>.md): each prefixed line is an entry. */
  session?: boolean;
}

/** Entries: a heading or a top-level list item with its continuation lines and trailing blanks. */
function entriesOf(text: string, startRe: RegExp = START_RE): Entry[] {
  const entries: Entry[] = [];
  let afterBlank = true;
  for (const l of toLines(stripBom(text).body)) {
    const blank = l.text.trim() === '';
    const starts = !blank && (startRe.test(l.text) || afterBlank);
    if (starts || entries.length === 0) entries.push({ lines: [], id: '' });
    entries[entries.length - 1]!.lines.push(l);
    afterBlank = blank;
  }
  for (const e of entries) {
    const content = e.lines.map((l) => l.text.trimEnd());
    while (content.length > 0 && content[content.length - 1] === '') content.pop();
    e.id = content.join('\n');
  }
  return entries;
}

export function mergeLog(base: string, ours: string, theirs: string, options: LogMergeOptions = {}): MergeResult {
  const re = options.session ? SESSION_START_RE : START_RE;
  if (ours === theirs || theirs === base) return { text: ours, conflicts: [], notes: [] };
  if (ours === base) return { text: theirs, conflicts: [], notes: [] };
  const O = entriesOf(base, re);
  const A = entriesOf(ours, re);
  const B = entriesOf(theirs, re);
  const count = (es: Entry[]) => {
    const m = new Map<string, number>();
    for (const e of es) m.set(e.id, (m.get(e.id) ?? 0) + 1);
    return m;
  };
  const inBase = count(O);
  const inTheirs = count(B);
  const inOurs = count(A);

  const out: OutLine[] = [];
  // Ours, less the base entries theirs removed (an entry both still hold stays).
  const removedByTheirs = new Map<string, number>();
  for (const [id, n] of inBase) {
    const left = inTheirs.get(id) ?? 0;
    if (left < n && id !== '') removedByTheirs.set(id, n - left);
  }
  for (const e of A) {
    const removed = removedByTheirs.get(e.id) ?? 0;
    if (removed > 0 && (inBase.get(e.id) ?? 0) > 0) {
      removedByTheirs.set(e.id, removed - 1);
      continue;
    }
    for (const l of e.lines) out.push(fromOurs(l));
  }
  // Theirs' new entries (beyond the base's), in their order, appended: each new entry ours also
  // appended once. Counted, not as a set: a "- deployed" theirs appends again, the base holding
  // one already, is an entry of its own (the same result whichever side is ours).
  const oursNew = new Map<string, number>();
  for (const [id, n] of inOurs) if (n > (inBase.get(id) ?? 0)) oursNew.set(id, n - (inBase.get(id) ?? 0));
  const baseLeft = new Map(inBase);
  let appended = false;
  for (const e of B) {
    const b = baseLeft.get(e.id) ?? 0;
    if (b > 0) {
      baseLeft.set(e.id, b - 1);
      continue;
    }
    if (e.id === '') continue;
    const mine = oursNew.get(e.id) ?? 0;
    if (mine > 0) {
      oursNew.set(e.id, mine - 1);
      continue;
    }
    if (!appended && out.length > 0 && out[out.length - 1]!.text.trim() !== '' && e.lines.length > 0 && !re.test(e.lines[0]!.text)) {
      out.push({ text: '', eol: null });
    }
    appended = true;
    for (const l of e.lines) out.push(fromTheirs(l));
  }
  return { text: render(out, styleOf(ours, theirs)), conflicts: [], notes: [] };
}
