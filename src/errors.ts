/** A mistake in how memlint was called, or input it refuses: one line on stderr, exit 2, no stack. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const EXIT_OK = 0;
export const EXIT_FOUND = 1;
export const EXIT_USAGE = 2;

/**
 * A configuration memlint cannot use (a value it does not know, a wrong type): a UsageError for a
 * command (exit 2), but a git hook that meets one says so in one line and lets git go on
 * (src/cli.ts): a config typo is memlint's own problem, never a reason to stop a commit or push.
 */
export class ConfigError extends UsageError {
  override name = 'UsageError';
  readonly configError = true;
}

export function isConfigError(err: unknown): err is ConfigError {
  return err instanceof ConfigError || (typeof err === 'object' && err !== null && (err as { configError?: unknown }).configError === true);
}
