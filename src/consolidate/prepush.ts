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
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig, type LoadedConfig } from '../config.js';
import { isConfigError } from '../errors.js';
import { filesOfCommit } from '../git/history.js';
import { worktreeState, type WorktreeState } from '../git/progress.js';
import { resolveRef } from '../git/refs.js';
import type { DiscoveredMemdir } from '../memdir/discover.js';
import { resolveRules, runToday } from '../lint/engine.js';
import { lintPushed } from '../lint/pushed.js';
import { excluded, foldersOfChanged, hookMemdirs } from './select.js';
import { NO_PUSHED_MEMORY, pushSource, type PushSource } from './push-range.js';
import { consolidateEach } from './run.js';
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
}

/**
 * The memdirs (not excluded) that are due and that consolidation would change, through
 * consolidate's own run on memory as committed: consolidated and committed as `memory:
 * consolidate` when `act` is 'commit', else only listed. Each skip and failure is one line.
 */
async function consolidateDue(root: string, memdirs: DiscoveredMemdir[], loaded: LoadedConfig, act: 'commit' | 'list', io: Io): Promise<DueResult> {
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

/** What config consolidate.onPush asks of a push while consolidation is due (docs/consolidate.md). */
export type OnPush = 'advise' | 'check' | 'block';

/** `push`: what the launcher (dist/cli.js) read of git's pre-push stdin; without it, stdin is read here. */
export async function prePush(opts: { io: Io; configFile?: string; push?: PushSource }): Promise<number> {
  if (opts.io.env.HUSKY === '0') return 0;
  const push = opts.push ?? pushSource(opts.io, readStdin());
  if (push === NO_PUSHED_MEMORY) return 0;
  const { updates, changed } = push;
  const root = push.repo.root;
  const folders = foldersOfChanged(root, changed);
  if (folders.length === 0) return 0;
  const at = { cwd: root, env: opts.io.env };
  // A config memlint cannot use is no reason to stop a push, nor to let conflict markers or a
  // secret through: those are checked with the default settings, and nothing is consolidated.
  let broken: string | null = null;
  let loaded: LoadedConfig;
  try {
    loaded = await loadConfig({ cwd: opts.io.cwd, file: opts.configFile, stderr: opts.io.stderr });
  } catch (err) {
    if (!isConfigError(err)) throw err;
    broken = (err as Error).message.split('\n')[0]!;
    loaded = { config: {}, file: null, dir: root };
  }
  const selected = hookMemdirs(at, folders, loaded, push.repo);
  if (selected.length === 0) return brokenConfig(broken, opts.io);
  const memdirs = selected.map((d) => d.dir);

  // What the pre-commit hook never saw: conflict markers and secrets in any pushed commit.
  const findings = await lintPushed(at, updates, memdirs, resolveRules(loaded.config.rules), runToday(opts.io.env), debugWriter(opts.io));
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

  if (broken !== null) return brokenConfig(broken, opts.io);
  // The worktree is what gets consolidated: only a push of the checked-out commit is about it.
  const head = resolveRef(at, 'HEAD')?.commit ?? null;
  if (head === null || !updates.some((u) => u.localSha === head)) return 0;
  const onPush = onPushOf(loaded);
  const { committed, due } = await consolidateDue(root, selected, loaded, onPush === 'block' ? 'commit' : 'list', opts.io);
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

/** The one line a push with an unusable config gets (exit 0: git goes on); 0 when the config was fine. */
function brokenConfig(message: string | null, io: Io): number {
  if (message !== null) io.stderr.write(`memlint: ${message}; the pre-push hook checked the pushed memory for conflict markers and secrets with the default settings, consolidated nothing, and let git go on (fix the config; "memlint doctor" checks it)\n`);
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
 * `committed`: the files of the commit, when the launcher has read them already.
 */
export async function postCommit(opts: { io: Io; configFile?: string; committed?: string[]; worktree?: WorktreeState }): Promise<number> {
  if (opts.io.env.HUSKY === '0') return 0;
  // Where the repository is and where its HEAD stands: one question, the launcher's when it asked.
  const repo = opts.worktree ?? worktreeState(opts.io);
  if (repo === null) return 0;
  const root = repo.root;
  const at = { cwd: root, env: opts.io.env };
  let changed: string[];
  try {
    changed = opts.committed ?? filesOfCommit(at, 'HEAD');
  } catch {
    return 0;
  }
  const folders = foldersOfChanged(root, changed);
  if (folders.length === 0) return 0;
  // A rebase, merge, cherry-pick or revert replays commits on a detached HEAD or is not concluded:
  // a commit of memlint's own in between would be replayed over, or change what is being settled.
  if (repo.operation !== null || repo.branch === null) return 0;
  const loaded = await loadConfig({ cwd: opts.io.cwd, file: opts.configFile, stderr: opts.io.stderr });
  if (loaded.config.consolidate?.onCommit === 'off') return 0;
  const memdirs = hookMemdirs(at, folders, loaded, repo);
  if (memdirs.length === 0) return 0;
  const { committed } = await consolidateDue(root, memdirs, loaded, 'commit', opts.io);
  if (committed.length > 0) opts.io.stderr.write(`memlint: the memory was due, so memlint committed "memory: consolidate" ${committed.join(', ')} after your commit\n`);
  return 0;
}
