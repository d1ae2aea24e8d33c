/** A mistake in how memlint was called, or input it refuses: one line on stderr, exit 2, no stack. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const EXIT_OK = 0;
export const EXIT_FOUND = 1;
export const EXIT_USAGE = 2;
