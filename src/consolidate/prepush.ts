// `memlint consolidate --pre-push` and `--post-commit`: the hooks' modes.
//
// pre-push reads git's pre-push stdin and looks at the commits being pushed. It refuses (exit 1) a
// push whose memory files hold conflict markers or a secret, what the pre-commit hook never saw
// (`--no-verify`, the commits a rebase, merge or cherry-pick makes); then, when a memdir the push
// touches is due for consolidation, it says so in one line and lets the push go on. Stopping the
// push stays an opt-in (config consolidate.onPush "check": say so and stop; "block": consolidate,
// commit `memory: consolidate`, and stop, since a commit made in pre-push is not part of that push).
//
// post-commit consolidates: after a commit that changes memory, a due memdir is consolidated and
// committed as `memory: consolidate` right after it, so the memory a later push sends has been
// consolidated when due (docs/consolidate.md says why it is done there). Never during a rebase,
// merge, cherry-pick or revert, nor on a detached HEAD, and never with uncommitted memory edits.
//
// A push or commit with no memory in it is answered by the launcher (src/launcher.ts) with a git
// call or two.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig, type LoadedConfig } from '../config.js';
import { filesOfCommit } from '../git/history.js';
import { worktreeState } from '../git/progress.js';
import { resolveRef } from '../git/refs.js';
import { repository } from '../git/repo.js';
import { uncommittedPaths } from '../git/status.js';
import { commitPaths, LOCAL_STATE, restorePaths } from '../git/write.js';
import type { DiscoveredMemdir } from '../memdir/discover.js';
import { resolveRules, runToday } from '../lint/engine.js';
import { lintPushed } from '../lint/pushed.js';
import { loadDateFinder } from './date-finder.js';
import { excluded, foldersOfChanged, hookMemdirs } from './select.js';
import { makeLint } from './lint-check.js';
import * as lock from './lock.js';
import { NO_PUSHED_MEMORY, pushSource, type PushSource } from './push-range.js';
import * as run from './run.js';
import { agentCommand, ignoredCommandWarning, resolveSettings, type Settings } from './settings.js';
import { slashRelative } from '../fs/paths.js';
import { debugWriter, type Io } from '../io.js';

// git hands the pushed refs on the hook's stdin (fd 0); the launcher reads them first and hands them as `push`.
function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

interface DueResult {
  /** `<sha7> (<memdir>)` of each consolidation committed. */
  committed: string[];
  /** Memdirs (repository-relative) due and with something to change, left as they are. */
  due: string[];
  failures: string[];
}

/**
 * Each memdir that is due (gates open, not excluded, no uncommitted edits) and that consolidation
 * would change: consolidated and committed as `memory: consolidate` when `act` is 'commit', else
 * only listed. Settings are resolved for every memdir first: config naming a folder outside the
 * repository stops here (exit 2) before anything is written.
 */
async function settleDue(root: string, memdirs: DiscoveredMemdir[], loaded: LoadedConfig, act: 'commit' | 'list', io: Pick<Io, 'env' | 'stderr'>): Promise<DueResult> {
  const { config } = loaded;
  const rel = (p: string) => slashRelative(root, p) || '.';
  const command = act === 'commit' ? agentCommand(root) : undefined;
  const planned: Array<{ dir: string; settings: Settings }> = memdirs.filter((d) => !excluded(d.dir, loaded)).map((d) => ({ dir: d.dir, settings: resolveSettings(config.consolidate, d.dir, command, root) }));
  const result: DueResult = { committed: [], due: [], failures: [] };
  if (planned.length === 0) return result;
  const ignored = ignoredCommandWarning(config.consolidate, loaded.file);
  if (ignored) io.stderr.write(`${ignored}\n`);
  const lint = makeLint(config.rules, root, debugWriter(io));
  const findDates = await loadDateFinder();
  const now = Date.now();
  for (const { dir, settings } of planned) {
    const m = { dir, repoRoot: root };
    // A symlink where the memdir, its archive or its lock should be: reported, left alone, read through never.
    const refused = run.refusalFor(m, settings);
    if (refused) {
      result.failures.push(`${rel(dir)}: ${refused}`);
      continue;
    }
    if (!run.gatesFor(m, settings, now).open) continue;
    const paths = [rel(dir), ...(existsSync(settings.archiveDir) ? [rel(settings.archiveDir)] : [])];
    if (uncommittedPaths(root, { pathspec: [...paths, ...LOCAL_STATE] }).length > 0) {
      io.stderr.write(`memlint: skipped consolidating ${rel(dir)}: it has uncommitted changes\n`);
      continue;
    }
    // The gates are open: planned once, as `memlint consolidate` plans (under the lock when it applies).
    const prior = lock.readLastConsolidatedAt(dir);
    const outcome = await run.consolidateMemdir(m, { mode: act === 'list' ? 'check' : 'apply', force: true, prune: false, settings, now, findDates, lint, onlyIfPlanned: true, io });
    if (act === 'list') {
      if (outcome.status === 'would-change') result.due.push(rel(dir));
      continue;
    }
    if (outcome.status !== 'consolidated') {
      if (outcome.status === 'failed') result.failures.push(`${rel(dir)}: ${outcome.message}`);
      continue;
    }
    const committedPaths = [rel(dir), ...(existsSync(settings.archiveDir) ? [rel(settings.archiveDir)] : [])];
    try {
      const sha = commitPaths(root, 'memory: consolidate', committedPaths);
      lock.recordConsolidation(dir);
      result.committed.push(`${sha.slice(0, 7)} (${rel(dir)})`);
    } catch (err) {
      restorePaths(root, committedPaths);
      lock.rollbackLock(dir, prior);
      result.failures.push(`${rel(dir)}: could not commit the consolidation (${(err as Error).message.split('\n')[0]}); nothing was left changed`);
    }
  }
  if (result.failures.length > 0) io.stderr.write(`memlint: consolidation failed for ${result.failures.join('; ')}\n`);
  return result;
}

