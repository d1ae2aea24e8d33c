// The index as --staged reads it: one value the memdir reader (src/memdir/read.ts) reads a folder
// from, as it reads one from the working tree. It starts from what the launcher already read
// (src/lint/staged.ts: listings, staged blobs, HEAD's versions) and asks git for the rest. The
// index as `git add` would make it, for the stylish report's "already fixed in the working tree",
// is the same value with some files' bytes in place of the staged ones (withFiles).
import { readBlobs } from '../git/blobs.js';
import type { GitIndexEntry } from '../git/parse.js';
import { gitIndexEntries } from '../git/status.js';
import type { GitContext } from '../git/repo.js';

export interface StagedSnapshot {
  /** Top of the working tree. */
  readonly root: string;
  /** Index entries (stage 0, repository-relative paths) of everything under a folder ('' = the top). */
  listing(relDir: string): GitIndexEntry[];
  /** The staged bytes of these entries, by repository-relative path; one that cannot be read is left out. */
  contents(entries: GitIndexEntry[]): Map<string, Buffer>;
  /** The staged bytes of these files (repository-relative paths); one the index does not hold as a file is left out. */
  files(paths: string[]): Map<string, Buffer>;
  /** HEAD's version of these files (repository-relative paths): null where HEAD has none. */
  atHead(paths: string[]): Map<string, Buffer | null>;
  /** The same index with these files (repository-relative path -> bytes) staged as they are. */
  withFiles(files: Map<string, Buffer>): StagedSnapshot;
}

/** What is already known of the index: listings by folder, blobs by object id, HEAD's versions by path. */
export interface KnownIndex {
  listings?: Map<string, GitIndexEntry[]>;
  blobs?: Map<string, Buffer>;
  headBlobs?: Map<string, Buffer | null>;
}

export function stagedSnapshot(at: GitContext, known: KnownIndex = {}, replaced: Map<string, Buffer> = new Map()): StagedSnapshot {
  const root = at.cwd;
  const listings = new Map(known.listings);
  const blobs = new Map(known.blobs);
  const head = new Map(known.headBlobs);
  // Each listing by path, made when first looked up in (a search per path was quadratic in a large folder).
  const indexed = new Map<string, Map<string, GitIndexEntry>>();
  const byPath = (folder: string) => {
    let map = indexed.get(folder);
    if (!map) indexed.set(folder, (map = new Map(listings.get(folder)!.map((e) => [e.path, e]))));
    return map;
  };
  const snapshot: StagedSnapshot = {
    root,
    listing(relDir) {
      let listed = listings.get(relDir);
      if (!listed) listings.set(relDir, (listed = gitIndexEntries(at, { folders: [relDir] })));
      return listed;
    },
    contents(entries) {
      // By object id: cat-file then has no need to read the index.
      const missing = entries.filter((e) => !replaced.has(e.path) && !blobs.has(e.object)).map((e) => e.object);
      for (const [id, buf] of readBlobs(at, [...new Set(missing)])) if (buf) blobs.set(id, buf);
      const out = new Map<string, Buffer>();
      for (const e of entries) {
        const buf = replaced.get(e.path) ?? blobs.get(e.object);
        if (buf) out.set(e.path, buf);
      }
      return out;
    },
    files(paths) {
      // From a folder's listing already read where one covers the path, else one `ls-files -s`.
      const entries: GitIndexEntry[] = [];
      const unlisted: string[] = [];
      const folders = [...listings.keys()];
      for (const p of new Set(paths.filter((p) => !replaced.has(p)))) {
        const folder = folders.find((d) => d === '' || p.startsWith(`${d}/`));
        if (folder === undefined) unlisted.push(p);
        else {
          const e = byPath(folder).get(p);
          if (e) entries.push(e);
        }
      }
      for (const e of gitIndexEntries(at, { files: unlisted })) entries.push(e);
      const out = snapshot.contents(entries.filter((e) => e.mode !== '160000'));
      for (const p of paths) if (replaced.has(p)) out.set(p, replaced.get(p)!);
      return out;
    },
    atHead(paths) {
      const unknown = [...new Set(paths.filter((p) => !head.has(p)))];
      const read = readBlobs(at, unknown.map((p) => `HEAD:${p}`));
      for (const p of unknown) head.set(p, read.get(`HEAD:${p}`) ?? null);
      return new Map(paths.map((p) => [p, head.get(p) ?? null]));
    },
    withFiles(more) {
      return stagedSnapshot(at, { listings, blobs, headBlobs: head }, new Map([...replaced, ...more]));
    },
  };
  return snapshot;
}
