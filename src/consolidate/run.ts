// Consolidating memdirs, one loop (`consolidateEach`) for `memlint consolidate` and its hook
// modes; each memdir: snapshot -> plan (pure) -> gates -> lock -> writer -> agent step (-> commit,
// for the hooks).
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadMemdir } from '../memdir/read.js';
import { holdsConflictMarkers } from '../memdir/lines.js';
import { createRepoFacts } from '../lint/repo-facts.js';
import type { ConsolidateFacts, StepContext } from './types.js';
import { ARCHIVE_INDEX } from '../memdir/kinds.js';
import { planConsolidation, type Plan } from './plan.js';
import type { RelativeDateFinder } from './dates.js';
import { applyPlan } from './apply.js';
import type { GateResult } from './gates.js';
import { gatesFor, refusalFor, type MemdirRef } from './due.js';
import { liveHolder, recordConsolidation, rollbackLock, tryAcquireLock } from './lock.js';
import { agentCommand, consolidationBound, ignoredCommandWarning, resolveSettings } from './settings.js';
import { deletionCommits, firstCommitTimes, lastCommitDates } from '../git/history.js';
import type { Settings } from './settings.js';
import { walkFiles } from '../fs/walk.js';
import { removeStaleTempFiles } from '../fs/atomic.js';
import { compareSnapshots, dreamPrompt, restoreSnapshot, runCommand, snapshotDir } from './agent.js';
import { localDay } from './text.js';
import { pathBelowRoot, slashRelative, withSlashes } from '../fs/paths.js';
import { uncommittedPaths } from '../git/status.js';
import { commitPaths, LOCAL_STATE, restorePaths } from '../git/write.js';
import type { LoadedConfig, RuleSetting } from '../config.js';
import { reportedSecrets } from '../content/secrets.js';
import { makeLint, type LintError } from './lint-check.js';
import { loadDateFinder } from './date-finder.js';
import { debugWriter, type Io } from '../io.js';
import type { DiscoveredMemdir } from '../memdir/discover.js';
import { excluded } from './select.js';
import type { GitContext } from '../git/repo.js';

export type { MemdirRef } from './due.js';

export type Mode = 'apply' | 'check' | 'dry-run';

/** no-secrets' allow-list as config gives it (its keys), or null when the rule is off. */
export type SecretAllow = ReadonlySet<string> | null;

/** no-secrets' allow-list from config rules: a secret it allows is not held back, and nothing is when it is off. */
export function secretAllowOf(rules: Record<string, RuleSetting> | undefined): SecretAllow {
  const setting = rules?.['no-secrets'];
  const severity = Array.isArray(setting) ? setting[0] : setting;
  if (severity === 'off' || severity === 0) return null;
  const options = Array.isArray(setting) ? setting[1] : undefined;
  const allow = options && Array.isArray(options.allow) ? options.allow : [];
  return new Set(allow.filter((a): a is string => typeof a === 'string'));
}

/**
 * The errors the agent brought in: those not already there before it ran (matched by file, rule
 * and message, since its edits move line numbers), so a memdir with an old error can still be
 * consolidated, and any new error rolls the agent back.
 */
export function newErrors(before: LintError[], after: LintError[]): LintError[] {
  const key = (e: LintError) => `${e.file}\0${e.ruleId}\0${e.message}`;
  const seen = new Map<string, number>();
  for (const e of before) seen.set(key(e), (seen.get(key(e)) ?? 0) + 1);
  return after.filter((e) => {
    const n = seen.get(key(e)) ?? 0;
    if (n > 0) {
      seen.set(key(e), n - 1);
      return false;
    }
    return true;
  });
}

export interface RunOptions {
  mode: Mode;
  force: boolean;
  prune: boolean;
  settings: Settings;
  now?: number;
  findDates?: RelativeDateFinder;
  /** no-secrets' allow-list (keys), or null when the rule is off; default: no key allowed. */
  secretAllow?: SecretAllow;
  /** Lint the memdir (for the agent step): its errors, empty when it passes. */
  lint?: (memdir: MemdirRef) => Promise<LintError[]>;
  /**
   * The hooks' run (--pre-push, --post-commit), on memory as committed: the gates are asked in
   * every mode, a memdir with uncommitted changes is skipped, a plan that changes nothing leaves
   * the lock as it was and runs no agent, and what is written is committed with this message.
   */
  hook?: { commit: string };
  /** The run's environment (MEMLINT_TODAY; the agent step's, with its own variables added) and where the agent's output goes. */
  io: Pick<Io, 'env' | 'stderr'>;
}

export type Status = 'consolidated' | 'unchanged' | 'would-change' | 'gates-closed' | 'skipped' | 'locked' | 'failed';

