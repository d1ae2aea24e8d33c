// The staged change as --staged lints it: one StagedSource, made by whichever side runs first (the
// launcher, dist/cli.js, before the program loads; the program itself when started without it)
// and passed down (src/commands/given.ts). It names the staged paths at once and, while the
// program loads, gathers the rest: the memdirs the change touches (for each staged Markdown path,
// the nearest folder above it whose MEMORY.md is in the index), their index entries and the
// staged blobs. Loaded by the launcher: it needs only src/git's staged.ts, status.ts, blobs.ts and
// repo.ts, and the path arithmetic.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { GitIndexEntry } from '../git/parse.js';
import type { KnownIndex } from '../memdir/staged-snapshot.js';
import { filesInHead, markdownHolding, stagedStatuses } from '../git/staged.js';
import { gitIndexEntriesAsync, trackedAmong } from '../git/status.js';
import { readBlobsAsync } from '../git/blobs.js';
import { repository, repositoryAsync, type GitContext, type Repository } from '../git/repo.js';
import { SymlinkedMemdirError, symlinkOut, watchedForSymlink } from '../memdir/symlinked.js';
import { candidateIndexes, inIndexFrom, indexIn, likelyMemdirs, lostPathNeedles, ownerFolder } from './staged-paths.js';
import { INDEX_FILE } from '../memdir/kinds.js';
import { agentMemoryScope } from '../memdir/format.js';

export { candidateIndexes, likelyMemdirs, ownerFolder } from './staged-paths.js';

/**
 * What --staged reads from git about the staged Markdown files: the index as far as it is read
 * (listings of the memdirs, their staged blobs, HEAD's versions: the program's staged snapshot
 * starts from it, src/memdir/staged-snapshot.ts), the top of the working tree, and the MEMORY.md
 * files in the index above the staged Markdown files (repository-relative).
 */
export interface StagedFacts extends Required<KnownIndex> {
  root: string;
  indexes: string[];
}

/** The staged change, made once and passed down to the linter (src/commands/given.ts). */
export interface StagedSource {
  /** Staged paths, repository-relative. */
  paths: string[];
  /**
   * Markdown files the change does not stage that may name a path it renames or deletes
   * (repository-relative): read for no-stale-reference alone.
   */
  naming?: string[];
  /** null when a git call failed: the program then asks again and reports the failure. */
  facts: Promise<StagedFacts | null>;
}

export const NO_MEMORY = 'no memory';

/**
 * The staged change (one git call), or NO_MEMORY when nothing staged is memory: no staged
 * Markdown, or none of it under a MEMORY.md in the index (a second call, reading HEAD's tree:
 * the index is HEAD plus the staged change, which the first call listed). A GitError when git
 * cannot list the staged change (outside a repository, say).
 */
export function stagedSource(at: GitContext): StagedSource | typeof NO_MEMORY {
  const staged = stagedStatuses(at);
  const paths = [...staged.keys()];
  // A rename is listed as a deletion and an addition (no rename detection here: it costs).
  const deleted = paths.filter((p) => staged.get(p) === 'D' && !p.endsWith('.md'));
  const stagedMd = paths.filter((p) => p.endsWith('.md'));
  const naming = deleted.length === 0 ? [] : markdownHolding(at, lostPathNeedles(deleted)).filter((p) => !staged.has(p));
  const md = [...stagedMd, ...naming];
  // A memory folder staged as a symlink out of the repository (git stages the link, no Markdown):
  // refused as lint refuses it, not let through as "nothing staged is memory".
  const links = paths.filter((p) => staged.get(p) !== 'D' && watchedForSymlink(p));
  if (links.length > 0) {
    const root = repository(at)?.root;
    const out = root === undefined ? undefined : links.find((p) => symlinkOut(root, p));
    if (out !== undefined) throw new SymlinkedMemdirError(out);
  }
  if (md.length === 0) return NO_MEMORY;
  // Staged paths are relative to the top of the working tree, where git runs hooks: a MEMORY.md on
  // disk there is only a guess (git decides), but a good one to start reading on.
  const likely = likelyMemdirs(md, (rel) => existsSync(join(at.cwd, rel)));
  let facts: Promise<StagedFacts | null>;
  if (likely.length > 0) facts = prefetchStaged(at, md, likely);
  else {
    const indexes = memoryIndexesInIndex(at, md, staged);
    if (indexes?.length === 0) return NO_MEMORY;
    // Without HEAD (no commit yet) the index itself is asked, in the background.
    const folders = indexes ? [...new Set(indexes.map((i) => (i === INDEX_FILE ? '' : i.slice(0, -`/${INDEX_FILE}`.length))))] : [];
    facts = prefetchStaged(at, md, folders, indexes ?? undefined);
  }
  return { paths, naming, facts: facts.catch(() => null) };
}

