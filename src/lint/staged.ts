// Which memdirs a staged change touches: for each staged Markdown path, the nearest folder above
// it whose MEMORY.md is in the index. The launcher (dist/cli.js) asks that question before the
// program loads and, when the answer is yes, gathers the rest of what --staged reads (the memdir's
// index entries, the staged blobs, the top of the working tree) while the program loads, and passes
// it down as a StagedSource. Without the launcher the program asks the same questions itself, synchronously.
import { join } from 'node:path';
import { git, gitAsync, parseCatFileBatch, parseStageEntries, type IndexEntry } from '../git/index.js';
import { candidateIndexes, indexIn, ownerFolder } from './staged-paths.js';

export { candidateIndexes, likelyMemdirs, ownerFolder } from './staged-paths.js';

/** What --staged reads from git, gathered ahead by the launcher. */
export interface StagedFacts {
  /** Top of the working tree. */
  root: string;
  /** MEMORY.md files in the index above the staged Markdown files, repository-relative. */
  indexes: string[];
  /** Complete index listings (stage 0, repository-relative paths) of some folders, by folder ('' = the top). */
  listings: Map<string, IndexEntry[]>;
  /** Staged blobs by object id: each listed memdir's MEMORY.md and its staged Markdown files. */
  blobs: Map<string, Buffer>;
}

/** The staged change as the launcher found it, made once and passed down to the linter (src/commands/given.ts). */
export interface StagedSource {
  /** Staged paths, repository-relative (git diff --cached --name-only). */
  paths: string[];
  /** null when a git call failed: the program then asks again and reports the failure. */
  facts: Promise<StagedFacts | null>;
}

/** MEMORY.md files in the index that could own the staged Markdown paths (one git call, from any folder). */
export function memoryIndexesFor(cwd: string, stagedMd: string[]): string[] {
  const candidates = candidateIndexes(stagedMd);
  if (candidates.length === 0) return [];
  const out = git(['ls-files', '--full-name', '-z', '--', ...candidates.map((c) => `:(top,literal)${c}`)], { cwd });
  return out.split('\0').filter(Boolean);
}

const folderSpec = (folder: string) => (folder === '' ? ':/' : `:(top,literal)${folder}`);

/**
 * Gather what --staged reads, without blocking: one `ls-files -s` for the candidate MEMORY.md
 * files and the listings of `folders`, `rev-parse --show-toplevel` beside it, then one
 * `cat-file --batch` for the blobs. `indexes`, when already known, skips the candidates.
 */
export async function prefetchStaged(cwd: string, stagedMd: string[], folders: string[], indexes?: string[]): Promise<StagedFacts | null> {
  const candidates = indexes ? [] : candidateIndexes(stagedMd);
  const specs = [...candidates.map((c) => `:(top,literal)${c}`), ...folders.map(folderSpec)];
  const [listed, top] = await Promise.all([
    specs.length ? gitAsync(['ls-files', '-s', '-z', '--full-name', '--', ...specs], { cwd }) : Promise.resolve(Buffer.alloc(0)),
    gitAsync(['rev-parse', '--show-toplevel'], { cwd }),
  ]);
  if (!listed || !top) return null;
  const entries = parseStageEntries(listed.toString('utf8'));
  const byPath = new Map(entries.map((e) => [e.path, e]));
  const present = indexes ?? candidates.filter((c) => byPath.has(c));
  const listings = new Map<string, IndexEntry[]>();
  for (const f of folders) listings.set(f, f === '' ? entries : entries.filter((e) => e.path.startsWith(`${f}/`)));

  // The blobs the program will read: MEMORY.md and the staged files of each memdir listed here.
  const wanted = new Set<string>();
  const presentSet = new Set(present);
  for (const p of stagedMd) {
    const owner = ownerFolder(p, presentSet);
    if (owner === null || !listings.has(owner)) continue;
    for (const q of [indexIn(owner), p]) {
      const e = byPath.get(q);
      if (e && e.mode !== '160000') wanted.add(e.object);
    }
  }
  const ids = [...wanted];
  const blobs = new Map<string, Buffer>();
  if (ids.length) {
    const out = await gitAsync(['cat-file', '--batch'], { cwd, input: ids.join('\n') + '\n' });
    if (!out) return null;
    for (const [id, buf] of parseCatFileBatch(out, ids)) if (buf) blobs.set(id, buf);
  }
  return { root: top.toString('utf8').trim(), indexes: present, listings, blobs };
}

export function stagedMemdirsFor(root: string, stagedMd: string[], indexes?: string[]): Array<{ dir: string; repoRoot: string; onlyFiles: Set<string>; changed: Set<string> }> {
  const present = new Set(indexes ?? memoryIndexesFor(root, stagedMd));
  const byDir = new Map<string, Set<string>>();
  for (const p of stagedMd) {
    const owner = ownerFolder(p, present);
    if (owner === null) continue;
    const dir = owner === '' ? root : join(root, owner);
    const changed = byDir.get(dir) ?? new Set<string>();
    changed.add(join(root, p));
    byDir.set(dir, changed);
  }
  return [...byDir].map(([dir, changed]) => ({ dir, repoRoot: root, onlyFiles: new Set([join(dir, 'MEMORY.md'), ...changed]), changed }));
}
