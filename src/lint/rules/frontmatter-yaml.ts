import type { Rule } from '../types.js';
import { isReadmeLike } from './util.js';

/**
 * frontmatter-yaml: a topic file starts with YAML frontmatter on line 1, closed within 30 lines.
 * Claude Code's recall reads `description` and `type` from it, and only from the first 30 lines;
 * a file without it is a nameless memory the agent can barely find.
 */
export const frontmatterYaml: Rule = {
  id: 'frontmatter-yaml',
  description: 'Topic files start with valid YAML frontmatter, closed within the first 30 lines',
  defaultSeverity: 'error',
  fixable: false,
  appliesTo: ['topic'],
  certainty: 'high',
  docs: {
    ok: '---\nname: testing\ndescription: Integration tests hit a real database\ntype: feedback\n---\n\nUse the real database.\n',
    notOk: '# Testing\n\nUse the real database.\n',
  },
  check(ctx) {
    const topic = ctx.memdir.parsedTopic(ctx.file);
    const fm = topic.frontmatter;
    if (!fm) {
      if (isReadmeLike(ctx.file.rel)) {
        ctx.report({
          message: `${ctx.file.rel} is not a memory: Claude Code loads every .md in the memory folder, so it sees this as a nameless memory; move it out of the folder or list it in "ignore"`,
          line: 1,
          column: 1,
        });
      } else {
        ctx.report({ message: 'Frontmatter is missing: start the file with `---`, then name, description and type, then `---`', line: 1, column: 1 });
      }
      return;
    }
    if (!fm.error) return;
    // Fence problems (not closed, closed after line 30) are not YAML errors: say them as they are.
    const fence = /^frontmatter /.test(fm.error.message);
    const message = fence ? `F${fm.error.message.slice(1)}` : `Frontmatter is not valid YAML: ${fm.error.message}`;
    ctx.report({ message, line: fm.error.line, column: fm.error.column });
  },
};