export interface Outcome {
  memdir: string;
  archiveDir: string;
  status: Status;
  gates: GateResult | null;
  plan: Plan | null;
  /** Files written or moved (absolute paths). */
  touched: string[];
  agent: { ran: boolean; exitCode: number | null; accepted: boolean; touched: string[]; problems: string[] } | null;
  message: string | null;
  /** The hooks' commit of what was written (its id), else null. */
  commit: string | null;
}

/** The run's day: MEMLINT_TODAY=YYYY-MM-DD (tests), else the local date. */
export function today(env: NodeJS.ProcessEnv): string {
  const pinned = env.MEMLINT_TODAY;
  if (pinned && /^\d{4}-\d{2}-\d{2}$/.test(pinned)) return pinned;
  return localDay(new Date());
}


/** `env`: the run's environment, which git runs with. */
export function makeFacts(m: MemdirRef, day: string, env: NodeJS.ProcessEnv): ConsolidateFacts {
  const root = m.repoRoot;
  const at = root ? { cwd: root, env } : null;
  const prefix = root ? withSlashes(relative(root, m.dir)) : '';
  const spec = prefix === '' ? '.' : prefix;
  const toMemdir = (map: Map<string, any>) => {
    const out = new Map();
    const p = prefix === '' ? '' : `${prefix}/`;
    for (const [k, v] of map) if (k.startsWith(p)) out.set(k.slice(p.length), v);
    return out;
  };
  const repo = at ? createRepoFacts(at, m.dir) : null;
  let first: Map<string, number> | undefined;
  let last: Map<string, string> | undefined;
  return {
    today: day,
    inGit: root !== null,
    lineDates: (rel, text) => (repo ? repo.lineDates({ path: join(m.dir, rel), rel, kind: 'topic', text }) : []),
    firstCommitTimes: () => (first ??= at ? toMemdir(firstCommitTimes(at, [spec])) : new Map()),
    lastCommitDates: () => (last ??= at ? toMemdir(lastCommitDates(at, [spec])) : new Map()),
    lostPaths: (refs) => (repo ? repo.lostPaths(refs) : new Map()),
    notCheckedOut: (rels) => {
      const left = repo?.notCheckedOut();
      return new Set(left && left.size > 0 ? rels.filter((r) => left.has(prefix ? `${prefix}/${r}` : r)) : []);
    },
    deletions: (rels) => (at ? toMemdir(deletionCommits(at, rels.map((r) => (prefix ? `${prefix}/${r}` : r)))) : new Map()),
  };
}

/** Read the memdir and compute its plan (no lock, no writes). */
/** A memory file holds conflict markers: nothing is consolidated until they are settled. */
export class MarkedMemoryError extends Error {}

export async function planFor(m: MemdirRef, settings: Settings, opts: { prune: boolean; findDates?: RelativeDateFinder; day: string; env: NodeJS.ProcessEnv; secretAllow?: SecretAllow }): Promise<Plan> {
  const day = opts.day;
  const { model } = loadMemdir(m.dir, { repoRoot: m.repoRoot });
  // A conflict the person has not settled is theirs: consolidation would copy its markers and
  // both sides into topics as if they were memory, as --fix would edit around them.
  const marked = model.files.find((f) => holdsConflictMarkers(f.text));
  if (marked) throw new MarkedMemoryError(`${marked.rel} holds conflict markers: settle them first ("memlint resolve"), then consolidate`);
  const files = new Map(model.files.map((f) => [f.rel, f.text]));
  // What no-secrets reports (unless it is off): never copied or moved by a step.
  const allow = opts.secretAllow === undefined ? new Set<string>() : opts.secretAllow;
  const secrets = allow === null ? undefined : await reportedSecrets(files.values(), allow);
  const archiveIndexPath = join(settings.archiveDir, ARCHIVE_INDEX);
  const archiveIndex = existsSync(archiveIndexPath) ? readFileSync(archiveIndexPath, 'utf8') : null;
  const label = m.repoRoot ? withSlashes(relative(m.repoRoot, m.dir)) : withSlashes(m.dir);
  const fromRoot = pathBelowRoot(m.repoRoot, m.dir);
  const ctx: StepContext = {
    facts: makeFacts(m, day, opts.env),
    allPaths: model.allPaths,
    // Anything already in the archive (a symlink too) is taken, never written over.
    archivePaths: new Set(walkFiles(settings.archiveDir, { withSymlinks: true })),
    archiveText: (rel) => {
      try {
        return readFileSync(join(settings.archiveDir, rel), 'utf8');
      } catch {
        return undefined;
      }
    },
    memdirLabel: label,
    ...(fromRoot !== undefined ? { fromRoot } : {}),
    staleDays: settings.staleDays,
    prune: opts.prune,
    ...(secrets && secrets.size > 0 ? { secrets } : {}),
  };
  return planConsolidation({ memdir: m.dir, archiveDir: settings.archiveDir, files, archiveIndex, ctx, findDates: opts.findDates });
}

