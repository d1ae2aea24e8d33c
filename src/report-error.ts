import { UsageError, EXIT_USAGE } from './errors.js';
import type { Io } from './io.js';

/**
 * The one way memlint fails: one line on stderr, exit 2; the stack only with MEMLINT_DEBUG=1.
 * `to`: the run's environment and stderr; the process itself has both, for the launcher.
 */
export function reportError(err: unknown, to: Pick<Io, 'env' | 'stderr'> = process): number {
  const e = err as Error;
  if (to.env.MEMLINT_DEBUG === '1') to.stderr.write(`${e?.stack ?? String(err)}\n`);
  const message = e instanceof UsageError || e?.name === 'UsageError' ? e.message : `${e?.message ?? String(err)}`;
  to.stderr.write(`memlint: ${message.split('\n')[0]}\n`);
  return EXIT_USAGE;
}
