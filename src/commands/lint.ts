// `memlint [lint] [PATH...]`: the linter. `--staged` with nothing memory-related staged is
// answered by the launcher (src/launcher.ts) before this module loads.
import { join, resolve as resolvePath } from 'node:path';
import { configWarnings, formatOf, loadConfig, type LoadedConfig } from '../config.js';
import { archiveDirOf } from '../consolidate/settings.js';
import { isConfigError, UsageError } from '../errors.js';
import { hookOf } from '../hook-name.js';
import { repository, type GitContext } from '../git/repo.js';
import { GitError } from '../git/run.js';
import { matcher } from '../glob.js';
import { PUSH_RULES } from '../lint/pushed.js';
import { lintMemdirs, resolveRules, ruleOptionWarnings, runToday, type EnabledRule, type FileResult } from '../lint/engine.js';
import { REPORTERS, type ReportContext } from '../lint/reporters/table.js';
import { writeChunks } from '../lint/reporters/output.js';
import { allRules } from '../lint/rules/all.js';
import { describeFormats, NEWEST_KNOWN } from '../memdir/format.js';
import { memoryIndexesFor, NO_MEMORY, stagedMemdirsFor, stagedSource, type StagedFacts, type StagedSource } from '../lint/staged.js';
import { settledByWorkingTree } from '../lint/worktree-settles.js';
import { stagedSnapshot } from '../memdir/staged-snapshot.js';
import * as discover from '../memdir/discover.js';
import { VERSION } from '../version.js';
import { parse } from './args.js';
import { LINT_OPTIONS } from './options.js';
import type { Given } from './given.js';
import { DEFAULT_FORMAT, FORMAT_NAMES, isFormatName, printsWhenEmpty, type FormatName } from '../lint/reporters/formats.js';
import { slashRelative } from '../fs/paths.js';
import { debugWriter, type Io, type Output } from '../io.js';

const HELP = `Usage: memlint [lint] [options] [PATH...]

Lint memory directories (folders holding MEMORY.md). With no PATH, every memdir in the
repository (tracked or untracked, not git-ignored, never under node_modules, a templates/ folder
or Claude Code's .claude/worktrees/) and those named by config "memoryDirs". A PATH may be a
memdir, a folder to search, or a single memory file.

Options:
  --fix                   apply surgical fixes to the files (bytes it does not mean to change stay)
  --staged                lint the staged blobs (what will be committed) of the memdirs the staged
                          change touches; exits at once when nothing staged is memory
  --format NAME           ${FORMAT_NAMES.map((n) => (n === DEFAULT_FORMAT ? `${n} (default)` : n)).join(', ')}
  --config FILE           use this config instead of searching upward for one
  --max-warnings N        exit 1 when there are more than N warnings (-1, the default: no limit)
  --quiet                 report errors only
  --rule ID=SEVERITY      set a rule to off, warn or error (repeatable)
  --list-memdirs          print the memory directories found, and why, then exit
  --color / --no-color    force colour on or off (default: on a TTY, unless NO_COLOR)
  -h, --help              show this help

Exit codes: 0 nothing wrong, 1 errors found (or too many warnings), 2 usage error or failure.
Rules: run "memlint lint --help --rules", or see docs/rules/ (one page a rule).
Claude Code's memory format by version (config "claudeCode", default ${NEWEST_KNOWN}): run
"memlint lint --help --formats" or see docs/format.md.
`;

/**
 * The staged change when the launcher has not made it: made here the same way, with git's
 * failure told as a usage error. null when nothing staged is memory.
 */
function readStagedSource(from: GitContext): StagedSource | null {
  try {
    const source = stagedSource(from);
    return source === NO_MEMORY ? null : source;
  } catch (err) {
    if (!(err instanceof GitError)) throw err;
    if (repository(from) === null) throw new UsageError('--staged needs a git repository');
    throw new UsageError(`cannot read the staged change: ${err.stderr.split('\n')[0]}`);
  }
}

/** What git says of the staged Markdown files when the StagedSource could not gather it: asked again here, synchronously. */
function stagedFactsNow(from: GitContext, md: string[]): StagedFacts {
  const root = repository(from)?.root ?? null;
  if (root === null) throw new UsageError('--staged needs a git repository');
  return { root, indexes: memoryIndexesFor({ cwd: root, env: from.env }, md), listings: new Map(), blobs: new Map(), headBlobs: new Map() };
}

/** Writes a report, as it is made: a report of many messages never exists as one string. */
async function writeReport(out: Output, format: FormatName, results: FileResult[], context: Omit<ReportContext, 'version'>): Promise<void> {
  await writeChunks(out, REPORTERS[format](results, { ...context, version: VERSION }));
}

/** Nothing to lint: machine formats still get a well-formed, empty report (ESLint prints []). */
async function emptyReport(format: FormatName, io: Io): Promise<number> {
  if (printsWhenEmpty(format)) await writeReport(io.stdout, format, [], { cwd: io.cwd, root: io.cwd, rules: [], color: false, fixHint: false });
  return 0;
}