export async function consolidateMemdir(m: MemdirRef, opts: RunOptions): Promise<Outcome> {
  const now = opts.now ?? Date.now();
  const base: Outcome = { memdir: m.dir, archiveDir: opts.settings.archiveDir, status: 'unchanged', gates: null, plan: null, touched: [], agent: null, message: null, commit: null };
  const refused = refusalFor(m, opts.settings);
  if (refused) return { ...base, status: 'failed', message: refused };
  if (!opts.force && (opts.mode === 'apply' || opts.hook)) {
    const gates = gatesFor(m, opts.settings, now, opts.io.env);
    base.gates = gates;
    if (!gates.open) return { ...base, status: 'gates-closed', message: `not due: ${gates.reason}; "--force" consolidates anyway` };
  }
  // A commit of memlint's own would take the person's uncommitted edits with it.
  if (opts.hook && m.repoRoot && uncommittedPaths({ cwd: m.repoRoot, env: opts.io.env }, { pathspec: [...ownPaths(m, opts.settings), ...LOCAL_STATE] }).length > 0) {
    return { ...base, status: 'skipped', message: 'it has uncommitted changes' };
  }
  if (opts.mode !== 'apply') {
    try {
      const plan = await planFor(m, opts.settings, { prune: opts.prune, findDates: opts.findDates, day: today(opts.io.env), env: opts.io.env, secretAllow: opts.secretAllow });
      return { ...base, plan, status: plan.ops.length > 0 ? 'would-change' : 'unchanged' };
    } catch (err) {
      if (err instanceof MarkedMemoryError) return { ...base, status: 'skipped', message: err.message };
      throw err;
    }
  }
  const holder = liveHolder(m.dir, now);
  if (holder !== null) return { ...base, status: 'locked', message: `being consolidated by process ${holder} (${m.dir}/.consolidate-lock); try again later` };
  const prior = tryAcquireLock(m.dir);
  if (prior === null) return { ...base, status: 'locked', message: `another process took ${m.dir}/.consolidate-lock first; try again later` };
  try {
    // Under the lock: the temporary files a killed run left behind go first.
    removeStaleTempFiles([m.dir, opts.settings.archiveDir]);
    const plan = await planFor(m, opts.settings, { prune: opts.prune, findDates: opts.findDates, day: today(opts.io.env), env: opts.io.env, secretAllow: opts.secretAllow });
    if (opts.hook && plan.ops.length === 0) {
      rollbackLock(m.dir, prior);
      return { ...base, plan };
    }
    const touched = applyPlan(plan, consolidationBound(m.dir, m.repoRoot));
    let agent: Outcome['agent'] = null;
    if (opts.settings.command) agent = await agentStep(m, opts, plan);
    const status: Status = touched.length > 0 || (agent?.accepted && agent.touched.length > 0) ? 'consolidated' : 'unchanged';
    const done: Outcome = { ...base, plan, touched, agent, status };
    return opts.hook && status === 'consolidated' && m.repoRoot ? commitOf(m, { cwd: m.repoRoot, env: opts.io.env }, opts.settings, opts.hook.commit, prior, done) : done;
  } catch (err) {
    rollbackLock(m.dir, prior);
    if (err instanceof MarkedMemoryError) return { ...base, status: 'skipped', message: err.message };
    return { ...base, status: 'failed', message: (err as Error).message.split('\n')[0]! };
  }
}

/** The memdir and its archive (when there is one), repository-relative: what the hooks commit. */
function ownPaths(m: MemdirRef, settings: Settings): string[] {
  const root = m.repoRoot!;
  return [slashRelative(root, m.dir) || '.', ...(existsSync(settings.archiveDir) ? [slashRelative(root, settings.archiveDir) || '.'] : [])];
}

/** Commit what a hook's run wrote; if git refuses, put it all back as HEAD has it and the lock as it was. */
function commitOf(m: MemdirRef, at: GitContext, settings: Settings, message: string, prior: number, done: Outcome): Outcome {
  const paths = ownPaths(m, settings);
  try {
    const commit = commitPaths(at, message, paths);
    recordConsolidation(m.dir);
    return { ...done, commit };
  } catch (err) {
    restorePaths(at, paths);
    rollbackLock(m.dir, prior);
    return { ...done, status: 'failed', message: `could not commit the consolidation (${(err as Error).message.split('\n')[0]}); nothing was left changed` };
  }
}

export interface EachOptions extends Pick<RunOptions, 'mode' | 'force' | 'prune' | 'hook'> {
  io: Pick<Io, 'cwd' | 'env' | 'stderr'>;
}

/**
 * Consolidate each memdir in turn: the one loop of `memlint consolidate` and of its hook modes.
 * Every memdir's settings are resolved first, so config naming a folder outside the repository
 * stops the run (exit 2) before any memdir is written.
 */
