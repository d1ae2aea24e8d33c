// Gates, as Claude Code's auto-dream has them (cheapest first): enough time since the last
// consolidation (the lock's mtime), then enough memory-changing commits since. --force skips them;
// nothing skips the lock.
export const DEFAULT_MIN_HOURS = 24;
export const DEFAULT_MIN_COMMITS = 5;

export interface GateSettings {
  minHours: number;
  minCommits: number;
}

export interface GateResult {
  open: boolean;
  hoursSince: number | null;
  commitsSince: number | null;
  /** Why the gates are closed, for one line of output. */
  reason: string | null;
}

/** `countCommits` is asked only when the time gate is open (it costs a git call). */
export function checkGates(lastConsolidatedAt: number, now: number, settings: GateSettings, countCommits: (sinceMs: number) => number): GateResult {
  const hoursSince = lastConsolidatedAt === 0 ? null : (now - lastConsolidatedAt) / 3.6e6;
  if (hoursSince !== null && hoursSince < settings.minHours) {
    return { open: false, hoursSince, commitsSince: null, reason: `last consolidated ${formatHours(hoursSince)} ago (gate: ${settings.minHours} h)` };
  }
  const commitsSince = countCommits(lastConsolidatedAt);
  if (commitsSince < settings.minCommits) {
    return { open: false, hoursSince, commitsSince, reason: `${commitsSince} memory-changing commit${commitsSince === 1 ? '' : 's'} since the last consolidation (gate: ${settings.minCommits})` };
  }
  return { open: true, hoursSince, commitsSince, reason: null };
}

function formatHours(h: number): string {
  return h < 1 ? `${Math.max(0, Math.round(h * 60))} min` : `${h.toFixed(1).replace(/\.0$/, '')} h`;
}
