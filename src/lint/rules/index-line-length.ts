import type { Rule, TextEdit } from '../types.js';
import { MAX_ENTRY_CHARS, codePointLength } from '../../memdir/limits.js';
import { cutHook, moveKeepsRecall, moveToTopicEdit } from '../../memdir/hook-text.js';
import { findSecrets, mayHoldSecret } from '../../content/secrets.js';

/**
 * index-line-length: an index entry is at most 150 characters (code points: a CJK character or an
 * emoji counts once), as Claude Code's prompt asks. Long hooks carry content that belongs in the
 * topic file; the fix shortens the hook at a word boundary and moves the tail into the topic
 * file, never dropping it ("shorten the line, move the detail"). Without a topic file to receive
 * the tail, it only reports. A list item in the index that is not an entry is loaded all the same,
 * so one over the limit is reported too (without a fix: there is no topic file to take its tail).
 * A hook holding a secret is not moved (it would then stand in two files): no-secrets reports it,
 * and this rule reports the length without a fix, as consolidation leaves such an entry alone.
 */
export const indexLineLength: Rule = {
  id: 'index-line-length',
  description: 'Index entries are at most 150 characters; the fix moves the tail of the hook into the topic file',
  defaultSeverity: 'error',
  fixable: true,
  appliesTo: ['index'],
  certainty: 'high',
  docs: {
    ok: '- [Testing](feedback_testing.md) — integration tests hit a real database\n',
    notOk:
      '- [Testing](feedback_testing.md) — integration tests must hit a real database, because in the March incident mocked tests passed while the migration broke production for two hours\n',
    notOkOutput: '1:151: Index entry is 179 characters (limit 150): move the detail into the topic file',
  },
  options: ['max'],
  async check(ctx) {
    const index = ctx.memdir.parsedIndex();
    if (!index) return;
    const max = typeof ctx.options.max === 'number' ? ctx.options.max : MAX_ENTRY_CHARS;
    for (const l of index.lines) {
      if (l.kind === 'list') {
        // Not an entry, but loaded into every session all the same: the limit is about that.
        const len = codePointLength(l.text.trimEnd());
        if (len > max) ctx.report({ message: `Index list item is ${len} characters (limit ${max}): the index is loaded into every session; move the detail into a topic file`, line: l.line, column: Array.from(l.text).slice(0, max).join('').length + 1 });
        continue;
      }
      if (!l.entry) continue;
      const len = codePointLength(l.text.trimEnd());
      if (len <= max) continue;
      let message = `Index entry is ${len} characters (limit ${max}): move the detail into the topic file`;
      const e = l.entry;
      const topic = ctx.memdir.topicAt(e.key);
      let fix: { edits: TextEdit[] } | undefined;
      // Why no fix is offered, said in the message: a person then knows what to do by hand.
      let notFixed: string | null = null;
      if (!topic) notFixed = `no topic file ${e.key} here to receive the detail`;
      else if (e.hookStart < 0) notFixed = 'the entry has no hook to shorten';
      else if (mayHoldSecret(e.hook) && (await findSecrets(e.hook)).length > 0) notFixed = 'the hook holds what may be a secret, which memlint does not copy';
      else {
        const prefixLen = codePointLength(l.text.slice(0, e.hookStart));
        const budget = max - prefixLen;
        if (budget > 0) {
          const { head, tail } = cutHook(e.hook, budget);
          if (head === '') notFixed = 'no cut at a word within the limit keeps the hook\'s links and code spans whole';
          else if (tail !== '') {
            const hookOffset = l.offset + e.hookStart;
            const hookEnd = hookOffset + e.hook.length;
            const edits: TextEdit[] = [{ start: hookOffset, end: hookEnd, text: head }];
            // The whole hook goes to the topic file, so the tail keeps its context.
            const moved = moveToTopicEdit(topic, e.hook);
            if (!moveKeepsRecall(topic, moved)) notFixed = `the hook would take ${e.key} past what recall shows another session; split that file first`;
            else {
              if (moved) edits.push(moved);
              fix = { edits };
            }
          }
        } else notFixed = 'the title and link alone take the whole limit';
      }
      if (notFixed) message += ` (not fixed: ${notFixed})`;
      const column = Array.from(l.text).slice(0, max).join('').length + 1;
      ctx.report({ message, line: l.line, column, ...(fix ? { fix } : {}) });
    }
  },
};
