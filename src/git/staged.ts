// What git says about the staged change, for --staged: the staged paths, which files HEAD's tree
// holds, and which Markdown files name a path. (The git index's entries and the blobs are asked
// as everywhere else: status.ts, blobs.ts.) Loaded by the launcher (dist/cli.js) before the
// program, so it needs nothing but src/git/run.ts and the parsers; it runs git from the folder it
// is given, which is the one memlint started in, in the command's environment.
import { filesInTree, parseNameStatus, splitZ } from './parse.js';
import { git, gitSync } from './run.js';
import type { GitContext } from './repo.js';

/** Each staged path (repository-relative) with its status letter: the staged change against HEAD. */
export function stagedStatuses(at: GitContext): Map<string, string> {
  return parseNameStatus(git(['diff', '--cached', '--name-status', '-z', '--no-renames', '--no-ext-diff', '--no-textconv'], at));
}

/** Which of these repository-relative paths HEAD's tree holds as files (`ls-tree` reads no index). */
export function filesInHead(at: GitContext, paths: string[]): Set<string> {
  // Literal pathspecs (ls-tree takes no magic): a folder named "a[1]" is that folder, not a pattern.
  return filesInTree(git(['--literal-pathspecs', 'ls-tree', '--full-tree', '-z', 'HEAD', '--', ...paths], at));
}

/**
 * Tracked Markdown files holding any of these strings: one `git grep -F -l`, in the index, or in
 * HEAD's tree when the caller knows the two hold the same Markdown (no Markdown staged): a tree
 * grep reads no index, which in a large repository is most of the cost. For --staged, to find the
 * memories that may name a path the staged change renames or deletes.
 */
export function markdownHolding(at: GitContext, needles: string[], where: 'index' | 'HEAD'): string[] {
  const unique = [...new Set(needles.filter((n) => n !== '' && !n.includes('\n')))];
  if (unique.length === 0) return [];
  const r = gitSync(['grep', ...(where === 'index' ? ['--cached'] : []), '--full-name', '-F', '-l', '-z', '-I', '--no-color', '--no-textconv', '-f', '-', ...(where === 'HEAD' ? ['HEAD'] : []), '--', ':(top,glob)**/*.md'], { cwd: at.cwd, env: at.env, input: unique.join('\n') + '\n', okCodes: [0, 1] });
  const paths = splitZ(r.stdout.toString('utf8'));
  return where === 'HEAD' ? paths.map((p) => p.slice('HEAD:'.length)) : paths;
}
