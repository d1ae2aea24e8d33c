// Step 5: stale memories. A `project` memory whose latest date (its `modified` and any date written
// in it; without a `modified`, its last commit too) is older than `consolidate.staleDays`; and a memory whose every
// repository path it names was deleted (no-stale-reference's facts: a renamed path is fixable and
// keeps the memory alive). Reported; moved to the archive with their index entry only under
// --prune, never deleted.
import { parseTopic } from '../memdir/topic.js';
import type { MemState, StepContext, StepResult } from './types.js';
import { moveToArchive } from './archive.js';
import { draftOf, finish } from './draft.js';
import { removeEntry } from './dedupe.js';
import { addDays, isoDay } from './text.js';
import { isTopLevelTopic } from '../memdir/kinds.js';
import { memoryPathReferences } from '../lint/stale.js';

export interface StaleReport {
  stale: Array<{ file: string; latest: string; archivedAs?: string }>;
  /** Memories every repository path of which was deleted: the paths, with the deleting commits. */
  gone: Array<{ file: string; paths: string[]; archivedAs?: string }>;
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
  const report: StaleReport = { stale: [], gone: [] };
  const cutoff = addDays(ctx.facts.today, -ctx.staleDays);
  let commitDates: Map<string, string> | undefined;
  const stale: Array<{ file: string; latest: string }> = [];
  for (const [rel, text] of state.files) {
    if (!isTopLevelTopic(rel)) continue;
    if (!/^\s*type\s*:\s*['"]?project\b/m.test(text)) continue;
    const topic = parseTopic(text);
    if (topic.type !== 'project') continue;
    // Its `modified` says when it was last written; without one, the latest of its dates and its
    // last commit: an old date the text talks about ("the 2026-05-12 outage") is not the age of a
    // memory edited since. Not committed yet: written now. Last changed at a shallow clone's
    // boundary: its day is unknown, so, as for a file not committed, it is not called stale.
    let latest = latestDate(text, topic.modified);
    if ((latest === undefined || (latest < cutoff && !isoDay(topic.modified))) && (ctx.facts.inGit || latest === undefined)) {
      commitDates ??= ctx.facts.lastCommitDates();
      const committed = commitDates.get(rel) ?? ctx.facts.today;
      if (latest === undefined || committed > latest) latest = committed;
    }
    if (latest < cutoff) stale.push({ file: rel, latest });
  }
  stale.sort((a, b) => (a.file < b.file ? -1 : 1));
  const staleFiles = new Set(stale.map((s) => s.file));
  const gone = goneMemories(state, ctx).filter((g) => !staleFiles.has(g.file));
  if (!ctx.prune) return { state, report: { stale, gone } };
  const draft = draftOf(state);
  for (const s of stale) {
    const archivedAs = moveToArchive(draft, ctx, s.file);
    removeEntry(draft, ctx, s.file, archivedAs, `stale: latest date ${s.latest}, more than ${ctx.staleDays} days before ${ctx.facts.today}`);
    report.stale.push({ ...s, archivedAs });
  }
  for (const g of gone) {
    const archivedAs = moveToArchive(draft, ctx, g.file);
    removeEntry(draft, ctx, g.file, archivedAs, `stale: every path it names is gone (${g.paths.join(', ')})`);
    report.gone.push({ ...g, archivedAs });
  }
  return { state: finish(draft), report };
}

/** Top-level topics naming at least one repository path, every one of which was deleted. */
function goneMemories(state: MemState, ctx: StepContext): Array<{ file: string; paths: string[] }> {
  const out: Array<{ file: string; paths: string[] }> = [];
  for (const [rel, text] of state.files) {
    if (!isTopLevelTopic(rel) || !text.includes('/')) continue;
    const refs = memoryPathReferences(text);
    if (refs.length === 0) continue;
    const fates = ctx.facts.lostPaths(refs);
    const paths: string[] = [];
    for (const ref of refs) {
      const key = ref.folder ? `${ref.path}/` : ref.path;
      const fate = fates.get(key);
      if (!fate || fate.kind !== 'deleted') break;
      paths.push(`${key} deleted${fate.commit ? ` in ${fate.commit.slice(0, 7)}` : ''}`);
    }
    if (paths.length === refs.length) out.push({ file: rel, paths: [...new Set(paths)] });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : 1));
}
