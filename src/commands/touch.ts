// memlint touch: give each memory file the mtime its content deserves (src/claude/touch.ts plans
// and sets them; this prints what was done).
import path from 'node:path';
import { parse } from './args.js';
import { UsageError } from '../errors.js';
import { loadConfig } from '../config.js';
import { repository } from '../git/repo.js';
import { discoverMemdirs } from '../memdir/discover.js';
import { applyTouch, planTouch, type TimeSource } from '../claude/touch.js';
import type { Io } from '../io.js';
import { hookOf } from '../hook-name.js';

const HELP = `Usage: memlint touch [MEMDIR...] [--dry-run] [--verbose]

Sets the modification time of every .md file of each memory folder (MEMORY.md, topic files and
daily logs) from its frontmatter "modified" timestamp (top level or under "metadata:"), else from
the date of the last commit that changed it. Claude Code ranks memories by mtime (only the 200
newest are recall candidates) and tells the agent how old each one is from it; clone, checkout
and merge make every file look new. Files changed since their last commit and without "modified"
keep their mtime. Symlinks are never followed. No file content is written; a second run changes
nothing. Changed mtimes are refreshed in git's index, so git does not take those files for
modified. While a rebase has commits left to replay, or a merge, cherry-pick or revert is not
concluded, it changes nothing (git holds its own view of the index then); the post-rewrite hook
runs it once a rebase has replayed its commits. "memlint install" runs it from the post-checkout, post-merge and
post-rewrite hooks, where it prints nothing unless something is wrong.

With no MEMDIR: every memory folder of the repository.

Options:
  --dry-run   print what would change, change nothing
  --verbose   print every file and where its time comes from
  -h, --help  show this help

Exit codes: 0 done, 2 usage error.
`;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { 'dry-run': { type: 'boolean' }, verbose: { type: 'boolean' } }, 'touch');
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const cwd = io.cwd;
  const loaded = await loadConfig({ cwd, stderr: io.stderr });
  const here = repository(io);
  const found = discoverMemdirs({ cwd, env: io.env, paths: positionals.length ? positionals : undefined, memoryDirs: loaded.config.memoryDirs, configDir: loaded.dir, repository: here });
  for (const d of found) if (d.onlyFiles) throw new UsageError(`touch works on memory folders; ${[...d.onlyFiles][0]} is a file`);
  const plan = planTouch(
    found.map((d) => d.dir),
    io,
    here,
  );
  const dry = !!values['dry-run'];
  // From a hook (post-checkout, post-merge, post-rewrite) nothing is said unless something is
  // wrong: what was set, or left for a rebase under way, is no news on every checkout.
  const quiet = hookOf(['touch'], io.env) !== null && !values.verbose && !dry;
  let changed = 0;
  const bySource: Record<TimeSource, number> = { modified: 0, commit: 0 };
  const lines: string[] = [];
  for (const w of plan.waiting) {
    lines.push(`memlint touch: a ${w.operation.kind} is under way in ${path.relative(cwd, w.root) || '.'}: mtimes left alone until it ends`);
  }
  const told = new Set<string>();
  for (const outcome of applyTouch(plan, io.env, dry)) {
    const item = outcome.item;
    if (item.refused && !told.has(item.skip!)) {
      told.add(item.skip!);
      io.stderr.write(`memlint touch: left alone: ${item.skip}\n`);
    }
    if (outcome.done === 'kept') {
      if (values.verbose) lines.push(`  kept     ${item.shown}: ${item.skip}`);
    } else if (outcome.done === 'ok') {
      if (values.verbose) lines.push(`  ok       ${item.shown}`);
    } else if (outcome.done === 'failed') {
      io.stderr.write(`memlint touch: cannot set the mtime of ${item.shown}: ${outcome.error}\n`);
    } else {
      changed++;
      bySource[item.source!]++;
      const when = new Date(item.targetMs!).toISOString();
      if (values.verbose || dry) lines.push(`  ${dry ? 'would set' : 'set     '} ${item.shown} -> ${when} (${item.source === 'modified' ? 'frontmatter "modified"' : 'last commit'})`);
    }
  }
  if (quiet) return 0;
  if (lines.length) io.stdout.write(lines.join('\n') + '\n');
  if (changed > 0 || values.verbose) {
    io.stdout.write(
      `memlint touch: ${dry ? 'would set' : 'set'} ${changed} mtime${changed === 1 ? '' : 's'} (${bySource.modified} from "modified", ${bySource.commit} from commits) in ${found.length} memory folder${found.length === 1 ? '' : 's'}\n`,
    );
  }
  return 0;
}
