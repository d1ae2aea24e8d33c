// Unified diffs for --dry-run (git's format, three lines of context).
import { diffComm } from 'node-diff3';

function lines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

export function unifiedDiff(oldLabel: string, newLabel: string, before: string | null, after: string | null, context = 3): string {
  const a = lines(before ?? '');
  const b = lines(after ?? '');
  type Row = { tag: ' ' | '-' | '+'; text: string; ai: number; bi: number };
  const rows: Row[] = [];
  let ai = 0;
  let bi = 0;
  for (const chunk of diffComm(a, b)) {
    if ('common' in chunk && chunk.common) {
      for (const t of chunk.common) rows.push({ tag: ' ', text: t, ai: ai++, bi: bi++ });
    } else {
      const c = chunk as { buffer1: string[]; buffer2: string[] };
      for (const t of c.buffer1) rows.push({ tag: '-', text: t, ai: ai++, bi });
      for (const t of c.buffer2) rows.push({ tag: '+', text: t, ai, bi: bi++ });
    }
  }
  const changed = rows.map((r, i) => (r.tag === ' ' ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return '';
  const out = [`--- ${before === null ? '/dev/null' : `a/${oldLabel}`}`, `+++ ${after === null ? '/dev/null' : `b/${newLabel}`}`];
  let k = 0;
  while (k < changed.length) {
    let start = Math.max(0, changed[k]! - context);
    let end = Math.min(rows.length - 1, changed[k]! + context);
    while (k + 1 < changed.length && changed[k + 1]! - context <= end + 1) {
      k++;
      end = Math.min(rows.length - 1, changed[k]! + context);
    }
    k++;
    const hunk = rows.slice(start, end + 1);
    const aStart = hunk[0]!.ai;
    const bStart = hunk[0]!.bi;
    const aLen = hunk.filter((r) => r.tag !== '+').length;
    const bLen = hunk.filter((r) => r.tag !== '-').length;
    out.push(`@@ -${aLen === 0 ? aStart : aStart + 1},${aLen} +${bLen === 0 ? bStart : bStart + 1},${bLen} @@`);
    for (const r of hunk) out.push(r.tag + r.text.replace(/\r$/, ''));
    start = end;
  }
  return out.join('\n') + '\n';
}
