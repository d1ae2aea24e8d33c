// `memlint install`: the linter, the merge driver and the hooks made real in this clone and worktree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from './args.js';
import { EXIT_OK, UsageError } from '../errors.js';
import { worktreeOf, planInstall, applyActions, describeAction } from '../install/setup.js';
import { repoMemdirs } from '../install/memdirs.js';
import { planClaudeInstall } from '../install/claude-settings.js';
import { run as runLink } from './link.js';

const HELP = `Usage: memlint install [--dry-run] [--local] [--link] [--claude] [--quiet] [--config FILE]

Sets up, idempotently:
  .gitattributes     merge=memlint for MEMORY.md, topic files and daily logs of every memdir
  .gitignore         .consolidate-lock and .snapshot-synced.json
  .husky/pre-commit  memlint --staged             (husky 9: plain shell hook files)
  .husky/pre-push    memlint consolidate --pre-push
  .husky/post-checkout, .husky/post-merge, .husky/post-rewrite   memlint touch
                     (the scripts come from memlint's hooks/ folder; without memlint in a
                     worktree each says so in one line and lets git go on)
  git config         merge.memlint.driver (local config: shared by every worktree of this clone)
  .husky/_           husky's hook stubs in this worktree, core.hooksPath=.husky/_
  package.json       a prepare script ("husky && memlint install --local") so every clone gets
                     the hooks and the driver after npm install, and config.memlintPreparedFrom:
                     the prepare script it had, which "memlint uninstall" restores in any clone
Existing hook lines, attributes and scripts are kept; memlint's lines sit in a marked block that
"memlint uninstall" removes. Works from a linked worktree.

Options:
  --dry-run      print what it would do, change nothing
  --local        only this clone's parts: the driver in git config and this worktree's hook stubs
                 (what the prepare script runs; no tracked file is touched)
  --link         also run "memlint link": point Claude Code's autoMemoryDirectory (in the
                 git-ignored .claude/settings.local.json) at the repository's memory folder
  --claude       also add memlint's Claude Code hooks to .claude/settings.json (the team's
                 shared settings): "memlint hook" after Write|Edit (the agent is told at once
                 what is wrong with the memory it wrote) and at SessionStart; every other key
                 and hook is kept
  --quiet        print nothing when all is well
  --config FILE  use this config file (for memoryDirs)
  -h, --help     show this help
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parse(argv, { 'dry-run': { type: 'boolean' }, local: { type: 'boolean' }, link: { type: 'boolean' }, claude: { type: 'boolean' }, quiet: { type: 'boolean' }, config: { type: 'string' } }, 'install', { positionals: false });
  if (values.help) {
    process.stdout.write(HELP);
    return EXIT_OK;
  }
  if (values.claude && values.local) throw new UsageError('--claude writes .claude/settings.json, a tracked file, which --local never touches');
  const wt = worktreeOf(process.cwd());
  const memdirs = values.local ? [] : await repoMemdirs(wt.root, values.config);
  const actions = planInstall(wt, { local: !!values.local, memdirs });
  if (values.claude) actions.push(...planClaudeInstall(wt));
  const dry = !!values['dry-run'];
  const changes = actions.filter((a) => a.kind !== 'note');
  for (const a of actions) if (!values.quiet || a.kind === 'note') process.stdout.write(`${describeAction(a, dry)}\n`);
  if (changes.length === 0 && !values.quiet) process.stdout.write('memlint install: already installed; nothing changed\n');
  if (dry) return EXIT_OK;
  for (const p of applyActions(wt, actions)) process.stderr.write(`memlint: ${p}\n`);
  if (changes.length > 0 && !values.quiet) process.stdout.write(`memlint install: done; "memlint doctor" checks that everything is active\n`);
  if (values.link) return runLink([]);
  if (!values.local && !values.quiet && !linkedAlready(wt.root)) {
    process.stdout.write('Claude Code keeps its auto memory outside the repository unless told otherwise: "memlint link" (or "memlint install --link") points it at the committed memory folder\n');
  }
  return EXIT_OK;
}

/** Whether this worktree's .claude/settings.local.json already names an autoMemoryDirectory. */
function linkedAlready(root: string): boolean {
  try {
    const settings = JSON.parse(readFileSync(join(root, '.claude', 'settings.local.json'), 'utf8')) as Record<string, unknown>;
    return typeof settings.autoMemoryDirectory === 'string';
  } catch {
    return false;
  }
}
