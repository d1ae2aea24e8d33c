// The one writer: carries a plan out, every file by temp file + rename, in an order that never
// loses anything if the run is killed at any point: every file that receives text is written
// before the file that gives it up. The archive copies and the archive index first, then the
// memdir's topics (which receive log entries, a shortened hook's detail, a merged duplicate's
// text), then its index (which gives up the detail and the duplicate's entry), and only then are
// the moved originals removed (a kill in between leaves a text in both places, never in neither;
// the rerun finds the rest still to do). A file archived unchanged is hard-linked there, not
// copied: the one fsync per file a copy needs was most of a large --prune's time.
import { existsSync, readFileSync } from 'node:fs';
import { basename, sep } from 'node:path';
import { INDEX_FILE } from '../memdir/kinds.js';
import { checkInsideRepo, linkInsideRepo, removeInsideRepo, UnsafePathError, writeInsideRepo } from '../fs/inside.js';
import type { Plan } from './plan.js';

export class StaleSnapshotError extends Error {}

/** The memdir's index gives text up to its topics (never the other way): written last. */
function givesUp(op: Plan['ops'][number]): number {
  return op.kind === 'write' && basename(op.path) === INDEX_FILE ? 1 : 0;
}

function currentText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Apply the plan, every path inside `bound` (src/fs/inside.ts). Throws, writing nothing, when a
 * file changed since it was read (StaleSnapshotError) or a path is reached through a symlink
 * (UnsafePathError).
 */
export function applyPlan(plan: Plan, bound: string): string[] {
  for (const op of plan.ops) {
    for (const p of op.kind === 'write' ? [op.path] : [op.from, op.to]) {
      const c = checkInsideRepo(bound, p);
      if (!c.ok) throw new UnsafePathError(c.path, c.reason);
    }
  }
  for (const op of plan.ops) {
    const path = op.kind === 'write' ? op.path : op.from;
    if (currentText(path) !== op.before) throw new StaleSnapshotError(`${path} changed while memlint was consolidating; run it again`);
  }
  const touched: string[] = [];
  const moves = plan.ops.filter((o) => o.kind === 'move');
  const archiveWrites = plan.ops.filter((o) => o.kind === 'write' && o.path.startsWith(plan.archiveDir + sep));
  const memdirWrites = plan.ops.filter((o) => o.kind === 'write' && !archiveWrites.includes(o)).sort((a, b) => givesUp(a) - givesUp(b));
  for (const m of moves) {
    if (m.kind !== 'move') continue;
    // A file archived as it stands is linked there, not copied: nothing to write or sync again.
    if (m.text !== m.before || !linkInsideRepo(bound, m.from, m.to, { mkdir: true })) writeInsideRepo(bound, m.to, m.text, { mkdir: true });
    touched.push(m.to);
  }
  for (const w of [...archiveWrites, ...memdirWrites]) {
    if (w.kind !== 'write') continue;
    writeInsideRepo(bound, w.path, w.after, { mkdir: true });
    touched.push(w.path);
  }
  for (const m of moves) {
    if (m.kind !== 'move') continue;
    if (existsSync(m.from)) removeInsideRepo(bound, m.from);
    touched.push(m.from);
  }
  return touched;
}
