import type { Rule } from '../types.js';
import { MAX_INDEX_LINES, indexVisibility } from '../../memdir/limits.js';
import { hiddenEntries } from '../hidden-entries.js';

/**
 * index-max-lines: Claude Code loads the first 200 lines of MEMORY.md (after stripping frontmatter
 * and block HTML comments, and trimming); the rest never reaches the agent, so the newest entries
 * at the bottom are the ones lost. Names the entries it will not see.
 */
export const indexMaxLines: Rule = {
  id: 'index-max-lines',
  description: 'MEMORY.md fits in the 200 lines Claude Code loads',
  defaultSeverity: 'error',
  fixable: false,
  appliesTo: ['index'],
  certainty: 'high',
  docs: {
    ok: { files: { 'MEMORY.md': '# Memory\n' }, lines: { in: 'MEMORY.md', line: '- [Note {n}](note_{n}.md) — note {n}', count: 199 } },
    notOk: { files: { 'MEMORY.md': '# Memory\n' }, lines: { in: 'MEMORY.md', line: '- [Note {n}](note_{n}.md) — note {n}', count: 202 } },
    notOkOutput: 'MEMORY.md:201:1: MEMORY.md is 203 lines as Claude Code measures it (limit 200): from line 201 on the agent sees nothing; entries not loaded: note_200.md, note_201.md, note_202.md',
  },
  check(ctx) {
    const v = indexVisibility(ctx.file.text, { strip: ctx.format.stripIndex });
    if (!v.measure.overLines || v.firstCutLine === null) return;
    const hidden = hiddenEntries(ctx, v.firstCutLine);
    ctx.report({
      message: `MEMORY.md is ${v.measure.lines} lines as Claude Code measures it (limit ${MAX_INDEX_LINES}): from line ${v.firstCutLine} on the agent sees nothing${hidden}`,
      line: v.firstCutLine,
      column: 1,
    });
  },
};
