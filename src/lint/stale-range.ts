// The memories a range of commits makes stale (`memlint diff`): paths they name at the range's
// head that a rename or deletion inside the range took away. Both ends are read from git's object
// store (src/memdir/range.ts), the renames and deletions with one `git log -M` over the range.
import { readBlobs, treeFiles } from '../git/blobs.js';
import { historyLosses } from '../git/lost-paths.js';
import { fileKind, INDEX_FILE } from '../memdir/kinds.js';
import { memdirsAt, type DiffRange } from '../memdir/range.js';
import { fateOf, indexLosses, memoryPathReferences, type PathFate } from './stale.js';
import type { GitContext } from '../git/repo.js';

export interface StaleMemory {
  /** The memdir, repository-relative ('.' for the top). */
  memdir: string;
  /** The memory file, repository-relative. */
  file: string;
  line: number;
  column: number;
  /** The path as the memory names it (a folder with its final '/'). */
  path: string;
  fate: PathFate;
}

/** What each memory at the range's head names that the range renamed or deleted, by file, then line. */
export async function staleInRange(at: GitContext, range: DiffRange, read?: string[]): Promise<StaleMemory[]> {
  const losses = historyLosses(at, [`${range.baseCommit}..${range.headCommit}`]);
  if (losses.length === 0) return [];
  const files = await treeFiles(at, range.headCommit);
  const fileSet = new Set(files);
  const folders = new Set<string>();
  for (const f of files) for (let i = f.indexOf('/'); i >= 0; i = f.indexOf('/', i + 1)) folders.add(f.slice(0, i));
  const present = (path: string, folder: boolean) => (folder ? folders.has(path) : fileSet.has(path));
  const dirs = memdirsAt(at, range.headCommit, files);
  const prefix = (d: string) => (d === '' ? '' : `${d}/`);
  const owner = (p: string) => dirs.filter((d) => p.startsWith(prefix(d))).sort((a, b) => b.length - a.length)[0];
  // The index and topics, as the rule reads them (daily logs record the past).
  const memory = files.filter((p) => {
    const d = owner(p);
    if (d === undefined || !p.endsWith('.md')) return false;
    const rel = p.slice(prefix(d).length);
    return rel === INDEX_FILE || fileKind(rel).kind === 'topic';
  });
  const blobs = readBlobs(at, memory.map((p) => `${range.headCommit}:${p}`));
  const index = indexLosses(losses);
  const out: StaleMemory[] = [];
  for (const p of memory) {
    const text = blobs.get(`${range.headCommit}:${p}`)?.toString('utf8');
    if (text === undefined) continue;
    read?.push(text);
    for (const ref of memoryPathReferences(text)) {
      const fate = fateOf(ref, index, present);
      if (fate) out.push({ memdir: owner(p) || '.', file: p, line: ref.line, column: ref.column, path: ref.folder ? `${ref.path}/` : ref.path, fate });
    }
  }
  return out;
}
