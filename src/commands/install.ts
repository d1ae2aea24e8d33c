// `memlint install`: the linter, the merge driver and the hooks made real in this clone and worktree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from './args.js';
import { EXIT_FOUND, EXIT_OK, UsageError } from '../errors.js';
import { worktreeOf, planInstall, applyActions, describeAction } from '../install/setup.js';
import { coveredMemdirs, findRepoMemdirs } from '../install/memdirs.js';
import { planClaudeInstall } from '../install/claude-settings.js';
import { planLinkSetting } from '../install/link-setting.js';
import { linkCheckout, linkState, settingMemdir } from '../claude/team-link.js';
import type { DiscoveredMemdir } from '../memdir/discover.js';
import { applyTouch, planTouch } from '../claude/touch.js';
import type { Io, Output } from '../io.js';
import type { Repository } from '../git/repo.js';
import { homeOf } from '../claude/auto-memory.js';

const HELP = `Usage: memlint install [--dry-run] [--local] [--link] [--claude] [--quiet] [--config FILE]

Sets up, idempotently:
  .gitattributes     merge=memlint for MEMORY.md, topic files and daily logs of every memdir
  .gitignore         .consolidate-lock and .snapshot-synced.json (with the team's link also
                     .claude/settings.local.json, .claude/agent-memory-local/ and CLAUDE.local.md)
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
  --local        only this clone's parts: the driver in git config, this worktree's hook stubs,
                 memory files' mtimes from their commits (a fresh clone's are the clone's time)
                 and, when the team shares its memory, the link (what the prepare script runs)
  --link         the team shares its memory: records "link": "<memory folder>" in the committed
                 config (.memlintrc.json, or package.json "memlint"), git-ignores each person's
                 private Claude Code files, and links this checkout. From then on every clone and
                 worktree is linked by "memlint install --local" (npm install runs it): Claude
                 Code's memory here is moved to the committed folder (autoMemoryDirectory in the
                 git-ignored .claude/settings.local.json), after what Claude Code kept for this
                 checkout so far (~/.claude/projects/<project>/memory) is adopted into it. A person
                 opts out with "git config memlint.link false" (or --global), or MEMLINT_LINK=0
  --claude       also add memlint's Claude Code hooks to .claude/settings.json (the team's
                 shared settings): "memlint hook" after Write|Edit (the agent is told at once
                 what is wrong with the memory it wrote) and at SessionStart; every other key
                 and hook is kept
  --quiet        print nothing when all is well (the link line only when it changed something)
  --config FILE  use this config file (for memoryDirs)
  -h, --help     show this help
`;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, { 'dry-run': { type: 'boolean' }, local: { type: 'boolean' }, link: { type: 'boolean' }, claude: { type: 'boolean' }, quiet: { type: 'boolean' }, config: { type: 'string' } }, 'install', { positionals: false });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  if (values.claude && values.local) throw new UsageError('--claude writes .claude/settings.json, a tracked file, which --local never touches');
  if (values.link && values.local) throw new UsageError('--link records the decision in the committed config, which --local never touches; run "memlint install --link" once, then every checkout links with "memlint install --local"');
  const wt = worktreeOf(io);
  const dry = !!values['dry-run'];
  const say = (s: string) => io.stdout.write(`${s}\n`);
  const setting = values.link ? await planLinkSetting(wt.root, io.env) : [];
  // A config memlint cannot read must not stop npm install: the link part says why and steps aside.
  let decided: boolean | string = !!values.link;
  if (!decided) decided = await settingMemdir(wt.root, io.env).then((s) => !!s, (err: Error) => err.message);
  // Found once: the memdirs install covers are the ones whose mtimes it then sets.
  const found = values.local ? undefined : await findRepoMemdirs(wt.repository, io.env, values.config, io.stderr);
  const memdirs = found ? coveredMemdirs(wt.root, found) : [];
  const actions = planInstall(wt, { local: !!values.local, memdirs, privateIgnores: decided === true, env: io.env });
  actions.push(...setting);
  if (values.claude) actions.push(...planClaudeInstall(wt));
  const changes = actions.filter((a) => a.kind !== 'note');
  for (const a of actions) if (!values.quiet || a.kind === 'note') say(describeAction(a, dry));
  if (changes.length === 0 && !values.quiet) say('memlint install: already installed; nothing changed');
  if (!dry) {
    for (const p of applyActions(wt, actions)) io.stderr.write(`memlint: ${p}\n`);
    if (changes.length > 0 && !values.quiet) say(`memlint install: done; "memlint doctor" checks that everything is active`);
    // A fresh clone's memory files carry the clone's time until a checkout: give them their dates now.
    const touched = await touchMemory(wt.repository, io.env, io.stderr, values.config, found);
    if (touched && !values.quiet) say(touched);
  }
  if (typeof decided === 'string') {
    say(`memlint link: not linked: ${decided}`);
    return EXIT_OK;
  }
  if (decided) {
    const state = await linkState(wt.root, io.env, homeOf(io.env));
    const outcome = await linkCheckout(state, homeOf(io.env), dry);
    if (!(values.quiet && state.linked)) say(outcome.line);
    return values.link && !outcome.linked ? EXIT_FOUND : EXIT_OK;
  }
  if (!values.local && !values.quiet && !linkedAlready(wt.root)) {
    say('Claude Code keeps its auto memory outside the repository unless told otherwise: "memlint install --link" records that the team shares the committed memory folder and links every checkout ("memlint link" links this one only)');
  }
  return EXIT_OK;
}

/** Set every memory file's mtime from its "modified" or last commit (memlint touch); the line to print, or null. */
async function touchMemory(repository: Repository, env: NodeJS.ProcessEnv, stderr: Output, configFile: string | undefined, found: DiscoveredMemdir[] | undefined): Promise<string | null> {
  const { root } = repository;
  try {
    const dirs = (found ?? (await findRepoMemdirs(repository, env, configFile, stderr))).filter((d) => !d.onlyFiles).map((d) => d.dir);
    if (dirs.length === 0) return null;
    const set = applyTouch(planTouch(dirs, { cwd: root, env }, repository), env, false).filter((o) => o.done === 'set').length;
    return set > 0 ? `memory mtimes: set ${set} from their "modified" or last commit, as "memlint touch" does (Claude Code ages memories by mtime)` : null;
  } catch (err) {
    return `memory mtimes: left as they are (${(err as Error).message.split('\n')[0]})`;
  }
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
