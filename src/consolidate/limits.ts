// Step 6: Claude Code's index limits. When the index is still over 200 lines or 25,000 UTF-16
// units, consolidation fails naming the entries the agent will not see and which to archive.
// It never truncates.
import { parseIndex } from '../memdir/memory-index.js';
import { loadIndex, MAX_INDEX_LINES, MAX_INDEX_UNITS } from '../memdir/limits.js';

export interface LimitsReport {
  ok: boolean;
  lines: number;
  units: number;
  /** Entries past the cut: the agent never sees them. */
  hidden: Array<{ target: string; title: string }>;
  /** Entries to archive so that the index fits (the stale ones first, then the oldest). */
  suggest: string[];
  /**
   * Lines that are not entries (headings, notes, blank lines), when archiving every entry would not
   * make the index fit: then that text is what is long, and `suggest` is empty.
   */
  notEntries?: number;
}

export function checkLimits(indexText: string | undefined, ageOf: (target: string) => string | undefined, stale: Set<string>): LimitsReport {
  if (indexText === undefined) return { ok: true, lines: 0, units: 0, hidden: [], suggest: [] };
  const loaded = loadIndex(indexText);
  const { lines, units } = loaded.measure;
  if (!loaded.truncated) return { ok: true, lines, units, hidden: [], suggest: [] };
  const entries = parseIndex(indexText).lines.filter((l) => l.entry);
  // The kept text is a prefix of the measured text: an entry is seen when its line lies within it.
  const measured = loaded.measure.text.split('\n');
  const keptCount = loaded.kept === '' ? 0 : loaded.kept.split('\n').length;
  const hidden: LimitsReport['hidden'] = [];
  let pos = 0;
  for (const e of entries) {
    const idx = measured.findIndex((m, i) => i >= pos && m.trim() === e.text.trim());
    if (idx < 0) continue;
    pos = idx + 1;
    if (idx >= keptCount) hidden.push({ target: e.entry!.key, title: e.entry!.title });
  }
  // How much must go: lines over 200 and units over 25,000, one entry line at a time.
  let lineExcess = lines - MAX_INDEX_LINES;
  let unitExcess = units - MAX_INDEX_UNITS;
  const candidates = entries
    .map((e) => ({ target: e.entry!.key, len: e.text.length + 1, stale: stale.has(e.entry!.key), age: ageOf(e.entry!.key) ?? '9999' }))
    .sort((a, b) => Number(b.stale) - Number(a.stale) || (a.age < b.age ? -1 : a.age > b.age ? 1 : 0));
  const suggest: string[] = [];
  for (const c of candidates) {
    if (lineExcess <= 0 && unitExcess <= 0) break;
    suggest.push(c.target);
    lineExcess -= 1;
    unitExcess -= c.len;
  }
  if (lineExcess > 0 || unitExcess > 0) return { ok: false, lines, units, hidden, suggest: [], notEntries: lines - entries.length };
  return { ok: false, lines, units, hidden, suggest };
}

export function limitsMessage(memdir: string, r: LimitsReport): string {
  const over = [r.lines > MAX_INDEX_LINES ? `${r.lines} lines (limit ${MAX_INDEX_LINES})` : '', r.units > MAX_INDEX_UNITS ? `${r.units} UTF-16 units (limit ${MAX_INDEX_UNITS})` : '']
    .filter(Boolean)
    .join(' and ');
  const hidden = r.hidden.map((h) => h.target);
  const shown = hidden.length > 8 ? `${hidden.slice(0, 8).join(', ')} and ${hidden.length - 8} more` : hidden.join(', ');
  const suggest = r.suggest.length > 8 ? `${r.suggest.slice(0, 8).join(', ')} and ${r.suggest.length - 8} more` : r.suggest.join(', ');
  const seen = `${memdir}/MEMORY.md is ${over}: the agent will not see ${hidden.length ? shown : 'its last lines'}`;
  if (r.notEntries !== undefined) {
    return `${seen}; archiving entries would not be enough: ${r.notEntries} of its lines are not entries (headings, notes): move that text into topic files, each with one entry line`;
  }
  return `${seen}; archive ${suggest} (move each file to the archive with its entry, or run "memlint consolidate --prune" for stale ones)`;
}
