import type { Rule } from '../types.js';
import { lineRemovalSpan } from './util.js';

/**
 * index-duplicate: each topic file is listed once (entries are keyed by their normalised link
 * target). The fix drops a later copy when it says nothing the first does not; copies with
 * different hooks are reported for a person to merge, since dropping one would lose its text.
 */
export const indexDuplicate: Rule = {
  id: 'index-duplicate',
  description: 'Each topic file has one index entry',
  defaultSeverity: 'error',
  fixable: true,
  appliesTo: ['index'],
  certainty: 'high',
  docs: {
    ok: '- [Testing](feedback_testing.md) — integration tests hit a real database\n',
    notOk: '- [Testing](feedback_testing.md) — integration tests hit a real database\n- [Testing](./feedback_testing.md) — integration tests hit a real database\n',
  },
  check(ctx) {
    const index = ctx.memdir.parsedIndex();
    if (!index) return;
    const first = new Map<string, (typeof index.lines)[number]>();
    for (const l of index.lines) {
      const e = l.entry;
      if (!e) continue;
      const prev = first.get(e.key);
      if (!prev) {
        first.set(e.key, l);
        continue;
      }
      const p = prev.entry!;
      const redundant = e.hook === '' || p.hook.includes(e.hook);
      const message = redundant
        ? `${e.key} is listed twice (first on line ${prev.line})`
        : `${e.key} is listed twice (first on line ${prev.line}) with a different hook: merge the two hooks into one entry`;
      const span = lineRemovalSpan(ctx, l.line);
      ctx.report({ message, line: l.line, column: 1, ...(redundant ? { fix: { edits: [{ start: span.start, end: span.end, text: '' }] } } : {}) });
    }
  },
};
