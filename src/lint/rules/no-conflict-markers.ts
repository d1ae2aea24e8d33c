import type { Rule } from '../types.js';

/**
 * no-conflict-markers: no merge conflict markers left in memory. Markers in Markdown break no
 * build, so they get committed, and then the agent reads both sides as memory.
 */
export const noConflictMarkers: Rule = {
  id: 'no-conflict-markers',
  description: 'No merge conflict markers',
  defaultSeverity: 'error',
  fixable: false,
  appliesTo: ['index', 'topic', 'log'],
  certainty: 'high',
  docs: {
    ok: '- [Testing](feedback_testing.md) — integration tests hit a real database\n',
    notOk: '<<<<<<< ours\n- [Testing](feedback_testing.md) — real database\n=======\n- [Testing](feedback_testing.md) — mocks are fine\n>>>>>>> theirs\n',
    notOkOutput: '1:1: Merge conflict left unresolved (lines 1-5): run `memlint resolve` or settle it by hand',
  },
  check(ctx) {
    if (!/^(?:<{7}|>{7}|\|{7})/m.test(ctx.file.text)) return;
    const lines = ctx.lines();
    let open = 0;
    lines.forEach((text, i) => {
      if (/^<{7,}(?: |$)/.test(text)) {
        open = i + 1;
        const end = lines.findIndex((t, j) => j > i && /^>{7,}(?: |$)/.test(t));
        ctx.report({
          message: `Merge conflict left unresolved${end > 0 ? ` (lines ${i + 1}-${end + 1})` : ''}: run \`memlint resolve\` or settle it by hand`,
          line: i + 1,
          column: 1,
        });
      } else if (/^>{7,}(?: |$)/.test(text)) {
        if (open === 0) ctx.report({ message: 'Stray merge conflict marker', line: i + 1, column: 1 });
        open = 0;
      } else if (/^\|{7,}(?: |$)/.test(text) && open === 0) {
        ctx.report({ message: 'Stray merge conflict marker', line: i + 1, column: 1 });
      }
    });
  },
};
