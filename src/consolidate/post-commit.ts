// `memlint consolidate --post-commit`: after a commit that changes memory, a due memdir is
// consolidated and committed as `memory: consolidate` right after it, so the memory a later push
// sends has been consolidated when due (docs/consolidate.md says why it is done there). Never during
// a rebase, merge, cherry-pick or revert, nor on a detached HEAD, and never with uncommitted memory
// edits.
//
// It runs after every memory commit, and consolidation is seldom due: the gates are asked here
// (src/consolidate/due.ts), and the consolidation itself (run.ts: the plan, the writer, the lint
// and the date finder) is loaded only for a memdir that is due, or that must be refused aloud.
// A commit with no memory in it is answered by the launcher (src/launcher.ts).
import { loadConfig, type LoadedConfig } from '../config.js';
import { filesOfCommit } from '../git/history.js';
import { worktreeState, type WorktreeState } from '../git/progress.js';
import type { DiscoveredMemdir } from '../memdir/discover.js';
import type { Io } from '../io.js';
import { gatesFor, refusalFor } from './due.js';
import { excluded, foldersOfChanged, hookMemdirs } from './select.js';
import { consolidationBound, ignoredCommandWarning, resolveSettings } from './settings.js';

/**
 * After a commit on a branch that changed memory, each due memdir it touched is consolidated and
 * committed as `memory: consolidate`. Never fails the commit: git ignores post-commit's exit code,
 * and problems are one line each.
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
  const memdirs = hookMemdirs(at, folders, loaded, repo).filter((m) => !excluded(m.dir, loaded));
  if (memdirs.length === 0) return 0;
  if (!memdirs.some((m) => mayNeedRun(m, loaded, opts.io.env))) {
    // As consolidation's own run says it on every hook run: a branch's config would try it here.
    const ignored = ignoredCommandWarning(loaded.config.consolidate, loaded.file);
    if (ignored) opts.io.stderr.write(`${ignored}\n`);
    return 0;
  }
  const { consolidateDue } = await import('./run.js');
  const { committed } = await consolidateDue(root, memdirs, loaded, 'commit', opts.io);
  if (committed.length > 0) opts.io.stderr.write(`memlint: the memory was due, so memlint committed "memory: consolidate" ${committed.join(', ')} after your commit\n`);
  return 0;
}

/**
 * Whether consolidation's own run has anything to do or say for this memdir: it is due, or it is
 * refused (which the run reports), or its settings are wrong (which the run reports as it does for
 * `memlint consolidate`). One whose gates are closed has nothing.
 */
function mayNeedRun(m: DiscoveredMemdir, loaded: LoadedConfig, env: NodeJS.ProcessEnv): boolean {
  try {
    const settings = resolveSettings(loaded.config.consolidate, m.dir, undefined, consolidationBound(m.dir, m.repoRoot));
    return refusalFor(m, settings) !== null || gatesFor(m, settings, Date.now(), env).open;
  } catch {
    return true;
  }
}
