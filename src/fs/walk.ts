// A recursive listing of a folder's files, by '/'-separated relative path. Unreadable folders are
// skipped and symlinks are never followed; with `withSymlinks` they are listed as entries.
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

export interface WalkOptions {
  skip?: (rel: string, entry: Dirent) => boolean;
  withSymlinks?: boolean;
}

export function walkFiles(dir: string, opts: WalkOptions = {}, rel = '', out: string[] = []): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(dir, rel), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (opts.skip?.(p, e)) continue;
    if (e.isDirectory()) walkFiles(dir, opts, p, out);
    else if (e.isFile() || (opts.withSymlinks && e.isSymbolicLink())) out.push(p);
  }
  return out;
}
