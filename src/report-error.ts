import { UsageError, EXIT_USAGE } from './errors.js';

/** The one way memlint fails: one line on stderr, exit 2; the stack only with MEMLINT_DEBUG=1. */
export function reportError(err: unknown): number {
  const e = err as Error;
  if (process.env.MEMLINT_DEBUG === '1') process.stderr.write(`${e?.stack ?? String(err)}\n`);
  const message = e instanceof UsageError || e?.name === 'UsageError' ? e.message : `${e?.message ?? String(err)}`;
  process.stderr.write(`memlint: ${message.split('\n')[0]}\n`);
  return EXIT_USAGE;
}
