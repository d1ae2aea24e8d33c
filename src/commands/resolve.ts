// `memlint resolve [PATH...]` (docs/merge.md, "memlint resolve"): settle memory files that a merge, rebase or
// cherry-pick left in conflict without the driver; stage what it settled.
import { existsSync, realpathSync } from 'node:fs';
import { relative, resolve as resolvePath } from 'node:path';
import { parse } from './args.js';
import { UsageError } from '../errors.js';
import { repository } from '../git/repo.js';
import { unmergedPaths } from '../git/status.js';
import { resolveConflicts } from '../merge/resolve.js';
import { isWithin, slashRelative } from '../fs/paths.js';
import type { Io } from '../io.js';
import { escapeControls } from '../printable.js';
import { shellPath, shellQuote } from '../shell.js';

const HELP = `Usage: memlint resolve [--ours|--theirs|--both [--entry WHAT]] [PATH...]

Settles memory files (MEMORY.md, topic files, daily logs) left in conflict by a merge,
rebase or cherry-pick that ran without the memlint driver: a hosted merge (GitHub and
GitLab never run custom drivers), a clone that never ran "memlint install", a missing
binary. Merges from the index stages 1-3 (or from the conflict markers in the file when
there are no stages) exactly as "memlint merge" would, writes the file, and stages it
with "git add" when nothing is left in conflict.

What the merge cannot settle (an entry or lines both sides changed) stays between conflict
markers, and resolve prints, for each such conflict, the command that settles it:

  --ours         keep our side of each true conflict
  --theirs       keep their side
  --both         keep both: in MEMORY.md, ours' entry stays and theirs' hook moves into
                 the topic file (as index-duplicate's quick fix does); elsewhere ours' lines,
                 then theirs' (not for a frontmatter key, which holds one value)
  --entry WHAT   only the conflict whose label names WHAT (an index entry's file name,
                 a frontmatter key, a topic's lines, as resolve prints them)
  PATH           files or folders (default: every memory file in conflict, and every
                 tracked memory file holding conflict markers)

With no conflict to settle, resolve lists any conflict marker line still in the memory
files (a separator left when a conflict was settled by hand: delete that line).

Exit codes: 0 everything settled, 1 something is still in conflict or a marker line is
left (listed), 2 failure.
`;

