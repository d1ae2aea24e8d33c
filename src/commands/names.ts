// Every command in one table: its name, the line `memlint --help` shows for it, and its module,
// loaded only when the command runs (a command pays only for its own imports). The help lists
// the commands in this order; a mistyped name is matched against these names.
// (The launcher, dist/cli.js, answers the merge driver and the hot hook paths before any of
// this loads: src/launcher.ts.)
import type { Io } from '../io.js';
import type { Given } from './given.js';

/** A command: its arguments and what it runs with (src/io.ts) in, its exit code out. */
type CommandModule = { run(argv: string[], io: Io, given?: Given): Promise<number> };

export interface Command {
  summary: string;
  load: () => Promise<CommandModule>;
}

export const COMMANDS = {
  lint: { summary: 'lint memory directories (the default command)', load: () => import('./lint.js') },
  merge: { summary: 'git merge driver for MEMORY.md, topic files and daily logs', load: () => import('./merge.js') },
  resolve: { summary: 'settle memory files left in conflict by a merge, rebase or cherry-pick', load: () => import('./resolve.js') },
  consolidate: { summary: 'distil daily logs, sync the index, enforce limits (the deterministic dream)', load: () => import('./consolidate.js') },
  install: { summary: 'set up the merge driver, .gitattributes, husky hooks and .gitignore', load: () => import('./install.js') },
  uninstall: { summary: 'remove exactly what install added', load: () => import('./uninstall.js') },
  doctor: { summary: 'report whether hooks, driver and attributes are really active here', load: () => import('./doctor.js') },
  where: { summary: 'show the memory directory Claude Code would use for this repository', load: () => import('./where.js') },
  link: { summary: "point Claude Code's autoMemoryDirectory at the repository's memdir", load: () => import('./link.js') },
  touch: { summary: "set memory files' mtimes from their `modified` frontmatter or last commit", load: () => import('./touch.js') },
  show: { summary: 'print exactly what the agent loads from MEMORY.md at session start', load: () => import('./show.js') },
  diff: { summary: 'what a range of commits changes in memory: topics, entries, index budget', load: () => import('./diff.js') },
  'update-branch': { summary: 'merge the default branch in with the driver, settle memory, commit (for hosted merges)', load: () => import('./update-branch.js') },
  snapshot: { summary: 'copy an agent memory into .claude/agent-memory-snapshots/<agent>/', load: () => import('./snapshot.js') },
  adopt: { summary: "bring this repository's stray Claude Code memory stores into its memdir, without loss", load: () => import('./adopt.js') },
  lsp: { summary: "language server (LSP over stdio): memlint's diagnostics and fixes in any editor", load: () => import('./lsp.js') },
  hook: { summary: 'Claude Code hook: lint memory the agent just wrote; flag memory that needs attention at session start', load: () => import('./hook.js') },
} as const satisfies Record<string, Command>;

export type CommandName = keyof typeof COMMANDS;

export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

export function isCommandName(word: string): word is CommandName {
  return Object.hasOwn(COMMANDS, word);
}

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
  if (first !== undefined && isCommandName(first)) return null;
  return argv;
}
