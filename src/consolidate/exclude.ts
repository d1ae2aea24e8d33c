// Config `consolidate.exclude`: memory folders (globs relative to the config's folder) that
// consolidation leaves alone unless named on the command line, e.g. a bundled example.
import { relative, sep } from 'node:path';
import type { ConsolidateConfig } from '../config.js';
import { matcher } from '../glob.js';

export function excludedMemdir(dir: string, config: ConsolidateConfig | undefined, configDir: string): boolean {
  const globs = config?.exclude;
  if (!Array.isArray(globs) || globs.length === 0) return false;
  const rel = relative(configDir, dir).split(sep).join('/');
  return matcher(globs.filter((g): g is string => typeof g === 'string'))(rel);
}
