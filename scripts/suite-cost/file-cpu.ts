// Each test file's CPU seconds, appended as one JSON line to the file $SUITE_COST names (outside
// the run's temporary folder, which the run removes): the worker's own and its waited-for children's
// (Linux /proc/self/stat: utime, stime, cutime, cstime), from the file's first hook to its last.
// A worker runs one file at a time, so the difference is that file's.
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';

const TICKS = 100;

function times(): number[] {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 15).map(Number);
}

let start: number[] = [];
let startMs = 0;
let file = '';
// eslint-disable-next-line no-empty-pattern
beforeAll(({}, suite) => {
  file = 'filepath' in suite ? String(suite.filepath) : '';
  start = times();
  startMs = Date.now();
});

afterAll(() => {
  const [ut, st, cut, cst] = times().map((t, i) => (t - start[i]!) / TICKS);
  const out = process.env.SUITE_COST;
  if (!out) throw new Error('SUITE_COST must name the file the figures go to (docs/development.md)');
  appendFileSync(out, JSON.stringify({ pid: process.pid, file, t0: startMs, t1: Date.now(), self: ut! + st!, kids: cut! + cst! }) + '\n');
});
