// The one recursive listing of a folder, by '/'-separated relative path, depth first in readdir's
// order. Symlinks are never followed: a symlinked folder is an entry, not a folder to enter.
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

export interface WalkOptions {
  /** Leave this entry out (a folder: not entered). */
  skip?: (rel: string, entry: Dirent) => boolean;
  /** A folder that cannot be read ('' for dir itself); without it, such folders are passed over quietly. */
  onUnreadable?: (rel: string, err: unknown) => void;
}

/** Every entry under dir that is not a folder (files, symlinks, anything else), with its Dirent. */
export function* walkEntries(dir: string, opts: WalkOptions = {}, rel = ''): Generator<{ rel: string; entry: Dirent }> {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(dir, rel), { withFileTypes: true });
  } catch (err) {
    opts.onUnreadable?.(rel, err);
    return;
  }
  for (const e of entries) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (opts.skip?.(p, e)) continue;
    if (e.isDirectory()) yield* walkEntries(dir, opts, p);
    else yield { rel: p, entry: e };
  }
}

/** The files under dir; with `withSymlinks`, symlinks too, listed as entries. */
export function walkFiles(dir: string, opts: WalkOptions & { withSymlinks?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const { rel, entry } of walkEntries(dir, opts)) if (entry.isFile() || (opts.withSymlinks && entry.isSymbolicLink())) out.push(rel);
  return out;
}
