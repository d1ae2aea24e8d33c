// The index as --staged reads it: one value the memdir reader (src/memdir/read.ts) reads a folder
// from, as it reads one from the working tree. It starts from what the launcher already read
// (src/lint/staged.ts: listings, staged blobs, HEAD's versions) and asks git for the rest. The
// index as `git add` would make it, for the stylish report's "already fixed in the working tree",
// is the same value with some files' bytes in place of the staged ones (withFiles).
import { readBlobs } from '../git/blobs.js';
import type { GitIndexEntry } from '../git/parse.js';
import { gitIndexEntries } from '../git/status.js';

export interface StagedSnapshot {
  /** Top of the working tree. */
  readonly root: string;
  /** Index entries (stage 0, repository-relative paths) of everything under a folder ('' = the top). */
  listing(relDir: string): GitIndexEntry[];
  /** The staged bytes of these entries, by repository-relative path; one that cannot be read is left out. */
  contents(entries: GitIndexEntry[]): Map<string, Buffer>;
  /** HEAD's version of files, by repository-relative path: null where HEAD has none; a path not here is read when asked. */
  readonly head: Map<string, Buffer | null>;
  /** The same index with these files (repository-relative path -> bytes) staged as they are. */
  withFiles(files: Map<string, Buffer>): StagedSnapshot;
}

/** What is already known of the index: listings by folder, blobs by object id, HEAD's versions by path. */
export interface KnownIndex {
  listings?: Map<string, GitIndexEntry[]>;
  blobs?: Map<string, Buffer>;
  headBlobs?: Map<string, Buffer | null>;
}

export function stagedSnapshot(root: string, known: KnownIndex = {}, files: Map<string, Buffer> = new Map()): StagedSnapshot {
  const listings = new Map(known.listings);
  const blobs = new Map(known.blobs);
  const head = known.headBlobs ?? new Map<string, Buffer | null>();
  return {
    root,
    head,
    listing(relDir) {
      let listed = listings.get(relDir);
      if (!listed) listings.set(relDir, (listed = gitIndexEntries(root, [relDir === '' ? '.' : relDir])));
      return listed;
    },
    contents(entries) {
      // By object id: cat-file then has no need to read the index.
      const missing = entries.filter((e) => !files.has(e.path) && !blobs.has(e.object)).map((e) => e.object);
      for (const [id, buf] of readBlobs(root, [...new Set(missing)])) if (buf) blobs.set(id, buf);
      const out = new Map<string, Buffer>();
      for (const e of entries) {
        const buf = files.get(e.path) ?? blobs.get(e.object);
        if (buf) out.set(e.path, buf);
      }
      return out;
    },
    withFiles(more) {
      return stagedSnapshot(root, { listings, blobs, headBlobs: head }, new Map([...files, ...more]));
    },
  };
}
