// Config `consolidate.exclude`: memory folders (globs relative to the config's folder) that
// consolidation leaves alone unless named on the command line, e.g. a bundled example.
import type { ConsolidateConfig } from '../config.js';
import { matcher } from '../glob.js';
import { slashRelative } from '../fs/paths.js';

export function excludedMemdir(dir: string, config: ConsolidateConfig | undefined, configDir: string): boolean {
  const globs = config?.exclude;
  if (!Array.isArray(globs) || globs.length === 0) return false;
  const rel = slashRelative(configDir, dir);
  return matcher(globs.filter((g): g is string => typeof g === 'string'))(rel);
}
