// Path arithmetic for --staged, with no I/O: which MEMORY.md files could own a staged path, and
// which folder does. The launcher (dist/cli.js) uses it before anything else is loaded.
import { INDEX_FILE, neverFoundAsMemory } from '../memdir/kinds.js';

/** Repository-relative folders above a path, nearest first ('' = the top). */
function foldersAbove(p: string): string[] {
  const parts = p.split('/');
  const out: string[] = [];
  for (let i = parts.length - 1; i >= 0; i--) out.push(parts.slice(0, i).join('/'));
  return out;
}

export const indexIn = (folder: string) => (folder === '' ? INDEX_FILE : `${folder}/${INDEX_FILE}`);

/** Every MEMORY.md path that could own one of the staged Markdown paths. */
export function candidateIndexes(stagedMd: string[]): string[] {
  const candidates = new Set<string>();
  for (const p of stagedMd) if (!neverFoundAsMemory(p)) for (const f of foldersAbove(p)) candidates.add(indexIn(f));
  return [...candidates];
}

/** The folder of the nearest MEMORY.md in `present` above a path, or null. */
export function ownerFolder(p: string, present: Set<string>): string | null {
  if (neverFoundAsMemory(p)) return null;
  for (const f of foldersAbove(p)) if (present.has(indexIn(f))) return f;
  return null;
}

/**
 * The folders most likely to be the memdirs of the staged Markdown files: the nearest one above
 * each whose MEMORY.md exists on disk. A guess used only to start work early; git decides.
 */
export function likelyMemdirs(stagedMd: string[], existsOnDisk: (repoRelative: string) => boolean): string[] {
  const found = new Set<string>();
  for (const p of stagedMd) {
    if (neverFoundAsMemory(p)) continue;
    const f = foldersAbove(p).find((d) => existsOnDisk(indexIn(d)));
    if (f !== undefined) found.add(f);
  }
  return [...found];
}


/**
 * Which candidate MEMORY.md files are in the index, without reading the index: the index is HEAD
 * plus the staged change, so a path the change touched is there unless it was deleted, and any
 * other path is there exactly when HEAD has it.
 */
export function inIndexFrom(candidates: string[], staged: Map<string, string>, inHead: Set<string>): string[] {
  return candidates.filter((c) => {
    const st = staged.get(c);
    return st === undefined ? inHead.has(c) : st !== 'D';
  });
}

/**
 * What a memory naming something a staged deletion (or rename, whose old path git lists as
 * deleted) takes away must hold: the deleted path's folder with its final slash ("src/billing/"),
 * which a path of a file in it and the folder itself both contain. A file at the top has no
 * folder, and no memory path names it (a path needs a folder: src/lint/stale.ts).
 */
export function lostPathNeedles(deleted: string[]): string[] {
  const out = new Set<string>();
  for (const p of deleted) {
    const i = p.lastIndexOf('/');
    if (i > 0) out.add(p.slice(0, i + 1));
  }
  return [...out];
}