/**
 * The MEMORY.md files in the index that could own the staged Markdown files, from HEAD's tree and
 * the staged change. null when HEAD cannot be read (no commit yet).
 */
function memoryIndexesInIndex(at: GitContext, md: string[], staged: Map<string, string>): string[] | null {
  const candidates = candidateIndexes(md);
  const unknown = candidates.filter((c) => !staged.has(c));
  let inHead = new Set<string>();
  if (unknown.length > 0) {
    try {
      inHead = filesInHead(at, unknown);
    } catch {
      return null;
    }
  }
  return inIndexFrom(candidates, staged, inHead);
}

export { lostPathNeedles } from './staged-paths.js';

/** MEMORY.md files in the index that could own the staged Markdown paths (one git call, from any folder). */
export function memoryIndexesFor(at: GitContext, stagedMd: string[]): string[] {
  const candidates = candidateIndexes(stagedMd);
  return [...trackedAmong(at, candidates)];
}

/**
 * Gather what --staged reads, without blocking: one `ls-files -s` for the candidate MEMORY.md
 * files and the listings of `folders`, where the repository is beside it, then one
 * `cat-file --batch` for the staged blobs and HEAD's versions of the same files. `indexes`, when
 * already known, skips the candidates. null when git fails.
 */
export async function prefetchStaged(at: GitContext, stagedMd: string[], folders: string[], indexes?: string[]): Promise<StagedFacts | null> {
  const candidates = indexes ? [] : candidateIndexes(stagedMd);
  let entries: GitIndexEntry[];
  let repo: Repository | null;
  try {
    [entries, repo] = await Promise.all([gitIndexEntriesAsync(at, { files: candidates, folders }), repositoryAsync(at)]);
  } catch {
    return null;
  }
  if (repo === null) return null;
  const root = repo.root;
  const byPath = new Map(entries.map((e) => [e.path, e]));
  const present = indexes ?? candidates.filter((c) => byPath.has(c));
  const listings = new Map<string, GitIndexEntry[]>();
  for (const f of folders) listings.set(f, f === '' ? entries : entries.filter((e) => e.path.startsWith(`${f}/`)));

  // The blobs the program will read: MEMORY.md and the staged files of each memdir listed here,
  // staged and at HEAD. A name with a line break cannot go in cat-file's line-based input.
  const wanted = new Set<string>();
  const atHead = new Set<string>();
  const presentSet = new Set(present);
  for (const p of stagedMd) {
    const owner = ownerFolder(p, presentSet);
    if (owner === null || !listings.has(owner)) continue;
    for (const q of [indexIn(owner), p]) {
      if (!q.includes('\n')) atHead.add(q);
      const e = byPath.get(q);
      if (e && e.mode !== '160000') wanted.add(e.object);
    }
  }
  const headSpec = (path: string) => `HEAD:${path}`;
  let read: Map<string, Buffer | null>;
  try {
    read = await readBlobsAsync(at, [...wanted, ...[...atHead].map(headSpec)]);
  } catch {
    return null;
  }
  const blobs = new Map([...wanted].flatMap((id) => (read.get(id) ? [[id, read.get(id)!] as const] : [])));
  const headBlobs = new Map([...atHead].map((path) => [path, read.get(headSpec(path)) ?? null] as const));
  return { root, indexes: present, listings, blobs, headBlobs };
}

/**
 * The memdirs --staged lints: those owning a staged Markdown file (`changed`), and those owning a
 * file of `naming` (memory the change does not stage but may make stale: read, not changed).
 */
export function stagedMemdirsFor(at: GitContext, stagedMd: string[], indexes?: string[], naming: string[] = []): Array<{ dir: string; repoRoot: string; onlyFiles: Set<string>; changed: Set<string> }> {
  const root = at.cwd;
  const present = new Set(indexes ?? memoryIndexesFor(at, [...stagedMd, ...naming]));
  const byDir = new Map<string, { changed: Set<string>; read: Set<string> }>();
  const add = (p: string, changed: boolean) => {
    const owner = ownerFolder(p, present);
    // Local-scope agent memory is never committed by Claude Code: a file of it forced into the index is not linted.
    if (owner === null || agentMemoryScope(owner) === 'local') return;
    const dir = owner === '' ? root : join(root, owner);
    let d = byDir.get(dir);
    if (!d) byDir.set(dir, (d = { changed: new Set(), read: new Set() }));
    (changed ? d.changed : d.read).add(join(root, p));
  };
  for (const p of stagedMd) add(p, true);
  for (const p of naming) add(p, false);
  return [...byDir].map(([dir, { changed, read }]) => ({ dir, repoRoot: root, onlyFiles: new Set([join(dir, INDEX_FILE), ...changed, ...read]), changed }));
}