export async function run(argv: string[], io: Io, given: Given = {}): Promise<number> {
  const { values, positionals } = parse(argv, LINT_OPTIONS, 'lint');
  if (values.help) {
    if (values.formats) {
      // The facts for the configured version (config claudeCode), marked; docs/format.md cites them.
      const loaded = await loadConfig({ cwd: io.cwd, ...(values.config ? { file: values.config } : {}), stderr: io.stderr });
      io.stdout.write(describeFormats(formatOf(loaded.config).version) + '\n');
      return 0;
    }
    if (values.rules) {
      const w = Math.max(...allRules.map((r) => r.id.length));
      io.stdout.write(
        allRules.map((r) => `${r.id.padEnd(w)}  ${r.defaultSeverity.padEnd(5)}  ${r.fixable ? 'fixable' : '       '}  ${r.description}`).join('\n') + '\n',
      );
      return 0;
    }
    io.stdout.write(HELP);
    return 0;
  }
  const format = values.format ?? DEFAULT_FORMAT;
  if (!isFormatName(format)) throw new UsageError(`unknown format "${format}"; use ${FORMAT_NAMES.join(', ')}`);
  let maxWarnings = -1;
  if (values['max-warnings'] !== undefined) {
    maxWarnings = Number(values['max-warnings']);
    if (!Number.isInteger(maxWarnings) || maxWarnings < -1) throw new UsageError('--max-warnings takes a whole number, or -1 for no limit');
  }
  const overrides: Record<string, string> = {};
  for (const r of values.rule ?? []) {
    const m = /^([\w-]+)=(off|warn|error|0|1|2)$/.exec(r);
    if (!m) throw new UsageError(`--rule takes ID=off|warn|error, got "${r}"`);
    overrides[m[1]!] = m[2]!;
  }
  if (values.staged && values.fix) {
    throw new UsageError('--fix works on the working tree, not on staged blobs: run "memlint --fix", then stage the result');
  }
  if (values.staged && positionals.length > 0) throw new UsageError('--staged takes no PATH: it lints what the staged change touches');

  const cwd = io.cwd;
  let stagedMemdirs: Array<{ dir: string; repoRoot: string; onlyFiles: Set<string>; changed: Set<string> }> | null = null;
  let prefetched: StagedFacts | null = null;
  let staleOnly: Set<string> | undefined;
  if (values.staged) {
    const source = given.staged ?? readStagedSource(io);
    const md = source ? source.paths.filter((p) => p.endsWith('.md')) : [];
    // Memory the change does not stage, read because it may name a path the change renames or deletes.
    const naming = source?.naming ?? [];
    if (!source || md.length + naming.length === 0) return emptyReport(format, io); // nothing staged is memory: the common case, answered at once
    prefetched = (await source.facts) ?? stagedFactsNow(io, [...md, ...naming]);
    stagedMemdirs = stagedMemdirsFor({ cwd: prefetched.root, env: io.env }, md, prefetched.indexes, naming);
    if (stagedMemdirs.length === 0) return emptyReport(format, io);
    staleOnly = new Set(naming.map((p) => join(prefetched!.root, p)));
  }

  // In the pre-commit hook a config memlint cannot use is no reason to stop the commit, nor to let
  // conflict markers or a secret through: those two rules are checked with the default settings
  // (as the pre-push hook checks them, src/consolidate/prepush.ts), and the rest is not linted.
  const hook = values.staged ? hookOf([], io.env) : null;
  let broken: string | null = null;
  let loaded: LoadedConfig;
  let rules: EnabledRule[];
  try {
    loaded = await loadConfig({ cwd, ...(values.config ? { file: values.config } : {}), stderr: io.stderr });
    rules = resolveRules(loaded.config.rules, overrides);
  } catch (err) {
    if (hook === null || !isConfigError(err)) throw err;
    broken = (err as Error).message.split('\n')[0]!;
    loaded = { config: {}, file: null, dir: prefetched?.root ?? cwd };
    rules = resolveRules(undefined).filter((r) => PUSH_RULES.includes(r.rule.id));
  }
  // What the config holds that nothing reads (a typo does nothing): said, never a failure.
  if (broken === null) for (const w of [...configWarnings(loaded), ...ruleOptionWarnings(loaded.config.rules).map((w) => `config ${loaded.file}: ${w}`)]) io.stderr.write(`memlint: warning: ${w}\n`);
  const isIgnored = matcher(loaded.config.ignore);
  const ignore = loaded.config.ignore?.length ? (abs: string) => isIgnored(slashRelative(loaded.dir, abs)) : undefined;

  let memdirs;
  if (stagedMemdirs) {
    // Only folders that discovery counts as memdirs (judged on what is staged): a MEMORY.md of
    // another agent's layout that links to nothing beside it must not block a commit that a
    // plain `memlint` run accepts. Claude Code's locations and config memoryDirs always count;
    // any other folder counts when its staged index links to a file beside it, which the engine
    // checks on the model it loads anyway.
    const { isClaudeLocation } = discover;
    const configured = new Set((loaded.config.memoryDirs ?? []).map((d) => resolvePath(loaded.dir, d)));
    memdirs = stagedMemdirs.map((d) => {
      const relDir = slashRelative(d.repoRoot, d.dir);
      if (isClaudeLocation(relDir)) return { ...d, reason: 'claude-location' as const };
      if (configured.has(d.dir)) return { ...d, reason: 'config' as const };
      return { ...d, reason: 'links' as const, confirmLinks: true };
    });
  } else {
    const { discoverMemdirs, relDirOf } = discover;
    const leftOut: string[] = [];
    memdirs = discoverMemdirs({ cwd, env: io.env, paths: positionals, memoryDirs: loaded.config.memoryDirs ?? [], configDir: loaded.dir, link: loaded.config.link, notCheckedOut: { onLeftOut: (rel) => leftOut.push(rel) } });
    // A sparse checkout that leaves a memory folder out: one line, and not an error (a monorepo's
    // CI job checks out the package it builds).
    if (leftOut.length > 0 && !values['list-memdirs']) io.stderr.write(`memlint: ${leftOut.length === 1 ? `${leftOut[0]} is` : `${leftOut.length} memory folders (${leftOut.join(', ')}) are`} outside this sparse checkout; not linted\n`);
    if (values['list-memdirs']) {
      for (const d of memdirs) io.stdout.write(`${relDirOf(d)}\t${d.reason}\n`);
      return 0;
    }
    if (memdirs.length === 0 && positionals.length === 0) {
      if (leftOut.length === 0) io.stderr.write('memlint: no memory folder found (a folder with MEMORY.md); nothing to lint\n');
      return emptyReport(format, io);
    }
  }

  const today = runToday(io.env);
  // The index as the launcher began reading it, read on as the run asks.
  const snapshot = prefetched ? stagedSnapshot({ cwd: prefetched.root, env: io.env }, prefetched) : null;
  // no-memory-loss looks for deleted memory in the archive too.
  const archiveDir = values.staged ? archiveDirOf : null;
  const run = await lintMemdirs({
    memdirs,
    env: io.env,
    rules,
    fix: !!values.fix,
    source: values.staged ? 'staged' : 'worktree',
    ignore,
    today,
    format: formatOf(loaded.config),
    debug: debugWriter(io),
    ...(snapshot ? { staged: snapshot } : {}),
    ...(staleOnly?.size ? { staleOnly } : {}),
    ...(archiveDir ? { archiveDir: (memdir: string) => archiveDir(loaded.config.consolidate, memdir) } : {}),
  });
  for (const why of run.refused) io.stderr.write(`memlint: not fixed: ${why}\n`);
  let results = run.results;
  if (values.quiet) {
    results = results.map((r) => ({ ...r, messages: r.messages.filter((m) => m.severity === 2), warningCount: 0, fixableWarningCount: 0 }));
  }
  const errors = results.reduce((n, r) => n + r.errorCount, 0);
  const warnings = results.reduce((n, r) => n + r.warningCount, 0);

  // CI formats name files from the repository's top, wherever memlint ran; stylish, for people, from here.
  const reportRoot = memdirs.find((d) => d.repoRoot)?.repoRoot ?? cwd;
  const color = values['no-color'] ? false : values.color ? true : !!io.stdout.isTTY && !io.env.NO_COLOR;
  const fixedSummary = values.fix && run.fixesApplied > 0 ? `Fixed ${run.fixesApplied} problem${run.fixesApplied === 1 ? '' : 's'} in ${run.filesFixed.length} file${run.filesFixed.length === 1 ? '' : 's'}.\n` : undefined;
  // Only stylish, for people, says which staged problems the working tree already fixes.
  const fixedInWorktree = format === 'stylish' && values.staged && errors + warnings > 0 ? await settledByWorkingTree(results, memdirs, rules, today, ignore, snapshot!, io.env) : undefined;
  await writeReport(io.stdout, format, results, { cwd, root: reportRoot, rules: rules.map((r) => r.rule), color, fixHint: !values.fix, fixedInWorktree, fixedSummary });
  if (broken !== null) {
    const checked = `the ${hook} hook checked the staged memory for conflict markers and secrets only, with the default settings`;
    io.stderr.write(`memlint: ${broken}; ${checked}${errors > 0 ? '' : ', and let git go on'} (fix the config; "memlint doctor" checks it)\n`);
  }
  if (errors > 0) return 1;
  if (maxWarnings >= 0 && warnings > maxWarnings) {
    if (format === 'stylish') io.stderr.write(`memlint: ${warnings} warning${warnings === 1 ? '' : 's'}, more than --max-warnings ${maxWarnings}\n`);
    return 1;
  }
  return 0;
}