export async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { ours: { type: 'boolean' }, theirs: { type: 'boolean' }, both: { type: 'boolean' }, entry: { type: 'string' } }, 'resolve');
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  // git reports the root with symlinks resolved; so must the paths measured against it.
  const cwd = realpathSync(io.cwd);
  const root = repository(io, cwd)?.root ?? null;
  if (!root) throw new UsageError('resolve works inside a git repository');
  const at = { cwd: root, env: io.env };
  // The repository's top itself is `.` (git takes no empty pathspec).
  const paths = positionals.map((p) => relative(root, resolvePath(cwd, p)).replace(/\\/g, '/') || '.');
  if (paths.some((p) => p.startsWith('../') || p === '..')) throw new UsageError('PATH must lie inside the repository');
  // A PATH that is neither on disk nor in conflict in the index is a mistake, not "nothing to do".
  const missing = positionals.filter((p, i) => !existsSync(resolvePath(cwd, p)) && unmergedPaths(at, [`:(literal)${paths[i]}`]).length === 0);
  if (missing.length > 0) throw new UsageError(`no such file or folder: ${missing[0]}`);
  // A PATH through a symlink that leads out of the repository: nothing is read or written there.
  const realRoot = realpathSync(root);
  for (const p of positionals) {
    const abs = resolvePath(cwd, p);
    if (!existsSync(abs)) continue;
    if (!isWithin(realpathSync(abs), realRoot)) throw new UsageError(`${p} leads out of the repository through a symlink; memlint does not follow it`);
  }
  const choices = (['ours', 'theirs', 'both'] as const).filter((c) => values[c]);
  if (choices.length > 1) throw new UsageError(`choose one of --ours, --theirs and --both (see "memlint resolve --help")`);
  if (values.entry !== undefined && choices.length === 0) throw new UsageError('--entry needs a choice: --ours, --theirs or --both');
  const chosen = choices[0] ? { choice: choices[0], ...(values.entry !== undefined ? { entry: values.entry } : {}) } : undefined;
  const report = resolveConflicts(at, paths, undefined, chosen);
  for (const w of report.warnings) io.stderr.write(`${w}\n`);
  // An --entry that names no conflict settled nothing by choice: said, with the labels there are.
  if (values.entry !== undefined && report.chosen === 0) {
    const labels = [...new Set(report.remaining.flatMap((r) => (r.blocks ?? []).flatMap((b) => (b.what === null ? [] : [b.what]))))];
    io.stderr.write(escapeControls(`memlint: no conflict is labelled ${JSON.stringify(values.entry)}${labels.length > 0 ? `; the conflicts left are labelled ${labels.map((l) => JSON.stringify(l)).join(', ')}` : ''}`) + '\n');
  }
  for (const p of report.resolved) io.stdout.write(`resolved  ${p}\n`);
  for (const r of report.remaining) {
    if (!r.blocks || r.blocks.length === 0) {
      io.stdout.write(`conflict  ${r.path}: ${r.reason}\n`);
      continue;
    }
    // One line per conflict left, with the command that settles it from where resolve was run.
    const where = shellPath(relative(cwd, resolvePath(root, r.path)) || '.');
    for (const b of r.blocks) {
      const what = b.what !== null ? ` (${b.what}: ${b.reason})` : '';
      const options = b.both ? '--ours|--theirs|--both' : '--ours|--theirs';
      const entry = b.what !== null ? ` --entry ${shellQuote(b.what)}` : '';
      const why = b.why ? `: ${b.why}` : '';
      io.stdout.write(escapeControls(`conflict  ${r.path}:${b.line}${what}${why}; settle it: memlint resolve ${options}${entry} ${where}`) + '\n');
    }
  }
  if (report.resolved.length === 0 && report.remaining.length === 0) {
    // No conflict to settle, but a marker line may still be there: a separator left behind when a
    // conflict was settled by hand, which the pre-push check refuses. Said with the line to delete.
    const left = await markerLines(cwd, positionals, io);
    for (const m of left) io.stdout.write(escapeControls(`marker    ${m}`) + '\n');
    if (left.length > 0) return 1;
    io.stdout.write('nothing to resolve\n');
  }
  return report.remaining.length > 0 ? 1 : 0;
}

/** The no-conflict-markers findings in the memory folders of PATH (default: the repository's), as "file:line: message; what to do". */
async function markerLines(cwd: string, positionals: string[], io: Io): Promise<string[]> {
  const { discoverMemdirs } = await import('../memdir/discover.js');
  const { lintMemdirs, resolveRules } = await import('../lint/engine.js');
  const { allRules } = await import('../lint/rules/all.js');
  // A PATH outside any memory folder (a README in conflict) holds no memory to check: skipped, as
  // resolve's own settling skips it, not an error.
  const inMemory = (paths: string[]) => {
    try {
      return discoverMemdirs({ cwd, env: io.env, paths, onSymlinked: () => {} });
    } catch (err) {
      if (err instanceof UsageError) return [];
      throw err;
    }
  };
  const memdirs = positionals.length === 0 ? inMemory([]) : positionals.flatMap((p) => inMemory([p]));
  if (memdirs.length === 0) return [];
  const only = resolveRules(Object.fromEntries(allRules.map((r) => [r.id, r.id === 'no-conflict-markers' ? 'error' : 'off'])));
  const run = await lintMemdirs({ memdirs, env: io.env, rules: only });
  const root = memdirs.find((d) => d.repoRoot)?.repoRoot ?? cwd;
  // The rule's findings only: a file lint cannot read (binary, unreadable) holds no marker line.
  return run.results.flatMap((r) =>
    r.messages.filter((m) => m.ruleId === 'no-conflict-markers').map((m) => `${slashRelative(root, r.filePath)}:${m.line}: ${m.message}`),
  );
}
