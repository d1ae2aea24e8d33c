// What every --fix must hold, checked on a memdir before and after (issue 29): no entry's link
// broken, no index taken past Claude Code's limits, a shortened hook cut at a word.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseIndex } from '../../src/memdir/memory-index.js';
import { measureIndex, MAX_INDEX_LINES, MAX_INDEX_UNITS } from '../../src/memdir/limits.js';

const TOKEN = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Hangul}\p{N}_\-./:@#%+'’]/u;

/** `before` and `after`: the index text; `dir`: the memdir after the fix. */
export function expectFixHolds(dir: string, before: string, after: string, label = ''): void {
  const was = parseIndex(before);
  const now = parseIndex(after);
  const wasEntries = new Map(was.lines.flatMap((l) => (l.entry ? [[l.entry.key, l.entry] as const] : [])));
  // No fix breaks an entry's link: every entry the fix wrote or kept points at a file, unless it
  // already pointed at none before.
  for (const l of now.lines) {
    if (!l.entry || /^[a-z][a-z0-9+.-]*:/i.test(l.entry.key)) continue;
    const target = join(dir, decodeURI(l.entry.key));
    if (!existsSync(target)) expect(wasEntries.has(l.entry.key), `${label} line ${l.line} links to a missing ${l.entry.key}: ${l.text}`).toBe(true);
  }
  // No fix takes the index past Claude Code's limits.
  const m0 = measureIndex(before);
  const m1 = measureIndex(after);
  if (m0.lines <= MAX_INDEX_LINES) expect(m1.lines, `${label} index lines`).toBeLessThanOrEqual(MAX_INDEX_LINES);
  if (m0.units <= MAX_INDEX_UNITS) expect(m1.units, `${label} index units`).toBeLessThanOrEqual(MAX_INDEX_UNITS);
  // A shortened hook is cut at a word: what is kept is a prefix of the old hook that does not end
  // inside a token (a date, a number, a word).
  for (const l of now.lines) {
    const e = l.entry;
    const old = e ? wasEntries.get(e.key) : undefined;
    if (!e || !old || e.hook === old.hook || !old.hook.startsWith(e.hook) || e.hook === '') continue;
    const next = old.hook[e.hook.length] ?? ' ';
    const last = e.hook.slice(-1);
    expect(TOKEN.test(last) && TOKEN.test(next), `${label} hook cut inside a token: "${e.hook}" | "${old.hook.slice(e.hook.length)}"`).toBe(false);
  }
}
