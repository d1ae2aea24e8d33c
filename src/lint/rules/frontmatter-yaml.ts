import type { Rule, RuleContext } from '../types.js';
import { isReadmeLike } from '../../memdir/kinds.js';

/**
 * frontmatter-yaml: a topic file starts with YAML frontmatter on line 1, closed within 30 lines.
 * Claude Code's recall reads `description` and `type` from it, and only from the first 30 lines;
 * a file without it is a nameless memory the agent can barely find.
 *
 * Also a warning (the YAML is valid, but not what was meant): a plain value with ` #` in it, as
 * `description: Deploy to prod #infra`, ends where the ` #` starts, since YAML reads the rest as
 * a comment, and the agent gets "Deploy to prod". The message says to quote the value.
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
    notOkOutput: '1:1: Frontmatter is missing: start the file with `---`, then name, description and type, then `---`',
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
      } else if (ctx.file.rel.includes('/')) {
        // In a subfolder, more often a record or a document kept beside the memories than a memory
        // (index-orphan asks no entry for it): say both ways out.
        ctx.report({
          message: `Frontmatter is missing: if ${ctx.file.rel} is a memory, start it with \`---\`, then name, description and type, then \`---\`; if not, move it out of the memory folder or list it in "ignore" (Claude Code's recall lists every .md in the folder)`,
          line: 1,
          column: 1,
        });
      } else {
        ctx.report({ message: 'Frontmatter is missing: start the file with `---`, then name, description and type, then `---`', line: 1, column: 1 });
      }
      return;
    }
    if (fm.data) reportCutComments(ctx, fm.yaml, fm.data);
    if (!fm.error) return;
    // Fence problems (not closed, closed after line 30) are not YAML errors: say them as they are.
    const fence = /^frontmatter /.test(fm.error.message);
    const message = fence ? `F${fm.error.message.slice(1)}` : `Frontmatter is not valid YAML: ${fm.error.message}`;
    ctx.report({ message, line: fm.error.line, column: fm.error.column });
  },
};

// A key and a plain (unquoted, not block, not flow) value on one line.
const PLAIN_VALUE_RE = /^([ \t]*)([A-Za-z_][\w.-]*)[ \t]*:[ \t]+(?!["'|>[{&*!#%@`])(.*)$/;

/** Values YAML cut at a ` #` comment: the parsed value is the text before it, so the rest is lost. */
function reportCutComments(ctx: RuleContext, yaml: string, data: Record<string, unknown>) {
  if (!/[ \t]#/.test(yaml)) return;
  const meta = typeof data.metadata === 'object' && data.metadata !== null ? (data.metadata as Record<string, unknown>) : undefined;
  yaml.split('\n').forEach((text, i) => {
    const m = PLAIN_VALUE_RE.exec(text);
    if (!m) return;
    const [, indent, key, value] = m;
    const hash = /[ \t]#/.exec(value!);
    if (!hash) return;
    const kept = value!.slice(0, hash.index).trim();
    const parsed = indent === '' ? data[key!] : meta?.[key!];
    if (kept === '' || typeof parsed !== 'string' || parsed !== kept) return;
    const whole = value!.trimEnd();
    const quoted = `"${whole.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    ctx.report({
      message: `${key}: YAML reads "${whole.slice(hash.index).trim()}" as a comment, so the agent gets "${kept}": quote the value (${key}: ${quoted})`,
      line: i + 2,
      column: text.length - value!.length + hash.index + 2,
      severity: 'warn',
    });
  });
}
