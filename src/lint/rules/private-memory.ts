import type { Rule } from '../types.js';
import { frontmatterKeyLine } from '../../memdir/topic.js';

const ROLE = '---\nname: Role\ndescription: The user leads the payments team and reads diffs before descriptions\ntype: user\n---\nLeads payments; reads diffs before descriptions.\n';
const DEPLOYS = '---\nname: Deploys\ndescription: Deploys go out on Tuesdays, after the ledger freeze\ntype: project\n---\nDeploys go out on Tuesdays, once the ledger freeze has lifted.\n';
const DEPLOYS_ENTRY = '- [Deploys](project_deploys.md) — Tuesdays, after the freeze\n';

/**
 * private-memory (--staged only): a `user` memory describes one person (Claude Code gives the type
 * the scope "always private"), so a commit that adds or changes one in a memory folder the team
 * shares is stopped. A person who wants the team to have it moves it into `team/`, Claude Code's
 * shared folder, on purpose. Memory already committed is not reported: only a new one. On once the
 * team shares its memory (config "link"), off otherwise unless configured (withLinkDefaults).
 */
export const privateMemory: Rule = {
  id: 'private-memory',
  description: 'A staged change does not add one person\'s `user` memory to the shared memory (team/ aside); on once the team links its memory',
  defaultSeverity: 'error',
  fixable: false,
  appliesTo: ['topic'],
  certainty: 'high',
  docs: {
    ok: {
      head: { 'MEMORY.md': DEPLOYS_ENTRY, 'project_deploys.md': DEPLOYS },
      files: { 'MEMORY.md': `${DEPLOYS_ENTRY}- [Role](team/user_role.md) — who leads payments, shared on purpose\n`, 'project_deploys.md': DEPLOYS, 'team/user_role.md': ROLE },
    },
    notOk: {
      head: { 'MEMORY.md': DEPLOYS_ENTRY, 'project_deploys.md': DEPLOYS },
      files: { 'MEMORY.md': `${DEPLOYS_ENTRY}- [Role](user_role.md) — leads payments, reads diffs first\n`, 'project_deploys.md': DEPLOYS, 'user_role.md': ROLE },
    },
    notOkOutput:
      'user_role.md:4:1: a user memory describes one person and stays private (Claude Code: "always private"), but this commit adds it to the shared memory: git restore --staged -- .claude/memory/user_role.md, drop its entry from MEMORY.md, and keep what matters in ~/.claude/CLAUDE.md; to share it with the team on purpose, move it into team/',
  },
  check(ctx) {
    const h = ctx.history;
    // What is committed already was shared by someone's choice: only a new one is an accident.
    if (!h || !h.changed.includes(ctx.file.rel) || h.headText(ctx.file.rel) !== null) return;
    if (ctx.file.rel.split('/')[0] === 'team') return;
    const topic = ctx.memdir.parsedTopic(ctx.file);
    if (topic.type !== 'user') return;
    const repoPath = ctx.repo ? ctx.file.path.slice(ctx.repo.root.length + 1).split('\\').join('/') : ctx.file.rel;
    ctx.report({
      message: `a user memory describes one person and stays private (Claude Code: "always private"), but this commit adds it to the shared memory: git restore --staged -- ${repoPath}, drop its entry from MEMORY.md, and keep what matters in ~/.claude/CLAUDE.md; to share it with the team on purpose, move it into team/`,
      line: frontmatterKeyLine(topic, 'type') || 1,
      column: 1,
    });
  },
};
