// The consolidation plan: pure steps from a memdir snapshot to the list of file writes and moves.
// --check and --dry-run stop here; the writer (apply.ts) carries a plan out under the lock.
import { join } from 'node:path';
import type { MemState, StepContext } from './types.js';
import { ARCHIVE_INDEX, INDEX_FILE } from '../memdir/kinds.js';
import { absoluteDates, type DatesReport, type RelativeDateFinder } from './dates.js';
import { logsToTopics, type LogsReport } from './logs.js';
import { dedupeTopics, type DedupeReport } from './dedupe.js';
import { syncIndex, type IndexReport } from './index-sync.js';
import { findStale, latestDate, type StaleReport } from './stale.js';
import { checkLimits, type LimitsReport } from './limits.js';
import { parseTopic } from '../memdir/topic.js';

export interface PlanInput {
  /** Absolute paths. */
  memdir: string;
  archiveDir: string;
  /** Memory files of the memdir by relative path. */
  files: Map<string, string>;
  /** The archive index's current text, or null when there is none yet. */
  archiveIndex: string | null;
  ctx: StepContext;
  /** The absolute-dates finder; without it the dates step is skipped (reported as unavailable). */
  findDates?: RelativeDateFinder;
}

export interface PlanReport {
  dates: DatesReport | null;
  logs: LogsReport;
  dedupe: DedupeReport;
  index: IndexReport;
  stale: StaleReport;
  limits: LimitsReport;
}

export type FileOp =
  /** Create or replace a file (absolute path); before is null for a new file. */
  | { kind: 'write'; path: string; before: string | null; after: string }
  /** Move a memdir file into the archive; `text` is what lands there, `before` what was in the memdir. */
  | { kind: 'move'; from: string; to: string; before: string; text: string };

export interface Plan {
  memdir: string;
  archiveDir: string;
  ops: FileOp[];
  report: PlanReport;
  /** The texts the plan was made from (memdir files, archive index): what its output is masked against. */
  sources: string[];
}

export function planConsolidation(input: PlanInput): Plan {
  const initial: MemState = { files: input.files, archive: new Map(input.archiveIndex !== null ? [[ARCHIVE_INDEX, input.archiveIndex]] : []), moves: [] };
  const ctx: StepContext = input.ctx;
  let state = initial;
  let dates: DatesReport | null = null;
  if (input.findDates) ({ state, report: dates } = absoluteDates(state, ctx, input.findDates));
  const logs = logsToTopics(state, ctx.secrets);
  state = logs.state;
  const dedupe = dedupeTopics(state, ctx);
  state = dedupe.state;
  const index = syncIndex(state, ctx);
  state = index.state;
  const stale = findStale(state, ctx);
  state = stale.state;
  const staleSet = new Set([...stale.report.stale, ...stale.report.gone].map((s) => s.file));
  const limits = checkLimits(
    state.files.get(INDEX_FILE),
    (target) => {
      const text = state.files.get(target);
      return text === undefined ? undefined : latestDate(text, parseTopic(text).modified);
    },
    staleSet,
  );
  return {
    memdir: input.memdir,
    archiveDir: input.archiveDir,
    ops: diffStates(input, initial, state),
    report: { dates, logs: logs.report, dedupe: dedupe.report, index: index.report, stale: stale.report, limits },
    sources: [...input.files.values(), ...(input.archiveIndex !== null ? [input.archiveIndex] : [])],
  };
}

function diffStates(input: PlanInput, initial: MemState, final: MemState): FileOp[] {
  const ops: FileOp[] = [];
  const movedTo = new Map(final.moves.map((m) => [m.to, m.from]));
  for (const [rel, text] of [...final.archive].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const from = movedTo.get(rel);
    if (from !== undefined) {
      ops.push({ kind: 'move', from: join(input.memdir, from), to: join(input.archiveDir, rel), before: input.files.get(from)!, text });
      continue;
    }
    const before = initial.archive.get(rel) ?? null;
    if (before !== text) ops.push({ kind: 'write', path: join(input.archiveDir, rel), before, after: text });
  }
  for (const [rel, text] of [...final.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const before = initial.files.get(rel);
    if (before !== text) ops.push({ kind: 'write', path: join(input.memdir, rel), before: before ?? null, after: text });
  }
  return ops;
}
