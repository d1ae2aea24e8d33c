// `memlint doctor`: one line per part, saying whether it is really active in this worktree.
import { parse } from './args.js';
import { EXIT_FOUND, EXIT_OK } from '../errors.js';
import { worktreeOf } from '../install/setup.js';
import { coveredMemdirs, repoMemdirs } from '../install/memdirs.js';
import { discoverMemdirs } from '../memdir/discover.js';
import * as d from '../install/doctor.js';
import * as claude from '../install/claude-settings.js';
import type { Io } from '../io.js';

const HELP = `Usage: memlint doctor [--json] [--config FILE]

Checks, for this worktree, that each part memlint relies on is really active, one line each:
  config        the config file is one memlint can use (a FAIL names the key and the values
                allowed); a "warn" line names keys and rule options nothing reads
  memory folder (only when one is a symlink out of the repository: a FAIL naming it; memlint
                does not follow it, so nothing there is linted, merged or consolidated)
  hooks         core.hooksPath is husky's .husky/_, its stubs exist in this worktree (linked
                worktrees do not share them), the .husky hooks run memlint, and they and the
                prepare script are this version's (an upgrade leaves an older install's)
  merge driver  merge.memlint.driver is defined in git config, not just named in .gitattributes
                (a name without a definition silently falls back to a text merge)
  attributes    .gitattributes routes every memdir's files to merge=memlint
  lock          <memdir>/.consolidate-lock is git-ignored
  memlint       git's shell can start memlint (and node) from this worktree
  claude hooks  .claude/settings.json runs "memlint hook" after Write|Edit and at SessionStart
                (when "memlint install --claude" added them) and memlint is installed here
  link          Claude Code in this checkout uses the repository's committed memory folder
                (.claude/memory, or the config's "link"): an error naming both folders when it
                resolves another, with the fix ("memlint install --local"); a person's opt-out
                (git config memlint.link false, MEMLINT_LINK=0) is reported, not failed
  stray stores  no other Claude Code memory store of this repository holds memory that is not
                in use ("memlint where --all" lists them, "memlint adopt" brings them in;
                a store linking already adopted counts only for what was written to it since)
Each failing line ends with the command that fixes it. Exit 1 when something is not active.

Options:
  --json         machine-readable output
  --config FILE  use this config file (for memoryDirs)
  -h, --help     show this help
`;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, { json: { type: 'boolean' }, config: { type: 'string' } }, 'doctor', { positionals: false });
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const wt = worktreeOf(io);
  const config = await d.checkConfig(wt.root, values.config);
  // A memory folder that is a symlink out of the repository: a FAIL line of its own, and no other
  // check looks through it (git itself refuses a path beyond a symlink).
  const symlinked: string[] = [];
  const onSymlinked = (rel: string) => symlinked.push(rel);
  // A config every command refuses: the memdirs as discovery finds them without it.
  const found = config.ok ? await repoMemdirs(wt.repository, io.env, values.config, io.stderr, onSymlinked) : coveredMemdirs(wt.root, discoverMemdirs({ cwd: wt.root, env: io.env, repository: wt.repository, onSymlinked, notCheckedOut: { include: true } }));
  const beyond = (m: string) => symlinked.some((s) => m === s || m.startsWith(`${s}/`));
  const memdirs = found.filter((m) => !beyond(m));
  const memdirChecks = symlinked.length > 0 ? [d.checkSymlinkedMemdirs(symlinked)] : [];
  const fileChecks = memdirs.length > 0 || symlinked.length === 0 ? [d.checkAttributes(wt, memdirs), d.checkLockIgnored(wt, memdirs)] : [];
  const checks = d.afterSymlinkedMemdirs([config, ...memdirChecks, d.checkHooks(wt, memdirs), d.checkDriver(wt), ...fileChecks, d.checkResolvable(wt), claude.checkClaudeHooks(wt), await claude.checkLink(wt), claude.checkStrayStores(wt)], symlinked);
  if (values.json) io.stdout.write(JSON.stringify({ worktree: wt.root, ok: checks.every((c) => c.ok), checks }, null, 2) + '\n');
  else for (const c of checks) io.stdout.write(d.formatCheck(c) + '\n');
  return checks.every((c) => c.ok) ? EXIT_OK : EXIT_FOUND;
}
