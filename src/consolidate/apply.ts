// The one writer: carries a plan out, every file by temp file + rename, in an order that never
// loses anything if the run is killed at any point: the archive copies first, then the memdir's
// files, and only then are the moved originals removed (a kill in between leaves a file in both
// places, never in neither).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { sep } from 'node:path';
import { checkInsideRepo, removeInsideRepo, UnsafePathError, writeInsideRepo } from '../fs/inside.js';
import type { Plan } from './plan.js';

export class StaleSnapshotError extends Error {}

function currentText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

// Tests stop the writer at a known point (then SIGKILL it) through these variables.
function testPause(done: number): void {
  const after = process.env.MEMLINT_TEST_PAUSE_AFTER_OPS;
  const marker = process.env.MEMLINT_TEST_PAUSE_FILE;
  if (after === undefined || marker === undefined || Number(after) !== done) return;
  writeFileSync(marker, String(process.pid));
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (;;) Atomics.wait(cell, 0, 0, 60_000);
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
  let done = 0;
  const step = () => testPause(++done);
  const moves = plan.ops.filter((o) => o.kind === 'move');
  const archiveWrites = plan.ops.filter((o) => o.kind === 'write' && o.path.startsWith(plan.archiveDir + sep));
  const memdirWrites = plan.ops.filter((o) => o.kind === 'write' && !archiveWrites.includes(o));
  for (const m of moves) {
    if (m.kind !== 'move') continue;
    writeInsideRepo(bound, m.to, m.text, { mkdir: true });
    touched.push(m.to);
    step();
  }
  for (const w of [...archiveWrites, ...memdirWrites]) {
    if (w.kind !== 'write') continue;
    writeInsideRepo(bound, w.path, w.after, { mkdir: true });
    touched.push(w.path);
    step();
  }
  for (const m of moves) {
    if (m.kind !== 'move') continue;
    if (existsSync(m.from)) removeInsideRepo(bound, m.from);
    touched.push(m.from);
    step();
  }
  return touched;
}
