// Shared option parsing on node:util parseArgs (no dependency on the hot path).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.js';
import { HELP_OPTION } from './options.js';

export type Options = NonNullable<ParseArgsConfig['options']>;

/** Parse a command's options; `positionals: false` for a command that takes no arguments (an extra word is a usage error). */
export function parse<O extends Options>(argv: string[], options: O, command: string, opts: { positionals?: boolean } = {}) {
  try {
    return parseArgs({ args: argv, options: { ...options, ...HELP_OPTION }, allowPositionals: opts.positionals ?? true, strict: true });
  } catch (err) {
    throw new UsageError(`${describeArgError((err as Error).message)} (see "memlint ${command} --help")`);
  }
}

/** node:util's messages, shortened to one plain sentence. */
export function describeArgError(message: string): string {
  const first = message.split('\n')[0]!;
  const unknown = /^Unknown option '([^']+)'/.exec(first);
  if (unknown) return `unknown option ${unknown[1]}`;
  const missing = /^Option '(-\S+)(?:, -\S+)?(?: <value>)?' argument missing/.exec(first);
  if (missing) return `option ${missing[1]} needs a value`;
  const noArg = /^Option '(-\S+)' does not take an argument/.exec(first);
  if (noArg) return `option ${noArg[1]} takes no value`;
  const ambiguous = /^Option '(-\S+?)(?:, -\S+)?(?: <value>)?' argument is ambiguous/.exec(first);
  if (ambiguous) return `option ${ambiguous[1]}: write a value that starts with "-" as ${ambiguous[1]}=VALUE`;
  const unexpected = /^Unexpected argument '([^']+)'/.exec(first);
  if (unexpected) return `unexpected argument ${unexpected[1]}`;
  return first.replace(/^./, (c) => c.toLowerCase());
}
