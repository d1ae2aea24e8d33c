import { it, expect } from 'vitest';
import fc from 'fast-check';
import { mergeIndex } from '../../src/merge/index.js';
const piece = fc.constantFrom('# Memory', '## User', '## Project', 'Some prose.', 'Other prose.', '', '- [A](a.md) — a', '- [B](b.md) — b', '- [C](c.md) — c', '- [A](a.md) — a2', '<!-- note -->');
const doc = fc.array(piece, { maxLength: 9 }).map((l) => l.join('\n') + '\n');
it('x', () => {
  fc.assert(fc.property(fc.constantFrom(''), doc, doc, (o, a, b) => {
    const r1 = mergeIndex(o, a, b);
    const r2 = mergeIndex(o, b, a);
    expect(r1.conflicts.length > 0).toBe(r2.conflicts.length > 0);
  }), { numRuns: 20000, seed: 7 });
}, 300_000);
