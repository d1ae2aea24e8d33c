// Step 5: stale `project` memories: the latest date a project memory carries (its `modified`, or any
// date written in it; else its last commit) older than `consolidate.staleDays`. Reported; moved to
// the archive with their index entry only under --prune.
import { parseTopic } from '../memdir/topic.js';
import type { MemState, StepContext, StepResult } from './types.js';
import { moveToArchive } from './archive.js';
import { removeEntry } from './dedupe.js';
import { addDays, isoDay } from './text.js';
import { isTopLevelTopic } from '../memdir/kinds.js';

export interface StaleReport {
  stale: Array<{ file: string; latest: string; archivedAs?: string }>;
}

const DAY_RE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;

/** The latest YYYY-MM-DD found in a memory: `modified` and every date written in its text. */
export function latestDate(text: string, modified: string | undefined): string | undefined {
  let latest = isoDay(modified);
  for (const m of text.matchAll(DAY_RE)) {
    const month = Number(m[2]);
    const day = Number(m[3]);
    if (month < 1 || month > 12 || day < 1 || day > 31) continue;
    if (latest === undefined || m[0] > latest) latest = m[0];
  }
  return latest;
}

export function findStale(state: MemState, ctx: StepContext): StepResult<StaleReport> {
  const report: StaleReport = { stale: [] };
  const cutoff = addDays(ctx.facts.today, -ctx.staleDays);
  let commitDates: Map<string, string> | undefined;
  const stale: Array<{ file: string; latest: string }> = [];
  for (const [rel, text] of state.files) {
    if (!isTopLevelTopic(rel)) continue;
    if (!/^\s*type\s*:\s*['"]?project\b/m.test(text)) continue;
    const topic = parseTopic(text);
    if (topic.type !== 'project') continue;
    let latest = latestDate(text, topic.modified);
    if (latest === undefined) {
      commitDates ??= ctx.facts.lastCommitDates();
      latest = commitDates.get(rel) ?? ctx.facts.today;
    }
    if (latest < cutoff) stale.push({ file: rel, latest });
  }
  stale.sort((a, b) => (a.file < b.file ? -1 : 1));
  if (!ctx.prune) return { state, report: { stale } };
  let next = state;
  for (const s of stale) {
    const moved = moveToArchive(next, ctx, s.file);
    next = removeEntry(moved.state, ctx, s.file, moved.to, `stale: latest date ${s.latest}, more than ${ctx.staleDays} days before ${ctx.facts.today}`);
    report.stale.push({ ...s, archivedAs: moved.to });
  }
  return { state: next, report };
}
