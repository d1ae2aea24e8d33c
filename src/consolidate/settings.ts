// consolidate.* settings with Claude Code's defaults, resolved for one memdir.
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import type { ConsolidateConfig } from '../config.js';
import { UsageError } from '../errors.js';
import { DEFAULT_MIN_COMMITS, DEFAULT_MIN_HOURS } from './gates.js';

export const DEFAULT_STALE_DAYS = 90;

export interface Settings {
  minHours: number;
  minCommits: number;
  staleDays: number;
  /** Absolute path of this memdir's archive folder. */
  archiveDir: string;
  command: string | undefined;
  onPush: 'consolidate' | 'check';
}

function num(v: unknown, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new UsageError(`config consolidate.${name} must be a number >= 0`);
  return v;
}

/** `archiveDir` in config is relative to the memdir (default `../<memdir name>-archive`, i.e. `<memdir>-archive/`). */
export function resolveSettings(config: ConsolidateConfig | undefined, memdir: string): Settings {
  const c = config ?? {};
  const archiveDir = c.archiveDir !== undefined ? resolve(memdir, String(c.archiveDir)) : resolve(dirname(memdir), `${basename(memdir)}-archive`);
  const rel = relative(memdir, archiveDir);
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
    throw new UsageError(`config consolidate.archiveDir must be outside the memory folder (Claude Code's recall scans every .md inside it): ${archiveDir}`);
  }
  if (c.onPush !== undefined && c.onPush !== 'consolidate' && c.onPush !== 'check') throw new UsageError('config consolidate.onPush must be "consolidate" or "check"');
  if (c.command !== undefined && typeof c.command !== 'string') throw new UsageError('config consolidate.command must be a shell command (a string)');
  return {
    minHours: num(c.minHours, 'minHours', DEFAULT_MIN_HOURS),
    minCommits: num(c.minCommits, 'minCommits', DEFAULT_MIN_COMMITS),
    staleDays: num(c.staleDays, 'staleDays', DEFAULT_STALE_DAYS),
    archiveDir,
    command: c.command || undefined,
    onPush: c.onPush ?? 'consolidate',
  };
}
