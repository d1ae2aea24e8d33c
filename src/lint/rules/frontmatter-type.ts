import type { Rule } from '../types.js';
import { frontmatterKeyLine } from '../../memdir/topic.js';
import { isMemoryType, MEMORY_TYPES } from '../../memdir/types.js';

/** frontmatter-type: `type` is one of user, feedback, project, reference (Claude Code's MEMORY_TYPES). */
export const frontmatterType: Rule = {
  id: 'frontmatter-type',
  description: 'Frontmatter type is one of user, feedback, project, reference',
  defaultSeverity: 'error',
  fixable: false,
  appliesTo: ['topic'],
  certainty: 'high',
  docs: {
    ok: '---\nname: testing\ndescription: Integration tests hit a real database\ntype: feedback\n---\n',
    notOk: '---\nname: testing\ndescription: Integration tests hit a real database\ntype: preference\n---\n',
    notOkOutput: '4:1: Frontmatter type "preference" is not one of user, feedback, project, reference',
  },
  check(ctx) {
    const topic = ctx.memdir.parsedTopic(ctx.file);
    if (!topic.frontmatter?.data || topic.type === undefined || topic.type === null || topic.type === '') return;
    if (isMemoryType(topic.type)) return;
    const line = frontmatterKeyLine(topic, 'type') || 1;
    ctx.report({
      message: `Frontmatter type ${JSON.stringify(topic.type)} is not one of ${MEMORY_TYPES.join(', ')}`,
      line,
      column: 1,
    });
  },
};
