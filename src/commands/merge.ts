// `memlint merge BASE OURS THEIRS [MARKER_SIZE] [PATH]`: the git merge driver (docs/merge.md, "The driver").
// Kept lean: this runs once per conflicted memory file on every merge, rebase and cherry-pick,
// so it parses its few arguments by hand and writes to stderr without creating the stream.
import { statSync, writeSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { runDriver } from '../merge/driver.js';
import type { Io } from '../io.js';

const HELP = `Usage: memlint merge BASE OURS THEIRS [MARKER_SIZE] [PATH]

Git merge driver for Claude Code memory: MEMORY.md (entries keyed by link target),
topic files (frontmatter key by key, body line by line) and daily logs (union).
Writes the merged result into OURS and nothing else.

  BASE, OURS, THEIRS  git's %O %A %B temporary files
  MARKER_SIZE         conflict marker size (git's %L, default 7)
  PATH                the file's path in the repository (git's %P): chooses the merge

Exit codes: 0 merged cleanly, 1 conflict markers left (only around what truly conflicts),
2 usage error. Configure it with "memlint install"; see docs/merge.md.
`;

export async function run(argv: string[], io: Io): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(HELP);
    return 0;
  }
  const positionals = argv[0] === '--' ? argv.slice(1) : argv;
  const option = positionals.find((a) => a.startsWith('-') && a !== '-');
  if (option) throw new UsageError(`unknown option "${option}" (see "memlint merge --help")`);
  if (positionals.length < 3 || positionals.length > 5) throw new UsageError('merge needs BASE OURS THEIRS [MARKER_SIZE] [PATH] (see "memlint merge --help")');
  const [base, ours, theirs, ...rest] = positionals as [string, string, string, ...string[]];
  let markerSize = 7;
  let path = ours;
  if (rest.length === 2) {
    markerSize = markerSizeOf(rest[0]!);
    path = rest[1]!;
  } else if (rest.length === 1) {
    if (/^\d+$/.test(rest[0]!)) markerSize = markerSizeOf(rest[0]!);
    else path = rest[0]!;
  }
  // Checked before anything is read or written: a failure leaves OURS as git handed it, and the
  // configured command's git merge-file then writes git's own conflict result (docs/merge.md).
  const sides: Array<[role: string, file: string]> = [['BASE', base], ['OURS', ours], ['THEIRS', theirs]];
  const unreadable = sides.flatMap(([role, file]) => {
    const why = notAFile(file);
    return why ? [`${role} ${file} (${why})`] : [];
  });
  if (unreadable.length > 0) throw new UsageError(`merge of ${path}: cannot read ${unreadable.join(', ')}`);
  try {
    return await runDriver({ base, ours, theirs, markerSize, path, cwd: io.cwd, env: io.env }, tell);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(`merge of ${path} failed: ${e.code && e.path ? `${e.path} (${plainReason(e.code)})` : e.message}`);
  }
}

/**
 * One line to git's stderr; a closed stderr (EPIPE) only loses the line, never the merge. Written
 * to fd 2 itself, not io.stderr: git runs the driver once per conflicted file, and creating
 * process.stderr would cost every run more than the line is worth (the launcher starts it bare).
 */
function tell(line: string): void {
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // nobody is reading stderr
  }
}

/** Why a path is not a file the driver can read, in a few words; null when it is one. */
function notAFile(file: string): string | null {
  try {
    const st = statSync(file);
    return st.isFile() ? null : st.isDirectory() ? 'a folder' : 'not a file';
  } catch (err) {
    return plainReason((err as NodeJS.ErrnoException).code);
  }
}

function plainReason(code: string | undefined): string {
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'a folder';
  return code ?? 'unreadable';
}

function markerSizeOf(s: string): number {
  const n = Number(s);
  if (!/^\d+$/.test(s) || n < 1 || n > 1000) throw new UsageError(`MARKER_SIZE must be a positive integer, got "${s}"`);
  return n;
}
