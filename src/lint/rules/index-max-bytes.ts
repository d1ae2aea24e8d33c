import type { Rule } from '../types.js';
import { MAX_INDEX_UNITS, formatFileSize, indexVisibility, loadIndex } from '../../memdir/limits.js';
import { hiddenEntries } from '../hidden-entries.js';

/**
 * index-max-bytes: Claude Code loads at most 25,000 UTF-16 code units of MEMORY.md (after
 * stripping frontmatter and block HTML comments, and trimming), cut at the last line break before
 * the limit. Names the entries the agent will not see.
 */
// The examples' index lines: 180 of them fit, 190 do not.
const ENTRY = '- [Note {n}](note_{n}.md) — integration tests for service {n} hit a real database: mocked tests passed while a migration broke production';

export const indexMaxBytes: Rule = {
  id: 'index-max-bytes',
  description: 'MEMORY.md fits in the 25,000 UTF-16 code units Claude Code loads',
  defaultSeverity: 'error',
  fixable: false,
  appliesTo: ['index'],
  certainty: 'high',
  docs: {
    ok: { files: { 'MEMORY.md': '# Memory\n' }, lines: { in: 'MEMORY.md', line: ENTRY, count: 180 } },
    notOk: { files: { 'MEMORY.md': '# Memory\n' }, lines: { in: 'MEMORY.md', line: ENTRY, count: 190 } },
    notOkOutput: 'MEMORY.md:185:1: MEMORY.md is 25904 UTF-16 units, 25.3KB (limit 25000, 24.4KB): from line 185 on the agent sees nothing; entries not loaded: note_184.md, note_185.md, note_186.md, note_187.md, note_188.md and 2 more',
  },
  check(ctx) {
    const v = indexVisibility(ctx.file.text, { strip: ctx.format.stripIndex });
    if (!v.measure.overUnits) return;
    const at = v.firstCutLine ?? 1;
    const size = `MEMORY.md is ${v.measure.units} UTF-16 units, ${formatFileSize(v.measure.units)} (limit ${MAX_INDEX_UNITS}, ${formatFileSize(MAX_INDEX_UNITS)})`;
    // With no line break before the limit Claude Code cuts inside the first line: the agent sees
    // its start (and an entry there), nothing after it.
    const kept = loadIndex(ctx.file.text, { strip: ctx.format.stripIndex }).kept;
    if (!kept.includes('\n') && kept.length === MAX_INDEX_UNITS) {
      ctx.report({ message: `${size}: line ${at} is cut off after ${MAX_INDEX_UNITS} units and the agent sees nothing after it${hiddenEntries(ctx, at + 1)}`, line: at, column: 1 });
      return;
    }
    const hidden = v.firstCutLine === null ? '' : hiddenEntries(ctx, v.firstCutLine);
    ctx.report({ message: `${size}: from line ${at} on the agent sees nothing${hidden}`, line: at, column: 1 });
  },
};
