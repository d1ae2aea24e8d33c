import { pathKey } from '../../memdir/memory-index.js';
import type { Rule, TextEdit } from '../types.js';
import { lineRemovalSpan } from '../positions.js';
import { duplicateDetail, moveKeepsRecall, moveToTopicEdit } from '../../memdir/hook-text.js';
import { holdsConflictMarkers } from '../../memdir/lines.js';

/**
 * index-duplicate: each topic file is listed once (entries are keyed by their normalised link
 * target). The fix keeps the first entry and drops a later copy; a later hook that says something
 * the first does not is moved into the topic file first (as index-line-length moves a long
 * hook), so nothing is lost. Without a topic file to receive it, such a copy is only reported.
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
    notOkOutput: '2:1: feedback_testing.md is listed twice (first on line 1)',
  },
  check(ctx) {
    const index = ctx.memdir.parsedIndex();
    if (!index) return;
    // Entries between conflict markers are the person's to settle: no fix is offered there.
    const inConflict = holdsConflictMarkers(ctx.file.text);
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
      // What this entry says that the first does not (its hook, a title of its own) moves into the topic.
      const topic = ctx.memdir.topics.find((t) => pathKey(t.rel) === e.key);
      const detail = duplicateDetail(p, e, topic?.text);
      const redundant = detail === '';
      const span = lineRemovalSpan(ctx, l.line);
      const edits: TextEdit[] = [{ start: span.start, end: span.end, text: '' }];
      let fixable = redundant;
      let pastRecall = false;
      if (!redundant) {
        const moved = topic ? moveToTopicEdit(topic, detail) : null;
        pastRecall = topic !== undefined && !moveKeepsRecall(topic, moved);
        if (topic && !pastRecall) {
          if (moved) edits.push(moved);
          fixable = true;
        }
      }
      const message = redundant
        ? `${e.key} is listed twice (first on line ${prev.line})`
        : inConflict
          ? `${e.key} is listed twice (first on line ${prev.line}) with a different hook: settle the conflict first ("memlint resolve")`
          : fixable
          ? `${e.key} is listed twice (first on line ${prev.line}) with ${movedWhat(detail, e)}: --fix keeps the first and moves ${detail === e.hook ? 'this hook' : detail === e.title ? 'this title' : 'this title and hook'} into ${e.key}`
          : pastRecall
          ? `${e.key} is listed twice (first on line ${prev.line}) with ${movedWhat(detail, e)}: merge the two into one entry (not fixed: what it says would take ${e.key} past what recall shows another session)`
          : `${e.key} is listed twice (first on line ${prev.line}) with ${movedWhat(detail, e)}: merge the two into one entry`;
      ctx.report({ message, line: l.line, column: 1, ...(fixable ? { fix: { edits } } : {}) });
    }
  },
};

/** What a duplicate says that the first entry does not, for its message. */
function movedWhat(detail: string, e: { hook: string; title: string }): string {
  return detail === e.hook ? 'a different hook' : detail === e.title ? 'a title of its own' : 'a title and hook of its own';
}
