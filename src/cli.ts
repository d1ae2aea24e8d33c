// Argument dispatch only. Each command lives in its own module, loaded lazily so that a command
// pays only for its own imports (the merge driver and `--staged` run on every merge and commit).
import { closestName } from './closest.js';
import { UsageError } from './errors.js';
import { VERSION } from './version.js';
import { lintArgs, type CommandName } from './commands/names.js';
import type { Given } from './commands/given.js';

type CommandModule = { run(argv: string[], given?: Given): Promise<number> };

const COMMANDS: Record<CommandName, { summary: string; load: () => Promise<CommandModule> }> = {
  lint: { summary: 'lint memory directories (the default command)', load: () => import('./commands/lint.js') },
  merge: { summary: 'git merge driver for MEMORY.md, topic files and daily logs', load: () => import('./commands/merge.js') },
  resolve: { summary: 'settle memory files left in conflict by a merge, rebase or cherry-pick', load: () => import('./commands/resolve.js') },
  consolidate: { summary: 'distil daily logs, sync the index, enforce limits (the deterministic dream)', load: () => import('./commands/consolidate.js') },
  install: { summary: 'set up the merge driver, .gitattributes, husky hooks and .gitignore', load: () => import('./commands/install.js') },
  uninstall: { summary: 'remove exactly what install added', load: () => import('./commands/uninstall.js') },
  doctor: { summary: 'report whether hooks, driver and attributes are really active here', load: () => import('./commands/doctor.js') },
  where: { summary: "show the memory directory Claude Code would use for this repository", load: () => import('./commands/where.js') },
  link: { summary: "point Claude Code's autoMemoryDirectory at the repository's memdir", load: () => import('./commands/link.js') },
  touch: { summary: "set memory files' mtimes from their `modified` frontmatter or last commit", load: () => import('./commands/touch.js') },
  show: { summary: 'print exactly what the agent loads from MEMORY.md at session start', load: () => import('./commands/show.js') },
  diff: { summary: 'what a range of commits changes in memory: topics, entries, index budget', load: () => import('./commands/diff.js') },
  'update-branch': { summary: 'merge the default branch in with the driver, settle memory, commit (for hosted merges)', load: () => import('./commands/update-branch.js') },
  snapshot: { summary: 'copy an agent memory into .claude/agent-memory-snapshots/<agent>/', load: () => import('./commands/snapshot.js') },
  adopt: { summary: "bring this repository's stray Claude Code memory stores into its memdir, without loss", load: () => import('./commands/adopt.js') },
  lsp: { summary: "language server (LSP over stdio): memlint's diagnostics in any editor", load: () => import('./commands/lsp.js') },
  hook: { summary: 'Claude Code hook: lint memory the agent just wrote; flag memory that needs attention at session start', load: () => import('./commands/hook.js') },
};


function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
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

/** `given`: what the launcher learnt before the program loaded, handed to the command. */
export async function main(argv: string[], given: Given = {}): Promise<number> {
  const first = argv[0];
  if (first === '--version' || first === '-v' || first === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (first === 'help' && argv.length > 1) {
    // `memlint help merge`: that command's own help.
    const name = argv[1]!;
    if (name === 'help' || name === 'version' || name === '--help' || name === '-h') {
      process.stdout.write(mainHelp());
      return 0;
    }
    if (!Object.hasOwn(COMMANDS, name)) {
      const guess = closestName(name, Object.keys(COMMANDS));
      throw new UsageError(`no command "${name}"${guess ? `: did you mean "memlint help ${guess}"?` : ''} (see "memlint --help")`);
    }
    return (await COMMANDS[name as CommandName].load()).run(['--help']);
  }
  if (first === 'help' || ((first === '--help' || first === '-h') && argv.length === 1)) {
    process.stdout.write(mainHelp());
    return 0;
  }
  const lint = lintArgs(argv);
  const mod = await COMMANDS[lint ? 'lint' : (first as CommandName)].load();
  return mod.run(lint ?? argv.slice(1), given);
}
