// memlint link: point Claude Code's autoMemoryDirectory (in the git-ignored
// .claude/settings.local.json of this worktree) at the repository's memory folder, so the memory
// the agent writes is the memory that gets committed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from './args.js';
import { UsageError } from '../errors.js';
import { checkInsideRepo, writeInsideRepo } from '../fs/inside.js';
import { repository } from '../git/repo.js';
import { homeOf, resolveAutoMemoryPath, validateMemoryPath } from '../claude/auto-memory.js';
import { AUTO_MEMORY_KEY, LOCAL_SETTINGS, defaultMemdir, isFolder, parseSettingsText, pointsIntoRepo, setLocalLink, withAutoMemoryDirectory } from '../claude/link.js';
import { isWithin, realOrNearestReal } from '../fs/paths.js';
import { INDEX_FILE } from '../memdir/kinds.js';
import { settingMemdir } from '../claude/team-link.js';
import type { Io } from '../io.js';

const HELP = `Usage: memlint link [--memdir DIR] [--unlink] [--dry-run]

Writes Claude Code's autoMemoryDirectory setting (an absolute path) into this worktree's
.claude/settings.local.json, so the agent reads and writes the repository's memory folder instead
of ~/.claude/projects/<project>/memory/. Every other key of the file is kept. The file is made
git-ignored (it holds a path of this machine). Claude Code never reads autoMemoryDirectory from
the committed .claude/settings.json, which is why the local file is used.
Prints what "memlint where" resolves afterwards.

Options:
  --memdir DIR  the memory folder to use, which must exist (default: the config's "link"
                folder, else .claude/memory/ of this worktree, or the repository's only one)
  --unlink      remove the autoMemoryDirectory that link set (one pointing into this repository)
  --dry-run     print what would change, change nothing
  -h, --help    show this help

Exit codes: 0 done, 1 done but Claude Code still resolves elsewhere (an override or policy
setting wins) or the settings file is committed, 2 usage error.
`;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { memdir: { type: 'string' }, unlink: { type: 'boolean' }, 'dry-run': { type: 'boolean' } }, 'link');
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]} (use --memdir DIR)`);
  if (values.unlink && values.memdir !== undefined) throw new UsageError('--unlink takes no --memdir');
  const cwd = io.cwd;
  const top = repository(io, cwd)?.root ?? null;
  if (!top) throw new UsageError('not inside a git repository: link keeps memory in one');
  const root = realOrNearestReal(top);
  const settingsFile = path.join(root, ...LOCAL_SETTINGS.split('/'));
  // .claude or the settings file a symlink: not read, not written (src/fs/inside.ts).
  const safe = checkInsideRepo(root, settingsFile);
  if (!safe.ok) throw new UsageError(`${safe.reason}; ${LOCAL_SETTINGS} left as it is`);
  const existingText = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : null;
  const settings = parseSettingsText(existingText ?? '', settingsFile);
  const dry = !!values['dry-run'];
  const say = (s: string) => io.stdout.write(`${s}\n`);
  let problems = 0;

  if (values.unlink) {
    const current = settings[AUTO_MEMORY_KEY];
    if (current === undefined) {
      say(`no ${AUTO_MEMORY_KEY} in ${settingsFile}: nothing to unlink`);
    } else {
      if (!pointsIntoRepo(current, root, io.env)) {
        io.stderr.write(`memlint: ${AUTO_MEMORY_KEY} in ${settingsFile} (${JSON.stringify(current)}) does not point into this repository: not set by link, left alone\n`);
        return 1;
      }
      if (!dry) writeInsideRepo(root, settingsFile, withAutoMemoryDirectory(settings, undefined));
      say(`${dry ? 'would remove' : 'removed'} ${AUTO_MEMORY_KEY} (${current}) from ${settingsFile}`);
    }
  } else {
    const target = values.memdir !== undefined ? path.resolve(cwd, values.memdir) : ((await settingMemdir(root, io.env))?.dir ?? (await defaultMemdir(root, cwd, io.env)));
    const check = validateMemoryPath(target, false, { home: homeOf(io.env) });
    if (!check.ok) throw new UsageError(`Claude Code would reject ${target}: ${check.reason}`);
    if (isWithin(target, root) && !isWithin(realOrNearestReal(target), root)) {
      throw new UsageError(`${target} is a symlink out of the repository; memlint does not follow it`);
    }
    if (!isWithin(target, root)) {
      throw new UsageError(`${target} is outside this repository: link points Claude Code at the repository's own memory folder`);
    }
    // A --memdir that names no folder is most likely a typo: refuse it rather than point Claude
    // Code at it. (The default .claude/memory/ may not exist yet: Claude Code creates it.)
    if (values.memdir !== undefined && !isFolder(target)) {
      throw new UsageError(`--memdir ${values.memdir}: ${existsSync(target) ? 'not a folder' : 'no such folder'} (${target}); create it first, or leave --memdir out for .claude/memory`);
    }
    if (existsSync(target) && !existsSync(path.join(target, INDEX_FILE))) {
      io.stderr.write(`note: ${target} has no MEMORY.md yet; Claude Code creates it on its first memory\n`);
    }
    const value = target.replace(/[/\\]+$/, '');
    const outcome = setLocalLink({ cwd: root, env: io.env }, settings, value, dry);
    for (const line of outcome.done) say(line);
    for (const p of outcome.problems) io.stderr.write(`memlint: ${p}\n`);
    problems += outcome.problems.length;
  }

  if (dry) return problems ? 1 : 0;
  const now = resolveAutoMemoryPath({ cwd: root, env: io.env, home: homeOf(io.env) });
  say(`Claude Code now resolves: ${now.resolved} (${now.source})`);
  if (!values.unlink && now.source !== 'localSettings') {
    const winner = now.candidates.find((c) => c.accepted);
    io.stderr.write(`memlint: ${winner?.source ?? now.source} takes precedence over ${LOCAL_SETTINGS}; see "memlint where"\n`);
    problems++;
  }
  if (!now.autoMemoryEnabled.value) io.stderr.write(`note: auto memory is disabled (${now.autoMemoryEnabled.source})\n`);
  return problems ? 1 : 0;
}
