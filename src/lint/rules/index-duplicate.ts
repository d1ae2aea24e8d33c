import type { Rule, TextEdit } from '../types.js';
import { lineRemovalSpan } from '../positions.js';
import { duplicateDetail, moveKeepsRecall, moveToTopicEdit, ownText } from '../../memdir/hook-text.js';
import { holdsConflictMarkers } from '../../memdir/lines.js';

/**
 * index-duplicate: each topic file is listed once (entries are keyed by their normalised link
 * target). The fix drops a later copy that says nothing the first entry and the topic file do not
 * already say. A copy with words of its own (a hook, a title) is not fixed: two entries for one
 * topic are as often a correction or a resolution written after the first ("— CORRECTED",
 * "— RESOLVED") as a repeat, and which says what is current is for a person to choose. It is
 * reported with two suggestions (an editor's quick fixes): keep the first and move this entry's
 * words into the topic file, or keep this entry and move the first's.
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
    // Entries between conflict markers are the person's to settle: nothing is offered there.
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
      const topic = ctx.memdir.topicAt(e.key);
      // What this entry says that the first and the topic do not (its hook, a title of its own);
      // words an index fix moved into the topic still count as this entry's.
      const detail = duplicateDetail(p, e, topic && ownText(topic.text));
      if (detail === '') {
        const span = lineRemovalSpan(ctx, l.line);
        ctx.report({ message: `${e.key} is listed twice (first on line ${prev.line})`, line: l.line, column: 1, fix: { edits: [{ start: span.start, end: span.end, text: '' }] } });
        continue;
      }
      const head = `${e.key} is listed twice (first on line ${prev.line}) with ${movedWhat(detail, e)}`;
      if (inConflict) {
        ctx.report({ message: `${head}: settle the conflict first ("memlint resolve")`, line: l.line, column: 1 });
        continue;
      }
      const keepFirst = topic ? keepOne(ctx, l.line, topic, detail) : null;
      const keepThis = topic ? keepOne(ctx, prev.line, topic, duplicateDetail(e, p, topic.text)) : null;
      const suggest = [
        ...(keepFirst ? [{ desc: `Keep line ${prev.line}'s entry; move this one's words into ${e.key}`, fix: { edits: keepFirst } }] : []),
        ...(keepThis ? [{ desc: `Keep this entry; move line ${prev.line}'s words into ${e.key}`, fix: { edits: keepThis } }] : []),
      ];
      const why = !topic
        ? 'there is no topic file to keep what the other says'
        : suggest.length === 0
          ? `what either says would take ${e.key} past what recall shows another session`
          : 'the two say different things, and which is current is for a person to choose';
      ctx.report({ message: `${head}: merge the two into one entry (not fixed: ${why})`, line: l.line, column: 1, ...(suggest.length > 0 ? { suggest } : {}) });
    }
  },
};

/** Drops the index line `line` and moves `detail` into the topic; null when the topic would pass what recall shows. */
function keepOne(ctx: Parameters<Rule['check']>[0], line: number, topic: { path: string; text: string }, detail: string): TextEdit[] | null {
  const span = lineRemovalSpan(ctx, line);
  const edits: TextEdit[] = [{ start: span.start, end: span.end, text: '' }];
  if (detail === '') return edits;
  const moved = moveToTopicEdit(topic, detail);
  if (!moveKeepsRecall(topic, moved)) return null;
  if (moved) edits.push(moved);
  return edits;
}

/** What a duplicate says that the first entry does not, for its message. */
function movedWhat(detail: string, e: { hook: string; title: string }): string {
  return detail === e.hook ? 'a different hook' : detail === e.title ? 'a title of its own' : 'a title and hook of its own';
}