/** What config consolidate.onPush asks of a push while consolidation is due (docs/consolidate.md). */
export type OnPush = 'advise' | 'check' | 'block';

/** `push`: what the launcher (dist/cli.js) read of git's pre-push stdin; without it, stdin is read here. */
export async function prePush(opts: { io: Io; configFile?: string; push?: PushSource }): Promise<number> {
  if (opts.io.env.HUSKY === '0') return 0;
  const push = opts.push ?? pushSource(opts.io.cwd, readStdin());
  if (push === NO_PUSHED_MEMORY) return 0;
  const { updates, changed } = push;
  const root = push.repo.root;
  const folders = foldersOfChanged(root, changed);
  if (folders.length === 0) return 0;
  const loaded = await loadConfig({ cwd: opts.io.cwd, file: opts.configFile });
  const selected = hookMemdirs(root, folders, loaded);
  if (selected.length === 0) return 0;
  const memdirs = selected.map((d) => d.dir);

  // What the pre-commit hook never saw: conflict markers and secrets in any pushed commit.
  const findings = await lintPushed(root, updates, memdirs, resolveRules(loaded.config.rules), runToday(opts.io.env), debugWriter(opts.io));
  if (findings.length > 0) {
    for (const f of findings) {
      opts.io.stderr.write(`${f.file}:${f.message.line}:${f.message.column}: ${f.message.message} [${f.message.ruleId}] (commit ${f.commit.slice(0, 7)})\n`);
    }
    const markers = findings.some((f) => f.message.ruleId === 'no-conflict-markers');
    const secrets = findings.some((f) => f.message.ruleId === 'no-secrets');
    const fix = [markers ? 'settle each conflict ("memlint resolve FILE" or by hand)' : '', secrets ? 'remove each secret (and rotate it)' : ''].filter(Boolean).join(' and ');
    opts.io.stderr.write(`memlint: nothing was pushed: pushed memory holds ${[markers ? 'conflict markers' : '', secrets ? 'a secret' : ''].filter(Boolean).join(' and ')} (above); ${fix}, then amend the commit named (or "git rebase -i" an earlier one) and push again\n`);
    return 1;
  }

  // The worktree is what gets consolidated: only a push of the checked-out commit is about it.
  const head = resolveRef(root, 'HEAD')?.commit ?? null;
  if (head === null || !updates.some((u) => u.localSha === head)) return 0;
  const onPush = onPushOf(loaded);
  const { committed, due } = await settleDue(root, selected, loaded, onPush === 'block' ? 'commit' : 'list', opts.io);
  if (committed.length > 0) {
    // git computed what to send before this hook ran, and a failing pre-push stops the whole push.
    opts.io.stderr.write(`memlint: nothing was pushed: the memory was due, so memlint committed "memory: consolidate" ${committed.join(', ')} on top of your commits; push again to send them all\n`);
    return 1;
  }
  if (due.length === 0) return 0;
  const target = due.map((a) => (resolve(root, a) === root ? '.' : a)).join(' ');
  if (onPush === 'check') {
    opts.io.stderr.write(`memlint: nothing was pushed: ${due.join(', ')} needs consolidation: run "memlint consolidate ${target}", commit it as "memory: consolidate", then push again\n`);
    return 1;
  }
  opts.io.stderr.write(`memlint: ${due.join(', ')} is due for consolidation and was pushed as it is; run "memlint consolidate ${target}" and commit it as "memory: consolidate" (the post-commit hook does so after your next memory commit)\n`);
  return 0;
}

function onPushOf(loaded: LoadedConfig): OnPush {
  const v = loaded.config.consolidate?.onPush;
  // "consolidate", the default before v3, consolidates as the default does now: after the commit.
  return v === 'check' || v === 'block' ? v : 'advise';
}

/**
 * `consolidate --post-commit`: after a commit on a branch that changed memory, each due memdir it
 * touched is consolidated and committed as `memory: consolidate`. Never fails the commit: git
 * ignores post-commit's exit code, and problems are one line each.
 */
export async function postCommit(opts: { io: Io; configFile?: string }): Promise<number> {
  if (opts.io.env.HUSKY === '0') return 0;
  const repo = repository(opts.io.cwd, opts.io);
  if (repo === null) return 0;
  const root = repo.root;
  let changed: string[];
  try {
    changed = filesOfCommit(root, 'HEAD');
  } catch {
    return 0;
  }
  const folders = foldersOfChanged(root, changed);
  if (folders.length === 0) return 0;
  // A rebase, merge, cherry-pick or revert replays commits on a detached HEAD or is not concluded:
  // a commit of memlint's own in between would be replayed over, or change what is being settled.
  const state = await worktreeState(root, opts.io);
  if (state === null || state.operation !== null || state.branch === null) return 0;
  const loaded = await loadConfig({ cwd: opts.io.cwd, file: opts.configFile });
  if (loaded.config.consolidate?.onCommit === 'off') return 0;
  const memdirs = hookMemdirs(root, folders, loaded);
  if (memdirs.length === 0) return 0;
  const { committed } = await settleDue(root, memdirs, loaded, 'commit', opts.io);
  if (committed.length > 0) opts.io.stderr.write(`memlint: the memory was due, so memlint committed "memory: consolidate" ${committed.join(', ')} after your commit\n`);
  return 0;
}
