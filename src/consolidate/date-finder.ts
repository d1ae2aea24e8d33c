// The absolute-dates rule's finder (src/content/dates.ts, chrono-node based), adapted to the dates
// step: one date parser for lint and consolidation. Loaded lazily: it pulls in chrono-node.
import type { RelativeDateFinder } from './dates.js';
import { blockModel, spansOf } from '../memdir/blocks.js';

function localNoon(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d, 12);
}

export async function loadDateFinder(): Promise<RelativeDateFinder> {
  const { findRelativeDates, mayHoldRelativeDate } = await import('../content/dates.js');
  return (text, anchorAt) => {
    if (!mayHoldRelativeDate(text)) return [];
    const cache = new Map<string, Date>();
    const at = (offset: number) => {
      const day = anchorAt(offset);
      let d = cache.get(day);
      if (!d) cache.set(day, (d = localNoon(day)));
      return d;
    };
    // Never inside code or frontmatter (the block model's reading of the text).
    const skip = spansOf(blockModel(text), text, ['frontmatter', 'code']);
    return findRelativeDates(text, at, skip).map((r) => ({ start: r.start, end: r.end, replacement: r.replacement, exact: r.exact && r.fixable && r.narrated, told: r.told }));
  };
}
