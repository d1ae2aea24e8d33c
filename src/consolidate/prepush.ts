// `memlint consolidate --pre-push`: the pre-push hook's mode.
//
// pre-push reads git's pre-push stdin and looks at the commits being pushed. It refuses (exit 1) a
// push whose memory files hold conflict markers or a secret, what the pre-commit hook never saw
// (`--no-verify`, the commits a rebase, merge or cherry-pick makes); then, when a memdir the push
// touches is due for consolidation, it says so in one line and lets the push go on. Stopping the
// push stays an opt-in (config consolidate.onPush "check": say so and stop; "block": consolidate,
// commit `memory: consolidate`, and stop, since a commit made in pre-push is not part of that push).
//
// post-commit is src/consolidate/post-commit.ts. A push with no memory in it is answered by the
// launcher (src/launcher.ts) with a git call or two.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig, type LoadedConfig } from '../config.js';
import { isConfigError } from '../errors.js';
import { resolveRef } from '../git/refs.js';
import { resolveRules, runToday } from '../lint/engine.js';
import { lintPushed } from '../lint/pushed.js';
import { foldersOfChanged, hookMemdirs } from './select.js';
import { NO_PUSHED_MEMORY, pushSource, type PushSource } from './push-range.js';
import { consolidateDue } from './run.js';
import { debugWriter, type Io } from '../io.js';
import { shellPath } from '../shell.js';

// git hands the pushed refs on the hook's stdin (fd 0); the launcher reads them first and hands them as `push`.
function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
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
  // A config memlint cannot use (unreadable, an unknown rule, a folder outside the repository) is
  // no reason to stop a push, nor to let conflict markers or a secret through: those are checked
  // with the default settings, and nothing is consolidated.
  let broken: string | null = null;
  const defaults = (err: unknown): LoadedConfig => {
    if (!isConfigError(err)) throw err;
    broken ??= (err as Error).message.split('\n')[0]!;
    return { config: {}, file: null, dir: root };
  };
  let loaded: LoadedConfig;
  try {
    loaded = await loadConfig({ cwd: opts.io.cwd, file: opts.configFile, stderr: opts.io.stderr });
  } catch (err) {
    loaded = defaults(err);
  }
  let rules: ReturnType<typeof resolveRules>;
  try {
    rules = resolveRules(loaded.config.rules);
  } catch (err) {
    loaded = defaults(err);
    rules = resolveRules(loaded.config.rules);
  }
  let selected: ReturnType<typeof hookMemdirs>;
  try {
    selected = hookMemdirs(at, folders, loaded, push.repo);
  } catch (err) {
    loaded = defaults(err);
    selected = hookMemdirs(at, folders, loaded, push.repo);
  }
  if (selected.length === 0) return brokenConfig(broken, opts.io);
  const memdirs = selected.map((d) => d.dir);

  // What the pre-commit hook never saw: conflict markers and secrets in any pushed commit.
  const findings = await lintPushed(at, updates, memdirs, rules, runToday(opts.io.env), debugWriter(opts.io));
  if (findings.length > 0) {
    for (const f of findings) {
      opts.io.stderr.write(`${f.file}:${f.message.line}:${f.message.column}: ${f.message.message} [${f.message.ruleId}] (commit ${f.commit.slice(0, 7)})\n`);
    }
    const markers = findings.some((f) => f.message.ruleId === 'no-conflict-markers');
    const secrets = findings.some((f) => f.message.ruleId === 'no-secrets');
    const fix = [markers ? 'settle each conflict ("memlint resolve FILE" or by hand; a stray marker line, by deleting it)' : '', secrets ? 'remove each secret (and rotate it)' : ''].filter(Boolean).join(' and ');
    opts.io.stderr.write(`memlint: nothing was pushed: pushed memory holds ${[markers ? 'conflict markers' : '', secrets ? 'a secret' : ''].filter(Boolean).join(' and ')} (above); ${fix}, then amend the commit named (or "git rebase -i" an earlier one) and push again\n`);
    return 1;
  }

  if (broken !== null) return brokenConfig(broken, opts.io);
  // The worktree is what gets consolidated: only a push of the checked-out commit is about it.
  const head = resolveRef(at, 'HEAD')?.commit ?? null;
  if (head === null || !updates.some((u) => u.localSha === head)) return 0;
  const onPush = onPushOf(loaded);
  let outcome: Awaited<ReturnType<typeof consolidateDue>>;
  try {
    outcome = await consolidateDue(root, selected, loaded, onPush === 'block' ? 'commit' : 'list', opts.io);
  } catch (err) {
    if (!isConfigError(err)) throw err;
    return brokenConfig((err as Error).message.split('\n')[0]!, opts.io);
  }
  const { committed, due } = outcome;
  if (committed.length > 0) {
    // git computed what to send before this hook ran, and a failing pre-push stops the whole push.
    opts.io.stderr.write(`memlint: nothing was pushed: the memory was due, so memlint committed "memory: consolidate" ${committed.join(', ')} on top of your commits; push again to send them all\n`);
    return 1;
  }
  if (due.length === 0) return 0;
  const target = due.map((a) => shellPath(resolve(root, a) === root ? '.' : a)).join(' ');
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
