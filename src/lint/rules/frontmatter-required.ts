import type { Rule } from '../types.js';
import { frontmatterKeyLine, isPinned } from '../../memdir/topic.js';
import { isSkillFile } from '../../memdir/kinds.js';

/**
 * frontmatter-required: `name`, `description` and `type` are present and not empty (`type` may sit
 * at top level or under `metadata:`; a pinned lesson, `metadata.pinned: true`, needs none, nor does a
 * skill's SKILL.md). The agent picks memories by their one-line description.
 */
export const frontmatterRequired: Rule = {
  id: 'frontmatter-required',
  description: 'Frontmatter has name, description (one line) and type',
  defaultSeverity: 'error',
  fixable: false,
  appliesTo: ['topic'],
  certainty: 'high',
  docs: {
    ok: '---\nname: testing\ndescription: Integration tests hit a real database\ntype: feedback\n---\n',
    notOk: '---\nname: testing\ntype: feedback\n---\n',
    notOkOutput: '1:1: Frontmatter `description` is missing: the agent decides which memories to recall by it',
  },
  check(ctx) {
    const topic = ctx.memdir.parsedTopic(ctx.file);
    const fm = topic.frontmatter;
    if (!fm || !fm.data || fm.error) return;
    const missing: string[] = [];
    const empty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
    if (empty(fm.data.name)) missing.push('name');
    if (empty(fm.data.description)) missing.push('description');
    // A pinned lesson (Claude Code 2.1.219 on) has no type: it applies to every session.
    // A skill (SKILL.md, a skills/ folder: Claude Code 2.1.332 shares them through team memory) has no memory type.
    if (empty(topic.type) && !(ctx.format.reads('pinned-lessons') && isPinned(fm.data)) && !isSkillFile(ctx.file.rel)) missing.push('type');
    for (const key of missing) {
      const line = frontmatterKeyLine(topic, key) || 1;
      const why = key === 'description' ? ': the agent decides which memories to recall by it' : key === 'type' ? ': one of user, feedback, project, reference' : '';
      ctx.report({ message: `Frontmatter \`${key}\` is ${frontmatterKeyLine(topic, key) ? 'empty' : 'missing'}${why}`, line, column: 1 });
    }
    const d = fm.data.description;
    // A generated index (Claude Code's gated variant, config generatedIndex) is assembled from each
    // description: recall flags one over 300 characters and asks for about 150 (Claude Code 2.1.332).
    const max = ctx.format.descriptionMaxChars;
    if (ctx.format.reads('generated-index') && typeof d === 'string' && d.trim().length > max) {
      ctx.report({ message: `Frontmatter \`description\` is ${d.trim().length} characters: the generated index shows it as this memory's one line; keep it to one specific line of about ${max / 2}`, line: frontmatterKeyLine(topic, 'description'), column: 1 });
    }
    if (typeof d === 'string' && d.trim().includes('\n')) {
      ctx.report({ message: 'Frontmatter `description` spans several lines: keep it to one specific line', line: frontmatterKeyLine(topic, 'description'), column: 1 });
    }
  },
};
