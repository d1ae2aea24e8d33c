// What git says about the staged change, for --staged: the staged paths, which files HEAD's tree
// holds, and which Markdown files name a path. (The git index's entries and the blobs are asked
// as everywhere else: status.ts, blobs.ts.) Loaded by the launcher (dist/cli.js) before the
// program, so it needs nothing but src/git/run.ts and the parsers; it runs git from the folder it
// is given, which is the one memlint started in, in the command's environment.
import { filesInTree, parseNameStatus, splitZ } from './parse.js';
import { argumentGroups, git, gitSync } from './run.js';
import type { GitContext } from './repo.js';

/** Each staged path (repository-relative) with its status letter: the staged change against HEAD. */
export function stagedStatuses(at: GitContext): Map<string, string> {
  return parseNameStatus(git(['diff', '--cached', '--name-status', '-z', '--no-renames', '--no-ext-diff', '--no-textconv'], at));
}

/** Which of these repository-relative paths HEAD's tree holds as files (`ls-tree` reads no index). */
export function filesInHead(at: GitContext, paths: string[]): Set<string> {
  // Literal pathspecs (ls-tree takes no magic): a folder named "a[1]" is that folder, not a pattern.
  const found = new Set<string>();
  for (const group of argumentGroups(paths)) for (const f of filesInTree(git(['--literal-pathspecs', 'ls-tree', '--full-tree', '-z', 'HEAD', '--', ...group], at))) found.add(f);
  return found;
}

/**
 * Tracked Markdown files holding any of these strings, in their staged versions: one
 * `git grep --cached -F -l` over the index's `*.md` files. For --staged, to find the memories that
 * may name a path the staged change renames or deletes. The index, not HEAD's tree, even when no
 * Markdown is staged: git lists the index in one read, where a tree grep inflates every tree
 * object of HEAD to find the Markdown files (docs/BENCHMARKS.md, the staged-rm row). `*.md`
 * without glob magic, which git compares as a suffix where `**` would run wildmatch on every path;
 * the runner (run.ts) turns the pathspec variables off, so the user's environment cannot make it a glob
 * (top-level files only) or a literal name. One thread: each file is a small blob, too little
 * work for the worker threads git would start and lock around.
 */
export function markdownHolding(at: GitContext, needles: string[]): string[] {
  const unique = [...new Set(needles.filter((n) => n !== '' && !n.includes('\n')))];
  if (unique.length === 0) return [];
  const r = gitSync(['grep', '--cached', '--threads=1', '--full-name', '-F', '-l', '-z', '-I', '--no-color', '--no-textconv', '-f', '-', '--', ':(top)*.md'], {
    ...at,
    input: unique.join('\n') + '\n',
    okCodes: [0, 1],
  });
  return splitZ(r.stdout.toString('utf8'));
}
