// Argument dispatch only, from the table of commands (src/commands/names.ts): the help lists it,
// a mistyped name is matched against it, and each command's module is loaded from it, lazily, so
// that a command pays only for its own imports.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { closestName } from './closest.js';
import { isConfigError, UsageError } from './errors.js';
import { VERSION } from './version.js';
import { COMMANDS, COMMAND_NAMES, isCommandName, lintArgs, looksLikeCommand, PROGRAM_WORDS, type CommandName } from './commands/names.js';
import type { Given } from './commands/given.js';
import { processIo, type Io } from './io.js';
import { hookOf } from './hook-name.js';

export { hookOf };

function mainHelp(): string {
  const width = Math.max(...COMMAND_NAMES.map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `memlint ${VERSION}: keep AI-agent memory (Claude Code's MEMORY.md and topic files) healthy in git

Usage: memlint [lint] [options] [PATH...]
       memlint <command> [options]

Commands:
${lines.join('\n')}

Run "memlint help <command>" (or "memlint <command> --help") for a command's options,
"memlint lint --help --rules" for the rules, "memlint version" for the version.
Exit codes: 0 nothing wrong, 1 problems found, 2 usage error or failure.
`;
}

/** `memlint instal`: a mistyped command, not a missing path to lint (a real path of that name lints). */
function refuseMistypedCommand(lintArgv: string[], cwd: string): void {
  const word = lintArgv[0];
  if (word === undefined || !looksLikeCommand(word) || existsSync(resolve(cwd, word))) return;
  const guess = closestName(word, [...COMMAND_NAMES, ...PROGRAM_WORDS]);
  if (guess) throw new UsageError(`"${word}" is not a command, nor a file or folder here: did you mean "memlint ${guess}"? (see "memlint --help")`);
}

/**
 * `given`: what the launcher learnt before the program loaded, handed to the command. `io`: the
 * folder, environment and outputs the command runs with, this process's unless a caller gives its own.
 */
export async function main(argv: string[], given: Given = {}, io: Io = processIo()): Promise<number> {
  const first = argv[0];
  if (first === '--version' || first === '-v' || first === 'version') {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === 'help' && argv.length > 1) {
    // `memlint help merge`: that command's own help.
    const name = argv[1]!;
    if (name === 'help' || name === 'version' || name === '--help' || name === '-h') {
      io.stdout.write(mainHelp());
      return 0;
    }
    if (!isCommandName(name)) {
      const guess = closestName(name, COMMAND_NAMES);
      throw new UsageError(`no command "${name}"${guess ? `: did you mean "memlint help ${guess}"?` : ''} (see "memlint --help")`);
    }
    return (await COMMANDS[name].load()).run(['--help'], io);
  }
  if (first === 'help' || ((first === '--help' || first === '-h') && argv.length === 1)) {
    io.stdout.write(mainHelp());
    return 0;
  }
  const lint = lintArgs(argv);
  if (lint) refuseMistypedCommand(lint, io.cwd);
  const mod = await COMMANDS[lint ? 'lint' : (first as CommandName)].load();
  const hook = hookOf(argv, io.env);
  if (hook === null) return mod.run(lint ?? argv.slice(1), io, given);
  try {
    return await mod.run(lint ?? argv.slice(1), io, given);
  } catch (err) {
    if (!isConfigError(err)) throw err;
    // A config memlint cannot use is memlint's own problem: the hook says so and git goes on.
    io.stderr.write(`memlint: ${(err as Error).message.split('\n')[0]}; the ${hook} hook let git go on without memlint's checks (fix the config; "memlint doctor" checks it)\n`);
    return 0;
  }
}
