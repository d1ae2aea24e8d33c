// `memlint consolidate [MEMDIR...]`: the deterministic part of Claude Code's dream, on demand or
// before a push (see docs/consolidate.md). Thin: options and output; the work is in src/consolidate.
import { parse } from './args.js';
import { CONSOLIDATE_OPTIONS } from './options.js';
import { escapeControls } from '../printable.js';
import { loadConfig } from '../config.js';
import { consolidationMemdirs } from '../consolidate/select.js';
import { EXIT_FOUND, EXIT_OK, EXIT_USAGE, UsageError } from '../errors.js';
import type { Given } from './given.js';
import type { Io } from '../io.js';

const HELP = `Usage: memlint consolidate [options] [MEMDIR...]

Distil daily logs into topic files, sync MEMORY.md with the topic files (orphans added, entries
whose file git shows deleted archived, entries whose file was never committed kept and reported,
duplicate entries settled, long entries shortened), merge duplicate topics, make relative dates
absolute, report stale project memories and enforce Claude Code's index limits. Runs under
<memdir>/.consolidate-lock, the lock Claude Code's auto-dream uses. Nothing is ever deleted: what
leaves the memdir moves to the archive folder (<memdir>-archive/, indexed by ARCHIVE.md).

Options:
  --check        exit 1 if consolidation would change anything; change nothing
  --dry-run      print the changes as a unified diff; change nothing
  --force        ignore the gates (24 h and 5 memory-changing commits since the last run);
                 never the lock
  --prune        move stale project memories to the archive (default: only report them)
  --json         machine-readable output on stdout
  --pre-push     the git pre-push hook's mode (reads git's pre-push stdin): refuses pushed
                 memory with conflict markers or a secret; says when consolidation is due
  --post-commit  the git post-commit hook's mode: after a commit that changed memory,
                 consolidates a due memory folder and commits "memory: consolidate"
  --config FILE  use this config file
  -h, --help     show this help

Config (consolidate.*): minHours (24), minCommits (5), staleDays (90), archiveDir (relative to
the memdir, default ../<name>-archive, inside the repository), onCommit ("consolidate" or
"off"), onPush ("advise": the push goes on with one line; "check": the push stops with the
advice; "block": memlint consolidates, commits and stops the push).
Agent step: only from your own git config, never from the repository:
  git config [--global] memlint.consolidateCommand '<command>'
runs with sh -c under the lock; its result must pass lint or is rolled back.
Exit codes: 0 done or nothing to do, 1 --check found changes / limits exceeded / pushed memory
holds conflict markers or a secret / onPush "check" or "block" stopped the push, 2 usage error
or failure.
`;

export async function run(argv: string[], io: Io, given: Given = {}): Promise<number> {
  const { values, positionals } = parse(argv, CONSOLIDATE_OPTIONS, 'consolidate');
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  const cwd = io.cwd;
  // One mode a run: the hook modes stand alone, as --check and --dry-run do.
  const modes = (['pre-push', 'post-commit', 'check', 'dry-run'] as const).filter((m) => values[m]);
  if (modes.length > 1) throw new UsageError(`use only one of ${modes.map((m) => `--${m}`).join(', ')} (see "memlint consolidate --help")`);
  // Each mode loads what it needs, here rather than at the top: the post-commit hook runs this
  // command after every memory commit, and when nothing is due it needs none of the rest.
  if (values['pre-push']) {
    const { prePush } = await import('../consolidate/prepush.js');
    return prePush({ io, configFile: values.config, ...(given.push ? { push: given.push } : {}) });
  }
  if (values['post-commit']) return (await import('../consolidate/post-commit.js')).postCommit({ io, configFile: values.config, ...(given.committed ? { committed: given.committed } : {}), ...(given.worktree ? { worktree: given.worktree } : {}) });

  const loaded = await loadConfig({ cwd, file: values.config, stderr: io.stderr });
  // Folders named on the command line are consolidated even when config excludes them.
  const memdirs = consolidationMemdirs(io, loaded, positionals);
  if (memdirs.length === 0) {
    if (values.json) io.stdout.write('{"memdirs":[]}\n');
    else io.stderr.write('memlint: no memory folder (a folder with MEMORY.md) found\n');
    return EXIT_OK;
  }
  const mode = values.check ? 'check' : values['dry-run'] ? 'dry-run' : 'apply';
  const [{ consolidateEach }, report, { maskSecrets, maskSecretsDeep, secretsOf }] = await Promise.all([
    import('../consolidate/run.js'),
    import('../consolidate/report.js'),
    import('../content/secrets.js'),
  ]);
  const outcomes = await consolidateEach(memdirs, loaded, { mode, force: !!values.force, prune: !!values.prune, io });
  // Nothing printed shows a secret (docs/security.md): the diff, the summary and the JSON are masked
  // against the secrets of every text the plans were made from or would write.
  const known = await secretsOf(outcomes.flatMap((o) => [...(o.plan?.sources ?? []), ...(o.plan?.ops ?? []).map((op) => (op.kind === 'write' ? op.after : op.text))]));
  const mask = (text: string) => maskSecrets(text, known);
  if (values.json) io.stdout.write(JSON.stringify({ memdirs: outcomes.map((o) => maskSecretsDeep(report.toJson(o), known)) }, null, 2) + '\n');
  else {
    if (mode === 'dry-run') for (const o of outcomes) if (o.plan) io.stdout.write(report.planDiff(o.plan, cwd, mask));
    const stream = mode === 'dry-run' ? io.stderr : io.stdout;
    for (const o of outcomes) for (const line of report.describe(o, cwd, !!values.prune)) stream.write(mask(line) + '\n');
  }
  if (outcomes.some((o) => o.status === 'failed')) {
    // An exit 2's one stderr line says why (the first failure's reason), not only that it failed.
    const failed = outcomes.filter((o) => o.status === 'failed');
    const why = mask(report.describe(failed[0]!, cwd, !!values.prune)[0] ?? '');
    const more = failed.length > 1 ? ` (and ${failed.length - 1} more memory folder${failed.length > 2 ? 's' : ''})` : '';
    if (!values.json) io.stderr.write(`memlint: ${escapeControls(why)}${more}; nothing was half-written\n`);
    return EXIT_USAGE;
  }
  const found = outcomes.some(
    (o) => o.status === 'would-change' && mode === 'check' || o.status === 'locked' || o.status === 'skipped' || (o.plan && !o.plan.report.limits.ok) || (o.agent && !o.agent.accepted),
  );
  return found ? EXIT_FOUND : EXIT_OK;
}