export async function consolidateEach(memdirs: MemdirRef[], loaded: LoadedConfig, opts: EachOptions): Promise<Outcome[]> {
  const { config } = loaded;
  const command = opts.mode === 'apply' ? agentCommand(opts.io) : undefined;
  const planned = memdirs.map((m) => ({ m, settings: resolveSettings(config.consolidate, m.dir, command, consolidationBound(m.dir, m.repoRoot)) }));
  if (planned.length === 0) return [];
  const ignored = ignoredCommandWarning(config.consolidate, loaded.file);
  // Said where a command could run (apply), and on every hook run: a push is where a branch's config would try it.
  if (ignored && (opts.mode === 'apply' || opts.hook)) opts.io.stderr.write(`${ignored}\n`);
  const lint = makeLint(config.rules, opts.io, debugWriter(opts.io));
  const findDates = await loadDateFinder();
  const now = Date.now();
  const outcomes: Outcome[] = [];
  const secretAllow = secretAllowOf(config.rules);
  for (const { m, settings } of planned) outcomes.push(await consolidateMemdir(m, { ...opts, settings, now, findDates, lint, secretAllow }));
  return outcomes;
}

async function agentStep(m: MemdirRef, opts: RunOptions, plan: Plan): Promise<NonNullable<Outcome['agent']>> {
  const before = snapshotDir(m.dir);
  const baseline = opts.lint ? await opts.lint(m) : [];
  const prompt = dreamPrompt(m.dir, plan.report.logs.untagged);
  const exitCode = await runCommand(opts.settings.command!, {
    cwd: m.repoRoot ?? m.dir,
    input: prompt,
    stderr: opts.io.stderr,
    env: { ...opts.io.env, MEMLINT_MEMDIR: m.dir, MEMLINT_ARCHIVE_DIR: opts.settings.archiveDir, MEMLINT_DREAM_PROMPT: prompt },
  });
  const after = snapshotDir(m.dir);
  const touched = compareSnapshots(before, after);
  const all = [...touched.changed, ...touched.created, ...touched.removed].sort();
  let problems: string[] = [];
  if (exitCode !== 0) problems = [`the agent command exited with code ${exitCode}`];
  else if (all.length > 0 && opts.lint) problems = newErrors(baseline, await opts.lint(m)).map((e) => `${e.file}:${e.line}:${e.column} ${e.ruleId} ${e.message}`);
  if (problems.length > 0 && all.length > 0) {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const refused = restoreSnapshot(m.dir, before, touched, join(opts.settings.archiveDir, 'rejected', stamp), consolidationBound(m.dir, m.repoRoot));
    problems.push(...refused.map((r) => `not restored: ${r}`));
  }
  return { ran: true, exitCode, accepted: problems.length === 0, touched: all, problems };
}

export interface DueResult {
  /** `<sha7> (<memdir>)` of each consolidation committed. */
  committed: string[];
  /** Memdirs (repository-relative) due and with something to change, left as they are. */
  due: string[];
}

/**
 * The memdirs (not excluded) that are due and that consolidation would change, through
 * consolidate's own run on memory as committed: consolidated and committed as `memory:
 * consolidate` when `act` is 'commit', else only listed. Each skip and failure is one line.
 */
export async function consolidateDue(root: string, memdirs: DiscoveredMemdir[], loaded: LoadedConfig, act: 'commit' | 'list', io: Io): Promise<DueResult> {
  const rel = (p: string) => slashRelative(root, p) || '.';
  const outcomes = await consolidateEach(
    memdirs.filter((d) => !excluded(d.dir, loaded)),
    loaded,
    { mode: act === 'list' ? 'check' : 'apply', force: false, prune: false, hook: { commit: 'memory: consolidate' }, io },
  );
  for (const o of outcomes) if (o.status === 'skipped') io.stderr.write(`memlint: skipped consolidating ${rel(o.memdir)}: ${o.message}\n`);
  // A log entry holding a secret stays where it is (never copied on by a commit of memlint's own): said, never shown.
  for (const o of outcomes) for (const w of o.plan?.report.logs.withheld ?? []) io.stderr.write(`memlint: ${rel(o.memdir)}/${w.log}:${w.line} holds a secret (${w.kind}); consolidation left it in the log: remove it from memory and rotate it\n`);
  const failures = outcomes.filter((o) => o.status === 'failed').map((o) => `${rel(o.memdir)}: ${o.message}`);
  if (failures.length > 0) io.stderr.write(`memlint: consolidation failed for ${failures.join('; ')}\n`);
  return {
    committed: outcomes.filter((o) => o.commit !== null).map((o) => `${o.commit!.slice(0, 7)} (${rel(o.memdir)})`),
    due: outcomes.filter((o) => o.status === 'would-change').map((o) => rel(o.memdir)),
  };
}
