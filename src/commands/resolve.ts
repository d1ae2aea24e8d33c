// `memlint resolve [PATH...]` (docs/merge.md, "memlint resolve"): settle memory files that a merge, rebase or
// cherry-pick left in conflict without the driver; stage what it settled.
import { existsSync, realpathSync } from 'node:fs';
import { relative, resolve as resolvePath } from 'node:path';
import { parse } from './args.js';
import { UsageError } from '../errors.js';
import { repoRoot, unmergedPaths } from '../git/index.js';
import { resolveConflicts } from '../merge/resolve.js';
import { isWithin } from '../fs/paths.js';

const HELP = `Usage: memlint resolve [PATH...]

Settles memory files (MEMORY.md, topic files, daily logs) left in conflict by a merge,
rebase or cherry-pick that ran without the memlint driver: a hosted merge (GitHub and
GitLab never run custom drivers), a clone that never ran "memlint install", a missing
binary. Merges from the index stages 1-3 (or from the conflict markers in the file when
there are no stages) exactly as "memlint merge" would, writes the file, and stages it
with "git add" when nothing is left in conflict.

  PATH   files or folders (default: every memory file in conflict, and every tracked
         memory file holding conflict markers)

Exit codes: 0 everything settled, 1 something is still in conflict (listed), 2 failure.
`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {}, 'resolve');
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  // git reports the root with symlinks resolved; so must the paths measured against it.
  const cwd = realpathSync(process.cwd());
  const root = repoRoot(cwd);
  if (!root) throw new UsageError('resolve works inside a git repository');
  const paths = positionals.map((p) => relative(root, resolvePath(cwd, p)).replace(/\\/g, '/'));
  if (paths.some((p) => p.startsWith('../') || p === '..')) throw new UsageError('PATH must lie inside the repository');
  // A PATH that is neither on disk nor in conflict in the index is a mistake, not "nothing to do".
  const missing = positionals.filter((p, i) => !existsSync(resolvePath(cwd, p)) && unmergedPaths(root, [`:(literal)${paths[i]}`]).length === 0);
  if (missing.length > 0) throw new UsageError(`no such file or folder: ${missing[0]}`);
  // A PATH through a symlink that leads out of the repository: nothing is read or written there.
  const realRoot = realpathSync(root);
  for (const p of positionals) {
    const abs = resolvePath(cwd, p);
    if (!existsSync(abs)) continue;
    if (!isWithin(realpathSync(abs), realRoot)) throw new UsageError(`${p} leads out of the repository through a symlink; memlint does not follow it`);
  }
  const report = resolveConflicts(root, paths);
  for (const w of report.warnings) process.stderr.write(`${w}\n`);
  for (const p of report.resolved) process.stdout.write(`resolved  ${p}\n`);
  for (const r of report.remaining) process.stdout.write(`conflict  ${r.path}: ${r.reason}\n`);
  if (report.resolved.length === 0 && report.remaining.length === 0) process.stdout.write('nothing to resolve\n');
  return report.remaining.length > 0 ? 1 : 0;
}
