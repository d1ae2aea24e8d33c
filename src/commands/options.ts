// The option tables of the commands the launcher (dist/cli.js) may answer before the program loads:
// `lint` (for `--staged`) and `consolidate` (for its hook modes). The command parses its argv with
// its table and the launcher decides with the same one, so an option is added in one place. No
// imports but the report formats' names: the launcher's bundle holds this module.
import { parseArgs } from 'node:util';
import { isFormatName, printsWhenEmpty } from '../lint/reporters/formats.js';

/**
 * How an option bears on the launcher's early answer (nothing staged is memory; no memory
 * pushed or committed): `true` when it changes nothing then (the launcher may answer, and does);
 * a test of its value for an option that changes nothing only for some values; `false` when the
 * program must answer (it refuses the option there, or prints something all the same).
 */
type Early = boolean | ((value: string) => boolean);

interface OptionSpec {
  type: 'boolean' | 'string';
  multiple?: boolean;
  short?: string;
  early: Early;
}

export const LINT_OPTIONS = {
  fix: { type: 'boolean', early: false },
  staged: { type: 'boolean', early: true },
  // A format that prints an empty report (json, sarif) prints it even when nothing is staged.
  format: { type: 'string', early: (f) => isFormatName(f) && !printsWhenEmpty(f) },
  config: { type: 'string', early: (file) => file !== '' },
  'max-warnings': { type: 'string', early: (n) => /^\d+$/.test(n) },
  quiet: { type: 'boolean', early: true },
  rule: { type: 'string', multiple: true, early: (r) => /^[\w-]+=(off|warn|error|[012])$/.test(r) },
  'list-memdirs': { type: 'boolean', early: false },
  color: { type: 'boolean', early: true },
  'no-color': { type: 'boolean', early: true },
  rules: { type: 'boolean', early: false },
  formats: { type: 'boolean', early: false },
} as const satisfies Record<string, OptionSpec>;

export const CONSOLIDATE_OPTIONS = {
  check: { type: 'boolean', early: false },
  'dry-run': { type: 'boolean', early: false },
  force: { type: 'boolean', early: false },
  prune: { type: 'boolean', early: false },
  json: { type: 'boolean', early: false },
  // The hook modes themselves: the launcher answers one of them, never both at once.
  'pre-push': { type: 'boolean', early: false },
  'post-commit': { type: 'boolean', early: false },
  config: { type: 'string', early: true },
} as const satisfies Record<string, OptionSpec>;

/** `--help` / `-h`, which every command takes (src/commands/args.ts adds it); the program answers it. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h', early: false } } as const satisfies Record<string, OptionSpec>;

/**
 * Whether the launcher may answer `argv` early with this table: it parses as the command parses
 * it, every option given is one the table lets through (`except`: the one it is asked about),
 * and `positionals` says whether words may stand beside them.
 */
function early(argv: string[], table: Record<string, OptionSpec>, opts: { positionals: boolean; except: string }): Record<string, unknown> | null {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...table, ...HELP_OPTION }, allowPositionals: true, strict: true, tokens: true });
  } catch {
    return null; // the program says what is wrong
  }
  if (!opts.positionals && parsed.positionals.length > 0) return null;
  for (const t of parsed.tokens) {
    if (t.kind !== 'option' || t.name === opts.except) continue;
    const spec = (table as Record<string, OptionSpec | undefined>)[t.name];
    const ok = spec?.early ?? false;
    if (ok === false || (typeof ok === 'function' && !ok(t.value ?? ''))) return null;
  }
  return parsed.values;
}

/** Whether argv is a plain `[lint] --staged` the launcher answers when nothing staged is memory: no PATH, no --fix, no option it must print for. */
export function isPlainStaged(argv: string[]): boolean {
  const values = early(argv[0] === 'lint' ? argv.slice(1) : argv, LINT_OPTIONS, { positionals: false, except: '' });
  return values?.staged === true;
}

/**
 * Whether argv is a plain `consolidate --pre-push` (or `--post-commit`): the mode, options that
 * change nothing when no memory is pushed (`--config FILE`), and words (what git names to the
 * pre-push hook: the remote and its URL). Anything else goes to the program, which knows it or refuses it.
 */
export function isPlainHook(argv: string[], mode: 'pre-push' | 'post-commit'): boolean {
  if (argv[0] !== 'consolidate') return false;
  const values = early(argv.slice(1), CONSOLIDATE_OPTIONS, { positionals: true, except: mode });
  return values?.[mode] === true;
}
