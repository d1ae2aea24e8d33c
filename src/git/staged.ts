// What git says about the staged change, for --staged: the staged paths, which files HEAD's tree
// and the index hold, the staged blobs. Loaded by the launcher (dist/cli.js) before the program,
// so it needs nothing but src/git/run.ts and the parsers; it runs git from the folder it is
// given, which is the one memlint started in.
import { filesInTree, parseCatFileBatch, parseNameStatus, parseStageEntries, splitZ, type GitIndexEntry } from './parse.js';
import { git, gitAsync, gitSync } from './run.js';

/** Each staged path (repository-relative) with its status letter: the staged change against HEAD. */
export function stagedStatuses(cwd: string): Map<string, string> {
  return parseNameStatus(git(['diff', '--cached', '--name-status', '-z', '--no-renames', '--no-ext-diff', '--no-textconv'], { cwd }));
}

/** Which of these repository-relative paths HEAD's tree holds as files (`ls-tree` reads no index). */
export function filesInHead(cwd: string, paths: string[]): Set<string> {
  // Literal pathspecs: a folder named "a[1]" is that folder, not a pattern.
  return filesInTree(git(['ls-tree', '--full-tree', '-z', 'HEAD', '--', ...paths], { cwd, env: { ...process.env, GIT_LITERAL_PATHSPECS: '1' } }));
}

const literal = (path: string) => `:(top,literal)${path}`;
const folderSpec = (folder: string) => (folder === '' ? ':/' : literal(folder));

/** Which of these repository-relative paths are in the index. */
export function pathsInIndex(cwd: string, paths: string[]): string[] {
  return splitZ(git(['ls-files', '--full-name', '-z', '--', ...paths.map(literal)], { cwd }));
}

/** Index entries (stage 0, repository-relative) of these files and of everything under these folders ('' = the top), without blocking. */
export async function indexEntriesAsync(cwd: string, files: string[], folders: string[]): Promise<GitIndexEntry[]> {
  const specs = [...files.map(literal), ...folders.map(folderSpec)];
  if (specs.length === 0) return [];
  return parseStageEntries((await gitAsync(['ls-files', '-s', '-z', '--full-name', '--', ...specs], { cwd })).stdout.toString('utf8'));
}

/** Blobs by object id (one `cat-file --batch`), without blocking; missing ones are left out. */
export async function readBlobsAsync(cwd: string, ids: string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  if (ids.length === 0) return blobs;
  const out = await gitAsync(['cat-file', '--batch'], { cwd, input: ids.join('\n') + '\n' });
  for (const [id, buf] of parseCatFileBatch(out.stdout, ids)) if (buf) blobs.set(id, buf);
  return blobs;
}

/**
 * Tracked Markdown files holding any of these strings: one `git grep -F -l`, in the index, or in
 * HEAD's tree when the caller knows the two hold the same Markdown (no Markdown staged): a tree
 * grep reads no index, which in a large repository is most of the cost. For --staged, to find the
 * memories that may name a path the staged change renames or deletes.
 */
export function markdownHolding(cwd: string, needles: string[], where: 'index' | 'HEAD'): string[] {
  const unique = [...new Set(needles.filter((n) => n !== '' && !n.includes('\n')))];
  if (unique.length === 0) return [];
  const r = gitSync(['grep', ...(where === 'index' ? ['--cached'] : []), '--full-name', '-F', '-l', '-z', '-I', '--no-color', '--no-textconv', '-f', '-', ...(where === 'HEAD' ? ['HEAD'] : []), '--', ':(top,glob)**/*.md'], { cwd, input: unique.join('\n') + '\n', okCodes: [0, 1] });
  const paths = splitZ(r.stdout.toString('utf8'));
  return where === 'HEAD' ? paths.map((p) => p.slice('HEAD:'.length)) : paths;
}
