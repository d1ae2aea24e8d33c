// consolidate.* settings with Claude Code's defaults, resolved for one memdir. The agent step's
// command is the one setting that is not read from the repository's config: a branch must not be
// able to run a command on `git push` (docs/security.md). It comes from the user's git config.
import { basename, dirname, resolve } from 'node:path';
import type { ConsolidateConfig } from '../config.js';
import { ConfigError } from '../errors.js';
import { configValue } from '../git/config.js';
import { checkInsideRepo } from '../fs/inside.js';
import { isWithin } from '../fs/paths.js';
import { DEFAULT_MIN_COMMITS, DEFAULT_MIN_HOURS } from './gates.js';
import type { GitContext } from '../git/repo.js';

/** The git config key (local or global) that names the agent step's command. */
export const AGENT_COMMAND_KEY = 'memlint.consolidateCommand';

/** The agent step's command from the user's git config, or undefined when none is set. */
export function agentCommand(at: GitContext): string | undefined {
  return configValue(at, AGENT_COMMAND_KEY) || undefined;
}

/** The warning for a `consolidate.command` key in repository config, or null when there is none. */
export function ignoredCommandWarning(config: ConsolidateConfig | undefined, file: string | null): string | null {
  if (config?.command === undefined) return null;
  return `memlint: consolidate.command in ${file ?? 'the config'} is ignored: memlint runs no command from the repository; set your own with "git config ${AGENT_COMMAND_KEY} '<command>'"`;
}

export const DEFAULT_STALE_DAYS = 90;

export interface Settings {
  minHours: number;
  minCommits: number;
  staleDays: number;
  /** Absolute path of this memdir's archive folder. */
  archiveDir: string;
  /** The agent step's command: from the user's git config only (see agentCommand). */
  command: string | undefined;
  /** What a push does while consolidation is due (src/consolidate/prepush.ts): "consolidate" is the pre-v3 default, read as "advise". */
  onPush: 'advise' | 'check' | 'block' | 'consolidate';
  /** Whether the post-commit hook consolidates a due memdir right after a memory commit. */
  onCommit: 'consolidate' | 'off';
}

function num(v: unknown, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new ConfigError(`config consolidate.${name} must be a number >= 0`);
  return v;
}

/** The memdir's archive folder: config `consolidate.archiveDir` (relative to the memdir), else `<memdir>-archive/`. */
export function archiveDirOf(config: ConsolidateConfig | undefined, memdir: string): string {
  const dir = config?.archiveDir;
  return dir !== undefined ? resolve(memdir, String(dir)) : resolve(dirname(memdir), `${basename(memdir)}-archive`);
}

/**
 * The folder a consolidation of `memdir` may write in (src/fs/inside.ts): the repository's working
 * tree, or outside a repository the folder holding the memdir (the archive lies beside it).
 */
export function consolidationBound(memdir: string, repoRoot: string | null): string {
  return repoRoot ?? dirname(memdir);
}

/**
 * `archiveDir` in config is relative to the memdir (default `../<memdir name>-archive`, i.e.
 * `<memdir>-archive/`), and must lie inside `bound` (consolidationBound) with no symlink on the
 * way: config comes from the repository, and a folder outside it is refused (exit 2) before
 * anything is written. `command` is the caller's (agentCommand), never `config.command`.
 */
export function resolveSettings(config: ConsolidateConfig | undefined, memdir: string, command: string | undefined, bound: string): Settings {
  const c = config ?? {};
  const archiveDir = archiveDirOf(c, memdir);
  if (c.archiveDir !== undefined) {
    const inside = checkInsideRepo(bound, archiveDir);
    if (!inside.ok) throw new ConfigError(`config consolidate.archiveDir: ${JSON.stringify(c.archiveDir)} is refused: ${inside.reason}`);
  }
  if (isWithin(archiveDir, memdir)) {
    throw new ConfigError(`config consolidate.archiveDir must be outside the memory folder (Claude Code's recall scans every .md inside it): ${archiveDir}`);
  }
  if (c.onPush !== undefined && !['advise', 'check', 'block', 'consolidate'].includes(c.onPush)) throw new ConfigError('config consolidate.onPush must be "advise", "check" or "block"');
  if (c.onCommit !== undefined && c.onCommit !== 'consolidate' && c.onCommit !== 'off') throw new ConfigError('config consolidate.onCommit must be "consolidate" or "off"');
  return {
    minHours: num(c.minHours, 'minHours', DEFAULT_MIN_HOURS),
    minCommits: num(c.minCommits, 'minCommits', DEFAULT_MIN_COMMITS),
    staleDays: num(c.staleDays, 'staleDays', DEFAULT_STALE_DAYS),
    archiveDir,
    command: command || undefined,
    onPush: c.onPush ?? 'advise',
    onCommit: c.onCommit ?? 'consolidate',
  };
}
