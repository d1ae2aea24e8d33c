import type { Rule } from '../types.js';
import { MAX_TOPIC_FILES } from '../../memdir/limits.js';

/**
 * max-topic-files: Claude Code's recall considers only the 200 newest topic files by mtime; older
 * ones are never offered to the agent. Daily logs count too, since recall scans every .md.
 */
export const maxTopicFiles: Rule = {
  id: 'max-topic-files',
  description: 'At most 200 Markdown files besides MEMORY.md (recall looks at the 200 newest only)',
  defaultSeverity: 'error',
  fixable: false,
  appliesTo: ['index'],
  certainty: 'high',
  docs: {
    ok: { files: { 'MEMORY.md': '# Memory\n' }, each: { path: 'note_{n}.md', text: '---\nname: Note {n}\ndescription: Note number {n}\ntype: project\n---\nNote {n}.\n', count: 200 } },
    notOk: { files: { 'MEMORY.md': '# Memory\n' }, each: { path: 'note_{n}.md', text: '---\nname: Note {n}\ndescription: Note number {n}\ntype: project\n---\nNote {n}.\n', count: 201 } },
    notOkOutput: 'MEMORY.md:1:1: 201 memory files besides MEMORY.md: Claude Code recalls only the 200 newest by mtime, so 1 is never offered; merge or archive stale memories (consolidate --prune archives stale project memories)',
  },
  check(ctx) {
    const n = ctx.memdir.topics.length + ctx.memdir.logs.length;
    if (n <= MAX_TOPIC_FILES) return;
    ctx.report({
      message: `${n} memory files besides MEMORY.md: Claude Code recalls only the ${MAX_TOPIC_FILES} newest by mtime, so ${n - MAX_TOPIC_FILES} ${n - MAX_TOPIC_FILES === 1 ? "is" : "are"} never offered; merge or archive stale memories (consolidate --prune archives stale project memories)`,
      line: 1,
      column: 1,
    });
  },
};
