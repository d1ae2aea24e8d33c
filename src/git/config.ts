// git config: one reader (one argument list and one parser, entered synchronously or, for
// update-branch's calls that run side by side, without blocking) and one writer, for the
// repository's local config.
import { configKey, parseConfigGet, parseConfigList } from './parse.js';
import { gitAsync, gitSync, orNull } from './run.js';
import type { GitContext } from './repo.js';

export interface ConfigScope {
  /** Only the repository's own config (`--local`), not the user's or the system's. */
  local?: boolean;
}

const getArgs = (key: string, scope: ConfigScope) => ['config', ...(scope.local ? ['--local'] : []), '--get', key];

/**
 * A git config value as git resolves it for dir (system, global, local and worktree config, and
 * `-c`; only the repository's with `local`), or null when unset or when git cannot answer. None of
 * these is a file of the repository's working tree.
 */
export function configValue(at: GitContext, key: string, scope: ConfigScope = {}): string | null {
  return orNull(() => parseConfigGet(gitSync(getArgs(key, scope), { cwd: at.cwd, env: at.env, okCodes: 'any' })));
}

/** configValue, without blocking. */
export function configValueAsync(at: GitContext, key: string, scope: ConfigScope = {}): Promise<string | null> {
  return gitAsync(getArgs(key, scope), { cwd: at.cwd, env: at.env, okCodes: 'any' }).then(parseConfigGet, () => null);
}

/**
 * The repository's own config (`--local`) read at once, for a caller asking many keys: each key's
 * value (as configValue with `local` gives it) or null. Empty when git cannot answer.
 */
export function localConfigReader(at: GitContext): (key: string) => string | null {
  const values = orNull(() => parseConfigList(gitSync(['config', '--local', '-z', '--list'], { cwd: at.cwd, env: at.env, okCodes: 'any' }).stdout.toString('utf8'))) ?? new Map<string, string>();
  return (key) => values.get(configKey(key)) ?? null;
}

/** Set a key in the repository's local config, or unset every value of it (null). */
export function setLocalConfig(at: GitContext, key: string, value: string | null): void {
  if (value === null) gitSync(['config', '--local', '--unset-all', key], { cwd: at.cwd, env: at.env, okCodes: [0, 5] });
  else gitSync(['config', '--local', key, value], at);
}

/** Every value of a multi-valued key in the repository's local config (`--get-all`), [] when unset. */
export function localConfigValues(at: GitContext, key: string): string[] {
  const r = orNull(() => gitSync(['config', '--local', '-z', '--get-all', key], { cwd: at.cwd, env: at.env, okCodes: 'any' }));
  if (!r || r.code !== 0) return [];
  return r.stdout.toString('utf8').split('\0').filter((v) => v !== '');
}

/** Add one more value to a multi-valued key of the repository's local config. */
export function addLocalConfig(at: GitContext, key: string, value: string): void {
  gitSync(['config', '--local', '--add', key, value], at);
}
