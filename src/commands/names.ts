// The command names, on their own so that the launcher (dist/cli.js) can route without loading
// the program. src/cli.ts maps each to its module.
export const COMMAND_NAMES = ['lint', 'merge', 'resolve', 'consolidate', 'install', 'uninstall', 'doctor', 'where', 'link', 'touch', 'show', 'snapshot', 'hook', 'adopt', 'update-branch', 'diff', 'lsp'] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];

/** Words the program answers itself, beside the commands. */
export const PROGRAM_WORDS = ['help', 'version'] as const;

/** A first argument that reads as a command name rather than a path: a bare lowercase word. */
export function looksLikeCommand(word: string): boolean {
  return /^[a-z][a-z-]*$/.test(word);
}

/**
 * The lint command's own arguments when argv runs the linter (`memlint [lint] ...`), else null:
 * another command, or the program's --version and top-level help.
 */
export function lintArgs(argv: string[]): string[] | null {
  const first = argv[0];
  if (first === 'lint') return argv.slice(1);
  if (first === '--version' || first === '-v' || first === 'help' || first === 'version') return null;
  if ((first === '--help' || first === '-h') && argv.length === 1) return null;
  if (first !== undefined && (COMMAND_NAMES as readonly string[]).includes(first)) return null;
  return argv;
}
