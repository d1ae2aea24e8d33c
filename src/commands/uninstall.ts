// `memlint uninstall`: removes exactly what `memlint install` added.
import { parse } from './args.js';
import { EXIT_OK } from '../errors.js';
import { worktreeOf, planUninstall, applyActions, describeAction } from '../install/setup.js';
import { planClaudeUninstall } from '../install/claude-settings.js';
import { planLinkUninstall } from '../install/link-setting.js';
import type { Io } from '../io.js';

const HELP = `Usage: memlint uninstall [--dry-run] [--quiet]

Removes exactly what "memlint install" added: memlint's marked block from .gitattributes,
.gitignore and the .husky hooks (a file that held nothing else is removed), memlint's part of the
package.json prepare script (back to what it was), memlint's Claude Code hooks from
.claude/settings.json (every other key and hook stays), the merge driver from the local git config,
core.hooksPath when install had set it, hook stubs memlint wrote itself, the "link" setting that
install --link recorded, and this checkout's autoMemoryDirectory when it points into the
repository (as link and install --local set it). Everything else stays.

Options:
  --dry-run   print what it would do, change nothing
  --quiet     print nothing when all is well, as install --quiet
  -h, --help  show this help
`;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, { 'dry-run': { type: 'boolean' }, quiet: { type: 'boolean' } }, 'uninstall', { positionals: false });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const wt = worktreeOf(io);
  const actions = [...planUninstall(wt), ...planClaudeUninstall(wt), ...(await planLinkUninstall(wt.root, io.env))];
  const dry = !!values['dry-run'];
  for (const a of actions) if (!values.quiet || a.kind === 'note') io.stdout.write(`${describeAction(a, dry)}\n`);
  if (actions.length === 0 && !values.quiet) io.stdout.write('memlint uninstall: nothing of memlint installed here\n');
  if (!dry) applyActions(wt, actions);
  return EXIT_OK;
}
