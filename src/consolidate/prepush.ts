// `memlint consolidate --pre-push`: the hook's mode. Reads git's pre-push stdin, looks at the
// commits being pushed, and when a memdir they touch is due (gates open) and would change, either
// consolidates and commits `memory: consolidate` (then exits 1, which stops the whole push: a
// commit made in pre-push could not be part of it anyway, so push again), or with consolidate.onPush "check" only says so. It skips a
// memdir with uncommitted changes and never leaves uncommitted edits. One line, never a prompt.
// A push with no memory in its range is answered by the launcher (src/launcher.ts) with two git calls.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { loadConfig } from '../config.js';
import * as gitFacts from '../git/commits.js';
import { headCommit } from '../git/index.js';
import { isClaudeLocation, linksBeside, nearestMemdir } from '../memdir/discover.js';
import { loadDateFinder } from './date-finder.js';
import { excludedMemdir } from './exclude.js';
import { makeLint } from './lint-check.js';
import * as lock from './lock.js';
import { NO_PUSHED_MEMORY, pushSource, type PushSource } from './push-range.js';
import * as run from './run.js';
import { agentCommand, ignoredCommandWarning, resolveSettings } from './settings.js';
import { INDEX_FILE } from '../memdir/kinds.js';
import { agentMemoryScope } from '../memdir/format.js';

/** Memdirs (absolute) holding the changed Markdown files: the nearest folder above each with a MEMORY.md. */
export function memdirsOf(root: string, changed: string[]): string[] {
  const dirs = new Set<string>();
  for (const p of changed) {
    if (!p.endsWith('.md') || p.split('/').includes('node_modules')) continue;
    const dir = nearestMemdir(join(root, p), root);
    if (dir) dirs.add(dir);
  }
  return [...dirs].sort();
}

function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

/** `push`: what the launcher (dist/cli.js) read of git's pre-push stdin; without it, stdin is read here. */
export async function prePush(opts: { cwd: string; configFile?: string; push?: PushSource }): Promise<number> {
  if (process.env.HUSKY === '0') return 0;
  const push = opts.push ?? pushSource(opts.cwd, readStdin());
  if (push === NO_PUSHED_MEMORY) return 0;
  const { updates, changed } = push;
  const root = push.repo.root;
  // A folder with a MEMORY.md is memory when discovery would say so: a Claude Code location, or an
  // index that links to files beside it (not some project's unrelated MEMORY.md).
  const exists = { has: (p: string) => existsSync(join(root, p)) } as Set<string>;
  const memdirs = memdirsOf(root, changed).filter((dir) => {
    const relDir = relative(root, dir).split(sep).join('/');
    // Local-scope agent memory is "not checked into version control": never committed by memlint.
    if (agentMemoryScope(relDir) === 'local') return false;
    if (isClaudeLocation(relDir)) return true;
    try {
      return linksBeside(readFileSync(join(dir, INDEX_FILE), 'utf8'), relDir, exists);
    } catch {
      return false;
    }
  });
  if (memdirs.length === 0) return 0;
  // The worktree is what gets consolidated: only a push of the checked-out commit is about it.
  const head = headCommit(root);
  if (head === null || !updates.some((u) => u.localSha === head)) return 0;

  const loaded = await loadConfig({ cwd: opts.cwd, file: opts.configFile });
  const { config } = loaded;
  const lint = makeLint(config.rules, root);
  const findDates = await loadDateFinder();
  const now = Date.now();
  const rel = (p: string) => relative(root, p).split(sep).join('/') || '.';
  const ignored = ignoredCommandWarning(config.consolidate, loaded.file);
  if (ignored) process.stderr.write(`${ignored}\n`);
  const command = agentCommand(root);
  const committed: string[] = [];
  const advice: string[] = [];
  const failures: string[] = [];
  // Every memdir's settings first: config naming a folder outside the repository stops here (exit 2).
  const planned = memdirs.filter((dir) => !excludedMemdir(dir, config.consolidate, loaded.dir)).map((dir) => ({ dir, settings: resolveSettings(config.consolidate, dir, command, root) }));
  for (const { dir, settings } of planned) {
    const m = { dir, repoRoot: root };
    // A symlink where the memdir, its archive or its lock should be: reported, left alone, read through never.
    const refused = run.refusalFor(m, settings);
    if (refused) {
      failures.push(`${rel(dir)}: ${refused}`);
      continue;
    }
    if (!run.gatesFor(m, settings, now).open) continue;
    const specs = [rel(dir), ...(existsSync(settings.archiveDir) ? [rel(settings.archiveDir)] : [])];
    if (gitFacts.dirtyPaths(root, specs).length > 0) {
      process.stderr.write(`memlint: skipped consolidating ${rel(dir)}: it has uncommitted changes\n`);
      continue;
    }
    const plan = run.planFor(m, settings, { prune: false, findDates });
    if (plan.ops.length === 0) continue;
    if (settings.onPush === 'check') {
      advice.push(rel(dir));
      continue;
    }
    const prior = lock.readLastConsolidatedAt(dir);
    const outcome = await run.consolidateMemdir(m, { mode: 'apply', force: true, prune: false, settings, now, findDates, lint });
    if (outcome.status !== 'consolidated') {
      if (outcome.status === 'failed') failures.push(`${rel(dir)}: ${outcome.message}`);
      continue;
    }
    const paths = [rel(dir), ...(existsSync(settings.archiveDir) ? [rel(settings.archiveDir)] : [])];
    try {
      const sha = gitFacts.commitPaths(root, 'memory: consolidate', paths);
      lock.recordConsolidation(dir);
      committed.push(`${sha.slice(0, 7)} (${rel(dir)})`);
    } catch (err) {
      gitFacts.restorePaths(root, paths);
      lock.rollbackLock(dir, prior);
      failures.push(`${rel(dir)}: could not commit the consolidation (${(err as Error).message.split('\n')[0]}); nothing was left changed`);
    }
  }
  if (failures.length > 0) process.stderr.write(`memlint: consolidation failed for ${failures.join('; ')}\n`);
  if (committed.length > 0) {
    // git computed what to send before this hook ran, and a failing pre-push stops the whole push.
    process.stderr.write(`memlint: nothing was pushed: the memory was due, so memlint committed "memory: consolidate" ${committed.join(', ')} on top of your commits; push again to send them all\n`);
    return 1;
  }
  if (advice.length > 0) {
    const target = advice.map((a) => resolve(root, a) === root ? '.' : a).join(' ');
    process.stderr.write(`memlint: nothing was pushed: ${advice.join(', ')} needs consolidation: run "memlint consolidate ${target}", commit it as "memory: consolidate", then push again\n`);
    return 1;
  }
  return 0;
}
